"""Benchmark: taps, swipes and typing a referee needs per round, in a real browser.

A whole 4-player game is played at phone size (390×844) through the served app, with the same
decisions every run (Locations, faces, cards, Blood, one Withdraw in round 2). Before each tap
the counter checks, as a person's eyes would, whether the control is inside the visible part of
its scroll view: if not, it counts the swipes needed to bring it there (one swipe moves at most
three quarters of the visible height) and scrolls as a person would, until the control sits
about mid-screen; a control Flutter has not even laid out counts one swipe more.

- tap: a button, a chip, a list row, focusing a text box, opening a dropdown and picking in it
  (two taps);
- swipe: see above;
- typed: text boxes filled, and the characters typed into them.

Scenarios: `later` (the card catalogue already knows the Allies drawn and every card's printed
Power, as in a table's second game) and `first` (the shipped catalogue: every Ally is typed in,
unknown Powers are read off the cards).

Run: .venv/bin/python bench/taps.py [--scenario later|first|both] [--json] [--quick]

Figures per round (rounds 1/2/3), before the changes that shortened the screens → after:
- later game: taps 60/78/90 → 50/67/85; swipes 21/28/30 → 5/4/3; nothing typed.
- first game: taps 82/104/113 → 74/94/108; swipes 24/40/40 → 5/7/5; typed per round
  3 fields, 25 characters (only the optional names of the three new Allies; their values and
  unknown Powers are tapped now, where the old form typed 4 numbers per Ally and each Power).
"""

import argparse
import json
import math
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inpage import chromium  # noqa: E402

from tests.browser.harness import UI, Server, fresh_dir, missing, sel  # noqa: E402

NAMES = ["Ann", "Bob", "Cat", "Dan"]
CLANS = ["Brujah", "Gangrel", "Nosferatu", "Tremere"]
ALLIES = [("T-DOCK", "Dock Boss"), ("T-NURSE", "Night Nurse"), ("T-PRIEST", "Old Priest"),
          ("T-CLERK", "Hotel Clerk"), ("T-COP", "Beat Cop"), ("T-DJ", "Club DJ"),
          ("T-CABBIE", "Night Cabbie"), ("T-MEDIC", "Ward Medic"), ("T-BARMAN", "Barman"),
          ("T-COURIER", "Courier")]
"""Allies the table draws, each once (one copy of each card, §1): 3 a round for 3 rounds."""
NEW_ALLY = {"kind": "human", "influence": "2", "feed": "1", "drain_blood": "2",
            "drained_influence": "0"}

VISIBLE = """(s) => {
  const e = document.querySelector(s);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  let p = e.parentElement;
  while (p && !(p.getAttribute('style') || '').includes('scrollbar-width')) p = p.parentElement;
  if (!p) return {dy: 0, view: window.innerHeight, h: r.height};
  const v = p.getBoundingClientRect();
  let dy = 0;
  if (r.top < v.top) dy = r.top - v.top;
  else if (r.bottom > v.bottom) dy = r.bottom - v.bottom;
  return {dy: dy, view: v.height, h: r.height};
}"""


def seed(data_dir: Path, scenario: str) -> None:
    """What the catalogue knows before the game."""
    if scenario != "later":
        return
    from companion.rules.catalogue import shipped
    from companion.storage import TinyDBGameStore

    clan_cards = [{"id": e.id, "clan": e.clan, "power": 3} for e in shipped().clan_cards
                  if e.power is None]
    store = TinyDBGameStore(data_dir)
    store.save_catalogue({"allies": [
        {"id": i, "name": n, "kind": "human", "influence": 2, "feed": 1, "drain_blood": 2,
         "drained_influence": 0} for i, n in ALLIES], "clan_cards": clan_cards})
    store.close()


