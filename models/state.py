"""The state of a game at one moment: the fold of its events (§1–§13)."""

from typing import Literal

from models.cards import AllianceCard, AllyCard, ClanCard, LocationCard, RelicCard
from models.common import Clan, Frozen, LocationId, Model, Phase, Step, copy_model
from models.said import SaidData, SaidText
from models.setup import Variants


class PowerModifier(Frozen):
    """A change to one Deployed card's Power, with its source (§8.4)."""

    kind: Literal["add", "halve_printed"]
    """Add `amount`, or halve the printed Power (round down)."""
    amount: int = 0
    """Amount added (negative to reduce)."""
    source: SaidData
    """What caused it, e.g. 'Bloody Fury (BR01)', kept as a message (`models.said`)."""


class DeployedCard(Model):
    """A clan card on a Position (§7)."""

    uid: str
    """Id of this card within the game."""
    owner: int
    """Seat of the player who owns it."""
    face_up: bool
    """Face-down cards have 0 Power and no effect (§8.2)."""
    card: ClanCard | None = None
    """Identity; None while face down and not yet revealed."""
    modifiers: list[PowerModifier] = []
    """Power modifiers applied this Resolution."""


class PositionState(Model):
    """One player's Position at one Location."""

    cards: list[DeployedCard] = []
    """Deployed cards."""
    blood: int = 0
    """Deployed Blood."""

    def present(self) -> bool:
        """Whether the player is 'at' the Location (§8.1)."""
        return bool(self.cards) or self.blood > 0


class ConflictResult(Frozen):
    """The outcome of a Location's Conflict (§8.4)."""

    totals: dict[int, int]
    """Total Power per ranked player."""
    ranking: list[int]
    """Ranked players, best first (ties by turn order)."""
    outcome: Literal["contested", "uncontested", "no_cards"]
    """Several players with cards, exactly one, or none."""


class LocationState(Model):
    """A Location tile and what lies there."""

    id: LocationId
    """Which Location."""
    ally: AllyCard | None = None
    """The Ally to be won."""
    location_card: LocationCard | None = None
    """Location card (variant)."""
    positions: list[PositionState]
    """One Position per seat."""
    withdrawn: list[int] = []
    """Players who withdrew from here this round."""
    card_players: list[int] | None = None
    """Players who had clan cards here when the Withdraw step ended: 'only one player has
    cards' is judged on them (§8.4); None until then."""
    result: ConflictResult | None = None
    """Conflict outcome, once determined."""
    tie_notes: list[SaidText] = []
    """How ties in the Conflict ranking were broken, said plainly (§1, §8.4, §15), kept as
    messages (`models.said`)."""


class PlayerState(Model):
    """Everything public about one player."""

    name: str
    """Player's name."""
    team: str | None = None
    """Team (tag team)."""
    clan: Clan | None = None
    """Chosen clan."""
    blood: int = 6
    """Blood in Pool (§2: 6)."""
    influence: int = 3
    """Influence tokens in Pool (§2: 3)."""
    diablerie_up: int = 0
    """Face-up Diablerie tokens."""
    diablerie_down: int = 0
    """Diablerie tokens flipped face down this round (§9)."""
    alliance: list[AllianceCard] = []
    """Alliance cards, active and drained."""
    relic: RelicCard | None = None
    """Relic (variant)."""
    relic_used: bool = False
    """Relic flipped after use."""
    hand_size: int = 2
    """Cards in hand (Hunt and Ready at the start)."""
    eliminated: bool = False
    """Out after a third Diablerie (§11)."""
    frenzies: int = 0
    """Times this player entered Frenzy."""

    @property
    def diablerie(self) -> int:
        """Diablerie tokens held, face up or down."""
        return self.diablerie_up + self.diablerie_down


class SetupState(Model):
    """Progress of the table setup (§2, §13)."""

    clans_offered: list[Clan] | None = None
    """Clan sheets drawn for picking; None = free choice."""
    relics_offered: list[RelicCard] | None = None
    """Relics drawn for the draft."""
    relics_taken: list[int] = []
    """Indexes of drafted Relics."""
    location_cards_done: bool = False
    """Location cards placed (variant)."""


