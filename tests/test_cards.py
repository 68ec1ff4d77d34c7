"""Automated card effects of §15, alone and in interaction."""

import pytest

from companion.rules.catalogue import CatalogueError, parse, shipped
from companion.rules.errors import RuleError
from companion.rules.game import Game
from models.cards import VICTIM, AllyCard, ClanCard, LocationCard, RelicCard
from models.events import CardDrained, FrenzyEntered
from models.setup import Position

CLANS = ["Brujah", "Gangrel", "Nosferatu", "Tremere", "Ventrue"]


def card(card_id: str) -> dict:
    """A clan card identity from the shipped catalogue."""
    entry = next(c for c in shipped().clan_cards if c.id == card_id)
    return entry.identity().model_dump()


def plain(power: int, kind: str = "conflict") -> dict:
    """A card without automated effect."""
    return {"power": power, "kind": kind}


def ally(ability: str | None = None, kind: str = "human", **values) -> dict:
    """An Ally with given (user-entered) values."""
    base = dict(name=f"Ally {ability or 'plain'}", kind=kind, influence=2, feed=1,
                drain_blood=2, drained_influence=1, ability=ability)
    return {**base, **values}


def start(players: list[dict], deployed: dict | None = None, *, phase: str = "resolution",
          round: int = 1, ambition: str = "A", location_cards: dict | None = None,
          variants: dict | None = None) -> Game:
    """A game from an entered position; `deployed` maps location → player → (cards, blood)."""
    names = [p["name"] for p in players]
    full = []
    for i, p in enumerate(players):
        full.append({"clan": CLANS[i], "blood": 6, "influence": 3,
                     "alliance": [{"card": VICTIM.model_dump()}], **p})
    locs = []
    for loc_id in (["1", "2", "haven"] if len(names) <= 4 else ["1", "2", "3", "haven"]):
        dep = (deployed or {}).get(loc_id, {})
        locs.append({
            "id": loc_id,
            "ally": ally(name=f"Prize {loc_id}"),
            "location_card": (location_cards or {}).get(loc_id),
            "deployed": [{"player": who, "cards": [
                c if "face_up" in c else {"face_up": True, "card": c} for c in cards],
                "blood": blood} for who, (cards, blood) in dep.items()],
        })
    variants = {"location_cards": bool(location_cards),
                "relics": any("relic" in p for p in players), **(variants or {})}
    pos = Position(players=full, round=round, phase=phase, ambition=ambition,
                   locations=locs if phase in ("planning", "resolution") else [],
                   variants=variants)
    return Game.new(pos)


def uid_of(game: Game, loc: str, player: int, index: int = 0) -> str:
    """Uid of a Deployed card."""
    location = next(lo for lo in game.state.locations if lo.id == loc)
    return location.positions[player].cards[index].uid


def to_step(game: Game, step: str) -> None:
    """Stay everyone and advance to a step at the current Location (no due effects before)."""
    order = ["withdraw", "revelation", "preparation", "conflict", "aftermath"]
    while order.index(game.state.step) < order.index(step):
        if game.state.step == "withdraw":
            game.play({"type": "choose_withdraw"})
        elif game.state.step == "revelation":
            raise AssertionError("face-down cards in these tests are revealed explicitly")
        else:
            game.play({"type": "next_step"})


def blood(game: Game) -> list[int]:
    return [p.blood for p in game.state.players]


# --- BR07 Show of Force (Preparation) ---------------------------------------------------------

def test_br07_steals_one_from_each_rival_and_a_1_blood_rival_frenzies():
    """§15 BR07 + §10: stealing a 1-Blood rival's last Blood sends them into Frenzy; the thief
    gains 1 Influence and the victim drains their only card (the Victim, +3 Blood)."""
    g = start([{"name": "A"}, {"name": "B", "blood": 1}, {"name": "C"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2)], 0), "C": ([plain(1)], 0)}})
    to_step(g, "preparation")
    assert [d.effect for d in g.legal().due] == ["BR07"]
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    assert blood(g) == [8, 3, 5]
    assert g.state.players[0].influence == 4
    assert g.state.players[1].alliance[0].drained
    drained = [e for e in g.events if isinstance(e, CardDrained)]
    assert drained[-1].frenzy and drained[-1].random


