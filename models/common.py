"""Fixed vocabularies of the game (§1–§8), as Literal aliases."""

from typing import Literal

from pydantic import BaseModel, ConfigDict

SCHEMA_VERSION = 1
"""Version of the event and state schema written by this release."""

Clan = Literal["Brujah", "Gangrel", "Malkavian", "Nosferatu", "Toreador", "Tremere", "Ventrue"]
CLANS: tuple[Clan, ...] = (
    "Brujah", "Gangrel", "Malkavian", "Nosferatu", "Toreador", "Tremere", "Ventrue",
)

LocationId = Literal["1", "2", "3", "haven"]
"""Location tiles; the Prince's Haven is always last (§1, §2)."""

Phase = Literal[
    "setup", "feed", "location_setup", "hand_building", "planning", "resolution", "game_over"
]
ROUND_PHASES: tuple[Phase, ...] = (
    "feed", "location_setup", "hand_building", "planning", "resolution",
)

Step = Literal["withdraw", "revelation", "preparation", "conflict", "aftermath"]
STEPS: tuple[Step, ...] = ("withdraw", "revelation", "preparation", "conflict", "aftermath")

CardKind = Literal["preparation", "conflict", "aftermath", "passive"]
"""Active cards act in their Resolution step; Passive ones on a condition while face up."""

AllyKind = Literal["victim", "human", "vampire"]

PlayerRef = int | str
"""A player named by seat index (0-based) or by name, in commands."""


class Frozen(BaseModel):
    """Immutable value object that rejects unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def location_name(loc: str) -> str:
    """Readable name of a Location id."""
    return "Prince's Haven" if loc == "haven" else f"Location #{loc}"
