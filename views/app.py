"""App factory and entry point: `create_app(service)` builds the Flet main; `run()` starts it."""

import atexit
import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import flet as ft

from companion.backups import AutoBackups
from companion.service import Service
from companion.storage import FolderBusy, StorageError, TinyDBGameStore, describe_os_error
from views.catalogue_page import catalogue_view
from views.clock_line import attach_clock
from views.data_page import data_view
from views.game_screen import game_view
from views.home import home_view
from views.problem import problem_view
from views.quick_score import quick_score_view
from views.review_page import review_view
from views.rules_page import rules_view
from views.state import AppState
from views.stats_page import stats_view
from views.theme import BG, theme
from views.wizard import wizard_view

SCREENS: dict[str, Callable[[AppState], list[ft.Control]]] = {
    "home": home_view, "new": wizard_view, "quick": quick_score_view, "rules": rules_view,
    "catalogue": catalogue_view, "game": game_view, "table": game_view, "log": game_view,
    "review": review_view, "stats": stats_view, "data": data_view,
}
"""Screen name (views.routes) → the function that draws it."""


@dataclass(frozen=True)
class FolderProblem:
    """Why the data folder could not be opened for writing: what, where, and the ways out."""

    folder: Path
    """The data folder."""
    message: str
    """What is wrong and where (names the holder when another process has it)."""
    busy: bool
    """Another process writes there."""
    readable: bool
    """Past games can still be reviewed read-only."""


class DataFolder:
    """The process's data folder: one writable service (the lock is taken once per process)
    shared by every session, or the problem that stopped it; also a read-only view."""

    errors = (StorageError, OSError)
    """What opening it can raise."""

    def __init__(self, path: str | Path, role: str = "desktop app",
                 address: str | None = None, auto_backup: bool = False) -> None:
        self.path = Path(path)
        self.role, self.address = role, address
        self.auto_backup = auto_backup
        """Write an automatic backup when this process takes the folder (the app does)."""
        self.backup: threading.Thread | None = None
        """That backup, being written in the background (it holds the service's lock)."""
        self.service: Service | None = None
        self.problem: FolderProblem | None = None
        self._review: Service | None = None
        self._lock = threading.Lock()

    def try_open(self) -> FolderProblem | None:
        """Open the folder for writing unless already open; the problem, or None."""
        with self._lock:
            if self.service is not None:
                return None
            try:
                store = TinyDBGameStore(self.path, role=self.role, address=self.address)
            except self.errors as err:
                text = str(err) if isinstance(err, StorageError) else describe_os_error(err)
                self.problem = FolderProblem(self.path, text, isinstance(err, FolderBusy),
                                             self._readable())
                return self.problem
            self.service, self.problem = Service(store), None
            if self.auto_backup:  # only the holder writes: never read-only, never beside another
                self.backup = AutoBackups.of(self.service).write_in_background()
            return None

    def _readable(self) -> bool:
        try:
            self._open_review()
        except self.errors:
            return False
        return True

    def _open_review(self) -> Service:
        if self._review is None:
            self._review = Service(TinyDBGameStore(self.path, read_only=True))
        return self._review

    def read_only(self) -> Service:
        """A service that reviews the folder without writing (shared by sessions).

        Raises: FolderUnavailable (or another OSError) if it cannot be read either.
        """
        with self._lock:
            return self._open_review()

    def flush(self) -> None:
        """Save what can be saved now (a session ended): unsaved actions, the index."""
        svc = self.service
        if svc is None:
            return
        svc.save_now()
        try:
            svc.store.flush()
        except self.errors:
            pass  # the journals hold every saved action; the index is rebuilt from them

    def close(self) -> None:
        """Flush, close and give the folder up (window closed, server stopped); idempotent."""
        with self._lock:
            for svc in (self.service, self._review):
                if svc is None:
                    continue
                with svc.lock:  # an automatic backup being written finishes first
                    svc.clock_stop()  # the app closes: the game's clock stops
                    svc.save_now()
                    svc.store.close()


def render(app: AppState) -> None:
    """Rebuild the page's controls for the app state."""
    # An unusable data folder: whatever the address, the start screen says what is wrong.
    controls = problem_view(app) if app.problem is not None else SCREENS[app.screen](app)
    for i, control in enumerate(controls):
        # Same key in the same slot: Flet reconciles the rebuilt control with the one on
        # screen and sends only what changed, instead of replacing the whole screen.
        control.key = control.key or f"slot-{i}"
    app.root.controls = controls


