"""Table mode: several devices at one open game, each in a role, kept in step.

Model:
- One `TableHub` per server process owns the data folder's games (through the store) and every
  open `Table` (`companion.table.table`, imported when the first table opens). A table is one game;
  `open_table(game_id)` returns the table already playing that game, so two tables never
  write the same game. Tables are stored in
  `<data folder>/tables/<game_id>.json` (codes, seats, pending inputs, version epoch), replaced
  atomically at every change of them, and come back after a restart (`get(table_id)`).
- A device is known by a random *device token* it keeps (the phone's local storage); the table
  remembers only its hash. A device holds one role at a table (`models.table`): it claims a
  player seat with *that seat's code* (each seat has its own, made anew when the referee frees
  the seat), becomes the referee with the *referee code* (or the hub's *host key*), or joins
  the board with the *board code* (none if the host allows viewers). Wrong codes are
  rate-limited per device and per client address, never per table, so one device's wrong
  tries cannot lock the others out; a right code clears them (`RateLimiter`).
- The table has a *version*: an integer that grows at every change (action, undo, redo, seat
  claimed or freed, secret choice entered, changed or taken back, card named...). It is
  `epoch * EPOCH + n`, where the stored epoch grows at every load, so a version is never
  reused after a restart. An action that depends on what the device saw (an engine command,
  undo, redo, freeing a seat) carries the version its screen was drawn from; an older one is
  refused with `StaleVersion` ("the table changed: ...") and changes nothing. Inputs each
  player gives independently (a secret Stay/Withdraw, naming one's own face-down cards, a
  take-back) carry none: they are judged on the step itself, so several entered at the same
  instant are all accepted. Joining carries none either: a seat claim is judged on the seat.
  One lock per table makes each action atomic: of two taps sent with the same version, the
  second is stale.
- Who may do what is `companion.table.access`; the per-player inputs that become one command
  (secret Stay/Withdraw, naming face-down cards, Succubus Club take-back) are
  `companion.table.collect`. `view(device)` / `view_for(role)` give what a role may see.
- `subscribe(callback)` calls `callback(version)` after every change, outside the lock (the
  view layer bridges it to its sessions; a failing callback is logged and ignored).

Every refusal raises before anything changes: game, journal, table file and version are left
exactly as they were.
"""

from __future__ import annotations

import errno
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.library.library import Library
from companion.library.session import GameSession
from companion.library.store import Store
from companion.storage import describe_os_error
from companion.storage.files import atomic_write_bytes, move_aside, remove_temp_files
from companion.table.keys import (
    CODE_ALPHABET,
    DEVICE_TOKEN,
    EPOCH,
    JOIN_CODE_LENGTH,
    REFEREE_CODE_LENGTH,
    TABLE_ID_LENGTH,
    CodeRefused,
    RateLimited,
    RateLimiter,
    TableNotFound,
    new_code,
    new_device_token,
    token_hash,
    with_seat_codes,
)
from models.message import msg
from models.table import TableRecord

if TYPE_CHECKING:
    from companion.rules.game import Game
    from companion.table.table import Table
    from models.setup import GameSetup, Position

log = logging.getLogger(__name__)

HOST_KEY_FILE = "host-key"
"""File in `tables/` holding the host key."""


