"""Rule queries on a state: turn order, presence, Rivals, Power, ranking (§1, §7, §8)."""

from models.cards import AllianceCard
from models.common import PLANNING_TURNS, LocationId
from models.message import msg
from models.power import CardPower, PowerBreakdown
from models.said import Said
from models.state import ConflictResult, DeployedCard, GameState, LocationState

REWARDS = {1: (1, 1, 1), 2: (2, 2, 1), 3: (3, 2, 1)}
"""Influence for 1st, 2nd, 3rd by round (§8.4)."""

MAX_BLOOD_PER_PLAY = 3
"""Blood from the Pool per card played (§7)."""


def turn_order(state: GameState) -> list[int]:
    """Seats still in, clockwise from the Ambition holder (§1, §11)."""
    n = len(state.players)
    start = state.ambition or 0
    seats = [(start + i) % n for i in range(n)]
    return [s for s in seats if not state.players[s].eliminated]


def full_turn_order(state: GameState) -> list[int]:
    """All seats clockwise from the Ambition holder, eliminated included."""
    n = len(state.players)
    start = state.ambition or 0
    return [(start + i) % n for i in range(n)]


def teammates(state: GameState, a: int, b: int) -> bool:
    """Whether two different seats are on the same team (tag team, §13)."""
    ta, tb = state.players[a].team, state.players[b].team
    return a != b and ta is not None and ta == tb


def planning_turns(state: GameState) -> int:
    """Planning turns each player takes this round (§7, §13)."""
    return PLANNING_TURNS[state.three_player][state.round]


def current_player(state: GameState) -> int | None:
    """Whose Planning turn it is, or None outside Planning or when all turns are done."""
    if state.phase != "planning":
        return None
    order = turn_order(state)
    n_turns = planning_turns(state)
    waiting = [p for p in order if state.turns_taken[p] < n_turns]
    if not waiting:
        return None
    fewest = min(state.turns_taken[p] for p in waiting)
    return next(p for p in order if state.turns_taken[p] == fewest)


def location(state: GameState, loc_id: LocationId) -> LocationState:
    """The Location with this id.

    Raises:
        KeyError: no such Location in this game.
    """
    for loc in state.locations:
        if loc.id == loc_id:
            return loc
    raise KeyError(loc_id)


def haven(state: GameState) -> LocationState:
    """The Prince's Haven (always last)."""
    return state.locations[-1]


def present(state: GameState, loc: LocationState, player: int) -> bool:
    """Whether a player still in is 'at' a Location: cards or Blood there, not withdrawn."""
    return (not state.players[player].eliminated and player not in loc.withdrawn
            and loc.positions[player].present())


def present_players(state: GameState, loc: LocationState) -> list[int]:
    """Players at a Location, in turn order (§8.1)."""
    return [p for p in turn_order(state) if present(state, loc, p)]


def rivals(state: GameState, loc: LocationState, player: int) -> list[int]:
    """Opponents at the same Location, in turn order (§8.4 Rivals)."""
    return [p for p in present_players(state, loc) if p != player]


def card_power(card: DeployedCard) -> CardPower:
    """A Deployed card's Power with its modifiers (§8.4, §14 printed Power)."""
    printed = card.card.power if card.card else None
    if not card.face_up or card.card is None:
        return CardPower(uid=card.uid, label="face-down card", owner=card.owner,
                         face_up=False, printed=printed, modifiers=[], power=0)
    base = printed or 0
    if any(m.kind == "halve_printed" for m in card.modifiers):
        base //= 2
    total = base + sum(m.amount for m in card.modifiers if m.kind == "add")
    kind = f"{card.card.kind.capitalize()} card" if card.card.kind else "Card"
    return CardPower(uid=card.uid, label=card.card.name or card.card.id or kind,
                     owner=card.owner, face_up=True, printed=printed,
                     modifiers=list(card.modifiers), power=max(0, total))


def power(state: GameState, loc: LocationState, player: int) -> PowerBreakdown:
    """A player's total Power at a Location, explained (§8.4)."""
    pos = loc.positions[player]
    cards = [card_power(c) for c in pos.cards]
    return PowerBreakdown(player=player, cards=cards, blood=pos.blood,
                          total=sum(c.power for c in cards) + pos.blood)


