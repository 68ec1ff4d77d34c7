"""Messages put into words at the edge (a screen, the command line, a table's news): player
names, card names from the catalogue and the titles of phases, steps and Locations.

The narrator says what happened as `Message`s (models/message.py); this module turns one into
text for a device. English for now: a translator object with `gettext`/`ngettext` (Babel's or
the standard library's translations) plugs in a language without touching the narrator.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

from models.common import location_name
from models.message import Message
from models.message import render as _render

TITLES = {
    "setup": "Setup", "feed": "Feed", "location_setup": "Location Setup",
    "hand_building": "Hand Building", "planning": "Planning", "resolution": "Resolution",
    "end_of_round": "End of Round", "game_over": "End of game",
    "withdraw": "Withdraw", "revelation": "Revelation", "preparation": "Preparation",
    "conflict": "Conflict", "aftermath": "Aftermath",
    **{f"location_{i}": location_name(i) for i in ("1", "2", "3")},
    "haven": location_name("haven"),
}
"""The one title of each phase, Resolution step and Location (`term()` references);
'end_of_round' is the review's own group for the End of Round cleanup (§10)."""


class Translator(Protocol):
    """A language's catalogue, e.g. `gettext.GNUTranslations` or Babel's `Translations`."""

    def gettext(self, message: str, /) -> str:
        """The translation of one message id."""
        ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The translation of a message whose wording depends on the count `n`."""
        ...


def title(word: str, translator: Translator | None = None) -> str:
    """The title of a phase, step or Location (`TITLES`); any other word as it is, with
    spaces for underscores ('tag_team' → 'tag team')."""
    english = TITLES.get(word)
    if english is None:
        return word.replace("_", " ")
    return translator.gettext(english) if translator else english


@cache
def _catalogue_names() -> dict[str, str]:
    from companion.rules.catalogue import SECTIONS, shipped  # on the first card named

    cat = shipped()
    return {e.id: e.name for section in SECTIONS for e in getattr(cat, section) if e.name}


def card_name(card_id: str) -> str | None:
    """The name the shipped catalogue gives a card id (None: it has none)."""
    return _catalogue_names().get(card_id)


def render(message: Message, names: Sequence[str] = (),
           translator: Translator | None = None) -> str:
    """A message in words for one device: `names` are the players' names by seat; without a
    translator, in English."""
    return _render(message, names,
                   gettext=translator.gettext if translator else None,
                   ngettext=translator.ngettext if translator else None,
                   card_name=lambda card_id: card_name(card_id) or card_id,
                   term_title=lambda word: title(word, translator))
