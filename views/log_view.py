"""The action log, newest first; the top line is what Undo takes back."""

import flet as ft

from views.describe import describe, event_line
from views.state import AppState
from views.theme import GOLD, MUTED, TEXT, card, text


def log_view(app: AppState) -> list[ft.Control]:
    """Every action with its notable events."""
    g = app.game
    s = g.state
    out: list[ft.Control] = []
    for n, action in reversed(list(enumerate(g.actions, start=1))):
        lines = [line for e in action.events if (line := event_line(e, s))][:8]
        head = text(f"{n}. {describe(action, s)}", 17, bold=True,
                    color=GOLD if n == len(g.actions) else TEXT)
        parts: list[ft.Control] = [head, *[text(line, 14, color=MUTED) for line in lines]]
        if n == len(g.actions):
            parts.insert(0, text("Undo takes this back", 13, color=MUTED))
        out.append(card(*parts))
    for action in reversed(g.redo_stack):
        out.insert(0, card(text(f"Undone (Redo brings it back): {describe(action, s)}", 16,
                                color=MUTED)))
    if not out:
        out.append(text("Nothing has happened yet.", 16, color=MUTED))
    return out
