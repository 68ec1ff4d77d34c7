"""a table survives a server restart — seats, pending secret choices, nothing lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.library.session import GameSession
from companion.rules.errors import StaleVersion
from companion.storage import TinyDBGameStore
from models.table import Board, Seat
from tests.table_helpers import DOWN, Devices, make_hub, plain, position, seated

ROOT = Path(__file__).resolve().parent.parent


def withdraw_position():
    return position(3, {"1": {"Ann": ([DOWN], 1), "Bo": ([plain(3)], 0),
                              "Cy": ([plain(2)], 0)}})


def test_seats_and_pending_choices_come_back_after_a_restart(tmp_path):
    dev = Devices()
    hub = make_hub(tmp_path)
    table = hub.new_table(withdraw_position())
    seated(table, dev)
    table.choose(dev.ann, 0, "withdraw", table.version)
    table.choose(dev.bo, 1, "stay", table.version)
    hub.store.close()

    again = make_hub(tmp_path)
    back = again.get(table.table_id)
    assert back.role_of(dev.ann) == Seat(player=0) and back.role_of(dev.board) == Board()
    assert back.view(dev.ann).withdraw.mine == "withdraw"
    assert back.view(dev.bo).withdraw.mine == "stay"
    board = back.view(dev.board).withdraw
    assert (board.chosen, board.of, board.mine, board.revealed) == (2, 3, None, None)
    back.choose(dev.cy, 2, "stay", back.version)
    assert back.view_for(Board()).withdraw.revealed == {0: "withdraw", 1: "stay", 2: "stay"}
    uid = back.view(dev.ann).allowed.name_cards[0]
    back.name_cards(dev.ann, {uid: plain(4)}, back.version)
    assert back.game.actions[-1].command.withdraw == [0]


def test_choices_of_a_step_the_game_has_left_are_dropped_at_load(tmp_path):
    """The game moved on (an undo stored just before a crash) but the table file still holds
    the choices: at load they no longer match the game and are dropped."""
    dev = Devices()
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3, {"1": {"Ann": ([plain(1)], 0), "Bo": ([plain(3)], 0)}},
                                   phase="planning", turns_taken=2))
    seated(table, dev)
    for name, p in (("ann", 0), ("bo", 1), ("cy", 2)):
        table.act(getattr(dev, name), {"type": "play_card", "player": p, "location": "2",
                                       "face_up": True, "card": plain(1)}, table.version)
    table.choose(dev.ann, 0, "stay", table.version)
    hub.store.close()
    other = GameSession(TinyDBGameStore(tmp_path))  # the undo reached the journal, not the table
    other.open_game(table.game_id)
    other.undo()
    other.store.close()
    back = make_hub(tmp_path).get(table.table_id)
    assert back.game.state.phase == "planning"
    assert back._record.pending is None  # noqa: SLF001
    record = json.loads((tmp_path / "tables" / f"{table.game_id}.json").read_text())
    assert record["pending"] is None


CHILD = """
import sys, time
from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub
from tests.table_helpers import DOWN, plain, position
root, ann, bo, cy, ref = sys.argv[1:6]
hub = TableHub(TinyDBGameStore(root))
table = hub.new_table(position(3, {"1": {"Ann": ([DOWN], 1), "Bo": ([plain(3)], 0),
                                         "Cy": ([plain(2)], 0)}}))
table.claim_referee(ref, table.referee_code)
for i, token in enumerate((ann, bo, cy)):
    table.claim_seat(token, i, table.seat_code(i))
table.choose(ann, 0, "withdraw", table.version)
table.choose(bo, 1, "stay", table.version)
print(table.table_id, table.version, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_server_comes_back_with_seats_and_secret_choices(tmp_path):
    dev = Devices()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), dev.ann, dev.bo,
                             dev.cy, dev.ref], cwd=ROOT, env=env, stdout=subprocess.PIPE)
    try:
        table_id, version = proc.stdout.readline().decode().split()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    hub = make_hub(tmp_path)
    table = hub.get(table_id)
    assert [table.role_of(d) for d in (dev.ann, dev.bo, dev.cy)] == [
        Seat(player=0), Seat(player=1), Seat(player=2)]
    assert table.view(dev.ann).withdraw.mine == "withdraw"
    ref = table.view(dev.ref).withdraw
    assert (ref.chosen, ref.of, ref.mine, ref.revealed) == (2, 3, None, None)
    with pytest.raises(StaleVersion, match="server restarted"):
        table.undo(dev.ref, int(version))  # drawn before the restart: refused
    table.choose(dev.cy, 2, "withdraw", int(version))  # an own choice carries no version
    assert table.view_for(Board()).withdraw.revealed == {0: "withdraw", 1: "stay",
                                                         2: "withdraw"}
    assert not table.game.actions  # Ann's face-down card is still to be named
