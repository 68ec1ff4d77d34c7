"""The server: it says where it listens and
where to open it; a websocket from a foreign web origin is refused; nothing of a game is
readable over HTTP; a second server on the same data folder is refused."""

import gc
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.table import network
from tests.browser.harness import ROOT, free_port
from tests.table_helpers import make_hub, position
from views.server import (
    OriginGuard,
    PageScript,
    QuietClose,
    keep_start_up_out_of_collections,
    same_origin,
    startup_text,
)


def test_startup_text_names_every_address_and_the_host_key(monkeypatch) -> None:
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    urls = network.base_urls("0.0.0.0", 8550)
    text = startup_text("0.0.0.0", 8550, urls, "KEY123", True, "/data")
    assert "every network interface because --web was given" in text
    assert "http://192.168.1.20:8550/" in text and "http://10.0.0.5:8550/" in text
    assert "http://127.0.0.1:8550/?key=KEY123" in text
    host_line = next(i for i, line in enumerate(text.splitlines()) if "?key=" in line)
    phones_line = next(i for i, line in enumerate(text.splitlines()) if "192.168.1.20" in line)
    assert host_line < phones_line  # the address that works for a referee alone comes first
    local = startup_text("127.0.0.1", 9000, network.base_urls("127.0.0.1", 9000), "K", False,
                         "/d")
    assert "No display found: serving this computer only" in local
    assert "http://127.0.0.1:9000/" in local and "every network interface" not in local


@pytest.mark.parametrize(("origin", "host", "same"), [
    ("http://127.0.0.1:8550", "127.0.0.1:8550", True),
    ("http://192.168.1.20:8550", "192.168.1.20:8550", True),
    ("https://evil.example", "127.0.0.1:8550", False),
    ("http://127.0.0.1:9999", "127.0.0.1:8550", False),
    ("null", "127.0.0.1:8550", False),
    ("http://127.0.0.1:8550", "", False),
])
def test_same_origin(origin: str, host: str, same: bool) -> None:
    assert same_origin(origin, host) is same


def _run(coro) -> None:
    """Run a coroutine that never waits (no event loop: a browser test may hold one)."""
    try:
        coro.send(None)
    except StopIteration:
        return
    raise AssertionError("the coroutine waited")


def test_origin_guard_refuses_before_the_app_sees_the_socket() -> None:
    reached, sent = [], []

    async def app(scope, receive, send):
        reached.append(scope["type"])

    async def send(message):
        sent.append(message)

    guard = OriginGuard(app)
    foreign = {"type": "websocket", "headers": [(b"host", b"127.0.0.1:1"),
                                                (b"origin", b"http://evil.example")]}
    _run(guard(foreign, None, send))
    assert reached == [] and sent == [{"type": "websocket.close", "code": 1008}]
    native = {"type": "websocket", "headers": [(b"host", b"127.0.0.1:1")]}
    _run(guard(native, None, send))
    assert reached == ["websocket"]


def test_every_html_page_carries_the_connection_script() -> None:
    page = b"<html><head><title>x</title></head><body></body></html>"

    async def app(scope, receive, send):
        kind = b"text/html; charset=utf-8" if scope["path"] == "/" else b"text/javascript"
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", kind), (b"content-length", str(len(page)).encode())]})
        await send({"type": "http.response.body", "body": page[:20], "more_body": True})
        await send({"type": "http.response.body", "body": page[20:]})

    for path, injected in (("/", True), ("/main.js", False)):
        sent: list[dict] = []

        async def send(message, sent=sent):
            sent.append(message)

        _run(PageScript(app, "var watched = 1;")({"type": "http", "path": path}, None, send))
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        length = dict(sent[0]["headers"])[b"content-length"]
        assert int(length) == len(body)
        assert (b"<script>var watched = 1;</script></head>" in body) is injected
        assert body.endswith(b"</body></html>")


def test_a_message_to_a_device_that_went_is_dropped_not_raised() -> None:
    """A send to a closed socket raises in the server; Flet's send loop would die with a
    traceback and never mark the session disconnected."""
    delivered = []

    async def gone(message):
        if message["type"] == "websocket.send":
            raise OSError("the device went")
        delivered.append(message)

    async def app(scope, receive, send):
        await send({"type": "websocket.send", "bytes": b"update"})
        await send({"type": "websocket.accept"})

    _run(QuietClose(app)({"type": "websocket"}, None, gone))
    assert delivered == [{"type": "websocket.accept"}]


@pytest.fixture
def served(tmp_path: Path):
    """The real program, as a user starts it, on this computer only."""
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3, phase="planning"))
    hub.store.close()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "vendetta_companion", "--host", "127.0.0.1",
                             "--port", str(port), "--data-dir", str(tmp_path)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        if "?key=" in line:
            break
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read(16)
            break
        except OSError:
            time.sleep(0.2)
    yield port, "".join(lines), table, tmp_path
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        raise AssertionError("the server did not stop on SIGTERM within 10 s") from None


def test_the_server_says_where_to_open_it(served) -> None:
    port, said, _, folder = served
    key = (folder / "tables" / "host-key").read_text().strip()
    assert f"http://127.0.0.1:{port}/" in said
    assert f"http://127.0.0.1:{port}/?key={key}" in said


def test_a_foreign_web_origin_cannot_open_a_session(served) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    port = served[0]
    url = f"ws://127.0.0.1:{port}/ws"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=5)
    assert refused.value.response.status_code == 403
    with connect(url, origin=f"http://127.0.0.1:{port}", open_timeout=5):
        pass  # the app's own pages connect
    with connect(url, open_timeout=5):
        pass  # no Origin: not a web page (the desktop client)


def test_nothing_of_a_game_is_readable_over_http(served) -> None:
    port, _, table, folder = served
    key = (folder / "tables" / "host-key").read_text().strip()
    for path in ("/", "/game", f"/join/{table.table_id}", "/stats", "/tables/host-key",
                 f"/games/{table.game_id}.jsonl", "/review/" + table.game_id):
        try:
            body = urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()
        except urllib.error.HTTPError as err:  # e.g. 404 for a file that is not the app's
            body = err.read()
        for secret in ("Ann", table.join_code, table.referee_code, key):
            assert secret.encode() not in body, (path, secret)


def test_a_second_server_on_the_same_folder_is_refused_clearly(served) -> None:
    port, _, _, folder = served
    other = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "vendetta_companion", "--host", "127.0.0.1",
                             "--port", str(other), "--data-dir", str(folder)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = ""
        deadline = time.monotonic() + 30
        while "Phones join" not in said and time.monotonic() < deadline:
            said += proc.stdout.readline()
        assert "The data folder cannot be used" in said and "web server at" in said
        assert "?key=" not in said  # it hosts nothing: the first server owns the games
    finally:
        proc.terminate()
        proc.wait(10)


def test_start_up_objects_are_left_out_of_full_collections() -> None:
    made_at_start = [object() for _ in range(1000)], {"store": list(range(1000))}
    assert gc.is_tracked(made_at_start[1])
    before = gc.get_freeze_count()
    try:
        keep_start_up_out_of_collections()
        assert gc.get_freeze_count() >= before + 3  # at least this test's containers
        gc.collect()  # frozen objects stay where they are: a full pass does not walk them
        assert gc.get_freeze_count() >= before + 3 and made_at_start[1]["store"][-1] == 999
    finally:
        gc.unfreeze()
