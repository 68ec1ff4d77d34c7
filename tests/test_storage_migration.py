"""Schema migrations, from fixture files, through import and through stored journals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.library.games import validate_game_document
from companion.library.library import Library
from companion.library.session import GameSession
from companion.rules.game import Game
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
    assert game.header["game_id"] == "proto-0001"
    assert game.header["schema_version"] == CURRENT_SCHEMA_VERSION
    assert [e["kind"] for e in game.entries] == ["action", "action", "undo", "redo"]
    assert b'"type":"undo"' not in journal.read_bytes()  # upgraded on disk once
    store.append("proto-0001", {"kind": "undo"})
    reread = TinyDBGameStore(tmp_path, read_only=True).load("proto-0001")
    assert reread.entries[-1] == {"kind": "undo"}


def test_v1_fixture_through_a_later_step() -> None:
    """How the next schema bump will be tested: a real v1 file through the registered steps
    and one more (v4 → v5, made up here)."""
    doc = read_import_file(FIXTURES / "game_v1.json")

    def v4_to_v5(d: dict[str, Any]) -> dict[str, Any]:
        setup = d["header"].pop("setup")
        d["header"]["seats"] = [{"player": p, "clan": c}
                                for p, c in zip(setup["players"], setup["clans"], strict=True)]
        for e in d["entries"]:
            for ev in e.get("events", []):
                ev["name"] = ev.pop("type")
        return d

    steps = {**MIGRATIONS, 4: v4_to_v5}
    new = migrate(doc, target=5, steps=steps)
    assert new["schema_version"] == 5 and new["header"]["schema_version"] == 5
    assert new["header"]["seats"][1] == {"player": "Bo", "clan": "Ventrue"}
    assert new["entries"][1]["events"] == [{"name": "BloodChanged", "player": 1, "delta": 3}]
    assert doc["schema_version"] == 1 and "setup" in doc["header"]
    v0 = read_import_file(FIXTURES / "game_v0.json")
    assert migrate(v0, target=5, steps=steps)["header"]["seats"][0]["player"] == "Ann"
    with pytest.raises(ValueError, match="no migration"):
        migrate(doc, target=6, steps=steps)
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


# --- schema 2: corrected card facts, winning_team, plain tie notes ---------------------

def _games(store: TinyDBGameStore) -> dict[str, Game]:
    return {s["game_id"]: Game.from_journal(*_stored(store, s["game_id"]))
            for s in store.list_games()}


def _stored(store: TinyDBGameStore, game_id: str) -> tuple[dict, list]:
    stored = store.load(game_id)
    return stored.header, stored.entries


def test_v1_backup_imports_replays_and_drops_the_invented_card_facts(tmp_path: Path) -> None:
    """A backup the previous release wrote (tests/fixtures/backup_v1.json: the card_effects and
    tag_team examples, two games ending in ties, and a user catalogue holding the invented
    'AL30' Ally, Lani Kahale as an Ally and BR03's old name) is restored through the engine's
    full replay (every command executed again must give the recorded events), and reads with
    the corrected facts (§15)."""
    doc = read_import_file(FIXTURES / "backup_v1.json")
    assert doc["schema_version"] == 1
    svc = GameSession(TinyDBGameStore(tmp_path))
    added = svc.store.import_backup(doc, validate=validate_game_document)
    assert len(added) == 4
    text = json.dumps([svc.store.export_game(g) for g in added])
    assert "Miguel" not in text and '"AL30"' not in text
    games = _games(svc.store)
    effects = next(g for g in games.values() if g.header.kind == "position"
                   and len(g.actions) > 5)
    drainer = [c for p in effects.state.players for c in p.alliance
               if c.card.ability == "drained_in_frenzy"]
    assert [(c.card.id, c.card.name) for c in drainer] == [("ALLY-FRENZY-DRAIN",
                                                            "Frenzy-drain Ally")]
    boards = [g.scoreboard for g in games.values()]
    tag = next(b for b in boards if b.teams and b.rows[0].name != "Ann")
    assert tag.winning_team == "Blue" and tag.winner == tag.rows[0].name
    ties = next(b for b in boards if b.teams and b.rows[0].name == "Ann")
    assert ties.winning_team == "X" and ties.winner == "Ann"
    assert [r.tiebreak for r in ties.rows] == [
        "won the tie with Bo on 6 Influence: Ann has more Blood (4 to 2)",
        "lost the tie with Ann on 6 Influence: Ann has more Blood (4 to 2)",
        "won the tie with Di on 4 Influence and 3 Blood: Cy is earlier in turn order",
        "lost the tie with Cy on 4 Influence and 3 Blood: Cy is earlier in turn order"]
    assert ties.teams[1].tiebreak == ("lost the tie with team X on 10 Influence: team X has "
                                      "more Blood (7 to 5)")
    ally = next(b for b in boards if b.teams is None and b.rows[0].name == "Bo")
    assert ally.rows[1].tiebreak == ("lost the tie with Bo on 5 Influence: Bo holds the Ally "
                                     "that wins all ties")
    cat = Library(svc.store).catalogue()
    drain = next(a for a in cat.allies if a.id == "ALLY-FRENZY-DRAIN")
    assert (drain.name, drain.kind, drain.drain_blood) == (None, None, 3)
    assert not any(a.id in ("AL30", "LANI-KAHALE") for a in cat.allies)
    assert next(c for c in cat.clan_cards if c.id == "BR03").name == "Challenge"


def test_v1_journal_on_disk_with_the_invented_ally_opens_and_replays(tmp_path: Path) -> None:
    """A stored v1 game (the card_effects example, with the old 'AL30' ability) opens: its
    journal is upgraded on load and replays to the same final standings."""
    backup = read_import_file(FIXTURES / "backup_v1.json")
    old = next(g for g in backup["games"] if '"AL30"' in json.dumps(g))
    (tmp_path / "games").mkdir()
    gid = old["header"]["game_id"]
    (tmp_path / "games" / f"{gid}.jsonl").write_bytes(
        journal_bytes(old["header"], old["entries"], old["summary"]))
    svc = GameSession(TinyDBGameStore(tmp_path))
    game = svc.open_game(gid)
    assert game.header.schema_version == CURRENT_SCHEMA_VERSION == 4
    assert game.scoreboard is not None and game.scoreboard.winner == "Ada"
    assert migrate(old)["schema_version"] == 4 and old["schema_version"] == 1


def test_v2_to_v3_changes_only_the_version_and_v2_apps_refuse_clock_journals() -> None:
    """clock entries came with v3; a v2 document is a v3 one as it is, and an app that
    stops at v2 refuses a v3 document (with clock entries) as too new."""
    v2 = migrate(read_import_file(FIXTURES / "game_v1.json"), target=2)
    v3 = migrate(v2, target=3)
    assert v2["schema_version"] == 2 and v3["schema_version"] == 3
    assert v3["header"]["schema_version"] == 3
    assert {**v3, "schema_version": 2, "header": {**v3["header"], "schema_version": 2}} == v2
    clocked = {**v3, "entries": [*v3["entries"],
                                 {"kind": "clock", "running": True, "at": "2025-01-01T20:00:00Z"}]}
    with pytest.raises(ValueError, match="newer"):
        migrate(clocked, target=2)


def test_v3_to_v4_changes_only_the_version_and_v3_apps_refuse_v4_files() -> None:
    """the `game` field came with v4: a v3 document is a v4 one as it is (missing `game` is
    Vendetta), and an app that stops at v3 refuses a v4 document, of any game, as too new."""
    v3 = migrate(read_import_file(FIXTURES / "game_v1.json"), target=3)
    v4 = migrate(v3)
    assert v4["schema_version"] == v4["header"]["schema_version"] == 4
    assert {**v4, "schema_version": 3, "header": {**v4["header"], "schema_version": 3}} == v3
    assert "game" not in v4["header"]
    other = {**v4, "header": {**v4["header"], "game": "heritage"}}
    with pytest.raises(ValueError, match="newer"):
        migrate(other, target=3)
