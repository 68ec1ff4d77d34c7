"""One open game at a table: the `Table` its devices act through, kept in step.

`companion.table.hub` holds the process's `TableHub`, which opens and stores tables; this
module is the table itself, with the rules side a table needs (`access`, `collect`): it is
imported when the first table opens, not when the app starts.
"""

from __future__ import annotations

import hmac
import logging
import re
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from companion.library.session import GameSession
from companion.rules.errors import (
    InputRefused,
    RuleError,
    StaleVersion,
    TableError,
    chain,
    english,
)
from companion.rules.game import Action, Game
from companion.storage import describe_os_error
from companion.story import narrator_commands
from companion.table import access, collect
from companion.table.access import TableView
from companion.table.keys import (
    EPOCH,
    CodeRefused,
    RateLimiter,
    TableNotFound,
    token_hash,
    with_seat_codes,
)
from models.cards import ClanCard
from models.commands import COMMAND_ADAPTER, AnyCommand
from models.message import Message, msg
from models.message import player as player_ref
from models.said import literal
from models.table import Allowed, Board, Choice, Lobby, Pending, Referee, Role, Seat, TableRecord


class Hub(Protocol):
    """What a table needs of the hub that opened it (`companion.table.hub.TableHub`)."""

    store: Any
    """The store its game is kept in."""
    limiter: RateLimiter
    """The wrong-code limits shared by every table of the process."""

    def is_host(self, key: str) -> bool:
        """Whether `key` is the server's host key."""
        ...

    def save_record(self, record: TableRecord) -> None:
        """Store a table record."""
        ...

log = logging.getLogger("companion.table.hub")

Listener = Callable[[int], None]
"""Called with the table's new version after every change."""

News = list[Message]
"""One change of the table in a few messages (its parts, said joined by "; ")."""

CODE_REFUSED = {
    "seat": (msg("type the code for {player}'s seat first"), msg("wrong code for {player}'s seat")),
    "referee": (msg("type the code for the referee first"), msg("wrong code for the referee")),
    "board": (msg("type the code for the board first"), msg("wrong code for the board")),
}
"""The refusals of no code and of a wrong code, by what the code is for."""


def _said(words: Message | str) -> Message:
    """Words as a message (plain text, e.g. `describe`'s, says exactly itself)."""
    return words if isinstance(words, Message) else literal(str(words))

def _normal(code: str | None) -> str:
    return re.sub(r"[\s-]", "", code or "").upper()


def _same(given: str | None, code: str) -> bool:
    return hmac.compare_digest(_normal(given).encode(), code.encode())


def describe(command: AnyCommand, game: Game) -> Message:
    """Who did what, for "the table changed: ..." and the news of an undo: the narrator's
    words on the command (names no secret: a face-down card stays "a card")."""
    return narrator_commands.news(command, game.state)


