"""The Heritage end-of-game pad: rounds, totals, ranks, the winner and its ties (§H3–§H6), and
the file entry point a command line can call (`score_file`).

Scoring is a pure function of a `HeritageGame`; a game whose winner needs a primogen draw is
scored as unfinished, saying which players must draw, until the draw is entered.
"""

import json
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ValidationError

from companion.heritage.errors import HeritageError, heritage_error_in
from companion.heritage.models import (
    ROUNDS,
    Clan,
    HeritageGame,
    PlayerEntries,
    Result,
    check_players_count,
)

M = TypeVar("M", bound=BaseModel)


def rounds_for_players(players: int) -> int:
    """Rounds a game lasts: 10, 9 or 8 for 2, 3 or 4 players (§H3).

    Raises:
        HeritageError: any other player count (key "players_count").
    """
    check_players_count(players)
    return ROUNDS[players]


def next_round(players: int, finished: int) -> int:
    """The round to play after `finished` rounds (§H3).

    Raises:
        HeritageError: the final round is already finished, or a negative count.
    """
    total = rounds_for_players(players)
    if finished < 0:
        raise HeritageError("rounds_played", "§H3", "rounds played cannot be negative",
                            rounds=finished)
    if finished >= total:
        raise HeritageError(
            "game_over", "§H3",
            f"a {players}-player game ends once round {total} is finished", rounds=total,
        )
    return finished + 1


class PlayerScore(Result):
    """One player's line of the end-of-game score (§H4)."""

    player: str
    """The player."""
    clan: Clan
    """Their clan."""
    battleground_vp: dict[str, int]
    """VP from each battleground in play."""
    battlegrounds: int
    """Sum of the battleground VP."""
    power: int
    """Power on vampires outside torpor (+1 each)."""
    boons: int
    """Boons on vampires outside torpor (+1 each)."""
    infamy: int
    """Infamy on vampires outside torpor (−1 each)."""
    in_torpor: int
    """Vampires in torpor, worth nothing."""
    mission_power: int
    """Basic game: power from claimed missions (+1 each)."""
    total: int
    """Victory points."""
    missions_claimed: int
    """Missions claimed (fewer wins a tie)."""
    rank: int
    """Place: 1 is the winner; players still tied share a place."""


class GameResult(Result):
    """A scored Heritage game (§H3–§H6)."""

    rounds: int
    """Rounds the game lasts."""
    rounds_played: int
    """Rounds finished."""
    scores: list[PlayerScore]
    """One line per player, best first."""
    finished: bool
    """The final round is finished and the winner is settled (no draw outstanding)."""
    winner: str | None
    """The winner, once finished."""
    decided_by: Literal["victory_points", "fewer_missions", "primogen_draw"] | None
    """What settled the win."""
    needs_draw: list[str]
    """Players who must make the primogen draw before the game is finished."""
    vanquished: str | None
    """Last place, when the score settles it (else shared: see the ranks)."""
    summary: str
    """The outcome in one English sentence, citing the rule."""


def _line(entry: PlayerEntries, clan: Clan, order: list[str]) -> PlayerScore:
    awake = [v for v in entry.bloodline if not v.torpor]
    power = sum(v.power for v in awake)
    boons = sum(v.boons for v in awake)
    infamy = sum(v.infamy for v in awake)
    battlegrounds = sum(entry.battleground_vp.values())
    return PlayerScore(
        player=entry.player, clan=clan,
        battleground_vp={b: entry.battleground_vp[b] for b in order},
        battlegrounds=battlegrounds, power=power, boons=boons, infamy=infamy,
        in_torpor=len(entry.bloodline) - len(awake), mission_power=entry.mission_power,
        total=battlegrounds + power + boons - infamy + entry.mission_power,
        missions_claimed=len(entry.missions_claimed), rank=0,
    )


def _key(s: PlayerScore) -> tuple[int, int]:
    return (-s.total, s.missions_claimed)


