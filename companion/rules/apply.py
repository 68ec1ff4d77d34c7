"""The one pure fold: state = apply(state, event). No validation here: commands validate."""

from companion.rules.queries import conflict_tie_notes
from companion.rules.scoring import scoreboard
from models.cards import VICTIM, AllianceCard
from models.common import SCHEMA_VERSION, copy_model
from models.events import (
    AllyDiscarded,
    AllyPlaced,
    AmbitionTaken,
    AnyEvent,
    AwaitingChoice,
    BloodChanged,
    BloodDeployed,
    BloodReturned,
    CardAcquired,
    CardDrained,
    CardMoved,
    CardPlayed,
    CardRestored,
    CardRevealed,
    CardsReturned,
    ClanChosen,
    ClansOffered,
    ConflictResolved,
    DiablerieFlipped,
    DiablerieTaken,
    EffectResolved,
    FirstPlayerChosen,
    FrenzyEntered,
    GameCreated,
    GameEnded,
    HandChanged,
    InfluenceChanged,
    LocationCardsPlaced,
    NoteAdded,
    PhaseStarted,
    PlayerEliminated,
    PositionLoaded,
    PowerModified,
    RelicChosen,
    RelicsOffered,
    RelicUsed,
    RoundEnded,
    StepStarted,
    TurnEnded,
    WithdrawChosen,
    Withdrew,
)
from models.setup import Position, default_hand_size, locations_for, turns_taken
from models.state import (
    DeployedCard,
    GameState,
    LocationState,
    PlayerState,
    PositionState,
    SetupState,
    copy_state,
)


def apply(state: GameState | None, event: AnyEvent) -> GameState:
    """Return the state after `event`; `state` is left unchanged.

    Raises:
        ValueError: the first event is not a game start, or a start event comes later.
    """
    if state is None:
        return initial_state(event)
    new = copy_state(state)
    apply_in_place(new, event)
    return new


def fold(events: list[AnyEvent]) -> GameState:
    """Fold a whole event list from scratch.

    Raises:
        ValueError: the list is empty or does not begin with a game start.
    """
    if not events:
        raise ValueError("an event log starts with game_created or position_loaded")
    state = initial_state(events[0])
    for event in events[1:]:
        apply_in_place(state, event)
    return state


def initial_state(event: AnyEvent) -> GameState:
    """State right after a game_created or position_loaded event.

    Raises:
        ValueError: the event is not a game start.
    """
    if isinstance(event, GameCreated):
        n = len(event.players)
        state = GameState(
            schema_version=SCHEMA_VERSION, seed=event.seed, variants=event.variants,
            three_player=n == 3,
            players=[
                PlayerState(name=p.name, team=p.team,
                            alliance=[AllianceCard(uid=f"v{i + 1}", card=VICTIM)])
                for i, p in enumerate(event.players)
            ],
            locations=[
                LocationState(id=loc, positions=[PositionState() for _ in range(n)])
                for loc in locations_for(n)
            ],
            turns_taken=[0] * n,
        )
    elif isinstance(event, PositionLoaded):
        state = _state_from_position(event.position)
        if state.phase == "game_over":
            state.scoreboard = scoreboard(state)
    else:
        raise ValueError(f"a game starts with game_created or position_loaded, not {event.type}")
    state.events = 1
    return state


