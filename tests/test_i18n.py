"""Languages: the catalogues extracted from the code and kept current, translations that keep
their fields and plural forms and use the glossary's game terms, one translator per language
(Polish plurals, lists, numbers, dates), the pseudo-language finding every word left in
English, the command line in the shell's language, and each device in its own language.
"""

from __future__ import annotations

import ast
import io
import json
import re
import shutil
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract

from companion.cli.main import main as cli
from companion.i18n import (
    ENGLISH,
    LANGUAGES,
    PSEUDO,
    negotiate,
    pseudo_text,
    shell_locales,
    translator,
)
from companion.i18n import catalogues as cat
from companion.i18n import translators as translator_module
from companion.rules.errors import RuleError, TableError
from companion.rules.game import Game
from companion.story.narrator import story, title
from companion.story.words import render
from models.common import CLANS
from models.message import card, msg, msgn, player, term

ROOT = Path(__file__).resolve().parent.parent
LANGS = [lang for lang in LANGUAGES if lang != "en"]
KEYWORDS = {"msg": 1, "msgn": 2, "N_": 1, "_": 1, "gettext": 1, "ngettext": 2, "pgettext": 2}
"""Extraction keywords and how many of their first arguments are texts."""


@cache
def extracted() -> Catalog:
    return cat.extracted()


def _calls() -> list[tuple[str, int, str, list[ast.expr]]]:
    """Every call of an extraction keyword in the code: where, which, its text arguments."""
    out = []
    for package in cat.SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr \
                    if isinstance(f, ast.Attribute) else None
                if name in KEYWORDS and node.args:
                    out.append((f"{path.relative_to(ROOT)}:{node.lineno}", name, name == "pgettext",
                                node.args[:KEYWORDS[name]]))
    return out


# --- the catalogues ---------------------------------------------------------------------------

def test_extraction_finds_every_literal_template() -> None:
    found = {m.id[0] if m.pluralizable else m.id for m in extracted() if m.id}
    literal = [(where, a.value) for where, _, ctx, args in _calls()
               for a in args[ctx:ctx + 1] if isinstance(a, ast.Constant)]
    assert len(literal) > 300, "the scan sees the narrator's and the engine's templates"
    assert [x for x in literal if x[1] not in found] == []


def test_no_template_is_built_at_run_time() -> None:
    """Babel silently skips `_(f"…")`, `msg("a" if x else "b")` and `"a" + b`: a text given to
    an extraction keyword is a literal or a variable holding a marked text."""
    built = [(where, ast.unparse(a)[:60]) for where, _, _, args in _calls() for a in args
             if not isinstance(a, ast.Constant | ast.Name | ast.Attribute | ast.Subscript)
             or isinstance(a, ast.Constant) and not isinstance(a.value, str)]
    assert built == []
    skipped = b'_(f"{n} cards")\nmsg("a" if x else "b")\n'
    texts = [m[1] for m in extract("python", io.BytesIO(skipped), keywords=cat.KEYWORDS)]
    assert "{n} cards" not in texts and "a" not in texts, "why the rule above exists"


def test_the_catalogues_are_current_complete_and_clean() -> None:
    """The template holds what the code says; every language's catalogue follows it, has no
    fuzzy entry, keeps each text's fields and plural forms and uses the glossary's terms."""
    assert cat.check() == []
    for lang in LANGS:
        catalog = cat.read(cat.po_path(lang))
        assert catalog.locale_identifier == lang
        assert cat.untranslated(catalog) == [], lang


def test_a_renamed_field_is_found_also_in_a_plural_form() -> None:
    catalog = Catalog(locale="pl")
    catalog.add(("{who} adds {n} card", "{who} adds {n} cards"),
                ("{who} dobiera {n} kartę", "{kto} dobiera {n} karty", "{who} dobiera {n} kart"))
    catalog.add("{who} picks {clan}", "{who} wybiera {klan}")
    catalog.add(("{n} token", "{n} tokens"), ("żeton", "{n} żetony", "{n} żetonów"))
    catalog.add(("one", "many"), ("jeden", "wiele"))
    found = cat.problems(catalog)
    assert len(found) == 3 and "'{who} adds {n} card'" in found[0] and "{kto}" in found[0]
    assert "{klan}" in found[1] and "plural forms" in found[2]