def test_br07_must_be_resolved_before_going_on():
    """§8.3: next_step is refused while an effect is due; a mandatory one cannot be declined."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2)], 0)}})
    to_step(g, "preparation")
    before = g.state.model_dump()
    with pytest.raises(RuleError, match="§8 preparation"):
        g.play({"type": "next_step"})
    with pytest.raises(RuleError, match="not optional"):
        g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0), "accept": False})
    assert g.state.model_dump() == before


# --- BR01 Bloody Fury and GA02 Wolf Companion (Conflict) --------------------------------------

def test_br01_loses_two_power_with_deployed_blood_only():
    """§15 BR01: 6 Power, 4 with the owner's Deployed Blood here."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("BR01")], 2), "B": ([card("BR01")], 0)}})
    to_step(g, "conflict")
    for d in list(g.legal().due):
        g.play({"type": "resolve_effect", "card": d.uid})
    g.play({"type": "next_step"})
    result = g.state.locations[0].result
    assert result.totals == {0: 4 + 2, 1: 6}
    assert result.ranking == [0, 1]  # 6 each: A is first in turn order (§8.4)


def test_ga02_halves_rival_printed_power_then_br01_and_blood_apply():
    """§15 GA02 with BR01 and Deployed Blood: BR01's printed 6 halved to 3, −2 = 1, + 3 Blood."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("GA02")], 0), "B": ([card("BR01")], 3)}})
    to_step(g, "conflict")
    assert [d.owner for d in g.legal().due] == [0, 1]
    with pytest.raises(RuleError, match="turn order"):
        g.play({"type": "resolve_effect", "card": uid_of(g, "1", 1)})
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 1)})
    from companion.rules.queries import power
    b = power(g.state, g.state.locations[0], 1)
    assert b.cards[0].power == 1 and b.total == 4
    assert "halved" in b.explain() and "−2" in b.explain()


# --- BR04 Fist of Caine (Aftermath) -----------------------------------------------------------

@pytest.mark.parametrize("rnd", [1, 2, 3])
def test_br04_rivals_lose_the_round_number(rnd):
    """§15 BR04: each Rival Loses 1/2/3 Blood in round 1/2/3."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("BR04")], 0), "B": ([plain(5)], 0), "C": ([plain(1)], 1)}},
              round=rnd)
    to_step(g, "aftermath")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    assert blood(g)[1:] == [6 - rnd, 6 - rnd]


def test_br04_excess_loss_does_not_carry_over():
    """§10.2: a 2-Blood Rival losing 3 frenzies, drains the Victim (+3) and ends with 3."""
    g = start([{"name": "A"}, {"name": "B", "blood": 2}, {"name": "C"}],
              {"1": {"A": ([card("BR04")], 0), "B": ([plain(5)], 0)}}, round=3)
    to_step(g, "aftermath")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    assert g.state.players[1].blood == 3
    assert g.state.players[0].influence == 3 + 2 + 1  # 2nd in round 3, + Frenzy of B


# --- BR03 Challenge (Passive) ----------------------------------------------------------------

def _planning(deployed: dict) -> Game:
    players = [{"name": "A", "hand_size": 3}, {"name": "B", "hand_size": 3},
               {"name": "C", "hand_size": 3}]
    return start(players, deployed, phase="planning")


