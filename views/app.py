"""App factory: `create_app(source)` builds the Flet main of a server hosting tables; every
Flet session is one device with its own `AppState`. `views.server.start` starts it."""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import flet as ft

from companion.library.library import Library
from companion.library.session import GameSession
from companion.storage import (
    FolderBusy,
    FolderReadOnly,
    StorageError,
    TinyDBGameStore,
    describe_os_error,
)
from companion.table.hub import TableHub
from models.table import Referee, Seat
from views.confirm import confirm_dialog
from views.live import LiveSync
from views.screens import PROBLEM, SCREENS, drawer
from views.state import AppState
from views.theme import BG, GOLD, MUTED, OK, SMALL, SURFACE, ident, theme

log = logging.getLogger(__name__)

_WARMED: set[str] = set()
"""Screens whose module a background thread loaded (or is loading) in this process."""


def warm_screen(screen: str, delay: float) -> None:
    """Load a screen's module in the background after `delay` seconds, once per process (its
    first tap then does not wait for the import)."""
    if screen in _WARMED:
        return
    _WARMED.add(screen)
    timer = threading.Timer(delay, drawer, (SCREENS[screen].draw,))
    timer.daemon = True
    timer.start()


WARM_STATS_AFTER = 1.0
"""Seconds after a session's first screen before the statistics are counted (or read back
from disk) and the Statistics screen's module is loaded, in the background (the
Statistics screen then opens at once; the launch is not slowed)."""


RETRY_SAVE_EVERY = 2.0
"""Seconds between background tries to write the actions a disk refused (while any wait)."""


