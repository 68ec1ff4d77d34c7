"""Unreadable files: the store still opens, names them, moves them aside, keeps the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import GameDamaged, GameNotFound, TinyDBGameStore
from tests.storage_helpers import entry, header, summary


def populate(root: Path) -> None:
    with TinyDBGameStore(root) as store:
        for gid, finished in (("live", False), ("done", True), ("other", False)):
            store.create_game(header(gid), summary(1, finished=finished))
            store.append(gid, entry(0))
            store.append(gid, entry(1), summary(2, rnd=2, finished=finished))
        store.save_catalogue({"cards": []})


def backups(folder: Path, name: str) -> list[Path]:
    return sorted(folder.glob(f"{name}.damaged-*"))


@pytest.mark.parametrize("garbage", [b"\x00\xff garbage\n", b"", b"not json\n" * 3])
def test_unfinished_journal_garbage_found_at_open(tmp_path: Path, garbage: bytes) -> None:
    populate(tmp_path)
    (tmp_path / "games" / "live.jsonl").write_bytes(garbage)
    store = TinyDBGameStore(tmp_path)
    [bad] = store.damaged()
    assert bad.game_id == "live" and bad.path.name == "live.jsonl"
    assert bad.backup == backups(tmp_path / "games", "live.jsonl")[0]
    assert bad.backup.read_bytes() == garbage
    assert not (tmp_path / "games" / "live.jsonl").exists()
    assert {s["game_id"] for s in store.list_games()} == {"done", "other"}
    assert store.load("other").entries == [entry(0), entry(1)]
    assert store.load("done").entries == [entry(0), entry(1)]
    store.create_game(header("live"), summary())  # the id is free again


def test_damaged_middle_line_of_finished_game_found_at_load(tmp_path: Path) -> None:
    populate(tmp_path)
    journal = tmp_path / "games" / "done.jsonl"
    lines = journal.read_bytes().split(b"\n")
    lines[1] = lines[1][:10] + b"#" + lines[1][11:]
    journal.write_bytes(b"\n".join(lines))
    store = TinyDBGameStore(tmp_path)
    assert store.damaged() == []  # finished games are checked when opened
    with pytest.raises(GameDamaged, match="done"):
        store.load("done")
    [bad] = store.damaged()
    assert bad.game_id == "done" and bad.backup is not None and bad.backup.exists()
    with pytest.raises(GameNotFound):
        store.load("done")
    assert {s["game_id"] for s in store.list_games()} == {"live", "other"}
    store.close()
    assert {s["game_id"] for s in TinyDBGameStore(tmp_path).list_games()} == {"live", "other"}


@pytest.mark.parametrize("garbage", [b"{\"games\": {\"1\": ", b"[1, 2]", b"\xff\xfe",
                                     b'{"games": {"1": {"game_id": "../x", "summary": {}}}}'])
def test_index_garbage_is_moved_aside_and_rebuilt(tmp_path: Path, garbage: bytes) -> None:
    populate(tmp_path)
    (tmp_path / "index.json").write_bytes(garbage)
    store = TinyDBGameStore(tmp_path)
    [bad] = store.damaged()
    assert bad.game_id is None and bad.path.name == "index.json"
    assert backups(tmp_path, "index.json")[0].read_bytes() == garbage
    listed = {s["game_id"]: s["round"] for s in store.list_games()}
    assert listed == {"live": 2, "done": 2, "other": 2}
    assert store.load("done").entries == [entry(0), entry(1)]
    store.close()
    assert TinyDBGameStore(tmp_path).damaged() == []


def test_catalogue_garbage(tmp_path: Path) -> None:
    populate(tmp_path)
    (tmp_path / "catalogue.json").write_text("{oops")
    store = TinyDBGameStore(tmp_path)
    [bad] = store.damaged()
    assert bad.path.name == "catalogue.json" and bad.backup is not None
    assert store.load_catalogue() == {}
    assert len(store.list_games()) == 3


def test_everything_damaged_still_opens(tmp_path: Path) -> None:
    populate(tmp_path)
    for path in [tmp_path / "index.json", tmp_path / "catalogue.json",
                 *(tmp_path / "games").iterdir()]:
        path.write_bytes(b"\x00" * 10)
    (tmp_path / "dirty" / "bad name.txt").write_text("")
    store = TinyDBGameStore(tmp_path)
    assert len(store.damaged()) == 5
    assert store.list_games() == []
    store.create_game(header("fresh"), summary())
    assert store.load("fresh").entries == []
