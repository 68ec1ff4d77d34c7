"""The game clock: how long a game has been played, in all and per round.

The clock runs while a game is open at a table and stops when the app closes. A game's journal
records it with clock entries, `{"kind": "clock", "running": true|false, "at": <ISO time>}`,
written when a table opens or closes the game; replay ignores them (they change no state).

Played time is the sum of the running intervals, cut off when the game ends. An interval that
was never stopped (the app was killed) ends at the last time the game showed signs of life: its
last action or clock entry before the clock started again. Round boundaries are the times of
the actions that began each round; round 0 is the setup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

CLOCK_KIND = "clock"
"""Journal entry kind of a clock mark."""


def now_utc() -> datetime:
    """The current time (UTC, whole seconds)."""
    return datetime.now(UTC).replace(microsecond=0)


def parse_time(value: object, where: str = "at") -> datetime:
    """An ISO date-time string as an aware datetime (naive means UTC).

    Raises:
        ValueError: not an ISO date-time string (names `where`).
    """
    if not isinstance(value, str):
        raise ValueError(f"{where} must be an ISO date-time string")
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{where}: {value[:40]!r} is not an ISO date-time") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


@dataclass(frozen=True)
class ClockMark:
    """The clock started (`running`) or stopped at a moment."""

    running: bool
    at: datetime

    def entry(self) -> dict[str, Any]:
        """The journal entry of this mark."""
        return {"kind": CLOCK_KIND, "running": self.running,
                "at": self.at.isoformat(timespec="seconds")}

    @classmethod
    def from_entry(cls, entry: dict[str, Any]) -> ClockMark:
        """Read a clock journal entry.

        Raises:
            ValueError: `running` is not true/false or `at` is not an ISO date-time.
        """
        running = entry.get("running")
        if not isinstance(running, bool):
            raise ValueError("running must be true or false")
        return cls(running, parse_time(entry.get("at")))


@dataclass(frozen=True)
class GameTime:
    """How long a game has been played."""

    seconds: int
    """Played time in all."""
    rounds: list[int] = field(default_factory=list)
    """Played time per round: index 0 is the setup, then rounds 1, 2, 3."""
    running: bool = False
    """Whether the clock runs now."""

    def summary(self) -> dict[str, Any]:
        """The history-index form: {"seconds", "rounds"}."""
        return {"seconds": self.seconds, "rounds": list(self.rounds)}


def intervals(marks: Sequence[ClockMark], signs_of_life: Iterable[datetime],
              until: datetime | None) -> list[tuple[datetime, datetime]]:
    """The running intervals of a clock, in journal order.

    `signs_of_life` are the times the game is known to have been open (its actions); an
    interval never stopped ends at the last of them (or of its own start) before the next
    start; the last one ends at `until` (None: at the last sign of life).
    """
    life = sorted(signs_of_life)
    out: list[tuple[datetime, datetime]] = []
    start: datetime | None = None

    def last_alive(after: datetime, before: datetime | None) -> datetime:
        seen = [t for t in life if t >= after and (before is None or t <= before)]
        return max(seen, default=after)

    for mark in marks:
        if mark.running:
            if start is not None:  # never stopped: the app was killed
                out.append((start, last_alive(start, mark.at)))
            start = mark.at
        elif start is not None:
            out.append((start, max(start, mark.at)))
            start = None
    if start is not None:
        out.append((start, max(start, until) if until else last_alive(start, None)))
    return out


def played(marks: Sequence[ClockMark], action_times: Sequence[tuple[datetime, int]],
           ended: datetime | None, now: datetime | None, first_round: int = 0) -> GameTime:
    """Played time of a game, in all and per round.

    `action_times` are (time, round after the action) of the game's actions, in order;
    `first_round` is the round at its start (0: setup; more for an entered position);
    `ended` is when the game ended (None while it goes on); `now` ends a running clock.
    """
    running = bool(marks) and marks[-1].running and ended is None
    until = ended if ended is not None else (now if running else None)
    spans = intervals(marks, (t for t, _ in action_times), until)
    if ended is not None:
        spans = [(a, min(b, ended)) for a, b in spans if a < ended]
    starts: list[tuple[datetime, int]] = []  # (time a round began, round)
    current = first_round
    for when, rnd in action_times:
        if rnd != current:
            starts.append((when, rnd))
            current = rnd
    rounds = [0] * (max([first_round, *(r for _, r in starts)]) + 1)
    edges = [(datetime.min.replace(tzinfo=UTC), first_round), *starts]
    for a, b in spans:
        for i, (begin, rnd) in enumerate(edges):
            end = edges[i + 1][0] if i + 1 < len(edges) else None
            lo, hi = max(a, begin), min(b, end) if end else b
            if hi > lo:
                rounds[rnd] += int((hi - lo).total_seconds())
    total = sum(int((b - a).total_seconds()) for a, b in spans)
    return GameTime(seconds=total, rounds=rounds, running=running)


def clock_text(seconds: int) -> str:
    """'0:07', '12:05', '1:02:09': minutes and seconds, hours when there are any."""
    seconds = max(0, int(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def length_text(seconds: int) -> str:
    """'45 min', '1 h 05 min' (rounded to the minute; under a minute: '< 1 min')."""
    minutes = round(max(0, seconds) / 60)
    if minutes == 0:
        return "< 1 min"
    h, m = divmod(minutes, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"
