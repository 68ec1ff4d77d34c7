"""Moving between screens: the address of each, Back, links, and the check before a screen
opens (who may open it comes from `views.screens.SCREENS`; what it needs is loaded here).

`Navigation` is part of `views.state.AppState` (it works on the session's `route`,
`history`, table and drafts); it holds no state of its own.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from companion.library.kinds import KINDS
from companion.table.hub import TableNotFound
from views.screens import HOME, SCREENS, Route, parse, route_of

MAX_HISTORY = 12
"""Screens remembered for Back."""


class Navigation:
    """The screen shown and the way back (see the module docstring)."""

    @property
    def screen(self) -> str:
        """The screen shown."""
        return self.route.screen

    def go(self, screen: str, param: str | None = None) -> None:
        """Show another screen (its address goes into the history, so Back returns here)."""
        self.navigate(route_of(screen, param))

    def back(self) -> None:
        """Return to the previous screen (Home when there is none)."""
        self.navigate(self.history[-2] if len(self.history) > 1 else HOME)

    def can_go_back(self) -> bool:
        """Whether Back has a screen to return to (one this device may open)."""
        if len(self.history) < 2:
            return False
        before = self.history[-2].screen
        return self.host or SCREENS[before].who != "host"

    def open_address(self, address: str) -> None:
        """Show the screen at an address typed, linked or reached by the browser's Back."""
        route = parse(address)
        if route is not None and route.screen == "join" and "?" in address:
            self._join_link(route, address)
            return
        if route is None:
            self.navigate(self.landing())
            self.error = (self._("There is no page at {address}; here is Home.",
                                 address=repr(address)) if self.host
                          else self._("There is no page at {address}; here is where you are "
                                      "at this table.", address=repr(address)))
            self.render()
        elif route != self.route or self._enter(route) is not None:
            self.navigate(route)

    def _join_link(self, route: Route, address: str) -> None:
        """A seat's join link (`/join/<table>?seat=N&code=...`, the QR the referee shows one
        player): the seat picked and its code filled in, ready for one tap."""
        query = parse_qs(urlsplit(address).query)
        self.navigate(route)
        seat, code = query.get("seat", [""])[0], query.get("code", [""])[0]
        d = self.draft("join")
        if seat.isdigit():
            d["player"] = int(seat)
        if code:
            d["code"] = code[:12]
        self.render()

    def landing(self) -> Route:
        """Where this device belongs when a screen cannot open: Home for the host; the table
        for a device holding a role there; else the join screen."""
        if self.host:
            return HOME
        if self.role is not None:
            return Route("game")
        return Route("join", self.table.table_id if self.table is not None else None)

    def navigate(self, route: Route) -> None:
        """Enter a screen, keeping the history; a screen that cannot open now shows where the
        device belongs (`landing`)."""
        problem = self._enter(route)
        if problem is not None:
            route = self.landing()
            if self._enter(route) is not None:
                route = Route("join")
        history = self.history
        if len(history) > 1 and route == history[-2]:
            history.pop()
        elif route in history:
            del history[history.index(route) + 1:]
        else:
            history.append(route)
            del history[:-MAX_HISTORY]
        self.route = route
        self.error = problem or None
        self.render()
        if self.on_navigate is not None:
            self.on_navigate(self)

    def _enter(self, route: Route) -> str | None:
        """Prepare what a screen needs; say why it cannot open, or None ("" when it cannot
        open but there is nothing to say, e.g. a player's phone sent back to its seat)."""
        if self.hub is None:
            return None  # the data folder is not open: the problem screen shows instead
        who = SCREENS[route.screen].who
        if who == "host" and not self.host:
            if self.role is not None or route == HOME:
                return ""
            return self._("Only the host's device opens this page: join a table here.")
        if who in ("table", "referee", "host_or_referee"):
            if self.table is None or self.role is None:
                return (self._("No game is open at this table: start or resume one.")
                        if self.host else self._("Join the table first: pick a role."))
            if who == "referee" and not self.is_referee:
                return ""
            if who == "host_or_referee" and not (self.host or self.is_referee):
                return ""
        if route.screen == "join":
            return self._open_join(route.param)
        if route.screen == "review":
            return self._load_review(route.param or "")
        if route.screen == "rules":
            return self._open_section(route.param)
        return None

    def _load_review(self, game_id: str) -> str | None:
        if self.review is not None and self.review.header.game_id == game_id:
            return None
        try:
            game = self.library.load_game(game_id)
        except KeyError:
            return self._("There is no stored game {game}.", game=repr(game_id))
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return self._("This game could not be opened: {error}", error=str(err))
        if game.header.game != "vendetta":  # a pad reviews on its own screen
            return self._("This is a game of {title}: open it from Home (its Review button).",
                          title=KINDS[game.header.game].title)
        self.review = game
        self.review_at = len(self.review.actions)
        self.drafts.pop("review", None)
        return None

    def _open_section(self, section_id: str | None) -> str | None:
        from companion.rules.reference import section

        d = self.draft("rules")
        if section_id is not None:
            try:
                section(section_id)
            except KeyError:
                d["open"] = None
                return self._("There is no rules section {section}.",
                              section=repr(section_id))
        d["open"] = section_id
        return None

    def _open_join(self, table_id: str | None) -> str | None:
        """The join screen of a table (or the table-id form without one)."""
        if table_id is None:
            return None
        if self.table is not None and self.table.table_id == table_id and not self.table.closed:
            return None
        try:
            table = self.hub.get(table_id)
        except TableNotFound:
            return self._("There is no table {table} on this server: check the address.",
                          table=repr(table_id))
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return self._("Table {table} could not be opened: {error}", table=table_id,
                          error=str(err))
        self.set_table(table)
        return None

    def open_review(self, game_id: str) -> None:
        """Open a stored game for review without making it the table's game."""
        self.review = None  # always read it afresh from the store
        self.go("review", game_id)
