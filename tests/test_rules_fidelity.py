"""Rules fidelity, round 2: moved cards, 'only one with cards', elimination, one copy
of each card, mid-lap positions, Relic timing, the order of Power explanations, tie notes.

Every test cites docs/rules.md (§) and uses the rulebook's figures.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.cli.main import state_text
from companion.rules.catalogue import shipped
from companion.rules.errors import RuleError
from companion.rules.game import Game
from companion.rules.queries import power, present_players, taken_allies
from companion.story.review import lines
from tests.helpers import (
    NAMES,
    ally,
    card,
    deployed,
    idx,
    influence_gains,
    loc_state,
    member,
    nxt,
    p,
    play,
    position_game,
    ranking_at,
    refused,
    result_at,
    seat,
    stay_all,
    victim,
    where,
)


def known(card_id: str) -> dict[str, Any]:
    """A §15 clan card as the catalogue gives it (with its automated effect)."""
    entry = next(c for c in shipped().clan_cards if c.id == card_id)
    return entry.identity().model_dump(exclude_none=True)


def at(loc: str, *deps: dict[str, Any], n: int = 4, rnd: int = 1, ambition: str = "Ann",
       players: list[dict[str, Any]] | None = None, **extra: Any) -> Game:
    """A game in Resolution, about to resolve `loc` with these Deployed cards and Blood."""
    return position_game(players or n, phase="resolution", round=rnd, ambition=ambition,
                         resolution_location=loc,
                         locations=[where(loc, *deps, ally_=ally("Prize"))], **extra)


def uid(game: Game, loc: str, name: str, index: int = 0) -> str:
    """Uid of a Deployed card on a player's Position."""
    return loc_state(game, loc).positions[idx(name)].cards[index].uid


def finish_round(game: Game) -> None:
    """Everyone stays; every step goes on until the round is over."""
    rnd = game.state.round
    while game.state.round == rnd and game.state.phase == "resolution":
        if game.legal().next_due:
            game.play({"type": "resolve_effect", "card": game.legal().next_due[0]})
        elif game.state.step == "withdraw":
            stay_all(game)
        else:
            nxt(game)


# --- 1. §14: a moved card drops its modifiers ----------------------------------------------------

def test_s14_bloody_fury_withdrawn_after_its_penalty_counts_six_at_the_haven() -> None:
    """§14: Bloody Fury takes its −2 at #1 (Ann has Blood there), then withdraws; at the
    Prince's Haven, with no Blood of Ann there, it counts its printed 6, not 4."""
    game = at("1", deployed("Ann", known("BR01"), blood=2), deployed("Bo", card(3)))
    stay_all(game)
    nxt(game)  # Preparation → Conflict: Bloody Fury's effect is due
    fury = uid(game, "1", "Ann")
    game.play({"type": "resolve_effect", "card": fury})
    assert power(game.state, loc_state(game, "1"), idx("Ann")).total == 6 - 2 + 2
    game.play({"type": "apply_effect", "action": "withdraw", "player": "Ann",
               "reason": "a card's effect"})
    moved = loc_state(game, "haven").positions[idx("Ann")].cards
    assert [c.uid for c in moved] == [fury] and moved[0].modifiers == []
    assert power(game.state, loc_state(game, "haven"), idx("Ann")).total == 6


def test_s14_vanish_leaves_every_modifier_behind() -> None:
    """§14 + §15 NO07: a card that Vanishes to the Prince's Haven counts there with its printed
    Power only: the +2 it took at #1 stays behind (Vanish 4 + card 3 = 7, not 9)."""
    game = at("1", deployed("Ann", known("NO07"), card(3)), deployed("Bo", card(2)))
    stay_all(game)
    game.play({"type": "apply_effect", "action": "power", "player": "Ann", "amount": 2,
               "card": uid(game, "1", "Ann", 1), "reason": "a boost"})
    game.play({"type": "resolve_effect", "card": uid(game, "1", "Ann")})
    haven = loc_state(game, "haven")
    assert all(c.modifiers == [] for c in haven.positions[idx("Ann")].cards)
    assert power(game.state, haven, idx("Ann")).total == 4 + 3


# --- 2. §8.4: 'only one player with cards' is judged when the Withdraw step ends ------------------

