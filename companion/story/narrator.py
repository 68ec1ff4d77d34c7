"""The narrator: what a game's events mean, as messages (models/message.py) for the review's
timeline, the game's log and news, and the command line.

One action's events are told together: a play with the Blood it deploys, a Frenzy with the
card it drains and the Influence it gives, a Conflict with its rewards. Each entry is a
`Message` (a template plus arguments: seats, card ids, terms), put into words at the edge by
`companion.story.words`. The richer events are told in `narrator_events`; what a command did,
in a few words, in `narrator_commands`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.apply import apply_in_place
from companion.rules.game import Game
from companion.story.narrator_events import Teller
from companion.story.narrator_parts import (
    Key,
    card_ref,
    deployed,
    deployed_label,
    effect_text,
    kept,
    label,
    place,
    series,
)
from models.events import AnyEvent
from models.message import Message, items, msg, msgn, player, term
from models.state import GameState, copy_state

__all__ = ["Key", "Told", "event_note", "story", "story_of_action", "title"]


@dataclass(frozen=True)
class Told:
    """One entry of a game's story."""

    action: int
    """Index of the action it came from (-1: the start of the game)."""
    key: Key
    """Round, phase, Location and step it belongs to (the review groups by it)."""
    kind: str
    """What it tells, e.g. 'play', 'conflict', 'frenzy', 'drain', 'effect', 'score'."""
    message: Message
    """What it says."""


def story(game: Game) -> list[Told]:
    """The whole game's story, from its start, in order."""
    narrator = Narrator(game)
    narrator.start(game.start_events[0])
    for i in range(len(game.actions)):
        narrator.run_one(i)
    return narrator.said()


def story_of_action(game: Game, index: int) -> list[Told]:
    """What one action did (its entries may span several Locations)."""
    narrator = Narrator(game)
    narrator.run_one(index)
    return narrator.said()


def title(key: Key) -> Message:
    """A group's title: 'Setup', 'Round 2, Planning', 'Round 2, Location #1, Conflict'."""
    rnd, phase, loc, step = key
    if phase in ("setup", "game_over"):
        return msg("{phase}", phase=term(phase))
    if phase == "resolution" and loc is not None and step is not None:
        return msg("Round {round}, {place}, {step}", round=rnd, place=place(loc),
                   step=term(step))
    return msg("Round {round}, {phase}", round=rnd, phase=term(phase))


def event_note(state: GameState, event: AnyEvent) -> Message | None:
    """A random outcome or a cause, from the state just before the event (who was drawn, who
    caused a Frenzy, which card a Frenzy drained and how, §2, §10); None for other events:
    the command line's note on an event."""
    def who(seat: int | None) -> dict[str, int] | str:
        return player(seat) if seat is not None else "?"

    match event.type:
        case "first_player_chosen" if event.random:
            return msg("{who} drawn at random to hold the Ambition token", who=who(event.player))
        case "clans_offered" if event.random:
            return msg("clans drawn at random: {clans}", clans=series(list(event.clans)))
        case "frenzy_entered":
            if event.by is None:
                return msg("{who} enters Frenzy", who=who(event.player))
            if event.by == event.player:
                return msg("{who} enters Frenzy, by their own effect", who=who(event.player))
            return msg("{who} enters Frenzy, caused by {by}", who=who(event.player),
                       by=who(event.by))
        case "card_drained" if event.frenzy:
            card = next(c for c in state.players[event.player].alliance if c.uid == event.uid)
            args = {"who": who(event.player), "uid": event.uid,
                    "card": card_ref(card.card.id, card.card.name)}
            if event.random:
                return msg("Frenzy: {who}'s {card} ({uid}) drawn at random", **args)
            if card.card.ability == "drained_in_frenzy":
                return msg("Frenzy: {who}'s {card} ({uid}) drained directly by its own ability",
                           **args)
            return msg("Frenzy: {who}'s {card} ({uid}) drawn at the table", **args)
    return None


