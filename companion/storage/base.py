"""The `GameStore` interface, its shared export/import logic, and the in-memory store."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, Self

from .history import is_finished, search_text, terms_of
from .history import sort_key as summary_key
from .records import (
    DamagedFile,
    GameDamaged,
    GameExists,
    GameNotFound,
    ImportPlan,
    ImportRefused,
    ReadOnlyStore,
    StoredGame,
    UnsupportedSchema,
)
from .transfer import (
    BACKUP_FORMAT,
    CURRENT_SCHEMA_VERSION,
    CatalogueValidator,
    Validator,
    check_backup_doc,
    check_entry,
    check_game_doc,
    check_header,
    check_summary,
    export_doc,
    plain_json_problem,
)

_ATOMS = frozenset({str, int, float, bool, type(None)})


def clone(value: Any) -> Any:
    """Deep copy of a plain JSON value (several times faster than copy.deepcopy)."""
    if type(value) is dict:
        return {k: v if type(v) in _ATOMS else clone(v) for k, v in value.items()}
    if type(value) is list:
        return [v if type(v) in _ATOMS else clone(v) for v in value]
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def sort_key(item: tuple[str, dict[str, Any]]) -> tuple[str, str]:
    """Newest-first sort key of (game_id, summary): "updated", else "created" (ISO UTC strings)."""
    game_id, summary = item
    return (summary_key(summary), game_id)


def check_page(offset: int, limit: int | None) -> None:
    """Check the paging arguments of `list_games`.

    Raises: ValueError if one is negative.
    """
    if offset < 0 or (limit is not None and limit < 0):
        raise ValueError(f"offset and limit must not be negative (got {offset}, {limit})")


def chosen(items: Iterable[tuple[str, dict[str, Any]]], finished: bool | None,
           query: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The (game_id, summary) pairs matching `finished` and the search `query`, newest first."""
    terms = terms_of(query)
    out = [it for it in items if (finished is None or is_finished(it[1]) == finished)
           and all(t in search_text(it[1]) for t in terms)]
    out.sort(key=sort_key, reverse=True)
    return out


def listing(items: Iterable[tuple[str, dict[str, Any]]], finished: bool | None,
            limit: int | None = None, offset: int = 0, query: str | None = None) -> list[dict]:
    """Copies of summaries (with "game_id"), filtered on "finished" and a search, newest first,
    from `offset`, at most `limit`."""
    end = None if limit is None else offset + limit
    return [{**clone(summary), "game_id": game_id}
            for game_id, summary in chosen(items, finished, query)[offset:end]]


def check_new_game(header: object, summary: object) -> None:
    """Check the arguments of `create_game`.

    Raises: ValueError naming the problem.
    """
    try:
        check_header(header)
        check_summary(summary)
    except ImportRefused as exc:
        raise ValueError(str(exc)) from None
    if problem := plain_json_problem(header, "header") or plain_json_problem(summary, "summary"):
        raise ValueError(problem)


def check_append(entry: object, summary: object) -> None:
    """Check the arguments of `append`.

    Raises: ValueError naming the problem.
    """
    try:
        check_entry(entry)
        if summary is not None:
            check_summary(summary)
    except ImportRefused as exc:
        raise ValueError(str(exc)) from None
    if problem := plain_json_problem(entry, "entry") or plain_json_problem(summary, "summary"):
        raise ValueError(problem)


