"""Final scoreboard: every rank at a glance, then each player's Influence breakdown and the
tie-breaks (§12)."""

import flet as ft

from models.said import message_of
from models.state import InfluenceBreakdown, Scoreboard
from views.locations_panel import ENGLISH_WORDS, EnglishWords
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, button, card, heading, main, text


def breakdown_line(b: InfluenceBreakdown,
                   app: AppState | EnglishWords | None = None) -> str:
    """'active 3 + drained 0 + tokens 9 + relic 2 − Diablerie 1 = 13' (in `app`'s language,
    English without one)."""
    app = ENGLISH_WORDS if app is None else app
    parts = [app._("active cards {n}", n=b.active_cards),
             app._("drained cards {n}", n=b.drained_cards), app._("tokens {n}", n=b.tokens)]
    if b.relic:
        parts.append(app._("Relic {n}", n=b.relic))
    line = " + ".join(parts)
    if b.diablerie:
        line += " - " + app._("Diablerie {n}", n=-b.diablerie)
    return f"{line} = {b.total}"


def said(app: AppState | EnglishWords, value: str) -> str:
    """A kept message (a tie-break) in `app`'s language."""
    return app.words(message_of(value))


def scoreboard_view(board: Scoreboard,
                    app: AppState | EnglishWords | None = None) -> list[ft.Control]:
    """The standings, best first (in `app`'s language, English without one)."""
    app = ENGLISH_WORDS if app is None else app
    standings = [ft.Row([text(f"{r.rank}. {r.name}", 18, bold=r.rank == 1),
                         text(app._("{n} Influence", n=r.influence.total), 18, bold=True,
                              color=GOLD)],
                        alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True,
                        key=f"standing-{r.rank}") for r in board.rows]
    out: list[ft.Control] = [card(
        text(app._("Team {team} wins!", team=board.winning_team) if board.winning_team
             else app._("{name} wins!", name=board.winner), 26, bold=True, color=GOLD,
             ident_="winner"),
        *standings,  # every rank at a glance; the details follow
        text(app._("Most Influence wins; a tie goes to more Blood, then to turn order."), 15,
             color=MUTED), color="#241012", ident_="standings")]
    if board.teams:
        rows = [text(app._("{rank}. {team}: {influence} Influence, {blood} Blood — {tiebreak}",
                            rank=t.rank, team=t.team, influence=t.influence, blood=t.blood,
                            tiebreak=said(app, t.tiebreak)) if t.tiebreak
                     else app._("{rank}. {team}: {influence} Influence, {blood} Blood",
                                rank=t.rank, team=t.team, influence=t.influence,
                                blood=t.blood), 17,
                     ident_=f"team-{t.rank}") for t in board.teams]
        out.append(card(heading(app._("Teams"), 18), *rows))
    for r in board.rows:
        parts: list[ft.Control] = [
            ft.Row([text(f"{r.rank}. {r.name}", 20, bold=True),
                    text(str(r.influence.total), 30, bold=True, color=GOLD,
                         ident_=f"score-{r.rank}")],
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            text(app._("{clan} · {blood} Blood · turn position {position} · OUT (third "
                       "Diablerie)", clan=r.clan or "", blood=r.blood,
                       position=r.turn_position) if r.eliminated
                 else app._("{clan} · {blood} Blood · turn position {position}",
                            clan=r.clan or "", blood=r.blood, position=r.turn_position),
                 15, color=MUTED),
            text(breakdown_line(r.influence, app), 15, ident_=f"breakdown-{r.rank}"),
        ]
        if r.tiebreak:
            parts.append(text(app._("Tie-break: {reason}", reason=said(app, r.tiebreak)), 15,
                              color=GOLD))
        out.append(card(*parts, color=SURFACE_HI if r.rank == 1 else SURFACE,
                        ident_=f"row-{r.rank}"))
    out.append(heading(app._("Influence = active cards + drained cards + tokens + Relic - "
                             "Diablerie"), 14))
    return out


def on_review_open(app: AppState) -> None:
    """The finished game's review: the story, a replay and the charts."""
    app.notice = []
    app.open_review(app.game.header.game_id)


def scoreboard_actions(app: AppState) -> list[ft.Control]:
    """Under the final scoreboard: its review (main button) and Home."""
    return [main(button(app._("Review this game"), lambda e: on_review_open(app),
                        ident_="to-review", icon=ft.Icons.HISTORY_EDU)),
            button(app._("Home"), lambda e: app.go("home"), primary=False, ident_="to-home",
                   icon=ft.Icons.HOME)]
