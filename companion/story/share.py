"""Share a finished game: the scoreboard as text, and as a play BG Stats imports.

BG Stats format: the public "push plays to BG Stats from other apps or websites" page of the BG
Stats app (bgstatsapp.com, support section) documents a JSON play, url-encoded into
`https://app.bgstatsapp.com/createPlay.html?data=<json>`; opening that link shows BG Stats'
import dialog. Its fields: sourceName, sourcePlayId, playDate ("yyyy-MM-dd HH:mm:ss"),
durationMin, location, comments, board, game {name, bggId, highestWins, noPoints,
sourceGameId}, players [{name, sourcePlayerId, score, winner, rank, role, startPlayer}].
Apps that post to it report that BG Stats' Android app refuses a player without `winner` or
`startPlayer`, and send playDate in UTC; both are followed here. No BoardGameGeek id is sent:
the sources give none, and BG Stats matches the game by name.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from companion.rules.clock import length_text
from companion.rules.game import Game

GAME_NAME = "Vampire: The Masquerade – Vendetta"
SOURCE_NAME = "Vendetta Companion"
SOURCE_GAME_ID = "vtm-vendetta"
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="


def _board(game: Game) -> Any:
    board = game.scoreboard
    if board is None:
        raise ValueError("the game is not over: there is no final score yet")
    return board


def result_lines(game: Game) -> list[str]:
    """The final scoreboard in lines of text, best first.

    Raises:
        ValueError: the game is not over.
    """
    board = _board(game)
    lines = [f"{GAME_NAME} · {game.header.created[:10]}", f"Winner: {board.headline()}"]
    if board.teams:
        lines += ["Teams:", *[f"{t.rank}. {t.team}: {t.influence} Influence, {t.blood} Blood"
                              for t in board.teams], "Players:"]
    for r in board.rows:
        tags = [x for x in (r.clan, game.state.players[r.player].team) if x]
        clan = f" ({', '.join(tags)})" if tags else ""
        out = " · out (third Diablerie)" if r.eliminated else ""
        lines.append(f"{r.rank}. {r.name}{clan}: {r.influence.total} Influence, "
                     f"{r.blood} Blood{out}")
    time = game.time()
    if time is not None and time.seconds:
        lines.append(f"Game length: {length_text(time.seconds)}")
    return lines


def result_text(game: Game) -> str:
    """The final scoreboard as a message for the group chat.

    Raises:
        ValueError: the game is not over.
    """
    return "\n".join([*result_lines(game), f"Scored with {SOURCE_NAME}"])


def _start_player(game: Game) -> int | None:
    """The seat that held the Ambition token (first player) when round 1 began."""
    for n in range(len(game.actions) + 1):
        state = game.state_at(n)
        if state.round >= 1:
            return state.ambition
    return None


def bgstats_play(game: Game) -> dict[str, Any]:
    """The finished game as a BG Stats play (the JSON of its createPlay link).

    Raises:
        ValueError: the game is not over.
    """
    board = _board(game)
    time = game.time()
    first = _start_player(game)
    teams = {t.team: t.rank for t in board.teams or []}
    players = []
    for r in sorted(board.rows, key=lambda r: r.player):
        team = game.state.players[r.player].team
        players.append({
            "name": r.name, "sourcePlayerId": r.name.strip().casefold(),
            "score": r.influence.total,
            "winner": (team == board.winning_team) if board.teams else r.rank == 1,
            "rank": teams.get(team or "", r.rank) if board.teams else r.rank,
            "role": r.clan or "", "startPlayer": r.player == first,
        })
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME, "sourcePlayId": game.header.game_id,
        "playDate": game.header.created[:19].replace("T", " "),
        "game": {"name": GAME_NAME, "sourceGameId": SOURCE_GAME_ID, "highestWins": True,
                 "noPoints": False},
        "players": players, "board": "",
    }
    if time is not None and time.seconds:
        play["durationMin"] = max(1, round(time.seconds / 60))
    return play


def bgstats_link(play: dict[str, Any]) -> str:
    """The link that opens BG Stats' import dialog with this play."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_URL + quote(data, safe="")
