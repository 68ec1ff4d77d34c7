"""How a game starts: a new table (§2, §13) or an entered position."""

from pydantic import Field, model_validator

from models.cards import AllyCard, ClanCard, LocationCard, RelicCard
from models.common import Clan, Frozen, LocationId, Phase


class PlayerSetup(Frozen):
    """One seat at the table, in clockwise order."""

    name: str = Field(min_length=1, max_length=30)
    """Player's name, unique at the table."""
    team: str | None = Field(default=None, max_length=20)
    """Team name in the tag-team variant."""


class Variants(Frozen):
    """Optional rules in play (§13); 3-player mode follows from the player count."""

    relics: bool = False
    """Relic cards drafted after clans."""
    location_cards: bool = False
    """A Location card on each Location except the Prince's Haven."""
    tag_team: bool = False
    """Two-player teams (4 or 6 players)."""


class GameSetup(Frozen):
    """A new game: seats, variants, seed; optional choices the table already made."""

    players: list[PlayerSetup] = Field(min_length=3, max_length=6)
    """Seats in clockwise order."""
    variants: Variants = Variants()
    """Variants in play."""
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    """Seed of the game's random generator."""

    @model_validator(mode="after")
    def _check(self) -> "GameSetup":
        names = [p.name.strip().casefold() for p in self.players]
        if len(set(names)) != len(names):
            raise ValueError("§2: player names must be unique")
        n = len(self.players)
        teams = [p.team for p in self.players]
        if self.variants.tag_team:
            if n not in (4, 6):
                raise ValueError("§13: tag team needs 4 or 6 players")
            if any(t is None for t in teams):
                raise ValueError("§13: in tag team every player needs a team")
            half = n // 2
            if len(set(teams[:half])) != half or any(
                teams[i] != teams[i + half] for i in range(half)
            ):
                raise ValueError(
                    "§13: teammates must sit opposite each other "
                    "(seats go A1, B1, C1, A2, B2, C2)"
                )
        else:
            if n == 6:
                raise ValueError("§2: 6 players are only possible in tag team")
            if any(t is not None for t in teams):
                raise ValueError("§13: teams are only used in tag team")
        return self

    @property
    def three_player(self) -> bool:
        """3-player mode is automatic with 3 players (§13)."""
        return len(self.players) == 3


def locations_for(n_players: int) -> list[LocationId]:
    """Locations in play by player count (§2)."""
    return ["1", "2", "haven"] if n_players <= 4 else ["1", "2", "3", "haven"]


class PositionCard(Frozen):
    """A Deployed clan card in an entered position."""

    face_up: bool = True
    """Face-down cards have no identity until revealed."""
    card: ClanCard | None = None
    """Identity, required when face up, absent when face down."""
    owner: str | None = None
    """Owner's name when it is not the player whose Position holds it."""


class PositionDeployed(Frozen):
    """What one player has on their Position at one Location."""

    player: str
    """Player's name."""
    cards: list[PositionCard] = []
    """Deployed cards."""
    blood: int = Field(default=0, ge=0, le=60)
    """Deployed Blood."""


class PositionLocation(Frozen):
    """One Location of an entered position."""

    id: LocationId
    """Which Location."""
    ally: AllyCard | None = None
    """The Ally lying there (from Location Setup on)."""
    location_card: LocationCard | None = None
    """Location card (variant)."""
    deployed: list[PositionDeployed] = []
    """Deployed cards and Blood per player."""


class PositionAllianceCard(Frozen):
    """A card of a player's Alliance in an entered position."""

    card: AllyCard
    """Printed values."""
    drained: bool = False
    """Whether it is drained."""


class PositionPlayer(Frozen):
    """One player of an entered position."""

    name: str = Field(min_length=1, max_length=30)
    """Player's name."""
    clan: Clan
    """Chosen clan."""
    team: str | None = None
    """Team (tag team)."""
    blood: int = Field(ge=0, le=200)
    """Blood in Pool."""
    influence: int = Field(ge=0, le=200)
    """Influence tokens in Pool."""
    diablerie_up: int = Field(default=0, ge=0, le=3)
    """Face-up Diablerie tokens."""
    diablerie_down: int = Field(default=0, ge=0, le=3)
    """Face-down Diablerie tokens (flipped this round)."""
    alliance: list[PositionAllianceCard] = []
    """Alliance cards."""
    relic: RelicCard | None = None
    """Relic (variant)."""
    relic_used: bool = False
    """Whether the Relic was used."""
    hand_size: int | None = Field(default=None, ge=0, le=20)
    """Cards in hand; computed from the round and phase when omitted."""
    eliminated: bool = False
    """Out of the game after a third Diablerie (§11)."""


class Position(Frozen):
    """A game entered at the start of a phase, for a table that began without the app."""

    players: list[PositionPlayer] = Field(min_length=3, max_length=6)
    """Players in clockwise seat order."""
    variants: Variants = Variants()
    """Variants in play."""
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    """Seed of the game's random generator."""
    round: int = Field(ge=1, le=3)
    """Current round."""
    phase: Phase
    """Phase about to start (feed … resolution), or game_over to just score."""
    ambition: str
    """Name of the Ambition token holder (first player)."""
    turns_taken: int = Field(default=0, ge=0, le=5)
    """Planning: turns every player has already taken this round."""
    resolution_location: LocationId | None = None
    """Resolution: the Location about to be resolved (earlier ones are done)."""
    locations: list[PositionLocation] = []
    """Locations; omitted ones are empty."""
