"""Commands → events: every referee action validated against the rules (§2–§13).

`execute(state, command)` returns the events of one action or raises a `RuleError`; it works on
a private copy, so a refused command never changes anything.
"""

from collections.abc import Callable

from companion.rules import effects
from companion.rules.errors import PhaseError, RuleError, TurnError, chain
from companion.rules.primitives import (
    Ctx,
    drain,
    gain_blood,
    lose_blood,
    steal_blood,
    take_diablerie,
    withdraw_player,
)
from companion.rules.queries import (
    MAX_BLOOD_PER_PLAY,
    REWARDS,
    conflict_result,
    current_player,
    deployed_owners,
    has_ability,
    location,
    present_players,
    same_card,
    taken_cards,
    teammates,
    turn_order,
)
from companion.rules.scoring import scoreboard
from models.cards import VICTIM, AllianceCard, ClanCard
from models.commands import (
    AnyCommand,
    ApplyEffect,
    ChooseWithdraw,
    Drain,
    Feed,
    FinishHandBuilding,
    NextStep,
    OfferClans,
    OfferRelics,
    PassTurn,
    Peek,
    PickClan,
    PickRelic,
    PlaceAllies,
    PlaceLocationCards,
    PlayCard,
    ResolveEffect,
    Reveal,
    SetFirstPlayer,
    TakeBackBlood,
    UseRelic,
)
from models.common import CLANS, PlayerRef, Step
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
    CardPlayed,
    CardRestored,
    CardRevealed,
    ClanChosen,
    ClansOffered,
    ConflictResolved,
    DiablerieFlipped,
    FirstPlayerChosen,
    GameEnded,
    HandChanged,
    InfluenceChanged,
    LocationCardsPlaced,
    NoteAdded,
    PhaseStarted,
    PowerModified,
    RelicChosen,
    RelicsOffered,
    RelicUsed,
    RoundEnded,
    StepStarted,
    TurnEnded,
    WithdrawChosen,
)
from models.message import Message, msg, place, player, term
from models.state import GameState, LocationState, PowerModifier, copy_state


def execute(state: GameState, command: AnyCommand) -> list[AnyEvent]:
    """Validate a command against the rules and return the events it produces.

    Raises:
        RuleError: the command is not allowed now; its message names the player and the §.
    """
    return run(state, command)[0]


def run(state: GameState, command: AnyCommand) -> tuple[list[AnyEvent], GameState]:
    """`execute`, also returning the state after the events (a new object; `state` unchanged).

    Raises:
        RuleError: the command is not allowed now; its message names the player and the §.
    """
    ctx = Ctx(copy_state(state), command)
    if state.phase == "game_over":
        raise ctx.fail("§12", msg("the game is over"), error=PhaseError)
    HANDLERS[command.type](ctx, command)
    if ctx.draws:
        raise ctx.fail("§10", msg("the drawn cards {cards} were not needed: no Frenzy drew "
                                  "them", cards=list(ctx.draws)))
    return ctx.events, ctx.state


# --- helpers -----------------------------------------------------------------------------------

def seat_of(state: GameState, ref: PlayerRef) -> int:
    """Seat of a player given by index or name.

    Raises:
        RuleError: no such player.
    """
    if isinstance(ref, int):
        if 0 <= ref < len(state.players):
            return ref
    else:
        for i, p in enumerate(state.players):
            if p.name.casefold() == ref.strip().casefold():
                return i
    raise RuleError("§2", "command", msg("there is no player {ref} at this table",
                                         ref=repr(ref)))


def _seat(ctx: Ctx, ref: PlayerRef, *, active: bool = True) -> int:
    try:
        seat = seat_of(ctx.state, ref)
    except RuleError as err:
        raise ctx.fail("§2", err.message) from None
    if active and ctx.state.players[seat].eliminated:
        raise ctx.fail("§11", msg("this player is out of the game (third Diablerie)"), seat,
                       TurnError)
    return seat


def _need_phase(ctx: Ctx, *phases: str) -> None:
    if ctx.state.phase not in phases:
        raise ctx.fail("§3", msg("this belongs to the {wanted} phase; it is now {now}",
                                 wanted=_either(phases), now=term(ctx.state.phase)),
                       error=PhaseError)


def _need_step(ctx: Ctx, *steps: Step) -> LocationState:
    _need_phase(ctx, "resolution")
    if ctx.state.step not in steps:
        raise ctx.fail("§8", msg("this belongs to the {wanted} step; it is now {now}",
                                 wanted=_either(steps), now=term(str(ctx.state.step))),
                       error=PhaseError)
    return ctx.state.locations[ctx.state.location_index]


def _due_card(ctx: Ctx, due: effects.DueEffect) -> dict[str, object]:
    """A due effect's card as a refusal's arguments: `card` and `power` (its label)."""
    loc = ctx.state.locations[ctx.state.location_index]
    card = next(c.card for c in loc.positions[due.owner].cards if c.uid == due.uid)
    assert card is not None, "a due effect is a face-up card's"
    return {"card": ctx.card(card), "power": card.power}


