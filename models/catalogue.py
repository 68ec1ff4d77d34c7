"""The card catalogue: what is known of every card (§15); unknown values are None."""

from typing import Literal

from pydantic import Field, model_validator

from models.cards import AllyCard, ClanCard, LocationCard, RelicCard
from models.common import (
    AllyAbility,
    CardKind,
    Clan,
    ClanEffect,
    Frozen,
    LocationAbility,
    RelicAbility,
)

ID_PATTERN = r"^[A-Za-z0-9_-]{1,24}$"
MAX_ENTRIES = 500
"""Most cards per catalogue section (the game has 63 clan cards; the rest are capped alike)."""

CATALOGUE_VERSION = 2
"""Catalogue format version (2: corrected §15 facts; companion.rules.catalogue.upgrade reads
version 1)."""


class ClanCardEntry(Frozen):
    """A clan card slot: 2 Starting cards and 7 Clan cards per clan."""

    id: str = Field(pattern=ID_PATTERN)
    """Catalogue id: the printed code (BR01) or, for Starting cards, BR-HUNT / BR-READY."""
    clan: Clan
    """Clan."""
    starting: bool = False
    """Hunt and Ready start in hand (§2.6)."""
    name: str | None = Field(default=None, max_length=60)
    """Card name, if known."""
    kind: CardKind | None = None
    """Preparation, Conflict, Aftermath or Passive, if known."""
    power: int | None = Field(default=None, ge=0, le=20)
    """Printed Power, if known."""
    text: str | None = Field(default=None, max_length=300)
    """Effect in the project's own words, if known."""
    effect: ClanEffect | None = None
    """Automated effect."""

    def complete(self) -> bool:
        """Whether the values needed to play it are known."""
        return self.power is not None and self.kind is not None and self.name is not None

    def identity(self) -> ClanCard:
        """The card as played or revealed.

        Raises:
            ValueError: its printed Power is unknown (the user must supply it).
        """
        if self.power is None:
            raise ValueError(f"{self.id}: printed Power unknown; enter it from the card")
        return ClanCard(power=self.power, kind=self.kind, id=self.id, name=self.name,
                        clan=self.clan, effect=self.effect)


class AllyEntry(Frozen):
    """An Ally card; most values are unknown until the user enters them (§15)."""

    id: str = Field(pattern=ID_PATTERN)
    """Catalogue id: the printed code (AL14) or a key for a card whose code is unknown."""
    name: str | None = Field(default=None, max_length=60)
    """Card name, if known."""
    partial_name: str | None = Field(default=None, max_length=60)
    """What the sources show of a name that is cut ('…rah McAleer, Corporate Banker'): the user
    completes it from the card (§15)."""
    kind: Literal["human", "vampire"] | None = None
    """Human or Vampire, if known."""
    influence: int | None = Field(default=None, ge=0, le=10)
    """Influence while active."""
    feed: int | None = Field(default=None, ge=0, le=10)
    """Feed Blood."""
    drain_blood: int | None = Field(default=None, ge=0, le=10)
    """Blood when Drained."""
    drained_influence: int | None = Field(default=None, ge=-5, le=10)
    """Influence once Drained."""
    text: str | None = Field(default=None, max_length=300)
    """Special Ability in the project's own words."""
    ability: AllyAbility | None = None
    """Automated ability."""

    def complete(self) -> bool:
        """Whether every value needed to play it is known."""
        return None not in (self.name, self.kind, self.influence, self.feed, self.drain_blood,
                            self.drained_influence)

    def card(self) -> AllyCard:
        """The Ally as placed at a Location.

        Raises:
            ValueError: a value is unknown (the user must supply it).
        """
        if not self.complete():
            raise ValueError(f"{self.id}: values unknown; enter them from the card")
        return AllyCard(name=self.name, kind=self.kind, influence=self.influence,
                        feed=self.feed, drain_blood=self.drain_blood,
                        drained_influence=self.drained_influence, id=self.id,
                        ability=self.ability)


class RelicEntry(Frozen):
    """A Relic card (§13, §15)."""

    id: str = Field(pattern=ID_PATTERN)
    """Catalogue id."""
    name: str | None = Field(default=None, max_length=60)
    """Card name, if known."""
    influence: int | None = Field(default=None, ge=0, le=10)
    """Influence at game end."""
    text: str | None = Field(default=None, max_length=300)
    """Ability in the project's own words."""
    ability: RelicAbility | None = None
    """Automated ability."""

    def card(self) -> RelicCard:
        """The Relic as drafted.

        Raises:
            ValueError: name or Influence unknown.
        """
        if self.name is None or self.influence is None:
            raise ValueError(f"{self.id}: name or Influence unknown; enter them from the card")
        return RelicCard(name=self.name, influence=self.influence, id=self.id,
                         ability=self.ability)


class LocationCardEntry(Frozen):
    """A Location card (§13, §15)."""

    id: str = Field(pattern=ID_PATTERN)
    """Catalogue id."""
    name: str | None = Field(default=None, max_length=60)
    """Card name, if known."""
    text: str | None = Field(default=None, max_length=300)
    """Ability in the project's own words."""
    ability: LocationAbility | None = None
    """Automated ability."""

    def card(self) -> LocationCard:
        """The Location card as laid out.

        Raises:
            ValueError: name unknown.
        """
        if self.name is None:
            raise ValueError(f"{self.id}: name unknown; enter it from the card")
        return LocationCard(name=self.name, id=self.id, ability=self.ability)


class Catalogue(Frozen):
    """Every card the companion knows of."""

    version: int = Field(default=CATALOGUE_VERSION, ge=1, le=CATALOGUE_VERSION)
    """Catalogue format version (a newer one is refused)."""
    clan_cards: list[ClanCardEntry] = Field(default=[], max_length=MAX_ENTRIES)
    """Clan cards, 9 per clan."""
    allies: list[AllyEntry] = Field(default=[], max_length=MAX_ENTRIES)
    """Ally cards."""
    relics: list[RelicEntry] = Field(default=[], max_length=MAX_ENTRIES)
    """Relic cards."""
    location_cards: list[LocationCardEntry] = Field(default=[], max_length=MAX_ENTRIES)
    """Location cards."""

    @model_validator(mode="after")
    def _unique_ids(self) -> "Catalogue":
        for field in ("clan_cards", "allies", "relics", "location_cards"):
            seen: set[str] = set()
            for entry in getattr(self, field):
                if entry.id in seen:
                    raise ValueError(f"{field}: id {entry.id} appears twice")
                seen.add(entry.id)
        return self
