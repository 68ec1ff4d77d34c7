"""Screenshots of every phase's referee screen on small phones, with the room the content gets.

Each phase's screen (tests/browser/phases.py) is opened at 390×844, at 320×568 and at 390×844
with the browser's text at 200 %; for each, the height of the pinned parts (top: the bars above
the scrolling content; bottom: everything under it) is measured from the accessibility tree and
a screenshot is saved in artifacts/screenshots/phone/ for a person to look at.

Run: .venv/bin/python bench/phone_shots.py [--only planning,withdraw] [--json]
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inpage import chromium  # noqa: E402

from tests.browser.harness import SHOTS, Server, fresh_dir, missing  # noqa: E402
from tests.browser.phases import SCENARIOS, seed_games  # noqa: E402
from tests.browser.phone import SIZES, open_referee, pinned, prepare  # noqa: E402

OUT = SHOTS / "phone"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated scenario names")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if why := missing():
        print(f"skipped: {why}")
        return
    names = [n for n in args.only.split(",") if n] or list(SCENARIOS)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, chromium() as browser:
        data = fresh_dir(Path(tmp), "shots")
        tables = seed_games(data, names, copies=len(SIZES))
        server = Server(data).start()
        try:
            for name in names:
                for size_name, table in zip(SIZES, tables[name], strict=True):
                    ui = open_referee(browser, server, table, size_name)
                    try:
                        for k, stage in enumerate(prepare(ui, name)):
                            m = pinned(ui)
                            m.update(screen=name, stage=stage, size=size_name)
                            rows.append(m)
                            ui.page.screenshot(path=str(OUT / f"{name}-{k}-{size_name}.png"))
                    finally:
                        ui.close()
        finally:
            server.stop()
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'screen':28}{'size':12}{'top':>6}{'bottom':>8}{'content':>9}{'bottom %':>10}")
    for r in rows:
        print(f"{r['screen'] + '/' + r['stage']:28}{r['size']:12}{r['top']:>6}{r['bottom']:>8}"
              f"{r['content']:>9}{r['bottom_share']:>9}%")


if __name__ == "__main__":
    main()
