"""Rules tests: Resolution (§8): Withdraw, Revelation, Preparation, Conflict, Aftermath."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.game import Game
from companion.rules.queries import power, rivals
from tests.helpers import (
    NAMES,
    ally,
    card,
    deployed,
    idx,
    influence_gains,
    loc_state,
    nxt,
    of_type,
    p,
    position_game,
    ranking_at,
    refused,
    resolve_here,
    result_at,
    seat,
    stay_all,
    where,
)


def at(loc: str, *deps: dict[str, Any], n: int = 4, rnd: int = 1, ambition: str = "Ann",
       ally_: dict[str, Any] | None = None, players: list[dict[str, Any]] | None = None,
       others: list[dict[str, Any]] | None = None) -> Game:
    """A game in Resolution, about to resolve `loc` with these Deployed cards and Blood."""
    return position_game(players or n, phase="resolution", round=rnd, ambition=ambition,
                         resolution_location=loc,
                         locations=[where(loc, *deps, ally_=ally_), *(others or [])])


def alliance_names(game: Game, name: str) -> list[str]:
    """Names of a player's Alliance cards."""
    return [c.card.name for c in p(game, name).alliance]


# --- §8 order of Locations ------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "order"), [(4, ["1", "2", "haven"]), (5, ["1", "2", "3", "haven"])])
def test_s8_locations_resolve_in_order_haven_last(n: int, order: list[str]) -> None:
    """§8: Locations are resolved one at a time: #1, #2, (#3), Prince's Haven last."""
    locs = [where(k, deployed("Ann", card(1)), deployed("Bo", card(2))) for k in order]
    game = position_game(n, phase="resolution", resolution_location="1", locations=locs)
    seen = []
    while game.state.phase == "resolution":
        seen.append(game.state.locations[game.state.location_index].id)
        resolve_here(game)
    assert seen == order
    assert game.state.round == 2


# --- §8.1 Withdraw --------------------------------------------------------------------------------

def test_s8_1_withdraw_moves_cards_face_up_to_the_haven_and_blood_to_the_pool() -> None:
    """§8.1: the withdrawing player takes their Blood back, reveals their cards (identity
    entered) and moves them face up to their Position at the Prince's Haven, where they count."""
    game = at("1", deployed("Ann", card(3), None, blood=2), deployed("Bo", card(1)),
              others=[where("haven", deployed("Ann", card(1)))])
    hidden = loc_state(game, "1").positions[0].cards[1].uid
    refused(game, {"type": "choose_withdraw", "withdraw": ["Ann"]}, "§8.1", None, hidden)
    events = game.play({"type": "choose_withdraw", "withdraw": ["Ann"],
                        "reveal": {hidden: card(4)}}).events
    assert p(game, "Ann").blood == 6 + 2
    assert loc_state(game, "1").positions[0].cards == []
    assert loc_state(game, "1").positions[0].blood == 0
    haven = loc_state(game, "haven").positions[0]
    assert [(c.face_up, c.card.power if c.card else None) for c in haven.cards] == [
        (True, 1), (True, 3), (True, 4)]
    assert len(of_type(events, "card_moved")) == 2
    assert power(game.state, loc_state(game, "haven"), 0).total == 8
    assert rivals(game.state, loc_state(game, "1"), idx("Bo")) == []


def test_s8_1_withdrawing_player_gets_nothing_and_the_stayer_wins() -> None:
    """§8.1/§8.4: after Ann withdraws, Bo alone has cards: Bo wins only the 1st reward."""
    game = at("1", deployed("Ann", card(5)), deployed("Bo", card(1)))
    events = game.play({"type": "choose_withdraw", "withdraw": ["Ann"]}).events
    while game.state.location_index == 0:
        events += nxt(game)
    assert ranking_at(events, "1") == ["Bo"]
    assert game.state.locations[game.state.location_index].id == "haven"
    assert game.legal().present == [idx("Ann")]
    assert p(game, "Bo").influence == 3 + 1 and p(game, "Ann").influence == 3
    assert alliance_names(game, "Bo") == ["Victim", "Ghoul 1"]


def test_s8_1_blood_only_player_may_withdraw() -> None:
    """§8.1: a player at a Location with only Blood there may withdraw: the Blood goes back."""
    game = at("1", deployed("Ann", card(1)), deployed("Bo", card(2)), deployed("Cy", blood=3))
    events = game.play({"type": "choose_withdraw", "withdraw": ["Cy"]}).events
    assert p(game, "Cy").blood == 9
    assert [(e.player, e.amount) for e in of_type(events, "blood_returned")] == [(2, 3)]
    assert game.legal().present == [0, 1]
    assert loc_state(game, "haven").positions[2].cards == []


