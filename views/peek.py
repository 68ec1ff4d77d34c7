"""The look-at-face-down Ally (§15): its owner Spends 1 Blood per face-down card looked at."""

import flet as ft

from companion.rules.legal import Legal
from models.message import place
from views.state import AppState
from views.theme import MUTED, SURFACE_HI, button, card, heading, text, wrap


def on_peek_card(app: AppState, seat: int, uid: str) -> None:
    """The owner looks at one face-down card (the companion never records what it is)."""
    app.play({"type": "peek", "player": seat, "cards": [uid]})


def peek_panel(app: AppState, legal: Legal) -> list[ft.Control]:
    """One button per face-down card for each player who may look, when anyone may."""
    if not legal.peekers:
        return []
    s = app.game.state
    where = {c.uid: (loc.id, seat) for loc in s.locations
             for seat, pos in enumerate(loc.positions) for c in pos.cards}
    rows: list[ft.Control] = [heading(app._("Look at a face-down card"), 18),
                              text(app._("1 Blood per card; only its owner sees it."), 15,
                                   color=MUTED)]
    for seat in legal.peekers:
        buttons = [button(app._("{name} at {place}", name=s.players[where[uid][1]].name,
                                place=place(where[uid][0])),
                          lambda e, seat=seat, uid=uid: on_peek_card(app, seat, uid),
                          primary=False, ident_=f"peek-{seat}-{uid}")
                   for uid in legal.peekable if where[uid][1] != seat]
        if buttons:
            rows += [text(s.players[seat].name, 16, bold=True), wrap(*buttons)]
    return [card(*rows, color=SURFACE_HI)] if len(rows) > 2 else []
