"""Statistics across stored games, from their history summaries only (no replay).

Counted games are the finished ones that pass the filters. How wins count:
- individual games: the player named `winner` wins; everybody else at the table loses;
- tag team: `winner` is a team name; both members of that team win, the others lose. A clan's
  win is a win of a player of that clan, so both clans of the winning team score a win.
A player's nemesis is whoever won most often in the games this player lost (in tag team, each
member of the winning team counts); ties go to the name first in alphabetical order.
Players are matched by name, ignoring case and surrounding spaces.
The Prince's Haven rate asks, per round, how often the player who won the Prince's Haven that
round (or their team) went on to win the game; rounds where nobody won it are left out.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from companion.library.kinds import is_vendetta
from models.common import Frozen


class ClanStats(Frozen):
    """One clan's record."""

    clan: str
    """Clan name."""
    games: int
    """Games it was played in."""
    wins: int
    """Games its player (or their team) won."""
    win_rate: float
    """wins / games."""
    average_influence: float
    """Average final Influence of its player."""


class PlayerStats(Frozen):
    """One player's record."""

    name: str
    """Name as first seen."""
    games: int
    """Games played."""
    wins: int
    """Games won (their team's wins in tag team)."""
    win_rate: float
    """wins / games."""
    average_influence: float
    """Average final Influence."""
    best_influence: int
    """Best final Influence."""
    nemesis: str | None
    """Who most often won the games this player lost."""
    nemesis_wins: int
    """How many of this player's losses the nemesis won."""


class HavenRate(Frozen):
    """How often the Prince's Haven winner of a round won the game."""

    round: int
    """Round 1–3."""
    games: int
    """Games where somebody won the Prince's Haven that round."""
    wins: int
    """Of those, games the Haven winner (or their team) won."""
    rate: float
    """wins / games."""


class LengthStats(Frozen):
    """How long games with one number of players take."""

    player_count: int
    """Players at the table."""
    games: int
    """Finished games of that size whose clock ran."""
    average_seconds: float
    """Average played time (the game clock: paused while the app was closed)."""


class Stats(Frozen):
    """Statistics over the chosen games."""

    games: int
    """Finished games counted."""
    clans: list[ClanStats]
    """By win rate, best first."""
    players: list[PlayerStats]
    """By wins, then games, then name."""
    frenzies_per_game: float
    """Frenzies (all players) per game."""
    diablerie_per_game: float
    """Diablerie tokens held at the end (all players) per game."""
    haven: list[HavenRate]
    """Per round; the round 3 line is the last Prince's Haven of the game."""
    lengths: list[LengthStats] = []
    """Average length by player count, fewest players first (timed games only)."""


@dataclass
class _Tally:
    name: str
    games: int = 0
    wins: int = 0
    influence: int = 0
    best: int | None = None
    beaten_by: dict[str, int] = field(default_factory=dict)

    def add(self, influence: int, won: bool) -> None:
        self.games += 1
        self.wins += won
        self.influence += influence
        if self.best is None or influence > self.best:
            self.best = influence

    def absorb(self, other: "_Tally") -> None:
        """Add another tally of the same name (of other games)."""
        self.games += other.games
        self.wins += other.wins
        self.influence += other.influence
        if other.best is not None and (self.best is None or other.best > self.best):
            self.best = other.best
        for who, n in other.beaten_by.items():
            self.beaten_by[who] = self.beaten_by.get(who, 0) + n


@dataclass
class Totals:
    """Running totals over some finished games: what `finish` turns into `Stats`. Totals of
    disjoint sets of games `merge` into the totals of all of them (names as first seen in the
    order merged), so a cache can keep totals per chunk of the history and redo only the
    chunks that changed."""

    games: int = 0
    frenzies: int = 0
    diablerie: int = 0
    haven: list[list[int]] = field(default_factory=lambda: [[0, 0] for _ in range(3)])
    """Per round: [games where somebody won the Prince's Haven, of those won by them]."""
    clans: dict[str, _Tally] = field(default_factory=dict)
    players: dict[str, _Tally] = field(default_factory=dict)
    """By case-folded name."""
    lengths: dict[int, list[int]] = field(default_factory=dict)
    """By player count: [games whose clock ran, their played seconds]."""


