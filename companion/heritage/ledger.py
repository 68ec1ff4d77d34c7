"""The Heritage chronicle ledger's derived facts (§H10–§H14): eras, the next chapter's first
player and clan-pick order, obligations, drop-in free dots, havens, titles, era standing and
the aftermath checklist. Pure functions of a `ChronicleLedger`; values the seed does not give
(era points, trait values, the era tie-breaker) are entries in the ledger.
"""

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from companion.heritage.errors import HeritageError
from companion.heritage.models import (
    AFTERMATH_STEPS,
    CHAPTERS,
    CHAPTERS_PER_ERA,
    ERAS,
    AftermathStep,
    ChapterRecord,
    ChapterSeat,
    ChronicleLedger,
    HeritageGame,
    Result,
    check_players_count,
)
from companion.heritage.pad import GameResult, read_file

AFTERMATH_LABELS: dict[AftermathStep, str] = {
    "prepare": "Before the aftermath: clear the boards, take the vampires in torpor out of "
               "the bloodlines, and take chronicle cards up to the next chapter overview",
    "record": "Write each player's name and clan in the chronicle booklet (era points)",
    "resolution": "Chapter resolution: the victor's and the vanquished's outcomes; write any "
                  "new title on the player sheet",
    "plotting": "Plotting: unlock clan schemes from the research deck, for the clan played",
    "missions": "Claim the chronicle missions, choose each response and take the rewards",
    "obligations": "Obligations: the victor adds 1 at random, every other player removes 1",
    "stickers": "Each player may apply one ability sticker to a vampire with a free slot",
    "retain": "Each player may retain one vampire in their haven",
    "new_characters": "Add the newly revealed characters to the character deck",
    "era_end": "Era end: the dominating player draws one card and adds its dots to the "
               "chronicle scoresheet",
}
"""Each aftermath step in the project's words (§H11)."""


def _check_chapter(chapter: int) -> None:
    if not 1 <= chapter <= CHAPTERS:
        raise HeritageError(
            "chapter_range", "§H10", f"a chronicle has chapters 1 to 21, not {chapter}",
            chapter=chapter,
        )


def era_of(chapter: int) -> int:
    """The era (1–7) a chapter belongs to: chapters 1–3 are era 1, … 19–21 era 7 (§H10)."""
    _check_chapter(chapter)
    return (chapter - 1) // CHAPTERS_PER_ERA + 1


def is_era_end(chapter: int) -> bool:
    """Whether the chapter's aftermath ends an era (chapters 3, 6, … 21, §H10)."""
    _check_chapter(chapter)
    return chapter % CHAPTERS_PER_ERA == 0


def era_chapters(era: int) -> tuple[int, ...]:
    """The three chapters of an era (§H10)."""
    if not 1 <= era <= ERAS:
        raise HeritageError("era_range", "§H10", f"a chronicle has eras 1 to 7, not {era}",
                            era=era)
    first = (era - 1) * CHAPTERS_PER_ERA + 1
    return tuple(range(first, first + CHAPTERS_PER_ERA))


class ChapterOrder(Result):
    """Who starts the next chapter and in which order clans are picked (§H10)."""

    chapter: int
    """The chapter about to be played."""
    first_player: str | None
    """Holder of the first player marker; None when the rule names someone not playing."""
    pick_order: list[str]
    """Clan-pick order, first to pick first."""
    unplaced: list[str]
    """Players the rule gives no place (drop-ins absent from the previous chapter)."""
    note: str
    """Why, citing the rule."""


def next_chapter_order(ledger: ChronicleLedger, players: Sequence[str]) -> ChapterOrder:
    """First player and clan-pick order of the next chapter (§H10): in chapter 1 the oldest
    starts and the youngest picks first; later the previous vanquished starts and clans are
    picked with the previous outcome reversed (the victor picks last).

    Raises:
        HeritageError: a wrong player count, repeated names, or the chronicle is over.
    """
    chapter = len(ledger.chapters) + 1
    if chapter > CHAPTERS:
        raise HeritageError("chronicle_over", "§H10", "all 21 chapters are recorded",
                            chapter=chapter)
    check_players_count(len(players))
    if len({p.casefold() for p in players}) != len(players):
        raise HeritageError("players_unique", "§H2", "each player needs a different name",
                            names=list(players))
    if chapter == 1:
        order = [p for p in ledger.youngest_to_oldest if p in players]
        first = ledger.youngest_to_oldest[-1]
        note = "§H10: chapter 1: the oldest player starts; the youngest picks a clan first"
    else:
        previous = ledger.chapters[-1]
        order = [p for p in reversed(previous.placings) if p in players]
        first = previous.vanquished
        note = (f"§H10: {previous.vanquished}, vanquished in chapter {previous.chapter}, "
                f"starts; clans are picked in reverse order of that outcome")
    if first not in players:
        note += f"; {first} is not playing, so the table chooses the first player"
    unplaced = [p for p in players if p not in order]
    if unplaced:
        note += f"; {', '.join(unplaced)} have no place in the pick order: the table decides"
    return ChapterOrder(chapter=chapter, first_player=first if first in players else None,
                        pick_order=order, unplaced=unplaced, note=note)