def _either(words: tuple[str, ...]) -> object:
    """Phases or steps as a message argument: "a or b or c", each a term."""
    return chain([term(w) for w in words], msg("{first} or {rest}"))


def deployed_uid(ctx: Ctx, ref: str) -> str:
    """A Deployed card named by uid, or by place 'player/location/n': the n-th card (from 1) on
    that player's Position at that Location, in the order the cards arrived (docs/formats.md).

    Raises:
        RuleError: the place names no card.
    """
    if "/" not in ref:
        return ref
    who, loc_id, n = (ref.rsplit("/", 2) + ["", ""])[:3]
    try:
        seat = seat_of(ctx.state, int(who) if who.isdigit() else who)
        cards = location(ctx.state, loc_id).positions[seat].cards
        index = int(n)
        if not 1 <= index <= len(cards):
            raise IndexError(index)
    except (RuleError, KeyError, ValueError, IndexError):
        raise ctx.fail("§7", msg("{ref} names no Deployed card (write player/location/n, n "
                                 "counting from 1 on that player's Position)",
                                 ref=repr(ref))) from None
    return cards[index - 1].uid


def _identities(ctx: Ctx, named: dict[str, ClanCard]) -> dict[str, ClanCard]:
    """Identities given for face-down cards, by uid (places resolved), checked against the cards
    each owner already has face up or names twice (§1, §2: one copy of each card).

    Raises:
        RuleError: a card named twice, or a card its owner already has on the table.
    """
    by_uid = {deployed_uid(ctx, ref): card for ref, card in named.items()}
    if len(by_uid) != len(named):
        raise ctx.fail("§8.2", msg("a face-down card is named twice (by uid and by place)"))
    owners = deployed_owners(ctx.state)
    taken = taken_cards(ctx.state)
    for uid, card in by_uid.items():
        owner = owners.get(uid)
        if owner is None:
            continue  # not a Deployed card: the caller says which cards it wants
        if same_card(card.key(), taken.get(owner, [])):
            raise ctx.fail("§2", msg("{card} ({power}) is already on the table for {owner} "
                                     "this round (face up, or named for another face-down "
                                     "card); each player owns one copy of each card",
                                     card=ctx.card(card), power=card.power,
                                     owner=player(owner)), owner)
        if card.key() is not None:
            taken.setdefault(owner, []).append(card.key())
    return by_uid


# --- setup (§2, §13) ---------------------------------------------------------------------------

def clan_picker(s: GameState) -> int | None:
    """Who picks a clan now: the first player in turn order without one (§2.3)."""
    return next((p for p in turn_order(s) if s.players[p].clan is None), None)


def relic_picker(s: GameState) -> int | None:
    """Who drafts a Relic now: counter-clockwise from the first player's right (§13)."""
    if not s.variants.relics or s.setup.relics_offered is None:
        return None
    order = list(reversed(turn_order(s)))
    done = len(s.setup.relics_taken)
    return order[done] if done < len(order) else None


def setup_complete(state: GameState) -> bool:
    """Whether every setup choice has been made (§2, §13)."""
    s = state
    return (s.ambition is not None and all(p.clan for p in s.players)
            and (not s.variants.relics or all(p.relic for p in s.players))
            and (not s.variants.location_cards or s.setup.location_cards_done))


def _after_setup(ctx: Ctx) -> None:
    if setup_complete(ctx.state):
        ctx.emit(PhaseStarted(round=1, phase="feed"))


def _first_player(ctx: Ctx, cmd: SetFirstPlayer) -> None:
    _need_phase(ctx, "setup")
    if ctx.state.ambition is not None:
        raise ctx.fail("§2", msg("the first player was already chosen"), error=PhaseError)
    if cmd.player is None:
        seat, rnd = ctx.rng.randrange(len(ctx.state.players)), True
    else:
        seat, rnd = _seat(ctx, cmd.player), False
    ctx.emit(FirstPlayerChosen(player=seat, random=rnd))
    _after_setup(ctx)


def _need_first_player(ctx: Ctx) -> None:
    if ctx.state.ambition is None:
        raise ctx.fail("§2", msg("choose the first player first (it sets the picking order)"),
                       error=PhaseError)


def _offer_clans(ctx: Ctx, cmd: OfferClans) -> None:
    _need_phase(ctx, "setup")
    _need_first_player(ctx)
    s = ctx.state
    if s.setup.clans_offered is not None or any(p.clan for p in s.players):
        raise ctx.fail("§2", msg("the clans were already drawn or picking has begun"),
                       error=PhaseError)
    want = len(s.players) + 1
    if cmd.clans is None:
        clans = ctx.rng.sample(list(CLANS), want)
    else:
        clans = list(cmd.clans)
        if len(clans) != want or len(set(clans)) != want:
            raise ctx.fail("§2", msg("draw {n} different clans (players + 1), not {clans}",
                                     n=want, clans=clans))
    ctx.emit(ClansOffered(clans=clans, random=cmd.clans is None))


