"""GameSession and Library: games stored as they are played; the user's catalogue remembered (4)."""

import pytest

from companion.library.games import validate_game_document
from companion.library.library import Library
from companion.library.session import GameSession, UnsavedActions
from companion.rules.catalogue import CatalogueError
from companion.rules.errors import RuleError
from companion.storage import ImportRefused, TinyDBGameStore
from models.setup import GameSetup, PlayerSetup


def setup4() -> GameSetup:
    return GameSetup(players=[PlayerSetup(name=n) for n in ("Ann", "Bob", "Cid", "Dee")], seed=3)


def test_actions_survive_reopening_the_store(tmp_path):
    """Every confirmed action is on disk: a new process sees the same state, undo included."""
    svc = GameSession(TinyDBGameStore(tmp_path))
    game = svc.new_game(setup4())
    svc.play({"type": "set_first_player", "player": "Bob"})
    svc.play({"type": "offer_clans"})
    svc.undo()
    svc.redo()
    with pytest.raises(RuleError):
        svc.play({"type": "pick_clan", "player": "Ann", "clan": "Brujah"})
    expected = game.state.model_dump()
    svc.store.close()
    again = GameSession(TinyDBGameStore(tmp_path))
    assert [s["game_id"] for s in Library(again.store).unfinished()] == [game.header.game_id]
    reopened = again.open_game(game.header.game_id)
    assert reopened.state.model_dump() == expected
    assert len(reopened.actions) == 2


def test_card_values_entered_once_are_remembered_across_runs(tmp_path):
    """the user completes AL14 once; a new run knows its values."""
    svc = Library(TinyDBGameStore(tmp_path))
    assert not next(a for a in svc.catalogue().allies if a.id == "AL14").complete()
    svc.remember("allies", {"id": "AL14", "influence": 1, "feed": 0, "drain_blood": 4,
                            "drained_influence": 0})
    svc.store.close()
    later = Library(TinyDBGameStore(tmp_path)).catalogue()
    al14 = next(a for a in later.allies if a.id == "AL14")
    assert al14.complete() and al14.drain_blood == 4 and al14.kind == "vampire"
    assert al14.card().ability == "AL14"


def test_bad_catalogue_import_names_card_and_field_and_saves_nothing(tmp_path):
    """impossible values are refused whole."""
    svc = Library(TinyDBGameStore(tmp_path))
    svc.remember("clan_cards", {"id": "BR-HUNT", "clan": "Brujah", "power": 2,
                                "kind": "preparation"})
    before = svc.export_catalogue()
    with pytest.raises(CatalogueError, match=r"allies\[1\] \(card ALLY-PEEK\)\.feed"):
        svc.import_catalogue({"allies": [{"id": "AL14", "feed": 1},
                                         {"id": "ALLY-PEEK", "feed": 99}]})
    assert svc.export_catalogue() == before


def test_catalogue_export_import_round_trip(tmp_path):
    """a group shares its catalogue as one JSON file."""
    a = Library(TinyDBGameStore(tmp_path / "a"))
    a.remember("allies", {"id": "NEW-ALLY", "name": "Someone", "kind": "human", "influence": 1,
                          "feed": 1, "drain_blood": 2, "drained_influence": 0})
    b = Library(TinyDBGameStore(tmp_path / "b"))
    b.import_catalogue(a.export_catalogue())
    assert next(x for x in b.catalogue().allies if x.id == "NEW-ALLY").name == "Someone"


def test_tampered_game_import_is_refused(tmp_path):
    """imports replay through the engine; a doctored event is refused whole."""
    src = GameSession(TinyDBGameStore(tmp_path / "src"))
    game = src.new_game(setup4())
    src.play({"type": "set_first_player", "player": "Ann"})
    doc = src.store.export_game(game.header.game_id)
    doc["entries"][0]["events"][0]["player"] = 2
    dst = TinyDBGameStore(tmp_path / "dst")
    with pytest.raises(ImportRefused):
        dst.import_game(doc, validate=validate_game_document)
    assert dst.list_games() == []
    doc = src.store.export_game(game.header.game_id)
    assert dst.import_game(doc, validate=validate_game_document) == game.header.game_id