def obligations(ledger: ChronicleLedger, through: int | None = None) -> dict[str, int]:
    """Obligations in each haven after a chapter's aftermath (default: the last recorded):
    the victor adds 1, every other player of the chapter removes 1, never below 0 (§H12)."""
    held: dict[str, int] = {p: 0 for p in ledger.youngest_to_oldest}
    for record in ledger.chapters[: through if through is not None else len(ledger.chapters)]:
        for p in record.players:
            now = held.get(p, 0)
            held[p] = now + 1 if p == record.victor else max(0, now - 1)
    return held


def free_dots(ledger: ChronicleLedger, player: str, chapter: int | None = None) -> int:
    """Free dots a player joining at `chapter` (default: the next one) gains: one per chapter
    missed since they last played, or since chapter 1 for a newcomer (§H13)."""
    chapter = len(ledger.chapters) + 1 if chapter is None else chapter
    _check_chapter(chapter)
    if chapter > len(ledger.chapters) + 1:
        raise HeritageError(
            "chapter_ahead", "§H13",
            f"chapter {chapter} is not the next one ({len(ledger.chapters) + 1})",
            chapter=chapter,
        )
    last = max((r.chapter for r in ledger.chapters[: chapter - 1] if r.seat(player)),
               default=0)
    return chapter - 1 - last


def havens(ledger: ChronicleLedger) -> dict[str, str | None]:
    """The vampire each player's haven holds, as of their last recorded chapter (§H13)."""
    held: dict[str, str | None] = {p: None for p in ledger.youngest_to_oldest}
    for record in ledger.chapters:
        for s in record.seats:
            held[s.player] = s.haven
    return held


def titles(ledger: ChronicleLedger) -> dict[str, list[str]]:
    """Every title each player gained, in chapter order; each scores 1 point at the
    chronicle's end (§H13)."""
    gained: dict[str, list[str]] = {p: [] for p in ledger.youngest_to_oldest}
    for record in ledger.chapters:
        for s in record.seats:
            gained.setdefault(s.player, []).extend(s.titles)
    return gained


class EraStanding(Result):
    """The era points of an era and who dominates it (§H14)."""

    era: int
    """Era number."""
    complete: bool
    """The era's three chapters are recorded with every player's era points."""
    points: dict[str, int]
    """Era points entered so far, per player."""
    leaders: list[str]
    """Players with the most era points."""
    dominated_by: str | None
    """The dominating player, once settled."""
    decided_by: Literal["era_points", "tie_breaker_entered", "primogen_draw"] | None
    """What settled it."""
    note: str
    """The standing in words, citing the rule."""


