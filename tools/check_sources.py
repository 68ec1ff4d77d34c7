"""Check the project's words against the source documents they were written from, for
whoever holds those documents (they are not part of the repository; the project carries its
own rules text, and its tests never need them):

    python tools/check_sources.py SOURCES_DIR

SOURCES_DIR holds `RULES.md` (the rules digest) and `seeds/` (the rulebook and the other
games' texts). Checked: the digest's Rulings are the reference's rule-book Rulings under the
same §; every chapter of the digest is a chapter of docs/rules.md; no 12-word run of the
rulebook or the digest in the reference and docs/rules.md; no 12-word run of Heritage's seed
and no 8-word run of Blood Feud's station aids in their documents. Prints each problem; exit 1
if any.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.bloodfeud.stations import markdown as blood_feud_reference  # noqa: E402
from companion.rules.reference import markdown  # noqa: E402
from tests.test_rules_reference import (  # noqa: E402
    DATA,
    DOC,
    HEADING,
    RULE_BOOK_RULINGS,
    _rule_book_rulings,
)

RULEBOOK = "seeds/000_36e6050bbd27be3b.txt"
HERITAGE = "seeds/003_be08ef6a71a97320.txt"
BLOOD_FEUD = "seeds/004_0d0dbf1c170a0484.txt"


def copied_runs(source: Path, ours: str, n: int) -> list[str]:
    """Every run of `n` words of `source` that stands in `ours` (case and markup ignored)."""
    def words(text: str) -> list[str]:
        return re.sub(r"[*_#|]", "", text).lower().split()

    theirs, mine = words(source.read_text("utf-8")), " ".join(words(ours))
    return [" ".join(theirs[i:i + n]) for i in range(len(theirs) - n + 1)
            if " ".join(theirs[i:i + n]) in mine]


def problems(sources: Path) -> list[str]:
    """What differs from, or is copied from, the source documents."""
    out: list[str] = []
    digest = (sources / "RULES.md").read_text("utf-8")
    where, found = "", set()
    for line in digest.splitlines():
        head = re.match(r"#+ (§[\d.]+)", line)
        where = head.group(1) if head else where
        if "**Ruling" in line and where:
            found.add(where)
    if not found == RULE_BOOK_RULINGS == _rule_book_rulings():
        out.append(f"Rulings: the digest has {sorted(found)}, the reference "
                   f"{sorted(_rule_book_rulings())}")
    ours = DOC.read_text("utf-8")
    missing = set(HEADING.findall(digest)) - set(HEADING.findall(ours))
    if missing:
        out.append(f"chapters of the digest not in docs/rules.md: {sorted(missing)}")
    if markdown() != ours:
        out.append("docs/rules.md is not made from the reference: regenerate it")
    reference = DATA.read_text("utf-8") + ours
    docs = ROOT / "docs"
    heritage = "".join((docs / n).read_text("utf-8") for n in ("heritage.md", "heritage-format.md"))
    feud = blood_feud_reference() + (docs / "bloodfeud-format.md").read_text("utf-8")
    for source, text, n in ((sources / RULEBOOK, reference, 12),
                            (sources / "RULES.md", reference, 12),
                            (sources / HERITAGE, heritage, 12),
                            (sources / BLOOD_FEUD, feud, 8)):
        out += [f"{n}-word run of {source.name} copied: {run!r}"
                for run in copied_runs(source, text, n)]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    found = problems(Path(argv[0]))
    print("\n".join(found) or "the project's words match and copy nothing of the sources")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
