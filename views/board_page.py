"""The public board for the middle of the table: large type, no secret.

Drawn only from what the board role may see (`Table.view_for(Board())`): the game state is
public by construction (face-down identities are never entered) and a Stay/Withdraw being
chosen shows only as "k of n have chosen".
"""

import flet as ft

from companion.rules.queries import power, turn_order
from companion.story.narrator_parts import card_ref, label
from companion.story.review import told
from companion.table.access import TableView
from models.message import place
from models.state import GameState, LocationState
from views.frame import frame, status_line
from views.language_picker import language_picker
from views.power_table import PLACES, power_table
from views.scoreboard import scoreboard_view
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, TEXT, card, text

BIG = 26
"""Body size on the board: readable from about 1.5 m."""


def _order(s: GameState) -> list[int]:
    """Every player in turn order, those out of the game last."""
    order = turn_order(s)
    return order + [i for i in range(len(s.players)) if i not in order]


def _pools(app: AppState, s: GameState) -> ft.Control:
    """Every player's Pool and Influence tokens, in turn order (each player's cell kept while
    it shows the same)."""
    order = _order(s)
    wide = 3 if len(order) == 4 else 4  # 4 players: one row of 4 on a tablet; else rows of 3
    cells = [app.memo(f"board-pool-{i}", (s.players[i], s.ambition == i, wide),
                      lambda i=i: _pool(app, s, i, wide)) for i in order]
    return ft.ResponsiveRow(cells, spacing=10, run_spacing=10)


def _pool(app: AppState, s: GameState, i: int, wide: int) -> ft.Control:
    p = s.players[i]
    mark = " · " + app._("Ambition") if s.ambition == i else ""
    out = " · " + app._("OUT") if p.eliminated else ""
    return ft.Container(content=ft.Column([
        text(f"{p.name}{mark}{out}", BIG, bold=True),
        ft.Row([text(str(p.blood), 40, bold=True, color="#ff5a6e", ident_=f"board-blood-{i}"),
                text(app._("Blood"), 18, color=MUTED),
                text(str(p.influence), 40, bold=True, color=GOLD, ident_=f"board-infl-{i}"),
                text(app._("Influence"), 18, color=MUTED)], spacing=8,
               vertical_alignment=ft.CrossAxisAlignment.END),
        text(app._("Diablerie {up} up, {down} down · {hand} in hand", up=p.diablerie_up,
                   down=p.diablerie_down, hand=p.hand_size), 18, color=MUTED)], spacing=2),
        bgcolor=SURFACE_HI, border_radius=12, padding=12, col={"xs": 12, "sm": 6, "lg": wide})


def _location_inputs(s: GameState, index: int) -> tuple:
    """Everything `_location` shows: the Location, who is there by name in turn order, the
    Power each has, whether it is being resolved now."""
    loc = s.locations[index]
    seats = [seat for seat in turn_order(s) if loc.positions[seat].present()]
    return (loc, tuple((seat, s.players[seat].name, power(s, loc, seat).total) for seat in seats),
            s.phase == "resolution" and s.location_index == index)


def _about(app: AppState, loc: LocationState, ally: int, card: int,
           ally_color: str) -> list[ft.Control]:
    """A Location's Ally and Location card, at these text sizes."""
    out: list[ft.Control] = []
    if loc.ally:
        a = loc.ally
        out.append(text(app._("{ally}: {influence} Inf · Feed {feed} · Drain +{drain}",
                              ally=card_ref(a.id, a.name), influence=a.influence, feed=a.feed,
                              drain=a.drain_blood), ally, color=ally_color))
    if loc.location_card:
        lc = loc.location_card
        out.append(text(app._("Location card: {card}", card=card_ref(lc.id, lc.name)), card,
                        color=MUTED))
    return out


def _here(app: AppState, s: GameState,
          loc: LocationState) -> list[tuple[int, str, int, bool]]:
    """Each player at the Location in turn order: seat, what lies on their Position (face-up
    cards, face-down count, Blood), the Power seen, whether a face-down card hides more."""
    out = []
    for seat in turn_order(s):
        pos = loc.positions[seat]
        if not pos.present():
            continue
        up = [app.words(label(c.card)) for c in pos.cards if c.face_up and c.card]
        down = sum(1 for c in pos.cards if not c.face_up)
        parts = up + ([app._("{n} face down", n=down)] if down else [])
        if pos.blood:
            parts.append(app._("{n} Blood", n=pos.blood))
        out.append((seat, ", ".join(parts) or app._("no card"), power(s, loc, seat).total,
                    down > 0))
    return out