class Counter:
    """Plays the game and counts what a person would do, per round."""

    def __init__(self, ui: UI, scenario: str):
        self.ui = ui
        self.scenario = scenario
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.turns = 0
        self.rounds_placed = 0
        self.allies_placed = 0
        self.withdrew = False
        self.swiped: list[tuple[str, str, int, int]] = []
        """Each control that needed swipes: where, its id, how far (px), swipes."""

    # --- what a person does ---------------------------------------------------------------

    def where(self) -> str:
        """The round on screen (in the status line or the prompt), or 'setup'."""
        said = " ".join(self.ui.read(i) for i in ("status", "prompt") if self.ui.has(i))
        m = re.search(r"[Rr]ound (\d)", said)
        return f"round {m.group(1)}" if m else "setup"

    def look(self, identifier: str) -> None:
        """Count the swipes needed to bring a control into view."""
        ui, c = self.ui, self.counts[self.where()]
        seen = ui.page.evaluate(VISIBLE, sel(identifier))
        if seen is None:  # not laid out: scroll until it is
            c["swipes"] += 1
            ui.reveal(identifier)
            seen = ui.page.evaluate(VISIBLE, sel(identifier))
            if seen is None:
                raise AssertionError(f"{identifier!r} is not on screen: {self.ids()}")
        if seen["dy"]:
            n = math.ceil(abs(seen["dy"]) / (0.75 * seen["view"]))
            c["swipes"] += n
            self.swiped.append((self.where(), identifier, round(seen["dy"]), n))
            # as a person does: swipe until the control sits about mid-screen
            dy, sign = abs(seen["dy"]), 1 if seen["dy"] > 0 else -1
            move = min(n * 0.75 * seen["view"], dy + 0.5 * seen["view"] - seen["h"])
            ui.page.mouse.move(195, 400)
            ui.page.mouse.wheel(0, sign * max(dy, move))
            ui.page.wait_for_timeout(250)

    def tap(self, identifier: str, wait: bool = True) -> None:
        self.look(identifier)
        self.counts[self.where()]["taps"] += 1
        before = self.signature()
        self.ui.tap(identifier)
        if wait:
            self.settle(before)

    def type(self, identifier: str, value: str) -> None:
        self.look(identifier)
        c = self.counts[self.where()]
        c["taps"] += 1
        c["typed fields"] += 1
        c["typed characters"] += len(value)
        self.ui.fill(identifier, value)
        self.ui.page.wait_for_timeout(120)

    def choose(self, identifier: str, option: str) -> None:
        """A dropdown (old screens): open it, then tap the option."""
        self.look(identifier)
        self.counts[self.where()]["taps"] += 2
        self.ui.choose(identifier, option)
        self.ui.page.wait_for_timeout(150)

    def ids(self) -> list[str]:
        return self.ui.page.eval_on_selector_all(
            "flt-semantics-host [flt-semantics-identifier]",
            "els => els.map(e => e.getAttribute('flt-semantics-identifier'))")

    def signature(self) -> str:
        return self.ui.page.locator("flt-semantics-host").inner_text()

    def settle(self, before: str) -> None:
        """Wait until the screen changed after a tap (at most 3 s)."""
        try:
            self.ui.page.wait_for_function(
                "(b) => document.querySelector('flt-semantics-host').innerText !== b",
                arg=before, timeout=3000)
        except Exception:  # noqa: BLE001 - a tap on an already chosen option changes nothing
            pass
        self.ui.page.wait_for_timeout(120)

    # --- the game -----------------------------------------------------------------------------

    def start(self) -> None:
        ui = self.ui
        ui.wait("new-game")
        self.tap("new-game")
        ui.wait("name-0")
        for i, name in enumerate(NAMES):
            self.type(f"name-{i}", name)
            # as a person does: the name reaches the server before the next box is tapped
            # (typed at once on a busy machine, a name was lost and the game had 3 players)
            ui.page.wait_for_timeout(250)
        self.tap("create-game")
        ui.wait("first-0")
        self.tap("first-0")
        for clan in CLANS:
            ui.wait(f"clan-{clan}")
            self.tap(f"clan-{clan}")

    def play(self, quick: bool = False) -> dict[str, dict[str, int]]:
        """Play the whole game; quick: only until round 1's Planning is over."""
        self.start()
        for _ in range(500):
            if self.step() == "done" or (quick and "withdraw-ok" in self.ids()):
                break
        else:
            raise AssertionError("the game did not end")
        return {k: dict(v) for k, v in self.counts.items()}

    def step(self) -> str:
        on = self.ids()
        if "winner" in on:
            return "done"
        if "error" in on:
            raise AssertionError(f"refused: {self.ui.read('error')}")
        for simple in ("feed", "hands-ok", "pass", "take-back-ok"):
            if simple in on:
                self.tap(simple)
                return "ok"
        if "allies-ok" in on:
            self.allies(on)
        elif "play" in on:
            self.planning(on)
        elif "withdraw-ok" in on:
            self.withdraw(on)
        elif "reveal-ok" in on:
            for uid in dict.fromkeys(i.split("-")[1] for i in on if i.startswith("rev-")):
                self.card(f"rev-{uid}", 2)
            self.tap("reveal-ok")
        elif due := [i for i in on if re.fullmatch(r"due-\d+-(apply|decline)", i)]:
            self.tap(due[0])
        elif "continue" in on:
            self.tap("continue")
        else:
            raise AssertionError(f"nothing to tap; on screen: {on}")
        return "ok"

    def refresh(self) -> None:
        """Reload the page (same session, same screen): the old dropdown screens kept the
        accessibility positions of the screen before, so taps landed on the wrong field.
        Not counted: a person sees the real screen."""
        page = self.ui.page
        page.reload()
        page.wait_for_selector("flt-semantics-placeholder", state="attached")
        page.locator("flt-semantics-placeholder").dispatch_event("click")
        page.wait_for_selector("flt-semantics-host flt-semantics")
        self.ui.wait("allies-ok")

    def allies(self, on: list[str]) -> None:
        locs = [x.removeprefix("ally-") for x in on if re.fullmatch(r"ally-(1|2|3|haven)", x)]
        taps = any(re.fullmatch(r"ally-\w+-pick-.+", x) for x in on)  # lists to tap
        if not taps:
            self.refresh()
        for loc in locs:
            k = self.allies_placed % len(ALLIES)
            self.allies_placed += 1
            if taps:
                self.tap(f"ally-{loc}-pick-{ALLIES[k][0] if self.scenario == 'later' else 'new'}")
            elif self.scenario == "later":
                self.choose(f"ally-{loc}", f"{ALLIES[k][1]} (Inf 2 · Feed 1 · Drain +2 · "
                                           "drained 0)")
            else:
                self.choose(f"ally-{loc}", "A new Ally (type it in)")
            if self.scenario == "first":
                self.new_ally(loc, taps)
        self.rounds_placed += 1
        self.tap("allies-ok")

    def new_ally(self, loc: str, taps: bool) -> None:
        """An Ally the catalogue does not hold: its name and printed values."""
        self.type(f"ally-{loc}-name", f"Ally {self.rounds_placed + 1}{loc}")
        self.tap(f"ally-{loc}-{NEW_ALLY['kind']}")
        for key in ("influence", "feed", "drain_blood", "drained_influence"):
            if taps:
                self.tap(f"ally-{loc}-{key}-{NEW_ALLY[key]}")
            else:
                self.type(f"ally-{loc}-{key}", NEW_ALLY[key])

    def card(self, prefix: str, k: int) -> None:
        """Pick a clan card (the k-th of the picker); type its Power when asked."""
        cards = [i for i in self.ids() if i.startswith(prefix + "-")
                 and not re.search(r"-(power.*|name|chosen)$", i)]
        self.tap(cards[k % len(cards)])
        if self.ui.has(f"{prefix}-power-3"):
            self.tap(f"{prefix}-power-3")
        elif self.ui.has(f"{prefix}-power"):
            self.type(f"{prefix}-power", "3")

    def planning(self, on: list[str]) -> None:
        k = self.turns
        self.turns += 1
        locs = [i for i in on if i.startswith("loc-pick-")]
        self.tap(locs[k % len(locs)])
        down = k % 5 == 4 and "face-down" in on and self.enabled("face-down")
        if down:
            self.tap("face-down")
        else:
            self.card("plan-card", 2 + k)
        # Play with 1 Blood, beside Play (a Blood chip and Play on the screens before)
        if self.ui.has("play-1"):
            self.tap("play-1")
        else:
            if self.ui.has("blood-1"):
                self.tap("blood-1")
            self.tap("play")

    def y(self, identifier: str) -> float:
        box = self.ui.page.locator(sel(identifier)).first.bounding_box()
        return box["y"] if box else 0.0

    def enabled(self, identifier: str) -> bool:
        return self.ui.page.locator(f"{sel(identifier)} [aria-disabled='true'], "
                                    f"{sel(identifier)}[aria-disabled='true']").count() == 0

    def withdraw(self, on: list[str]) -> None:
        leave = [i for i in on if re.fullmatch(r"withdraw-\d", i)]
        if not self.withdrew and self.rounds_placed >= 2 and len(leave) > 1:
            self.withdrew = True
            self.tap(leave[-1])
            for uid in dict.fromkeys(i.split("-")[1] for i in self.ids()
                                     if i.startswith("wd-")):
                self.card(f"wd-{uid}", 0)
        self.tap("withdraw-ok")


