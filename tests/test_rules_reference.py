"""The in-app rules reference (issue 6): help links, search, every Ruling, our own words."""

import re
from pathlib import Path

import pytest

from companion.rules_reference import HELP, help_for, rulings, search, section, sections
from models.common import ROUND_PHASES, STEPS

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "000_36e6050bbd27be3b.txt"
DATA = Path(__file__).resolve().parent.parent / "companion" / "data" / "rules_reference.json"


def test_ids_are_unique_and_every_section_has_text():
    ids = [s.id for s in sections()]
    assert len(ids) == len(set(ids))
    assert all(s.title and s.body and s.keywords for s in sections())


@pytest.mark.parametrize("key", [*ROUND_PHASES, *STEPS, "setup", "game_over", "end_of_round"])
def test_every_phase_and_step_help_button_opens_a_section(key):
    assert help_for(key).id == HELP[key]


def test_steps_open_their_own_sections():
    assert [help_for(s).title for s in STEPS] == [
        "Step 1: Withdraw", "Step 2: Revelation", "Step 3: Preparation", "Step 4: Conflict",
        "Step 5: Aftermath"]


def test_unknown_ids_raise():
    with pytest.raises(KeyError):
        section("nope")
    with pytest.raises(KeyError):
        help_for("lunch")


@pytest.mark.parametrize("query,first", [
    ("Frenzy", "frenzy"), ("frenzy", "frenzy"), ("Rival", "term-rival"),
    ("DIABLERIE", "diablerie"), ("printed power", "term-printed-power"),
    ("tag team", "variant-tag-team"), ("Gain", "term-gain"), ("Steal", "term-steal"),
    ("bank", "term-bank"), ("last blood", "ruling-last-blood"),
])
def test_search_ranks_title_and_keyword_hits_first(query, first):
    hits = search(query)
    assert hits[0].id == first
    assert hits == sorted(hits, key=lambda h: -h.score)


def test_search_gives_snippets_and_body_matches_last():
    hits = search("Rival")
    assert hits[0].title == "Rival" and "Rivals" in hits[0].snippet
    body_only = [h for h in hits if h.score < 50]
    assert body_only and hits[-1] in body_only
    assert search("") == [] and search("zzzz") == []
    assert [h.id for h in search("succubus blood")] == ["variant-location-cards"]  # every word


def test_glossary_terms_exist():
    terms = {s.title for s in sections() if s.group == "glossary"}
    assert {"Gain", "Spend", "Lose", "Steal", "Rival", "Deployed", "Printed Power", "Position",
            "Pool", "Bank", "Alliance", "Face up and face down"} <= terms


RULINGS = {
    "ruling-last-blood": "last blood", "ruling-blood-only": "blood only",
    "ruling-own-frenzy": "own effect", "ruling-third-diablerie": "third diablerie",
    "ruling-power-floor": "below 0", "ruling-frenzy-repeat": "frenzy drain",
    "ruling-tr05-one-blood": "TR05", "ruling-win-ties-influence": "win all ties",
    "ruling-acquire-per-card": "per card", "ruling-br03-teammate": "BR03",
    "ruling-blood-relic": "relic blood", "ruling-one-with-cards": "only one player",
    "ruling-eliminated-cards": "eliminated", "ruling-one-left": "one player",
    "ruling-empty-hand": "empty hand", "ruling-position-relics": "position relic",
    "ruling-vanish-haven": "vanish",
}
"""Every Ruling the companion follows, with a search that finds it."""


def test_every_ruling_is_listed_and_found():
    assert {s.id for s in rulings()} == set(RULINGS)
    assert {s.source for s in rulings()} >= {"companion", "RULES.md §7", "RULES.md §11"}
    for ruling_id, query in RULINGS.items():
        assert ruling_id in [h.id for h in search(query)], query
    assert {h.id for h in search("ruling")} >= set(RULINGS)


def _words(text: str) -> list[str]:
    return text.split()


def test_no_twelve_word_run_of_the_rulebook_is_copied():
    """Mirrors the project hook (every 12-word run, not only every third)."""
    if not SEED.exists():
        pytest.skip("rulebook seed not available")
    seed = _words(re.sub(r"[*_#]", "", SEED.read_text()))
    ours = " ".join(_words(DATA.read_text())).lower()
    copied = [" ".join(seed[i:i + 12]) for i in range(len(seed) - 11)
              if " ".join(seed[i:i + 12]).lower() in ours]
    assert copied == []
