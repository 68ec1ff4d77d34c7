"""Statistics across the stored games, kept between renders and across restarts.

Counting 100,000 games takes seconds, so totals are kept per filter set, per chunk of the
history index (only chunks that changed are counted again) and, for all time, on disk.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any

from companion.library.stats import (
    TOTALS_FORMAT,
    Stats,
    Totals,
    finish,
    tally,
    totals_doc,
    totals_of,
)
from companion.library.stats import merge as merge_totals
from companion.library.store import Store

STATS_KEPT = 8
"""Filter sets whose statistics (and per-chunk totals) `StatsCache.stats` keeps."""


class StatsCache:
    """The statistics of one store's finished games, counted as little as possible."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._stats: OrderedDict[tuple, tuple[int, Stats, dict[str, Totals]]] = OrderedDict()
        self._stats_lock = threading.Lock()
        self._warming: threading.Timer | None = None
        self._counting: dict[tuple, tuple[int, Future[Stats]]] = {}
        """Counts under way (or just done) per filter set, with the store version asked."""
        self._counting_lock = threading.Lock()
        self._stats_unsaved = False
        """The all-time totals have chunks counted since they were last kept on disk."""
        self._merged_unsaved = False
        """The all-time totals were merged from chunks since they were last kept on disk."""

    def stats(self, **filters: Any) -> Stats:
        """Statistics over the finished games (filters as `companion.library.stats.compute`).

        Kept per filter set until a stored game changes; then only the store's chunks that
        changed are counted again (their totals are kept per chunk) and all are merged. The
        all-time totals are also kept on disk (`save_stats`), so that a restart counts only
        the chunks that changed since, and reads one small file when none did.
        """
        key = _stats_key(filters)
        with self._stats_lock:
            version = self.store.version
            kept = self._stats.get(key)
            if kept is not None:
                self._stats.move_to_end(key)
                if kept[0] == version:
                    return kept[1]
            chunks = self.store.summary_chunks(finished=True)
            if kept is None and not key and (stats := self._stats_all_on_disk(chunks)):
                self._stats[key] = (version, stats, None)  # its chunks' totals: on disk
                return stats
            before = (kept[2] if kept and kept[2] is not None else
                      self._stats_on_disk() if not key else {})
            parts: dict[str, Totals] = {}
            for stamp, read in chunks:
                part = before.get(stamp)
                if part is None:
                    part = tally(read(), **filters)
                    self._stats_unsaved |= not key
                parts[stamp] = part
            stats = finish(merge_totals(parts.values()))
            self._stats[key] = (version, stats, parts)
            self._merged_unsaved |= not key
            while len(self._stats) > STATS_KEPT:
                self._stats.popitem(last=False)
            return stats

    def stats_future(self, **filters: Any) -> Future[Stats]:
        """The statistics (as `stats`) as a future: already done when kept for the store as it
        is now, else counted on a thread of its own, so that a screen need not wait for a long
        count (100,000 games counted from nothing take seconds). One count per filter set and
        store version: asking again while it runs gives the same future; a count that failed
        (e.g. a disk error, raised by `result()`) is made again when asked again."""
        key = _stats_key(filters)
        version = self.store.version
        kept = self._stats.get(key)
        if kept is not None and kept[0] == version:
            done: Future[Stats] = Future()
            done.set_result(kept[1])
            return done
        with self._counting_lock:
            running = self._counting.get(key)
            if running is not None and running[0] == version and not (
                    running[1].done() and running[1].exception() is not None):
                return running[1]  # (a count that failed is made again)
            future: Future[Stats] = Future()

            def count() -> None:
                try:
                    future.set_result(self.stats(**filters))
                except BaseException as err:  # noqa: BLE001 - handed to whoever waits
                    future.set_exception(err)

            for old in [k for k, (_, f) in self._counting.items() if f.done()]:
                del self._counting[old]
            self._counting[key] = (version, future)
            threading.Thread(target=count, name="stats-count", daemon=True).start()
            return future

    def _stats_all_on_disk(self, chunks: list[tuple[str, Any]]) -> Stats | None:
        """The all-time statistics kept by `save_stats`, if kept for exactly these chunks."""
        doc = self.store.load_note("stats-all")
        if not isinstance(doc, dict) or doc.get("format") != TOTALS_FORMAT or \
                doc.get("stamps") != [stamp for stamp, _ in chunks]:
            return None
        try:
            return finish(totals_of(doc.get("totals")))
        except ValueError:
            return None

    def _stats_on_disk(self) -> dict[str, Totals]:
        """The all-time totals per chunk kept by `save_stats` ({} if none can be used)."""
        doc = self.store.load_note("stats")
        if not isinstance(doc, dict) or doc.get("format") != TOTALS_FORMAT:
            return {}
        try:
            return {str(stamp): totals_of(part) for stamp, part in doc["chunks"].items()}
        except (AttributeError, KeyError, ValueError):
            return {}

    def save_stats(self) -> None:
        """Keep the all-time totals on disk, per chunk and merged, if chunks were counted
        since (at a session's end and on close: a cache, so a failed write only means
        counting again)."""
        with self._stats_lock:
            kept = self._stats.get(())
            if not self._merged_unsaved or kept is None or kept[2] is None:
                return
            parts, counted = kept[2], self._stats_unsaved
            self._stats_unsaved = self._merged_unsaved = False
        if counted:  # first: the merged totals name chunks whose totals are then on disk
            self.store.save_note("stats", {
                "format": TOTALS_FORMAT,
                "chunks": {stamp: totals_doc(t) for stamp, t in parts.items()}})
        self.store.save_note("stats-all", {
            "format": TOTALS_FORMAT, "stamps": list(parts),
            "totals": totals_doc(merge_totals(parts.values()))})

    def warm_stats(self, delay: float = 0.0) -> threading.Thread:
        """Count the all-time statistics in the background (e.g. once the first screen is
        shown, after `delay` seconds), so that the Statistics screen finds them ready; once
        per cache (later calls return the same thread)."""

        def warm() -> None:
            try:
                self.stats()
                self.save_stats()  # counted from scratch: the next start need not
            except Exception:  # noqa: BLE001 - only a head start: the screen counts again
                pass

        with self._stats_lock:
            if self._warming is None:
                self._warming = threading.Timer(delay, warm)
                self._warming.daemon = True
                self._warming.start()
            return self._warming


def _stats_key(filters: dict[str, Any]) -> tuple:
    """A filter set as a dictionary key (unset filters left out)."""
    return tuple(sorted((k, _hashable(v)) for k, v in filters.items() if v is not None))


def _hashable(value: Any) -> Any:
    """A filter value as a dictionary key."""
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list | set | tuple):
        return tuple(sorted(_hashable(v) for v in value))
    return value
