"""A random-legal-game driver for property tests and benchmarks.

Every random decision goes through a `Chooser`: `RandomChooser` wraps a `random.Random`,
`DataChooser` wraps hypothesis' `data` (so hypothesis drives and replays the choices).

- `random_setup(ch)` draws a table (3–6 players, relics, Location cards, tag team).
- `next_command(state, ch)` gives a legal command dict for the state, built from `legal(state)`.
- `illegal_command(state, ch)` gives `(kind, command)` that the rules must refuse, or None.
- `play_game(ch, after=...)` plays a whole game, calling `after(game)` after every action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from companion.rules.game import Game
from companion.rules.legal import Legal, legal
from companion.rules.queries import present_players
from models.common import CLANS
from models.setup import GameSetup, PlayerSetup, Variants
from models.state import GameState

T = TypeVar("T")
Cmd = dict[str, Any]

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
TEAMS = ("Red", "Blue", "Gold")
CARD_KINDS = (None, "preparation", "conflict", "aftermath", "passive")
KNOWN_CARDS = (("BR01", "Bloody Fury", 6, "conflict"), ("BR03", "Challenge", 4, "passive"),
               ("BR04", "Fist of Caine", 4, "aftermath"),
               ("BR07", "Show of Force", 3, "preparation"),
               ("GA02", "Wolf Companion", 2, "conflict"), ("NO07", "Vanish", 4, "preparation"),
               ("TR05", "Cauldron of Blood", 3, "aftermath"))
"""§15 clan cards; with `automate` their effect key is set so the engine applies them."""
ALLY_ABILITIES = (("AL14", "vampire"), ("drained_in_frenzy", None), ("win_ties", None),
                  ("frenzy_bonus", None), ("acquire_gain_5", None), ("acquire_gain_3", None),
                  ("acquire_gain_per_card", None), ("peek_face_down", None))
LOCATION_CARDS = (("Succubus Club", "succubus_club"), ("The Collar", "the_collar"),
                  ("Elysium", None), ("Docks", None))


class Chooser(Protocol):
    """Source of every random decision."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi]."""
        ...

    def chance(self, p: float) -> bool:
        """True with probability about p."""
        ...


class RandomChooser:
    """Decisions from a `random.Random` (fast; reproducible from its seed)."""

    def __init__(self, rng: random.Random | int):
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p


class DataChooser:
    """Decisions drawn from hypothesis' `st.data()` object."""

    def __init__(self, data: Any):
        self.data = data

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi)) if hi > lo else lo

    def chance(self, p: float) -> bool:
        return self.data.draw(st.integers(0, 999)) < p * 1000


def pick(ch: Chooser, seq: Sequence[T]) -> T:
    """One element of a non-empty sequence."""
    return seq[ch.integer(0, len(seq) - 1)]


def subset(ch: Chooser, seq: Sequence[T], p: float = 0.3) -> list[T]:
    """Each element kept with probability p, order kept."""
    return [x for x in seq if ch.chance(p)]


def ref(ch: Chooser, state: GameState, seat: int) -> int | str:
    """A player reference: seat index or name (sometimes oddly cased)."""
    if ch.chance(0.5):
        return seat
    name = state.players[seat].name
    return name.upper() if ch.chance(0.2) else name


def alive(state: GameState) -> list[int]:
    """Seats still in the game."""
    return [i for i, p in enumerate(state.players) if not p.eliminated]


# --- random cards ----------------------------------------------------------------------------


def clan_card(ch: Chooser, automate: float = 0.0, taken: list[str] | None = None) -> Cmd:
    """A face-up clan card's identity: a known §15 card (automated with probability
    `automate`) or a plain 'card of power N'. A known card its owner already has on the table
    (`taken`, §1/§2 one copy each) is replaced by a plain one; a known card is added to
    `taken`."""
    if ch.chance(0.3):
        cid, name, power, kind = pick(ch, KNOWN_CARDS)
        if taken is None or cid not in taken:
            if taken is not None:
                taken.append(cid)
            card = {"id": cid, "name": name, "power": power, "kind": kind}
            return {**card, "effect": cid} if ch.chance(automate) else card
    return {"power": ch.integer(0, 8), "kind": pick(ch, CARD_KINDS)}


