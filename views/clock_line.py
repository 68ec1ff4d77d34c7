"""The game clock line: time played in all and this round (the clock runs while a table has
the game open: `companion.table.hub.TableHub`)."""

import flet as ft

from companion.rules.clock import GameTime, clock_text
from views.state import AppState
from views.theme import MUTED, SMALL, ident


def length_words(app: AppState, seconds: int) -> str:
    """'45 min', '1 h 05 min' in the device's language (as `companion.rules.clock.length_text`:
    rounded to the minute; under a minute: '< 1 min')."""
    minutes = round(max(0, seconds) / 60)
    if minutes == 0:
        return app._("< 1 min")
    h, m = divmod(minutes, 60)
    return app._("{h} h {m} min", h=h, m=f"{m:02d}") if h else app._("{m} min", m=m)


def clock_words(app: AppState, time: GameTime | None, round_: int) -> str:
    """'Played 12:05 · Round 2: 3:10', or why there is no time yet."""
    if time is None:
        return app._("Clock: starts when the game is open at a table")
    here = time.rounds[round_] if round_ < len(time.rounds) else 0
    part = app._("Round {round}", round=round_) if round_ else app._("Setup")
    if time.running:
        return app._("Played {total} · {part}: {time}", total=clock_text(time.seconds),
                     part=part, time=clock_text(here))
    return app._("Played {total} · {part}: {time} (paused)", total=clock_text(time.seconds),
                 part=part, time=clock_text(here))


def rounds_words(app: AppState, time: GameTime) -> str:
    """'Game length 1 h 02 min: setup 4 min, round 1 20 min, …' for a finished game."""
    parts = [app._("round {round} {length}", round=r, length=length_words(app, s)) if r
             else app._("setup {length}", length=length_words(app, s))
             for r, s in enumerate(time.rounds) if s]
    total = length_words(app, time.seconds)
    if parts:
        return app._("Game length {length}: {parts}", length=total, parts=", ".join(parts))
    return app._("Game length {length}", length=total)


def clock_line(app: AppState) -> ft.Control:
    """The open game's clock as of now; a finished game's length."""
    game = app.game
    time = game.time()
    if game.state.phase == "game_over":
        words = rounds_words(app, time) if time else app._("No game clock ran for this game.")
    else:
        words = clock_words(app, time, game.state.round)
    # Kept while it reads the same (it moves on by the second only when drawn again).
    return app.memo("clock", words,
                    lambda: ident("clock", ft.Text(words, size=SMALL, color=MUTED)))
