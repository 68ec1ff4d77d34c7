"""The card catalogue: shipped facts (§15) merged with what the user entered from their cards."""

import json
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from models.catalogue import Catalogue
from models.common import Clan

SECTIONS = ("clan_cards", "allies", "relics", "location_cards")


class CatalogueError(ValueError):
    """A catalogue document is malformed; the message names the card and the field."""


def parse(doc: Any) -> Catalogue:
    """Validate a catalogue document.

    Raises:
        CatalogueError: malformed, or impossible values; names the card id and the field.
    """
    try:
        return Catalogue.model_validate(doc)
    except ValidationError as err:
        first = err.errors()[0]
        loc = first["loc"]
        where = ".".join(str(x) for x in loc)
        if len(loc) >= 2 and isinstance(doc, dict) and loc[0] in SECTIONS:
            try:
                card = doc[loc[0]][loc[1]].get("id", "?")
                where = f"{loc[0]}[{loc[1]}] (card {card})" + "".join(f".{x}" for x in loc[2:])
            except (IndexError, KeyError, AttributeError, TypeError):
                pass
        raise CatalogueError(f"{where}: {first['msg']}") from None


@cache
def shipped() -> Catalogue:
    """The catalogue shipped with the companion."""
    text = resources.files("companion").joinpath("data/catalogue.json").read_text("utf-8")
    return parse(json.loads(text))


def merge(base: Catalogue, user: Catalogue) -> Catalogue:
    """User entries override shipped ones with the same id, field by field; new ids are added."""
    out: dict[str, list[dict]] = {}
    for section in SECTIONS:
        entries = {e.id: e.model_dump() for e in getattr(base, section)}
        for e in getattr(user, section):
            given = e.model_dump(exclude_unset=True)
            entries[e.id] = {**entries.get(e.id, {}), **given}
        out[section] = list(entries.values())
    return parse(out)


def clan_cards(cat: Catalogue, clan: Clan) -> list:
    """The 9 cards of a clan, Starting cards first."""
    return sorted((c for c in cat.clan_cards if c.clan == clan),
                  key=lambda c: (not c.starting, c.id))
