"""One language's translator: its compiled catalogue (compiled again from the `.po` when
needed), card names, and numbers, dates and lists written its way (Babel, imported on first
use)."""

from __future__ import annotations

import gettext
import io
import logging
from collections.abc import Sequence
from datetime import date, datetime
from functools import cache, cached_property
from typing import Any

from companion.i18n.locales import CARD, LANGUAGES, PSEUDO, SOURCE, po_path, pseudo_text
from models.message import english_list

log = logging.getLogger(__name__)


class Translator:
    """One language's words: its catalogue (`gettext`, `ngettext`, `pgettext`), card names,
    and numbers, dates and lists written its way. Made once per language (`translator`)."""

    def __init__(self, lang: str, catalogue: gettext.NullTranslations | None = None):
        self.lang = lang
        """The language code ('en', 'it', … or the pseudo-language 'xx')."""
        self._catalogue = catalogue or gettext.NullTranslations()

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    @property
    def name(self) -> str:
        """The language's own name ('Deutsch')."""
        return LANGUAGES.get(self.lang, self.lang)

    @property
    def english(self) -> bool:
        """Whether this is the source language (every text as written)."""
        return self.lang == SOURCE

    def gettext(self, message: str, /) -> str:
        """The translation of a text (the text itself when the catalogue has none)."""
        return self._catalogue.gettext(message)

    _ = gettext

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The translation whose wording fits the count `n` (Polish: 1 karta, 2 karty,
        5 kart)."""
        return self._catalogue.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, /) -> str:
        """The translation of a text in a context (e.g. `CARD` for card names)."""
        return self._catalogue.pgettext(context, message)

    def card_name(self, card_id: str) -> str | None:
        """A shipped card's name in this language (its English name while the catalogue
        gives none: the printed names of most editions are not known to us); None: no such
        card."""
        english = _card_names().get(card_id)
        return None if english is None else self.pgettext(CARD, english)

    @cached_property
    def _locale(self) -> Any:
        from babel import Locale  # only when a language formats its first number or list

        return Locale.parse(self.lang)

    def number(self, value: Any) -> str:
        """A number written this language's way (English as Python writes it)."""
        if self.english or self.lang == PSEUDO or isinstance(value, bool) or \
                not isinstance(value, int | float):
            return str(value)
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self._locale)

    def join(self, words: Sequence[str]) -> str:
        """Words as one list, this language's way: 'A, B and C', 'A, B und C', 'A, B i C'."""
        words = [str(w) for w in words]
        if self.english:
            return english_list(words)
        if self.lang == PSEUDO:
            return english_list(words).replace(" and ", f" {pseudo_text('and')} ")
        if len(words) < 2:
            return "".join(words)
        from babel.lists import format_list

        return format_list(words, locale=self._locale)

    def date(self, value: date | datetime | str, length: str = "medium") -> str:
        """A date written this language's way ('12 Mar 2025', '12.03.2025'); an ISO text is
        read first (a text that is not one is returned as it is)."""
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                return value
        from babel.dates import format_date

        return format_date(value, format=length, locale="en" if self.lang == PSEUDO
                           else self._locale)

    def datetime(self, value: datetime | str, length: str = "short") -> str:
        """A date and time written this language's way; an ISO text is read first."""
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                return value
        from babel.dates import format_datetime

        return format_datetime(value, format=length, locale="en" if self.lang == PSEUDO
                               else self._locale)


@cache
def _card_names() -> dict[str, str]:
    from companion.rules.catalogue import SECTIONS, shipped  # on the first card named

    cat = shipped()
    return {e.id: e.name for section in SECTIONS for e in getattr(cat, section) if e.name}


def _load(lang: str) -> gettext.NullTranslations | None:
    """A language's compiled catalogue: its `.mo`, compiled again from the `.po` when missing
    or older (written back when the folder allows it); None when it has no catalogue."""
    if lang == PSEUDO:
        from companion.i18n.catalogues import pseudo_mo

        return gettext.GNUTranslations(io.BytesIO(pseudo_mo()))
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    try:
        fresh = mo.stat().st_mtime >= po.stat().st_mtime if po.exists() else mo.exists()
    except OSError:
        fresh = False
    if fresh:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if not po.exists():
        return None
    from companion.i18n.catalogues import compile_po, write_mo

    data = compile_po(po)
    try:
        write_mo(mo, data)
    except OSError:  # an installed, read-only package: compiled in memory each start
        log.debug("could not write %s", mo)
    return gettext.GNUTranslations(io.BytesIO(data))


ENGLISH = Translator(SOURCE)
"""The source language's translator (every text as written)."""


@cache
def translator(lang: str = SOURCE) -> Translator:
    """The translator of a language (one per language, made on first use); a language the
    companion does not speak gets English."""
    if lang == SOURCE or (lang not in LANGUAGES and lang != PSEUDO):
        return ENGLISH
    return Translator(lang, _load(lang))