def _state_from_position(pos: Position) -> GameState:
    n = len(pos.players)
    seat = {p.name: i for i, p in enumerate(pos.players)}
    turns = turns_taken(pos)
    uid = 1
    players = []
    for p in pos.players:
        alliance = []
        for c in p.alliance:
            card = c.card  # every Victim carries the Victim id, as won ones do (§1)
            if card.kind == "victim" and card.id != VICTIM.id:
                card = card.model_copy(update={"id": VICTIM.id})
            alliance.append(AllianceCard(uid=f"pa{uid}", card=card, drained=c.drained))
            uid += 1
        hand = default_hand_size(pos, turns[p.name]) if p.hand_size is None else p.hand_size
        players.append(PlayerState(
            name=p.name, team=p.team, clan=p.clan, blood=p.blood, influence=p.influence,
            diablerie_up=p.diablerie_up, diablerie_down=p.diablerie_down, alliance=alliance,
            relic=p.relic, relic_used=p.relic_used, hand_size=hand, eliminated=p.eliminated,
        ))
    given = {loc.id: loc for loc in pos.locations}
    locations = []
    for loc_id in locations_for(n):
        loc = LocationState(id=loc_id, positions=[PositionState() for _ in range(n)])
        if loc_id in given:
            g = given[loc_id]
            loc.ally = g.ally
            loc.location_card = g.location_card
            for d in g.deployed:
                p_seat = seat[d.player]
                loc.positions[p_seat].blood = d.blood
                for c in d.cards:
                    owner = seat[c.owner] if c.owner else p_seat
                    loc.positions[p_seat].cards.append(DeployedCard(
                        uid=f"pc{uid}", owner=owner, face_up=c.face_up, card=c.card))
                    uid += 1
        locations.append(loc)
    state = GameState(
        schema_version=SCHEMA_VERSION, seed=pos.seed, variants=pos.variants,
        three_player=n == 3, players=players, locations=locations,
        ambition=seat[pos.ambition], round=pos.round, phase=pos.phase,
        setup=SetupState(location_cards_done=True),
        turns_taken=[turns[p.name] for p in pos.players],
    )
    if pos.phase == "resolution":
        ids = [loc.id for loc in locations]
        state.location_index = ids.index(pos.resolution_location or ids[0])
        state.step = "withdraw"
    return state


def _find_card(state: GameState, uid: str) -> tuple[LocationState, PositionState, DeployedCard]:
    for loc in state.locations:
        for pos in loc.positions:
            for card in pos.cards:
                if card.uid == uid:
                    return loc, pos, card
    raise KeyError(uid)


def _loc(state: GameState, loc_id: str) -> LocationState:
    return next(loc for loc in state.locations if loc.id == loc_id)


