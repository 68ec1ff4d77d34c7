"""One rules-reference section, set large enough to read at arm's length."""

import flet as ft

from companion.rules.reference import Section
from views.theme import GOLD, MUTED, card, ident, text

GROUP_NAMES = {
    "topic": "Topics", "round": "The round", "phase": "Phases", "step": "Resolution steps",
    "variant": "Variants", "principles": "When rules collide", "glossary": "Glossary",
    "ruling": "Rulings",
}
"""Readable names of the reference's groups, in the order the page lists them."""


def section_panel(sec: Section) -> ft.Control:
    """Title, group, paragraphs, and where a Ruling comes from."""
    parts: list[ft.Control] = [
        ident("section-title", ft.Text(sec.title, size=24, weight=ft.FontWeight.BOLD,
                                       color=GOLD)),
        text(GROUP_NAMES.get(sec.group, sec.group), 14, color=MUTED),
    ]
    parts += [ft.Text(p, size=19, selectable=True) for p in sec.body]
    if sec.source:
        where = sec.source.replace("RULES.md", "").strip()
        source = ("The companion's own decision where the rule book leaves it open."
                  if sec.source == "companion" else f"How the companion reads the rule book "
                                                    f"({where}).")
        parts.append(text(source, 15, color=MUTED))
    if sec.keywords:
        parts.append(text("Search words: " + ", ".join(sec.keywords), 14, color=MUTED))
    return card(*parts, ident_=f"section-{sec.id}")
