"""Fixed vocabularies of the game (§1–§8), as Literal aliases."""

import typing
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

SCHEMA_VERSION = 4
"""Version of the game documents written by this release (2: corrected card facts of
§15; 3: clock entries in the journal; 4: the header and summary say which game it is;
older documents are migrated by companion.storage.transfer)."""

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
    "AL14", "drained_in_frenzy", "win_ties", "frenzy_bonus", "acquire_gain_5", "acquire_gain_3",
    "acquire_gain_per_card", "peek_face_down",
]
"""Ally abilities the engine automates or grants (§15). AL14 is a printed code; the other Allies'
codes are not in the sources, so their keys say what the ability does."""

RelicAbility = Literal["restore_drained", "blood_each_location"]
"""Relic abilities the engine automates (§15)."""

LocationAbility = Literal["succubus_club", "the_collar"]
"""Location card abilities the engine automates (§15)."""

PLANNING_TURNS = {False: {1: 2, 2: 3, 3: 4}, True: {1: 3, 2: 4, 3: 5}}
"""Planning turns per round, normal and 3-player mode (§7, §13)."""

PlayerRef = int | str
"""A player named by seat index (0-based) or by name, in commands."""


MAX_TEXT = 500
"""Longest string any model accepts where a field sets no tighter limit."""

DEFERRED = ConfigDict(defer_build=True)
"""Config of the models and type adapters: validators are built on first use, not at import
(starting the app builds only what its first page needs)."""


class Frozen(BaseModel):
    """Immutable value object that rejects unknown fields and over-long strings."""

    model_config = ConfigDict(DEFERRED, frozen=True, extra="forbid", str_max_length=MAX_TEXT)

    def __deepcopy__(self, memo: dict | None = None) -> "Frozen":
        """Immutable: a deep copy can share it (keeps state copies cheap)."""
        return self


class Model(BaseModel):
    """Mutable state node (a game state and its parts); copied with `copy_model`."""

    model_config = ConfigDict(DEFERRED, extra="forbid", validate_assignment=False,
                              str_max_length=MAX_TEXT)

    def __deepcopy__(self, memo: dict | None = None) -> "Model":
        """Same as `copy_model` (so `model_copy(deep=True)` is cheap too)."""
        return copy_model(self)


M = TypeVar("M", bound=Model)
_setattr = object.__setattr__
_MUTABLE_FIELDS: dict[type, tuple[str, ...]] = {}
_ATOMS = frozenset({str, int, float, bool, type(None)})


def copy_model(model: M) -> M:
    """Deep copy of a mutable model that shares its frozen values: only the `Model` nodes and
    the lists and dicts that hold them or can change are copied (the one state copy: undo
    snapshots, the engine's private working state, `apply`)."""
    cls = type(model)
    fields = _MUTABLE_FIELDS.get(cls)
    if fields is None:
        fields = _MUTABLE_FIELDS[cls] = tuple(
            name for name, f in cls.model_fields.items() if _can_change(f.annotation))
    new = cls.__new__(cls)
    values = model.__dict__.copy()
    for name in fields:
        value = values[name]
        if value is not None:
            values[name] = _copy_value(value)
    _setattr(new, "__dict__", values)
    _setattr(new, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    _setattr(new, "__pydantic_extra__", None)
    _setattr(new, "__pydantic_private__", None)
    return new


def _copy_value(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [v if type(v) in _ATOMS else _copy_value(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copy_value(v) for k, v in value.items()}
    if kind in _MUTABLE_FIELDS or isinstance(value, Model):
        return copy_model(value)
    return value  # immutable: atoms, tuples, Frozen models


def _can_change(annotation: Any) -> bool:
    """Whether a field of this type can hold a mutable value (list, dict, set, Model)."""
    if isinstance(annotation, type):
        return issubclass(annotation, list | dict | set | Model) or (
            issubclass(annotation, BaseModel) and not annotation.model_config.get("frozen"))
    if typing.get_origin(annotation) in (list, dict, set):
        return True
    return any(_can_change(arg) for arg in typing.get_args(annotation))


def location_name(loc: str) -> str:
    """Readable name of a Location id."""
    return "Prince's Haven" if loc == "haven" else f"Location #{loc}"
