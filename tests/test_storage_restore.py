"""Restores validate every part like an import and are all or nothing, even across a crash;
ids differing only in case never name two games."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.library.library import Library
from companion.storage import (
    BACKUP_FORMAT,
    CURRENT_SCHEMA_VERSION,
    GameExists,
    ImportRefused,
    MemoryGameStore,
    TinyDBGameStore,
)
from tests.process_helpers import ENV, ROOT, cli, real_game
from tests.storage_helpers import game_doc, header, summary

OLD_CATALOGUE = {"version": 1, "allies": [{"id": "AL14", "feed": 0}]}
NEW_CATALOGUE = {"version": 1, "allies": [{"id": "AL30", "feed": 1}]}


def backup(games: list[dict], catalogue: dict | None = None) -> dict:
    doc = {"format": BACKUP_FORMAT, "schema_version": CURRENT_SCHEMA_VERSION,
           "created": "2024-01-01T00:00:00+00:00", "games": games}
    if catalogue is not None:
        doc["catalogue"] = catalogue
    return doc


def existing(folder: Path) -> None:
    with TinyDBGameStore(folder) as store:
        store.create_game(header("old-1"), summary(1))
        store.create_game(header("old-2"), summary(2, finished=True))
        store.save_catalogue(OLD_CATALOGUE)


def state_of(folder: Path, read_only: bool = False) -> tuple[set[str], dict]:
    store = TinyDBGameStore(folder, read_only=read_only)
    try:
        ids = {s["game_id"] for s in store.list_games()}
        for gid in ids:
            store.load(gid)  # every listed game reads back whole
        return ids, store.load_catalogue()
    finally:
        store.close()


CRASHING_CHILD = """
import json, os, sys
from companion.storage import TinyDBGameStore
store = TinyDBGameStore(sys.argv[1])
doc = json.load(open(sys.argv[2]))
left = int(sys.argv[3])
def dying(real):
    def step(*args):
        global left
        if left == 0:
            os._exit(9)  # dies like a SIGKILL: no cleanup, no flush
        left -= 1
        return real(*args)
    return step
os.replace, os.fsync = dying(os.replace), dying(os.fsync)  # every durable step of a restore
store.import_backup(doc)
print("done", flush=True)
"""

NEW_IDS = {f"new-{i}" for i in range(5)}


def test_a_crash_at_every_step_of_a_restore_is_all_or_nothing(tmp_path: Path) -> None:
    doc = tmp_path / "backup.json"
    doc.write_text(json.dumps(backup([game_doc(g) for g in sorted(NEW_IDS)], NEW_CATALOGUE)))
    seen = set()
    for step in range(40):
        folder = tmp_path / f"data{step}"
        existing(folder)
        done = subprocess.run([sys.executable, "-c", CRASHING_CHILD, str(folder), str(doc),
                               str(step)], cwd=ROOT, env=ENV, capture_output=True, text=True)
        finished = done.stdout == "done\n"
        assert finished or done.returncode == 9, done.stderr
        # a reader before anyone finishes the restore, then the next writer
        for read_only in (True, False):
            ids, catalogue = state_of(folder, read_only)
            if ids == {"old-1", "old-2"}:
                assert catalogue == OLD_CATALOGUE, step
                seen.add("nothing")
            else:
                assert ids == {"old-1", "old-2"} | NEW_IDS and catalogue == NEW_CATALOGUE, step
                seen.add("all")
        assert not (folder / "restore").exists()
        if finished:
            break
    assert finished and seen == {"nothing", "all"} and step >= 15  # every step was a crash


KILLED_CHILD = """
import json, sys
from companion.storage import TinyDBGameStore
store = TinyDBGameStore(sys.argv[1])
doc = json.load(open(sys.argv[2]))
print("open", flush=True)
store.import_backup(doc)
print("done", flush=True)
store.close()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_restore_then_reopen_is_all_or_nothing(tmp_path: Path) -> None:
    ids = {f"k-{i:03}" for i in range(120)}
    doc = tmp_path / "backup.json"
    doc.write_text(json.dumps(backup([game_doc(g, 3) for g in sorted(ids)], NEW_CATALOGUE)))
    folder = tmp_path / "timing"
    existing(folder)
    run = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(folder), str(doc)],
                           cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True)
    assert run.stdout and run.stdout.readline() == "open\n"
    start = time.monotonic()
    assert run.stdout.readline() == "done\n"
    duration = time.monotonic() - start
    run.wait()
    rng = random.Random(10)
    outcomes = []
    for trial in range(16):
        folder = tmp_path / f"kill{trial}"
        existing(folder)
        kid = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(folder), str(doc)],
                               cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True)
        assert kid.stdout and kid.stdout.readline() == "open\n"
        time.sleep(rng.uniform(0, duration * 1.1))
        kid.kill()
        kid.wait()
        got, catalogue = state_of(folder)
        if got == {"old-1", "old-2"}:
            assert catalogue == OLD_CATALOGUE
            outcomes.append("nothing")
        else:
            assert got == {"old-1", "old-2"} | ids and catalogue == NEW_CATALOGUE
            outcomes.append("all")
    print(f"restore of {len(ids)} games took {duration * 1000:.0f} ms; kills: {outcomes}")
    assert outcomes.count("nothing") + outcomes.count("all") == 16