def test_s8_1_withdraw_from_the_haven_returns_cards_to_hand() -> None:
    """§8.1: withdrawing from the Prince's Haven takes the cards back to hand and the Blood
    back to the Pool."""
    game = at("haven", deployed("Ann", card(2), card(3), blood=3), deployed("Bo", card(1)),
              players=[seat("Ann", hand_size=1), seat("Bo"), seat("Cy"), seat("Di")])
    game.play({"type": "choose_withdraw", "withdraw": ["Ann"]})
    ann = p(game, "Ann")
    assert ann.hand_size == 3
    assert ann.blood == 9
    assert loc_state(game, "haven").positions[0].cards == []
    assert loc_state(game, "haven").positions[0].blood == 0


def test_s8_1_withdrawing_from_the_haven_keeps_face_down_cards_secret() -> None:
    """§8.1 + public information only: cards taken back from the Prince's Haven go to hand
    unseen, so the companion never asks what they are (and refuses an identity)."""
    game = at("haven", deployed("Ann", None, card(3)), deployed("Bo", card(1)),
              players=[seat("Ann", hand_size=1), seat("Bo"), seat("Cy"), seat("Di")])
    assert game.legal().face_down == {}
    uid = loc_state(game, "haven").positions[0].cards[0].uid
    refused(game, {"type": "choose_withdraw", "withdraw": ["Ann"],
                   "reveal": {uid: card(2)}}, "§8.1")
    game.play({"type": "choose_withdraw", "withdraw": ["Ann"]})
    assert p(game, "Ann").hand_size == 3
    assert not any(e.type == "card_revealed" for e in game.events)


def test_s8_1_only_players_at_the_location_choose() -> None:
    """§8.1: a player with nothing Deployed there is not at the Location."""
    game = at("1", deployed("Ann", card(1)), deployed("Bo", card(1)))
    refused(game, {"type": "choose_withdraw", "withdraw": ["Cy"]}, "§8.1", "Cy")
    assert game.legal().present == [0, 1]


def test_s8_1_nobody_at_a_location_discards_its_ally() -> None:
    """§8.1/§8.4: a Location nobody is at gives no rewards and its Ally leaves the game."""
    game = at("1", deployed("Ann", card(1)), deployed("Bo", card(2)),
              others=[where("2", ally_=ally("Lonely")), where("haven", deployed("Cy", card(1)))])
    events = resolve_here(game)
    assert game.state.locations[game.state.location_index].id == "haven"
    assert [e.location for e in of_type(events, "ally_discarded")] == ["2"]
    assert loc_state(game, "2").ally is None
    assert result_at(events, "2").outcome == "no_cards"
    assert influence_gains(events) == {"Bo": 1, "Ann": 1}


# --- §8.2 Revelation ------------------------------------------------------------------------------

def test_s8_2_revelation_turns_face_down_cards_up_with_their_identity() -> None:
    """§8.2: the stayers' face-down cards are turned up; their identities now count."""
    game = at("1", deployed("Ann", None), deployed("Bo", card(4)))
    uid = loc_state(game, "1").positions[0].cards[0].uid
    assert power(game.state, loc_state(game, "1"), 0).total == 0, "face down = 0 Power"
    stay_all(game)
    assert game.state.step == "revelation"
    assert game.legal().face_down == {0: [uid]}
    refused(game, {"type": "reveal", "cards": {}}, "§8.2")
    refused(game, {"type": "reveal", "cards": {uid: card(5), "nope": card(1)}}, "§8.2")
    game.play({"type": "reveal", "cards": {uid: card(5)}})
    c = loc_state(game, "1").positions[0].cards[0]
    assert c.face_up and c.card is not None and c.card.power == 5
    assert game.state.step == "preparation"
    nxt(game)
    nxt(game)
    assert loc_state(game, "1").result.ranking == [0, 1]  # type: ignore[union-attr]


# --- §8.3 – §8.5 steps ---------------------------------------------------------------------------

def test_s8_3_to_8_5_steps_in_order() -> None:
    """§8.3–§8.5: Preparation, Conflict, Aftermath follow Withdraw/Revelation in order, and the
    Conflict result is computed only when the Conflict step ends."""
    game = at("1", deployed("Ann", card(1)), deployed("Bo", card(2)))
    steps = []
    events = stay_all(game)
    steps += [e.step for e in of_type(events, "step_started")]
    assert game.state.step == "preparation"
    events = nxt(game)
    steps += [e.step for e in of_type(events, "step_started")]
    assert not of_type(events, "conflict_resolved")
    events = nxt(game)
    assert of_type(events, "conflict_resolved")
    steps += [e.step for e in of_type(events, "step_started")]
    assert steps == ["revelation", "preparation", "conflict", "aftermath"]
    events = nxt(game)
    assert [e.step for e in of_type(events, "step_started")][:1] == ["withdraw"]


