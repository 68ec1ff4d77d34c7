"""The in-game screen: what happens now (by phase), the dashboard, or the log."""

import flet as ft

from views.clock_line import clock_line
from views.dashboard import board_view, dashboard_view
from views.feed import feed_view
from views.frame import frame, status_line
from views.hand_building import hand_building_view
from views.location_setup import entering, location_setup_view
from views.log_view import log_view
from views.planning import planning_view
from views.resolution import resolution_view
from views.scoreboard import scoreboard_actions, scoreboard_view
from views.setup_steps import setup_view
from views.share_result import share_panel
from views.state import AppState

PHASE_VIEWS = {
    "setup": setup_view, "feed": feed_view, "location_setup": location_setup_view,
    "hand_building": hand_building_view, "planning": planning_view,
    "resolution": resolution_view,
}


def place(app: AppState) -> str:
    """Where the game stands: a new turn, step or phase gets a new value (its screen then
    starts at the top)."""
    s = app.game.state
    legal = app.legal()
    opened = [app.drafts.get(k, {}).get("open") or None  # (a form closed: as never opened)
              for k in ("ally-pick", "relic-pick", "loccard-pick", "effect")]
    return "-".join(str(x) for x in (s.round, s.phase, s.location_index, s.step, legal.actor,
                                     legal.turn, s.awaiting, len(s.setup.relics_taken),
                                     *opened, _next_open(app)))


def _next_open(app: AppState) -> str:
    """Which Location of Location Setup is being entered (each one starts at the top)."""
    if app.game.state.phase != "location_setup":
        return ""
    return str(entering(app))


def game_view(app: AppState) -> list[ft.Control]:
    """The open game's screen."""
    g = app.game
    legal = g.legal()
    aside: list[ft.Control] | None = None
    where = ""
    if app.screen == "table":
        body = dashboard_view(app)
        title = app._("Table")
    elif app.screen == "log":
        body = log_view(app)
        title = app._("Action log")
    elif legal.phase == "game_over" and g.scoreboard is not None:
        body = [*scoreboard_view(g.scoreboard, app), *share_panel(app, g), *scoreboard_actions(app)]
        title = app._("Final score")
    else:
        body = PHASE_VIEWS[legal.phase](app, legal)
        title = "Vendetta"
        where = place(app)
        if app.layout() == "wide":
            aside = board_view(app)
    key = legal.step if legal.phase == "resolution" and legal.step else legal.phase
    prompt = (app.words(legal.prompt_message), key)
    return frame(app, title, [clock_line(app), *body], subtitle=status_line(app),
                 game_bar=True, prompt=prompt, aside=aside, place=where)
