"""Tap → changed number, timed inside the page, for a busy game screen against a trivial page.

Both pages are served the same way (a Flet web server in a subprocess, Debian Chromium through
Playwright) in the same run:
- floor: a one-button Flet page whose tap adds 1 to a number;
- app: a 4-player game in Planning, the Table screen (every player's panel, the Locations, the
  effect form), adding 1 Blood to Ann with the by-hand effect form (`effect-apply` → `blood-0`).
In the page, a MutationObserver on `flt-semantics-host` is armed before each click; it notes
`performance.now()` from the pointerdown the click dispatches to the first mutation after
which the target's label shows the new number. Server side, each click's Python (handler,
view rebuild, Flet's diff and send) and the time inside `Service.play` are logged per tap.
The browser runs on one core of its own (`chromium(one_core=True)`, see bench/inpage.py), so
that its drawing does not take the server's core during the tap being timed.

Run: python bench/tap_latency.py [--taps N] [--profile FILE] [--quick]
(bench/serve.py is the server half, started by this script.)
"""

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from figures import Row, pct, show  # noqa: E402
from inpage import chromium, in_page_tap  # noqa: E402
from serve import Served  # noqa: E402

GOAL_RATIO = 1.5
GOAL_SERVER_MS = 10.0
TALL = {"width": 1024, "height": 2400}
"""Viewport: the whole Table screen fits, so the tapped button stays put."""


def planning_folder(folder: Path) -> None:
    """A data folder holding one 4-player game in Planning, round 1."""
    from companion.library.games import summary
    from companion.storage import TinyDBGameStore
    from tests.helpers import new_game, to_planning

    game = new_game(4)
    to_planning(game)
    store = TinyDBGameStore(folder)
    store.import_game({**game.to_document(), "summary": summary(game)})
    store.close()


def trivial_taps(browser: Any, n: int) -> tuple[list[float], list[float]]:
    """In-page ms and server ms of n taps on the trivial page."""
    from tests.browser.harness import UI

    with Served("trivial", log=True) as served:
        ui = UI(browser, served, TALL, host=False)  # type: ignore[arg-type]
        ui.wait("tap")
        for k in range(1, 4):  # warm up
            in_page_tap(ui.page, "tap", "count", str(k))
        served.clear()
        page_ms = [in_page_tap(ui.page, "tap", "count", str(k)) for k in range(4, 4 + n)]
        server_ms = served.taps()
        ui.close()
    return page_ms, server_ms


def app_taps(browser: Any, n: int, profile: str | None) -> tuple[list[float], ...]:
    """In-page ms, server ms, and of those Service.play, the CPU time, the view rebuild and
    Flet's diff, of n Blood taps on the busy game screen."""
    from tests.browser.harness import UI

    with tempfile.TemporaryDirectory() as tmp:
        planning_folder(Path(tmp))
        with Served("app", Path(tmp), profile, log=True) as served:
            ui = UI(browser, served, TALL)  # type: ignore[arg-type]
            ui.page.set_default_timeout(30_000)
            ui.wait("game-0")
            ui.tap("game-0")
            ui.wait("nav-table")
            ui.tap("nav-table")
            ui.wait("effect-open")
            ui.on_screen("effect-open")
            ui.tap("effect-open")
            ui.wait("effect-player-0")
            ui.tap("effect-player-0")  # Ann
            ui.page.wait_for_timeout(300)
            ui.on_screen("effect-apply")
            blood = int(ui.read("blood-0"))
            for _ in range(3):  # warm up
                blood += 1
                in_page_tap(ui.page, "effect-apply", "blood-0", str(blood))
                ui.on_screen("effect-apply")  # the first tap's notice moves it down
            served.clear()
            page_ms = []
            for _ in range(n):
                blood += 1
                page_ms.append(in_page_tap(ui.page, "effect-apply", "blood-0", str(blood)))
            server_ms, play_ms = served.taps(), served.taps("play")
            parts = served.taps("cpu"), served.taps("render"), served.taps("diff")
            ui.close()
    return page_ms, server_ms, play_ms, *parts


def measure(n: int, profile: str | None = None) -> list[Row]:
    """The rows: in-page p50/p95 vs the trivial page; server Python per tap."""
    with chromium(one_core=True) as browser:  # the server timed on its own core
        floor, floor_py = trivial_taps(browser, n)
        app, app_py, play, cpu, rebuild, diff = app_taps(browser, n, profile)
    rows = [Row(f"tap -> number {label}, busy game screen vs trivial page", pct(app, q),
                floor=pct(floor, q), floor_name="(trivial)", max_ratio=GOAL_RATIO)
            for q, label in ((0.5, "p50"), (0.95, "p95"))]
    rows += [Row(f"server Python per tap {label} vs trivial page", pct(app_py, q),
                 floor=pct(floor_py, q), floor_name="(trivial)",
                 max_value=GOAL_SERVER_MS if q == 0.5 else None)
             for q, label in ((0.5, "p50"), (0.95, "p95"))]
    rows += [Row("  of which CPU time (no disk wait) p50", pct(cpu, 0.5)),
             Row("  of which Service.play (journal fsync included) p50", pct(play, 0.5)),
             Row("  of which the view rebuild p50", pct(rebuild, 0.5)),
             Row("  of which Flet's diff p50", pct(diff, 0.5))]
    return rows


def main(argv: list[str] | None = None) -> list[Row]:
    """Measure, print the table, return the rows (none when no browser is available)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=60, help="timed taps per page")
    ap.add_argument("--profile", help="write a cProfile of the app's taps (server) here")
    ap.add_argument("--quick", action="store_true", help="3 taps per page: a check that it runs")
    opts = ap.parse_args(argv)
    from tests.browser.harness import missing

    if reason := missing():
        print(f"tap latency skipped: {reason}")
        return []
    profile = opts.profile and str(Path(opts.profile).resolve())
    rows = measure(3 if opts.quick else opts.taps, profile)
    show(rows)
    return rows


if __name__ == "__main__":
    main()