def _pick_clan(ctx: Ctx, cmd: PickClan) -> None:
    _need_phase(ctx, "setup")
    _need_first_player(ctx)
    s = ctx.state
    seat = _seat(ctx, cmd.player)
    picker = clan_picker(s)
    if picker is None:
        raise ctx.fail("§2", msg("every player already has a clan"), seat, PhaseError)
    if seat != picker:
        raise ctx.fail("§2", msg("clans are picked in turn order: {picker} picks now",
                                 picker=player(picker)), seat, TurnError)
    taken = {p.clan for p in s.players}
    if cmd.clan in taken:
        raise ctx.fail("§2", msg("{clan} is already taken", clan=cmd.clan), seat)
    if s.setup.clans_offered is not None and cmd.clan not in s.setup.clans_offered:
        raise ctx.fail("§2", msg("{clan} was not drawn; pick one of {clans}", clan=cmd.clan,
                                 clans=", ".join(s.setup.clans_offered)), seat)
    ctx.emit(ClanChosen(player=seat, clan=cmd.clan))
    _after_setup(ctx)


def _offer_relics(ctx: Ctx, cmd: OfferRelics) -> None:
    _need_phase(ctx, "setup")
    s = ctx.state
    if not s.variants.relics:
        raise ctx.fail("§13", msg("the Relics variant is not in play"), error=PhaseError)
    if not all(p.clan for p in s.players):
        raise ctx.fail("§13", msg("Relics are drafted after every player has chosen a clan"),
                       error=PhaseError)
    if s.setup.relics_offered is not None:
        raise ctx.fail("§13", msg("the Relics were already drawn"), error=PhaseError)
    want = len(s.players) + 1
    if len(cmd.relics) != want:
        raise ctx.fail("§13", msg("draw {n} Relics (players + 1), not {given}", n=want,
                                  given=len(cmd.relics)))
    ctx.emit(RelicsOffered(relics=list(cmd.relics)))


def _pick_relic(ctx: Ctx, cmd: PickRelic) -> None:
    _need_phase(ctx, "setup")
    s = ctx.state
    seat = _seat(ctx, cmd.player)
    if s.setup.relics_offered is None:
        raise ctx.fail("§13", msg("draw the Relics first"), seat, PhaseError)
    picker = relic_picker(ctx.state)
    if picker is None:
        raise ctx.fail("§13", msg("every player already has a Relic"), seat, PhaseError)
    if seat != picker:
        raise ctx.fail("§13", msg("Relics are drafted counter-clockwise from the first "
                                  "player's right: {picker} picks now", picker=player(picker)),
                       seat, TurnError)
    if cmd.index >= len(s.setup.relics_offered) or cmd.index in s.setup.relics_taken:
        raise ctx.fail("§13", msg("Relic {index} is not available", index=cmd.index), seat)
    ctx.emit(RelicChosen(player=seat, index=cmd.index))
    _after_setup(ctx)


def _place_location_cards(ctx: Ctx, cmd: PlaceLocationCards) -> None:
    _need_phase(ctx, "setup")
    s = ctx.state
    if not s.variants.location_cards:
        raise ctx.fail("§13", msg("the Location cards variant is not in play"),
                       error=PhaseError)
    if s.setup.location_cards_done:
        raise ctx.fail("§13", msg("the Location cards were already placed"), error=PhaseError)
    wanted = {loc.id for loc in s.locations if loc.id != "haven"}
    if set(cmd.cards) != wanted:
        raise ctx.fail("§13", msg("give one Location card for each of Locations {locations} "
                                  "(none on the Prince's Haven)",
                                  locations=", ".join(sorted(wanted))))
    ctx.emit(LocationCardsPlaced(cards=dict(cmd.cards)))
    _after_setup(ctx)


# --- Feed, Location Setup, Hand Building (§4–§6) ------------------------------------------------

def feed_amounts(state: GameState) -> dict[int, int]:
    """Blood each player gains at Feed: Feed of every active Alliance card (§4)."""
    return {p: sum(c.card.feed for c in state.players[p].alliance if not c.drained)
            for p in turn_order(state)}


def _feed(ctx: Ctx, cmd: Feed) -> None:
    _need_phase(ctx, "feed")
    for p, amount in feed_amounts(ctx.state).items():
        gain_blood(ctx, p, amount, "feed", msg("Feed"))
    ctx.emit(PhaseStarted(round=ctx.state.round, phase="location_setup"))


def _place_allies(ctx: Ctx, cmd: PlaceAllies) -> None:
    _need_phase(ctx, "location_setup")
    wanted = [loc.id for loc in ctx.state.locations]
    if set(cmd.allies) != set(wanted):
        raise ctx.fail("§5", msg("give the Ally at each Location: {locations}",
                                 locations=chain([place(w) for w in wanted],
                                                          msg("{first}, {rest}"))))
    owned = {c.card.key(): seat for seat, p in enumerate(ctx.state.players)
             for c in p.alliance if c.card.key()}
    placed: list[str] = []
    for loc_id in wanted:
        ally = cmd.allies[loc_id]
        holder = next((who for key, who in owned.items() if same_card(ally.key(), [key])), None)
        if holder is not None:
            raise ctx.fail("§1", msg("{ally} is in {holder}'s Alliance; each Ally exists once",
                                     ally=ctx.card(ally), holder=player(holder)))
        if same_card(ally.key(), placed):
            raise ctx.fail("§1", msg("{ally} is given for two Locations; each Ally exists once",
                                     ally=ctx.card(ally)))
        placed += [ally.key()] if ally.key() else []
    for loc_id in wanted:
        ctx.emit(AllyPlaced(location=loc_id, ally=cmd.allies[loc_id]))
    ctx.emit(PhaseStarted(round=ctx.state.round, phase="hand_building"))


