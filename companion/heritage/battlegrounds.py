"""Helpers from counts the players enter: who claims a mission (§H7), the battleground formulas
the seed states (§H8) and who takes the first player marker after a round (§H9).

Counts are always entries: the seed gives no track lengths, board maps or VP bands, so the
helpers only do what the rules say with the numbers the table reads off its boards.
"""

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field, model_validator

from companion.heritage.errors import HeritageError
from companion.heritage.models import (
    BEAST_WITHIN,
    CLANS_HIGH_AND_LOW,
    INQUISITION,
    RISE_OF_HUMANITY,
    SABBAT_WARS,
    SABBAT_WARS_ALLEGIANCES,
    WAR_OF_THE_PRINCES,
    Allegiance,
    Entry,
    PrimogenDraw,
    Result,
    canonical_battleground,
    check_players_count,
)

VampireCounts = Mapping[str, Mapping[str, int]]
"""Player → attribute → vampires with that attribute in the bloodline (torpor excluded)."""

SABBAT_WARS_VP = 9
"""VP for each player of the winning Sabbat Wars allegiance (§H8.4)."""
SABBAT_WARS_REGIONS_TO_WIN = 3
"""Regions Camarilla or Sabbat must control to win Sabbat Wars (§H8.4)."""
WAR_OF_THE_PRINCES_VP = 2
"""VP per vampire of a winning faction's attribute (§H8.2)."""
WAR_OF_THE_PRINCES_ANY_VP = 1
"""VP per vampire that may activate any attribute there (§H8.2)."""
INQUISITION_VP = 1
"""VP per vampire of the winning attribute (§H8.3)."""


def _check_counts(values: Mapping[str, int], what: str, section: str) -> None:
    negative = sorted(k for k, v in values.items() if v < 0)
    if negative:
        raise HeritageError(
            "negative_count", section, f"{what} cannot be negative ({', '.join(negative)})",
            names=negative,
        )


def _vp_per_vampire(winners: Sequence[str], vp_each: int, counts: VampireCounts,
                    section: str) -> dict[str, int]:
    for player, per_attribute in counts.items():
        _check_counts(per_attribute, f"{player}'s vampire counts", section)
    return {
        player: vp_each * sum(per_attribute.get(w, 0) for w in winners)
        for player, per_attribute in counts.items()
    }


class BattlegroundOutcome(Result):
    """What a battleground formula gives: the winning side(s) and each player's VP."""

    battleground: str
    """The battleground's name."""
    winners: list[str]
    """Winning attribute(s), faction(s) or allegiance; empty when nobody wins."""
    vp: dict[str, int]
    """VP each player scores there."""
    note: str
    """The outcome in words, citing the rule."""


class MissionVampire(Entry):
    """One vampire's count of a mission's symbol (§H7)."""

    symbols: int = Field(default=0, ge=0)
    """How many of the mission's symbols it shows."""
    clan_leader: bool = False
    """The player's clan leader (its symbols count twice on a tie)."""
    torpor: bool = False
    """In torpor: it does not count."""

    @model_validator(mode="after")
    def _check(self) -> "MissionVampire":
        if self.clan_leader and self.torpor:
            raise HeritageError(
                "leader_torpor", "§H4",
                "a clan leader is never in torpor (a childe goes in its place)",
            )
        return self


class MissionClaim(Result):
    """Who claims a mission and how it was settled (§H7)."""

    claimant: str | None
    """The claiming player; None when nobody claims it or a draw is still needed."""
    decided_by: Literal["most", "clan_leader_twice", "primogen_draw", "nobody"] | None
    """The step that settled it; None while a primogen draw is needed."""
    counts: dict[str, int]
    """Each player's symbols outside torpor."""
    tie_counts: dict[str, int]
    """The tied players' counts with their clan leader's symbols counted twice (empty if no tie)."""
    needs_draw: list[str]
    """Players who must make a primogen draw before the mission is claimed."""
    note: str
    """The outcome in words, citing the rule."""