def test_s8_3_preparation_effects_count_before_the_conflict() -> None:
    """§8.3: a Preparation effect (here +3 Power by hand) changes the Conflict outcome."""
    game = at("1", deployed("Ann", card(1)), deployed("Bo", card(3)))
    stay_all(game)
    uid = loc_state(game, "1").positions[0].cards[0].uid
    game.play({"type": "apply_effect", "action": "power", "player": "Ann", "card": uid,
               "amount": 3, "reason": "prep"})
    nxt(game)
    nxt(game)
    assert loc_state(game, "1").result.ranking == [0, 1]  # type: ignore[union-attr]


def test_s8_4_total_power_is_cards_after_effects_plus_blood() -> None:
    """§8.4: total = Power of Deployed cards after all effects + Deployed Blood; halving
    applies to printed Power; Power never goes below 0."""
    game = at("1", deployed("Ann", card(7), card(2), blood=2), deployed("Bo", card(6)))
    stay_all(game)
    nxt(game)
    a, b = loc_state(game, "1").positions[0].cards
    game.play({"type": "apply_effect", "action": "halve_printed_power", "player": "Ann",
               "card": a.uid, "reason": "halve"})
    game.play({"type": "apply_effect", "action": "power", "player": "Ann", "card": b.uid,
               "amount": -5, "reason": "minus"})
    breakdown = power(game.state, loc_state(game, "1"), 0)
    assert [c.power for c in breakdown.cards] == [3, 0]
    assert breakdown.total == 3 + 0 + 2
    nxt(game)
    result = loc_state(game, "1").result
    assert result is not None and result.totals == {0: 5, 1: 6}
    assert result.ranking == [1, 0]


def test_s8_4_tie_goes_to_turn_order() -> None:
    """§8.4/§1: ties go to whoever comes first in turn order (Ambition holder Cy here)."""
    game = at("1", deployed("Ann", card(4)), deployed("Bo", card(2), blood=2),
              deployed("Cy", card(1), blood=3), deployed("Di", card(5)), ambition="Cy")
    events = resolve_here(game)
    assert ranking_at(events, "1") == ["Di", "Cy", "Ann", "Bo"]
    assert alliance_names(game, "Di")[-1] == "Ghoul 1"
    assert alliance_names(game, "Cy")[-1] == "Victim" and len(p(game, "Cy").alliance) == 2


@pytest.mark.parametrize(("rnd", "first", "second"), [(1, 1, 1), (2, 2, 2), (3, 3, 2)])
def test_s8_4_rewards_table(rnd: int, first: int, second: int) -> None:
    """§8.4 rewards: 1st the Ally + 1/2/3, 2nd a Victim + 1/2/2, 3rd 1 Influence, 4th
    nothing."""
    game = at("1", deployed("Ann", card(2)), deployed("Bo", card(5)), deployed("Cy", card(1)),
              deployed("Di", card(4)), rnd=rnd, ally_=ally("Prize"))
    events = resolve_here(game)
    assert influence_gains(events) == {"Bo": first, "Di": second, "Ann": 1}
    assert alliance_names(game, "Bo") == ["Victim", "Prize"]
    assert alliance_names(game, "Di") == ["Victim", "Victim"]
    assert alliance_names(game, "Ann") == ["Victim"]
    assert alliance_names(game, "Cy") == ["Victim"]
    assert loc_state(game, "1").ally is None
    assert all(not c.drained for c in p(game, "Bo").alliance), "a card gained is active"


def test_s8_4_fifth_player_gets_nothing() -> None:
    """§8.4: 4th and lower get nothing (5 players at one Location)."""
    game = at("1", *(deployed(n, card(i + 1)) for i, n in enumerate(NAMES[:5])), n=5, rnd=2)
    events = resolve_here(game)
    assert influence_gains(events) == {"Ed": 2, "Di": 2, "Cy": 1}


def test_s8_4_player_with_only_blood_is_ranked() -> None:
    """§8.4: a player with only Deployed Blood takes part and is ranked (and rewarded)."""
    game = at("1", deployed("Ann", card(2)), deployed("Bo", card(1)), deployed("Cy", blood=4),
              ally_=ally("Prize"))
    events = resolve_here(game)
    assert ranking_at(events, "1") == ["Cy", "Ann", "Bo"]
    assert influence_gains(events) == {"Cy": 1, "Ann": 1, "Bo": 1}
    assert alliance_names(game, "Cy") == ["Victim", "Prize"]