def test_s8_4_two_with_cards_at_withdraw_end_then_one_vanishes_is_ranked_normally() -> None:
    """§8.4: Ann (Vanish) and Bo had cards when the Withdraw step ended; Ann Vanishes in
    Preparation. The conflict is ranked normally, so Cy, with Blood alone, takes part: Cy's 2
    Deployed Blood beat Bo's card of 1; round 1: Cy takes the Ally and 1 Influence, Bo a
    Victim and 1 Influence."""
    game = at("1", deployed("Ann", known("NO07")), deployed("Bo", card(1)),
              deployed("Cy", blood=2))
    stay_all(game)
    game.play({"type": "resolve_effect", "card": uid(game, "1", "Ann")})
    assert loc_state(game, "1").card_players == [idx("Ann"), idx("Bo")]
    events = nxt(game) + nxt(game)
    result = result_at(events, "1")
    assert result.outcome == "contested"
    assert ranking_at(events, "1") == ["Cy", "Bo"]
    assert result.totals == {idx("Bo"): 1, idx("Cy"): 2}
    assert influence_gains(events) == {"Cy": 1, "Bo": 1}
    assert [c.card.name for c in p(game, "Cy").alliance] == ["Victim", "Prize"]
    assert [c.card.name for c in p(game, "Bo").alliance] == ["Victim", "Victim"]


def test_s8_4_one_with_cards_at_withdraw_end_is_uncontested() -> None:
    """§8.4 Ruling (control): Ann withdraws with her token, so when the Withdraw step ends only
    Bo has cards: Bo wins alone; Cy's Blood earns nothing."""
    game = at("1", deployed("Ann", card(4)), deployed("Bo", card(1)), deployed("Cy", blood=2))
    game.play({"type": "choose_withdraw", "withdraw": ["Ann"]})
    assert loc_state(game, "1").card_players == [idx("Bo")]
    events = nxt(game) + nxt(game)
    assert result_at(events, "1").outcome == "uncontested"
    assert influence_gains(events) == {"Bo": 1}


# --- 3. §11: elimination removes only what the eliminated player owns ---------------------------

VAMPIRE = ally("Childe", kind="vampire", influence=2, feed=1, drain_blood=4,
               drained_influence=0)


def test_s11_other_players_cards_on_an_eliminated_position_go_home_at_end_of_round() -> None:
    """§11 Ruling: Ann's third Diablerie removes her own card and Blood; Bo's card lying on
    Ann's Position stays (counting for nobody) and goes back to Bo's hand at End of Round."""
    players = [seat("Ann", diablerie_up=2, alliance=[member(VAMPIRE)]),
               seat("Bo", hand_size=3), seat("Cy", hand_size=3)]
    game = position_game(players, locations=[where("1", {
        "player": "Ann", "blood": 2,
        "cards": [{"face_up": True, "card": card(6)},
                  {"face_up": True, "card": card(2), "owner": "Bo"}]})])
    game.play({"type": "drain", "player": "Ann", "card": p(game, "Ann").alliance[0].uid})
    assert p(game, "Ann").eliminated
    left = loc_state(game, "1").positions[idx("Ann")]
    assert [(c.owner, c.card.power) for c in left.cards] == [(idx("Bo"), 2)]
    assert left.blood == 0
    assert present_players(game.state, loc_state(game, "1")) == []
    for name in ("Bo", "Cy", "Bo", "Cy", "Bo", "Cy"):  # 3-player mode: 3 turns each (§13)
        play(game, name, "2", card(1))
    finish_round(game)
    assert (game.state.round, game.state.phase) == (2, "feed")
    assert p(game, "Bo").hand_size == 3 + 1, "Bo's three plays back, and the card on Ann's"
    assert p(game, "Cy").hand_size == 3
    assert loc_state(game, "1").positions[idx("Ann")].cards == []


# --- 6. §7: a position entered in the middle of a Planning lap ------------------------------------

def test_s7_position_entered_mid_lap_continues_with_the_next_player() -> None:
    """§7: in round 1 (2 turns each), Ann and Bo have taken 2 turns and Cy and Di 1: Cy plays
    next, then Di, then Resolution begins; omitted hand sizes follow (3 − turns taken)."""
    players = [seat(n, hand_size=None) for n in NAMES[:4]]
    game = position_game(players, turns_taken=1, planning_player="Cy")
    assert game.state.turns_taken == [2, 2, 1, 1]
    legal = game.legal()
    assert (legal.actor, legal.turn, legal.turns) == (idx("Cy"), 2, 2)
    assert [pl.hand_size for pl in game.state.players] == [1, 1, 2, 2]
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "card": card(1)},
            "§7", "Ann")
    play(game, "Cy", "1", card(1))
    play(game, "Di", "1", card(1))
    assert game.state.phase == "resolution"


