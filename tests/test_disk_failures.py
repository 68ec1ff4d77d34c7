"""Full, read-only and unreadable disks (issue 10): nothing confirmed is lost, nothing shows a
traceback, the app keeps the game in memory and saves it once the disk accepts it.

Real disks where this machine allows: a tiny tmpfs (filled up, then remounted read-only) needs
root and mount rights, and is skipped without them; the same full-disk story also runs
everywhere by making os.write answer ENOSPC in a child process.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.game import Game
from companion.service import Service
from companion.storage import TinyDBGameStore
from tests.process_helpers import ENV, ROOT, cli, real_game
from tests.ui import click, has, texts
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


def playing(folder: Path, n: int) -> Service:
    svc = Service(TinyDBGameStore(folder))
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
    svc = app.service  # the table's service: it keeps the unsaved actions
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
    again = Service(TinyDBGameStore(folder)).open_game(app.game.header.game_id)
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
    """Issue 13: a restore and an automatic backup from the app on a full disk are refused
    in one line; the staged restore leaves nothing behind; the restore succeeds once there is
    room, all of it."""
    from companion.backups import AutoBackups, backup_file
    from views.data_page import check_file, confirm, on_auto_now

    folder = tiny_disk / "data"
    svc = playing(folder, 5)
    source = Service(TinyDBGameStore(tmp_path / "source"))
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
        data = DataFolder(folder)
        problem = data.try_open()
        assert problem and not problem.busy and problem.readable
        assert "read-only" in problem.message and str(folder) in problem.message
        app = build(None, problem, data)
        assert has(app.root, "problem") and str(folder) in " ".join(texts(app.root))
        click(app.root, "problem-review")
        assert has(app.root, "review-0") and not has(app.root, "new-game")
        click(app.root, "review-0")
        assert app.screen == "review"
        data.close()
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


ENOSPC_CHILD = """
import errno, json, os, sys
from companion.service import Service
from companion.storage import TinyDBGameStore
from models.setup import GameSetup
script = json.load(open(sys.argv[2]))
svc = Service(TinyDBGameStore(sys.argv[1]))
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


@pytest.mark.parametrize("broken", ["games", "dirty", "data"])
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
    app = build(data.service, problem, data)
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
        listed = subprocess.run([*as_nobody, sys.executable, "-m", "companion.cli", "games",
                                 "list", "--data-dir", str(folder)], cwd=ROOT, env=ENV,
                                capture_output=True, text=True, timeout=60)
        assert listed.returncode == 4 and "permission denied" in listed.stderr
        assert "Traceback" not in listed.stderr
    finally:
        shutil.rmtree(base, ignore_errors=True)
