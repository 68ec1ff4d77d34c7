"""Rules tests: round structure (§3), Feed (§4), Location Setup (§5), Hand Building (§6)."""

from __future__ import annotations

from companion.rules.game import Game
from tests.helpers import (
    NAMES,
    ally,
    card,
    member,
    new_game,
    of_type,
    play,
    position_game,
    refused,
    resolve_here,
    seat,
    to_planning,
    victim,
)


def finish_planning(game: Game) -> None:
    """Every remaining Planning turn: a Power-1 card face up at Location #1."""
    while game.state.phase == "planning":
        actor = game.legal().actor
        assert actor is not None
        play(game, NAMES[actor], "1", card(1))


# --- §3 round structure ---------------------------------------------------------------------------

def test_s3_phases_follow_in_order_and_round_two_begins_with_feed() -> None:
    """§3: Feed → Location Setup → Hand Building → Planning → Resolution, then round 2."""
    game = new_game(4)
    seen = [(game.state.round, game.state.phase)]
    game.play({"type": "feed"})
    seen.append((game.state.round, game.state.phase))
    game.play({"type": "place_allies",
               "allies": {k: ally(f"Ally {k}") for k in ("1", "2", "haven")}})
    seen.append((game.state.round, game.state.phase))
    game.play({"type": "finish_hand_building"})
    seen.append((game.state.round, game.state.phase))
    finish_planning(game)
    seen.append((game.state.round, game.state.phase))
    while game.state.phase == "resolution":
        resolve_here(game)
    seen.append((game.state.round, game.state.phase))
    assert seen == [(1, "feed"), (1, "location_setup"), (1, "hand_building"), (1, "planning"),
                    (1, "resolution"), (2, "feed")]


def test_s3_phase_commands_are_refused_out_of_phase() -> None:
    """§3: a phase's command is refused in another phase, naming the phases."""
    game = new_game(4)
    refused(game, {"type": "finish_hand_building"}, "§3", None, "hand building", "feed")
    refused(game, {"type": "place_allies", "allies": {}}, "§3")
    to_planning(game)
    refused(game, {"type": "feed"}, "§3", None, "planning")


def test_s3_the_game_has_three_rounds() -> None:
    """§3: after round 3's Resolution the game is over (no round 4)."""
    game = position_game(4, phase="resolution", round=3, resolution_location="haven",
                         locations=[{"id": "haven", "ally": ally(),
                                     "deployed": [{"player": "Ann", "cards": [
                                         {"face_up": True, "card": card(2)}]}]}])
    events = resolve_here(game)
    assert game.state.phase == "game_over" and game.state.round == 3
    assert of_type(events, "game_ended")
    assert not of_type(events, "round_ended")
    refused(game, {"type": "feed"}, "§12")


# --- §4 Feed ------------------------------------------------------------------------------------

def test_s4_feed_in_round_one_gives_seven_blood() -> None:
    """§4: Feed happens in round 1 too: the starting Victim gives 1 Blood (6 → 7)."""
    game = new_game(4)
    events = game.play({"type": "feed"}).events
    assert [pl.blood for pl in game.state.players] == [7, 7, 7, 7]
    feeds = [e for e in of_type(events, "blood_changed") if e.kind == "feed"]
    assert sorted((e.player, e.delta) for e in feeds) == [(0, 1), (1, 1), (2, 1), (3, 1)]


def test_s4_feed_counts_active_cards_only() -> None:
    """§4: Feed = the Feed of every active card; drained cards give nothing."""
    players = [
        seat("Ann", blood=2, alliance=[member(victim()), member(victim(), drained=True),
                                      member(ally(feed=3)),
                                      member(ally("Thrall", feed=2), drained=True)]),
        seat("Bo", blood=4, alliance=[member(victim(), drained=True)]),
        seat("Cy", blood=1, alliance=[member(ally("Servant", feed=0)), member(victim())]),
    ]
    game = position_game(players, phase="feed", round=2)
    assert game.legal().feed == {0: 4, 1: 0, 2: 1}
    game.play({"type": "feed"})
    assert [pl.blood for pl in game.state.players] == [6, 4, 2]
    assert game.state.phase == "location_setup"


# --- §5 Location Setup ----------------------------------------------------------------------------

def test_s5_one_ally_at_each_location_including_the_haven() -> None:
    """§5: an Ally is placed face up at each Location, the Prince's Haven included."""
    game = new_game(4)
    game.play({"type": "feed"})
    refused(game, {"type": "place_allies", "allies": {"1": ally(), "2": ally()}}, "§5", None,
            "Prince's Haven")
    allies = {"1": ally("One"), "2": ally("Two"), "haven": ally("Haven", kind="vampire")}
    game.play({"type": "place_allies", "allies": allies})
    assert [(loc.id, loc.ally.name if loc.ally else None) for loc in game.state.locations] == [
        ("1", "One"), ("2", "Two"), ("haven", "Haven")]
    assert game.state.phase == "hand_building"


# --- §6 Hand Building -----------------------------------------------------------------------------

def test_s6_hand_building_adds_one_card() -> None:
    """§6: draw 2, keep 1: every hand grows by 1 (Hunt + Ready + 1 = 3 in round 1)."""
    game = new_game(4)
    game.play({"type": "feed"})
    game.play({"type": "place_allies",
               "allies": {k: ally(f"Ally {k}") for k in ("1", "2", "haven")}})
    assert game.legal().hand_cards == 1
    game.play({"type": "finish_hand_building"})
    assert [pl.hand_size for pl in game.state.players] == [3, 3, 3, 3]


def test_s6_s13_three_player_hand_building_keeps_two_in_round_one_only() -> None:
    """§6/§13: 3-player mode, round 1: draw 3 keep 2 (hand 4); round 2: keep 1 again."""
    game = new_game(3)
    to_planning(game)
    assert [pl.hand_size for pl in game.state.players] == [4, 4, 4]
    game2 = position_game([seat(n, hand_size=4) for n in NAMES[:3]], phase="hand_building",
                          round=2)
    assert game2.legal().hand_cards == 1
    game2.play({"type": "finish_hand_building"})
    assert [pl.hand_size for pl in game2.state.players] == [5, 5, 5]


def test_s6_hands_hold_the_cards_not_played_and_return_at_end_of_round() -> None:
    """§6/§10: after round 1 (3 cards, 2 played) every hand is back to 3 before Hand Building."""
    game = new_game(4)
    to_planning(game)
    finish_planning(game)
    assert [pl.hand_size for pl in game.state.players] == [1, 1, 1, 1]
    while game.state.phase == "resolution":
        resolve_here(game)
    assert game.state.phase == "feed" and game.state.round == 2
    assert [pl.hand_size for pl in game.state.players] == [3, 3, 3, 3]
