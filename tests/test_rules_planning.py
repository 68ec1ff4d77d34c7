"""Rules tests: Planning (§7), including the rulebook's Claudia and Louis examples."""

from __future__ import annotations

import pytest

from companion.rules.game import Game
from tests.helpers import (
    NAMES,
    ally,
    card,
    loc_state,
    member,
    new_game,
    of_type,
    p,
    play,
    position_game,
    refused,
    seat,
    to_planning,
    victim,
)


def turns_until_resolution(game: Game) -> dict[str, int]:
    """Play face-up Power-1 cards until Resolution; count each player's turns."""
    turns: dict[str, int] = {}
    while game.state.phase == "planning":
        actor = game.legal().actor
        assert actor is not None
        name = NAMES[actor]
        play(game, name, "1", card(1))
        turns[name] = turns.get(name, 0) + 1
    return turns


@pytest.mark.parametrize(("rnd", "turns"), [(1, 2), (2, 3), (3, 4)])
def test_s7_planning_turns_per_round(rnd: int, turns: int) -> None:
    """§7: rounds 1/2/3 → 2/3/4 Planning turns per player."""
    game = position_game(4, round=rnd)
    assert game.legal().turns == turns
    assert turns_until_resolution(game) == dict.fromkeys(NAMES[:4], turns)
    assert game.state.phase == "resolution"


@pytest.mark.parametrize(("rnd", "turns"), [(1, 3), (2, 4), (3, 5)])
def test_s7_s13_three_player_mode_turns(rnd: int, turns: int) -> None:
    """§7/§13: 3-player mode → 3/4/5 Planning turns per player."""
    game = position_game([seat(n, hand_size=6) for n in NAMES[:3]], round=rnd)
    assert turns_until_resolution(game) == dict.fromkeys(NAMES[:3], turns)


def test_s7_turns_alternate_one_card_each_in_turn_order() -> None:
    """§7: each turn is one card; players take turns in turn order, round after round."""
    game = position_game(3, ambition="Bo")
    seen = []
    while game.state.phase == "planning":
        actor = game.legal().actor
        assert actor is not None
        seen.append(NAMES[actor])
        play(game, NAMES[actor], "2", card(1))
    assert seen == ["Bo", "Cy", "Ann"] * 3


def test_s7_face_up_card_is_free_and_records_its_identity() -> None:
    """§7: a face-up card costs nothing; the card lies on the player's Position."""
    game = position_game(4)
    events = play(game, "Ann", "2", card(4, "preparation"), blood=2)
    ann = p(game, "Ann")
    assert ann.blood == 6 - 2 and ann.hand_size == 4
    pos = loc_state(game, "2").positions[0]
    assert pos.blood == 2
    assert [(c.face_up, c.card.power if c.card else None) for c in pos.cards] == [(True, 4)]
    assert [e.kind for e in of_type(events, "blood_changed")] == []


def test_s7_face_down_costs_one_blood_outside_the_three_blood_limit() -> None:
    """§7: face down = Spend 1 Blood, which does not count toward the 3 Blood played."""
    game = position_game(4)
    events = play(game, "Ann", "1", None, blood=3)
    assert p(game, "Ann").blood == 6 - 1 - 3
    pos = loc_state(game, "1").positions[0]
    assert pos.blood == 3
    spends = [e for e in of_type(events, "blood_changed") if e.kind == "spend"]
    assert [(e.player, e.delta) for e in spends] == [(0, -1)]


def test_s7_face_down_card_has_no_identity() -> None:
    """§7: a face-down card is recorded as 'a face-down card'; entering its identity is
    refused."""
    game = position_game(4)
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "face_up": False,
                   "card": card(5)}, "§7", "Ann")
    events = play(game, "Ann", "1", None)
    played = of_type(events, "card_played")[0]
    assert played.face_up is False and played.card is None
    assert loc_state(game, "1").positions[0].cards[0].card is None


def test_s7_at_most_three_blood_from_the_pool() -> None:
    """§7: at most 3 Blood from the Pool per turn."""
    game = position_game([seat("Ann", blood=10), seat("Bo"), seat("Cy")])
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "card": card(1),
                   "blood": 4}, "§7", "Ann", "3")
    play(game, "Ann", "1", card(1), blood=3)
    assert p(game, "Ann").blood == 7


def test_s7_louis_flips_two_diablerie_for_five_deployed_blood() -> None:
    """§7 (rulebook, Louis): 3 Blood from the Pool + 2 flipped Diablerie tokens = 5 Deployed
    Blood; the Pool loses only 3; the tokens are face down."""
    game = position_game([seat("Ann", blood=6, diablerie_up=2), seat("Bo"), seat("Cy")])
    events = play(game, "Ann", "haven", card(2), blood=3, diablerie=2)
    ann = p(game, "Ann")
    assert loc_state(game, "haven").positions[0].blood == 5
    assert ann.blood == 3
    assert (ann.diablerie_up, ann.diablerie_down) == (0, 2)
    deployed = of_type(events, "blood_deployed")
    assert [(e.amount, e.from_bank) for e in deployed] == [(3, False), (2, True)]