def test_br03_makes_an_opponent_playing_elsewhere_lose_one():
    """§15 BR03: an opponent's play at another Location costs them 1 Blood."""
    g = _planning({"1": {"C": ([card("BR03")], 0)}})
    assert g.legal().max_blood["2"] == {"up": 3, "down": 3}
    assert g.legal().max_blood["1"] == {"up": 3, "down": 4 - 1}
    g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3)})
    assert blood(g) == [5, 6, 6]
    g.play({"type": "play_card", "player": "B", "location": "1", "card": plain(3)})
    assert blood(g) == [5, 6, 6]


def test_br03_face_down_does_not_react():
    """§8.2/§15: a face-down BR03 has no effect."""
    g = _planning({"1": {"C": ([{"face_up": False}], 0)}})
    g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3)})
    assert blood(g) == [6, 6, 6]


def test_br03_owner_playing_elsewhere_loses_nothing():
    """§15 BR03 reacts to opponents only."""
    g = start([{"name": "A", "hand_size": 3}, {"name": "B", "hand_size": 3},
               {"name": "C", "hand_size": 3}], {"1": {"A": ([card("BR03")], 0)}},
              phase="planning")
    g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3)})
    assert blood(g) == [6, 6, 6]


def test_br03_can_send_a_one_blood_player_into_frenzy():
    """§15 BR03 + §10: the holder gains the Frenzy Influence."""
    g = start([{"name": "A", "hand_size": 3, "blood": 1}, {"name": "B", "hand_size": 3},
               {"name": "C", "hand_size": 3}], {"1": {"C": ([card("BR03")], 0)}},
              phase="planning")
    assert g.legal().max_blood["2"]["up"] == 0
    g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3)})
    assert g.state.players[0].blood == 3 and g.state.players[2].influence == 4


# --- NO07 Vanish (Preparation, optional) -------------------------------------------------------

def test_no07_withdraws_to_the_havens_and_steals_from_each_rival():
    """§15 NO07: withdrawing moves its owner's cards and Blood (§8.1); then it steals 1 from
    each Rival."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("NO07"), plain(2)], 2), "B": ([plain(2)], 0),
                     "C": ([plain(2)], 1)}})
    to_step(g, "preparation")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    st = g.state
    assert st.locations[0].positions[0].cards == []
    assert [c.card.power for c in st.locations[-1].positions[0].cards] == [4, 2]
    assert blood(g) == [6 + 2 + 2, 5, 5]
    g.play({"type": "next_step"})
    g.play({"type": "next_step"})
    assert g.state.locations[0].result.ranking == [2, 1]  # C: 2 + 1 Blood beats B: 2


def test_no07_may_be_declined():
    """§15 NO07 is optional: declining leaves everything in place."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("NO07")], 0), "B": ([plain(2)], 0)}})
    to_step(g, "preparation")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0), "accept": False})
    assert len(g.state.locations[0].positions[0].cards) == 1 and blood(g) == [6, 6, 6]


# --- TR05 Cauldron of Blood (Aftermath, optional) ----------------------------------------------

def test_tr05_spends_half_and_each_rival_loses_four():
    """§15 TR05: Spend half (round down) of 7 = 3; each Rival Loses 4."""
    g = start([{"name": "A", "blood": 7}, {"name": "B"}, {"name": "C", "blood": 3}],
              {"1": {"A": ([card("TR05")], 0), "B": ([plain(2)], 0), "C": ([plain(1)], 0)}},
              location_cards=None)
    to_step(g, "aftermath")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    st = g.state
    assert st.players[0].blood == 4 and st.players[1].blood == 2
    assert st.players[2].blood == 3  # frenzied at 0, drained the Victim for 3
    assert st.players[0].influence == 3 + 1 + 1  # 1st place + Frenzy of C


def test_tr05_with_one_blood_can_only_be_declined():
    """§15 TR05 + §14: half of 1 Blood is 0, so the effect cannot be applied."""
    g = start([{"name": "A", "blood": 1}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("TR05")], 0), "B": ([plain(2)], 0)}})
    to_step(g, "aftermath")
    due = g.legal().due[0]
    assert due.optional and not due.can_accept
    before = g.state.model_dump()
    with pytest.raises(RuleError, match="cannot be applied"):
        g.play({"type": "resolve_effect", "card": due.uid})
    assert g.state.model_dump() == before
    g.play({"type": "resolve_effect", "card": due.uid, "accept": False})
    assert blood(g) == [1, 6, 6]


