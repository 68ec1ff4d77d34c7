"""Vendetta as a kind of stored game: its replay and its history summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the rules engine is imported when a game is first played or read
    from companion.rules.game import Game

ID = "vendetta"
"""The `game` field of a Vendetta game (also every game stored without one)."""


def replay(header: dict[str, Any], entries: list[dict[str, Any]], verify: bool = False) -> Game:
    """A stored Vendetta game replayed from its journal (`Game.from_journal`)."""
    from companion.rules.game import Game

    return Game.from_journal(header, entries, verify=verify)


def summary(game: Game) -> dict[str, Any]:
    """History-index summary of a game (read without replaying it)."""
    from companion.rules.scoring import influence

    s = game.state
    board = s.scoreboard
    rows = {r.player: r for r in board.rows} if board else {}
    return {
        "game": ID,
        "game_id": game.header.game_id,
        "created": game.header.created,
        "updated": game.actions[-1].at if game.actions else game.header.created,
        "players": [p.name for p in s.players],
        "clans": [p.clan for p in s.players],
        "variants": s.variants.model_dump(),
        "round": s.round,
        "phase": s.phase,
        "finished": s.phase == "game_over",
        "winner": (board.winning_team or board.winner) if board else None,
        "scores": {r.name: r.influence.total for r in board.rows} if board else None,
        "player_count": len(s.players),
        "standings": [
            {"name": p.name, "clan": p.clan, "team": p.team,
             "influence": (rows[i].influence.total if board else influence(s, i).total),
             "blood": p.blood, "rank": rows[i].rank if board else None,
             "eliminated": p.eliminated, "frenzies": p.frenzies, "diablerie": p.diablerie}
            for i, p in enumerate(s.players)
        ],
        "haven_winners": [None] * _rounds_before(game) + [
            s.players[w].name if w is not None else None for w in s.haven_winners],
        "time": played.summary() if (played := game.time()) else None,
    }


def _rounds_before(game: Game) -> int:
    """Rounds whose Prince's Haven was resolved before the game came into the app."""
    from models.setup import Position

    start = game.header.start
    if not isinstance(start, Position):
        return 0
    return 3 if start.phase == "game_over" else start.round - 1
