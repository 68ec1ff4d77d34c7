"""Heritage entries as pydantic models: a game's setup and end-of-game pad, the primogen draw,
and the chronicle ledger. Every refusal is a `HeritageError` citing docs/heritage.md (§H…);
constructing a model wraps it in a pydantic `ValidationError` (see `heritage_error_in`).

Only facts the seed states are constants here (clans, archetypes, battleground names, rounds,
the morality start spaces, Sabbat Wars allegiances); everything else is an entry.
"""

from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from companion.heritage.errors import HeritageError

Clan = Literal[
    "Brujah", "Gangrel", "Lasombra", "Malkavian", "Nosferatu", "Toreador", "Tremere",
    "Tzimisce", "Ventrue",
]
CLANS: tuple[Clan, ...] = (
    "Brujah", "Gangrel", "Lasombra", "Malkavian", "Nosferatu", "Toreador", "Tremere",
    "Tzimisce", "Ventrue",
)
"""The nine clans a player can control (§H2)."""

Archetype = Literal["warlike", "scholarly", "clandestine", "wealthy"]
ARCHETYPES: tuple[Archetype, ...] = ("warlike", "scholarly", "clandestine", "wealthy")
"""The four character archetypes, declared in a primogen draw (§H6)."""

Allegiance = Literal["Camarilla", "Sabbat", "Anarch"]

CLANS_HIGH_AND_LOW = "Of Clans High and Low"
WAR_OF_THE_PRINCES = "The War of the Princes"
BEAST_WITHIN = "The Beast Within"
RISE_OF_HUMANITY = "The Rise of Humanity"
INQUISITION = "The Inquisition"
SABBAT_WARS = "Sabbat Wars"
KNOWN_BATTLEGROUNDS: tuple[str, ...] = (
    CLANS_HIGH_AND_LOW, WAR_OF_THE_PRINCES, BEAST_WITHIN, RISE_OF_HUMANITY, INQUISITION,
    SABBAT_WARS,
)
"""The six battlegrounds the seed names (§H2); any other is named by the players."""

FIRST_CHAPTER_BATTLEGROUNDS: tuple[str, str, str] = (
    CLANS_HIGH_AND_LOW, WAR_OF_THE_PRINCES, BEAST_WITHIN,
)
"""The three battlegrounds of the chronicle's first chapter (§H2)."""

_ALIASES = {name.casefold(): name for name in KNOWN_BATTLEGROUNDS} | {
    "clans high and low": CLANS_HIGH_AND_LOW,
    "war of the princes": WAR_OF_THE_PRINCES,
    "beast within": BEAST_WITHIN,
    "rise of humanity": RISE_OF_HUMANITY,
    "inquisition": INQUISITION,
    "the sabbat wars": SABBAT_WARS,
}

ROUNDS: dict[int, int] = {2: 10, 3: 9, 4: 8}
"""Rounds a game lasts, by player count (§H3)."""

MORALITY_START: dict[str, int] = {BEAST_WITHIN: -3, RISE_OF_HUMANITY: 8}
"""Start space of every clan morality token on the two morality battlegrounds (§H8.5)."""

SABBAT_WARS_ALLEGIANCES: dict[int, tuple[Allegiance, ...]] = {
    2: ("Camarilla", "Sabbat"),
    3: ("Camarilla", "Sabbat", "Anarch"),
    4: ("Camarilla", "Camarilla", "Sabbat", "Sabbat"),
}
"""The allegiances dealt at random on Sabbat Wars, by player count (§H8.4)."""

CHAPTERS = 21
ERAS = 7
CHAPTERS_PER_ERA = 3
MISSIONS_MAX = 5
"""Basic games draw 0–5 missions; chronicle chapters exactly 5 (§H2)."""

FORMAT_GAME = "vendetta-companion/heritage-game"
FORMAT_CHRONICLE = "vendetta-companion/heritage-chronicle"
FORMAT_VERSION = 1
"""Version of the Heritage files this release writes; newer ones are refused."""

AftermathStep = Literal[
    "prepare", "record", "resolution", "plotting", "missions", "obligations", "stickers",
    "retain", "new_characters", "era_end",
]
AFTERMATH_STEPS: tuple[AftermathStep, ...] = (
    "prepare", "record", "resolution", "plotting", "missions", "obligations", "stickers",
    "retain", "new_characters", "era_end",
)
"""The aftermath in the seed's order (§H11); `era_end` only after chapters 3, 6, … 21."""


