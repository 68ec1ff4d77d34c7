"""Starting the app : a desktop window, or a
web server for the devices at a table, saying what started and where to open it.

The web server is Flet's own ASGI app served by uvicorn, behind `OriginGuard`: a websocket from
a foreign web origin (another site open in a phone's browser) is refused before it reaches a
session. It listens on every interface only with `--web` (the user asked for it: phones must
reach it); without a display and without `--web` it serves this computer only.
"""

import gc
import logging
import os
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.table.network import ANY, base_urls, host_url

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                   Awaitable[None]]
DEFAULT_PORT = 8550
ASSETS = Path(__file__).resolve().parents[1] / "assets"
"""Icons, splash and the web manifest (tools/make_icons.py); absent from a bare install."""


def assets_dir() -> str | None:
    """The assets folder if this install has one."""
    return str(ASSETS) if ASSETS.is_dir() else None

log = logging.getLogger(__name__)


def same_origin(origin: str, host: str) -> bool:
    """Whether a browser's Origin header names the address it connected to (the Host)."""
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and bool(host) and \
        parts.netloc.lower() == host.strip().lower()


class QuietClose:
    """ASGI middleware: a message to a device that has just gone (a closed tab, a phone out of
    reach) is dropped instead of raised. Raised, it ends Flet's send loop with a traceback in
    the host's terminal, and the session is never marked disconnected (it would keep being
    drawn for a device that is gone); dropped, the socket's receiving side ends the session as
    for any disconnect."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def send_or_drop(message: dict[str, Any]) -> None:
            try:
                await send(message)
            except Exception as err:  # noqa: BLE001 - the device went: nothing to tell it
                if message.get("type") not in ("websocket.send", "websocket.close"):
                    raise
                log.debug("a message to a device that went was dropped: %r", err)

        await self.app(scope, receive, send_or_drop)


class OriginGuard:
    """ASGI middleware: refuse a websocket whose Origin is another site (HTTP 403).

    A connection without an Origin header is no web page (Flet's desktop client, a script on
    this computer) and passes; every page of this server sends its own origin.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            headers = {k.lower(): v for k, v in scope.get("headers", [])}
            origin = headers.get(b"origin")
            host = headers.get(b"host", b"").decode("latin-1")
            if origin is not None and not same_origin(origin.decode("latin-1"), host):
                log.warning("websocket from a foreign origin refused: %r", origin)
                await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)


PAGE_SCRIPT = Path(__file__).resolve().parent / "web" / "connection.js"
"""The device's own connection state (heartbeat watch, "Reconnecting…" cover), put into every
page the web server sends."""


