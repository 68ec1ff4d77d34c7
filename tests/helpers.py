"""Small builders for the rules tests: positions, new games, commands, refusal checks.

Clan cards are given without `id`/`effect` and Allies without `ability`, so these tests do not
depend on card automation (§15).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.errors import RuleError
from companion.rules.game import Game
from companion.rules.queries import turn_order
from models.common import CLANS
from models.events import AnyEvent
from models.setup import GameSetup, Position, locations_for
from models.state import ConflictResult, GameState, LocationState, PlayerState

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
"""Seat names, clockwise."""

VICTIM_VALUES: dict[str, Any] = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1,
                                 "drain_blood": 3, "drained_influence": 0}
"""A Victim's printed values (§1), without the catalogue id."""


def card(power: int, kind: str | None = "conflict") -> dict[str, Any]:
    """A clan card identity with only its printed Power and kind."""
    return {"power": power, "kind": kind}


def ally(name: str = "Retainer", kind: str = "human", influence: int = 2, feed: int = 1,
         drain_blood: int = 2, drained_influence: int = 1) -> dict[str, Any]:
    """An Ally card without an automated ability."""
    return {"name": name, "kind": kind, "influence": influence, "feed": feed,
            "drain_blood": drain_blood, "drained_influence": drained_influence}


def victim() -> dict[str, Any]:
    """A Victim card's values."""
    return dict(VICTIM_VALUES)


def member(c: dict[str, Any], drained: bool = False) -> dict[str, Any]:
    """An Alliance entry of a position."""
    return {"card": c, "drained": drained}


def seat(name: str, *, blood: int = 6, influence: int = 3, alliance: list[dict] | None = None,
         hand_size: int | None = 5, clan: str | None = None, **extra: Any) -> dict[str, Any]:
    """One player of a position; by default 6 Blood, 3 Influence, one active Victim."""
    if clan is None:
        clan = CLANS[NAMES.index(name) % len(CLANS)] if name in NAMES else "Brujah"
    return {"name": name, "clan": clan, "blood": blood, "influence": influence,
            "alliance": [member(victim())] if alliance is None else alliance,
            "hand_size": hand_size, **extra}


def deployed(player: str, *cards: dict[str, Any] | None, blood: int = 0) -> dict[str, Any]:
    """A player's Deployed cards and Blood at a Location; None stands for a face-down card."""
    return {"player": player, "blood": blood,
            "cards": [{"face_up": False} if c is None else {"face_up": True, "card": c}
                      for c in cards]}


def where(loc: str, *deployed_: dict[str, Any], ally_: dict[str, Any] | None = None,
          **extra: Any) -> dict[str, Any]:
    """A Location of a position with its Ally (by default 'Ghoul 1', 'Ghoul 2', 'Ghoul haven'…:
    each Ally exists once, §1) and what is Deployed."""
    default = ally(f"Ghoul {loc}")
    return {"id": loc, "ally": default if ally_ is None else ally_, "deployed": list(deployed_),
            **extra}


def position_game(players: int | list[dict[str, Any]] = 4, *, phase: str = "planning",
                  round: int = 1, ambition: str = "Ann", locations: list[dict] | None = None,
                  **extra: Any) -> Game:
    """A game started from an entered position (players given as `seat(...)` dicts, or a
    count of default seats). From Hand Building on, every Location not given gets a default
    Ally (§5)."""
    if isinstance(players, int):
        players = [seat(n) for n in NAMES[:players]]
    locs = list(locations or [])
    if phase in ("hand_building", "planning", "resolution"):
        given = {loc["id"] for loc in locs}
        locs += [where(i) for i in locations_for(len(players)) if i not in given]
    doc = {"players": players, "phase": phase, "round": round, "ambition": ambition,
           "locations": locs, **extra}
    return Game.new(Position.model_validate(doc))


def new_game(n: int = 4, *, first: str = "Ann", variants: dict[str, Any] | None = None,
             teams: list[str] | None = None, seed: int = 7, setup: bool = True) -> Game:
    """A new table of `n` players; with `setup`, the first player and clans are chosen."""
    players = [{"name": name, "team": teams[i] if teams else None}
               for i, name in enumerate(NAMES[:n])]
    game = Game.new(GameSetup.model_validate(
        {"players": players, "variants": variants or {}, "seed": seed}))
    if setup:
        game.play({"type": "set_first_player", "player": first})
        for p in order(game):
            game.play({"type": "pick_clan", "player": p, "clan": CLANS[NAMES.index(p)]})
    return game