class GameStore(ABC):
    """Where games, the history index and the card catalogue live. Thread-safe.

    A game is a `header`, an append-only list of journal `entries` and a `summary` for the
    history index; all plain JSON dicts, opaque to storage except the fields it checks.
    """

    read_only = False
    """Whether this store refuses every write (see `TinyDBGameStore`)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._notes = {}

    # --- primitives each store implements ---

    @abstractmethod
    def create_game(self, header: dict[str, Any], summary: dict[str, Any]) -> None:
        """Store a new game with no entries yet.

        Raises: GameExists if the id is taken; ValueError if header/summary are malformed.
        """

    @abstractmethod
    def append(self, game_id: str, entry: dict[str, Any],
               summary: dict[str, Any] | None = None) -> None:
        """Durably append one journal entry (and optionally replace the summary).

        Raises: GameNotFound; ValueError if the entry is malformed; OSError on disk failure.
        """

    @abstractmethod
    def load(self, game_id: str) -> StoredGame:
        """Return a game (migrated to the current schema).

        Raises: GameNotFound; GameDamaged (file moved aside); UnsupportedSchema.
        """

    @abstractmethod
    def has_game(self, game_id: str) -> bool:
        """Whether a game with this id is stored."""

    @abstractmethod
    def list_games(self, finished: bool | None = None, limit: int | None = None, *,
                   offset: int = 0, query: str | None = None) -> list[dict[str, Any]]:
        """Copies of summaries (each with "game_id"), newest first, reading no journal: the
        page `offset`..`offset+limit` of the games matching `finished` and the search `query`
        (every word found in a player's name or the winner's, ignoring case).

        "Newest" compares summary["updated"] (else "created") as strings: write UTC ISO times.
        Raises: ValueError if `offset` or `limit` is negative.
        """

    @abstractmethod
    def count_games(self, finished: bool | None = None, query: str | None = None) -> int:
        """How many games `list_games` would give without a limit."""

    @abstractmethod
    def summaries(self, finished: bool | None = None) -> Iterator[dict[str, Any]]:
        """Copies of every summary (each with "game_id"), in no set order but the same as
        `summary_chunks` gives."""

    @abstractmethod
    def summary_chunks(self, finished: bool | None = None
                       ) -> list[tuple[str, Callable[[], list[dict[str, Any]]]]]:
        """The summaries in chunks that change independently, as (stamp, read) pairs: while a
        chunk's stamp is the same, `read()` gives the same summaries (for caches of what is
        computed from them). They are the store's own: never modify them."""

    @property
    @abstractmethod
    def version(self) -> int:
        """Change counter of the summaries: differs after any game is added, changed or
        removed (for caches of what is computed from them)."""

    @abstractmethod
    def delete_game(self, game_id: str) -> None:
        """Delete a game.

        Raises: GameNotFound.
        """

    @abstractmethod
    def load_catalogue(self) -> dict[str, Any]:
        """The user's card catalogue ({} if none saved)."""

    @abstractmethod
    def save_catalogue(self, doc: dict[str, Any]) -> None:
        """Replace the card catalogue atomically.

        Raises: ValueError if `doc` is not a plain JSON object.
        """

    @abstractmethod
    def damaged(self) -> list[DamagedFile]:
        """Files found unreadable (and moved aside) since this store was opened."""

    @abstractmethod
    def _put_all(self, games: list[StoredGame], catalogue: dict[str, Any] | None) -> None:
        """Write complete, validated games whose ids are not stored yet (and replace the
        catalogue if given), all or nothing."""

    @abstractmethod
    def _ids(self) -> list[str]:
        """Every stored game id."""

    def _writable(self) -> None:  # noqa: B027 - optional hook
        """Raise ReadOnlyStore if this store may not write now."""

    @property
    def writable(self) -> bool:
        """Whether this store may write now (not read-only, not closed, its folder held)."""
        try:
            self._writable()
        except ReadOnlyStore:
            return False
        return True

    def load_note(self, name: str) -> Any | None:
        """A note kept for a cache of what is computed from the games (e.g. statistics), as
        saved by `save_note`; None if there is none or it cannot be read."""
        return self._notes.get(name)

    def save_note(self, name: str, doc: Any) -> None:
        """Keep a note for a cache (plain JSON); best effort: a note that cannot be written is
        simply not there next time."""
        self._notes[name] = doc

    _notes: dict[str, Any] = {}
    """The notes of a store in memory (each store its own: set in `__init__`)."""

    def flush(self) -> None:  # noqa: B027 - optional hook
        """Checkpoint whatever is held in memory.

        Raises: OSError on disk failure.
        """

    def close(self) -> None:  # noqa: B027 - optional hook
        """Flush and release resources."""

    def _case_twin(self, game_id: str) -> str | None:
        """A stored id equal to `game_id` but for case (such ids would share one file on
        case-insensitive disks), or None."""
        folded = game_id.casefold()
        return next((i for i in self._ids() if i != game_id and i.casefold() == folded), None)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- export / import, shared by all stores ---

    def export_game(self, game_id: str) -> dict[str, Any]:
        """One game as a JSON document {"format", "schema_version", "header", "entries", "summary"}.

        Raises: GameNotFound; GameDamaged; UnsupportedSchema.
        """
        return export_doc(self.load(game_id))

    def export_backup(self) -> dict[str, Any]:
        """All readable games plus the catalogue as one JSON document (damaged games skipped)."""
        with self._lock:
            games = []
            for summary in self.list_games():
                try:
                    games.append(self.export_game(summary["game_id"]))
                except (GameNotFound, GameDamaged, UnsupportedSchema):
                    continue
            return {
                "format": BACKUP_FORMAT,
                "schema_version": CURRENT_SCHEMA_VERSION,
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "games": games,
                "catalogue": self.load_catalogue(),
            }

    def check_game(self, doc: dict[str, Any], validate: Validator | None = None) -> ImportPlan:
        """Everything `import_game` checks, writing nothing: what it would add.

        Raises: ImportRefused saying what is wrong and where.
        """
        game = check_game_doc(doc, "", validate)
        with self._lock:
            new = self._plan([("", game)])
        return ImportPlan([game], [g.game_id for g in new])

    def check_backup(self, doc: dict[str, Any], validate: Validator | None = None,
                     validate_catalogue: CatalogueValidator | None = None) -> ImportPlan:
        """Everything `import_backup` checks, writing nothing: what it would add and replace.

        Raises: ImportRefused saying what is wrong and where.
        """
        games, catalogue = check_backup_doc(doc, validate, validate_catalogue)
        with self._lock:
            new = self._plan([(f"games[{i}]", game) for i, game in enumerate(games)])
        return ImportPlan(games, [g.game_id for g in new], catalogue)

    def import_game(self, doc: dict[str, Any], validate: Validator | None = None) -> str:
        """Validate a whole exported game, then store it; return its game_id.

        Older schema versions are migrated. `validate` (e.g. a replay by the engine) is called
        on the migrated document; it may raise ValueError to refuse, and may return the game's
        summary (used instead of the document's optional "summary"). Re-importing a game
        already stored with the same header and entries is a no-op; the same game_id with
        different content is refused (nothing is renamed or overwritten).
        Raises: ImportRefused (nothing written); ReadOnlyStore; OSError (nothing written).
        """
        self._writable()
        game = check_game_doc(doc, "", validate)
        with self._lock:
            self._writable()
            self._put_all(self._plan([("", game)]), None)
            return game.game_id

    def import_backup(self, doc: dict[str, Any], validate: Validator | None = None,
                      validate_catalogue: CatalogueValidator | None = None) -> list[str]:
        """Validate a whole backup, then store its new games and replace the catalogue.

        Same duplicate rules as `import_game`; returns the ids of the games actually added.
        The catalogue (checked by `validate_catalogue`, like an imported one) is replaced only
        if the backup has one. All or nothing, even if the process dies halfway.
        Raises: ImportRefused (nothing written); ReadOnlyStore; OSError (nothing written).
        """
        self._writable()
        games, catalogue = check_backup_doc(doc, validate, validate_catalogue)
        with self._lock:
            self._writable()
            new = self._plan([(f"games[{i}]", game) for i, game in enumerate(games)])
            self._put_all(new, catalogue)
            return [game.game_id for game in new]

    def _plan(self, games: list[tuple[str, StoredGame]]) -> list[StoredGame]:
        """The games to add, after refusing id clashes (ids differing only in case included).

        Raises: ImportRefused.
        """
        seen: dict[str, StoredGame] = {}  # by case-folded id
        new: list[StoredGame] = []
        stored = {i.casefold(): i for i in self._ids()}
        for where, game in games:
            gid = game.game_id
            other = seen.get(gid.casefold())
            twin = other.game_id if other is not None else stored.get(gid.casefold())
            if twin is not None and twin != gid:
                raise ImportRefused(f"{where or 'game'}: game_id {gid!r} differs only in case "
                                    f"from {twin!r}; two games may not share a name on "
                                    f"case-insensitive disks")
            if other is None and self.has_game(gid):
                try:
                    other = self.load(gid)
                except GameDamaged:
                    other = None  # moved aside: the import restores it
                except UnsupportedSchema as exc:
                    raise ImportRefused(f"{where or 'game'}: {exc}") from None
            if other is None:
                seen[gid.casefold()] = game
                new.append(game)
            elif (other.header, other.entries) != (game.header, game.entries):
                raise ImportRefused(f"{where or 'game'}: a different game with game_id {gid!r} "
                                    f"is already stored ({len(other.entries)} entries there, "
                                    f"{len(game.entries)} here)")
        return new


