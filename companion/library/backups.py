"""Your data, in the app: backup files, previews of what a file holds before it is
restored or imported, and a rotating set of automatic backups in the data folder.

Everything read goes through the store's export API and everything restored or imported
through the library (`Library.check_backup`/`restore_backup`, `check_game`/`import_game`,
`check_catalogue`/`import_catalogue`): a restore validates every game (replayed by the rules
engine) and the catalogue as an import does, is staged and committed all or nothing, and a
refused file changes nothing.

Automatic backups live in `<data>/backups/` as `auto-<UTC time>-<n>g-<fingerprint>.json` (a
normal backup file). A new one is written only when the data changed since the newest one (the
fingerprint says). Rotation keeps the newest backup of each of the last `KEEP_DAYS` days that
have one and of each of the last `KEEP_WEEKS` ISO weeks that have one; time passing alone never
deletes the last backups of a group that stopped playing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.library.library import FileCheck, Library, Progress
from companion.rules.catalogue import SECTIONS, CatalogueError
from companion.storage import (
    BACKUP_FORMAT,
    GAME_FORMAT,
    MAX_BACKUP_BYTES,
    MAX_CATALOGUE_BYTES,
    ImportPlan,
    ImportRefused,
    StorageError,
)
from companion.storage.files import atomic_write_bytes, dumps, remove_temp_files
from companion.storage.transfer import parse_json_bytes

BACKUP_DIR = "backups"
"""Folder of the automatic backups, inside the data folder."""
KEEP_DAYS = 7
KEEP_WEEKS = 4
AUTO_NAME = re.compile(r"^auto-(\d{8}T\d{6}Z)-(\d{1,6})g-([0-9a-f]{8})\.json$")


def stamp(when: datetime) -> str:
    """'20250301T190000Z' (UTC)."""
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


@dataclass(frozen=True)
class AutoBackup:
    """One automatic backup file."""

    path: Path
    when: datetime
    """When it was written (UTC)."""
    games: int
    """Games it holds."""
    fingerprint: str
    """Digest of the data it holds (the same data gives the same fingerprint)."""
    size: int
    """File size in bytes."""

    @property
    def name(self) -> str:
        """The file name (its id on the Data page)."""
        return self.path.name


@dataclass(frozen=True)
class GameLine:
    """What a file says about one game, for the preview."""

    game_id: str
    players: list[str]
    clans: list[str | None]
    created: str
    """When the game was started (ISO, UTC)."""
    finished: bool
    winner: str | None
    round: int | None
    stored: bool
    """Already stored here, identical (restoring it changes nothing)."""


@dataclass
class Preview:
    """What a chosen file holds and what applying it would do; `doc` is applied as read."""

    kind: str
    """"backup", "game" or "catalogue"."""
    name: str
    """File name."""
    doc: dict[str, Any] = field(repr=False)
    games: list[GameLine] = field(default_factory=list)
    catalogue: dict[str, int] | None = None
    """Entries per catalogue section in the file (None: no catalogue in it)."""
    created: str | None = None
    """When the backup was made, if it says."""
    checked: FileCheck | None = field(default=None, repr=False)
    """The library's check of a game or backup file (its games are not replayed again)."""

    @property
    def new_games(self) -> int:
        """Games the file would add."""
        return sum(not g.stored for g in self.games)


def fingerprint(library: Library) -> str:
    """A digest of the stored games and the catalogue: changes whenever they change (from the
    stamps of the store's summary chunks, so no summary is read; a rebuilt index may change it
    without a change of data, which costs one backup more, never one less)."""
    stamps = [stamp for stamp, _ in library.store.summary_chunks()]
    data = dumps(stamps) + dumps(library.store.load_catalogue())
    return hashlib.sha256(data.encode()).hexdigest()[:8]


def backup_file(library: Library, now: datetime | None = None) -> tuple[str, bytes]:
    """Everything (games and catalogue) as one backup file: (suggested name, bytes)."""
    when = now or datetime.now(UTC)
    doc = library.store.export_backup()
    return f"vendetta-backup-{stamp(when)}.json", (dumps(doc) + "\n").encode()


def game_file(library: Library, game_id: str) -> tuple[str, bytes]:
    """One stored game as a file: (suggested name, bytes).

    Raises:
        KeyError: no such game; StorageError: it cannot be read.
    """
    doc = library.store.export_game(game_id)
    players = "-".join(re.sub(r"[^A-Za-z0-9]+", "", p)[:10] for p in
                       (doc.get("summary") or {}).get("players", [])) or "game"
    return f"vendetta-game-{players}-{game_id}.json", (json.dumps(doc, indent=1) + "\n").encode()