def test_restore_refuses_a_catalogue_that_import_refuses(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    existing(folder)
    bad = {"clan_cards": [{"id": "BR-HUNT", "clan": "Brujah", "power": -1}]}
    doc = tmp_path / "backup.json"
    doc.write_text(json.dumps(backup([real_game("fine")], bad)))
    before = state_of(folder)
    done = cli("games", "restore", str(doc), "--data-dir", str(folder))
    assert done.returncode == 1
    assert done.stderr.startswith("games restore refused: catalogue: clan_cards[0] (card "
                                  "BR-HUNT).power")
    assert state_of(folder) == before  # not even the good game
    single = tmp_path / "cat.json"
    single.write_text(json.dumps(bad))
    assert cli("catalogue", "import", str(single), "--data-dir", str(folder)).returncode == 1
    doc.write_text(json.dumps(backup([real_game("fine")], NEW_CATALOGUE)))
    done = cli("games", "restore", str(doc), "--data-dir", str(folder))
    assert (done.returncode, done.stdout) == (0, "restored 1 game(s)\n")
    assert state_of(folder)[1] == NEW_CATALOGUE
    assert cli("catalogue", "show", "--data-dir", str(folder)).returncode == 0


def test_restore_replays_every_game_through_the_engine(tmp_path: Path) -> None:
    tampered = real_game("tampered")
    tampered["entries"][3]["events"][0]["clan"] = "Ventrue"  # Cleo picked Nosferatu
    svc = Library(MemoryGameStore())
    with pytest.raises(ImportRefused, match=r"games\[1\]: entries\[3\]"):
        svc.restore_backup(backup([real_game("good"), tampered]))
    assert svc.store.list_games() == []


def test_an_oversized_catalogue_is_refused_early(tmp_path: Path) -> None:
    huge = {"allies": [{"id": f"A{i}", "text": "x" * 290} for i in range(4000)]}
    svc = Library(MemoryGameStore())
    with pytest.raises(ImportRefused, match="catalogue: larger than 1 MB"):
        svc.restore_backup(backup([], huge))
    big = tmp_path / "big.json"
    with big.open("w") as fh:
        json.dump({"allies": [{"id": f"A{i}", "text": "x" * 290} for i in range(180_000)]}, fh)
    assert big.stat().st_size > 50 * 1024 * 1024
    start = time.monotonic()
    done = cli("catalogue", "import", str(big), "--data-dir", str(tmp_path / "d"))
    assert done.returncode == 2 and "larger than 1 MB" in done.stderr
    assert time.monotonic() - start < 10
    many = {"allies": [{"id": f"A{i}"} for i in range(501)]}
    with pytest.raises(ValueError, match="allies"):
        svc.import_catalogue(many)


def test_two_restores_at_once_never_both_win(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    docs = []
    for name, example, cat in (("a", "three_players", OLD_CATALOGUE),
                               ("b", "four_players", NEW_CATALOGUE)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(backup([real_game("dup", example)], cat)))
        docs.append(path)
    procs = [subprocess.Popen([sys.executable, "-m", "companion.cli.main", "games", "restore",
                               str(p), "--data-dir", str(folder)], cwd=ROOT, env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for p in docs]
    results = [(p.wait(60), *p.communicate()) for p in procs]
    codes = sorted(r[0] for r in results)
    assert codes in ([0, 1], [0, 3]), results
    winner = next(i for i, r in enumerate(results) if r[0] == 0)
    loser = results[1 - winner]
    assert "Traceback" not in loser[2] and loser[2].count("\n") == 1
    if loser[0] == 1:
        assert "a different game with game_id 'dup' is already stored" in loser[2]
    store = TinyDBGameStore(folder, read_only=True)
    want = json.loads(docs[winner].read_text())
    assert store.load("dup").entries == want["games"][0]["entries"]
    assert store.load_catalogue() == want["catalogue"]


def test_ids_differing_only_in_case_never_name_two_games(tmp_path: Path) -> None:
    for store in (MemoryGameStore(), TinyDBGameStore(tmp_path)):
        store.create_game(header("game1"), summary())
        with pytest.raises(GameExists, match="differs only in case"):
            store.create_game(header("GAME1"), summary())
        with pytest.raises(ImportRefused, match="differs only in case from 'game1'"):
            store.import_game(game_doc("Game1"))
        with pytest.raises(ImportRefused, match=r"games\[1\]: .*differs only in case"):
            store.import_backup(backup([game_doc("abc"), game_doc("ABC")]))
        assert {s["game_id"] for s in store.list_games()} == {"game1"}
        store.close()
