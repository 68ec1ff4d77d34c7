"""One writer per data folder: an OS file lock (filelock) plus a note saying who holds it.

The lock is `<data_dir>/.lock`, held for as long as the writing process keeps its store open.
The OS releases it when that process ends, however it ends (a SIGKILL included), so a stale
lock never needs breaking by hand. Beside it, `owner.json` records the holder's pid, host, start
time, role and address, so a second process can say where the running app is. The note is
written only by the lock holder and read only to explain a refusal.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import filelock

from .files import atomic_write_bytes, dumps
from .records import FolderBusy, FolderUnavailable, describe_os_error

LOCK_NAME = ".lock"
OWNER_NAME = "owner.json"


def read_owner(data_dir: Path) -> dict[str, Any] | None:
    """The note left by the folder's current (or last) holder; None if missing or unreadable."""
    try:
        raw = (data_dir / OWNER_NAME).read_bytes()[:4096]
        note = json.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None
    return note if isinstance(note, dict) else None


def describe_owner(note: dict[str, Any] | None) -> str:
    """One line saying which process holds a folder, from its note."""
    if not note:
        return "another process"
    role = str(note.get("role") or "another process")[:60]
    where = f" at {note['address']}" if note.get("address") else ""
    host = str(note.get("host") or "?")[:80]
    since = str(note.get("started") or "?")[:25]
    return f"the {role}{where} (pid {note.get('pid', '?')} on {host}, since {since})"


class FolderLock:
    """The exclusive right to write in a data folder, for one process.

    Raises (from the constructor): FolderBusy if another process (or another store of this
    process) holds it after `wait` seconds; FolderUnavailable if the lock file cannot be made.
    """

    def __init__(self, data_dir: Path, role: str = "app", address: str | None = None,
                 wait: float = 0.0) -> None:
        self.data_dir = data_dir
        self._lock = filelock.FileLock(data_dir / LOCK_NAME, thread_local=False)
        try:
            self._lock.acquire(timeout=wait, poll_interval=0.05)
        except filelock.Timeout:
            holder = describe_owner(read_owner(data_dir))
            raise FolderBusy(f"the data folder {data_dir} is in use by {holder}",
                             read_owner(data_dir)) from None
        except OSError as exc:
            raise FolderUnavailable(f"cannot write in the data folder {data_dir}: "
                                    f"{describe_os_error(exc, with_file=False)}") from None
        self.note = {"pid": os.getpid(), "host": socket.gethostname(), "role": role,
                     "address": address,
                     "started": datetime.now(UTC).isoformat(timespec="seconds")}
        try:
            atomic_write_bytes(data_dir / OWNER_NAME, dumps(self.note).encode())
        except OSError:
            pass  # only an explanation for others; the lock itself is what protects

    @property
    def held(self) -> bool:
        """Whether this process still holds the folder."""
        return self._lock.is_locked

    def release(self) -> None:
        """Give the folder up (idempotent); the note is removed first."""
        if not self._lock.is_locked:
            return
        if read_owner(self.data_dir) == self.note:
            try:
                (self.data_dir / OWNER_NAME).unlink()
            except OSError:
                pass
        self._lock.release(force=True)
