"""A small help button on every phase and Resolution step screen: opens its rules section."""

import flet as ft

from companion.rules.reference import help_for
from models.message import term
from views.state import AppState
from views.theme import GOLD, TOUCH, icon_button


def on_help_click(app: AppState, key: str) -> None:
    """Open the rules section for this phase or step; Back returns to the game."""
    app.drafts["rules"] = {"q": ""}
    app.go("rules", help_for(key).id)


def help_button(app: AppState, key: str, size: int = TOUCH) -> ft.Control:
    """A '?' button (48 px) naming the section it opens."""
    # the rules reference is in English; another language names the phase or step itself
    title = help_for(key).title if app.t.english else term(key)
    return icon_button("help", ft.Icons.HELP_OUTLINE, app._("Rules: {title}", title=title),
                       lambda e: on_help_click(app, key), color=GOLD, size=size)
