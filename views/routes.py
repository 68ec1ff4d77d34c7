"""Addresses of the app's screens: the one place that maps a route to a screen and back.

Every screen has an address, so Back (browser, Android, the title bar) and links work:

| route | screen |
| --- | --- |
| `/` | home |
| `/new` | new-game wizard |
| `/game`, `/game/table`, `/game/log` | the open table: what happens now, the dashboard, the log |
| `/review/<game_id>` | review of a stored game |
| `/stats` | statistics |
| `/rules`, `/rules/<section_id>` | rules reference, one section |
| `/cards` | card catalogue |
| `/quick` | quick score |
| `/data` | backups, restore, import and export |
| `/join/<table_id>` | join a table from a phone (table mode) |
| `/host` | the open table's join address, codes and seats (table mode) |
"""

import re
from dataclasses import dataclass

SCREENS: dict[str, str] = {
    "home": "/", "new": "/new", "game": "/game", "table": "/game/table", "log": "/game/log",
    "review": "/review", "stats": "/stats", "rules": "/rules", "catalogue": "/cards",
    "quick": "/quick", "data": "/data", "join": "/join", "host": "/host",
}
"""Screen name → route (a screen that takes a parameter adds `/<param>`)."""

WITH_PARAM = {"review": True, "rules": False, "join": True}
"""Screens with a parameter: True when it is required, False when optional."""

_BY_PATH = {path: screen for screen, path in SCREENS.items()}
_PARAM = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class Route:
    """A screen and its parameter (a game id, a rules section, a table id)."""

    screen: str
    """Screen name (a key of SCREENS)."""
    param: str | None = None
    """The part after the screen's address, if it takes one."""

    @property
    def path(self) -> str:
        """The address of this screen."""
        base = SCREENS[self.screen]
        return f"{base}/{self.param}" if self.param else base


HOME = Route("home")


def parse(route: str | None) -> Route | None:
    """The screen at an address, or None if the address names no screen."""
    path = (route or "/").split("?", 1)[0].split("#", 1)[0].rstrip("/") or "/"
    if path in _BY_PATH:
        screen = _BY_PATH[path]
        return None if WITH_PARAM.get(screen) else Route(screen)
    base, _, param = path.rpartition("/")
    screen = _BY_PATH.get(base)
    if screen in WITH_PARAM and _PARAM.match(param):
        return Route(screen, param)
    return None


def route_of(screen: str, param: str | None = None) -> Route:
    """The route of a screen.

    Raises:
        KeyError: no such screen.
    """
    if screen not in SCREENS:
        raise KeyError(screen)
    return Route(screen, param if screen in WITH_PARAM else None)
