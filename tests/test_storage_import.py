"""Export/import round trips and every kind of refused import (nothing half-imported)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.storage import (
    BACKUP_FORMAT,
    CURRENT_SCHEMA_VERSION,
    ImportRefused,
    MemoryGameStore,
    TinyDBGameStore,
    read_import_file,
)
from tests.storage_helpers import entry, game_doc, header, summary


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def backup_doc(n: int = 5) -> dict[str, Any]:
    return {"format": BACKUP_FORMAT, "schema_version": 1,
            "games": [game_doc(f"g{i}", n_entries=20) for i in range(n)],
            "catalogue": {"cards": [{"name": "Victim"}]}}


def test_export_import_round_trip(tmp_path: Path) -> None:
    src = TinyDBGameStore(tmp_path / "a")
    src.create_game(header("g1"), summary())
    for i in range(30):
        src.append("g1", entry(i), summary(i, rnd=2))
    src.append("g1", {"kind": "undo"})
    src.save_catalogue({"cards": [1, 2]})
    doc = json.loads(json.dumps(src.export_game("g1")))
    assert doc["format"] == "vendetta-companion/game"
    assert doc["schema_version"] == CURRENT_SCHEMA_VERSION
    dst = TinyDBGameStore(tmp_path / "b")
    assert dst.import_game(doc) == "g1"
    assert dst.load("g1") == src.load("g1")
    backup = json.loads(json.dumps(src.export_backup()))
    mem = MemoryGameStore()
    assert mem.import_backup(backup) == ["g1"]
    assert mem.load("g1") == src.load("g1") and mem.load_catalogue() == {"cards": [1, 2]}
    assert mem.import_backup(backup) == []  # twice: no duplicates
    assert len(mem.list_games()) == 1


def test_backup_import_writes_all_games(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    assert store.import_backup(backup_doc()) == [f"g{i}" for i in range(5)]
    store.close()
    store = TinyDBGameStore(tmp_path)
    assert len(store.list_games()) == 5
    assert store.load_catalogue() == {"cards": [{"name": "Victim"}]}
    assert store.load("g3").entries == game_doc("g3", 20)["entries"]


def edit(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        if value is DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return apply


DELETE = object()
G3 = ("games", 3)
BAD_BACKUPS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("kind not a string", edit((*G3, "entries", 17, "kind"), 5),
     "games[3].entries[17]: kind must be a string"),
    ("unknown kind", edit((*G3, "entries", 2, "kind"), "cheat"),
     "games[3].entries[2]: unknown kind 'cheat'"),
    ("kind missing", edit((*G3, "entries", 2, "kind"), DELETE), "games[3].entries[2]"),
    ("entry not an object", edit((*G3, "entries", 0), [1]), "games[3].entries[0]: must be an"),
    ("entries not a list", edit((*G3, "entries"), {"0": {}}), "games[3].entries: must be a list"),
    ("events not a list", edit((*G3, "entries", 1, "events"), "x"), "entries[1].events"),
    ("header not an object", edit((*G3, "header"), "h"), "games[3].header: must be an object"),
    ("summary not an object", edit((*G3, "summary"), []), "games[3].summary: must be an"),
    ("negative round", edit((*G3, "summary", "round"), -1), "games[3].summary.round"),
    ("impossible round", edit((*G3, "summary", "round"), 10**9), "games[3].summary.round"),
    ("round a string", edit((*G3, "summary", "round"), "2"), "games[3].summary.round"),
    ("finished not bool", edit((*G3, "summary", "finished"), "yes"), "summary.finished"),
    ("huge number", edit((*G3, "entries", 4, "command", "n"), 10**30), "out of range"),
    ("bad date", edit((*G3, "header", "created"), "yesterday"), "games[3].header.created"),
    ("future game schema", edit((*G3, "schema_version"), CURRENT_SCHEMA_VERSION + 1),
     f"games[3].schema_version: {CURRENT_SCHEMA_VERSION + 1} is newer"),
    ("future backup schema", edit(("schema_version",), 9), "schema_version: 9 is newer"),
    ("bool schema", edit(("schema_version",), True), "schema_version"),
    ("wrong format", edit((*G3, "format"), "other/app"), "games[3].format"),
    ("games not a list", edit(("games",), {}), "games: must be a list"),
    ("catalogue wrong", edit(("catalogue",), [1]), "catalogue: must be an object"),
    ("dotdot id", edit((*G3, "header", "game_id"), "../x"), "games[3].header.game_id"),
    ("absolute id", edit((*G3, "header", "game_id"), "/etc/passwd"), "game_id"),
    ("backslash id", edit((*G3, "header", "game_id"), "..\\x"), "game_id"),
    ("NUL id", edit((*G3, "header", "game_id"), "a\x00b"), "game_id"),
    ("overlong id", edit((*G3, "header", "game_id"), "a" * 65), "1 to 64 characters"),
    ("reserved id", edit((*G3, "header", "game_id"), "NUL"), "reserved"),
    ("int id", edit((*G3, "header", "game_id"), 7), "game_id must be a string"),
    ("clash inside backup", lambda d: (edit((*G3, "header", "game_id"), "g0")(d),
                                       edit((*G3, "entries", 0), {"kind": "undo"})(d)),
     "games[3]: a different game with game_id 'g0'"),
]


@pytest.mark.parametrize(("mutate", "message"), [(m, msg) for _, m, msg in BAD_BACKUPS],
                         ids=[name for name, _, _ in BAD_BACKUPS])
def test_bad_backup_refused_whole(tmp_path: Path, mutate: Callable[[dict[str, Any]], None],
                                  message: str) -> None:
    store = TinyDBGameStore(tmp_path)
    store.create_game(header("existing"), summary())
    store.save_catalogue({"mine": True})
    before = snapshot(tmp_path)
    doc = backup_doc()
    mutate(doc)
    with pytest.raises(ImportRefused) as info:
        store.import_backup(doc)
    assert message in str(info.value)
    assert snapshot(tmp_path) == before
    assert [s["game_id"] for s in store.list_games()] == ["existing"]
    assert store.load_catalogue() == {"mine": True}


def test_duplicate_game_import(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    doc = game_doc("dup", 10)
    assert store.import_game(doc) == "dup"
    before = snapshot(tmp_path)
    assert store.import_game(copy.deepcopy(doc)) == "dup"  # identical: no-op
    assert snapshot(tmp_path) == before
    changed = copy.deepcopy(doc)
    changed["entries"].append({"kind": "undo"})
    with pytest.raises(ImportRefused, match="different game with game_id 'dup'"):
        store.import_game(changed)
    assert snapshot(tmp_path) == before and len(store.list_games()) == 1
    backup = {"format": BACKUP_FORMAT, "schema_version": 1,
              "games": [doc, game_doc("other"), copy.deepcopy(doc)]}
    assert store.import_backup(backup) == ["other"]
    assert len(store.list_games()) == 2


def test_validate_callback(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    seen: list[str] = []

    def replay(doc: dict[str, Any]) -> None:
        seen.append(doc["header"]["game_id"])
        if doc["header"]["game_id"] == "g3":
            raise ValueError("entries[4]: Feed is not allowed in the Setup phase")

    with pytest.raises(ImportRefused, match=r"games\[3\]: entries\[4\]: Feed is not allowed"):
        store.import_backup(backup_doc(), validate=replay)
    assert seen == ["g0", "g1", "g2", "g3"] and store.list_games() == []
    assert store.import_backup(backup_doc(3), validate=replay) == ["g0", "g1", "g2"]


def test_summary_optional_and_computed_by_validate() -> None:
    store = MemoryGameStore()
    doc = game_doc("plain")
    del doc["summary"]  # the engine's own export format has no summary
    store.import_game(doc)
    assert store.load("plain").summary == {"created": doc["header"]["created"],
                                           "updated": doc["header"]["created"]}
    doc = game_doc("lying")  # the file claims a summary; the engine's replay knows better
    assert store.import_game(doc, validate=lambda d: summary(9, rnd=4)) == "lying"
    assert store.list_games()[0]["round"] == 4
    with pytest.raises(ImportRefused, match=r"summary\.round"):
        store.import_game(game_doc("bad"), validate=lambda d: {"round": -3})
    with pytest.raises(ImportRefused, match="summary"):
        store.import_game(game_doc("bad"), validate=lambda d: {"x": float("nan")})


@pytest.mark.parametrize(("content", "message"), [
    (b'{"format": "vendetta-companion/game", "header": {', "truncated"),
    (b"", "truncated"),
    (b"{'single': 'quotes'}", "not valid JSON at line 1 column 2"),
    (b'{"a": 1}\n{"b": 2}', "line 2 column 1"),
    (b'{"a": "\xff\xfe"}', "not valid UTF-8"),
    (b'{"a": NaN}', "NaN is not allowed"),
    (b'{"a": Infinity}', "Infinity"),
    (b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
    (b"[1, 2, 3]", "top level must be a JSON object"),
    (b'{"a": 1' + b"1" * 5000 + b"}", "not valid JSON"),
])
def test_read_import_file_refusals(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(content)
    with pytest.raises(ImportRefused, match=message):
        read_import_file(path)


def test_read_import_file_size_cap_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b'{"pad": "' + b"x" * 2000 + b'"}')
    with pytest.raises(ImportRefused, match="larger than"):
        read_import_file(path, max_bytes=1000)
    with path.open("wb") as fh:  # the default cap, without writing 20 MB of text
        fh.truncate(21 * 1024 * 1024)
    with pytest.raises(ImportRefused, match="larger than 20 MB"):
        read_import_file(path)
    path.write_bytes("\ufeff".encode() + json.dumps(game_doc("bom")).encode())
    assert MemoryGameStore().import_game(read_import_file(path)) == "bom"


def test_import_of_non_json_python_values_refused() -> None:
    store = MemoryGameStore()
    for value in (float("inf"), {1, 2}, b"bytes", object()):
        doc = game_doc("x")
        doc["entries"][0]["command"]["n"] = value
        with pytest.raises(ImportRefused, match=r"entries\[0\]\.command\.n"):
            store.import_game(doc)
    doc = game_doc("x")
    doc["summary"] = {1: "int key"}
    with pytest.raises(ImportRefused, match="not a string"):
        store.import_game(doc)
    deep: Any = []
    for _ in range(200):
        deep = [deep]
    doc = game_doc("x")
    doc["entries"][0]["command"]["deep"] = deep
    with pytest.raises(ImportRefused, match="nested deeper"):
        store.import_game(doc)
    with pytest.raises(ImportRefused, match="must be a JSON object"):
        store.import_game([])  # type: ignore[arg-type]
    assert store.list_games() == []