def test_one_player_orders_their_own_effects():
    """§8.3/§14: a player with several due cards picks their order."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("BR07"), card("NO07")], 0), "B": ([plain(2)], 0)}})
    to_step(g, "preparation")
    assert set(g.legal().next_due) == {uid_of(g, "1", 0), uid_of(g, "1", 0, 1)}
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0, 1)})  # Vanish first
    # Vanish moved Show of Force to the Haven: it no longer acts here.
    assert g.legal().due == []
    assert blood(g) == [7, 5, 6]


# --- Allies -----------------------------------------------------------------------------------

OTHER_RELIC = RelicCard(name="Some relic", influence=1).model_dump()


def _drain_game(alliance: list[dict], diablerie: int = 0) -> Game:
    return start([{"name": "A", "hand_size": 3, "diablerie_up": diablerie,
                   "alliance": [{"card": c} for c in alliance]},
                  {"name": "B", "hand_size": 3}, {"name": "C", "hand_size": 3}],
                 phase="planning")


def test_al14_gives_two_diablerie_and_a_third_eliminates():
    """§15 AL14: draining it costs 2 Diablerie; with 1 already, that is 3: out at once (§11)."""
    al14 = next(a for a in shipped().allies if a.id == "AL14")
    values = dict(influence=1, feed=0, drain_blood=4, drained_influence=0)
    card_ = AllyCard(name=al14.name, kind="vampire", id="AL14", ability="AL14", **values)
    g = _drain_game([card_.model_dump()])
    g.play({"type": "drain", "player": "A", "card": g.state.players[0].alliance[0].uid})
    assert g.state.players[0].diablerie == 2 and not g.state.players[0].eliminated
    g2 = _drain_game([card_.model_dump()], diablerie=1)
    g2.play({"type": "drain", "player": "A", "card": g2.state.players[0].alliance[0].uid})
    assert g2.state.players[0].eliminated
    assert g2.legal().actor == 1  # the next player's turn: A is skipped (§11)


def test_frenzy_drain_ally_is_drained_directly_in_frenzy():
    """§10/§15: no random draw: the Ally with this ability is the card drained."""
    g = start([{"name": "A"},
               {"name": "B", "blood": 1,
                "alliance": [{"card": VICTIM.model_dump()},
                             {"card": ally("drained_in_frenzy", drain_blood=3)}]},
               {"name": "C"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2)], 0)}})
    to_step(g, "preparation")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0), "draws": []})
    b = g.state.players[1]
    assert [c.drained for c in b.alliance] == [False, True] and b.blood == 3
    drain_event = [e for e in g.events if isinstance(e, CardDrained)][-1]
    assert not drain_event.random


def test_win_all_ties_beats_turn_order():
    """§15: the holder of the win-ties Ally wins a tie against an earlier player."""
    g = start([{"name": "A"},
               {"name": "B", "alliance": [{"card": ally("win_ties")}]}, {"name": "C"}],
              {"1": {"A": ([plain(5)], 0), "B": ([plain(3)], 2)}})
    to_step(g, "conflict")
    g.play({"type": "next_step"})
    assert g.state.locations[0].result.ranking == [1, 0]


def test_frenzy_bonus_ally_and_the_collar_add_influence():
    """§15: +1 for the Ally, +1 at The Collar, on top of the usual 1."""
    collar = LocationCard(name="The Collar", ability="the_collar").model_dump()
    g = start([{"name": "A", "alliance": [{"card": ally("frenzy_bonus")}]},
               {"name": "B", "blood": 1}, {"name": "C"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2)], 0)}},
              location_cards={"1": collar})
    to_step(g, "preparation")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    assert g.state.players[0].influence == 3 + 3


@pytest.mark.parametrize(("ability", "gain"), [("acquire_gain_5", 5), ("acquire_gain_3", 3),
                                                 ("acquire_gain_per_card", 2)])
def test_on_acquire_allies_gain_blood(ability, gain):
    """§15: 'when you acquire this Ally' fires as the winner takes it (per card: Victim + it)."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([plain(5)], 0), "B": ([plain(3)], 0)}})
    start_pos = g.header.start
    prize = start_pos.locations[0].model_copy(update={"ally": AllyCard(**ally(ability))})
    g = Game.new(start_pos.model_copy(update={"locations": [prize, *start_pos.locations[1:]]}))
    to_step(g, "conflict")
    g.play({"type": "next_step"})
    assert g.state.players[0].blood == 6 + gain