def test_the_glossary_check_sees_a_term_left_out() -> None:
    catalog = cat.read(cat.po_path("pl"))
    catalog.get("{who} gains {n} Blood").string = "{who} zyskuje {n} sangre"
    catalog.get("Location cards: {cards}").string = "Dzielnice: {cards}"
    assert len(cat.term_problems("pl", catalog)) == 2


def test_each_glossary_names_every_term_and_its_source() -> None:
    english = None
    for lang in LANGS:
        terms = cat.glossary(lang)
        if english is None:
            english = [t["en"] for t in terms]
        assert [t["en"] for t in terms] == english, lang
        for t in terms:
            assert t["forms"] and all(f == f.lower() for f in t["forms"]), (lang, t)
            assert any(re.search(rf"\b{re.escape(f)}", t["term"], re.I) for f in t["forms"])
            assert isinstance(t["printed"], bool) and bool(t["source"]) == t["printed"], t
    assert english is not None and {"Diablerie", "Ally", "Prince's Haven", "Withdraw",
                                    "Aftermath", *CLANS} <= set(english)
    polish = {t["en"]: t for t in cat.glossary("pl")}
    assert polish["Diablerie"]["term"] == "Diabolizm" and polish["Ally"]["term"] == "Poplecznik"


def test_a_catalogue_is_compiled_when_missing_or_older(tmp_path: Path, monkeypatch) -> None:
    """A plain clone has no .mo: the .po is compiled on first use (and again once edited)."""
    locale = tmp_path / "locale"
    shutil.copytree(cat.LOCALE_DIR / "de", locale / "de")
    monkeypatch.setattr("companion.i18n.locales.LOCALE_DIR", locale)
    mo = locale / "de" / "LC_MESSAGES" / "messages.mo"
    mo.unlink(missing_ok=True)
    assert translator_module._load("de").gettext("Planning") == "Planung"
    assert mo.exists()
    po = mo.with_suffix(".po")
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Planung"',
                                                          'msgstr "Planungsphase"'))
    assert translator_module._load("de").gettext("Planning") == "Planungsphase"


# --- a translator per language ------------------------------------------------------------------

def test_one_translator_per_language_and_english_as_written() -> None:
    assert translator("de") is translator("de") and translator("de") is not translator("it")
    assert translator("en") is ENGLISH and translator("tlh") is ENGLISH
    assert ENGLISH.gettext("Planning") == "Planning" and ENGLISH.join(["A", "B", "C"]) == \
        "A, B and C"
    assert [translator(lang).name for lang in LANGUAGES] == \
        ["English", "Italiano", "Deutsch", "Français", "Español", "Polski"]


@pytest.mark.parametrize("n, form", [(1, "kartę"), (2, "karty"), (4, "karty"), (5, "kart"),
                                     (12, "kart"), (22, "karty"), (25, "kart"), (101, "kart")])
def test_polish_plurals(n: int, form: str) -> None:
    said = render(msgn("{who} adds {n} card to their hand", "{who} adds {n} cards to their hand",
                       n, who=player(0)), ["Ann"], translator("pl"))
    assert said == f"Ann dobiera {n} {form} na rękę"


def test_lists_numbers_and_dates_each_language_its_way() -> None:
    words = ["Ann", "Bo", "Cy"]
    assert {lang: translator(lang).join(words) for lang in LANGUAGES} == {
        "en": "Ann, Bo and Cy", "it": "Ann, Bo e Cy", "de": "Ann, Bo und Cy",
        "fr": "Ann, Bo et Cy", "es": "Ann, Bo y Cy", "pl": "Ann, Bo i Cy"}
    assert translator("de").number(1234) == "1.234" and ENGLISH.number(1234) == "1234"
    assert translator("de").date("2025-03-12T20:15:00") == "12.03.2025"
    assert translator("it").date("not a date") == "not a date"