def build(service: Service | None, problem: FolderProblem | None = None,
          folder: DataFolder | None = None) -> AppState:
    """An app state with its view tree built (used by tests and by `create_app`); with a
    problem, the start screen says what is wrong with the data folder."""
    app = AppState(service, render, problem=problem, folder=folder)
    app.render()
    return app


def create_app(source: Service | DataFolder) -> Callable[[ft.Page], None]:
    """The Flet `main` for a service or the process's data folder; every session shares the
    one service (one table). A session that ends saves what it can; the game clock runs while
    a session is connected."""
    sessions: set[int] = set()
    """Connected sessions: the game clock stops when the last one leaves."""

    def main(page: ft.Page) -> None:
        page.title = "Vendetta Companion"
        page.theme_mode = ft.ThemeMode.DARK
        page.theme = page.dark_theme = theme()
        page.bgcolor = BG
        if isinstance(source, DataFolder):
            problem = source.try_open()  # a no-op once this process holds the folder
            app = build(source.service, problem, source)
            leave: Callable[[], None] | None = source.flush
        else:
            app, leave = build(source), None
        shell = Shell(page, app)
        start = page.route or "/"
        if start in ("", "/") and app.problem is None and app.service.game is not None:
            start = "/game"
        app.open_address(start)
        shell.sync()
        attach_clock(page, app, sessions, on_leave=leave)

    return main


class Shell:
    """Keeps Flet's view stack and the browser's address in step with the app's history.

    The screen shown is the top view; the screens below it are light placeholders, there so
    that Android's Back button and Flet's view pop reach `AppState.back`. The browser's Back
    and typed addresses arrive as route changes.
    """

    def __init__(self, page: ft.Page, app: AppState) -> None:
        self.page, self.app = page, app
        self.pushed: list[str] = []
        """Addresses this shell pushed whose route-change echo has not come back yet."""
        self.address = page.route or "/"
        """The address the browser shows (as far as this shell knows)."""
        self.top = ft.View(route="/", controls=[ft.SafeArea(content=app.root, expand=True)],
                           padding=0, spacing=0, bgcolor=BG)
        app.on_navigate = lambda _app: self.sync()
        page.on_route_change = self.on_route_change
        page.on_view_pop = self.on_view_pop

    def sync(self) -> None:
        """Views: one placeholder per earlier screen, then the screen shown; push the address."""
        app, page = self.app, self.page
        below = [ft.View(route=r.path, bgcolor=BG, controls=[]) for r in app.history[:-1]]
        self.top.route = app.route.path
        page.views[:] = [*below, self.top]
        if self.address != app.route.path:
            self.address = app.route.path
            self.pushed.append(self.address)
            page.navigate(self.address)
        page.update()

    def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        """The browser's Back/Forward or a typed address (echoes of our own pushes ignored)."""
        if e.route in self.pushed:
            del self.pushed[: self.pushed.index(e.route) + 1]
            return
        self.pushed.clear()
        self.address = e.route
        self.app.open_address(e.route)

    def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        """Android's Back button or Flet's automatic back arrow."""
        self.app.back()


ASSETS = Path(__file__).resolve().parents[1] / "assets"
"""Icons, splash and the web manifest (tools/make_icons.py); absent from a bare install."""


def run(web: bool = False, port: int | None = None, data_dir: str | None = None) -> None:
    """Start the app: a desktop window, or a web server for browsers on the network.

    The data folder is taken at start, for the whole process, and flushed, closed and given up
    when the window closes or the server stops (Ctrl-C, SIGTERM) or the process exits.
    """
    from companion.paths import resolve_data_dir

    logging.getLogger("flet").setLevel(logging.WARNING)
    served = web or bool(os.environ.get("FLET_FORCE_WEB_SERVER"))
    port = port or int(os.environ.get("FLET_SERVER_PORT") or 8550)
    folder = DataFolder(resolve_data_dir(data_dir, create=False),
                        role="web server" if served else "desktop app",
                        address=f"http://{socket.gethostname()}:{port}" if served else None,
                        auto_backup=True)
    folder.try_open()
    atexit.register(folder.close)
    try:
        if web:
            ft.run(create_app(folder), view=ft.AppView.WEB_BROWSER, host="0.0.0.0", port=port,
                   no_cdn=True, assets_dir=str(ASSETS) if ASSETS.is_dir() else None)
        else:
            ft.run(create_app(folder), assets_dir=str(ASSETS) if ASSETS.is_dir() else None)
    finally:
        folder.close()
