"""Automated card effects (§15): which are due, and what each one does.

Active cards act at their Resolution step in turn order (§8.3–§8.5): the engine lists them as
due; the referee resolves each (a player with several picks the order) and answers 'may'
choices. Passive cards, Allies, Relics and Location cards act on their triggers.
"""

from companion.rules.primitives import (
    Ctx,
    gain_blood,
    lose_blood,
    steal_blood,
    withdraw_player,
)
from companion.rules.queries import present_players, rivals, teammates, turn_order
from models.cards import AllianceCard
from models.common import Frozen, LocationId, Step
from models.events import BloodChanged, EffectResolved, PowerModified
from models.message import N_, msg
from models.said import Said
from models.state import GameState, PowerModifier

EFFECT_STEP: dict[str, Step] = {
    "BR07": "preparation", "NO07": "preparation",
    "BR01": "conflict", "GA02": "conflict",
    "BR04": "aftermath", "TR05": "aftermath",
}
"""The step at which each automated Active card acts."""

EFFECT_STEPS = ("preparation", "conflict", "aftermath")
"""Resolution steps at which Active cards act."""

OPTIONAL = {"NO07", "TR05"}
"""Effects the owner may decline ('may')."""

TEXT = {
    "BR01": N_("loses 2 Power if its owner has Deployed Blood here"),
    "BR07": N_("steals 1 Blood from each Rival"),
    "GA02": N_("halves the printed Power of every Rival's cards here"),
    "NO07": N_("may withdraw to the Prince's Haven, then steal 1 Blood from each Rival"),
    "BR04": N_("each Rival loses 1 Blood per round number"),
    "TR05": N_("may spend half its owner's Blood, then each Rival loses 4 Blood"),
}
"""Short descriptions shown with a due effect (English; marked for the catalogues)."""


class DueEffect(Frozen):
    """A card effect waiting to be resolved at the current step."""

    uid: str
    """Deployed card uid."""
    owner: int
    """Seat of the player whose Position holds it (they apply it)."""
    label: str
    """Card label."""
    effect: str
    """Effect key."""
    text: str
    """What it does."""
    optional: bool
    """Whether the owner may decline it."""
    can_accept: bool = True
    """False when the effect cannot be applied now (§14): it can only be declined."""
    teammate_choice: bool = False
    """Tag team: the owner's teammate is a Rival here, so the owner chooses whether the effect
    reaches them (`include_teammate`, §13)."""


