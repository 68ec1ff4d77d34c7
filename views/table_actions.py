"""What a device does at its table: join, play, undo and redo, open and create games, each
sent through the table with this device's token and the version its screen was drawn from;
a refusal is shown on the screen and changes nothing.

`TableActions` is part of `views.state.AppState` (it works on the session's table, drafts
and messages); it holds no state of its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from companion.library.session import UnsavedActions
from companion.rules.errors import AccessError, RuleError, StaleVersion, TableError, brief
from companion.storage import StorageError, describe_os_error
from companion.table.hub import RateLimited, TableNotFound
from models.message import msg
from views.screens import Route

if TYPE_CHECKING:  # the game's side, imported when a table opens
    from companion.rules.game import Action
    from companion.table.table import Table
    from models.commands import AnyCommand
    from models.setup import GameSetup, Position
    from models.table import Role

SAVE_ERRORS = (StorageError, OSError, UnsavedActions)
"""What the disk or the data folder can answer instead of saving."""
WITHIN_TURN = {"drain", "use_relic", "peek", "apply_effect"}
"""Actions taken in the middle of a turn or step: the choices drafted so far are kept."""


def save_problem(err: Exception) -> str:
    """A readable line for a failed save."""
    return describe_os_error(err) if isinstance(err, OSError) else brief(err)


class TableActions:
    """A device's actions at its table (see the module docstring)."""

    def set_table(self, table: Table | None) -> None:
        """Make `table` this device's table (the page follows its changes)."""
        if table is self.table:
            return
        self.table, self.view = table, None
        self.drafts.clear()
        self.notice = []
        if self.on_table is not None:
            self.on_table(table)

    def resume(self, table_id: str | None) -> bool:
        """Back at a table this device holds a role at (after a restart or in a new tab)."""
        if not table_id:
            return False
        try:
            table = self.hub.get(table_id)
            if table.role_of(self.device) is None:
                return False
        except (TableError, OSError, ValueError):
            return False
        self.set_table(table)
        return True

    def _refuse(self, err: Exception) -> None:
        """Show why a table action was refused, in this device's language; the screen is
        drawn again from the table."""
        english = self.t.english  # the refusal's own English text, as it always read
        if isinstance(err, StaleVersion):
            self.error = str(err) if english else self.words(err.message)
        elif isinstance(err, AccessError):
            self.error = self.words(msg("Not allowed: {reason}",
                                        reason=err.reason if english else err.message))
        elif isinstance(err, RuleError):
            self.error = self.words(msg("Not allowed: {reason} ({rule})", rule=err.rule,
                                        reason=err.reason if english else err.message))
        elif isinstance(err, TableNotFound):
            self.error = self.words(msg("{said}: join again.",
                                        said=str(err) if english else err.message))
        elif isinstance(err, SAVE_ERRORS):
            self.error = self._("Not saved, nothing changed: {problem}",
                                problem=save_problem(err))
        elif isinstance(err, ValidationError | ValueError):
            self.error = self._("Not accepted: {reason}", reason=brief(err))
        else:
            self.error = self._("Not accepted: {reason}", reason=str(err))
        self.render()

    def table_call(self, action: Callable[..., Any], *args: Any) -> bool:
        """Run a table action with this device and the drawn version; a refusal is shown.
        When the inputs it completes played an action, say what it did."""
        drawn = self.drawn_actions  # (a redraw pushed during the call may move it on)
        try:
            action(self.device, *args, self.drawn_version())
        except (TableError, RuleError, ValidationError, ValueError, *SAVE_ERRORS) as err:
            self._refuse(err)
            return False
        self.error, self.cue = None, False
        actions = self.game.actions
        if len(actions) != drawn:
            from companion.story.review import told
            self.say(told(self.game, translator=self.t) if actions else [])
            self.drafts.clear()
        self.render()
        return True

    def play(self, command: AnyCommand | dict) -> Action | None:
        """Play a command at the table; a refusal is shown inline, nothing changes."""
        if self.table is None:
            self.fail(self._("No game is open at this table."))
            return None
        try:
            action = self.table.act(self.device, command, self.drawn_version())
        except (TableError, RuleError, ValidationError, ValueError, *SAVE_ERRORS) as err:
            self._refuse(err)
            return None
        from companion.story.review import told
        self.error = None
        self.cue = False
        if action.command.type not in WITHIN_TURN:
            effect = self.drafts.get("effect")  # the by-hand form stays open
            self.drafts.clear()
            if effect:
                self.drafts["effect"] = effect
        self.say(told(self.game, translator=self.t))
        if self.game.state.phase == "game_over":
            from companion.library.backups import AutoBackups

            AutoBackups.of(self.library).write_in_background()  # a game ended: keep a copy
        if self.screen not in ("game", "table"):
            self.go("game")
        else:
            self.render()
        return action

    def undo(self) -> None:
        """Take back the last action (the referee)."""
        self._undo_redo("undo", self._("Nothing to undo: this is the start of the game."))

    def redo(self) -> None:
        """Play again the last action taken back (the referee)."""
        self._undo_redo("redo", self._("Nothing to redo."))

    def _undo_redo(self, which: str, nothing: str) -> None:
        if self.table is None:
            return
        try:
            getattr(self.table, which)(self.device, self.drawn_version())
        except IndexError:
            self.error = nothing
        except (TableError, *SAVE_ERRORS) as err:
            self._refuse(err)
            return
        else:
            self.error, self.notice = None, []
            if which == "undo":
                self.drafts.clear()
        self.render()

    def retry_save(self) -> None:
        """Try again to write the actions the disk refused."""
        session = self.session
        if session is None:
            return
        try:
            session.retry_save()
        except SAVE_ERRORS as err:
            session.save_error = save_problem(err)
        self.render()

    def open_game(self, game_id: str) -> None:
        """Host: open a stored game at a table (joining the table already playing it) as its
        referee. Never changes another device's table."""
        if self.read_only:
            self.fail(self._("Review only here: {why}.", why=self.read_only_reason)
                      if self.read_only_reason
                      else self._("Review only here: another app is using this data folder."))
            return
        if not self.host or self.hub is None:
            self.fail(self._("Only the host's device opens stored games."))
            return
        try:
            table = self.hub.open_table(game_id)
            table.claim_referee(self.device, self.hub.host_key, self.client)
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            self.error = self._("This game could not be opened: {error}", error=str(err))
            self.render()
            return
        self.set_table(table)
        self.error, self.notice = None, []
        self.drafts.clear()
        self.go("game")

    def new_game(self, start: GameSetup | Position) -> bool:
        """Host: create a game at a new table, as its referee."""
        try:
            assert self.hub is not None
            table = self.hub.new_table(start)
            table.claim_referee(self.device, self.hub.host_key, self.client)
        except (TableError, RuleError, ValueError, *SAVE_ERRORS) as err:
            why = save_problem(err) if isinstance(err, SAVE_ERRORS) else err
            self.fail(self._("The game could not be created: {why}", why=str(why)))
            return False
        self.set_table(table)
        return True

    def join(self, role: str, code: str | None = None, player: int | None = None) -> bool:
        """Take a role at the table being joined: 'seat' (with `player`), 'board', 'referee'.
        A refusal (wrong code, too many tries, seat taken) is shown; nothing changes."""
        table = self.table
        if table is None:
            self.fail(self._("Open the table's address first (scan the code on the host's "
                             "screen)."))
            return False
        try:
            if role == "seat":
                if player is None:
                    raise TableError(msg("choose which player you are"))
                table.claim_seat(self.device, player, code or "", self.client)
            elif role == "board":
                table.join_board(self.device, code, self.client)
            else:
                key = self.hub.host_key if self.host and not code else code or ""
                table.claim_referee(self.device, key, self.client)
        except RateLimited as err:
            self.fail(self._refused_join(err))
            return False
        except (TableError, OSError) as err:
            self.fail(self._refused_join(err))
            return False
        self.error, self.notice = None, []
        self.drafts.clear()
        if self.on_table is not None:
            self.on_table(table)  # remember it (the page keeps the table id)
        self.go("game")
        return True

    def _refused_join(self, err: Exception) -> str:
        """Why taking a role was refused, in this device's language."""
        said = err.message if isinstance(err, TableError) and not self.t.english else str(err)
        return self.words(msg("Refused: {reason}.", reason=said))

    def leave(self) -> None:
        """Give up this device's role at its table (a seat becomes free)."""
        if self.table is not None:
            self.table.leave(self.device)
            self.go("join", self.table.table_id)

    def pushed(self, before: int, played: bool) -> None:
        """Another device's change was just drawn here over the screen at version `before`;
        `played`: it changed the game (an action, an undo or a redo), not only who sits where
        or who has chosen."""
        if played:
            self._pushed = (time.monotonic(), before)

    def drawn_version(self) -> int:
        """The version sent with this device's action: the screen it was drawn from.

        A screen pushed by another device's game change reaches the phone a moment after it
        was drawn here; a tap within `seen_after` seconds of it was aimed at the screen before,
        so it counts as drawn from that one (two "Next step" taps at once apply once). Seats
        taken and secret choices entered elsewhere do not hold taps back.
        """
        if self._pushed is not None and time.monotonic() - self._pushed[0] < self.seen_after:
            return self._pushed[1]
        return self.version

    def draw_table(self) -> None:
        """Read what this device may see of its table now, and the version it is at."""
        table = self.table
        if table is None:
            self.view = None
            return
        try:
            role = table.role_of(self.device)
            self.view = table.view_for(role) if role is not None else None
        except TableNotFound:
            self.view = None
            return
        self.version = self.view.version if self.view is not None else table.version
        self.drawn_actions = len(table.game.actions)
        self.drawn_game = (self.drawn_actions, table.game.can_redo())

    def lost_role(self, role: Role) -> None:
        """This device's role was taken away by another device (the referee freed the seat, or
        the table closed): say so on the join screen, never fall back there silently."""
        from companion.table.access import Referee, Seat

        assert self.table is not None
        state = self.table.game.state
        self.drafts.clear()
        self.notice = []
        self.forget_kept()
        self.navigate(Route("join", self.table.table_id))
        if isinstance(role, Seat):
            name = state.players[role.player].name if role.player < len(state.players) else "?"
            self.error = self._("This device no longer holds {name}'s seat: the referee freed "
                                "it. To take it back, ask the referee for the seat's new code.",
                                name=name)
        elif isinstance(role, Referee):
            self.error = self._("This device no longer holds the referee: the referee freed "
                                "it. To take it back, ask the referee for the seat's new code.")
        else:
            self.error = self._("This device no longer holds the board: the referee freed it. "
                                "To take it back, ask the referee for the seat's new code.")
        self.render()
