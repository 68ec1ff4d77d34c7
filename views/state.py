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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.i18n import SOURCE, Translator, translator
from companion.library.library import Library
from companion.library.session import GameSession
from companion.rules.catalogue import CatalogueError, shipped
from companion.story.words import render as put_into_words
from companion.table.hub import TableHub, new_device_token
from models.message import Message
from models.table import Referee
from views.navigation import Navigation
from views.screens import HOME, SCREENS, Route
from views.table_actions import SAVE_ERRORS, TableActions, save_problem

if TYPE_CHECKING:  # the game's side, imported when a table opens
    from companion.rules.game import Game
    from companion.rules.legal import Legal
    from companion.table.access import TableView
    from companion.table.table import Table
    from models.catalogue import Catalogue
    from models.table import Role

WIDE = 1000
"""From this width (px) the game screen shows the board beside the form."""


class Question:
    """A costly tap waiting for its confirmation (Diablerie, a Relic)."""

    def __init__(self, title: str, text: str, yes: str, on_yes: Callable[[], None]):
        self.title, self.text, self.yes, self.on_yes = title, text, yes, on_yes


SEEN_AFTER = 0.5
"""Seconds a screen pushed by another device's change must have been shown before a tap on it
counts (a tap sooner was aimed at the screen before: about a human reaction time)."""


class AppState(Navigation, TableActions):
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
        self.pad: GameSession | None = None
        """The session of the score pad shown (Heritage, Blood Feud: games the app keeps
        score of, not at a table), on the data folder's store; made when a pad first opens."""
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
        self.lang = SOURCE
        """This device's language (`companion.i18n.LANGUAGES`): its saved choice, else its
        browser's or system's, else English (`views.live`)."""
        self.on_language: Callable[[str], None] | None = None
        """Set by the page: keeps the device's choice of language and tells Flutter (its own
        texts: date picker, OK/Cancel)."""

    # --- language ---------------------------------------------------------------------------

    @property
    def t(self) -> Translator:
        """This device's translator (one per language, shared by the devices speaking it)."""
        return translator(self.lang)

    def words(self, message: Message | str) -> str:
        """A message in this device's language, players named as at its table (a text is
        returned as it is)."""
        if isinstance(message, str):
            return message
        table = self.table
        names = [p.name for p in table.game.state.players] if table is not None else []
        return put_into_words(message, names, self.t)

    def _(self, text: str, /, **args: Any) -> str:
        """A screen's text in this device's language, its `{fields}` filled from `args`
        (numbers written the language's way). The text is a literal English string (it is the
        catalogue's msgid: `python tools/i18n.py extract` finds `app._("…")`)."""
        return self.words(Message(key=text, args=args))

    def n_(self, singular: str, plural: str, n: int, /, **args: Any) -> str:
        """As `_`, choosing the form for the count `n` ("1 game", "2 games"; Polish has
        three forms), available as `{n}`."""
        return self.words(Message(key=singular, plural=plural, args={"n": n, **args}))

    def undo_news(self) -> str | None:
        """"The referee took back: …" in this device's language while the game stands where
        the last undo or redo left it, else None."""
        table = self.table
        if table is None or self.t.english:
            return table.undo_news() if table is not None else None
        said = table.undo_message()
        if said is None:
            return None
        news = self.words(said)
        return news[:1].upper() + news[1:] + "."

    def set_language(self, lang: str) -> None:
        """Speak another language on this device only: kept on the device, the screen drawn
        anew in it."""
        if lang == self.lang:
            return
        self.lang = lang
        self.forget_kept()  # parts of the screen were built in the other language
        if self.on_language is not None:
            self.on_language(lang)
        self.render()

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
            raise CatalogueError(self._("cannot save: {problem}",
                                          problem=save_problem(err))) from None

    def import_catalogue(self, doc: Any) -> Catalogue:
        """Merge a shared catalogue document into the user's catalogue.

        Raises:
            CatalogueError: malformed document, or the disk refused it; nothing is saved.
        """
        try:
            self.catalogue = self.library.import_catalogue(doc)
        except SAVE_ERRORS as err:
            raise CatalogueError(self._("cannot save: {problem}",
                                          problem=save_problem(err))) from None
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

    def forget_kept(self) -> None:
        """Build every part of the next screen anew (after a reconnect, or a change of role:
        nothing of the screen shown before is reused)."""
        self._kept = {}

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
        if SCREENS[self.screen].who == "host" and not self.host and self.problem is None:
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
