"""The history index with many generated games."""

from __future__ import annotations

import random
import time
from pathlib import Path

from companion.storage import TinyDBGameStore
from tests.storage_helpers import entry, header, summary

N = 2000


def test_history_with_many_games(tmp_path: Path) -> None:
    rng = random.Random(7)
    minutes = rng.sample(range(1, 10 * N), N)  # distinct "updated" times
    store = TinyDBGameStore(tmp_path)
    for i, m in enumerate(minutes):
        store.create_game(header(f"g{i:05d}", m), summary(m, rnd=1 + i % 5, finished=i % 3 != 0))
    for i in range(0, N, 100):  # some games move on after being created
        minutes[i] += 10 * N
        store.append(f"g{i:05d}", entry(i), summary(minutes[i], rnd=6, finished=i % 3 != 0))
    expected = [f"g{i:05d}" for i in sorted(range(N), key=lambda i: -minutes[i])]

    def check(s: TinyDBGameStore) -> None:
        start = time.perf_counter()
        listed = s.list_games()
        elapsed = time.perf_counter() - start
        assert [g["game_id"] for g in listed] == expected
        assert elapsed < 0.5, f"listing {N} games took {elapsed:.2f} s"
        unfinished = s.list_games(finished=False)
        assert [g["game_id"] for g in unfinished] == [g for g in expected if int(g[1:]) % 3 == 0]
        assert all(g["finished"] is False for g in unfinished)
        assert len(s.list_games(finished=True)) == N - len(unfinished)
        by_id = {g["game_id"]: g for g in listed}
        assert by_id["g00100"]["round"] == 6 and by_id["g00101"]["round"] == 2
        assert by_id["g00101"]["players"] == ["Ann", "Bo", "Cy", "Di"]

    check(store)
    store.close()
    start = time.perf_counter()
    reopened = TinyDBGameStore(tmp_path)
    assert time.perf_counter() - start < 2.0
    check(reopened)
    reopened.delete_game("g00000")
    assert len(reopened.list_games()) == N - 1