class Table:
    """One open game shared by the devices at a table. Thread-safe (one lock per table).

    Device actions take the device token (the table resolves its role at that moment) and the
    version the device's screen was drawn from.
    """

    def __init__(self, hub: Hub, record: TableRecord, game: Game):
        self._hub = hub
        self._session = GameSession(hub.store, game)
        self._record = record
        self._lock = threading.RLock()
        self._changes = 0
        self._log: deque[tuple[int, News]] = deque(maxlen=64)
        self._listeners: list[Listener] = []
        self.closed = False
        self.taken_back: tuple[int, Message] | None = None
        """After an undo or a redo: the number of actions it left and what it said ("the
        referee took back: Bo played a card"), so every device tells it as its news."""

    # --- what anyone may read ----------------------------------------------------------------

    @property
    def table_id(self) -> str:
        """Short id of the table (in its join address)."""
        return self._record.table_id

    @property
    def game_id(self) -> str:
        """Id of the game played here."""
        return self._record.game_id

    @property
    def join_code(self) -> str:
        """Code of the board, when viewers need one (the referee's screen shows it)."""
        return self._record.join_code

    def seat_code(self, player: int) -> str:
        """The code that claims this player's seat, and no other (the referee's screen shows
        it to that player).

        Raises:
            TableError: no such player.
        """
        with self._lock:
            self._check_player(player)
            return self._record.seat_codes[player]

    @property
    def referee_code(self) -> str:
        """Code to become the referee (host screen only)."""
        return self._record.referee_code

    @property
    def allow_viewers(self) -> bool:
        """Whether the board may be joined without a code."""
        return self._record.allow_viewers

    @property
    def version(self) -> int:
        """Current version; grows at every change, never reused after a restart."""
        return self._record.epoch * EPOCH + self._changes

    @property
    def game(self) -> Game:
        """The game (read only: play through the table's actions)."""
        return self._session.game

    @property
    def session(self) -> GameSession:
        """The session storing this table's game (read its unsaved actions, retry saving;
        play through the table's actions)."""
        return self._session

    def undo_message(self) -> Message | None:
        """What the last undo or redo said ("the referee took back: …") while the game stands
        where it left it (every device says it as its news instead of the action before),
        else None."""
        back = self.taken_back
        if back is None or back[0] != len(self.game.actions):
            return None
        return back[1]

    def undo_news(self) -> str | None:
        """`undo_message` in English, as a sentence: "The referee took back: …"."""
        back = self.undo_message()
        if back is None:
            return None
        news = self._english(back)
        return news[0].upper() + news[1:] + "."

    def _english(self, message: Message) -> str:
        """A message in English with this game's player names."""
        return english(message, [p.name for p in self.game.state.players])

    def role_of(self, device: str) -> Role | None:
        """The role this device holds here, if any.

        Raises:
            TableError: not a device token.
        """
        h = token_hash(device)
        with self._lock:
            return self._role_of_hash(h)

    def _role_of_hash(self, h: str) -> Role | None:
        r = self._record
        if h in r.referees:
            return Referee()
        if h in r.boards:
            return Board()
        return next((Seat(player=p) for p, d in r.seats.items() if d == h), None)

    def view(self, device: str) -> TableView:
        """What this device may see now.

        Raises:
            TableError: the device holds no role here (it must join first), or the table closed.
        """
        with self._lock:
            return self.view_for(self._role(device))

    def view_for(self, role: Role) -> TableView:
        """What a role may see now: secret choices stripped (`companion.table.access.view`)."""
        with self._lock:
            self._check_open()
            news = self._log[-1][1] if self._log else []
            last = "; ".join(self._english(m) for m in news) if self._log else None
            return access.view(role, self.game, self._pending(), dict(self._record.seats),
                               table_id=self.table_id, version=self.version,
                               allow_viewers=self.allow_viewers, last_change=last, news=news)

    def lobby(self) -> Lobby:
        """What a device that has not joined may see (the join screen).

        Raises:
            TableNotFound: the table closed.
        """
        with self._lock:
            self._check_open()
            return Lobby(table_id=self.table_id, allow_viewers=self.allow_viewers,
                         seats=access.seat_list(self.game.state, self._record.seats))

    def allowed(self, role: Role) -> Allowed:
        """What a role may do now."""
        with self._lock:
            return access.allowed(role, self.game, self._pending(), dict(self._record.seats))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(version)` after every change; returns the function that unsubscribes.

        Listeners run outside the table lock, in the thread that made the change; versions may
        arrive out of order when two changes race, so re-read the table, don't trust the number.
        """
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    # --- joining -------------------------------------------------------------------------------

    def claim_seat(self, device: str, player: int, code: str, client: str | None = None) -> Seat:
        """Make this device the player's seat with that seat's own code (its former role here
        is given up).

        Raises:
            CodeRefused: no code, the wrong code for this seat, or locked out (`RateLimited`).
            TableError: no such player; the seat is held by another device (the referee can
                free it); not a device token; the table closed.
        """
        h = token_hash(device)
        with self._lock:
            self._check_open()
            n = len(self.game.state.players)
            if not isinstance(player, int) or not 0 <= player < n:
                raise TableError(msg("claiming a seat refused: there is no player {ref} (0 to "
                                     "{last})", ref=repr(player), last=n - 1))
            names = [p.name for p in self.game.state.players]
            self._check_code(h, client, code, self._record.seat_codes[player], what="seat",
                             seat=player)
            role = Seat(player=player)
            holder = self._record.seats.get(player)
            if holder == h:
                return role
            if holder is not None:
                raise TableError(msg("claiming a seat refused: {player}'s seat is held by "
                                     "another device; the referee can free it",
                                     player=player_ref(player)), names)
            v = self._change([msg("{player}'s seat was claimed", player=player_ref(player))],
                             self._with_role(h, role))
        self._notify(v)
        return role

    def claim_referee(self, device: str, code: str, client: str | None = None) -> Referee:
        """Make this device a referee (several devices may be); the host key works too.

        Raises:
            CodeRefused: wrong code, or locked out (`RateLimited`).
            TableError: not a device token; the table closed.
        """
        h = token_hash(device)
        with self._lock:
            self._check_open()
            self._check_code(h, client, code, self.referee_code,
                             also=self._hub.is_host(code or ""), what="referee")
            if h in self._record.referees:
                return Referee()
            v = self._change([msg("a referee joined")], self._with_role(h, Referee()))
        self._notify(v)
        return Referee()

    def join_board(self, device: str, code: str | None = None,
                   client: str | None = None) -> Board:
        """Show the public board on this device (a code is needed unless viewers are allowed).

        Raises:
            CodeRefused: viewers not allowed and a wrong (or no) code; locked out.
            TableError: not a device token; the table closed.
        """
        h = token_hash(device)
        with self._lock:
            self._check_open()
            if not self.allow_viewers:
                self._check_code(h, client, code, self.join_code,
                                 also=_same(code, self.referee_code), what="board")
            if h in self._record.boards:
                return Board()
            v = self._change([msg("a board joined")], self._with_role(h, Board()))
        self._notify(v)
        return Board()

    def leave(self, device: str) -> None:
        """The device gives up its role here (a seat becomes free).

        Raises:
            TableError: not a device token.
        """
        h = token_hash(device)
        with self._lock:
            if self._role_of_hash(h) is None or self.closed:
                return
            v = self._change([msg("a device left")], self._with_role(h, None))
        self._notify(v)

    def free_seat(self, device: str, player: int, version: int) -> None:
        """Referee: free a player's seat (e.g. a lost phone) so that player can claim it again
        from another device. The seat gets a new code: whoever saw the old one (or holds the
        lost phone) cannot take it, nor see the player's pending secret choice.

        Raises:
            AccessError: not the referee. StaleVersion. TableError: no such player.
        """
        with self._lock:
            role = self._begin(device, version)
            access.check_referee(role, self.game.state, "freeing a seat")
            self._check_player(player)
            if player not in self._record.seats:
                return
            seats = {p: d for p, d in self._record.seats.items() if p != player}
            codes = {p: c for p, c in self._record.seat_codes.items() if p != player}
            record = self._record.model_copy(update={"seats": seats, "seat_codes": codes})
            record = with_seat_codes(record, len(self.game.state.players))
            v = self._change([msg("{player}'s seat was freed", player=player_ref(player))], record)
        self._notify(v)

    def set_allow_viewers(self, device: str, allow: bool, version: int) -> None:
        """Referee: let devices join the board without a code, or not.

        Raises:
            AccessError: not the referee. StaleVersion.
        """
        with self._lock:
            role = self._begin(device, version)
            access.check_referee(role, self.game.state, "changing who may view")
            if allow == self.allow_viewers:
                return
            v = self._change([msg("viewers allowed") if allow else msg("viewers need the code")],
                             self._record.model_copy(update={"allow_viewers": allow}))
        self._notify(v)

    # --- playing -------------------------------------------------------------------------------

    def act(self, device: str, command: AnyCommand | dict, version: int) -> Action:
        """Play an engine command from this device, if its role may (`companion.table.access`).

        Raises:
            StaleVersion: the table changed since `version`.
            AccessError: the role may not do this now.
            RuleError: the rules refuse it. pydantic.ValidationError: malformed command.
            TableError: the device holds no role here; the table closed.
        """
        with self._lock:
            role = self._begin(device, version)
            cmd = command if not isinstance(command, dict) else \
                COMMAND_ADAPTER.validate_python(command)
            access.check_command(role, cmd, self.game, self._pending())
            action = self._session.play(cmd)
            self.taken_back = None
            v = self._after_game_change([_said(describe(cmd, self.game))])
        self._notify(v)
        return action

    def undo(self, device: str, version: int) -> Action:
        """Referee: take back the last action (inputs of a step no longer current are dropped).

        Raises:
            AccessError: not the referee. StaleVersion. IndexError: nothing to undo.
        """
        return self._undo_redo(device, version, "undo")

    def redo(self, device: str, version: int) -> Action:
        """Referee: play again the last action taken back.

        Raises:
            AccessError: not the referee. StaleVersion. IndexError: nothing to redo.
        """
        return self._undo_redo(device, version, "redo")

    def _undo_redo(self, device: str, version: int, which: str) -> Action:
        with self._lock:
            role = self._begin(device, version)
            access.check_referee(role, self.game.state, which)
            action = getattr(self._session, which)()
            what = _said(describe(action.command, self.game))
            news = msg("the referee took back: {what}", what=what) if which == "undo" else \
                msg("the referee played again: {what}", what=what)
            self.taken_back = (len(self.game.actions), news)
            v = self._after_game_change([news])
        self._notify(v)
        return action

    def choose(self, device: str, player: int, choice: Choice | None,
               version: int | None = None) -> None:
        """Enter, change or (None) take back a secret Stay/Withdraw (§8.1).

        Independent of what the device saw (`version` is not checked): every player chooses at
        the same moment, and the step itself is checked.

        A seat chooses for its own player; the referee for a player whose seat is free. When
        the last present player has chosen, the choices are revealed together; once the
        withdrawing players' face-down cards are named (if any), one `choose_withdraw` is
        played.

        Raises:
            AccessError. InputRefused: not the Withdraw step, the player is not there, or the
                choices are already revealed. TableError: no such player.
        """
        with self._lock:
            role = self._role(device)
            self._check_player(player)
            access.check_choose(role, player, self.game.state, self._record.seats)
            before = self._pending() or Pending(key="")
            pending = collect.choose(self.game, before, player, choice)
            news = [msg("a Stay/Withdraw choice was entered") if choice else
                    msg("a Stay/Withdraw choice was taken back")]
            v = self._collected(pending, news)
        self._notify(v)

    def name_cards(self, device: str, cards: dict[str, ClanCard | dict[str, Any]],
                   version: int | None = None) -> None:
        """Enter identities of face-down cards being turned up (withdrawing players' cards
        after the choices are revealed, §8.1; every face-down card at Revelation, §8.2).

        A seat names only its own player's cards; the referee any. Each name is checked when
        it is entered (a card its owner already has face up, or names twice, is refused now,
        so one wrong entry can never block the others). When all are named, the one command
        (`choose_withdraw` or `reveal`) is played. Independent of what the device saw
        (`version` is not checked).

        Raises:
            AccessError. InputRefused: not a card to name now, or a copy its owner already has.
            pydantic.ValidationError: a malformed identity.
        """
        with self._lock:
            role = self._role(device)
            if not isinstance(cards, dict) or not cards:
                raise InputRefused(msg("naming cards refused: give card uids and identities"))
            named = {u: c if isinstance(c, ClanCard) else ClanCard.model_validate(c)
                     for u, c in cards.items()}
            access.check_own(role, access.card_owners(self.game, named), self.game.state,
                             "naming cards")
            before = self._pending() or Pending(key="")
            pending = collect.name_cards(self.game, before, named)
            v = self._collected(pending, [msg("{n} face-down card(s) named", n=len(named))])
        self._notify(v)

    def take_back(self, device: str, player: int, amount: int,
                  version: int | None = None) -> None:
        """Enter the Blood a player takes back after a Succubus Club Location (§15).

        When every player with Blood there has answered, one `take_back_blood` is played.
        Independent of what the device saw (`version` is not checked).

        Raises:
            AccessError. InputRefused: not now, or out of range.
        """
        with self._lock:
            role = self._role(device)
            self._check_player(player)
            access.check_own(role, {player}, self.game.state, "taking back Blood")
            before = self._pending() or Pending(key="")
            pending = collect.take_back(self.game, before, player, amount)
            v = self._collected(pending, [msg("{player} takes back {amount} Blood",
                                              player=player_ref(player), amount=amount)])
        self._notify(v)

    def clear_input(self, device: str, player: int, version: int) -> None:
        """Referee: clear what was entered for one player at this step (their secret choice
        before the reveal, the names of their face-down cards, their take-back), so a wrong
        entry is corrected without undoing anything else. The player enters it again.

        Raises:
            AccessError: not the referee. StaleVersion. TableError: no such player.
            InputRefused: nothing is being collected now.
        """
        with self._lock:
            role = self._begin(device, version)
            access.check_referee(role, self.game.state, "clearing a player's entry")
            self._check_player(player)
            before = self._pending()
            if before is None:
                raise InputRefused(msg("clearing an entry refused: nothing is being entered "
                                       "now"))
            pending = collect.clear(self.game, before, player)
            if pending == before:
                return
            news = [msg("the referee cleared {player}'s entry", player=player_ref(player))]
            v = self._change(news, self._record.model_copy(update={"pending": pending}))
        self._notify(v)

    # --- inside the lock -----------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.closed:
            raise TableNotFound(msg("table {table} was closed", table=self.table_id))

    def _role(self, device: str) -> Role:
        self._check_open()
        role = self._role_of_hash(token_hash(device))
        if role is None:
            raise TableError(msg("this device has not joined table {table}: claim a seat, join "
                                 "the board or enter the referee code first",
                                 table=self.table_id))
        return role

    def _begin(self, device: str, version: int) -> Role:
        """Role of the device, after the version check."""
        role = self._role(device)
        if version != self.version:
            raise _stale(version, self.version, list(self._log),
                         [p.name for p in self.game.state.players])
        return role

    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < len(self.game.state.players):
            raise TableError(msg("there is no player {ref} at this table", ref=repr(player)))

    def _check_code(self, h: str, client: str | None, code: str | None, expected: str, *,
                    also: bool = False, what: str = "board", seat: int | None = None) -> None:
        """Accept the right code (clearing this device's and address's wrong tries); refuse
        a wrong one and count it against this device and its address only. No code at all is
        refused without counting (a tap before typing is no guess). `what` the code is for:
        "seat" (that of `seat`), "referee" or "board"."""
        keys = [f"device:{h}"] + ([f"client:{client}"] if client else [])
        limiter = self._hub.limiter
        limiter.check(keys)
        if also or _same(code, expected):
            limiter.succeeded(keys)
            return
        none, wrong = CODE_REFUSED[what]
        args = {"player": player_ref(seat)} if seat is not None else {}
        names = [p.name for p in self.game.state.players]
        if not _normal(code):
            raise CodeRefused(none.model_copy(update={"args": args}), names)
        limiter.failed(keys)
        raise CodeRefused(wrong.model_copy(update={"args": args}), names)

    def _pending(self) -> Pending | None:
        return collect.current(self.game, self._record.pending)

    def _with_role(self, h: str, role: Role | None) -> TableRecord:
        """The record with this device in `role` only (None: no role)."""
        r = self._record
        seats = {p: d for p, d in r.seats.items() if d != h}
        referees = [d for d in r.referees if d != h]
        boards = [d for d in r.boards if d != h]
        if isinstance(role, Seat):
            seats[role.player] = h
        elif isinstance(role, Referee):
            referees.append(h)
        elif isinstance(role, Board):
            boards.append(h)
        return r.model_copy(update={"seats": seats, "referees": referees, "boards": boards})

    def _collected(self, pending: Pending, news: News) -> int:
        """Store new inputs; play the one command they make once complete."""
        command = collect.command(self.game, pending)
        if command is None:
            if pending.revealed and not (self._pending() or Pending(key="")).revealed:
                news.append(msg("every Stay/Withdraw choice is in: revealed"))
            return self._change(news, self._record.model_copy(update={"pending": pending}))
        self._session.play(command)
        self.taken_back = None
        news.append(_said(describe(command, self.game)))
        return self._after_game_change(news)

    def _after_game_change(self, news: News) -> int:
        """After the game moved: drop stale inputs (completing any now whole), store, bump."""
        pending = self._pending()
        command = collect.command(self.game, pending)
        if command is not None:  # e.g. the last chooser left the Location: all are in
            try:
                self._session.play(command)
            except (RuleError, InputRefused, OSError) as err:  # one line: the inputs stay
                log.warning("table %s: collected inputs not played: %s", self.table_id, err)
            else:
                news.append(_said(describe(command, self.game)))
                pending = self._pending()
        record = self._record.model_copy(update={"pending": pending})
        try:
            return self._change(news, record)
        except OSError as err:  # the game is stored; stale inputs are dropped again at load
            log.warning("table %s: the table record could not be stored: %s", self.table_id,
                        describe_os_error(err))
            self._record = record
            return self._bump(news)

    def _change(self, news: News, record: TableRecord) -> int:
        """Store the new record (if it changed), then count the change.

        Raises:
            OSError: it could not be stored; nothing changed.
        """
        if record != self._record:
            self._hub.save_record(record)
            self._record = record
        return self._bump(news)

    def _bump(self, news: News) -> int:
        self._changes += 1
        if self._changes >= EPOCH:
            self._record = self._record.model_copy(update={"epoch": self._record.epoch + 1})
            self._hub.save_record(self._record)
            self._changes = 0
        self._log.append((self.version, news))
        return self.version

    # --- outside the lock ----------------------------------------------------------------------

    def _notify(self, version: int) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(version)
            except Exception:  # noqa: BLE001 - one broken view must not break the table
                log.exception("table %s: a change listener failed", self.table_id)

    def _close(self) -> None:
        with self._lock:
            self.closed = True
            v = self._bump([msg("the table was closed")])
        self._notify(v)


def _stale(version: int, current: int, changes: list[tuple[int, News]],
           names: list[str]) -> StaleVersion:
    """The refusal of an action drawn from an older version: what changed since, as messages
    (`changes` of the error), said in English in its text (`names`: the players')."""
    since = [news for v, news in changes if v > version]
    if version // EPOCH != current // EPOCH:
        since = [[msg("the server restarted")], *since[-3:]]
    elif len(since) > 3:
        since = [[msg("{n} changes", n=len(since) - 3)], *since[-3:]]
    if not since:
        return StaleVersion(msg("the table changed: it is now at version {current}, not "
                                "{version}. Look again and retry.", current=current,
                                version=version))
    said = [m for news in since for m in news]
    link = msg("{first}; {rest}")
    return StaleVersion(msg("the table changed: {changes}. Look again and retry.",
                            changes=chain(said, link)), names, changes=said)