def hand_building_cards(state: GameState) -> int:
    """Cards each player adds to their hand this round (§6, §13)."""
    return 2 if state.three_player and state.round == 1 else 1


def _finish_hand_building(ctx: Ctx, cmd: FinishHandBuilding) -> None:
    _need_phase(ctx, "hand_building")
    n = hand_building_cards(ctx.state)
    for p in turn_order(ctx.state):
        ctx.emit(HandChanged(player=p, delta=n, reason=msg("Hand Building")))
    ctx.emit(PhaseStarted(round=ctx.state.round, phase="planning"))
    _after_turn(ctx)


# --- Planning (§7) -------------------------------------------------------------------------------

def _need_turn(ctx: Ctx, ref: PlayerRef) -> int:
    _need_phase(ctx, "planning")
    seat = _seat(ctx, ref)
    cur = current_player(ctx.state)
    if seat != cur:
        raise ctx.fail("§7", msg("it is {current}'s Planning turn", current=player(cur)),
                       seat, TurnError)
    return seat


def _drain_cmd(ctx: Ctx, cmd: Drain) -> None:
    seat = _need_turn(ctx, cmd.player)
    card = next((c for c in ctx.state.players[seat].alliance if c.uid == cmd.card), None)
    if card is None:
        raise ctx.fail("§9", msg("{ref} is not a card of their Alliance", ref=repr(cmd.card)),
                       seat)
    if card.drained:
        raise ctx.fail("§9", msg("{card} ({uid}) is already drained", card=ctx.card(card.card),
                                 uid=card.uid), seat)
    drain(ctx, seat, card.uid, frenzy=False)
    _after_turn(ctx)


def _play_card(ctx: Ctx, cmd: PlayCard) -> None:
    seat = _need_turn(ctx, cmd.player)
    s = ctx.state
    p = s.players[seat]
    try:
        loc = location(s, cmd.location)
    except KeyError:
        raise ctx.fail("§2", msg("Location {location} is not in play with {n} players",
                                 location=cmd.location, n=len(s.players)), seat) from None
    if p.hand_size < 1:
        raise ctx.fail("§7", msg("they have no card in hand; pass the turn instead"), seat)
    if cmd.face_up and cmd.card is None:
        raise ctx.fail("§7", msg("say which card is played face up"), seat)
    if not cmd.face_up and cmd.card is not None:
        raise ctx.fail("§7", msg("a face-down card stays unknown until it is revealed; do not "
                                 "enter its identity"), seat)
    if cmd.face_up and same_card(cmd.card.key(), taken_cards(s).get(seat, [])):
        raise ctx.fail("§2", msg("{card} ({power}) is already face up on the table this round; "
                                 "each player owns one copy of each card",
                                 card=ctx.card(cmd.card), power=cmd.card.power), seat)
    if cmd.include_teammate and effects.partner_challenge(s, seat) is None:
        raise ctx.fail("§13", msg("include_teammate is the choice of a partner's face-up "
                                  "Challenge (BR03), and their partner has none on the table"),
                       seat)
    if cmd.blood > MAX_BLOOD_PER_PLAY:
        raise ctx.fail("§7", msg("at most {most} Blood from the Pool per card, not {blood}",
                                 most=MAX_BLOOD_PER_PLAY, blood=cmd.blood), seat)
    if cmd.diablerie > p.diablerie_up:
        raise ctx.fail("§7", msg("only {n} face-up Diablerie token(s) to flip, not {given}",
                                 n=p.diablerie_up, given=cmd.diablerie), seat)
    cost = (0 if cmd.face_up else 1) + cmd.blood
    if p.blood - cost < 1:
        said = msg("{blood} Blood would leave {left} Blood in the Pool; a player may never "
                   "bring their own Pool to 0 (Drain first)", blood=cmd.blood,
                   left=p.blood - cost) if cmd.face_up else \
            msg("playing face down (1) and {blood} Blood would leave {left} Blood in the Pool; "
                "a player may never bring their own Pool to 0 (Drain first)", blood=cmd.blood,
                left=p.blood - cost)
        raise ctx.fail("§7 Ruling (last Blood)", said, seat)
    if not cmd.face_up:
        ctx.emit(BloodChanged(player=seat, delta=-1, kind="spend",
                              reason=msg("face-down card")))
    uid = f"c{s.events + 1}"
    ctx.emit(CardPlayed(player=seat, location=loc.id, uid=uid, face_up=cmd.face_up,
                        card=cmd.card))
    effects.on_card_played(ctx, seat, loc.id, cmd.include_teammate)
    if cmd.blood and not p.eliminated:
        if p.blood - cmd.blood < 1:
            raise ctx.fail("§7 Ruling (last Blood)",
                           msg("after the card's effects only {n} Blood can be played",
                               n=p.blood - 1), seat)
        ctx.emit(BloodDeployed(player=seat, location=loc.id, amount=cmd.blood))
    if cmd.diablerie and not p.eliminated:
        ctx.emit(DiablerieFlipped(player=seat, count=cmd.diablerie))
        ctx.emit(BloodDeployed(player=seat, location=loc.id, amount=cmd.diablerie,
                               from_bank=True))
    if not p.eliminated:
        ctx.emit(TurnEnded(player=seat))
    _after_turn(ctx)


