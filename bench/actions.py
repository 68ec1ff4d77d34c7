"""Benchmark: referee actions through the same service and views the app uses.

1. A complete 5-player game (3 with --quick) played through the views against a TinyDB store
   in a temp folder: per action, command -> saved -> view tree rebuilt (median, p95, max).
2. In a real browser (skipped without Chromium/Playwright): tap -> updated number on screen,
   20 taps, 3 with --quick (median, p95).

Run: .venv/bin/python bench/actions.py [--quick]
"""

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import median, pct  # noqa: E402
from inpage import chromium  # noqa: E402

from companion.library.session import GameSession  # noqa: E402
from companion.storage import TinyDBGameStore  # noqa: E402
from tests.ui import autoplay_step, click, has, type_in  # noqa: E402
from views.app import build  # noqa: E402


def stats(ms: list[float]) -> tuple[float, float, float]:
    """Median, p95 and max of a list of milliseconds."""
    return median(ms), pct(ms, 0.95), max(ms)


def service_game(players: int = 5, seed: int = 7) -> dict[str, list[float]]:
    """Play a full game through the views; time every action: the table's act (command ->
    saved) and the app's play (-> view tree rebuilt)."""
    times: dict[str, list[float]] = {"play+save": [], "play+save+render": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = TinyDBGameStore(tmp)
        app = build(GameSession(store))
        real_play = app.play

        def timed_play(cmd):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            try:
                return real_play(cmd)
            finally:
                times["play+save+render"].append((time.perf_counter() - t) * 1000)

        app.play = timed_play  # type: ignore[method-assign]
        r = app.root
        click(r, "new-game")
        for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][:players]):
            if i >= 3 and not has(r, f"name-{i}"):
                click(r, "add-player")
            type_in(r, f"name-{i}", name)
        click(r, "create-game")
        table = app.table
        assert table is not None, app.error
        real_act = table.act

        def timed_act(*args):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            try:
                return real_act(*args)
            finally:
                times["play+save"].append((time.perf_counter() - t) * 1000)

        table.act = timed_act  # type: ignore[method-assign]
        rng = random.Random(seed)
        for _ in range(2000):
            if app.game.state.phase == "game_over":
                break
            autoplay_step(app, rng)
            if app.error:
                raise SystemExit(f"refused: {app.error}")
        else:
            raise SystemExit("the game did not end")
        for thread in threading.enumerate():  # the game's end started an automatic backup
            if thread.name == "auto-backup":
                thread.join(30)
        store.close()
    return times


def browser_taps(n: int = 20) -> list[float] | str:
    """Tap 'Apply effect' (Gain 1 Blood) n times; time until the new number is on screen."""
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from tests.browser.harness import UI, Server, missing, sel
    from tests.browser.play import act, pick

    reason = missing()
    if reason:
        return reason
    out: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, chromium() as browser:
        server = Server(Path(tmp)).start()
        ui = UI(browser, server, {"width": 1024, "height": 2400})  # number and button in view
        ui.page.set_default_timeout(30_000)  # a first game screen on a busy machine
        try:
            ui.wait("new-game")
            ui.tap("new-game")
            ui.wait("name-0")
            for attempt in range(3):  # a name or tap lost on a busy machine: again, as a person
                for i, name in enumerate(["Ann", "Bob", "Cat"]):
                    ui.fill(f"name-{i}", name)
                    ui.page.wait_for_timeout(250)
                ui.tap("create-game")
                try:
                    ui.page.wait_for_selector(sel("first-0"), state="attached", timeout=10_000)
                    break
                except PlaywrightTimeout:
                    if attempt == 2:
                        raise
            act(ui, "first-0")
            for clan in ("Brujah", "Gangrel", "Ventrue"):
                act(ui, f"clan-{clan}")
            act(ui, "feed")
            pick(ui, "nav-table")
            pick(ui, "effect-open")
            ui.tap("effect-player-0")  # Ann
            ui.page.wait_for_timeout(200)
            ui.on_screen("effect-apply")
            for _ in range(n):
                before = int(ui.read("blood-0"))
                node = ui.page.locator(
                    'flt-semantics-host [flt-semantics-identifier="effect-apply"]').first
                t = time.perf_counter()
                node.click()
                ui.wait_text("blood-0", str(before + 1))
                out.append((time.perf_counter() - t) * 1000)
        finally:
            ui.close()
            server.stop()
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a check that it runs: a 3-player game, 3 browser taps")
    quick = ap.parse_args(argv).quick
    players, n = (3, 3) if quick else (5, 20)
    times = service_game(players)
    print(f"{players}-player game through views + TinyDB store: {len(times['play+save'])} "
          "actions")
    print(f"{'measure':<42}{'median ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for key, label in (("play+save", "command -> saved"),
                       ("play+save+render", "command -> saved -> view tree rebuilt")):
        med, p95, mx = stats(times[key])
        print(f"{label:<42}{med:>10.1f}{p95:>10.1f}{mx:>10.1f}")
    taps = browser_taps(n)
    if isinstance(taps, str):
        print(f"browser: skipped ({taps})")
    else:
        med, p95, mx = stats(taps)
        print(f"{f'browser: tap -> updated number ({n} taps)':<42}{med:>10.1f}{p95:>10.1f}"
              f"{mx:>10.1f}")


if __name__ == "__main__":
    main()
