"""The on-disk GameStore: one fsync'd JSON-lines journal per game, a TinyDB history index.

Layout of `data_dir`:
  games/<game_id>.jsonl  journal: line 1 {"header", "summary"}, then {"entry"[, "summary"]}
  index.json             TinyDB (AtomicJSONStorage), table "games": {"game_id", "summary"}
  dirty/<game_id>        marker: this game's summary changed after the last index checkpoint
  catalogue.json         the card catalogue, replaced atomically

Saving an action appends one line to its game's journal and fsyncs it (plus, the first time a
game's summary changes after a checkpoint, creates its empty `dirty/` marker): the cost depends
only on that game. The index is a checkpoint of summaries held in memory; it is rewritten (one
atomic file replace) by `flush()`, `close()`, and on opening when markers or stray journals show
it is stale, so a crash never loses a summary either.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from .base import GameStore, check_append, check_new_game, clone, listing
from .files import (
    JOURNAL_SUFFIX,
    AtomicJSONStorage,
    JournalDamaged,
    append_line,
    atomic_write_bytes,
    dumps,
    fsync_dir,
    journal_bytes,
    move_aside,
    read_journal,
    remove_temp_files,
    repair_tail,
)
from .records import (
    DamagedFile,
    GameDamaged,
    GameExists,
    GameNotFound,
    StoredGame,
    UnsupportedSchema,
)
from .transfer import CURRENT_SCHEMA_VERSION, export_doc, id_problem, migrate, plain_json_problem

VERIFY_AT_OPEN = 20
"""How many of the newest unfinished games (those offered to resume) are read fully at open."""


class TinyDBGameStore(GameStore):
    """GameStore on real files in `data_dir`; one instance per directory and process.

    Opening never fails on unreadable files: they are moved aside and listed by `damaged()`.
    The index, the catalogue and the journals of the newest unfinished games are checked at
    open; other games are checked when loaded.
    """

    def __init__(self, data_dir: str | Path) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self._games_dir = self.data_dir / "games"
        self._dirty_dir = self.data_dir / "dirty"
        for folder in (self.data_dir, self._games_dir, self._dirty_dir):
            folder.mkdir(parents=True, exist_ok=True)
            remove_temp_files(folder)
        self._catalogue_path = self.data_dir / "catalogue.json"
        self._db = TinyDB(self.data_dir / "index.json", storage=AtomicJSONStorage)
        self._storage: AtomicJSONStorage = self._db.storage  # type: ignore[assignment]
        self._table = self._db.table("games")
        self._summaries: dict[str, dict[str, Any]] = {}
        self._marked: set[str] = set()  # games with a dirty/ marker on disk
        self._index_stale = False
        self._tail_checked: set[str] = set()
        self._damaged: list[DamagedFile] = []
        with self._lock:
            self._open()

    # --- opening and recovery ---

    def _open(self) -> None:
        self._read_index()
        on_disk = {p.name[: -len(JOURNAL_SUFFIX)] for p in self._games_dir.iterdir()
                   if p.name.endswith(JOURNAL_SUFFIX)}
        on_disk = {gid for gid in on_disk if id_problem(gid) is None}
        for marker in self._dirty_dir.iterdir():
            if id_problem(marker.name) is None:
                self._marked.add(marker.name)
            else:
                marker.unlink(missing_ok=True)
        for gid in set(self._summaries) - on_disk:  # deleted after the last checkpoint
            del self._summaries[gid]
            self._index_stale = True
        stale = (on_disk - set(self._summaries)) | (self._marked & on_disk)
        recent = listing(self._summaries.items(), False, VERIFY_AT_OPEN)
        for gid in sorted(stale | {s["game_id"] for s in recent}):
            try:
                _, _, summary = read_journal(self._journal(gid))
            except JournalDamaged as exc:
                self._quarantine(gid, str(exc))
                continue
            if self._summaries.get(gid) != summary:
                self._summaries[gid] = summary
                self._index_stale = True
        self._check_catalogue()
        if self._index_stale or self._marked:
            try:
                self.flush()
            except OSError:
                pass  # e.g. a read-only folder: still start; recovered again next time

    def _read_index(self) -> None:
        try:
            docs = self._table.all()
            summaries = {}
            for doc in docs:
                gid, summary = doc["game_id"], doc["summary"]
                if id_problem(gid) is not None or not isinstance(summary, dict):
                    raise ValueError(f"bad index record {str(doc)[:80]}")
                summaries[gid] = summary
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            path = self._storage.path
            self._damaged.append(DamagedFile(path, move_aside(path), f"unreadable index: {exc!r}"
                                             [:300]))
            self._storage.forget()
            self._table.clear_cache()
            summaries = {}
            self._index_stale = True  # rebuilt from the journals by _open
        self._summaries = summaries

    def _check_catalogue(self) -> None:
        try:
            self.load_catalogue()
        except ValueError as exc:
            path = self._catalogue_path
            self._damaged.append(DamagedFile(path, move_aside(path), str(exc)[:300]))

    def _quarantine(self, game_id: str, reason: str) -> None:
        path = self._journal(game_id)
        self._damaged.append(DamagedFile(path, move_aside(path), reason, game_id))
        if self._summaries.pop(game_id, None) is not None:
            self._index_stale = True
        self._tail_checked.discard(game_id)

    def _journal(self, game_id: str) -> Path:
        return self._games_dir / f"{game_id}{JOURNAL_SUFFIX}"

    # --- the GameStore interface ---

    def flush(self) -> None:
        """Checkpoint the history index (one atomic rewrite) and clear the dirty markers.

        Raises: OSError on disk failure.
        """
        with self._lock:
            with self._storage.batch():
                self._table.truncate()
                self._table.insert_multiple(
                    {"game_id": gid, "summary": s} for gid, s in sorted(self._summaries.items()))
            for gid in self._marked:
                (self._dirty_dir / gid).unlink(missing_ok=True)
            self._marked.clear()
            self._index_stale = False

    def close(self) -> None:
        """Checkpoint the index and close it."""
        with self._lock:
            if self._index_stale or self._marked:
                self.flush()
            self._db.close()

    def create_game(self, header: dict[str, Any], summary: dict[str, Any]) -> None:
        """Store a new game with no entries yet (journal written atomically).

        Raises: GameExists; ValueError if header/summary are malformed; OSError.
        """
        check_new_game(header, summary)
        with self._lock:
            gid = header["game_id"]
            if gid in self._summaries or self._journal(gid).exists():
                raise GameExists(f"game {gid!r} already exists")
            self._write_game(StoredGame(header, [], summary))

    def _write_game(self, game: StoredGame) -> None:
        atomic_write_bytes(self._journal(game.game_id),
                           journal_bytes(game.header, game.entries, game.summary))
        self._summaries[game.game_id] = clone(game.summary)
        self._tail_checked.add(game.game_id)
        self._index_stale = True  # found again by listing games/ if we crash before a flush

    def _put_game(self, game: StoredGame) -> None:
        self._write_game(game)

    def append(self, game_id: str, entry: dict[str, Any],
               summary: dict[str, Any] | None = None) -> None:
        """Append one entry to the game's journal and fsync it before returning.

        Raises: GameNotFound; ValueError if entry/summary are malformed; OSError.
        """
        check_append(entry, summary)
        with self._lock:
            if game_id not in self._summaries:
                raise GameNotFound(f"no game {game_id!r}")
            record: dict[str, Any] = {"entry": entry}
            changed = summary is not None and summary != self._summaries[game_id]
            if changed:
                record["summary"] = summary
                if game_id not in self._marked:
                    (self._dirty_dir / game_id).touch()
                    fsync_dir(self._dirty_dir)
                    self._marked.add(game_id)
            path = self._journal(game_id)
            try:
                if game_id not in self._tail_checked:
                    repair_tail(path)
                    self._tail_checked.add(game_id)
                append_line(path, (dumps(record) + "\n").encode())
            except FileNotFoundError:
                del self._summaries[game_id]
                raise GameNotFound(f"game {game_id!r} has no journal file any more") from None
            except BaseException:
                self._tail_checked.discard(game_id)  # a partial line may be left: repair first
                raise
            if changed:
                self._summaries[game_id] = clone(summary)

    def load(self, game_id: str) -> StoredGame:
        """Read a game's journal; an older schema is migrated and rewritten once.

        Raises: GameNotFound; GameDamaged (file moved aside); UnsupportedSchema.
        """
        with self._lock:
            if game_id not in self._summaries:
                raise GameNotFound(f"no game {game_id!r}")
            try:
                header, entries, summary = read_journal(self._journal(game_id))
            except FileNotFoundError:
                del self._summaries[game_id]
                self._index_stale = True
                raise GameNotFound(f"game {game_id!r} has no journal file any more") from None
            except JournalDamaged as exc:
                self._quarantine(game_id, str(exc))
                raise GameDamaged(f"game {game_id!r} is damaged and was moved aside: "
                                  f"{exc}") from None
            version = header.get("schema_version", 0)
            if version == CURRENT_SCHEMA_VERSION:
                return StoredGame(header, entries, summary)
            if isinstance(version, int) and version > CURRENT_SCHEMA_VERSION:
                raise UnsupportedSchema(f"game {game_id!r} has schema_version {version}, newer "
                                        f"than supported ({CURRENT_SCHEMA_VERSION})")
            try:
                doc = migrate({**export_doc(StoredGame(header, entries, summary)),
                               "schema_version": version})
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                self._quarantine(game_id, f"cannot migrate: {exc}")
                raise GameDamaged(f"game {game_id!r} cannot be migrated and was moved aside: "
                                  f"{exc}") from None
            game = StoredGame(doc["header"], doc["entries"], doc["summary"])
            game.header["game_id"] = game_id
            self._write_game(game)
            return game

    def has_game(self, game_id: str) -> bool:
        """Whether a game with this id is in the index."""
        return game_id in self._summaries

    def list_games(self, finished: bool | None = None,
                   limit: int | None = None) -> list[dict[str, Any]]:
        """Summaries (each with "game_id"), newest first (at most `limit`); from memory."""
        with self._lock:
            return listing(self._summaries.items(), finished, limit)

    def delete_game(self, game_id: str) -> None:
        """Delete a game's journal.

        Raises: GameNotFound; OSError.
        """
        with self._lock:
            if game_id not in self._summaries:
                raise GameNotFound(f"no game {game_id!r}")
            self._journal(game_id).unlink(missing_ok=True)
            fsync_dir(self._games_dir)
            del self._summaries[game_id]
            self._tail_checked.discard(game_id)
            self._index_stale = True

    def load_catalogue(self) -> dict[str, Any]:
        """The card catalogue ({} if none saved).

        Raises: ValueError if catalogue.json is unreadable (at open it is moved aside instead).
        """
        with self._lock:
            try:
                raw = self._catalogue_path.read_bytes()
            except FileNotFoundError:
                return {}
            except OSError as exc:
                raise ValueError(f"unreadable catalogue: {exc}") from None
            try:
                doc = json.loads(raw)
            except (ValueError, RecursionError) as exc:
                raise ValueError(f"unreadable catalogue: {exc!r}") from None
            if not isinstance(doc, dict):
                raise ValueError("unreadable catalogue: not a JSON object")
            return doc

    def save_catalogue(self, doc: dict[str, Any]) -> None:
        """Replace the card catalogue atomically.

        Raises: ValueError if `doc` is not a plain JSON object; OSError.
        """
        if not isinstance(doc, dict) or (problem := plain_json_problem(doc, "catalogue")):
            raise ValueError(problem if isinstance(doc, dict) else "catalogue must be an object")
        with self._lock:
            atomic_write_bytes(self._catalogue_path, dumps(doc).encode())

    def damaged(self) -> list[DamagedFile]:
        """Files found unreadable (and moved aside) since this store was opened."""
        with self._lock:
            return list(self._damaged)
