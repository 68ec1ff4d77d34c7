"""Full, read-only and unreadable disks: nothing confirmed is lost, nothing shows a
traceback, the app keeps the game in memory and saves it once the disk accepts it.

Real disks where this machine allows: a tiny tmpfs (filled up, then remounted read-only) needs
root and mount rights, and is skipped without them; the same full-disk story also runs
everywhere by making os.write answer ENOSPC in a child process.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.library.library import Library
from companion.library.session import GameSession
from companion.rules.game import Game
from companion.storage import TinyDBGameStore
from tests.process_helpers import ENV, ROOT, cli, real_game
from tests.ui import click, find, has, texts
from views.app import DataFolder, build

SCRIPT = json.loads((ROOT / "examples" / "four_players.json").read_text())
SETUP = SCRIPT["start"]["setup"]


def _mount(target: Path, options: str) -> bool:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
                          capture_output=True)
    return done.returncode == 0


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KB tmpfs of our own (skipped where mounting is not allowed)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and _mount(disk, "size=512k")):
        pytest.skip("needs root and mount rights for a tmpfs")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def fill(disk: Path) -> Path:
    """Fill the disk up to the last byte; returns the filler to delete later."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as err:
            assert err.errno == errno.ENOSPC
        try:
            while True:
                fh.write(b"\0")  # the last bytes of the last page too
        except OSError as err:
            assert err.errno == errno.ENOSPC
    return filler


def playing(folder: Path, n: int) -> GameSession:
    svc = GameSession(TinyDBGameStore(folder))
    from models.setup import GameSetup

    svc.new_game(GameSetup.model_validate(SETUP))
    for command in SCRIPT["actions"][:n]:
        svc.play(command)
    return svc


def test_full_disk_in_the_app_keeps_the_game_and_saves_it_later(tiny_disk: Path) -> None:
    folder = tiny_disk / "data"
    svc = playing(folder, 10)
    app = build(svc)
    app.go("game")
    svc = app.session  # the table's session: it keeps the unsaved actions
    filler = fill(tiny_disk)
    n = 10
    while not svc.unsaved:  # the journal fills its last page, then the disk says no
        app.play(SCRIPT["actions"][n])
        n += 1
        assert n < 60
    for command in SCRIPT["actions"][n:n + 3]:
        app.play(command)
    n += 3
    app.undo()
    assert len(app.game.actions) == n - 1 and app.error is None  # played on, in memory
    assert has(app.root, "save-problem")
    assert any("the disk is full" in t for t in texts(app.root))
    on_disk = TinyDBGameStore(folder, read_only=True).load(app.game.header.game_id)
    prefix = Game.from_journal(on_disk.header, on_disk.entries, verify=True)
    played = [e for e in on_disk.entries if e["kind"] != "clock"]  # the table started a clock
    assert len(played) + len(svc.unsaved) == n + 1  # a prefix, then the rest queued
    assert prefix.actions == app.game.actions[:len(prefix.actions)]
    click(app.root, "retry-save")
    assert svc.unsaved and has(app.root, "save-problem")  # still full
    filler.unlink()
    click(app.root, "retry-save")
    assert not svc.unsaved and not has(app.root, "save-problem")
    expected = app.game.state
    svc.store.close()
    again = GameSession(TinyDBGameStore(folder)).open_game(app.game.header.game_id)
    assert again.state == expected and len(again.actions) == n - 1


def test_full_disk_refuses_cli_writes_and_leaves_nothing_behind(tiny_disk: Path,
                                                                tmp_path: Path) -> None:
    folder = tiny_disk / "data"
    playing(folder, 5).store.close()
    game = tmp_path / "game.json"
    game.write_text(json.dumps(real_game("big")))
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps({"format": "vendetta-companion/backup", "schema_version": 1,
                                  "games": [real_game(f"b{i}") for i in range(3)]}))
    fill(tiny_disk)
    before = sorted(p.name for p in folder.rglob("*"))
    for args in (("games", "import", str(game)), ("games", "restore", str(backup))):
        done = cli(*args, "--data-dir", str(folder))
        assert done.returncode == 4, done
        assert "the disk is full" in done.stderr and done.stderr.count("\n") == 1
    assert sorted(p.name for p in folder.rglob("*")) == before  # no temp file, no restore/
    listed = cli("games", "list", "--data-dir", str(folder))
    assert listed.returncode == 0 and listed.stderr == ""