def test_succubus_club_returns_at_most_three_blood():
    """§15 Succubus Club: after it resolves, each player may take back up to 3 Deployed Blood."""
    club = LocationCard(name="Succubus Club", ability="succubus_club").model_dump()
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([plain(5)], 5), "B": ([plain(3)], 1)}},
              location_cards={"1": club})
    to_step(g, "aftermath")
    g.play({"type": "next_step"})
    assert g.legal().commands[0] == "take_back_blood"
    assert g.legal().take_back == {0: 3, 1: 1}
    with pytest.raises(RuleError, match="0 to 3"):
        g.play({"type": "take_back_blood", "amounts": {"A": 4}})
    g.play({"type": "take_back_blood", "amounts": {"A": 3, "B": 1}})
    assert blood(g) == [9, 7, 6]
    assert (g.state.round, g.state.phase) == (2, "feed")  # the empty Locations resolved


def test_relic_restores_a_drained_card_during_the_turn():
    """§15 Relic: during its owner's Planning turn one drained card becomes active again."""
    relic = RelicCard(name="Restoring relic", influence=0, ability="restore_drained")
    g = start([{"name": "A", "hand_size": 3, "relic": relic.model_dump(),
                "alliance": [{"card": VICTIM.model_dump(), "drained": True}]},
               {"name": "B", "hand_size": 3, "relic": OTHER_RELIC},
               {"name": "C", "hand_size": 3, "relic": OTHER_RELIC}], phase="planning")
    uid = g.state.players[0].alliance[0].uid
    g.play({"type": "use_relic", "player": "B"})  # a Relic without automation: just flipped
    assert g.state.players[1].relic_used
    with pytest.raises(RuleError, match="drained cards"):
        g.play({"type": "use_relic", "player": "A", "card": "nope"})
    g.play({"type": "use_relic", "player": "A", "card": uid})
    assert not g.state.players[0].alliance[0].drained and g.state.players[0].relic_used


def test_blood_relic_plays_one_blood_at_each_location():
    """§15 Relic: as Resolution begins, 1 Blood from the Pool onto each Location."""
    relic = RelicCard(name="Blood relic", influence=2, ability="blood_each_location")
    g = start([{"name": "A", "relic": relic.model_dump()}, {"name": "B", "relic": OTHER_RELIC},
               {"name": "C", "relic": OTHER_RELIC}],
              {"2": {"B": ([plain(2)], 0)}})
    assert g.state.step == "withdraw" and g.state.location_index == 0
    g.play({"type": "use_relic", "player": "A"})
    assert g.state.players[0].blood == 3
    assert [lo.positions[0].blood for lo in g.state.locations] == [1, 1, 1]
    with pytest.raises(RuleError, match="already used"):
        g.play({"type": "use_relic", "player": "A"})