def order(game: Game) -> list[str]:
    """Names in turn order."""
    return [game.state.players[i].name for i in turn_order(game.state)]


def to_planning(game: Game, allies: dict[str, dict[str, Any]] | None = None) -> None:
    """Feed, Location Setup (a default Ally everywhere) and Hand Building."""
    game.play({"type": "feed"})
    ids = [loc.id for loc in game.state.locations]
    game.play({"type": "place_allies", "allies": allies or {i: ally(f"Ally {i}") for i in ids}})
    game.play({"type": "finish_hand_building"})


def play(game: Game, player: str, loc: str, c: dict[str, Any] | None = None, *,
         blood: int = 0, diablerie: int = 0, **extra: Any) -> list[AnyEvent]:
    """Play a card face up (`c` given) or face down (`c` None); returns the events."""
    cmd: dict[str, Any] = {"type": "play_card", "player": player, "location": loc,
                           "face_up": c is not None, "blood": blood, "diablerie": diablerie,
                           **extra}
    if c is not None:
        cmd["card"] = c
    return game.play(cmd).events


def stay_all(game: Game) -> list[AnyEvent]:
    """Everyone at the current Location stays."""
    return game.play({"type": "choose_withdraw", "withdraw": []}).events


def nxt(game: Game) -> list[AnyEvent]:
    """Finish the current Resolution step."""
    return game.play({"type": "next_step"}).events


def resolve_here(game: Game) -> list[AnyEvent]:
    """Everyone stays, no face-down cards, and the current Location is resolved to the next."""
    events = list(stay_all(game))
    start = game.state.location_index
    r = game.state.round
    while (game.state.phase == "resolution" and game.state.location_index == start
           and game.state.round == r):
        events += nxt(game)
    return events


def p(game: Game, name: str) -> PlayerState:
    """A player's state by name."""
    return game.state.players[NAMES.index(name)]


def loc_state(game: Game, loc: str) -> LocationState:
    """A Location's state by id."""
    return next(x for x in game.state.locations if x.id == loc)


def idx(name: str) -> int:
    """Seat of a name."""
    return NAMES.index(name)


def of_type(events: list[AnyEvent], kind: str) -> list[Any]:
    """Events of one type."""
    return [e for e in events if e.type == kind]


def influence_gains(events: list[AnyEvent]) -> dict[str, int]:
    """Total Influence change per player name in these events."""
    out: dict[str, int] = {}
    for e in of_type(events, "influence_changed"):
        out[NAMES[e.player]] = out.get(NAMES[e.player], 0) + e.delta
    return out


def snapshot(game: Game) -> tuple[dict[str, Any], int, int]:
    """State dump, number of actions and of events."""
    return game.state.model_dump(), len(game.actions), len(game.events)


def refused(game: Game, command: dict[str, Any], rule: str, player: str | None = None,
            *fragments: str) -> RuleError:
    """Assert a command is refused with the rule (and player) named, and nothing changed."""
    before = snapshot(game)
    redo = len(game.redo_stack)
    with pytest.raises(RuleError) as info:
        game.play(command)
    err = info.value
    msg = str(err)
    assert rule in msg, msg
    if player is not None:
        assert player in msg, msg
    for f in fragments:
        assert f in msg, msg
    assert snapshot(game) == before
    assert len(game.redo_stack) == redo
    return err


def state_of(game: Game) -> GameState:
    """Current state."""
    return game.state


def result_at(events: list[AnyEvent], loc: str) -> ConflictResult:
    """The Conflict result recorded for a Location in these events."""
    found = [e.result for e in of_type(events, "conflict_resolved") if e.location == loc]
    assert len(found) == 1, f"expected one conflict result at {loc}, got {found}"
    return found[0]


def ranking_at(events: list[AnyEvent], loc: str) -> list[str]:
    """Names in ranking order at a Location."""
    return [NAMES[s] for s in result_at(events, loc).ranking]
