"""Kill-test of the history index: a child changes games and checkpoints the index after
every change (so most kills land inside a checkpoint), and is SIGKILLed at random moments."""

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

from companion.storage import MemoryGameStore, TinyDBGameStore
from companion.storage.files import latest_summary
from tests.storage_helpers import header

ROOT = Path(__file__).resolve().parent.parent
KILLS = 30
GAMES = 60

CHILD = """
import random, sys
from companion.storage import TinyDBGameStore, history
from tests.storage_helpers import entry, header
from tests.test_storage_index_kill import moved
history.SHARD_SIZE = 6
root, seed, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
store = TinyDBGameStore(root)
for i in range(games):
    if not store.has_game(f"k{i:03d}"):
        store.create_game(header(f"k{i:03d}"), moved(i, 0, False))
print("ready", [str(d.path) for d in store.damaged()], flush=True)
n = 0
while True:
    i = rng.randrange(games)
    if rng.random() < 0.1:
        store.delete_game(f"k{i:03d}")
        store.create_game(header(f"k{i:03d}"), moved(i, n, False))
    else:
        store.append(f"k{i:03d}", entry(n), moved(i, rng.randrange(10**6), rng.random() < .5))
    print("ok", n, flush=True)
    n += 1
    store.flush()
"""


def moved(i: int, minutes: int, finished: bool) -> dict:
    """Game i's summary after a change at `minutes` (its key moves it between shards)."""
    return {"players": [f"P{i}", "Ann"], "round": 1 + minutes % 3, "finished": finished,
            "winner": "Ann" if finished else None, "created": "2024-01-01T00:00:00+00:00",
            "updated": f"2024-01-01T00:00:00.{minutes:06d}+00:00"}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_checkpoints_leaves_an_index_equal_to_the_journals(
        tmp_path: Path) -> None:
    rng = random.Random(9)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    confirmed = 0
    deadline = time.monotonic() + 150
    for cycle in range(KILLS):
        assert time.monotonic() < deadline, f"too slow: {cycle} kills in 150 s"
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), str(cycle),
                                 str(GAMES)], cwd=ROOT, env=env, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready []\n", "a child found damage at open"
        for _ in range(rng.randint(0, 30)):
            confirmed += proc.stdout.readline().startswith(b"ok ")
        time.sleep(rng.uniform(0.0, 0.01))  # somewhere in an append or a checkpoint
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, "child died by itself"
    assert confirmed > 200, "too few changes"

    store = TinyDBGameStore(tmp_path)
    assert store.damaged() == [] and not list(tmp_path.rglob("*.damaged-*"))
    truth = MemoryGameStore()  # what the journals say
    for path in (tmp_path / "games").glob("*.jsonl"):
        truth.create_game(header(path.stem), latest_summary(path))
    assert truth.count_games() == GAMES
    for finished in (None, True, False):
        assert store.count_games(finished) == truth.count_games(finished)
        assert store.list_games(finished) == truth.list_games(finished)
        assert store.list_games(finished, 7, offset=20) == truth.list_games(finished, 7,
                                                                            offset=20)
    store.close()
    assert not list(tmp_path.rglob("*.tmp")) and not list((tmp_path / "dirty").iterdir())
    manifest = json.loads((tmp_path / "index" / "manifest.json").read_bytes())
    named = {f"shard-{row['file']}.json" for row in manifest["shards"].values()}
    assert {p.name for p in (tmp_path / "index").glob("shard-*")} == named  # no leftovers
