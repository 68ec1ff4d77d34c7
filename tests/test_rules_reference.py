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
    "ruling-acquire-per-card": "per card", "ruling-challenge-partner": "BR03",
    "ruling-blood-relic": "relic blood", "ruling-one-left": "one player",
    "ruling-empty-hand": "empty hand", "ruling-position-relics": "position relic",
    "ruling-vanish-haven": "vanish", "ruling-unknown-relic": "relic by hand",
}
"""Every Ruling the companion follows, with a search that finds it."""


def test_every_ruling_is_listed_and_found():
    assert {s.id for s in rulings()} == set(RULINGS)
    assert {s.source for s in rulings()} >= {"companion", "RULES.md §7", "RULES.md §11"}
    for ruling_id, query in RULINGS.items():
        assert ruling_id in [h.id for h in search(query)], query
    assert {h.id for h in search("ruling")} >= set(RULINGS)


RULES = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"


def test_in_app_rulings_match_the_rulings_of_rules_md():
    """Every Ruling of RULES.md is in the app under its §, and the app cites no other §; the
    companion's own rulings never contradict RULES.md (the retired ones are gone)."""
    if not RULES.exists():
        pytest.skip("RULES.md not available")
    where, found = "", set()
    for line in RULES.read_text("utf-8").splitlines():
        head = re.match(r"#+ (§[\d.]+)", line)
        if head:
            where = head.group(1)
        if "**Ruling" in line and where:
            found.add(where)
    assert found == {"§7", "§8.4", "§10", "§11"}
    cited = {s.source.removeprefix("RULES.md ") for s in rulings()
             if s.source and s.source.startswith("RULES.md")}
    assert cited == found
    ids = {s.id for s in sections()}
    assert not ids & {"ruling-one-with-cards", "ruling-eliminated-cards", "ruling-br03-teammate"}


def test_rules_reference_says_what_rules_md_corrected():
    """§8.4, §11, §14, §15 as corrected: the in-app text says when 'only one player with cards'
    is judged, what an elimination removes, that a moved card leaves its modifiers behind, and
    names BR03 Challenge."""
    text = " ".join(" ".join(s.body) for s in sections()).lower()
    assert "when the withdraw step ended" in text
    assert "go back to their owners at the end of the round" in text
    assert "leaves every power modifier behind" in text
    assert "challenge (br03)" in text and "bring it on" not in text


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
