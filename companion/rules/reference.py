"""The rules in the project's own words: the in-app reference, its search and help links, and
the rules document docs/rules.md.

companion/data/rules_reference.json is the one source of the rules text. It holds the numbered
chapters (§) that code and tests cite, and sections with a stable id, a title, a group (round,
phase, step, topic, variant, principles, glossary, ruling), keywords, body paragraphs and the §
each paragraph belongs to; rulings also name their source (the § of the rule book they read, or
'companion'). The app shows the sections; `markdown()` sets the same text out by chapter, with
the card facts of the shipped catalogue, as docs/rules.md (`python -m companion.rules.reference
> docs/rules.md` writes it; a test keeps the two equal).
"""

import json
import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from pydantic import model_validator

from models.common import Frozen

RULE = re.compile(r"§\d+(?:\.\d+)?")
"""A section number as cited in code, tests and texts: §8 or §8.4."""


class Chapter(Frozen):
    """A numbered heading of the rules document."""

    rule: str
    """Its number, e.g. '§8.4' (one dot at most: §8.4 is a part of §8)."""
    title: str
    """Heading text."""


class Section(Frozen):
    """One section of the reference."""

    id: str
    """Stable id, e.g. 'step-conflict' or 'ruling-power-floor'."""
    title: str
    """Heading."""
    group: str
    """round, phase, step, topic, variant, principles, glossary or ruling."""
    keywords: list[str]
    """Words a player may search for."""
    body: list[str]
    """Paragraphs."""
    source: str | None = None
    """Rulings: the § of the rule book they read ('§7') or 'companion' (the companion's own
    decision where the rule book is silent)."""
    rule: str | list[str]
    """The chapter (§) of the rules document it stands in: one for the whole section, or one
    per paragraph of body."""

    @model_validator(mode="after")
    def _one_rule_per_paragraph(self) -> "Section":
        if isinstance(self.rule, list) and len(self.rule) != len(self.body):
            raise ValueError(f"{self.id}: {len(self.rule)} § for {len(self.body)} paragraphs")
        return self

    def paragraph_rules(self) -> list[str]:
        """The chapter (§) of each paragraph of body."""
        return list(self.rule) if isinstance(self.rule, list) else [self.rule] * len(self.body)


class Hit(Frozen):
    """A search result."""

    id: str
    """Section id."""
    title: str
    """Section title."""
    snippet: str
    """Text around the first match (or the section's opening)."""
    score: int
    """Higher first: title and keyword matches outrank body matches."""


HELP = {
    "setup": "setup", "feed": "phase-feed", "location_setup": "phase-location-setup",
    "hand_building": "phase-hand-building", "planning": "phase-planning",
    "resolution": "phase-resolution", "game_over": "scoring",
    "withdraw": "step-withdraw", "revelation": "step-revelation",
    "preparation": "step-preparation", "conflict": "step-conflict",
    "aftermath": "step-aftermath", "end_of_round": "end-of-round",
}
"""Section opened by the help button of each phase and Resolution step screen."""


@cache
def _data() -> dict[str, Any]:
    text = resources.files("companion").joinpath("data/rules_reference.json").read_text("utf-8")
    return json.loads(text)


@cache
def sections() -> tuple[Section, ...]:
    """Every section, in reading order."""
    return tuple(Section.model_validate(s) for s in _data()["sections"])


@cache
def chapters() -> tuple[Chapter, ...]:
    """Every numbered chapter of the rules document, in order."""
    return tuple(Chapter.model_validate(c) for c in _data()["chapters"])


def section(section_id: str) -> Section:
    """A section by id.

    Raises:
        KeyError: no such section.
    """
    for s in sections():
        if s.id == section_id:
            return s
    raise KeyError(section_id)


def help_for(phase_or_step: str) -> Section:
    """The section for a phase or Resolution step screen (keys of HELP).

    Raises:
        KeyError: not a phase or step.
    """
    return section(HELP[phase_or_step])


def rulings() -> list[Section]:
    """Every Ruling the companion follows: its reading of the rule book and its own."""
    return [s for s in sections() if s.group == "ruling"]


