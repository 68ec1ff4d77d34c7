"""Rules tests: Drain and Diablerie (§9), Frenzy and End of Round (§10), Elimination (§11)."""

from __future__ import annotations

from typing import Any

from companion.rules.game import Game
from companion.rules.queries import present_players, rivals, turn_order
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
    of_type,
    p,
    play,
    position_game,
    ranking_at,
    refused,
    resolve_here,
    seat,
    stay_all,
    victim,
    where,
)

VAMPIRE = ally("Childe", kind="vampire", influence=2, feed=1, drain_blood=4,
               drained_influence=0)


def lose(game: Game, who: str, amount: int, by: str | None = None,
         draws: list[str] | None = None) -> list[Any]:
    """Apply 'Lose N Blood' by hand, caused by `by`."""
    cmd: dict[str, Any] = {"type": "apply_effect", "action": "lose_blood", "player": who,
                           "amount": amount, "reason": "test"}
    if by is not None:
        cmd["by"] = by
    if draws is not None:
        cmd["draws"] = draws
    return game.play(cmd).events


def frenzy_table(ann_alliance: list[dict[str, Any]] | None = None, ann_blood: int = 2,
                 **ann: Any) -> Game:
    """3 players in Planning; Ann has the given Alliance and Blood."""
    return position_game([seat("Ann", blood=ann_blood, alliance=ann_alliance, **ann),
                          seat("Bo"), seat("Cy")])


# --- §9 Drain and Diablerie -----------------------------------------------------------------------

def test_s9_drain_gains_drain_blood_and_counts_drained_influence() -> None:
    """§9: a Drained card gives its Drain Blood now and its drained Influence at game end."""
    game = frenzy_table([member(ally("Cop", influence=3, drain_blood=2, drained_influence=1))],
                        ann_blood=4)
    uid = p(game, "Ann").alliance[0].uid
    events = game.play({"type": "drain", "player": "Ann", "card": uid}).events
    drained = of_type(events, "card_drained")[0]
    assert (drained.uid, drained.frenzy, drained.random) == (uid, False, False)
    ann = p(game, "Ann")
    assert ann.blood == 6
    assert ann.alliance[0].influence() == 1
    assert ann.diablerie == 0
    refused(game, {"type": "drain", "player": "Ann", "card": uid}, "§9", "Ann", "already")
    refused(game, {"type": "drain", "player": "Ann", "card": "zz"}, "§9", "Ann")


def test_s9_draining_a_vampire_is_diablerie() -> None:
    """§9: Draining a Vampire Ally gives the owner 1 (face-up) Diablerie token."""
    game = frenzy_table([member(VAMPIRE)], ann_blood=4)
    uid = p(game, "Ann").alliance[0].uid
    events = game.play({"type": "drain", "player": "Ann", "card": uid}).events
    assert [(e.player, e.count) for e in of_type(events, "diablerie_taken")] == [(0, 1)]
    ann = p(game, "Ann")
    assert (ann.diablerie_up, ann.diablerie_down, ann.blood) == (1, 0, 8)


def test_s9_voluntary_drain_not_outside_planning() -> None:
    """§9: a player Drains voluntarily only during their own Planning turn."""
    game = position_game(3, phase="resolution", resolution_location="1",
                         locations=[where("1", deployed("Ann", card(1)))])
    uid = p(game, "Ann").alliance[0].uid
    refused(game, {"type": "drain", "player": "Ann", "card": uid}, "§3", None, "planning")


# --- §10 Frenzy -----------------------------------------------------------------------------------

def test_s10_frenzy_causer_gains_one_and_a_random_card_is_drained() -> None:
    """§10: Bo makes Ann Lose her last Blood → Frenzy: Bo +1 Influence; one active card
    drawn at random (recorded random=True) is Drained; excess loss does not carry over."""
    game = frenzy_table([member(victim()), member(ally("Cop", drain_blood=2))], ann_blood=2)
    events = lose(game, "Ann", 5, by="Bo")
    assert [(e.player, e.by) for e in of_type(events, "frenzy_entered")] == [(0, 1)]
    assert influence_gains(events) == {"Bo": 1}
    drains = of_type(events, "card_drained")
    assert len(drains) == 1 and drains[0].frenzy is True and drains[0].random is True
    card_ = next(c for c in p(game, "Ann").alliance if c.uid == drains[0].uid)
    assert card_.drained
    assert p(game, "Ann").blood == card_.card.drain_blood, "excess loss does not carry over"
    assert p(game, "Ann").frenzies == 1
    assert sum(c.drained for c in p(game, "Ann").alliance) == 1


