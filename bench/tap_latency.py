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

Run: python bench/tap_latency.py [--taps N] [--profile FILE]
(`--serve trivial|app DIR` is the server half, started by this script.)
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from figures import Row, pct, show  # noqa: E402

LOG = os.environ.get("BENCH_TAP_LOG")
GOAL_RATIO = 1.5
GOAL_SERVER_MS = 10.0
TALL = {"width": 1024, "height": 2400}
"""Viewport: the whole Table screen fits, so the tapped button stays put."""


# --- server half -------------------------------------------------------------------------------


def _log(line: str) -> None:
    if LOG:
        with open(LOG, "a") as fh:
            fh.write(line + "\n")


def _time_taps(profile: str | None) -> None:
    """Log each click's server time (dispatch = handler + update + diff + send)."""
    from flet.messaging.session import Session

    dispatch = Session.dispatch_event
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()

    async def timed(self, control_id, event_name, event_data):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        if prof is not None and event_name == "click":
            prof.enable()
        try:
            await dispatch(self, control_id, event_name, event_data)
        finally:
            if prof is not None and event_name == "click":
                prof.disable()
                prof.dump_stats(profile)
        if event_name == "click":
            _log(f"tap {(time.perf_counter() - start) * 1000:.3f}")

    Session.dispatch_event = timed  # type: ignore[method-assign]


def serve_trivial() -> None:
    """One button and one number: Flet's own floor for a tap."""
    import flet as ft

    def main(page: ft.Page) -> None:
        count = ft.Text("0", size=30)

        def on_tap_click(e: object) -> None:
            count.value = str(int(count.value or 0) + 1)

        page.add(ft.Semantics(identifier="count", content=count),
                 ft.Semantics(identifier="tap", content=ft.Button("Tap", on_click=on_tap_click)))

    ft.run(main)


def serve_app(data_dir: str) -> None:
    """The real app on a data folder, with `Service.play` timed too."""
    from companion.service import Service
    from views.app import run

    play = Service.play

    def timed_play(self, command):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return play(self, command)
        finally:
            _log(f"play {(time.perf_counter() - start) * 1000:.3f}")

    Service.play = timed_play  # type: ignore[method-assign]
    run(True, int(os.environ["FLET_SERVER_PORT"]), data_dir, host="127.0.0.1")


# --- browser half ------------------------------------------------------------------------------

ARM = """([sel, expected]) => {
  const bench = window.__bench = {t0: null};
  const host = document.querySelector('flt-semantics-host');
  const done = () => { const e = document.querySelector(sel);
    return e && e.textContent.trim() === expected; };
  window.__benchDone = new Promise(resolve => {
    const obs = new MutationObserver(() => {
      if (bench.t0 !== null && done()) { obs.disconnect(); resolve(performance.now() - bench.t0); }
    });
    obs.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(-1); }, 20000);
  });
  window.addEventListener('pointerdown', () => { bench.t0 = performance.now(); },
                          {capture: true, once: true});
}"""


def sel(identifier: str) -> str:
    """CSS selector of a control with a stable id."""
    return f'flt-semantics-host [flt-semantics-identifier="{identifier}"]'


def in_page_tap(page: Any, button: str, target: str, expected: str) -> float:
    """ms from the pointerdown on `button` to `target` showing `expected`.

    Raises:
        RuntimeError: the number never showed (20 s).
    """
    page.evaluate(ARM, [sel(target), expected])
    box = page.locator(sel(button)).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ms = page.evaluate("window.__benchDone")
    if ms < 0:
        raise RuntimeError(f"{target} never showed {expected!r} after tapping {button}")
    return ms


class Served:
    """This script's server half in a subprocess, with its tap log."""

    def __init__(self, kind: str, data: Path | None = None, profile: str | None = None):
        from tests.browser.harness import free_port

        self.data = data
        self.port = free_port()
        self.log = Path(tempfile.mkstemp(suffix=".log")[1])
        env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", FLET_SERVER_PORT=str(self.port),
                   FLET_WEB_NO_CDN="1", PYTHONPATH=str(ROOT), BENCH_TAP_LOG=str(self.log))
        args = [sys.executable, __file__, "--serve", kind, *([str(data)] if data else []),
                *(["--profile", profile] if profile else [])]
        self.proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}/"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url, timeout=1).read(64)
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{kind} server exited at start") from None
                time.sleep(0.05)
        raise RuntimeError(f"{kind} server did not answer")

    @property
    def host_key(self) -> str:
        """The app server's host key (the host's own browser shows it the home screen)."""
        assert self.data is not None
        return (self.data / "tables" / "host-key").read_text().strip()

    def taps(self, key: str = "tap") -> list[float]:
        """Logged ms of one kind since the last `clear`."""
        lines = self.log.read_text().split("\n")
        return [float(x.split()[1]) for x in lines if x.startswith(key + " ")]

    def clear(self) -> None:
        self.log.write_text("")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.unlink(missing_ok=True)