def _location(app: AppState, s: GameState, index: int) -> ft.Control:
    """One Location: its Ally, and each player's face-up cards, face-down count, Blood, Power."""
    loc = s.locations[index]
    lines: list[ft.Control] = [text(app._("{place}", place=place(loc.id)), 30, bold=True,
                                    color=GOLD), *_about(app, loc, 20, 18, TEXT)]
    now = s.phase == "resolution" and s.location_index == index
    for seat, parts, seen, down in _here(app, s, loc):
        lines.append(ft.Row([
            ft.Column([text(s.players[seat].name, BIG, bold=True),
                       text(parts, 18, color=MUTED, ident_=f"board-here-{loc.id}-{seat}")],
                      spacing=0, expand=True),
            ft.Column([text(str(seen), 34, bold=True, color=GOLD,
                            ident_=f"board-power-{loc.id}-{seat}"),
                       text(app._("at least") if down else app._("Power"), 14,
                            color=MUTED)],
                      spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER)]))
    if len(lines) <= 2:
        lines.append(text(app._("nobody here yet"), 18, color=MUTED))
    return ft.Container(content=ft.Column(lines, spacing=6), bgcolor=SURFACE,
                        border=ft.Border.all(3, GOLD) if now else None, border_radius=12,
                        padding=14, col={"xs": 12, "md": 6, "lg": 4},
                        key=f"board-loc-{loc.id}")


def board_view(app: AppState) -> list[ft.Control]:
    """The board's screen: on a tablet or larger (`wide`) everything on one screen without
    scrolling (a board in the middle of a table is never scrolled); on a phone, one column."""
    tv: TableView | None = app.view
    assert tv is not None
    s = tv.state
    if s.phase == "game_over" and s.scoreboard is not None:
        body = [text(app.words(tv.prompt_message), 30, bold=True, color=TEXT,
                     ident_="board-prompt"),
                *scoreboard_view(s.scoreboard, app), _picker(app)]
        return frame(app, app._("Final score"), body, subtitle=status_line(app))
    if app.layout() == "wide":
        return frame(app, app._("Board"), [_wide(app, tv)], subtitle=status_line(app),
                     fixed=True)
    body: list[ft.Control] = [text(app.words(tv.prompt_message), 30, bold=True, color=TEXT,
                                   ident_="board-prompt")]
    body += _choices(app, tv, BIG)
    body += _news(app, 22)
    if s.phase == "resolution" and s.location is not None:
        body += power_table(s, s.location, scale=1.5, app=app)
    body.append(_pools(app, s))
    if s.locations and s.round:
        body.append(ft.ResponsiveRow([
            app.memo(f"board-loc-{i}", _location_inputs(s, i), lambda i=i: _location(app, s, i))
            for i in range(len(s.locations))], spacing=10, run_spacing=10))
    body.append(_picker(app))
    return frame(app, app._("Board"), body, subtitle=status_line(app))


def _picker(app: AppState) -> ft.Control:
    """The board's own language (the board may speak another than the phones)."""
    return ft.Row([language_picker(app)], alignment=ft.MainAxisAlignment.END)


def _choices(app: AppState, tv: TableView, size: int) -> list[ft.Control]:
    """The Stay/Withdraw being chosen ("k of n", never who) or, once all are in, revealed."""
    s = tv.state
    if tv.withdraw is not None and tv.withdraw.revealed is None:
        return [card(text(app._("{chosen} of {of} have chosen Stay or Withdraw",
                                chosen=tv.withdraw.chosen, of=tv.withdraw.of), size + 6,
                          bold=True, color=GOLD, ident_="board-chosen"))]
    if tv.withdraw is not None and tv.withdraw.revealed:
        return [card(ft.Row([text(app._("{name}: Stay", name=s.players[p].name) if c == "stay"
                                  else app._("{name}: Withdraw", name=s.players[p].name)
                                  if c == "withdraw"
                                  else f"{s.players[p].name}: {c.capitalize()}", size, bold=True,
                                  ident_=f"board-revealed-{p}")
                             for p, c in tv.withdraw.revealed.items()], wrap=True, spacing=24))]
    return []


def _news(app: AppState, size: int, most: int = 8) -> list[ft.Control]:
    """What the last action did (public: a face-down card stays "a card")."""
    game = app.game
    undo = app.undo_news()
    if undo is not None:
        lines = [undo]
    elif not game.actions:
        return []
    else:
        last = game.actions[-1]
        lines = told(game, translator=app.t) or (
            [app.t._("Everyone here stayed")] if last.command.type == "choose_withdraw"
            else [])
    if not lines:
        return []
    return [card(text(app.t._("Just happened"), 16, color=MUTED),
                 *[text(line, size) for line in lines[:most]], ident_="board-news")]


