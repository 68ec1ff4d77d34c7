"""Low-level file primitives: atomic replace, fsync'd JSON-lines journals, a TinyDB storage."""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

TMP_SUFFIX = ".tmp"
JOURNAL_SUFFIX = ".jsonl"


class JournalDamaged(ValueError):
    """A journal file cannot be read (not a torn last line: real damage)."""


def dumps(value: Any) -> str:
    """Compact strict JSON (no NaN), one line."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def fsync_dir(path: Path) -> None:
    """Make a rename/creation/deletion in directory `path` durable (no-op where unsupported)."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` atomically: temp file in the same folder, fsync, rename.

    Raises: OSError on write failure (the old file is then untouched).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}")
    try:
        with tmp.open("wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def write_synced(path: Path, data: bytes) -> None:
    """Write a new file and fsync it (no rename: for private staging folders, made durable as a
    whole by one `fsync_dir` afterwards).

    Raises: OSError.
    """
    with path.open("xb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def remove_temp_files(folder: Path) -> None:
    """Delete temp files orphaned in `folder` by a write that was killed."""
    for path in folder.glob(f".*{TMP_SUFFIX}"):
        path.unlink(missing_ok=True)


def remove_entry(path: Path) -> None:
    """Delete a file of a derived folder; a folder found in its place is garbage and is
    removed whole.

    Raises: OSError.
    """
    try:
        path.unlink(missing_ok=True)
    except OSError:
        if not path.is_dir() or path.is_symlink():
            raise
        shutil.rmtree(path)


def move_aside(path: Path) -> Path | None:
    """Rename a damaged file to `<name>.damaged-<UTC time>`; return it (None if that failed)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    try:
        os.replace(path, target)
        fsync_dir(path.parent)
    except OSError:
        return None
    return target


# --- journals: line 0 = {"header", "summary"}, then {"entry"[, "summary"]} per entry ---


def journal_bytes(header: dict, entries: list[dict], summary: dict) -> bytes:
    """Serialize a whole game as journal lines."""
    lines = [dumps({"header": header, "summary": summary})]
    lines.extend(dumps({"entry": entry}) for entry in entries)
    return ("\n".join(lines) + "\n").encode()


def _confirmed_lines(path: Path) -> list[bytes]:
    """A journal's complete lines (the part after the last newline, b"" or a torn,
    unconfirmed line, is dropped).

    Raises: FileNotFoundError; JournalDamaged if the file cannot be read.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise JournalDamaged(f"cannot read journal: {exc}") from None
    lines = data.split(b"\n")
    lines.pop()
    return lines


def read_journal(path: Path) -> tuple[dict, list[dict], dict]:
    """Read a journal: (header, entries, latest summary). A torn last line is dropped.

    Raises: FileNotFoundError; JournalDamaged if any complete line is unreadable.
    """
    lines = _confirmed_lines(path)
    if not lines:
        raise JournalDamaged("empty journal")
    try:
        first = json.loads(lines[0])
        header, summary = first["header"], first["summary"]
        if not isinstance(header, dict) or not isinstance(summary, dict):
            raise ValueError("header and summary must be objects")
        entries: list[dict] = []
        for number, line in enumerate(lines[1:], start=2):
            record = json.loads(line)
            entry = record["entry"]
            if not isinstance(entry, dict):
                raise ValueError(f"line {number}: entry must be an object")
            entries.append(entry)
            if "summary" in record:
                summary = record["summary"]
                if not isinstance(summary, dict):
                    raise ValueError(f"line {number}: summary must be an object")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise JournalDamaged(f"unreadable journal: {exc!r}"[:300]) from None
    return header, entries, summary


def latest_summary(path: Path) -> dict:
    """A journal's latest summary, parsing lines from the end only until one has a summary
    (the rest of the journal is not checked: `read_journal` does that).

    Raises: FileNotFoundError; JournalDamaged if a line read is unreadable.
    """
    lines = _confirmed_lines(path)
    try:
        for line in reversed(lines):
            record = json.loads(line)
            if isinstance(record, dict) and "summary" in record:
                if not isinstance(record["summary"], dict):
                    raise ValueError("summary must be an object")
                return record["summary"]
    except (ValueError, RecursionError) as exc:
        raise JournalDamaged(f"unreadable journal: {exc!r}"[:300]) from None
    raise JournalDamaged("no summary in the journal")


def repair_tail(path: Path) -> None:
    """Cut a torn (newline-less) last line off a journal so the next append starts clean.

    Raises: FileNotFoundError; OSError.
    """
    with path.open("rb+") as fh:
        size = fh.seek(0, os.SEEK_END)
        if size == 0:
            return
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        end = size
        while end > 0:
            start = max(0, end - 65536)
            fh.seek(start)
            chunk = fh.read(end - start)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                fh.truncate(start + cut + 1)
                break
            end = start
        else:
            fh.truncate(0)
        fh.flush()
        os.fsync(fh.fileno())


def append_line(path: Path, line: bytes) -> None:
    """Append one line to an existing file and fsync before returning; on failure, cut the
    file back to its old size.

    Raises: FileNotFoundError if the file does not exist; OSError.
    """
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
    try:
        size = os.fstat(fd).st_size
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except BaseException:
            try:  # leave the file as it was, so the same line can be retried
                os.ftruncate(fd, size)
            except OSError:
                pass  # the torn line is cut off before the next append instead
            raise
    finally:
        os.close(fd)


class AtomicJSONStorage(Storage):
    """TinyDB storage: reads once and caches; each write atomically replaces the file.

    Use `batch()` to turn several TinyDB operations into a single file write.
    """

    def __init__(self, path: str | Path, **_: Any) -> None:
        self.path = Path(path)
        self._data: dict[str, Any] | None = None
        self._loaded = False
        self._batch_depth = 0
        self._pending = False

    def read(self) -> dict[str, Any] | None:
        """Return the database (None if empty).

        Raises: ValueError if the file is not a JSON object.
        """
        if not self._loaded:
            try:
                raw = self.path.read_bytes()
            except FileNotFoundError:
                raw = b""
            data = json.loads(raw) if raw.strip() else None
            if data is not None and not isinstance(data, dict):
                raise ValueError("index is not a JSON object")
            self._data, self._loaded = data, True
        return self._data

    def write(self, data: dict[str, Any]) -> None:
        """Store `data` (deferred to the end of a batch)."""
        self._data, self._loaded = data, True
        if self._batch_depth:
            self._pending = True
        else:
            atomic_write_bytes(self.path, dumps(data).encode())

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Collect writes and write the file once at the end (not at all on error)."""
        self._batch_depth += 1
        try:
            yield
        except BaseException:
            self._pending, self._loaded = False, False
            raise
        finally:
            self._batch_depth -= 1
        if self._batch_depth == 0 and self._pending:
            self._pending = False
            atomic_write_bytes(self.path, dumps(self._data).encode())

    def forget(self) -> None:
        """Drop the cache (e.g. after the file was moved aside)."""
        self._data, self._loaded, self._pending = None, False, False