def test_s7_mid_lap_follows_turn_order_from_the_ambition_holder() -> None:
    """§1/§7: turn order starts at the Ambition holder (Cy): Cy and Di are earlier than Ann."""
    game = position_game(4, ambition="Cy", turns_taken=0, planning_player="Ann")
    assert game.state.turns_taken == [0, 0, 1, 1]
    assert game.legal().actor == idx("Ann")


@pytest.mark.parametrize(("why", "changes"), [
    ("not a player", {"planning_player": "Zed"}),
    ("outside Planning", {"phase": "resolution", "planning_player": "Bo"}),
    ("an eliminated player", {"planning_player": "Bo", "players": [
        seat("Ann"), seat("Bo", eliminated=True, diablerie_up=3), seat("Cy"), seat("Di")]}),
])
def test_s7_mid_lap_position_is_validated(why: str, changes: dict[str, Any]) -> None:
    """§7: the player whose turn it is must be a player still in, during Planning."""
    with pytest.raises(ValueError, match="§"):
        position_game(**{"players": 4, **changes})


# --- 7. One copy of each card (§1, §2) -----------------------------------------------------------

def test_s2_a_card_already_face_up_cannot_be_played_face_up_again() -> None:
    """§1/§2: Ann owns one Bloody Fury; with it face up at #1 she cannot play it again."""
    game = position_game([seat("Ann", clan="Brujah"), seat("Bo"), seat("Cy")],
                         locations=[where("1", deployed("Ann", known("BR01")))])
    assert "BR01" in game.legal().taken_cards[idx("Ann")]
    refused(game, {"type": "play_card", "player": "Ann", "location": "2",
                   "card": known("BR01")}, "§2", "Ann", "Bloody Fury")
    play(game, "Ann", "2", known("BR07"))  # another card is fine
    assert sorted(game.legal().taken_cards[idx("Ann")]) == ["BR01", "BR07"]


def test_s2_two_face_down_cards_cannot_both_be_vanish() -> None:
    """§1/§2: revealing two face-down cards of Ann as Vanish is refused ('Vanish 4 + Vanish 4
    + 2 Blood = 10' cannot happen); naming them differently is fine."""
    game = at("1", deployed("Ann", None, None, blood=2), deployed("Bo", card(3)),
              players=[seat("Ann", clan="Nosferatu"), seat("Bo"), seat("Cy"),
                       seat("Di", clan="Toreador")])
    stay_all(game)
    a, b = uid(game, "1", "Ann"), uid(game, "1", "Ann", 1)
    refused(game, {"type": "reveal", "cards": {a: known("NO07"), b: known("NO07")}},
            "§2", "Ann", "Vanish")
    game.play({"type": "reveal", "cards": {a: known("NO07"), b: {"power": 2, "id": "NO01"}}})


def test_s2_a_reveal_cannot_name_a_card_already_face_up() -> None:
    """§1/§2: Vanish face up at #2, so Ann's face-down card at #1 is not Vanish, neither when
    she withdraws (§8.1) nor at Revelation (§8.2)."""
    deps = [deployed("Ann", None), deployed("Bo", card(3))]
    others = {"locations": [where("1", *deps, ally_=ally("Prize")),
                            where("2", deployed("Ann", known("NO07")))]}
    players = [seat("Ann", clan="Nosferatu"), seat("Bo"), seat("Cy"), seat("Di", clan="Toreador")]
    game = position_game(players, phase="resolution", resolution_location="1", **others)
    hidden = uid(game, "1", "Ann")
    refused(game, {"type": "choose_withdraw", "withdraw": ["Ann"],
                   "reveal": {hidden: known("NO07")}}, "§2", "Ann", "Vanish")
    stay_all(game)
    refused(game, {"type": "reveal", "cards": {hidden: known("NO07")}}, "§2", "Ann")
    game.play({"type": "reveal", "cards": {hidden: {"power": 1, "id": "NO02"}}})