def test_a_device_negotiates_its_language() -> None:
    assert negotiate(["it-IT", "en-US"]) == "it"
    assert negotiate(["de_CH.UTF-8"]) == "de" and negotiate(["pt-BR", "pl"]) == "pl"
    assert negotiate(["pt-BR"]) == "en" and negotiate([]) == "en"
    assert negotiate(["it-IT"], saved="fr") == "fr" and negotiate(["it"], saved="xx") == "it"
    assert shell_locales({"LANG": "it_IT.UTF-8"}) == ["it_IT.UTF-8"]
    assert shell_locales({"LANG": "C.UTF-8", "LANGUAGE": "de"}) == []
    assert shell_locales({"LC_ALL": "fr_FR", "LANG": "it_IT", "LANGUAGE": "pl:de"}) == \
        ["pl", "de", "fr_FR"]


def test_a_message_says_titles_and_cards_in_the_language() -> None:
    said = msg("{who} plays {card} at {place}", who=player(0), card=card("BR01"),
               place=term("haven"))
    assert render(said, ["Ann"]) == "Ann plays Bloody Fury at Prince's Haven"
    assert render(msg("Went on to {phase}", phase=term("planning")), [],
                  translator("de")) == "Weiter zu Planung"
    assert render(said, ["Ann"], translator("pl")) == \
        render(msg("{who} plays {card} at {place}", who=player(0), card=card("BR01"),
                   place=term("haven")), ["Ann"], translator("pl"))
    assert translator("pl").card_name("BR-HUNT") == "Łowy"
    assert translator("it").card_name("BR-HUNT") == "Hunt", "not known: the English name"
    assert pseudo_text("{who} gains {n} Blood").startswith("⟦{who} ĝåîñš {n} Ɓļööđ")


# --- nothing left in English ---------------------------------------------------------------

SKIP = {"type", "action", "choice", "phase", "step", "kind", "ability", "effect", "format", "v"}
"""Fields that hold the program's own words, not a person's."""


def _typed(doc: Any, out: set[str]) -> set[str]:
    """The words people gave (names, reasons, card names and ids) in a JSON document."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k not in SKIP:
                _typed(v, out)
    elif isinstance(doc, list):
        for v in doc:
            _typed(v, out)
    elif isinstance(doc, str):
        out.update(re.findall(r"[A-Za-z]+", doc))
    return out


def _english_left(text: str, allowed: set[str]) -> list[str]:
    """Words of ASCII letters in a pseudo-language text (each of its own letters is accented:
    such a word was never translated), but for the words people gave."""
    return [w for w in re.findall(r"[A-Za-z]+", text) if w not in allowed]


def _played() -> dict[str, Game]:
    from tests.test_narrator import games

    return {name: g for name, g in games().items() if not name.startswith("backup_v1/")}


@pytest.mark.parametrize("name", sorted(_played()))
def test_every_narrated_word_is_translated(name: str) -> None:
    """Every entry of the example games' story and every group title, in the pseudo-language,
    has no English word outside the translated texts (player names, card names and ids, the
    words a referee typed and the clan names aside)."""
    game = _played()[name]
    docs = [game.start_events[0].model_dump(mode="json"),
            *(a.command.model_dump(mode="json") for a in game.actions),
            *(e.model_dump(mode="json") for a in game.actions for e in a.events
              if e.type in ("card_drained", "card_revealed", "card_restored"))]
    allowed = set(CLANS)
    for doc in docs:
        _typed(doc, allowed)
    names = [p.name for p in game.state.players]
    pseudo = translator(PSEUDO)
    for told in story(game):
        for said in (told.message, title(told.key)):
            text = render(said, names, pseudo)
            assert "⟦" in text and _english_left(text, allowed) == [], text


LEFT_IN_ENGLISH: dict[str, str] = {}
"""Refusals that still carry English text inside them, and why."""


def _refusals() -> list[tuple[str, Game, Any, set[str]]]:
    """The refusals of tests/test_messages_as_data, each with its game, error and the words
    its command gave."""
    from tests.helpers import position_game
    from tests.test_messages_as_data import REFUSALS, TABLE_REFUSALS

    out = []
    for case, (build, command, _) in REFUSALS.items():
        game = build()
        with pytest.raises(RuleError) as info:
            game.play(command)
        out.append((case, game, info.value, _typed(command, set())))
    for case, (act, _) in TABLE_REFUSALS.items():
        game = position_game(4)
        with pytest.raises(TableError) as info:
            act(game)
        out.append((case, game, info.value, set()))
    return out


def test_every_refusal_is_translated() -> None:
    pseudo = translator(PSEUDO)
    checked = 0
    for case, game, err, typed in _refusals():
        if case in LEFT_IN_ENGLISH:
            continue
        names = [p.name for p in game.state.players]
        text = render(err.message, names, pseudo)
        allowed = typed | set(CLANS) | {w for n in names for w in re.findall(r"[A-Za-z]+", n)}
        assert "⟦" in text and _english_left(text, allowed) == [], (case, text)
        checked += 1
    assert checked >= 35


def test_a_game_reads_in_every_language() -> None:
    """The same game's story in each language: every field filled, no entry left English."""
    game = _played()["examples/three_players.json"]
    names = [p.name for p in game.state.players]
    english = [render(t.message, names) for t in story(game)]
    for lang in LANGS:
        said = [render(t.message, names, translator(lang)) for t in story(game)]
        assert all("{" not in s for s in said), lang
        assert sum(a != b for a, b in zip(said, english, strict=True)) == len(english), lang


