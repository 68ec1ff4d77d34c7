"""Table mode: device roles, inputs collected per player, the stored table record and
what each role may see of a table.

A *table* is one open game shared by several devices. Each device holds one role at a table:
the referee, one player's seat, or the read-only board. No Flet, no I/O here; the logic lives in
`companion.table.access` (who may do what), `companion.table.collect` (per-player inputs) and
`companion.table.hub` (the table itself).
"""

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from models.cards import ClanCard
from models.common import DEFERRED, Frozen, LocationId
from models.message import Message, msg

TABLE_FORMAT = "vendetta-companion/table"
"""`format` tag of a stored table record (`tables/<game_id>.json`)."""

Choice = Literal["stay", "withdraw"]
"""A Stay/Withdraw token (§8.1)."""


class Referee(Frozen):
    """Full control: acts for any player, the only one who may undo/redo."""

    kind: Literal["referee"] = "referee"


class Seat(Frozen):
    """One player's own device: acts only for that player."""

    kind: Literal["seat"] = "seat"
    player: int = Field(ge=0, le=5)
    """Seat index of the player (0-based, clockwise)."""


class Board(Frozen):
    """The public board in the middle of the table: read-only."""

    kind: Literal["board"] = "board"


Role = Annotated[Referee | Seat | Board, Field(discriminator="kind")]
ROLE_ADAPTER: TypeAdapter[Role] = TypeAdapter(Role, config=DEFERRED)


class Pending(Frozen):
    """Per-player inputs collected at one Resolution step before they become one command.

    Not game events (nothing to undo); stored with the table so they survive a restart.
    """

    key: str
    """The step instance they belong to (`companion.table.collect.step_key`); dropped when the game
    is no longer at that step."""
    choices: dict[int, Choice] = {}
    """Withdraw step: secret Stay/Withdraw choices by player, until all are in (§8.1)."""
    revealed: bool = False
    """Withdraw step: every present player has chosen; the choices are now public and the
    withdrawing players' face-down cards are being named."""
    cards: dict[str, ClanCard] = {}
    """Identities named so far, by face-down card uid (withdrawing players' cards, or every
    face-down card at Revelation, §8.2)."""
    amounts: dict[int, int] = {}
    """Succubus Club: Blood each player takes back (§15)."""


class TableRecord(Frozen):
    """What is stored of a table besides its game: codes, who holds which role, pending inputs."""

    format: Literal["vendetta-companion/table"] = TABLE_FORMAT
    table_id: str = Field(pattern=r"^[A-Za-z0-9]{4,16}$")
    """Short random id of the table (in its join address)."""
    game_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    """The game played at this table."""
    join_code: str = Field(min_length=4, max_length=12)
    """Code of the board (when viewers need one). Records stored before seats had codes of
    their own used it for every seat."""
    seat_codes: dict[int, str] = {}
    """Player seat → the code that claims that seat only (made for missing seats on load;
    made anew when the referee frees the seat)."""
    referee_code: str = Field(min_length=4, max_length=12)
    """Code that makes a device the referee."""
    epoch: int = Field(default=0, ge=0)
    """Bumped each time the table is loaded, so versions are never reused after a restart."""
    allow_viewers: bool = False
    """Whether a device may join the board without a code."""
    seats: dict[int, str] = {}
    """Player seat → hash of the device token holding it."""
    referees: list[str] = []
    """Hashes of the device tokens holding the referee role."""
    boards: list[str] = []
    """Hashes of the device tokens showing the board."""
    pending: Pending | None = None
    """Inputs collected at the current step."""


# --- what a role may see ------------------------------------------------------------------------


class SeatInfo(Frozen):
    """One player seat as every device sees it."""

    player: int
    """Seat index."""
    name: str
    """Player name."""
    taken: bool
    """Whether a device holds this seat."""


class Lobby(Frozen):
    """What a device that has not joined may see: enough to pick a role, nothing of the game."""

    table_id: str
    """Table id."""
    seats: list[SeatInfo]
    """Player seats, taken or free."""
    allow_viewers: bool
    """Whether the board may be joined without a code."""


class WithdrawStatus(Frozen):
    """The secret Stay/Withdraw at the current Location, as one role may see it (§8.1)."""

    location: LocationId
    """Location being resolved."""
    chosen: int
    """How many present players have chosen."""
    of: int
    """How many present players choose."""
    mine: Choice | None = None
    """A seat's own choice so far (only in that seat's view)."""
    revealed: dict[int, Choice] | None = None
    """Every choice, once all are in (then public)."""


class NamingStatus(Frozen):
    """Face-down cards whose identity is being entered (public: the cards are turned up)."""

    needed: dict[int, list[str]]
    """Card uids to name, by owner."""
    named: dict[str, ClanCard] = {}
    """Identities entered so far, by uid."""


class TakeBackStatus(Frozen):
    """Succubus Club take-back being collected (§15); public."""

    most: dict[int, int]
    """Most Blood each player may take back."""
    entered: dict[int, int] = {}
    """Amounts entered so far."""


class Allowed(Frozen):
    """What one role may do now; the views build their buttons from this."""

    commands: list[str] = []
    """Engine command types the role may send (`Table.act`)."""
    choose: list[int] = []
    """Players whose secret Stay/Withdraw the role may enter or change now (`Table.choose`)."""
    name_cards: list[str] = []
    """Face-down card uids the role may name now (`Table.name_cards`)."""
    take_back: dict[int, int] = {}
    """Players whose take-back the role may enter, with the most allowed (`Table.take_back`)."""
    undo: bool = False
    """Whether the role may undo now."""
    redo: bool = False
    """Whether the role may redo now."""
    manage_seats: bool = False
    """Whether the role may free seats and change the viewers setting."""
    prompt: str = "Nothing to do now."
    """What this role is asked to do, in a sentence (in English)."""
    prompt_message: Message = msg("Nothing to do now.")
    """The same as a message, for a device to say in its language."""