def due_effects(state: GameState) -> list[DueEffect]:
    """Unresolved automated effects at the current step, in turn order (§8.3–§8.5, §14)."""
    if state.phase != "resolution" or state.step is None or state.awaiting:
        return []
    loc = state.locations[state.location_index]
    due = []
    for seat in present_players(state, loc):
        for card in loc.positions[seat].cards:
            key = card.card.effect if card.face_up and card.card else None
            if key is None or EFFECT_STEP.get(key) != state.step:
                continue
            if card.uid in state.resolved_effects:
                continue
            can = not (key == "TR05" and state.players[seat].blood // 2 < 1)
            mate = any(teammates(state, seat, r) for r in rivals(state, loc, seat))
            due.append(DueEffect(uid=card.uid, owner=seat, label=card.card.label(), effect=key,
                                 text=TEXT[key], optional=key in OPTIONAL, can_accept=can,
                                 teammate_choice=mate))
    return due


def by_hand(state: GameState) -> list[str]:
    """Face-up cards at the Location being resolved that act at this step but that the app
    does not apply: the referee applies them by hand (§8.3–§8.5)."""
    if state.phase != "resolution" or state.step not in EFFECT_STEPS:
        return []
    loc = state.locations[state.location_index]
    return [f"{state.players[seat].name}'s {card.card.label()}"
            for seat in present_players(state, loc) for card in loc.positions[seat].cards
            if card.face_up and card.card and card.card.kind == state.step
            and card.card.effect not in EFFECT_STEP]


def unknown_timing(state: GameState) -> list[str]:
    """Face-up cards at the Location being resolved whose kind the table never told the app:
    whether and when they act is unknown to it."""
    if state.phase != "resolution":
        return []
    loc = state.locations[state.location_index]
    return [f"{state.players[seat].name}'s {card.card.label()}"
            for seat in present_players(state, loc) for card in loc.positions[seat].cards
            if card.face_up and card.card and card.card.kind is None
            and card.card.effect is None]


def next_effects(state: GameState) -> list[DueEffect]:
    """The effects that may be resolved next: those of the first player in turn order with any."""
    due = due_effects(state)
    return [d for d in due if d.owner == due[0].owner] if due else []


def _targets(state: GameState, seat: int, include_teammate: bool) -> list[int]:
    loc = state.locations[state.location_index]
    return [r for r in rivals(state, loc, seat)
            if include_teammate or not teammates(state, seat, r)]


def resolve(ctx: Ctx, due: DueEffect, accept: bool, include_teammate: bool) -> None:
    """Apply (or decline) one due effect, fully, before the next (§8.3)."""
    s = ctx.state
    loc = s.locations[s.location_index]
    owner, key = due.owner, due.effect
    targets = _targets(s, owner, include_teammate)
    reason = Said(msg("{card} ({effect})", card=due.label.rsplit(" (", 1)[0], effect=key))
    ctx.emit(EffectResolved(uid=due.uid, player=owner, accepted=accept))
    if not accept:
        return
    match key:
        case "BR07":
            for r in targets:
                steal_blood(ctx, owner, r, 1, reason, loc.id)
        case "NO07":
            withdraw_player(ctx, owner, loc, {}, reason)
            for r in targets:
                steal_blood(ctx, owner, r, 1, reason, loc.id)
        case "BR01":
            if loc.positions[owner].blood > 0:
                ctx.emit(PowerModified(uid=due.uid, modifier=PowerModifier(
                    kind="add", amount=-2, source=reason)))
        case "GA02":
            for r in targets:
                for card in loc.positions[r].cards:
                    ctx.emit(PowerModified(uid=card.uid, modifier=PowerModifier(
                        kind="halve_printed", source=reason)))
        case "BR04":
            for r in targets:
                lose_blood(ctx, r, s.round, owner, reason, loc.id)
        case "TR05":
            half = s.players[owner].blood // 2
            ctx.emit(BloodChanged(player=owner, delta=-half, kind="spend", reason=reason))
            for r in targets:
                lose_blood(ctx, r, 4, owner, reason, loc.id)


def play_triggers(state: GameState, seat: int, where: LocationId,
                  include_teammate: bool = False) -> list[tuple[int, str, str]]:
    """Face-up Passive cards a play at `where` would trigger: (holder, label, their Location).

    BR03 Challenge: each opponent's face-up Challenge at another Location makes the player Lose
    1 (§15); in tag team it reaches the partner only when its owner chooses so (§13).
    """
    out = []
    for loc in state.locations:
        if loc.id == where:
            continue
        for holder in turn_order(state):
            partner = teammates(state, holder, seat)
            if holder == seat or (partner and not include_teammate):
                continue
            for card in loc.positions[holder].cards:
                if card.face_up and card.card and card.card.effect == "BR03":
                    name = card.card.name or card.card.id or "card"
                    label = msg("{card} ({power}) (BR03), reaching the partner by its owner's "
                                "choice", card=name, power=card.card.power) if partner else \
                        msg("{card} ({power}) (BR03)", card=name, power=card.card.power)
                    out.append((holder, Said(label), loc.id))
    return out


def partner_challenge(state: GameState, seat: int) -> int | None:
    """Tag team: the partner of `seat` holding a face-up Challenge (BR03) on the table, who
    chooses whether it reaches `seat`'s plays (§13); None if there is none."""
    return next((holder for loc in state.locations for holder in turn_order(state)
                 if teammates(state, holder, seat)
                 for card in loc.positions[holder].cards
                 if card.face_up and card.card and card.card.effect == "BR03"), None)


def on_card_played(ctx: Ctx, seat: int, where: LocationId, include_teammate: bool) -> None:
    """Apply the Passive cards a play triggers (§7, §15); `include_teammate`: the partner's
    Challenge reaches this play too (§13)."""
    for holder, label, loc_id in play_triggers(ctx.state, seat, where, include_teammate):
        lose_blood(ctx, seat, 1, holder, label, loc_id)


def on_acquire(ctx: Ctx, seat: int, card: AllianceCard) -> None:
    """'When you acquire this Ally' abilities fire as it joins the Alliance (§8.4, §15)."""
    ability = card.card.ability
    n_cards = len(ctx.state.players[seat].alliance)
    gains = {"acquire_gain_5": 5, "acquire_gain_3": 3, "acquire_gain_per_card": n_cards}
    if ability in gains:
        gain_blood(ctx, seat, gains[ability], "gain",
                   msg("{card} joined the Alliance", card=card.card.name))
