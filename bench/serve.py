"""Serve the app (or a trivial one-button page) for the benchmarks, timing each tap server side.

Server half, run by `Served` (below), never by the product:
`python bench/serve.py app DATA_DIR [--profile FILE]` or `python bench/serve.py trivial`, with
FLET_FORCE_WEB_SERVER=1 FLET_SERVER_PORT=… and BENCH_TAP_LOG=<file>: each click's time from the
handler's start to the end of the page update (Flet's diff and send included) is appended there
as "tap <ms>", and for the app the time inside `Service.play` as "play <ms>".
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

# --- server half (this script, in a child process) ---------------------------------------------


_LOG: list = []
"""The open log file (kept open: a write per line is all a timed tap pays for it)."""


def _log(line: str) -> None:
    if log := os.environ.get("BENCH_TAP_LOG"):
        if not _LOG:
            _LOG.append(open(log, "a", buffering=1))  # noqa: SIM115 - open for the process
        _LOG[0].write(line + "\n")


def time_taps(profile: str | None = None) -> None:
    """Log each click's server time (dispatch = handler + update + diff + send); cProfile the
    clicks into `profile` if given."""
    from flet.messaging.session import Session

    dispatch = Session.dispatch_event
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()

    async def timed(self, control_id, event_name, event_data):  # type: ignore[no-untyped-def]
        start, cpu = time.perf_counter(), time.thread_time()
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
            _log(f"cpu {(time.thread_time() - cpu) * 1000:.3f}")

    Session.dispatch_event = timed  # type: ignore[method-assign]
    patch = Session.patch_control

    def timed_patch(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return patch(self, *args, **kwargs)
        finally:
            _log(f"diff {(time.perf_counter() - start) * 1000:.3f}")

    Session.patch_control = timed_patch  # type: ignore[method-assign]


def trivial() -> None:
    """One button and one number: Flet's own floor for a tap."""
    import flet as ft

    def main(page: ft.Page) -> None:
        count = ft.Text("0", size=30)

        def on_tap_click(e: object) -> None:
            count.value = str(int(count.value or 0) + 1)

        page.add(ft.Semantics(identifier="count", content=count),
                 ft.Semantics(identifier="tap", content=ft.Button("Tap", on_click=on_tap_click)))

    ft.run(main)


def app(data_dir: str) -> None:
    """The real app on a data folder, with `GameSession.play` timed too."""
    from companion.library.session import GameSession
    from views.server import start

    play = GameSession.play

    def timed_play(self, command):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return play(self, command)
        finally:
            _log(f"play {(time.perf_counter() - start) * 1000:.3f}")

    GameSession.play = timed_play  # type: ignore[method-assign]
    import views.app

    render = views.app.render

    def timed_render(app):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return render(app)
        finally:
            _log(f"render {(time.perf_counter() - start) * 1000:.3f}")

    views.app.render = timed_render
    start(True, int(os.environ["FLET_SERVER_PORT"]), data_dir, host="127.0.0.1")


# --- the benchmark's handle on it ------------------------------------------------------------


class Served:
    """This script serving `kind` ("app" on `data`, or "trivial") in a child process; with
    `log`, its per-tap server times are kept in a temp file (`taps`, `clear`)."""

    def __init__(self, kind: str, data: Path | None = None, profile: str | None = None,
                 log: bool = False) -> None:
        """Start the server and wait until it answers.

        Raises:
            RuntimeError: it exited at start or did not answer in 120 s.
        """
        from tests.browser.harness import free_port

        self.data = data
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = Path(tempfile.mkstemp(suffix=".log")[1]) if log else None
        env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", FLET_SERVER_PORT=str(self.port),
                   FLET_WEB_NO_CDN="1", PYTHONPATH=str(ROOT))
        if self.log:
            env["BENCH_TAP_LOG"] = str(self.log)
        args = [sys.executable, str(HERE / "serve.py"), kind, *([str(data)] if data else []),
                *(["--profile", profile] if profile else [])]
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url, timeout=1).read(64)
                return
            except OSError:
                if self.proc.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"bench/serve.py {kind} exited at start") from None
                time.sleep(0.05)
        self.stop()  # it must not keep holding the data folder
        raise RuntimeError(f"bench/serve.py {kind} did not answer")

    @property
    def host_key(self) -> str:
        """The app server's host key (the host's own browser shows it the home screen)."""
        assert self.data is not None
        return (self.data / "tables" / "host-key").read_text().strip()

    def open(self, browser: Any) -> Any:
        """A fresh 1280×800 page as the host's browser, accessibility tree on."""
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{self.url}?key={self.host_key}")
        page.wait_for_selector("flt-semantics-placeholder", state="attached")
        page.locator("flt-semantics-placeholder").dispatch_event("click")
        page.wait_for_selector("flt-semantics-host flt-semantics")
        return page

    def taps(self, key: str = "tap") -> list[float]:
        """Logged ms of one kind since the last `clear`."""
        assert self.log is not None
        lines = self.log.read_text().split("\n")
        return [float(x.split()[1]) for x in lines if x.startswith(key + " ")]

    def clear(self) -> None:
        assert self.log is not None
        self.log.write_text("")

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.log:
            self.log.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["app", "trivial"])
    ap.add_argument("data", nargs="?", help="the app's data folder")
    ap.add_argument("--profile", help="write a cProfile of the taps here")
    opts = ap.parse_args()
    time_taps(opts.profile)
    if opts.kind == "trivial":
        trivial()
    else:
        app(opts.data)
