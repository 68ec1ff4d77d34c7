"""How a game starts: a new table (§2, §13) or an entered position."""

from pydantic import Field, model_validator

from models.cards import VICTIM, AllyCard, ClanCard, LocationCard, RelicCard
from models.common import PLANNING_TURNS, Clan, Frozen, LocationId, Phase


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
        check_seats([p.name for p in self.players], [p.team for p in self.players],
                    self.variants)
        return self

    @property
    def three_player(self) -> bool:
        """3-player mode is automatic with 3 players (§13)."""
        return len(self.players) == 3


def check_seats(names: list[str], teams: list[str | None], variants: Variants) -> None:
    """Unique names; teams seated opposite in tag team, none otherwise (§2, §13).

    Raises:
        ValueError: the seating breaks a rule.
    """
    folded = [n.strip().casefold() for n in names]
    if len(set(folded)) != len(folded):
        raise ValueError("§2: player names must be unique")
    n = len(names)
    if variants.tag_team:
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
    """Cards in hand; omitted: 2 (Hunt and Ready) + the cards of every Hand Building so far
    (§6: 1 a round; 3-player mode 2 in round 1) − the Planning turns taken this round (all of
    the round's turns at Resolution), as if every turn played a card."""
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
    """Planning: turns every player has already taken this round (players before
    `planning_player` in turn order have taken one more)."""
    planning_player: str | None = Field(default=None, max_length=30)
    """Planning: whose turn it is, when the position is entered in the middle of a lap of
    turns; players before them in turn order (from the Ambition holder) have taken
    `turns_taken` + 1 turns (§7). Omitted: the first player in turn order."""
    resolution_location: LocationId | None = None
    """Resolution: the Location about to be resolved (earlier ones are done)."""
    locations: list[PositionLocation] = []
    """Locations; omitted ones are empty."""

    @model_validator(mode="after")
    def _check(self) -> "Position":
        check_position(self)
        return self


HAND_BUILDING = {False: {1: 1, 2: 1, 3: 1}, True: {1: 2, 2: 1, 3: 1}}
"""Cards added to the hand at Hand Building, normal and 3-player mode (§6, §13)."""


def default_hand_size(pos: "Position", turns: int = 0) -> int:
    """Cards in hand at the start of the position's phase when nobody played extra, for a
    player who took `turns` Planning turns this round (§6, §7)."""
    three = len(pos.players) == 3
    added = sum(HAND_BUILDING[three][r] for r in range(1, pos.round))
    hand = 2 + added
    if pos.phase in ("planning", "resolution"):
        hand += HAND_BUILDING[three][pos.round]
        hand -= turns if pos.phase == "planning" else PLANNING_TURNS[three][pos.round]
    return hand


def turns_taken(pos: "Position") -> dict[str, int]:
    """Planning turns each player has taken this round: one more for those before the
    `planning_player` in turn order from the Ambition holder (§1, §7)."""
    names = [p.name for p in pos.players]
    if pos.planning_player is None:
        return {n: pos.turns_taken for n in names}
    start = names.index(pos.ambition)
    order = [names[(start + i) % len(names)] for i in range(len(names))]
    before = set(order[:order.index(pos.planning_player)])
    return {n: pos.turns_taken + (n in before) for n in names}


