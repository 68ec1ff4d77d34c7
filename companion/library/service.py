"""Application service: the one place the UI and CLI go through to play and store games.

Every confirmed action is written to the store before `play` returns (durability).
If the disk refuses it (full, read-only, gone), the action stays on the table in memory, is
listed as unsaved with the reason, and is written, in order, before anything else: on the next
action, on `retry_save()`, and on `close()`.
"""

from __future__ import annotations

import copy
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

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
from companion.rules.catalogue import (
    CATALOGUE_VERSION,
    SECTIONS,
    CatalogueError,
    merge,
    parse,
    shipped,
    upgrade,
)
from companion.storage import ImportPlan, StorageError, describe_os_error
from companion.storage.files import dumps
from models.catalogue import Catalogue

if TYPE_CHECKING:  # the rules engine is imported when a game is first played or read
    from companion.rules.game import Action, Game
    from models.commands import AnyCommand
    from models.setup import GameSetup, Position


class Store(Protocol):
    """What the service needs of a game store (see companion.storage)."""

    read_only: bool
    writable: bool

    def create_game(self, header: dict, summary: dict) -> None: ...
    def append(self, game_id: str, entry: dict, summary: dict | None = None) -> None: ...
    def load(self, game_id: str) -> Any: ...
    def list_games(self, finished: bool | None = None, limit: int | None = None, *,
                   offset: int = 0, query: str | None = None) -> list[dict]: ...
    def count_games(self, finished: bool | None = None, query: str | None = None) -> int: ...
    def summaries(self, finished: bool | None = None) -> Iterator[dict]: ...
    def summary_chunks(self, finished: bool | None = None
                       ) -> list[tuple[str, Callable[[], list[dict]]]]: ...
    @property
    def version(self) -> int: ...
    def load_catalogue(self) -> dict: ...
    def save_catalogue(self, doc: dict) -> None: ...
    def import_game(self, doc: dict, validate: Any = None) -> str: ...
    def import_backup(self, doc: dict, validate: Any = None,
                      validate_catalogue: Any = None) -> list[str]: ...
    def check_game(self, doc: dict, validate: Any = None) -> ImportPlan: ...
    def check_backup(self, doc: dict, validate: Any = None,
                     validate_catalogue: Any = None) -> ImportPlan: ...
    def has_game(self, game_id: str) -> bool: ...
    def export_game(self, game_id: str) -> dict: ...
    def export_backup(self) -> dict: ...
    def flush(self) -> None: ...
    def close(self) -> None: ...


STATS_KEPT = 8
"""Filter sets whose statistics (and per-chunk totals) `Service.stats` keeps."""


class UnsavedActions(RuntimeError):
    """The open game has actions the disk refused; they must be saved before it is left."""


Progress = Callable[[int, int], None]
"""Told (games checked, games in the file) while a file is checked."""


@dataclass
class FileCheck:
    """A game or backup file checked as importing or restoring it will check it; nothing
    written. Give it back to `import_game`/`restore_backup` with the same document."""

    plan: ImportPlan
    """What the file holds and what applying it would add or replace."""
    replayed: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """Summaries of the games checked, by `journal_digest` (not replayed again)."""


def summary(game: Game) -> dict[str, Any]:
    """History-index summary of a game (read without replaying it)."""
    from companion.rules.scoring import influence

    s = game.state
    board = s.scoreboard
    rows = {r.player: r for r in board.rows} if board else {}
    return {
        "game_id": game.header.game_id,
        "created": game.header.created,
        "updated": game.actions[-1].at if game.actions else game.header.created,
        "players": [p.name for p in s.players],
        "clans": [p.clan for p in s.players],
        "variants": s.variants.model_dump(),
        "round": s.round,
        "phase": s.phase,
        "finished": s.phase == "game_over",
        "winner": (board.winning_team or board.winner) if board else None,
        "scores": {r.name: r.influence.total for r in board.rows} if board else None,
        "player_count": len(s.players),
        "standings": [
            {"name": p.name, "clan": p.clan, "team": p.team,
             "influence": (rows[i].influence.total if board else influence(s, i).total),
             "blood": p.blood, "rank": rows[i].rank if board else None,
             "eliminated": p.eliminated, "frenzies": p.frenzies, "diablerie": p.diablerie}
            for i, p in enumerate(s.players)
        ],
        "haven_winners": [None] * _rounds_before(game) + [
            s.players[w].name if w is not None else None for w in s.haven_winners],
        "time": played.summary() if (played := game.time()) else None,
    }