def _pass_turn(ctx: Ctx, cmd: PassTurn) -> None:
    seat = _need_turn(ctx, cmd.player)
    if ctx.state.players[seat].hand_size > 0:
        raise ctx.fail("§7", msg("a player with cards in hand must play one"), seat)
    ctx.emit(TurnEnded(player=seat, passed=True))
    _after_turn(ctx)


def _after_turn(ctx: Ctx) -> None:
    """Once every player has taken their Planning turns, Resolution begins (§3)."""
    s = ctx.state
    if s.phase == "planning" and current_player(s) is None:
        ctx.emit(PhaseStarted(round=s.round, phase="resolution"))
        _enter_step(ctx, 0, "withdraw")


# --- Resolution (§8) -----------------------------------------------------------------------------

def _enter_step(ctx: Ctx, index: int, step: Step) -> None:
    """Start a step; steps with nothing to decide go on by themselves."""
    s = ctx.state
    ctx.emit(StepStarted(location_index=index, step=step))
    loc = s.locations[index]
    here = present_players(s, loc)
    if step == "withdraw" and not here and not (index == 0 and _holds_blood_relic(s)):
        _determine_winner(ctx, loc)
        _next_location(ctx)
    elif step == "revelation" and not _face_down_here(ctx, loc, here):
        _enter_step(ctx, index, "preparation")
    elif step == "preparation" and not here:
        _enter_step(ctx, index, "conflict")
    elif step == "conflict" and not here:
        _determine_winner(ctx, loc)
        _enter_step(ctx, index, "aftermath")
    elif step == "aftermath" and not here:
        _next_location(ctx)


def _face_down_here(ctx: Ctx, loc: LocationState, players: list[int]) -> list[str]:
    return [c.uid for p in players for c in loc.positions[p].cards if not c.face_up]


def _next_location(ctx: Ctx) -> None:
    s = ctx.state
    if s.location_index + 1 < len(s.locations):
        _enter_step(ctx, s.location_index + 1, "withdraw")
    elif s.round < 3:
        ctx.emit(RoundEnded(round=s.round))
        ctx.emit(PhaseStarted(round=s.round + 1, phase="feed"))
    else:
        ctx.emit(GameEnded(scoreboard=scoreboard(s)))


def _choose_withdraw(ctx: Ctx, cmd: ChooseWithdraw) -> None:
    loc = _need_step(ctx, "withdraw")
    s = ctx.state
    here = present_players(s, loc)
    leaving = [_seat(ctx, ref) for ref in cmd.withdraw]
    for seat in leaving:
        if seat not in here:
            raise ctx.fail("§8.1", msg("they are not at {location}", location=place(loc.id)),
                           seat)
    if len(set(leaving)) != len(leaving):
        raise ctx.fail("§8.1", msg("a player is listed twice"))
    # Withdrawing from the Prince's Haven takes the cards back to hand unseen (§8.1).
    face_down = set(_face_down_here(ctx, loc, leaving)) if loc.id != "haven" else set()
    reveal = _identities(ctx, cmd.reveal)
    if set(reveal) != face_down:
        missing, extra = sorted(face_down - set(reveal)), sorted(set(reveal) - face_down)
        if missing and extra:
            said = msg("say what the withdrawing players' face-down cards are: {missing}; "
                       "{extra} are not face-down cards of withdrawing players here",
                       missing=missing, extra=extra)
        elif missing:
            said = msg("say what the withdrawing players' face-down cards are: {missing}",
                       missing=missing)
        else:
            said = msg("{extra} are not face-down cards of withdrawing players here",
                       extra=extra)
        raise ctx.fail("§8.1", said)
    stay = [p for p in here if p not in leaving]
    ctx.emit(WithdrawChosen(location=loc.id, stay=stay, withdraw=[p for p in here if p in leaving]))
    for seat in here:
        if seat in leaving:
            withdraw_player(ctx, seat, loc, reveal, msg("Withdraw token"))
    _enter_step(ctx, s.location_index, "revelation")


def _reveal(ctx: Ctx, cmd: Reveal) -> None:
    loc = _need_step(ctx, "revelation")
    face_down = _face_down_here(ctx, loc, present_players(ctx.state, loc))
    cards = _identities(ctx, cmd.cards)
    if set(cards) != set(face_down):
        raise ctx.fail("§8.2", msg("give the identity of exactly the face-down cards here: "
                                   "{cards}", cards=face_down))
    for uid in face_down:
        ctx.emit(CardRevealed(uid=uid, card=cards[uid]))
    _enter_step(ctx, ctx.state.location_index, "preparation")