def _snippet(body: str, word: str, width: int = 140) -> str:
    at = body.lower().find(word) if word else -1
    if at < 0:
        return body[:width] + ("…" if len(body) > width else "")
    start = max(0, at - width // 3)
    end = min(len(body), start + width)
    return ("…" if start else "") + body[start:end].strip() + ("…" if end < len(body) else "")


def search(query: str) -> list[Hit]:
    """Sections matching every word of the query (case-insensitive), best first."""
    words = query.lower().split()
    phrase = " ".join(words)
    if not words:
        return []
    hits = []
    for order, s in enumerate(sections()):
        title, keys = s.title.lower(), [k.lower() for k in s.keywords]
        body = " ".join(s.body)
        low = body.lower()
        score = 0
        for w in words:
            in_title = w in title
            in_keys = any(w in k for k in keys)
            in_body = low.count(w)
            if not (in_title or in_keys or in_body):
                break
            score += 100 * in_title + 50 * in_keys + min(in_body, 5)
        else:
            score += 200 * (phrase in title) + 100 * (phrase in keys)
            first = next((w for w in [phrase, *words] if w in low), "")
            hits.append((-score, order, Hit(id=s.id, title=s.title, score=score,
                                            snippet=_snippet(body, first))))
    return [h for *_, h in sorted(hits, key=lambda x: x[:2])]


# --- the rules document ----------------------------------------------------------------------

DOCUMENT_HEAD = """\
# Vendetta rules, as the companion plays them

Vampire: The Masquerade – Vendetta, for 3 to 6 players over 3 rounds, told in this project's own
words. Code, tests and the app cite these chapters by number (§8.4 is part 4 of §8). A Ruling
says how the companion settles a point the rule book leaves open or unclear; the card facts at
the end are everything the sources print about individual cards.

This file is generated: its text is the app's rules reference
(`companion/data/rules_reference.json`) and the shipped card catalogue
(`companion/data/catalogue.json`). Edit those, then run
`python -m companion.rules.reference > docs/rules.md`.
"""


def _cell(value: object) -> str:
    return "(not known)" if value is None else str(value).replace("|", "\\\\|")


def _table(head: list[str], rows: list[list[object]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head),
            *("| " + " | ".join(_cell(v) for v in row) + " |" for row in rows), ""]


def _card_facts(level: int) -> list[str]:
    """The known cards of the shipped catalogue, as tables under headings of `level`."""
    from companion.rules.catalogue import shipped

    cat = shipped()
    known = [c for c in cat.clan_cards if c.name and not c.starting]
    starting = sorted({c.name for c in cat.clan_cards if c.starting and c.name})
    out = ["#" * level + " Clan cards", ""]
    out += _table(["clan", "code", "name", "kind", "printed Power", "what it does"],
                  [[c.clan, c.id, c.name, c.kind and c.kind.capitalize(), c.power, c.text]
                   for c in known])
    out += [f"Starting cards of every clan: {', '.join(starting)} (printed Power not in the "
            "sources).", ""]
    out += ["#" * level + " Allies", ""]
    out += _table(["name", "code", "Human or Vampire", "what it does"],
                  [[a.name or a.partial_name, a.id if re.fullmatch(r"[A-Z]{2}\d{2}", a.id)
                    else None, a.kind and a.kind.capitalize(), a.text]
                   for a in cat.allies])
    out += ["#" * level + " Relics", ""]
    out += _table(["name", "Influence at the end", "what it does"],
                  [[r.name, r.influence, r.text] for r in cat.relics])
    out += ["#" * level + " Location cards", ""]
    out += _table(["name", "what it does"], [[c.name, c.text] for c in cat.location_cards])
    return out


EXTRAS: dict[str, Callable[[int], list[str]]] = {"§15": _card_facts}
"""Chapters that end with text made from other data than the reference."""


def _section_lines(sec: Section, chapter: Chapter, level: int, first: bool) -> list[str]:
    """A section's paragraphs that stand in this chapter, titled (at heading `level`) when it
    stands there whole, unless it opens the chapter under much the same title."""
    paragraphs = [p for p, r in zip(sec.body, sec.paragraph_rules(), strict=True)
                  if r == chapter.rule]
    if not paragraphs:
        return []
    ours, theirs = sec.title.lower(), chapter.title.lower()
    out = []
    if len(paragraphs) == len(sec.body) and not (first and (ours in theirs or theirs in ours)):
        out += ["#" * level + f" {sec.title}", ""]
    for p in paragraphs:
        out += [p, ""]
    if sec.source == "companion":
        out += ["*The companion's own decision: the rule book does not settle this.*", ""]
    elif sec.source:
        out += [f"*How the companion reads the rule book ({sec.source}).*", ""]
    return out


def markdown() -> str:
    """The rules document (docs/rules.md): each chapter's sections in reading order, then what
    EXTRAS adds to it, then its Rulings."""
    out = [DOCUMENT_HEAD]
    for ch in chapters():
        level = 3 if "." in ch.rule else 2
        out += ["#" * level + f" {ch.rule} {ch.title}", ""]
        body: list[str] = []
        for sec in sections():
            if sec.group != "ruling":
                body += _section_lines(sec, ch, level + 1, not body)
        if ch.rule in EXTRAS:
            body += EXTRAS[ch.rule](level + 1)
        for sec in rulings():
            body += _section_lines(sec, ch, level + 1, not body)
        out += body
    return "\n".join(out).rstrip("\n") + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
