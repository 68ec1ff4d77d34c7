"""The library of a data folder: its stored games listed, read back and counted, games and
backups moved in and out (every document replayed and checked first), and the card catalogue.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.library.games import journal_digest, load_game, validate_game_document
from companion.library.stats import Stats
from companion.library.stats_cache import StatsCache
from companion.library.store import Store
from companion.rules.catalogue import (
    CATALOGUE_VERSION,
    SECTIONS,
    CatalogueError,
    merge,
    parse,
    shipped,
    upgrade,
)
from companion.storage import ImportPlan, StorageError
from models.catalogue import Catalogue

if TYPE_CHECKING:
    from companion.rules.game import Game

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


class Library:
    """Everything the app and the command line do with a data folder besides playing a game."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = threading.RLock()
        """Held while a backup is written, so the store is not closed under it."""
        self.statistics = StatsCache(store)
        self._pad_parts: dict[str, dict[str, dict[str, Any]]] = {}
        """Per pad kind: the totals of each chunk of finished games, by the chunk's stamp."""

    @property
    def read_only(self) -> bool:
        """Whether the store refuses writes (another process owns the data folder)."""
        return bool(getattr(self.store, "read_only", False))

    def unfinished(self, limit: int | None = None) -> list[dict]:
        """Summaries of the stored games not yet over, newest first (at most `limit`)."""
        return self.store.list_games(finished=False, limit=limit)

    def load_game(self, game_id: str) -> Game:
        """Replay a stored game (to review it, or to open it at a table).

        Raises:
            KeyError: no such game.
            ReplayError: its journal does not replay.
        """
        return load_game(self.store, game_id)

    def stats(self, **filters: Any) -> Stats:
        """Statistics over the finished games (`StatsCache.stats`)."""
        return self.statistics.stats(**filters)

    def stats_future(self, **filters: Any) -> Future[Stats]:
        """The statistics as a future, counted on a thread when not kept (`StatsCache`)."""
        return self.statistics.stats_future(**filters)

    def list_games(self, finished: bool | None = None, limit: int | None = None, *,
                   offset: int = 0, query: str | None = None) -> list[dict]:
        """A page of the stored games' summaries, newest first (`GameStore.list_games`)."""
        return self.store.list_games(finished, limit, offset=offset, query=query)

    def count_games(self, finished: bool | None = None, query: str | None = None) -> int:
        """How many stored games (finished or not, matching the query)."""
        return self.store.count_games(finished, query)

    def pad_stats(self, kind: str) -> dict[str, Any]:
        """Statistics of another game of the family (`pad_kinds.pad_totals`), counting again
        only the chunks of the history that changed since last asked; Vendetta's statistics
        never count those games."""
        from companion.library.pad_kinds import merge_pad_totals, pad_totals

        kept = self._pad_parts.get(kind, {})
        parts = {stamp: kept.get(stamp) or pad_totals(read(), kind)
                 for stamp, read in self.store.summary_chunks(finished=True)}
        self._pad_parts[kind] = parts
        return merge_pad_totals(parts.values())

    def save_stats(self) -> None:
        """Keep the all-time totals on disk if counted since (`StatsCache.save_stats`)."""
        self.statistics.save_stats()

    def warm_stats(self, delay: float = 0.0) -> threading.Thread:
        """Count the all-time statistics in the background (`StatsCache.warm_stats`)."""
        return self.statistics.warm_stats(delay)

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

    # --- moving games in and out (every document replayed and checked) -------------

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


def validate_catalogue_document(doc: dict[str, Any]) -> Catalogue:
    """Import check of a whole catalogue: the same as `catalogue import` makes.

    Raises:
        CatalogueError: names the card and the field.
    """
    return merge(shipped(), parse(doc))