class TableHub:
    """Every open table of one server process; the one owner of its data folder's games.

    `host_key` (printed by the server at start) grants host access: the view layer checks it
    (`is_host`) before showing the home screen, the new-game wizard and the history, and
    `Table.claim_referee` accepts it as a referee code. Unless given, it is read from
    `tables/host-key` (created at the first start, readable by the owner only), so a host
    browser stays host after a restart; random and unsaved without a data folder.
    """

    def __init__(self, store: Store, data_dir: str | Path | None = None, *,
                 clock: Callable[[], float] = time.monotonic, host_key: str | None = None,
                 library: Library | None = None):
        self.store = store
        self.library = library or Library(store)
        """For what is not a table's: the catalogue, the history, reviewing a stored game."""
        folder = data_dir if data_dir is not None else getattr(store, "data_dir", None)
        self.tables_dir = Path(folder) / "tables" if folder is not None else None
        """Where table records are stored (None: in memory only, e.g. a memory store)."""
        self.limiter = RateLimiter(clock)
        self._lock = threading.RLock()
        self._open: dict[str, Table] = {}
        self._stored: dict[str, TableRecord] = {}
        if self.tables_dir is not None and not getattr(store, "read_only", False):
            # only the folder's writer (who holds its lock) creates, cleans or moves files
            self._open_tables_dir()
        self.host_key = host_key or self._stored_host_key()

    def _stored_host_key(self) -> str:
        """The host key kept in the data folder (made at the first start); random without one."""
        key = secrets.token_urlsafe(18)
        if self.tables_dir is None:
            return key
        path = self.tables_dir / HOST_KEY_FILE
        try:
            stored = path.read_text(encoding="ascii").strip()
            if DEVICE_TOKEN.match(stored):
                return stored
        except (OSError, UnicodeDecodeError):
            pass
        if getattr(self.store, "read_only", False):
            return key
        try:
            atomic_write_bytes(path, key.encode("ascii"))
            path.chmod(0o600)
        except OSError as err:
            log.warning("host key not stored in %s (%s): it changes at the next start", path,
                        describe_os_error(err, with_file=False))
        return key

    def _open_tables_dir(self) -> None:
        """Make `tables/` (a file or an unreadable folder in its place is set aside with a
        dated name: the games stay, their tables start anew) and read its tables."""
        assert self.tables_dir is not None
        try:
            self.tables_dir.mkdir(parents=True, exist_ok=True)
            if not os.access(self.tables_dir, os.R_OK | os.W_OK | os.X_OK):
                raise PermissionError(errno.EACCES, "permission denied", str(self.tables_dir))
            remove_temp_files(self.tables_dir)
            self._scan()
        except OSError as err:
            moved = move_aside(self.tables_dir)
            log.warning("tables folder %s unusable (%s); set aside to %s", self.tables_dir,
                        describe_os_error(err), moved)
            try:
                self.tables_dir.mkdir(exist_ok=True)
            except OSError:
                pass  # tables are then refused when opened, saying why

    def _scan(self) -> None:
        for path in sorted(self.tables_dir.glob("*.json")):
            try:
                record = TableRecord.model_validate_json(path.read_bytes())
                if path.stem != record.game_id:
                    raise ValueError(f"it names game {record.game_id}")
            except (OSError, ValueError) as err:
                moved = move_aside(path)
                log.warning("table file %s unreadable (%s); moved aside to %s", path, err, moved)
                continue
            self._stored[record.table_id] = record

    def is_host(self, key: str) -> bool:
        """Whether `key` is this server's host key."""
        return isinstance(key, str) and hmac.compare_digest(key.encode(),
                                                            self.host_key.encode())

    def save_record(self, record: TableRecord) -> None:
        """Store a table record atomically (no-op without a data folder).

        Raises:
            OSError: not stored (also when the store is read-only: another process owns the
                data folder); the previous record is untouched.
        """
        if getattr(self.store, "read_only", False):
            raise OSError(errno.EROFS, "the data folder is open read-only by this process")
        if self.tables_dir is not None:
            data = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=1)
            atomic_write_bytes(self.tables_dir / f"{record.game_id}.json", data.encode())

    def new_table(self, start: GameSetup | Position, *, allow_viewers: bool = False) -> Table:
        """Create and store a new game, and open a table for it.

        Raises:
            OSError: the game or its table could not be stored.
        """
        with self._lock:
            game = GameSession(self.store).new_game(start)
            return self._open_new(game, allow_viewers)

    def open_table(self, game_id: str, *, allow_viewers: bool = False) -> Table:
        """The table playing this stored game: the open one if there is one (joined, never
        forked), else its stored table, else a new table (`allow_viewers` only then).

        Raises:
            KeyError: no such game. ReplayError: its journal does not replay.
            OSError: the table could not be stored.
        """
        with self._lock:
            found = self._find(game_id)
            if found is not None:
                return self._load(found)
            return self._open_new(self.library.load_game(game_id), allow_viewers)

    def get(self, table_id: str) -> Table:
        """The table with this id, loaded again after a restart.

        Raises:
            TableNotFound: no such table (or its game is gone). ReplayError: its game does not
                replay. OSError: it could not be stored.
        """
        with self._lock:
            if table_id in self._open:
                return self._open[table_id]
            if table_id not in self._stored:
                raise TableNotFound(msg("there is no table {table}", table=repr(table_id)))
            return self._load(table_id)

    def open_tables(self) -> list[Table]:
        """The tables open in this process."""
        with self._lock:
            return list(self._open.values())

    def table_ids(self) -> dict[str, str]:
        """Every known table (open or stored): table id → game id."""
        with self._lock:
            known = {t: r.game_id for t, r in self._stored.items()}
            return known | {t: table.game_id for t, table in self._open.items()}

    def close(self, table_id: str) -> None:
        """Close a table: devices lose their roles, its record is deleted, the game stays.

        Raises:
            TableNotFound: no such table.
        """
        with self._lock:
            table = self.get(table_id)
            table.session.clock_stop()  # the game's clock runs while a table has it open
            del self._open[table_id]
            if self.tables_dir is not None:
                (self.tables_dir / f"{table.game_id}.json").unlink(missing_ok=True)
        table._close()

    def stop_clocks(self) -> None:
        """Stop the game clock of every open table (the server or window is closing; the
        tables stay stored and their clocks start again when they are opened)."""
        with self._lock:
            for table in self._open.values():
                table.session.clock_stop()

    def _find(self, game_id: str) -> str | None:
        for table_id, game in self.table_ids().items():
            if game == game_id:
                return table_id
        return None

    def _new_id(self) -> str:
        while True:
            table_id = new_code(TABLE_ID_LENGTH)
            if table_id not in self._open and table_id not in self._stored:
                return table_id

    def _open_new(self, game: Game, allow_viewers: bool) -> Table:
        record = TableRecord(table_id=self._new_id(), game_id=game.header.game_id,
                             join_code=new_code(JOIN_CODE_LENGTH),
                             referee_code=new_code(REFEREE_CODE_LENGTH),
                             allow_viewers=allow_viewers, epoch=1)
        record = with_seat_codes(record, len(game.state.players))
        self.save_record(record)
        return self._start(record, game)

    def _load(self, table_id: str) -> Table:
        if table_id in self._open:
            return self._open[table_id]
        record = self._stored[table_id]
        try:
            game = self.library.load_game(record.game_id)
        except KeyError:
            del self._stored[table_id]
            if self.tables_dir is not None:
                (self.tables_dir / f"{record.game_id}.json").unlink(missing_ok=True)
            raise TableNotFound(msg("table {table}: its game {game} is gone", table=table_id,
                                    game=record.game_id)) from None
        from companion.table.collect import current

        record = record.model_copy(update={"epoch": record.epoch + 1})
        record = record.model_copy(update={"pending": current(game, record.pending)})
        record = with_seat_codes(record, len(game.state.players))
        self.save_record(record)
        del self._stored[table_id]
        return self._start(record, game)

    def _start(self, record: TableRecord, game: Game) -> Table:
        """Open the table of a stored record; its game's clock runs while it is open, devices
        or not (the engine's side of a table is imported with the first one)."""
        from companion.table.table import Table

        table = Table(self, record, game)
        self._open[record.table_id] = table
        table.session.clock_start()
        return table


__all__ = ["CODE_ALPHABET", "DEVICE_TOKEN", "EPOCH", "CodeRefused", "RateLimited",
           "RateLimiter", "TableHub", "TableNotFound", "new_device_token", "token_hash",
           "with_seat_codes"]
