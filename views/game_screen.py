"""The in-game screen: what happens now (by phase), the dashboard, or the log."""

import flet as ft

from views.clock_line import clock_line
from views.dashboard import dashboard_view
from views.feed import feed_view
from views.frame import frame, status_line
from views.hand_building import hand_building_view
from views.help_button import help_button
from views.location_setup import location_setup_view
from views.log_view import log_view
from views.planning import planning_view
from views.resolution import resolution_view
from views.scoreboard import scoreboard_view
from views.setup_steps import setup_view
from views.share_result import share_panel
from views.state import AppState
from views.theme import GOLD, text

PHASE_VIEWS = {
    "setup": setup_view, "feed": feed_view, "location_setup": location_setup_view,
    "hand_building": hand_building_view, "planning": planning_view,
    "resolution": resolution_view,
}


def game_view(app: AppState) -> list[ft.Control]:
    """The open game's screen."""
    g = app.game
    legal = g.legal()
    if app.screen == "table":
        body = dashboard_view(app)
        title = "Table"
    elif app.screen == "log":
        body = log_view(app)
        title = "Action log"
    elif legal.phase == "game_over" and g.scoreboard is not None:
        body = [*scoreboard_view(g.scoreboard), *share_panel(app, g)]
        title = "Final score"
    else:
        key = legal.step if legal.phase == "resolution" and legal.step else legal.phase
        prompt = ft.Row([ft.Container(content=text(legal.prompt, 18, bold=True, color=GOLD,
                                                   ident_="prompt"), expand=True),
                         help_button(app, key)],
                        vertical_alignment=ft.CrossAxisAlignment.START, spacing=4)
        body = [prompt, *PHASE_VIEWS[legal.phase](app, legal)]
        title = "Vendetta"
    return frame(app, title, [clock_line(app), *body], subtitle=status_line(app), game_bar=True)