TOTALS_FORMAT = 1
"""Version of `totals_doc`'s shape and of what `tally` counts: kept totals of another version
are counted again."""


def totals_doc(t: Totals) -> dict[str, Any]:
    """Totals as plain JSON (kept on disk between runs: `totals_of` reads them back)."""

    def tallies(by: dict[str, _Tally]) -> list[list[Any]]:
        return [[k, v.name, v.games, v.wins, v.influence, v.best, v.beaten_by]
                for k, v in by.items()]

    return {"games": t.games, "frenzies": t.frenzies, "diablerie": t.diablerie,
            "haven": t.haven, "clans": tallies(t.clans), "players": tallies(t.players),
            "lengths": [[n, g, secs] for n, (g, secs) in t.lengths.items()]}


def totals_of(doc: Any) -> Totals:
    """The totals `totals_doc` wrote.

    Raises:
        ValueError: not such a document (e.g. a damaged file).
    """

    def count(v: Any) -> int:
        if type(v) is not int:
            raise ValueError(f"not a count: {v!r}")
        return v

    def tallies(rows: Any) -> dict[str, _Tally]:
        out = {}
        for key, name, games, wins, influence, best, beaten_by in rows:
            if not (isinstance(key, str) and isinstance(name, str)
                    and isinstance(beaten_by, dict)):
                raise ValueError("not a tally")
            out[key] = _Tally(name, count(games), count(wins), count(influence),
                              None if best is None else count(best),
                              {str(k): count(n) for k, n in beaten_by.items()})
        return out

    try:
        haven = [[count(g), count(w)] for g, w in doc["haven"]]
        if len(haven) != 3:
            raise ValueError("three rounds of the Prince's Haven")
        return Totals(count(doc["games"]), count(doc["frenzies"]), count(doc["diablerie"]),
                      haven, tallies(doc["clans"]), tallies(doc["players"]),
                      {count(n): [count(g), count(secs)] for n, g, secs in doc["lengths"]})
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"not kept statistics: {err}") from None


def _when(value: date | datetime | None, end_of_day: bool = False) -> datetime | None:
    """A bound as an aware datetime; a date means its first (or last) moment, in UTC."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        day = datetime(value.year, value.month, value.day, tzinfo=UTC)
        return day + timedelta(days=1, microseconds=-1) if end_of_day else day
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _rate(wins: int, games: int) -> float:
    return wins / games if games else 0.0


def _standings(s: dict[str, Any]) -> list[dict[str, Any]]:
    """The summary's standings; older summaries give only players, clans and scores."""
    if s.get("standings"):
        return s["standings"]
    scores = s.get("scores") or {}
    return [{"name": n, "clan": c, "team": None, "influence": scores.get(n, 0)}
            for n, c in zip(s.get("players", []), s.get("clans", []), strict=False)]


def compute(summaries: Iterable[dict[str, Any]], *, since: date | datetime | None = None,
            until: date | datetime | None = None, player_count: int | Iterable[int] | None = None,
            variants: dict[str, bool] | None = None) -> Stats:
    """Statistics over finished games, in one pass over their summaries.

    `since`/`until` bound the creation time (a date includes that whole day); `player_count`
    is one count or several; `variants` keeps games whose variants match every given flag.
    """
    return finish(tally(summaries, since=since, until=until, player_count=player_count,
                        variants=variants))


