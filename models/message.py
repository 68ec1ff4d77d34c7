"""Messages as data: what the companion tells people, kept as a template plus its arguments
and put into words only at the edge (a screen, the command line), in that device's language.

The engine, the table and saved games hold `Message`s, never finished sentences: the same
refusal reads in English on one phone and in Italian on the next. A template is the English
text with `{named}` fields; it is also the message's gettext msgid, so the translation
catalogues are extracted from the code (`msg`/`msgn` are extraction keywords).

An argument is plain data (text, a number, true/false) or a reference the renderer resolves
per device: `player(i)` (the player's name), `card(id)` (the card's name in the device's
language), `term(word)` (a game term or phase title), `items([...])` (a list joined the
language's way). References are small dicts so a message stays JSON. An argument may also be
another message (a clause of a longer sentence), rendered in the same language.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from models.common import location_name


class Message(BaseModel):
    """One thing to say: a template and its arguments (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    key: str
    """The English template with `{named}` fields; also the gettext msgid."""
    args: dict[str, Any] = Field(default_factory=dict)
    """The template's fields: plain values or references (`player`, `card`, `term`, `items`)."""
    plural: str | None = None
    """The English plural template, when the wording depends on the count in `args["n"]`."""

    def english(self, names: Sequence[str] = ()) -> str:
        """The message in English with player names from `names` (card ids and terms as they
        are): for exceptions, logs and tests. Screens use `companion.story.words`."""
        return render(self, names)


def msg(key: str, /, **args: Any) -> Message:
    """A message with its arguments: `msg("{who} has no Blood left", who=player(2))`."""
    return Message(key=key, args=args)


def msgn(singular: str, plural: str, n: int, /, **args: Any) -> Message:
    """A message whose wording depends on the count `n` (1 card / 2 cards; in Polish 1 karta,
    2 karty, 5 kart)."""
    return Message(key=singular, plural=plural, args={"n": n, **args})


def N_(text: str) -> str:  # noqa: N802 - the gettext convention, an extraction keyword
    """A text marked for the translation catalogues, returned as it is: for words kept in a
    table (a title, an effect's description) and translated where they are shown."""
    return text


def player(seat: int) -> dict[str, int]:
    """A reference to a player by seat: rendered as the player's name."""
    return {"player": seat}


def card(card_id: str) -> dict[str, str]:
    """A reference to a card by its id (e.g. "AL14"): rendered as its name."""
    return {"card": card_id}


def term(word: str) -> dict[str, str]:
    """A reference to a game term or an internal name (a phase, a step, a resource): rendered
    as its title in the device's language."""
    return {"term": word}


def place(loc: str) -> dict[str, str]:
    """A Location by its id ("1", "haven"), as a term: 'Location #1', "Prince's Haven"."""
    return term("haven" if loc == "haven" else f"location_{loc}")


def items(values: list[Any]) -> dict[str, list[Any]]:
    """A list of values or references, joined the language's way ("Ann, Bo and Cy")."""
    return {"items": list(values)}


def english_term(word: str) -> str:
    """A term in English without a title map: a Location's name, else the word with spaces
    for underscores ('gain_blood' → 'gain blood')."""
    if word == "haven" or word.startswith("location_"):
        return location_name(word.removeprefix("location_"))
    return word.replace("_", " ")


def english_list(words: Sequence[str]) -> str:
    """Words joined the English way: "A", "A and B", "A, B and C"."""
    words = list(words)
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def render(message: Message, names: Sequence[str] = (), *,
           gettext: Callable[[str], str] | None = None,
           ngettext: Callable[[str, str, int], str] | None = None,
           card_name: Callable[[str], str] | None = None,
           term_title: Callable[[str], str] | None = None,
           join: Callable[[Sequence[str]], str] = english_list,
           number: Callable[[Any], str] = str) -> str:
    """Put a message into words. Every lookup is given by the caller (a device's language,
    its card names and term titles); left out, the English template and the raw ids are used.
    A template missing a field, or a translation that breaks, falls back to the English
    template rather than failing: a message is never lost to a bad catalogue."""

    def value(v: Any) -> str:
        if isinstance(v, Message) or isinstance(v, dict) and {"key", "args"} <= v.keys():
            return render(v if isinstance(v, Message) else Message.model_validate(v), names,
                          gettext=gettext, ngettext=ngettext, card_name=card_name,
                          term_title=term_title, join=join, number=number)
        if isinstance(v, dict) and len(v) == 1:
            (kind, ref), = v.items()
            if kind == "player":
                return names[ref] if isinstance(ref, int) and 0 <= ref < len(names) \
                    else f"player {ref + 1 if isinstance(ref, int) else ref}"
            if kind == "card":
                return card_name(ref) if card_name else str(ref)
            if kind == "term":
                return term_title(ref) if term_title else english_term(str(ref))
            if kind == "items":
                return join([value(x) for x in ref])
        if isinstance(v, bool) or not isinstance(v, int | float):
            return str(v)
        return number(v)

    args = {k: value(v) for k, v in message.args.items()}
    english = message.key
    if message.plural is not None:
        n = message.args.get("n", 0)
        english = message.key if n == 1 else message.plural
        template = ngettext(message.key, message.plural, n) if ngettext else english
    else:
        template = gettext(message.key) if gettext else english
    for text in (template, english):
        try:
            return string.Formatter().vformat(text, (), args)
        except (KeyError, IndexError, ValueError):
            continue
    return english