def score(game: HeritageGame) -> GameResult:
    """Score a game: totals, ranks, winner and vanquished; ties go to fewer claimed missions,
    then to the primogen draw (§H4–§H6). Until the final round is finished, or while a needed
    draw is not entered, the result is unfinished and says why.

    Raises:
        HeritageError: a primogen draw entered when none is needed, or not for the tied players.
    """
    setup = game.setup
    clans = {p.name: p.clan for p in setup.players}
    lines = sorted(
        (_line(game.entry(n), clans[n], setup.battlegrounds) for n in setup.names), key=_key
    )
    played = setup.rounds if game.rounds_played is None else game.rounds_played

    groups: list[list[PlayerScore]] = []
    for line in lines:
        if groups and _key(groups[-1][0]) == _key(line):
            groups[-1].append(line)
        else:
            groups.append([line])
    top = groups[0]
    over = played >= setup.rounds
    draw = game.primogen_draw

    winner: str | None = None
    decided_by: Literal["victory_points", "fewer_missions", "primogen_draw"] | None = None
    needs: list[str] = []
    if len(top) == 1:
        winner = top[0].player
        beaten = [s for g in groups[1:] for s in g if s.total == top[0].total]
        decided_by = "fewer_missions" if beaten else "victory_points"
    elif draw is not None:
        draw.check_players([s.player for s in top], "the win")
        winner, decided_by = draw.winner, "primogen_draw"
        top.sort(key=lambda s: s.player != winner)
        groups[0:1] = [top[:1], top[1:]]
    else:
        needs = [s.player for s in top]
    if draw is not None and decided_by != "primogen_draw":
        raise HeritageError(
            "primogen_not_needed", "§H6",
            f"no primogen draw is needed: {winner} wins without one; remove the draw",
            winner=winner,
        )

    scores: list[PlayerScore] = []
    for group in groups:
        rank = len(scores) + 1
        scores.extend(s.model_copy(update={"rank": rank}) for s in group)
    vanquished = groups[-1][0].player if len(groups[-1]) == 1 and len(groups) > 1 else None

    if not over:
        summary = (f"§H3: round {played} of {setup.rounds} finished; the game ends once "
                   f"round {setup.rounds} is finished")
        return GameResult(rounds=setup.rounds, rounds_played=played, scores=scores,
                          finished=False, winner=None, decided_by=None, needs_draw=[],
                          vanquished=None, summary=summary)
    best = scores[0]
    if needs:
        summary = (f"§H6: {', '.join(needs)} are tied on {best.total} VP with "
                   f"{best.missions_claimed} claimed mission(s) each; the primogen draw is "
                   f"needed before the game is finished")
    elif decided_by == "primogen_draw":
        summary = f"{winner} wins with {best.total} VP by the primogen draw (§H5, §H6)"
    elif decided_by == "fewer_missions":
        summary = (f"{winner} wins with {best.total} VP, having claimed fewer missions "
                   f"({best.missions_claimed}) (§H5)")
    else:
        summary = f"{winner} wins with {best.total} VP (§H5)"
    return GameResult(rounds=setup.rounds, rounds_played=played, scores=scores,
                      finished=not needs, winner=winner, decided_by=decided_by,
                      needs_draw=needs, vanquished=vanquished if not needs else None,
                      summary=summary)


def read_file(path: str | Path, model: type[M], what: str) -> M:
    """Read a Heritage file (docs/heritage-format.md) as `model`; `what` names the kind of
    file in a refusal ("game", "chronicle").

    Raises:
        HeritageError: the file breaks a rule (its own key) or is not such a file (key
            "format", with the first problem found and where).
        OSError: the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    try:
        return model.model_validate_json(text)
    except ValidationError as err:
        found = heritage_error_in(err)
        if found is not None:
            raise found from None
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "the file"
        if first["type"] == "json_invalid":
            try:
                json.loads(text)
            except json.JSONDecodeError as bad:
                where = f"line {bad.lineno}, column {bad.colno}"
        raise HeritageError(
            "format", "§H1",
            f"{Path(path).name} is not a Heritage {what} file: {where}: {first['msg']}",
            where=where, problems=len(err.errors()),
        ) from None


def load_game(path: str | Path) -> HeritageGame:
    """Read a Heritage game file (`read_file`)."""
    return read_file(path, HeritageGame, "game")


def score_file(path: str | Path) -> GameResult:
    """Load and score a Heritage game file (for `vendetta-companion heritage score FILE`)."""
    return score(load_game(path))


def result_text(result: GameResult) -> str:
    """The result as plain text: one line per player, then the outcome."""
    rows = []
    for s in result.scores:
        grounds = ", ".join(f"{name} {vp:+d}" for name, vp in s.battleground_vp.items())
        rows.append(
            f"{s.rank}. {s.player} ({s.clan}): {s.total} VP = battlegrounds {s.battlegrounds} "
            f"[{grounds}] + power {s.power} + boons {s.boons} − infamy {s.infamy}"
            + (f" + mission power {s.mission_power}" if s.mission_power else "")
            + (f"; {s.in_torpor} in torpor (0 VP)" if s.in_torpor else "")
            + f"; missions claimed {s.missions_claimed}"
        )
    rows.append(result.summary)
    return "\n".join(rows)
