"""Events: the append-only facts a game is folded from. One small frozen model per kind."""

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, FieldSerializationInfo, TypeAdapter, field_serializer

from models.cards import AllianceCard, AllyCard, ClanCard, LocationCard, RelicCard
from models.common import DEFERRED, Clan, Frozen, LocationId, Phase, Step
from models.said import Said, SaidData
from models.setup import PlayerSetup, Position, Variants
from models.state import ConflictResult, PowerModifier, Scoreboard

BloodKind = Literal["gain", "lose", "spend", "steal", "feed", "drain", "frenzy", "return"]
"""Why a Pool's Blood changed (§14 keywords, plus rule-driven moves)."""


def _at_most(n: int) -> Callable[[Said], Said]:
    """A check that kept words read as at most `n` characters."""

    def check(text: Said) -> Said:
        if len(text) > n:
            raise ValueError(f"at most {n} characters, not {len(text)}")
        return text

    return check


class Event(Frozen):
    """Base of every event."""

    v: Literal[1] = 1
    """Event schema version."""


class GameCreated(Event):
    """A new table was set up with these seats (§2)."""

    type: Literal["game_created"] = "game_created"
    players: list[PlayerSetup]
    variants: Variants
    seed: int


class PositionLoaded(Event):
    """The game starts from an entered position."""

    type: Literal["position_loaded"] = "position_loaded"
    position: Position


class FirstPlayerChosen(Event):
    """Ambition token given to the first player (§2.1)."""

    type: Literal["first_player_chosen"] = "first_player_chosen"
    player: int
    random: bool


class ClansOffered(Event):
    """Clan sheets drawn for picking (§2.3)."""

    type: Literal["clans_offered"] = "clans_offered"
    clans: list[Clan]
    random: bool


class ClanChosen(Event):
    """A player took a clan (§2.3)."""

    type: Literal["clan_chosen"] = "clan_chosen"
    player: int
    clan: Clan


class RelicsOffered(Event):
    """Relics drawn for the draft (§13)."""

    type: Literal["relics_offered"] = "relics_offered"
    relics: list[RelicCard]


class RelicChosen(Event):
    """A player drafted a Relic (§13)."""

    type: Literal["relic_chosen"] = "relic_chosen"
    player: int
    index: int


class LocationCardsPlaced(Event):
    """Location cards laid on the Locations (§13)."""

    type: Literal["location_cards_placed"] = "location_cards_placed"
    cards: dict[LocationId, LocationCard]


class PhaseStarted(Event):
    """A phase of a round began (§3)."""

    type: Literal["phase_started"] = "phase_started"
    round: int
    phase: Phase


class BloodChanged(Event):
    """Blood moved between a Pool and the Bank or another Pool."""

    type: Literal["blood_changed"] = "blood_changed"
    player: int
    delta: int
    kind: BloodKind
    reason: SaidData = Field(default="", validate_default=True)
    """Why, in words kept as a message (`models.said`)."""
    by: int | None = None
    """Player whose effect caused it."""


class InfluenceChanged(Event):
    """Influence tokens gained or lost."""

    type: Literal["influence_changed"] = "influence_changed"
    player: int
    delta: int
    reason: SaidData = Field(default="", validate_default=True)
    """Why, in words kept as a message (`models.said`)."""
    by: int | None = None


class AllyPlaced(Event):
    """An Ally laid face up at a Location (§5)."""

    type: Literal["ally_placed"] = "ally_placed"
    location: LocationId
    ally: AllyCard


class HandChanged(Event):
    """Cards entered a player's hand (§6, §8.1, §10)."""

    type: Literal["hand_changed"] = "hand_changed"
    player: int
    delta: int
    reason: SaidData = Field(default="", validate_default=True)
    """Why, in words kept as a message (`models.said`)."""


class CardPlayed(Event):
    """A clan card played on the player's Position (§7)."""

    type: Literal["card_played"] = "card_played"
    player: int
    location: LocationId
    uid: str
    face_up: bool
    card: ClanCard | None = None


class BloodDeployed(Event):
    """Blood put on a Position, from the Pool or (Diablerie flip) from the Bank (§7)."""

    type: Literal["blood_deployed"] = "blood_deployed"
    player: int
    location: LocationId
    amount: int
    from_bank: bool = False


class DiablerieFlipped(Event):
    """Face-up Diablerie tokens flipped face down (§7)."""

    type: Literal["diablerie_flipped"] = "diablerie_flipped"
    player: int
    count: int


class TurnEnded(Event):
    """A Planning turn is over (§7)."""

    type: Literal["turn_ended"] = "turn_ended"
    player: int
    passed: bool = False


class CardDrained(Event):
    """An Alliance card was Drained (§9, §10)."""

    type: Literal["card_drained"] = "card_drained"
    player: int
    uid: str
    frenzy: bool = False
    random: bool = False


class CardRestored(Event):
    """A drained Alliance card returned to active (Relic)."""

    type: Literal["card_restored"] = "card_restored"
    player: int
    uid: str
    reason: SaidData = Field(default="", validate_default=True)
    """Why, in words kept as a message (`models.said`)."""


class DiablerieTaken(Event):
    """Diablerie tokens taken (§9)."""

    type: Literal["diablerie_taken"] = "diablerie_taken"
    player: int
    count: int


class PlayerEliminated(Event):
    """A third Diablerie put a player out of the game (§11)."""

    type: Literal["player_eliminated"] = "player_eliminated"
    player: int


