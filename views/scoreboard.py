"""Final scoreboard: every rank at a glance, then each player's Influence breakdown and the
tie-breaks (§12)."""

import flet as ft

from models.state import InfluenceBreakdown, Scoreboard
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, button, card, heading, main, text


def breakdown_line(b: InfluenceBreakdown) -> str:
    """'active 3 + drained 0 + tokens 9 + relic 2 − Diablerie 1 = 13'."""
    parts = [f"active cards {b.active_cards}", f"drained cards {b.drained_cards}",
             f"tokens {b.tokens}"]
    if b.relic:
        parts.append(f"Relic {b.relic}")
    line = " + ".join(parts)
    if b.diablerie:
        line += f" - Diablerie {-b.diablerie}"
    return f"{line} = {b.total}"


def scoreboard_view(board: Scoreboard) -> list[ft.Control]:
    """The standings, best first."""
    standings = [ft.Row([text(f"{r.rank}. {r.name}", 18, bold=r.rank == 1),
                         text(f"{r.influence.total} Influence", 18, bold=True, color=GOLD)],
                        alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True,
                        key=f"standing-{r.rank}") for r in board.rows]
    out: list[ft.Control] = [card(
        text(f"{board.headline()} wins!", 26, bold=True, color=GOLD, ident_="winner"),
        *standings,  # every rank at a glance; the details follow
        text("Most Influence wins; a tie goes to more Blood, then to turn order.", 15,
             color=MUTED), color="#241012", ident_="standings")]
    if board.teams:
        rows = [text(f"{t.rank}. {t.team}: {t.influence} Influence, {t.blood} Blood"
                     + (f" — {t.tiebreak}" if t.tiebreak else ""), 17,
                     ident_=f"team-{t.rank}") for t in board.teams]
        out.append(card(heading("Teams", 18), *rows))
    for r in board.rows:
        status = " · OUT (third Diablerie)" if r.eliminated else ""
        parts: list[ft.Control] = [
            ft.Row([text(f"{r.rank}. {r.name}", 20, bold=True),
                    text(str(r.influence.total), 30, bold=True, color=GOLD,
                         ident_=f"score-{r.rank}")],
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            text(f"{r.clan or ''} · {r.blood} Blood · turn position {r.turn_position}{status}",
                 15, color=MUTED),
            text(breakdown_line(r.influence), 15, ident_=f"breakdown-{r.rank}"),
        ]
        if r.tiebreak:
            parts.append(text(f"Tie-break: {r.tiebreak}", 15, color=GOLD))
        out.append(card(*parts, color=SURFACE_HI if r.rank == 1 else SURFACE,
                        ident_=f"row-{r.rank}"))
    out.append(heading("Influence = active cards + drained cards + tokens + Relic - Diablerie",
                       14))
    return out


def on_review_open(app: AppState) -> None:
    """The finished game's review: the story, a replay and the charts."""
    app.notice = []
    app.open_review(app.game.header.game_id)


def scoreboard_actions(app: AppState) -> list[ft.Control]:
    """Under the final scoreboard: its review (main button) and Home."""
    return [main(button("Review this game", lambda e: on_review_open(app), ident_="to-review",
                        icon=ft.Icons.HISTORY_EDU)),
            button("Home", lambda e: app.go("home"), primary=False, ident_="to-home",
                   icon=ft.Icons.HOME)]
