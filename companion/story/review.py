"""Game review: a readable timeline, the state after any action, and chart data.

The timeline is grouped round → phase → Location → step; each entry is one plain sentence and
names the action it came from, so a review screen can show `state_after(game, entry.action)`.
Action index -1 stands for the start of the game (before the first action).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal
from weakref import WeakKeyDictionary

from companion.rules.apply import apply_in_place
from companion.rules.effects import TEXT as EFFECT_TEXT
from companion.rules.game import Game
from companion.rules.queries import conflict_tie_notes, power, teammates
from companion.rules.scoring import influence
from models.common import Clan, Frozen, LocationId, Step, location_name
from models.events import AnyEvent
from models.power import PowerBreakdown
from models.state import DeployedCard, GameState, copy_state

PHASE_TITLES = {
    "setup": "Setup", "feed": "Feed", "location_setup": "Location Setup",
    "hand_building": "Hand Building", "planning": "Planning", "resolution": "Resolution",
    "end_of_round": "End of Round", "game_over": "End of game",
}
"""Readable phase names; 'end_of_round' is the timeline's own group for §10 cleanup."""


class TimelineEntry(Frozen):
    """One sentence of the timeline."""

    action: int
    """Index of the action it came from (-1: the start of the game)."""
    kind: str
    """What it tells, e.g. 'play', 'conflict', 'frenzy', 'drain', 'effect', 'score'."""
    text: str
    """The sentence."""


class TimelineGroup(Frozen):
    """Consecutive entries of one round, phase, Location and step."""

    round: int
    """Round (0 during setup)."""
    phase: str
    """A phase, or 'end_of_round'."""
    location: LocationId | None
    """Location being resolved (Resolution only)."""
    step: Step | None
    """Resolution step."""
    title: str
    """E.g. 'Round 2, Location #1, Conflict'."""
    entries: list[TimelineEntry]
    """Sentences in order."""


Key = tuple[int, str, LocationId | None, Step | None]


def _title(key: Key) -> str:
    rnd, phase, loc, step = key
    if phase in ("setup", "game_over"):
        return PHASE_TITLES[phase]
    if phase == "resolution" and loc is not None and step is not None:
        return f"Round {rnd}, {location_name(loc)}, {step.capitalize()}"
    return f"Round {rnd}, {PHASE_TITLES[phase]}"


def _key(s: GameState) -> Key:
    loc = s.locations[s.location_index].id if s.phase == "resolution" else None
    return (s.round, s.phase, loc, s.step if loc else None)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _n(amount: int, what: str) -> str:
    """'2 cards', '1 card', '3 Blood' (Blood and Influence take no plural)."""
    plural = amount != 1 and what not in ("Blood", "Influence")
    return f"{amount} {what}{'s' if plural else ''}"


def _deployed(s: GameState, uid: str) -> DeployedCard | None:
    for loc in s.locations:
        for pos in loc.positions:
            for card in pos.cards:
                if card.uid == uid:
                    return card
    return None


def _label(card: DeployedCard | None) -> str:
    if card is None or card.card is None:
        return "a face-down card"
    return card.card.label()


LISTED = ("allies", "feed", "reveal", "take_back", "withdraw_move", "relic")
"""Kinds written 'head: a, b, c'."""

BY_HAND = {"gain blood", "lose blood", "spend blood", "steal blood", "gain influence",
           "lose influence"}
"""Default reasons of effects applied by hand: they say nothing more than the sentence."""


def _because(reason: str) -> str:
    return "" if not reason or reason in BY_HAND else f" — {reason}"