def canonical_battleground(name: str) -> str:
    """A battleground name with spacing tidied; one of the six known names (any case, with or
    without its article) becomes that name's spelling, others stay as entered (§H2)."""
    tidy = " ".join(name.split())
    return _ALIASES.get(tidy.casefold(), tidy)


def check_players_count(n: int) -> None:
    """Refuse a table that is not 2, 3 or 4 players (§H2)."""
    if n not in ROUNDS:
        raise HeritageError(
            "players_count", "§H2",
            f"Heritage is played by 2 to 4 players; {n} were entered", count=n,
        )


def _check_unique_names(names: list[str], what: str) -> None:
    folded = [n.casefold() for n in names]
    twice = sorted({n for n, k in Counter(folded).items() if k > 1})
    if twice:
        raise HeritageError(
            "players_unique", "§H2", f"each {what} needs a different name ({', '.join(twice)})",
            names=twice,
        )


class Entry(BaseModel):
    """Immutable entry that rejects unknown fields; field docstrings describe each field."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, use_attribute_docstrings=True, str_strip_whitespace=True,
        str_max_length=200,
    )


class Result(BaseModel):
    """Immutable computed result (never an entry, so no length limits)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


# --------------------------------------------------------------------------- game setup


class HeritagePlayer(Entry):
    """One seat of a Heritage game."""

    name: str = Field(min_length=1, max_length=30)
    """Player's name, unique at the table."""
    clan: Clan
    """Clan the player controls this game (§H2; no two players share one)."""


class HeritageSetup(Entry):
    """A new Heritage game: players, battlegrounds and missions in play (§H2)."""

    players: list[HeritagePlayer]
    """The 2–4 players."""
    chronicle: bool = False
    """A chapter of a chronicle (True) or a basic game (False); changes missions (§H2, §H4)."""
    battlegrounds: list[str]
    """The three battlegrounds in play: the six the seed names, or others named by the players."""
    missions: list[str] = []
    """Names of the missions in play, as the players call them (basic 0–5, chronicle 5)."""

    @field_validator("battlegrounds")
    @classmethod
    def _tidy_battlegrounds(cls, names: list[str]) -> list[str]:
        return [canonical_battleground(n) for n in names]

    @model_validator(mode="after")
    def _check(self) -> "HeritageSetup":
        check_players_count(len(self.players))
        _check_unique_names([p.name for p in self.players], "player")
        clans = Counter(p.clan for p in self.players)
        shared = sorted(c for c, k in clans.items() if k > 1)
        if shared:
            raise HeritageError(
                "clans_unique", "§H2",
                f"each player controls a different clan ({', '.join(shared)} chosen twice)",
                clans=shared,
            )
        if len(self.battlegrounds) != 3 or any(not b for b in self.battlegrounds):
            raise HeritageError(
                "battlegrounds_count", "§H2",
                f"a game has 3 battlegrounds in play; {len(self.battlegrounds)} were entered",
                count=len(self.battlegrounds),
            )
        if len(set(self.battlegrounds)) != 3:
            raise HeritageError(
                "battlegrounds_unique", "§H2", "the 3 battlegrounds in play must differ",
                battlegrounds=list(self.battlegrounds),
            )
        if any(not m for m in self.missions) or len(set(self.missions)) != len(self.missions):
            raise HeritageError(
                "missions_unique", "§H2", "each mission in play needs a different name",
                missions=list(self.missions),
            )
        if self.chronicle and len(self.missions) != MISSIONS_MAX:
            raise HeritageError(
                "missions_count", "§H2",
                f"a chronicle chapter has 5 chronicle missions in play; "
                f"{len(self.missions)} were entered", count=len(self.missions),
            )
        if len(self.missions) > MISSIONS_MAX:
            raise HeritageError(
                "missions_count", "§H2",
                f"a basic game has 0 to 5 missions in play; {len(self.missions)} were entered",
                count=len(self.missions),
            )
        return self

    @property
    def names(self) -> list[str]:
        """Players' names in entry order."""
        return [p.name for p in self.players]

    @property
    def rounds(self) -> int:
        """Rounds the game lasts (§H3)."""
        return ROUNDS[len(self.players)]


# --------------------------------------------------------------------------- end of game