def _wide(app: AppState, tv: TableView) -> ft.Control:
    """Tablet and larger: the prompt, then the Locations (two per row) beside each player's
    pool and the news; sized to fit 1280×800 with six players."""
    s = tv.state
    left: list[ft.Control] = []
    if s.locations and s.round:
        tiles = [app.memo(f"board-tile-{i}", _location_inputs(s, i),
                          lambda i=i: _tile(app, s, i)) for i in range(len(s.locations))]
        left.append(ft.ResponsiveRow(tiles, spacing=8, run_spacing=8))
    right: list[ft.Control] = [_pool_rows(app, s), *_news(app, 17, most=4)]
    return ft.Column([
        ft.Row([ft.Container(text(app.words(tv.prompt_message), 24, bold=True, color=TEXT,
                                  ident_="board-prompt"), expand=True),
                language_picker(app)], spacing=8),
        *_choices(app, tv, 22),
        ft.Row([ft.Column(left, expand=3, spacing=8),
                ft.Column(right, expand=2, spacing=8)],
               expand=True, spacing=10, vertical_alignment=ft.CrossAxisAlignment.START)],
        expand=True, spacing=8)


def _pool_rows(app: AppState, s: GameState) -> ft.Control:
    """Every player's clan, Pool, Influence and Diablerie in turn order, one row each (each
    kept while it shows the same)."""
    return ft.Column([app.memo(f"board-row-{i}", (s.players[i], s.ambition == i),
                               lambda i=i: _pool_row(app, s, i)) for i in _order(s)], spacing=6)


def _pool_row(app: AppState, s: GameState, i: int) -> ft.Control:
    p = s.players[i]
    who = f"{p.name} · {p.clan or app._('no clan yet')}" \
        + (" · " + app._("Ambition") if s.ambition == i else "") \
        + (" · " + app._("OUT") if p.eliminated else "")
    return ft.Container(content=ft.Row([
        ft.Column([text(who, 19, bold=True),
                   text(app._("Diablerie {up} up, {down} down · {hand} in hand",
                              up=p.diablerie_up, down=p.diablerie_down, hand=p.hand_size), 14,
                        color=MUTED)], spacing=0, expand=True),
        ft.Column([text(str(p.blood), 30, bold=True, color="#ff5a6e",
                        ident_=f"board-blood-{i}"), text(app._("Blood"), 13, color=MUTED)],
                  spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        ft.Column([text(str(p.influence), 30, bold=True, color=GOLD,
                        ident_=f"board-infl-{i}"), text(app._("Influence"), 13, color=MUTED)],
                  spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER)], spacing=14),
        bgcolor=SURFACE_HI, border_radius=10, padding=ft.Padding.symmetric(horizontal=12,
                                                                          vertical=6))


def _tile(app: AppState, s: GameState, index: int) -> ft.Control:
    """One Location on the wide board: its Ally and each player there (cards, Blood, Power;
    their place once the Conflict is settled); gold-edged while it is being resolved."""
    loc = s.locations[index]
    lines: list[ft.Control] = [text(app._("{place}", place=place(loc.id)), 22, bold=True,
                                    color=GOLD, ident_=f"board-tile-{loc.id}"),
                               *_about(app, loc, 15, 14, MUTED)]
    now = s.phase == "resolution" and s.location_index == index
    ranking = loc.result.ranking if loc.result is not None else []
    totals = loc.result.totals if loc.result is not None else {}
    for seat, parts, seen, down in _here(app, s, loc):
        name = s.players[seat].name
        who = (app._("{place} · {name}", place=app._(PLACES[ranking.index(seat)]), name=name)
               if seat in ranking[:3] else name)
        lines.append(ft.Row([
            ft.Column([text(who, 18, bold=True),
                       text(parts, 14, color=MUTED, ident_=f"board-here-{loc.id}-{seat}")],
                      spacing=0, expand=True),
            text(("≥ " if down else "") + str(totals.get(seat, seen)), 24, bold=True,
                 color=GOLD, ident_=f"board-power-{loc.id}-{seat}")], spacing=6))
    if len(lines) <= 2:
        lines.append(text(app._("nobody here yet"), 15, color=MUTED))
    return ft.Container(content=ft.Column(lines, spacing=2), bgcolor=SURFACE,
                        border=ft.Border.all(3, GOLD) if now else
                        ft.Border.all(1, "#3a2327"), border_radius=12,
                        padding=10, col={"xs": 12, "md": 6}, key=f"board-tile-{loc.id}")
