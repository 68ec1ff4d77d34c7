"""Messages put into words at the edge (a screen, the command line, a table's news): player
names, card names from the catalogue and the titles of phases, steps and Locations.

The narrator says what happened as `Message`s (models/message.py); this module turns one into
text for a device, in the language of the translator given (`companion.i18n.translator(lang)`;
any object with `gettext`/`ngettext` plugs in, e.g. the standard library's translations);
without one, in English.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from models.message import N_, Message, english_list
from models.message import render as _render

TITLES = {
    "setup": N_("Setup"), "feed": N_("Feed"), "location_setup": N_("Location Setup"),
    "hand_building": N_("Hand Building"), "planning": N_("Planning"),
    "resolution": N_("Resolution"), "end_of_round": N_("End of Round"),
    "game_over": N_("End of game"),
    "withdraw": N_("Withdraw"), "revelation": N_("Revelation"),
    "preparation": N_("Preparation"), "conflict": N_("Conflict"), "aftermath": N_("Aftermath"),
    "location_1": N_("Location #1"), "location_2": N_("Location #2"),
    "location_3": N_("Location #3"), "haven": N_("Prince's Haven"),
}
"""The one title of each phase, Resolution step and Location (`term()` references);
'end_of_round' is the review's own group for the End of Round cleanup (§10)."""

WORDS = {
    "relics": N_("relics"), "location_cards": N_("location cards"), "tag_team": N_("tag team"),
    "gain_blood": N_("gain blood"), "lose_blood": N_("lose blood"),
    "spend_blood": N_("spend blood"), "steal_blood": N_("steal blood"),
    "gain_influence": N_("gain influence"), "lose_influence": N_("lose influence"),
    "take_diablerie": N_("take diablerie"), "power": N_("power"),
    "halve_printed_power": N_("halve printed power"), "restore_card": N_("restore card"),
    "drain_card": N_("drain card"), "victim": N_("Victim"),
}
"""Other words said by `term()` (variants, effects applied by hand, a Victim card), as they read
in running text."""


class Translator(Protocol):
    """A language's catalogue, e.g. `gettext.GNUTranslations` or Babel's `Translations`."""

    def gettext(self, message: str, /) -> str:
        """The translation of one message id."""
        ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The translation of a message whose wording depends on the count `n`."""
        ...


def title(word: str, translator: Translator | None = None) -> str:
    """The title of a phase, step or Location (`TITLES`), or another term (`WORDS`; any other
    word as it is, with spaces for underscores: 'tag_team' → 'tag team')."""
    english = TITLES.get(word) or WORDS.get(word)
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


def _card(card_id: str, translator: Any) -> str:
    """A card's name in the translator's language (its id when the catalogue has none)."""
    named = getattr(translator, "card_name", None)
    if named is not None:
        return named(card_id) or card_id
    english = card_name(card_id)
    if english is not None and hasattr(translator, "pgettext"):
        return translator.pgettext("card", english)
    return english or card_id


def render(message: Message, names: Sequence[str] = (),
           translator: Translator | None = None) -> str:
    """A message in words for one device: `names` are the players' names by seat; without a
    translator, in English. Lists and numbers are written the language's way when the
    translator knows how (`join`, `number`)."""
    return _render(message, names,
                   gettext=translator.gettext if translator else None,
                   ngettext=translator.ngettext if translator else None,
                   card_name=lambda card_id: _card(card_id, translator),
                   term_title=lambda word: title(word, translator),
                   join=getattr(translator, "join", english_list),
                   number=getattr(translator, "number", str))
