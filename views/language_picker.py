"""The language picker: each language by its own name; a choice changes this device only (the
other devices at the table keep theirs) and is kept on the device (`views.live`)."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.i18n import LANGUAGES
from views.state import AppState
from views.theme import ident


def on_language_select(app: AppState, e: Any) -> None:
    """The device chose a language: the screen is drawn again in it."""
    lang = e.control.value
    if lang in LANGUAGES:
        app.set_language(lang)


def language_picker(app: AppState) -> ft.Control:
    """A compact choice of language, named in the device's language ("Language")."""
    return ident("language", ft.Dropdown(
        value=app.lang, dense=True, width=150, text_size=14,
        options=[ft.dropdown.Option(key=code, text=name) for code, name in LANGUAGES.items()],
        on_select=lambda e: on_language_select(app, e)), label=app._("Language"))