def catalogue_file(library: Library) -> tuple[str, bytes]:
    """The user's card catalogue as a shareable file: (suggested name, bytes)."""
    doc = library.export_catalogue()
    return "vendetta-catalogue.json", (json.dumps(doc, indent=1, ensure_ascii=False)
                                       + "\n").encode()


def preview(library: Library, raw: bytes, name: str, progress: Progress | None = None
            ) -> Preview:
    """Read a chosen file and check all of it through the library, as applying it will,
    writing nothing.

    Every game new to this store is replayed by the rules engine (`progress` hears of each),
    a backup's catalogue is checked like an imported one, and id clashes are refused.
    Raises:
        ImportRefused: too large, not JSON, or any part refused (names the file, the part and
            why).
    """
    if len(raw) > MAX_BACKUP_BYTES:
        raise ImportRefused(f"{name}: file is larger than {MAX_BACKUP_BYTES // 2**20} MB")
    doc = parse_json_bytes(raw, name)
    if not isinstance(doc, dict):
        raise ImportRefused(f"{name}: top level must be a JSON object")
    fmt = doc.get("format")
    try:
        if fmt == BACKUP_FORMAT:
            if not _has_cards(doc.get("catalogue")):  # no card values: the user's stay as
                doc = {k: v for k, v in doc.items() if k != "catalogue"}  # they are
            checked = library.check_backup(doc, progress)
            created = doc.get("created")
            return Preview("backup", name, doc, _lines(checked.plan),
                           _counts(checked.plan.catalogue),
                           created if isinstance(created, str) else None, checked)
        if fmt == GAME_FORMAT:
            checked = library.check_game(doc, progress)
            return Preview("game", name, doc, _lines(checked.plan), checked=checked)
        if any(key in doc for key in SECTIONS):
            if len(raw) > MAX_CATALOGUE_BYTES:
                raise ImportRefused(f"a catalogue file may be at most "
                                    f"{MAX_CATALOGUE_BYTES // 1024} KB")
            library.check_catalogue(doc)
            return Preview("catalogue", name, doc, catalogue=_counts(doc))
    except (ImportRefused, CatalogueError) as err:
        raise ImportRefused(f"{name}: {err}") from None
    raise ImportRefused(f"{name}: not a backup, a game or a card catalogue of this app "
                        f"(format is {str(fmt)[:40]!r})")


def apply(library: Library, chosen: Preview) -> str:
    """Restore, import or merge what a preview showed, through the library; says what
    changed.

    Checked again as it is written (games the preview replayed are not replayed again), all
    or nothing: a backup is staged and committed whole by the store.
    Raises:
        ImportRefused: any part refused (nothing written); CatalogueError; ReadOnlyStore
        (another app owns the data folder); OSError (nothing written).
    """
    if chosen.kind == "backup":
        added = library.restore_backup(chosen.doc, chosen.checked)
        extra = " and the card catalogue" if chosen.catalogue is not None else ""
        return f"Restored {len(added)} game(s){extra} from {chosen.name}."
    if chosen.kind == "game":
        gid = library.import_game(chosen.doc, chosen.checked)
        return f"Imported the game {gid} from {chosen.name}."
    library.import_catalogue(chosen.doc)
    return f"Merged the card catalogue from {chosen.name}."


def _has_cards(catalogue: object) -> bool:
    """Whether a backup's catalogue holds any card (an empty one replaces nothing)."""
    return isinstance(catalogue, dict) and any(catalogue.get(s) for s in SECTIONS)


def _counts(catalogue: dict[str, Any] | None) -> dict[str, int] | None:
    if catalogue is None:
        return None
    return {s: len(catalogue.get(s) or []) for s in SECTIONS}


def _lines(plan: ImportPlan) -> list[GameLine]:
    """Preview lines of the games a checked file holds."""
    new = set(plan.new)
    out = []
    for g in plan.games:
        s = g.summary
        out.append(GameLine(
            game_id=g.game_id, players=[str(p) for p in s.get("players") or []],
            clans=list(s.get("clans") or []), created=str(g.header.get("created", "")),
            finished=bool(s.get("finished")), winner=s.get("winner"), round=s.get("round"),
            stored=g.game_id not in new))
    return out


# --- automatic backups ---------------------------------------------------------------------