def ally_card(ch: Chooser, n: int, automate: float = 0.0) -> Cmd:
    """Plausible Ally values; Vampires are common so Diablerie and elimination happen."""
    kind = pick(ch, ("human", "vampire", "vampire", "vampire", "victim"))
    if kind == "victim":
        return {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1,
                "drain_blood": 3, "drained_influence": 0, "id": "VICTIM"}
    card: Cmd = {"name": f"Ally {n}", "kind": kind, "influence": ch.integer(0, 4),
                 "feed": ch.integer(0, 2), "drain_blood": ch.integer(0, 4),
                 "drained_influence": ch.integer(-1, 2)}
    if ch.chance(automate):
        ability, forced = pick(ch, ALLY_ABILITIES)
        card.update(ability=ability, kind=forced or kind)
    return card


def relic_card(ch: Chooser, n: int, automate: float = 0.0) -> Cmd:
    """A Relic with its Influence (and, with probability `automate`, a §15 ability)."""
    card: Cmd = {"name": f"Relic {n}", "influence": ch.integer(0, 2)}
    if ch.chance(automate):
        card["ability"] = pick(ch, ("restore_drained", "blood_each_location"))
    return card


# --- setup -----------------------------------------------------------------------------------


def random_setup(ch: Chooser, n_players: int | None = None) -> GameSetup:
    """A table of 3–6 players with random variants (6 players means tag team)."""
    n = n_players or ch.integer(3, 6)
    tag = n == 6 or (n == 4 and ch.chance(0.4))
    half = n // 2
    players = [PlayerSetup(name=NAMES[i], team=TEAMS[i % half] if tag else None)
               for i in range(n)]
    variants = Variants(relics=ch.chance(0.4), location_cards=ch.chance(0.4), tag_team=tag)
    return GameSetup(players=players, variants=variants, seed=ch.integer(0, 2**31))


def _setup_command(state: GameState, lg: Legal, ch: Chooser, automate: float) -> Cmd:
    kind = pick(ch, lg.commands)
    n = len(state.players)
    if kind == "set_first_player":
        return {"type": kind, "player": None if ch.chance(0.5) else ref(ch, state,
                                                                         ch.integer(0, n - 1))}
    if kind == "offer_clans" and ch.chance(0.6):
        clans = list(CLANS)
        explicit = [clans.pop(ch.integer(0, len(clans) - 1)) for _ in range(n + 1)]
        return {"type": kind, "clans": None if ch.chance(0.5) else explicit}
    if kind in ("offer_clans", "pick_clan"):
        assert lg.actor is not None
        return {"type": "pick_clan", "player": ref(ch, state, lg.actor),
                "clan": pick(ch, lg.clans)}
    if kind == "offer_relics":
        return {"type": kind, "relics": [relic_card(ch, i, automate) for i in range(n + 1)]}
    if kind == "pick_relic":
        assert lg.actor is not None
        return {"type": kind, "player": ref(ch, state, lg.actor), "index": pick(ch, lg.relics)}
    assert kind == "place_location_cards", kind
    cards = {}
    for loc in state.locations:
        name, ability = pick(ch, LOCATION_CARDS)
        if loc.id != "haven":
            cards[loc.id] = {"name": name, **({"ability": ability}
                                              if ability and ch.chance(automate) else {})}
    return {"type": kind, "cards": cards}


# --- the next legal command --------------------------------------------------------------------


def next_command(state: GameState, ch: Chooser, effect_rate: float = 0.12,
                 face_down_rate: float = 0.4, automate: float = 0.0) -> Cmd:
    """A legal command for `state` (the game must not be over); `effect_rate` is how often an
    effect is applied by hand, `face_down_rate` how often a card is played face down,
    `automate` how often a card gets a §15 effect the engine applies by itself."""
    lg = legal(state)
    assert lg.commands, "the game is over"
    if "apply_effect" in lg.commands and alive(state) and ch.chance(effect_rate):
        return random_effect(state, lg, ch)
    if state.phase == "setup":
        return _setup_command(state, lg, ch, automate)
    if state.phase == "feed":
        return {"type": "feed"}
    if state.phase == "location_setup":
        return {"type": "place_allies", "allies": {
            loc.id: ally_card(ch, state.events + i, automate)
            for i, loc in enumerate(state.locations)}}
    if state.phase == "hand_building":
        return {"type": "finish_hand_building"}
    if state.phase == "planning":
        return _planning_command(state, lg, ch, face_down_rate, automate)
    return _resolution_command(state, lg, ch, automate)


