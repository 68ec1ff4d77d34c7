"""Rows of a benchmark table: `figure | value | floor | ratio | goal | met`, printed as measured.

Shared by the benchmark scripts (bench/run_all.py collects them); a goal is a ratio to the
floor measured in the same run (`max_ratio`) and/or a limit on the value (`max_value`).
"""

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

HEADER = ("figure", "value", "floor", "ratio", "goal", "met")


@dataclass(frozen=True)
class Row:
    """One measured figure against its floor and goal."""

    figure: str
    """What was measured."""
    value: float
    """The figure (in `unit`)."""
    unit: str = "ms"
    """ms and MB show one and two decimals, other units as counted."""
    floor: float | None = None
    """The same kind of work done by the simplest thing (measured in the same run)."""
    floor_name: str = ""
    max_ratio: float | None = None
    """Goal: value / floor at most this."""
    max_value: float | None = None
    """Goal: value at most this (in `unit`)."""

    @property
    def ratio(self) -> float | None:
        return self.value / self.floor if self.floor else None

    @property
    def met(self) -> bool | None:
        """Whether every goal is met (None: no goal)."""
        checks = []
        if self.max_ratio is not None and self.ratio is not None:
            checks.append(self.ratio <= self.max_ratio)
        if self.max_value is not None:
            checks.append(self.value <= self.max_value)
        return all(checks) if checks else None

    def cells(self) -> tuple[str, ...]:
        """The row as text cells (HEADER order)."""
        goals = [f"<={self.max_ratio:g}x" if self.max_ratio is not None else "",
                 f"<={self.max_value:g} {self.unit}" if self.max_value is not None else ""]
        num = "{:.2f}" if self.unit == "MB" else "{:.1f}" if self.unit == "ms" else "{:g}"
        floor = (f"{num.format(self.floor)} {self.unit} {self.floor_name}".strip()
                 if self.floor is not None else "")
        ratio = f"{self.ratio:.2f}x" if self.ratio is not None else ""
        met = {None: "", True: "yes", False: "NO"}[self.met]
        return (self.figure, f"{num.format(self.value)} {self.unit}", floor, ratio,
                ", ".join(g for g in goals if g), met)


def show(rows: list[Row]) -> None:
    """Print rows as a `|`-separated table with a header."""
    table = [HEADER, *(r.cells() for r in rows)]
    widths = [max(len(t[i]) for t in table) for i in range(len(HEADER))]
    for t in table:
        print(" | ".join(c.ljust(w) for c, w in zip(t, widths, strict=True)).rstrip(),
              flush=True)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def median(values: list[float]) -> float:
    """The median."""
    return statistics.median(values)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of `fn` over `repeat` calls, in ms."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return statistics.median(out)
