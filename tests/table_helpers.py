"""Builders for the table-mode tests: a hub on real files, devices, positions."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub, new_device_token
from companion.table.table import Table
from models.cards import VICTIM
from models.setup import Position

CLANS = ["Brujah", "Gangrel", "Nosferatu", "Tremere", "Ventrue", "Toreador"]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


class Clock:
    """A settable clock for the rate limiter."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_hub(folder: Path, clock: Clock | None = None) -> TableHub:
    """A hub on a real data folder."""
    return TableHub(TinyDBGameStore(folder), clock=clock or Clock())


def plain(power: int, kind: str = "conflict", **extra: Any) -> dict[str, Any]:
    """A face-up clan card identity."""
    return {"power": power, "kind": kind, **extra}


DOWN = {"face_up": False}
"""A face-down card in `position`."""


def ally(ability: str | None = None, **values: Any) -> dict[str, Any]:
    """An Ally's values."""
    return {"name": f"Ally {ability or 'plain'}", "kind": "human", "influence": 2, "feed": 1,
            "drain_blood": 2, "drained_influence": 1, "ability": ability, **values}


def position(n: int = 3, deployed: dict | None = None, *, phase: str = "resolution",
             players: list[dict] | None = None, location_cards: dict | None = None,
             **extra: Any) -> Position:
    """A position of `n` players (Ann first); `deployed` maps location → name → (cards, blood),
    a card being `plain(...)` or `DOWN`."""
    base = players or [{} for _ in range(n)]
    full = [{"name": NAMES[i], "clan": CLANS[i], "blood": 6, "influence": 3,
             "alliance": [{"card": VICTIM.model_dump()}], **p} for i, p in enumerate(base)]
    ids = ["1", "2", "haven"] if len(full) <= 4 else ["1", "2", "3", "haven"]
    locs = []
    for loc_id in ids:
        dep = (deployed or {}).get(loc_id, {})
        locs.append({"id": loc_id, "ally": ally(name=f"Prize {loc_id}"),
                     "location_card": (location_cards or {}).get(loc_id),
                     "deployed": [{"player": who, "blood": blood, "cards": [
                         c if "face_up" in c else {"face_up": True, "card": c} for c in cards]}
                         for who, (cards, blood) in dep.items()]})
    variants = {"location_cards": bool(location_cards),
                "relics": any("relic" in p for p in base)}
    return Position.model_validate({"players": full, "round": 1, "phase": phase,
                                    "ambition": "Ann", "locations": locs,
                                    "variants": variants, **extra})


class Devices:
    """Named device tokens: `dev.ann`, `dev.ref`, `dev.board`..."""

    def __init__(self) -> None:
        self._tokens: dict[str, str] = {}

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._tokens.setdefault(name, new_device_token())


def seated(table: Table, dev: Devices, *, board: bool = True) -> None:
    """The referee (dev.ref), a seat per player (dev.ann, dev.bo...) and a board (dev.board)."""
    table.claim_referee(dev.ref, table.referee_code)
    for i, p in enumerate(table.game.state.players):
        table.claim_seat(getattr(dev, p.name.lower()), i, table.seat_code(i))
    if board:
        table.join_board(dev.board, table.join_code)


def journal_length(table: Table) -> int:
    """Entries stored for the table's game."""
    return len(table._hub.store.load(table.game_id).entries)


def record_file(table: Table) -> Path:
    """The table's stored record."""
    return table._hub.tables_dir / f"{table.game_id}.json"


def snapshot(table: Table) -> tuple[Any, ...]:
    """Everything a refusal must leave untouched: game, journal, version, record on disk."""
    return (table.game.state.model_dump(), len(table.game.actions), journal_length(table),
            table.version, json.loads(record_file(table).read_text()))


@contextmanager
def unchanged(table: Table):
    """Assert the block leaves the table exactly as it was."""
    before = snapshot(table)
    yield
    assert snapshot(table) == before