@dataclass
class _Draft:
    """An entry being built from several events of one action."""

    action: int
    key: Key
    kind: str
    player: int | None = None
    head: str = ""
    parts: list[str] = field(default_factory=list)
    items: dict[str, list[str]] = field(default_factory=dict)
    """Per player name: rewards (conflict) or cards added (Hand Building)."""
    gains: list[tuple[int, str]] = field(default_factory=list)
    """Frenzy: Influence the causer gains, with why."""
    slots: dict[str, int] = field(default_factory=dict)
    """Index in `parts` of the clause each gathering verb writes."""
    what: str = ""
    """An effect's description, said only when nothing after it tells what it did."""

    def gather(self, verb: str, label: str, rest: str) -> None:
        """Add 'verb A and B rest' as one clause, merging labels of the same verb."""
        labels = self.items.setdefault(verb, [])
        if verb not in self.slots:
            self.slots[verb] = len(self.parts)
            self.parts.append("")
        labels.append(label)
        self.parts[self.slots[verb]] = f"{verb} {_and(labels)}{rest}"

    def suffix(self, text: str) -> None:
        """Append to the last clause (or the head)."""
        if self.parts:
            self.parts[-1] += text
        else:
            self.head += text

    def text(self) -> str:
        kind = self.kind.split(":")[0]
        if kind == "conflict":
            won = "; ".join(f"{who} takes {_and(got)}" for who, got in self.items.items())
            return "; ".join([self.head + (f" — {won}" if won else ""), *self.parts])
        if kind == "hands":
            counts = {c for got in self.items.values() for c in got}
            if len(counts) == 1:
                verb = "adds" if len(self.items) == 1 else "each add"
                return (f"{_and(list(self.items))} {verb} {_n(int(counts.pop()), 'card')} to "
                        "their hand")
            return "; ".join(f"{who} adds {_n(int(got[0]), 'card')} to their hand"
                             for who, got in self.items.items())
        if kind == "play":
            return self.head + (f" ({', '.join(self.parts)})" if self.parts else "")
        if kind == "power":
            return f"{self.head} {_and(self.parts)}"
        if kind in LISTED:
            return ": ".join(x for x in [self.head, ", ".join(self.parts)] if x)
        return "; ".join(x for x in [self.head + self.what, *self.parts] if x)


