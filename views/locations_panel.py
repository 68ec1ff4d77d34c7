"""What lies at each Location: its Ally, Location card, and each player's cards and Blood."""

import flet as ft

from companion.rules.queries import turn_order
from models.common import location_name
from models.state import GameState
from views.theme import GOLD, MUTED, SURFACE, card, text


def position_line(state: GameState, loc_index: int, seat: int) -> str | None:
    """'Anna: Bloody Fury (6), face-down card + 2 Blood', or None when empty."""
    pos = state.locations[loc_index].positions[seat]
    if not pos.present():
        return None
    cards = [c.card.label() if c.face_up and c.card else "face-down card" for c in pos.cards]
    parts = ", ".join(cards) or "no card"
    blood = f" + {pos.blood} Blood" if pos.blood else ""
    return f"{state.players[seat].name}: {parts}{blood}"


def locations_panel(state: GameState, *, compact: bool = False,
                    ids: bool = True) -> list[ft.Control]:
    """One panel per Location (`ids`: with stable ids; off on the board beside a form)."""
    out: list[ft.Control] = []
    for i, loc in enumerate(state.locations):
        head = location_name(loc.id)
        if loc.ally:
            head += f" — {loc.ally.name}"
        lines: list[ft.Control] = [text(head, 17, bold=True, color=GOLD)]
        if loc.location_card and not compact:
            lines.append(text(f"Location card: {loc.location_card.name}", 15, color=MUTED))
        for seat in turn_order(state):
            line = position_line(state, i, seat)
            if line:
                lines.append(text(line, 16, ident_=f"at-{loc.id}-{seat}" if ids else None))
        if len(lines) == 1 and not compact:
            lines.append(text("nobody here yet", 15, color=MUTED))
        out.append(card(*lines, color=SURFACE, ident_=f"loc-{loc.id}" if ids else None))
    return out