def read_only_note(folder: Path) -> str:
    """Why an app on a folder it may not write only reviews games (a clause)."""
    return f"this data folder is read-only: you can review games, not play or change them " \
           f"({folder})"


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
    """The process's data folder: one writable library (the lock is taken once per process)
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
        """That backup, being written in the background (it holds the library's lock)."""
        self.library: Library | None = None
        self.hub: TableHub | None = None
        """Every table of this process (once the folder is open for writing)."""
        self.problem: FolderProblem | None = None
        self.read_only_reason: str | None = None
        """Set when this process may read the folder but not write in it: it is then open
        read-only for every session (reviews, statistics, exports; nothing that writes)."""
        self.sessions: weakref.WeakSet[AppState] = weakref.WeakSet()
        """The sessions on this folder (redrawn when queued actions reach the disk)."""
        self._review: Library | None = None
        self._lock = threading.Lock()
        self._saver: threading.Thread | None = None
        self._wake = threading.Event()
        self._closing = threading.Event()

    def try_open(self) -> FolderProblem | None:
        """Open the folder for writing unless already open (read-only if this process may not
        write there: see `read_only_reason`); the problem, or None."""
        with self._lock:
            if self.library is not None:
                return None
            try:
                store = TinyDBGameStore(self.path, role=self.role, address=self.address)
            except FolderReadOnly:
                try:
                    store = TinyDBGameStore(self.path, read_only=True)
                except self.errors as unreadable:  # it cannot be read either: say why
                    self.problem = FolderProblem(self.path, describe_os_error(unreadable),
                                                 False, False)
                    return self.problem
                self.read_only_reason = read_only_note(self.path)
            except self.errors as err:
                text = str(err) if isinstance(err, StorageError) else describe_os_error(err)
                self.problem = FolderProblem(self.path, text, isinstance(err, FolderBusy),
                                             self._readable())
                return self.problem
            self.hub = TableHub(store)
            self.library, self.problem = self.hub.library, None
            if self.auto_backup and not store.read_only:  # only the holder writes
                from companion.library.backups import AutoBackups

                self.backup = AutoBackups.of(self.library).write_in_background()
            return None

    def _readable(self) -> bool:
        try:
            self._open_review()
        except self.errors:
            return False
        return True

    def _open_review(self) -> Library:
        if self._review is None:
            self._review = Library(TinyDBGameStore(self.path, read_only=True))
        return self._review

    def read_only(self) -> Library:
        """A library that reviews the folder without writing (shared by sessions).

        Raises: FolderUnavailable (or another OSError) if it cannot be read either.
        """
        with self._lock:
            return self._open_review()

    def _sessions(self) -> list[GameSession]:
        """The session of every open table."""
        tables = self.hub.open_tables() if self.hub is not None else []
        return [t.session for t in tables]

    def keep_saving(self, every: float = RETRY_SAVE_EVERY) -> None:
        """Write the actions a disk refused in the background, every `every` seconds while any
        wait (and at once on `save_soon`), so they reach the disk as soon as it accepts them,
        tapped or not; idempotent."""
        with self._lock:
            if self._saver is not None or self._closing.is_set():
                return
            self._saver = threading.Thread(target=self._save_loop, args=(every,),
                                           name="save-retry", daemon=True)
            self._saver.start()

    def save_soon(self) -> None:
        """Try the background save now (e.g. the app came back to the foreground)."""
        self._wake.set()

    def _save_loop(self, every: float) -> None:
        while not self._closing.is_set():
            self._wake.wait(every)
            self._wake.clear()
            if self._closing.is_set():
                return
            try:
                self.save_queued()
            except Exception as err:  # noqa: BLE001 - a bug here must not stop the retries
                log.warning("queued actions not saved in the background: %r", err)

    def save_queued(self) -> list[GameSession]:
        """Write the queued actions of every open game the disk takes now; the sessions
        showing one of them are drawn again (their "Not saved yet" banner goes). Returns the
        sessions now saved."""
        waiting = [svc for svc in self._sessions() if svc.unsaved]
        saved = [svc for svc in waiting if svc.save_now()]
        if saved:
            for app in list(self.sessions):
                if any(app.session is svc for svc in saved):
                    redraw = partial(app.render, keep_news=True)
                    if app.later is not None:
                        app.later(redraw)
                    else:
                        redraw()
        return saved

    def flush(self) -> None:
        """Save what can be saved now (a session ended): unsaved actions, the index."""
        library = self.library
        if library is None:
            return
        for each in self._sessions():
            each.save_now()
        library.save_stats()  # the statistics counted so far: the next start need not count
        try:
            library.store.flush()
        except self.errors:
            pass  # the journals hold every saved action; the index is rebuilt from them

    def close(self) -> None:
        """Flush, close and give the folder up (window closed, server stopped); idempotent."""
        self._closing.set()
        self._wake.set()
        with self._lock:
            if self.hub is not None:
                self.hub.stop_clocks()  # the app closes: every open game's clock stops
            for each in self._sessions():
                each.save_now()
            if self.library is not None:
                self.library.save_stats()
            for library in (self.library, self._review):
                if library is not None:
                    with library.lock:  # an automatic backup being written finishes first
                        library.store.close()


def connection_strip(app: AppState) -> ft.Control:
    """Online/offline and where this device is (on every screen at a table); kept between
    renders while it says the same."""
    role, table = app.role, app.table
    where = ""
    if table is not None and isinstance(role, Seat):
        players = table.game.state.players
        name = players[role.player].name if role.player < len(players) else "?"
        where = app._("Table {table} · {name}'s seat", table=table.table_id, name=name)
    elif table is not None and isinstance(role, Referee):
        where = app._("Table {table} · the referee", table=table.table_id)
    elif table is not None and role is not None:
        where = app._("Table {table} · the board", table=table.table_id)
    elif table is not None:
        where = app._("Table {table}", table=table.table_id)
    codes = isinstance(role, Referee) and app.screen != "host"
    inputs = (where, app.online, codes)
    return app.memo("connection", inputs, lambda: _strip(app, *inputs))


def _strip(app: AppState, where: str, online: bool, codes: bool) -> ft.Control:
    dot = OK if online else "#ff6b6b"
    label = app._("Live") if online else app._("Reconnecting…")
    row: list[ft.Control] = [
        ft.Semantics(identifier="connection", label=f"{label} {where}",
                     content=ft.Icon(ft.Icons.CIRCLE, color=dot, size=12)),
        ft.Text(label, size=SMALL, color=dot),
        ft.Text(where, size=SMALL, color=MUTED, expand=True, max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS)]
    if codes:
        row.append(ident("to-host", ft.TextButton(
            app._("Join codes"), on_click=lambda e: app.go("host"), height=32,
            style=ft.ButtonStyle(color=GOLD)), app._("Join codes")))
    return ft.Container(content=ft.Row(row, spacing=6), bgcolor=SURFACE, key="connection",
                        padding=ft.Padding.symmetric(horizontal=12, vertical=2))


def render(app: AppState) -> None:
    """Rebuild the page's controls for the app state."""
    # An unusable data folder: whatever the address, the start screen says what is wrong.
    screen = PROBLEM if app.problem is not None else SCREENS[app.screen]
    controls = drawer(screen.draw)(app)
    for i, control in enumerate(controls):
        # Same key in the same slot: Flet reconciles the rebuilt control with the one on
        # screen and sends only what changed, instead of replacing the whole screen.
        control.key = control.key or f"slot-{i}"
    if app.table is not None:
        controls = [connection_strip(app), *controls]
    app.root.controls = controls


def on_folder(app: AppState, folder: DataFolder) -> None:
    """A session on the process's data folder: read-only there if the folder is, and drawn
    again when its queued actions reach the disk."""
    if folder.read_only_reason is not None and folder.library is not None \
            and app.library is folder.library:
        app.read_only_reason = folder.read_only_reason
    folder.sessions.add(app)


def back_in_front(folder: DataFolder, event: ft.AppLifecycleStateChangeEvent) -> None:
    """The app came back to the foreground: write the queued actions now."""
    if event.state in (ft.AppLifecycleState.RESUME, ft.AppLifecycleState.SHOW):
        folder.save_soon()


def build(source: TableHub | Library | GameSession | None, problem: FolderProblem | None = None,
          folder: DataFolder | None = None, *, host: bool = True) -> AppState:
    """An app state with its view tree built (used by tests and by `create_app`); with a
    problem, the start screen says what is wrong with the data folder.

    A `Library` or a `GameSession` gives a hub on its store, this device the host, and the
    session's open game (if any) opened at a table it referees.
    """
    if folder is not None and folder.hub is not None and source is folder.library:
        source = folder.hub  # the process's one hub on the folder's one writable library
    app = AppState(source, render, problem, folder, host=host)
    if folder is not None:
        on_folder(app, folder)
    if isinstance(source, GameSession) and source.game is not None and app.hub is not None:
        table = app.hub.open_table(source.game.header.game_id)
        table.claim_referee(app.device, app.hub.host_key)
        app.set_table(table)
    app.render()
    return app


def create_app(source: TableHub | Library | GameSession | DataFolder, *,
               base_urls: list[str] | None = None) -> Callable[[ft.Page], None]:
    """The Flet `main` of a server hosting tables on `source`'s store (the process's data
    folder: a session that ends saves what it can).

    Each session is a device: the host (the desktop window, or a browser that proved the host
    key with `/?key=...`; with a library or a session, every session) or a
    device that joins a table by its address and a code.
    """
    everyone_hosts = isinstance(source, Library | GameSession)
    fixed = source if isinstance(source, TableHub) else TableHub(
        source.store, library=source if isinstance(source, Library) else None
    ) if everyone_hosts else None

    def main(page: ft.Page) -> None:
        page.title = "Vendetta Companion"
        page.theme_mode = ft.ThemeMode.DARK
        page.theme = page.dark_theme = theme()
        page.bgcolor = BG
        desktop = getattr(page, "web", True) is False
        problem, folder, hub = None, None, fixed
        if isinstance(source, DataFolder):
            problem = source.try_open()  # a no-op once this process holds the folder
            folder, hub = source, source.hub
        app = AppState(hub, render, problem, folder, host=desktop or everyone_hosts,
                       client=getattr(page, "client_ip", None) or None)
        app.base_urls = list(base_urls or [])
        page.data = app  # tests and the benchmark reach a session's state here
        if folder is not None:
            on_folder(app, folder)
            folder.keep_saving()
            page.on_app_lifecycle_state_change = lambda e: back_in_front(folder, e)
        if isinstance(source, GameSession) and source.game is not None:
            app.open_game(source.game.header.game_id)
        shell = Shell(page, app)
        live = LiveSync(page, app, shell.sync, on_end=folder.flush if folder else None)
        start = page.route or "/"
        address = start.split("?", 1)[0]
        if address in ("", "/") and app.table is not None:
            start = "/game"
        live.start(start, desktop=desktop or everyone_hosts)
        if live.browser:
            shell.sync()  # a blank page until the device's local storage is read
        if hub is not None:  # the first screen is on its way: count statistics meanwhile
            hub.library.warm_stats(WARM_STATS_AFTER)
            warm_screen("stats", WARM_STATS_AFTER)

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
        self.dialog: ft.AlertDialog | None = None
        self.below: dict[str, ft.View] = {}
        """The placeholder view of each earlier screen, by address."""
        app.on_navigate = lambda _app: self.sync()
        app.on_ask = lambda _app: self.ask()
        page.on_route_change = self.on_route_change
        page.on_view_pop = self.on_view_pop
        page.on_resize = lambda e: app.resize(e.width, e.height)
        app.resize(getattr(page, "width", None), getattr(page, "height", None))

    def ask(self) -> None:
        """Show the app's question as a dialog, or close it once answered."""
        if self.dialog is not None:
            self.dialog, dialog = None, self.dialog
            if dialog.open:
                self.page.pop_dialog()
        if self.app.question is not None:
            self.dialog = confirm_dialog(self.app)
            self.page.show_dialog(self.dialog)

    def sync(self) -> None:
        """Views: one placeholder per earlier screen, then the screen shown; push the address.
        Placeholders are kept while their screen stays in the history (a redraw pushed by
        another device then sends only what changed on the screen shown)."""
        app, page = self.app, self.page
        paths = [r.path for r in app.history[:-1]]
        self.below = {path: self.below.get(path) or ft.View(route=path, bgcolor=BG, controls=[])
                      for path in paths}
        self.top.route = app.route.path
        views = [*(self.below[path] for path in paths), self.top]
        shown = list(page.views)
        if len(shown) != len(views) or \
                any(a is not b for a, b in zip(shown, views, strict=True)):
            page.views[:] = views
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