class _Narrator:
    """Turns one game's events into drafts, keeping a working state in step with the events."""

    def __init__(self, game: Game):
        self.game = game
        self.drafts: list[_Draft] = []
        self.s: GameState = game.state_at(0)
        self.action = -1
        self.through = False
        """The action is a `next_step` with `through`: say which steps it passed."""
        self.passing: tuple[str, int] | None = None
        """A step entered during such an action, with the drafts count when it began."""

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.s.players):
            return "?"
        return self.s.players[seat].name

    def named(self, seat: int) -> str:
        clan = self.s.players[seat].clan
        return f"{self.name(seat)} ({clan})" if clan else self.name(seat)

    def new(self, kind: str, head: str = "", player: int | None = None,
            key: Key | None = None) -> _Draft:
        last = self.drafts[-1] if self.drafts else None
        if last is not None and last.action == self.action and last.kind == "effect":
            last.what = ""  # what follows tells what the effect did
        draft = _Draft(self.action, key or _key(self.s), kind, player, head)
        self.drafts.append(draft)
        return draft

    def find(self, kinds: str | tuple[str, ...], player: int | None = None) -> _Draft | None:
        """The latest draft of this action of one of these kinds (and this player)."""
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        for d in reversed(self.drafts):
            if d.action != self.action:
                return None
            if d.kind in kinds and (player is None or d.player == player):
                return d
        return None

    def run(self) -> list[_Draft]:
        self.start(self.game.start_events[0])
        for i in range(len(self.game.actions)):
            self.run_one(i)
        return self.drafts

    def run_one(self, i: int) -> list[_Draft]:
        """Tell action `i` (its drafts are added to `drafts` and returned)."""
        action = self.game.actions[i]
        self.action = i
        self.s = copy_state(self.game.state_at(i))
        self.through = action.command.type == "next_step" and action.command.through
        self.passing = None
        first = len(self.drafts)
        for event in action.events:
            self.event(event)
            apply_in_place(self.s, event)
        return self.drafts[first:]

    def start(self, e: AnyEvent) -> None:
        s = self.s
        names = _and([p.name for p in s.players])
        on = [k.replace("_", " ") for k, v in s.variants.model_dump().items() if v]
        variants = f" (variants: {', '.join(on)})" if on else ""
        if e.type == "game_created":
            self.new("start", f"A new table: {names}{variants}")
            return
        where = (f", {location_name(s.locations[s.location_index].id)}"
                 if s.phase == "resolution" else "")
        self.new("start", f"Game entered from a position at Round {s.round}, "
                          f"{PHASE_TITLES[s.phase]}{where}: {names}{variants}; "
                          f"{self.name(s.ambition)} holds the Ambition token")

    # --- one event -----------------------------------------------------------------------------

    def event(self, e: AnyEvent) -> None:
        s, n = self.s, self.name
        if e.type in ("round_ended", "game_ended", "phase_started"):
            self.passed()
        match e.type:
            case "first_player_chosen":
                how = " (drawn at random)" if e.random else ""
                self.new("setup", f"{n(e.player)} takes the Ambition token and goes first{how}")
            case "clans_offered":
                how = "drawn at random" if e.random else "drawn by the table"
                self.new("setup", f"Clans offered ({how}): {_and(list(e.clans))}")
            case "clan_chosen":
                self.new("setup", f"{n(e.player)} picks {e.clan}")
            case "relics_offered":
                self.new("setup", f"Relics drawn for the draft: {_and([r.name for r in e.relics])}")
            case "relic_chosen":
                relic = s.setup.relics_offered[e.index] if s.setup.relics_offered else None
                self.new("setup", f"{n(e.player)} drafts {relic.name if relic else 'a Relic'}")
            case "location_cards_placed":
                placed = [f"{c.name} at {location_name(loc)}" for loc, c in e.cards.items()]
                self.new("setup", f"Location cards: {_and(placed)}")
            case "blood_changed":
                self.blood(e)
            case "influence_changed":
                self.influence(e)
            case "ally_placed":
                d = self.find("allies") or self.new("allies", "Allies laid out")
                d.parts.append(f"{e.ally.name} at {location_name(e.location)}")
            case "hand_changed":
                d = self.find("hands") or self.new("hands")
                d.items[n(e.player)] = [str(e.delta)]
            case "card_played":
                what = f"{e.card.label()} face up" if e.face_up and e.card else "a card face down"
                d = self.new("play", f"{self.named(e.player)} plays {what} at "
                                     f"{location_name(e.location)}", e.player)
                if not e.face_up:
                    d.parts.append("spends 1 Blood for it")
            case "blood_deployed":
                self.deployed(e)
            case "diablerie_flipped":
                d = self.find("play", e.player) or self.new("play", n(e.player), e.player)
                d.parts.append(f"flips {_n(e.count, 'Diablerie token')} face down")
            case "turn_ended":
                if e.passed:
                    self.new("pass", f"{n(e.player)} has no card in hand and passes", e.player)
            case "card_drained":
                self.drained(e)
            case "card_restored":
                card = next(c for c in s.players[e.player].alliance if c.uid == e.uid)
                why = f" ({e.reason})" if e.reason else ""
                part = f"{n(e.player)}'s {card.card.name} becomes active again{why}"
                d = self.find("relic", e.player)
                d.parts.append(part) if d else self.new("restore", part, e.player)
            case "diablerie_taken":
                total = s.players[e.player].diablerie + e.count
                self.attach(f"Diablerie: {n(e.player)} takes {_n(e.count, 'Diablerie token')} "
                            f"({total} in all)", "diablerie", e.player)
            case "player_eliminated":
                self.attach(f"{n(e.player)} is out of the game with a third Diablerie token: "
                            "their cards and Blood leave the table", "elimination", e.player)
            case "frenzy_entered":
                self.frenzy(e)
            case "withdraw_chosen":
                stay, leave = [n(p) for p in e.stay], [n(p) for p in e.withdraw]
                bits = [f"{_and(names)} {verb if len(names) == 1 else verb[:-1]}"
                        for names, verb in ((stay, "stays"), (leave, "withdraws")) if names]
                self.new("withdraw", "; ".join(bits) or f"Nobody is at {location_name(e.location)}")
            case "withdrew":
                d = self.moving(e.player)
                how = "with the Withdraw token" if e.reason == "Withdraw token" else f"({e.reason})"
                d.head = f"{n(e.player)} withdraws from {location_name(e.location)} {how}"
                d.kind = "withdraw_move"
            case "card_revealed":
                card = _deployed(s, e.uid)
                owner = card.owner if card else None
                if s.step == "withdraw" or self.find("moving", owner):
                    self.moving(owner).parts.append(f"reveals {e.card.label()}")
                else:
                    d = self.find("reveal") or self.new("reveal", "Face-down cards turned up")
                    d.parts.append(f"{n(owner)}'s {e.card.label()}")
            case "card_moved":
                card = _deployed(s, e.uid)
                self.moving(e.to_player).gather("moves", _label(card),
                                                " face up to the Prince's Haven")
            case "cards_returned":
                for uid in e.uids:
                    card = _deployed(s, uid)
                    if card:
                        self.moving(card.owner).gather("takes", _label(card), " back to hand")
            case "blood_returned":
                if s.awaiting == "take_back_blood":
                    d = self.find("take_back") or self.new("take_back")
                    d.parts.append(f"{n(e.player)} takes back {e.amount} Blood to their Pool")
                else:
                    self.moving(e.player).parts.append(f"takes back {e.amount} Blood to their "
                                                       "Pool")
            case "power_modified":
                self.power_modified(e)
            case "conflict_resolved":
                self.conflict(e)
            case "card_acquired":
                d = self.find("conflict")
                if d and (e.from_location is not None or e.card.card.kind == "victim"):
                    got = ("a Victim" if e.from_location is None
                           else f"the Ally ({e.card.card.name})")
                    d.items.setdefault(n(e.player), []).append(got)
                else:
                    self.new("acquire", f"{n(e.player)} adds {e.card.card.name} to their "
                                        "Alliance", e.player)
            case "ally_discarded":
                ally = next(lo.ally for lo in s.locations if lo.id == e.location)
                self.attach(f"its Ally{f' ({ally.name})' if ally else ''} leaves the game",
                            "discard")
            case "ambition_taken":
                d = self.find("conflict")
                if d:
                    d.items.setdefault(n(e.player), []).append("the Ambition token")
                else:
                    self.new("ambition", f"{n(e.player)} takes the Ambition token", e.player)
            case "relic_used":
                relic = s.players[e.player].relic
                self.new("relic", f"{n(e.player)} uses their Relic"
                                  f"{f', {relic.name}' if relic else ''}", e.player)
            case "round_ended":
                self.new("round_end", f"End of Round {e.round}: Deployed cards go back to their "
                                      "owners' hands, Deployed Blood to the Bank, and face-down "
                                      "Diablerie tokens turn face up",
                         key=(e.round, "end_of_round", None, None))
            case "game_ended":
                self.game_end(e)
            case "effect_resolved":
                card = _deployed(s, e.uid)
                key = card.card.effect if card and card.card else None
                what = f" — {EFFECT_TEXT[key]}" if key in EFFECT_TEXT and e.accepted else ""
                if not e.accepted and self.through:
                    self.new("effect", f"{n(e.player)}'s {_label(card)} cannot apply here and "
                                       "is skipped (§14)", e.player)
                    return
                verb = "resolves" if e.accepted else "declines"
                self.new("effect", f"{n(e.player)} {verb} {_label(card)}",
                         e.player).what = what
            case "awaiting_choice":
                if e.choice == "take_back_blood":
                    loc = s.locations[s.location_index]
                    card = loc.location_card.name if loc.location_card else "This Location"
                    self.new("take_back", f"{card}: each player may take back up to 3 of their "
                                          "Deployed Blood here")
            case "note_added":
                self.new("note", e.text)
            case "step_started":
                self.passed()
                if self.through:
                    self.passing = (e.step, len(self.drafts))
            case _:  # phase_started: the group titles show it
                pass

    # --- helpers for the richer events ---------------------------------------------------------

    def passed(self) -> None:
        """A step a `through` action entered and left with nothing told: say so."""
        if self.passing is None:
            return
        step, count = self.passing
        self.passing = None
        if step in ("preparation", "aftermath") and len(self.drafts) == count:
            loc = self.s.locations[self.s.location_index]
            self.new("skip", f"{step.capitalize()}: no effect due at {location_name(loc.id)}",
                     key=(self.s.round, "resolution", loc.id, step))

    def attach(self, part: str, kind: str, player: int | None = None) -> None:
        """Add to this action's Frenzy/Drain (of `player`) or Conflict entry, or stand alone."""
        d = (self.find(("frenzy", "drain"), player) if player is not None
             else self.find("conflict"))
        if d:
            d.parts.append(part)
        else:
            self.new(kind, part, player)

    def moving(self, player: int | None) -> _Draft:
        """The entry of a player's withdrawal being built (its sentence ends at 'withdrew')."""
        return self.find("moving", player) or self.new("moving", "", player)

    def blood(self, e: AnyEvent) -> None:
        n = self.name
        why = _because(e.reason)
        if e.kind == "feed":
            d = self.find("feed") or self.new("feed", "Each player feeds")
            d.parts.append(f"{n(e.player)} +{e.delta} Blood")
        elif e.kind == "spend" and e.reason == "face-down card":
            pass  # implied by 'plays a card face down'
        elif e.kind == "steal":
            if e.delta < 0:
                with_ = f" with {e.reason}" if why else ""
                self.new("steal", f"{n(e.by)} steals {-e.delta} Blood from {n(e.player)}{with_}",
                         e.by)
        elif e.kind == "drain" and self.find(("frenzy", "drain"), e.player):
            self.find(("frenzy", "drain"), e.player).suffix(f" (+{e.delta} Blood)")
        elif e.kind == "frenzy":
            part = f"with no active Alliance card, {n(e.player)} gains {e.delta} Blood"
            d = self.find("frenzy", e.player)
            d.parts.append(part) if d else self.new("frenzy", part, e.player)
        else:
            verb = {"gain": "gains", "lose": "loses", "spend": "spends", "return": "gets back",
                    "drain": "gains"}.get(e.kind, "gains" if e.delta > 0 else "loses")
            if e.by is not None and e.by != e.player:
                why = f" to {n(e.by)}'s {e.reason}" if why else f" (caused by {n(e.by)})"
            self.new("blood", f"{n(e.player)} {verb} {abs(e.delta)} Blood{why}", e.player)

    def influence(self, e: AnyEvent) -> None:
        n, reason = self.name, e.reason
        placed = reason[:3] in ("1st", "2nd", "3rd")
        d = self.find("conflict")
        if d and (placed or reason == "won the Prince's Haven"):
            d.items.setdefault(n(e.player), []).append(
                f"{e.delta} Influence" if placed
                else f"{e.delta} more Influence for winning the Prince's Haven")
            return
        f = self.find("frenzy")
        if f and e.by is not None and e.by == e.player and ": " in reason:
            source = reason.rsplit(": ", 1)[0]
            source = "the Frenzy" if source == "sent a player into Frenzy" else source
            if not f.gains:
                f.parts.append("")
            f.gains.append((e.delta, source))
            total = sum(g for g, _ in f.gains)
            why = ", ".join(f"{g} for {src}" for g, src in f.gains)
            why = "" if f.gains == [(1, "the Frenzy")] else f" ({why})"
            f.parts[-1] = f"{n(e.player)} gains {total} Influence{why}"
            return
        if f and reason == "Frenzy with no active Alliance card":
            f.parts.append(f"{n(e.player)} has no active Alliance card to drain and loses "
                           f"{-e.delta} Influence")
            return
        verb = "gains" if e.delta > 0 else "loses"
        self.new("influence", f"{n(e.player)} {verb} {abs(e.delta)} Influence{_because(reason)}",
                 e.player)

    def deployed(self, e: AnyEvent) -> None:
        where = location_name(e.location)
        relic = self.find("relic", e.player)
        if relic:
            relic.parts.append(f"{e.amount} Blood onto {where}")
            return
        d = self.find("play", e.player)
        if d:
            d.parts.append(f"deploys {e.amount} Blood from the Bank for flipped Diablerie"
                           if e.from_bank else f"deploys {e.amount} Blood")
        else:
            self.new("play", f"{self.name(e.player)} deploys {e.amount} Blood at {where}",
                     e.player)

    def drained(self, e: AnyEvent) -> None:
        card = next(c for c in self.s.players[e.player].alliance if c.uid == e.uid)
        name = self.name(e.player)
        if not e.frenzy:
            self.new("drain", f"{name} drains {card.card.name}", e.player)
            return
        if card.card.ability == "drained_in_frenzy":
            part = f"{name}'s {card.card.name} is drained directly (its own ability)"
        elif e.random:
            part = f"a random draw drains {name}'s {card.card.name}"
        else:
            part = f"the card drawn at the table drains {name}'s {card.card.name}"
        d = self.find("frenzy", e.player)
        d.parts.append(part) if d else self.new("frenzy", part, e.player)

    def frenzy(self, e: AnyEvent) -> None:
        n = self.name
        if e.by is None:
            cause = ""
        elif e.by == e.player:
            cause = " (by their own effect: nobody gains Influence)"
        elif teammates(self.s, e.by, e.player):
            cause = f" (caused by their teammate {n(e.by)}: no Influence between teammates)"
        else:
            cause = f" (caused by {n(e.by)})"
        self.new("frenzy", f"{n(e.player)} enters Frenzy{cause}", e.player)

    def power_modified(self, e: AnyEvent) -> None:
        card = _deployed(self.s, e.uid)
        m = e.modifier
        what = f"{self.name(card.owner) if card else '?'}'s {_label(card)}"
        kind = f"power:{m.source}:{m.kind}:{m.amount}"
        d = self.find(kind)
        if d is None:
            head = (f"{m.source} halves the printed Power of" if m.kind == "halve_printed"
                    else f"{m.source}: {m.amount:+d} Power to")
            d = self.new(kind, head, card.owner if card else None)
        d.parts.append(what)

    def conflict(self, e: AnyEvent) -> None:
        r, named = e.result, self.named
        key = (*_key(self.s)[:3], "conflict")  # also when an empty Location is skipped
        if r.outcome == "no_cards":
            self.new("conflict", "Nobody has clan cards here: no rewards", key=key)
        elif r.outcome == "uncontested":
            seat = r.ranking[0]
            self.new("conflict", f"Only {named(seat)} had clan cards here as Withdraw ended "
                                 f"({r.totals.get(seat, 0)} Power): only the first place counts",
                     key=key)
        else:
            seats = [*r.ranking, *(p for p in r.totals if p not in r.ranking)]
            ties = conflict_tie_notes(self.s, r)
            self.new("conflict", ", ".join(f"{named(p)} {r.totals[p]}" for p in seats)
                     + (f" ({'; '.join(ties)})" if ties else ""), key=key)

    def game_end(self, e: AnyEvent) -> None:
        board = e.scoreboard
        key: Key = (self.s.round, "game_over", None, None)
        if board.teams:
            team = board.teams[0]
            self.new("winner", f"Team {team.team} wins with {team.influence} Influence "
                               f"({_and([self.name(p) for p in team.players])})", key=key)
        else:
            top = board.rows[0]
            self.new("winner", f"{self.named(top.player)} wins with {top.influence.total} "
                               "Influence", key=key)
        rows = [f"{r.rank}. {self.named(r.player)} {r.influence.total} Influence, {r.blood} Blood"
                + (" (eliminated)" if r.eliminated else "")
                + (f" — {r.tiebreak}" if r.tiebreak else "") for r in board.rows]
        teams = [f"Team {t.team} {t.influence} Influence, {t.blood} Blood"
                 + (f" — {t.tiebreak}" if t.tiebreak else "") for t in board.teams or []]
        self.new("score", "Final scores: " + "; ".join(teams + rows), key=key)