def test_s10_frenzy_random_drain_replays_identically() -> None:
    """§10: the random draw is recorded: redo and a verified replay give the same events."""
    alliance = [member(victim()), member(ally("A", drain_blood=1)),
                member(ally("B", drain_blood=2)), member(ally("C", drain_blood=4))]
    game = frenzy_table(alliance)
    first = lose(game, "Ann", 2, by="Cy")
    state = game.state.model_dump()
    game.undo()
    game.redo()
    assert game.actions[-1].events == first
    assert game.state.model_dump() == state
    again = Game.from_journal(game.header_doc(), game.journal(), verify=True)
    assert again.state.model_dump() == state
    # the draw is really random: over several seeds more than one card gets drawn
    drawn = set()
    for s in range(10):
        g = position_game([seat("Ann", blood=2, alliance=alliance), seat("Bo"), seat("Cy")],
                          seed=s)
        drawn.add(of_type(lose(g, "Ann", 2, by="Cy"), "card_drained")[0].uid)
    assert len(drawn) > 1


def test_s10_referee_enters_the_physically_drawn_card() -> None:
    """§10: the referee may enter the card drawn physically (command `draws`)."""
    game = frenzy_table([member(victim()), member(ally("Cop", drain_blood=2))])
    cop = p(game, "Ann").alliance[1].uid
    refused(game, {"type": "apply_effect", "action": "lose_blood", "player": "Ann",
                   "amount": 2, "by": "Bo", "draws": ["nope"]}, "§10", "Ann")
    refused(game, {"type": "apply_effect", "action": "lose_blood", "player": "Ann",
                   "amount": 2, "by": "Bo", "draws": []}, "§10", "Ann")
    refused(game, {"type": "apply_effect", "action": "lose_blood", "player": "Ann",
                   "amount": 1, "by": "Bo", "draws": [cop]}, "§10", None, "not needed")
    events = lose(game, "Ann", 2, by="Bo", draws=[cop])
    drained = of_type(events, "card_drained")
    assert [(e.uid, e.random, e.frenzy) for e in drained] == [(cop, False, True)]
    assert p(game, "Ann").blood == 2
    assert not p(game, "Ann").alliance[0].drained


def test_s10_frenzy_with_no_active_card_trades_influence_for_blood() -> None:
    """§10: no active Alliance card → lose 1 Influence and gain 1 Blood."""
    game = frenzy_table([member(victim(), drained=True)], ann_blood=1, influence=4)
    events = lose(game, "Ann", 3, by="Bo")
    ann = p(game, "Ann")
    assert (ann.blood, ann.influence) == (1, 3)
    assert influence_gains(events) == {"Bo": 1, "Ann": -1}
    assert not of_type(events, "card_drained")


def test_s10_ruling_causing_your_own_frenzy_gives_nobody_influence() -> None:
    """§10 Ruling: a player who caused their own Frenzy gives nobody Influence."""
    game = frenzy_table([member(victim())], ann_blood=2)
    events = lose(game, "Ann", 2, by="Ann")
    assert of_type(events, "frenzy_entered")
    assert influence_gains(events) == {}
    game2 = frenzy_table([member(victim())], ann_blood=2)
    assert influence_gains(lose(game2, "Ann", 2)) == {}


def test_s10_steal_causes_frenzy_for_the_thief() -> None:
    """§10/§14: Steal 3 from a player with 2 steals 2; the thief caused the Frenzy."""
    game = frenzy_table([member(victim())], ann_blood=2)
    events = game.play({"type": "apply_effect", "action": "steal_blood", "player": "Ann",
                        "by": "Cy", "amount": 3}).events
    assert p(game, "Cy").blood == 6 + 2
    assert p(game, "Ann").blood == 3
    assert influence_gains(events) == {"Cy": 1}


def test_s10_frenzy_drawing_a_vampire_is_diablerie() -> None:
    """§10.5: a Vampire drained in Frenzy is Diablerie."""
    game = frenzy_table([member(VAMPIRE)], ann_blood=1)
    events = lose(game, "Ann", 1, by="Bo")
    assert [(e.player, e.count) for e in of_type(events, "diablerie_taken")] == [(0, 1)]
    assert p(game, "Ann").diablerie_up == 1 and p(game, "Ann").blood == 4


def test_s10_s13_tag_team_no_influence_for_sending_your_teammate() -> None:
    """§10/§13: tag team: sending your teammate into Frenzy gives no Influence; an opponent
    does."""
    players = [seat(n, team=t, blood=1) for n, t in zip(NAMES[:4], "ABAB", strict=True)]
    game = position_game(players, variants={"tag_team": True})
    assert influence_gains(lose(game, "Ann", 1, by="Cy")) == {}
    assert influence_gains(lose(game, "Bo", 1, by="Cy")) == {"Cy": 1}


