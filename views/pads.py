"""What the score pads' screens share (Heritage, Blood Feud): the pad's session on the data
folder, saving the pad's document as one undoable action, Undo and Redo, and every refusal
said in plain words naming the field (the pad and the disk stay as they were).

A pad is not played at a table: the host's device keeps it in its own `GameSession`
(`AppState.pad`) on the data folder's store, so each save is journaled before it counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft
from pydantic import ValidationError

from companion.library.session import GameSession
from views.state import AppState
from views.table_actions import SAVE_ERRORS, save_problem
from views.theme import GOLD, MUTED, SMALL, TEXT, button, card, heading, ident, main, text

if TYPE_CHECKING:
    from companion.library.pad import PadGame

SINGULAR = {"players": "player", "teams": "team", "entries": "entry", "bloodline": "vampire",
            "members": "member", "battlegrounds": "battleground", "missions": "mission",
            "proposals": "proposal", "ballots": "ballot", "winners": "winner"}
"""A list field's item, for naming the field of a refusal ("team 2, members")."""
WORDS = {"battleground_vp": "VP", "missions_claimed": "missions claimed", "clan_leader":
         "clan leader", "mission_power": "mission power", "rounds_played": "rounds played",
         "storyteller_pick": "the Storyteller's pick"}
"""Field names said in words; others keep their name."""


def pad_session(app: AppState) -> GameSession:
    """This device's pad session on the data folder's store (made when first needed, and
    anew after the data folder changed)."""
    if app.pad is None or app.pad.store is not app.library.store:
        app.pad = GameSession(app.library.store)
    return app.pad


def open_pad(app: AppState, kind: str, title: str) -> tuple[PadGame | None, str | None]:
    """The pad at the screen's address (opened from the store unless it is open already),
    or why it cannot be shown."""
    game_id = app.route.param or ""
    session = pad_session(app)
    game = session.game
    if game is None or game.header.game_id != game_id:
        try:
            game = session.open_game(game_id)
        except KeyError:
            return None, f"There is no stored game {game_id!r}."
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return None, f"This game could not be opened: {err}"
    if game.header.game != kind:
        return None, f"Game {game_id!r} is not a {title} game: open it from Home."
    return game, None  # type: ignore[return-value]


def problem_view(problem: str) -> list[ft.Control]:
    """What a pad screen shows when its game cannot be opened."""
    return [card(heading("Nothing to show", 19), text(problem, 17, ident_="pad-problem"))]


def field_name(loc: tuple[Any, ...] | list[Any]) -> str:
    """A validation error's place in words: ("teams", 1, "colour") is "team 2, colour"."""
    parts: list[str] = []
    names: list[str] = []
    for item in loc:
        if isinstance(item, int) and names:
            parts[-1] = f"{SINGULAR.get(names[-1], parts[-1])} {item + 1}"
        else:
            names.append(str(item))
            parts.append(WORDS.get(str(item), str(item).replace("_", " ")))
    return ", ".join(parts)


def _problem_words(problem: dict[str, Any]) -> str:
    """One pydantic problem in plain words."""
    ctx = problem.get("ctx") or {}
    kind = problem["type"]
    if kind == "string_too_short":
        return "is empty: type it"
    if kind == "string_too_long":
        return f"is too long (at most {ctx.get('max_length')} characters)"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')}"
    if kind == "too_long":
        return f"takes at most {ctx.get('max_length')}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"must be {ctx.get('ge', ctx.get('gt'))} or more"
    if kind in ("less_than_equal", "less_than"):
        return f"must be {ctx.get('le', ctx.get('lt'))} or less"
    if kind == "literal_error":
        return f"must be {ctx.get('expected')}"
    if kind == "missing":
        return "is missing"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be a whole number"
    return str(problem["msg"]).removeprefix("Value error, ")


def refusal(err: Exception) -> str:
    """Why an entry was refused, in plain words naming the field (and the rule's section)."""
    from companion.heritage.errors import heritage_error_in

    found = heritage_error_in(err)
    if found is not None:
        return str(found)
    if isinstance(err, ValidationError):
        problem = err.errors()[0]
        inner = (problem.get("ctx") or {}).get("error")
        if isinstance(inner, ValueError) and not isinstance(inner, ValidationError):
            return str(inner)  # a rule's own refusal, already in words
        where = field_name(problem["loc"])
        words = _problem_words(problem)
        return f"{where[:1].upper()}{where[1:]}: {words}." if where else f"{words}."
    return str(err)


