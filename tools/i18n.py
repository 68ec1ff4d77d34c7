"""The translation catalogues (Babel): `extract` the texts of the code into messages.pot,
`update` each language's .po with it, `compile` them to .mo, `check` them (catalogues current,
no fuzzy entry, fields and plural forms right; `check --full`: also nothing untranslated),
`stats` (translated per language). README: "Translations".

    python tools/i18n.py extract update     # after changing texts in the code
    python tools/i18n.py check
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.i18n import catalogues  # noqa: E402 - after the project is on the path


def main(argv: list[str]) -> int:
    """Run the steps named in `argv`, in order; 1 when `check` finds a problem."""
    steps = argv or ["check"]
    for step in steps:
        if step == "extract":
            print("messages.pot", "written" if catalogues.extract_pot() else "unchanged")
        elif step == "update":
            print("updated:", ", ".join(catalogues.update()) or "nothing")
        elif step == "compile":
            for path in catalogues.compile_all():
                print("compiled", path.relative_to(catalogues.ROOT))
        elif step == "stats":
            for lang, (done, total) in catalogues.statistics().items():
                print(f"{lang}: {done}/{total} translated")
        elif step in ("check", "--full"):
            if step == "--full":
                continue
            found = catalogues.check(full="--full" in steps)
            print("\n".join(found) or "catalogues OK")
            if found:
                return 1
        else:
            print(f"unknown step {step!r}: extract, update, compile, check [--full], stats",
                  file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
