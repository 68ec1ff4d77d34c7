"""The app-state object of one device (one Flet session): its table and role, the catalogue,
the screen, drafts and messages.

Table mode: every device is a view of a `companion.table.table.Table`. A *host* device
(the desktop window, or a browser that proved the server's host key) sees the home screen,
the history and the wizard, and is the referee of the tables it opens; any other device sees
only the join screen until it holds a role at a table (a player's seat, the board, or the
referee by code). Every action is sent through the table with the device token and the table
version the screen was drawn from (`self.version`); who may do what is `companion.table.access`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import flet as ft
from pydantic import ValidationError

from companion.library.library import Library
from companion.library.session import GameSession, UnsavedActions
from companion.rules.catalogue import CatalogueError, shipped
from companion.rules.errors import AccessError, RuleError, StaleVersion, TableError, brief
from companion.storage import StorageError, describe_os_error
from companion.table.hub import RateLimited, TableHub, TableNotFound, new_device_token
from models.table import Referee
from views.routes import HOME, Route, parse, route_of

if TYPE_CHECKING:  # the game's side, imported when a table opens
    from companion.rules.game import Action, Game
    from companion.rules.legal import Legal
    from companion.table.access import TableView
    from companion.table.table import Table
    from models.catalogue import Catalogue
    from models.commands import AnyCommand
    from models.setup import GameSetup, Position
    from models.table import Role

Screen = str
"""A key of views.routes.SCREENS: home, new, game, table, log, quick, catalogue, rules…"""

MAX_HISTORY = 12
"""Screens remembered for Back."""

HOST_ONLY = {"home", "new", "review", "stats", "quick", "data", "catalogue"}
"""Screens only a host device may open (the stored games and the user's data)."""
REFEREE_ONLY = {"table", "log"}
"""Screens of the open table only its referee sees (they carry the referee's buttons)."""
SAVE_ERRORS = (StorageError, OSError, UnsavedActions)
"""What the disk or the data folder can answer instead of saving."""


def save_problem(err: Exception) -> str:
    """A readable line for a failed save."""
    return describe_os_error(err) if isinstance(err, OSError) else brief(err)

WITHIN_TURN = {"drain", "use_relic", "peek", "apply_effect"}
"""Actions taken in the middle of a turn or step: the choices drafted so far are kept."""

WIDE = 1000
"""From this width (px) the game screen shows the board beside the form."""


class Question:
    """A costly tap waiting for its confirmation (Diablerie, a Relic)."""

    def __init__(self, title: str, text: str, yes: str, on_yes: Callable[[], None]):
        self.title, self.text, self.yes, self.on_yes = title, text, yes, on_yes


SEEN_AFTER = 0.5
"""Seconds a screen pushed by another device's change must have been shown before a tap on it
counts (a tap sooner was aimed at the screen before: about a human reaction time)."""


class AppState:
    """One session's UI state; `render()` rebuilds the screen from it."""

    def __init__(self, source: TableHub | Library | GameSession | None,
                 render: Callable[[AppState], None] | None = None,
                 problem: Any = None, folder: Any = None, *,
                 device: str | None = None, host: bool = True, client: str | None = None):
        self.hub: TableHub | None = source if isinstance(source, TableHub | None) else \
            TableHub(source.store, library=source if isinstance(source, Library) else None)
        """Every table of this server (None only with a problem)."""
        self._library = self.hub.library if self.hub is not None else None
        self.problem = problem
        """Why the data folder could not be opened (views.app.FolderProblem), or None: while
        set, every address shows the problem screen."""
        self.folder = folder
        """The process's data folder (views.app.DataFolder) to try again, or None."""
        self.read_only_reason: str | None = None
        """Why this session only reviews games (who holds the data folder)."""
        self.device = device or new_device_token()
        """This device's token (kept in the browser's local storage)."""
        self.host = host
        """Whether this device may see the stored games and open tables (the host)."""
        self.client = client
        """The client's network address (for the wrong-code rate limit)."""
        self.table: Table | None = None
        """The table this device is at (or is joining)."""
        self.view: TableView | None = None
        """What this device's role may see of the table, as drawn last."""
        self.version = 0
        """The table version the screen was drawn from (see `drawn_version`)."""
        self._pushed: tuple[float, int] | None = None
        """When another device's change was last pushed here, and the version shown before."""
        self.seen_after = SEEN_AFTER
        """See `drawn_version` (view tests, which tap at once, set 0)."""
        self.drawn_actions = 0
        """How many actions the game had when the screen was drawn."""
        self.drawn_game: tuple[int, bool] = (0, False)
        """Actions and whether one can be redone, as drawn (an undo or a redo changes it)."""
        self.online = True
        """Whether the device is connected (the connection indicator)."""
        self.cue = False
        """The seat's turn just came: show it loudly (and buzz where the device can)."""
        self.base_urls: list[str] = []
        """The server's addresses on the network (the host screen's join addresses)."""
        self.on_table: Callable[[Table | None], None] | None = None
        """Set by the page: follows the table's changes (live sync) and remembers it."""
        self.later: Callable[[Callable[[], None]], None] | None = None
        """Set by the page: runs a change of the screen in the page's own loop and sends the
        page (from any thread; e.g. figures counted in the background). None: wait instead."""
        self.route: Route = HOME
        """The screen shown and its parameter."""
        self.history: list[Route] = [HOME]
        """Screens visited, oldest first; the last is the one shown (Back pops it)."""
        self.on_navigate: Callable[[AppState], None] | None = None
        """Set by the page: keeps the browser's address and Flet's view stack in step."""
        self.error: str | None = None
        self.notice: list[str] = []
        """Lines describing what the last action did (rewards, Frenzy…); shown until the
        screen is drawn again for another reason (the next pick: it has been read)."""
        self._notice_shown = False
        self.drafts: dict[str, dict[str, Any]] = {}
        """Unconfirmed form values per form name; cleared when an action is played."""
        self.root = ft.Column(expand=True, spacing=0)
        self._render = render
        self._catalogue: Catalogue | None = None
        self._kept: dict[str, tuple[Any, ft.Control]] = {}
        """Parts of the screen shown, by key, with the inputs they were built from."""
        self._keep: dict[str, tuple[Any, ft.Control]] = {}
        """The same for the screen being built."""
        self.renders = 0
        self.review: Game | None = None
        """A stored game opened for review (never the table's current game)."""
        self.review_at = 0
        """Review: how many of its actions the replayed table shows (0 = the start)."""
        self.size: tuple[float, float] | None = None
        """The page's width and height (px) when the page told them; None: a phone."""
        self.question: Question | None = None
        """A costly tap asking for confirmation (shown as a dialog)."""
        self.on_ask: Callable[[AppState], None] | None = None
        """Set by the page: shows `question` as a dialog, or closes it when it is None."""
        self.file_picker: ft.FilePicker | None = None
        """This session's file picker (views.files), made when first needed."""
        self.on_file_chosen: Callable[[AppState, Any], Any] | None = None
        """Set by the screen that opens files (an async generator taking the picker's event):
        where a chosen file goes."""

    # --- catalogue --------------------------------------------------------------------------

    def stored_catalogue(self) -> Catalogue:
        """The catalogue as stored now (after a restore or an import)."""
        return self._load_catalogue()

    @property
    def library(self) -> Library:
        """The data folder's library: the catalogue, the history, reviews, files (None only
        with a problem)."""
        return self._library  # type: ignore[return-value]

    @property
    def session(self) -> GameSession | None:
        """The session storing the game of the table this device is at (None: no table)."""
        return self.table.session if self.table is not None else None

    @property
    def catalogue(self) -> Catalogue:
        """The card catalogue (shipped facts + the user's entries), read when first needed."""
        if self._catalogue is None:
            self._catalogue = self._load_catalogue()
        return self._catalogue

    @catalogue.setter
    def catalogue(self, value: Catalogue | None) -> None:
        self._catalogue = value

    def _load_catalogue(self) -> Catalogue:
        if self._library is None:
            return shipped()
        try:
            return self._library.catalogue()
        except CatalogueError:
            return shipped()  # a damaged user catalogue must not stop the table

    @property
    def read_only(self) -> bool:
        """Whether games can only be reviewed here (another process owns the data folder)."""
        return self._library is not None and self._library.read_only

    def use(self, library: Library, reason: str | None = None) -> None:
        """Switch to a library (after the data folder could be opened) and go home."""
        self.hub = TableHub(library.store, library=library)
        self._library, self.problem, self.read_only_reason = library, None, reason
        self.catalogue = None  # read again from this library when needed
        self.go("home")

    def remember(self, section: str, entry: dict[str, Any]) -> None:
        """Remember card values entered during play; the game goes on if they can't be saved."""
        try:
            self.catalogue = self.library.remember(
                section, {k: v for k, v in entry.items() if v is not None})
        except (ValueError, *SAVE_ERRORS):
            return

    def remember_card(self, section: str, entry: dict[str, Any]) -> None:
        """Save a card's printed values in the library, then reload the catalogue.

        Raises:
            CatalogueError: impossible values (the message names the card and field), or the
                disk refused to save them.
        """
        try:
            self.catalogue = self.library.remember(section, entry)
        except SAVE_ERRORS as err:
            raise CatalogueError(f"cannot save: {save_problem(err)}") from None

    def import_catalogue(self, doc: Any) -> Catalogue:
        """Merge a shared catalogue document into the user's catalogue.

        Raises:
            CatalogueError: malformed document, or the disk refused it; nothing is saved.
        """
        try:
            self.catalogue = self.library.import_catalogue(doc)
        except SAVE_ERRORS as err:
            raise CatalogueError(f"cannot save: {save_problem(err)}") from None
        return self.catalogue

    @staticmethod
    def new_id(prefix: str, name: str) -> str:
        """A catalogue id for a card the user typed in."""
        slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").upper()[:18] or "CARD"
        return f"{prefix}-{slug}"

    # --- game ---------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The open game (the table's)."""
        assert self.table is not None, "no game is open"
        return self.table.game

    @property
    def role(self) -> Role | None:
        """This device's role at its table, if any."""
        if self.table is None or self.table.closed:
            return None
        return self.table.role_of(self.device)

    @property
    def is_referee(self) -> bool:
        """Whether this device referees its table."""
        return isinstance(self.role, Referee)

    def legal(self) -> Legal:
        """What is legal now in the open game."""
        return self.game.legal()

    def draft(self, name: str) -> dict[str, Any]:
        """The draft values of a form (created empty)."""
        return self.drafts.setdefault(name, {})

    @property
    def screen(self) -> Screen:
        """The screen shown."""
        return self.route.screen

    def go(self, screen: Screen, param: str | None = None) -> None:
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
        return self.host or before not in HOST_ONLY

    def open_address(self, address: str) -> None:
        """Show the screen at an address typed, linked or reached by the browser's Back."""
        route = parse(address)
        if route is not None and route.screen == "join" and "?" in address:
            self._join_link(route, address)
            return
        if route is None:
            self.navigate(self.landing())
            self.error = f"There is no page at {address!r}; here is " + (
                "Home." if self.host else "where you are at this table.")
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
        if route.screen in HOST_ONLY and not self.host:
            if self.role is not None or route == HOME:
                return ""
            return "Only the host's device opens this page: join a table here."
        if route.screen in ("game", "table", "log", "host"):
            if self.table is None or self.role is None:
                return ("No game is open at this table: start or resume one." if self.host
                        else "Join the table first: pick a role.")
            if route.screen in REFEREE_ONLY and not self.is_referee:
                return ""
            if route.screen == "host" and not (self.host or self.is_referee):
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
            self.review = self.library.load_game(game_id)
        except KeyError:
            return f"There is no stored game {game_id!r}."
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return f"This game could not be opened: {err}"
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
                return f"There is no rules section {section_id!r}."
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
            return f"There is no table {table_id!r} on this server: check the address."
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return f"Table {table_id} could not be opened: {err}"
        self.set_table(table)
        return None

    def set_table(self, table: Table | None) -> None:
        """Make `table` this device's table (the page follows its changes)."""
        if table is self.table:
            return
        self.table, self.view = table, None
        self.drafts.clear()
        self.notice = []
        if self.on_table is not None:
            self.on_table(table)

    def resume(self, table_id: str | None) -> bool:
        """Back at a table this device holds a role at (after a restart or in a new tab)."""
        if not table_id:
            return False
        try:
            table = self.hub.get(table_id)
            if table.role_of(self.device) is None:
                return False
        except (TableError, OSError, ValueError):
            return False
        self.set_table(table)
        return True

    def _refuse(self, err: Exception) -> None:
        """Show why a table action was refused; the screen is drawn again from the table."""
        if isinstance(err, StaleVersion):
            self.error = str(err)
        elif isinstance(err, AccessError):
            self.error = f"Not allowed: {err.reason}"
        elif isinstance(err, RuleError):
            self.error = f"Not allowed: {err.reason} ({err.rule})"
        elif isinstance(err, TableNotFound):
            self.error = f"{err}: join again."
        elif isinstance(err, SAVE_ERRORS):
            self.error = f"Not saved, nothing changed: {save_problem(err)}"
        elif isinstance(err, ValidationError | ValueError):
            self.error = f"Not accepted: {brief(err)}"
        else:
            self.error = f"Not accepted: {err}"
        self.render()

    def table_call(self, action: Callable[..., Any], *args: Any) -> bool:
        """Run a table action with this device and the drawn version; a refusal is shown.
        When the inputs it completes played an action, say what it did."""
        drawn = self.drawn_actions  # (a redraw pushed during the call may move it on)
        try:
            action(self.device, *args, self.drawn_version())
        except (TableError, RuleError, ValidationError, ValueError, *SAVE_ERRORS) as err:
            self._refuse(err)
            return False
        self.error, self.cue = None, False
        actions = self.game.actions
        if len(actions) != drawn:
            from companion.story.review import told
            self.say(told(self.game) if actions else [])
            self.drafts.clear()
        self.render()
        return True

    def play(self, command: AnyCommand | dict) -> Action | None:
        """Play a command at the table; a refusal is shown inline, nothing changes."""
        if self.table is None:
            self.fail("No game is open at this table.")
            return None
        try:
            action = self.table.act(self.device, command, self.drawn_version())
        except (TableError, RuleError, ValidationError, ValueError, *SAVE_ERRORS) as err:
            self._refuse(err)
            return None
        from companion.story.review import told
        self.error = None
        self.cue = False
        if action.command.type not in WITHIN_TURN:
            effect = self.drafts.get("effect")  # the by-hand form stays open
            self.drafts.clear()
            if effect:
                self.drafts["effect"] = effect
        self.say(told(self.game))
        if self.game.state.phase == "game_over":
            from companion.library.backups import AutoBackups

            AutoBackups.of(self.library).write_in_background()  # a game ended: keep a copy
        if self.screen not in ("game", "table"):
            self.go("game")
        else:
            self.render()
        return action

    def undo(self) -> None:
        """Take back the last action (the referee)."""
        self._undo_redo("undo", "Nothing to undo: this is the start of the game.")

    def redo(self) -> None:
        """Play again the last action taken back (the referee)."""
        self._undo_redo("redo", "Nothing to redo.")

    def _undo_redo(self, which: str, nothing: str) -> None:
        if self.table is None:
            return
        try:
            getattr(self.table, which)(self.device, self.drawn_version())
        except IndexError:
            self.error = nothing
        except (TableError, *SAVE_ERRORS) as err:
            self._refuse(err)
            return
        else:
            self.error, self.notice = None, []
            if which == "undo":
                self.drafts.clear()
        self.render()

    def retry_save(self) -> None:
        """Try again to write the actions the disk refused."""
        session = self.session
        if session is None:
            return
        try:
            session.retry_save()
        except SAVE_ERRORS as err:
            session.save_error = save_problem(err)
        self.render()

    def open_game(self, game_id: str) -> None:
        """Host: open a stored game at a table (joining the table already playing it) as its
        referee. Never changes another device's table."""
        if self.read_only:
            why = self.read_only_reason or "another app is using this data folder"
            self.fail(f"Review only here: {why}.")
            return
        if not self.host or self.hub is None:
            self.fail("Only the host's device opens stored games.")
            return
        try:
            table = self.hub.open_table(game_id)
            table.claim_referee(self.device, self.hub.host_key, self.client)
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            self.error = f"This game could not be opened: {err}"
            self.render()
            return
        self.set_table(table)
        self.error, self.notice = None, []
        self.drafts.clear()
        self.go("game")

    def new_game(self, start: GameSetup | Position) -> bool:
        """Host: create a game at a new table, as its referee."""
        try:
            assert self.hub is not None
            table = self.hub.new_table(start)
            table.claim_referee(self.device, self.hub.host_key, self.client)
        except (TableError, RuleError, ValueError, *SAVE_ERRORS) as err:
            why = save_problem(err) if isinstance(err, SAVE_ERRORS) else err
            self.fail(f"The game could not be created: {why}")
            return False
        self.set_table(table)
        return True

    def join(self, role: str, code: str | None = None, player: int | None = None) -> bool:
        """Take a role at the table being joined: 'seat' (with `player`), 'board', 'referee'.
        A refusal (wrong code, too many tries, seat taken) is shown; nothing changes."""
        table = self.table
        if table is None:
            self.fail("Open the table's address first (scan the code on the host's screen).")
            return False
        try:
            if role == "seat":
                if player is None:
                    raise TableError("choose which player you are")
                table.claim_seat(self.device, player, code or "", self.client)
            elif role == "board":
                table.join_board(self.device, code, self.client)
            else:
                key = self.hub.host_key if self.host and not code else code or ""
                table.claim_referee(self.device, key, self.client)
        except RateLimited as err:
            self.fail(f"Refused: {err}.")
            return False
        except (TableError, OSError) as err:
            self.fail(f"Refused: {err}.")
            return False
        self.error, self.notice = None, []
        self.drafts.clear()
        if self.on_table is not None:
            self.on_table(table)  # remember it (the page keeps the table id)
        self.go("game")
        return True

    def leave(self) -> None:
        """Give up this device's role at its table (a seat becomes free)."""
        if self.table is not None:
            self.table.leave(self.device)
            self.go("join", self.table.table_id)

    def open_review(self, game_id: str) -> None:
        """Open a stored game for review without making it the table's game."""
        self.review = None  # always read it afresh from the store
        self.go("review", game_id)

    def ask(self, title: str, text: str, yes: str, on_yes: Callable[[], None]) -> None:
        """Ask before a costly tap; `on_yes` runs only once it is confirmed."""
        self.question = Question(title, text, yes, on_yes)
        if self.on_ask is not None:
            self.on_ask(self)

    def answer(self, yes: bool) -> None:
        """Confirm (or cancel) the question asked."""
        question, self.question = self.question, None
        if self.on_ask is not None:
            self.on_ask(self)
        if question is not None and yes:
            question.on_yes()
        else:
            self.render()
        # The dialog's button left the page when the dialog closed: Flet's automatic update
        # after the tap would not reach the screen, so the page is sent now.
        if self.on_navigate is not None:
            self.on_navigate(self)

    def layout(self) -> str:
        """'wide' (tablet, desktop), 'landscape' (a phone on its side) or 'phone'."""
        if self.size is None:
            return "phone"
        width, height = self.size
        if width >= WIDE:
            return "wide"
        return "landscape" if width > height and height < 560 else "phone"

    def resize(self, width: float | None, height: float | None) -> None:
        """The page changed size: draw the layout that fits."""
        if not width or not height or (width, height) == self.size:
            return
        before = self.layout()
        self.size = (width, height)
        if self.layout() != before:
            self.render()

    def fail(self, message: str) -> None:
        """Show a problem with the user's input."""
        self.error = message
        self.render()

    def pushed(self, before: int, played: bool) -> None:
        """Another device's change was just drawn here over the screen at version `before`;
        `played`: it changed the game (an action, an undo or a redo), not only who sits where
        or who has chosen."""
        if played:
            self._pushed = (time.monotonic(), before)

    def drawn_version(self) -> int:
        """The version sent with this device's action: the screen it was drawn from.

        A screen pushed by another device's game change reaches the phone a moment after it
        was drawn here; a tap within `seen_after` seconds of it was aimed at the screen before,
        so it counts as drawn from that one (two "Next step" taps at once apply once). Seats
        taken and secret choices entered elsewhere do not hold taps back.
        """
        if self._pushed is not None and time.monotonic() - self._pushed[0] < self.seen_after:
            return self._pushed[1]
        return self.version

    def draw_table(self) -> None:
        """Read what this device may see of its table now, and the version it is at."""
        table = self.table
        if table is None:
            self.view = None
            return
        try:
            role = table.role_of(self.device)
            self.view = table.view_for(role) if role is not None else None
        except TableNotFound:
            self.view = None
            return
        self.version = self.view.version if self.view is not None else table.version
        self.drawn_actions = len(table.game.actions)
        self.drawn_game = (self.drawn_actions, table.game.can_redo())

    def forget_kept(self) -> None:
        """Build every part of the next screen anew (after a reconnect, or a change of role:
        nothing of the screen shown before is reused)."""
        self._kept = {}

    def lost_role(self, role: Role) -> None:
        """This device's role was taken away by another device (the referee freed the seat, or
        the table closed): say so on the join screen, never fall back there silently."""
        from companion.table.access import role_label

        assert self.table is not None
        what = role_label(role, self.table.game.state)
        self.drafts.clear()
        self.notice = []
        self.forget_kept()
        self.navigate(Route("join", self.table.table_id))
        self.error = (f"This device no longer holds {what}: the referee freed it. To take it "
                      "back, ask the referee for the seat's new code.")
        self.render()

    def say(self, lines: list[str]) -> None:
        """What the last action did, shown beside the main button until the next tap."""
        self.notice, self._notice_shown = lines, False

    def memo(self, key: str, inputs: object, build: Callable[[], ft.Control]) -> ft.Control:
        """A part of the screen: the very control shown now under `key` when it was built from
        equal `inputs`, else `build()`. Flet's diff skips a control kept this way (a control it
        has reconciled is frozen: never changed, only replaced), so a render costs only what
        changed. `inputs` must hold everything the part shows and every value its handlers use
        besides the app itself (a kept control keeps its old handlers); never change a kept
        control."""
        kept = self._kept.get(key)
        control = kept[1] if kept is not None and kept[0] == inputs else build()
        self._keep[key] = (inputs, control)
        return control

    def render(self, *, keep_news: bool = False) -> None:
        """Rebuild the view tree for the current state (unchanged parts kept, see `memo`).
        The last tap's news goes at the next render, unless `keep_news` (a redraw pushed by
        another device, which is no tap here)."""
        self.renders += 1
        self.draw_table()
        if self._notice_shown and not keep_news:
            self.notice = []
        self._notice_shown = bool(self.notice)
        if self.screen in HOST_ONLY and not self.host and self.problem is None:
            # A host's screen is never drawn on another device (a browser whose role is not
            # known yet, e.g. its local storage still being read, shows a blank page).
            self.root.controls = []
        elif self._render is not None:
            self._keep = {}
            try:
                self._render(self)
            finally:
                # Only parts of the screen just built may be kept next time: a control that
                # left the page is never put back.
                self._kept, self._keep = self._keep, {}