def apply_in_place(s: GameState, e: AnyEvent) -> None:
    """Mutate `s` by one event (used by `apply` on a private copy).

    Raises:
        ValueError: a game-start event in the middle of a log.
    """
    s.events += 1
    match e:
        case GameCreated() | PositionLoaded():
            raise ValueError(f"{e.type} can only be the first event")
        case FirstPlayerChosen():
            s.ambition = e.player
        case ClansOffered():
            s.setup.clans_offered = list(e.clans)
        case ClanChosen():
            s.players[e.player].clan = e.clan
        case RelicsOffered():
            s.setup.relics_offered = list(e.relics)
        case RelicChosen():
            s.players[e.player].relic = s.setup.relics_offered[e.index]
            s.setup.relics_taken.append(e.index)
        case LocationCardsPlaced():
            for loc in s.locations:
                if loc.id in e.cards:
                    loc.location_card = e.cards[loc.id]
            s.setup.location_cards_done = True
        case PhaseStarted():
            s.round, s.phase = e.round, e.phase
            if e.phase == "planning":
                s.turns_taken = [0] * len(s.players)
            if e.phase == "resolution":
                s.location_index, s.step = 0, "withdraw"
            elif e.phase != "resolution":
                s.step = None
        case BloodChanged():
            s.players[e.player].blood += e.delta
        case InfluenceChanged():
            s.players[e.player].influence += e.delta
        case AllyPlaced():
            loc = _loc(s, e.location)
            loc.ally, loc.withdrawn, loc.result = e.ally, [], None
            loc.card_players, loc.tie_notes = None, []
        case HandChanged():
            s.players[e.player].hand_size += e.delta
        case CardPlayed():
            s.players[e.player].hand_size -= 1
            _loc(s, e.location).positions[e.player].cards.append(
                DeployedCard(uid=e.uid, owner=e.player, face_up=e.face_up, card=e.card))
        case BloodDeployed():
            _loc(s, e.location).positions[e.player].blood += e.amount
            if not e.from_bank:
                s.players[e.player].blood -= e.amount
        case DiablerieFlipped():
            s.players[e.player].diablerie_up -= e.count
            s.players[e.player].diablerie_down += e.count
        case TurnEnded():
            s.turns_taken[e.player] += 1
        case CardDrained():
            card = next(c for c in s.players[e.player].alliance if c.uid == e.uid)
            card.drained = True
        case CardRestored():
            card = next(c for c in s.players[e.player].alliance if c.uid == e.uid)
            card.drained = False
        case DiablerieTaken():
            s.players[e.player].diablerie_up += e.count
        case PlayerEliminated():
            # §11: only what the player owns leaves; others' cards on their Positions stay
            # (counting for nobody) and go back to their owners at End of Round.
            s.players[e.player].eliminated = True
            for loc in s.locations:
                loc.positions[e.player].blood = 0
                for pos in loc.positions:
                    pos.cards = [c for c in pos.cards if c.owner != e.player]
        case FrenzyEntered():
            s.players[e.player].frenzies += 1
        case StepStarted():
            s.location_index, s.step, s.resolved_effects = e.location_index, e.step, []
            if e.step == "revelation":  # the Withdraw step has ended here (§8.4)
                loc = s.locations[e.location_index]
                loc.card_players = [p for p, pos in enumerate(loc.positions) if pos.cards
                                    and p not in loc.withdrawn and not s.players[p].eliminated]
        case EffectResolved():
            s.resolved_effects.append(e.uid)
        case AwaitingChoice():
            s.awaiting = e.choice
        case WithdrawChosen():
            pass
        case Withdrew():
            _loc(s, e.location).withdrawn.append(e.player)
        case CardRevealed():
            _, _, card = _find_card(s, e.uid)
            card.face_up, card.card = True, e.card
        case CardMoved():
            _, pos, card = _find_card(s, e.uid)
            pos.cards.remove(card)
            card.face_up = True
            card.modifiers = []  # §14: a moved card leaves every modifier behind
            _loc(s, e.to_location).positions[e.to_player].cards.append(card)
        case CardsReturned():
            for uid in e.uids:
                _, pos, card = _find_card(s, uid)
                pos.cards.remove(card)
                s.players[card.owner].hand_size += 1
        case BloodReturned():
            _loc(s, e.location).positions[e.player].blood -= e.amount
            s.players[e.player].blood += e.amount
        case PowerModified():
            _, _, card = _find_card(s, e.uid)
            card.modifiers.append(e.modifier)
        case ConflictResolved():
            loc = _loc(s, e.location)
            loc.result, loc.tie_notes = e.result, conflict_tie_notes(s, e.result)
            if e.location == "haven":
                s.haven_winners.append(e.result.ranking[0] if e.result.ranking else None)
        case CardAcquired():
            s.players[e.player].alliance.append(copy_model(e.card))  # events never change
            if e.from_location is not None:
                _loc(s, e.from_location).ally = None
        case AllyDiscarded():
            _loc(s, e.location).ally = None
        case AmbitionTaken():
            s.ambition = e.player
        case RelicUsed():
            s.players[e.player].relic_used = True
        case RoundEnded():
            for loc in s.locations:
                for pos in loc.positions:
                    for card in pos.cards:
                        s.players[card.owner].hand_size += 1
                    pos.cards, pos.blood = [], 0
                loc.withdrawn, loc.result, loc.card_players, loc.tie_notes = [], None, None, []
            for p in s.players:
                p.diablerie_up += p.diablerie_down
                p.diablerie_down = 0
            s.step = None
        case GameEnded():
            s.phase, s.step, s.scoreboard = "game_over", None, e.scoreboard
        case NoteAdded():
            pass