def test_peek_costs_one_blood_per_card_and_records_no_identity():
    """§15: the look-at-face-down Ally spends 1 Blood per card looked at."""
    g = start([{"name": "A", "hand_size": 3, "alliance": [{"card": ally("peek_face_down")}]},
               {"name": "B", "hand_size": 3}, {"name": "C", "hand_size": 3}],
              {"1": {"B": ([{"face_up": False}], 0)}}, phase="planning")
    uid = uid_of(g, "1", 1)
    g.play({"type": "peek", "player": "A", "cards": [uid]})
    assert g.state.players[0].blood == 5
    assert g.state.locations[0].positions[1].cards[0].card is None
    with pytest.raises(RuleError, match="§15"):
        g.play({"type": "peek", "player": "B", "cards": [uid]})


def test_frenzy_events_name_the_causer():
    """§10: the Frenzy event records who caused it."""
    g = start([{"name": "A"}, {"name": "B", "blood": 1}, {"name": "C"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2)], 0)}})
    to_step(g, "preparation")
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    assert [(e.player, e.by) for e in g.events if isinstance(e, FrenzyEntered)] == [(1, 0)]


# --- catalogue --------------------------------------------------------------------------------

def test_shipped_catalogue_has_nine_cards_per_clan_and_no_invented_values():
    """§15: 63 clan cards; unknown values are None (Hunt/Ready Power unknown)."""
    cat = shipped()
    assert len(cat.clan_cards) == 63
    hunt = next(c for c in cat.clan_cards if c.id == "BR-HUNT")
    assert hunt.power is None and hunt.starting
    known = {c.id: c.power for c in cat.clan_cards if c.power is not None}
    assert known == {"BR01": 6, "BR03": 4, "BR04": 4, "BR07": 3, "GA02": 2, "NO07": 4, "TR05": 3}
    al14 = next(a for a in cat.allies if a.id == "AL14")
    assert al14.kind == "vampire" and al14.influence is None


@pytest.mark.parametrize(("doc", "message"), [
    ({"allies": [{"id": "AL14", "influence": -3}]}, "allies[0] (card AL14).influence"),
    ({"clan_cards": [{"id": "BR01", "clan": "Brujah", "power": 99}]},
     "clan_cards[0] (card BR01).power"),
    ({"clan_cards": [{"id": "XX01", "clan": "Lasombra"}]}, "clan_cards[0] (card XX01).clan"),
    ({"relics": "nope"}, "relics"),
    ({"allies": [{"id": "A", "name": "x"}, {"id": "A"}]}, "appears twice"),
])
def test_malformed_catalogue_is_rejected_naming_card_and_field(doc, message):
    """bad catalogue files name the card and the field."""
    with pytest.raises(CatalogueError, match=message.replace("[", r"\[").replace("]", r"\]")
                       .replace("(", r"\(").replace(")", r"\)")):
        parse(doc)


def test_unknown_values_cannot_be_played_until_entered():
    """§15: an Ally with unknown values must be completed by the user first."""
    entry = next(a for a in shipped().allies if a.id == "ALLY-WIN-TIES")
    with pytest.raises(ValueError, match="values unknown"):
        entry.card()
    with pytest.raises(ValueError, match="Power unknown"):
        next(c for c in shipped().clan_cards if c.id == "BR-HUNT").identity()
    assert ClanCard(**card("BR01")).effect == "BR01"


# --- manual effects (any card, by hand) -------------------------------------------------------

def test_manual_effect_on_each_rival_causes_frenzy_credited_to_the_owner():
    """'each Rival Loses 2' applied by hand, Frenzy credited (§10)."""
    g = start([{"name": "A"}, {"name": "B", "blood": 2}, {"name": "C"}],
              {"1": {"A": ([plain(4, "aftermath")], 0), "B": ([plain(2)], 0),
                     "C": ([plain(1)], 0)}})
    to_step(g, "aftermath")
    g.play({"type": "apply_effect", "action": "lose_blood", "player": "A", "amount": 2,
            "each_rival": True, "reason": "an Aftermath card"})
    assert blood(g) == [6, 3, 4]
    assert g.state.players[0].influence == 3 + 1 + 1  # 1st in round 1 + Frenzy of B


