"""Benchmark: taps a referee needs per round, counted as the handler calls of a scripted game.

A 4-player game is refereed alone through the views (no browser: a tap is a handler call, a
typed field one tap more), with a filled catalogue (every Ally drawn and every card's printed
Power known, as in a table's second game) and the same decisions every run: Locations and cards
in turn, every fifth card face down, 1 Blood on each card when the Pool allows it, one Withdraw
in round 2, due effects applied. The script reads the screen the way a person does (it taps
what is there), so the same script measures another version of the views (`--root`: a checkout
of the app, e.g. `git archive HEAD | tar -x -C /tmp/before`).

Figures: taps per round; per Planning turn (average and most); per Location (average, and for
a plain Location: nobody withdrew, no face-down card, no effect due).

Run: .venv/bin/python bench/round_taps.py [--root DIR] [--json] [--quick]
"""

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

NAMES = ["Ann", "Bob", "Cat", "Dan"]
CLANS = ["Brujah", "Gangrel", "Nosferatu", "Tremere"]
ALLIES = [(f"T-ALLY{k}", f"Ally number {k}") for k in range(12)]
"""The Allies the table draws (each once, §1): 3 a round for 3 rounds."""


class Referee:
    """Plays the scripted game through the views and counts every tap."""

    def __init__(self, app, ui) -> None:
        self.app, self.ui = app, ui
        self.turns = 0
        self.allies = 0
        self.withdrew = False
        self.taps: dict[str, int] = defaultdict(int)
        """Taps per part of the game ('setup', 'round 1'…)."""
        self.turn_taps: list[int] = []
        """Taps of each Planning turn."""
        self.location_taps: list[tuple[int, bool]] = []
        """Taps of each Location's Resolution, and whether it was plain."""
        self._location: list = [0, True]

    # --- counting ---------------------------------------------------------------------------

    def where(self) -> str:
        if self.app.table is None:
            return "setup"
        s = self.app.game.state
        return f"round {s.round}" if s.round else "setup"

    def tap(self, identifier: str) -> None:
        self.taps[self.where()] += 1
        if self.app.table is not None and self.app.game.state.phase == "resolution":
            self._location[0] += 1
        self.ui.click(self.app.root, identifier)

    def type(self, identifier: str, value: str) -> None:
        self.taps[self.where()] += 1
        self.ui.type_in(self.app.root, identifier, value)

    def on(self) -> list[str]:
        return self.ui.ids(self.app.root)

    def enabled(self, identifier: str) -> bool:
        c = self.ui.find(self.app.root, identifier)
        return not c.disabled and c.on_click is not None

    # --- the game ---------------------------------------------------------------------------

    def play(self) -> None:
        self.tap("new-game")
        for i, name in enumerate(NAMES):
            self.type(f"name-{i}", name)
        self.tap("create-game")
        self.tap("first-0")
        for clan in CLANS:
            self.tap(f"clan-{clan}")
        for _ in range(800):
            if self.app.game.state.phase == "game_over":
                return
            self.step()
            assert self.app.error is None, self.app.error
        raise AssertionError("the game did not end")

    def step(self) -> None:
        legal = self.app.legal()
        on = self.on()
        index = self.app.game.state.location_index
        if legal.phase == "location_setup":
            self.place_allies(on)
        elif legal.phase == "planning":
            self.planning(on)
        elif legal.phase == "resolution":
            self.resolution(legal, on)
        else:
            for simple in ("feed", "hands-ok"):
                if simple in on:
                    self.tap(simple)
                    return
            raise AssertionError(f"nothing to tap: {on}")
        s = self.app.game.state
        if legal.phase == "resolution" and (s.phase != "resolution"
                                            or s.location_index != index):
            self.location_taps.append((self._location[0], self._location[1]))
            self._location = [0, True]

    def place_allies(self, on: list[str]) -> None:
        for loc in [x.removeprefix("ally-") for x in on if re.fullmatch(r"ally-(1|2|3|haven)", x)]:
            entry = ALLIES[self.allies][0]
            self.allies += 1
            if f"ally-{loc}-pick-{entry}" not in self.on():
                self.tap(f"ally-{loc}-chosen")
            self.tap(f"ally-{loc}-pick-{entry}")
        self.tap("allies-ok")

    def card(self, prefix: str, k: int) -> None:
        cards = [i for i in self.on() if i.startswith(prefix + "-")
                 and not re.search(r"-(power.*|name|chosen|why)$", i)]
        self.tap(cards[k % len(cards)])

    def planning(self, on: list[str]) -> None:
        before = sum(self.taps.values())
        if "pass" in on:
            self.tap("pass")
            self.turn_taps.append(sum(self.taps.values()) - before)
            return
        k = self.turns
        self.turns += 1
        locs = [i for i in on if i.startswith("loc-pick-")]
        self.tap(locs[k % len(locs)])
        if k % 5 == 4 and self.enabled("face-down"):
            self.tap("face-down")
        else:
            self.card("plan-card", 2 + k)
        on = self.on()
        if "play-1" in on:  # Play +1 Blood, beside Play
            self.tap("play-1")
        else:
            if "blood-1" in on:  # a Blood chip, then Play
                self.tap("blood-1")
            self.tap("play")
        self.turn_taps.append(sum(self.taps.values()) - before)

    def resolution(self, legal, on: list[str]) -> None:
        if legal.step == "withdraw":
            leave = [i for i in on if re.fullmatch(r"withdraw-\d", i)]
            if not self.withdrew and self.app.game.state.round == 2 and len(leave) > 1:
                self.withdrew = True
                self._location[1] = False
                self.tap(leave[-1])
                for uid in dict.fromkeys(i.split("-")[1] for i in self.on()
                                         if i.startswith("wd-")):
                    self.card(f"wd-{uid}", 0)
            self.tap("withdraw-ok")
        elif legal.step == "revelation":
            self._location[1] = False
            for uid in dict.fromkeys(i.split("-")[1] for i in on if i.startswith("rev-")):
                self.card(f"rev-{uid}", 2)
            self.tap("reveal-ok")
        elif "take-back-ok" in on:
            self._location[1] = False
            self.tap("take-back-ok")
        elif due := [i for i in on if re.fullmatch(r"due-\d+-(apply|decline)", i)]:
            self._location[1] = False
            self.tap(due[0])
        else:
            self.tap("continue")