def timeline(game: Game) -> list[TimelineGroup]:
    """The game's story as plain sentences, grouped round → phase → Location → step."""
    groups: list[TimelineGroup] = []
    current: Key | None = None
    entries: list[TimelineEntry] = []

    def close() -> None:
        if current is not None and entries:
            rnd, phase, loc, step = current
            groups.append(TimelineGroup(round=rnd, phase=phase, location=loc, step=step,
                                        title=_title(current), entries=list(entries)))

    for d in _Narrator(game).run():
        text = d.text()
        if not text:
            continue
        if d.key != current:
            close()
            current, entries = d.key, []
        entries.append(TimelineEntry(action=d.action, kind=d.kind.split(":")[0], text=text))
    close()
    return groups


def told(game: Game, index: int = -1) -> list[str]:
    """What one action did (the last by default), one sentence per thing that changed: every
    Blood, Influence, Diablerie and card movement, with player and amount.

    Raises:
        IndexError: no such action.
    """
    i = range(len(game.actions))[index]
    action = game.actions[i]
    kept = _TOLD.get(game)
    if kept is None or kept[0] != i or kept[1] is not action:
        # The same action object at the same place has the same story: the screen asks for the
        # last action's at every render.
        kept = _TOLD[game] = (i, action, _sentences(_Narrator(game).run_one(i)))
    return list(kept[2])