class MemoryGameStore(GameStore):
    """A GameStore in memory, for tests and previews."""

    def __init__(self) -> None:
        super().__init__()
        self._games: dict[str, StoredGame] = {}
        self._catalogue: dict[str, Any] = {}
        self._version = 0

    def create_game(self, header: dict[str, Any], summary: dict[str, Any]) -> None:
        """Store a new game with no entries yet.

        Raises: GameExists; ValueError.
        """
        check_new_game(header, summary)
        with self._lock:
            if header["game_id"] in self._games:
                raise GameExists(f"game {header['game_id']!r} already exists")
            if twin := self._case_twin(header["game_id"]):
                raise GameExists(f"game {header['game_id']!r} differs only in case from the "
                                 f"stored {twin!r}")
            self._games[header["game_id"]] = StoredGame(clone(header), [], clone(summary))
            self._version += 1

    def append(self, game_id: str, entry: dict[str, Any],
               summary: dict[str, Any] | None = None) -> None:
        """Append one journal entry (and optionally replace the summary).

        Raises: GameNotFound; ValueError.
        """
        check_append(entry, summary)
        with self._lock:
            game = self._get(game_id)
            game.entries.append(clone(entry))
            if summary is not None and summary != game.summary:
                game.summary = clone(summary)
                self._version += 1

    def load(self, game_id: str) -> StoredGame:
        """Return a copy of a game.

        Raises: GameNotFound.
        """
        with self._lock:
            game = self._get(game_id)
            return StoredGame(clone(game.header), clone(game.entries), clone(game.summary))

    def has_game(self, game_id: str) -> bool:
        """Whether a game with this id is stored."""
        return game_id in self._games

    @property
    def version(self) -> int:
        """Change counter of the summaries."""
        return self._version

    def list_games(self, finished: bool | None = None, limit: int | None = None, *,
                   offset: int = 0, query: str | None = None) -> list[dict[str, Any]]:
        """A page of summaries (each with "game_id"), newest first (see `GameStore`).

        Raises: ValueError if `offset` or `limit` is negative.
        """
        check_page(offset, limit)
        with self._lock:
            return listing(self._items(), finished, limit, offset, query)

    def count_games(self, finished: bool | None = None, query: str | None = None) -> int:
        """How many games `list_games` would give without a limit."""
        with self._lock:
            return len(chosen(self._items(), finished, query))

    def summaries(self, finished: bool | None = None) -> Iterator[dict[str, Any]]:
        """Copies of every summary (each with "game_id"), oldest stored first."""
        with self._lock:
            rows = [{**clone(s), "game_id": g} for g, s in self._items()
                    if finished is None or is_finished(s) == finished]
        yield from rows

    def summary_chunks(self, finished: bool | None = None
                       ) -> list[tuple[str, Callable[[], list[dict[str, Any]]]]]:
        """One chunk: every summary (see `GameStore`)."""
        with self._lock:
            rows = [s for _, s in self._items() if finished is None or is_finished(s) == finished]
            return [(str(self._version), lambda: rows)]

    def _items(self) -> list[tuple[str, dict[str, Any]]]:
        return [(g, s.summary) for g, s in self._games.items()]

    def delete_game(self, game_id: str) -> None:
        """Delete a game.

        Raises: GameNotFound.
        """
        with self._lock:
            self._get(game_id)
            del self._games[game_id]
            self._version += 1

    def load_catalogue(self) -> dict[str, Any]:
        """The card catalogue ({} if none saved)."""
        with self._lock:
            return clone(self._catalogue)

    def save_catalogue(self, doc: dict[str, Any]) -> None:
        """Replace the card catalogue.

        Raises: ValueError.
        """
        if not isinstance(doc, dict) or (problem := plain_json_problem(doc, "catalogue")):
            raise ValueError(problem if isinstance(doc, dict) else "catalogue must be an object")
        with self._lock:
            self._catalogue = clone(doc)

    def damaged(self) -> list[DamagedFile]:
        """Always empty: memory is never damaged."""
        return []

    def _put_all(self, games: list[StoredGame], catalogue: dict[str, Any] | None) -> None:
        for game in games:
            self._games[game.game_id] = StoredGame(
                clone(game.header), clone(game.entries), clone(game.summary))
            self._version += 1
        if catalogue is not None:
            self.save_catalogue(catalogue)

    def _ids(self) -> list[str]:
        return list(self._games)

    def _get(self, game_id: str) -> StoredGame:
        try:
            return self._games[game_id]
        except (KeyError, TypeError):
            raise GameNotFound(f"no game {game_id!r}") from None