def _planning_command(state: GameState, lg: Legal, ch: Chooser, face_down_rate: float,
                      automate: float) -> Cmd:
    assert lg.actor is not None
    who = ref(ch, state, lg.actor)
    if lg.drainable and ch.chance(0.2):
        vampires = [c.uid for c in state.players[lg.actor].alliance
                    if not c.drained and c.card.kind == "vampire"]
        card = pick(ch, vampires) if vampires and ch.chance(0.7) else pick(ch, lg.drainable)
        return {"type": "drain", "player": who, "card": card}
    if "pass_turn" in lg.commands:
        return {"type": "pass_turn", "player": who}
    face_up = not lg.can_play_face_down or not ch.chance(face_down_rate)
    where = pick(ch, lg.locations)
    top = lg.max_blood_face_up if face_up else lg.max_blood_face_down
    if where in lg.max_blood:   # after Blood lost to Passive cards (BR03)
        top = lg.max_blood[where]["up" if face_up else "down"]
    return {"type": "play_card", "player": who, "location": where,
            "face_up": face_up,
            "card": clan_card(ch, automate, list(lg.taken_cards.get(lg.actor, [])))
            if face_up else None,
            "blood": ch.integer(0, top), "diablerie": ch.integer(0, lg.max_diablerie)}


def _resolution_command(state: GameState, lg: Legal, ch: Chooser, automate: float) -> Cmd:
    taken = {p: list(keys) for p, keys in lg.taken_cards.items()}
    if "choose_withdraw" in lg.commands:
        leaving = subset(ch, lg.present, 0.25)
        reveal = {uid: clan_card(ch, automate, taken.setdefault(p, [])) for p in leaving
                  for uid in lg.face_down.get(p, [])}
        return {"type": "choose_withdraw", "withdraw": [ref(ch, state, p) for p in leaving],
                "reveal": reveal}
    if "reveal" in lg.commands:
        return {"type": "reveal", "cards": {uid: clan_card(ch, automate, taken.setdefault(p, []))
                                            for p, uids in lg.face_down.items()
                                            for uid in uids}}
    # automated card effects and after-Location choices (catalogue cards, §15), if any
    if "resolve_effect" in lg.commands:
        uid = pick(ch, lg.next_due)
        due = next(d for d in lg.due if d.uid == uid)
        accept = due.can_accept and (not due.optional or ch.chance(0.7))
        return {"type": "resolve_effect", "card": due.uid, "accept": accept}
    if "take_back_blood" in lg.commands:
        return {"type": "take_back_blood",
                "amounts": {state.players[p].name: ch.integer(0, top)
                            for p, top in lg.take_back.items()}}
    return {"type": "next_step"}


def random_effect(state: GameState, lg: Legal, ch: Chooser) -> Cmd:
    """A legal `apply_effect` or `use_relic`; Blood losses are large so Frenzy is common."""
    seats = alive(state)
    loc = state.location
    step = state.step
    with_cards = [p for p in seats if loc is not None and loc.positions[p].cards]
    here = present_players(state, loc) if loc is not None else []
    relics = list(lg.relic_users)  # §13/§15: only when the Relic's text allows
    drained = [p for p in seats if any(c.drained for c in state.players[p].alliance)]
    options = ["lose_blood", "lose_blood", "gain_blood", "gain_influence", "lose_influence",
               "spend_blood", "take_diablerie", "drain_card"]
    if len(seats) > 1:
        options += ["steal_blood", "steal_blood"]
    if with_cards and step in ("revelation", "preparation", "conflict"):
        options += ["power", "halve_printed_power"]
    if here and step in ("preparation", "conflict"):
        options.append("withdraw")
    if drained:
        options += ["restore_card", "restore_card"]
    if relics:
        options.append("use_relic")
    action = pick(ch, options)
    if action == "use_relic":
        seat = pick(ch, relics)
        drained_cards = lg.relic_cards.get(seat, [])
        return {"type": "use_relic", "player": ref(ch, state, seat),
                "card": pick(ch, drained_cards) if drained_cards else None}
    seat = pick(ch, seats)
    cmd: Cmd = {"type": "apply_effect", "action": action, "reason": f"test {action}"}
    rivals_step = step in ("revelation", "preparation", "conflict", "aftermath")
    if action in ("lose_blood", "steal_blood", "gain_influence") and rivals_step and ch.chance(
            0.25):   # 'each Rival' of a player (BR04-like), teammate in or out (§13)
        cmd.update(each_rival=True, include_teammate=ch.chance(0.5), amount=ch.integer(1, 4))
    elif action in ("lose_blood", "steal_blood"):
        cmd["amount"] = ch.integer(1, 9)
        others = [p for p in seats if p != seat]
        if action == "steal_blood" or (others and ch.chance(0.7)):
            by: int | None = pick(ch, others)
        else:   # no causer, or the player's own effect (§10 Ruling: nobody gains)
            by = seat if ch.chance(0.5) else None
        if by is not None:
            cmd["by"] = ref(ch, state, by)
    elif action == "spend_blood":
        if state.players[seat].blood < 2:
            action, cmd["action"] = "gain_blood", "gain_blood"
        cmd["amount"] = ch.integer(1, max(1, min(3, state.players[seat].blood - 1)))
    elif action in ("gain_blood", "gain_influence", "lose_influence"):
        cmd["amount"] = ch.integer(1, 3)
    elif action == "take_diablerie":
        cmd["amount"] = 1
    elif action == "drain_card":
        active = [c.uid for c in state.players[seat].alliance if not c.drained]
        if not active:
            return {**cmd, "action": "gain_blood", "amount": 1, "player": ref(ch, state, seat)}
        cmd["card"] = pick(ch, active)
    elif action in ("power", "halve_printed_power"):
        assert loc is not None
        seat = pick(ch, with_cards)
        cmd["card"] = pick(ch, [c.uid for c in loc.positions[seat].cards])
        if action == "power":
            cmd["amount"] = pick(ch, (-3, -2, -1, 1, 2, 3))
    elif action == "withdraw":
        seat = pick(ch, here)
    elif action == "restore_card":
        seat = pick(ch, drained)
        cards = [c for c in state.players[seat].alliance if c.drained]
        vampires = [c for c in cards if c.card.kind == "vampire"]
        cmd["card"] = pick(ch, vampires if vampires and ch.chance(0.8) else cards).uid
    cmd["player"] = ref(ch, state, seat)
    return cmd