def _determine_winner(ctx: Ctx, loc: LocationState) -> None:
    """Totals, ranking and rewards (§8.4); the Prince's Haven winner takes Ambition."""
    s = ctx.state
    result = conflict_result(s, loc)
    ctx.emit(ConflictResolved(location=loc.id, result=result))
    if result.outcome == "no_cards":
        if loc.ally is not None:
            ctx.emit(AllyDiscarded(location=loc.id))
        return
    table = REWARDS[s.round]
    places = result.ranking[:1] if result.outcome == "uncontested" else result.ranking[:3]
    where = place(loc.id)
    ranked = (msg("1st at {location}", location=where), msg("2nd at {location}", location=where),
              msg("3rd at {location}", location=where))
    for rank, seat in enumerate(places):
        if rank == 0 and loc.ally is not None:
            card = AllianceCard(uid=f"a{s.events + 1}", card=loc.ally)
            ctx.emit(CardAcquired(player=seat, from_location=loc.id, card=card))
            effects.on_acquire(ctx, seat, card)
        if rank == 1:
            ctx.emit(CardAcquired(player=seat,
                                  card=AllianceCard(uid=f"a{s.events + 1}", card=VICTIM)))
        ctx.emit(InfluenceChanged(player=seat, delta=table[rank], reason=ranked[rank]))
        if rank == 0 and loc.id == "haven":
            ctx.emit(InfluenceChanged(player=seat, delta=1,
                                      reason=msg("won the Prince's Haven")))
            if s.ambition != seat:
                ctx.emit(AmbitionTaken(player=seat))


def _next_step(ctx: Ctx, cmd: NextStep) -> None:
    loc = _need_step(ctx, "preparation", "conflict", "aftermath")
    s = ctx.state
    if s.awaiting:
        raise ctx.fail("§15", msg("first say how much Blood each player takes back here"),
                       error=PhaseError)
    due = effects.due_effects(s)
    if due:
        d = due[0]
        raise ctx.fail(f"§8 {s.step}", msg("resolve {card} ({power}) of {owner} first (or "
                                           "decline it, if optional)", **_due_card(ctx, d),
                                           owner=player(d.owner)), error=PhaseError)
    index = s.location_index
    _advance(ctx, loc)
    if cmd.through:
        _go_through(ctx, index)


def _advance(ctx: Ctx, loc: LocationState) -> None:
    """From Preparation, Conflict or Aftermath to what comes next (§8.3–§8.5)."""
    s = ctx.state
    if s.step == "preparation":
        _enter_step(ctx, s.location_index, "conflict")
    elif s.step == "conflict":
        _determine_winner(ctx, loc)
        _enter_step(ctx, s.location_index, "aftermath")
    else:
        _after_location(ctx, loc)


def _go_through(ctx: Ctx, index: int) -> None:
    """Pass the steps of Location `index` that have nothing for the table (`through`)."""
    s = ctx.state
    while (s.phase == "resolution" and s.location_index == index and not s.awaiting
           and s.step in ("preparation", "conflict", "aftermath")):
        first = effects.next_effects(s)
        if first and all(d.optional and not d.can_accept for d in first):
            for d in first:  # an effect that cannot apply is ignored (§14)
                effects.resolve(ctx, d, False, False)
            continue
        if first or effects.by_hand(s):
            return
        _advance(ctx, s.locations[index])


def _after_location(ctx: Ctx, loc: LocationState) -> None:
    """After-Location effects (Succubus Club, §15), then the next Location."""
    s = ctx.state
    card = loc.location_card
    if (card and card.ability == "succubus_club" and not s.awaiting
            and any(loc.positions[p].blood for p in turn_order(s))):
        ctx.emit(AwaitingChoice(choice="take_back_blood"))
        return
    _next_location(ctx)


def _take_back_blood(ctx: Ctx, cmd: TakeBackBlood) -> None:
    loc = _need_step(ctx, "aftermath")
    if ctx.state.awaiting != "take_back_blood":
        raise ctx.fail("§15", msg("Blood is taken back only after a Succubus Club Location "
                                  "resolves"), error=PhaseError)
    amounts = {}
    for ref, amount in cmd.amounts.items():
        seat = _seat(ctx, int(ref) if ref.isdigit() else ref)
        here = loc.positions[seat].blood
        if not 0 <= amount <= min(3, here):
            raise ctx.fail("§15", msg("can take back 0 to {most} Blood here, not {amount}",
                                      most=min(3, here), amount=amount), seat)
        amounts[seat] = amount
    for seat in turn_order(ctx.state):
        if amounts.get(seat):
            ctx.emit(BloodReturned(player=seat, location=loc.id, amount=amounts[seat]))
    ctx.emit(AwaitingChoice(choice=None))
    _next_location(ctx)


