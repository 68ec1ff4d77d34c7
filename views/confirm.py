"""The confirmation asked before a costly tap (Diablerie, using a Relic): a dialog whose
buttons carry stable ids (confirm-yes, confirm-no)."""

import flet as ft

from views.state import AppState
from views.theme import GOLD, SURFACE, TEXT, button, ident


def on_confirm(app: AppState, yes: bool) -> None:
    """Do it, or leave everything as it was."""
    app.answer(yes)


def confirm_dialog(app: AppState) -> ft.AlertDialog:
    """The dialog for the question the app is asking (`app.question`)."""
    q = app.question
    assert q is not None, "no question is asked"
    return ft.AlertDialog(
        modal=True, bgcolor=SURFACE,
        title=ident("confirm-title", ft.Text(q.title, size=20, color=GOLD,
                                             weight=ft.FontWeight.BOLD)),
        content=ident("confirm-text", ft.Text(q.text, size=17, color=TEXT)),
        actions=[button(app._("Cancel"), lambda e: on_confirm(app, False), primary=False,
                        ident_="confirm-no"),
                 button(q.yes, lambda e: on_confirm(app, True), ident_="confirm-yes")],
        actions_alignment=ft.MainAxisAlignment.END)
