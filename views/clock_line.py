"""The game clock line: time played in all and this round (the clock runs while a table has
the game open: `companion.table.hub.TableHub`)."""

import flet as ft

from companion.rules.clock import GameTime, clock_text, length_text
from views.state import AppState
from views.theme import MUTED, SMALL, ident


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
    else:
        words = clock_words(time, game.state.round)
    # Kept while it reads the same (it moves on by the second only when drawn again).
    return app.memo("clock", words,
                    lambda: ident("clock", ft.Text(words, size=SMALL, color=MUTED)))
