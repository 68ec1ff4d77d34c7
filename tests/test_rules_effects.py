"""Rules tests: rule-conflict principles and keywords (§14), effects applied by hand."""

from __future__ import annotations

from companion.rules.queries import power
from tests.helpers import (
    NAMES,
    ally,
    card,
    deployed,
    influence_gains,
    loc_state,
    member,
    nxt,
    of_type,
    p,
    position_game,
    refused,
    seat,
    stay_all,
    victim,
    where,
)


def effect(action: str, player: str, amount: int = 0, **extra: object) -> dict[str, object]:
    """An apply_effect command."""
    return {"type": "apply_effect", "action": action, "player": player, "amount": amount,
            "reason": "card text", **extra}


def test_s14_gain_comes_from_an_unlimited_bank() -> None:
    """§14 Gain / §1 Bank: Gain puts Bank Blood in the Pool; the Bank is not counted."""
    game = position_game(3)
    for _ in range(3):
        game.play(effect("gain_blood", "Bo", 30))
    assert p(game, "Bo").blood == 96
    game.play(effect("gain_influence", "Cy", 2))
    assert p(game, "Cy").influence == 5


def test_s14_lose_as_much_as_possible() -> None:
    """§14: apply as much as possible: Lose 4 from 2 loses 2 (and causes Frenzy, §10)."""
    game = position_game([seat("Ann", blood=2, alliance=[member(victim())]), seat("Bo"),
                          seat("Cy")])
    events = game.play(effect("lose_blood", "Ann", 4, by="Bo")).events
    losses = [e.delta for e in of_type(events, "blood_changed") if e.kind == "lose"]
    assert losses == [-2]
    assert p(game, "Ann").blood == 3
    assert influence_gains(events) == {"Bo": 1}


def test_s14_steal_as_much_as_possible_without_frenzy() -> None:
    """§14 Steal: from the target's Pool to the thief's; Steal 2 from 5 leaves 3, no Frenzy."""
    game = position_game(3)
    events = game.play(effect("steal_blood", "Ann", 2, by="Bo")).events
    assert (p(game, "Ann").blood, p(game, "Bo").blood) == (4, 8)
    assert not of_type(events, "frenzy_entered")
    refused(game, effect("steal_blood", "Ann", 2), "§14 Steal", "Ann")
    refused(game, effect("steal_blood", "Ann", 2, by="Ann"), "§14 Steal", "Ann")


def test_s14_effect_that_cannot_apply_is_ignored() -> None:
    """§14: an effect that cannot apply is ignored (noted in the log, nothing changes)."""
    game = position_game([seat("Ann", influence=0), seat("Bo"), seat("Cy")])
    before = game.state.players[0].model_dump()
    events = game.play(effect("lose_influence", "Ann", 2)).events
    assert [e.type for e in events] == ["note_added"]
    assert game.state.players[0].model_dump() == before
    game.play(effect("lose_influence", "Bo", 5))
    assert p(game, "Bo").influence == 0


def test_s14_amounts_must_be_positive() -> None:
    """§14: a Gain/Lose/Spend/Steal of 0 is not an effect."""
    game = position_game(3)
    refused(game, effect("gain_blood", "Ann", 0), "§14", "Ann")


def test_s14_printed_power_halved_and_modifiers_explained() -> None:
    """§14 printed Power: halving uses the printed number (round down) before other changes,
    and the breakdown explains it."""
    game = position_game(3, phase="resolution", resolution_location="1",
                         locations=[{"id": "1", "ally": ally(), "deployed": [
                             deployed("Ann", card(5)), deployed("Bo", card(2), blood=1)]}])
    stay_all(game)
    nxt(game)
    uid = loc_state(game, "1").positions[0].cards[0].uid
    game.play(effect("power", "Ann", 1, card=uid, reason="boost"))
    game.play(effect("halve_printed_power", "Ann", card=uid, reason="halve"))
    breakdown = power(game.state, loc_state(game, "1"), 0)
    assert breakdown.total == 5 // 2 + 1
    assert "halve" in breakdown.explain() and "boost" in breakdown.explain()
    refused(game, effect("power", "Ann", 0, card=uid), "§8.4", "Ann")
    refused(game, effect("power", "Ann", 1, card="nope"), "§8.4", "Ann")


def test_s13_tag_team_rival_effects_may_exclude_or_include_the_teammate() -> None:
    """§13 Tag team: an effect on 'each Rival' excludes the teammate unless the player chooses
    to include them; sending the teammate into Frenzy gives no Influence (§10)."""
    players = [seat(n, team=t, blood=b, alliance=[member(victim())])
               for n, t, b in zip(NAMES[:4], "ABAB", (6, 6, 2, 6), strict=True)]
    locs = [where("1", *(deployed(n, card(1)) for n in NAMES[:4]))]
    game = position_game(players, phase="resolution", resolution_location="1", locations=locs,
                         variants={"tag_team": True})
    stay_all(game)
    game.play(effect("lose_blood", "Ann", 2, each_rival=True))
    assert [pl.blood for pl in game.state.players] == [6, 4, 2, 4]
    events = game.play(effect("lose_blood", "Ann", 2, each_rival=True,
                              include_teammate=True)).events
    assert [pl.blood for pl in game.state.players] == [6, 2, 3, 2]
    assert [e.player for e in of_type(events, "frenzy_entered")] == [2]
    assert influence_gains(events) == {}