def _rounds_before(game: Game) -> int:
    """Rounds whose Prince's Haven was resolved before the game came into the app."""
    from models.setup import Position

    start = game.header.start
    if not isinstance(start, Position):
        return 0
    return 3 if start.phase == "game_over" else start.round - 1


class Service:
    """Plays one game at a time and keeps it stored: new, open, play, undo, redo.

    A Service's `game` is its own, never a process-wide current game: table mode
    (`companion.table.hub`) makes one Service per open game, all sharing the store; the CLI and
    the single-table app use one Service and switch its game with `new_game`/`open_game`.
    """

    def __init__(self, store: Store, game: Game | None = None):
        self.store = store
        self.game: Game | None = game
        self.lock = threading.RLock()
        """Serializes actions: web sessions share one service (one table)."""
        self.unsaved: list[dict[str, Any]] = []
        """Journal entries of the open game that the disk refused, oldest first."""
        self.save_error: str | None = None
        """Why the last save failed (None once everything is saved)."""
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

    @property
    def read_only(self) -> bool:
        """Whether the store refuses writes (another process owns the data folder)."""
        return bool(getattr(self.store, "read_only", False))

    def new_game(self, start: GameSetup | Position) -> Game:
        """Create and store a new game, and make it current.

        Raises:
            UnsavedActions: the open game still has unsaved actions.
            OSError: the disk refused the new game (nothing changed).
        """
        with self.lock:
            self._leave()
            from companion.rules.game import Game

            game = Game.new(start)
            self.store.create_game(game.header_doc(), summary(game))
            self.game = game
            return game

    def open_game(self, game_id: str) -> Game:
        """Load a stored game by replaying its journal, and make it current.

        Raises:
            KeyError: no such game.
            ReplayError: its journal does not replay.
            UnsavedActions: the open game still has unsaved actions.
        """
        with self.lock:
            self._leave()
            self.game = self.load_game(game_id)
            return self.game

    def _leave(self) -> None:
        """Make sure nothing of the open game is lost before another one is opened."""
        if not self.retry_save():
            raise UnsavedActions(f"{len(self.unsaved)} action(s) of the open game are not "
                                 f"saved yet ({self.save_error}); free the disk and retry first")

    def load_game(self, game_id: str) -> Game:
        """Replay a stored game without making it current (e.g. to review it).

        Raises:
            KeyError: no such game.
            ReplayError: its journal does not replay.
        """
        from companion.rules.game import Game

        stored = self.store.load(game_id)
        return Game.from_journal(stored.header, stored.entries)

    def _current(self) -> Game:
        if self.game is None:
            raise RuntimeError("no game is open")
        return self.game

    def _save(self, entry: dict[str, Any]) -> None:
        """Queue an entry and write the queue; a disk failure keeps it queued.

        Raises: anything but OSError from the store (the entry is then dropped again).
        """
        self.unsaved.append(entry)
        try:
            self._write_unsaved()
        except Exception:
            self.unsaved.pop()
            raise

    def _write_unsaved(self) -> bool:
        game = self._current()
        while self.unsaved:
            last = len(self.unsaved) == 1
            try:
                self.store.append(game.header.game_id, self.unsaved[0],
                                  summary(game) if last else None)
            except OSError as err:
                self.save_error = describe_os_error(err)
                return False
            self.unsaved.pop(0)
        self.save_error = None
        return True

    def retry_save(self) -> bool:
        """Write the open game's unsaved actions, in order; True once nothing is unsaved.

        Raises: store errors other than OSError (e.g. the game's file was removed).
        """
        with self.lock:
            return not self.unsaved or self._write_unsaved()

    def play(self, command: AnyCommand | dict) -> Action:
        """Play a command on the current game and store it before returning.

        A disk failure does not undo it: see `unsaved` and `save_error`.
        Raises:
            RuleError: the rules refuse it (nothing is stored or changed).
        """
        with self.lock:
            return self._play(command)

    def _play(self, command: AnyCommand | dict) -> Action:
        game = self._current()
        action = game.play(command)
        try:
            self._save(game.action_entry(action))
        except Exception:
            game.undo()
            game.redo_stack.pop()
            raise
        return action

    def undo(self) -> Action:
        """Undo the last action of the current game, stored.

        Raises:
            IndexError: nothing to undo.
        """
        with self.lock:
            game = self._current()
            action = game.undo()
            try:
                self._save({"kind": "undo"})
            except Exception:
                game.redo()  # not stored: keep memory and disk in step
                raise
            return action

    def redo(self) -> Action:
        """Redo the last undone action of the current game, stored.

        Raises:
            IndexError: nothing to redo.
        """
        with self.lock:
            game = self._current()
            action = game.redo()
            try:
                self._save({"kind": "redo"})
            except Exception:
                game.undo()  # not stored: keep memory and disk in step
                raise
            return action

    def save_now(self) -> bool:
        """Write what the disk will take now (at a session's end, or before the store is
        closed by whoever opened it; the store may be shared); True if nothing is left unsaved.
        Never raises."""
        with self.lock:
            try:
                return not self.unsaved or self._write_unsaved()
            except Exception:  # noqa: BLE001 - best effort: the banner keeps saying it
                return False

    # --- the game clock: a table calls these when it opens or closes the game ------

    def clock_start(self) -> bool:
        """Start the open game's clock (a table opened it); True if a clock entry was stored.

        Does nothing when no game is open, the game is over, the clock already runs or the
        store is read-only. A clock mark is stored at once or not at all (it is never queued
        with unsaved actions): a disk that refuses it leaves the clock as it was.
        """
        return self._mark_clock(True)

    def clock_stop(self) -> bool:
        """Stop the open game's clock (its table closed); True if a clock entry was stored."""
        return self._mark_clock(False)

    def _mark_clock(self, running: bool) -> bool:
        with self.lock:
            game = self.game
            if game is None or self.read_only or game.state.phase == "game_over":
                return False
            if (game.clock[-1].running if game.clock else False) == running:
                return False
            if not self.save_now():  # journal order: queued actions first
                return False
            mark = game.mark_clock(running)
            try:
                self.store.append(game.header.game_id, mark.entry(), summary(game))
            except (OSError, ValueError, StorageError):
                game.clock.pop()
                return False
            return True

    def unfinished(self, limit: int | None = None) -> list[dict]:
        """Summaries of the stored games not yet over, newest first (at most `limit`)."""
        return self.store.list_games(finished=False, limit=limit)

    # --- statistics, kept between renders --------------------------------

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
        per service (later calls return the same thread)."""

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

    # --- the user's card catalogue ---------------------------------------------------

    def user_catalogue(self) -> Catalogue:
        """Cards the user entered from their physical cards.

        Raises:
            CatalogueError: the stored catalogue is malformed.
        """
        return parse(self.store.load_catalogue() or {})

    def catalogue(self) -> Catalogue:
        """Shipped catalogue with the user's entries on top.

        Raises:
            CatalogueError: the stored catalogue is malformed.
        """
        return merge(shipped(), self.user_catalogue())

    def remember(self, section: str, entry: dict[str, Any]) -> Catalogue:
        """Save card values the user read off a card (by id), and return the merged catalogue.

        Raises:
            CatalogueError: impossible values; nothing is saved.
        """
        self.import_catalogue({section: [entry]})
        return self.catalogue()

    def check_catalogue(self, doc: Any) -> dict[str, Any]:
        """The user's catalogue as merging `doc` into it would make it, checked; nothing saved.

        Raises:
            CatalogueError: malformed document (or saved catalogue), naming the card and
                field.
        """
        incoming = parse(doc)
        try:
            user = self.user_catalogue()
        except CatalogueError as err:
            raise CatalogueError(f"the saved catalogue is invalid ({err}); move "
                                 f"catalogue.json out of the data folder to start afresh") from None
        combined: dict[str, Any] = {"version": CATALOGUE_VERSION}
        for section in SECTIONS:
            entries = {e.id: e.model_dump(mode="json", exclude_unset=True)
                       for e in getattr(user, section)}
            for e in getattr(incoming, section):
                given = e.model_dump(mode="json", exclude_unset=True)
                entries[e.id] = {**entries.get(e.id, {}), **given}
            combined[section] = list(entries.values())
        merge(shipped(), parse(combined))
        return combined

    def import_catalogue(self, doc: Any) -> Catalogue:
        """Merge a catalogue document (e.g. shared by another group) into the user's one.

        Raises:
            CatalogueError: malformed document (or saved catalogue), naming the card and
                field; nothing is saved.
        """
        self.store.save_catalogue(self.check_catalogue(doc))
        return self.catalogue()

    # --- moving games in and out (every document replayed and checked) ---------------------------

    def import_game(self, doc: dict[str, Any], checked: FileCheck | None = None) -> str:
        """Store an exported game after replaying it through the rules engine; its id.

        With `checked` (from `check_game` of this document) the games it replayed are not
        replayed again.
        Raises:
            ImportRefused: malformed, tampered, or an id clash; nothing is written.
        """
        return self.store.import_game(doc, validate=self._validator(checked))

    def restore_backup(self, doc: dict[str, Any], checked: FileCheck | None = None
                       ) -> list[str]:
        """Restore a backup: every game and the catalogue checked as on import, all or nothing.

        With `checked` (from `check_backup` of this document) the games it replayed are not
        replayed again.
        Raises:
            ImportRefused: any part is refused; nothing is written.
        """
        return self.store.import_backup(doc, validate=self._validator(checked),
                                        validate_catalogue=validate_catalogue_document)

    def check_game(self, doc: dict[str, Any], progress: Progress | None = None) -> FileCheck:
        """Check a game file as `import_game` will, writing nothing (a preview).

        Raises:
            ImportRefused: what is wrong and where.
        """
        check = FileCheck(ImportPlan([], []))
        check.plan = self.store.check_game(doc, self._validator(check, progress, 1, True))
        return check

    def check_backup(self, doc: dict[str, Any], progress: Progress | None = None) -> FileCheck:
        """Check a backup as `restore_backup` will (every game replayed, the catalogue checked
        like an imported one), writing nothing (a preview); `progress` hears of each game.

        Raises:
            ImportRefused: what is wrong and where.
        """
        total = len(doc["games"]) if isinstance(doc.get("games"), list) else 0
        check = FileCheck(ImportPlan([], []))
        check.plan = self.store.check_backup(doc, self._validator(check, progress, total, True),
                                             validate_catalogue_document)
        return check

    def _validator(self, check: FileCheck | None, progress: Progress | None = None,
                   total: int = 0, preview: bool = False
                   ) -> Callable[[dict[str, Any]], dict[str, Any]]:
        """`validate_game_document`, remembering results in `check` by content. In a preview,
        a game stored here with the same journal counts as checked: it was checked when it
        was stored, and applying it adds nothing."""
        if check is None:
            return validate_game_document
        seen = [0]

        def validate(doc: dict[str, Any]) -> dict[str, Any]:
            key = journal_digest(doc)
            if key not in check.replayed:
                known = self._stored_summary(doc) if preview else None
                check.replayed[key] = known or validate_game_document(doc)
            seen[0] += 1
            if progress is not None:
                progress(seen[0], total)
            return copy.deepcopy(check.replayed[key])

        return validate

    def _stored_summary(self, doc: dict[str, Any]) -> dict[str, Any] | None:
        """The stored summary of this very game (same header and journal), or None."""
        header = doc.get("header")
        gid = header.get("game_id") if isinstance(header, dict) else None
        if not isinstance(gid, str) or not self.store.has_game(gid):
            return None
        try:
            stored = self.store.load(gid)
        except (KeyError, StorageError):
            return None
        if (stored.header, stored.entries) != (header, doc.get("entries")):
            return None
        return stored.summary

    def export_catalogue(self) -> dict[str, Any]:
        """The user's catalogue as a shareable JSON document."""
        user = upgrade(self.store.load_catalogue() or {})
        return {"version": CATALOGUE_VERSION, **{k: v for k, v in user.items()
                                                 if k in SECTIONS}}


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


def validate_game_document(doc: dict[str, Any]) -> dict[str, Any]:
    """Import check: the game's journal must replay exactly through the rules engine; returns
    the game's history summary, recomputed.

    Raises:
        ValueError: it does not (names the entry).
    """
    from companion.rules.game import Game

    return summary(Game.from_journal(doc["header"], doc["entries"], verify=True))


def journal_digest(doc: dict[str, Any]) -> str:
    """A digest of a game document's header and journal (same content, same digest)."""
    return hashlib.sha256(dumps([doc.get("header"), doc.get("entries")]).encode()).hexdigest()


def validate_catalogue_document(doc: dict[str, Any]) -> Catalogue:
    """Import check of a whole catalogue: the same as `catalogue import` makes.

    Raises:
        CatalogueError: names the card and the field.
    """
    return merge(shipped(), parse(doc))


__all__ = ["CatalogueError", "FileCheck", "Progress", "Service", "UnsavedActions",
           "journal_digest", "summary",
           "validate_catalogue_document", "validate_game_document"]
