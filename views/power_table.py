"""The Power table at the Location being resolved, explained, and the ranking (§8.4); the
outcome of the Locations just resolved, shown in the content of the screens after them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.rules.queries import power, present_players
from models.message import N_, place
from models.said import message_of
from models.state import ConflictResult, GameState, LocationState
from views.locations_panel import ENGLISH_WORDS, EnglishWords
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, card, heading, text

if TYPE_CHECKING:
    from companion.rules.game import Game

PLACES = (N_("1st"), N_("2nd"), N_("3rd"))
"""The rewarded places (English; shown with `app._(PLACES[i])`)."""


def power_table(state: GameState, loc: LocationState, scale: float = 1.0,
                app: AppState | EnglishWords | None = None) -> list[ft.Control]:
    """Each present player's total with its breakdown; the ranking once the Conflict is over
    (`scale` enlarges the type, e.g. 1.5 on the public board; in `app`'s language, English
    without one)."""
    app = ENGLISH_WORDS if app is None else app
    def z(size: int) -> int:
        return round(size * scale)

    here = present_players(state, loc)
    result = loc.result
    rows: list[ft.Control] = [heading(app._("Power at {place}", place=place(loc.id)),
                                      z(18))]
    if result is not None:
        seats = list(result.ranking) + [p for p in result.totals if p not in result.ranking]
    else:
        seats = here
    for seat in seats:
        b = power(state, loc, seat)
        total = result.totals.get(seat, b.total) if result else b.total
        who = state.players[seat].name
        if result is not None and seat in result.ranking:
            rank = result.ranking.index(seat)
            who = (app._("{place} · {name}", place=app._(PLACES[rank]), name=who) if rank < 3
                   else app._("no reward · {name}", name=who))
        rows.append(ft.Container(content=ft.Row([
            ft.Column([text(who, z(18), bold=True),
                       text(b.explain(), z(14), color=MUTED)], spacing=2, expand=True),
            text(str(total), z(30), bold=True, color=GOLD, ident_=f"power-{seat}"),
        ]), bgcolor=SURFACE_HI, border_radius=8, padding=10))
    if not seats:
        rows.append(text(app._("Nobody is here."), z(16), color=MUTED))
    if result is not None:
        notes = {"uncontested": app._("Only one player had cards here when the Withdraw step "
                                      "ended: they win and take the 1st-place reward alone."),
                 "no_cards": app._("Nobody had cards here: no reward, the Ally leaves the "
                                   "game."),
                 "contested": app._("Ties go to the player earlier in turn order.")}
        for note in ([app.words(message_of(n)) for n in loc.tie_notes]
                     or [notes[result.outcome]]):
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
                  prefix: str, app: AppState | EnglishWords | None = None) -> list[ft.Control]:
    """'Result at Location #1', then who placed where with what Power (in `app`'s language,
    English without one)."""
    app = ENGLISH_WORDS if app is None else app
    lines: list[ft.Control] = [text(app._("Result at {place}",
                                          place=place(loc_id)), 17, bold=True,
                                    color=GOLD)]
    if result.outcome == "no_cards":
        lines.append(text(app._("Nobody had cards here: no reward."), 16))
    for rank, seat in enumerate(result.ranking):
        name, total = state.players[seat].name, result.totals.get(seat, 0)
        lines.append(text(app._("{place}: {name}, Power {power}", place=app._(PLACES[rank]),
                                name=name, power=total) if rank < 3
                          else app._("no reward: {name}, Power {power}", name=name,
                                     power=total), 16, ident_=f"{prefix}-{rank}"))
    if result.outcome == "uncontested":
        lines.append(text(app._("Uncontested: the only player with cards here wins."), 15,
                          color=MUTED))
    return lines


def outcomes_card(game: Game, most: int, ident_: str = "last-result",
                  app: AppState | EnglishWords | None = None) -> list[ft.Control]:
    """The outcome of the last `most` Locations resolved, in one panel (none: nothing; in
    `app`'s language, English without one)."""
    results = last_results(game, most)
    if not results:
        return []
    lines: list[ft.Control] = []
    for k, (loc_id, result) in enumerate(results):
        lines.append(ft.Column(outcome_lines(game.state, loc_id, result, f"result-{k}",
                                             app),
                               spacing=2))
    return [card(*lines, color=SURFACE, ident_=ident_)]
