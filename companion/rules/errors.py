"""Narrow errors for refused commands; every refusal names the player, the action and the rule.

A refusal carries its reason as a `Message` (`models.message`: a template and its arguments,
e.g. a player by seat), for a device that says it in its own language; its `reason` and its
text are the English, with the game's player names, as the command line and the logs print it.
"""

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from models.cards import AllyCard, ClanCard, LocationCard, RelicCard
from models.message import Message, card, render
from models.said import literal


def english(message: Message, names: Sequence[str] = (),
            cards: Mapping[str, str] | None = None) -> str:
    """A refusal's message in English: players by their names in `names`, cards by the names
    the table knows them by (`cards`: card id → name; the id when unknown)."""
    return render(message, names, card_name=(lambda i: cards.get(i, i)) if cards else None)


def card_arg(c: ClanCard | AllyCard | RelicCard | LocationCard,
             cards: MutableMapping[str, str]) -> Any:
    """A card as a refusal's argument: a reference by its catalogue id, its name recorded in
    `cards` (the English says the name the table knows it by), else its name as text ("card"
    when it has neither)."""
    name = c.name or c.id or "card"
    if c.id is None:
        return name
    cards[c.id] = name
    return card(c.id)


def chain(values: Sequence[Any], link: Message) -> Any:
    """Values as one message argument, joined by `link` (a message with fields `first` and
    `rest`): `chain([a, b, c], msg("{first} or {rest}"))` says "a or b or c"."""
    if len(values) == 1:
        return values[0]
    return link.model_copy(update={"args": {"first": values[0],
                                            "rest": chain(values[1:], link)}})


class RuleError(ValueError):
    """A command the rules do not allow now; state and log are unchanged.

    `message` is the reason as data; `reason` the same in English; `rule` the § it applies;
    `player` the name (`seat` the seat) of the player it refuses, if one."""

    def __init__(self, rule: str, action: str, message: Message, player: str | None = None,
                 *, seat: int | None = None, reason: str | None = None):
        self.rule, self.action, self.player, self.seat = rule, action, player, seat
        self.message = message
        self.reason = message.english() if reason is None else reason
        who = f" for {player}" if player else ""
        super().__init__(f"{action} refused{who}: {self.reason} ({rule})")


class PhaseError(RuleError):
    """The command does not belong to the current phase or step."""


class TurnError(RuleError):
    """It is not this player's turn (or they are out of the game)."""


class TableError(ValueError):
    """A table action refused (table mode); the table and its game are unchanged.

    `message` is what happened as data (a plain text becomes the message saying exactly it);
    the error's text is the same in English, with the player names in `names` and the card
    names in `cards` (`english`)."""

    def __init__(self, message: Message | str, names: Sequence[str] = (),
                 cards: Mapping[str, str] | None = None):
        self.message = message if isinstance(message, Message) else literal(str(message))
        super().__init__(english(self.message, names, cards))


class AccessError(TableError):
    """The device's role may not do this now (names the role and the reason).

    `message` is the reason as data, `reason` the same in English."""

    def __init__(self, role: str, action: str, reason: Message | str,
                 names: Sequence[str] = ()):
        message = reason if isinstance(reason, Message) else literal(str(reason))
        self.role, self.action, self.reason = role, action, english(message, names)
        ValueError.__init__(self, f"{action} refused for {role}: {self.reason}")
        self.message = message


class StaleVersion(TableError):
    """The action was drawn from an older version of the table: the table changed since.

    `changes` are the changes since, as messages (the text says them in English)."""

    def __init__(self, message: Message | str, names: Sequence[str] = (),
                 cards: Mapping[str, str] | None = None, changes: Sequence[Message] = ()):
        super().__init__(message, names, cards)
        self.changes = list(changes)


class InputRefused(TableError):
    """A per-player input (Stay/Withdraw, a card's identity, a take-back) is not valid now."""


PLAIN_WORDS = {
    "extra_forbidden": "a field this format does not have (misspelt, or from another program)",
    "missing": "missing",
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number",
    "string_type": "should be text",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "list_type": "should be a list",
    "dict_type": "should be an object",
    "model_type": "should be an object",
}
"""A validation problem's kind, said in plain words (the others keep their own message)."""


def brief(err: Exception, limit: int = 300) -> str:
    """An error as one short line: a validation error gives its first problem (where, and in
    plain words) and a count."""
    from pydantic import ValidationError

    if isinstance(err, ValidationError):
        problems = err.errors()
        first = problems[0]
        loc = ".".join(str(x) for x in first["loc"])
        text = PLAIN_WORDS.get(first["type"]) or first["msg"].removeprefix("Value error, ")
        text = f"{loc}: {text}" if loc else text
        if len(problems) > 1:
            text += f" (and {len(problems) - 1} more problem(s))"
    else:
        text = str(err)
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