class Vampire(Entry):
    """One vampire of a bloodline at the end of the game, or a line of totals (§H4)."""

    name: str = Field(default="", max_length=60)
    """What the players call it (optional)."""
    power: int = Field(default=0, ge=0)
    """Power tokens on it (+1 VP each)."""
    boons: int = Field(default=0, ge=0)
    """Clan boons on it, of any clan (+1 VP each)."""
    infamy: int = Field(default=0, ge=0)
    """Infamy tokens on it (−1 VP each)."""
    torpor: bool = False
    """In torpor: out of the bloodline, worth 0 VP whatever lies on it."""
    clan_leader: bool = False
    """The player's clan leader (never in torpor)."""

    @model_validator(mode="after")
    def _check(self) -> "Vampire":
        if self.clan_leader and self.torpor:
            raise HeritageError(
                "leader_torpor", "§H4",
                "a clan leader is never in torpor (a childe goes in its place)",
                vampire=self.name,
            )
        return self

    @property
    def vp(self) -> int:
        """Victory points it adds: power + boons − infamy, or 0 in torpor (§H4)."""
        return 0 if self.torpor else self.power + self.boons - self.infamy


class PlayerEntries(Entry):
    """What one player enters on the end-of-game pad (§H4)."""

    player: str = Field(min_length=1, max_length=30)
    """The player, by name."""
    battleground_vp: dict[str, int]
    """VP from each battleground in play (may be negative; 0 when nothing was scored)."""
    bloodline: list[Vampire] = []
    """The bloodline's vampires, those in torpor included (switched to torpor)."""
    missions_claimed: list[str] = []
    """Missions this player claimed, by the names of the setup."""
    mission_power: int = Field(default=0, ge=0)
    """Basic game only: power the claimed missions gave, as printed on them (+1 VP each)."""

    @field_validator("battleground_vp", mode="before")
    @classmethod
    def _tidy_keys(cls, vp: object) -> object:
        if not isinstance(vp, dict):
            return vp
        tidy: dict[object, object] = {}
        for name, value in vp.items():
            key = canonical_battleground(name) if isinstance(name, str) else name
            if key in tidy:
                raise HeritageError(
                    "battleground_twice", "§H4", f"VP for {key} were entered twice",
                    battleground=key,
                )
            tidy[key] = value
        return tidy

    @model_validator(mode="after")
    def _check(self) -> "PlayerEntries":
        if sum(v.clan_leader for v in self.bloodline) > 1:
            raise HeritageError(
                "one_leader", "§H4", f"{self.player}'s bloodline has one clan leader",
                player=self.player,
            )
        if len(set(self.missions_claimed)) != len(self.missions_claimed):
            raise HeritageError(
                "mission_twice", "§H7", f"{self.player} entered a claimed mission twice",
                player=self.player,
            )
        return self


class PrimogenDraw(Entry):
    """A primogen draw as the players made it (§H6): each tied player's declared archetype
    and the archetype revealed first."""

    declared: dict[str, Archetype]
    """Each tied player → the archetype they declared (all different)."""
    drawn: Archetype
    """The declared archetype revealed first from the shuffled character deck."""

    @model_validator(mode="after")
    def _check(self) -> "PrimogenDraw":
        if len(self.declared) < 2:
            raise HeritageError(
                "primogen_players", "§H6", "a primogen draw settles a tie of 2 or more players",
                players=list(self.declared),
            )
        shared = sorted(a for a, k in Counter(self.declared.values()).items() if k > 1)
        if shared:
            raise HeritageError(
                "primogen_same_archetype", "§H6",
                f"tied players must declare distinct archetypes ({', '.join(shared)} "
                f"declared twice)", archetypes=shared,
            )
        if self.drawn not in self.declared.values():
            raise HeritageError(
                "primogen_drawn_undeclared", "§H6",
                f"the drawing stops at a declared archetype; {self.drawn} was declared by "
                f"nobody (declared: {', '.join(self.declared.values())})", drawn=self.drawn,
            )
        return self

    @property
    def winner(self) -> str:
        """The player whose declared archetype was drawn."""
        return next(p for p, a in self.declared.items() if a == self.drawn)

    def check_players(self, tied: list[str], what: str) -> None:
        """Refuse a draw whose players are not exactly the tied ones."""
        if set(self.declared) != set(tied):
            raise HeritageError(
                "primogen_players", "§H6",
                f"the primogen draw for {what} is between {', '.join(tied)}; it was entered "
                f"for {', '.join(self.declared)}", tied=list(tied), entered=list(self.declared),
            )


