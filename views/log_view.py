"""The action log, newest first; the top line is what Undo takes back. Its sentences come from
the one narrator (`companion.story.narrator`, through `companion.story.review`), in the
device's language."""

import flet as ft

from companion.rules.game import Game
from companion.story import narrator_commands
from companion.story.review import told, told_each
from views.state import AppState
from views.theme import GOLD, MUTED, TEXT, card, text


def _told(app: AppState, g: Game) -> list[list[str]]:
    """What each action did, in the device's language (English in one pass over the game)."""
    if app.t.english:
        return told_each(g)
    return [told(g, i, app.t) for i in range(len(g.actions))]


def _headline(app: AppState, g: Game, i: int, sentences: list[str]) -> str:
    """An action's first sentence, or what its command did when it moved nothing."""
    if sentences:
        return sentences[0]
    return app.words(narrator_commands.headline(g.state_at(i), g.actions[i].command,
                                                g.state_at(i + 1)))


def log_view(app: AppState) -> list[ft.Control]:
    """Every action with what it did, newest first."""
    g = app.game
    said = _told(app, g)
    out: list[ft.Control] = []
    for action in reversed(g.redo_stack):
        command = app.words(narrator_commands.headline(g.state, action.command))
        out.append(card(text(app._("Undone (Redo brings it back): {command}", command=command),
                             16, color=MUTED)))
    for n in range(len(g.actions), 0, -1):
        sentences = said[n - 1]
        head = text(f"{n}. {_headline(app, g, n - 1, sentences)}", 17, bold=True,
                    color=GOLD if n == len(g.actions) else TEXT, ident_=f"log-{n}")
        parts: list[ft.Control] = [head, *[text(line, 16, color=MUTED)
                                           for line in sentences[1:]]]
        if n == len(g.actions):
            parts.insert(0, text(app._("Undo takes this back"), 16, color=MUTED))
        out.append(card(*parts))
    if not out:
        out.append(text(app._("Nothing has happened yet."), 16, color=MUTED))
    return out
