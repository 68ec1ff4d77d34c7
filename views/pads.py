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
from models.message import N_
from views.state import AppState
from views.table_actions import SAVE_ERRORS, save_problem
from views.theme import GOLD, MUTED, SMALL, TEXT, button, card, heading, ident, main, text

if TYPE_CHECKING:
    from companion.library.pad import PadGame

SINGULAR = {"players": N_("player {n}"), "teams": N_("team {n}"), "entries": N_("entry {n}"),
            "bloodline": N_("vampire {n}"), "members": N_("member {n}"),
            "battlegrounds": N_("battleground {n}"), "missions": N_("mission {n}"),
            "proposals": N_("proposal {n}"), "ballots": N_("ballot {n}"),
            "winners": N_("winner {n}"), "revotes": N_("revotes {n}"),
            "seats": N_("seat {n}"), "chapters": N_("chapter {n}")}
"""A list field's item, for naming the field of a refusal ("team 2, members")."""
WORDS = {
    "battleground_vp": N_("VP"), "missions_claimed": N_("missions claimed"),
    "clan_leader": N_("clan leader"), "mission_power": N_("mission power"),
    "rounds_played": N_("rounds played"), "storyteller_pick": N_("the Storyteller's pick"),
    "setup": N_("setup"), "players": N_("players"), "name": N_("name"), "clan": N_("clan"),
    "chronicle": N_("chronicle"), "battlegrounds": N_("battlegrounds"),
    "missions": N_("missions"), "entries": N_("entries"), "player": N_("player"),
    "bloodline": N_("bloodline"), "power": N_("power"), "boons": N_("boons"),
    "infamy": N_("infamy"), "torpor": N_("torpor"), "primogen_draw": N_("primogen draw"),
    "declared": N_("declared"), "drawn": N_("drawn"), "storyteller": N_("storyteller"),
    "teams": N_("teams"), "colour": N_("colour"), "faction": N_("faction"),
    "members": N_("members"), "council": N_("council"), "round": N_("round"),
    "powers": N_("powers"), "proposals": N_("proposals"), "event": N_("event"),
    "team": N_("team"), "ballots": N_("ballots"), "revotes": N_("revotes"),
    "gameplay_ended": N_("gameplay ended"), "result": N_("result"), "winners": N_("winners"),
    "note": N_("note"), "format": N_("format"), "version": N_("version"),
    "seats": N_("seats"), "vp": N_("VP"), "haven": N_("haven"), "titles": N_("titles"),
    "era_points": N_("era points"), "youngest_to_oldest": N_("players"),
}
"""The pads' field names said in words (others, e.g. a battleground's name, as they are)."""


def pad_session(app: AppState) -> GameSession:
    """This device's pad session on the data folder's store (made when first needed, and
    anew after the data folder changed)."""
    if app.pad is None or app.pad.store is not app.library.store:
        app.pad = GameSession(app.library.store)
    return app.pad


def open_pad(app: AppState, kind: str, title: str) -> tuple[PadGame | None, str | None]:
    """The pad at the screen's address (opened from the store unless it is open already),
    or why it cannot be shown (in the device's language; `title`: the game's name as
    shown)."""
    game_id = app.route.param or ""
    session = pad_session(app)
    game = session.game
    if game is None or game.header.game_id != game_id:
        try:
            game = session.open_game(game_id)
        except KeyError:
            return None, app._("There is no stored game {game}.", game=repr(game_id))
        except Exception as err:  # noqa: BLE001 - any load failure is shown, not raised
            return None, app._("This game could not be opened: {problem}", problem=str(err))
    if game.header.game != kind:
        return None, app._("Game {game} is not a {title} game: open it from Home.",
                           game=repr(game_id), title=title)
    return game, None  # type: ignore[return-value]


def problem_view(app: AppState, problem: str) -> list[ft.Control]:
    """What a pad screen shows when its game cannot be opened."""
    return [card(heading(app._("Nothing to show"), 19),
                 text(problem, 17, ident_="pad-problem"))]


def field_name(app: AppState, loc: tuple[Any, ...] | list[Any]) -> str:
    """A validation error's place in words: ("teams", 1, "colour") is "team 2, colour"."""
    parts: list[str] = []
    names: list[str] = []
    for item in loc:
        if isinstance(item, int) and names:
            one = SINGULAR.get(names[-1])
            parts[-1] = app._(one, n=item + 1) if one else f"{parts[-1]} {item + 1}"
        else:
            names.append(str(item))
            word = WORDS.get(str(item))
            parts.append(app._(word) if word else str(item).replace("_", " "))
    return ", ".join(parts)


