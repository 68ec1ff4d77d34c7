"""Rules tests: components (§1), setup (§2) and the setup side of the variants (§13)."""

from __future__ import annotations

import pytest

from companion.rules.queries import turn_order
from models.cards import VICTIM
from models.setup import GameSetup
from tests.helpers import (
    NAMES,
    idx,
    new_game,
    order,
    p,
    position_game,
    refused,
    seat,
    to_planning,
)

RELIC = {"name": "Relic", "influence": 2}


def relics(n: int) -> list[dict[str, object]]:
    """n distinct Relics worth 0, 1, 2 … Influence."""
    return [{"name": f"Relic {i}", "influence": i} for i in range(n)]


# --- §1 components and vocabulary ---------------------------------------------------------------

def test_s1_turn_order_is_clockwise_from_the_ambition_holder() -> None:
    """§1: turn order = clockwise from the Ambition holder; Planning turns follow it."""
    game = position_game(4, ambition="Cy")
    assert order(game) == ["Cy", "Di", "Ann", "Bo"]
    actors = []
    for _ in range(4):
        actor = game.legal().actor
        assert actor is not None
        actors.append(NAMES[actor])
        game.play({"type": "play_card", "player": actors[-1], "location": "1",
                   "card": {"power": 1, "kind": "conflict"}})
    assert actors == ["Cy", "Di", "Ann", "Bo"]


def test_s1_victim_values_and_drained_card_stays_with_owner() -> None:
    """§1: a Victim is Influence 1, Feed 1, Drain 3 Blood, drained Influence 0; a drained card
    stays in its owner's Alliance and counts its drained values."""
    assert (VICTIM.influence, VICTIM.feed, VICTIM.drain_blood, VICTIM.drained_influence) == (
        1, 1, 3, 0)
    game = new_game(4)
    to_planning(game)
    uid = p(game, "Ann").alliance[0].uid
    game.play({"type": "drain", "player": "Ann", "card": uid})
    ann = p(game, "Ann")
    assert len(ann.alliance) == 1
    assert ann.alliance[0].drained is True
    assert ann.alliance[0].influence() == 0
    assert ann.blood == 7 + 3


# --- §2 setup ------------------------------------------------------------------------------------

def test_s2_1_random_first_player_is_recorded_and_seeded() -> None:
    """§2.1: a random first player takes the Ambition token; the draw is recorded as random and
    the same seed gives the same player."""
    chosen = set()
    for seed in range(12):
        a = new_game(4, seed=seed, setup=False)
        b = new_game(4, seed=seed, setup=False)
        ev_a = a.play({"type": "set_first_player"}).events
        ev_b = b.play({"type": "set_first_player"}).events
        assert ev_a == ev_b
        assert ev_a[0].type == "first_player_chosen" and ev_a[0].random is True
        assert a.state.ambition == ev_a[0].player
        chosen.add(ev_a[0].player)
    assert len(chosen) > 1, "the seeded draw never varies"


def test_s2_1_chosen_first_player_takes_ambition() -> None:
    """§2.1: the table may name the first player; they hold Ambition and pick a clan first."""
    game = new_game(4, setup=False)
    ev = game.play({"type": "set_first_player", "player": "Cy"}).events
    assert ev[0].random is False
    assert game.state.ambition == idx("Cy")
    assert game.legal().actor == idx("Cy")


@pytest.mark.parametrize(("n", "tag", "expected"), [
    (3, False, ["1", "2", "haven"]),
    (4, False, ["1", "2", "haven"]),
    (5, False, ["1", "2", "3", "haven"]),
    (6, True, ["1", "2", "3", "haven"]),
])
def test_s2_2_locations_by_player_count(n: int, tag: bool, expected: list[str]) -> None:
    """§2.2: 3–4 players → #1, #2, Prince's Haven; 5 (and 6 tag team) → #1, #2, #3, Haven."""
    teams = ["A", "B", "C", "A", "B", "C"][:n] if n == 6 else (
        ["A", "B", "A", "B"] if n == 4 and tag else None)
    game = new_game(n, variants={"tag_team": tag}, teams=teams, setup=False)
    assert [loc.id for loc in game.state.locations] == expected


def test_s2_2_five_players_place_four_allies() -> None:
    """§2.2/§5: with 5 players an Ally is placed at each of the 4 Locations."""
    game = new_game(5)
    game.play({"type": "feed"})
    refused(game, {"type": "place_allies", "allies": {
        k: {"name": "X", "kind": "human", "influence": 1, "feed": 1, "drain_blood": 1,
            "drained_influence": 0} for k in ("1", "2", "haven")}}, "§5")
    ally = {"name": "X", "kind": "human", "influence": 1, "feed": 1, "drain_blood": 1,
            "drained_influence": 0}
    allies = {k: {**ally, "name": f"X{k}"} for k in ("1", "2", "3", "haven")}
    ev = game.play({"type": "place_allies", "allies": allies}).events
    assert [e.location for e in ev if e.type == "ally_placed"] == ["1", "2", "3", "haven"]


def test_s2_3_random_clan_draw_offers_players_plus_one_distinct_clans() -> None:
    """§2.3: (players + 1) different clans are drawn; only those may be picked, in turn order."""
    game = new_game(4, first="Bo", setup=False)
    game.play({"type": "set_first_player", "player": "Bo"})
    ev = game.play({"type": "offer_clans"}).events
    offered = ev[0].clans
    assert len(offered) == 5 and len(set(offered)) == 5
    missing = next(c for c in ("Brujah", "Gangrel", "Malkavian", "Nosferatu", "Toreador",
                               "Tremere", "Ventrue") if c not in offered)
    refused(game, {"type": "pick_clan", "player": "Bo", "clan": missing}, "§2", "Bo")
    refused(game, {"type": "pick_clan", "player": "Ann", "clan": offered[0]}, "§2", "Ann")
    for name, clan in zip(["Bo", "Cy", "Di", "Ann"], offered, strict=False):
        game.play({"type": "pick_clan", "player": name, "clan": clan})
    assert [p(game, n).clan for n in ["Bo", "Cy", "Di", "Ann"]] == offered[:4]
    assert game.state.phase == "feed" and game.state.round == 1