_TOLD: WeakKeyDictionary[Game, tuple[int, object, list[str]]] = WeakKeyDictionary()
"""The last action each game was asked about, with what it did (`told`)."""


def told_each(game: Game) -> list[list[str]]:
    """`told` for every action of the game, in order (one pass over the game)."""
    out: list[list[_Draft]] = [[] for _ in game.actions]
    for d in _Narrator(game).run():
        if d.action >= 0:
            out[d.action].append(d)
    return [_sentences(drafts) for drafts in out]


def _sentences(drafts: list[_Draft]) -> list[str]:
    """The drafts' sentences; when they span several Locations, each names its own."""
    places = {d.key[2] for d in drafts if d.text()}
    out = []
    for d in drafts:
        if not (text := d.text()):
            continue
        loc = d.key[2]
        if len(places) > 1 and loc is not None and not text.startswith(location_name(loc)):
            text = f"{location_name(loc)}: {text}"
        out.append(text)
    return out


def headline(game: Game, index: int = -1, sentences: list[str] | None = None) -> str:
    """One line naming an action (the last by default): its first sentence, or what the
    command did when it moved nothing (e.g. "Went on to Conflict at Location #1").

    Raises:
        IndexError: no such action.
    """
    i = range(len(game.actions))[index]
    said = told(game, i) if sentences is None else sentences
    if said:
        return said[0]
    return command_line(game.state_at(i), game.actions[i].command, game.state_at(i + 1))


