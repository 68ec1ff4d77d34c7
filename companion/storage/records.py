"""Plain records and errors shared by the storage modules."""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class StorageError(Exception):
    """Base class of every error raised by the storage layer."""


class GameNotFound(StorageError, KeyError):
    """No stored game has this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "game not found"


class GameExists(StorageError, ValueError):
    """A game with this id is already stored."""


class GameDamaged(StorageError):
    """The game's file was unreadable; it has been moved aside (see `GameStore.damaged`)."""


class UnsupportedSchema(StorageError):
    """The stored game was written by a newer release than this one."""


class ImportRefused(StorageError, ValueError):
    """An import document was refused whole; the message says what is wrong and where."""


class FolderBusy(StorageError):
    """Another process (or another store in this one) writes in this data folder."""

    def __init__(self, message: str, owner: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.owner = owner
        """The holder's note (pid, host, role, address, started), if it left one."""


class FolderUnavailable(StorageError, OSError):
    """The data folder cannot be opened: missing rights, a file where a folder should be..."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "data folder unavailable"


class FolderReadOnly(FolderUnavailable):
    """The data folder can be read but not written by this process (a read-only disk, no
    write permission): it can still be opened read-only."""


class ReadOnlyStore(StorageError):
    """A write on a store opened read-only (or already closed); nothing was written."""


_PLAIN = {errno.ENOSPC: "the disk is full", errno.EROFS: "the disk is read-only",
          errno.EACCES: "permission denied", errno.EPERM: "permission denied",
          errno.EDQUOT: "the disk quota is used up", errno.EISDIR: "it is a folder",
          errno.ENOTDIR: "a file stands where a folder should be",
          errno.ENOENT: "it does not exist", errno.EIO: "the disk reported an error"}


def describe_os_error(exc: OSError, with_file: bool = True) -> str:
    """One plain line for a disk error: what went wrong, and (unless told not) on which file."""
    if isinstance(exc, StorageError):
        return str(exc)
    what = _PLAIN.get(exc.errno or 0) or exc.strerror or str(exc) or type(exc).__name__
    where = exc.filename if with_file else None
    return f"{where}: {what}" if where else what


@dataclass
class StoredGame:
    """One game as stored: its header, its journal entries in order, and its latest summary."""

    header: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def game_id(self) -> str:
        """The id from the header."""
        return str(self.header["game_id"])


@dataclass
class ImportPlan:
    """What an import or restore would do, every part checked and nothing written."""

    games: list[StoredGame]
    """Every game of the file, validated (migrated; summaries as the validator computed)."""
    new: list[str]
    """Ids of the games it would add (the others are stored here already, identical)."""
    catalogue: dict[str, Any] | None = None
    """The catalogue it would put in place (None: the stored one stays)."""


@dataclass(frozen=True)
class DamagedFile:
    """A stored file found unreadable: where it was, where it was moved, and why."""

    path: Path
    backup: Path | None
    reason: str
    game_id: str | None = None
