"""Primitive game operations shared by commands and card effects (§9, §10, §11, §14).

Each works on an action in progress (`Ctx`): it emits events into the action's private state.
"""

import random
from typing import Any

from companion.rules.apply import apply_in_place
from companion.rules.errors import RuleError, card_arg, english
from companion.rules.queries import active_abilities, teammates
from models.cards import AllyCard, ClanCard, LocationCard, RelicCard
from models.commands import AnyCommand
from models.common import LocationId
from models.events import (
    AnyEvent,
    BloodChanged,
    BloodReturned,
    CardDrained,
    CardMoved,
    CardRevealed,
    CardsReturned,
    DiablerieTaken,
    FrenzyEntered,
    InfluenceChanged,
    PlayerEliminated,
    Withdrew,
)
from models.message import Message, msg
from models.state import GameState, LocationState


class Ctx:
    """One action in progress: a private working state, its events, its random draws."""

    def __init__(self, state: GameState, command: AnyCommand):
        self.state = state
        self.command = command
        self.events: list[AnyEvent] = []
        self.rng = random.Random(f"{state.seed}:{state.events}")
        self.draws = list(command.draws) if command.draws is not None else None
        self.cards: dict[str, str] = {}
        """Names of the cards this action's refusal may name, by id (`card`)."""

    def emit(self, event: AnyEvent) -> None:
        """Record an event and fold it into the working state."""
        apply_in_place(self.state, event)
        self.events.append(event)

    def name(self, seat: int) -> str:
        """Player's name."""
        return self.state.players[seat].name

    def card(self, c: ClanCard | AllyCard | RelicCard | LocationCard) -> Any:
        """A card as a refusal's argument (`errors.card_arg`)."""
        return card_arg(c, self.cards)

    def fail(self, rule: str, message: Message, player: int | None = None,
             error: type[RuleError] = RuleError) -> RuleError:
        """Build the error for this command: the reason as a message, and in English with the
        players' names and the cards' names."""
        who = self.name(player) if player is not None else None
        names = [p.name for p in self.state.players]
        return error(rule, self.command.type, message, who, seat=player,
                     reason=english(message, names, self.cards))


# --- Blood, Frenzy, Drain, Diablerie (§9, §10, §11, §14) --------------------------------------

def gain_blood(ctx: Ctx, player: int, amount: int, kind: str, reason: Message | str,
               by: int | None = None) -> None:
    """Gain Blood from the Bank."""
    if amount > 0 and not ctx.state.players[player].eliminated:
        ctx.emit(BloodChanged(player=player, delta=amount, kind=kind, reason=reason, by=by))


def lose_blood(ctx: Ctx, player: int, amount: int, by: int | None, reason: Message | str,
               where: LocationId | None = None) -> int:
    """Lose as much as possible of `amount` Blood; a Pool reaching 0 enters Frenzy (§10, §14)."""
    p = ctx.state.players[player]
    taken = min(amount, p.blood)
    if taken <= 0 or p.eliminated:
        return 0
    ctx.emit(BloodChanged(player=player, delta=-taken, kind="lose", reason=reason, by=by))
    if p.blood == 0:
        frenzy(ctx, player, by, where)
    return taken


def steal_blood(ctx: Ctx, thief: int, victim: int, amount: int, reason: Message | str,
                where: LocationId | None = None) -> int:
    """Steal as much as possible; the victim may enter Frenzy, caused by the thief (§14)."""
    p = ctx.state.players[victim]
    taken = min(amount, p.blood)
    if taken <= 0 or p.eliminated:
        return 0
    ctx.emit(BloodChanged(player=victim, delta=-taken, kind="steal", reason=reason, by=thief))
    ctx.emit(BloodChanged(player=thief, delta=taken, kind="steal", reason=reason, by=thief))
    if p.blood == 0:
        frenzy(ctx, victim, thief, where)
    return taken


FRENZY_REWARD = "sent a player into Frenzy"
"""The reason of the Influence for sending a player into Frenzy (§10)."""


def frenzy_reward(state: GameState, by: int, where: LocationId | None) -> list[tuple[int, str]]:
    """Influence the causer of a Frenzy gains, with reasons: `FRENZY_REWARD`, else the name of
    the card that gives it (§10; The Collar and Ally, §15)."""
    rewards = [(1, FRENZY_REWARD)]
    rewards += [(1, c.card.name) for c in active_abilities(state, by)
                if c.card.ability == "frenzy_bonus"]
    if where is None and state.phase == "resolution":
        where = state.locations[state.location_index].id
    loc = next((lo for lo in state.locations if lo.id == where), None)
    if loc and loc.location_card and loc.location_card.ability == "the_collar":
        rewards.append((1, loc.location_card.name))
    return rewards


