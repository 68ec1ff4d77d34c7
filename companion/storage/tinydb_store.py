"""The on-disk GameStore: one fsync'd JSON-lines journal per game, a sharded TinyDB history index.

Layout of `data_dir`:
  games/<game_id>.jsonl  journal: line 1 {"header", "summary"}, then {"entry"[, "summary"]}
  index/                 the history index: manifest.json and shard-<n>.json (history.py)
  dirty/<game_id>        marker: this game changed after the last index checkpoint; holds the
                         game's sort key in that checkpoint (empty: it was not in it)
  catalogue.json         the card catalogue, replaced atomically
  .lock, owner.json      the writer's lock and who holds it (see lock.py)
  restore/               a restore in progress: staged journals and catalogue, then commit.json
  index.json             the one-file index of earlier releases: read once, then deleted

Saving an action appends one line to its game's journal and fsyncs it (plus, the first time a
game changes after a checkpoint, writes its `dirty/` marker first): the cost depends only on
that game. The journals are the truth; the index is a checkpoint of their summaries, written
by `flush()`, `close()`, and on opening when markers show it is stale, so a crash never loses
a summary. Opening reads the index's manifest, the markers and the journals of the newest
unfinished games; it lists games/ only if that folder changed since the checkpoint (after a
crash, or files put there by hand). A missing or unreadable index is rebuilt from the
journals.

`index/` and `dirty/` are derived from the journals: a writer that finds either damaged in
any way (a file in its place, a folder it cannot read or write, garbage) sets it aside under
a dated name (listed by `damaged()`) and rebuilds the index from the journals; a reader
rebuilds it in memory and leaves the folder as it is. Only `games/` itself being unusable
stops the store. A folder this process may read but not write refuses a writable open with
`FolderReadOnly` (the caller then opens it read-only).

One process writes: a writable store holds the folder's lock from open to `close()`. A
read-only store takes no lock and changes nothing on disk (no temp-file cleanup, no marker
clearing, no index rewrite, no moving damaged files aside), so it can read beside the writer.

A restore of several games is all or nothing: everything is staged under `restore/`, then
`restore/commit.json` is written (the commit point), then the files are moved into place. If
the writer dies, the next writable open finishes a committed restore and drops an uncommitted
one; a read-only store sees a committed one as done.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from tinydb import TinyDB

from .base import GameStore, check_append, check_new_game, check_page, clone
from .files import (
    JOURNAL_SUFFIX,
    TMP_SUFFIX,
    AtomicJSONStorage,
    JournalDamaged,
    append_line,
    atomic_write_bytes,
    dumps,
    fsync_dir,
    journal_bytes,
    latest_summary,
    move_aside,
    read_journal,
    remove_entry,
    remove_temp_files,
    repair_tail,
    write_synced,
)
from .history import (
    Hints,
    HistoryIndex,
    IndexDamaged,
    IndexMoved,
    Shard,
    id_digest,
    sort_key,
    terms_of,
)
from .lock import FolderLock
from .records import (
    DamagedFile,
    FolderReadOnly,
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

MAX_NOTE_BYTES = 64 * 1024 * 1024
"""A cache's note larger than this is not read (counted again instead)."""

VERIFY_AT_OPEN = 20
"""How many of the newest unfinished games (those offered to resume) are read fully at open."""
COMMIT_NAME = "commit.json"
REFUSALS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
"""What the disk answers a process that may not write there (as opposed to a full disk)."""
EFFECTIVE = os.access in os.supports_effective_ids
"""Whether `os.access` can check the effective ids (those that open files)."""
T = TypeVar("T")


