"""A real browser on a phone (390×844) enters a Heritage game from Home to its winner, and
sees it listed on Home with its game's name."""

from pathlib import Path

import pytest

from tests.browser.harness import PHONE, UI, Server, fresh_dir

# Same policy as test_browser.py: a test lost to a redraw is retried on a fresh server.
pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)


def said_on_screen(ui: UI, words: str) -> None:
    """Wait until the screen says `words` (what it says instead, if it never does)."""
    try:
        ui.page.wait_for_function(
            "w => document.querySelector('flt-semantics-host').textContent.includes(w)",
            arg=words, timeout=10_000)
    except Exception:
        raise AssertionError(f"never said {words!r}: {ui.body_text()!r}") from None


def test_a_heritage_game_from_home_to_its_winner(browser, tmp_path: Path) -> None:
    server = Server(fresh_dir(tmp_path, "heritage")).start()
    ui = UI(browser, server, PHONE)
    try:
        ui.wait("new-heritage")
        ui.tap("new-heritage")
        ui.wait("her-name-0")
        ui.fill("her-name-0", "Ana")
        ui.fill("her-name-1", "Ben")
        for k in range(3):
            ui.tap(f"her-bg-{k}")
        ui.wait_text("her-bg-chosen", "Choose 3 (§H2). Chosen (3): Of Clans High and Low, "
                     "The War of the Princes, The Beast Within.")
        ui.tap("her-start")
        try:
            ui.wait("her-round-last")
        except Exception:
            ui.shot("61-heritage-not-started")
            raise AssertionError(f"the pad did not open: {ui.body_text()!r}") from None
        ui.tap("her-round-last")
        ui.wait_text("her-rounds", "All 10 rounds finished: the game is over (§H3).")
        ui.fill("her-1-vp-1", "7")
        ui.tap("her-save")
        said_on_screen(ui, "Saved. Ben wins with 7 VP")  # the news by the pinned buttons
        ui.reveal("her-outcome")  # the result, at the top of the pad
        ui.wait_text("her-outcome", "Ben wins")
        ui.shot("60-heritage-winner")
        ui.tap("home")
        ui.wait("detail-0")
        ui.wait_text("detail-0", "Ben wins")
        assert "Heritage: Ana, Ben" in ui.body_text()
    finally:
        ui.close()
        server.stop()
