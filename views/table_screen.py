"""The open table's screen: what this device's role at the table sees."""

from __future__ import annotations

import flet as ft

from models.table import Board, Referee, Seat
from views.screens import SCREENS, drawer
from views.state import AppState


def table_view(app: AppState) -> list[ft.Control]:
    """The open table's screen for this device's role (the join screen without one)."""
    role = app.role
    if isinstance(role, Referee):
        return drawer("views.game_screen:game_view")(app)
    if isinstance(role, Seat) and app.view is not None:
        return drawer("views.seat_page:seat_view")(app)
    if isinstance(role, Board) and app.view is not None:
        return drawer("views.board_page:board_view")(app)
    return drawer(SCREENS["join"].draw)(app)