def test_full_disk_in_the_data_page_changes_nothing(tiny_disk: Path, tmp_path: Path) -> None:
    """a restore and an automatic backup from the app on a full disk are refused
    in one line; the staged restore leaves nothing behind; the restore succeeds once there is
    room, all of it."""
    from companion.library.backups import AutoBackups, backup_file
    from views.data_page import check_file, confirm, on_auto_now

    folder = tiny_disk / "data"
    svc = playing(folder, 5)
    source = Library(TinyDBGameStore(tmp_path / "source"))
    source.restore_backup({"format": "vendetta-companion/backup", "schema_version": 1,
                           "games": [real_game(f"b{i}") for i in range(3)]})
    app = build(svc)
    app.go("data")
    check_file(app, *backup_file(source))
    filler = fill(tiny_disk)
    before = sorted(str(p) for p in folder.rglob("*") if p.is_file())
    confirm(app)
    assert "the disk is full" in str(app.error) and "Nothing was changed" in str(app.error)
    with pytest.raises(OSError):
        AutoBackups.of(svc).write()
    with ThreadPoolExecutor(1) as pool:  # a loop of its own (a browser test may run one here)
        pool.submit(asyncio.run, on_auto_now(app)).result()
    assert "No backup written: the disk is full" in str(app.error)
    assert sorted(str(p) for p in folder.rglob("*") if p.is_file()) == before  # no temp file
    assert len(svc.store.list_games()) == 1
    filler.unlink()
    confirm(app)
    assert app.error is None and len(svc.store.list_games()) == 4