def seed(data: Path) -> None:
    """The catalogue of a table's second game: the Allies drawn, every card's Power."""
    from companion.rules.catalogue import shipped
    from companion.storage import TinyDBGameStore

    clan_cards = [{"id": e.id, "clan": e.clan, "power": 3} for e in shipped().clan_cards
                  if e.power is None]
    store = TinyDBGameStore(data)
    store.save_catalogue({"allies": [
        {"id": i, "name": n, "kind": "human", "influence": 2, "feed": 1, "drain_blood": 2,
         "drained_influence": 0} for i, n in ALLIES], "clan_cards": clan_cards})
    store.close()


def run() -> dict:
    """Play the scripted game; the counts."""
    from companion.library.library import Library
    from companion.storage import TinyDBGameStore
    from tests import ui
    from views.app import build

    # (a game that ends writes an automatic backup on a thread of its own: the folder is
    # closed under the library's lock, which that backup holds while it writes)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        seed(data)
        store = TinyDBGameStore(data)
        try:
            app = build(Library(store))
            app.seen_after = 0
            ref = Referee(app, ui)
            ref.play()
        finally:
            if app.hub is not None:
                app.hub.stop_clocks()
            with app.library.lock:
                store.close()
    turns = ref.turn_taps
    plain = [n for n, simple in ref.location_taps if simple]
    return {"taps per round": {k: v for k, v in ref.taps.items() if k != "setup"},
            "setup taps": ref.taps.get("setup", 0),
            "planning turn taps (average)": round(sum(turns) / len(turns), 2),
            "planning turn taps (most)": max(turns),
            "location taps (average)": round(sum(n for n, _ in ref.location_taps)
                                             / len(ref.location_taps), 2),
            "plain location taps (average)": round(sum(plain) / len(plain), 2) if plain else 0,
            "plain location taps (most)": max(plain) if plain else 0,
            "locations (plain of all)": f"{len(plain)} of {len(ref.location_taps)}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout of the app to measure (default: this one)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="the same game (it is quick)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    if args.root.resolve() != ROOT:
        sys.path.insert(1, str(ROOT))  # this checkout's test helpers stay reachable
    counts = run()
    if args.json:
        print(json.dumps(counts, indent=1))
        return
    print(f"4 players, filled catalogue, views of {args.root}")
    for key, value in counts.items():
        print(f"{key:32} {value}")


if __name__ == "__main__":
    main()
