"""Local storage of games, the history index and the card catalogue.

Storage deals only in plain JSON dicts; see `GameStore` for the interface.
"""

from .base import GameStore, MemoryGameStore
from .records import (
    DamagedFile,
    GameDamaged,
    GameExists,
    GameNotFound,
    ImportRefused,
    StorageError,
    StoredGame,
    UnsupportedSchema,
)
from .tinydb_store import TinyDBGameStore
from .transfer import (
    BACKUP_FORMAT,
    CURRENT_SCHEMA_VERSION,
    ENTRY_KINDS,
    GAME_FORMAT,
    MAX_BACKUP_BYTES,
    MAX_IMPORT_BYTES,
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
    "MAX_IMPORT_BYTES",
    "MIGRATIONS",
    "DamagedFile",
    "GameDamaged",
    "GameExists",
    "GameNotFound",
    "GameStore",
    "ImportRefused",
    "MemoryGameStore",
    "StorageError",
    "StoredGame",
    "TinyDBGameStore",
    "UnsupportedSchema",
    "migrate",
    "migration",
    "read_import_file",
]