# --- deliberately illegal commands ---------------------------------------------------------------


def illegal_command(state: GameState, ch: Chooser) -> tuple[str, Cmd] | None:
    """A command the rules must refuse in `state`, with a label of why; None if none applies."""
    if not alive(state):
        return None
    makers = [m for m in _ILLEGAL if m[1](state)]
    if not makers:
        return None
    kind, _, make = pick(ch, makers)
    return kind, make(state, ch)


def _planning(s: GameState) -> bool:
    return s.phase == "planning"


def _actor(s: GameState) -> int:
    seat = legal(s).actor
    assert seat is not None
    return seat


def _not_actor(s: GameState) -> list[int]:
    return [p for p in alive(s) if p != legal(s).actor]


def _wrong_player(s: GameState, ch: Chooser) -> Cmd:
    seat = pick(ch, _not_actor(s))
    if s.phase == "setup":
        lg = legal(s)
        if "pick_relic" in lg.commands:
            return {"type": "pick_relic", "player": seat, "index": pick(ch, lg.relics)}
        return {"type": "pick_clan", "player": seat, "clan": pick(ch, lg.clans)}
    return {"type": "play_card", "player": seat, "location": "haven", "card": {"power": 1}}


def _wrong_phase(s: GameState, ch: Chooser) -> Cmd:
    wrong: list[Cmd] = []
    if s.phase != "feed":
        wrong.append({"type": "feed"})
    if s.phase != "location_setup":
        wrong.append({"type": "place_allies", "allies": {
            loc.id: ally_card(ch, 0) for loc in s.locations}})
    if s.phase != "hand_building":
        wrong.append({"type": "finish_hand_building"})
    if s.phase != "resolution" or s.step in ("withdraw", "revelation"):
        wrong.append({"type": "next_step"})
    if s.step != "revelation":
        wrong.append({"type": "reveal", "cards": {}})
    if s.step != "withdraw":
        wrong.append({"type": "choose_withdraw"})
    if s.phase != "planning":
        wrong.append({"type": "play_card", "player": 0, "location": "1", "card": {"power": 2}})
    if s.phase != "setup" or s.ambition is not None:
        wrong.append({"type": "set_first_player"})
    if s.phase in ("setup", "game_over"):
        wrong.append({"type": "apply_effect", "action": "gain_blood", "player": 0, "amount": 1})
    if s.step not in ("preparation", "conflict"):
        wrong.append({"type": "apply_effect", "action": "withdraw", "player": 0})
    if s.step not in ("preparation", "conflict", "aftermath") or not legal(s).due:
        wrong.append({"type": "resolve_effect", "card": "c1"})
    if s.awaiting is None:
        wrong.append({"type": "take_back_blood", "amounts": {}})
    return pick(ch, wrong)