def test_s10_end_of_round_cleanup() -> None:
    """§10 End of Round: Deployed Blood to the Bank, every Deployed card to its owner's hand
    (wherever it lies), face-down Diablerie tokens flip face up."""
    players = [seat("Ann", hand_size=0, diablerie_down=2), seat("Bo", hand_size=1),
               seat("Cy", hand_size=0)]
    game = position_game(players, phase="resolution", resolution_location="haven",
                         locations=[where("1", deployed("Bo", card(2), blood=3)),
                                    where("haven", deployed("Ann", card(1), card(4), blood=2),
                                          {"player": "Cy", "blood": 1, "cards": [
                                              {"face_up": True, "card": card(1),
                                               "owner": "Bo"}]})])
    events = resolve_here(game)
    assert of_type(events, "round_ended")
    assert game.state.phase == "feed" and game.state.round == 2
    assert [pl.hand_size for pl in game.state.players] == [2, 3, 0]
    assert [pl.blood for pl in game.state.players] == [6, 6, 6]
    for loc in game.state.locations:
        assert all(pos.cards == [] and pos.blood == 0 for pos in loc.positions)
    assert (p(game, "Ann").diablerie_up, p(game, "Ann").diablerie_down) == (2, 0)


# --- §11 Elimination ------------------------------------------------------------------------------

def test_s11_ruling_third_diablerie_eliminates_at_once() -> None:
    """§11 Ruling: a third Diablerie token puts the player out at once: their cards and Blood at
    Locations are removed, they take no further turns and are no Rival."""
    players = [seat("Ann", diablerie_up=1, diablerie_down=1, alliance=[member(VAMPIRE)]),
               seat("Bo"), seat("Cy")]
    game = position_game(players, locations=[
        where("1", deployed("Ann", card(6), blood=3), deployed("Bo", card(1))),
        where("haven", {"player": "Bo", "cards": [{"face_up": True, "card": card(2),
                                                   "owner": "Ann"}]})])
    uid = p(game, "Ann").alliance[0].uid
    events = game.play({"type": "drain", "player": "Ann", "card": uid}).events
    assert [e.player for e in of_type(events, "player_eliminated")] == [0]
    ann = p(game, "Ann")
    assert ann.eliminated and ann.diablerie == 3
    assert loc_state(game, "1").positions[0].cards == []
    assert loc_state(game, "1").positions[0].blood == 0
    assert loc_state(game, "haven").positions[1].cards == [], "Ann's card at Bo's Position"
    assert turn_order(game.state) == [1, 2]
    assert game.legal().actor == 1, "the eliminated player's turn ends"
    refused(game, {"type": "play_card", "player": "Ann", "location": "1", "card": card(1)},
            "§11", "Ann")
    assert rivals(game.state, loc_state(game, "1"), 1) == []


def test_s11_ruling_eliminated_player_is_skipped_in_planning_and_resolution() -> None:
    """§11 Ruling: an eliminated player is skipped in every step and ranked nowhere."""
    players = [seat("Ann"), seat("Bo", eliminated=True, diablerie_up=3), seat("Cy"),
               seat("Di")]
    game = position_game(players, ambition="Ann")
    seen = []
    while game.state.phase == "planning":
        actor = game.legal().actor
        assert actor is not None
        seen.append(NAMES[actor])
        play(game, NAMES[actor], "1", card(idx(NAMES[actor]) + 1))
    assert seen == ["Ann", "Cy", "Di"] * 2
    assert present_players(game.state, loc_state(game, "1")) == [0, 2, 3]
    events = resolve_here(game)
    assert ranking_at(events, "1") == ["Di", "Cy", "Ann"]
    assert "Bo" not in influence_gains(events)


def test_s11_frenzy_elimination_stops_the_frenzy() -> None:
    """§11: a Frenzy drain that gives the third Diablerie eliminates; Rivals still rank."""
    players = [seat("Ann", blood=1, diablerie_up=2, alliance=[member(VAMPIRE)]), seat("Bo"),
               seat("Cy")]
    game = position_game(players, phase="resolution", resolution_location="1",
                         locations=[where("1", deployed("Ann", card(9)),
                                          deployed("Bo", card(1)), deployed("Cy", card(2)))])
    stay_all(game)
    lose(game, "Ann", 1, by="Cy")
    assert p(game, "Ann").eliminated
    assert influence_gains(game.actions[-1].events) == {"Cy": 1}
    nxt(game)
    events = nxt(game)
    assert ranking_at(events, "1") == ["Cy", "Bo"]