def test_s8_4_ruling_uncontested_blood_only_players_get_nothing() -> None:
    """§8.4 Ruling: exactly one player has cards → they win with only the 1st reward; blood-only
    players get nothing, even with more Power."""
    game = at("1", deployed("Ann", blood=3), deployed("Bo", card(1)), deployed("Cy", blood=5),
              rnd=2, ally_=ally("Prize"))
    events = resolve_here(game)
    result = result_at(events, "1")
    assert result.outcome == "uncontested" and ranking_at(events, "1") == ["Bo"]
    assert influence_gains(events) == {"Bo": 2}
    assert alliance_names(game, "Bo") == ["Victim", "Prize"]
    assert alliance_names(game, "Ann") == ["Victim"] and alliance_names(game, "Cy") == ["Victim"]


def test_s8_4_no_cards_means_no_rewards_and_ally_discarded() -> None:
    """§8.4: nobody has Clan cards after Conflict → no rewards; the Ally leaves the game."""
    game = at("1", deployed("Ann", blood=3), deployed("Bo", blood=1))
    events = resolve_here(game)
    assert influence_gains(events) == {}
    assert of_type(events, "ally_discarded")
    assert loc_state(game, "1").ally is None
    assert [len(pl.alliance) for pl in game.state.players] == [1, 1, 1, 1]


def test_s8_4_haven_winner_gets_one_more_influence_and_ambition() -> None:
    """§8.4: the Prince's Haven winner gets +1 Influence more and the Ambition token, which
    changes turn order at once (the Haven's own Aftermath already runs in the new order)."""
    game = at("haven", deployed("Ann", card(1)), deployed("Bo", card(2)),
              deployed("Cy", card(5)), rnd=2)
    stay_all(game)
    nxt(game)
    events = nxt(game)
    assert influence_gains(events) == {"Cy": 3, "Bo": 2, "Ann": 1}
    assert game.state.ambition == idx("Cy")
    assert of_type(events, "ambition_taken")[0].player == idx("Cy")
    assert game.state.step == "aftermath"
    assert game.legal().present == [idx("Cy"), idx("Ann"), idx("Bo")]
    nxt(game)
    assert game.state.round == 3 and game.state.ambition == idx("Cy")


def test_s8_4_haven_holder_keeps_ambition() -> None:
    """§8.4: the Ambition holder winning the Haven keeps it and still gets +1 more."""
    game = at("haven", deployed("Ann", card(3)), deployed("Bo", card(2)))
    events = resolve_here(game)
    assert influence_gains(events) == {"Ann": 2, "Bo": 1}
    assert not of_type(events, "ambition_taken")
    assert game.state.ambition == 0


def test_s8_4_haven_ambition_decides_the_final_tie_break() -> None:
    """§8.4/§12: winning the Haven in round 3 makes the winner first for the final tie-break."""
    players = [seat("Ann", influence=7, blood=5), seat("Bo", blood=1), seat("Cy", influence=3,
               blood=5)]
    game = at("haven", deployed("Cy", card(1)), players=players, rnd=3,
              ally_=ally("Nobody", influence=0))
    resolve_here(game)
    board = game.state.scoreboard
    assert board is not None
    assert [(r.name, r.influence.total) for r in board.rows[:2]] == [("Cy", 8), ("Ann", 8)]
    assert board.rows[0].turn_position == 1


def test_s8_4_gained_ally_goes_straight_into_the_alliance() -> None:
    """§8.4: a gained card is active in the Alliance: it Feeds next round."""
    game = at("haven", deployed("Ann", card(3)), deployed("Bo", card(2)),
              ally_=ally("Feeder", feed=2))
    resolve_here(game)
    assert game.state.phase == "feed"
    assert game.legal().feed[0] == 1 + 2
    assert game.legal().feed[1] == 1 + 1


# --- §8.5 Aftermath -----------------------------------------------------------------------------

def test_s8_5_deployed_cards_and_blood_stay_until_end_of_round() -> None:
    """§8.5: after a Location resolves its cards and Blood stay where they are."""
    game = at("1", deployed("Ann", card(3), blood=2), deployed("Bo", card(1)),
              others=[where("2", deployed("Bo", card(2)))])
    resolve_here(game)
    assert game.state.locations[game.state.location_index].id == "2"
    pos = loc_state(game, "1").positions[0]
    assert len(pos.cards) == 1 and pos.blood == 2
    assert p(game, "Ann").blood == 6