# --- the command line ----------------------------------------------------------------------

def test_the_command_line_speaks_the_shells_language(monkeypatch, capsys, tmp_path) -> None:
    """Narrated text and a refusal's reason follow LANG; `--json` never changes with it."""
    script = str(ROOT / "examples" / "card_effects.json")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    out = {}
    for lang in ("C.UTF-8", "it_IT.UTF-8"):
        monkeypatch.setenv("LANG", lang)
        assert cli(["play", script, "--events"]) == 0
        text = capsys.readouterr().out
        assert cli(["play", script, "--json", "--events"]) == 0
        out[lang] = (text, capsys.readouterr().out)
    assert "card_drained: Frenzy:" in out["C.UTF-8"][0]
    assert "card_drained: Frenesia:" in out["it_IT.UTF-8"][0]
    assert "card_drained: Frenzy:" not in out["it_IT.UTF-8"][0]
    assert out["C.UTF-8"][1] == out["it_IT.UTF-8"][1], "--json never changes"
    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps({
        "format": "vendetta-companion/script",
        "start": {"setup": {"players": [{"name": n} for n in ("Ann", "Bo", "Cy")]}},
        "actions": [{"type": "pick_clan", "player": "Bo", "clan": "Brujah"}]}))
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert cli(["play", str(refused)]) == 1
    assert capsys.readouterr().err.strip() == ("action #0 (pick_clan): wähle zuerst den "
                                               "Startspieler (er bestimmt die Wahlreihenfolge) "
                                               "(§2)")
    assert cli(["play", str(refused), "--json"]) == 1
    assert "choose the first player first" in capsys.readouterr().err


# --- each device its own language -------------------------------------------------------

def _choose(app: Any, lang: str) -> None:
    from tests.ui import find

    picker = find(app.root, "language")
    picker.value = lang
    picker.on_select(SimpleNamespace(control=picker))


def test_each_device_speaks_its_own_language(tmp_path: Path) -> None:
    from tests.table_helpers import make_hub, position
    from tests.test_views_table import at_table

    hub = make_hub(tmp_path)
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    renders = [p.renders for p in phones]
    _choose(phones[1], "it")
    _choose(board, "de")
    assert (phones[1].lang, board.lang, phones[0].lang, ref.lang) == ("it", "de", "en", "en")
    assert phones[1].renders == renders[1] + 1 and phones[0].renders == renders[0]
    # Bo (Italian) taps out of turn: the refusal is in Italian; Ann's stays English
    bo, ann = phones[1], phones[0]
    bo.play({"type": "pass_turn", "player": 1})
    assert bo.error is not None and bo.error.startswith("Non consentito:"), bo.error
    ann.play({"type": "pass_turn", "player": 0})
    assert ann.error is not None and ann.error.startswith("Not allowed:"), ann.error
    ann.play({"type": "play_card", "player": 0, "location": "1", "face_up": False})
    board.render()
    from tests.ui import texts

    assert "Gerade passiert" in texts(board.root), texts(board.root)
    assert any("spielt eine Karte verdeckt" in t for t in texts(board.root))