def tally(summaries: Iterable[dict[str, Any]], *, since: date | datetime | None = None,
          until: date | datetime | None = None, player_count: int | Iterable[int] | None = None,
          variants: dict[str, bool] | None = None) -> Totals:
    """The totals of the finished games among `summaries` that pass the filters (`compute`)."""
    start, end = _when(since), _when(until, end_of_day=True)
    counts = {player_count} if isinstance(player_count, int) else (
        set(player_count) if player_count is not None else None)
    wanted = list((variants or {}).items())
    t = Totals()
    clans, players, haven = t.clans, t.players, t.haven
    for s in summaries:
        if not s.get("finished") or s.get("winner") is None or not is_vendetta(s):
            continue
        rows = _standings(s)
        if counts is not None and s.get("player_count", len(rows)) not in counts:
            continue
        if wanted:
            flags = s.get("variants") or {}
            if any(bool(flags.get(k)) != v for k, v in wanted):
                continue
        if start or end:
            created = datetime.fromisoformat(s["created"])
            created = created if created.tzinfo else created.replace(tzinfo=UTC)
            if (start and created < start) or (end and created > end):
                continue
        t.games += 1
        timed = s.get("time")
        if isinstance(timed, dict) and isinstance(timed.get("seconds"), int) and timed["seconds"]:
            length = t.lengths.setdefault(s.get("player_count", len(rows)), [0, 0])
            length[0] += 1
            length[1] += timed["seconds"]
        winner = s["winner"]
        flags = s.get("variants")
        tag = flags.get("tag_team") if flags else any(r.get("team") for r in rows)
        won = {r["name"]: (r.get("team") == winner if tag else r["name"] == winner) for r in rows}
        winners = [n.strip().casefold() for n, w in won.items() if w]
        for r in rows:
            name, influence = r["name"], r.get("influence") or 0
            key = name.strip().casefold()
            player = players.get(key) or players.setdefault(key, _Tally(name))
            player.add(influence, won[name])
            if not won[name]:
                beaten_by = player.beaten_by
                for w in winners:
                    beaten_by[w] = beaten_by.get(w, 0) + 1
            if r.get("clan"):
                clan = clans.get(r["clan"]) or clans.setdefault(r["clan"], _Tally(r["clan"]))
                clan.add(influence, won[name])
            t.frenzies += r.get("frenzies") or 0
            t.diablerie += r.get("diablerie") or 0
        havens = s.get("haven_winners") or []
        for offset, who in enumerate(havens[-3:]):
            if who is not None:
                line = haven[3 - len(havens[-3:]) + offset]
                line[0] += 1
                line[1] += won.get(who, False)
    return t


def merge(parts: Iterable[Totals]) -> Totals:
    """The totals of all the games of `parts` (each of other games); `parts` are unchanged."""
    out = Totals()
    for part in parts:
        out.games += part.games
        out.frenzies += part.frenzies
        out.diablerie += part.diablerie
        for mine, theirs in zip(out.haven, part.haven, strict=True):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        for count, (n, seconds) in part.lengths.items():
            mine = out.lengths.setdefault(count, [0, 0])
            mine[0] += n
            mine[1] += seconds
        for mine_by, theirs_by in ((out.clans, part.clans), (out.players, part.players)):
            for key, other in theirs_by.items():
                tally_ = mine_by.get(key) or mine_by.setdefault(key, _Tally(other.name))
                tally_.absorb(other)
    return out


def finish(t: Totals) -> Stats:
    """The statistics of some totals."""
    games, clans, players = t.games, t.clans, t.players
    return Stats(
        games=games,
        clans=sorted((ClanStats(clan=c.name, games=c.games, wins=c.wins,
                                win_rate=_rate(c.wins, c.games),
                                average_influence=c.influence / c.games)
                      for c in clans.values()), key=lambda c: (-c.win_rate, -c.games, c.clan)),
        players=sorted((_player(p, players) for p in players.values()),
                       key=lambda p: (-p.wins, -p.games, p.name.casefold())),
        frenzies_per_game=_rate(t.frenzies, games),
        diablerie_per_game=_rate(t.diablerie, games),
        haven=[HavenRate(round=i + 1, games=g, wins=w, rate=_rate(w, g))
               for i, (g, w) in enumerate(t.haven)],
        lengths=[LengthStats(player_count=n, games=g, average_seconds=total / g)
                 for n, (g, total) in sorted(t.lengths.items())],
    )


def _player(t: _Tally, players: dict[str, _Tally]) -> PlayerStats:
    nemesis, beaten = None, 0
    if t.beaten_by:
        beaten = max(t.beaten_by.values())
        nemesis = players[min(k for k, c in t.beaten_by.items() if c == beaten)].name
    return PlayerStats(name=t.name, games=t.games, wins=t.wins, win_rate=_rate(t.wins, t.games),
                       average_influence=t.influence / t.games, best_influence=t.best or 0,
                       nemesis=nemesis, nemesis_wins=beaten)