class PageScript:
    """ASGI middleware: put the app's connection script into every HTML page served (Flet's
    own page, unchanged otherwise), just before `</head>`."""

    def __init__(self, app: ASGIApp, script: str | None = None) -> None:
        self.app = app
        source = script if script is not None else PAGE_SCRIPT.read_text(encoding="utf-8")
        self.tag = f"<script>{source}</script>".encode()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        body: list[bytes] = []

        async def send_with_script(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = {k.lower(): v for k, v in message.get("headers", [])}
                if headers.get(b"content-type", b"").startswith(b"text/html") and \
                        b"content-encoding" not in headers:
                    start = message  # held until the whole page is read
                    return
            elif message["type"] == "http.response.body" and start is not None:
                body.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                page = b"".join(body).replace(b"</head>", self.tag + b"</head>", 1)
                headers = [(k, v) for k, v in start.get("headers", [])
                           if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(page)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": page})
                return
            await send(message)

        await self.app(scope, receive, send_with_script)


def has_display() -> bool:
    """Whether a desktop window can open here."""
    if not sys.platform.startswith("linux") or os.environ.get("FLET_APP_STORAGE_DATA"):
        return True  # a packaged app (flet build) or `flet run` always has its own window
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def web_app(main: Callable[..., Any]) -> ASGIApp:
    """Flet's web app for `main`, behind the origin check."""
    import flet_web.fastapi as flet_fastapi

    app = flet_fastapi.FastAPI()
    app.mount("/", flet_fastapi.app(main, no_cdn=True, assets_dir=assets_dir()))
    return OriginGuard(QuietClose(PageScript(app)))


def start(web: bool = False, port: int | None = None, data_dir: str | None = None,
          host: str | None = None) -> None:
    """Take the data folder (once, for the whole process; given up on exit) and start the app
    (see the module docstring). A folder another process writes in is named, and the app
    shows it instead of the games.

    Raises:
        OSError: the port cannot be listened on (e.g. it is taken).
    """
    import atexit

    import flet as ft

    from companion.storage.paths import resolve_data_dir
    from views.app import DataFolder, create_app

    logging.getLogger("flet").setLevel(logging.WARNING)
    path = resolve_data_dir(data_dir, create=False)
    desktop = not web and host is None and has_display()
    bind = host or ("0.0.0.0" if web else "127.0.0.1")
    port = port or DEFAULT_PORT
    urls = base_urls(bind, port)
    where = f"http://{socket.gethostname()}:{port}" if bind in ANY else urls[0]
    folder = DataFolder(path, role="desktop app" if desktop else "web server",
                        address=None if desktop else where, auto_backup=True)
    problem = folder.try_open()
    atexit.register(folder.close)
    if problem is not None:
        print(f"The data folder cannot be used: {problem.message}", flush=True)
    elif folder.read_only_reason is not None:
        print(f"Review only: {folder.read_only_reason}.", flush=True)
    try:
        if desktop:
            print(f"Vendetta Companion: desktop window (data folder {path}).\n"
                  "To let phones join a table, start it with --web.", flush=True)
            main = create_app(folder)
            keep_start_up_out_of_collections()
            ft.run(main, assets_dir=assets_dir())
            return
        key = folder.hub.host_key if folder.hub is not None else None
        print(startup_text(bind, port, urls, key, web, str(path)), flush=True)
        import uvicorn

        _exit_quietly_on_signals()  # uvicorn stops gracefully, then re-raises the signal
        served = web_app(create_app(folder, base_urls=urls))
        keep_start_up_out_of_collections()
        uvicorn.run(served, host=bind, port=port,
                    ws="websockets-sansio", log_level="warning", timeout_graceful_shutdown=2)
    finally:
        folder.close()


def keep_start_up_out_of_collections() -> None:
    """Objects made at start-up (modules, the open store) live as long as the process: the
    garbage collector's full passes stop walking them (`gc.freeze`). Measured in the tap
    benchmark: a full pass over the start-up heap took up to 67 ms, inside a tap."""
    gc.collect()
    gc.freeze()


def _exit_quietly_on_signals() -> None:
    """Ctrl-C or SIGTERM end the process with exit code 0 after the server stopped, through
    the `finally` that gives the data folder up (not by the default handler's sudden death)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)


def startup_text(bind: str, port: int, urls: list[str], key: str | None, web: bool,
                 folder: str) -> str:
    """What the server says at start: first the host address (the one a referee alone opens:
    it opens and creates games), then where it listens and the addresses phones can open."""
    local = f"http://127.0.0.1:{port}" if bind in ANY + ("127.0.0.1",) else urls[0]
    lines = [f"Vendetta Companion web server on {bind}:{port} (data folder {folder})."]
    if key is not None:
        lines.append("Open this host address in your own browser (it opens and creates games; "
                     "keep it private):")
        lines.append(f"  {host_url(local, key)}")
    if bind in ANY:
        lines.append("Listening on every network interface because --web was given: "
                     "devices on this network can open")
        lines += [f"  {u}/" for u in urls]
    elif not web:
        lines.append("No display found: serving this computer only (use --web to let "
                     "phones join).")
        lines.append(f"  {urls[0]}/")
    else:
        lines.append(f"Phones on this computer can open {urls[0]}/")
    lines.append("Phones join a table at the address shown on the host's screen (QR code).")
    return "\n".join(lines)
