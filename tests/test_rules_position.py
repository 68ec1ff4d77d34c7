"""Rules tests: starting a game from an entered position, at any phase, and its validation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import (
    NAMES,
    ally,
    card,
    deployed,
    idx,
    loc_state,
    member,
    p,
    play,
    position_game,
    seat,
    victim,
    where,
)


def test_s4_position_starts_at_feed_of_round_two() -> None:
    """§3/§4: a position at round 2 Feed feeds from its Alliances and goes on."""
    players = [seat("Ann", blood=2, alliance=[member(victim()), member(ally(feed=2))]),
               seat("Bo", blood=3), seat("Cy", blood=1, alliance=[])]
    game = position_game(players, phase="feed", round=2, ambition="Bo")
    game.play({"type": "feed"})
    assert [pl.blood for pl in game.state.players] == [5, 4, 1]
    assert (game.state.round, game.state.phase, game.state.ambition) == (
        2, "location_setup", idx("Bo"))


def test_s7_position_starts_mid_planning() -> None:
    """§7: a Planning position with turns already taken continues with the right turn count
    and keeps what is Deployed."""
    game = position_game(4, round=2, turns_taken=2, ambition="Di",
                         locations=[where("2", deployed("Ann", card(3), None, blood=2))])
    legal = game.legal()
    assert (legal.actor, legal.turn, legal.turns) == (idx("Di"), 3, 3)
    pos = loc_state(game, "2").positions[0]
    assert pos.blood == 2 and [c.face_up for c in pos.cards] == [True, False]
    for name in ("Di", "Ann", "Bo", "Cy"):
        play(game, name, "1", card(1))
    assert game.state.phase == "resolution"


def test_s8_position_starts_at_a_later_resolution_location() -> None:
    """§8: a Resolution position may start at a later Location (earlier ones are done)."""
    game = position_game(4, phase="resolution", round=2, resolution_location="haven",
                         locations=[where("haven", deployed("Bo", card(2)),
                                          deployed("Cy", card(1)))])
    assert game.state.locations[game.state.location_index].id == "haven"
    assert game.state.step == "withdraw"
    assert game.legal().present == [1, 2]


@pytest.mark.parametrize(("n", "phase", "rnd", "turns", "hand"), [
    (4, "feed", 1, 0, 2),
    (4, "planning", 1, 0, 3),
    (4, "feed", 2, 0, 3),
    (4, "planning", 2, 1, 3),
    (4, "resolution", 3, 0, 1),
    (3, "planning", 1, 1, 3),
    (3, "hand_building", 2, 0, 4),
])
def test_s6_position_default_hand_size(n: int, phase: str, rnd: int, turns: int,
                                    hand: int) -> None:
    """§6/§7: an omitted hand size is computed from the round and phase (Hunt + Ready + Hand
    Building − cards played)."""
    players = [seat(name, hand_size=None) for name in NAMES[:n]]
    extra: dict[str, Any] = {"turns_taken": turns} if turns else {}
    game = position_game(players, phase=phase, round=rnd, **extra)
    assert [pl.hand_size for pl in game.state.players] == [hand] * n


INVALID: list[tuple[str, dict[str, Any]]] = [
    ("Ambition holder not a player", {"ambition": "Zed"}),
    ("duplicate names", {"players": [seat("Ann"), seat("Ann", clan="Ventrue"), seat("Bo")]}),
    ("duplicate clans", {"players": [seat("Ann", clan="Brujah"), seat("Bo", clan="Brujah"),
                                     seat("Cy")]}),
    ("Deployed for a stranger", {"locations": [where("1", deployed("Zed", card(1)))]}),
    ("Location #3 with 4 players", {"locations": [where("3", deployed("Ann", card(1)))]}),
    ("face-up card without identity", {"locations": [where("1", {
        "player": "Ann", "cards": [{"face_up": True}]})]}),
    ("face-down card with identity", {"locations": [where("1", {
        "player": "Ann", "cards": [{"face_up": False, "card": card(2)}]})]}),
    ("third Diablerie but still in", {"players": [seat("Ann", diablerie_up=2,
                                                       diablerie_down=1), seat("Bo"),
                                                  seat("Cy")]}),
    ("eliminated player with Deployed cards", {
        "players": [seat("Ann", eliminated=True, diablerie_up=3), seat("Bo"), seat("Cy")],
        "ambition": "Bo", "locations": [where("1", deployed("Ann", card(1)))]}),
    ("Pool at 0 Blood", {"players": [seat("Ann", blood=0), seat("Bo"), seat("Cy")]}),
    ("more turns than the round has", {"turns_taken": 2}),
    ("Resolution Location outside Resolution", {"resolution_location": "2"}),
    ("6 players without tag team", {"players": [seat(n) for n in NAMES]}),
    ("teammates side by side", {"players": [seat("Ann", team="A"), seat("Bo", team="A"),
                                            seat("Cy", team="B"), seat("Di", team="B")],
                                "variants": {"tag_team": True}}),
    ("setup phase", {"phase": "setup"}),
    ("Deployed cards at Feed", {"phase": "feed", "round": 2, "locations": [
        {"id": "1", "deployed": [deployed("Ann", card(1))]}]}),
    ("Planning without an Ally at a Location", {"locations": [{"id": "1", "deployed": []}]}),
    ("Relic without the variant", {"players": [seat("Ann", relic={"name": "R",
                                                                  "influence": 1}),
                                               seat("Bo"), seat("Cy")]}),
]


@pytest.mark.parametrize("changes", [c[1] for c in INVALID], ids=[c[0] for c in INVALID])
def test_s1_to_s13_position_impossible_positions_are_refused(changes: dict[str, Any]) -> None:
    """§1–§13: an entered position the rules cannot reach is refused with the rule (§)."""
    kwargs: dict[str, Any] = {"players": 4, "phase": "planning", **changes}
    with pytest.raises(ValueError, match="§"):
        position_game(**kwargs)


def test_s13_position_valid_tag_team_and_three_player_positions_load() -> None:
    """§13: a tag-team position and a 3-player position load (controls for the refusals)."""
    players = [seat(n, team=t) for n, t in zip(NAMES[:4], "ABAB", strict=True)]
    game = position_game(players, variants={"tag_team": True}, turns_taken=1)
    assert [pl.team for pl in game.state.players] == ["A", "B", "A", "B"]
    game3 = position_game(3, turns_taken=2)
    assert game3.state.three_player and game3.legal().turn == 3
    assert p(game3, "Cy").blood == 6


def test_s12_position_at_game_over_is_scored() -> None:
    """§12: a position entered at the end of the game ('just score it') has final standings."""
    players = [seat("Ann", influence=5), seat("Bo", influence=2), seat("Cy", influence=7)]
    game = position_game(players, phase="game_over", round=3)
    board = game.scoreboard
    assert board is not None
    assert [r.name for r in board.rows] == ["Cy", "Ann", "Bo"]
    assert "Cy" in game.legal().prompt
