"""Joining a table from a phone: pick a role — a player's seat (with that seat's own code, which
the referee shows that player), the board (with the board code, none when the host allows
viewers) or the referee (referee code). A seat's join link fills in the seat and its code.

Shows nothing of the game but the players' names (`Table.lobby`)."""

from collections.abc import Callable

import flet as ft

from companion.rules.errors import TableError
from models.state import GameState
from models.table import Referee, Role, Seat
from views.frame import frame
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE_HI, button, card, field, heading, text, wrap


def _draft(app: AppState) -> dict:
    d = app.draft("join")
    d.setdefault("player", None)
    d.setdefault("code", "")
    d.setdefault("referee_code", "")
    d.setdefault("board_code", "")
    d.setdefault("table", "")
    return d


def on_player_pick(app: AppState, player: int) -> None:
    """Which player this phone is."""
    _draft(app)["player"] = player
    app.error = None
    app.render()


def on_taken_pick(app: AppState, name: str) -> None:
    """A seat another device holds: say how to get it back (the referee frees it)."""
    app.fail(app._("{name}'s seat is held by another device. If that phone is lost or flat, the "
                   "referee can free the seat (Join codes, then Free {name}'s seat) and show you "
                   "its new code.", name=name))


def on_code_change(app: AppState, key: str, value: str) -> None:
    """A code typed (kept until the tap)."""
    _draft(app)[key] = value


def on_seat_claim(app: AppState) -> None:
    """Take the chosen seat with the seat code."""
    d = _draft(app)
    if d["player"] is None:
        app.fail(app._("Tap your name first."))
        return
    app.join("seat", d["code"], d["player"])


def on_board_join(app: AppState) -> None:
    """Show the public board on this device."""
    app.join("board", _draft(app)["board_code"] or None)


def on_referee_claim(app: AppState) -> None:
    """Become the referee (the referee code; the host needs none)."""
    app.join("referee", _draft(app)["referee_code"] or None)


def on_table_open(app: AppState) -> None:
    """Open the join screen of a table by its id."""
    table_id = _draft(app)["table"].strip().upper()
    if not table_id.isalnum():
        app.fail(app._("Type the table's letters, as on the host's screen."))
        return
    app.go("join", table_id)


def device_is(app: AppState, role: Role, state: GameState) -> str:
    """'This device is Ann's seat.' (or the referee, or the board), in the device's
    language."""
    if isinstance(role, Seat):
        name = state.players[role.player].name if role.player < len(state.players) else "?"
        return app._("This device is {name}'s seat.", name=name)
    if isinstance(role, Referee):
        return app._("This device is the referee.")
    return app._("This device is the board.")


def _code_and_button(app: AppState, label: str, key: str, field_id: str, with_code: bool,
                     action: str, on_click: Callable[[AppState], None],
                     button_id: str) -> list[ft.Control]:
    """A code box (when a code is needed) and the button that takes the role."""
    out: list[ft.Control] = []
    if with_code:
        out.append(field(label, _draft(app)[key], lambda v: on_code_change(app, key, v),
                         ident_=field_id))
    out.append(button(action, lambda e: on_click(app), primary=False, ident_=button_id))
    return out


def join_view(app: AppState) -> list[ft.Control]:
    """The join screen."""
    d = _draft(app)
    table = app.table
    if table is None or table.closed:
        body: list[ft.Control] = [card(
            heading(app._("Join a table"), 22),
            text(app._("Scan the code on the host's screen, or type the table's letters."), 16,
                 color=MUTED),
            field(app._("Table"), d["table"], lambda v: on_code_change(app, "table", v),
                  ident_="table-id"),
            button(app._("Open"), lambda e: on_table_open(app), ident_="table-open"))]
        return frame(app, "Vendetta Companion", body, subtitle=app._("Join a table"))
    try:
        lobby = table.lobby()
    except TableError as err:
        said = str(err) if app.t.english else app.words(err.message)
        return frame(app, "Vendetta Companion", [text(said, 17)], subtitle=app._("Join a table"))
    role = app.role
    body = []
    if role is not None:
        body.append(card(text(device_is(app, role, table.game.state), 18,
                              bold=True, color=GOLD, ident_="my-role"),
                         button(app._("Go to my screen"), lambda e: app.go("game"),
                                ident_="to-game")))
    seats = [button(app._("{name} (taken)", name=s.name) if s.taken else s.name,
                    (lambda e, p=s.player: on_player_pick(app, p)) if not s.taken else
                    (lambda e, n=s.name: on_taken_pick(app, n)),
                    primary=False, selected=d["player"] == s.player,
                    ident_=f"pick-{s.player}") for s in lobby.seats]
    body.append(card(
        heading(app._("I am a player"), 20),
        text(app._("Tap your name, then type your seat's code: the referee shows it to you "
                   "(Join codes, then Show your code). Each seat has its own."), 15,
             color=MUTED),
        wrap(*seats),
        field(app._("Seat code"), d["code"], lambda v: on_code_change(app, "code", v),
              ident_="seat-code"),
        button(app._("Take my seat"), lambda e: on_seat_claim(app), ident_="claim-seat"),
        ident_="join-seat"))
    board: list[ft.Control] = [
        heading(app._("Board for the middle of the table"), 20),
        text(app._("Everyone's public numbers in large type. No code needed.")
             if lobby.allow_viewers else
             app._("Everyone's public numbers in large type. Needs the board code (the referee "
                   "shows it)."), 15, color=MUTED)]
    body.append(card(*board, *_code_and_button(
        app, app._("Board code"), "board_code", "board-code", not lobby.allow_viewers,
        app._("Show the board"), on_board_join, "join-board"), color=SURFACE_HI))
    body.append(card(heading(app._("Referee"), 20), *_code_and_button(
        app, app._("Referee code"), "referee_code", "referee-code-field", not app.host,
        app._("Referee this table"), on_referee_claim, "claim-referee"), color=SURFACE_HI))
    return frame(app, app._("Table {table}", table=lobby.table_id), body,
                 subtitle=app._("Pick your role"))
