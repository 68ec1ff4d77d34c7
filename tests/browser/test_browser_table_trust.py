"""Table mode a table can trust, in a real browser with several contexts against one server:
a phone back from a long time offline plays exactly what it shows; the device's own
"Reconnecting…" cover within 3 s of losing the connection; secret choices entered at the same
instant all accepted; an Undo told on every device; the board fits its screen; closing devices
prints no traceback in the host's terminal."""

import re
import time
from pathlib import Path

import pytest

from tests.browser.harness import UI, Server, fresh_dir, sel
from tests.browser.test_browser_table import BOARD, board, close, phone, referee, seed
from tests.table_helpers import plain, position

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

STATE = "() => document.documentElement.getAttribute('data-vc-connection')"
OFFLINE = "() => document.documentElement.getAttribute('data-vc-connection') === 'offline'"
LIVE = "() => document.documentElement.getAttribute('data-vc-connection') === 'live'"
CHOICE = re.compile(r"\b(Ann|Bo|Cy): (Stay|Withdraw)\b")


def starts(ui: UI, identifier: str, prefix: str, timeout: float = 10_000) -> None:
    """Wait until a control's text starts with `prefix`."""
    ui.page.wait_for_function(
        "([s, v]) => (document.querySelector(s)?.textContent || '').trim().startsWith(v)",
        arg=[sel(identifier), prefix], timeout=timeout)


def no_traceback(server: Server) -> None:
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def on_screen(ui: UI, identifier: str) -> None:
    """The control is inside the visible viewport (no scrolling needed)."""
    height = (ui.page.viewport_size or BOARD)["height"]
    box = ui.page.locator(sel(identifier)).first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, \
        (identifier, box)


def test_a_phone_back_from_a_long_offline_plays_exactly_what_it_shows(browser,
                                                                      tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "offline")
    t = seed(data, position(3, phase="planning"))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        ann, bo, cy = (phone(browser, server, t, i) for i in range(3))
        tablet = board(browser, server, t)
        uis += [ann, bo, cy, tablet]
        ann.page.wait_for_function(LIVE, timeout=10_000)
        ann.tap("loc-pick-1")
        ann.tap("face-down")
        ann.tap("play")
        tablet.wait_text("board-blood-0", "5")
        # offline: the device's own cover within 3 s; a tap there is not sent, and says so
        ann.context.set_offline(True)
        t0 = time.monotonic()
        ann.page.wait_for_function(OFFLINE, timeout=3_000)
        assert time.monotonic() - t0 < 3
        ann.page.mouse.click(195, 500)
        assert ann.page.evaluate(
            "() => document.getElementById('vc-offline-tap').textContent") == \
            "Not sent: this device is offline."
        ann.shot("80-phone-offline")
        # the table goes on meanwhile
        for i, other in ((1, bo), (2, cy)):
            starts(other, "seat-state", "Your turn")
            other.tap("loc-pick-2")
            other.tap("face-down")
            other.tap("play")
            tablet.wait_text(f"board-blood-{i}", "5")
        time.sleep(max(0.0, 60 - (time.monotonic() - t0)))  # a locked phone, a minute
        ann.context.set_offline(False)
        ann.page.wait_for_function(LIVE, timeout=30_000)
        starts(ann, "seat-state", "Your turn")  # Bo and Cy played meanwhile: Ann's turn again
        ann.tap("loc-pick-2")
        ann.tap("face-down")
        # what Play +1 will do, in words (the label a screen reader reads: "+1" on screen)
        ann.wait_text("play-1", "Play face down at Location #2 with 1 Blood")
        ann.shot("81-phone-back-online")
        ann.tap("play-1")
        # 5 Blood - 1 (face down) - 1 (on the Position): played as shown, seen everywhere
        tablet.wait_text("board-blood-0", "3")
        ann.wait_text("my-blood", "3")
        assert "1 face down, 1 Blood" in tablet.texts_of("board-here-")
        no_traceback(server)
    finally:
        close(*uis)
        server.stop()


WITHDRAW = {"1": {"Ann": ([plain(3)], 1), "Bo": ([plain(2)], 0), "Cy": ([plain(1)], 0)}}


