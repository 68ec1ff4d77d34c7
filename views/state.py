"""The app-state object: the service, the catalogue, the screen, drafts and messages."""

import re
from collections.abc import Callable
from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.catalogue import CatalogueError, shipped
from companion.errors import RuleError, brief
from companion.game import Action, Game
from companion.legal import Legal
from companion.service import Service, UnsavedActions
from companion.storage import StorageError, describe_os_error
from models.catalogue import Catalogue
from models.commands import AnyCommand
from models.setup import GameSetup, Position
from views.routes import HOME, Route, parse, route_of

Screen = str
"""A key of views.routes.SCREENS: home, new, game, table, log, quick, catalogue, rules…"""

MAX_HISTORY = 12
"""Screens remembered for Back."""
SAVE_ERRORS = (StorageError, OSError, UnsavedActions)
"""What the disk or the data folder can answer instead of saving."""


def save_problem(err: Exception) -> str:
    """A readable line for a failed save."""
    return describe_os_error(err) if isinstance(err, OSError) else brief(err)


class AppState:
    """One session's UI state; `render()` rebuilds the screen from it."""

    def __init__(self, service: Service | None,
                 render: Callable[["AppState"], None] | None = None,
                 problem: Any = None, folder: Any = None):
        self.service: Service = service  # type: ignore[assignment] - None only with a problem
        self.problem = problem
        """Why the data folder could not be opened (views.app.FolderProblem), or None: while
        set, every address shows the problem screen."""
        self.folder = folder
        """The process's data folder (views.app.DataFolder) to try again, or None."""
        self.read_only_reason: str | None = None
        """Why this session only reviews games (who holds the data folder)."""
        self.route: Route = HOME
        """The screen shown and its parameter."""
        self.history: list[Route] = [HOME]
        """Screens visited, oldest first; the last is the one shown (Back pops it)."""
        self.on_navigate: Callable[[AppState], None] | None = None
        """Set by the page: keeps the browser's address and Flet's view stack in step."""
        self.error: str | None = None
        self.notice: list[str] = []
        """Lines describing what the last action did (rewards, Frenzy…)."""
        self.drafts: dict[str, dict[str, Any]] = {}
        """Unconfirmed form values per form name; cleared when an action is played."""
        self.root = ft.Column(expand=True, spacing=0)
        self._render = render
        self.catalogue = self._load_catalogue()
        self.renders = 0
        self.review: Game | None = None
        """A stored game opened for review (never the table's current game)."""
        self.review_at = 0
        """Review: how many of its actions the replayed table shows (0 = the start)."""
        self.file_picker: ft.FilePicker | None = None
        """This session's file picker (views.data_page), made when first needed."""

    # --- catalogue --------------------------------------------------------------------------

    def service_catalogue(self) -> Catalogue:
        """The catalogue as stored now (after a restore or an import)."""
        return self._load_catalogue()

    def _load_catalogue(self) -> Catalogue:
        if self.service is None:
            return shipped()
        try:
            return self.service.catalogue()
        except CatalogueError:
            return shipped()  # a damaged user catalogue must not stop the table

    @property
    def read_only(self) -> bool:
        """Whether games can only be reviewed here (another process owns the data folder)."""
        return self.service is not None and self.service.read_only

    def use(self, service: Service, reason: str | None = None) -> None:
        """Switch to a service (after the data folder could be opened) and go home."""
        self.service, self.problem, self.read_only_reason = service, None, reason
        self.catalogue = self._load_catalogue()
        self.go("home")

    def remember(self, section: str, entry: dict[str, Any]) -> None:
        """Remember card values entered during play; the game goes on if they can't be saved."""
        try:
            self.catalogue = self.service.remember(
                section, {k: v for k, v in entry.items() if v is not None})
        except (ValueError, *SAVE_ERRORS):
            return

    def remember_card(self, section: str, entry: dict[str, Any]) -> None:
        """Save a card's printed values through the service, then reload the catalogue.

        Raises:
            CatalogueError: impossible values (the message names the card and field), or the
                disk refused to save them.
        """
        try:
            self.catalogue = self.service.remember(section, entry)
        except SAVE_ERRORS as err:
            raise CatalogueError(f"cannot save: {save_problem(err)}") from None

    def import_catalogue(self, doc: Any) -> Catalogue:
        """Merge a shared catalogue document into the user's catalogue.

        Raises:
            CatalogueError: malformed document, or the disk refused it; nothing is saved.
        """
        try:
            self.catalogue = self.service.import_catalogue(doc)
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
        """The open game."""
        assert self.service.game is not None, "no game is open"
        return self.service.game

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
        """Whether Back has a screen to return to."""
        return len(self.history) > 1

    def open_address(self, address: str) -> None:
        """Show the screen at an address typed, linked or reached by the browser's Back."""
        route = parse(address)
        if route is None:
            self.navigate(HOME)
            self.error = f"There is no page at {address!r}; here is Home."
            self.render()
        elif route != self.route:
            self.navigate(route)

    def navigate(self, route: Route) -> None:
        """Enter a screen, keeping the history; a screen that cannot open now shows Home."""
        problem = self._enter(route)
        if problem:
            route = HOME
        history = self.history
        if len(history) > 1 and route == history[-2]:
            history.pop()
        elif route in history:
            del history[history.index(route) + 1:]
        else:
            history.append(route)
            del history[:-MAX_HISTORY]
        self.route = route
        self.error = problem
        self.render()
        if self.on_navigate is not None:
            self.on_navigate(self)

    def _enter(self, route: Route) -> str | None:
        """Prepare what a screen needs; say why it cannot open, or None."""
        if self.service is None:
            return None  # the data folder is not open: the problem screen shows instead
        if route.screen in ("game", "table", "log") and self.service.game is None:
            return "No game is open at this table: start or resume one."
        if route.screen == "review":
            return self._load_review(route.param or "")
        if route.screen == "rules":
            return self._open_section(route.param)
        return None

    def _load_review(self, game_id: str) -> str | None:
        if self.review is not None and self.review.header.game_id == game_id:
            return None
        try:
            self.review = self.service.load_game(game_id)
        except KeyError:
            return f"There is no stored game {game_id!r}."
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return f"This game could not be opened: {err}"
        self.review_at = len(self.review.actions)
        self.drafts.pop("review", None)
        return None

    def _open_section(self, section_id: str | None) -> str | None:
        from companion.rules_reference import section

        d = self.draft("rules")
        if section_id is not None:
            try:
                section(section_id)
            except KeyError:
                d["open"] = None
                return f"There is no rules section {section_id!r}."
        d["open"] = section_id
        return None

    def play(self, command: AnyCommand | dict) -> Action | None:
        """Play a command through the service; a refusal is shown inline, nothing changes."""
        try:
            action = self.service.play(command)
        except RuleError as err:
            self.error = f"Not allowed: {err.reason} ({err.rule})"
            self.render()
            return None
        except (ValidationError, ValueError) as err:
            self.error = f"Not accepted: {brief(err)}"
            self.render()
            return None
        except SAVE_ERRORS as err:
            self.error = f"Not saved, nothing changed: {save_problem(err)}"
            self.render()
            return None
        from views.describe import notable
        self.error = None
        effect = self.drafts.get("effect")  # the by-hand form stays open for the next effect
        self.drafts.clear()
        if effect:
            self.drafts["effect"] = effect
        self.notice = notable(self.game.state, action)
        if self.game.state.phase == "game_over":
            from companion.backups import AutoBackups

            AutoBackups.of(self.service).write_in_background()  # a game ended: keep a copy
        if self.screen not in ("game", "table"):
            self.go("game")
        else:
            self.render()
        return action

    def undo(self) -> None:
        """Take back the last action."""
        try:
            self.service.undo()
        except IndexError:
            self.error = "Nothing to undo: this is the start of the game."
        except SAVE_ERRORS as err:
            self.error = f"Not saved, nothing changed: {save_problem(err)}"
        else:
            self.error, self.notice = None, []
            self.drafts.clear()
        self.render()

    def redo(self) -> None:
        """Play again the last action taken back."""
        try:
            self.service.redo()
        except IndexError:
            self.error = "Nothing to redo."
        except SAVE_ERRORS as err:
            self.error = f"Not saved, nothing changed: {save_problem(err)}"
        else:
            self.error, self.notice = None, []
        self.render()

    def retry_save(self) -> None:
        """Try again to write the actions the disk refused."""
        try:
            self.service.retry_save()
        except SAVE_ERRORS as err:
            self.service.save_error = save_problem(err)
        self.render()

    def new_game(self, start: GameSetup | Position) -> bool:
        """Create and store a new game, make it the table's and start its clock; False
        (shown) if not saved."""
        self.service.clock_stop()  # the table leaves the game it had open
        try:
            self.service.new_game(start)
        except SAVE_ERRORS as err:
            self.service.clock_start()  # the table stays on the game it had open
            self.fail(f"The game could not be created: {save_problem(err)}")
            return False
        self.service.clock_start()
        return True

    def open_game(self, game_id: str) -> None:
        """Resume (or view) a stored game."""
        if self.read_only:
            self.fail("Review only here: another app is using this data folder.")
            return
        self.service.clock_stop()  # the table leaves the game it had open
        try:
            self.service.open_game(game_id)
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            self.error = f"This game could not be opened: {err}"
            self.service.clock_start()  # the table stays on the game it had open
            self.render()
            return
        self.service.clock_start()
        self.error, self.notice = None, []
        self.drafts.clear()
        self.go("game")

    def open_review(self, game_id: str) -> None:
        """Open a stored game for review without making it the table's game."""
        self.review = None  # always read it afresh from the store
        self.go("review", game_id)

    def fail(self, message: str) -> None:
        """Show a problem with the user's input."""
        self.error = message
        self.render()

    def render(self) -> None:
        """Rebuild the view tree for the current state."""
        self.renders += 1
        if self._render is not None:
            self._render(self)