def _play(s: GameState, **kw: Any) -> Cmd:
    base: Cmd = {"type": "play_card", "player": _actor(s), "location": s.locations[0].id,
                 "face_up": True, "card": {"power": 3}}
    return {**base, **kw}


def _can_play(s: GameState) -> bool:
    return _planning(s) and s.players[_actor(s)].hand_size > 0


def _last_blood(s: GameState) -> bool:
    return _can_play(s) and s.players[_actor(s)].blood <= 4


def _last_blood_cmd(s: GameState, ch: Chooser) -> Cmd:
    blood = s.players[_actor(s)].blood
    if blood <= 3 and ch.chance(0.5):
        return _play(s, blood=blood)
    return _play(s, face_up=False, card=None, blood=blood - 1)


def _frenzy_target(s: GameState) -> int | None:
    if s.phase in ("setup", "game_over"):
        return None
    return next((p for p in alive(s) if any(not c.drained for c in s.players[p].alliance)
                 and not any(c.card.ability == "drained_in_frenzy" and not c.drained
                             for c in s.players[p].alliance)), None)


def _unknown_uid(s: GameState, ch: Chooser) -> Cmd:
    options: list[Cmd] = [{"type": "apply_effect", "action": "restore_card",
                           "player": pick(ch, alive(s)), "card": "zz9"}]
    if _planning(s):
        options.append({"type": "drain", "player": _actor(s), "card": "zz9"})
    if s.step in ("revelation", "preparation", "conflict"):
        options.append({"type": "apply_effect", "action": "power", "amount": 1,
                        "player": pick(ch, alive(s)), "card": "zz9"})
    if s.step == "revelation":
        options.append({"type": "reveal", "cards": {"zz9": {"power": 1}}})
    if s.step == "withdraw":
        options.append({"type": "choose_withdraw", "reveal": {"zz9": {"power": 1}}})
    return pick(ch, options)


def _bad_effect(s: GameState, ch: Chooser) -> Cmd:
    seat = pick(ch, alive(s))
    p = s.players[seat]
    options: list[Cmd] = [
        {"type": "apply_effect", "action": "spend_blood", "player": seat, "amount": p.blood},
        {"type": "apply_effect", "action": "steal_blood", "player": seat, "amount": 1},
        {"type": "apply_effect", "action": "steal_blood", "player": seat, "by": seat,
         "amount": 1},
        {"type": "apply_effect", "action": pick(ch, ("gain_blood", "lose_blood",
                                                     "gain_influence")),
         "player": seat, "amount": 0},
        {"type": "apply_effect", "action": "gain_influence", "player": seat, "amount": 1,
         "draws": ["v1"]},
    ]
    if not p.relic:
        options.append({"type": "use_relic", "player": seat})
    if p.relic and p.relic_used:
        options.append({"type": "use_relic", "player": seat})
    return pick(ch, options)


def _eliminated_acts(s: GameState, ch: Chooser) -> Cmd:
    out = pick(ch, [i for i, p in enumerate(s.players) if p.eliminated])
    return pick(ch, [
        {"type": "apply_effect", "action": "gain_blood", "player": out, "amount": 1},
        {"type": "apply_effect", "action": "lose_blood", "player": alive(s)[0], "by": out,
         "amount": 1},
        {"type": "use_relic", "player": out},
        {"type": "play_card", "player": out, "location": "haven", "card": {"power": 1}},
    ])


def _missing_draw(s: GameState, ch: Chooser) -> Cmd:
    seat = _frenzy_target(s)
    assert seat is not None
    return {"type": "apply_effect", "action": "lose_blood", "player": seat,
            "amount": s.players[seat].blood, "draws": pick(ch, ([], ["zz9"]))}


def _withdraw_wrong(s: GameState, ch: Chooser) -> Cmd:
    lg = legal(s)
    absent = [p for p in alive(s) if p not in lg.present]
    options: list[Cmd] = []
    if absent:
        options.append({"type": "choose_withdraw", "withdraw": [pick(ch, absent)]})
    if lg.present:
        p = pick(ch, lg.present)
        options.append({"type": "choose_withdraw", "withdraw": [p, p],
                        "reveal": {u: {"power": 1} for u in lg.face_down.get(p, [])}})
    hidden = list(lg.face_down)
    if hidden:
        options.append({"type": "choose_withdraw", "withdraw": [pick(ch, hidden)]})
    return pick(ch, options)


