"""The in-app rules reference: sections in the project's own words, search, and help links.

The text lives in companion/data/rules_reference.json: sections with a stable id, a title, a
group (round, phase, step, topic, variant, principles, glossary, ruling), keywords and body
paragraphs; rulings also name their source (a RULES.md § or 'companion').
"""

import json
from functools import cache
from importlib import resources

from models.common import Frozen


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
    """Rulings: 'RULES.md §…' or 'companion' (the companion's own decision)."""


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
def sections() -> tuple[Section, ...]:
    """Every section, in reading order."""
    text = resources.files("companion").joinpath("data/rules_reference.json").read_text("utf-8")
    return tuple(Section.model_validate(s) for s in json.loads(text)["sections"])


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
    """Every Ruling the companion follows, RULES.md's and its own."""
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