def command_line(before: GameState, command: object, after: GameState | None = None) -> str:
    """A few words on a command, from the state it was played in (and the one it led to)."""
    t = getattr(command, "type", "")

    def who() -> str:
        ref = getattr(command, "player", None)
        if isinstance(ref, int) and 0 <= ref < len(before.players):
            return before.players[ref].name
        return str(ref) if ref is not None else "?"

    if t == "next_step" and after is not None:
        if after.phase == "resolution" and after.step:
            where = location_name(after.locations[after.location_index].id)
            return f"Went on to {after.step.capitalize()} at {where}"
        return f"Went on to {PHASE_TITLES.get(after.phase, after.phase)}"
    words = {
        "play_card": f"{who()} played a card", "drain": f"{who()} drained a card",
        "pass_turn": f"{who()} passed", "use_relic": f"{who()} used their Relic",
        "pick_clan": f"{who()} picked a clan", "pick_relic": f"{who()} drafted a Relic",
        "choose_withdraw": "Stay/Withdraw revealed", "reveal": "Face-down cards turned up",
        "finish_hand_building": "Hands built", "feed": "Feed", "next_step": "Next step",
        "place_allies": "Allies placed", "resolve_effect": "Card effect resolved",
        "apply_effect": f"Effect on {who()}", "take_back_blood": "Blood taken back",
        "peek": f"{who()} looked at a face-down card",
    }
    return words.get(t, t.replace("_", " ").capitalize())