def planning_folder(folder: Path) -> None:
    """A data folder holding one 4-player game in Planning, round 1."""
    from companion.service import Service, summary
    from companion.storage import TinyDBGameStore
    from tests.helpers import new_game, to_planning

    game = new_game(4)
    to_planning(game)
    store = TinyDBGameStore(folder)
    Service(store).store.import_game({**game.to_document(), "summary": summary(game)})
    store.close()


def trivial_taps(browser: Any, n: int) -> tuple[list[float], list[float]]:
    """In-page ms and server ms of n taps on the trivial page."""
    from tests.browser.harness import UI

    served = Served("trivial")
    ui = UI(browser, served, TALL, host=False)  # type: ignore[arg-type]
    ui.wait("tap")
    for k in range(1, 4):  # warm up
        in_page_tap(ui.page, "tap", "count", str(k))
    served.clear()
    page_ms = [in_page_tap(ui.page, "tap", "count", str(k)) for k in range(4, 4 + n)]
    server_ms = served.taps()
    ui.close()
    served.stop()
    return page_ms, server_ms


def app_taps(browser: Any, n: int, profile: str | None) -> tuple[list[float], ...]:
    """In-page ms, server ms and Service.play ms of n Blood taps on the busy game screen."""
    from tests.browser.harness import UI

    with tempfile.TemporaryDirectory() as tmp:
        planning_folder(Path(tmp))
        served = Served("app", Path(tmp), profile)
        ui = UI(browser, served, TALL)  # type: ignore[arg-type]
        ui.page.set_default_timeout(30_000)
        ui.wait("game-0")
        ui.tap("game-0")
        ui.wait("nav-table")
        ui.tap("nav-table")
        ui.wait("effect-open")
        ui.on_screen("effect-open")
        ui.tap("effect-open")
        ui.wait("effect-player")
        ui.choose("effect-player", "Ann")
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
        ui.close()
        served.stop()
    return page_ms, server_ms, play_ms


def measure(n: int, profile: str | None = None) -> list[Row]:
    """The rows: in-page p50/p95 vs the trivial page; server Python per tap."""
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import CHROMIUM, LAUNCH_ARGS

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        floor, floor_py = trivial_taps(browser, n)
        app, app_py, play = app_taps(browser, n, profile)
        browser.close()
    rows = [Row(f"tap -> number {label}, busy game screen vs trivial page", pct(app, q),
                floor=pct(floor, q), floor_name="(trivial)", max_ratio=GOAL_RATIO)
            for q, label in ((0.5, "p50"), (0.95, "p95"))]
    rows += [Row(f"server Python per tap {label} vs trivial page", pct(app_py, q),
                 floor=pct(floor_py, q), floor_name="(trivial)", max_value=GOAL_SERVER_MS)
             for q, label in ((0.5, "p50"), (0.95, "p95"))]
    rows.append(Row("  of which Service.play p50", pct(play, 0.5)))
    return rows


def main(argv: list[str] | None = None) -> list[Row]:
    """Measure, print the table, return the rows (none when no browser is available)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=30, help="timed taps per page")
    ap.add_argument("--profile", help="write a cProfile of the app's taps (server) here")
    ap.add_argument("--serve", nargs="+", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.serve:
        _time_taps(opts.profile)
        if opts.serve[0] == "trivial":
            serve_trivial()
        else:
            serve_app(opts.serve[1])
        return []
    from tests.browser.harness import missing

    if reason := missing():
        print(f"tap latency skipped: {reason}")
        return []
    rows = measure(opts.taps, opts.profile and str(Path(opts.profile).resolve()))
    show(rows)
    return rows


if __name__ == "__main__":
    main()
