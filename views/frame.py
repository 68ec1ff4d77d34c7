"""The frame around every screen: title bar, messages, scrolling body, undo/redo bar."""

from __future__ import annotations

import flet as ft

from models.common import location_name
from views.describe import describe
from views.state import AppState
from views.theme import (
    BG,
    BLOOD_DARK,
    GOLD,
    MUTED,
    SURFACE,
    TEXT,
    button,
    error_box,
    ident,
)

PHASE_NAMES = {
    "setup": "Setup", "feed": "Feed", "location_setup": "Location Setup",
    "hand_building": "Hand Building", "planning": "Planning", "resolution": "Resolution",
    "game_over": "Game over",
}


def status_line(app: AppState) -> str:
    """Round, phase and step of the open game."""
    s = app.game.state
    parts = [f"Round {s.round}"] if s.round else []
    parts.append(PHASE_NAMES.get(s.phase, s.phase))
    if s.phase == "resolution" and s.location is not None and s.step:
        parts.append(f"{location_name(s.location.id)} · {s.step.capitalize()}")
    return " · ".join(parts)


def title_bar(app: AppState, title: str, subtitle: str | None = None) -> ft.Control:
    """The top bar: title, subtitle and a Home button."""
    away = app.screen != "home" and app.problem is None
    return app.memo("title-bar", (title, subtitle, away, app.can_go_back()),
                    lambda: _title_bar(app, title, subtitle, away))


def _title_bar(app: AppState, title: str, subtitle: str | None, away: bool) -> ft.Control:
    col = [ident("title", ft.Text(title, size=20, weight=ft.FontWeight.BOLD, color=TEXT))]
    if subtitle:
        col.append(ident("status", ft.Text(subtitle, size=15, color=GOLD)))
    back = ident("back", ft.IconButton(
        icon=ft.Icons.ARROW_BACK, icon_color=TEXT, tooltip="Back", icon_size=28,
        on_click=lambda e: on_back_click(app), width=52, height=52), "Back")
    home = ident("home", ft.IconButton(
        icon=ft.Icons.HOME, icon_color=TEXT, tooltip="Home", icon_size=28,
        on_click=lambda e: on_home_click(app), width=52, height=52), "Home")
    row = ft.Row([*([back] if away and app.can_go_back() else []),
                  ft.Column(col, spacing=2, expand=True), *([home] if away and app.host else [])],
                 vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Container(content=row, bgcolor=BLOOD_DARK,
                        padding=ft.Padding.symmetric(horizontal=14, vertical=8))


def on_back_click(app: AppState) -> None:
    """Back to the previous screen."""
    app.notice = []
    app.back()


def on_home_click(app: AppState) -> None:
    """Back to the home screen (the game stays stored)."""
    app.drafts.clear()
    app.notice = []
    app.go("home")


def on_retry_click(app: AppState) -> None:
    """Try again to save the actions the disk refused."""
    app.retry_save()


def save_banner(app: AppState) -> ft.Control | None:
    """What is not saved yet and why, with a Retry button (None when all is saved)."""
    svc = app.service
    if svc is None or not svc.unsaved:
        return None
    lines = [
        ft.Text(f"Not saved yet: {svc.save_error or 'the disk refused it'}", size=16,
                color=TEXT, weight=ft.FontWeight.BOLD),
        ft.Text(f"The last {len(svc.unsaved)} action(s) are on the table here but not on disk. "
                "Keep the app open: they are saved, in order, as soon as the disk accepts "
                "them (next action or Retry).", size=15, color=TEXT),
        button("Retry saving", lambda e: on_retry_click(app), ident_="retry-save",
               icon=ft.Icons.SAVE),
    ]
    return ident("save-problem", ft.Container(
        content=ft.Column(lines, spacing=6), bgcolor="#3a1a12",
        border=ft.Border.all(2, "#ff8a65"), border_radius=10, padding=12))


def messages(app: AppState) -> list[ft.Control]:
    """What is not saved, the refusal (if any) and what the last action did."""
    out: list[ft.Control] = []
    if banner := save_banner(app):
        out.append(banner)
    if app.error:
        out.append(error_box(app.error))
    if app.notice:
        out.append(app.memo("notice", tuple(app.notice[:12]), lambda: _notice(app.notice[:12])))
    return out


def _notice(notice: list[str]) -> ft.Control:
    lines = [ft.Text(line, size=16, color="#ffb3b3" if "FRENZY" in line else TEXT)
             for line in notice]
    return ident("notice", ft.Container(
        content=ft.Column([ft.Text("Just happened", size=14, color=MUTED), *lines], spacing=4),
        bgcolor="#261417", border=ft.Border.all(1, GOLD), border_radius=10, padding=12))


def on_undo_click(app: AppState) -> None:
    """Take back the last action."""
    app.undo()


def on_redo_click(app: AppState) -> None:
    """Play again what was taken back."""
    app.redo()


def on_view_toggle(app: AppState, screen: str) -> None:
    """Switch between the phase screen, the table dashboard and the log."""
    app.notice = []
    app.go("game" if app.screen == screen else screen)


def undo_bar(app: AppState) -> ft.Control:
    """Undo / Redo / Table / Log, always one tap away, with what Undo will take back."""
    g = app.game
    last = (describe(g.actions[-1], g.state) if g.actions else "nothing yet")
    hint = ident("undo-hint", ft.Text(f"Undo takes back #{len(g.actions)}: {last}", size=14,
                                      color=MUTED,
                                      max_lines=2, overflow=ft.TextOverflow.ELLIPSIS))
    bar = app.memo("undo-buttons", (g.can_undo(), g.can_redo(), app.screen),
                   lambda: _undo_buttons(app))
    return ft.Container(content=ft.Column([hint, bar], spacing=6), bgcolor=SURFACE,
                        padding=ft.Padding.symmetric(horizontal=10, vertical=8))


def _undo_buttons(app: AppState) -> ft.Control:
    g = app.game
    return ft.Row([
        button("Undo", (lambda e: on_undo_click(app)) if g.can_undo() else None,
               expand=True, primary=False, ident_="undo"),
        button("Redo", (lambda e: on_redo_click(app)) if g.can_redo() else None,
               expand=True, primary=False, ident_="redo"),
        button("Table", lambda e: on_view_toggle(app, "table"), expand=True,
               selected=app.screen == "table", primary=False, ident_="nav-table"),
        button("Log", lambda e: on_view_toggle(app, "log"), expand=True,
               selected=app.screen == "log", primary=False, ident_="nav-log"),
    ], spacing=6)


def frame(app: AppState, title: str, body: list[ft.Control], *, subtitle: str | None = None,
          game_bar: bool = False) -> list[ft.Control]:
    """The whole page: bar, messages, scrolling body, and the undo bar in a game."""
    scroller = ft.Column([*messages(app), *body], expand=True, spacing=12,
                         scroll=ft.ScrollMode.AUTO,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    out: list[ft.Control] = [title_bar(app, title, subtitle),
                             ft.Container(content=scroller, expand=True, bgcolor=BG,
                                          padding=ft.Padding.all(12))]
    if game_bar:
        out.append(undo_bar(app))
    return out
