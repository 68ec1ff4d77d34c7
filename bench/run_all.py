"""Every speed figure of the app, each with its floor and ratio, in one run.

1. Load + replay of the longest example game vs "validate + fold once" (its floor) and vs a
   bare parse of the journal; the memory a replayed game holds.
2. Tap -> changed number vs a trivial Flet page: bench/tap_latency.py, if present.
3. With 10,000 stored games: launch -> home vs launch with an empty store; Home and Statistics
   taps, timed inside the page (a MutationObserver on the semantics tree, armed before the
   tap); store open, home listing, statistics (first and cached); the most list rows a screen
   shows.
4. Import time: bench/imports.py, if present.
5. 100,000 stored games: store open and home listing vs the 10,000 figures.

Data folders are written directly in the store's format (bench/datasets.py) and kept under
the temp dir for the next run. Not part of the test suite.

Run: python bench/run_all.py [--quick] [--no-browser]
(--quick: 200 and 1,000 games instead of 10,000 and 100,000, a check that it runs.)
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import inspect
import json
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import datasets  # noqa: E402
from figures import Row, median_ms, show  # noqa: E402
from inpage import chromium, in_page_tap  # noqa: E402
from serve import Served  # noqa: E402

from tests.browser.harness import sel  # noqa: E402

ROWS: list[Any] = []
"""Every row of the run (anything with `cells()`), in order."""


def add(*rows: Any) -> None:
    """Keep rows for the final table and print them now."""
    for r in rows:
        ROWS.append(r)
        print("  " + " | ".join(c for c in r.cells() if c), flush=True)


# --- 1. replay ----------------------------------------------------------------------------


def replay(game: Any, repeat: int) -> None:
    """Load + replay of the longest example vs its floors; a replayed game's memory."""
    from companion.library.games import summary
    from companion.rules.apply import apply_in_place, initial_state
    from companion.rules.game import Action, Game
    from companion.storage import TinyDBGameStore
    from models.commands import COMMAND_ADAPTER
    from models.events import EVENT_LIST_ADAPTER

    print(f"1. replay: {len(game.actions)} actions, {len(game.events)} events", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = TinyDBGameStore(tmp)
        gid = store.import_game({**game.to_document(), "summary": summary(game)})
        raw = (Path(tmp) / "games" / f"{gid}.jsonl").read_bytes()

        def parse() -> None:
            [json.loads(line) for line in raw.split(b"\n") if line]

        def validate_fold() -> None:
            stored = store.load(gid)
            state = initial_state(game.start_events[0])
            for e in stored.entries:
                if e.get("kind", "action") != "action":
                    continue
                events = EVENT_LIST_ADAPTER.validate_python(e["events"])
                Action(command=COMMAND_ADAPTER.validate_python(e["command"]), events=events,
                       at=e.get("at"))
                for event in events:
                    apply_in_place(state, event)

        def load_replay() -> None:
            stored = store.load(gid)
            Game.from_journal(stored.header, stored.entries)

        a, b, c = [], [], []
        for _ in range(repeat):  # interleaved: the same machine load for all three
            a.append(median_ms(parse, 1))
            b.append(median_ms(validate_fold, 1))
            c.append(median_ms(load_replay, 1))
        fold, ms = statistics.median(b), statistics.median(c)
        add(Row("parse the journal (bare JSON)", statistics.median(a)),
            Row("validate + fold once (floor)", fold),
            Row("load + replay, longest example", ms, floor=fold,
                floor_name="(validate+fold)", max_ratio=1.5))
        gc.collect()
        tracemalloc.start()
        stored = store.load(gid)
        before = tracemalloc.get_traced_memory()[0]
        kept = Game.from_journal(stored.header, stored.entries)
        del stored
        gc.collect()
        size = (tracemalloc.get_traced_memory()[0] - before) / 1e6
        tracemalloc.stop()
        add(Row("memory of the replayed game", size, "MB", max_value=1.5))
        del kept
        store.close()


# --- 2 and 4: other engineers' benches, if present ------------------------------------------


def other(name: str, label: str, argv: list[str]) -> None:
    """Run bench/<name>.py's `main(argv)` (imported by path) and keep the rows it returns."""
    path = HERE / f"{name}.py"
    print(label, flush=True)
    if not path.exists():
        print(f"  skipped: bench/{name}.py is not here", flush=True)
        return
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    main = module.main
    rows = main(argv) if inspect.signature(main).parameters else main()
    for r in rows or []:
        if hasattr(r, "cells"):
            ROWS.append(r)


def launch(browser: Any, data: Path) -> float:
    """ms from starting the server to the home screen shown in a browser."""
    served = Served("app", data)
    try:
        page = served.open(browser)
        page.wait_for_selector(sel("new-game"), state="attached")
        ms = (time.perf_counter() - served.started) * 1000
        page.context.close()
    finally:
        served.stop()
    return ms


def screens(browser: Any, data: Path, n: int) -> tuple[list[float], list[float], int]:
    """In-page ms of Statistics and Home taps (alternating; the first Statistics tap may
    count), and the most game rows the home screen showed."""
    served = Served("app", data)
    try:
        page = served.open(browser)
        page.wait_for_selector(sel("new-game"), state="attached")
        rows = page.locator('flt-semantics-host [flt-semantics-identifier^="game-"]').count()
        stats_ms, home_ms = [], []
        for _ in range(n):
            stats_ms.append(in_page_tap(page, "stats", "stats-games"))
            home_ms.append(in_page_tap(page, "home", "new-game"))
        page.context.close()
    finally:
        served.stop()
    return stats_ms, home_ms, rows


def first_stats(browser: Any, data: Path) -> float:
    """In-page ms of the first Statistics tap after a start (a single tap: noisy alone)."""
    served = Served("app", data)
    try:
        page = served.open(browser)
        page.wait_for_selector(sel("new-game"), state="attached")
        ms = in_page_tap(page, "stats", "stats-games")
        page.context.close()
    finally:
        served.stop()
    return ms


# --- 3 and 5. stores of many games ------------------------------------------------------------


def store_figures(root: Path, repeat: int) -> dict[str, float]:
    """Open, home listing (what the home screen reads), statistics counted from nothing,
    after a restart (totals kept on disk) and kept in memory."""
    from companion.library.library import Library
    from companion.storage import TinyDBGameStore
    from views.home import PAGE

    def opened() -> None:
        TinyDBGameStore(root).close()

    def home(store: Any) -> None:
        for finished in (False, True):
            store.count_games(finished)
            store.list_games(finished, PAGE[finished])

    def homes(store: Any, n: int = 100) -> None:  # sub-ms: timed over many, per listing
        for _ in range(n):
            home(store)

    open_ms = median_ms(opened, repeat)
    store = TinyDBGameStore(root)
    try:
        list_ms = median_ms(lambda: homes(store), repeat) / 100
        service = Library(store)
        store.load_note = lambda name: None  # type: ignore[method-assign]  # as if never counted
        first = median_ms(service.stats, 1)
        del store.load_note
        service.save_stats()  # what the app does at a session's end: kept for the next start
    finally:
        store.close()

    def restarted(n: int = 20) -> float:
        """As in a new process: open the store (not timed), then time the statistics of a
        new service on it (nothing in memory; sub-ms, so timed over `n` services)."""
        with TinyDBGameStore(root, read_only=True) as again:
            services = [Library(again) for _ in range(n)]
            start = time.perf_counter()
            for service in services:
                service.stats()
            return (time.perf_counter() - start) * 1000 / n

    restart = statistics.median(restarted() for _ in range(repeat))
    store = TinyDBGameStore(root)
    try:
        service = Library(store)
        service.stats()
        cached = median_ms(service.stats, repeat)
    finally:
        store.close()
    return {"open": open_ms, "list": list_ms, "stats": first, "restart": restart,
            "cached": cached}


def stores(game: Any, browser: Any | None, repeat: int, base: int, big: int,
           taps_each: int) -> None:
    """Figures of stores of `base` and `big` games (and an empty one); the browser's, unless
    `browser` is None, with `taps_each` taps per screen."""
    print(f"3/5. stored games: 0, {base:,} and {big:,}", flush=True)
    folders = {}
    for n in (0, base, big):
        folders[n], took = datasets.data_folder(n, game)
        print(f"  {n:,} games: " + (f"written in {took:.1f} s" if took is not None
                                    else f"reused from {folders[n]}"), flush=True)
    ten = store_figures(folders[base], repeat)
    many = store_figures(folders[big], repeat)
    add(Row(f"store open, {base:,} games", ten["open"]),
        Row(f"home listing, {base:,} games", ten["list"]),
        Row(f"statistics, {base:,} games: counted from nothing", ten["stats"]),
        Row(f"statistics, {base:,} games: after a restart (kept on disk)", ten["restart"]),
        Row(f"statistics, {base:,} games: kept", ten["cached"]),
        Row(f"store open, {big:,} games vs {base:,}", many["open"], floor=ten["open"],
            floor_name=f"({base:,})", max_ratio=2),
        Row(f"home listing, {big:,} games vs {base:,}", many["list"], floor=ten["list"],
            floor_name=f"({base:,})", max_ratio=2),
        Row(f"statistics, {big:,} games: counted from nothing", many["stats"]),
        Row(f"statistics, {big:,} games: after a restart vs {base:,}", many["restart"],
            floor=ten["restart"], floor_name=f"({base:,})", max_ratio=2),
        Row(f"statistics, {big:,} games: kept", many["cached"]))
    if browser is None:
        return
    empty, full = [], []
    for _ in range(max(1, repeat // 3)):  # interleaved: the same load for both
        empty.append(launch(browser, folders[0]))
        full.append(launch(browser, folders[base]))
    add(Row(f"launch -> home, {base:,} games vs empty store", statistics.median(full),
            floor=statistics.median(empty), floor_name="(empty)", max_ratio=1.3))
    # Goal 3: each tap at 10,000 games within 300 ms; goal 5: at 100,000 within 2x that.
    taps: dict[int, dict[str, float]] = {}
    for n in (base, big):
        label = f"{n:,} games"
        try:
            stats_ms, home_ms, shown = screens(browser, folders[n], taps_each)
            firsts = [stats_ms[0], *(first_stats(browser, folders[n])
                                     for _ in range(2 if taps_each > 1 else 0))]
        except RuntimeError as err:  # a screen that never showed is a figure too: not met
            print(f"  Statistics/Home taps, {label}: NO ({err})")
            continue
        taps[n] = {"Statistics tap -> shown: first after a restart (median of 3 starts)":
                   statistics.median(firsts),
                   "Statistics tap -> shown: median": statistics.median(stats_ms),
                   "Home tap -> shown: median": statistics.median(home_ms)}
        ten_k = taps.get(base) if n != base else None
        for name, ms in taps[n].items():
            what, _, which = name.partition(": ")
            if ten_k is None:
                add(Row(f"{what}, {label}: {which}", ms, max_value=300))
            else:
                add(Row(f"{what}, {label}: {which} vs {base:,}", ms, floor=ten_k[name],
                        floor_name=f"({base:,})", max_ratio=2))
        add(Row(f"game rows on the home screen, {label}", shown, "rows", max_value=100))


def browser_reason(no_browser: bool) -> str | None:
    """Why the browser figures cannot be measured (None: they can)."""
    if no_browser:
        return "--no-browser"
    from tests.browser.harness import missing

    return missing()


def main(argv: list[str] | None = None) -> list[Any]:
    """Measure everything, print the table, return the rows."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a check that it runs: 200 and 1,000 games, 2 repeats, 1 tap per "
                         "screen, the other benches quick (figures not comparable)")
    ap.add_argument("--no-browser", action="store_true", help="skip the browser figures")
    opts = ap.parse_args(argv)
    repeat, base, big = (2, 200, 1_000) if opts.quick else (11, 10_000, 100_000)
    quick = ["--quick"] if opts.quick else []
    game = datasets.longest_game()
    replay(game, repeat)
    reason = browser_reason(opts.no_browser)
    if reason:
        print(f"2. tap -> number vs a trivial page: skipped ({reason})", flush=True)
    else:
        other("tap_latency", "2. tap -> number vs a trivial page", quick)
    other("imports", "4. import time", quick)
    if reason:
        print(f"browser figures skipped: {reason}", flush=True)
        stores(game, None, repeat, base, big, 1)
    else:
        with chromium() as browser:
            stores(game, browser, repeat, base, big, 1 if opts.quick else 6)
    print()
    show(ROWS)
    return ROWS


if __name__ == "__main__":
    main(sys.argv[1:])