def era_standing(ledger: ChronicleLedger, era: int) -> EraStanding:
    """Sum the era points entered for an era's chapters and settle who dominates it (§H14).

    A tie on era points is settled by the booklet's tie-breaker, which the seed does not
    state: the players enter the dominating player, or the primogen draw that followed.

    Raises:
        HeritageError: an entered dominating player or draw that the points contradict.
    """
    numbers = era_chapters(era)
    records = [r for r in ledger.chapters if r.chapter in numbers]
    points: dict[str, int] = {}
    missing = len(records) < CHAPTERS_PER_ERA
    for r in records:
        for s in r.seats:
            if s.era_points is None:
                missing = True
            points[s.player] = points.get(s.player, 0) + (s.era_points or 0)
    best = max(points.values(), default=0)
    leaders = [p for p, v in points.items() if v == best] if points else []
    entry = ledger.era_entry(era)

    def standing(who: str | None, how: str | None, note: str) -> EraStanding:
        return EraStanding(era=era, complete=not missing, points=points, leaders=leaders,
                           dominated_by=who, decided_by=how, note=note)

    if missing:
        return standing(None, None, f"§H14: era {era} is not complete: chapters "
                                    f"{numbers[0]}–{numbers[-1]} need every era point entry")
    draw = entry.primogen_draw if entry else None
    chosen = entry.dominated_by if entry else None
    if len(leaders) == 1:
        if (chosen and chosen != leaders[0]) or draw:
            raise HeritageError(
                "era_dominated_by", "§H14",
                f"{leaders[0]} has the most era points ({best}) and dominates era {era}; "
                f"no tie-breaker applies", era=era, leader=leaders[0],
            )
        return standing(leaders[0], "era_points",
                        f"§H14: {leaders[0]} dominates era {era} with {best} era points")
    if draw is not None:
        if not set(draw.declared) <= set(leaders):
            raise HeritageError(
                "primogen_players", "§H14",
                f"era {era}'s primogen draw is between players tied on {best} era points "
                f"({', '.join(leaders)})", tied=leaders, entered=list(draw.declared),
            )
        if chosen and chosen != draw.winner:
            raise HeritageError(
                "era_dominated_by", "§H14",
                f"the primogen draw names {draw.winner}, not {chosen}", era=era,
            )
        return standing(draw.winner, "primogen_draw",
                        f"§H14: {draw.winner} dominates era {era} by the primogen draw")
    if chosen is not None:
        if chosen not in leaders:
            raise HeritageError(
                "era_dominated_by", "§H14",
                f"{chosen} is not among the players tied on {best} era points "
                f"({', '.join(leaders)})", era=era, tied=leaders,
            )
        return standing(chosen, "tie_breaker_entered",
                        f"§H14: {chosen} dominates era {era} by the booklet's tie-breaker")
    return standing(None, None,
                    f"§H14: {', '.join(leaders)} are tied on {best} era points; apply the "
                    f"booklet's tie-breaker, then the primogen draw, and enter the result")


class ChecklistItem(Result):
    """One aftermath step of a chapter (§H11)."""

    step: AftermathStep
    """The step's key."""
    label: str
    """What to do, in the project's words."""
    applies: bool
    """False for the era step outside era ends."""
    done: bool
    """Ticked in the ledger."""


def aftermath_checklist(record: ChapterRecord) -> list[ChecklistItem]:
    """The chapter's aftermath in the seed's order, with the era step flagged (§H11)."""
    era_end = is_era_end(record.chapter)
    return [
        ChecklistItem(step=step, label=AFTERMATH_LABELS[step],
                      applies=step != "era_end" or era_end,
                      done=step in record.aftermath_done)
        for step in AFTERMATH_STEPS
    ]


def chapter_from_game(chapter: int, game: HeritageGame, result: GameResult,
                      placings: Sequence[str] | None = None) -> ChapterRecord:
    """A ledger chapter from a scored chronicle game: seats, VP, claimed missions and the
    outcome order (§H10). Players sharing a place must be ordered by `placings`.

    Raises:
        HeritageError: the game is not a finished chronicle game, or shared places are not
            ordered (or are ordered against the result).
    """
    if not game.setup.chronicle:
        raise HeritageError("not_chronicle", "§H10",
                            "only a chronicle chapter goes into the ledger")
    if not result.finished:
        raise HeritageError("unfinished", "§H10", f"the game is not finished: {result.summary}")
    ranks = [s.rank for s in result.scores]
    if placings is None:
        if len(set(ranks)) != len(ranks):
            shared = [s.player for s in result.scores if ranks.count(s.rank) > 1]
            raise HeritageError(
                "placings_needed", "§H5",
                f"{', '.join(shared)} share a place; enter the chapter's outcome order",
                players=shared,
            )
        placings = [s.player for s in result.scores]
    elif not placings or placings[0] != result.winner:
        raise HeritageError("placings_winner", "§H5",
                            f"{result.winner} won the chapter and places first",
                            winner=result.winner)
    seats = [
        ChapterSeat(player=s.player, clan=s.clan, vp=s.total,
                    missions_claimed=s.missions_claimed)
        for s in result.scores
    ]
    return ChapterRecord(chapter=chapter, seats=seats, placings=list(placings))


def load_ledger(path: str | Path) -> ChronicleLedger:
    """Read a chronicle ledger file (`companion.heritage.pad.read_file`)."""
    return read_file(path, ChronicleLedger, "chronicle")
