"""One rules-reference section, set large enough to read at arm's length."""

import flet as ft

from companion.rules.reference import Section
from models.message import N_
from views.state import AppState
from views.theme import GOLD, MUTED, card, ident, text

GROUP_NAMES = {
    "topic": N_("Topics"), "round": N_("The round"), "phase": N_("Phases"),
    "step": N_("Resolution steps"), "variant": N_("Variants"),
    "principles": N_("When rules collide"), "glossary": N_("Glossary"), "ruling": N_("Rulings"),
}
"""Readable names of the reference's groups, in the order the page lists them."""


def section_panel(app: AppState, sec: Section) -> ft.Control:
    """Title, group, paragraphs, and where a Ruling comes from."""
    parts: list[ft.Control] = [
        ident("section-title", ft.Text(sec.title, size=24, weight=ft.FontWeight.BOLD,
                                       color=GOLD)),
        text(app._(GROUP_NAMES[sec.group]) if sec.group in GROUP_NAMES else sec.group, 14,
             color=MUTED),
    ]
    parts += [ft.Text(p, size=19, selectable=True) for p in sec.body]
    if sec.source:
        where = sec.source.replace("RULES.md", "").strip()
        source = (app._("The companion's own decision where the rule book leaves it open.")
                  if sec.source == "companion"
                  else app._("How the companion reads the rule book ({where}).", where=where))
        parts.append(text(source, 15, color=MUTED))
    if sec.keywords:
        parts.append(text(app._("Search words: {words}", words=", ".join(sec.keywords)), 14,
                          color=MUTED))
    return card(*parts, ident_=f"section-{sec.id}")
