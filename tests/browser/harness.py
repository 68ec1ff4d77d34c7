"""Serve the app in a subprocess and drive it with Playwright + Debian Chromium.

Recipe: /work/shared/notes/FLET-TINYDB-NOTES.md (FLET_FORCE_WEB_SERVER, semantics placeholder,
click-then-fill for text boxes, Semantics identifiers as stable ids).
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def missing() -> str | None:
    """Why browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} not installed (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright not installed (pip install playwright)"
    return None


def free_port() -> int:
    """A free TCP port on localhost."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The app served over HTTP from a data folder, in its own process."""

    def __init__(self, data_dir: Path, port: int | None = None):
        self.data_dir = data_dir
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = data_dir.parent / f"{data_dir.name}-server.log"
        """The server's output (every start appends to it): read it when a test fails."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def host_key(self) -> str:
        """The server's host key (kept in its data folder)."""
        return (self.data_dir / "tables" / "host-key").read_text().strip()

    def start(self) -> "Server":
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        code = ("import sys; from views.server import start; "
                "start(True, int(sys.argv[2]), sys.argv[1], host='127.0.0.1')")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-c", code, str(self.data_dir),
                                          str(self.port)], env=env, cwd=ROOT,
                                         stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url, timeout=1).read(64)
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("the app server exited at start") from None
                time.sleep(0.2)
        raise RuntimeError("the app server did not answer in 30 s")

    def kill(self) -> None:
        """SIGKILL, like a crash or a pulled plug."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def sel(identifier: str) -> str:
    """CSS selector of a control with a stable id."""
    return f'flt-semantics-host [flt-semantics-identifier="{identifier}"]'


class UI:
    """A page of the app in a fresh browser context."""

    def __init__(self, browser, server: Server, size: dict | None = None, path: str = "",
                 host: bool = True, context=None):
        """A page at `path`; `host`: with the server's host key (the host's own browser);
        `context`: another tab of an existing browser context (same local storage)."""
        self.context = context or browser.new_context(viewport=size or PHONE)
        self.own_context = context is None
        self.page = self.context.new_page()
        self.url = server.url
        """The address the app is served at."""
        self.page.set_default_timeout(10_000)
        query = f"?key={server.host_key}" if host else ""
        self.page.goto(server.url + path.lstrip("/") + query)
        self.enable()

    def enable(self) -> None:
        """Turn Flutter's accessibility tree on (after a load or a reload)."""
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached")
        self.page.locator("flt-semantics-placeholder").dispatch_event("click")
        self.page.wait_for_selector("flt-semantics-host flt-semantics")

    def close(self) -> None:
        if self.own_context:
            self.context.close()
        else:
            self.page.close()

    def wait(self, identifier: str) -> None:
        """Wait until a control is on screen."""
        self.page.wait_for_selector(sel(identifier), state="attached")

    def reveal(self, identifier: str) -> None:
        """Scroll until a control's node exists (Flutter may drop far off-screen nodes)."""
        for dy in (600, 600, 600, -2400, 600, 600, 600):
            if self.has(identifier):
                return
            self.page.mouse.move(195, 400)
            self.page.mouse.wheel(0, dy)
            self.page.wait_for_timeout(150)

    def has(self, identifier: str) -> bool:
        return self.page.locator(sel(identifier)).count() > 0

    def tap(self, identifier: str) -> None:
        """Tap a control by id (scrolling it into view)."""
        for attempt in range(4):  # the screen may redraw under the pointer: try again
            if attempt:
                self.reveal(identifier)
            loc = self.page.locator(sel(identifier)).first
            try:
                loc.wait_for(state="attached")
                loc.scroll_into_view_if_needed(timeout=3000)
                loc.click(timeout=3000)
                return
            except Exception:
                if attempt == 3:
                    raise
                self.page.wait_for_timeout(200)

    def tap_button(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).first.click()

    def fill(self, identifier: str, value: str) -> None:
        """Type into a text field: click it, then fill (the reliable way)."""
        for attempt in range(4):
            if attempt:
                self.reveal(identifier)
            wrapper = self.page.locator(sel(identifier)).first
            box = self.page.locator(f"{sel(identifier)} input, {sel(identifier)} textarea").first
            try:
                wrapper.wait_for(state="attached")
                wrapper.scroll_into_view_if_needed(timeout=3000)
                if box.count() == 0:
                    wrapper.click(timeout=3000)
                box.wait_for(state="attached", timeout=3000)
                box.scroll_into_view_if_needed(timeout=3000)
                box.click(timeout=3000)
                box.fill(value, timeout=3000)
                return
            except Exception:
                if attempt == 3:
                    raise
                self.page.wait_for_timeout(200)

    def on_screen(self, identifier: str) -> None:
        """Scroll the Flutter view until the control is inside the visible area."""
        height = (self.page.viewport_size or PHONE)["height"]
        for _ in range(12):
            box = self.page.locator(sel(identifier)).first.bounding_box()
            if box is None:
                return
            if box["y"] + box["height"] > height - 150:
                dy = min(500, box["y"] + box["height"] - height + 250)
            elif box["y"] < 80:
                dy = max(-500, box["y"] - 200)
            else:
                return
            self.page.mouse.move(195, 300)
            self.page.mouse.wheel(0, dy)
            self.page.wait_for_timeout(200)

    def settle(self) -> None:
        """Nudge the scroll view so Flutter lays its accessibility tree out again (its node
        positions can lag behind a screen that just grew or shrank)."""
        self.page.mouse.move(195, 300)
        self.page.mouse.wheel(0, 40)
        self.page.wait_for_timeout(120)
        self.page.mouse.wheel(0, -40)
        self.page.wait_for_timeout(200)

    def choose(self, identifier: str, option: str) -> None:
        """Open a dropdown and pick an option by its text."""
        item = self.page.get_by_role("button", name=option, exact=True).last
        for attempt in range(4):
            self.settle()
            self.on_screen(identifier)
            self.tap(identifier)
            try:
                item.wait_for(state="attached", timeout=2000)
                break
            except Exception:
                # The menu shows only the options that fit beside the field: close it, bring
                # the field to the top of the screen, and open it again.
                self.page.keyboard.press("Escape")
                self.page.wait_for_timeout(200)
                box = self.page.locator(sel(identifier)).first.bounding_box()
                if box:
                    self.page.mouse.move(195, 300)
                    self.page.mouse.wheel(0, box["y"] - 120)
                    self.page.wait_for_timeout(200)
                if attempt == 3:
                    names = self.page.get_by_role("button").all_inner_texts()
                    self.shot("choose-failed")
                    raise AssertionError(
                        f"option {option!r} not offered; buttons: {names}") from None
        item.click()

    def read(self, identifier: str) -> str:
        return self.page.locator(sel(identifier)).first.inner_text().strip()

    def wait_text(self, identifier: str, expected: str, timeout: float = 10_000) -> None:
        """Wait until a control's text equals `expected`."""
        self.page.wait_for_function(
            "([s, v]) => { const e = document.querySelector(s);"
            " return e && e.textContent.trim() === v; }",
            arg=[sel(identifier), expected], timeout=timeout)

    def texts_of(self, prefix: str) -> list[str]:
        """The texts of every control whose id starts with `prefix`."""
        return self.page.eval_on_selector_all(
            f'flt-semantics-host [flt-semantics-identifier^="{prefix}"]',
            "els => els.map(e => e.textContent.trim())")

    def body_text(self) -> str:
        return self.page.locator("flt-semantics-host").inner_text()

    def shot(self, name: str) -> None:
        """Save a screenshot for a person to look at."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.wait_for_timeout(250)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))


def fresh_dir(tmp: Path, name: str) -> Path:
    d = tmp / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


@contextmanager
def served(browser, data_dir: Path, size: dict | None = None, path: str = "") -> Iterator[UI]:
    """The app served from `data_dir` and one page of it; both closed on the way out."""
    server = Server(data_dir).start()
    try:
        ui = UI(browser, server, size, path)
        try:
            yield ui
        finally:
            ui.close()
    finally:
        server.stop()
