"""The translation catalogues made and checked with Babel: the texts extracted from the code
into `messages.pot`, each language's `.po` brought up to date with it, compiled to `.mo`, the
pseudo-language made from the template, and the checks a catalogue must pass (no fuzzy entry,
the same `{fields}` as the English, one text per plural form).

Extraction reads the code of `companion`, `models` and `views` (keywords `msg`,
`msgn:1,2`, `_`, `gettext`, `ngettext:1,2`, `pgettext:1c,2`, `N_`) and the card names of the
shipped catalogue (context `card`). Babel reads only literal text: a template built at run
time (`_(f"…")`, `msg("a" if x else "b")`) is never extracted (tests/test_i18n.py forbids
them). Run by `tools/i18n.py`; at run time only `compile_po`, `write_mo` and `pseudo_mo`.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.mofile import write_mo as _babel_write_mo
from babel.messages.pofile import read_po, write_po

from companion.i18n.locales import (
    CARD,
    GLOSSARY_DIR,
    LANGUAGES,
    LOCALE_DIR,
    SOURCE,
    po_path,
    pseudo_text,
)

ROOT = Path(__file__).resolve().parents[2]
"""The project folder (extraction runs in a checkout, not in an installed package)."""
SOURCES = ("companion", "models", "views")
"""The packages whose code is read for texts."""
CARD_FILE = "companion/data/catalogue.json"
CARD_SECTIONS = ("clan_cards", "allies", "relics", "location_cards")
KEYWORDS = {"msg": None, "msgn": (1, 2), "_": None, "n_": (1, 2), "gettext": None,
            "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "N_": None}
"""The calls whose literal arguments are catalogue texts (Babel's keyword specs)."""
POT = LOCALE_DIR / "messages.pot"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != SOURCE)
"""The languages with a catalogue of their own."""
WIDTH = 100
DATED = re.compile(r'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.M)
"""Header lines that change at every write (ignored when telling whether a file changed)."""
FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")


def extracted() -> Catalog:
    """Every text of the code and every card name, as a template catalogue."""
    catalog = Catalog(project="Vendetta Companion", version="1", charset="utf-8",
                      msgid_bugs_address="", copyright_holder="the Vendetta Companion authors",
                      header_comment="# Texts of Vendetta Companion (tools/i18n.py extract).")
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            with path.open("rb") as f:
                for lineno, text, comments, context in extract(
                        "python", f, keywords=KEYWORDS, comment_tags=("Translators:",)):
                    catalog.add(text, None, [(where, lineno)], auto_comments=comments,
                                context=context)
    cards = json.loads((ROOT / CARD_FILE).read_text(encoding="utf-8"))
    for section in CARD_SECTIONS:
        for entry in cards.get(section, []):
            if entry.get("name"):
                catalog.add(entry["name"], None, [(CARD_FILE, 0)], context=CARD,
                            auto_comments=[f"card {entry['id']}"])
    return catalog


def _text(catalog: Catalog) -> str:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_lineno=False, ignore_obsolete=True,
             include_previous=False)
    return out.getvalue().decode("utf-8")


def _save(catalog: Catalog, path: Path) -> bool:
    """Write a catalogue unless it says the same as the file (dates aside); True: written."""
    text = _text(catalog)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old is not None and DATED.sub("", old) == DATED.sub("", text):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def read(path: Path) -> Catalog:
    """A `.po` or `.pot` file as a catalogue."""
    with path.open("rb") as f:
        return read_po(f)


def extract_pot() -> bool:
    """Write `messages.pot` from the code; True when it changed."""
    return _save(extracted(), POT)


