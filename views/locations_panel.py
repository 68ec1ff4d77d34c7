"""What lies at each Location: its Ally, Location card, and each player's cards and Blood."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.i18n import ENGLISH
from companion.rules.queries import turn_order
from companion.story.narrator_parts import card_ref, label
from companion.story.words import render
from models.message import Message, place
from models.state import GameState
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, card, text


class EnglishWords:
    """`app._` and `app.words` for a caller that gives no device: English, the templates as
    written (a screen passes its `app`, so its own language is used)."""

    t = ENGLISH

    def _(self, template: str, /, **args: Any) -> str:
        """A template with its fields filled in, in English."""
        return render(Message(key=template, args=args), (), ENGLISH)

    def words(self, message: Message | str) -> str:
        """A message in English (a text as it is)."""
        return message if isinstance(message, str) else render(message, (), ENGLISH)


ENGLISH_WORDS = EnglishWords()
"""The words of a caller without a device."""


def position_line(state: GameState, loc_index: int, seat: int,
                  app: AppState | EnglishWords | None = None) -> str | None:
    """'Anna: Bloody Fury (6), face-down card + 2 Blood', or None when empty (in `app`'s
    language; English without one)."""
    app = ENGLISH_WORDS if app is None else app
    pos = state.locations[loc_index].positions[seat]
    if not pos.present():
        return None
    cards = [app.words(label(c.card)) if c.face_up and c.card else app._("face-down card")
             for c in pos.cards]
    parts = ", ".join(cards) or app._("no card")
    name = state.players[seat].name
    if pos.blood:
        return app._("{name}: {cards} + {n} Blood", name=name, cards=parts, n=pos.blood)
    return app._("{name}: {cards}", name=name, cards=parts)


def locations_panel(state: GameState, *, compact: bool = False, ids: bool = True,
                    app: AppState | EnglishWords | None = None) -> list[ft.Control]:
    """One panel per Location (`ids`: with stable ids; off on the board beside a form), in
    `app`'s language (English without one)."""
    app = ENGLISH_WORDS if app is None else app
    out: list[ft.Control] = []
    for i, loc in enumerate(state.locations):
        if loc.ally:
            head = app._("{place} — {ally}", place=place(loc.id),
                         ally=card_ref(loc.ally.id, loc.ally.name))
        else:
            head = app._("{place}", place=place(loc.id))
        lines: list[ft.Control] = [text(head, 17, bold=True, color=GOLD)]
        if loc.location_card and not compact:
            lines.append(text(app._("Location card: {card}", card=card_ref(
                loc.location_card.id, loc.location_card.name)), 15, color=MUTED))
        for seat in turn_order(state):
            line = position_line(state, i, seat, app)
            if line:
                lines.append(text(line, 16, ident_=f"at-{loc.id}-{seat}" if ids else None))
        if len(lines) == 1 and not compact:
            lines.append(text(app._("nobody here yet"), 15, color=MUTED))
        out.append(card(*lines, color=SURFACE, ident_=f"loc-{loc.id}" if ids else None))
    return out
