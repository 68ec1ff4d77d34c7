"""A stored game read back through its kind (`companion.library.kinds`): its replay, and
the import check that replays a game document through its game's rules. `summary` is
Vendetta's history summary (re-exported: most callers want it)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from companion.library.kinds import kind_of
from companion.library.store import Store
from companion.library.vendetta import summary
from companion.storage.files import dumps

if TYPE_CHECKING:  # the rules engine is imported when a game is first played or read
    from companion.rules.game import Game


def load_game(store: Store, game_id: str) -> Game:
    """Replay a stored game (to resume it at a table, or to review it) as its kind says.

    Raises:
        KeyError: no such game.
        UnknownGame: a kind of game this version does not know.
        ReplayError: its journal does not replay.
    """
    stored = store.load(game_id)
    return kind_of(stored.header, game_id).replay(stored.header, stored.entries, False)


def validate_game_document(doc: dict[str, Any]) -> dict[str, Any]:
    """Import check: the game's journal must replay exactly through its game's rules; returns
    the game's history summary, recomputed.

    Raises:
        ValueError: it does not (names the entry), or its kind is unknown (`UnknownGame`).
    """
    header = doc["header"]
    kind = kind_of(header if isinstance(header, dict) else None)
    return kind.summarize(kind.replay(header, doc["entries"], True))


def journal_digest(doc: dict[str, Any]) -> str:
    """A digest of a game document's header and journal (same content, same digest)."""
    return hashlib.sha256(dumps([doc.get("header"), doc.get("entries")]).encode()).hexdigest()


__all__ = ["journal_digest", "load_game", "summary", "validate_game_document"]
