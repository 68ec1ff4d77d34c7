"""Home and Statistics with many stored games: pages of games, never the whole
history; statistics kept between renders and counted again after every change."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.library.library import Library
from companion.storage import MemoryGameStore, TinyDBGameStore, history
from tests.storage_helpers import entry, header, stamp
from tests.ui import click, find, has, ids, value
from views.app import build
from views.home import PAGE


def summary(i: int, finished: bool) -> dict[str, Any]:
    """Game i, updated at minute i, won by its first player if finished."""
    players = [f"A{i}", "Bo", "Cy"]
    return {"players": players, "round": 2, "phase": "planning", "finished": finished,
            "winner": players[0] if finished else None, "scores": None,
            "created": stamp(i), "updated": stamp(i), "player_count": 3,
            "standings": [{"name": p, "clan": "Brujah", "influence": 10} for p in players]}


def shown(app) -> int:  # type: ignore[no-untyped-def]
    return sum(i.startswith("review-") for i in ids(app.root))


@pytest.fixture(params=["memory", "files"])
def store(request, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(history, "SHARD_SIZE", 16)
    s = MemoryGameStore() if request.param == "memory" else TinyDBGameStore(tmp_path)
    for i in range(100):  # 1 in 4 in progress: 25 in progress, 75 finished
        s.create_game(header(f"h{i:03d}", i), summary(i, finished=i % 4 != 0))
    yield s
    s.close()


def test_home_shows_a_page_of_each_kind_and_turns_pages(store) -> None:  # type: ignore[no-untyped-def]
    live, past = PAGE[False], PAGE[True]
    assert live < 25 and past < 75  # 25 games in progress, 75 finished: several pages each
    app = build(Library(store))
    assert shown(app) == live + past
    assert value(app.root, "live-shown") == f"1–{live} of 25"
    assert value(app.root, "past-shown") == f"1–{past} of 75"
    assert find(app.root, "past-newer").disabled and find(app.root, "live-newer").disabled
    pages = -(-75 // past)
    for k in range(1, pages):
        click(app.root, "past-older")
        assert value(app.root, "past-shown") == f"{k * past + 1}–{min(75, (k + 1) * past)} of 75"
    assert find(app.root, "past-older").disabled
    assert shown(app) == live + 75 - (pages - 1) * past
    click(app.root, "live-older")
    on_live = min(live, 25 - live)
    assert value(app.root, "live-shown") == f"{live + 1}–{live + on_live} of 25"
    click(app.root, "past-newer")
    start = (pages - 2) * past
    assert value(app.root, "past-shown") == f"{start + 1}–{start + past} of 75"
    opened: list[str] = []
    app.open_review = opened.append  # type: ignore[method-assign]
    click(app.root, f"review-{on_live}")  # the first past game of that page
    games = [f"h{i:03d}" for i in range(99, -1, -1) if i % 4]
    assert opened == [games[start]]


def test_a_shrinking_history_keeps_the_page_in_range(store) -> None:  # type: ignore[no-untyped-def]
    app = build(Library(store))
    click(app.root, "past-older")
    click(app.root, "past-older")
    for i in range(100):
        if i % 4 and i > 10:
            app.library.store.delete_game(f"h{i:03d}")
    app.go("home")  # 8 past games left: one page, no pager
    assert "past-shown" not in ids(app.root)
    assert shown(app) == PAGE[False] + 8


def test_statistics_are_kept_and_counted_again_after_a_change(store) -> None:  # type: ignore[no-untyped-def]
    app = build(Library(store))
    click(app.root, "stats")
    assert value(app.root, "stats-games").startswith("75 finished")
    kept = app.library.stats()
    app.go("home")
    click(app.root, "stats")
    assert app.library.stats() is kept  # nothing changed: not counted again
    app.library.store.append("h000", entry(0), summary(100, finished=True))
    app.go("stats")
    assert value(app.root, "stats-games").startswith("76 finished")
    app.library.store.delete_game("h099")
    app.go("stats")
    assert value(app.root, "stats-games").startswith("75 finished")


def test_statistics_show_at_most_a_page_of_players(tmp_path: Path) -> None:
    from views.stats_page import PLAYERS_SHOWN

    store = MemoryGameStore()
    for i in range(PLAYERS_SHOWN + 10):  # a new first player each game: many players
        store.create_game(header(f"p{i:03d}", i), summary(i, finished=True))
    app = build(Library(store))
    click(app.root, "stats")
    total = PLAYERS_SHOWN + 10 + 2  # the new first players, Bo and Cy

    def shown_players() -> list[str]:
        return [i for i in ids(app.root) if i.startswith("player-stats-")]

    assert shown_players() == [f"player-stats-{k}" for k in range(PLAYERS_SHOWN)]
    assert value(app.root, "players-shown") == f"1–{PLAYERS_SHOWN} of {total}"
    assert find(app.root, "players-newer").disabled
    click(app.root, "players-older")
    assert shown_players() == [f"player-stats-{k}" for k in range(PLAYERS_SHOWN, 2 * PLAYERS_SHOWN)]
    assert value(app.root, "players-shown") == f"{PLAYERS_SHOWN + 1}–{2 * PLAYERS_SHOWN} of {total}"
    click(app.root, "players-older")
    assert len(shown_players()) == total - 2 * PLAYERS_SHOWN
    assert find(app.root, "players-older").disabled
    click(app.root, "players-newer")
    assert value(app.root, "players-shown").startswith(f"{PLAYERS_SHOWN + 1}–")


def next_step(steps: list[Any]) -> Any:
    """The one redraw the finished count asked the page's loop for (waited for, 5 s at most)."""
    for _ in range(100):
        if steps:
            break
        time.sleep(0.05)
    assert len(steps) == 1
    return steps.pop()