class Narrator(Teller):
    """Turns one game's events into entries, keeping a working state in step with them."""

    def __init__(self, game: Game):
        super().__init__(game.state_at(0))
        self.game = game

    def said(self) -> list[Told]:
        """The entries told so far that say something."""
        out = []
        for d in self.drafts:
            message = d.message()
            if message is not None:
                out.append(Told(d.action, d.key, d.kind.split(":")[0], message))
        return out

    def run_one(self, i: int) -> None:
        """Tell action `i`."""
        action = self.game.actions[i]
        self.action = i
        self.s = copy_state(self.game.state_at(i))
        self.through = action.command.type == "next_step" and action.command.through
        self.passing = None
        for event in action.events:
            self.event(event)
            apply_in_place(self.s, event)

    def start(self, e: AnyEvent) -> None:
        """The first entry: the table, or the position the game was entered from."""
        s = self.s
        names = items([self.who(p) for p in range(len(s.players))])
        on = [term(k) for k, v in s.variants.model_dump().items() if v]
        if e.type == "game_created":
            self.new("start", msg("A new table: {players} (variants: {variants})",
                                  players=names, variants=series(on)) if on
                     else msg("A new table: {players}", players=names))
            return
        at = (msg("Round {round}, {phase}, {place}", round=s.round, phase=term(s.phase),
                  place=place(s.locations[s.location_index].id)) if s.phase == "resolution"
              else msg("Round {round}, {phase}", round=s.round, phase=term(s.phase)))
        args = {"at": at, "players": names, "who": self.who(s.ambition)}
        self.new("start", msg("Game entered from a position at {at}: {players} (variants: "
                              "{variants}); {who} holds the Ambition token",
                              variants=series(on), **args) if on
                 else msg("Game entered from a position at {at}: {players}; {who} holds the "
                          "Ambition token", **args))

    def event(self, e: AnyEvent) -> None:
        """Tell one event, before it is applied to the working state."""
        s, n = self.s, self.who
        if e.type in ("round_ended", "game_ended", "phase_started"):
            self.passed()
        handler = self.RICH.get(e.type)
        if handler is not None:
            handler(self, e)
            return
        match e.type:
            case "first_player_chosen":
                self.new("setup", msg("{who} takes the Ambition token and goes first (drawn at "
                                      "random)", who=n(e.player)) if e.random else
                         msg("{who} takes the Ambition token and goes first", who=n(e.player)))
            case "clans_offered":
                clans = items(list(e.clans))
                self.new("setup", msg("Clans offered (drawn at random): {clans}", clans=clans)
                         if e.random else
                         msg("Clans offered (drawn by the table): {clans}", clans=clans))
            case "clan_chosen":
                self.new("setup", msg("{who} picks {clan}", who=n(e.player), clan=e.clan))
            case "relics_offered":
                self.new("setup", msg("Relics drawn for the draft: {relics}", relics=items(
                    [card_ref(r.id, r.name) for r in e.relics])))
            case "relic_chosen":
                relic = s.setup.relics_offered[e.index] if s.setup.relics_offered else None
                self.new("setup", msg("{who} drafts {relic}", who=n(e.player),
                                      relic=card_ref(relic.id, relic.name)) if relic
                         else msg("{who} drafts a Relic", who=n(e.player)))
            case "location_cards_placed":
                placed = [msg("{card} at {place}", card=card_ref(c.id, c.name), place=place(loc))
                          for loc, c in e.cards.items()]
                self.new("setup", msg("Location cards: {cards}", cards=items(placed)))
            case "ally_placed":
                d = self.find("allies") or self.new("allies", msg("Allies laid out"))
                d.parts.append(msg("{ally} at {place}", ally=card_ref(e.ally.id, e.ally.name),
                                   place=place(e.location)))
            case "hand_changed":
                d = self.find("hands") or self.new("hands")
                d.items[self.seat_key(e.player)] = [e.delta]
            case "card_played":
                where = place(e.location)
                d = self.new("play", msg("{who} plays {card} face up at {place}",
                                         who=self.named(e.player), card=label(e.card),
                                         place=where) if e.face_up and e.card
                             else msg("{who} plays a card face down at {place}",
                                      who=self.named(e.player), place=where), e.player)
                if not e.face_up:
                    d.parts.append(msg("spends 1 Blood for it"))
            case "diablerie_flipped":
                d = self.find("play", e.player) or self.new("play", msg("{who}", who=n(e.player)),
                                                            e.player)
                d.parts.append(msgn("flips {n} Diablerie token face down",
                                    "flips {n} Diablerie tokens face down", e.count))
            case "turn_ended":
                if e.passed:
                    self.new("pass", msg("{who} has no card in hand and passes", who=n(e.player)),
                             e.player)
            case "card_restored":
                card = next(c for c in s.players[e.player].alliance if c.uid == e.uid)
                part = msg("{who}'s {card} becomes active again", who=n(e.player),
                           card=card_ref(card.card.id, card.card.name))
                if e.reason:
                    part = msg("{said} ({reason})", said=part, reason=kept(e.reason))
                d = self.find("relic", e.player)
                d.parts.append(part) if d else self.new("restore", part, e.player)
            case "diablerie_taken":
                total = s.players[e.player].diablerie + e.count
                self.attach(msgn("Diablerie: {who} takes {n} Diablerie token ({total} in all)",
                                 "Diablerie: {who} takes {n} Diablerie tokens ({total} in all)",
                                 e.count, who=n(e.player), total=total), "diablerie", e.player)
            case "player_eliminated":
                self.attach(msg("{who} is out of the game with a third Diablerie token: their "
                                "cards and Blood leave the table", who=n(e.player)),
                            "elimination", e.player)
            case "withdraw_chosen":
                bits = []
                if e.stay:
                    bits.append(msgn("{who} stays", "{who} stay", len(e.stay),
                                     who=items([n(p) for p in e.stay])))
                if e.withdraw:
                    bits.append(msgn("{who} withdraws", "{who} withdraw", len(e.withdraw),
                                     who=items([n(p) for p in e.withdraw])))
                self.new("withdraw", series(bits, "; ") if bits else
                         msg("Nobody is at {place}", place=place(e.location)))
            case "withdrew":
                d = self.moving(e.player)
                d.head = (msg("{who} withdraws from {place} with the Withdraw token",
                              who=n(e.player), place=place(e.location))
                          if e.reason == "Withdraw token" else
                          msg("{who} withdraws from {place} ({reason})", who=n(e.player),
                              place=place(e.location), reason=kept(e.reason)))
                d.kind = "withdraw_move"
            case "card_revealed":
                card = deployed(s, e.uid)
                owner = card.owner if card else None
                if s.step == "withdraw" or self.find("moving", owner):
                    self.moving(owner).parts.append(msg("reveals {card}", card=label(e.card)))
                else:
                    d = self.find("reveal") or self.new("reveal", msg("Face-down cards turned up"))
                    d.parts.append(msg("{who}'s {card}", who=n(owner), card=label(e.card)))
            case "card_moved":
                self.moving(e.to_player).gather(msg("moves {cards} face up to the Prince's Haven"),
                                                deployed_label(deployed(s, e.uid)))
            case "cards_returned":
                for uid in e.uids:
                    card = deployed(s, uid)
                    if card:
                        self.moving(card.owner).gather(msg("takes {cards} back to hand"),
                                                       deployed_label(card))
            case "blood_returned":
                if s.awaiting == "take_back_blood":
                    d = self.find("take_back") or self.new("take_back")
                    d.parts.append(msg("{who} takes back {n} Blood to their Pool",
                                       who=n(e.player), n=e.amount))
                else:
                    self.moving(e.player).parts.append(
                        msg("takes back {n} Blood to their Pool", n=e.amount))
            case "card_acquired":
                d = self.find("conflict")
                if d and (e.from_location is not None or e.card.card.kind == "victim"):
                    got = (msg("a Victim") if e.from_location is None else msg(
                        "the Ally ({ally})", ally=card_ref(e.card.card.id, e.card.card.name)))
                    d.items.setdefault(self.seat_key(e.player), []).append(got)
                else:
                    self.new("acquire", msg("{who} adds {card} to their Alliance",
                                            who=n(e.player), card=card_ref(e.card.card.id,
                                                                           e.card.card.name)),
                             e.player)
            case "ally_discarded":
                ally = next(lo.ally for lo in s.locations if lo.id == e.location)
                self.attach(msg("its Ally ({ally}) leaves the game",
                                ally=card_ref(ally.id, ally.name)) if ally
                            else msg("its Ally leaves the game"), "discard")
            case "ambition_taken":
                d = self.find("conflict")
                if d:
                    d.items.setdefault(self.seat_key(e.player), []).append(
                        msg("the Ambition token"))
                else:
                    self.new("ambition", msg("{who} takes the Ambition token", who=n(e.player)),
                             e.player)
            case "relic_used":
                relic = s.players[e.player].relic
                self.new("relic", msg("{who} uses their Relic, {relic}", who=n(e.player),
                                      relic=card_ref(relic.id, relic.name)) if relic
                         else msg("{who} uses their Relic", who=n(e.player)), e.player)
            case "round_ended":
                self.new("round_end", msg("End of Round {round}: Deployed cards go back to their "
                                          "owners' hands, Deployed Blood to the Bank, and "
                                          "face-down Diablerie tokens turn face up",
                                          round=e.round),
                         key=(e.round, "end_of_round", None, None))
            case "effect_resolved":
                card = deployed(s, e.uid)
                if not e.accepted and self.through:
                    self.new("effect", msg("{who}'s {card} cannot apply here and is skipped "
                                           "(§14)", who=n(e.player), card=deployed_label(card)),
                             e.player)
                    return
                args = {"who": n(e.player), "card": deployed_label(card)}
                d = self.new("effect", msg("{who} resolves {card}", **args) if e.accepted
                             else msg("{who} declines {card}", **args), e.player)
                if e.accepted:
                    d.what = effect_text(card.card.effect if card and card.card else None)
            case "awaiting_choice":
                if e.choice == "take_back_blood":
                    loc = s.locations[s.location_index]
                    where = (card_ref(loc.location_card.id, loc.location_card.name)
                             if loc.location_card else msg("This Location"))
                    self.new("take_back", msg("{card}: each player may take back up to 3 of "
                                              "their Deployed Blood here", card=where))
            case "note_added":
                self.new("note", msg("{note}", note=kept(e.text)))
            case "step_started":
                self.passed()
                if self.through:
                    self.passing = (e.step, len(self.drafts))
            case _:  # phase_started: the group titles show it
                pass
