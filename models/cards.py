"""Card identities: clan cards, Allies and Victims, Relics, Location cards (§1, §14, §15)."""

from pydantic import Field

from models.common import (
    AllyAbility,
    AllyKind,
    CardKind,
    Clan,
    ClanEffect,
    Frozen,
    LocationAbility,
    Model,
    RelicAbility,
)


class ClanCard(Frozen):
    """What a face-up clan card is: as much as the table knows of it."""

    power: int = Field(ge=0, le=20)
    """Printed Power."""
    kind: CardKind | None = None
    """Preparation, Conflict, Aftermath or Passive; None when not told."""
    id: str | None = Field(default=None, max_length=24)
    """Catalogue id printed on the card, e.g. BR01."""
    name: str | None = Field(default=None, max_length=60)
    """Card name, e.g. Bloody Fury."""
    clan: Clan | None = None
    """Clan of the card."""
    effect: ClanEffect | None = None
    """Automated effect key from the catalogue (§15), e.g. BR01."""

    def label(self) -> str:
        """Short readable label."""
        name = self.name or (self.id or "card")
        return f"{name} ({self.power})"

    def key(self) -> str | None:
        """What tells this card from its owner's others: catalogue id, else name; None when
        neither is known (§1, §2: each player owns one copy of each of their clan cards)."""
        return self.id or (self.name.strip() if self.name else None)


class AllyCard(Frozen):
    """An Ally or Victim card's printed values (§1)."""

    name: str = Field(min_length=1, max_length=60)
    """Card name."""
    kind: AllyKind
    """Victim, Human or Vampire; draining a Vampire is Diablerie (§9)."""
    influence: int = Field(ge=0, le=10)
    """Influence while active."""
    feed: int = Field(ge=0, le=10)
    """Blood gained at Feed while active."""
    drain_blood: int = Field(ge=0, le=10)
    """Blood gained when Drained."""
    drained_influence: int = Field(ge=-5, le=10)
    """Influence at game end once Drained."""
    id: str | None = Field(default=None, max_length=24)
    """Catalogue id, e.g. AL14."""
    ability: AllyAbility | None = None
    """Automated ability key from the catalogue (§15), e.g. win_ties."""

    def key(self) -> str | None:
        """What tells this Ally from the others: catalogue id, else name; None for a Victim, as
        all Victims are alike (§1: each Ally exists once)."""
        return None if self.kind == "victim" else (self.id or self.name.strip())


VICTIM = AllyCard(name="Victim", kind="victim", influence=1, feed=1, drain_blood=3,
                  drained_influence=0, id="VICTIM")
"""Every Victim card has these values (§1)."""


class AllianceCard(Model):
    """A card in a player's Alliance, active or drained."""

    uid: str
    """Id of this copy within the game."""
    card: AllyCard
    """Its printed values."""
    drained: bool = False
    """Drained cards count their drained Influence and lose their ability (§9)."""

    def influence(self) -> int:
        """Influence this card is worth now (§12)."""
        return self.card.drained_influence if self.drained else self.card.influence


class RelicCard(Frozen):
    """A Relic (§13); its effect text is applied by the referee."""

    name: str = Field(min_length=1, max_length=60)
    """Card name."""
    influence: int = Field(ge=0, le=10)
    """Influence at game end, used or not."""
    id: str | None = Field(default=None, max_length=24)
    """Catalogue id."""
    ability: RelicAbility | None = None
    """Automated ability key from the catalogue (§15)."""


class LocationCard(Frozen):
    """A Location card (§13 variant)."""

    name: str = Field(min_length=1, max_length=60)
    """Card name, e.g. Succubus Club."""
    id: str | None = Field(default=None, max_length=24)
    """Catalogue id."""
    ability: LocationAbility | None = None
    """Automated ability key from the catalogue (§15)."""
