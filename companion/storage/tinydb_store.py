"""The on-disk GameStore: one fsync'd JSON-lines journal per game, a TinyDB history index.

Layout of `data_dir`:
  games/<game_id>.jsonl  journal: line 1 {"header", "summary"}, then {"entry"[, "summary"]}
  index.json             TinyDB (AtomicJSONStorage), table "games": {"game_id", "summary"}
  dirty/<game_id>        marker: this game's summary changed after the last index checkpoint
  catalogue.json         the card catalogue, replaced atomically
  .lock, owner.json      the writer's lock and who holds it (see lock.py)
  restore/               a restore in progress: staged journals and catalogue, then commit.json

Saving an action appends one line to its game's journal and fsyncs it (plus, the first time a
game's summary changes after a checkpoint, creates its empty `dirty/` marker): the cost depends
only on that game. The index is a checkpoint of summaries held in memory; it is rewritten (one
atomic file replace) by `flush()`, `close()`, and on opening when markers or stray journals show
it is stale, so a crash never loses a summary either.

One process writes: a writable store holds the folder's lock from open to `close()`. A
read-only store takes no lock and changes nothing on disk (no temp-file cleanup, no marker
clearing, no index rewrite, no moving damaged files aside), so it can read beside the writer.

A restore of several games is all or nothing: everything is staged under `restore/`, then
`restore/commit.json` is written (the commit point), then the files are moved into place. If
the writer dies, the next writable open finishes a committed restore and drops an uncommitted
one; a read-only store sees a committed one as done.
"""

from __future__ import annotations

import json
import os
import shutil
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
    write_synced,
)
from .lock import FolderLock
from .records import (
    DamagedFile,
    FolderUnavailable,
    GameDamaged,
    GameExists,
    GameNotFound,
    ReadOnlyStore,
    StoredGame,
    UnsupportedSchema,
    describe_os_error,
)
from .transfer import CURRENT_SCHEMA_VERSION, export_doc, id_problem, migrate, plain_json_problem

VERIFY_AT_OPEN = 20
"""How many of the newest unfinished games (those offered to resume) are read fully at open."""
COMMIT_NAME = "commit.json"