def test_read_only_disk(tiny_disk: Path, tmp_path: Path) -> None:
    """The data folder seen through a read-only mount (bind, remounted ro)."""
    svc = playing(tiny_disk / "data", 5)
    gid = svc.game.header.game_id
    svc.store.close()
    folder = tmp_path / "ro"
    folder.mkdir()
    subprocess.run(["mount", "--bind", str(tiny_disk / "data"), str(folder)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        listed = cli("games", "list", "--data-dir", str(folder))
        assert listed.returncode == 0 and gid in listed.stdout
        game = tmp_path / "game.json"
        game.write_text(json.dumps(real_game("new")))
        done = cli("games", "import", str(game), "--data-dir", str(folder))
        assert done.returncode == 4 and "read-only" in done.stderr, done
        assert done.stderr.count("\n") == 1
        exported = cli("games", "export", gid, str(tmp_path / "out.json"),
                       "--data-dir", str(folder))
        assert exported.returncode == 0 and json.loads((tmp_path / "out.json").read_text())
        data = DataFolder(folder)
        assert data.try_open() is None and data.library is not None  # opened read-only
        assert data.library.read_only and data.read_only_reason
        app = build(data.library, None, data)
        shown = " ".join(texts(app.root))
        assert "This data folder is read-only: you can review games, not play or change " \
               "them" in shown and str(folder) in shown
        assert find(app.root, "new-game").disabled and not has(app.root, "game-0")
        click(app.root, "review-0")
        assert app.screen == "review"
        app.go("data")
        assert find(app.root, "data-read-only").value == (  # type: ignore[attr-defined]
            f"Review only here: this data folder is read-only: you can review games, not "
            f"play or change them ({folder}); restoring and importing are not possible.")
        data.close()
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


ENOSPC_CHILD = """
import errno, json, os, sys
from companion.library.session import GameSession
from companion.storage import TinyDBGameStore
from models.setup import GameSetup
script = json.load(open(sys.argv[2]))
svc = GameSession(TinyDBGameStore(sys.argv[1]))
game = svc.new_game(GameSetup.model_validate(script["start"]["setup"]))
actions = script["actions"]
for command in actions[:8]:
    svc.play(command)
real_write = os.write
def full(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")
os.write = full
for command in actions[8:14]:
    svc.play(command)
svc.undo()
print(json.dumps({"unsaved": len(svc.unsaved), "error": svc.save_error,
                  "retry": svc.retry_save()}), flush=True)
os.write = real_write
print(json.dumps({"retry": svc.retry_save(), "unsaved": len(svc.unsaved),
                  "actions": len(game.actions), "id": game.header.game_id}), flush=True)
svc.store.close()
"""


def test_simulated_full_disk_in_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", ENOSPC_CHILD, str(tmp_path),
                           str(ROOT / "examples" / "four_players.json")], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    full, freed = (json.loads(line) for line in done.stdout.splitlines())
    assert full == {"unsaved": 7, "error": "the disk is full", "retry": False}
    assert freed["retry"] and freed["unsaved"] == 0 and freed["actions"] == 13
    store = TinyDBGameStore(tmp_path, read_only=True)
    stored = store.load(freed["id"])
    assert len(Game.from_journal(stored.header, stored.entries, verify=True).actions) == 13
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("broken", ["games", "data"])
def test_unopenable_data_folder_starts_on_an_error_screen(tmp_path: Path, broken: str) -> None:
    folder = tmp_path / "data"
    playing(folder, 3).store.close()
    if broken == "data":
        shutil.rmtree(folder)
        folder.write_text("not a folder")
        bad = folder
    else:
        bad = folder / broken
        shutil.rmtree(bad)
        bad.write_text("not a folder")
    data = DataFolder(folder)
    problem = data.try_open()
    assert problem is not None and not problem.busy
    assert str(bad) in problem.message and "is a file" in problem.message
    app = build(data.library, problem, data)
    shown = " ".join(texts(app.root))
    assert "The data folder cannot be used" in shown and str(bad) in shown
    assert has(app.root, "problem-retry")
    bad.unlink()  # the user fixes it, then taps Try again
    if broken == "data":
        folder.mkdir()
    click(app.root, "problem-retry")
    assert app.problem is None and has(app.root, "new-game")
    data.close()
    done = cli("games", "list", "--data-dir", str(bad.parent / "x" / "y"))
    assert done.returncode == 0  # a folder that does not exist yet: nothing to list


NOBODY = """
import sys
from views.app import DataFolder
from companion.library.session import GameSession
problem = DataFolder(sys.argv[1]).try_open()
print(problem.message if problem else "opened")
"""


@pytest.mark.skipif(not (hasattr(os, "geteuid") and os.geteuid() == 0
                         and shutil.which("setpriv")), reason="needs root and setpriv")
def test_unreadable_data_folder_for_a_real_user(tmp_path: Path) -> None:
    """Root reads everything, so the app runs as `nobody` here, on a folder it may not read."""
    base = Path(tempfile.mkdtemp(prefix="vendetta-perm-"))
    try:
        base.chmod(0o755)
        folder = base / "data"
        playing(folder, 3).store.close()
        folder.chmod(0o700)  # root's; nobody may not enter
        as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        done = subprocess.run([*as_nobody, sys.executable, "-c", NOBODY, str(folder)],
                              cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert str(folder) in done.stdout and "permission denied" in done.stdout
        listed = subprocess.run([*as_nobody, sys.executable, "-m", "companion.cli.main", "games",
                                 "list", "--data-dir", str(folder)], cwd=ROOT, env=ENV,
                                capture_output=True, text=True, timeout=60)
        assert listed.returncode == 4 and "permission denied" in listed.stderr
        assert "Traceback" not in listed.stderr
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_queued_actions_reach_the_disk_without_a_tap(tiny_disk: Path) -> None:
    """The disk fills while playing; space comes back and nobody taps: the background retry
    writes the queue within a few seconds and the banner goes by itself."""
    from models.setup import GameSetup
    from views.app import RETRY_SAVE_EVERY

    data = DataFolder(tiny_disk / "data")
    assert data.try_open() is None and data.library is not None
    gid = GameSession(data.library.store).new_game(GameSetup.model_validate(SETUP)).header.game_id
    app = build(data.library, None, data)
    app.open_game(gid)
    data.keep_saving()
    svc = app.session  # the table's
    for command in SCRIPT["actions"][:10]:
        app.play(command)
    filler = fill(tiny_disk)
    n = 10
    while len(svc.unsaved) < 3:  # the journal fills its last page, then the disk says no
        app.play(SCRIPT["actions"][n])
        n += 1
        assert n < 60
    assert has(app.root, "save-problem") and app.error is None
    time.sleep(RETRY_SAVE_EVERY + 0.5)
    assert len(svc.unsaved) >= 3  # still full: still queued, in order
    filler.unlink()
    freed = time.monotonic()
    while svc.unsaved and time.monotonic() - freed < 10:
        time.sleep(0.05)
    waited = time.monotonic() - freed
    assert not svc.unsaved and waited < RETRY_SAVE_EVERY + 1.5, waited
    assert not has(app.root, "save-problem")  # drawn again by itself
    stored = TinyDBGameStore(tiny_disk / "data", read_only=True).load(gid)
    assert len(Game.from_journal(stored.header, stored.entries, verify=True).actions) == n
    data.close()


BACKGROUND_CHILD = """
import errno, json, os, sys, time
from views.app import DataFolder
from companion.library.session import GameSession
from models.setup import GameSetup
script = json.load(open(sys.argv[2]))
data = DataFolder(sys.argv[1])
data.try_open()
game = GameSession(data.library.store).new_game(GameSetup.model_validate(script["start"]["setup"]))
table = data.hub.open_table(game.header.game_id)
for command in script["actions"][:8]:
    table.session.play(command)
data.keep_saving(0.5)
real_write = os.write
def full(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")
os.write = full
for command in script["actions"][8:12]:
    table.session.play(command)
queued = len(table.session.unsaved)
time.sleep(1.2)
still = len(table.session.unsaved)
os.write = real_write
freed = time.monotonic()
while table.session.unsaved and time.monotonic() - freed < 10:
    time.sleep(0.02)
print(json.dumps({"queued": queued, "still": still, "left": len(table.session.unsaved),
                  "waited": time.monotonic() - freed, "id": game.header.game_id}))
data.close()
"""


def test_simulated_full_disk_saved_in_the_background(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", BACKGROUND_CHILD, str(tmp_path),
                           str(ROOT / "examples" / "four_players.json")], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["queued"] == seen["still"] == 4 and seen["left"] == 0
    assert seen["waited"] < 1.5, seen
    stored = TinyDBGameStore(tmp_path, read_only=True).load(seen["id"])
    assert len(Game.from_journal(stored.header, stored.entries, verify=True).actions) == 12


def test_a_host_key_that_cannot_be_stored_is_one_line(tiny_disk: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    from companion.table.hub import TableHub

    store = TinyDBGameStore(tiny_disk / "data")
    fill(tiny_disk)
    with caplog.at_level(logging.WARNING, logger="companion.table.hub"):
        hub = TableHub(store)
    assert hub.host_key and not (tiny_disk / "data" / "tables" / "host-key").exists()
    [said] = [r for r in caplog.records if "host key" in r.getMessage()]
    assert said.exc_info is None and "\n" not in said.getMessage()
    assert "the disk is full" in said.getMessage() and "at the next start" in said.getMessage()
    store.close()


def test_queued_actions_are_written_when_the_app_comes_back(tiny_disk: Path) -> None:
    """Back in the foreground (the phone unlocked, the window shown): the queue is written at
    once, not at the next periodic try."""
    import flet as ft

    from models.setup import GameSetup
    from tests.fake_page import FakePage
    from views.app import create_app

    data = DataFolder(tiny_disk / "data")
    assert data.try_open() is None and data.library is not None
    data.keep_saving(every=60)  # the periodic try is far away
    gid = GameSession(data.library.store).new_game(GameSetup.model_validate(SETUP)).header.game_id
    page = FakePage()
    page.web = False  # the desktop window: its own host
    create_app(data)(page)  # type: ignore[arg-type]
    app = page.data
    app.seen_after = 0  # taps at once
    app.open_game(gid)
    assert app.table is not None, app.error
    svc = app.session
    filler = fill(tiny_disk)
    n = 0
    while not svc.unsaved:
        app.play(SCRIPT["actions"][n])
        n += 1
        assert n < 60 and app.error is None, app.error
    filler.unlink()
    page.on_app_lifecycle_state_change(SimpleNamespace(state=ft.AppLifecycleState.HIDE))
    time.sleep(0.3)
    assert svc.unsaved  # hidden: nothing tried
    page.on_app_lifecycle_state_change(SimpleNamespace(state=ft.AppLifecycleState.RESUME))
    deadline = time.monotonic() + 3
    while svc.unsaved and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not svc.unsaved and not has(app.root, "save-problem")
    data.close()
