"""The app-state object: the service, the catalogue, the screen, drafts and messages."""

import re
from collections.abc import Callable
from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.catalogue import CatalogueError, shipped
from companion.errors import RuleError
from companion.game import Action, Game
from companion.legal import Legal
from companion.service import Service
from models.catalogue import Catalogue
from models.commands import AnyCommand

Screen = str
"""home, new, game, table, log, quick, catalogue, rules, review, stats."""


class AppState:
    """One session's UI state; `render()` rebuilds the screen from it."""

    def __init__(self, service: Service, render: Callable[["AppState"], None] | None = None):
        self.service = service
        self.screen: Screen = "home"
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
        self.back: Screen | None = None
        """Where the rules page's Back button returns (set by a help button)."""

    # --- catalogue --------------------------------------------------------------------------

    def _load_catalogue(self) -> Catalogue:
        try:
            return self.service.catalogue()
        except CatalogueError:
            return shipped()  # a damaged user catalogue must not stop the table

    def remember(self, section: str, entry: dict[str, Any]) -> None:
        """Remember card values entered during play; the game goes on if they can't be saved."""
        try:
            self.catalogue = self.service.remember(
                section, {k: v for k, v in entry.items() if v is not None})
        except (ValueError, OSError):
            return

    def remember_card(self, section: str, entry: dict[str, Any]) -> None:
        """Save a card's printed values through the service, then reload the catalogue.

        Raises:
            CatalogueError: impossible values (the message names the card and field).
        """
        self.catalogue = self.service.remember(section, entry)

    def import_catalogue(self, doc: Any) -> Catalogue:
        """Merge a shared catalogue document into the user's catalogue.

        Raises:
            CatalogueError: malformed document; nothing is saved.
        """
        self.catalogue = self.service.import_catalogue(doc)
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

    def go(self, screen: Screen) -> None:
        """Show another screen."""
        self.screen = screen
        self.error = None
        self.render()

    def play(self, command: AnyCommand | dict) -> Action | None:
        """Play a command through the service; a refusal is shown inline, nothing changes."""
        try:
            action = self.service.play(command)
        except RuleError as err:
            self.error = f"Not allowed: {err.reason} ({err.rule})"
            self.render()
            return None
        except (ValidationError, ValueError) as err:
            self.error = f"Not accepted: {_first_error(err)}"
            self.render()
            return None
        from views.describe import notable
        self.error = None
        effect = self.drafts.get("effect")  # the by-hand form stays open for the next effect
        self.drafts.clear()
        if effect:
            self.drafts["effect"] = effect
        self.notice = notable(self.game.state, action)
        if self.screen not in ("game", "table"):
            self.screen = "game"
        self.render()
        return action

    def undo(self) -> None:
        """Take back the last action."""
        try:
            self.service.undo()
        except IndexError:
            self.error = "Nothing to undo: this is the start of the game."
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
        else:
            self.error, self.notice = None, []
        self.render()

    def open_game(self, game_id: str) -> None:
        """Resume (or view) a stored game."""
        try:
            self.service.open_game(game_id)
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            self.error = f"This game could not be opened: {err}"
            self.render()
            return
        self.error, self.notice = None, []
        self.drafts.clear()
        self.go("game")

    def open_review(self, game_id: str) -> None:
        """Open a stored game for review without making it the table's game."""
        try:
            self.review = self.service.load_game(game_id)
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            self.error = f"This game could not be opened: {err}"
            self.render()
            return
        self.review_at = len(self.review.actions)
        self.drafts.pop("review", None)
        self.go("review")

    def fail(self, message: str) -> None:
        """Show a problem with the user's input."""
        self.error = message
        self.render()

    def render(self) -> None:
        """Rebuild the view tree for the current state."""
        self.renders += 1
        if self._render is not None:
            self._render(self)


def _first_error(err: Exception) -> str:
    if isinstance(err, ValidationError):
        e = err.errors()[0]
        where = ".".join(str(x) for x in e["loc"] if not isinstance(x, int))
        return f"{where}: {e['msg']}" if where else e["msg"]
    return str(err)
