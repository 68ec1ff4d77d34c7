"""The history index with many generated games."""

from __future__ import annotations

import random
from pathlib import Path

from companion.storage import TinyDBGameStore
from companion.storage.files import journal_bytes
from tests.storage_helpers import entry, header, summary

N = 2000


def test_history_with_many_games(tmp_path: Path) -> None:
    rng = random.Random(7)
    minutes = rng.sample(range(1, 10 * N), N)  # distinct "updated" times
    (tmp_path / "games").mkdir()
    for i, m in enumerate(minutes):  # generated in bulk, as files an earlier session left
        gid = f"g{i:05d}"
        s = summary(m, rnd=1 + i % 5, finished=i % 3 != 0)
        (tmp_path / "games" / f"{gid}.jsonl").write_bytes(journal_bytes(header(gid, m), [], s))
    store = TinyDBGameStore(tmp_path)  # no index yet: built from the journals
    for i in range(0, N, 100):  # some games move on, through the real path
        minutes[i] += 10 * N
        store.append(f"g{i:05d}", entry(i), summary(minutes[i], rnd=6, finished=i % 3 != 0))
    store.create_game(header("newest"), summary(100 * N))
    expected = ["newest"] + [f"g{i:05d}" for i in sorted(range(N), key=lambda i: -minutes[i])]

    def check(s: TinyDBGameStore) -> None:
        listed = s.list_games()  # (its speed is measured by bench/run_all.py, not here)
        assert [g["game_id"] for g in listed] == expected
        unfinished = s.list_games(finished=False)
        assert [g["game_id"] for g in unfinished] == [
            g for g in expected if g == "newest" or int(g[1:]) % 3 == 0]
        assert all(g["finished"] is False for g in unfinished)
        assert len(s.list_games(finished=True)) == N + 1 - len(unfinished)
        assert [g["game_id"] for g in s.list_games(limit=3)] == expected[:3]
        by_id = {g["game_id"]: g for g in listed}
        assert by_id["g00100"]["round"] == 6 and by_id["g00101"]["round"] == 2
        assert by_id["g00101"]["players"] == ["Ann", "Bo", "Cy", "Di"]

    check(store)
    store.close()
    reopened = TinyDBGameStore(tmp_path)  # from the index this time
    check(reopened)
    assert reopened.load("g00100").entries == [entry(100)]
    reopened.delete_game("g00000")
    assert len(reopened.list_games()) == N
