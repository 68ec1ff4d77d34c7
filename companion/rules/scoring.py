"""End of Game scoring with its tie-breaks, individual and tag team (§11, §12)."""

from companion.rules.queries import full_turn_order, wins_ties
from models.message import Message, msg
from models.said import Said
from models.state import GameState, InfluenceBreakdown, Scoreboard, ScoreRow, TeamRow

Key = tuple[int, bool, int, int]
"""How rows sort: (−Influence, no win-ties Ally, −Blood, place in turn order)."""


def influence(state: GameState, seat: int) -> InfluenceBreakdown:
    """A player's final Influence and its parts (§12)."""
    p = state.players[seat]
    active = sum(c.card.influence for c in p.alliance if not c.drained)
    drained = sum(c.card.drained_influence for c in p.alliance if c.drained)
    relic = p.relic.influence if p.relic else 0
    total = active + drained + p.influence + relic - p.diablerie
    return InfluenceBreakdown(active_cards=active, drained_cards=drained, tokens=p.influence,
                              relic=relic, diablerie=-p.diablerie, total=total)


TIE_NOTES: dict[tuple[str, bool], tuple[Message, Message]] = {
    ("ally", False): (
        msg("won the tie with {lower} on {influence} Influence: {holder} holds the Ally that wins "
            "all ties"),
        msg("lost the tie with {upper} on {influence} Influence: {holder} holds the Ally that wins "
            "all ties")),
    ("blood", False): (
        msg("won the tie with {lower} on {influence} Influence: {upper} has more Blood ({more} to "
            "{less})"),
        msg("lost the tie with {upper} on {influence} Influence: {upper} has more Blood ({more} to "
            "{less})")),
    ("turn", False): (
        msg("won the tie with {lower} on {influence} Influence and {blood} Blood: {upper} is "
            "earlier in turn order"),
        msg("lost the tie with {upper} on {influence} Influence and {blood} Blood: {upper} is "
            "earlier in turn order")),
    ("ally", True): (
        msg("won the tie with team {lower} on {influence} Influence: {holder} holds the Ally that "
            "wins all ties"),
        msg("lost the tie with team {upper} on {influence} Influence: {holder} holds the Ally that "
            "wins all ties")),
    ("blood", True): (
        msg("won the tie with team {lower} on {influence} Influence: team {upper} has more Blood "
            "({more} to {less})"),
        msg("lost the tie with team {upper} on {influence} Influence: team {upper} has more Blood "
            "({more} to {less})")),
    ("turn", True): (
        msg("won the tie with team {lower} on {influence} Influence and {blood} Blood: team "
            "{upper} is earlier in turn order"),
        msg("lost the tie with team {upper} on {influence} Influence and {blood} Blood: team "
            "{upper} is earlier in turn order")),
}
"""The notes of a tie's winner and loser by why it was won (the win-ties Ally, more Blood,
turn order) and whether teams tied: templates of the messages (`models.message`)."""


def tie_notes(upper: str, lower: str, a: Key, b: Key, holder: str | None = None, *,
              team: bool = False) -> tuple[Said, Said] | None:
    """The notes of the row that won a tie and of the one that lost it, said plainly: who won
    and why (§12; `holder`: who holds the win-ties Ally, §15; `team`: `upper` and `lower` are
    team names); None if they did not tie. Kept as messages with the names as text: they are
    saved with the final scoreboard (`models.said`)."""
    if a[0] != b[0]:
        return None
    why = "ally" if a[1] != b[1] else "blood" if a[2] != b[2] else "turn"
    args = {"upper": upper, "lower": lower, "influence": -a[0]}
    if why == "ally":
        args["holder"] = holder or (f"team {upper}" if team else upper)
    elif why == "blood":
        args |= {"more": -a[2], "less": -b[2]}
    else:
        args["blood"] = -a[2]
    won, lost = TIE_NOTES[why, team]
    return (Said(won.model_copy(update={"args": args})),
            Said(lost.model_copy(update={"args": args})))


def scoreboard(state: GameState) -> Scoreboard:
    """Final standings: most Influence, then most Blood, then turn order; eliminated last (§12).

    The Ally that wins all ties wins a tie on Influence, before Blood (companion Ruling).
    """
    order = full_turn_order(state)
    breakdowns = {seat: influence(state, seat) for seat in range(len(state.players))}

    def key(seat: int) -> Key:
        p = state.players[seat]
        return (-breakdowns[seat].total, not wins_ties(state, seat), -p.blood,
                order.index(seat))

    seats = sorted(range(len(state.players)),
                   key=lambda s: (state.players[s].eliminated, *key(s)))
    notes: dict[int, Said] = {}
    name = [p.name for p in state.players]
    for upper, lower in zip(seats, seats[1:], strict=False):
        if state.players[upper].eliminated != state.players[lower].eliminated:
            continue
        pair = tie_notes(name[upper], name[lower], key(upper), key(lower))
        if pair:
            notes.setdefault(upper, pair[0])
            notes.setdefault(lower, pair[1])
    rows = [
        ScoreRow(rank=i + 1, player=seat, name=name[seat], clan=state.players[seat].clan,
                 influence=breakdowns[seat], blood=state.players[seat].blood,
                 turn_position=order.index(seat) + 1,
                 eliminated=state.players[seat].eliminated, tiebreak=notes.get(seat))
        for i, seat in enumerate(seats)
    ]
    teams = _team_rows(state, breakdowns, order) if state.variants.tag_team else None
    return Scoreboard(rows=rows, teams=teams, winner=rows[0].name,
                      winning_team=teams[0].team if teams else None)


def _team_rows(state: GameState, breakdowns: dict[int, InfluenceBreakdown],
               order: list[int]) -> list[TeamRow]:
    """Teams by total Influence, then the win-ties Ally (§15), then total Blood, then the
    earliest member in turn order (§12, §13)."""
    members: dict[str, list[int]] = {}
    for seat, p in enumerate(state.players):
        members.setdefault(p.team or p.name, []).append(seat)

    def key(team: str) -> Key:
        seats = members[team]
        return (-sum(breakdowns[s].total for s in seats),
                not any(wins_ties(state, s) for s in seats),
                -sum(state.players[s].blood for s in seats),
                min(order.index(s) for s in seats))

    def holder(team: str) -> str | None:
        return next((state.players[s].name for s in members[team] if wins_ties(state, s)),
                    None)

    names = sorted(members, key=key)
    notes: dict[str, Said] = {}
    for upper, lower in zip(names, names[1:], strict=False):
        pair = tie_notes(upper, lower, key(upper), key(lower), holder(upper), team=True)
        if pair:
            notes.setdefault(upper, pair[0])
            notes.setdefault(lower, pair[1])
    return [
        TeamRow(rank=i + 1, team=t, players=members[t], influence=-key(t)[0],
                blood=-key(t)[2], tiebreak=notes.get(t))
        for i, t in enumerate(names)
    ]