def test_s1_an_ally_exists_once() -> None:
    """§1/§5: the same Ally cannot lie at two Locations, nor be laid while in an Alliance;
    Victims are all alike and never collide."""
    prize = {**ally("Prize"), "id": "ALLY-X"}
    players = [seat("Ann", alliance=[member(victim()), member(prize)]), seat("Bo"), seat("Cy")]
    game = position_game(players, phase="location_setup")
    assert game.legal().taken_allies == ["ALLY-X"]
    other = {**ally("Other"), "id": "ALLY-Y"}
    refused(game, {"type": "place_allies", "allies": {"1": other, "2": other,
                                                      "haven": ally("Third")}}, "§1", None,
            "Other")
    refused(game, {"type": "place_allies", "allies": {"1": prize, "2": other,
                                                      "haven": ally("Third")}}, "§1", None,
            "Prize")
    game.play({"type": "place_allies", "allies": {"1": other, "2": ally("Second"),
                                                  "haven": ally("Third")}})
    assert sorted(taken_allies(game.state)) == ["ALLY-X", "ALLY-Y", "Second", "Third"]


def test_s1_an_entered_position_holds_one_copy_of_each_card() -> None:
    """§1/§2: a position with Ann's Bloody Fury face up twice, or one Ally in two places, is
    refused."""
    with pytest.raises(ValueError, match="§2.*Ann"):
        position_game(3, locations=[where("1", deployed("Ann", known("BR01"))),
                                    where("2", deployed("Ann", known("BR01")))])
    twice = {**ally("Prize"), "id": "ALLY-X"}
    with pytest.raises(ValueError, match="§1"):
        position_game([seat("Ann", alliance=[member(twice)]), seat("Bo"), seat("Cy")],
                      locations=[where("1", ally_=twice)])


def test_s1_entered_and_won_victims_carry_the_same_id() -> None:
    """§1: all Victims are alike: one entered in a position without an id, and one won in play,
    are both the Victim (id VICTIM)."""
    game = at("1", deployed("Ann", card(3)), deployed("Bo", card(1)))
    assert victim().get("id") is None
    assert [c.card.id for c in p(game, "Bo").alliance] == ["VICTIM"]
    finish_round(game)
    won = p(game, "Bo").alliance[-1]
    assert (won.card.id, won.card.name) == ("VICTIM", "Victim")


# --- 8. Relics only when their text allows (§13, §15) --------------------------------------------

RESTORE = {"name": "Restoring relic", "influence": 0, "ability": "restore_drained"}
BLOOD = {"name": "Blood relic", "influence": 2, "ability": "blood_each_location"}
OTHER = {"name": "Another relic", "influence": 1}


def relic_game(**extra: Any) -> Game:
    """Planning, round 1: Ann holds the restoring Relic (with a drained Victim), Bo the Blood
    Relic, Cy a Relic the companion does not know."""
    players = [seat("Ann", relic=RESTORE, alliance=[member(victim()),
                                                    member(victim(), drained=True)]),
               seat("Bo", relic=BLOOD), seat("Cy", relic=OTHER)]
    return position_game(players, variants={"relics": True}, **extra)


def test_s15_restoring_relic_only_in_its_owners_planning_turn() -> None:
    """§15: the restoring Relic acts during its owner's own turn; a Relic without automated
    text may be flipped any time (the referee applies it by hand); the Blood Relic waits for
    the start of Resolution."""
    game = relic_game()
    legal = game.legal()
    assert legal.relic_users == [idx("Ann"), idx("Cy")]
    assert legal.relic_cards == {idx("Ann"): [p(game, "Ann").alliance[1].uid]}
    assert "use_relic" in legal.commands
    play(game, "Ann", "1", card(1))
    assert game.legal().relic_users == [idx("Cy")]
    refused(game, {"type": "use_relic", "player": "Ann",
                   "card": p(game, "Ann").alliance[1].uid}, "§15", "Ann")
    refused(game, {"type": "use_relic", "player": "Bo"}, "§15", "Bo")


def test_s15_blood_relic_only_as_resolution_begins() -> None:
    """§15: at the start of Resolution the Blood Relic's owner may use it; once Resolution has
    started at #1 it is too late."""
    game = relic_game(phase="resolution", resolution_location="1",
                      locations=[where("1", deployed("Ann", card(1)))])
    assert game.legal().relic_users == [idx("Bo"), idx("Cy")]
    stay_all(game)
    assert game.legal().relic_users == [idx("Cy")]


def test_s13_no_relic_user_means_no_relic_command() -> None:
    """§13: a used Relic is flipped for good; with no usable Relic, use_relic is not offered."""
    players = [seat("Ann", relic=RESTORE), seat("Bo", relic={**OTHER, "name": "R2"},
                                                  relic_used=True),
               seat("Cy", relic={**OTHER, "name": "R3"}, relic_used=True)]
    game = position_game(players, variants={"relics": True})
    legal = game.legal()
    assert legal.relic_users == [] and "use_relic" not in legal.commands


