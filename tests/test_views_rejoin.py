"""A device gets back to its role when its connection drops while the page starts
(a server killed and started again; the browser test `test_a_killed_server_restarts...`).

Flet's real `Session` runs over a stand-in connection, and the test plays the browser: it
answers the session's local-storage reads (`SharedPreferences.get/set`) from a dict, or leaves
them unanswered as a closed websocket does. Flet drops what a disconnected session sends and
reattaches the browser's next connection (a reload, or its own reconnect) to the same session.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from models.table import Board, Seat
from tests.table_helpers import Devices, make_hub, plain, position, seated
from views.app import create_app
from views.live import DEVICE_KEY, TABLE_KEY
from views.state import AppState


def run(scenario: Any) -> None:
    """Run `scenario` on an event loop of its own (a browser test may leave one in this thread)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario).result()


WITHDRAW = {"1": {"Ann": ([plain(3)], 1), "Bo": ([plain(2)], 0), "Cy": ([plain(1)], 0)}}


class Browser(Connection):
    """One websocket of a browser tab: records what the session sends, answers its
    local-storage calls from `storage` when asked to."""

    def __init__(self, loop: asyncio.AbstractEventLoop, storage: dict[str, Any]) -> None:
        super().__init__()
        self.loop, self.storage = loop, storage
        self.executor = ThreadPoolExecutor(1)
        self.pubsubhub = PubSubHub(loop=loop, executor=self.executor)
        self.calls: list[Any] = []
        """Invoke-method requests not answered yet."""
        self.closed = False
        self.broken = False
        """The websocket died and Flet has not yet detached the session from it."""

    def send_message(self, message: Message) -> None:
        """Encoded as Flet's web server does (encoding is what marks a change as sent)."""
        if self.broken:  # what Flet's web connection raises once its send queue is gone
            raise AttributeError("'NoneType' object has no attribute 'put_nowait'")
        if self.closed:
            return
        msgpack.packb([message.action, message.body],
                      default=configure_encode_object_for_msgpack(BaseControl))
        if message.action == MessageAction.INVOKE_METHOD:
            self.calls.append(message.body)

    def dispose(self) -> None:
        self.closed = True

    def answer(self, session: Session) -> int:
        """Answer every local-storage call sent so far (other calls get None)."""
        calls, self.calls = self.calls, []
        for call in calls:
            args = call.args or {}
            result: Any = None
            if call.name == "get":
                result = self.storage.get(args["key"])
            elif call.name == "set":
                self.storage[args["key"]] = args["value"]
                result = True
            session.handle_invoke_method_results(call.control_id, call.call_id, result, None)
        return len(calls)


async def reading(browser: Browser) -> None:
    """Let the session run until it waits for its first local-storage answer."""
    for _ in range(50):
        if any(call.name == "get" for call in browser.calls):
            return
        await asyncio.sleep(0)
    raise AssertionError("the start never read the device's local storage")


async def settle(session: Session, browser: Browser) -> None:
    """Let the session run, answering its calls, until it asks nothing more."""
    quiet = 0
    while quiet < 5:
        await asyncio.sleep(0)
        quiet = 0 if browser.answer(session) else quiet + 1


def open_session(main: Any, browser: Browser, route: str, size: tuple[int, int]
                 ) -> tuple[Session, AppState]:
    """A new session for a browser tab at `route`; `main` runs in it (as Flet does)."""
    session = Session(browser)
    page: ft.Page = session.page
    page.web, page.route = True, route
    page.width, page.height = size
    _context_page.set(page)
    browser.send_message(Message(MessageAction.REGISTER_CLIENT, RegisterClientResponseBody(
        session_id=session.id, page_patch=session.get_page_patch(), error="")))
    main(page)
    return session, page.data


def restarted_hub(tmp_path: Path, dev: Devices) -> tuple[Any, str]:
    """A table whose seats and board were taken, then the server 'restarted' (a new hub on
    the same folder loads it again at a new epoch)."""
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3, WITHDRAW))
    seated(table, dev)
    table.choose(dev.ann, 0, "withdraw", table.version)
    hub.store.close()
    return make_hub(tmp_path), table.table_id


@pytest.mark.parametrize(("who", "size", "role"), [
    ("bo", (390, 844), Seat(player=1)), ("board", (1280, 800), Board())])
