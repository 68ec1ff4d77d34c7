"""A referee's policy for playing a whole game through the browser UI (deterministic taps)."""

import re

from tests.browser.harness import UI, sel

SETTLE_MS = 120


def ids(ui: UI) -> list[str]:
    """Stable ids on screen, in page order."""
    return ui.page.eval_on_selector_all(
        "flt-semantics-host [flt-semantics-identifier]",
        "els => els.map(e => e.getAttribute('flt-semantics-identifier'))")


def action_no(ui: UI) -> int:
    """Number of actions played (from the undo hint)."""
    m = re.search(r"#(\d+)", ui.read("undo-hint")) if ui.has("undo-hint") else None
    return int(m.group(1)) if m else -1


def act(ui: UI, identifier: str) -> None:
    """Tap a button that plays an action and wait for the screen to show it."""
    before = action_no(ui)
    for attempt in range(3):  # a tap lost in a redraw changes nothing: tap again
        ui.tap(identifier)
        try:
            ui.page.wait_for_function(
                "([s, n]) => { const e = document.querySelector(s);"
                " const m = e && e.textContent.match(/#(\\d+)/);"
                " return (m && Number(m[1]) !== n) || document.querySelector("
                "'flt-semantics-host [flt-semantics-identifier=\"error\"]'); }",
                arg=['flt-semantics-host [flt-semantics-identifier="undo-hint"]', before],
                timeout=4000)
            return
        except Exception:
            if attempt == 2 or action_no(ui) != before:
                raise


def pick(ui: UI, identifier: str) -> None:
    """Tap a choice (no action played) and let the screen redraw."""
    ui.tap(identifier)
    ui.page.wait_for_timeout(SETTLE_MS)


def _label(ui: UI, identifier: str) -> str:
    """A control's text, or '?' if it left the screen meanwhile (one copy of each card: a card
    picked for one face-down card is no longer offered for the next, §1/§2)."""
    loc = ui.page.locator(sel(identifier)).first
    try:
        return loc.inner_text(timeout=1000).strip()
    except Exception:
        return "?"


def pick_card(ui: UI, prefix: str, k: int) -> None:
    """Choose a card from a picker; tap its Power when the app asks for it."""
    ui.page.wait_for_timeout(SETTLE_MS)  # a pick for another card may have redrawn this picker
    on = ids(ui)
    if f"{prefix}-chosen" not in on:  # else a card is chosen already and waits for its Power
        cards = [i for i in on if i.startswith(prefix + "-")
                 and not re.search(r"-(power.*|name|chosen)$", i)]
        known = [i for i in cards if not _label(ui, i).endswith("?")]  # printed Power known
        pool = known or cards
        assert pool, f"no card offered for {prefix}: on screen {on}"
        pick(ui, pool[k % len(pool)])
    for _ in range(12):  # a card of unknown Power stands alone with its Power chips
        if ui.has(f"{prefix}-power-3"):
            pick(ui, f"{prefix}-power-3")
            return
        if not ui.has(f"{prefix}-chosen"):
            ui.page.wait_for_timeout(250)
            if not ui.has(f"{prefix}-chosen"):
                return
        ui.page.wait_for_timeout(250)


class Referee:
    """Plays a game by looking at what the screen offers, like a person would."""

    def __init__(self, ui: UI, allies: list[str]):
        self.ui = ui
        self.plays = 0
        self.allies = allies
        """Catalogue ids of the Allies to tap at Location Setup, in turn."""
        self.withdrew = False
        self.rounds_placed = 0
        self.used: set[str] = set()
        """Allies placed so far in this game."""

    def step(self) -> str:
        ui = self.ui
        on = ids(ui)
        if "winner" in on:
            return "done"
        if "feed" in on:
            act(ui, "feed")
        elif "allies-ok" in on:
            for loc in (x.removeprefix("ally-") for x in on
                        if re.fullmatch(r"ally-(1|2|3|haven)", x)):
                # each Ally exists once (§1): the ones placed before are no longer offered
                entry = next(a for a in self.allies if a not in self.used)
                self.used.add(entry)
                pick(ui, f"ally-{loc}-pick-{entry}")
            self.rounds_placed += 1
            act(ui, "allies-ok")
        elif "hands-ok" in on:
            act(ui, "hands-ok")
        elif "pass" in on:
            act(ui, "pass")
        elif "play" in on:
            self.planning_turn(on)
        elif "withdraw-ok" in on:
            leave = [i for i in on if i.startswith("withdraw-") and i != "withdraw-ok"]
            if not self.withdrew and self.rounds_placed >= 2 and len(leave) > 1:
                self.withdrew = True
                pick(ui, leave[-1])
                for uid in {i.split("-")[1] for i in ids(ui) if i.startswith("wd-")}:
                    pick_card(ui, f"wd-{uid}", 0)
            act(ui, "withdraw-ok")
        elif "reveal-ok" in on:
            for uid in dict.fromkeys(i.split("-")[1] for i in on if i.startswith("rev-")):
                pick_card(ui, f"rev-{uid}", 2)
            act(ui, "reveal-ok")
        elif "take-back-ok" in on:
            act(ui, "take-back-ok")
        elif any(i.startswith("due-") and i.endswith(("-apply", "-decline")) for i in on):
            self.resolve_due(on)
        elif "continue" in on:
            act(ui, "continue")
        else:
            error = ui.read("error") if "error" in on else ""
            raise AssertionError(f"nothing to tap; on screen: {on} {error}")
        return "ok"

    def planning_turn(self, on: list[str]) -> None:
        ui, k = self.ui, self.plays
        locs = [i for i in on if i.startswith("loc-pick-")]
        for _ in range(40):  # a new turn's form is a new scroll view: its tiles come a frame later
            if locs:
                break
            ui.page.wait_for_timeout(250)
            locs = [i for i in ids(ui) if i.startswith("loc-pick-")]
        pick(ui, locs[k % len(locs)])
        if k < 4 and "face-down" in on:
            pick(ui, "face-down")
        else:
            pick_card(ui, "plan-card", 2 + k)
        self.plays += 1
        act(ui, "play-1" if ui.has("play-1") else "play")  # Play +1 Blood when the Pool allows

    def resolve_due(self, on: list[str]) -> None:
        """Apply the first effect that can be resolved now (or skip one that cannot apply)."""
        first = next(i for i in on if i.startswith("due-") and i.endswith(("-apply",
                                                                              "-decline")))
        act(self.ui, first)
