"""Games stopped at each phase's screen, for the phone-layout tests and screenshots.

Every game is played in-process through the views (taps are handler calls, as in
`tests.ui.autoplay_step`) on a data folder, and left open at its own table; a browser then
opens `/join/<table id>` with the host key and referees it. One folder holds every game, so one
server serves them all.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub
from tests.ui import autoplay_step, click, type_in
from views.app import build
from views.state import AppState

NAMES = ["Ann", "Bob", "Cat", "Dan"]
CLANS = ["Brujah", "Gangrel", "Nosferatu", "Tremere"]

Stop = Callable[[AppState], bool]


def _legal(app: AppState) -> tuple[str, str | None]:
    legal = app.legal()
    return legal.phase, legal.step


def _phase(phase: str, round_: int = 1) -> Stop:
    return lambda app: _legal(app)[0] == phase and app.game.state.round == round_


def _step(step: str) -> Stop:
    def stop(app: AppState) -> bool:
        legal = app.legal()
        return legal.phase == "resolution" and legal.step == step and not legal.due and \
            (step != "withdraw" or len(legal.present) > 2)
    return stop


def _game_over(app: AppState) -> bool:
    return _legal(app)[0] == "game_over"


SCENARIOS: dict[str, tuple[dict, Stop]] = {
    "first-player": ({}, lambda app: "set_first_player" in app.legal().commands),
    "clans": ({"first": True}, lambda app: "pick_clan" in app.legal().commands),
    "feed": ({}, _phase("feed")),
    "location-setup": ({}, _phase("location_setup")),
    "hand-building": ({}, _phase("hand_building")),
    "planning": ({}, _phase("planning")),
    "withdraw": ({}, _step("withdraw")),
    "revelation": ({}, _step("revelation")),
    "conflict": ({}, lambda app: _legal(app)[1] in ("preparation", "conflict")
                 and not app.legal().due),
    "round-2": ({}, _phase("feed", 2)),
    "final-score": ({}, _game_over),
}
"""Screen name → (how to start, where the game stops)."""


def _new_game(app: AppState) -> None:
    app.go("home")
    click(app.root, "new-game")
    for i, name in enumerate(NAMES):
        type_in(app.root, f"name-{i}", name)
    click(app.root, "create-game")


def _play_to(app: AppState, start: dict, stop: Stop, rng: random.Random) -> None:
    if start.get("first"):
        click(app.root, "first-0")
    for _ in range(600):
        if stop(app):
            return
        legal = app.legal()
        if legal.phase == "setup" and "pick_clan" in legal.commands:
            free = [c for c in CLANS if c in legal.clans]
            click(app.root, f"clan-{free[0]}")
        else:
            autoplay_step(app, rng, withdraw=False)
        assert app.error is None, app.error
    raise AssertionError("the game never reached the screen")


def seed_games(data: Path, names: list[str] | None = None, seed: int = 7,
               copies: int = 1) -> dict[str, list[str]]:
    """Play a game to each scenario's screen (all of `SCENARIOS` by default) in `data`,
    `copies` times (the same game each time: one per screen size, as a check may play on);
    returns scenario → its tables' ids."""
    store = TinyDBGameStore(data)
    hub = TableHub(store)
    app = build(hub)
    app.seen_after = 0
    out: dict[str, list[str]] = {}
    try:
        for name in names or list(SCENARIOS):
            start, stop = SCENARIOS[name]
            for _ in range(copies):
                _new_game(app)
                # the same decisions every run: the screens look the same in every screenshot
                _play_to(app, start, stop, random.Random(f"{seed}-{name}"))
                assert app.table is not None
                out.setdefault(name, []).append(app.table.table_id)
    finally:
        hub.stop_clocks()
        store.close()
    return out
