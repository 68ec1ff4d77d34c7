"""Game review: the final score, the story, a replay of the table, and charts."""

import flet as ft

from companion.story.review import blood_series, conflict_powers, influence_series
from models.message import N_, term
from views.frame import frame
from views.replay_view import replay_view
from views.review_charts import legend, line_chart, power_chart
from views.scoreboard import scoreboard_view
from views.state import AppState
from views.theme import MUTED, button, text
from views.timeline_view import review_draft, timeline_view

TABS = (("score", N_("Score")), ("story", N_("Story")), ("replay", N_("Replay")),
        ("charts", N_("Charts")))


def on_tab_pick(app: AppState, tab: str) -> None:
    """Switch between the review's four views."""
    review_draft(app)["tab"] = tab
    app.render()


def charts_view(app: AppState) -> list[ft.Control]:
    """Influence and Blood across the game, and Power at each Conflict, round by round."""
    game = app.review
    assert game is not None
    infl, blood = influence_series(game), blood_series(game)
    conflicts = conflict_powers(game)
    out: list[ft.Control] = [
        text(app._("Across the game, one point per action; Influence counts as it would score "
                   "if the game ended there."), 15, color=MUTED),
        line_chart(app, infl, app._("Influence"), "chart-influence"),
        line_chart(app, blood, app._("Blood in the Pool"), "chart-blood"),
    ]
    rounds = sorted({c.round for c in conflicts})
    if rounds:
        out.append(legend(app, infl.players))
    out += [power_chart(app, conflicts, r) for r in rounds]
    return out


def score_view(app: AppState) -> list[ft.Control]:
    """The final scoreboard, or where an unfinished game stands."""
    game = app.review
    assert game is not None
    if game.scoreboard is not None:
        return scoreboard_view(game.scoreboard)
    s = game.state
    if s.round:
        said = app._("This game is not finished: it stopped at Round {round}, {phase}. Resume "
                     "it from Home; the Replay shows its table.", round=s.round,
                     phase=term(s.phase))
    else:
        said = app._("This game is not finished: it stopped at setup. Resume it from Home; the "
                     "Replay shows its table.")
    return [text(said, 17, color=MUTED, ident_="not-finished")]


def review_view(app: AppState) -> list[ft.Control]:
    """Tabs and the chosen tab's body."""
    game = app.review
    assert game is not None
    d = review_draft(app)
    tabs = ft.Row([button(app._(label), lambda e, t=tab: on_tab_pick(app, t), primary=False,
                          selected=d["tab"] == tab, expand=True, ident_=f"review-tab-{tab}")
                   for tab, label in TABS], spacing=4)
    body = {"score": score_view, "story": lambda a: timeline_view(a, game),
            "replay": lambda a: replay_view(a, game), "charts": charts_view}[d["tab"]](app)
    names = ", ".join(p.name for p in game.state.players)
    when = app.t.date(game.header.created)
    return frame(app, app._("Game review"), [tabs, *body], subtitle=f"{names} · {when}")