def test_manual_diablerie_and_forced_drain():
    """take Diablerie tokens; drain a chosen card (§9)."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([plain(4)], 0)}})
    g.play({"type": "apply_effect", "action": "take_diablerie", "player": "B", "amount": 2})
    assert g.state.players[1].diablerie == 2
    uid = g.state.players[1].alliance[0].uid
    g.play({"type": "apply_effect", "action": "drain_card", "player": "B", "card": uid})
    assert g.state.players[1].alliance[0].drained and g.state.players[1].blood == 9
    with pytest.raises(RuleError, match="not an active card"):
        g.play({"type": "apply_effect", "action": "drain_card", "player": "B", "card": uid})
    g.play({"type": "apply_effect", "action": "take_diablerie", "player": "B", "amount": 1})
    assert g.state.players[1].eliminated


def test_restoring_relic_only_on_its_owners_planning_turn():
    """§15 Relic: 'during your turn' — refused on another player's turn, state unchanged."""
    relic = RelicCard(name="Restoring relic", influence=0, ability="restore_drained")
    g = start([{"name": "A", "hand_size": 3, "relic": OTHER_RELIC},
               {"name": "B", "hand_size": 3, "relic": relic.model_dump(),
                "alliance": [{"card": VICTIM.model_dump(), "drained": True}]},
               {"name": "C", "hand_size": 3, "relic": OTHER_RELIC}], phase="planning")
    uid = g.state.players[1].alliance[0].uid
    before = g.state.model_dump()
    with pytest.raises(RuleError, match="Planning turn"):
        g.play({"type": "use_relic", "player": "B", "card": uid})
    assert g.state.model_dump() == before


# --- a whole script through the CLI -----------------------------------------------------------

def test_card_effects_example_applies_every_automated_card(capsys):
    """examples/card_effects.json plays through the CLI with every §15
    effect applied by the engine."""
    import json
    from pathlib import Path

    from companion.cli.main import main

    path = Path(__file__).parent.parent / "examples" / "card_effects.json"
    assert main(["play", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scoreboard"]["winner"] == "Ada"
    assert [r["name"] for r in out["scoreboard"]["rows"]] == ["Ada", "Ben", "Dov", "Cat"]
    assert out["scoreboard"]["rows"][-1]["influence"]["diablerie"] == -2  # AL14

    script = json.loads(path.read_text())
    g = Game.new(Position.model_validate(script["start"]["position"]))
    for cmd in script["actions"]:
        g.play(cmd)
    ev = g.events
    resolved = {g.state.players[e.player].name + ":" + e.uid for e in ev
                if e.type == "effect_resolved"}
    assert len(resolved) >= 6
    effects_played = {e.card.effect for e in ev if e.type == "card_played" and e.card}
    assert {"BR01", "BR03", "BR04", "BR07", "GA02", "NO07", "TR05"} <= effects_played
    reasons = " | ".join(getattr(e, "reason", "") for e in ev)
    for needle in ("(BR03)", "(BR07)", "(BR04)", "(TR05)", "(NO07)", "The Collar",
                   "ALLY-FRENZY-BONUS", "ALLY-ACQUIRE-5", "McAleer, Corporate Banker",
                   "Wainwright, Anarch", "Restoring relic", "looked at 1 face-down"):
        assert needle in reasons, needle
    assert any(e.type == "power_modified" and e.modifier.kind == "halve_printed" for e in ev)
    assert any(e.type == "power_modified" and e.modifier.amount == -2 for e in ev)
    # the Frenzy-drain Ally is drained with no draw
    assert any(e.type == "card_drained" and e.frenzy and not e.random for e in ev)
    assert any(e.type == "diablerie_taken" and e.count == 2 for e in ev)  # AL14
    assert any(e.type == "awaiting_choice" and e.choice == "take_back_blood" for e in ev)
    assert sum(e.type == "relic_used" for e in ev) == 2
    tie = next(e for e in ev if e.type == "conflict_resolved" and e.location == "2")
    assert tie.result.totals[0] == tie.result.totals[1] and tie.result.ranking[0] == 1


def test_legal_lists_peekers_and_face_down_cards():
    """§15 peek Ally: legal() tells the UI who may look and at what."""
    g = start([{"name": "A", "hand_size": 3, "alliance": [{"card": ally("peek_face_down")}]},
               {"name": "B", "hand_size": 3}, {"name": "C", "hand_size": 3}],
              {"1": {"B": ([{"face_up": False}], 0)}}, phase="planning")
    legal = g.legal()
    assert legal.peekers == [0] and legal.peekable == [uid_of(g, "1", 1)]


def test_tag_team_due_effect_offers_the_teammate_choice():
    """§13: 'each Rival' may include or exclude the teammate; the UI is told when it applies."""
    g = start([{"name": "A", "team": "X"}, {"name": "B", "team": "Y"},
               {"name": "C", "team": "X"}, {"name": "D", "team": "Y"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2)], 0), "C": ([plain(2)], 0)}},
              variants={"tag_team": True})
    to_step(g, "preparation")
    (due,) = g.legal().due
    assert due.teammate_choice
    g.play({"type": "resolve_effect", "card": due.uid})
    assert blood(g) == [7, 5, 6, 6]  # the teammate C was spared by default
    g.undo()
    g.play({"type": "resolve_effect", "card": due.uid, "include_teammate": True})
    assert blood(g) == [8, 5, 5, 6]


