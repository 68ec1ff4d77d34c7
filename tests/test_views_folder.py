"""The app and its data folder: a second app is told where the running one is and
may review read-only; the folder is taken once per process, flushed when a session ends and
given up when the server stops."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from companion.library.library import Library
from companion.storage import FolderBusy, TinyDBGameStore, read_owner
from tests.fake_page import FakePage
from tests.process_helpers import ENV, ROOT, Holder, real_game
from tests.ui import click, find, has, texts
from views.app import DataFolder, build, create_app


def test_a_second_app_is_told_where_the_first_is_and_may_review(tmp_path: Path) -> None:
    with TinyDBGameStore(tmp_path) as store:
        Library(store).restore_backup({"format": "vendetta-companion/backup",
                                       "schema_version": 1,
                                       "games": [real_game("past"), real_game("other")]})
    holder = Holder(tmp_path, "web server", "http://table:8550")
    try:
        folder = DataFolder(tmp_path)
        page = FakePage()
        create_app(folder)(page)  # type: ignore[arg-type]
        assert folder.library is None and folder.problem and folder.problem.busy
        app = build(folder.library, folder.problem, folder)
        shown = " ".join(texts(app.root))
        assert f"pid {holder.pid}" in shown and "web server at http://table:8550" in shown
        click(app.root, "problem-retry")  # still held
        assert app.problem is not None and app.error == "Still not available."
        click(app.root, "problem-review")
        assert app.read_only and has(app.root, "read-only")
        assert has(app.root, "review-0") and has(app.root, "review-1")
        assert find(app.root, "new-game").disabled and not has(app.root, "game-0")
        click(app.root, "review-0")
        assert app.screen == "review"
    finally:
        holder.quit()
    assert folder.try_open() is None  # the first app was closed: a new session may write
    second = build(folder.library, folder.problem, folder)
    assert has(second.root, "new-game") and not second.read_only
    with_folder = FakePage()
    create_app(folder)(with_folder)  # type: ignore[arg-type]
    assert with_folder.on_disconnect is not None  # a session that ends flushes
    with_folder.on_disconnect(None)
    folder.close()
    assert read_owner(tmp_path) is None


def test_sessions_share_the_one_writable_service(tmp_path: Path) -> None:
    folder = DataFolder(tmp_path)
    assert folder.try_open() is None
    first = folder.library
    assert folder.try_open() is None and folder.library is first  # taken once per process
    a, b = build(first, None, folder), build(folder.library, None, folder)
    assert a.library is b.library
    folder.close()
    folder.close()  # idempotent
    TinyDBGameStore(tmp_path).close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_server_gives_the_folder_up_when_stopped(tmp_path: Path) -> None:
    port = _free_port()
    env = {**ENV, "FLET_FORCE_WEB_SERVER": "1", "FLET_WEB_NO_CDN": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "vendetta_companion", "--web", "--port",
                             str(port), "--data-dir", str(tmp_path)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read(64)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.2)
        owner = read_owner(tmp_path)
        assert owner and owner["pid"] == proc.pid and owner["role"] == "web server"
        assert owner["address"] == f"http://{socket.gethostname()}:{port}"
        try:
            TinyDBGameStore(tmp_path)
            raise AssertionError("the server does not hold its folder")
        except FolderBusy as busy:
            assert "web server at http://" in str(busy)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert read_owner(tmp_path) is None  # closed, not just killed
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    svc = Library(TinyDBGameStore(tmp_path))  # free at once
    svc.store.close()
    assert os.path.exists(tmp_path / ".lock")
