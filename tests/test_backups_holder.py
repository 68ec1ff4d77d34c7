"""Automatic backups with real processes: only the process that holds the data
folder writes them; a process that reviews it read-only (another app owns it) writes none and
leaves the folder exactly as it was, even after the owner is killed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.library.backups import AutoBackups, backup_file
from companion.library.library import Library
from companion.storage import TinyDBGameStore
from tests.process_helpers import ENV, ROOT, real_game, tree
from tests.ui import click, has, value
from views.app import DataFolder, build
from views.data_page import check_file, confirm

APP_PROCESS = """
import sys
from views.app import DataFolder
folder = DataFolder(sys.argv[1], role="web server", address="http://table:8550",
                    auto_backup=True)
assert folder.try_open() is None
assert folder.backup is not None
folder.backup.join()
print("ready", flush=True)
if sys.stdin.readline().strip() == "quit":
    folder.close()
    print("closed", flush=True)
"""


def start_app(folder: Path) -> subprocess.Popen:
    """An app process that takes the folder (writing its start-up backup) and waits."""
    proc = subprocess.Popen([sys.executable, "-c", APP_PROCESS, str(folder)], cwd=ROOT, env=ENV,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line == "ready", (line, proc.stderr.read() if proc.stderr else "")
    return proc


def seed(folder: Path, *ids: str) -> None:
    with TinyDBGameStore(folder) as store:
        Library(store).restore_backup({"format": "vendetta-companion/backup",
                                       "schema_version": 1,
                                       "games": [real_game(i) for i in ids]})


def test_only_the_folder_holder_writes_automatic_backups(tmp_path: Path) -> None:
    seed(tmp_path, "past", "other")
    owner = start_app(tmp_path)
    try:
        written = AutoBackups(Library(TinyDBGameStore(tmp_path, read_only=True)),
                              tmp_path / "backups").listing()
        assert [b.games for b in written] == [2]  # the holder's start-up backup
        before = tree(tmp_path)
        folder = DataFolder(tmp_path, auto_backup=True)
        problem = folder.try_open()
        assert problem is not None and problem.busy and folder.backup is None
        reader = folder.read_only()
        auto = AutoBackups.of(reader)
        assert auto.write(force=True) is None and auto.write_in_background() is None
        app = build(None, problem, folder)
        click(app.root, "problem-review")
        click(app.root, "data")
        assert app.read_only and has(app.root, "data-read-only")
        assert not has(app.root, "data-auto-now") and not has(app.root, "data-open")
        assert has(app.root, "auto-0") and not has(app.root, "auto-1")
        source = Library(TinyDBGameStore(tmp_path.parent / "elsewhere"))
        source.restore_backup({"format": "vendetta-companion/backup", "schema_version": 1,
                               "games": [real_game("new")]})
        check_file(app, *backup_file(source))
        assert "1 new here" in value(app.root, "data-preview-summary")
        confirm(app)  # the button is disabled; the path behind it refuses too
        assert "another app is using this data folder" in str(app.error)
        assert tree(tmp_path) == before  # no backup, no game, no lock taken
    finally:
        owner.kill()  # killed: it never gives the folder up itself
        owner.wait(10)
    assert auto.write(force=True) is None  # opened read-only: stays so with the owner gone
    assert tree(tmp_path) == before
    folder.close()
    second = start_app(tmp_path)  # a new holder: the data did not change, so no new backup
    assert second.stdin is not None
    second.stdin.write("quit\n")
    second.stdin.flush()
    assert second.communicate(timeout=30)[0].strip() == "closed"
    assert [b.name for b in AutoBackups.of(reader).listing()] == [written[0].name]