# --- Challenge (BR03) and the partner in tag team (§13) --------------------------------

def _tag_team_challenge() -> Game:
    """Tag team: C (team X, with A) has Challenge face up at #1; it is A's Planning turn."""
    players = [{"name": n, "team": t, "hand_size": 3} for n, t in zip("ABCD", "XYXY",
                                                                        strict=True)]
    return start(players, {"1": {"C": ([card("BR03")], 0)}}, phase="planning",
                 variants={"tag_team": True})


def test_br03_spares_the_partner_unless_its_owner_includes_them():
    """§13/§15: Challenge reaches 'opponents'; in tag team its owner chooses whether that
    includes their partner. By default A, C's partner, is spared; B, an opponent, is not."""
    g = _tag_team_challenge()
    legal = g.legal()
    assert legal.partner_challenge == 2
    assert legal.max_blood["2"] == {"up": 3, "down": 3, "up_with_partner": 3,
                                    "down_with_partner": 3}
    g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3)})
    assert blood(g) == [6, 6, 6, 6]
    assert g.legal().partner_challenge is None  # B's partner D has no Challenge
    g.play({"type": "play_card", "player": "B", "location": "2", "card": plain(3)})
    assert blood(g) == [6, 5, 6, 6]


def test_br03_owner_may_include_the_partner():
    """§13: C includes A this time: A's play at another Location costs A 1 Blood, and the
    event says whose Challenge and by whose choice."""
    g = _tag_team_challenge()
    events = g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3),
                     "include_teammate": True}).events
    assert blood(g) == [5, 6, 6, 6]
    loss = next(e for e in events if e.type == "blood_changed" and e.kind == "lose")
    assert (loss.player, loss.by, loss.delta) == (0, 2, -1)
    assert "Challenge" in loss.reason and "partner" in loss.reason


def test_br03_include_teammate_without_a_partner_challenge_is_refused():
    """§13: the choice belongs to a partner's face-up Challenge; with none, it is refused."""
    g = _tag_team_challenge()
    g.play({"type": "play_card", "player": "A", "location": "2", "card": plain(3)})
    with pytest.raises(RuleError, match="§13"):
        g.play({"type": "play_card", "player": "B", "location": "2", "card": plain(3),
                "include_teammate": True})