def has_ability(state: GameState, seat: int, ability: str) -> bool:
    """Whether a player holds an active Alliance card with this ability (§9: drained lose it)."""
    return any(c.card.ability == ability for c in active_abilities(state, seat))


def active_abilities(state: GameState, seat: int) -> list[AllianceCard]:
    """Active Alliance cards of a player that carry an ability (§9: drained cards lose it)."""
    return [c for c in state.players[seat].alliance if not c.drained and c.card.ability]


def wins_ties(state: GameState, seat: int) -> bool:
    """Whether a player holds an active 'you win all ties' Ally (§15)."""
    return has_ability(state, seat, "win_ties")


def conflict_result(state: GameState, loc: LocationState) -> ConflictResult:
    """Totals and ranking at a Location; ties go to turn order (§8.4) or a win-ties Ally.

    'Exactly one player has cards' is judged on who had cards when the Withdraw step ended
    (§8.4): if two had and one left since (e.g. Vanish), the conflict is ranked normally.
    """
    players = present_players(state, loc)
    totals = {p: power(state, loc, p).total for p in players}
    order = turn_order(state)
    ranking = sorted(players,
                     key=lambda p: (-totals[p], not wins_ties(state, p), order.index(p)))
    with_cards = [p for p in players if loc.positions[p].cards]
    if not with_cards:
        return ConflictResult(totals=totals, ranking=[], outcome="no_cards")
    judged = with_cards if loc.card_players is None else loc.card_players
    if len(judged) <= 1:
        return ConflictResult(totals=totals, ranking=with_cards[:1], outcome="uncontested")
    return ConflictResult(totals=totals, ranking=ranking, outcome="contested")


def conflict_tie_notes(state: GameState, result: ConflictResult) -> list[Said]:
    """Each tie in a Conflict ranking: who won it and why (§1 turn order, §15 win-ties Ally),
    judged on the state in which the ranking was made; kept as messages with the names as
    text (`models.said`)."""
    names = [p.name for p in state.players]
    notes = []
    for upper, lower in zip(result.ranking, result.ranking[1:], strict=False):
        if result.totals[upper] != result.totals[lower]:
            continue
        args = {"won": names[upper], "lost": names[lower], "power": result.totals[upper]}
        if wins_ties(state, upper) and not wins_ties(state, lower):
            note = msg("{won} wins the tie with {lost} on {power} Power: {won} holds the Ally "
                       "that wins all ties", **args)
        else:
            note = msg("{won} wins the tie with {lost} on {power} Power: {won} is earlier in "
                       "turn order", **args)
        notes.append(Said(note))
    return notes


def deployed_owners(state: GameState) -> dict[str, int]:
    """Owner of every Deployed card, by uid (wherever it lies)."""
    return {c.uid: c.owner for loc in state.locations for pos in loc.positions
            for c in pos.cards}


def taken_cards(state: GameState) -> dict[int, list[str]]:
    """Per player, the keys of their clan cards face up on the table (wherever they lie): a
    play, a reveal or a withdraw identity may not name them again (§1, §2: one copy each)."""
    taken: dict[int, list[str]] = {}
    for loc in state.locations:
        for pos in loc.positions:
            for c in pos.cards:
                key = c.card.key() if c.face_up and c.card else None
                if key is not None:
                    taken.setdefault(c.owner, []).append(key)
    return taken


def taken_allies(state: GameState) -> list[str]:
    """Keys of the Allies in an Alliance or at a Location: each Ally exists once (§1)."""
    cards = [c.card for p in state.players for c in p.alliance] + [
        loc.ally for loc in state.locations if loc.ally is not None]
    return [k for k in (c.key() for c in cards) if k is not None]


def same_card(key: str | None, keys: list[str]) -> bool:
    """Whether a card key is among `keys` (case-insensitive); an unknown key never is."""
    return key is not None and key.casefold() in {k.casefold() for k in keys}
