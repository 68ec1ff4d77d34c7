"""The GameStore contract, on both implementations, and TinyDB-store persistence/recovery."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from companion.storage import (
    GameDamaged,
    GameExists,
    GameNotFound,
    GameStore,
    MemoryGameStore,
    TinyDBGameStore,
)
from companion.storage.files import JournalDamaged, read_journal
from tests.storage_helpers import entry, header, summary


@pytest.fixture(params=["memory", "tinydb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> GameStore:
    if request.param == "memory":
        return MemoryGameStore()
    return TinyDBGameStore(tmp_path / "data")


def test_create_append_load(store: GameStore) -> None:
    store.create_game(header("g1"), summary(0))
    for i in range(5):
        store.append("g1", entry(i), summary(i + 1, rnd=i // 2 + 1) if i % 2 else None)
    store.append("g1", {"kind": "undo"})
    store.append("g1", {"kind": "redo"})
    game = store.load("g1")
    assert game.header == header("g1")
    assert game.entries == [entry(i) for i in range(5)] + [{"kind": "undo"}, {"kind": "redo"}]
    assert game.summary == summary(4, rnd=2)
    assert game.game_id == "g1"


def test_refusals(store: GameStore) -> None:
    store.create_game(header("g1"), summary())
    with pytest.raises(GameExists):
        store.create_game(header("g1"), summary())
    with pytest.raises(GameNotFound):
        store.append("nope", entry(0))
    with pytest.raises(GameNotFound):
        store.load("nope")
    with pytest.raises(GameNotFound):
        store.delete_game("nope")
    for bad in ({"kind": "jump"}, {"command": {}}, {"kind": "action", "events": {}},
                {"kind": "action", "x": float("nan")}):
        with pytest.raises(ValueError):
            store.append("g1", bad)
    for bad_id in ("../x", "/abs", "a\x00b", "x" * 65, "", "con", "a.b"):
        with pytest.raises(ValueError):
            store.create_game({**header("ok"), "game_id": bad_id}, summary())
    with pytest.raises(ValueError):
        store.create_game({**header("g2"), "schema_version": 99}, summary())
    with pytest.raises(ValueError):
        store.create_game(header("g2"), {**summary(), "round": -1})
    assert store.load("g1").entries == []


def test_list_delete_and_catalogue(store: GameStore) -> None:
    store.create_game(header("old"), summary(1, finished=True))
    store.create_game(header("mid"), summary(2))
    store.create_game(header("new"), summary(3))
    store.append("old", entry(0), summary(10, finished=True))
    assert [s["game_id"] for s in store.list_games()] == ["old", "new", "mid"]
    assert [s["game_id"] for s in store.list_games(finished=False)] == ["new", "mid"]
    assert [s["game_id"] for s in store.list_games(finished=True)] == ["old"]
    assert [s["game_id"] for s in store.list_games(limit=2)] == ["old", "new"]
    listed = store.list_games()
    listed[0]["players"].append("X")  # copies: mutating them changes nothing
    assert store.list_games()[0]["players"] == ["Ann", "Bo", "Cy", "Di"]
    store.delete_game("mid")
    assert not store.has_game("mid")
    assert [s["game_id"] for s in store.list_games()] == ["old", "new"]
    assert store.load_catalogue() == {}
    store.save_catalogue({"cards": [{"name": "Victim", "blood": 3}]})
    assert store.load_catalogue() == {"cards": [{"name": "Victim", "blood": 3}]}
    with pytest.raises(ValueError):
        store.save_catalogue({"x": {1, 2}})  # type: ignore[dict-item]
    assert store.damaged() == []


def test_threads_serialize_writes(store: GameStore) -> None:
    for t in range(4):
        store.create_game(header(f"t{t}"), summary())

    def work(t: int) -> None:
        for i in range(50):
            store.append(f"t{t}", entry(i), summary(i))
            store.append("t0", {"kind": "undo"})

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for t in range(1, 4):
        assert store.load(f"t{t}").entries == [entry(i) for i in range(50)]
    assert len(store.load("t0").entries) == 250


def test_reopen_keeps_everything(tmp_path: Path) -> None:
    with TinyDBGameStore(tmp_path) as store:
        store.create_game(header("a"), summary(0))
        store.append("a", entry(0), summary(5, rnd=2))
        store.create_game(header("b"), summary(1))
        store.save_catalogue({"v": 1})
    store = TinyDBGameStore(tmp_path)
    assert {s["game_id"]: s["round"] for s in store.list_games()} == {"a": 2, "b": 1}
    assert store.load("a").entries == [entry(0)]
    assert store.load_catalogue() == {"v": 1}
    assert not list((tmp_path / "dirty").iterdir())


def test_crash_without_close_recovers_summaries(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    store.create_game(header("a"), summary(0))
    store.create_game(header("b"), summary(0))
    store.close()
    store = TinyDBGameStore(tmp_path)
    store.append("a", entry(0), summary(7, rnd=3, finished=True))  # marker written
    store.create_game(header("c"), summary(8))  # not in the index yet
    store.delete_game("b")  # still in the index
    assert (tmp_path / "dirty" / "a").exists()
    del store  # "killed": no close, no flush
    store = TinyDBGameStore(tmp_path)
    listed = {s["game_id"]: s for s in store.list_games()}
    assert set(listed) == {"a", "c"}
    assert listed["a"]["round"] == 3 and listed["a"]["finished"] is True
    assert not list((tmp_path / "dirty").iterdir())


def test_torn_last_line_dropped_then_repaired(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    store.create_game(header("g"), summary())
    store.append("g", entry(0))
    store.close()
    journal = tmp_path / "games" / "g.jsonl"
    with journal.open("ab") as fh:
        fh.write(b'{"entry":{"kind":"act')  # a write cut short by a kill
    store = TinyDBGameStore(tmp_path)
    assert store.load("g").entries == [entry(0)]
    assert store.damaged() == []
    store.append("g", entry(1))
    assert store.load("g").entries == [entry(0), entry(1)]
    assert journal.read_bytes().count(b"\n") == 3


def test_open_removes_orphaned_temp_files_and_rebuilds_missing_index(tmp_path: Path) -> None:
    with TinyDBGameStore(tmp_path) as store:
        store.create_game(header("a"), summary(3, finished=True))
    (tmp_path / ".catalogue.json.123.abcd.tmp").write_text("{")
    (tmp_path / "games" / ".a.jsonl.1.ff.tmp").write_text("x")
    shutil.rmtree(tmp_path / "index")
    store = TinyDBGameStore(tmp_path)
    assert [s["game_id"] for s in store.list_games()] == ["a"]
    assert not list(tmp_path.rglob("*.tmp"))
    assert (tmp_path / "index" / "manifest.json").exists()


def test_every_cut_of_a_journal_reads_as_a_prefix(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    store.create_game(header("g"), summary())
    for i in range(4):
        store.append("g", entry(i), summary(i, rnd=i + 1))
    journal = tmp_path / "games" / "g.jsonl"
    data = journal.read_bytes()
    first = data.index(b"\n") + 1
    cut_file = tmp_path / "cut.jsonl"
    ends = [i for i, byte in enumerate(data) if byte == ord("\n")]
    cuts = set(range(0, len(data) + 1, 7)) | {e + d for e in ends for d in (-1, 0, 1, 2)}
    for cut in sorted(c for c in cuts if 0 <= c <= len(data)):
        cut_file.write_bytes(data[:cut])
        if cut < first:
            with pytest.raises(JournalDamaged):
                read_journal(cut_file)
            continue
        _, entries, last = read_journal(cut_file)
        n = data[:cut].count(b"\n") - 1
        assert entries == [entry(i) for i in range(n)]
        assert last == (summary(n - 1, rnd=n) if n else summary())


def test_load_of_unreadable_path_is_damage(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    store.create_game(header("g"), summary(finished=True))
    journal = tmp_path / "games" / "g.jsonl"
    journal.unlink()
    journal.mkdir()  # reading it fails with an OSError other than "not found"
    with pytest.raises(GameDamaged):
        store.load("g")
    assert store.damaged()[0].game_id == "g" and not journal.exists()