def test_a_start_cut_short_by_a_lost_connection_is_run_again_on_reconnect(
        tmp_path: Path, who: str, size: tuple[int, int], role: Any) -> None:
    dev = Devices()
    hub, table_id = restarted_hub(tmp_path, dev)
    storage = {DEVICE_KEY: getattr(dev, who), TABLE_KEY: table_id}

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        main = create_app(hub)
        first = Browser(loop, storage)
        session, app = open_session(main, first, "/game", size)
        await reading(first)
        # the device's role is not known yet: nothing of the host's screens is drawn
        assert app.root.controls == []
        # the websocket closes before the first answer (a reload, or Flet's receive loop
        # ending on a stale answer meant for the killed server): that answer is lost
        await session.disconnect(3600)
        assert app.role is None
        # the tab connects again and Flet hands it the same session
        again = Browser(loop, storage)
        await session.connect(again)
        await settle(session, again)
        assert app.table is not None and app.table.table_id == table_id
        assert app.role == role and app.screen == "game"
        assert app.root.controls, "the page is drawn"
        # and it follows the table: another device's choice is drawn here too
        before = app.version
        app.table.choose(dev.cy, 2, "stay", app.table.version)
        await settle(session, again)
        assert app.version > before
        session.close()
        await asyncio.sleep(0)

    run(scenario())
    hub.store.close()


def test_several_devices_rejoin_the_restarted_table_each_in_its_role(tmp_path: Path) -> None:
    """Three phones and a board reconnect to the restarted server at once; one of them loses
    its connection halfway; every one is back in its own role, and the secret choice kept."""
    dev = Devices()
    hub, table_id = restarted_hub(tmp_path, dev)
    who = {"ann": Seat(player=0), "bo": Seat(player=1), "cy": Seat(player=2),
           "board": Board()}

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        main = create_app(hub)
        tabs = {}
        for name in who:
            browser = Browser(loop, {DEVICE_KEY: getattr(dev, name), TABLE_KEY: table_id})
            tabs[name] = [browser, *open_session(main, browser, "/game", (390, 844))]
        for browser, _, _ in tabs.values():
            await reading(browser)
        # Cy's websocket closes while its start waits for local storage; the others answer
        browser, session, _ = tabs["cy"]
        await session.disconnect(3600)
        for name in ("ann", "bo", "board"):
            await settle(tabs[name][1], tabs[name][0])
        tabs["cy"][0] = Browser(loop, browser.storage)
        await session.connect(tabs["cy"][0])
        await settle(session, tabs["cy"][0])
        for name, role in who.items():
            app = tabs[name][2]
            assert app.role == role and app.table is not None, name
            assert app.table.table_id == table_id and app.screen == "game", name
        table = tabs["ann"][2].table
        assert all(tabs[name][2].table is table for name in who)  # one table, never forked
        assert table.view(dev.ann).withdraw.mine == "withdraw"
        for _, session, _ in tabs.values():
            session.close()
        await asyncio.sleep(0)

    run(scenario())
    hub.store.close()


def test_a_local_storage_the_browser_never_received_is_made_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart the web client once never learned of the page's local-storage service
    (its calls went unanswered): the start asks again through a new one; the seat is kept."""
    monkeypatch.setattr("views.live.STORAGE_WAIT", 0.05)
    dev = Devices()
    hub, table_id = restarted_hub(tmp_path, dev)
    storage = {DEVICE_KEY: dev.ann, TABLE_KEY: table_id}

    async def scenario() -> None:
        browser = Browser(asyncio.get_running_loop(), storage)
        session, app = open_session(create_app(hub), browser, "/game", (390, 844))
        await reading(browser)
        missed = {call.control_id for call in browser.calls if call.name == "get"}
        deadline = asyncio.get_running_loop().time() + 5
        while app.role is None and asyncio.get_running_loop().time() < deadline:
            browser.calls = [c for c in browser.calls if c.control_id not in missed]
            browser.answer(session)
            await asyncio.sleep(0.01)
        assert app.role == Seat(player=0) and app.screen == "game"
        assert storage[DEVICE_KEY] == dev.ann  # the token kept: never replaced by a new one
        session.close()
        await asyncio.sleep(0)

    run(scenario())
    hub.store.close()


def test_a_call_failing_on_a_dying_connection_is_no_missing_local_storage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A local-storage call made while the websocket is dying fails (not a refusal of the
    browser): the device is not taken for a fresh one; it starts again on reconnect."""
    monkeypatch.setattr("views.live.STORAGE_WAIT", 0.05)
    dev = Devices()
    hub, table_id = restarted_hub(tmp_path, dev)
    storage = {DEVICE_KEY: dev.board, TABLE_KEY: table_id}

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        first = Browser(loop, storage)
        session, app = open_session(create_app(hub), first, "/game", (1280, 800))
        await reading(first)
        first.broken = True  # its answer never comes; the call made again fails to send
        await asyncio.sleep(0.2)
        assert app.role is None and app.screen != "join"
        await session.disconnect(3600)
        again = Browser(loop, storage)
        await session.connect(again)
        await settle(session, again)
        assert app.role == Board() and app.screen == "game"
        session.close()
        await asyncio.sleep(0)

    run(scenario())
    hub.store.close()
