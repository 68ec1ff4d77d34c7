"""Live sync of one device (one Flet session) with its table.

Every change of the table (`Table.subscribe`) schedules one re-render of this session on the
server's event loop; a device that reconnects is drawn again from the table at once. The
device token, the host key and the table are remembered in the browser's local storage
(`ft.SharedPreferences`), so a reload, a locked screen or a server restart brings the device
back to its role. The screen is kept awake on the board and the referee's screens
(`ft.Wakelock`), and a seat whose turn comes gets a visible cue and a buzz where the device can.

Connection: the server sends every live page a heartbeat (`HEARTBEAT`); the page's own
script (`views/web/connection.js`, put into every page by the web server) covers the screen
with "Reconnecting…" as soon as the heartbeat stops, the socket closes or the browser goes
offline, and takes every tap meanwhile (a tap there says it was not sent), so no tap is ever
made on a screen the server may not match. Flet's client reconnects by itself; the page is then
built anew from the table (`on_connect`: nothing kept from before, so what the device shows is
the table's state and its own drafts; after a server restart the new session finds the device's
role through its local storage).

Start-up survives a lost connection: Flet drops what a disconnected session sends and never
answers a local-storage read whose connection closed, so a start cut short (a reload, or the
websocket closed under a fresh session after a server restart) would wait for ever on a blank
page, and a reload would reattach to that same stuck session. Reconnecting therefore starts
the start-up again (`on_connect` → `_begin`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit

import flet as ft

from companion.i18n import LANGUAGES, negotiate
from companion.table.hub import DEVICE_TOKEN, new_device_token
from models.table import Board, Referee, Seat
from views.state import AppState

if TYPE_CHECKING:
    from companion.table.table import Table

log = logging.getLogger(__name__)

STORAGE_WAIT = 3.0
"""Seconds a local-storage call may go unanswered before it is made again through a new
service: the browser may never have received the service (seen after a server restart: the
web client answered a call to it, 10 s later, that it had no such service)."""
STORAGE_TRIES = 3
"""Calls made at most (the last one waits for the browser's own answer or error)."""
HEARTBEAT = 1.0
"""Seconds between two heartbeats sent to a live page (its script shows "Reconnecting…" after
2.5 s without any message)."""
DEVICE_KEY = "vendetta.device"
HOST_KEY = "vendetta.host"
TABLE_KEY = "vendetta.table"
LANG_KEY = "vendetta.lang"
"""Local-storage keys: this device's token, the host key it proved, its table, the language
chosen on it."""


def start_address(route: str) -> tuple[str, str | None]:
    """The address to open (with its other query parameters, e.g. a seat's join link) and the
    host key given in it (`/?key=...`), if any."""
    parts = urlsplit(route or "/")
    query = parse_qs(parts.query)
    key = query.pop("key", [None])[0]
    rest = urlencode({k: v[0] for k, v in query.items()})
    return (parts.path or "/") + (f"?{rest}" if rest else ""), key


class Pump:
    """Draws the devices waiting for a redraw one per turn of the server's event loop, so each
    one's update is sent before the next is drawn, and the device that acted is sent first
    (its update is queued when its handler returns, before the first turn)."""

    _pumps: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Pump] = \
        weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: deque[LiveSync] = deque()
        self.busy = False

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> Pump:
        """The pump of this event loop."""
        if loop not in cls._pumps:
            cls._pumps[loop] = cls(loop)
        return cls._pumps[loop]

    def add(self, live: LiveSync) -> None:
        """Queue a device for a redraw (in the loop's thread)."""
        self.waiting.append(live)
        if not self.busy:
            self.busy = True  # a timer: runs after the callbacks already queued (the sends)
            self.loop.call_later(0, self._step, context=contextvars.Context())

    def _step(self) -> None:
        live = self.waiting.popleft()
        try:
            live.refresh()
        except Exception:  # noqa: BLE001 - one broken page must not stop the others
            log.exception("a device could not be drawn again")
        if self.waiting:
            self.loop.call_later(0, self._step, context=contextvars.Context())
        else:
            self.busy = False


