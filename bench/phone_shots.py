"""Benchmark: the room the content gets on every phase's referee screen, on small phones and
with large text, and a screenshot of each for a person to look at.

Each phase's screen (tests/browser/phases.py) is opened at 390×844, at 320×568 and at 390×844
with the browser's text at 200 % (tests/browser/phone.py); for each state worth checking the
pinned parts are measured from the accessibility tree (top: the bars above the scrolling
content; bottom: everything under it) and a screenshot is saved in
artifacts/screenshots/phone/. Then one play: the news line of the tap that did it.

Figures before the phone layout (the same screens, no news shown): bottom 107–176 px at
390×844 (13–21 %) and 320×568 (19–31 %); top 116–216 px at 390×844, 141–320 px at 320×568;
at 200 % text the top bar alone took 228–631 px and the content got 14–486 px.

Run: .venv/bin/python bench/phone_shots.py [--only planning,withdraw] [--json] [--quick]
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
from tests.browser.phone import SIZES, Phone, prepare, tap  # noqa: E402

OUT = SHOTS / "phone"


def measure(names: list[str]) -> list[dict]:
    """Every state of every named screen at every size: the pinned parts, in px and %."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp, chromium() as browser:
        data = fresh_dir(Path(tmp), "shots")
        tables = seed_games(data, names)
        server = Server(data).start()
        ui = Phone(browser, server, "390x844")
        try:
            for name in names:
                ui.resize("390x844")
                ui.referee(tables[name][0])
                for k, stage in enumerate(prepare(ui, name)):
                    for size in SIZES:
                        ui.resize(size)
                        rows.append({**ui.pinned(), "screen": name, "stage": stage,
                                     "size": size})
                        ui.mouse_away()
                        ui.page.screenshot(path=str(OUT / f"{name}-{k}-{size}.png"))
                if name == "planning":  # one play: the news line of the tap that did it
                    tap(ui, "play")
                    for size in ("320x568", "390x844"):
                        ui.resize(size)
                        rows.append({**ui.pinned(), "screen": name, "stage": "news",
                                     "size": size})
                        ui.page.screenshot(path=str(OUT / f"{name}-news-{size}.png"))
        finally:
            ui.close()
            server.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated screens")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="the Planning screen only")
    args = parser.parse_args()
    if why := missing():
        print(f"skipped: {why}")
        return
    names = (["planning"] if args.quick else
             [n for n in args.only.split(",") if n] or list(SCENARIOS))
    OUT.mkdir(parents=True, exist_ok=True)
    rows = measure(names)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'screen/state':28}{'size':17}{'top':>5}{'bottom':>8}{'content':>9}{'bottom %':>10}")
    for r in rows:
        print(f"{r['screen'] + '/' + r['stage']:28}{r['size']:17}{r['top']:>5}{r['bottom']:>8}"
              f"{r['content']:>9}{r['bottom_share']:>9}%")
    print(f"screenshots in {OUT}")


if __name__ == "__main__":
    main()
