"""Statistics kept between renders: totals per chunk of the history merge into
exactly what one pass over every summary gives; the service counts again only what changed."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.library.stats_cache as service_module
from companion.library.library import Library
from companion.library.stats import compute, finish, merge, tally, totals_doc, totals_of
from companion.storage import TinyDBGameStore, history
from tests.storage_helpers import entry, header

NAMES = ["Ann", "ann ", "Bo", "Cy", "Di", "Eve", "Fay"]  # "ann " is Ann, first seen or not
CLANS = ["Brujah", "Gangrel", "Malkavian", "Nosferatu", "Toreador", "Tremere", "Ventrue"]


@st.composite
def summaries(draw: st.DrawFn) -> dict[str, Any]:
    """A history summary of a finished (mostly) or unfinished game, tag team or not."""
    n = draw(st.integers(3, 6))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=n, max_size=n, unique=True))
    tag = n in (4, 6) and draw(st.booleans())
    teams = [f"Team {i % (n // 2) + 1}" for i in range(n)] if tag else [None] * n
    finished = draw(st.integers(0, 9)) > 0
    winner = (draw(st.sampled_from(teams if tag else names)) if finished and
              draw(st.integers(0, 9)) else None)
    standings = [{"name": name, "clan": draw(st.sampled_from(CLANS + [None])), "team": team,
                  "influence": draw(st.integers(0, 30)), "frenzies": draw(st.integers(0, 2)),
                  "diablerie": draw(st.integers(0, 2))} for name, team in zip(names, teams,
                                                                               strict=True)]
    day = draw(st.dates(date(2024, 1, 1), date(2024, 12, 31)))
    havens = draw(st.lists(st.sampled_from([*names, None]), max_size=3))
    return {"created": f"{day.isoformat()}T20:00:00+00:00", "finished": finished,
            "winner": winner, "player_count": n, "players": names,
            "standings": standings, "haven_winners": havens,
            "variants": {"relics": draw(st.booleans()), "location_cards": draw(st.booleans()),
                         "tag_team": tag}}


FILTERS = st.fixed_dictionaries({}, optional={
    "since": st.dates(date(2024, 1, 1), date(2024, 12, 31)),
    "until": st.dates(date(2024, 1, 1), date(2024, 12, 31)),
    "player_count": st.one_of(st.integers(3, 6), st.lists(st.integers(3, 6), max_size=3)),
    "variants": st.dictionaries(st.sampled_from(["relics", "location_cards", "tag_team"]),
                                st.booleans()),
})


@settings(max_examples=150, deadline=None)
@given(st.lists(summaries(), max_size=40), st.lists(st.integers(0, 40), max_size=6), FILTERS)
def test_totals_of_chunks_merge_into_one_pass(games: list[dict], cuts: list[int],
                                              filters: dict[str, Any]) -> None:
    bounds = [0, *sorted(cuts), len(games)]
    chunks = [games[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    parts = [tally(chunk, **filters) for chunk in chunks]
    assert finish(merge(parts)) == compute(games, **filters)
    assert finish(merge(parts)) == finish(merge(parts))  # merging changes no part


def stored(i: int, minutes: int, won: bool = True) -> dict[str, Any]:
    """Game i with one more name each time, won by Ann or not finished."""
    return {"created": f"2024-01-01T00:{minutes // 60 % 60:02d}:{minutes % 60:02d}+00:00",
            "updated": f"2024-01-01T00:{minutes // 60 % 60:02d}:{minutes % 60:02d}+00:00",
            "finished": won, "winner": "Ann" if won else None, "player_count": 3,
            "players": ["Ann", "Bo", f"P{i}"],
            "standings": [{"name": "Ann", "clan": "Brujah", "influence": 20},
                          {"name": "Bo", "clan": "Tremere", "influence": 10 + i % 7},
                          {"name": f"P{i}", "clan": "Ventrue", "influence": i % 13}],
            "haven_winners": ["Ann", None, f"P{i}"],
            "variants": {"relics": i % 2 == 0, "location_cards": False, "tag_team": False}}


def test_the_service_counts_only_the_chunks_that_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "SHARD_SIZE", 10)
    counted: list[int] = []

    def spy(summaries, **filters):  # type: ignore[no-untyped-def]
        rows = list(summaries)
        counted.append(len(rows))
        return tally(rows, **filters)

    monkeypatch.setattr(service_module, "tally", spy)
    store = TinyDBGameStore(tmp_path)
    for i in range(60):
        store.create_game(header(f"s{i:02d}"), stored(i, i, won=i % 5 != 0))
    svc = Library(store)
    first = svc.stats()
    assert first == compute(store.summaries(finished=True)) and first.games == 48
    assert len(counted) == 6  # one per shard
    assert svc.stats() is first and svc.stats(since=None, variants=None) is first
    assert len(counted) == 6  # kept: nothing changed
    relics = svc.stats(variants={"relics": True})
    assert relics == compute(store.summaries(finished=True), variants={"relics": True})
    assert len(counted) == 12
    store.append("s33", entry(0), stored(33, 33, won=False))  # same shard, no longer won
    counted.clear()
    again = svc.stats()
    assert counted == [7] and again.games == 47  # only its shard, finished games only
    assert again == compute(store.summaries(finished=True))
    store.append("s07", entry(0), stored(7, 999))  # moves to the newest shard
    store.create_game(header("s99"), stored(99, 1000))
    counted.clear()
    assert svc.stats() == compute(store.summaries(finished=True))
    assert len(counted) == 2  # the shard it left, the one it joined
    store.close()
    reopened = Library(TinyDBGameStore(tmp_path))
    assert reopened.stats() == svc.stats()


def test_statistics_are_warmed_in_the_background(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    for i in range(8):
        store.create_game(header(f"w{i}"), stored(i, i))
    svc = Library(store)
    svc.warm_stats().join(10)
    kept = svc.statistics._stats[()]
    assert svc.stats() is kept[1] and kept[1].games == 8


@settings(max_examples=60, deadline=None)
@given(st.lists(summaries(), max_size=30), FILTERS)
def test_totals_written_and_read_back_give_the_same_statistics(
        games: list[dict], filters: dict[str, Any]) -> None:
    t = tally(games, **filters)
    doc = json.loads(json.dumps(totals_doc(t)))  # as on disk
    assert finish(totals_of(doc)) == finish(t) == compute(games, **filters)


@pytest.mark.parametrize("bad", [
    b"not json", b"[]", b'{"format": 999, "chunks": {}}', b'{"format": 1}',
    b'{"format": 1, "chunks": {"x.1": {"games": "many"}}}',
    b'{"format": 1, "chunks": {"x.1": {"games": 1, "frenzies": 0, "diablerie": 0, '
    b'"haven": [[0, 0]], "clans": [], "players": [], "lengths": []}}}',
    b'{"format": 1, "chunks": []}',
])
def test_statistics_kept_on_disk_survive_a_restart_and_a_bad_file_is_counted_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: bytes) -> None:
    monkeypatch.setattr(history, "SHARD_SIZE", 10)
    counted: list[int] = []

    def spy(summaries, **filters):  # type: ignore[no-untyped-def]
        rows = list(summaries)
        counted.append(len(rows))
        return tally(rows, **filters)

    monkeypatch.setattr(service_module, "tally", spy)
    store = TinyDBGameStore(tmp_path)
    for i in range(40):
        store.create_game(header(f"k{i:02d}"), stored(i, i, won=i % 5 != 0))
    svc = Library(store)
    first = svc.stats()
    svc.save_stats()
    store.close()
    note = tmp_path / "index" / "note-stats.json"
    assert note.exists()

    counted.clear()  # a restart: every chunk's totals come from the disk
    store = TinyDBGameStore(tmp_path)
    svc = Library(store)
    assert svc.stats() == first and counted == []
    store.append("k21", entry(0), stored(21, 21, won=False))  # one chunk changes
    assert svc.stats() == compute(store.summaries(finished=True)) and counted == [7]
    svc.save_stats()
    store.close()

    counted.clear()
    store = TinyDBGameStore(tmp_path)
    svc = Library(store)
    assert svc.stats() == compute(store.summaries(finished=True)) and counted == []
    store.close()

    merged = tmp_path / "index" / "note-stats-all.json"
    assert merged.exists()
    merged.write_bytes(bad)  # damaged, of another version, or the wrong shape: per chunk then
    counted.clear()
    store = TinyDBGameStore(tmp_path)
    assert Library(store).stats() == compute(store.summaries(finished=True)) and counted == []
    store.close()
    note.write_bytes(bad)  # both: every chunk is counted again
    counted.clear()
    store = TinyDBGameStore(tmp_path)
    again = Library(store).stats()
    assert again == compute(store.summaries(finished=True)) and len(counted) == 4
    store.close()


def test_a_review_only_store_does_not_write_the_statistics(tmp_path: Path) -> None:
    store = TinyDBGameStore(tmp_path)
    for i in range(5):
        store.create_game(header(f"r{i}"), stored(i, i))
    store.close()
    reader = Library(TinyDBGameStore(tmp_path, read_only=True))
    assert reader.stats().games == 5
    reader.save_stats()
    assert not (tmp_path / "index" / "note-stats.json").exists()
