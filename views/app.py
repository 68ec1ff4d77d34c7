"""App factory and entry point: `create_app(service)` builds the Flet main; `run()` starts it."""

import logging
from collections.abc import Callable

import flet as ft

from companion.service import Service
from views.catalogue_page import catalogue_view
from views.game_screen import game_view
from views.home import home_view
from views.quick_score import quick_score_view
from views.review_page import review_view
from views.rules_page import rules_view
from views.state import AppState
from views.stats_page import stats_view
from views.theme import BG, theme
from views.wizard import wizard_view

SCREENS: dict[str, Callable[[AppState], list[ft.Control]]] = {
    "home": home_view, "new": wizard_view, "quick": quick_score_view, "rules": rules_view,
    "catalogue": catalogue_view, "game": game_view, "table": game_view, "log": game_view,
    "review": review_view, "stats": stats_view,
}


def render(app: AppState) -> None:
    """Rebuild the page's controls for the app state."""
    screen = app.screen
    if screen in ("game", "table", "log") and app.service.game is None:
        screen = app.screen = "home"
    if screen == "review" and app.review is None:
        screen = app.screen = "home"
    controls = SCREENS[screen](app)
    for i, control in enumerate(controls):
        # Same key in the same slot: Flet reconciles the rebuilt control with the one on
        # screen and sends only what changed, instead of replacing the whole screen.
        control.key = control.key or f"slot-{i}"
    app.root.controls = controls


def build(service: Service) -> AppState:
    """An app state with its view tree built (used by tests and by `create_app`)."""
    app = AppState(service, render)
    app.render()
    return app


def create_app(service: Service) -> Callable[[ft.Page], None]:
    """The Flet `main` for a service; every session shares the service (one table)."""

    def main(page: ft.Page) -> None:
        page.title = "Vendetta Companion"
        page.theme_mode = ft.ThemeMode.DARK
        page.theme = page.dark_theme = theme()
        page.bgcolor = BG
        page.padding = 0
        page.spacing = 0
        app = build(service)
        if service.game is not None:
            app.screen = "game"
            app.render()
        page.add(ft.SafeArea(content=app.root, expand=True))

    return main


def run(web: bool = False, port: int | None = None, data_dir: str | None = None) -> None:
    """Start the app: a desktop window, or a web server for browsers on the network."""
    from companion.paths import resolve_data_dir
    from companion.storage import TinyDBGameStore

    logging.getLogger("flet").setLevel(logging.WARNING)
    store = TinyDBGameStore(resolve_data_dir(data_dir))
    service = Service(store)
    main = create_app(service)
    if web:
        ft.run(main, view=ft.AppView.WEB_BROWSER, host="0.0.0.0", port=port or 8550,
               no_cdn=True)
    else:
        ft.run(main)
