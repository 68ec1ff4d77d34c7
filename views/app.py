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
"""Screen name (views.routes) → the function that draws it."""


def render(app: AppState) -> None:
    """Rebuild the page's controls for the app state."""
    controls = SCREENS[app.screen](app)
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
        app = build(service)
        shell = Shell(page, app)
        start = page.route or "/"
        if start in ("", "/") and service.game is not None:
            start = "/game"
        app.open_address(start)
        shell.sync()

    return main


class Shell:
    """Keeps Flet's view stack and the browser's address in step with the app's history.

    The screen shown is the top view; the screens below it are light placeholders, there so
    that Android's Back button and Flet's view pop reach `AppState.back`. The browser's Back
    and typed addresses arrive as route changes.
    """

    def __init__(self, page: ft.Page, app: AppState) -> None:
        self.page, self.app = page, app
        self.pushed: list[str] = []
        """Addresses this shell pushed whose route-change echo has not come back yet."""
        self.address = page.route or "/"
        """The address the browser shows (as far as this shell knows)."""
        self.top = ft.View(route="/", controls=[ft.SafeArea(content=app.root, expand=True)],
                           padding=0, spacing=0, bgcolor=BG)
        app.on_navigate = lambda _app: self.sync()
        page.on_route_change = self.on_route_change
        page.on_view_pop = self.on_view_pop

    def sync(self) -> None:
        """Views: one placeholder per earlier screen, then the screen shown; push the address."""
        app, page = self.app, self.page
        below = [ft.View(route=r.path, bgcolor=BG, controls=[]) for r in app.history[:-1]]
        self.top.route = app.route.path
        page.views[:] = [*below, self.top]
        if self.address != app.route.path:
            self.address = app.route.path
            self.pushed.append(self.address)
            page.navigate(self.address)
        page.update()

    def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        """The browser's Back/Forward or a typed address (echoes of our own pushes ignored)."""
        if e.route in self.pushed:
            del self.pushed[: self.pushed.index(e.route) + 1]
            return
        self.pushed.clear()
        self.address = e.route
        self.app.open_address(e.route)

    def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        """Android's Back button or Flet's automatic back arrow."""
        self.app.back()


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