def lines(game: Game) -> list[str]:
    """The timeline flattened: 'Round 2, Location #1, Conflict: …' per entry."""
    return [f"{g.title}: {e.text}" for g in timeline(game) for e in g.entries]


def state_after(game: Game, action_index: int) -> GameState:
    """A copy of the state as it stood after an action (-1: the start of the game).

    Raises:
        IndexError: no such action.
    """
    if not -1 <= action_index < len(game.actions):
        raise IndexError(f"action {action_index} is not in this game "
                         f"(0 to {len(game.actions) - 1}, or -1 for the start)")
    return game.state_at(action_index + 1).model_copy(deep=True)


# --- chart data ---------------------------------------------------------------------------------


class Series(Frozen):
    """Per-player values across the game, one point per action (or per phase)."""

    players: list[str]
    """Player names, seat order."""
    actions: list[int]
    """Action index of each point (-1: the start)."""
    labels: list[str]
    """Where each point lies, e.g. 'R2 Planning'."""
    values: dict[str, list[int]]
    """One list per player name, aligned with `actions`."""


def _point_label(s: GameState) -> str:
    if s.phase in ("setup", "game_over"):
        return PHASE_TITLES[s.phase]
    return f"R{s.round} {PHASE_TITLES[s.phase]}"


def _series(game: Game, value: Callable[[GameState, int], int],
            every: Literal["action", "phase"]) -> Series:
    states = [game.state_at(k) for k in range(len(game.actions) + 1)]
    keep = [k for k in range(len(states))
            if every == "action" or k in (0, len(states) - 1)
            or (states[k].round, states[k].phase) != (states[k - 1].round, states[k - 1].phase)]
    names = [p.name for p in states[0].players]
    return Series(players=names, actions=[k - 1 for k in keep],
                  labels=[_point_label(states[k]) for k in keep],
                  values={name: [value(states[k], seat) for k in keep]
                          for seat, name in enumerate(names)})


