"""The app's screens: one table saying, for each, its address, its parameter, who may open it
and the function that draws it. Routing, the access check before a screen opens and the
render all read this table; nothing else lists screens.

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
| `/heritage`, `/heritage/<game_id>` | a new Heritage score pad, or a stored one |
| `/bloodfeud`, `/bloodfeud/<game_id>` | a new Blood Feud session record, or a stored one |
| `/chronicle`, `/chronicle/<game_id>` | a new Heritage chronicle ledger, or a stored one |

The app draws its screens imperatively (`AppState.render` rebuilds the controls from the
state, and Flet sends only what changed); Flet 1.0's `Router` works only inside declarative
`@ft.component` trees, so the routing here is the app's own, kept to this table and `parse`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Who = Literal["anyone", "host", "table", "referee", "host_or_referee"]
"""Who may open a screen: anyone; the host device (stored games, the user's data); a device
holding a role at its table; that table's referee; the host or the referee."""


@dataclass(frozen=True)
class Screen:
    """One screen of the app."""

    name: str
    """Its name (`AppState.go(name)`)."""
    path: str
    """Its address; a screen that takes a parameter adds `/<param>`."""
    draw: str
    """`module:function` drawing it (the module is imported the first time it is shown, so
    starting the app loads only what the first page needs)."""
    who: Who = "anyone"
    """Who may open it."""
    param: Literal["required", "optional"] | None = None
    """Whether it takes a parameter (a game id, a rules section, a table id)."""


SCREENS: dict[str, Screen] = {s.name: s for s in (
    Screen("home", "/", "views.home:home_view", "host"),
    Screen("new", "/new", "views.wizard:wizard_view", "host"),
    Screen("game", "/game", "views.table_screen:table_view", "table"),
    Screen("table", "/game/table", "views.table_screen:table_view", "referee"),
    Screen("log", "/game/log", "views.table_screen:table_view", "referee"),
    Screen("review", "/review", "views.review_page:review_view", "host", "required"),
    Screen("stats", "/stats", "views.stats_page:stats_view", "host"),
    Screen("rules", "/rules", "views.rules_page:rules_view", "anyone", "optional"),
    Screen("catalogue", "/cards", "views.catalogue_page:catalogue_view", "host"),
    Screen("quick", "/quick", "views.quick_score:quick_score_view", "host"),
    Screen("data", "/data", "views.data_page:data_view", "host"),
    Screen("join", "/join", "views.join_page:join_view", "anyone", "required"),
    Screen("host", "/host", "views.host_page:host_view", "host_or_referee"),
    Screen("heritage", "/heritage", "views.heritage_page:heritage_view", "host", "optional"),
    Screen("bloodfeud", "/bloodfeud", "views.bloodfeud_page:bloodfeud_view", "host",
           "optional"),
    Screen("chronicle", "/chronicle", "views.heritage_ledger:ledger_view", "host", "optional"),
)}
"""Every screen with an address, by name."""

PROBLEM = Screen("problem", "", "views.problem:problem_view")
"""Shown at any address while the data folder cannot be used (it has no address)."""

_BY_PATH = {s.path: s.name for s in SCREENS.values()}
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
        base = SCREENS[self.screen].path
        return f"{base}/{self.param}" if self.param else base


HOME = Route("home")


def parse(route: str | None) -> Route | None:
    """The screen at an address, or None if the address names no screen."""
    path = (route or "/").split("?", 1)[0].split("#", 1)[0].rstrip("/") or "/"
    if path in _BY_PATH:
        screen = _BY_PATH[path]
        return None if SCREENS[screen].param == "required" else Route(screen)
    base, _, param = path.rpartition("/")
    screen = _BY_PATH.get(base)
    if screen is not None and SCREENS[screen].param and _PARAM.match(param):
        return Route(screen, param)
    return None


def route_of(screen: str, param: str | None = None) -> Route:
    """The route of a screen.

    Raises:
        KeyError: no such screen.
    """
    return Route(screen, param if SCREENS[screen].param else None)


def drawer(where: str) -> Callable[[Any], list[Any]]:
    """The view function at `module:function` (the module imported on first use): it takes
    the session's `AppState` and returns the screen's controls.

    Raises:
        ImportError, AttributeError: no such module or function.
    """
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)