def whole(value: str | None, what: str, *, least: int | None = 0) -> int:
    """A whole number typed into a field (empty: 0).

    Raises:
        ValueError: not a whole number, or below `least`; the message names the field.
    """
    typed = str(value or "").strip().replace("−", "-")
    if not typed:
        return 0
    try:
        number = int(typed)
    except ValueError:
        raise ValueError(f"{what}: \"{typed}\" is not a whole number.") from None
    if least is not None and number < least:
        raise ValueError(f"{what}: {number} is below {least}; enter {least} or more.")
    return number


def save(app: AppState, doc: dict[str, Any], lines: list[str] | None = None) -> bool:
    """Save the pad's new document as one undoable action; a refusal is shown and nothing
    changes. `lines`: what the save did, shown above the main button. A disk that refuses
    the write leaves the entry on the pad, queued and said so (`unsaved_banner`)."""
    session = pad_session(app)
    try:
        session.play({"type": "record", "doc": doc})
    except SAVE_ERRORS as err:
        app.error = f"Not saved, nothing changed: {save_problem(err)}"
    except ValueError as err:  # PadError, a rule of the game's own
        app.error = f"Not saved: {refusal(err)}"
    else:
        app.error = None
        done = "Entered here, not on disk yet (see above)." if session.unsaved else "Saved."
        said = list(lines or [])
        app.say([f"{done} {said[0]}", *said[1:]] if said else [done])
        app.render()
        return True
    app.render()
    return False


def on_undo_click(app: AppState) -> None:
    """Take back the pad's last save."""
    _undo_redo(app, "undo", "Nothing to undo: this is how the pad was started.")


def on_redo_click(app: AppState) -> None:
    """Save again what Undo took back."""
    _undo_redo(app, "redo", "Nothing to redo.")


def _undo_redo(app: AppState, which: str, nothing: str) -> None:
    try:
        getattr(pad_session(app), which)()
    except IndexError:
        app.error = nothing
    except SAVE_ERRORS as err:
        app.error = f"Not saved, nothing changed: {save_problem(err)}"
    else:
        app.error = None
        app.say([f"{which.capitalize()} done."])
    app.render()


def on_retry_click(app: AppState) -> None:
    """Try again to write the saves the disk refused."""
    session = pad_session(app)
    try:
        session.retry_save()
    except SAVE_ERRORS as err:
        session.save_error = save_problem(err)
    app.render()


def unsaved_banner(app: AppState) -> ft.Control | None:
    """What the disk has not taken yet and why, with Retry (None when all is saved)."""
    session = pad_session(app)
    if not session.unsaved:
        return None
    return ident("pad-unsaved", card(
        ft.Text(f"Not saved yet: {session.save_error or 'the disk refused it'}", size=17,
                color=TEXT, weight=ft.FontWeight.BOLD),
        ft.Text(f"The last {len(session.unsaved)} save(s) are shown here but not on disk. "
                "Keep the app open and tap Retry once the disk has room.", size=SMALL,
                color=TEXT),
        button("Retry saving", lambda e: on_retry_click(app), ident_="pad-retry",
               icon=ft.Icons.SAVE), color="#3a1a12"))


def undo_row(app: AppState, pad: PadGame, *more: ft.Control) -> ft.Control:
    """Undo and Redo of the pad's saves (and the screen's main button), pinned at the
    bottom."""
    row = ft.Row([
        button("Undo", (lambda e: on_undo_click(app)) if pad.actions else None, primary=False,
               expand=True, ident_="pad-undo"),
        button("Redo", (lambda e: on_redo_click(app)) if pad.can_redo() else None,
               primary=False, expand=True, ident_="pad-redo"),
        *more,
    ], spacing=6)
    return main(row)


def number_field(label: str, value: str, on_change: Any, identifier: str,
                 signed: bool = False) -> ft.Control:
    """A short box for a whole number (`signed`: it may be negative, so the phone offers the
    full keyboard with its minus sign)."""
    box = ft.TextField(label=label, value=value, text_size=18, border_color="#6b4a4f",
                       focused_border_color=GOLD, expand=True,
                       content_padding=ft.Padding.symmetric(horizontal=8, vertical=16),
                       keyboard_type=None if signed else ft.KeyboardType.NUMBER,
                       label_style=ft.TextStyle(color=MUTED, size=SMALL))
    box.on_change = lambda e: on_change(box.value or "")
    sem = ident(identifier, box)
    sem.expand = True
    return sem


def wide(control: ft.Control) -> ft.Row:
    """A control across the whole width of a card (a card lays its lines out at their own
    width)."""
    control.expand = True
    return ft.Row([control])
