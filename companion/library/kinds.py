"""The games the companion keeps: a small registry of game kinds.

A stored game says which game it is in its header and summary (`"game"`; missing means
Vendetta, as every game stored before the field existed is one). Loading, import checks,
summaries and statistics ask the registry, so another game of the family can be stored
beside Vendetta without touching it; a game of a kind this version does not know is listed
as needing a newer version and blocks nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.library import vendetta
from companion.library.pad import PadGame
from companion.library.pad_kinds import BLOOD_FEUD, CHRONICLE, HERITAGE, PADS

VENDETTA = vendetta.ID
"""The kind of every game stored without a `game` field."""


class UnknownGame(ValueError):
    """A stored game or file of a kind this version does not know (a newer version made it)."""

    def __init__(self, kind: object, game_id: object = None) -> None:
        self.kind, self.game_id = kind, game_id
        which = f"game {game_id!r}" if game_id else "this game"
        super().__init__(f"{which} is a {kind!r} game, which this version of the app does not "
                         f"know: it needs a newer version")


@dataclass(frozen=True)
class GameKind:
    """One game the companion keeps."""

    id: str
    """The value of the `game` field (e.g. "vendetta")."""
    title: str
    """The game's name as the app shows it."""
    replay: Callable[[dict[str, Any], list[dict[str, Any]], bool], Any]
    """(header, journal entries, verify) → the game replayed (raises ValueError if it does
    not replay; with verify, every command is executed again and must give its events)."""
    summarize: Callable[[Any], dict[str, Any]]
    """A replayed game → its history summary (carries `"game": id`)."""


def _pad(kind: str, title: str) -> GameKind:
    """A pad kind of the registry; its model is imported when a game of it is first read."""

    def replay(header: dict[str, Any], entries: list[dict[str, Any]], verify: bool = False
               ) -> Any:
        return PadGame.from_journal(PADS[kind](), header, entries, verify)

    return GameKind(kind, title, replay, lambda game: game.summary())


KINDS: dict[str, GameKind] = {
    VENDETTA: GameKind(VENDETTA, "Vendetta", vendetta.replay, vendetta.summary),
    HERITAGE: _pad(HERITAGE, "Heritage"),
    BLOOD_FEUD: _pad(BLOOD_FEUD, "Blood Feud"),
    CHRONICLE: _pad(CHRONICLE, "Heritage chronicle"),
}
"""Every game kind this version knows, by id."""


def kind_id(doc: dict[str, Any] | None) -> object:
    """The `game` field of a header or summary (Vendetta when missing)."""
    return (doc or {}).get("game") or VENDETTA


def kind_of(doc: dict[str, Any] | None, game_id: object = None) -> GameKind:
    """The kind of a stored game from its header or summary.

    Raises:
        UnknownGame: a kind this version does not know.
    """
    found = KINDS.get(kind_id(doc))  # type: ignore[arg-type]
    if found is None:
        raise UnknownGame(kind_id(doc), game_id)
    return found


def known(summary: dict[str, Any]) -> bool:
    """Whether this version can open a game with this summary."""
    return kind_id(summary) in KINDS


def title(summary: dict[str, Any]) -> str:
    """The name of a stored game's game ("Heritage"), or its raw kind when unknown."""
    found = KINDS.get(kind_id(summary))  # type: ignore[arg-type]
    return found.title if found else str(kind_id(summary))


def is_vendetta(summary: dict[str, Any]) -> bool:
    """Whether a summary is of a Vendetta game (the only kind Vendetta's statistics count)."""
    return kind_id(summary) == VENDETTA