def test_s7_cannot_flip_more_diablerie_than_face_up() -> None:
    """§7: only face-up Diablerie tokens can be flipped."""
    game = position_game([seat("Ann", diablerie_up=1, diablerie_down=1), seat("Bo"),
                          seat("Cy")])
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "card": card(1),
                   "diablerie": 2}, "§7", "Ann")


def test_s7_s9_claudia_drains_a_victim_to_play_three_blood() -> None:
    """§7/§9 (rulebook, Claudia): face down costs 1, leaving 2 Blood — not enough for 3; she
    Drains a Victim (+3 Blood) and plays 3 Blood; the Victim is now worth 0 Influence."""
    game = position_game([seat("Ann", blood=3, influence=0), seat("Bo"), seat("Cy")])
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "face_up": False,
                   "blood": 3}, "§7 Ruling (last Blood)", "Ann")
    uid = p(game, "Ann").alliance[0].uid
    game.play({"type": "drain", "player": "Ann", "card": uid})
    assert p(game, "Ann").blood == 6
    assert game.legal().actor == 0, "draining does not end the turn"
    play(game, "Ann", "1", None, blood=3)
    ann = p(game, "Ann")
    assert ann.blood == 2
    assert loc_state(game, "1").positions[0].blood == 3
    assert ann.alliance[0].drained and ann.alliance[0].influence() == 0
    assert game.legal().actor == 1


def test_s7_ruling_last_blood_face_down() -> None:
    """§7 Ruling (last Blood): a face-down play that would leave 0 Blood is refused."""
    game = position_game([seat("Ann", blood=1), seat("Bo"), seat("Cy")])
    err = refused(game, {"type": "play_card", "player": "Ann", "location": "1",
                         "face_up": False}, "§7 Ruling (last Blood)", "Ann")
    assert "Drain" in str(err)
    assert game.legal().can_play_face_down is False
    play(game, "Ann", "1", card(3))
    assert p(game, "Ann").blood == 1


def test_s7_ruling_last_blood_play_blood() -> None:
    """§7 Ruling (last Blood): playing all the Pool's Blood is refused; one less is fine."""
    game = position_game([seat("Ann", blood=3), seat("Bo"), seat("Cy")])
    assert game.legal().max_blood_face_up == 2
    assert game.legal().max_blood_face_down == 1
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "card": card(1),
                   "blood": 3}, "§7 Ruling (last Blood)", "Ann")
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "face_up": False,
                   "blood": 2}, "§7 Ruling (last Blood)", "Ann")
    play(game, "Ann", "1", card(1), blood=2)
    assert p(game, "Ann").blood == 1


def test_s7_ruling_last_blood_spend() -> None:
    """§7 Ruling (last Blood)/§14 Spend: spending the last Blood is refused."""
    game = position_game([seat("Ann", blood=2), seat("Bo"), seat("Cy")])
    refused(game, {"type": "apply_effect", "action": "spend_blood", "player": "Ann",
                   "amount": 2}, "§14 Spend", "Ann")
    game.play({"type": "apply_effect", "action": "spend_blood", "player": "Ann", "amount": 1})
    assert p(game, "Ann").blood == 1


def test_s7_drain_only_on_own_turn() -> None:
    """§7/§9: a player Drains voluntarily only during their own Planning turn."""
    game = position_game(4)
    uid = p(game, "Bo").alliance[0].uid
    refused(game, {"type": "drain", "player": "Bo", "card": uid}, "§7", "Bo", "Ann")
    play(game, "Ann", "1", card(1))
    game.play({"type": "drain", "player": "Bo", "card": uid})
    assert p(game, "Bo").blood == 9


def test_s7_drain_any_number_of_cards_in_a_turn() -> None:
    """§7: the player may Drain any cards of their Alliance during their turn."""
    game = position_game([seat("Ann", blood=2, alliance=[
        member(victim()), member(ally(drain_blood=4))]), seat("Bo"), seat("Cy")])
    for c in list(p(game, "Ann").alliance):
        game.play({"type": "drain", "player": "Ann", "card": c.uid})
    assert p(game, "Ann").blood == 2 + 3 + 4
    assert game.legal().drainable == []


def test_s7_player_with_no_card_passes() -> None:
    """§7: a player with an empty hand passes; one with cards must play."""
    game = position_game([seat("Ann", hand_size=0), seat("Bo"), seat("Cy")])
    assert "pass_turn" in game.legal().commands
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "card": card(1)},
            "§7", "Ann")
    game.play({"type": "pass_turn", "player": "Ann"})
    refused(game, {"type": "pass_turn", "player": "Bo"}, "§7", "Bo")
    assert game.legal().actor == 1


def test_s7_s2_only_locations_in_play() -> None:
    """§7/§2: with 4 players there is no Location #3."""
    game = new_game(4)
    to_planning(game)
    refused(game, {"type": "play_card", "player": "Ann", "location": "3", "card": card(1)},
            "§2", "Ann")
    assert game.legal().locations == ["1", "2", "haven"]
