"""The session of one open game: play, undo and redo it, each action stored before it counts.

Every confirmed action is written to the store before `play` returns (durability).
If the disk refuses it (full, read-only, gone), the action stays on the table in memory, is
listed as unsaved with the reason, and is written, in order, before anything else: on the next
action, on `retry_save()`, and on `save_now()`.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from companion.library.games import load_game
from companion.library.kinds import KINDS, VENDETTA
from companion.library.store import Store
from companion.storage import StorageError, describe_os_error

if TYPE_CHECKING:  # the rules engine is imported when a game is first played or read
    from companion.library.pad import PadGame, PadKind
    from companion.rules.game import Action, Game
    from models.commands import AnyCommand
    from models.setup import GameSetup, Position


class UnsavedActions(RuntimeError):
    """The open game has actions the disk refused; they must be saved before it is left."""


def summary_of(game: Game | PadGame) -> dict[str, Any]:
    """A game's history summary, as its kind makes it."""
    return KINDS[game.header.game].summarize(game)


class GameSession:
    """Plays one game and keeps it stored: new, open, play, undo, redo.

    A session's `game` is its own, never a process-wide current game: table mode
    (`companion.table.hub`) makes one session per open game, all sharing the store; the CLI
    makes one and switches its game with `new_game`/`open_game`.
    """

    def __init__(self, store: Store, game: Game | PadGame | None = None):
        self.store = store
        self.game: Game | PadGame | None = game
        self.lock = threading.RLock()
        """Serializes actions: web sessions share one service (one table)."""
        self.unsaved: list[dict[str, Any]] = []
        """Journal entries of the open game that the disk refused, oldest first."""
        self.save_error: str | None = None
        """Why the last save failed (None once everything is saved)."""
        self._merged_unsaved = False
        """The all-time totals were merged from chunks since they were last kept on disk."""

    @property
    def read_only(self) -> bool:
        """Whether the store refuses writes (another process owns the data folder)."""
        return bool(getattr(self.store, "read_only", False))

    def new_game(self, start: GameSetup | Position) -> Game:
        """Create and store a new game, and make it current.

        Raises:
            UnsavedActions: the open game still has unsaved actions.
            OSError: the disk refused the new game (nothing changed).
        """
        with self.lock:
            self._leave()
            from companion.rules.game import Game

            game = Game.new(start)
            self.store.create_game(game.header_doc(), summary_of(game))
            self.game = game
            return game

    def new_pad(self, kind: PadKind, doc: dict[str, Any]) -> PadGame:
        """Create and store a new pad of another game of the family, and make it current.

        Raises:
            PadError: the document is refused (nothing stored).
            UnsavedActions: the open game still has unsaved actions.
            OSError: the disk refused it (nothing changed).
        """
        from companion.library.pad import PadGame

        with self.lock:
            self._leave()
            pad = PadGame.new(kind, doc)
            self.store.create_game(pad.header_doc(), summary_of(pad))
            self.game = pad
            return pad

    def open_game(self, game_id: str) -> Game | PadGame:
        """Load a stored game by replaying its journal, and make it current.

        Raises:
            KeyError: no such game.
            ReplayError: its journal does not replay.
            UnsavedActions: the open game still has unsaved actions.
        """
        with self.lock:
            self._leave()
            self.game = load_game(self.store, game_id)
            return self.game

    def _leave(self) -> None:
        """Make sure nothing of the open game is lost before another one is opened."""
        if not self.retry_save():
            raise UnsavedActions(f"{len(self.unsaved)} action(s) of the open game are not "
                                 f"saved yet ({self.save_error}); free the disk and retry first")

    def _current(self) -> Game | PadGame:
        if self.game is None:
            raise RuntimeError("no game is open")
        return self.game

    def _save(self, entry: dict[str, Any]) -> None:
        """Queue an entry and write the queue; a disk failure keeps it queued.

        Raises: anything but OSError from the store (the entry is then dropped again).
        """
        self.unsaved.append(entry)
        try:
            self._write_unsaved()
        except Exception:
            self.unsaved.pop()
            raise

    def _write_unsaved(self) -> bool:
        game = self._current()
        while self.unsaved:
            last = len(self.unsaved) == 1
            try:
                self.store.append(game.header.game_id, self.unsaved[0],
                                  summary_of(game) if last else None)
            except OSError as err:
                self.save_error = describe_os_error(err)
                return False
            self.unsaved.pop(0)
        self.save_error = None
        return True

    def retry_save(self) -> bool:
        """Write the open game's unsaved actions, in order; True once nothing is unsaved.

        Raises: store errors other than OSError (e.g. the game's file was removed).
        """
        with self.lock:
            return not self.unsaved or self._write_unsaved()

    def play(self, command: AnyCommand | dict) -> Action:
        """Play a command on the current game and store it before returning.

        A disk failure does not undo it: see `unsaved` and `save_error`.
        Raises:
            RuleError: the rules refuse it (nothing is stored or changed).
        """
        with self.lock:
            return self._play(command)

    def _play(self, command: AnyCommand | dict) -> Action:
        game = self._current()
        action = game.play(command)
        try:
            self._save(game.action_entry(action))
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

    def save_now(self) -> bool:
        """Write what the disk will take now (at a session's end, or before the store is
        closed by whoever opened it; the store may be shared); True if nothing is left unsaved.
        Never raises."""
        with self.lock:
            try:
                return not self.unsaved or self._write_unsaved()
            except Exception:  # noqa: BLE001 - best effort: the banner keeps saying it
                return False

    # --- the game clock: a table calls these when it opens or closes the game ------

    def clock_start(self) -> bool:
        """Start the open game's clock (a table opened it); True if a clock entry was stored.

        Does nothing when no game is open, the game is over, the clock already runs or the
        store is read-only. A clock mark is stored at once or not at all (it is never queued
        with unsaved actions): a disk that refuses it leaves the clock as it was.
        """
        return self._mark_clock(True)

    def clock_stop(self) -> bool:
        """Stop the open game's clock (its table closed); True if a clock entry was stored."""
        return self._mark_clock(False)

    def _mark_clock(self, running: bool) -> bool:
        with self.lock:
            game = self.game
            if game is None or self.read_only or game.header.game != VENDETTA \
                    or game.state.phase == "game_over":
                return False
            if (game.clock[-1].running if game.clock else False) == running:
                return False
            if not self.save_now():  # journal order: queued actions first
                return False
            mark = game.mark_clock(running)
            try:
                self.store.append(game.header.game_id, mark.entry(), summary_of(game))
            except (OSError, ValueError, StorageError):
                game.clock.pop()
                return False
            return True
