"""The record of one Blood Feud session (§B2) and of each round's Council vote (§B9).

The models check shapes only (types, lengths, required fields); what the aids allow is checked by
`companion.bloodfeud.council` (`check_session`, `tally`), so that every refusal carries a key and
the section it applies. Nothing here is a score: the aids define none.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

MAX_TEXT = 500
"""Longest text any field takes where it sets no tighter limit (a bound on input, no rule)."""

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
"""A team's, a player's or an Event's name as entered; surrounding spaces are dropped."""

Faction = Literal["Vampire", "Human"]
"""The side a team plays; some Orders belong to one side only (§B5)."""


class Record(BaseModel):
    """Immutable value that refuses unknown fields; field docstrings are its documentation."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid",
                              str_max_length=MAX_TEXT, use_attribute_docstrings=True)


class Team(Record):
    """One team of the session (§B2)."""

    name: Name
    """As the players call it, e.g. Brujah or City Hall; unique in the session."""
    colour: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=30)]
    """The team colour, e.g. Blue; unique, as the Alliance board names pairs of colours."""
    faction: Faction
    """Vampire or Human."""
    members: list[Name] = Field(min_length=1, max_length=50)
    """The players of the team (at least one); a player is on one team only."""


class Proposal(Record):
    """An Event put before the Council this round (§B8)."""

    event: Name
    """The Event's name or a label such as E1; unique among the round's proposals."""
    team: Name
    """The team whose Council player proposed it (at most one proposal per team and round)."""


class Ballot(Record):
    """One team's raised hand in a vote or re-vote (§B9)."""

    team: Name
    """The voting team; its Voting Power is its Power in `CouncilVote.powers`."""
    event: Name | None
    """The proposed Event pointed at, or null for No Event (pointing at the ceiling)."""


class CouncilVote(Record):
    """The Council vote of one round, as the table held it (§B9): one per round at most."""

    round: int = Field(ge=1, le=1000)
    """The round of the vote (1 is the first round)."""
    powers: dict[Name, StrictInt] = Field(max_length=50)
    """Each voting team's current Power (1–6), by team name; other teams may be listed too."""
    proposals: list[Proposal] = Field(default_factory=list, max_length=50)
    """The Events proposed this round, in the order they were laid down."""
    ballots: list[Ballot] = Field(default_factory=list, max_length=50)
    """The vote: one ballot per voting team. Empty when no vote was held this round."""
    revotes: list[list[Ballot]] = Field(default_factory=list, max_length=100)
    """Each re-vote between tied leaders, in order; the same teams vote in each."""
    gameplay_ended: bool = False
    """The Gameplay Phase ended with no Event chosen (no vote held, or the last one tied)."""


class SessionResult(Record):
    """The result exactly as the Storyteller announces it; the aids give no scoring (§B2)."""

    winners: list[Name] = Field(min_length=1, max_length=50)
    """The team on top, or the teams sharing the top: more than one is a tie."""
    storyteller_pick: Name | None = None
    """Only for a tie: the tied team the Storyteller picked, kept beside the tie."""
    note: str | None = None
    """Anything the Storyteller adds, e.g. how the result was reached."""

    @property
    def tie(self) -> bool:
        """More than one team shares the top."""
        return len(self.winners) > 1


class Session(Record):
    """One Blood Feud session: who played, how long, the Council votes and the result (§B2)."""

    storyteller: Name
    """The Storyteller who ran the session."""
    teams: list[Team] = Field(min_length=2, max_length=50)
    """The teams, at least two."""
    rounds_played: int = Field(default=0, ge=0, le=1000)
    """Rounds played so far, the round under way included (the aids give no fixed length)."""
    council: list[CouncilVote] = Field(default_factory=list, max_length=1000)
    """The Council vote of each round that had one, in round order."""
    result: SessionResult | None = None
    """The result once the Storyteller has entered it; None while the session goes on."""


SESSION_FORMAT = "vendetta-companion/bloodfeud"
"""The `format` tag of a Blood Feud session file (docs/bloodfeud-format.md)."""
SESSION_VERSION = 1
"""Version of the session files this release writes and reads; a newer one is refused."""


class SessionFile(Session):
    """A session as a file: the session's fields and the format tag."""

    format: Literal["vendetta-companion/bloodfeud"]
    """Always "vendetta-companion/bloodfeud"."""
    version: int = Field(default=SESSION_VERSION, ge=1)
    """The file's version; 1 when absent."""
