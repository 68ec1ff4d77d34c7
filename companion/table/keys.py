"""Codes, device tokens and wrong-code limits of table mode: what a table and the hub that opens
tables both need (no I/O, no game). A device is known by a random token it keeps; a table
stores only its hash. Codes use letters and digits that cannot be mistaken for one another.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from collections.abc import Callable

from companion.rules.errors import TableError
from models.message import msg
from models.table import TableRecord

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
"""Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L, 2/Z, 5/S, 8/B)."""
JOIN_CODE_LENGTH = 5
REFEREE_CODE_LENGTH = 6
TABLE_ID_LENGTH = 6
EPOCH = 1_000_000
"""Versions per epoch: version = epoch * EPOCH + changes since the table was loaded."""
DEVICE_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,128}$")

class TableNotFound(TableError):
    """No table with this id (never opened, or closed)."""


class CodeRefused(TableError):
    """A wrong (or no) seat, board or referee code, or a device locked out after too many wrong
    codes."""


class RateLimited(CodeRefused):
    """Too many wrong codes: the device or its address is locked for a while."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(msg("too many wrong codes: try again in {seconds} s",
                             seconds=max(1, round(seconds))))


def new_code(length: int) -> str:
    """A random code from the unambiguous alphabet."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def with_seat_codes(record: TableRecord, players: int) -> TableRecord:
    """The record with a code of its own for every seat that has none (a new table, or one
    stored before seats had their own codes); each differs from the table's other codes."""
    codes = dict(record.seat_codes)
    used = {record.join_code, record.referee_code, *codes.values()}
    for player in range(players):
        while player not in codes:
            code = new_code(JOIN_CODE_LENGTH)
            if code not in used:
                codes[player] = code
                used.add(code)
    return record if codes == record.seat_codes else \
        record.model_copy(update={"seat_codes": codes})


def new_device_token() -> str:
    """A random device token (the phone keeps it in its local storage)."""
    return secrets.token_urlsafe(24)



def token_hash(device: str) -> str:
    """What the table stores of a device token.

    Raises:
        TableError: not a device token (16–128 letters, digits, - or _).
    """
    if not isinstance(device, str) or not DEVICE_TOKEN.match(device):
        raise TableError(msg("not a device token: expected 16 to 128 letters, digits, - or _"))
    return hashlib.sha256(device.encode()).hexdigest()


class RateLimiter:
    """Wrong-code lockout per key ("device:<hash>", "client:<address>").

    After `free` wrong codes (5 per device or address), each further one locks
    the key for 2, 4, 8... seconds (at most `cap`); a key is forgotten after `forget` quiet
    seconds. In memory only: a restart clears it. `clock` is injectable for tests.
    """

    FREE = {"device": 5, "client": 5}

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, cap: float = 900,
                 forget: float = 3600):
        self.clock, self.cap, self.forget = clock, cap, forget
        self._keys: dict[str, tuple[int, float, float]] = {}
        """key → (failures, locked until, last failure)."""
        self._lock = threading.Lock()

    def _get(self, key: str, now: float) -> tuple[int, float, float]:
        failures, until, last = self._keys.get(key, (0, 0.0, now))
        if failures and now - last > self.forget and now >= until:
            return 0, 0.0, now
        return failures, until, last

    def check(self, keys: list[str]) -> None:
        """Refuse while any of the keys is locked.

        Raises:
            RateLimited: one of the keys is locked now.
        """
        now = self.clock()
        with self._lock:
            wait = max((self._get(k, now)[1] - now for k in keys), default=0.0)
        if wait > 0:
            raise RateLimited(wait)

    def failed(self, keys: list[str]) -> None:
        """Count a wrong code against every key."""
        now = self.clock()
        with self._lock:
            for key in keys:
                failures, until, _ = self._get(key, now)
                failures += 1
                free = self.FREE[key.split(":", 1)[0]]
                if failures > free:
                    until = now + min(self.cap, 2.0 ** (failures - free))
                self._keys[key] = (failures, until, now)

    def succeeded(self, keys: list[str]) -> None:
        """Forget the failures of these keys (a right code)."""
        with self._lock:
            for key in keys:
                self._keys.pop(key, None)