class TinyDBGameStore(GameStore):
    """GameStore on real files in `data_dir`; at most one writable instance per folder.

    Opening never fails on unreadable files: they are moved aside (left in place when
    read-only) and listed by `damaged()`. The index, the catalogue and the journals of the
    newest unfinished games are checked at open; other games are checked when loaded.
    Raises (from the constructor): FolderBusy if another process writes in the folder;
    FolderReadOnly (writable open) if this process may read the folder but not write in it;
    FolderUnavailable if the folder or games/ cannot be read or made.
    """

    def __init__(self, data_dir: str | Path, *, read_only: bool = False, wait: float = 0.0,
                 role: str = "app", address: str | None = None) -> None:
        super().__init__()
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self._games_dir = self.data_dir / "games"
        self._dirty_dir = self.data_dir / "dirty"
        self._restore_dir = self.data_dir / "restore"
        self._legacy_path = self.data_dir / "index.json"
        self._catalogue_path = self.data_dir / "catalogue.json"
        self._index_dir = self.data_dir / "index"
        self._index = HistoryIndex(self._index_dir, read_only)
        self._markers_lost = False  # dirty/ was set aside: which games changed is unknown
        self._marked: set[str] = set()  # games with a dirty/ marker on disk
        self._folded: dict[str, str] | None = None  # case-folded id -> id (lazy)
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
        try:
            owner = FolderLock(self.data_dir, role, address, wait)
        except FolderUnavailable:
            refused = self._write_refused(self.data_dir) if self._listable(self.data_dir) \
                else None
            if refused is not None:
                raise self._read_only_error(refused) from None
            raise
        try:
            if self._games_dir.exists() and not self._games_dir.is_dir():
                raise FolderUnavailable(f"{self._games_dir} is a file; it should be a folder")
            if self._listable(self.data_dir) and (refused := self._write_refused(self.data_dir)):
                raise self._read_only_error(refused)
            self._games_dir.mkdir(exist_ok=True)
            self._check_games_readable()
            if not os.access(self._games_dir, os.W_OK | os.X_OK, effective_ids=EFFECTIVE):
                # asked, not tried: a file made there would change the folder's stamp and
                # make every open list it (see _check_games_folder)
                raise self._read_only_error(PermissionError(errno.EACCES, "permission denied"))
            for folder in (self._index_dir, self._dirty_dir):
                self._check_derived(folder)
            self._dirty_dir.mkdir(exist_ok=True)
            for folder in (self.data_dir, self._dirty_dir):
                remove_temp_files(folder)  # ours alone: we hold the lock (games/: see _scan)
        except OSError as exc:
            owner.release()
            if isinstance(exc, FolderUnavailable):
                raise
            raise FolderUnavailable(f"cannot open the data folder {self.data_dir}: "
                                    f"{describe_os_error(exc)}") from None
        return owner

    def _read_only_error(self, exc: OSError) -> FolderReadOnly:
        return FolderReadOnly(f"the data folder {self.data_dir} is read-only here "
                              f"({describe_os_error(exc, with_file=False)}): games can be "
                              f"read, not written")

    @staticmethod
    def _listable(folder: Path) -> bool:
        """Whether this process can list `folder` and open what it holds."""
        return folder.is_dir() and os.access(folder, os.R_OK | os.X_OK, effective_ids=EFFECTIVE)

    @staticmethod
    def _write_refused(folder: Path) -> OSError | None:
        """The refusal (read-only disk, no permission) met by making a file in `folder`, or None
        if a file can be made there (a full disk is no refusal: space may come back)."""
        probe = folder / f".write-probe-{os.getpid()}{TMP_SUFFIX}"
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            return exc if exc.errno in REFUSALS else None
        os.close(fd)
        probe.unlink(missing_ok=True)
        return None

    def _check_derived(self, folder: Path) -> None:
        """Writer: set a damaged derived folder (`index/`, `dirty/`) aside, so that it is made
        anew and the index rebuilt from the journals.

        Raises: FolderUnavailable if it cannot be set aside.
        """
        try:
            if not folder.is_dir() and not folder.exists():
                return
        except OSError as exc:
            problem = describe_os_error(exc, with_file=False)
        else:
            if not folder.is_dir():
                problem = "a file stands where a folder should be"
            elif not self._listable(folder):
                problem = "it cannot be read (permission denied)"
            elif refused := self._write_refused(folder):
                problem = f"it cannot be written ({describe_os_error(refused, with_file=False)})"
            else:
                return
        self._set_aside(folder, f"damaged {folder.name}/ folder: {problem}")
        if self._damaged[-1].backup is None:
            raise FolderUnavailable(f"{folder} is damaged ({problem}) and cannot be set aside")
        if folder == self._dirty_dir:
            self._markers_lost = True

    def _release(self) -> None:
        if self._owner is not None:
            self._owner.release()

    def _names(self, folder: Path) -> list[str]:
        """Names in one of our folders ([] if it does not exist yet, read-only).

        Raises: FolderUnavailable if it cannot be read or is a file.
        """
        try:
            return os.listdir(folder)
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
        self._check_games_readable()
        self._open_index()
        for gid, _ in self._reading(lambda: self._index.page(False, 0, VERIFY_AT_OPEN)):
            if gid not in self._marked:
                self._refresh(gid)
        self._check_catalogue()
        if self.read_only:
            self._marked.clear()  # the writer's markers: not ours to clear
        elif self._index.changed or self._marked:
            try:
                self.flush()
            except OSError:
                pass  # e.g. a full disk: still start; recovered again next time

    def _check_games_readable(self) -> None:
        """Raises: FolderUnavailable if games/ (the journals: nothing rebuilds them) is a file
        or cannot be read."""
        if not self._games_dir.exists():
            return
        if not self._games_dir.is_dir():
            raise FolderUnavailable(f"{self._games_dir} is a file; it should be a folder")
        if not self._listable(self._games_dir):
            raise FolderUnavailable(f"cannot read the games folder {self._games_dir}: "
                                    f"permission denied")

    def _marker_names(self) -> list[str] | None:
        """The names in dirty/; None if they are lost (the folder was set aside, or, read-only,
        it cannot be read: the index is then rebuilt from the journals)."""
        if self._markers_lost:
            return None
        try:
            return self._names(self._dirty_dir)
        except FolderUnavailable as exc:
            if not self.read_only:
                raise
            self._set_aside(self._dirty_dir, str(exc))
            self._markers_lost = True
            return None

    def _open_index(self) -> None:
        """Read the index (migrating or rebuilding it), then bring it up to the journals."""
        scanned = False
        names = self._marker_names()
        if self._legacy_path.exists() and names is not None:
            scanned = self._migrate()
        else:
            try:
                found = self._index.load() and names is not None
            except IndexDamaged as exc:
                self._set_aside(exc.path, str(exc))
                found = False
            if not found and (self._damaged or self._any_journal()):
                self._rebuild()
                scanned = True
        if not self.read_only:
            self._index.clean()
        for name in names or []:
            if id_problem(name) is None:
                self._marked.add(name)
            elif not self.read_only:
                self._drop_marker(name)
        for gid in sorted(self._marked | set(self._staged)):
            self._refresh(gid)
        if not scanned:
            self._check_games_folder()

    def _any_journal(self) -> bool:
        try:
            with os.scandir(self._games_dir) as entries:
                return any(e.name.endswith(JOURNAL_SUFFIX) for e in entries)
        except OSError:
            return False

    def _scan(self) -> list[str]:
        """Every stored game id, from the games/ folder (a writer also deletes orphaned temp
        files there); remembers them for `has_game` and case checks.

        Raises: FolderUnavailable.
        """
        ids = []
        for name in self._names(self._games_dir):
            if name.endswith(JOURNAL_SUFFIX):
                if id_problem(gid := name[: -len(JOURNAL_SUFFIX)]) is None:
                    ids.append(gid)
            elif name.startswith(".") and name.endswith(TMP_SUFFIX) and not self.read_only:
                (self._games_dir / name).unlink(missing_ok=True)
        ids += [gid for gid in self._staged if gid not in ids]
        self._folded = {gid.casefold(): gid for gid in ids}
        return ids

    def _games_stamp(self) -> int | None:
        try:
            return os.stat(self._games_dir).st_mtime_ns
        except OSError:
            return None

    def _check_games_folder(self) -> None:
        """If games/ changed since the checkpoint, list it: if its games are not the index's
        (their fingerprints differ), a journal the index lacks is added and an indexed game
        without a journal dropped."""
        if self._games_stamp() == self._index.games_stamp:
            return
        on_disk = set(self._scan())
        self._index.changed = True  # commit the new stamp
        if id_digest(on_disk) == self._index.ids:
            return
        indexed = self._reading(self._index.every_id)
        for gid in sorted(on_disk - indexed):
            try:
                summary = latest_summary(self._journal(gid))
            except FileNotFoundError:
                continue
            except JournalDamaged as exc:
                self._quarantine(gid, str(exc))
                continue
            self._reading(lambda g=gid, s=summary: self._index.put(g, s))
        for gid in indexed - on_disk:
            self._reading(lambda g=gid: self._index.remove(g))

    def _rebuild(self) -> None:
        """Build the index afresh from the journals' latest summaries."""
        items = []
        for gid in self._scan():
            try:
                items.append((gid, latest_summary(self._journal(gid))))
            except FileNotFoundError:
                continue
            except JournalDamaged as exc:
                self._set_aside(self._journal(gid), str(exc), gid)
                self._forget_id(gid)
        self._index.build(items)
        if not self.read_only:
            self._index.clean()

    def _migrate(self) -> bool:
        """Read the one-file TinyDB index of earlier releases into the index (it is deleted
        at the next checkpoint); an unreadable one is moved aside and the index rebuilt.
        Checks it against the games/ folder either way (that release listed it at every open).
        Returns True (games/ was listed)."""
        try:
            docs = TinyDB(self._legacy_path, storage=AtomicJSONStorage).table("games").all()
            items = []
            for doc in docs:
                gid, summary = doc["game_id"], doc["summary"]
                if id_problem(gid) is not None or not isinstance(summary, dict):
                    raise ValueError(f"bad index record {str(doc)[:80]}")
                items.append((gid, summary))
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            self._set_aside(self._legacy_path, f"unreadable index: {exc!r}"[:300])
            self._rebuild()
            return True
        self._index.build(items)
        self._index.games_stamp = None  # forces the games/ check
        self._check_games_folder()
        return True

    def _refresh(self, game_id: str) -> None:
        """Bring a game's index entry in line with its journal (read whole, so checked)."""
        try:
            _, _, summary = read_journal(self._journal(game_id))
        except FileNotFoundError:  # deleted (or, read-only, deleted by the writer meanwhile)
            self._reading(lambda: self._index.remove(game_id, self._hints(game_id)))
            self._forget_id(game_id)
            return
        except JournalDamaged as exc:
            self._quarantine(game_id, str(exc))
            return
        self._reading(lambda: self._index.put(game_id, summary, self._hints(game_id)))
        self._remember_id(game_id)

    def _hints(self, game_id: str) -> Hints:
        """Where the index may hold a game it has not read yet: the key its marker saved and
        its journal's key; after those, a marked or journal-less game is surely not indexed."""

        def hints() -> tuple[list[str], bool]:
            keys, certain = [], game_id in self._marked or game_id in self._staged
            if game_id in self._marked:
                try:
                    keys.append((self._dirty_dir / game_id).read_text("utf-8"))
                except (OSError, ValueError):
                    certain = False
            try:
                keys.append(sort_key(latest_summary(self._journal(game_id))))
            except FileNotFoundError:
                certain = True
            except JournalDamaged:
                pass
            return [k for k in keys if k], certain

        return hints

    def _reading(self, read: Callable[[], T]) -> T:
        """Run something on the index; if a shard file is unreadable, rebuild the index from
        the journals and run it again (read-only: first read the writer's newer index)."""
        for _ in range(3):
            try:
                return read()
            except IndexMoved:
                self._reload()
            except IndexDamaged as exc:
                self._set_aside(exc.path, str(exc))
                self._rebuild()
        return read()

    def _reload(self) -> None:
        """Read-only: the writer checkpointed; read its index again."""
        self._marked.clear()
        self._open_index()
        self._marked.clear()

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
        if not self.read_only:
            self._mark(game_id)
        self._set_aside(self._journal(game_id), reason, game_id)
        self._reading(lambda: self._index.remove(game_id, self._hints(game_id)))
        self._forget_id(game_id)
        self._tail_checked.discard(game_id)

    def _drop_marker(self, name: str) -> None:
        """Delete an entry of dirty/ (a folder found there is garbage: removed whole).

        Raises: OSError.
        """
        remove_entry(self._dirty_dir / name)

    def _mark(self, game_id: str) -> None:
        """Before a game's first change since the checkpoint: its marker, holding its key in
        the checkpoint (which is its key now).

        Raises: OSError.
        """
        if game_id in self._marked:
            return
        self._reading(lambda: self._index.locate(game_id, self._hints(game_id)))
        key = self._index.key_of(game_id) or ""
        atomic_write_bytes(self._dirty_dir / game_id, key.encode())
        self._marked.add(game_id)

    @contextmanager
    def _changing(self, game_id: str) -> Iterator[None]:
        """Mark a game around a write to its journal; a write that fails leaves no new marker.

        Raises: OSError (from the marker or the write).
        """
        new = game_id not in self._marked
        self._mark(game_id)
        try:
            yield
        except BaseException:
            if new:
                self._marked.discard(game_id)
                (self._dirty_dir / game_id).unlink(missing_ok=True)
            raise

    def _journal(self, game_id: str) -> Path:
        return self._staged.get(game_id) or self._games_dir / f"{game_id}{JOURNAL_SUFFIX}"

    def _folded_ids(self) -> dict[str, str]:
        if self._folded is None:
            self._scan()
        assert self._folded is not None
        return self._folded

    def _remember_id(self, game_id: str) -> None:
        if self._folded is not None:
            self._folded[game_id.casefold()] = game_id

    def _forget_id(self, game_id: str) -> None:
        if self._folded is not None and self._folded.get(game_id.casefold()) == game_id:
            del self._folded[game_id.casefold()]

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
        for gid in record["games"]:  # new to the index: found again if we die below
            if not (self._dirty_dir / gid).exists():
                (self._dirty_dir / gid).touch()
        fsync_dir(self._dirty_dir)
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
        try:
            self._apply_restore()
        finally:  # committed: the restore counts as done, even if moving it failed
            for game in games:
                self._marked.add(game.game_id)
                self._reading(lambda g=game: self._index.put(g.game_id, clone(g.summary),
                                                             self._hints(g.game_id)))
                self._remember_id(game.game_id)
            self._tail_checked.update(game.game_id for game in games)

    # --- the GameStore interface ---

    def _writable(self) -> None:
        if self._closed:
            raise ReadOnlyStore(f"the store of {self.data_dir} is closed")
        if self.read_only or self._owner is None or not self._owner.held:
            raise ReadOnlyStore(f"the data folder {self.data_dir} is open read-only here")

    def _ids(self) -> list[str]:
        return list(self._folded_ids().values())

    def _case_twin(self, game_id: str) -> str | None:
        twin = self._folded_ids().get(game_id.casefold())
        return None if twin in (None, game_id) else twin

    @property
    def version(self) -> int:
        """Change counter of the summaries (see `GameStore.version`)."""
        return self._index.version

    def flush(self) -> None:
        """Checkpoint the history index (changed shards, then the manifest) and clear the
        dirty markers. A read-only store has nothing to checkpoint: no-op.

        Raises: OSError on disk failure.
        """
        with self._lock:
            if self.read_only or self._closed or not (self._index.changed or self._marked):
                return
            self._index.save(self._games_stamp())
            for gid in self._marked:
                self._drop_marker(gid)
            if self._marked:
                fsync_dir(self._dirty_dir)
            self._marked.clear()
            if self._legacy_path.exists():  # migrated: the new index holds it all now
                self._legacy_path.unlink()
                fsync_dir(self.data_dir)

    def close(self) -> None:
        """Checkpoint the index (if it can be written), close it and give up the folder.

        Idempotent. A checkpoint that fails (e.g. a full disk) loses nothing: the journals and
        dirty markers rebuild the index at the next open.
        """
        with self._lock:
            if self._closed:
                return
            try:
                self.flush()
            except OSError:
                pass
            finally:
                self._closed = True
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
            if self.has_game(gid) or self._journal(gid).exists():
                raise GameExists(f"game {gid!r} already exists")
            if twin := self._case_twin(gid):
                raise GameExists(f"game {gid!r} differs only in case from the stored {twin!r}")
            self._write_game(StoredGame(header, [], summary))

    def _write_game(self, game: StoredGame) -> None:
        gid = game.game_id
        with self._changing(gid):
            atomic_write_bytes(self._journal(gid),
                               journal_bytes(game.header, game.entries, game.summary))
        self._reading(lambda: self._index.put(gid, clone(game.summary), self._hints(gid)))
        self._remember_id(gid)
        self._tail_checked.add(gid)

    def append(self, game_id: str, entry: dict[str, Any],
               summary: dict[str, Any] | None = None) -> None:
        """Append one entry to the game's journal and fsync it before returning.

        A failed append leaves the journal as it was, so the same entry can be retried.
        Raises: GameNotFound; ValueError if entry/summary are malformed; ReadOnlyStore; OSError.
        """
        check_append(entry, summary)
        with self._lock:
            self._writable()
            if not self.has_game(game_id):
                raise GameNotFound(f"no game {game_id!r}")
            record: dict[str, Any] = {"entry": entry}
            changed = summary is not None and summary != self._reading(
                lambda: self._index.get(game_id, self._hints(game_id)))
            if changed:
                record["summary"] = summary
            path = self._journal(game_id)
            try:
                with self._changing(game_id) if changed else nullcontext():
                    if game_id not in self._tail_checked:
                        repair_tail(path)
                        self._tail_checked.add(game_id)
                    append_line(path, (dumps(record) + "\n").encode())
            except FileNotFoundError:
                self._drop(game_id)
                raise GameNotFound(f"game {game_id!r} has no journal file any more") from None
            except BaseException:
                self._tail_checked.discard(game_id)  # a partial line may be left: repair first
                raise
            if changed:
                self._reading(lambda: self._index.put(game_id, clone(summary)))

    def _drop(self, game_id: str) -> None:
        """Forget a game whose journal is gone."""
        if not self.read_only and not self._closed:
            self._mark(game_id)
        self._reading(lambda: self._index.remove(game_id, self._hints(game_id)))
        self._forget_id(game_id)
        self._tail_checked.discard(game_id)

    def load(self, game_id: str) -> StoredGame:
        """Read a game's journal; an older schema is migrated (and rewritten once, if writable).

        Raises: GameNotFound; GameDamaged (file moved aside, or left in place read-only);
        UnsupportedSchema.
        """
        with self._lock:
            if not self.has_game(game_id):
                raise GameNotFound(f"no game {game_id!r}")
            try:
                header, entries, summary = read_journal(self._journal(game_id))
            except FileNotFoundError:
                self._drop(game_id)
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
        """Whether a game with this id is stored."""
        if not isinstance(game_id, str) or id_problem(game_id) is not None:
            return False
        with self._lock:
            return (self._index.known(game_id)
                    or self._folded_ids().get(game_id.casefold()) == game_id)

    def list_games(self, finished: bool | None = None, limit: int | None = None, *,
                   offset: int = 0, query: str | None = None) -> list[dict[str, Any]]:
        """A page of summaries (each with "game_id"), newest first (see `GameStore`); reads
        only the index shards holding the page (a search reads each shard once).

        Raises: ValueError if `offset` or `limit` is negative.
        """
        check_page(offset, limit)
        with self._lock:
            rows = self._reading(lambda: self._rows(finished, limit, offset, query))
            return [{**clone(s), "game_id": gid} for gid, s in rows]

    def _rows(self, finished: bool | None, limit: int | None, offset: int,
              query: str | None) -> list[tuple[str, dict[str, Any]]]:
        terms = terms_of(query)
        if not terms:
            return self._index.page(finished, offset, limit)
        found = list(islice(self._index.search(finished, terms), offset,
                            None if limit is None else offset + limit))
        return [(gid, self._index.summary_in(shard, gid)) for gid, shard in found]

    def count_games(self, finished: bool | None = None, query: str | None = None) -> int:
        """How many games `list_games` would give without a limit (from the manifest's counts
        unless searching)."""
        terms = terms_of(query)
        with self._lock:
            if not terms:
                return self._index.count(finished)
            return self._reading(lambda: sum(1 for _ in self._index.search(finished, terms)))

    def summaries(self, finished: bool | None = None) -> Iterator[dict[str, Any]]:
        """Copies of the summaries (each with "game_id"), shard by shard, oldest first."""
        with self._lock:
            chunks = self._index.chunks(finished)
        for _, shard in chunks:
            for gid, summary in self._chunk(shard, finished):
                yield {**clone(summary), "game_id": gid}

    def summary_chunks(self, finished: bool | None = None
                       ) -> list[tuple[str, Callable[[], list[dict[str, Any]]]]]:
        """The summaries by index shard: (stamp, read) pairs, oldest first (see `GameStore`)."""
        with self._lock:
            return [(stamp, partial(self._chunk_summaries, shard, finished))
                    for stamp, shard in self._index.chunks(finished)]

    def _chunk(self, shard: Shard, finished: bool | None) -> list[tuple[str, dict[str, Any]]]:
        with self._lock:
            return self._reading(lambda: self._index.summaries_in(shard, finished))

    def _chunk_summaries(self, shard: Shard, finished: bool | None) -> list[dict[str, Any]]:
        return [summary for _, summary in self._chunk(shard, finished)]

    def delete_game(self, game_id: str) -> None:
        """Delete a game's journal.

        Raises: GameNotFound; ReadOnlyStore; OSError.
        """
        with self._lock:
            self._writable()
            if not self.has_game(game_id):
                raise GameNotFound(f"no game {game_id!r}")
            with self._changing(game_id):
                self._journal(game_id).unlink(missing_ok=True)
                fsync_dir(self._games_dir)
            self._reading(lambda: self._index.remove(game_id))
            self._forget_id(game_id)
            self._tail_checked.discard(game_id)

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

    def _note_path(self, name: str) -> Path:
        return self._index_dir / f"note-{name}.json"

    def load_note(self, name: str) -> Any | None:
        """A note kept for a cache, from `index/note-<name>.json` (None if missing, too big or
        unreadable: a cache counts again)."""
        path = self._note_path(name)
        try:
            if path.stat().st_size > MAX_NOTE_BYTES:
                return None
            return json.loads(path.read_bytes())
        except (OSError, ValueError):
            return None

    def save_note(self, name: str, doc: Any) -> None:
        """Write a note for a cache atomically (skipped when this store may not write, or the
        disk refuses: the cache counts again next time)."""
        with self._lock:
            if not self.writable:
                return
            path = self._note_path(name)
            try:
                if path.is_dir():  # garbage in the cache's place: set aside, then written
                    self._set_aside(path, "a folder stands where a cache note should be")
                atomic_write_bytes(path, dumps(doc).encode())
            except (OSError, ValueError):
                pass

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
