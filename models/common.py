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

ClanEffect = Literal["BR01", "BR03", "BR04", "BR07", "GA02", "NO07", "TR05"]
"""Clan card effects the engine automates (§15)."""

AllyAbility = Literal[
    "AL14", "AL30", "win_ties", "frenzy_bonus", "acquire_gain_5", "acquire_gain_3",
    "acquire_gain_per_card", "peek_face_down",
]
"""Ally abilities the engine automates or grants (§15)."""

RelicAbility = Literal["restore_drained", "blood_each_location"]
"""Relic abilities the engine automates (§15)."""

LocationAbility = Literal["succubus_club", "the_collar"]
"""Location card abilities the engine automates (§15)."""

PLANNING_TURNS = {False: {1: 2, 2: 3, 3: 4}, True: {1: 3, 2: 4, 3: 5}}
"""Planning turns per round, normal and 3-player mode (§7, §13)."""

PlayerRef = int | str
"""A player named by seat index (0-based) or by name, in commands."""


class Frozen(BaseModel):
    """Immutable value object that rejects unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict | None = None) -> "Frozen":
        """Immutable: a deep copy can share it (keeps state copies cheap)."""
        return self


def location_name(loc: str) -> str:
    """Readable name of a Location id."""
    return "Prince's Haven" if loc == "haven" else f"Location #{loc}"
