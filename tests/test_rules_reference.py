"""The rules in the project's own words: the in-app reference (help links, search, every
Ruling) and docs/rules.md made from it, whose chapters (§) every citation in the project names.

Everything here runs on a plain clone; the comparisons with the source documents the rules
were written from are made by `tools/check_sources.py SOURCES_DIR` (the sources are not in the
repository).
"""

import re
from pathlib import Path

import pytest

from companion.rules.reference import (
    EXTRAS,
    HELP,
    RULE,
    chapters,
    help_for,
    markdown,
    rulings,
    search,
    section,
    sections,
)
from models.common import ROUND_PHASES, STEPS

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "companion" / "data" / "rules_reference.json"
DOC = ROOT / "docs" / "rules.md"
CITING = ["companion", "models", "views", "tests", "bench", "tools", "docs", "examples",
          "README.md", "vendetta_companion.py"]
"""Where the project cites rules sections (§)."""
HEADING = re.compile(r"^#+ (§\d+(?:\.\d+)?) ", re.MULTILINE)


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
    assert {s.source for s in rulings()} >= {"companion", "§7", "§11"}
    for ruling_id, query in RULINGS.items():
        assert ruling_id in [h.id for h in search(query)], query
    assert {h.id for h in search("ruling")} >= set(RULINGS)


RULE_BOOK_RULINGS = {"§7", "§8.4", "§10", "§11"}
"""The chapters where the companion reads an unclear rule book (the other Rulings are its own
decisions)."""


def _rule_book_rulings() -> set[str]:
    return {s.source for s in rulings() if s.source != "companion"}


def test_rulings_of_the_rule_book_stand_in_the_chapter_they_read():
    """Each Ruling names the § it reads and stands in that chapter (or one of its parts) of
    docs/rules.md; the retired ones are gone."""
    assert _rule_book_rulings() == RULE_BOOK_RULINGS
    for s in rulings():
        assert s.source == "companion" or RULE.fullmatch(s.source or ""), s.id
        if s.source != "companion":
            assert all(r == s.source or r.startswith(s.source + ".")
                       for r in s.paragraph_rules()), s.id
    ids = {s.id for s in sections()}
    assert not ids & {"ruling-one-with-cards", "ruling-eliminated-cards", "ruling-br03-teammate"}


def test_docs_rules_md_is_made_from_the_reference():
    """docs/rules.md is the reference set out by chapter: regenerate it after editing the
    reference or the shipped catalogue (`python -m companion.rules.reference > docs/rules.md`)."""
    assert DOC.read_text("utf-8") == markdown()


def test_chapters_are_numbered_in_order_and_each_has_text():
    numbers = [c.rule for c in chapters()]
    assert all(RULE.fullmatch(n) for n in numbers) and len(numbers) == len(set(numbers))
    keys = [tuple(int(x) for x in n[1:].split(".")) for n in numbers]
    assert keys == sorted(keys)
    assert all(k[:1] in keys for k in keys)  # §8.4 sits under a §8
    used = {r for s in sections() for r in s.paragraph_rules()} | set(EXTRAS)
    assert used | {r.split(".")[0] for r in used} == set(numbers)


def _cited() -> dict[str, set[str]]:
    """Every § cited in the project's code, tests and documents, with the files citing it."""
    cited: dict[str, set[str]] = {}
    for top in CITING:
        path = ROOT / top
        files = [path] if path.is_file() else [
            f for f in path.rglob("*") if f.suffix in (".py", ".md", ".json", ".txt")]
        for f in files:
            if f == DOC or "__pycache__" in f.parts:
                continue
            for rule in RULE.findall(f.read_text("utf-8", errors="replace")):
                cited.setdefault(rule, set()).add(str(f.relative_to(ROOT)))
    return cited


def test_every_cited_section_is_a_heading_of_docs_rules_md():
    headings = set(HEADING.findall(DOC.read_text("utf-8")))
    assert headings == {c.rule for c in chapters()}
    cited = _cited()
    assert {"§1", "§2.3", "§7", "§8.4", "§10.5", "§15"} <= set(cited)  # the scan sees them
    missing = {rule: sorted(files) for rule, files in cited.items() if rule not in headings}
    assert missing == {}


def test_rules_reference_says_what_rules_md_corrected():
    """§8.4, §11, §14, §15 as corrected: the in-app text says when 'only one player with cards'
    is judged, what an elimination removes, that a moved card leaves its modifiers behind, and
    names BR03 Challenge."""
    text = " ".join(" ".join(s.body) for s in sections()).lower()
    assert "when the withdraw step ended" in text
    assert "go back to their owners at the end of the round" in text
    assert "leaves every power modifier behind" in text
    assert "challenge (br03)" in text and "bring it on" not in text
