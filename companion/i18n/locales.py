"""The languages the companion speaks, where their catalogues live, the choice of a
language for a device or a shell (`negotiate`, `shell_locales`) and the pseudo-language's
text (`pseudo_text`). Plain Python: nothing of Babel."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "it": "Italiano", "de": "Deutsch",
                             "fr": "Français", "es": "Español", "pl": "Polski"}
"""The languages the companion speaks, each by its own name (the language picker's list)."""
SOURCE = "en"
"""The language the texts are written in (the catalogues' message ids)."""
PSEUDO = "xx"
"""The pseudo-language of the tests: every catalogued text wrapped in ⟦…⟧ and accented."""
LOCALE_DIR = Path(__file__).with_name("locale")
"""Where the catalogues live: `messages.pot` and `<lang>/LC_MESSAGES/messages.po`."""
GLOSSARY_DIR = Path(__file__).with_name("glossary")
"""The game's terms per language (`<lang>.json`), with their sources."""
DOMAIN = "messages"
CARD = "card"
"""The catalogue context of card names (`pgettext(CARD, name)`)."""


def po_path(lang: str) -> Path:
    """The `.po` catalogue of a language."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _primary(tag: str) -> str:
    """The language of a locale tag: 'it_IT.UTF-8', 'de-CH', 'pl' → 'it', 'de', 'pl'."""
    return re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()


def negotiate(preferred: Iterable[str] = (), saved: str | None = None,
              available: Mapping[str, str] | Iterable[str] = LANGUAGES) -> str:
    """The language for a device: its saved choice when the companion speaks it, else the
    first of its preferred locales (e.g. 'it-IT', 'de_DE.UTF-8', in order) that it speaks,
    else English."""
    speaks = set(available)
    if saved and saved in speaks:
        return saved
    for tag in preferred:
        lang = _primary(str(tag)) if tag else ""
        if lang in speaks:
            return lang
    return SOURCE


def shell_locales(environ: Mapping[str, str] | None = None) -> list[str]:
    """The shell's preferred locales, as gettext reads them: `LANGUAGE` (a list, only when the
    locale is not C/POSIX), then the first set of `LC_ALL`, `LC_MESSAGES`, `LANG`."""
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    if _primary(locale) in ("", "c", "posix"):
        return []
    return [x for x in env.get("LANGUAGE", "").split(":") if x] + [locale]


def pseudo_text(text: str) -> str:
    """A text in the pseudo-language: its words accented (every letter leaves ASCII), about
    30 % longer, wrapped in ⟦…⟧; `{fields}` and doubled braces stay as they are."""
    parts = re.split(r"(\{\{|\}\}|\{[^{}]*\})", text)
    out = "".join(p if p.startswith(("{", "}")) else p.translate(_ACCENTS) for p in parts)
    letters = sum(c.isalpha() for p in parts if not p.startswith(("{", "}")) for c in p)
    return f"⟦{out}{'·' * max(1, round(letters * 0.3))}⟧"


_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţüṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÜṼŴẊÝŽ")
