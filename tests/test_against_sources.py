"""The project's words against the source documents they were written from: the rules
digest (`RULES.md`) and the seeds, when they sit beside the repository (`../shared`). A plain
clone has no sources: `tests/conftest.py` then leaves this file out (nothing to compare with,
so nothing skipped and nothing that passes without looking).
"""

import re
from pathlib import Path

import pytest

from companion.bloodfeud.stations import markdown as blood_feud_reference
from companion.rules.reference import markdown
from tests.test_rules_reference import DATA, DOC, HEADING, RULE_BOOK_RULINGS, _rule_book_rulings

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT.parent / "shared"
"""The project's source documents (beside the repository, not in a clone)."""
SEED = SOURCES / "seeds" / "000_36e6050bbd27be3b.txt"
RULES = SOURCES / "RULES.md"
HERITAGE = SOURCES / "seeds" / "003_be08ef6a71a97320.txt"
BLOOD_FEUD = SOURCES / "seeds" / "004_0d0dbf1c170a0484.txt"


def copied_runs(source: Path, ours: str, n: int) -> list[str]:
    """Every run of `n` words of `source` that stands in `ours` (case and markup ignored)."""
    def words(text: str) -> list[str]:
        return re.sub(r"[*_#|]", "", text).lower().split()

    theirs, mine = words(source.read_text("utf-8")), " ".join(words(ours))
    return [" ".join(theirs[i:i + n]) for i in range(len(theirs) - n + 1)
            if " ".join(theirs[i:i + n]) in mine]


def test_in_app_rulings_match_the_rulings_of_rules_md():
    """Where the rules digest the project was made from is at hand: its Rulings are the app's
    rule-book Rulings, under the same §."""
    where, found = "", set()
    for line in RULES.read_text("utf-8").splitlines():
        head = re.match(r"#+ (§[\d.]+)", line)
        if head:
            where = head.group(1)
        if "**Ruling" in line and where:
            found.add(where)
    assert found == RULE_BOOK_RULINGS == _rule_book_rulings()


def test_every_chapter_of_rules_md_is_in_docs_rules_md():
    theirs = set(HEADING.findall(RULES.read_text("utf-8")))
    assert theirs and theirs <= set(HEADING.findall(DOC.read_text("utf-8")))


@pytest.mark.parametrize("source", [SEED, RULES], ids=["rulebook", "digest"])
def test_no_twelve_word_run_of_the_sources_is_copied(source: Path) -> None:
    """Mirrors the project hook (every 12-word run), for the reference and docs/rules.md,
    against the rulebook and the rules digest."""
    assert copied_runs(source, DATA.read_text("utf-8") + DOC.read_text("utf-8"), 12) == []
    assert markdown() == DOC.read_text("utf-8")


def test_no_run_of_the_other_games_seeds_is_copied() -> None:
    """Heritage's and Blood Feud's references and formats are in the project's words: no
    12-word run of Heritage's seed (lists of its battleground names make shorter runs), no
    8-word run of Blood Feud's station aids."""
    docs = ROOT / "docs"
    heritage = "".join((docs / n).read_text("utf-8") for n in ("heritage.md", "heritage-format.md"))
    feud = blood_feud_reference() + (docs / "bloodfeud-format.md").read_text("utf-8")
    assert copied_runs(HERITAGE, heritage, 12) == []
    assert copied_runs(BLOOD_FEUD, feud, 8) == []