class LiveSync:
    """Follows the device's table and draws the page again when it changes."""

    def __init__(self, page: Any, app: AppState, sync: Callable[[], None], *,
                 on_end: Callable[[], None] | None = None) -> None:
        self.page, self.app, self.sync, self.on_end = page, app, sync, on_end
        self.loop: asyncio.AbstractEventLoop | None = None
        """The server's event loop (Flet calls `main` in it); None for a test page, whose
        changes are drawn at once, in the caller's thread."""
        if isinstance(page, ft.Page):
            self.loop = asyncio.get_running_loop()
        self.unsubscribe: Callable[[], None] | None = None
        self.starting: Future[None] | None = None
        """The start-up reading the device's local storage, while it runs."""
        self.started = False
        """Whether the first screen was opened (the device's role is known)."""
        self._begin_with: tuple[str, str | None, bool] = ("/", None, False)
        """The start-up's address, host key and desktop flag (to start it again)."""
        self.pending = False
        self.awake = False
        self.services: dict[str, Any] = {}
        """Flet services kept referenced (Flet drops unreferenced ones after an event)."""
        self.closed = False
        """The session ended: nothing is sent to it any more."""
        self.drawn_at = 0.0
        """When a redraw was last sent to the page (`time.monotonic()`)."""
        self.beat: ft.Text | None = None
        """The heartbeat: an invisible text whose value changes every `HEARTBEAT` seconds."""
        app.on_table = self.follow
        app.on_language = self.language
        if self.loop is not None:  # a test page draws in the caller's thread: it waits
            app.later = self.later
        page.on_connect = self.on_connect
        page.on_disconnect = self.on_disconnect
        page.on_close = self.on_close

    # --- start ---------------------------------------------------------------------------------

    @property
    def browser(self) -> bool:
        """Whether the page can reach the device's local storage (a real Flet page)."""
        return self.loop is not None and hasattr(self.page, "run_task")

    def start(self, route: str, *, desktop: bool) -> None:
        """Open the first screen: at once on a test page, after reading the device's local
        storage on a real one."""
        address, key = start_address(route)
        if not self.browser:
            if key and self.app.hub.is_host(key):
                self.app.host = True
            self.open(address)
            self.started = True
            return
        self._begin_with = (address, key, desktop)
        self._begin()
        self.beat = ft.Text("0", visible=False)
        self.page.overlay.append(self.beat)
        self._task(self._heartbeat)

    async def _heartbeat(self) -> None:
        """Tell the page, every `HEARTBEAT` seconds, that its session is live (its script
        covers the screen when these stop arriving)."""
        beats = 0
        while not self.closed:
            await asyncio.sleep(HEARTBEAT)
            if self.beat is None or not self.connected():
                continue
            if time.monotonic() - self.drawn_at < HEARTBEAT:
                continue  # a redraw was sent meanwhile: that was the sign of life
            beats += 1
            self.beat.value = str(beats % 1000)
            try:
                self.beat.update()
            except Exception:  # noqa: BLE001 - the connection went meanwhile: next beat
                log.debug("heartbeat not sent")

    def _task(self, work: Callable[..., Any], *args: Any) -> None:
        """Run `work` as a task of this page if its session still has a connection (a closed
        or disconnected session has no loop to run it in: nothing is sent there)."""
        if self.closed or not self.connected():
            return
        try:
            self.page.run_task(work, *args)
        except Exception:  # noqa: BLE001 - the session went between the check and the call
            log.debug("a page task could not start: the session is gone")

    def _begin(self) -> None:
        """Run the start-up (again): one that has not finished is cancelled first (its
        local-storage reads were sent over a connection that is gone and will never be
        answered), and its local-storage service is made anew, so that the browser learns
        of it over the live connection (it may never have received the first one)."""
        if self.starting is not None:
            self.starting.cancel()
            self.services.pop("prefs", None)
        self.starting = self.page.run_task(self._start, *self._begin_with)

    async def _storage(self, method: str, *args: str) -> Any:
        """Call the device's local storage; a call not answered within `STORAGE_WAIT` is
        made again through a new service, twice at most.

        Raises:
            TimeoutError: never answered. RuntimeError: the browser refused the call.
        """
        for _ in range(STORAGE_TRIES - 1):
            prefs = self.service("prefs", ft.SharedPreferences)
            try:
                return await asyncio.wait_for(getattr(prefs, method)(*args), STORAGE_WAIT)
            except TimeoutError:
                self.services.pop("prefs", None)
                log.info("local storage did not answer %s%s: asking again", method, args[:1])
        prefs = self.service("prefs", ft.SharedPreferences)
        return await getattr(prefs, method)(*args)

    async def _start(self, address: str, key: str | None, desktop: bool) -> None:
        app = self.app
        try:
            token = await self._storage("get", DEVICE_KEY)
            if not isinstance(token, str) or not DEVICE_TOKEN.match(token):
                token = new_device_token()
                await self._storage("set", DEVICE_KEY, token)
            app.device = token
            if key is None:
                stored = await self._storage("get", HOST_KEY)
                key = stored if isinstance(stored, str) else None
            elif app.hub.is_host(key):
                await self._storage("set", HOST_KEY, key)
            table_id = await self._storage("get", TABLE_KEY)
            lang = await self._storage("get", LANG_KEY)
        except Exception as err:  # noqa: BLE001 - judged below
            if not self.connected() or not isinstance(err, RuntimeError | TimeoutError):
                # the connection broke under the call: the start runs again on reconnect
                log.info("connection lost while reading local storage: %r", err)
                return
            # the browser refused or never answered: no local storage, a fresh device
            log.warning("local storage unavailable: this device is not remembered (%s)", err)
            table_id = lang = None
        saved = lang if isinstance(lang, str) and lang in LANGUAGES else None
        app.lang = negotiate([] if saved else await self._locales(), saved)
        self._locale(app.lang)
        app.host = desktop or bool(key and app.hub.is_host(key))
        resumed = app.resume(table_id if isinstance(table_id, str) else None)
        if resumed and (address.startswith("/join") or address.split("?")[0] == "/") and \
                not app.host:
            address = "/game"
        self.started, self.starting = True, None
        self.open(address)
        self.page.update()

    async def _locales(self) -> list[str]:
        """The device's preferred locales, in order ('it_IT', 'en_US'); none when the device
        does not say (then English)."""
        try:
            info = await asyncio.wait_for(self.page.get_device_info(), STORAGE_WAIT)
            return [str(locale) for locale in getattr(info, "locales", None) or []]
        except Exception as err:  # noqa: BLE001 - no locales: the saved choice or English
            log.info("the device did not tell its languages: %r", err)
            return []

    def _locale(self, lang: str) -> None:
        """Flutter's own texts (date picker, OK/Cancel) in the device's language."""
        if isinstance(self.page, ft.Page):
            self.page.locale_configuration = ft.LocaleConfiguration(
                supported_locales=[ft.Locale(code) for code in LANGUAGES],
                current_locale=ft.Locale(lang))

    def language(self, lang: str) -> None:
        """The device chose a language: Flutter follows, and the device keeps the choice
        (its local storage: it survives reloads and server restarts)."""
        self._locale(lang)
        if self.browser:
            self._task(self._remember_language, lang)

    async def _remember_language(self, lang: str) -> None:
        try:
            await self.service("prefs", ft.SharedPreferences).set(LANG_KEY, lang)
        except Exception:  # noqa: BLE001 - not kept: the next start asks the browser again
            log.warning("could not remember the language on this device")

    def connected(self) -> bool:
        """Whether the page's session has a connection to its browser now."""
        try:
            return self.page.session.connection is not None
        except (AttributeError, RuntimeError):
            return False

    def open(self, address: str) -> None:
        """Show the screen at an address and push it to the browser."""
        self.app.render()
        self.app.open_address(address)
        self.sync()

    def service(self, name: str, kind: type) -> Any:
        """A Flet service of this page, made once and kept referenced."""
        if name not in self.services:
            self.services[name] = kind()
        return self.services[name]

    # --- following the table -------------------------------------------------------------------

    def follow(self, table: Table | None) -> None:
        """Listen to this table only; remember it on the device."""
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if table is not None:
            self.unsubscribe = table.subscribe(self.on_change)
            if self.browser:
                self._task(self._remember, table.table_id)

    async def _remember(self, table_id: str) -> None:
        try:
            await self.service("prefs", ft.SharedPreferences).set(TABLE_KEY, table_id)
        except Exception:  # noqa: BLE001 - not remembered: the device joins again by hand
            log.warning("could not remember the table on this device")

    def later(self, step: Callable[[], None]) -> None:
        """Run `step` (a change of this page's screen) in the server's event loop, then send
        the page; from any thread."""

        def run() -> None:
            if self.closed:
                return
            try:
                step()
                self.sync()
            except Exception:  # noqa: BLE001 - e.g. the session ended meanwhile
                log.exception("a screen could not be drawn again")

        assert self.loop is not None  # set as the app's `later` only with a loop
        self.loop.call_soon_threadsafe(run, context=contextvars.Context())

    def on_change(self, version: int) -> None:
        """A change of the table (any thread): draw this page again soon, once."""
        if self.pending or self.closed:
            return
        self.pending = True
        if self.loop is None:
            self.refresh()
            return
        pump = Pump.of(self.loop)
        try:
            here = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            here = False
        if here:
            pump.add(self)
        else:
            self.loop.call_soon_threadsafe(pump.add, self)

    def refresh(self, force: bool = False) -> None:
        """Draw the page again from the table (skipped when already drawn at its version)."""
        self.pending = False
        app, table = self.app, self.app.table
        if table is None or self.closed:
            return
        if not force and not table.closed and app.version == table.version:
            return
        held = app.view.role if app.view is not None else None
        from views.seat_page import to_do  # the seat's screen (imported when first drawn)

        before = to_do(app.view) if isinstance(app.role, Seat) else "none"
        shown, game = app.version, app.drawn_game
        self.tell()
        app.render(keep_news=True)
        if held is not None and app.view is None and not table.closed:
            app.lost_role(held)
        app.pushed(shown, game != app.drawn_game)
        after = to_do(app.view) if isinstance(app.role, Seat) else "none"
        if after != "none" and before != after:
            app.cue = True
            app.render(keep_news=True)
            self.buzz()
        self.keep_awake()
        self.sync()
        self.drawn_at = time.monotonic()

    def tell(self) -> None:
        """Another device's action: say here too what it did ("Just happened")."""
        app, table = self.app, self.app.table
        if app.view is None or table is None or isinstance(app.role, Board):
            return
        actions = table.game.actions
        if (len(actions), table.game.can_redo()) != app.drawn_game:
            undo = app.undo_news()
            if undo is not None:  # an undo or a redo, said as such
                app.say([undo])
                return
            from companion.story.review import told  # imported once a table plays

            app.say(told(table.game, translator=app.t) if actions else [])

    def buzz(self) -> None:
        """A haptic nudge where the device has one (phones; ignored elsewhere)."""
        if self.browser:
            self._task(self._buzz)

    async def _buzz(self) -> None:
        try:
            await self.service("haptic", ft.HapticFeedback).heavy_impact()
        except Exception:  # noqa: BLE001 - no vibration here: the visible cue remains
            pass

    def keep_awake(self) -> None:
        """Keep the screen on for the board and the referee (where the browser allows it)."""
        want = isinstance(self.app.role, Board | Referee)
        if want != self.awake and self.browser and self.connected():
            self.awake = want
            self._task(self._wakelock, want)

    async def _wakelock(self, on: bool) -> None:
        try:
            lock = self.service("wakelock", ft.Wakelock)
            await (lock.enable() if on else lock.disable())
        except Exception:  # noqa: BLE001 - e.g. plain http: browsers allow it only on https
            log.info("screen wake lock not available on this device")

    # --- connection ------------------------------------------------------------------------------

    def on_connect(self, e: Any = None) -> None:
        """Back online (a reload, an unlocked phone, a network back): catch up at once; a
        start-up the lost connection cut short is run again (see the module docstring)."""
        self.app.online = True
        if self.closed:
            return
        if self.browser and not self.started:
            self._begin()
            return
        self.app.forget_kept()  # the device's screen is built anew from the table
        self.refresh(force=True)

    def on_disconnect(self, e: Any = None) -> None:
        """Offline: the screen is drawn again when the device reconnects; save what can be
        saved now."""
        self.app.online = False
        if self.on_end is not None:
            self.on_end()

    def on_close(self, e: Any = None) -> None:
        """The session expired: stop listening to the table; save what can be saved."""
        self.closed = True
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if self.on_end is not None:
            self.on_end()
