"""The Power table at the Location being resolved, explained, and the ranking (§8.4); the
outcome of the Locations just resolved, shown in the content of the screens after them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.rules.queries import power, present_players
from models.common import location_name
from models.state import ConflictResult, GameState, LocationState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, card, heading, text

if TYPE_CHECKING:
    from companion.rules.game import Game

PLACES = ("1st", "2nd", "3rd")


def power_table(state: GameState, loc: LocationState, scale: float = 1.0) -> list[ft.Control]:
    """Each present player's total with its breakdown; the ranking once the Conflict is over
    (`scale` enlarges the type, e.g. 1.5 on the public board)."""
    def z(size: int) -> int:
        return round(size * scale)

    here = present_players(state, loc)
    result = loc.result
    rows: list[ft.Control] = [heading(f"Power at {location_name(loc.id)}", z(18))]
    if result is not None:
        seats = list(result.ranking) + [p for p in result.totals if p not in result.ranking]
    else:
        seats = here
    for seat in seats:
        b = power(state, loc, seat)
        total = result.totals.get(seat, b.total) if result else b.total
        place = ""
        if result is not None and seat in result.ranking:
            rank = result.ranking.index(seat)
            place = f"{PLACES[rank]} · " if rank < 3 else "no reward · "
        rows.append(ft.Container(content=ft.Row([
            ft.Column([text(f"{place}{state.players[seat].name}", z(18), bold=True),
                       text(b.explain(), z(14), color=MUTED)], spacing=2, expand=True),
            text(str(total), z(30), bold=True, color=GOLD, ident_=f"power-{seat}"),
        ]), bgcolor=SURFACE_HI, border_radius=8, padding=10))
    if not seats:
        rows.append(text("Nobody is here.", z(16), color=MUTED))
    if result is not None:
        notes = {"uncontested": "Only one player had cards here when the Withdraw step ended: "
                                "they win and take the 1st-place reward alone.",
                 "no_cards": "Nobody had cards here: no reward, the Ally leaves the game.",
                 "contested": "Ties go to the player earlier in turn order."}
        for note in loc.tie_notes or [notes[result.outcome]]:
            rows.append(text(note, z(15), color=MUTED))
    return [card(*rows, ident_="power-table")]


def last_results(game: Game, most: int) -> list[tuple[str, ConflictResult]]:
    """The last `most` Locations resolved (oldest first), each with its outcome (read from the
    actions' events: a round's end clears them from the state)."""
    found: list[tuple[str, ConflictResult]] = []
    for action in reversed(game.actions):
        for e in reversed(action.events):
            if e.type == "conflict_resolved":
                found.append((e.location, e.result))
                if len(found) == most:
                    return found[::-1]
    return found[::-1]


def outcome_lines(state: GameState, loc_id: str, result: ConflictResult,
                  prefix: str) -> list[ft.Control]:
    """'Result at Location #1', then who placed where with what Power."""
    lines: list[ft.Control] = [text(f"Result at {location_name(loc_id)}", 17, bold=True,
                                    color=GOLD)]
    if result.outcome == "no_cards":
        lines.append(text("Nobody had cards here: no reward.", 16))
    for rank, seat in enumerate(result.ranking):
        place = PLACES[rank] if rank < 3 else "no reward"
        lines.append(text(f"{place}: {state.players[seat].name}, Power "
                          f"{result.totals.get(seat, 0)}", 16, ident_=f"{prefix}-{rank}"))
    if result.outcome == "uncontested":
        lines.append(text("Uncontested: the only player with cards here wins.", 15,
                          color=MUTED))
    return lines


def outcomes_card(game: Game, most: int, ident_: str = "last-result") -> list[ft.Control]:
    """The outcome of the last `most` Locations resolved, in one panel (none: nothing)."""
    results = last_results(game, most)
    if not results:
        return []
    lines: list[ft.Control] = []
    for k, (loc_id, result) in enumerate(results):
        lines.append(ft.Column(outcome_lines(game.state, loc_id, result, f"result-{k}"),
                               spacing=2))
    return [card(*lines, color=SURFACE, ident_=ident_)]