class FrenzyEntered(Event):
    """A Pool reached 0 Blood (§10)."""

    type: Literal["frenzy_entered"] = "frenzy_entered"
    player: int
    by: int | None = None


class StepStarted(Event):
    """A Resolution step began at a Location (§8)."""

    type: Literal["step_started"] = "step_started"
    location_index: int
    step: Step


class WithdrawChosen(Event):
    """Stay/Withdraw tokens revealed at a Location (§8.1)."""

    type: Literal["withdraw_chosen"] = "withdraw_chosen"
    location: LocationId
    stay: list[int]
    withdraw: list[int]


class Withdrew(Event):
    """A player left a Location's conflict (§8.1, or a card effect)."""

    type: Literal["withdrew"] = "withdrew"
    player: int
    location: LocationId
    reason: SaidData = Field(default="", validate_default=True)
    """Why, in words kept as a message (`models.said`)."""


class CardRevealed(Event):
    """A face-down card turned face up with its identity (§8.1, §8.2)."""

    type: Literal["card_revealed"] = "card_revealed"
    uid: str
    card: ClanCard


class CardMoved(Event):
    """A Deployed card moved to a Position at another Location (§8.1)."""

    type: Literal["card_moved"] = "card_moved"
    uid: str
    to_location: LocationId
    to_player: int


class CardsReturned(Event):
    """Deployed cards went back to their owners' hands (§8.1 at the Prince's Haven)."""

    type: Literal["cards_returned"] = "cards_returned"
    uids: list[str]


class BloodReturned(Event):
    """Deployed Blood went back from a Position to the Pool (§8.1)."""

    type: Literal["blood_returned"] = "blood_returned"
    player: int
    location: LocationId
    amount: int


class PowerModified(Event):
    """A Deployed card's Power changed (§8.4)."""

    type: Literal["power_modified"] = "power_modified"
    uid: str
    modifier: PowerModifier


class ConflictResolved(Event):
    """Totals and ranking at a Location (§8.4)."""

    type: Literal["conflict_resolved"] = "conflict_resolved"
    location: LocationId
    result: ConflictResult


class CardAcquired(Event):
    """An Ally or Victim joined a player's Alliance (§8.4)."""

    type: Literal["card_acquired"] = "card_acquired"
    player: int
    card: AllianceCard
    from_location: LocationId | None = None


class AllyDiscarded(Event):
    """A Location's unclaimed Ally left the game (§8.4)."""

    type: Literal["ally_discarded"] = "ally_discarded"
    location: LocationId


class AmbitionTaken(Event):
    """The Prince's Haven winner took the Ambition token (§8.4)."""

    type: Literal["ambition_taken"] = "ambition_taken"
    player: int


class RelicUsed(Event):
    """A Relic was used and flipped (§13)."""

    type: Literal["relic_used"] = "relic_used"
    player: int


class RoundEnded(Event):
    """End of Round cleanup (§10)."""

    type: Literal["round_ended"] = "round_ended"
    round: int


class GameEnded(Event):
    """Final scoring (§12)."""

    type: Literal["game_ended"] = "game_ended"
    scoreboard: Scoreboard

    @field_serializer("scoreboard")
    def _board(self, board: Scoreboard, info: FieldSerializationInfo) -> Any:
        """The scoreboard with its tie notes written as messages (elsewhere they are written
        as English text: `models.said.SaidText`)."""
        context = {**(info.context or {}), "said": "data"}
        return board.model_dump(mode=info.mode, context=context, by_alias=info.by_alias,
                                exclude_unset=info.exclude_unset,
                                exclude_defaults=info.exclude_defaults,
                                exclude_none=info.exclude_none, round_trip=info.round_trip)


class EffectResolved(Event):
    """A card's automated effect was resolved (or declined, if optional) (§8.3–§8.5)."""

    type: Literal["effect_resolved"] = "effect_resolved"
    uid: str
    player: int
    accepted: bool = True


class AwaitingChoice(Event):
    """The table must answer an after-Location choice before going on (§15)."""

    type: Literal["awaiting_choice"] = "awaiting_choice"
    choice: Literal["take_back_blood"] | None = None


class NoteAdded(Event):
    """A referee's note in the log (e.g. an effect applied by hand)."""

    type: Literal["note_added"] = "note_added"
    text: Annotated[SaidData, AfterValidator(_at_most(200))]
    """The note, kept as a message (`models.said`)."""


AnyEvent = Annotated[
    GameCreated | PositionLoaded | FirstPlayerChosen | ClansOffered | ClanChosen
    | RelicsOffered | RelicChosen | LocationCardsPlaced | PhaseStarted | BloodChanged
    | InfluenceChanged | AllyPlaced | HandChanged | CardPlayed | BloodDeployed
    | DiablerieFlipped | TurnEnded | CardDrained | CardRestored | DiablerieTaken
    | PlayerEliminated | FrenzyEntered | StepStarted | WithdrawChosen | Withdrew
    | CardRevealed | CardMoved | CardsReturned | BloodReturned | PowerModified
    | ConflictResolved | CardAcquired | AllyDiscarded | AmbitionTaken | RelicUsed
    | RoundEnded | GameEnded | EffectResolved | AwaitingChoice | NoteAdded,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[AnyEvent] = TypeAdapter(AnyEvent, config=DEFERRED)
EVENT_LIST_ADAPTER: TypeAdapter[list[AnyEvent]] = TypeAdapter(list[AnyEvent], config=DEFERRED)