def influence_series(game: Game, every: Literal["action", "phase"] = "action") -> Series:
    """Each player's Influence as it would score (§12) after every action (or phase start)."""
    return _series(game, lambda s, seat: influence(s, seat).total, every)


def blood_series(game: Game, every: Literal["action", "phase"] = "action") -> Series:
    """Each player's Blood in Pool after every action (or phase start)."""
    return _series(game, lambda s, seat: s.players[seat].blood, every)


class PlayerPower(Frozen):
    """One player's total Power at a resolved Location, explained."""

    player: int
    """Seat."""
    name: str
    """Player's name."""
    clan: Clan | None
    """Clan."""
    rank: int | None
    """1 = winner; None when not ranked (no rewards there)."""
    total: int
    """Total Power."""
    breakdown: PowerBreakdown
    """Cards and Blood that make it up."""
    explain: str
    """E.g. 'Bloody Fury 6 -2 (Bloody Fury (BR01)) = 4 + 3 Blood → 7'."""


class ConflictPower(Frozen):
    """Power at one Location's Conflict (§8.4)."""

    action: int
    """Index of the action that determined the winner."""
    round: int
    """Round."""
    location: LocationId
    """Location id."""
    title: str
    """E.g. 'Round 2, Location #1'."""
    outcome: str
    """'contested', 'uncontested' or 'no_cards'."""
    players: list[PlayerPower]
    """Ranked players first, then the others present."""


def conflict_powers(game: Game) -> list[ConflictPower]:
    """Each resolved Location's Power per player, as it stood when the winner was determined."""
    out: list[ConflictPower] = []
    for i, action in enumerate(game.actions):
        if not any(e.type == "conflict_resolved" for e in action.events):
            continue
        s = game.state_at(i).model_copy(deep=True)
        for e in action.events:
            if e.type == "conflict_resolved":
                loc = next(lo for lo in s.locations if lo.id == e.location)
                r = e.result
                seats = [*r.ranking, *(p for p in r.totals if p not in r.ranking)]
                rows = []
                for seat in seats:
                    b = power(s, loc, seat)
                    p = s.players[seat]
                    rank = r.ranking.index(seat) + 1 if seat in r.ranking else None
                    rows.append(PlayerPower(player=seat, name=p.name, clan=p.clan, rank=rank,
                                            total=r.totals[seat], breakdown=b,
                                            explain=b.explain()))
                out.append(ConflictPower(action=i, round=s.round, location=loc.id,
                                         title=f"Round {s.round}, {location_name(loc.id)}",
                                         outcome=r.outcome, players=rows))
            apply_in_place(s, e)
    return out
