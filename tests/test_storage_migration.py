"""Schema migrations, from fixture files, through import and through stored journals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.storage import (
    CURRENT_SCHEMA_VERSION,
    MIGRATIONS,
    TinyDBGameStore,
    UnsupportedSchema,
    migrate,
    read_import_file,
)
from companion.storage.files import journal_bytes

FIXTURES = Path(__file__).parent / "fixtures"


def test_v0_fixture_migrates_on_import(tmp_path: Path) -> None:
    doc = read_import_file(FIXTURES / "game_v0.json")
    store = TinyDBGameStore(tmp_path)
    assert store.import_game(doc) == "proto-0001"
    game = store.load("proto-0001")
    assert game.header == {"game_id": "proto-0001", "schema_version": CURRENT_SCHEMA_VERSION,
                           "created": "2023-06-01T19:00:00+00:00",
                           "setup": {"players": ["Ann", "Bo"], "clans": ["Brujah", "Ventrue"]}}
    assert [e["kind"] for e in game.entries] == ["action", "action", "undo", "redo"]
    assert all("type" not in e for e in game.entries)
    assert game.entries[1]["command"] == {"type": "Feed", "player": 0}
    assert store.import_game(doc) == "proto-0001"  # same game again: no-op
    assert len(store.list_games()) == 1
    assert doc["schema_version"] == 0 and "id" in doc["header"]  # input left untouched


def test_v0_journal_on_disk_is_migrated_and_rewritten_on_load(tmp_path: Path) -> None:
    old = json.loads((FIXTURES / "game_v0.json").read_text())
    (tmp_path / "games").mkdir()
    journal = tmp_path / "games" / "proto-0001.jsonl"
    journal.write_bytes(journal_bytes(old["header"], old["entries"], old["summary"]))
    store = TinyDBGameStore(tmp_path)  # an older release left this file, no index
    assert [s["game_id"] for s in store.list_games()] == ["proto-0001"]
    game = store.load("proto-0001")
    assert game.header["game_id"] == "proto-0001" and game.header["schema_version"] == 1
    assert [e["kind"] for e in game.entries] == ["action", "action", "undo", "redo"]
    assert b'"type":"undo"' not in journal.read_bytes()  # upgraded on disk once
    store.append("proto-0001", {"kind": "undo"})
    reread = TinyDBGameStore(tmp_path, read_only=True).load("proto-0001")
    assert reread.entries[-1] == {"kind": "undo"}


def test_v1_fixture_through_a_v1_to_v2_step() -> None:
    """How the next schema bump will be tested: a real v1 file through a registered step."""
    doc = read_import_file(FIXTURES / "game_v1.json")

    def v1_to_v2(d: dict[str, Any]) -> dict[str, Any]:
        setup = d["header"].pop("setup")
        d["header"]["seats"] = [{"player": p, "clan": c}
                                for p, c in zip(setup["players"], setup["clans"], strict=True)]
        for e in d["entries"]:
            for ev in e.get("events", []):
                ev["name"] = ev.pop("type")
        return d

    steps = {**MIGRATIONS, 1: v1_to_v2}
    new = migrate(doc, target=2, steps=steps)
    assert new["schema_version"] == 2 and new["header"]["schema_version"] == 2
    assert new["header"]["seats"][1] == {"player": "Bo", "clan": "Ventrue"}
    assert new["entries"][1]["events"] == [{"name": "BloodChanged", "player": 1, "delta": 3}]
    assert doc["schema_version"] == 1 and "setup" in doc["header"]
    v0 = read_import_file(FIXTURES / "game_v0.json")
    assert migrate(v0, target=2, steps=steps)["header"]["seats"][0]["player"] == "Ann"
    with pytest.raises(ValueError, match="no migration"):
        migrate(doc, target=3, steps=steps)
    with pytest.raises(ValueError, match="newer"):
        migrate(new)


def test_future_schema_on_disk_is_not_damage(tmp_path: Path) -> None:
    doc = read_import_file(FIXTURES / "game_v1.json")
    (tmp_path / "games").mkdir()
    future = {**doc["header"], "schema_version": CURRENT_SCHEMA_VERSION + 1}
    (tmp_path / "games" / "fixture-v1.jsonl").write_bytes(
        journal_bytes(future, doc["entries"], doc["summary"]))
    store = TinyDBGameStore(tmp_path)
    with pytest.raises(UnsupportedSchema):
        store.load("fixture-v1")
    assert store.damaged() == [] and store.has_game("fixture-v1")
