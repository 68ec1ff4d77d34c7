"""Builders of plain game documents for the storage tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from companion.storage import CURRENT_SCHEMA_VERSION, GAME_FORMAT

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def stamp(minutes: int) -> str:
    """An ISO UTC time `minutes` after T0."""
    return (T0 + timedelta(minutes=minutes)).isoformat()


def header(game_id: str, minutes: int = 0) -> dict[str, Any]:
    """A minimal current-schema header."""
    return {"game_id": game_id, "schema_version": CURRENT_SCHEMA_VERSION,
            "created": stamp(minutes), "setup": {"players": ["Ann", "Bo", "Cy", "Di"]}}


def summary(minutes: int = 0, rnd: int = 1, finished: bool = False) -> dict[str, Any]:
    """A summary as the engine would write it."""
    return {"players": ["Ann", "Bo", "Cy", "Di"], "clans": ["Brujah", "Toreador"],
            "round": rnd, "winner": "Ann" if finished else None,
            "scores": {"Ann": 9, "Bo": 4} if finished else {}, "finished": finished,
            "created": stamp(0), "updated": stamp(minutes)}


def entry(i: int) -> dict[str, Any]:
    """A distinct action entry."""
    return {"kind": "action", "command": {"type": "Feed", "player": i % 4, "n": i},
            "events": [{"type": "BloodChanged", "player": i % 4, "delta": i % 7}]}


def game_doc(game_id: str, n_entries: int = 5, finished: bool = True) -> dict[str, Any]:
    """A complete export document."""
    return {"format": GAME_FORMAT, "schema_version": CURRENT_SCHEMA_VERSION,
            "header": header(game_id), "entries": [entry(i) for i in range(n_entries)],
            "summary": summary(n_entries, 3, finished)}
