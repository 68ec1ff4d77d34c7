"""The card catalogue: shipped facts (§15) merged with what the user entered from their cards."""

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from companion.rules.errors import PLAIN_WORDS
from models.catalogue import CATALOGUE_VERSION, Catalogue
from models.common import Clan

SECTIONS = ("clan_cards", "allies", "relics", "location_cards")

INVENTED_NAME = "Miguel Chandler, Dancer"
"""A name an earlier release made up for the Frenzy-drain Ally (§15): no source gives it."""
RENAMED_ABILITY = {"AL30": "drained_in_frenzy"}
"""Ability keys of catalogue version 1 and their descriptive replacements (§15)."""
RENAMED_ID = {"AL30": "ALLY-FRENZY-DRAIN"}
"""Catalogue ids of version 1 that named an invented printed code (§15)."""

__all__ = ["CATALOGUE_VERSION", "CatalogueError", "clan_cards", "merge", "parse", "shipped",
           "upgrade"]


class CatalogueError(ValueError):
    """A catalogue document is malformed; the message names the card and the field."""


def upgrade(doc: Any) -> Any:
    """A copy of a version-1 catalogue document with the corrected facts of §15.

    The values the user read off their cards stay; what the old release made up goes: the
    invented 'AL30' Ally becomes ALLY-FRENZY-DRAIN (its name, and the kind prefilled with it,
    dropped: the kind will be asked), Lani Kahale is a Victim (no Ally entry), BR03 is
    'Challenge'. Anything but a version-1 dict is returned as it is.
    """
    if not isinstance(doc, dict) or doc.get("version", 1) != 1:
        return doc
    doc = copy.deepcopy(doc)
    doc["version"] = CATALOGUE_VERSION
    allies = doc.get("allies")
    if isinstance(allies, list):
        kept = []
        for entry in allies:
            if isinstance(entry, dict):
                if entry.get("id") == "LANI-KAHALE":
                    continue
                entry["id"] = RENAMED_ID.get(entry.get("id"), entry.get("id"))
                if entry.get("ability") in RENAMED_ABILITY:
                    entry["ability"] = RENAMED_ABILITY[entry["ability"]]
                if entry.get("name") == INVENTED_NAME:
                    entry.pop("name")
                    entry.pop("kind", None)
            kept.append(entry)
        doc["allies"] = kept
    clan = doc.get("clan_cards")
    for entry in clan if isinstance(clan, list) else []:
        if isinstance(entry, dict) and entry.get("id") == "BR03" and (
                entry.get("name") == "Bring it on!"):
            entry.pop("name")
    return doc


def parse(doc: Any) -> Catalogue:
    """Validate a catalogue document (a version-1 one is upgraded first).

    Raises:
        CatalogueError: malformed, or impossible values; names the card id and the field.
    """
    doc = upgrade(doc)
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
        said = PLAIN_WORDS.get(first["type"]) or first["msg"].removeprefix("Value error, ")
        raise CatalogueError(f"{where}: {said}") from None


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
