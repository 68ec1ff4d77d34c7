"""The storage contract as the engine's service uses it (skipped without the engine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.library.games import validate_game_document
from companion.storage import TinyDBGameStore

service = pytest.importorskip("companion.library.session")
cli = pytest.importorskip("companion.cli.main")
game_mod = pytest.importorskip("companion.rules.game")

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "four_players.json"


@pytest.mark.skipif(not SCRIPT.exists(), reason="no example script")
def test_service_plays_stores_resumes_exports_and_imports(tmp_path: Path) -> None:
    script = cli.Script.model_validate(json.loads(SCRIPT.read_text()))
    svc = service.GameSession(TinyDBGameStore(tmp_path / "a"))
    game = svc.new_game(script.start.setup or script.start.position)
    for i, action in enumerate(script.actions):
        svc.play(action)
        if i == len(script.actions) // 2:
            svc.undo()
            svc.redo()
    gid = game.header.game_id
    svc.store.close()
    # a new process: a fresh store on the same folder, the game replayed from its journal
    resumed = service.GameSession(TinyDBGameStore(tmp_path / "a"))
    [listed] = resumed.store.list_games()
    assert listed["game_id"] == gid and listed["round"] == game.state.round
    again = resumed.open_game(gid)
    assert again.state == game.state
    doc = json.loads(json.dumps(resumed.store.export_game(gid)))
    other = TinyDBGameStore(tmp_path / "b")
    assert other.import_game(doc, validate=validate_game_document) == gid
    assert game_mod.Game.from_journal(**{k: v for k, v in other.export_game(gid).items()
                                         if k in ("header", "entries")}).state == game.state
