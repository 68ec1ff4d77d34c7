"""The public board for the middle of the table (issue 11, item 7): large type, no secret.

Drawn only from what the board role may see (`Table.view_for(Board())`): the game state is
public by construction (face-down identities are never entered) and a Stay/Withdraw being
chosen shows only as "k of n have chosen".
"""

import flet as ft

from companion.access import TableView
from companion.review import told
from companion.rules import power, turn_order
from models.common import location_name
from models.state import GameState
from views.frame import frame, status_line
from views.power_table import power_table
from views.scoreboard import scoreboard_view
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, TEXT, card, text

BIG = 26
"""Body size on the board: readable from about 1.5 m."""


def _pools(app: AppState, s: GameState) -> ft.Control:
    """Every player's Pool and Influence tokens, in turn order (each player's cell kept while
    it shows the same)."""
    order = turn_order(s) + [i for i in range(len(s.players)) if i not in turn_order(s)]
    wide = 3 if len(order) == 4 else 4  # 4 players: one row of 4 on a tablet; else rows of 3
    cells = [app.memo(f"board-pool-{i}", (s.players[i], s.ambition == i, wide),
                      lambda i=i: _pool(s, i, wide)) for i in order]
    return ft.ResponsiveRow(cells, spacing=10, run_spacing=10)


def _pool(s: GameState, i: int, wide: int) -> ft.Control:
    p = s.players[i]
    mark = " · Ambition" if s.ambition == i else ""
    out = " · OUT" if p.eliminated else ""
    return ft.Container(content=ft.Column([
        text(f"{p.name}{mark}{out}", BIG, bold=True),
        ft.Row([text(str(p.blood), 40, bold=True, color="#ff5a6e", ident_=f"board-blood-{i}"),
                text("Blood", 18, color=MUTED),
                text(str(p.influence), 40, bold=True, color=GOLD, ident_=f"board-infl-{i}"),
                text("Influence", 18, color=MUTED)], spacing=8,
               vertical_alignment=ft.CrossAxisAlignment.END),
        text(f"Diablerie {p.diablerie_up} up, {p.diablerie_down} down · {p.hand_size} in hand",
             18, color=MUTED)], spacing=2),
        bgcolor=SURFACE_HI, border_radius=12, padding=12, col={"xs": 12, "sm": 6, "lg": wide})


def _location_inputs(s: GameState, index: int) -> tuple:
    """Everything `_location` shows: the Location, who is there by name in turn order, the
    Power each has, whether it is being resolved now."""
    loc = s.locations[index]
    seats = [seat for seat in turn_order(s) if loc.positions[seat].present()]
    return (loc, tuple((seat, s.players[seat].name, power(s, loc, seat).total) for seat in seats),
            s.phase == "resolution" and s.location_index == index)


def _location(s: GameState, index: int) -> ft.Control:
    """One Location: its Ally, and each player's face-up cards, face-down count, Blood, Power."""
    loc = s.locations[index]
    lines: list[ft.Control] = [text(location_name(loc.id), 30, bold=True, color=GOLD)]
    if loc.ally:
        a = loc.ally
        lines.append(text(f"{a.name}: {a.influence} Inf · Feed {a.feed} · Drain "
                          f"+{a.drain_blood}", 20))
    if loc.location_card:
        lines.append(text(f"Location card: {loc.location_card.name}", 18, color=MUTED))
    now = s.phase == "resolution" and s.location_index == index
    for seat in turn_order(s):
        pos = loc.positions[seat]
        if not pos.present():
            continue
        up = [f"{c.card.label()}" for c in pos.cards if c.face_up and c.card]
        down = sum(1 for c in pos.cards if not c.face_up)
        parts = up + ([f"{down} face down"] if down else [])
        if pos.blood:
            parts.append(f"{pos.blood} Blood")
        seen = power(s, loc, seat).total
        lines.append(ft.Row([
            ft.Column([text(s.players[seat].name, BIG, bold=True),
                       text(", ".join(parts) or "no card", 18, color=MUTED)],
                      spacing=0, expand=True),
            ft.Column([text(str(seen), 34, bold=True, color=GOLD,
                            ident_=f"board-power-{loc.id}-{seat}"),
                       text("at least" if down else "Power", 14, color=MUTED)],
                      spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER)]))
    if len(lines) <= 2:
        lines.append(text("nobody here yet", 18, color=MUTED))
    return ft.Container(content=ft.Column(lines, spacing=6), bgcolor=SURFACE,
                        border=ft.Border.all(3, GOLD) if now else None, border_radius=12,
                        padding=14, col={"xs": 12, "md": 6, "lg": 4},
                        key=f"board-loc-{loc.id}")


def board_view(app: AppState) -> list[ft.Control]:
    """The board's screen."""
    tv: TableView | None = app.view
    assert tv is not None
    s = tv.state
    body: list[ft.Control] = [text(tv.prompt, 30, bold=True, color=TEXT,
                                   ident_="board-prompt")]
    if tv.withdraw is not None and tv.withdraw.revealed is None:
        body.append(card(text(f"{tv.withdraw.chosen} of {tv.withdraw.of} have chosen Stay or "
                              "Withdraw", 32, bold=True, color=GOLD, ident_="board-chosen")))
    elif tv.withdraw is not None and tv.withdraw.revealed:
        body.append(card(*[text(f"{s.players[p].name}: {c.capitalize()}", BIG, bold=True,
                                ident_=f"board-revealed-{p}")
                           for p, c in tv.withdraw.revealed.items()]))
    if s.phase == "game_over" and s.scoreboard is not None:
        body += scoreboard_view(s.scoreboard)
        return frame(app, "Final score", body, subtitle=status_line(app))
    game = app.game
    if game.actions:
        last = game.actions[-1]
        lines = told(game) or (["Everyone here stayed"] if
                                     last.command.type == "choose_withdraw" else [])
        if lines:
            body.append(card(text("Just happened", 18, color=MUTED),
                             *[text(line, 22) for line in lines[:8]], ident_="board-news"))
    if s.phase == "resolution" and s.location is not None:
        body += power_table(s, s.location, scale=1.5)
    body.append(_pools(app, s))
    if s.locations and s.round:
        body.append(ft.ResponsiveRow([
            app.memo(f"board-loc-{i}", _location_inputs(s, i), lambda i=i: _location(s, i))
            for i in range(len(s.locations))], spacing=10, run_spacing=10))
    return frame(app, "Board", body, subtitle=status_line(app))