_ILLEGAL: list[tuple[str, Callable[[GameState], bool], Callable[[GameState, Chooser], Cmd]]] = [
    ("game over", lambda s: s.phase == "game_over",
     lambda s, ch: pick(ch, [{"type": "feed"}, {"type": "next_step"},
                             {"type": "apply_effect", "action": "gain_blood", "player": 0,
                              "amount": 1}])),
    ("wrong player", lambda s: (_planning(s) or (s.phase == "setup" and legal(s).actor
                                                  is not None)) and bool(_not_actor(s)),
     _wrong_player),
    ("wrong phase", lambda s: s.phase != "game_over", _wrong_phase),
    ("unknown player", lambda s: s.phase not in ("setup", "game_over"),
     lambda s, ch: {"type": "apply_effect", "action": "gain_blood", "amount": 1,
                    "player": pick(ch, (len(s.players), 17, "Nobody"))}),
    ("too much blood", _can_play, lambda s, ch: _play(s, blood=ch.integer(4, 9))),
    ("face down with identity", _can_play,
     lambda s, ch: _play(s, face_up=False, card={"power": 2})),
    ("face up without identity", _can_play, lambda s, ch: _play(s, card=None)),
    ("last blood", _last_blood, _last_blood_cmd),
    ("too many diablerie", _can_play,
     lambda s, ch: _play(s, diablerie=s.players[_actor(s)].diablerie_up + 1)),
    ("location not in play", lambda s: _can_play(s) and len(s.locations) == 3,
     lambda s, ch: _play(s, location="3")),
    ("pass with cards", _can_play, lambda s, ch: {"type": "pass_turn", "player": _actor(s)}),
    ("drain drained", lambda s: _planning(s) and any(
        c.drained for c in s.players[_actor(s)].alliance),
     lambda s, ch: {"type": "drain", "player": _actor(s), "card": pick(
         ch, [c.uid for c in s.players[_actor(s)].alliance if c.drained])}),
    ("unknown card uid", lambda s: s.phase not in ("setup", "game_over"), _unknown_uid),
    ("bad effect", lambda s: s.phase not in ("setup", "game_over"), _bad_effect),
    ("eliminated acts", lambda s: s.phase not in ("setup", "game_over") and any(
        p.eliminated for p in s.players), _eliminated_acts),
    ("missing frenzy draw", lambda s: _frenzy_target(s) is not None, _missing_draw),
    ("bad withdraw", lambda s: s.phase == "resolution" and s.step == "withdraw",
     _withdraw_wrong),
    ("bad reveal", lambda s: s.step == "revelation",
     lambda s, ch: {"type": "reveal", "cards": {}}),
    ("incomplete allies", lambda s: s.phase == "location_setup",
     lambda s, ch: {"type": "place_allies", "allies": {s.locations[0].id: ally_card(ch, 0)}}),
    ("bad clans", lambda s: s.phase == "setup" and "offer_clans" in legal(s).commands,
     lambda s, ch: {"type": "offer_clans", "clans": list(CLANS)[: len(s.players)]}),
    ("taken clan", lambda s: s.phase == "setup" and legal(s).actor is not None and any(
        p.clan for p in s.players) and "pick_clan" in legal(s).commands,
     lambda s, ch: {"type": "pick_clan", "player": legal(s).actor,
                    "clan": pick(ch, [p.clan for p in s.players if p.clan])}),
    ("bad relics", lambda s: s.phase == "setup" and "offer_relics" in legal(s).commands,
     lambda s, ch: {"type": "offer_relics", "relics": [relic_card(ch, 0)]}),
    ("taken relic", lambda s: s.phase == "setup" and bool(s.setup.relics_taken)
     and "pick_relic" in legal(s).commands,
     lambda s, ch: {"type": "pick_relic", "player": legal(s).actor,
                    "index": pick(ch, s.setup.relics_taken)}),
]


# --- whole games -------------------------------------------------------------------------------


def play_game(ch: Chooser, setup: GameSetup | None = None, *, effect_rate: float = 0.12,
              face_down_rate: float = 0.4, automate: float = 0.0,
              after: Callable[[Game], None] | None = None, max_actions: int = 3000) -> Game:
    """Play a random legal game to the end; `after(game)` runs after every action."""
    game = Game.new(setup or random_setup(ch), game_id="prop")
    while game.state.phase != "game_over":
        assert len(game.actions) < max_actions, "the game does not end"
        game.play(next_command(game.state, ch, effect_rate, face_down_rate, automate))
        if after is not None:
            after(game)
    return game
