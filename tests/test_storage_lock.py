"""One writer per data folder, with real processes: the second is refused and told
who holds the folder; readers read without changing anything; a killed holder frees it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.library.session import GameSession
from companion.storage import FolderBusy, ReadOnlyStore, TinyDBGameStore, read_owner
from companion.storage.files import read_journal
from tests.process_helpers import ENV, ROOT, Holder, cli, real_game, tree
from tests.storage_helpers import entry, header, summary


def test_a_second_writer_is_refused_and_told_who_holds_the_folder(tmp_path: Path) -> None:
    holder = Holder(tmp_path, "web server", "http://table:8550")
    try:
        with pytest.raises(FolderBusy) as refused:
            TinyDBGameStore(tmp_path)
        message = str(refused.value)
        assert f"pid {holder.pid}" in message and "web server at http://table:8550" in message
        assert socket.gethostname() in message and str(tmp_path) in message
        assert refused.value.owner and refused.value.owner["pid"] == holder.pid
        start = time.monotonic()
        with pytest.raises(FolderBusy):
            TinyDBGameStore(tmp_path, wait=0.3)  # waits, then gives up
        assert time.monotonic() - start >= 0.3
    finally:
        holder.quit()
    assert read_owner(tmp_path) is None  # the note goes with the lock
    TinyDBGameStore(tmp_path).close()  # free again


def test_one_process_holds_a_folder_once(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    with pytest.raises(FolderBusy):
        TinyDBGameStore(tmp_path)  # a second writable store in the same process
    store.close()
    with pytest.raises(ReadOnlyStore):
        store.create_game(header("late"), summary())  # closed: never writes without the lock
    TinyDBGameStore(tmp_path).close()


def test_a_reader_beside_the_writer_sees_its_games_and_changes_nothing(tmp_path: Path) -> None:
    holder = Holder(tmp_path)
    try:
        for gid in ("a", "b"):
            assert holder.send(f"create {gid}") == "ok"
        for n in range(3):
            assert holder.send(f"append a {n}") == "ok"
        # leftovers a reader must not "clean": the writer's in-flight temp file, a damaged
        # journal, a stray marker name
        (tmp_path / "games" / f".a.jsonl.{holder.pid}.beef.tmp").write_text("in flight")
        (tmp_path / "games" / "bad.jsonl").write_bytes(b"\x00garbage\n")
        (tmp_path / "dirty" / "not an id").write_text("")
        before = tree(tmp_path)
        reader = TinyDBGameStore(tmp_path, read_only=True)
        listed = {s["game_id"]: s for s in reader.list_games()}
        assert set(listed) == {"a", "b"}
        assert listed["a"]["round"] == 1 and reader.load("a").entries == [entry(i) for i in
                                                                         range(3)]
        assert [d.path.name for d in reader.damaged()] == ["bad.jsonl"]
        assert reader.damaged()[0].backup is None  # left in place
        with pytest.raises(ReadOnlyStore):
            reader.append("a", entry(9))
        with pytest.raises(ReadOnlyStore):
            reader.import_game({"format": "x"})
        reader.close()
        assert tree(tmp_path) == before  # not one file added, removed or rewritten
        assert holder.send("append a 3") == "ok"  # the writer goes on undisturbed
        assert (tmp_path / "games" / f".a.jsonl.{holder.pid}.beef.tmp").exists()
    finally:
        holder.quit()


def test_read_only_commands_work_while_the_app_holds_the_folder(tmp_path: Path) -> None:
    holder = Holder(tmp_path)
    try:
        holder.send("create live")
        holder.send("append live 15")  # a changed summary: a dirty marker (the app's to clear)
        before = tree(tmp_path)
        listed = cli("games", "list", "--data-dir", str(tmp_path))
        assert (listed.returncode, listed.stderr) == (0, "") and "live" in listed.stdout
        out = tmp_path.parent / "backup.json"
        backup = cli("games", "backup", str(out), "--data-dir", str(tmp_path))
        assert backup.returncode == 0 and json.loads(out.read_text())["games"]
        assert cli("catalogue", "show", "--data-dir", str(tmp_path)).returncode == 0
        assert tree(tmp_path) == before and (tmp_path / "dirty" / "live").exists()
    finally:
        holder.quit()


def test_cli_import_while_the_app_holds_the_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    doc = tmp_path / "imp.json"
    doc.write_text(json.dumps(real_game("imp")))
    holder = Holder(data, "desktop app", "")
    try:
        before = tree(data)
        start = time.monotonic()
        done = cli("games", "import", str(doc), "--data-dir", str(data))
        waited = time.monotonic() - start
        assert done.returncode == 3, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert f"desktop app (pid {holder.pid}" in done.stderr and "nothing was written" in \
            done.stderr
        assert waited >= 3  # it waited briefly for the folder first
        assert tree(data) == before
        restore = cli("games", "restore", str(doc), "--data-dir", str(data))
        catalogue = cli("catalogue", "import", str(doc), "--data-dir", str(data))
        assert restore.returncode == 3 and catalogue.returncode == 3
    finally:
        holder.quit()
    done = cli("games", "import", str(doc), "--data-dir", str(data))
    assert (done.returncode, done.stdout) == (0, "imported game imp\n")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    holder = Holder(tmp_path, "web server", "http://table:8550")
    holder.send("create g")
    holder.send("append g 0")
    (tmp_path / f".index.json.{holder.pid}.dead.tmp").write_text("{")  # its torn write
    holder.kill()
    assert read_owner(tmp_path)["pid"] == holder.pid  # the note stays behind, the lock not
    store = TinyDBGameStore(tmp_path)  # at once: the OS released the lock with the process
    assert read_owner(tmp_path)["pid"] == os.getpid()
    assert store.load("g").entries == [entry(0)]
    assert not list(tmp_path.rglob("*.tmp"))  # cleaned now that we hold the folder
    store.close()


SERVICE_CHILD = """
import json, sys
from companion.rules.game import Game
from companion.library.session import GameSession
from companion.library.games import summary
from companion.storage import FolderBusy, TinyDBGameStore
from models.setup import GameSetup
folder, gid = sys.argv[1], sys.argv[2]
script = json.load(open(sys.argv[3]))
sys.stdin.readline()  # both children start together
try:
    svc = GameSession(TinyDBGameStore(folder))