def mission_claimant(
    bloodlines: Mapping[str, Sequence[MissionVampire]], draw: PrimogenDraw | None = None,
) -> MissionClaim:
    """Who claims a mission: most symbols outside torpor; on a tie the clan leader's count
    twice; then the primogen draw, which `draw` supplies once made (§H7, §H6).

    Raises:
        HeritageError: fewer than 2 players, a clan leader in torpor, or a draw that does
            not match the tie (or is entered when none is needed).
    """
    check_players_count(len(bloodlines))
    counts = {
        p: sum(v.symbols for v in vs if not v.torpor) for p, vs in bloodlines.items()
    }
    best = max(counts.values())

    def result(claimant: str | None, how: str | None, tie: dict[str, int],
               needs: list[str], note: str) -> MissionClaim:
        if draw is not None and how != "primogen_draw":
            raise HeritageError(
                "primogen_not_needed", "§H6",
                "no primogen draw is needed for this mission; remove it",
            )
        return MissionClaim(claimant=claimant, decided_by=how, counts=counts, tie_counts=tie,
                            needs_draw=needs, note=note)

    if best == 0:
        return result(None, "nobody", {}, [], "§H7: nobody shows the symbol; nobody claims it")
    tied = [p for p, c in counts.items() if c == best]
    if len(tied) == 1:
        return result(tied[0], "most", {}, [], f"§H7: {tied[0]} has the most symbols ({best})")
    doubled = {
        p: counts[p] + sum(v.symbols for v in bloodlines[p] if v.clan_leader and not v.torpor)
        for p in tied
    }
    top = max(doubled.values())
    still = [p for p, c in doubled.items() if c == top]
    if len(still) == 1:
        return result(still[0], "clan_leader_twice", doubled, [],
                      f"§H7: tied on {best}; {still[0]} wins with the clan leader counted "
                      f"twice ({top})")
    if draw is None:
        return result(None, None, doubled, still,
                      f"§H7: {', '.join(still)} are still tied ({top}); a primogen draw "
                      f"is needed (§H6)")
    draw.check_players(still, "this mission")
    return result(draw.winner, "primogen_draw", doubled, [],
                  f"§H7: {draw.winner} claims it by the primogen draw ({draw.drawn})")


def clans_high_and_low(winning_attribute: str | None, vp_per_vampire: int,
                       counts: VampireCounts) -> BattlegroundOutcome:
    """Of Clans High and Low: the token's side names the winning attribute (None: neutral,
    nobody wins); the VP per vampire, 1 or 2, is read from the token's space (§H8.1)."""
    if vp_per_vampire not in (1, 2):
        raise HeritageError(
            "vp_per_vampire", "§H8.1",
            f"Of Clans High and Low gives 1 or 2 VP per vampire; {vp_per_vampire} was entered",
            value=vp_per_vampire,
        )
    if winning_attribute is None:
        return BattlegroundOutcome(
            battleground=CLANS_HIGH_AND_LOW, winners=[], vp={p: 0 for p in counts},
            note="§H8.1: the token is on the neutral space; neither attribute wins",
        )
    vp = _vp_per_vampire([winning_attribute], vp_per_vampire, counts, "§H8.1")
    return BattlegroundOutcome(
        battleground=CLANS_HIGH_AND_LOW, winners=[winning_attribute], vp=vp,
        note=f"§H8.1: {winning_attribute} wins; {vp_per_vampire} VP per vampire",
    )


def war_of_the_princes(
    courts: Mapping[str, int], central: str | None, counts: VampireCounts,
    any_attribute: Mapping[str, int] | None = None,
) -> BattlegroundOutcome:
    """The War of the Princes: the faction(s) controlling the most courts win, the central
    space counting as two; ties are shared victories. 2 VP per vampire of a winning
    attribute, and 1 VP per vampire that may activate any attribute there (§H8.2).

    `courts` holds each faction's courts apart from the central space; `central` names the
    faction controlling it (None: nobody).
    """
    _check_counts(courts, "courts", "§H8.2")
    if central is not None and central not in courts:
        raise HeritageError(
            "central_faction", "§H8.2",
            f"the central space's faction {central!r} is not one of {', '.join(courts)}",
            central=central,
        )
    totals = {f: n + (2 if f == central else 0) for f, n in courts.items()}
    best = max(totals.values(), default=0)
    winners = [f for f, n in totals.items() if n == best] if best > 0 else []
    vp = _vp_per_vampire(winners, WAR_OF_THE_PRINCES_VP, counts, "§H8.2")
    extra = dict(any_attribute or {})
    _check_counts(extra, "vampires of any attribute", "§H8.2")
    for player, n in extra.items():
        vp[player] = vp.get(player, 0) + WAR_OF_THE_PRINCES_ANY_VP * n
    if not winners:
        note = "§H8.2: no faction controls a court; nobody wins"
    elif len(winners) == 1:
        note = f"§H8.2: {winners[0]} controls the most courts ({best})"
    else:
        note = f"§H8.2: tied victory of {', '.join(winners)} ({best} courts each)"
    return BattlegroundOutcome(battleground=WAR_OF_THE_PRINCES, winners=winners, vp=vp,
                               note=note)