def test_choices_at_the_same_instant_all_count_and_an_undo_is_told_everywhere(
        browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "instant")
    t = seed(data, position(3, WITHDRAW))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        ref = referee(browser, server, t)
        phones = [phone(browser, server, t, i) for i in range(3)]
        tablet = board(browser, server, t)
        uis += [ref, *phones, tablet]
        for name in ("board-tile-1", "board-tile-haven", "board-blood-0", "board-blood-2"):
            on_screen(tablet, name)  # the board fits 1280×800: nothing below the fold
        tablet.shot("82-board-withdraw")
        for ui in uis:  # secret: nothing of a choice in any page's HTML either
            assert not CHOICE.search(ui.page.content())
        # the three taps fire within the same 20 ms, each from the screen it was drawn from
        at = phones[0].page.evaluate("Date.now() + 600")
        script = ("([s, at]) => setTimeout(() => document.querySelector(s).click(), "
                  "at - Date.now())")
        for i, ui in enumerate(phones):
            choice = "withdraw" if i == 0 else "stay"
            ui.page.evaluate(script, [sel(f"choose-{choice}-{i}") + " [flt-tappable]", at])
        for ui in uis:
            ui.page.wait_for_function(
                "s => (document.querySelector(s)?.textContent || '').includes('Ann withdraws')",
                arg="flt-semantics-host", timeout=10_000)
        for ui in phones:
            assert not ui.has("error"), ui.read("error")  # none refused as stale
        tablet.shot("83-board-revealed")
        for name in ("board-tile-1", "board-blood-0", "board-blood-2"):
            on_screen(tablet, name)
        ref.tap("undo")
        for ui in phones:
            ui.page.wait_for_function(
                "s => (document.querySelector(s)?.textContent || '')"
                ".includes('The referee took back: the Stay/Withdraw choices were revealed')",
                arg="flt-semantics-host", timeout=10_000)
        tablet.page.wait_for_function(
            "s => (document.querySelector(s)?.textContent || '').includes('took back')",
            arg="flt-semantics-host", timeout=10_000)
        # Cy chooses again, then loses her phone: the referee frees her seat
        phones[2].tap("choose-withdraw-2")
        tablet.wait_text("board-chosen", "1 of 3 have chosen Stay or Withdraw")
        ref.tap("to-host")
        ref.tap("free-2")
        ref.tap("confirm-yes")
        ref.wait("seat-code-2")  # its new code, for Cy alone
        cy = phones[2]
        cy.wait("error")
        assert "no longer holds Cy's seat" in cy.read("error")
        assert cy.page.locator(sel("claim-referee")).count() == 1  # one Referee card
        thief = UI(browser, server, path=f"/join/{t['id']}", host=False)
        uis.append(thief)
        thief.wait("claim-seat")
        thief.tap("pick-2")
        for code in (t["seat0"], t["seat2"]):  # another seat's code, or Cy's old one
            thief.fill("seat-code", code)
            thief.tap("claim-seat")
            thief.wait("error")
            assert "wrong code for Cy's seat" in thief.read("error")
        assert not thief.has("seat-state")
        for ui in uis:  # Cy's pending Withdraw is nowhere, page HTML included
            html = ui.page.content()
            assert not CHOICE.search(html) and "chose Withdraw" not in html, ui.page.url
            assert "Cy withdraws" not in html
        assert tablet.read("board-chosen") == "1 of 3 have chosen Stay or Withdraw"
        no_traceback(server)
    finally:
        close(*uis)
        server.stop()


def test_closing_every_device_at_once_prints_no_traceback(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "closing")
    t = seed(data, position(4, phase="planning"))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        phones = [phone(browser, server, t, i) for i in range(4)]
        tablet = board(browser, server, t)
        uis += [*phones, tablet]
        phones[1].context.close()  # Bo's phone is gone; his turn comes next
        uis.remove(phones[1])
        phones[0].tap("loc-pick-1")
        phones[0].tap("face-down")
        phones[0].tap("play")
        tablet.wait_text("board-blood-0", "5")
        time.sleep(1)
        for ui in list(uis):  # the four others closed at once
            ui.context.close()
        uis.clear()
        time.sleep(3)
        assert server.proc is not None and server.proc.poll() is None  # still serving
        no_traceback(server)
    finally:
        close(*uis)
        server.stop()