def update(langs: Iterable[str] = TRANSLATED) -> list[str]:
    """Bring each language's `.po` in step with the template (new texts untranslated, texts
    gone dropped; never guessed from similar ones); returns the languages written."""
    template = read(POT)
    written = []
    for lang in langs:
        path = po_path(lang)
        catalog = read(path) if path.exists() else Catalog(locale=lang, charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        catalog.project, catalog.version = template.project, template.version
        catalog.copyright_holder = template.copyright_holder
        catalog.language_team = f"{LANGUAGES.get(lang, lang)} ({lang})"
        catalog.header_comment = (f"# {LANGUAGES.get(lang, lang)}: the texts of Vendetta "
                                  f"Companion.\n# Translate each msgstr; the game terms as in "
                                  f"companion/i18n/glossary/{lang}.json.\n# README: "
                                  f"\"Translations\".")
        if _save(catalog, path):
            written.append(lang)
    return written


def keys(catalog: Catalog) -> set[tuple[str | None, str | tuple[str, ...]]]:
    """The texts of a catalogue (context and id), its header aside."""
    return {(m.context, m.id) for m in catalog if m.id}


def complete(m: Message) -> bool:
    """Whether an entry is translated (every plural form)."""
    strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
    return all(strings)


def compile_po(path: Path) -> bytes:
    """A `.po` compiled to `.mo` bytes: the translated, non-fuzzy entries only (an entry left
    untranslated reads in English)."""
    catalog = read(path)
    for m in list(catalog):
        if m.id and (m.fuzzy or not complete(m)):
            catalog.delete(m.id, context=m.context)
    out = io.BytesIO()
    _babel_write_mo(out, catalog)
    return out.getvalue()


def write_mo(path: Path, data: bytes) -> None:
    """Write a compiled catalogue whole (a temporary file renamed over it)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".messages-", suffix=".mo")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def compile_all(langs: Iterable[str] = TRANSLATED) -> list[Path]:
    """Compile every language's `.po` to its `.mo`; returns the files written."""
    out = []
    for lang in langs:
        path = po_path(lang)
        if path.exists():
            write_mo(path.with_suffix(".mo"), compile_po(path))
            out.append(path.with_suffix(".mo"))
    return out


def pseudo_mo() -> bytes:
    """The pseudo-language compiled from the template: every text wrapped and accented."""
    template = read(POT)
    for m in template:
        if m.id:
            m.string = tuple(pseudo_text(x) for x in m.id) if m.pluralizable \
                else pseudo_text(m.id)
    out = io.BytesIO()
    _babel_write_mo(out, template)
    return out.getvalue()


def fields(text: str) -> set[str]:
    """The `{fields}` of a template (doubled braces are no field)."""
    return set(FIELD.findall(text))


def problems(catalog: Catalog) -> list[str]:
    """What is wrong with a language's translations: fuzzy entries, a translation whose
    `{fields}` differ from its English (each plural form: those of the English plural, `{n}`
    optional), a wrong number of plural forms."""
    out = []
    for m in catalog:
        if not m.id:
            continue
        name = m.id[0] if m.pluralizable else m.id
        if m.fuzzy:
            out.append(f"fuzzy: {name!r}")
        if not m.string or not complete(m):
            continue
        if m.pluralizable:
            if len(m.string) != catalog.num_plurals:
                out.append(f"{len(m.string)} plural forms, not {catalog.num_plurals}: {name!r}")
            want = fields(m.id[1])
            for form in m.string:
                got = fields(form)
                if not want - {"n"} <= got <= want | fields(m.id[0]):
                    out.append(f"fields {sorted(got)} instead of {sorted(want)}: {name!r} → "
                               f"{form!r}")
        elif fields(m.string) != fields(m.id):
            out.append(f"fields {sorted(fields(m.string))} instead of {sorted(fields(m.id))}: "
                       f"{name!r} → {m.string!r}")
    return out


def glossary(lang: str) -> list[dict[str, Any]]:
    """A language's game terms (`glossary/<lang>.json`): each with its English (`en`, and
    `en_forms`), the word used (`term`), the spellings a translation may use (`forms`), and
    whether the printed edition is known to use it (`printed`, `source`)."""
    doc = json.loads((GLOSSARY_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return list(doc["terms"])


GAME_TITLES = ("Blood Feud",)
"""Names of games, which a translation may keep as they are though they hold a game term."""


def term_problems(lang: str, catalog: Catalog) -> list[str]:
    """Translations that do not use the glossary's word for a game term their English names
    (the longest English term first: "Location card" is not also "Location")."""
    terms = [(form, entry) for entry in glossary(lang)
             for form in [entry["en"], *entry.get("en_forms", [])]]
    terms.sort(key=lambda t: -len(t[0]))
    out = []
    for m in catalog:
        if not m.id or not complete(m):
            continue
        english = " / ".join(m.id) if m.pluralizable else m.id
        for title in GAME_TITLES:  # a game's name is not its terms ("Blood Feud")
            english = english.replace(title, " ")
        strings = m.string if m.pluralizable else (m.string,)
        for form, entry in terms:
            word = re.compile(rf"(?<!\w){re.escape(form)}(?!\w)")
            if not word.search(english):
                continue
            english = word.sub(" ", english)
            uses = [re.compile(rf"\b{re.escape(f)}", re.IGNORECASE) for f in entry["forms"]]
            for text in strings:
                if not any(u.search(text) for u in uses):
                    out.append(f"{form!r} is {entry['term']!r}: {text!r}")
    return out


def untranslated(catalog: Catalog, cards: bool = False) -> list[Message]:
    """The entries not translated yet (card names only with `cards`: the printed names of
    most editions are not known, so the English name stands)."""
    return [m for m in catalog if m.id and not complete(m) and (cards or m.context != CARD)]


def check(full: bool = False) -> list[str]:
    """Everything wrong with the catalogues: the template behind the code, a language's `.po`
    behind the template, and each language's `problems`; with `full`, also every text left
    untranslated (card names aside)."""
    out = []
    template = extracted()
    if not POT.exists() or keys(read(POT)) != keys(template):
        out.append("messages.pot is not current: run tools/i18n.py extract")
    for lang in TRANSLATED:
        path = po_path(lang)
        if not path.exists():
            out.append(f"{lang}: no catalogue: run tools/i18n.py update")
            continue
        catalog = read(path)
        if keys(catalog) != keys(template):
            out.append(f"{lang}: not current with the code: run tools/i18n.py extract update")
        out += [f"{lang}: {p}" for p in problems(catalog)]
        if (GLOSSARY_DIR / f"{lang}.json").exists():
            out += [f"{lang}: glossary: {p}" for p in term_problems(lang, catalog)]
        else:
            out.append(f"{lang}: no glossary/{lang}.json (its game terms and their sources)")
        if full:
            out += [f"{lang}: untranslated: {m.id!r}" for m in untranslated(catalog)]
    return out


def statistics() -> dict[str, tuple[int, int]]:
    """Per language: texts translated and texts in all (card names aside)."""
    out = {}
    for lang in TRANSLATED:
        path = po_path(lang)
        if path.exists():
            entries = [m for m in read(path) if m.id and m.context != CARD]
            out[lang] = (sum(complete(m) for m in entries), len(entries))
    return out
