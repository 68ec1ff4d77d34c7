"""End of Game scoring with its tie-breaks, individual and tag team (§11, §12)."""

from companion.rules import full_turn_order, wins_ties
from models.state import GameState, InfluenceBreakdown, Scoreboard, ScoreRow, TeamRow


def influence(state: GameState, seat: int) -> InfluenceBreakdown:
    """A player's final Influence and its parts (§12)."""
    p = state.players[seat]
    active = sum(c.card.influence for c in p.alliance if not c.drained)
    drained = sum(c.card.drained_influence for c in p.alliance if c.drained)
    relic = p.relic.influence if p.relic else 0
    total = active + drained + p.influence + relic - p.diablerie
    return InfluenceBreakdown(active_cards=active, drained_cards=drained, tokens=p.influence,
                              relic=relic, diablerie=-p.diablerie, total=total)


def _tiebreak(a: tuple, b: tuple) -> str | None:
    """How the row with key `a` beat the next row `b` (keys: -influence, [no win-ties Ally],
    -blood, turn)."""
    if a[0] != b[0]:
        return None
    if len(a) == 4:
        if a[1] != b[1]:
            return f"tied on {-a[0]} Influence; holds the Ally that wins all ties"
        a, b = (a[0], *a[2:]), (b[0], *b[2:])
    if a[1] != b[1]:
        return f"tied on {-a[0]} Influence; more Blood ({-a[1]} to {-b[1]})"
    return f"tied on {-a[0]} Influence and {-a[1]} Blood; earlier in turn order"


def scoreboard(state: GameState) -> Scoreboard:
    """Final standings: most Influence, then most Blood, then turn order; eliminated last (§12)."""
    order = full_turn_order(state)
    breakdowns = {seat: influence(state, seat) for seat in range(len(state.players))}

    def key(seat: int) -> tuple[int, int, int, int, int]:
        p = state.players[seat]
        return (p.eliminated, -breakdowns[seat].total, not wins_ties(state, seat), -p.blood,
                order.index(seat))

    seats = sorted(range(len(state.players)), key=key)
    notes: dict[int, str] = {}
    for upper, lower in zip(seats, seats[1:], strict=False):
        if state.players[upper].eliminated != state.players[lower].eliminated:
            continue
        note = _tiebreak(key(upper)[1:], key(lower)[1:])
        if note:
            notes.setdefault(upper, f"ahead of {state.players[lower].name}: {note}")
            notes.setdefault(lower, f"behind {state.players[upper].name}: {note}")
    rows = [
        ScoreRow(rank=i + 1, player=seat, name=state.players[seat].name,
                 clan=state.players[seat].clan, influence=breakdowns[seat],
                 blood=state.players[seat].blood, turn_position=order.index(seat) + 1,
                 eliminated=state.players[seat].eliminated, tiebreak=notes.get(seat))
        for i, seat in enumerate(seats)
    ]
    teams = _team_rows(state, breakdowns, order) if state.variants.tag_team else None
    winner = teams[0].team if teams else rows[0].name
    return Scoreboard(rows=rows, teams=teams, winner=winner)


def _team_rows(state: GameState, breakdowns: dict[int, InfluenceBreakdown],
               order: list[int]) -> list[TeamRow]:
    """Teams by total Influence, then total Blood, then earliest member in turn order (§12)."""
    members: dict[str, list[int]] = {}
    for seat, p in enumerate(state.players):
        members.setdefault(p.team or p.name, []).append(seat)

    def key(team: str) -> tuple[int, int, int]:
        seats = members[team]
        return (-sum(breakdowns[s].total for s in seats),
                -sum(state.players[s].blood for s in seats),
                min(order.index(s) for s in seats))

    names = sorted(members, key=key)
    notes: dict[str, str] = {}
    for upper, lower in zip(names, names[1:], strict=False):
        note = _tiebreak(key(upper), key(lower))
        if note:
            notes.setdefault(upper, f"ahead of team {lower}: {note}")
            notes.setdefault(lower, f"behind team {upper}: {note}")
    return [
        TeamRow(rank=i + 1, team=t, players=members[t], influence=-key(t)[0],
                blood=-key(t)[1], tiebreak=notes.get(t))
        for i, t in enumerate(names)
    ]
