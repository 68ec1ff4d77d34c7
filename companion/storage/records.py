"""Plain records and errors shared by the storage modules."""

from __future__ import annotations

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


@dataclass(frozen=True)
class DamagedFile:
    """A stored file found unreadable: where it was, where it was moved, and why."""

    path: Path
    backup: Path | None
    reason: str
    game_id: str | None = None
