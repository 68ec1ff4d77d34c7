"""The narrator's pieces: references to players, cards and places, and the entry being built
from several events of one action (`Draft`), put together as one message at the end.

Every piece is a `Message` or a reference (models/message.py), never a finished sentence:
lists are joined by messages of their own ("{a}, {b}") so a language can join them its way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.effects import TEXT as EFFECT_TEXT
from companion.story.words import card_name
from models.cards import VICTIM, ClanCard
from models.common import LocationId, Step
from models.message import Message, items, msg, msgn, player, term
from models.message import place as location_term
from models.said import message_of
from models.state import DeployedCard, GameState

Key = tuple[int, str, LocationId | None, Step | None]
"""Where an entry belongs: round, phase (or 'end_of_round'), Location and step."""

LISTED = ("allies", "feed", "reveal", "take_back", "withdraw_move", "relic")
"""Kinds said as 'head: a, b, c'."""

BY_HAND = {"gain blood", "lose blood", "spend blood", "steal blood", "gain influence",
           "lose influence"}
"""Default reasons of effects applied by hand: they say nothing more than the sentence."""

Arg = Message | dict[str, Any] | str | int
"""A message's argument: a clause, a reference, plain text or a number."""


def key_of(s: GameState) -> Key:
    """Where an entry made in state `s` belongs."""
    loc = s.locations[s.location_index].id if s.phase == "resolution" else None
    return (s.round, s.phase, loc, s.step if loc else None)


def place(loc: LocationId) -> dict[str, str]:
    """A Location, as a term ('Location #1', "Prince's Haven")."""
    return location_term(loc)


def seat_ref(s: GameState, seat: int | None) -> dict[str, int] | str:
    """A player by seat; '?' when there is none."""
    return player(seat) if seat is not None and 0 <= seat < len(s.players) else "?"


def named(s: GameState, seat: int) -> Arg:
    """A player with their clan: 'Ann (Brujah)'."""
    clan = s.players[seat].clan
    return msg("{who} ({clan})", who=seat_ref(s, seat), clan=clan) if clan else seat_ref(s, seat)


def card_ref(card_id: str | None, name: str | None) -> Arg:
    """A card by the name it was entered with: a catalogue reference (named in the device's
    language) when the catalogue gives it that very name, a term for a Victim (every Victim
    is alike), else the name as entered."""
    if card_id and name and card_name(card_id) == name:
        return {"card": card_id}
    if card_id == VICTIM.id and name == VICTIM.name:
        return term("victim")
    return name or card_id or msg("card")


def label(card: ClanCard) -> Message:
    """A clan card and its printed Power: 'Bloody Fury (6)'."""
    return msg("{card} ({power})", card=card_ref(card.id, card.name), power=card.power)


def deployed_label(card: DeployedCard | None) -> Message:
    """A Deployed card as the table knows it."""
    if card is None or card.card is None:
        return msg("a face-down card")
    return label(card.card)


def deployed(s: GameState, uid: str) -> DeployedCard | None:
    """The Deployed card with this uid, if any."""
    for loc in s.locations:
        for pos in loc.positions:
            for card in pos.cards:
                if card.uid == uid:
                    return card
    return None


def series(parts: list[Arg], sep: str = ", ") -> Arg:
    """Parts one after the other with a separator (", " or "; "), as nested messages."""
    out = parts[0]
    for part in parts[1:]:
        out = msg("{a}; {b}", a=out, b=part) if sep == "; " else msg("{a}, {b}", a=out, b=part)
    return out


def kept(text: str) -> Message:
    """Words a game keeps (a reason, a note, a tie note: `models.said`) as their message, so
    they are put into the device's language with the rest."""
    return message_of(text)


def because(reason: str) -> bool:
    """Whether an effect's reason says more than its sentence."""
    return bool(reason) and reason not in BY_HAND


@dataclass
class Draft:
    """An entry being built from several events of one action."""

    action: int
    key: Key
    kind: str
    player: int | None = None
    head: Message | None = None
    parts: list[Message] = field(default_factory=list)
    items: dict[int | str, list[Any]] = field(default_factory=dict)
    """Per seat: rewards (conflict) or cards added (Hand Building)."""
    gains: list[tuple[int, str]] = field(default_factory=list)
    """Frenzy: Influence the causer gains, with why."""
    slots: dict[str, int] = field(default_factory=dict)
    """Index in `parts` of the clause each gathering template writes."""
    gathered: dict[str, list[Message]] = field(default_factory=dict)
    """Cards each gathering template names."""
    what: Message | None = None
    """An effect's description, said only when nothing after it tells what it did."""

    def gather(self, clause: Message, card: Message) -> None:
        """Add a card to a clause that names cards ('moves {cards} …'): one clause per
        template, naming every card added to it."""
        template = clause.key
        named = self.gathered.setdefault(template, [])
        if template not in self.slots:
            self.slots[template] = len(self.parts)
            self.parts.append(clause)
        named.append(card)
        self.parts[self.slots[template]] = msg(template, cards=items(named))

    def suffix(self, more: Message) -> None:
        """Add to the last clause (or the head): `more` has `{said}` for it."""
        if self.parts:
            self.parts[-1] = msg(more.key, **more.args, said=self.parts[-1])
        else:
            self.head = msg(more.key, **more.args, said=self.head or "")

    def message(self) -> Message | None:
        """The entry as one message (None: it says nothing)."""
        kind = self.kind.split(":")[0]
        if kind == "conflict":
            won = [msg("{who} takes {what}", who=_ref(who), what=items(got))
                   for who, got in self.items.items()]
            head = msg("{said} — {won}", said=self.head, won=series(won, "; ")) if won \
                else self.head
            return _top(series([head, *self.parts], "; "))
        if kind == "hands":
            counts = {c for got in self.items.values() for c in got}
            who = [_ref(seat) for seat in self.items]
            if len(counts) == 1:
                n = counts.pop()
                if len(who) == 1:
                    return msgn("{who} adds {n} card to their hand",
                                "{who} adds {n} cards to their hand", n, who=items(who))
                return msgn("{who} each add {n} card to their hand",
                            "{who} each add {n} cards to their hand", n, who=items(who))
            return _top(series([msgn("{who} adds {n} card to their hand",
                                     "{who} adds {n} cards to their hand", got[0], who=_ref(seat))
                                for seat, got in self.items.items()], "; "))
        if kind == "play":
            return msg("{said} ({details})", said=self.head, details=series(self.parts)) \
                if self.parts else self.head
        if kind == "power":
            assert self.head is not None
            return msg(self.head.key, **self.head.args, cards=items(self.parts))
        if kind in LISTED:
            if self.head is not None and self.parts:
                return msg("{said}: {details}", said=self.head, details=series(self.parts))
            return self.head or (_top(series(self.parts)) if self.parts else None)
        head = self.head
        if head is not None and self.what is not None:
            head = msg("{said} — {what}", said=head, what=self.what)
        said = [x for x in [head, *self.parts] if x is not None]
        return _top(series(said, "; ")) if said else None


def _ref(seat: int | str) -> Arg:
    return player(seat) if isinstance(seat, int) else seat


def _top(arg: Arg) -> Message:
    """An argument as a message of its own."""
    return arg if isinstance(arg, Message) else msg("{said}", said=arg)


def effect_text(key: str | None) -> Message | None:
    """What an automated card effect does, from the rules (§15)."""
    return msg(EFFECT_TEXT[key]) if key in EFFECT_TEXT else None

