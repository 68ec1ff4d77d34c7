"""CLI for stored data: saved games and the card catalogue."""

import json
from pathlib import Path

from companion.cli.main import main
from companion.library.session import GameSession
from companion.storage import TinyDBGameStore
from models.setup import GameSetup

EXAMPLE = Path(__file__).parent.parent / "examples" / "three_players.json"


def stored_game(data: Path) -> str:
    script = json.loads(EXAMPLE.read_text())
    svc = GameSession(TinyDBGameStore(data))
    game = svc.new_game(GameSetup.model_validate(script["start"]["setup"]))
    for cmd in script["actions"]:
        svc.play(cmd)
    svc.store.close()
    return game.header.game_id


def test_games_export_import_is_idempotent_and_refuses_garbage(tmp_path, capsys):
    gid = stored_game(tmp_path / "a")
    assert main(["games", "list", "--data-dir", str(tmp_path / "a")]) == 0
    assert "won by" in capsys.readouterr().out
    out = tmp_path / "g.json"
    assert main(["games", "export", gid, str(out), "--data-dir", str(tmp_path / "a")]) == 0
    for _ in range(2):
        assert main(["games", "import", str(out), "--data-dir", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    assert main(["games", "list", "--data-dir", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().out.count(gid) == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "vendetta-companion/game", "schema_version": 1}')
    assert main(["games", "import", str(bad), "--data-dir", str(tmp_path / "c")]) == 1
    assert "refused" in capsys.readouterr().err


def test_games_backup_and_restore(tmp_path, capsys):
    gid = stored_game(tmp_path / "a")
    backup = tmp_path / "backup.json"
    assert main(["games", "backup", str(backup), "--data-dir", str(tmp_path / "a")]) == 0
    assert main(["games", "restore", str(backup), "--data-dir", str(tmp_path / "b")]) == 0
    assert "restored 1 game" in capsys.readouterr().out
    assert GameSession(TinyDBGameStore(tmp_path / "b")).open_game(gid).state.phase == "game_over"


def test_catalogue_import_export_show(tmp_path, capsys):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"clan_cards": [{"id": "BR-HUNT", "clan": "Brujah",
                                                "power": 1, "kind": "preparation"}]}))
    data = str(tmp_path / "data")
    assert main(["catalogue", "import", str(mine), "--data-dir", data]) == 0
    assert main(["catalogue", "show", "--data-dir", data]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("BR-HUNT"))
    assert "preparation" in line and "[values to enter]" not in line
    out = tmp_path / "out.json"
    assert main(["catalogue", "export", str(out), "--data-dir", data]) == 0
    assert json.loads(out.read_text())["clan_cards"][0]["power"] == 1
    mine.write_text(json.dumps({"clan_cards": [{"id": "BR-HUNT", "clan": "Brujah",
                                                "power": -1}]}))
    assert main(["catalogue", "import", str(mine), "--data-dir", data]) == 1
    assert "clan_cards[0] (card BR-HUNT).power" in capsys.readouterr().err