# --- 10. Power explained in the order effects applied; tie notes ----------------------------------

def _fury_and_wolf(ambition: str) -> Game:
    game = at("1", deployed("Ann", known("BR01"), blood=2), deployed("Bo", known("GA02")),
              players=[seat("Ann", clan="Brujah"), seat("Bo", clan="Gangrel"), seat("Cy"),
                       seat("Di")], ambition=ambition)
    stay_all(game)
    nxt(game)
    while game.legal().next_due:
        game.play({"type": "resolve_effect", "card": game.legal().next_due[0]})
    return game


def test_s8_4_power_explained_in_the_order_effects_applied() -> None:
    """§8.4/§15: Wolf Companion (Bo first in turn order) halves Bloody Fury's printed 6 to 3,
    then Bloody Fury's own −2 gives 1; with Ann first, −2 gives 4, then halving the printed
    Power gives 3 − 2 = 1. Same Power, told in the order it happened."""
    wolf_first = power(_fury_and_wolf("Bo").state, loc_state(_fury_and_wolf("Bo"), "1"), 0)
    text = wolf_first.explain()
    assert wolf_first.total == 1 + 2
    assert text.index("halved") < text.index("−2")
    assert "Bloody Fury 6, printed Power halved (Wolf Companion (GA02)) → 3, " \
           "−2 (Bloody Fury (BR01)) → 1" in text
    fury_first = _fury_and_wolf("Ann")
    text = power(fury_first.state, loc_state(fury_first, "1"), 0).explain()
    assert "Bloody Fury 6, −2 (Bloody Fury (BR01)) → 4, printed Power halved " \
           "(Wolf Companion (GA02)) → 1" in text
    assert text.endswith("+ 2 Blood = total 3")


def test_s1_s8_4_conflict_tie_note_names_the_winner_and_why() -> None:
    """§1/§8.4: Ann and Bo tie on 5 Power; Ann wins the tie, being earlier in turn order. With
    the Ally that wins all ties, Bo wins it (§15)."""
    game = at("1", deployed("Ann", card(5)), deployed("Bo", card(3), blood=2))
    nxt_events = stay_all(game) + nxt(game) + nxt(game)
    assert ranking_at(nxt_events, "1") == ["Ann", "Bo"]
    note = "Ann wins the tie with Bo on 5 Power: Ann is earlier in turn order"
    assert loc_state(game, "1").tie_notes == [note]
    assert any(note in line for line in lines(game)), "the review timeline says it too"
    assert f"tie: {note}" in state_text(game.state), "and the CLI's state text"
    wins_ties = {**ally("Lucky"), "ability": "win_ties"}
    players = [seat("Ann"), seat("Bo", alliance=[member(wins_ties)]), seat("Cy"), seat("Di")]
    game = at("1", deployed("Ann", card(5)), deployed("Bo", card(3), blood=2),
              players=players)
    events = stay_all(game) + nxt(game) + nxt(game)
    assert ranking_at(events, "1") == ["Bo", "Ann"]
    assert loc_state(game, "1").tie_notes == [
        "Bo wins the tie with Ann on 5 Power: Bo holds the Ally that wins all ties"]


# --- formats: a card named by place (player/location/n) -----------------------------------------

def test_cards_named_by_player_location_and_place() -> None:
    """docs/formats.md: 'Ann/1/2' is Ann's 2nd card at Location #1, so a script names a
    face-down card without knowing its uid."""
    game = position_game(4, phase="resolution", resolution_location="1", locations=[
        where("1", deployed("Ann", card(3), None), deployed("Bo", None))])
    game.play({"type": "choose_withdraw"})
    for bad in ("Ann/1/3", "Zed/1/1", "Ann/9/1", "Ann/1/0", "Ann/1/x"):
        with pytest.raises(RuleError, match="§"):
            game.play({"type": "reveal", "cards": {bad: card(1), "1/1/1": card(2)}})
    game.play({"type": "reveal", "cards": {"Ann/1/2": card(4), "1/1/1": card(2)}})
    ann, bo = (loc_state(game, "1").positions[i].cards for i in (0, 1))
    assert (ann[1].card.power, bo[0].card.power) == (4, 2)
    game.play({"type": "apply_effect", "action": "power", "player": "Ann", "card": "Ann/1/1",
               "amount": 1, "reason": "a boost"})
    assert loc_state(game, "1").positions[0].cards[0].modifiers[0].amount == 1
