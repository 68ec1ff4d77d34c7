"""The shipped card facts are those of docs/rules.md §15; older user catalogues are upgraded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.rules.catalogue import (
    CATALOGUE_VERSION,
    CatalogueError,
    merge,
    parse,
    shipped,
    upgrade,
)
from companion.rules.game import Game
from models.cards import VICTIM
from models.setup import Position

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ["companion", "models", "views", "docs", "examples", "tools", "README.md"]
"""Everything the product ships or documents (tests and their fixtures excluded)."""
UPGRADERS = {"companion/rules/catalogue.py", "companion/storage/transfer.py"}
"""The code that upgrades older documents: it alone must recognise the old facts."""


def ally_entry(ability: str):
    return next(a for a in shipped().allies if a.ability == ability)


def test_s15_br03_is_challenge_and_simply_passive() -> None:
    """§15: BR03 is named Challenge ('Bring it on!' is only its flavour line), Passive, 4."""
    br03 = next(c for c in shipped().clan_cards if c.id == "BR03")
    assert (br03.name, br03.kind, br03.power, br03.effect) == ("Challenge", "passive", 4, "BR03")


def test_s15_the_frenzy_drain_ally_has_no_known_id_name_or_kind() -> None:
    """§15: the Ally drained directly in Frenzy has no id, name or kind in the sources: the
    catalogue knows only its ability, so its kind is asked like any unknown value."""
    entry = ally_entry("drained_in_frenzy")
    assert entry.id == "ALLY-FRENZY-DRAIN"
    assert (entry.name, entry.kind, entry.partial_name) == (None, None, None)
    assert not entry.complete()
    with pytest.raises(ValueError, match="unknown"):
        entry.card()


def test_s15_no_invented_card_anywhere_in_the_product() -> None:
    """§15: 'AL30 Miguel Chandler, Dancer' is not in any source: no product file names it."""
    pattern = re.compile(r"Miguel|Chandler|\bAL30\b")
    found = []
    for top in PRODUCT:
        base = ROOT / top
        files = [base] if base.is_file() else [f for f in base.rglob("*") if f.is_file()]
        for f in files:
            name = str(f.relative_to(ROOT))
            if (f.suffix in (".py", ".json", ".md") and name not in UPGRADERS
                    and pattern.search(f.read_text("utf-8"))):
                found.append(name)
    assert found == []


def test_s15_lani_kahale_is_a_victim_not_an_ally() -> None:
    """§15: Lani Kahale, Pop-star is a Victim (all Victims are alike, §1): no Ally entry."""
    assert not [a for a in shipped().allies if "Lani" in (a.name or "") + a.id.title()]


def test_s15_gain_three_ally_is_a_vampire_with_a_cut_name() -> None:
    """§15: the Gain-3 acquire Ally is a Vampire; only the end of its name is known."""
    entry = ally_entry("acquire_gain_3")
    assert entry.kind == "vampire" and entry.name is None
    assert entry.partial_name == "…Wainwright, Anarch Intelligence Exchange"


def test_s15_per_card_ally_is_a_human_with_a_cut_name() -> None:
    """§15: the per-card acquire Ally is a Human; only the end of its name is known."""
    entry = ally_entry("acquire_gain_per_card")
    assert entry.kind == "human" and entry.name is None
    assert entry.partial_name == "…rah McAleer, Corporate Banker"


def test_s10_s15_frenzy_drain_ally_entered_as_a_vampire_gives_diablerie() -> None:
    """§9/§10/§15: the kind the user enters matters: drained directly in Frenzy, a Vampire is
    Diablerie."""
    drainer = {"name": "Read off the card", "kind": "vampire", "influence": 1, "feed": 0,
               "drain_blood": 2, "drained_influence": 0, "id": "ALLY-FRENZY-DRAIN",
               "ability": "drained_in_frenzy"}
    players = [{"name": n, "clan": c, "blood": 6, "influence": 3, "hand_size": 3,
                "alliance": [{"card": VICTIM.model_dump()}]}
               for n, c in (("A", "Brujah"), ("B", "Gangrel"), ("C", "Tremere"))]
    players[1]["blood"] = 1
    players[1]["alliance"].append({"card": drainer})
    prize = {**drainer, "name": "Prize", "kind": "human", "id": None, "ability": None}
    locations = [{"id": i, "ally": {**prize, "name": f"Prize {i}"}} for i in ("1", "2", "haven")]
    game = Game.new(Position.model_validate({"players": players, "round": 1,
                                             "phase": "planning", "ambition": "A",
                                             "locations": locations}))
    game.play({"type": "apply_effect", "action": "lose_blood", "player": "B", "by": "A",
               "amount": 1, "draws": []})
    b = game.state.players[1]
    assert [c.drained for c in b.alliance] == [False, True]
    assert b.diablerie == 1 and b.blood == 2


# --- older user catalogues ---------------------------------------------------------------------

OLD_USER_CATALOGUE = {
    "version": 1,
    "clan_cards": [{"id": "BR03", "clan": "Brujah", "name": "Bring it on!", "power": 4,
                    "text": "Opponents playing elsewhere lose 1 Blood."}],
    "allies": [
        {"id": "AL30", "name": "Miguel Chandler, Dancer", "kind": "human", "influence": 1,
         "feed": 0, "drain_blood": 3, "drained_influence": 0},
        {"id": "LANI-KAHALE", "name": "Lani Kahale, Pop-star", "kind": "human",
         "influence": 1, "feed": 1, "drain_blood": 3, "drained_influence": 0},
        {"id": "SHARED", "name": "A shared Ally", "kind": "vampire", "ability": "AL30"},
        {"id": "ALLY-WIN-TIES", "name": "Tie Winner", "kind": "human", "influence": 1},
    ],
}
"""A catalogue the previous release saved: the invented AL30 and Lani Kahale entries as the
app prefilled them, BR03 under its old name, and a shared entry using the old ability key."""


def test_a_version_1_user_catalogue_is_upgraded_keeping_the_users_values() -> None:
    """The values the user read off their cards stay; the invented facts go (§15)."""
    new = upgrade(OLD_USER_CATALOGUE)
    assert new["version"] == CATALOGUE_VERSION == 2
    assert OLD_USER_CATALOGUE["allies"][0]["id"] == "AL30", "input left untouched"
    allies = {a["id"]: a for a in new["allies"]}
    assert "LANI-KAHALE" not in allies and "AL30" not in allies
    assert allies["ALLY-FRENZY-DRAIN"] == {"id": "ALLY-FRENZY-DRAIN", "influence": 1,
                                           "feed": 0, "drain_blood": 3, "drained_influence": 0}
    assert allies["SHARED"]["ability"] == "drained_in_frenzy"
    assert allies["ALLY-WIN-TIES"]["name"] == "Tie Winner"
    assert new["clan_cards"] == [{"id": "BR03", "clan": "Brujah", "power": 4,
                                  "text": "Opponents playing elsewhere lose 1 Blood."}]
    merged = merge(shipped(), parse(OLD_USER_CATALOGUE))  # parse upgrades by itself
    drain = next(a for a in merged.allies if a.id == "ALLY-FRENZY-DRAIN")
    assert (drain.name, drain.kind, drain.influence) == (None, None, 1)
    assert next(c for c in merged.clan_cards if c.id == "BR03").name == "Challenge"


def test_a_catalogue_from_a_newer_release_is_refused() -> None:
    with pytest.raises(CatalogueError, match="version"):
        parse({"version": CATALOGUE_VERSION + 1, "allies": []})
