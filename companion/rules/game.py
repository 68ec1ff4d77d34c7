"""A game as an append-only log of actions, with undo/redo and a journal for storage."""

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from companion.rules.apply import apply_in_place, initial_state
from companion.rules.clock import CLOCK_KIND, ClockMark, GameTime, now_utc, parse_time, played
from companion.rules.engine import execute, run
from companion.rules.errors import brief
from companion.rules.legal import Legal, legal
from models.commands import COMMAND_ADAPTER, AnyCommand
from models.common import SCHEMA_VERSION, Frozen
from models.events import EVENT_LIST_ADAPTER, AnyEvent, GameCreated, PositionLoaded
from models.setup import GameSetup, Position, check_cards
from models.state import GameState, Scoreboard, copy_state

GAME_FORMAT = "vendetta-companion/game"
"""`format` tag of an exported game document."""

SNAPSHOT_EVERY = 16
"""A `Game` keeps the state after every 16th action; others are refolded from the one before."""


class Action(Frozen):
    """One referee action: its command and the events it produced."""

    command: AnyCommand
    """The command as the referee gave it."""
    events: list[AnyEvent]
    """Events it produced, in order."""
    at: str | None = None
    """When it was confirmed (ISO 8601, UTC)."""


class GameHeader(Frozen):
    """What a stored game starts from."""

    game_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    """Id of the game."""
    schema_version: int = SCHEMA_VERSION
    """Schema version of its events."""
    created: str
    """Creation time (ISO 8601, UTC)."""
    start: GameSetup | Position
    """A new table, or an entered position."""
    kind: Literal["setup", "position"]
    """Which of the two `start` is."""
    game: Literal["vendetta"] = "vendetta"
    """Which game of the family this is (`companion.library.kinds`)."""