def test_a_long_count_shows_counting_and_the_figures_when_they_are_ready(
        store, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import companion.library.stats_cache as service_module
    import views.stats_page as stats_page
    from companion.library.stats import compute, tally

    gate = threading.Event()

    def slow(summaries, **filters):  # type: ignore[no-untyped-def]
        assert gate.wait(10), "the count was never let through"
        return tally(summaries, **filters)

    monkeypatch.setattr(service_module, "tally", slow)
    monkeypatch.setattr(stats_page, "STATS_WAIT", 0.01)
    app = build(Library(store))
    steps: list[Any] = []
    app.later = steps.append  # the page's loop: run by hand below
    click(app.root, "stats")
    assert value(app.root, "stats-counting") == "Counting 75 finished games…"
    assert not has(app.root, "stats-games")
    future = app.library.stats_future()
    app.render()  # drawn again while counting (e.g. turned): still one count, one redraw asked
    assert app.library.stats_future() is future and has(app.root, "stats-counting")
    app.go("home")  # other screens work meanwhile
    assert shown(app) == PAGE[False] + PAGE[True]
    click(app.root, "stats")
    gate.set()
    assert future.result(10) == compute(store.summaries(finished=True))
    next_step(steps)()
    assert value(app.root, "stats-games").startswith("75 finished")
    assert not has(app.root, "stats-counting")

    gate.clear()  # a change, counted again while the player has left the screen
    app.library.store.append("h000", entry(0), summary(100, finished=True))
    app.go("stats")
    assert has(app.root, "stats-counting")
    app.go("home")
    renders = app.renders
    gate.set()
    app.library.stats_future().result(10)
    next_step(steps)()
    assert app.renders == renders and app.screen == "home"  # not drawn over another screen
    app.go("stats")
    assert value(app.root, "stats-games").startswith("76 finished") and not steps


def test_a_count_that_fails_is_said_by_the_future(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.library.stats_cache as service_module

    def broken(summaries, **filters):  # type: ignore[no-untyped-def]
        raise OSError(5, "Input/output error")

    store = MemoryGameStore()
    store.create_game(header("f0", 0), summary(0, finished=True))
    monkeypatch.setattr(service_module, "tally", broken)
    svc = Library(store)
    with pytest.raises(OSError, match="Input/output"):
        svc.stats_future().result(10)
    monkeypatch.undo()  # the disk is back: asked again, counted again
    assert svc.stats_future().result(10).games == 1
    store.create_game(header("f1", 1), summary(1, finished=True))
    assert svc.stats_future().result(10).games == 2
