"""Languages: one `Translator` per language, made from its gettext catalogue
(`locale/<lang>/LC_MESSAGES/messages.po`), with the language's plural forms and its way of
writing numbers, dates and lists (Babel), and the device's choice of language (`negotiate`).

No global `_` is installed: a server process serves several languages at once (each device
its own), so code that shows words asks its device's translator. English is the source
language: its translator says every text as it is. The pseudo-language `PSEUDO` ("xx") wraps
and accents every catalogued text, for tests that look for words left untranslated.

Catalogues load lazily: nothing of Babel is imported until a language other than English is
first used; a catalogue whose compiled `.mo` is missing or older than its `.po` is compiled
then (`companion.i18n.catalogues`), so a plain clone runs without a build step.

Modules: `locales` (the languages, a device's or a shell's choice, the pseudo-language's
text; plain Python), `translators` (`Translator`, `translator(lang)`), `catalogues` (making
and checking the catalogues with Babel: `tools/i18n.py`; at run time only to compile a `.po`).
Data: `locale/` (the catalogues) and `glossary/<lang>.json` (the game's terms per language and
where the printed edition's word comes from).

May import: `models`, `companion.rules` (card names), Babel. No story, no screens.
"""

from companion.i18n.locales import (
    CARD,
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    PSEUDO,
    SOURCE,
    negotiate,
    po_path,
    pseudo_text,
    shell_locales,
)
from companion.i18n.translators import ENGLISH, Translator, translator

__all__ = ["CARD", "DOMAIN", "ENGLISH", "LANGUAGES", "LOCALE_DIR", "PSEUDO", "SOURCE",
           "Translator", "negotiate", "po_path", "pseudo_text", "shell_locales", "translator"]
