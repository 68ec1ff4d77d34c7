"""Benchmark: referee actions through the same service and views the app uses (issue 5).

1. A complete 5-player game played through the views against a TinyDB store in a temp folder:
   per action, command -> saved -> view tree rebuilt (median, p95, max).
2. In a real browser (skipped without Chromium/Playwright): tap -> updated number on screen,
   20 taps (median, p95).

Run: .venv/bin/python bench/actions.py
"""

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import median, pct  # noqa: E402
from inpage import chromium  # noqa: E402

from companion.service import Service  # noqa: E402
from companion.storage import TinyDBGameStore  # noqa: E402
from tests.ui import autoplay_step, click, type_in  # noqa: E402
from views.app import build  # noqa: E402


def stats(ms: list[float]) -> tuple[float, float, float]:
    """Median, p95 and max of a list of milliseconds."""
    return median(ms), pct(ms, 0.95), max(ms)


def service_game(seed: int = 7) -> dict[str, list[float]]:
    """Play a full 5-player game through the views; time every action."""
    times: dict[str, list[float]] = {"play+save": [], "play+save+render": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = TinyDBGameStore(tmp)
        service = Service(store)
        app = build(service)
        real_play, real_service_play = app.play, service.play

        def timed_service_play(cmd):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            try:
                return real_service_play(cmd)
            finally:
                times["play+save"].append((time.perf_counter() - t) * 1000)

        def timed_play(cmd):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            try:
                return real_play(cmd)
            finally:
                times["play+save+render"].append((time.perf_counter() - t) * 1000)

        service.play = timed_service_play  # type: ignore[method-assign]
        app.play = timed_play  # type: ignore[method-assign]
        r = app.root
        click(r, "new-game")
        for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"]):
            if i == 4:
                click(r, "add-player")
            type_in(r, f"name-{i}", name)
        click(r, "create-game")
        rng = random.Random(seed)
        while service.game is not None and service.game.state.phase != "game_over":
            autoplay_step(app, rng)
            if app.error:
                raise SystemExit(f"refused: {app.error}")
        store.close()
    return times


def browser_taps(n: int = 20) -> list[float] | str:
    """Tap 'Apply effect' (Gain 1 Blood) n times; time until the new number is on screen."""
    sys.path.insert(0, str(ROOT))
    from tests.browser.harness import UI, Server, missing
    from tests.browser.play import act, pick

    reason = missing()
    if reason:
        return reason
    out: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, chromium() as browser:
        server = Server(Path(tmp)).start()
        ui = UI(browser, server, {"width": 1024, "height": 2400})  # number and button in view
        try:
            ui.wait("new-game")
            ui.tap("new-game")
            ui.wait("name-0")
            for i, name in enumerate(["Ann", "Bob", "Cat"]):
                ui.fill(f"name-{i}", name)
            ui.tap("create-game")
            ui.wait("first-0")
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


def main() -> None:
    times = service_game()
    print(f"5-player game through views + TinyDB store: {len(times['play+save'])} actions")
    print(f"{'measure':<42}{'median ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for key, label in (("play+save", "command -> saved"),
                       ("play+save+render", "command -> saved -> view tree rebuilt")):
        med, p95, mx = stats(times[key])
        print(f"{label:<42}{med:>10.1f}{p95:>10.1f}{mx:>10.1f}")
    taps = browser_taps()
    if isinstance(taps, str):
        print(f"browser: skipped ({taps})")
    else:
        med, p95, mx = stats(taps)
        print(f"{'browser: tap -> updated number (20 taps)':<42}{med:>10.1f}{p95:>10.1f}"
              f"{mx:>10.1f}")


if __name__ == "__main__":
    main()