def _resolve_effect(ctx: Ctx, cmd: ResolveEffect) -> None:
    _need_step(ctx, "preparation", "conflict", "aftermath")
    s = ctx.state
    due = effects.due_effects(s)
    uid = deployed_uid(ctx, cmd.card)
    match = next((d for d in due if d.uid == uid), None)
    if match is None:
        raise ctx.fail(f"§8 {s.step}", msg("card {ref} has no effect waiting at this step",
                                           ref=repr(cmd.card)))
    first = due[0].owner
    if match.owner != first:
        raise ctx.fail("§14", msg("effects resolve in turn order: {first}'s come first",
                                  first=player(first)), match.owner, TurnError)
    if not cmd.accept and not match.optional:
        raise ctx.fail("§14", msg("{card} ({power}) must be applied: its effect is not "
                                  "optional", **_due_card(ctx, match)), match.owner)
    if cmd.accept and not match.can_accept:
        raise ctx.fail("§14", msg("{card} ({power}) cannot be applied now (half of {blood} "
                                  "Blood is 0); decline it", **_due_card(ctx, match),
                                  blood=s.players[match.owner].blood), match.owner)
    effects.resolve(ctx, match, cmd.accept, cmd.include_teammate)


# --- effects applied by hand (§14) ----------------------------------------------------------------

def _apply_effect(ctx: Ctx, cmd: ApplyEffect) -> None:
    _need_phase(ctx, "feed", "location_setup", "hand_building", "planning", "resolution")
    s = ctx.state
    seat = _seat(ctx, cmd.player)
    by = _seat(ctx, cmd.by) if cmd.by is not None else None
    reason = cmd.reason or msg("{action}", action=term(cmd.action))
    amount_actions = {"gain_blood", "lose_blood", "spend_blood", "steal_blood",
                      "gain_influence", "lose_influence", "take_diablerie"}
    if cmd.action in amount_actions and cmd.amount < 1:
        raise ctx.fail("§14", msg("{action} needs an amount of at least 1",
                                  action=term(cmd.action)), seat)
    if cmd.each_rival:
        if cmd.action not in amount_actions - {"spend_blood"}:
            raise ctx.fail("§14", msg("{action} cannot target each Rival", action=term(cmd.action)),
                           seat)
        loc = _need_step(ctx, "revelation", "preparation", "conflict", "aftermath")
        targets = [r for r in present_players(s, loc) if r != seat
                   and (cmd.include_teammate or not teammates(s, seat, r))]
        for target in targets:
            _effect_on(ctx, cmd, target, seat, reason)
    else:
        _effect_on(ctx, cmd, seat, by, reason)
    if not ctx.events:
        ctx.emit(NoteAdded(text=msg("{reason}: no effect", reason=cmd.reason) if cmd.reason
                           else msg("{action}: no effect", action=term(cmd.action))))
    if s.phase == "planning":
        _after_turn(ctx)


def _effect_on(ctx: Ctx, cmd: ApplyEffect, seat: int, by: int | None,
               reason: Message | str) -> None:
    """One effect of the vocabulary on one player (§14 keywords)."""
    s = ctx.state
    p = s.players[seat]
    match cmd.action:
        case "gain_blood":
            gain_blood(ctx, seat, cmd.amount, "gain", reason, by)
        case "lose_blood":
            lose_blood(ctx, seat, cmd.amount, by, reason)
        case "spend_blood":
            if p.blood - cmd.amount < 1:
                raise ctx.fail("§14 Spend", msg("spending {amount} of {blood} Blood would spend "
                                                "the last Blood, which is never allowed",
                                                amount=cmd.amount, blood=p.blood), seat)
            ctx.emit(BloodChanged(player=seat, delta=-cmd.amount, kind="spend", reason=reason))
        case "steal_blood":
            if by is None or by == seat:
                raise ctx.fail("§14 Steal", msg("say who steals (by), another player"), seat)
            steal_blood(ctx, by, seat, cmd.amount, reason)
        case "gain_influence":
            ctx.emit(InfluenceChanged(player=seat, delta=cmd.amount, reason=reason, by=by))
        case "lose_influence":
            lost = min(cmd.amount, p.influence)
            if lost:
                ctx.emit(InfluenceChanged(player=seat, delta=-lost, reason=reason, by=by))
        case "take_diablerie":
            take_diablerie(ctx, seat, cmd.amount)
        case "power" | "halve_printed_power":
            _power_effect(ctx, cmd, seat, reason)
        case "withdraw":
            loc = _need_step(ctx, "preparation", "conflict")
            if seat not in present_players(s, loc):
                raise ctx.fail("§8.1", msg("they are not at {location}",
                                           location=place(loc.id)), seat)
            withdraw_player(ctx, seat, loc, {}, reason)
        case "restore_card" | "drain_card":
            card = next((c for c in p.alliance if c.uid == cmd.card), None)
            restore = cmd.action == "restore_card"
            if card is None or card.drained != restore:
                said = msg("{ref} is not a drained card of their Alliance",
                           ref=repr(cmd.card)) if restore else \
                    msg("{ref} is not an active card of their Alliance", ref=repr(cmd.card))
                raise ctx.fail("§9", said, seat)
            if restore:
                ctx.emit(CardRestored(player=seat, uid=card.uid, reason=reason))
            else:
                drain(ctx, seat, card.uid, frenzy=False)