class GameState(Model):
    """The whole public state of a game."""

    schema_version: int
    """Schema version of the events it was folded from."""
    seed: int
    """Seed of the random generator."""
    variants: Variants
    """Variants in play."""
    three_player: bool
    """3-player mode (§13)."""
    players: list[PlayerState]
    """Players in clockwise seat order."""
    locations: list[LocationState]
    """Locations in resolution order, Prince's Haven last."""
    ambition: int | None = None
    """Seat holding the Ambition token (first player)."""
    round: int = 0
    """Current round, 1–3 (0 during setup)."""
    phase: Phase = "setup"
    """Current phase."""
    setup: SetupState = SetupState()
    """Setup progress."""
    turns_taken: list[int] = []
    """Planning turns each player took this round."""
    location_index: int = 0
    """Resolution: index of the Location being resolved."""
    step: Step | None = None
    """Resolution: current step."""
    resolved_effects: list[str] = []
    """Resolution: cards whose effect was resolved in the current step."""
    awaiting: Literal["take_back_blood"] | None = None
    """Resolution: an after-Location choice is awaited (Succubus Club, §15)."""
    events: int = 0
    """Number of events folded so far."""
    haven_winners: list[int | None] = []
    """Winner of the Prince's Haven in each round resolved so far (None: nobody won it)."""
    scoreboard: "Scoreboard | None" = None
    """Final scores once the game is over (§12)."""

    @property
    def location(self) -> LocationState | None:
        """The Location being resolved, during Resolution."""
        if self.phase != "resolution":
            return None
        return self.locations[self.location_index]


class InfluenceBreakdown(Frozen):
    """Where a player's final Influence comes from (§12)."""

    active_cards: int
    """Influence of active Alliance cards."""
    drained_cards: int
    """Drained Influence of drained cards."""
    tokens: int
    """Influence tokens in Pool."""
    relic: int
    """Relic Influence (variant)."""
    diablerie: int
    """Minus 1 per Diablerie token."""
    total: int
    """Final Influence."""


class ScoreRow(Frozen):
    """One line of the final scoreboard."""

    rank: int
    """1 = winner."""
    player: int
    """Seat."""
    name: str
    """Player's name."""
    clan: Clan | None
    """Clan."""
    influence: InfluenceBreakdown
    """Final Influence and its parts."""
    blood: int
    """Blood in Pool (first tie-break)."""
    turn_position: int
    """Place in turn order at the end (last tie-break), 1 = Ambition holder."""
    eliminated: bool
    """Eliminated players rank below all others (§11)."""
    tiebreak: SaidText | None = None
    """How a tie with the player above or below was broken, kept as a message
    (`models.said`)."""


class TeamRow(Frozen):
    """One team's line in tag team (§12)."""

    rank: int
    """1 = winning team."""
    team: str
    """Team name."""
    players: list[int]
    """Seats."""
    influence: int
    """Team Influence."""
    blood: int
    """Team Blood."""
    tiebreak: SaidText | None = None
    """How a tie was broken, kept as a message (`models.said`)."""


class Scoreboard(Frozen):
    """Final standings (§12)."""

    rows: list[ScoreRow]
    """Players, best first."""
    teams: list[TeamRow] | None = None
    """Teams, best first (tag team)."""
    winner: str
    """Best player's name (first row)."""
    winning_team: str | None = None
    """Tag team: the winning team's name (§12); None otherwise."""

    def __repr__(self) -> str:
        return f"Scoreboard(winner={self.winner!r}, winning_team={self.winning_team!r})"

    def headline(self) -> str:
        """Who wins the game: the team in tag team, else the best player."""
        return f"Team {self.winning_team}" if self.winning_team else self.winner


GameState.model_rebuild()


def copy_state(state: GameState) -> GameState:
    """A copy of a state to change: its mutable parts copied, its frozen values shared."""
    return copy_model(state)