class HeritageGame(Entry):
    """A Heritage game's file: setup, round count and the end-of-game pad (§H2–§H6)."""

    format: Literal["vendetta-companion/heritage-game"] = FORMAT_GAME
    """Format tag of the file."""
    version: int = FORMAT_VERSION
    """Version of the file format; newer than this release is refused."""
    setup: HeritageSetup
    """Players, clans, battlegrounds and missions in play."""
    rounds_played: int | None = Field(default=None, ge=0)
    """Rounds finished so far; None means the final round is finished (§H3)."""
    entries: list[PlayerEntries]
    """One end-of-game entry per player."""
    primogen_draw: PrimogenDraw | None = None
    """The primogen draw for the win, once the players made it (only when one is needed)."""

    @model_validator(mode="after")
    def _check(self) -> "HeritageGame":
        if self.version > FORMAT_VERSION:
            raise HeritageError(
                "too_new", "§H1",
                f"this file is version {self.version}; this release reads up to "
                f"version {FORMAT_VERSION}", version=self.version,
            )
        setup = self.setup
        if self.rounds_played is not None and self.rounds_played > setup.rounds:
            raise HeritageError(
                "rounds_played", "§H3",
                f"a {len(setup.players)}-player game lasts {setup.rounds} rounds; "
                f"{self.rounds_played} were entered", rounds=setup.rounds,
            )
        entered = [e.player for e in self.entries]
        if sorted(entered) != sorted(setup.names):
            raise HeritageError(
                "entries_players", "§H4",
                f"the pad needs one entry per player ({', '.join(setup.names)}); entries were "
                f"made for {', '.join(entered) or 'nobody'}", players=setup.names,
            )
        claimed: dict[str, str] = {}
        in_play = set(setup.battlegrounds)
        for e in self.entries:
            if set(e.battleground_vp) != in_play:
                missing = sorted(in_play - set(e.battleground_vp))
                extra = sorted(set(e.battleground_vp) - in_play)
                raise HeritageError(
                    "battleground_vp", "§H4",
                    f"{e.player} needs VP for each battleground in play "
                    f"({', '.join(setup.battlegrounds)}; enter 0 for none)"
                    + (f"; missing: {', '.join(missing)}" if missing else "")
                    + (f"; not in play: {', '.join(extra)}" if extra else ""),
                    player=e.player, missing=missing, extra=extra,
                )
            for m in e.missions_claimed:
                if m not in setup.missions:
                    raise HeritageError(
                        "mission_unknown", "§H7",
                        f"{e.player} claimed {m!r}, which is not a mission in play",
                        player=e.player, mission=m,
                    )
                if m in claimed:
                    raise HeritageError(
                        "mission_claimed_twice", "§H7",
                        f"{m!r} is claimed by one player only ({claimed[m]} and {e.player} "
                        f"were entered)", mission=m,
                    )
                claimed[m] = e.player
            if setup.chronicle and e.mission_power:
                raise HeritageError(
                    "mission_power_chronicle", "§H4",
                    f"in a chronicle chapter claimed missions give no power ({e.player} "
                    f"entered {e.mission_power})", player=e.player,
                )
        return self

    def entry(self, player: str) -> PlayerEntries:
        """The end-of-game entry of a player."""
        return next(e for e in self.entries if e.player == player)


# --------------------------------------------------------------------------- chronicle


class ChapterSeat(Entry):
    """One player of a chronicle chapter, as recorded in the ledger (§H10–§H13)."""

    player: str = Field(min_length=1, max_length=30)
    """The player, by name."""
    clan: Clan
    """Clan played this chapter."""
    vp: int
    """Victory points scored this chapter."""
    missions_claimed: int = Field(default=0, ge=0)
    """Missions claimed this chapter (they order equal VP, §H5)."""
    era_points: int | None = None
    """Era points the chronicle booklet gave this chapter (an entry; None = not yet entered)."""
    titles: list[str] = []
    """Titles gained in this chapter's aftermath, as written on the player sheet."""
    haven: str | None = Field(default=None, max_length=60)
    """The one vampire in the player's haven after this aftermath (None: the haven is empty)."""


