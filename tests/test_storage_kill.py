"""Kill-test: a child appends in a loop and is SIGKILLed at random moments, many times."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.storage import TinyDBGameStore
from companion.storage.files import read_journal
from tests.storage_helpers import entry, summary

ROOT = Path(__file__).resolve().parent.parent
KILLS = 120
KILLS_PER_GAME = 12

CHILD = """
import sys
from companion.storage import TinyDBGameStore
from tests.storage_helpers import entry, header, summary
root, cycle = sys.argv[1], int(sys.argv[2])
store = TinyDBGameStore(root)
gid = f"game-{cycle // int(sys.argv[3])}"
if not store.has_game(gid):
    store.create_game(header(gid), summary(0))
    print("created", gid, flush=True)
n = len(store.load(gid).entries)
print("open", flush=True)
while True:
    store.append(gid, entry(n), summary(n, rnd=n // 10 + 1))
    print("ok", gid, n, flush=True)
    n += 1
    if n % 50 == 0:
        store.flush()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_never_loses_a_confirmed_entry(tmp_path: Path) -> None:
    rng = random.Random(4)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    confirmed: dict[str, int] = {}  # game -> highest confirmed entry index
    created: set[str] = set()
    deadline = time.monotonic() + 120
    for cycle in range(KILLS):
        assert time.monotonic() < deadline, f"too slow: {cycle} kills in 120 s"
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), str(cycle),
                                 str(KILLS_PER_GAME)],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        lines: list[bytes] = []
        if rng.random() < 0.2:  # anywhere, including while opening/recovering/creating
            time.sleep(rng.uniform(0.0, 0.25))
        else:  # while appending: after a random number of confirmed appends, whatever the speed
            target, oks = rng.randint(0, 40), 0
            while oks < target and (line := proc.stdout.readline()):
                lines.append(line)
                oks += line.startswith(b"ok ")
            time.sleep(rng.uniform(0.0, 0.002))
        proc.send_signal(signal.SIGKILL)
        lines += proc.stdout.read().split(b"\n")[:-1]  # only complete lines were confirmed
        proc.wait()
        for line in lines:
            words = line.decode().split()
            if words[0] == "ok":
                confirmed[words[1]] = max(confirmed.get(words[1], -1), int(words[2]))
            elif words[0] == "created":
                created.add(words[1])
        assert proc.returncode == -signal.SIGKILL, "child died by itself"
    assert sum(n + 1 for n in confirmed.values()) > 1000, "too few confirmed appends"

    store = TinyDBGameStore(tmp_path)
    assert store.damaged() == []
    assert not list(tmp_path.rglob("*.damaged-*"))
    listed = {s["game_id"]: s for s in store.list_games()}
    assert created <= set(listed)
    for gid in listed:
        game = store.load(gid)
        last = confirmed.get(gid, -1)
        n = len(game.entries)
        # each killed child may leave its one in-flight (unconfirmed) entry behind
        assert last + 1 <= n <= last + 1 + KILLS_PER_GAME, f"{gid}: {n}, {last + 1} confirmed"
        assert game.entries == [entry(i) for i in range(n)]
        want = summary(n - 1, rnd=(n - 1) // 10 + 1) if n else summary(0)
        assert game.summary == want and listed[gid]["round"] == want["round"]
        read_journal(tmp_path / "games" / f"{gid}.jsonl")
    store.close()
    assert not list(tmp_path.rglob("*.tmp"))
