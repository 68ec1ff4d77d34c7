"""The game clock line (time played in all and this round) and the session hooks that start
and stop the clock."""

from collections.abc import Callable

import flet as ft

from companion.clock import GameTime, clock_text, length_text
from views.state import AppState
from views.theme import MUTED, ident


def clock_words(time: GameTime | None, round_: int) -> str:
    """'Played 12:05 · Round 2: 3:10', or why there is no time yet."""
    if time is None:
        return "Clock: starts when the game is open at a table"
    here = time.rounds[round_] if round_ < len(time.rounds) else 0
    part = f"Round {round_}" if round_ else "Setup"
    paused = "" if time.running else " (paused)"
    return f"Played {clock_text(time.seconds)} · {part}: {clock_text(here)}{paused}"


def rounds_words(time: GameTime) -> str:
    """'Game length 1 h 02 min: setup 4 min, round 1 20 min, …' for a finished game."""
    names = ["setup", *[f"round {r}" for r in range(1, len(time.rounds))]]
    parts = [f"{n} {length_text(s)}" for n, s in zip(names, time.rounds, strict=True) if s]
    return f"Game length {length_text(time.seconds)}" + (f": {', '.join(parts)}" if parts
                                                          else "")


def clock_line(app: AppState) -> ft.Control:
    """The open game's clock as of now; a finished game's length."""
    game = app.game
    time = game.time()
    if game.state.phase == "game_over":
        words = rounds_words(time) if time else "No game clock ran for this game."
        return ident("clock", ft.Text(words, size=15, color=MUTED))
    return ident("clock", ft.Text(clock_words(time, game.state.round), size=15, color=MUTED))


def attach_clock(page: ft.Page, app: AppState, sessions: set[int],
                 on_leave: Callable[[], None] | None = None) -> None:
    """Run the clock while this session is connected: start it now, stop it when the last
    session of the service disconnects (then `on_leave`, e.g. save what can be saved). The
    shown time is brought up to date whenever the screen is drawn (redrawing it every second
    closed open dropdown menus). A read-only or unopened data folder runs no clock."""
    me = id(page)

    def start() -> None:
        sessions.add(me)
        if app.service is not None:
            app.service.clock_start()

    def on_disconnect(e: object) -> None:
        sessions.discard(me)
        if not sessions and app.service is not None:
            app.service.clock_stop()
        if on_leave is not None:
            on_leave()

    def on_connect(e: object) -> None:
        start()

    start()
    page.on_disconnect, page.on_connect, page.on_close = on_disconnect, on_connect, on_disconnect