def _problem_words(app: AppState, problem: dict[str, Any]) -> str:
    """One pydantic problem in plain words."""
    ctx = problem.get("ctx") or {}
    kind = problem["type"]
    if kind == "string_too_short":
        return app._("is empty: type it")
    if kind == "string_too_long":
        most = ctx.get("max_length")
        return app.n_("is too long (at most {n} character)",
                      "is too long (at most {n} characters)", most) \
            if isinstance(most, int) else app._("is too long")
    if kind == "too_short":
        return app._("needs at least {n}", n=ctx.get("min_length"))
    if kind == "too_long":
        return app._("takes at most {n}", n=ctx.get("max_length"))
    if kind in ("greater_than_equal", "greater_than"):
        return app._("must be {n} or more", n=ctx.get("ge", ctx.get("gt")))
    if kind in ("less_than_equal", "less_than"):
        return app._("must be {n} or less", n=ctx.get("le", ctx.get("lt")))
    if kind == "literal_error":
        return app._("must be {expected}", expected=ctx.get("expected"))
    if kind == "missing":
        return app._("is missing")
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return app._("must be a whole number")
    return str(problem["msg"]).removeprefix("Value error, ")


def refusal(app: AppState, err: Exception) -> str:
    """Why an entry was refused, in plain words naming the field (and the rule's section).
    The rules' own refusals (Heritage's, Blood Feud's) are said as those packages word them."""
    from companion.heritage.errors import heritage_error_in

    found = heritage_error_in(err)
    if found is not None:
        return str(found)
    if isinstance(err, ValidationError):
        problem = err.errors()[0]
        inner = (problem.get("ctx") or {}).get("error")
        if isinstance(inner, ValueError) and not isinstance(inner, ValidationError):
            return str(inner)  # a rule's own refusal, already in words
        where = field_name(app, problem["loc"])
        words = _problem_words(app, problem)
        return app._("{field}: {problem}.", field=f"{where[:1].upper()}{where[1:]}",
                     problem=words) if where else f"{words}."
    return str(err)


def whole(app: AppState, value: str | None, what: str, *, least: int | None = 0) -> int:
    """A whole number typed into a field (empty: 0).

    Raises:
        ValueError: not a whole number, or below `least`; the message (in the device's
            language) names the field.
    """
    typed = str(value or "").strip().replace("−", "-")
    if not typed:
        return 0
    try:
        number = int(typed)
    except ValueError:
        raise ValueError(app._('{field}: "{typed}" is not a whole number.', field=what,
                               typed=typed)) from None
    if least is not None and number < least:
        raise ValueError(app._("{field}: {number} is below {least}; enter {least} or more.",
                               field=what, number=number, least=least))
    return number


def save(app: AppState, doc: dict[str, Any], lines: list[str] | None = None) -> bool:
    """Save the pad's new document as one undoable action; a refusal is shown and nothing
    changes. `lines`: what the save did, shown above the main button. A disk that refuses
    the write leaves the entry on the pad, queued and said so (`unsaved_banner`)."""
    session = pad_session(app)
    try:
        session.play({"type": "record", "doc": doc})
    except SAVE_ERRORS as err:
        app.error = app._("Not saved, nothing changed: {problem}", problem=save_problem(err))
    except ValueError as err:  # PadError, a rule of the game's own
        app.error = app._("Not saved: {reason}", reason=refusal(app, err))
    else:
        app.error = None
        done = app._("Entered here, not on disk yet (see above).") if session.unsaved else \
            app._("Saved.")
        said = list(lines or [])
        app.say([f"{done} {said[0]}", *said[1:]] if said else [done])
        app.render()
        return True
    app.render()
    return False


def on_undo_click(app: AppState) -> None:
    """Take back the pad's last save."""
    _undo_redo(app, "undo", app._("Nothing to undo: this is how the pad was started."),
               app._("Undo done."))


def on_redo_click(app: AppState) -> None:
    """Save again what Undo took back."""
    _undo_redo(app, "redo", app._("Nothing to redo."), app._("Redo done."))


def _undo_redo(app: AppState, which: str, nothing: str, done: str) -> None:
    try:
        getattr(pad_session(app), which)()
    except IndexError:
        app.error = nothing
    except SAVE_ERRORS as err:
        app.error = app._("Not saved, nothing changed: {problem}", problem=save_problem(err))
    else:
        app.error = None
        app.say([done])
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
        ft.Text(app._("Not saved yet: {problem}", problem=session.save_error)
                if session.save_error else app._("Not saved yet: the disk refused it"),
                size=17, color=TEXT, weight=ft.FontWeight.BOLD),
        ft.Text(app.n_("The last save is shown here but not on disk. Keep the app open and "
                       "tap Retry once the disk has room.",
                       "The last {n} saves are shown here but not on disk. Keep the app open "
                       "and tap Retry once the disk has room.", len(session.unsaved)),
                size=SMALL, color=TEXT),
        button(app._("Retry saving"), lambda e: on_retry_click(app), ident_="pad-retry",
               icon=ft.Icons.SAVE), color="#3a1a12"))


def undo_row(app: AppState, pad: PadGame, *more: ft.Control) -> ft.Control:
    """Undo and Redo of the pad's saves (and the screen's main button), pinned at the
    bottom."""
    row = ft.Row([
        button(app._("Undo"), (lambda e: on_undo_click(app)) if pad.actions else None,
               primary=False, expand=True, ident_="pad-undo"),
        button(app._("Redo"), (lambda e: on_redo_click(app)) if pad.can_redo() else None,
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