def test_resume_mid_resolution_with_a_pending_choice(tmp_path):
    """reopening replays to the exact state: step, due effects, whose choice it is."""
    import json
    from pathlib import Path

    from models.setup import Position

    script = json.loads((Path(__file__).parent.parent / "examples" / "card_effects.json")
                        .read_text())
    svc = GameSession(TinyDBGameStore(tmp_path))
    game = svc.new_game(Position.model_validate(script["start"]["position"]))
    for cmd in script["actions"]:
        svc.play(cmd)
        if game.state.phase == "resolution" and game.legal().due:
            break
    legal = game.legal()
    assert legal.due and legal.commands[0] == "resolve_effect"
    expected = (game.state.model_dump(), legal.model_dump())
    svc.store.close()  # the app is gone; a new one opens the same folder

    again = GameSession(TinyDBGameStore(tmp_path))
    (entry,) = Library(again.store).unfinished()
    assert entry["phase"] == "resolution" and entry["players"] == ["Ada", "Ben", "Cat", "Dov"]
    resumed = again.open_game(entry["game_id"])
    assert (resumed.state.model_dump(), resumed.legal().model_dump()) == expected
    again.play({"type": "resolve_effect", "card": resumed.legal().next_due[0]})
    assert len(resumed.actions) == len(game.actions) + 1


def test_a_failed_save_keeps_the_game_and_is_retried_in_order(tmp_path):
    """a disk that refuses an entry loses nothing: the action stays on the table,
    is listed as unsaved with a readable reason, and is written (in order) on retry."""
    import errno

    from companion.storage import MemoryGameStore

    class FullDisk(MemoryGameStore):
        fail = False

        def append(self, game_id, entry, summary=None):
            if self.fail:
                raise OSError(errno.ENOSPC, "No space left on device", "/data/games/g.jsonl")
            super().append(game_id, entry, summary)

    store = FullDisk()
    svc = GameSession(store)
    game = svc.new_game(setup4())
    svc.play({"type": "set_first_player", "player": "Ann"})
    stored_before = len(store.load(game.header.game_id).entries)
    store.fail = True
    svc.play({"type": "offer_clans"})
    svc.undo()
    svc.redo()
    assert len(game.actions) == 2 and svc.unsaved == [svc.unsaved[0], {"kind": "undo"},
                                                     {"kind": "redo"}]
    assert svc.save_error == "/data/games/g.jsonl: the disk is full"
    assert len(store.load(game.header.game_id).entries) == stored_before  # nothing half-done
    assert not svc.retry_save() and len(svc.unsaved) == 3
    other = svc.store.list_games()[0]["game_id"]
    with pytest.raises(UnsavedActions):
        svc.open_game(other)  # leaving would lose them
    assert svc.game is game
    with pytest.raises(RuleError):  # a refusal still changes nothing
        svc.play({"type": "offer_clans"})
    store.fail = False
    assert svc.retry_save() and svc.unsaved == [] and svc.save_error is None
    reopened = GameSession(store).open_game(game.header.game_id)
    assert reopened.state.model_dump() == game.state.model_dump()
    assert store.list_games()[0]["phase"] == game.state.phase


def test_a_store_that_refuses_the_entry_itself_undoes_the_action(tmp_path):
    """Not a disk problem (e.g. a read-only store): the action is not kept."""
    from companion.storage import MemoryGameStore, ReadOnlyStore

    class Refusing(MemoryGameStore):
        fail = False

        def append(self, game_id, entry, summary=None):
            if self.fail:
                raise ReadOnlyStore("read-only here")
            super().append(game_id, entry, summary)

    store = Refusing()
    svc = GameSession(store)
    game = svc.new_game(setup4())
    svc.play({"type": "set_first_player", "player": "Ann"})
    before = game.state.model_dump()
    store.fail = True
    with pytest.raises(ReadOnlyStore):
        svc.play({"type": "offer_clans"})
    assert game.state.model_dump() == before and svc.unsaved == []