except FolderBusy:
    print("busy", flush=True)
    sys.exit(3)
print("open", flush=True)
sys.stdin.readline()  # holds the folder until the other one has tried too
if svc.store.has_game(gid):
    game = svc.open_game(gid)
else:
    game = Game.new(GameSetup.model_validate(script["start"]["setup"]), game_id=gid)
    svc.store.create_game(game.header_doc(), summary(game))
    svc.game = game
done = len(game.actions)
for command in script["actions"][done:done + 25]:
    svc.play(command)
print("played", len(svc.game.actions), flush=True)
svc.store.close()
"""


def test_two_app_processes_on_one_folder_never_share_a_journal(tmp_path: Path) -> None:
    """Both resume the same game at the same moment: one plays, the other is refused."""
    script = ROOT / "examples" / "four_players.json"
    for _ in range(4):
        kids = [subprocess.Popen([sys.executable, "-c", SERVICE_CHILD, str(tmp_path), "shared",
                                  str(script)], cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        for kid in kids:  # both start together (each waits for its "go")
            assert kid.stdin
            kid.stdin.write("go\n")
            kid.stdin.flush()
        said = [kid.stdout.readline().strip() if kid.stdout else "" for kid in kids]
        assert sorted(said) == ["busy", "open"], said
        owner = kids[said.index("open")]
        assert owner.stdin
        owner.stdin.write("play\n")
        owner.stdin.flush()
        results = [kid.communicate(timeout=60) for kid in kids]
        assert sorted(kid.returncode for kid in kids) == [0, 3], results
    store = TinyDBGameStore(tmp_path, read_only=True)
    stored = store.load("shared")
    from companion.rules.game import Game

    game = Game.from_journal(stored.header, stored.entries, verify=True)  # one writer: valid
    assert len(game.actions) == min(4 * 25, len(json.loads(script.read_text())["actions"]))
    _, _, last = read_journal(tmp_path / "games" / "shared.jsonl")
    assert last["phase"] == game.state.phase


def test_service_on_a_read_only_store_refuses_to_play(tmp_path: Path) -> None:
    with TinyDBGameStore(tmp_path):
        pass
    svc = GameSession(TinyDBGameStore(tmp_path, read_only=True))
    assert svc.read_only
    from models.setup import GameSetup, PlayerSetup

    with pytest.raises(ReadOnlyStore):
        svc.new_game(GameSetup(players=[PlayerSetup(name=n) for n in "ABC"], seed=1))
    assert svc.game is None