def inquisition(face_up: Mapping[str, int], counts: VampireCounts) -> BattlegroundOutcome:
    """The Inquisition: of its two attributes, the one showing the smaller number of face-up
    clan politics tokens wins, 1 VP per vampire; equal counts mean nobody wins (§H8.3)."""
    if len(face_up) != 2:
        raise HeritageError(
            "inquisition_attributes", "§H8.3",
            f"The Inquisition compares 2 attributes; {len(face_up)} were entered",
            count=len(face_up),
        )
    _check_counts(face_up, "face-up tokens", "§H8.3")
    (a, na), (b, nb) = face_up.items()
    if na == nb:
        return BattlegroundOutcome(
            battleground=INQUISITION, winners=[], vp={p: 0 for p in counts},
            note=f"§H8.3: {a} and {b} have {na} face-up tokens each; nobody wins",
        )
    winner = a if na < nb else b
    return BattlegroundOutcome(
        battleground=INQUISITION, winners=[winner],
        vp=_vp_per_vampire([winner], INQUISITION_VP, counts, "§H8.3"),
        note=f"§H8.3: {winner} has fewer face-up tokens ({min(na, nb)} to {max(na, nb)})",
    )


def sabbat_wars_allegiances(players: int) -> tuple[Allegiance, ...]:
    """The allegiances to deal at random on Sabbat Wars for a player count (§H8.4)."""
    check_players_count(players)
    return SABBAT_WARS_ALLEGIANCES[players]


def sabbat_wars(allegiances: Mapping[str, Allegiance], camarilla_regions: int,
                sabbat_regions: int) -> BattlegroundOutcome:
    """Sabbat Wars: Camarilla or Sabbat win with 3 or more regions, otherwise the Anarchs;
    every player of the winning allegiance scores 9 VP (§H8.4).

    Raises:
        HeritageError: allegiances that are not the deal for the player count, negative
            regions, or both sides on 3+ regions (the seed does not settle it).
    """
    pool = sabbat_wars_allegiances(len(allegiances))
    if sorted(allegiances.values()) != sorted(pool):
        raise HeritageError(
            "allegiances", "§H8.4",
            f"with {len(allegiances)} players the allegiances are {' / '.join(pool)}",
            allegiances=list(pool),
        )
    _check_counts({"Camarilla": camarilla_regions, "Sabbat": sabbat_regions}, "regions",
                  "§H8.4")
    cam = camarilla_regions >= SABBAT_WARS_REGIONS_TO_WIN
    sab = sabbat_regions >= SABBAT_WARS_REGIONS_TO_WIN
    if cam and sab:
        raise HeritageError(
            "sabbat_wars_both", "§H8.4",
            "Camarilla and Sabbat cannot both control 3 or more regions by the rules as "
            "the companion knows them; check the regions, or enter the VP directly",
            camarilla=camarilla_regions, sabbat=sabbat_regions,
        )
    winner: Allegiance = "Camarilla" if cam else "Sabbat" if sab else "Anarch"
    vp = {p: SABBAT_WARS_VP if a == winner else 0 for p, a in allegiances.items()}
    holders = [p for p, a in allegiances.items() if a == winner]
    who = ", ".join(holders) if holders else "no player holds it"
    return BattlegroundOutcome(
        battleground=SABBAT_WARS, winners=[winner], vp=vp,
        note=f"§H8.4: {winner} wins ({who}); 9 VP per player of {winner}",
    )


class FirstPlayer(Result):
    """Who holds the first player marker for the next round (§H9)."""

    first_player: str
    """The player holding the marker next round."""
    moved: bool
    """Whether the marker changed hands."""
    note: str
    """Why, citing the rule."""


def first_player_after_round(battleground: str, positions: Mapping[str, int],
                             current: str) -> FirstPlayer:
    """The first player after a round: the highest clan morality token on The Beast Within,
    the lowest on The Rise of Humanity; a tie for that place moves nothing (§H9)."""
    name = canonical_battleground(battleground)
    if name not in (BEAST_WITHIN, RISE_OF_HUMANITY):
        raise HeritageError(
            "morality_battleground", "§H9",
            f"the first player marker follows The Beast Within or The Rise of Humanity, "
            f"not {name}", battleground=name,
        )
    check_players_count(len(positions))
    if current not in positions:
        raise HeritageError(
            "first_player_unknown", "§H9", f"{current} is not one of the players",
            player=current,
        )
    target = max(positions.values()) if name == BEAST_WITHIN else min(positions.values())
    word = "highest" if name == BEAST_WITHIN else "lowest"
    at = [p for p, v in positions.items() if v == target]
    if len(at) > 1:
        return FirstPlayer(first_player=current, moved=False,
                           note=f"§H9: {', '.join(at)} share the {word} space ({target}) on "
                                f"{name}; the marker stays with {current}")
    return FirstPlayer(first_player=at[0], moved=at[0] != current,
                       note=f"§H9: {at[0]} is {word} on {name} ({target})")