def check_position(pos: "Position") -> None:
    """An entered position must be one the rules can reach.

    Raises:
        ValueError: names the rule (§) and the player or Location at fault.
    """
    names = [p.name for p in pos.players]
    check_seats(names, [p.team for p in pos.players], pos.variants)
    n, three = len(names), len(names) == 3
    if pos.phase == "setup":
        raise ValueError("§2: start a new game for setup; a position starts at a round phase")
    if pos.phase == "game_over" and pos.round != 3:
        raise ValueError("§12: the game ends after round 3")
    if pos.ambition not in names:
        raise ValueError(f"§1: the Ambition holder {pos.ambition!r} is not a player")
    clans = [p.clan for p in pos.players]
    if len(set(clans)) != n:
        raise ValueError("§2: each player has a different clan")
    active_phase = pos.phase in ("planning", "resolution")
    for p in pos.players:
        if not p.eliminated:
            if p.blood < 1 and pos.phase != "game_over":
                raise ValueError(f"§10: {p.name} has 0 Blood; a Pool at 0 is in Frenzy "
                                 "and drains a card first")
            if p.diablerie_up + p.diablerie_down >= 3:
                raise ValueError(f"§11: {p.name} has 3 Diablerie tokens and is out of the game")
        if p.diablerie_down and not active_phase:
            raise ValueError(f"§10: {p.name}'s face-down Diablerie tokens flip up at the end "
                             "of the round")
        if (p.relic is not None) != pos.variants.relics and not (p.relic is None
                                                                and pos.phase == "game_over"):
            raise ValueError(f"§13: {p.name}: a Relic is held exactly when the Relics "
                             "variant is in play")
    if pos.turns_taken and pos.phase != "planning":
        raise ValueError("§7: turns taken only apply to the Planning phase")
    if pos.planning_player is not None:
        if pos.phase != "planning":
            raise ValueError("§7: whose Planning turn it is is given only during Planning")
        who = next((p for p in pos.players if p.name == pos.planning_player), None)
        if who is None or who.eliminated:
            raise ValueError(f"§7: {pos.planning_player!r} is not a player still in the game, "
                             "so it cannot be their Planning turn")
    if pos.phase == "planning" and pos.turns_taken >= PLANNING_TURNS[three][pos.round]:
        raise ValueError(f"§7: round {pos.round} has {PLANNING_TURNS[three][pos.round]} "
                         "Planning turns each; enter the position at Resolution instead")
    ids = locations_for(n)
    seen = [loc.id for loc in pos.locations]
    if len(set(seen)) != len(seen) or not set(seen) <= set(ids):
        raise ValueError(f"§2: with {n} players the Locations are {', '.join(ids)}")
    if pos.resolution_location is not None and (
            pos.phase != "resolution" or pos.resolution_location not in ids):
        raise ValueError("§8: a Resolution Location is given only at Resolution, and must be "
                         "in play")
    start = ids.index(pos.resolution_location or ids[0])
    given = {loc.id: loc for loc in pos.locations}
    for i, loc_id in enumerate(ids):
        loc = given.get(loc_id)
        if loc is not None and loc.location_card and (
                not pos.variants.location_cards or loc_id == "haven"):
            raise ValueError(f"§13: no Location card at {loc_id} without the variant, and "
                             "never on the Prince's Haven")
        needs_ally = pos.phase in ("hand_building", "planning") or (
            pos.phase == "resolution" and i >= start)
        has_ally = loc is not None and loc.ally is not None
        if needs_ally and not has_ally:
            raise ValueError(f"§5: Location {loc_id} needs its Ally (laid at Location Setup)")
        if has_ally and pos.phase in ("feed", "location_setup", "game_over"):
            raise ValueError(f"§5: no Ally lies at Location {loc_id} before Location Setup")
        for d in (loc.deployed if loc else []):
            if not active_phase:
                raise ValueError("§10: nothing is Deployed outside Planning and Resolution")
            if d.player not in names:
                raise ValueError(f"§7: {d.player!r} at Location {loc_id} is not a player")
            if next(p for p in pos.players if p.name == d.player).eliminated and (
                    d.cards or d.blood):
                raise ValueError(f"§11: {d.player} is out of the game and has nothing Deployed")
            for c in d.cards:
                if c.face_up != (c.card is not None):
                    raise ValueError(f"§7: at Location {loc_id}, {d.player}'s face-up cards "
                                     "need their identity and face-down ones must not have one")
                if c.owner is not None and c.owner not in names:
                    raise ValueError(f"§7: card owner {c.owner!r} is not a player")


def check_cards(pos: "Position") -> None:
    """Each player owns one copy of each of their clan cards; each Ally exists once; every
    Victim has the same values (§1, §2). Checked when a game starts from the position, not
    when a stored game is read back (games stored before this check must still open).

    Raises:
        ValueError: a card appears twice, or a Victim has other values.
    """
    seen: dict[str, set[str]] = {}
    for loc in pos.locations:
        for d in loc.deployed:
            for c in d.cards:
                key = c.card.key() if c.card else None
                owner = c.owner or d.player
                if key is not None:
                    if key.casefold() in seen.setdefault(owner, set()):
                        raise ValueError(f"§2: {owner} has {c.card.label()} face up twice; "
                                         "each player owns one copy of each of their cards")
                    seen[owner].add(key.casefold())
    allies = [c.card for p in pos.players for c in p.alliance] + [
        loc.ally for loc in pos.locations if loc.ally is not None]
    keys: set[str] = set()
    for ally in allies:
        if ally.kind == "victim" and ally.model_dump(exclude={"name", "id"}) != VICTIM.model_dump(
                exclude={"name", "id"}):
            raise ValueError(f"§1: every Victim is Influence 1, Feed 1, Drain 3 and drained "
                             f"Influence 0; {ally.name} is not")
        key = ally.key()
        if key is not None:
            if key.casefold() in keys:
                raise ValueError(f"§1: the Ally {ally.name} appears twice; each Ally exists once")
            keys.add(key.casefold())
