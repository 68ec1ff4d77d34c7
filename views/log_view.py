"""The action log, newest first; the top line is what Undo takes back. Its sentences come from
the one narrator (`companion.story.narrator`, in English through `companion.story.review`)."""

import flet as ft

from companion.story.review import command_line, headline, told_each
from views.state import AppState
from views.theme import GOLD, MUTED, TEXT, card, text


def log_view(app: AppState) -> list[ft.Control]:
    """Every action with what it did, newest first."""
    g = app.game
    said = told_each(g)
    out: list[ft.Control] = []
    for action in reversed(g.redo_stack):
        out.append(card(text("Undone (Redo brings it back): "
                             f"{command_line(g.state, action.command)}", 16, color=MUTED)))
    for n in range(len(g.actions), 0, -1):
        sentences = said[n - 1]
        head = text(f"{n}. {headline(g, n - 1, sentences)}", 17, bold=True,
                    color=GOLD if n == len(g.actions) else TEXT, ident_=f"log-{n}")
        parts: list[ft.Control] = [head, *[text(line, 16, color=MUTED)
                                           for line in sentences[1:]]]
        if n == len(g.actions):
            parts.insert(0, text("Undo takes this back", 16, color=MUTED))
        out.append(card(*parts))
    if not out:
        out.append(text("Nothing has happened yet.", 16, color=MUTED))
    return out