def run(scenario: str, show_swipes: bool = False, quick: bool = False) -> dict[str, dict[str, int]]:
    """Play one game (quick: to the end of round 1's Planning); counts per round (and
    'setup')."""
    with tempfile.TemporaryDirectory() as tmp:
        data = fresh_dir(Path(tmp), "taps")
        seed(data, scenario)
        server = Server(data).start()
        try:
            with chromium() as browser:
                ui = UI(browser, server)
                ui.page.set_default_timeout(30_000)  # a first game screen on a busy machine
                counter = Counter(ui, scenario)
                try:
                    return counter.play(quick)
                finally:
                    if show_swipes:
                        for where, ident, dy, n in counter.swiped:
                            print(f"swipe {where:8} {ident:28} {dy:+5} px  x{n}")
                    ui.close()
        finally:
            server.stop()


def report(scenario: str, counts: dict[str, dict[str, int]]) -> None:
    keys = ["taps", "swipes", "typed fields", "typed characters"]
    print(f"\nscenario: {scenario} (4 players, phone 390x844)")
    print(f"{'':10}" + "".join(f"{k:>18}" for k in keys))
    for part in ["setup", "round 1", "round 2", "round 3"]:
        row = counts.get(part, {})
        print(f"{part:10}" + "".join(f"{row.get(k, 0):>18}" for k in keys))
    total = {k: sum(c.get(k, 0) for p, c in counts.items() if p != "setup") for k in keys}
    print(f"{'rounds':10}" + "".join(f"{total[k]:>18}" for k in keys))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=["later", "first", "both"], default="both")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--swipes", action="store_true", help="list every swipe counted")
    parser.add_argument("--quick", action="store_true",
                        help="the 'later' game until round 1's Planning is over: a check that "
                             "it runs")
    args = parser.parse_args()
    if why := missing():
        print(f"skipped: {why}")
        return
    out = {}
    chosen = ["later", "first"] if args.scenario == "both" else [args.scenario]
    for scenario in ["later"] if args.quick else chosen:
        out[scenario] = run(scenario, args.swipes, args.quick)
        if not args.json:
            report(scenario, out[scenario])
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
