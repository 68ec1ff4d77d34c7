"""Local storage of games, the history index and the card catalogue.

Storage deals only in plain JSON dicts; see `GameStore` for the interface.
"""

from .base import GameStore, MemoryGameStore
from .lock import FolderLock, describe_owner, read_owner
from .records import (
    DamagedFile,
    FolderBusy,
    FolderReadOnly,
    FolderUnavailable,
    GameDamaged,
    GameExists,
    GameNotFound,
    ImportPlan,
    ImportRefused,
    ReadOnlyStore,
    StorageError,
    StoredGame,
    UnsupportedSchema,
    describe_os_error,
)
from .tinydb_store import TinyDBGameStore
from .transfer import (
    BACKUP_FORMAT,
    CURRENT_SCHEMA_VERSION,
    ENTRY_KINDS,
    GAME_FORMAT,
    MAX_BACKUP_BYTES,
    MAX_CATALOGUE_BYTES,
    MAX_IMPORT_BYTES,
    MAX_SCRIPT_BYTES,
    MIGRATIONS,
    migrate,
    migration,
    read_import_file,
)

__all__ = [
    "BACKUP_FORMAT",
    "CURRENT_SCHEMA_VERSION",
    "ENTRY_KINDS",
    "GAME_FORMAT",
    "MAX_BACKUP_BYTES",
    "MAX_CATALOGUE_BYTES",
    "MAX_IMPORT_BYTES",
    "MAX_SCRIPT_BYTES",
    "MIGRATIONS",
    "DamagedFile",
    "FolderBusy",
    "FolderLock",
    "FolderReadOnly",
    "FolderUnavailable",
    "GameDamaged",
    "GameExists",
    "GameNotFound",
    "GameStore",
    "ImportPlan",
    "ImportRefused",
    "MemoryGameStore",
    "ReadOnlyStore",
    "StorageError",
    "StoredGame",
    "TinyDBGameStore",
    "UnsupportedSchema",
    "describe_os_error",
    "describe_owner",
    "migrate",
    "migration",
    "read_import_file",
    "read_owner",
]