class AutoBackups:
    """The rotating set of automatic backups of one data folder."""

    def __init__(self, library: Library, folder: Path | None) -> None:
        self.library = library
        self.folder = folder
        """Where they are kept (None: this store has no data folder; nothing is written)."""

    @classmethod
    def of(cls, library: Library) -> AutoBackups:
        """The automatic backups of the library's data folder (if its store has one)."""
        data_dir = getattr(library.store, "data_dir", None)
        return cls(library, Path(data_dir) / BACKUP_DIR if data_dir else None)

    def listing(self) -> list[AutoBackup]:
        """The automatic backups, newest first (files with other names are ignored)."""
        if self.folder is None or not self.folder.is_dir():
            return []
        out = []
        for path in self.folder.iterdir():
            m = AUTO_NAME.match(path.name)
            if not m:
                continue
            try:
                size = path.stat().st_size
            except OSError:
                continue
            when = datetime.strptime(m[1], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
            out.append(AutoBackup(path, when, int(m[2]), m[3], size))
        return sorted(out, key=lambda b: (b.when, b.name), reverse=True)

    def read(self, name: str) -> bytes:
        """The bytes of one automatic backup, by file name.

        Raises:
            KeyError: no automatic backup has that name; OSError.
        """
        for backup in self.listing():
            if backup.name == name:
                return backup.path.read_bytes()
        raise KeyError(name)

    def write(self, now: datetime | None = None, force: bool = False) -> AutoBackup | None:
        """Write a backup if the data changed since the newest one (or `force`), then rotate;
        returns the new backup (None: nothing to back up, already up to date, or this process
        may not write in the data folder: read-only, closed, or the folder held elsewhere).

        Holds the library's lock throughout, so the store is not closed (and the folder given
        up) while a backup is written.
        Raises:
            OSError: the folder or file cannot be written (nothing is deleted then).
        """
        if self.folder is None:
            return None
        with self.library.lock:
            store = self.library.store
            if not store.writable:
                return None
            if not store.count_games() and not store.load_catalogue():
                return None
            mark = fingerprint(self.library)
            newest = self.listing()
            if newest and newest[0].fingerprint == mark and not force:
                return None
            when = now or datetime.now(UTC)
            _, data = backup_file(self.library, when)
            count = len(json.loads(data)["games"])
            self.folder.mkdir(parents=True, exist_ok=True)
            remove_temp_files(self.folder)  # left by a killed write; only the holder writes
            path = self.folder / f"auto-{stamp(when)}-{count}g-{mark}.json"
            atomic_write_bytes(path, data)
            self.rotate()
        return next((b for b in self.listing() if b.path == path), None)

    def write_in_background(self) -> threading.Thread | None:
        """Write an automatic backup on a thread (app start, a game's end); a failure is
        logged, never raised: the table goes on. None: nothing to do here (no data folder, or
        this process may not write in it)."""
        if self.folder is None or not self.library.store.writable:
            return None

        def run() -> None:
            try:
                self.write()
            except (OSError, ValueError, StorageError):
                logging.getLogger(__name__).warning("automatic backup failed", exc_info=True)

        thread = threading.Thread(target=run, name="auto-backup", daemon=True)
        thread.start()
        return thread

    def rotate(self) -> list[AutoBackup]:
        """Delete the automatic backups the rotation does not keep; returns them."""
        backups = self.listing()
        drop = [b for b in backups if b not in kept(backups)]
        for b in drop:
            b.path.unlink(missing_ok=True)
        return drop


def kept(backups: list[AutoBackup], days: int = KEEP_DAYS,
         weeks: int = KEEP_WEEKS) -> list[AutoBackup]:
    """The backups rotation keeps: the newest of each of the last `days` days that have one,
    and of each of the last `weeks` ISO weeks that have one (newest first)."""
    newest = sorted(backups, key=lambda b: (b.when, b.name), reverse=True)
    keep: list[AutoBackup] = []
    for key, limit in ((lambda b: b.when.date(), days),
                       (lambda b: b.when.isocalendar()[:2], weeks)):
        seen: list[Any] = []
        for b in newest:
            k = key(b)
            if k not in seen:
                seen.append(k)
                if len(seen) > limit:
                    break
                if b not in keep:
                    keep.append(b)
    return sorted(keep, key=lambda b: (b.when, b.name), reverse=True)


__all__ = ["AutoBackup", "AutoBackups", "GameLine", "Preview", "apply", "backup_file",
           "catalogue_file", "fingerprint", "game_file", "kept", "preview"]