def test_s2_3_a_clan_is_taken_only_once() -> None:
    """§2.3: each player picks a different clan."""
    game = new_game(3, setup=False)
    game.play({"type": "set_first_player", "player": "Ann"})
    game.play({"type": "pick_clan", "player": "Ann", "clan": "Toreador"})
    refused(game, {"type": "pick_clan", "player": "Bo", "clan": "Toreador"}, "§2", "Bo",
            "Toreador")


def test_s2_4_to_7_starting_pool_alliance_and_hand() -> None:
    """§2.4–2.7: 6 Blood, 3 Influence, 1 Victim in the Alliance, Hunt and Ready in hand."""
    game = new_game(5)
    for pl in game.state.players:
        assert (pl.blood, pl.influence, pl.hand_size) == (6, 3, 2)
        assert [c.card for c in pl.alliance] == [VICTIM]
        assert pl.alliance[0].drained is False
        assert (pl.diablerie_up, pl.diablerie_down) == (0, 0)
    assert all(loc.ally is None for loc in game.state.locations)


def test_s2_player_names_unique_and_six_only_in_tag_team() -> None:
    """§2: names are unique; 6 players only in tag team."""
    with pytest.raises(ValueError, match="§2"):
        GameSetup.model_validate({"players": [{"name": "Ann"}, {"name": "ann"},
                                              {"name": "Bo"}]})
    with pytest.raises(ValueError, match="§2"):
        GameSetup.model_validate({"players": [{"name": n} for n in NAMES]})


# --- §13 variants at setup ------------------------------------------------------------------------

def test_s13_relic_draft_goes_counter_clockwise_from_the_first_players_right() -> None:
    """§13 Relics: (players + 1) Relics; the player to the right of the first player drafts
    first, then counter-clockwise; the first player drafts last."""
    game = new_game(4, first="Bo", variants={"relics": True})
    assert game.state.phase == "setup"
    refused(game, {"type": "offer_relics", "relics": relics(4)}, "§13")
    game.play({"type": "offer_relics", "relics": relics(5)})
    drafters = []
    for i in range(4):
        actor = game.legal().actor
        assert actor is not None
        drafters.append(NAMES[actor])
        game.play({"type": "pick_relic", "player": NAMES[actor], "index": i})
    assert drafters == ["Ann", "Di", "Cy", "Bo"]
    assert [p(game, n).relic.influence for n in drafters] == [0, 1, 2, 3]  # type: ignore[union-attr]
    assert game.state.phase == "feed"


def test_s13_relic_draft_refuses_out_of_order_and_taken_relics() -> None:
    """§13 Relics: only the drafter in order may pick, and only a Relic still available."""
    game = new_game(3, first="Ann", variants={"relics": True})
    game.play({"type": "offer_relics", "relics": relics(4)})
    refused(game, {"type": "pick_relic", "player": "Bo", "index": 0}, "§13", "Bo", "Cy")
    game.play({"type": "pick_relic", "player": "Cy", "index": 1})
    refused(game, {"type": "pick_relic", "player": "Bo", "index": 1}, "§13", "Bo")
    refused(game, {"type": "pick_relic", "player": "Bo", "index": 9}, "§13", "Bo")


def test_s13_location_cards_on_every_location_but_the_haven() -> None:
    """§13 Location cards: one card on each Location except the Prince's Haven."""
    game = new_game(5, variants={"location_cards": True})
    assert game.state.phase == "setup"
    card = {"name": "Elysium"}
    refused(game, {"type": "place_location_cards",
                   "cards": {k: card for k in ("1", "2", "3", "haven")}}, "§13")
    refused(game, {"type": "place_location_cards", "cards": {k: card for k in ("1", "2")}},
            "§13")
    game.play({"type": "place_location_cards", "cards": {k: card for k in ("1", "2", "3")}})
    assert [loc.location_card is not None for loc in game.state.locations] == [
        True, True, True, False]
    assert game.state.phase == "feed"


def test_s13_tag_team_seats_teammates_opposite() -> None:
    """§13 Tag team: 4 or 6 players, teammates opposite (A1, B1, C1, A2, B2, C2)."""
    with pytest.raises(ValueError, match="§13"):
        new_game(4, variants={"tag_team": True}, teams=["A", "A", "B", "B"], setup=False)
    with pytest.raises(ValueError, match="§13"):
        new_game(5, variants={"tag_team": True}, teams=["A", "B", "C", "A", "B"], setup=False)
    game = new_game(6, variants={"tag_team": True}, teams=["A", "B", "C", "A", "B", "C"])
    assert order(game) == NAMES[:6]
    assert [pl.team for pl in game.state.players] == ["A", "B", "C", "A", "B", "C"]


def test_s13_three_player_mode_follows_from_player_count() -> None:
    """§13: 3-player mode is on with 3 players only."""
    assert new_game(3).state.three_player is True
    assert new_game(4).state.three_player is False
    assert position_game([seat(n) for n in NAMES[:3]]).state.three_player is True


def test_s13_turn_order_of_position_game_skips_nobody() -> None:
    """§1/§13: every seat is in the turn order of a 5-player table."""
    game = position_game(5, ambition="Ed")
    assert turn_order(game.state) == [4, 0, 1, 2, 3]
