"""Commands: the referee's actions, validated by the engine and turned into events."""

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from models.cards import AllyCard, ClanCard, LocationCard, RelicCard
from models.common import DEFERRED, Clan, Frozen, LocationId, PlayerRef


class Command(Frozen):
    """Base of every command."""

    draws: list[str] | None = None
    """Alliance card uids drawn physically for Frenzy drains this action causes, in order;
    omitted: the companion draws them with its seeded generator (§10)."""


class SetFirstPlayer(Command):
    """Give the Ambition token to a chosen player, or draw one at random (§2.1)."""

    type: Literal["set_first_player"] = "set_first_player"
    player: PlayerRef | None = None


class OfferClans(Command):
    """Draw players+1 clan sheets at random, or enter those the table drew (§2.3)."""

    type: Literal["offer_clans"] = "offer_clans"
    clans: list[Clan] | None = None


class PickClan(Command):
    """A player takes a clan, in turn order (§2.3)."""

    type: Literal["pick_clan"] = "pick_clan"
    player: PlayerRef
    clan: Clan


class OfferRelics(Command):
    """Enter the players+1 Relics drawn for the draft (§13)."""

    type: Literal["offer_relics"] = "offer_relics"
    relics: list[RelicCard]


class PickRelic(Command):
    """A player drafts a Relic, counter-clockwise from the first player's right (§13)."""

    type: Literal["pick_relic"] = "pick_relic"
    player: PlayerRef
    index: int = Field(ge=0)


class PlaceLocationCards(Command):
    """Enter the Location card lying on each Location but the Prince's Haven (§13)."""

    type: Literal["place_location_cards"] = "place_location_cards"
    cards: dict[LocationId, LocationCard]


class Feed(Command):
    """Every player gains the Feed Blood of their active Alliance cards (§4)."""

    type: Literal["feed"] = "feed"


class PlaceAllies(Command):
    """Enter the Ally drawn for each Location (§5)."""

    type: Literal["place_allies"] = "place_allies"
    allies: dict[LocationId, AllyCard]


class FinishHandBuilding(Command):
    """The table has built its hands (§6)."""

    type: Literal["finish_hand_building"] = "finish_hand_building"


class Drain(Command):
    """The current player Drains one of their active Alliance cards (§9)."""

    type: Literal["drain"] = "drain"
    player: PlayerRef
    card: str


class PlayCard(Command):
    """The current player plays a card, with Blood and Diablerie flips (§7)."""

    type: Literal["play_card"] = "play_card"
    player: PlayerRef
    location: LocationId
    face_up: bool = True
    card: ClanCard | None = None
    """Identity of a face-up card; must be omitted for a face-down one."""
    blood: int = Field(default=0, ge=0)
    diablerie: int = Field(default=0, ge=0)
    """Face-up Diablerie tokens to flip, each adding 1 Bank Blood here."""
    include_teammate: bool = False
    """Tag team: the player's partner holds a face-up Challenge (BR03) at another Location and
    chooses that it reaches this play too (§13); the play then Loses 1 Blood for it."""


class PassTurn(Command):
    """A player with no card in hand passes their Planning turn (§7)."""

    type: Literal["pass_turn"] = "pass_turn"
    player: PlayerRef


class ChooseWithdraw(Command):
    """Stay/Withdraw tokens revealed at the current Location (§8.1)."""

    type: Literal["choose_withdraw"] = "choose_withdraw"
    withdraw: list[PlayerRef] = []
    """Players who withdraw; every other player present stays."""
    reveal: dict[str, ClanCard] = {}
    """Identities of the withdrawing players' face-down cards here, by card uid or place
    ('player/location/n': the n-th card, from 1, on that player's Position there)."""


class Reveal(Command):
    """Identities of the face-down cards turned up at Revelation (§8.2)."""

    type: Literal["reveal"] = "reveal"
    cards: dict[str, ClanCard]
    """Identity of each face-down card here, by card uid or place ('player/location/n')."""


EffectAction = Literal[
    "gain_blood", "lose_blood", "spend_blood", "steal_blood", "gain_influence",
    "lose_influence", "take_diablerie", "power", "halve_printed_power", "withdraw",
    "restore_card", "drain_card",
]


class ApplyEffect(Command):
    """Apply one effect by hand, e.g. a card's ability the companion does not automate."""

    type: Literal["apply_effect"] = "apply_effect"
    action: EffectAction
    player: PlayerRef
    """Who is affected (the Pool that changes, the withdrawing player, the card's owner);
    with `each_rival`, whose Rivals are affected."""
    by: PlayerRef | None = None
    """Whose effect it is (the thief for steal_blood; the causer of a Frenzy)."""
    amount: int = Field(default=0, ge=-30, le=30)
    """Blood/Influence amount, or the Power change."""
    card: str | None = None
    """Deployed card (power effects): uid or place 'player/location/n'; Alliance card uid
    (restore_card, drain_card)."""
    reason: str = Field(default="", max_length=120)
    """Short reason shown in the log, e.g. the card's name."""
    each_rival: bool = False
    """Apply to each Rival of `player` at the Location being resolved (they cause it)."""
    include_teammate: bool = False
    """Tag team: with `each_rival`, include the teammate (§13)."""


class UseRelic(Command):
    """A player uses (flips) their Relic (§13); known Relics act at once (§15)."""

    type: Literal["use_relic"] = "use_relic"
    player: PlayerRef
    card: str | None = None
    """Drained Alliance card to make active again (the restoring Relic)."""


class ResolveEffect(Command):
    """Resolve a due card effect at the current step, or decline an optional one (§8.3–§8.5)."""

    type: Literal["resolve_effect"] = "resolve_effect"
    card: str
    """Deployed card whose effect is due: uid or place 'player/location/n'."""
    accept: bool = True
    """False declines an optional ('may') effect."""
    include_teammate: bool = False
    """Tag team: whether 'each Rival' includes the owner's teammate (§13)."""


class TakeBackBlood(Command):
    """After a Succubus Club Location resolves: Blood each player takes back, 0–3 (§15)."""

    type: Literal["take_back_blood"] = "take_back_blood"
    amounts: dict[str, int] = {}
    """Blood taken back, by player name or seat; omitted players take none."""


class Peek(Command):
    """The owner of the look-at-face-down Ally Spends 1 Blood per face-down card looked at."""

    type: Literal["peek"] = "peek"
    player: PlayerRef
    cards: list[str] = Field(min_length=1)
    """Face-down cards looked at, by uid or place 'player/location/n' (their identity is not
    recorded)."""


class NextStep(Command):
    """Finish the current Resolution step and go on (§8)."""

    type: Literal["next_step"] = "next_step"
    through: bool = False
    """Go on through this Location's later steps while none has anything for the table:
    stop at a step with an effect due, a card of that step the app does not apply, or an
    after-Location choice; an effect that cannot apply is skipped (§14)."""


AnyCommand = Annotated[
    SetFirstPlayer | OfferClans | PickClan | OfferRelics | PickRelic | PlaceLocationCards
    | Feed | PlaceAllies | FinishHandBuilding | Drain | PlayCard | PassTurn | ChooseWithdraw
    | Reveal | ApplyEffect | UseRelic | ResolveEffect | TakeBackBlood | Peek | NextStep,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[AnyCommand] = TypeAdapter(AnyCommand, config=DEFERRED)
