"""Application service: the one place the UI and CLI go through to play and store games.

Every confirmed action is written to the store before `play` returns (issue 4, durability).
"""

import threading
from typing import Any, Protocol

from companion.catalogue import SECTIONS, CatalogueError, merge, parse, shipped
from companion.game import Action, Game
from companion.scoring import influence
from models.catalogue import Catalogue
from models.commands import AnyCommand
from models.setup import GameSetup, Position


class Store(Protocol):
    """What the service needs of a game store (see companion.storage)."""

    def create_game(self, header: dict, summary: dict) -> None: ...
    def append(self, game_id: str, entry: dict, summary: dict | None = None) -> None: ...
    def load(self, game_id: str) -> Any: ...
    def list_games(self, finished: bool | None = None) -> list[dict]: ...
    def load_catalogue(self) -> dict: ...
    def save_catalogue(self, doc: dict) -> None: ...


def summary(game: Game) -> dict[str, Any]:
    """History-index summary of a game (read without replaying it)."""
    s = game.state
    board = s.scoreboard
    rows = {r.player: r for r in board.rows} if board else {}
    return {
        "game_id": game.header.game_id,
        "created": game.header.created,
        "updated": game.actions[-1].at if game.actions else game.header.created,
        "players": [p.name for p in s.players],
        "clans": [p.clan for p in s.players],
        "variants": s.variants.model_dump(),
        "round": s.round,
        "phase": s.phase,
        "finished": s.phase == "game_over",
        "winner": board.winner if board else None,
        "scores": {r.name: r.influence.total for r in board.rows} if board else None,
        "player_count": len(s.players),
        "standings": [
            {"name": p.name, "clan": p.clan, "team": p.team,
             "influence": (rows[i].influence.total if board else influence(s, i).total),
             "blood": p.blood, "rank": rows[i].rank if board else None,
             "eliminated": p.eliminated, "frenzies": p.frenzies, "diablerie": p.diablerie}
            for i, p in enumerate(s.players)
        ],
        "haven_winners": [None] * _rounds_before(game) + [
            s.players[w].name if w is not None else None for w in s.haven_winners],
    }


def _rounds_before(game: Game) -> int:
    """Rounds whose Prince's Haven was resolved before the game came into the app."""
    start = game.header.start
    if not isinstance(start, Position):
        return 0
    return 3 if start.phase == "game_over" else start.round - 1


class Service:
    """Plays one game at a time and keeps it stored: new, open, play, undo, redo.

    A Service's `game` is its own, never a process-wide current game: table mode
    (`companion.tables`) makes one Service per open game, all sharing the store; the CLI and
    the single-table app use one Service and switch its game with `new_game`/`open_game`.
    """

    def __init__(self, store: Store, game: Game | None = None):
        self.store = store
        self.game: Game | None = game
        self.lock = threading.RLock()
        """Serializes actions: web sessions share one service (one table)."""

    def new_game(self, start: GameSetup | Position) -> Game:
        """Create and store a new game, and make it current."""
        game = Game.new(start)
        self.store.create_game(game.header_doc(), summary(game))
        self.game = game
        return game

    def open_game(self, game_id: str) -> Game:
        """Load a stored game by replaying its journal, and make it current.

        Raises:
            KeyError: no such game.
            ReplayError: its journal does not replay.
        """
        self.game = self.load_game(game_id)
        return self.game

    def load_game(self, game_id: str) -> Game:
        """Replay a stored game without making it current (e.g. to review it).

        Raises:
            KeyError: no such game.
            ReplayError: its journal does not replay.
        """
        stored = self.store.load(game_id)
        return Game.from_journal(stored.header, stored.entries)

    def _current(self) -> Game:
        if self.game is None:
            raise RuntimeError("no game is open")
        return self.game

    def _save(self, entry: dict[str, Any]) -> None:
        game = self._current()
        self.store.append(game.header.game_id, entry, summary(game))

    def play(self, command: AnyCommand | dict) -> Action:
        """Play a command on the current game and store it before returning.

        Raises:
            RuleError: the rules refuse it (nothing is stored or changed).
        """
        with self.lock:
            return self._play(command)

    def _play(self, command: AnyCommand | dict) -> Action:
        game = self._current()
        action = game.play(command)
        try:
            self._save(Game.action_entry(action))
        except Exception:
            game.undo()
            game.redo_stack.pop()
            raise
        return action

    def undo(self) -> Action:
        """Undo the last action of the current game, stored.

        Raises:
            IndexError: nothing to undo.
        """
        with self.lock:
            game = self._current()
            action = game.undo()
            try:
                self._save({"kind": "undo"})
            except Exception:
                game.redo()  # not stored: keep memory and disk in step
                raise
            return action

    def redo(self) -> Action:
        """Redo the last undone action of the current game, stored.

        Raises:
            IndexError: nothing to redo.
        """
        with self.lock:
            game = self._current()
            action = game.redo()
            try:
                self._save({"kind": "redo"})
            except Exception:
                game.undo()  # not stored: keep memory and disk in step
                raise
            return action

    def unfinished(self) -> list[dict]:
        """Summaries of the stored games not yet over, newest first."""
        return self.store.list_games(finished=False)

    # --- the user's card catalogue (issue 3) ---------------------------------------------------

    def user_catalogue(self) -> Catalogue:
        """Cards the user entered from their physical cards.

        Raises:
            CatalogueError: the stored catalogue is malformed.
        """
        return parse(self.store.load_catalogue() or {})

    def catalogue(self) -> Catalogue:
        """Shipped catalogue with the user's entries on top.

        Raises:
            CatalogueError: the stored catalogue is malformed.
        """
        return merge(shipped(), self.user_catalogue())

    def remember(self, section: str, entry: dict[str, Any]) -> Catalogue:
        """Save card values the user read off a card (by id), and return the merged catalogue.

        Raises:
            CatalogueError: impossible values; nothing is saved.
        """
        self.import_catalogue({section: [entry]})
        return self.catalogue()

    def import_catalogue(self, doc: Any) -> Catalogue:
        """Merge a catalogue document (e.g. shared by another group) into the user's one.

        Raises:
            CatalogueError: malformed document, naming the card and field; nothing is saved.
        """
        incoming = parse(doc)
        user = self.store.load_catalogue() or {}
        combined: dict[str, Any] = {"version": 1}
        for section in SECTIONS:
            entries = {e["id"]: e for e in user.get(section, [])}
            for e in getattr(incoming, section):
                given = e.model_dump(mode="json", exclude_unset=True)
                entries[e.id] = {**entries.get(e.id, {}), **given}
            combined[section] = list(entries.values())
        merge(shipped(), parse(combined))
        self.store.save_catalogue(combined)
        return self.catalogue()

    def export_catalogue(self) -> dict[str, Any]:
        """The user's catalogue as a shareable JSON document."""
        return {"version": 1, **{k: v for k, v in (self.store.load_catalogue() or {}).items()
                                 if k in SECTIONS}}


def validate_game_document(doc: dict[str, Any]) -> dict[str, Any]:
    """Import check: the game's journal must replay exactly through the rules engine; returns
    the game's history summary, recomputed.

    Raises:
        ValueError: it does not (names the entry).
    """
    return summary(Game.from_journal(doc["header"], doc["entries"], verify=True))


__all__ = ["CatalogueError", "Service", "summary", "validate_game_document"]