def frenzy(ctx: Ctx, player: int, by: int | None, where: LocationId | None = None) -> None:
    """Frenzy at 0 Blood: reward the causer, drain a random active card or trade Influence.

    A drained card worth 0 Blood leaves the Pool at 0, so the drain repeats until the Pool has
    Blood again (the rulebook never leaves a player at 0 Blood).
    """
    s = ctx.state
    ctx.emit(FrenzyEntered(player=player, by=by))
    if (by is not None and by != player and not teammates(s, by, player)
            and not s.players[by].eliminated):
        for amount, why in frenzy_reward(s, by, where):
            said = msg("sent a player into Frenzy: {who}", who=ctx.name(player)) \
                if why == FRENZY_REWARD else msg("{card}: {who}", card=why, who=ctx.name(player))
            ctx.emit(InfluenceChanged(player=by, delta=amount, by=by, reason=said))
    p = s.players[player]
    while p.blood == 0 and not p.eliminated:
        active = [c.uid for c in p.alliance if not c.drained]
        direct = [c.uid for c in active_abilities(s, player)
                  if c.card.ability == "drained_in_frenzy"]
        if direct:
            drain(ctx, player, direct[0], frenzy=True)
        elif active:
            uid, drawn_randomly = _draw(ctx, player, active)
            drain(ctx, player, uid, frenzy=True, drawn_randomly=drawn_randomly)
        else:
            if p.influence > 0:
                ctx.emit(InfluenceChanged(player=player, delta=-1,
                                          reason="Frenzy with no active Alliance card"))
            ctx.emit(BloodChanged(player=player, delta=1, kind="frenzy",
                                  reason="Frenzy with no active Alliance card"))


def _draw(ctx: Ctx, player: int, active: list[str]) -> tuple[str, bool]:
    if ctx.draws is None:
        return ctx.rng.choice(active), True
    if not ctx.draws:
        raise ctx.fail("§10", msg("entered Frenzy: say which Alliance card was drawn (one of "
                                  "{cards})", cards=active), player)
    uid = ctx.draws.pop(0)
    if uid not in active:
        raise ctx.fail("§10", msg("the drawn card {ref} is not an active card of their Alliance "
                                  "(one of {cards})", ref=repr(uid), cards=active), player)
    return uid, False


def drain(ctx: Ctx, player: int, uid: str, *, frenzy: bool, drawn_randomly: bool = False) -> None:
    """Drain an Alliance card: gain its Drain Blood; a Vampire is Diablerie (§9)."""
    p = ctx.state.players[player]
    card = next(c for c in p.alliance if c.uid == uid)
    ctx.emit(CardDrained(player=player, uid=uid, frenzy=frenzy, random=drawn_randomly))
    gain_blood(ctx, player, card.card.drain_blood, "drain",
               msg("drained {card}", card=card.card.name))
    if card.card.kind == "vampire":
        take_diablerie(ctx, player, 2 if card.card.ability == "AL14" else 1)


def take_diablerie(ctx: Ctx, player: int, count: int) -> None:
    """Take Diablerie tokens; a third one eliminates the player, who takes no more (§9, §11)."""
    p = ctx.state.players[player]
    count = min(count, 3 - p.diablerie)
    if count <= 0 or p.eliminated:
        return
    ctx.emit(DiablerieTaken(player=player, count=count))
    if p.diablerie >= 3:
        ctx.emit(PlayerEliminated(player=player))


def withdraw_player(ctx: Ctx, seat: int, loc: LocationState, reveal: dict[str, ClanCard],
                    reason: Message | str) -> None:
    """Move a withdrawing player's Blood to the Pool and cards to the Prince's Haven (§8.1)."""
    pos = loc.positions[seat]
    if pos.blood:
        ctx.emit(BloodReturned(player=seat, location=loc.id, amount=pos.blood))
    for card in list(pos.cards):
        if not card.face_up and loc.id != "haven":  # from the Haven they go back unseen
            ctx.emit(CardRevealed(uid=card.uid, card=reveal[card.uid]))
    uids = [c.uid for c in pos.cards]
    if loc.id == "haven":
        if uids:
            ctx.emit(CardsReturned(uids=uids))
    else:
        for uid in uids:
            ctx.emit(CardMoved(uid=uid, to_location="haven", to_player=seat))
    ctx.emit(Withdrew(player=seat, location=loc.id, reason=reason))