def _power_effect(ctx: Ctx, cmd: ApplyEffect, seat: int, reason: Message | str) -> None:
    s = ctx.state
    _need_step(ctx, "revelation", "preparation", "conflict")
    loc = s.locations[s.location_index]
    uid = deployed_uid(ctx, cmd.card or "")
    card = next((c for c in loc.positions[seat].cards if c.uid == uid), None)
    if card is None:
        raise ctx.fail("§8.4", msg("{ref} is not a Deployed card on their Position at "
                                   "{location}", ref=repr(cmd.card),
                                   location=place(loc.id)), seat)
    if cmd.action == "power":
        if cmd.amount == 0:
            raise ctx.fail("§8.4", msg("a Power change needs a non-zero amount"), seat)
        mod = PowerModifier(kind="add", amount=cmd.amount, source=reason)
    else:
        mod = PowerModifier(kind="halve_printed", source=reason)
    ctx.emit(PowerModified(uid=card.uid, modifier=mod))


def _use_relic(ctx: Ctx, cmd: UseRelic) -> None:
    _need_phase(ctx, "feed", "location_setup", "hand_building", "planning", "resolution")
    s = ctx.state
    seat = _seat(ctx, cmd.player)
    p = s.players[seat]
    if p.relic is None:
        raise ctx.fail("§13", msg("they have no Relic"), seat)
    if p.relic_used:
        raise ctx.fail("§13", msg("{relic} was already used; a Relic is used once per game",
                                  relic=ctx.card(p.relic)), seat)
    ability = p.relic.ability
    if ability == "restore_drained":
        if s.phase != "planning" or current_player(s) != seat:
            raise ctx.fail("§15", msg("{relic} is used during its owner's Planning turn",
                                      relic=ctx.card(p.relic)), seat, TurnError)
        card = next((c for c in p.alliance if c.uid == cmd.card and c.drained), None)
        if card is None:
            raise ctx.fail("§15", msg("choose one of their drained cards, not {ref}",
                                      ref=repr(cmd.card)), seat)
        ctx.emit(RelicUsed(player=seat))
        ctx.emit(CardRestored(player=seat, uid=card.uid, reason=p.relic.name))
    elif ability == "blood_each_location":
        if not blood_relic_window(s):
            raise ctx.fail("§15", msg("{relic} is used as the Resolution phase begins",
                                      relic=ctx.card(p.relic)), seat, PhaseError)
        ctx.emit(RelicUsed(player=seat))
        for loc in s.locations:
            if p.blood > 1:
                ctx.emit(BloodDeployed(player=seat, location=loc.id, amount=1))
        _enter_step(ctx, 0, "withdraw")
    else:
        ctx.emit(RelicUsed(player=seat))


def blood_relic_window(state: GameState) -> bool:
    """Whether Resolution is just beginning (no Location touched yet), for the Relic (§15)."""
    first = state.locations[0]
    return (state.phase == "resolution" and state.location_index == 0
            and state.step == "withdraw" and not first.withdrawn and first.result is None)


def _holds_blood_relic(state: GameState) -> bool:
    return any(p.relic and p.relic.ability == "blood_each_location" and not p.relic_used
               and not p.eliminated for p in state.players)


def _peek(ctx: Ctx, cmd: Peek) -> None:
    _need_phase(ctx, "planning", "resolution")
    s = ctx.state
    seat = _seat(ctx, cmd.player)
    if not has_ability(s, seat, "peek_face_down"):
        raise ctx.fail("§15", msg("only the owner of the Ally that looks at face-down cards "
                                  "may"), seat)
    face_down = {c.uid for loc in s.locations for p in loc.positions for c in p.cards
                 if not c.face_up and c.owner != seat}
    uids = [deployed_uid(ctx, ref) for ref in cmd.cards]
    unknown = [u for u in uids if u not in face_down]
    if unknown or len(set(uids)) != len(uids):
        raise ctx.fail("§15", msg("{cards} are not distinct face-down cards of other players",
                                  cards=list(unknown or cmd.cards)), seat)
    cost = len(uids)
    if s.players[seat].blood - cost < 1:
        raise ctx.fail("§14 Spend", msg("looking at {n} card(s) costs {n} Blood and would "
                                        "spend the last Blood", n=cost), seat)
    ctx.emit(BloodChanged(player=seat, delta=-cost, kind="spend",
                          reason=msg("looked at {n} face-down card(s)", n=cost)))


HANDLERS: dict[str, Callable[[Ctx, AnyCommand], None]] = {
    "set_first_player": _first_player,
    "offer_clans": _offer_clans,
    "pick_clan": _pick_clan,
    "offer_relics": _offer_relics,
    "pick_relic": _pick_relic,
    "place_location_cards": _place_location_cards,
    "feed": _feed,
    "place_allies": _place_allies,
    "finish_hand_building": _finish_hand_building,
    "drain": _drain_cmd,
    "play_card": _play_card,
    "pass_turn": _pass_turn,
    "choose_withdraw": _choose_withdraw,
    "reveal": _reveal,
    "apply_effect": _apply_effect,
    "use_relic": _use_relic,
    "next_step": _next_step,
    "resolve_effect": _resolve_effect,
    "take_back_blood": _take_back_blood,
    "peek": _peek,
}

