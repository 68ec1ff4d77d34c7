"""A stand-in for `ft.Page` with just what the app shell uses: views, route, navigate, update,
session events and background tasks."""

from types import SimpleNamespace
from typing import Any


class FakePage:
    """Records the view stack and the addresses pushed; route changes are sent by the test."""

    def __init__(self, route: str = "/", width: float | None = None,
                 height: float | None = None) -> None:
        self.route = route
        self.views: list[Any] = []
        self.pushed: list[str] = []
        self.updates = 0
        self.on_route_change: Any = None
        self.on_view_pop: Any = None
        self.on_connect: Any = None
        self.on_disconnect: Any = None
        self.on_close: Any = None
        self.tasks: list[Any] = []
        self.web = True
        self.data: Any = None
        self.on_resize: Any = None
        self.width, self.height = width, height
        self.dialogs: list[Any] = []
        """Dialogs shown and not closed, oldest first."""

    def show_dialog(self, dialog: Any) -> None:
        dialog.open = True
        self.dialogs.append(dialog)

    def pop_dialog(self) -> Any:
        dialog = self.dialogs.pop()
        dialog.open = False
        return dialog

    def resize(self, width: float, height: float) -> None:
        """The window or browser changed size."""
        self.width, self.height = width, height
        self.on_resize(SimpleNamespace(width=width, height=height))

    def navigate(self, route: str) -> None:
        """Like Flet: the browser shows the address, then echoes a route change."""
        self.pushed.append(route)

    def run_task(self, handler: Any, *args: Any) -> None:
        """Background tasks (the clock's ticker) are recorded, not run."""
        self.tasks.append(handler)

    def update(self) -> None:
        self.updates += 1

    def echo(self) -> None:
        """Deliver the route-change echoes of every pushed address, in order."""
        while self.pushed:
            self.change(self.pushed.pop(0))

    def change(self, route: str) -> None:
        """The browser's Back/Forward or a typed address."""
        self.route = route
        self.on_route_change(SimpleNamespace(route=route))

    def pop(self) -> None:
        """Android's Back button."""
        self.on_view_pop(SimpleNamespace(view=self.views[-1]))