class ChapterRecord(Entry):
    """One chapter of the chronicle (§H10)."""

    chapter: int = Field(ge=1, le=CHAPTERS)
    """Chapter number, 1–21."""
    seats: list[ChapterSeat]
    """The 2–4 players of the chapter."""
    placings: list[str]
    """The outcome, victor first and vanquished last (ties as the pad settled them)."""
    aftermath_done: list[AftermathStep] = []
    """Aftermath steps already carried out (§H11)."""

    @model_validator(mode="after")
    def _check(self) -> "ChapterRecord":
        names = [s.player for s in self.seats]
        check_players_count(len(names))
        _check_unique_names(names, "player")
        shared = sorted(c for c, k in Counter(s.clan for s in self.seats).items() if k > 1)
        if shared:
            raise HeritageError(
                "clans_unique", "§H2",
                f"chapter {self.chapter}: each player controls a different clan "
                f"({', '.join(shared)} chosen twice)", clans=shared,
            )
        if sorted(self.placings) != sorted(names):
            raise HeritageError(
                "placings_players", "§H10",
                f"chapter {self.chapter}: the outcome lists each of its players once "
                f"({', '.join(names)})", players=names,
            )
        seat = {s.player: s for s in self.seats}
        for above, below in zip(self.placings, self.placings[1:], strict=False):
            a, b = seat[above], seat[below]
            if (-a.vp, a.missions_claimed) > (-b.vp, b.missions_claimed):
                raise HeritageError(
                    "placings_order", "§H5",
                    f"chapter {self.chapter}: {above} ({a.vp} VP, {a.missions_claimed} "
                    f"missions) cannot place above {below} ({b.vp} VP, {b.missions_claimed} "
                    f"missions)", above=above, below=below,
                )
        if self.chapter % CHAPTERS_PER_ERA and "era_end" in self.aftermath_done:
            raise HeritageError(
                "not_era_end", "§H11",
                f"chapter {self.chapter} does not end an era; its aftermath has no era step",
                chapter=self.chapter,
            )
        return self

    @property
    def victor(self) -> str:
        """First place."""
        return self.placings[0]

    @property
    def vanquished(self) -> str:
        """Last place."""
        return self.placings[-1]

    @property
    def players(self) -> list[str]:
        """Players of the chapter in entry order."""
        return [s.player for s in self.seats]

    def seat(self, player: str) -> ChapterSeat | None:
        """A player's seat, or None when they did not play this chapter."""
        return next((s for s in self.seats if s.player == player), None)


class EraRecord(Entry):
    """How an ended era was dominated (§H14)."""

    era: int = Field(ge=1, le=ERAS)
    """Era number, 1–7."""
    dominated_by: str | None = None
    """The dominating player, entered when the era points leave a tie (booklet tie-breaker)."""
    primogen_draw: PrimogenDraw | None = None
    """The primogen draw, when the booklet's tie-breaker left a tie."""
    dots: str = ""
    """The dots the dominating player added to the chronicle scoresheet, as entered."""


class ChronicleLedger(Entry):
    """A chronicle of up to 21 chapters (§H10–§H14)."""

    format: Literal["vendetta-companion/heritage-chronicle"] = FORMAT_CHRONICLE
    """Format tag of the file."""
    version: int = FORMAT_VERSION
    """Version of the file format; newer than this release is refused."""
    youngest_to_oldest: list[str]
    """The founding players from youngest to oldest (chapter 1's order, §H10)."""
    chapters: list[ChapterRecord] = []
    """Chapters played, in order from chapter 1."""
    eras: list[EraRecord] = []
    """Entries for ended eras."""

    @model_validator(mode="after")
    def _check(self) -> "ChronicleLedger":
        if self.version > FORMAT_VERSION:
            raise HeritageError(
                "too_new", "§H1",
                f"this file is version {self.version}; this release reads up to "
                f"version {FORMAT_VERSION}", version=self.version,
            )
        check_players_count(len(self.youngest_to_oldest))
        _check_unique_names(self.youngest_to_oldest, "founding player")
        numbers = [c.chapter for c in self.chapters]
        if numbers != list(range(1, len(numbers) + 1)):
            raise HeritageError(
                "chapters_order", "§H10",
                f"chapters are recorded in order from 1 (entered: {numbers})", chapters=numbers,
            )
        if self.chapters and sorted(self.chapters[0].players) != sorted(self.youngest_to_oldest):
            raise HeritageError(
                "founders", "§H10", "chapter 1 is played by the founding players",
                players=list(self.youngest_to_oldest),
            )
        eras = [e.era for e in self.eras]
        if len(set(eras)) != len(eras):
            raise HeritageError("era_twice", "§H14", "each era is entered once", eras=eras)
        for e in self.eras:
            if e.era * CHAPTERS_PER_ERA > len(self.chapters):
                raise HeritageError(
                    "era_not_ended", "§H14",
                    f"era {e.era} ends with chapter {e.era * CHAPTERS_PER_ERA}, "
                    f"not yet recorded", era=e.era,
                )
        return self

    def era_entry(self, era: int) -> EraRecord | None:
        """The entries for an era, if any."""
        return next((e for e in self.eras if e.era == era), None)
