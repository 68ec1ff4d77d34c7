"""The registry of game kinds: every stored game says which game it is; a game of a kind this
version does not know is listed as needing a newer version and blocks nothing else."""

import json
from pathlib import Path

import pytest

from companion.cli.main import Script
from companion.library.backups import backup_file
from companion.library.games import load_game, validate_game_document
from companion.library.kinds import VENDETTA, UnknownGame, kind_of
from companion.library.library import Library
from companion.library.session import GameSession
from companion.storage import CURRENT_SCHEMA_VERSION, TinyDBGameStore
from tests.ui import has, texts
from views.app import build

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def played(session: GameSession, name: str) -> str:
    """Play an example script whole; the game's id."""
    script = Script.model_validate(json.loads((EXAMPLES / name).read_text()))
    game = session.new_game(script.start.setup or script.start.position)
    for action in script.actions:
        session.play(action)
    return game.header.game_id


def stranger(store: TinyDBGameStore) -> str:
    """Store a game of a kind this version does not know (as a newer version would)."""
    header = {"game_id": "from-the-future", "schema_version": CURRENT_SCHEMA_VERSION,
              "created": "2026-11-01T20:00:00+00:00", "game": "chess-of-the-night",
              "start": {}, "kind": "setup"}
    summary = {"game": "chess-of-the-night", "game_id": "from-the-future",
               "created": "2026-11-01T20:00:00+00:00", "players": ["Zed", "Yul"],
               "finished": True, "winner": "Zed", "scores": {"Zed": 3, "Yul": 1},
               "standings": [{"name": "Zed", "clan": "Brujah", "influence": 99, "rank": 1}]}
    store.create_game(header, summary)
    return "from-the-future"


def test_new_games_say_they_are_vendetta(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    gid = played(GameSession(store), "three_players.json")
    stored = store.load(gid)
    assert stored.header["game"] == VENDETTA and stored.summary["game"] == VENDETTA
    assert stored.header["schema_version"] == CURRENT_SCHEMA_VERSION == 4
    assert kind_of({}).id == VENDETTA  # a game stored before the field: Vendetta
    store.close()


def test_an_unknown_game_is_listed_and_blocks_nothing_else(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    library = Library(store)
    gid = played(GameSession(store), "four_players.json")
    before = library.stats()
    other = stranger(store)
    # listed, and the statistics of Vendetta are the same as without it
    assert {s["game_id"] for s in store.list_games()} == {gid, other}
    after = Library(store).stats()
    assert after == before and after.games == 1
    # opening it says why; the Vendetta game still opens and replays
    with pytest.raises(UnknownGame, match="needs a newer version"):
        load_game(store, other)
    assert load_game(store, gid).state.phase == "game_over"
    # a backup holds both; importing the stranger alone is refused with the same reason
    name, data = backup_file(library)
    doc = json.loads(data)
    assert {g["header"]["game_id"] for g in doc["games"]} == {gid, other}
    with pytest.raises(UnknownGame, match="chess-of-the-night"):
        validate_game_document(next(g for g in doc["games"] if g["header"]["game_id"] == other))
    # Home lists it with the reason and no button that could fail; the app opens the other
    app = build(library)
    words = " ".join(texts(app.root))
    assert "needs a newer version" in words and "Zed, Yul" in words
    assert has(app.root, "review-0") or has(app.root, "review-1")
    app.open_review(other)
    assert app.screen != "review" or app.review is None
    assert app.error and "newer version" in app.error
    app.open_review(gid)
    assert app.screen == "review" and app.review is not None
    store.close()


def test_a_pad_typed_at_the_review_address_is_sent_home_with_a_reason(tmp_path: Path) -> None:
    from companion.library.pad_kinds import heritage

    store = TinyDBGameStore(tmp_path)
    doc = json.loads((EXAMPLES / "heritage-game.json").read_text())
    gid = GameSession(store).new_pad(heritage(), doc).header.game_id
    app = build(Library(store))
    app.open_address(f"/review/{gid}")
    assert app.review is None and app.screen == "home"
    assert app.error and "Heritage" in app.error
    store.close()
