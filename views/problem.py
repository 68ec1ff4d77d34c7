"""The start screen when the data folder cannot be used: what is wrong, where, and what to do."""

from __future__ import annotations

import flet as ft

from views.frame import frame
from views.state import AppState
from views.theme import MUTED, button, card, error_box, heading, ident, text


def on_retry_click(app: AppState) -> None:
    """Try to open the data folder again (e.g. after the other app was closed)."""
    problem = app.folder.try_open() if app.folder else app.problem
    if app.folder and app.folder.library is not None:
        app.use(app.folder.library, reason=app.folder.read_only_reason)
    else:
        app.problem = problem
        app.error = app._("Still not available.")
        app.render()


def on_review_click(app: AppState) -> None:
    """Open the data folder read-only: review past games, play none."""
    if app.folder is None:
        return
    try:
        library = app.folder.read_only()
    except app.folder.errors as err:
        app.fail(app._("Cannot read it either: {error}", error=str(err)))
        return
    app.use(library, reason=app.problem.message if app.problem else None)


def problem_view(app: AppState) -> list[ft.Control]:
    """What is wrong with the data folder, and the ways out."""
    p = app.problem
    body: list[ft.Control] = [ident("problem", error_box(p.message))]
    if p.busy:
        advice = app._("Another copy of the companion is using this data folder, and only one "
                       "may write in it. Use that one (its address is above), or close it and "
                       "tap Try again. You can also look at past games here without changing "
                       "them.")
    else:
        advice = app._("Fix the folder (or choose another one with --data-dir) and tap Try "
                       "again. Your saved games are not touched.")
    body.append(card(heading(app._("What to do"), 19), text(advice, 16, color=MUTED)))
    body.append(button(app._("Try again"), lambda e: on_retry_click(app),
                       ident_="problem-retry"))
    if p.readable:
        body.append(button(app._("Review games read-only"), lambda e: on_review_click(app),
                           primary=False, ident_="problem-review"))
    return frame(app, app._("The data folder cannot be used"), body, subtitle=str(p.folder))
