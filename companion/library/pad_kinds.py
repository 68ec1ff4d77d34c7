"""The pads of the family's other games (`companion.library.pad`): Heritage's end-of-game
score pad and its chronicle ledger, and Blood Feud's session record, each with the summary the
history lists and the statistics count. Their modules are imported when such a game is first
read or made, never at start."""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.library.pad import PadKind

HERITAGE = "heritage"
BLOOD_FEUD = "bloodfeud"
CHRONICLE = "chronicle"


def _heritage_summary(game: Any) -> dict[str, Any]:
    """Players, clans, round, totals and the winner of a Heritage pad (scored as it stands)."""
    from companion.heritage.pad import score

    result = score(game)
    ranks = {s.player: i + 1 for i, s in enumerate(result.scores)}
    return {
        "players": game.setup.names, "clans": [p.clan for p in game.setup.players],
        "player_count": len(game.setup.players),
        "round": min(result.rounds_played + 1, result.rounds) if not result.finished
        else result.rounds,
        "rounds": result.rounds, "finished": result.finished,
        "winner": result.winner, "phase": "game_over" if result.finished else "playing",
        "scores": {s.player: s.total for s in result.scores},
        "standings": [{"name": s.player, "clan": s.clan, "influence": s.total,
                       "rank": ranks[s.player]} for s in result.scores],
        "needs_draw": result.needs_draw,
    }


def _chronicle_summary(ledger: Any) -> dict[str, Any]:
    """Players, chapters recorded and each player's titles and obligations of a Heritage
    chronicle ledger; it is finished once chapter 21 is recorded and names no winner (the
    chronicle's final scoring is not modelled, docs/heritage.md §H15)."""
    from companion.heritage.ledger import obligations, titles
    from companion.heritage.models import CHAPTERS

    played = len(ledger.chapters)
    held, gained = obligations(ledger), titles(ledger)
    clans: dict[str, str] = {}
    for record in ledger.chapters:
        clans.update({s.player: s.clan for s in record.seats})
    players = list(gained)
    return {
        "players": players, "clans": [clans.get(p) for p in players],
        "player_count": len(players), "chapters": played,
        "round": played, "rounds": CHAPTERS, "finished": played >= CHAPTERS,
        "winner": None, "phase": "game_over" if played >= CHAPTERS else "playing",
        "scores": None,
        "standings": [{"name": p, "clan": clans.get(p), "rank": None,
                       "titles": len(gained[p]), "obligations": held.get(p, 0)}
                      for p in players],
    }


def _blood_feud_summary(session: Any) -> dict[str, Any]:
    """Teams, members, rounds and the Storyteller's result of a Blood Feud session."""
    result = session.result
    winners = list(result.winners) if result else []
    winner = (result.storyteller_pick or " and ".join(winners)) if result else None
    return {
        "players": [t.name for t in session.teams],
        "clans": [t.faction for t in session.teams],
        "player_count": len(session.teams),
        "members": {t.name: list(t.members) for t in session.teams},
        "storyteller": session.storyteller,
        "round": session.rounds_played, "finished": result is not None,
        "phase": "game_over" if result is not None else "playing",
        "winner": winner, "tie": bool(result and result.tie),
        "scores": None,
        "standings": [{"name": t.name, "clan": t.faction,
                       "rank": 1 if t.name in winners else None} for t in session.teams],
    }


@cache
def heritage() -> PadKind:
    """Heritage's score pad."""
    from companion.heritage.models import HeritageGame

    return PadKind(HERITAGE, "Heritage", HeritageGame, _heritage_summary)


@cache
def chronicle() -> PadKind:
    """Heritage's chronicle ledger."""
    from companion.heritage.models import ChronicleLedger

    return PadKind(CHRONICLE, "Heritage chronicle", ChronicleLedger, _chronicle_summary)


@cache
def blood_feud() -> PadKind:
    """Blood Feud's session record."""
    from companion.bloodfeud.models import Session

    return PadKind(BLOOD_FEUD, "Blood Feud", Session, _blood_feud_summary)


PADS = {HERITAGE: heritage, BLOOD_FEUD: blood_feud, CHRONICLE: chronicle}
"""Every pad kind, by id (made on first use)."""


def pad_totals(summaries: list[dict[str, Any]] | Any, kind: str) -> dict[str, Any]:
    """Statistics of one pad kind's finished games: games counted, and per player (Heritage)
    or team (Blood Feud) and per clan or faction, games played and won (a tie counts a win
    for each tied team; the Storyteller's pick is the pick)."""
    games = 0
    players: dict[str, list[int]] = {}
    clans: dict[str, list[int]] = {}
    for s in summaries:
        if s.get("game") != kind or not s.get("finished"):
            continue
        games += 1
        for row in s.get("standings") or []:
            won = int(row.get("rank") == 1)
            for table, key in ((players, row.get("name")), (clans, row.get("clan"))):
                if key is not None:
                    counts = table.setdefault(str(key), [0, 0])
                    counts[0] += 1
                    counts[1] += won
    return {"games": games, "players": players, "clans": clans}


def merge_pad_totals(parts: Any) -> dict[str, Any]:
    """Totals of several chunks (`pad_totals`) as one."""
    total: dict[str, Any] = {"games": 0, "players": {}, "clans": {}}
    for part in parts:
        total["games"] += part["games"]
        for table in ("players", "clans"):
            for name, (played, won) in part[table].items():
                counts = total[table].setdefault(name, [0, 0])
                counts[0] += played
                counts[1] += won
    return total
