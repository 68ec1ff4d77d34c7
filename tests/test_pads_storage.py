"""Heritage and Blood Feud pads in the data folder beside Vendetta games: listed, resumed,
undone, backed up and restored whole, never counted in Vendetta's statistics, and never losing
a confirmed save to a kill."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli.main import Script
from companion.library.backups import backup_file
from companion.library.games import load_game, validate_game_document
from companion.library.library import Library
from companion.library.pad import PadError
from companion.library.pad_kinds import blood_feud, heritage
from companion.library.session import GameSession
from companion.storage import TinyDBGameStore
from companion.storage.files import dumps

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def heritage_doc() -> dict:
    return json.loads((EXAMPLES / "heritage-game.json").read_text())


def feud_doc() -> dict:
    doc = json.loads((EXAMPLES / "bloodfeud-session.json").read_text())
    return {k: v for k, v in doc.items() if k not in ("format", "version")}


def vendetta(session: GameSession, name: str) -> str:
    script = Script.model_validate(json.loads((EXAMPLES / name).read_text()))
    game = session.new_game(script.start.setup or script.start.position)
    for action in script.actions:
        session.play(action)
    return game.header.game_id


def test_a_pad_is_saved_resumed_and_undone(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    session = GameSession(store)
    doc = heritage_doc()
    pad = session.new_pad(heritage(), {**doc, "rounds_played": 3})
    gid = pad.header.game_id
    assert store.list_games()[0]["finished"] is False  # round 3 of 9: no winner yet
    session.play({"type": "record", "doc": doc})  # the last round played: Ben wins
    assert store.list_games()[0]["winner"] == "Ben"
    with pytest.raises(PadError, match="rounds"):
        session.play({"type": "record", "doc": {**doc, "rounds_played": 12}})
    assert len(store.load(gid).entries) == 1  # the refused save left the journal alone
    session.undo()
    assert store.list_games()[0]["winner"] is None
    session.redo()
    store.close()
    again = TinyDBGameStore(tmp_path)
    resumed = load_game(again, gid)
    assert resumed.doc == pad.doc and len(resumed.actions) == 1
    assert again.list_games()[0]["game"] == "heritage"
    again.close()


def test_vendetta_statistics_are_byte_identical_with_other_games_beside(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    session = GameSession(store)
    for name in ("four_players.json", "three_players.json"):
        vendetta(session, name)
    before = dumps(Library(store).stats().model_dump(mode="json"))
    session.new_pad(heritage(), heritage_doc())
    session.new_pad(blood_feud(), feud_doc())
    library = Library(store)
    assert dumps(library.stats().model_dump(mode="json")) == before
    assert library.pad_stats("heritage") == {
        "games": 1, "players": {"Ana": [1, 0], "Ben": [1, 1], "Cleo": [1, 0]},
        "clans": {"Brujah": [1, 0], "Ventrue": [1, 1], "Tremere": [1, 0]}}
    feud = library.pad_stats("bloodfeud")
    assert feud["games"] == 1 and sum(w for _, w in feud["players"].values()) >= 1
    store.close()


def test_a_backup_of_all_three_games_restores_whole(tmp_path: Path) -> None:
    source = TinyDBGameStore(tmp_path / "a")
    session = GameSession(source)
    ids = {vendetta(session, "three_players.json"),
           session.new_pad(heritage(), heritage_doc()).header.game_id,
           session.new_pad(blood_feud(), feud_doc()).header.game_id}
    _, data = backup_file(Library(source))
    source.close()
    target = TinyDBGameStore(tmp_path / "b")
    restored = Library(target).restore_backup(json.loads(data))
    assert set(restored) == ids
    assert {s["game"] for s in target.list_games()} == {"vendetta", "heritage", "bloodfeud"}
    target.close()


def test_a_tampered_pad_is_refused_on_import(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    pad = GameSession(store).new_pad(heritage(), heritage_doc())
    doc = store.export_game(pad.header.game_id)
    doc["header"]["start"]["setup"]["players"].append({"name": "Dee", "clan": "Gangrel"})
    doc["header"]["start"]["setup"]["players"].append({"name": "Eve", "clan": "Nosferatu"})
    with pytest.raises(PadError, match="header"):
        validate_game_document(doc)
    store.close()


CHILD = """
import json, sys
from companion.library.pad_kinds import heritage
from companion.library.session import GameSession
from companion.library.games import load_game
from companion.storage import TinyDBGameStore
store = TinyDBGameStore(sys.argv[1])
doc = json.load(open(sys.argv[2]))
session = GameSession(store)
listed = store.list_games()
if listed:
    session.open_game(listed[0]["game_id"])
else:
    session.new_pad(heritage(), {**doc, "rounds_played": 0})
print("open", flush=True)
n = session.game.model.rounds_played
while True:
    n = (n + 1) % 10
    session.play({"type": "record", "doc": {**doc, "rounds_played": n}})
    print("ok", n, len(session.game.actions), flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killing_a_pad_mid_save_never_loses_a_confirmed_save(tmp_path: Path) -> None:
    rng = random.Random(24)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    last: tuple[int, int] | None = None
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "data"),
                                 str(EXAMPLES / "heritage-game.json")],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        target, oks, lines = rng.randint(1, 15), 0, []
        while oks < target and (line := proc.stdout.readline()):
            lines.append(line)
            oks += line.startswith(b"ok ")
        time.sleep(rng.uniform(0.0, 0.003))
        proc.send_signal(signal.SIGKILL)
        lines += proc.stdout.read().split(b"\n")[:-1]
        proc.wait()
        for line in lines:
            words = line.decode().split()
            if words and words[0] == "ok":
                last = (int(words[1]), int(words[2]))
        store = TinyDBGameStore(tmp_path / "data")
        (summary,) = store.list_games()
        pad = load_game(store, summary["game_id"])
        assert last is not None and len(pad.actions) >= last[1]
        if len(pad.actions) == last[1]:
            assert pad.model.rounds_played == last[0]
        store.close()
