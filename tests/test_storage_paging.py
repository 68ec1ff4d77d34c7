"""The history index: pages, search, counts, change counter, shards read only when needed,
the earlier one-file index, damaged index files, read-only readers."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.storage import MemoryGameStore, TinyDBGameStore, history
from companion.storage.files import AtomicJSONStorage, journal_bytes, latest_summary
from companion.storage.history import HistoryIndex
from tests.storage_helpers import entry, header, stamp

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]


def named(i: int, minutes: int | None = None, finished: bool | None = None) -> dict[str, Any]:
    """Game i's summary: three players (two common names and its own), updated at `minutes`."""
    done = i % 4 != 0 if finished is None else finished
    players = [NAMES[i % 5], NAMES[(i + 1) % 5], f"P{i}"]
    return {"players": players, "round": 1 + i % 3, "finished": done,
            "winner": players[0] if done else None, "created": stamp(0),
            "updated": stamp(i if minutes is None else minutes)}


def fill(store, n: int = 40) -> None:  # type: ignore[no-untyped-def]
    for i in range(n):
        store.create_game(header(f"g{i:03d}", i), named(i))


@pytest.fixture
def small_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shards of 8 games, 3 kept parsed: a few dozen games make many shards."""
    monkeypatch.setattr(history, "SHARD_SIZE", 8)
    monkeypatch.setattr(history, "KEEP_PARSED", 3)


@pytest.fixture(params=["memory", "files"])
def store(request, tmp_path: Path, small_shards: None):  # type: ignore[no-untyped-def]
    s = MemoryGameStore() if request.param == "memory" else TinyDBGameStore(tmp_path)
    fill(s)
    return s


def ids(rows: list[dict]) -> list[str]:
    return [r["game_id"] for r in rows]


def test_pages_counts_and_search(store) -> None:  # type: ignore[no-untyped-def]
    newest = [f"g{i:03d}" for i in range(39, -1, -1)]
    assert ids(store.list_games()) == newest
    assert ids(store.list_games(limit=5, offset=3)) == newest[3:8]
    assert ids(store.list_games(None, 5, offset=3)) == newest[3:8]  # positional still works
    assert ids(store.list_games(offset=38)) == newest[38:]
    assert store.list_games(offset=50, limit=5) == [] and store.list_games(limit=0) == []
    unfinished = [g for g in newest if int(g[1:]) % 4 == 0]
    assert ids(store.list_games(finished=False, limit=3, offset=1)) == unfinished[1:4]
    assert ids(store.list_games(False)) == unfinished
    assert store.count_games() == 40 and store.count_games(False) == len(unfinished)
    assert store.count_games(True) == 40 - len(unfinished)
    bo = [g for g in newest if "Bo" in named(int(g[1:]))["players"]]
    assert ids(store.list_games(query=" bO ")) == bo
    assert store.count_games(query="bo") == len(bo)
    assert ids(store.list_games(query="bo p11")) == ["g011"]
    assert ids(store.list_games(query="bo", limit=2, offset=1)) == bo[1:3]
    assert store.list_games(query="nobody") == [] and store.count_games(query="zz") == 0
    assert ids(store.list_games(True, 2, query="ann")) == [
        g for g in newest if int(g[1:]) % 4 and "Ann" in named(int(g[1:]))["players"]][:2]
    with pytest.raises(ValueError, match="negative"):
        store.list_games(offset=-1)
    page = store.list_games(limit=1)[0]
    page["players"].append("X")  # a copy: the store is unchanged
    assert store.list_games(limit=1)[0] == {**named(39), "game_id": "g039"}
    done = list(store.summaries(finished=True))
    assert len(done) == store.count_games(True) and all(s["finished"] for s in done)
    assert sorted(ids(list(store.summaries()))) == sorted(newest)
    chunks = store.summary_chunks(finished=False)
    assert sum(len(read()) for _, read in chunks) == len(unfinished)


def test_version_counts_summary_changes(store) -> None:  # type: ignore[no-untyped-def]
    v = store.version
    store.append("g001", entry(0))  # no summary: unchanged
    assert store.version == v
    store.append("g001", entry(1), named(1))  # same summary: unchanged
    assert store.version == v
    store.append("g001", entry(2), named(1, minutes=100))
    assert store.version > v and ids(store.list_games(limit=1)) == ["g001"]
    v = store.version
    store.delete_game("g002")
    assert store.version > v and store.count_games() == 39


def test_pages_follow_a_model_through_random_changes(tmp_path: Path, small_shards: None) -> None:
    """Random creates, moves (new keys, older or newer), finishes, deletes, checkpoints,
    reopenings and a kill: every page, count and search equals an in-memory store's."""
    rng = random.Random(12)
    store, model = TinyDBGameStore(tmp_path), MemoryGameStore()
    made = 0

    def check(s: TinyDBGameStore) -> None:
        for finished in (None, True, False):
            assert s.count_games(finished) == model.count_games(finished)
            assert s.list_games(finished) == model.list_games(finished)
            for _ in range(3):
                offset, limit = rng.randint(0, made), rng.randint(0, 12)
                assert s.list_games(finished, limit, offset=offset) == model.list_games(
                    finished, limit, offset=offset)
            query = rng.choice(NAMES + ["p1", "zz", "an bo"])
            assert s.list_games(finished, 5, query=query) == model.list_games(finished, 5,
                                                                             query=query)
            assert s.count_games(finished, query) == model.count_games(finished, query)
        assert sorted(ids(list(s.summaries()))) == sorted(ids(model.list_games()))

    for step in range(500):
        op, games = rng.random(), model._ids()
        if op < 0.3 or not games:
            gid, new = f"r{made:04d}", named(made, rng.randint(0, 3000), rng.random() < 0.5)
            for s in (store, model):
                s.create_game(header(gid), new)
            made += 1
        elif op < 0.75:
            gid = rng.choice(games)
            new = named(int(gid[1:]), rng.randint(0, 3000), rng.random() < 0.6)
            for s in (store, model):
                s.append(gid, entry(step), new)
        elif op < 0.85:
            gid = rng.choice(games)
            for s in (store, model):
                s.delete_game(gid)
        elif op < 0.95:
            store.flush()
        else:
            store.close()
            store = TinyDBGameStore(tmp_path)
        if step % 25 == 0:
            check(store)
    assert len(store._index._shards) > 8  # the shards did split
    check(store)
    del store  # killed: no checkpoint of the last changes
    store = TinyDBGameStore(tmp_path)
    check(store)
    store.close()
    assert TinyDBGameStore(tmp_path, read_only=True).list_games() == model.list_games()


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the shard files parsed from now on."""
    parsed: list[str] = []
    parse = HistoryIndex._parse

    def spy(self, shard, path):  # type: ignore[no-untyped-def]
        parsed.append(path.name)
        return parse(self, shard, path)

    monkeypatch.setattr(HistoryIndex, "_parse", spy)
    return parsed


def test_open_reads_the_manifest_and_a_page_only_its_shards(
        tmp_path: Path, small_shards: None, monkeypatch: pytest.MonkeyPatch) -> None:
    with TinyDBGameStore(tmp_path) as s:
        for i in range(200):
            s.create_game(header(f"g{i:03d}"), named(i, finished=i < 198))
    assert len(list((tmp_path / "index").glob("shard-*.json"))) == 25
    parsed = counting(monkeypatch)
    store = TinyDBGameStore(tmp_path)
    assert len(parsed) == 1  # the newest shard: its unfinished games were checked
    assert store.count_games() == 200 and store.count_games(False) == 2
    assert len(parsed) == 1
    assert ids(store.list_games(False)) == ["g199", "g198"]
    assert ids(store.list_games(True, limit=5)) == [f"g{i}" for i in range(197, 192, -1)]
    assert len(parsed) == 1
    assert ids(store.list_games(True, limit=8)) == [f"g{i}" for i in range(197, 189, -1)]
    assert len(parsed) == 2  # and the one before it
    assert ids(store.list_games(offset=96, limit=8)) == [f"g{i:03d}" for i in range(103, 95, -1)]
    assert len(parsed) == 3  # exactly the shard of games 96-103
    assert ids(store.list_games(offset=98, limit=8)) == [f"g{i:03d}" for i in range(101, 93, -1)]
    assert len(parsed) == 4  # that one and the one before
    store.append("g050", entry(0), named(50, minutes=1000))  # moves to the newest shard
    assert ids(store.list_games(limit=1)) == ["g050"]


def test_a_checkpoint_writes_only_changed_shards(tmp_path: Path, small_shards: None) -> None:
    with TinyDBGameStore(tmp_path) as s:
        fill(s)
    before = {p.name for p in (tmp_path / "index").glob("shard-*.json")}
    store = TinyDBGameStore(tmp_path)
    store.append("g003", entry(0), {**named(3), "round": 9})  # same key: one shard changes
    store.flush()
    after = {p.name for p in (tmp_path / "index").glob("shard-*.json")}
    assert len(before - after) == 1 and len(after - before) == 1
    assert not list((tmp_path / "dirty").iterdir())
    manifest = json.loads((tmp_path / "index" / "manifest.json").read_bytes())
    assert {f"shard-{row['file']}.json" for row in manifest["shards"].values()} == after
    assert TinyDBGameStore(tmp_path, read_only=True).list_games(limit=1) == [
        {**named(39), "game_id": "g039"}]


def test_reopen_and_a_kill_keep_pages_and_search(tmp_path: Path, small_shards: None) -> None:
    with TinyDBGameStore(tmp_path) as s:
        fill(s)
        s.append("g005", entry(0), named(5, minutes=500))
    s = TinyDBGameStore(tmp_path)
    assert ids(s.list_games(limit=2)) == ["g005", "g039"]
    assert s.list_games(limit=1)[0] == {**named(5, minutes=500), "game_id": "g005"}
    assert ids(s.list_games(query="p7")) == ["g007"]
    s.create_game(header("new"), named(60, minutes=600))
    s.delete_game("g039")
    s.append("g010", entry(1), named(10, minutes=0, finished=False))  # to the oldest shard
    assert ids(s.list_games(limit=2)) == ["new", "g005"] and s.count_games() == 40
    assert (tmp_path / "dirty" / "g010").read_text() == stamp(10)  # its key in the index
    assert (tmp_path / "dirty" / "new").read_text() == ""  # not in the index yet
    del s  # killed: the markers tell the next open what changed
    s = TinyDBGameStore(tmp_path)
    assert ids(s.list_games(limit=2)) == ["new", "g005"] and s.count_games() == 40
    assert ids(s.list_games(query="p39")) == []
    assert ids(s.list_games(offset=38)) == ["g010", "g000"]
    assert s.count_games(True) == 28
    assert s.list_games() == MemoryGameStoreOf(tmp_path).list_games()


def legacy_folder(root: Path, n: int = 12) -> None:
    """A data folder as an earlier release left it: journals and a one-file TinyDB index
    (without its last game, created after that release's last checkpoint)."""
    (root / "games").mkdir(parents=True)
    (root / "dirty").mkdir()
    docs = {}
    for i in range(n):
        gid = f"old{i}"
        (root / "games" / f"{gid}.jsonl").write_bytes(journal_bytes(header(gid), [], named(i)))
        if i < n - 1:
            docs[str(i + 1)] = {"game_id": gid, "summary": named(i)}
    AtomicJSONStorage(root / "index.json").write({"games": docs})


def test_index_of_an_earlier_release_is_migrated(tmp_path: Path, small_shards: None) -> None:
    legacy_folder(tmp_path)
    store = TinyDBGameStore(tmp_path)
    assert store.damaged() == []
    assert ids(store.list_games(limit=3)) == ["old11", "old10", "old9"]
    assert store.list_games(limit=1)[0] == {**named(11), "game_id": "old11"}
    assert not (tmp_path / "index.json").exists()  # read once, then the shards hold it
    assert (tmp_path / "index" / "manifest.json").exists()
    store.append("old3", entry(0), named(3, minutes=99))
    store.close()
    again = TinyDBGameStore(tmp_path)
    assert ids(again.list_games(query="p3")) == ["old3"] and again.count_games() == 12
    assert ids(again.list_games(limit=1)) == ["old3"]


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_read_only_store_reads_shards_and_writes_nothing(tmp_path: Path,
                                                           small_shards: None) -> None:
    legacy_folder(tmp_path / "old")
    before = snapshot(tmp_path / "old")
    old = TinyDBGameStore(tmp_path / "old", read_only=True)
    assert old.count_games() == 12 and ids(old.list_games(limit=1)) == ["old11"]
    old.close()
    assert snapshot(tmp_path / "old") == before  # not migrated by a reader

    root = tmp_path / "new"
    with TinyDBGameStore(root) as s:
        fill(s)
    writer = TinyDBGameStore(root)
    writer.append("g002", entry(0), named(2, minutes=900))
    del writer  # killed mid-session: a marker and a journal newer than the index
    before = snapshot(root)
    reader = TinyDBGameStore(root, read_only=True)
    assert ids(reader.list_games(limit=2)) == ["g002", "g039"]
    assert reader.list_games(offset=30) == MemoryGameStoreOf(root).list_games(offset=30)
    assert reader.count_games(False) == 10
    assert reader.count_games(query="p2") == MemoryGameStoreOf(root).count_games(query="p2")
    assert len(list(reader.summaries())) == 40
    assert reader.load("g002").entries == [entry(0)]
    reader.close()
    assert snapshot(root) == before


def MemoryGameStoreOf(root: Path) -> MemoryGameStore:  # noqa: N802 - reads like a type
    """The games of a data folder, from their journals, in memory (the expected answers)."""
    mem = MemoryGameStore()
    for path in sorted((root / "games").glob("*.jsonl")):
        mem.create_game(header(path.stem), latest_summary(path))
    return mem


def test_a_reader_follows_the_writers_checkpoints(tmp_path: Path, small_shards: None) -> None:
    writer = TinyDBGameStore(tmp_path)
    fill(writer)
    writer.flush()
    reader = TinyDBGameStore(tmp_path, read_only=True)
    assert ids(reader.list_games(limit=2)) == ["g039", "g038"]
    for i in range(0, 40, 3):  # every shard changes: its old file is deleted at the checkpoint
        writer.append(f"g{i:03d}", entry(i), named(i, minutes=1000 + i))
    writer.flush()
    expected = writer.list_games(offset=20)
    assert reader.list_games(offset=20) == expected  # read again from the new manifest
    assert reader.damaged() == []
    writer.close()


@pytest.mark.parametrize("damage", ["garbage", "a game missing", "a bad id", "deleted"])
def test_a_damaged_shard_is_rebuilt_from_the_journals(tmp_path: Path, small_shards: None,
                                                      damage: str) -> None:
    with TinyDBGameStore(tmp_path) as s:
        fill(s)
    shard = sorted((tmp_path / "index").glob("shard-*.json"))[1]
    doc = json.loads(shard.read_bytes())
    if damage == "garbage":
        shard.write_bytes(b'{"games": {"1": {"game_id"')
    elif damage == "a game missing":
        doc["games"].pop(next(iter(doc["games"])))
        shard.write_text(json.dumps(doc))
    elif damage == "a bad id":
        next(iter(doc["games"].values()))["game_id"] = "../x"
        shard.write_text(json.dumps(doc))
    else:
        shard.unlink()
    store = TinyDBGameStore(tmp_path)
    assert store.list_games() == MemoryGameStoreOf(tmp_path).list_games()
    [bad] = store.damaged()  # found when read (here at open: it holds unfinished games)
    assert bad.path == shard and bad.game_id is None
    assert (bad.backup is None) == (damage == "deleted")
    store.close()
    again = TinyDBGameStore(tmp_path)
    assert again.list_games() == MemoryGameStoreOf(tmp_path).list_games()
    assert again.damaged() == []


@pytest.mark.parametrize("garbage", [b"", b"[1]", b"{\"meta\": {\"1\": {\"format\": 1}}}",
                                     b"\xff\xfe"])
def test_a_damaged_or_missing_manifest_is_rebuilt(tmp_path: Path, small_shards: None,
                                                  garbage: bytes) -> None:
    with TinyDBGameStore(tmp_path) as s:
        fill(s)
    (tmp_path / "index" / "manifest.json").write_bytes(garbage)
    store = TinyDBGameStore(tmp_path)
    [bad] = store.damaged()
    assert bad.path.name == "manifest.json" and bad.backup and bad.backup.read_bytes() == garbage
    assert store.list_games() == MemoryGameStoreOf(tmp_path).list_games()
    store.close()
    shutil.rmtree(tmp_path / "index")
    again = TinyDBGameStore(tmp_path)
    assert again.damaged() == [] and again.count_games() == 40
    assert again.list_games(limit=3) == MemoryGameStoreOf(tmp_path).list_games(limit=3)


def test_a_journal_put_in_by_hand_is_found(tmp_path: Path, small_shards: None) -> None:
    with TinyDBGameStore(tmp_path) as s:
        fill(s)
    (tmp_path / "games" / "hand.jsonl").write_bytes(journal_bytes(header("hand"), [],
                                                                  named(7, minutes=999)))
    (tmp_path / "games" / "g001.jsonl").unlink()
    store = TinyDBGameStore(tmp_path)
    assert ids(store.list_games(limit=1)) == ["hand"] and store.count_games() == 40
    assert not store.has_game("g001")