class ReplayError(ValueError):
    """A journal does not replay: names the entry and what is wrong."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Game:
    """A game in progress: execute commands, undo, redo, ask what is legal.

    Undo drops the last action's events and returns to the state before it; redo re-applies the
    recorded events, so random results are the same. States are kept every `SNAPSHOT_EVERY`
    actions (a replayed game makes them when first needed); a state no longer current is
    never changed.
    """

    def __init__(self, header: GameHeader):
        self.header = header
        start = header.start
        first = (GameCreated(players=list(start.players), variants=start.variants,
                             seed=start.seed)
                 if isinstance(start, GameSetup) else PositionLoaded(position=start))
        self.start_events: list[AnyEvent] = [first]
        self.actions: list[Action] = []
        self.redo_stack: list[Action] = []
        self._state = initial_state(first)
        self._snapshots: list[GameState] = [self._state]  # after 0, 16, 32… actions
        self._events: list[AnyEvent] = [first]
        self._rounds: list[int] = [self._state.round]
        """The round after each number of actions (the game clock splits time by round)."""
        self.clock: list[ClockMark] = []
        """When the game was opened and closed at a table (companion.rules.clock); no effect on
        the state."""
        self._legal: tuple[GameState, int, Legal] | None = None
        """`legal()` of the state it was worked out for, after that many actions."""
        self._before: GameState | None = None
        """The state before the last action, while nothing has changed it (`state_at`)."""
        self._times: list[tuple[Action, datetime]] = []
        self._played: tuple[tuple, GameTime] | None = None
        """The last `time()`, with what it was worked out from."""
        """Each timed action's `at`, parsed (the clock reads them at every render)."""

    @classmethod
    def new(cls, start: GameSetup | Position, game_id: str | None = None) -> "Game":
        """Start a new game from a table setup or an entered position.

        Raises:
            ValueError: the position holds a card twice (§1, §2), naming the rule.
        """
        if isinstance(start, Position):
            check_cards(start)
        header = GameHeader(game_id=game_id or uuid.uuid4().hex[:16], created=_now(),
                            start=start,
                            kind="setup" if isinstance(start, GameSetup) else "position")
        return cls(header)

    def __repr__(self) -> str:
        s = self.state
        return (f"<Game {self.header.game_id} round={s.round} phase={s.phase!r} "
                f"actions={len(self.actions)}>")

    @property
    def state(self) -> GameState:
        """Current state; shared, do not mutate (a new object after every change)."""
        return self._state

    def state_at(self, n: int) -> GameState:
        """State after the first `n` actions (0 = the start); do not mutate it.

        Raises:
            IndexError: there are fewer than `n` actions.
        """
        if not 0 <= n <= len(self.actions):
            raise IndexError(f"the game has {len(self.actions)} actions, not {n}")
        if n == len(self.actions):
            return self._state
        if n == len(self.actions) - 1 and self._before is not None:
            return self._before
        return self._rebuild(n)

    def _rebuild(self, n: int) -> GameState:
        """State after `n` actions, from the snapshot at or before it."""
        k, extra = divmod(n, SNAPSHOT_EVERY)
        self._keep_snapshots(k)
        if not extra:
            return self._snapshots[k]
        state = copy_state(self._snapshots[k])
        for action in self.actions[n - extra:n]:
            for event in action.events:
                apply_in_place(state, event)
        return state

    def _keep_snapshots(self, k: int) -> None:
        """Make sure the states after 0, 16, … 16·k actions are kept (a replayed game keeps
        none but the start until one is needed: an undo past the last action, a review)."""
        have = len(self._snapshots)
        if have > k:
            return
        state = copy_state(self._snapshots[-1])
        for j in range(have, k + 1):
            for action in self.actions[(j - 1) * SNAPSHOT_EVERY:j * SNAPSHOT_EVERY]:
                for event in action.events:
                    apply_in_place(state, event)
            self._snapshots.append(state)
            if j < k:
                state = copy_state(state)

    @property
    def events(self) -> list[AnyEvent]:
        """Every event so far, start included (a new list)."""
        return list(self._events)

    def legal(self) -> Legal:
        """The legal next actions (worked out once per state: a screen asks several times)."""
        kept, n = self._legal, len(self.actions)
        if kept is None or kept[0] is not self._state or kept[1] != n:
            kept = self._legal = (self._state, n, legal(self._state))
        return kept[2]

    def preview(self, command: AnyCommand | dict) -> list[AnyEvent]:
        """Events a command would produce, without playing it.

        Raises:
            RuleError: the command is refused.
        """
        return execute(self.state, _command(command))

    def play(self, command: AnyCommand | dict) -> Action:
        """Validate and play one referee action; clears the redo stack.

        Raises:
            RuleError: refused; nothing changes.
            pydantic.ValidationError: the command is malformed.
        """
        cmd = _command(command)
        events, after = run(self.state, cmd)
        action = Action(command=cmd, events=events, at=_now())
        self._push(action, after)
        self.redo_stack.clear()
        return action

    def _push(self, action: Action, after: GameState | None = None, *,
              reuse: bool = False) -> None:
        """Append an action; `after` is the state it leads to, else it is folded here.

        `reuse` folds into the current state itself when no snapshot holds it (replay only:
        nobody else has seen that state); no snapshot is then kept (`_keep_snapshots` makes
        them when needed).
        """
        if after is None:
            after = (self._state if reuse and self._state is not self._snapshots[-1]
                     else copy_state(self._state))
            for event in action.events:
                apply_in_place(after, event)
        self.actions.append(action)
        self._events.extend(action.events)
        # Folded into the state itself (replay), the state before is gone; else it is intact.
        self._before = None if after is self._state else self._state
        self._state = after
        self._rounds.append(after.round)
        n = len(self.actions)
        if not reuse and not n % SNAPSHOT_EVERY and len(self._snapshots) == n // SNAPSHOT_EVERY:
            self._snapshots.append(after)

    def can_undo(self) -> bool:
        """Whether there is an action to undo."""
        return bool(self.actions)

    def can_redo(self) -> bool:
        """Whether there is an undone action to redo."""
        return bool(self.redo_stack)

    def undo(self) -> Action:
        """Drop the last action and return it.

        Raises:
            IndexError: nothing to undo (the start of the game).
        """
        if not self.actions:
            raise IndexError("nothing to undo: this is the start of the game")
        action = self.actions.pop()
        self._rounds.pop()
        del self._events[len(self._events) - len(action.events):]
        n = len(self.actions)
        del self._snapshots[n // SNAPSHOT_EVERY + 1:]
        before = self._before  # never changed since: it can be the state again
        self._state, self._before = before if before is not None else self._rebuild(n), None
        self.redo_stack.append(action)
        return action

    def redo(self) -> Action:
        """Re-apply the last undone action and return it.

        Raises:
            IndexError: nothing to redo.
        """
        if not self.redo_stack:
            raise IndexError("nothing to redo")
        action = self.redo_stack.pop()
        self._push(action)
        return action

    @property
    def scoreboard(self) -> Scoreboard | None:
        """Final standings once the game is over."""
        return self.state.scoreboard

    # --- the game clock ---------------------------------------------------------------

    def clock_running(self) -> bool:
        """Whether the clock runs (the game is open at a table and not over)."""
        return bool(self.clock) and self.clock[-1].running and self.state.phase != "game_over"

    def mark_clock(self, running: bool) -> ClockMark:
        """Start or stop the clock now; returns the mark (to be journaled)."""
        mark = ClockMark(running, now_utc())
        self.clock.append(mark)
        return mark

    def time(self, now: datetime | None = None) -> GameTime | None:
        """Played time in all and per round (None if the clock never ran for this game).
        Worked out once per `now` (whole seconds by default) while nothing changed: a tap
        asks twice."""
        if not self.clock:
            return None
        now = now or now_utc()
        last = self.actions[-1] if self.actions else None
        key = (len(self.clock), self.clock[-1], len(self.actions), last, now)
        kept = self._played
        if kept is not None and kept[0][0] == key[0] and kept[0][1] is key[1] and \
                kept[0][2] == key[2] and kept[0][3] is last and kept[0][4] == now:
            return kept[1]
        times: list[tuple[datetime, int]] = []
        parsed = self._times
        for i, action in enumerate(self.actions):
            if action.at is None:
                continue
            k = len(times)
            if k >= len(parsed) or parsed[k][0] is not action:
                del parsed[k:]  # an undo, or a new action: parse from here on
                parsed.append((action, parse_time(action.at)))
            times.append((parsed[k][1], self._rounds[i + 1]))
        ended = None
        if self.state.phase == "game_over" and self.actions and self.actions[-1].at:
            ended = parse_time(self.actions[-1].at)
        result = played(self.clock, times, ended, now, self._rounds[0])
        self._played = (key, result)
        return result

    # --- journal (storage) ---------------------------------------------------------------------

    def header_doc(self) -> dict[str, Any]:
        """The header as a JSON-ready dict."""
        return self.header.model_dump(mode="json")

    @staticmethod
    def action_entry(action: Action) -> dict[str, Any]:
        """Journal entry for a played action."""
        return {"kind": "action", **action.model_dump(mode="json")}

    def journal(self) -> list[dict[str, Any]]:
        """A compact journal that rebuilds this game: its actions, then its redo stack."""
        entries = [self.action_entry(a) for a in self.actions + self.redo_stack[::-1]]
        entries += [{"kind": "undo"}] * len(self.redo_stack)
        return entries + [mark.entry() for mark in self.clock]

    def to_document(self) -> dict[str, Any]:
        """The whole game as one JSON document (docs/formats.md)."""
        return {"format": GAME_FORMAT, "schema_version": SCHEMA_VERSION,
                "header": self.header_doc(), "entries": self.journal()}

    @classmethod
    def from_journal(cls, header: dict[str, Any], entries: list[dict[str, Any]], *,
                     verify: bool = False) -> "Game":
        """Rebuild a game from its header and journal entries.

        With `verify`, every command is executed again and must give the recorded events
        (refuses a tampered log); the game then holds the events the engine gave, whose words
        are messages even where an older file holds English text. Clock entries are kept in
        `clock` and change no state.

        Raises:
            ReplayError: an entry is malformed, refused by the rules, or inconsistent.
        """
        try:
            game = cls(GameHeader.model_validate(header))
        except ValueError as err:
            raise ReplayError(f"header: {brief(err)}") from None
        # the last action is pushed on a copy: the state before it stays (`state_at`, undo)
        last = max((i for i, e in enumerate(entries)
                    if isinstance(e, dict) and e.get("kind") == "action"), default=-1)
        for i, entry in enumerate(entries):
            kind = entry.get("kind") if isinstance(entry, dict) else None
            try:
                if kind == "undo":
                    game.undo()
                elif kind == "redo":
                    game.redo()
                elif kind == CLOCK_KIND:
                    game.clock.append(ClockMark.from_entry(entry))
                elif kind == "action":
                    action = Action(command=COMMAND_ADAPTER.validate_python(entry["command"]),
                                    events=EVENT_LIST_ADAPTER.validate_python(entry["events"]),
                                    at=entry.get("at"))
                    if verify:
                        events = execute(game.state, action.command)
                        if events != action.events:
                            raise ReplayError("its events differ from what the command gives")
                        # equal, they read the same; the engine's carry their messages where
                        # an older file holds English text (models.said)
                        action = action.model_copy(update={"events": events})
                    game._push(action, reuse=i != last)
                    game.redo_stack.clear()
                else:
                    raise ReplayError(f"unknown entry kind {kind!r}")
            except (ValueError, KeyError, IndexError, TypeError) as err:
                raise ReplayError(f"entries[{i}] ({kind}): {brief(err)}") from None
        return game


def _command(command: AnyCommand | dict) -> AnyCommand:
    if isinstance(command, BaseModel):
        return command  # type: ignore[return-value]
    return COMMAND_ADAPTER.validate_python(command)  # a dict, or junk refused with its place
