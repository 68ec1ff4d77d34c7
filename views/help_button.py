"""A small help button on every phase and Resolution step screen: opens its rules section."""

import flet as ft

from companion.rules.reference import help_for
from views.state import AppState
from views.theme import GOLD, TOUCH, icon_button


def on_help_click(app: AppState, key: str) -> None:
    """Open the rules section for this phase or step; Back returns to the game."""
    app.drafts["rules"] = {"q": ""}
    app.go("rules", help_for(key).id)


def help_button(app: AppState, key: str, size: int = TOUCH) -> ft.Control:
    """A '?' button (48 px) naming the section it opens."""
    title = help_for(key).title
    return icon_button("help", ft.Icons.HELP_OUTLINE, f"Rules: {title}",
                       lambda e: on_help_click(app, key), color=GOLD, size=size)