class TinyDBGameStore(GameStore):
    """GameStore on real files in `data_dir`; at most one writable instance per folder.

    Opening never fails on unreadable files: they are moved aside (left in place when
    read-only) and listed by `damaged()`. The index, the catalogue and the journals of the
    newest unfinished games are checked at open; other games are checked when loaded.
    Raises (from the constructor): FolderBusy if another process writes in the folder;
    FolderUnavailable if the folder (or games/, dirty/) cannot be read or made.
    """

    def __init__(self, data_dir: str | Path, *, read_only: bool = False, wait: float = 0.0,
                 role: str = "app", address: str | None = None) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self._games_dir = self.data_dir / "games"
        self._dirty_dir = self.data_dir / "dirty"
        self._restore_dir = self.data_dir / "restore"
        self._catalogue_path = self.data_dir / "catalogue.json"
        self._summaries: dict[str, dict[str, Any]] = {}
        self._marked: set[str] = set()  # games with a dirty/ marker on disk
        self._index_stale = False
        self._tail_checked: set[str] = set()
        self._damaged: list[DamagedFile] = []
        self._staged: dict[str, Path] = {}  # read-only: journals of a committed restore
        self._closed = False
        self._owner: FolderLock | None = None
        if not read_only:
            self._owner = self._take_folder(role, address, wait)
        try:
            with self._lock:
                if read_only:
                    self._see_restore()
                else:
                    self._finish_restore()
                self._db = TinyDB(self.data_dir / "index.json", storage=AtomicJSONStorage)
                self._storage: AtomicJSONStorage = self._db.storage  # type: ignore[assignment]
                self._table = self._db.table("games")
                self._open()
        except OSError as exc:
            self._release()
            if isinstance(exc, FolderUnavailable):
                raise
            raise FolderUnavailable(f"cannot open the data folder {self.data_dir}: "
                                    f"{describe_os_error(exc)}") from None
        except BaseException:
            self._release()
            raise

    # --- opening and recovery ---

    def _take_folder(self, role: str, address: str | None, wait: float) -> FolderLock:
        if self.data_dir.exists() and not self.data_dir.is_dir():
            raise FolderUnavailable(f"{self.data_dir} is a file; it should be a folder")
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FolderUnavailable(f"cannot make the data folder {self.data_dir}: "
                                    f"{describe_os_error(exc)}") from None
        owner = FolderLock(self.data_dir, role, address, wait)
        try:
            for folder in (self._games_dir, self._dirty_dir):
                if folder.exists() and not folder.is_dir():
                    raise FolderUnavailable(f"{folder} is a file; it should be a folder")
                folder.mkdir(exist_ok=True)
            for folder in (self.data_dir, self._games_dir, self._dirty_dir):
                remove_temp_files(folder)  # ours alone: we hold the lock
        except OSError as exc:
            owner.release()
            if isinstance(exc, FolderUnavailable):
                raise
            raise FolderUnavailable(f"cannot open the data folder {self.data_dir}: "
                                    f"{describe_os_error(exc)}") from None
        return owner

    def _release(self) -> None:
        if self._owner is not None:
            self._owner.release()

    def _listdir(self, folder: Path) -> list[Path]:
        """Entries of one of our folders ([] if it does not exist yet, read-only).

        Raises: FolderUnavailable if it cannot be read or is a file.
        """
        try:
            return list(folder.iterdir())
        except FileNotFoundError:
            if self.read_only:
                return []
            raise FolderUnavailable(f"{folder} disappeared") from None
        except NotADirectoryError:
            raise FolderUnavailable(f"{folder} is a file; it should be a folder") from None
        except OSError as exc:
            raise FolderUnavailable(f"cannot read {folder}: {describe_os_error(exc)}") from None

    def _open(self) -> None:
        if self.read_only and self.data_dir.exists() and not self.data_dir.is_dir():
            raise FolderUnavailable(f"{self.data_dir} is a file; it should be a folder")
        self._read_index()
        on_disk = {p.name[: -len(JOURNAL_SUFFIX)] for p in self._listdir(self._games_dir)
                   if p.name.endswith(JOURNAL_SUFFIX)}
        on_disk = {gid for gid in on_disk if id_problem(gid) is None} | set(self._staged)
        for marker in self._listdir(self._dirty_dir):
            if id_problem(marker.name) is None:
                self._marked.add(marker.name)
            elif not self.read_only:
                marker.unlink(missing_ok=True)
        for gid in set(self._summaries) - on_disk:  # deleted after the last checkpoint
            del self._summaries[gid]
            self._index_stale = True
        stale = (on_disk - set(self._summaries)) | (self._marked & on_disk)
        recent = listing(self._summaries.items(), False, VERIFY_AT_OPEN)
        for gid in sorted(stale | {s["game_id"] for s in recent}):
            try:
                _, _, summary = read_journal(self._journal(gid))
            except FileNotFoundError:  # deleted by the writer while we read (read-only)
                self._summaries.pop(gid, None)
                continue
            except JournalDamaged as exc:
                self._quarantine(gid, str(exc))
                continue
            if self._summaries.get(gid) != summary:
                self._summaries[gid] = summary
                self._index_stale = True
        self._check_catalogue()
        if self.read_only:
            self._marked.clear()  # the writer's markers: not ours to clear
        elif self._index_stale or self._marked:
            try:
                self.flush()
            except OSError:
                pass  # e.g. a full disk: still start; recovered again next time

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
            self._set_aside(self._storage.path, f"unreadable index: {exc!r}"[:300])
            self._storage.forget()
            self._table.clear_cache()
            summaries = {}
            self._index_stale = True  # rebuilt from the journals by _open
        self._summaries = summaries

    def _check_catalogue(self) -> None:
        try:
            self.load_catalogue()
        except ValueError as exc:
            self._set_aside(self._catalogue_path, str(exc)[:300])

    def _set_aside(self, path: Path, reason: str, game_id: str | None = None) -> None:
        """Record an unreadable file; a writer also moves it aside (a reader leaves it)."""
        backup = None if self.read_only else move_aside(path)
        self._damaged.append(DamagedFile(path, backup, reason, game_id))

    def _quarantine(self, game_id: str, reason: str) -> None:
        self._set_aside(self._journal(game_id), reason, game_id)
        if self._summaries.pop(game_id, None) is not None:
            self._index_stale = True
        self._tail_checked.discard(game_id)

    def _journal(self, game_id: str) -> Path:
        return self._staged.get(game_id) or self._games_dir / f"{game_id}{JOURNAL_SUFFIX}"

    # --- restores: staged, committed, then moved into place ---

    def _commit_record(self) -> dict[str, Any] | None:
        """The committed restore's record, or None if there is no (valid) commit."""
        try:
            record = json.loads((self._restore_dir / COMMIT_NAME).read_bytes())
        except (OSError, ValueError):
            return None
        if (not isinstance(record, dict) or not isinstance(record.get("games"), list)
                or any(id_problem(g) for g in record["games"])):
            return None
        return record

    def _finish_restore(self) -> None:
        """At a writable open: finish a committed restore, or drop an uncommitted one."""
        if not self._restore_dir.exists():
            return
        if self._commit_record() is not None:
            self._apply_restore()
        else:
            shutil.rmtree(self._restore_dir)
            fsync_dir(self.data_dir)

    def _see_restore(self) -> None:
        """Read-only: show a committed but unfinished restore as done, without touching it."""
        record = self._commit_record()
        if record is None:
            return
        for gid in record["games"]:
            staged = self._restore_dir / "games" / f"{gid}{JOURNAL_SUFFIX}"
            if staged.exists() and not (self._games_dir / f"{gid}{JOURNAL_SUFFIX}").exists():
                self._staged[gid] = staged
        staged_catalogue = self._restore_dir / "catalogue.json"
        if record.get("catalogue") and staged_catalogue.exists():
            self._catalogue_path = staged_catalogue

    def _apply_restore(self) -> list[str]:
        """Move a committed restore into place (idempotent); return its game ids.

        Raises: OSError (the restore stays committed and is finished at the next open).
        """
        record = self._commit_record()
        assert record is not None
        for gid in record["games"]:
            staged = self._restore_dir / "games" / f"{gid}{JOURNAL_SUFFIX}"
            if staged.exists():
                os.replace(staged, self._games_dir / f"{gid}{JOURNAL_SUFFIX}")
        fsync_dir(self._games_dir)
        staged_catalogue = self._restore_dir / "catalogue.json"
        if record.get("catalogue") and staged_catalogue.exists():
            os.replace(staged_catalogue, self._catalogue_path)
        (self._restore_dir / COMMIT_NAME).unlink()
        fsync_dir(self._restore_dir)
        shutil.rmtree(self._restore_dir)
        fsync_dir(self.data_dir)
        return list(record["games"])

    def _put_all(self, games: list[StoredGame], catalogue: dict[str, Any] | None) -> None:
        if len(games) + (catalogue is not None) <= 1:
            for game in games:
                self._write_game(game)
            if catalogue is not None:
                self.save_catalogue(catalogue)
            return
        stage = self._restore_dir
        try:
            if stage.exists():
                shutil.rmtree(stage)
            (stage / "games").mkdir(parents=True)
            for game in games:
                write_synced(stage / "games" / f"{game.game_id}{JOURNAL_SUFFIX}",
                             journal_bytes(game.header, game.entries, game.summary))
            if catalogue is not None:
                write_synced(stage / "catalogue.json", dumps(catalogue).encode())
            fsync_dir(stage / "games")
            fsync_dir(stage)
            fsync_dir(self.data_dir)
            record = {"games": [g.game_id for g in games], "catalogue": catalogue is not None}
            atomic_write_bytes(stage / COMMIT_NAME, dumps(record).encode())  # the commit point
        except BaseException:
            shutil.rmtree(stage, ignore_errors=True)
            raise
        for game in games:  # the restore now counts as done, even if moving it fails below
            self._summaries[game.game_id] = clone(game.summary)
        self._index_stale = True
        self._apply_restore()
        self._tail_checked.update(game.game_id for game in games)

    # --- the GameStore interface ---

    def _writable(self) -> None:
        if self._closed:
            raise ReadOnlyStore(f"the store of {self.data_dir} is closed")
        if self.read_only or self._owner is None or not self._owner.held:
            raise ReadOnlyStore(f"the data folder {self.data_dir} is open read-only here")

    def _ids(self) -> list[str]:
        return list(self._summaries)

    def flush(self) -> None:
        """Checkpoint the history index (one atomic rewrite) and clear the dirty markers.

        A read-only store has nothing to checkpoint: no-op.
        Raises: OSError on disk failure.
        """
        with self._lock:
            if self.read_only or self._closed:
                return
            with self._storage.batch():
                self._table.truncate()
                self._table.insert_multiple(
                    {"game_id": gid, "summary": s} for gid, s in sorted(self._summaries.items()))
            for gid in self._marked:
                (self._dirty_dir / gid).unlink(missing_ok=True)
            self._marked.clear()
            self._index_stale = False

    def close(self) -> None:
        """Checkpoint the index (if it can be written), close it and give up the folder.

        Idempotent. A checkpoint that fails (e.g. a full disk) loses nothing: the journals and
        dirty markers rebuild the index at the next open.
        """
        with self._lock:
            if self._closed:
                return
            try:
                if self._index_stale or self._marked:
                    self.flush()
            except OSError:
                pass
            finally:
                self._closed = True
                self._db.close()
                self._release()

    def create_game(self, header: dict[str, Any], summary: dict[str, Any]) -> None:
        """Store a new game with no entries yet (journal written atomically).

        Raises: GameExists (also for an id differing only in case); ValueError if header or
        summary are malformed; ReadOnlyStore; OSError.
        """
        check_new_game(header, summary)
        with self._lock:
            self._writable()
            gid = header["game_id"]
            if gid in self._summaries or self._journal(gid).exists():
                raise GameExists(f"game {gid!r} already exists")
            if twin := self._case_twin(gid):
                raise GameExists(f"game {gid!r} differs only in case from the stored {twin!r}")
            self._write_game(StoredGame(header, [], summary))

    def _write_game(self, game: StoredGame) -> None:
        atomic_write_bytes(self._journal(game.game_id),
                           journal_bytes(game.header, game.entries, game.summary))
        self._summaries[game.game_id] = clone(game.summary)
        self._tail_checked.add(game.game_id)
        self._index_stale = True  # found again by listing games/ if we crash before a flush

    def append(self, game_id: str, entry: dict[str, Any],
               summary: dict[str, Any] | None = None) -> None:
        """Append one entry to the game's journal and fsync it before returning.

        A failed append leaves the journal as it was, so the same entry can be retried.
        Raises: GameNotFound; ValueError if entry/summary are malformed; ReadOnlyStore; OSError.
        """
        check_append(entry, summary)
        with self._lock:
            self._writable()
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
        """Read a game's journal; an older schema is migrated (and rewritten once, if writable).

        Raises: GameNotFound; GameDamaged (file moved aside, or left in place read-only);
        UnsupportedSchema.
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
                raise GameDamaged(f"game {game_id!r} is damaged{self._aside()}: {exc}") from None
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
                raise GameDamaged(f"game {game_id!r} cannot be migrated{self._aside()}: "
                                  f"{exc}") from None
            game = StoredGame(doc["header"], doc["entries"], doc["summary"])
            game.header["game_id"] = game_id
            if not self.read_only and not self._closed:
                self._write_game(game)
            return game

    def _aside(self) -> str:
        return " (left in place: read-only here)" if self.read_only else " and was moved aside"

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

        Raises: GameNotFound; ReadOnlyStore; OSError.
        """
        with self._lock:
            self._writable()
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
                raise ValueError(f"unreadable catalogue: {describe_os_error(exc)}") from None
            try:
                doc = json.loads(raw)
            except (ValueError, RecursionError) as exc:
                raise ValueError(f"unreadable catalogue: {exc!r}"[:300]) from None
            if not isinstance(doc, dict):
                raise ValueError("unreadable catalogue: not a JSON object")
            return doc

    def save_catalogue(self, doc: dict[str, Any]) -> None:
        """Replace the card catalogue atomically.

        Raises: ValueError if `doc` is not a plain JSON object; ReadOnlyStore; OSError.
        """
        if not isinstance(doc, dict) or (problem := plain_json_problem(doc, "catalogue")):
            raise ValueError(problem if isinstance(doc, dict) else "catalogue must be an object")
        with self._lock:
            self._writable()
            atomic_write_bytes(self._catalogue_path, dumps(doc).encode())

    def damaged(self) -> list[DamagedFile]:
        """Files found unreadable since this store was opened (moved aside unless read-only)."""
        with self._lock:
            return list(self._damaged)
