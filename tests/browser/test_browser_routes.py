"""Real-browser tests of addresses and Back: the browser's Back button returns to the
previous screen, a link opens a review or a rules section directly, an unknown address lands
on Home with a message."""

from pathlib import Path

import pytest

from companion.storage import TinyDBGameStore
from tests.browser.harness import UI, Server, fresh_dir
from tests.browser.test_browser_review import seed

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)


def address(ui: UI) -> str:
    """The path the browser shows."""
    return "/" + ui.page.url.split("/", 3)[3]


def wait_address(ui: UI, path: str) -> None:
    ui.page.wait_for_function("p => location.pathname === p", arg=path)


def test_browser_back_walks_the_screens_back(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "routes")
    seed(data, ("four_players.json",))
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.wait("review-0")
        ui.tap("stats")
        ui.wait("stats-games")
        wait_address(ui, "/stats")
        ui.page.go_back()
        ui.wait("review-0")
        wait_address(ui, "/")
        ui.tap("review-0")
        ui.wait("winner")
        assert address(ui).startswith("/review/")
        ui.page.go_back()
        ui.wait("review-0")
        ui.tap("rules")
        ui.wait("rules-search")
        ui.tap("sec-round")
        ui.wait("rules-list")
        wait_address(ui, "/rules/round")
        ui.page.go_back()
        ui.wait("rules-search")
        wait_address(ui, "/rules")
        ui.tap("back")  # the title bar's Back
        ui.wait("review-0")
        wait_address(ui, "/")
        ui.tap("game-0")  # open the finished game at the table, then its dashboard
        ui.wait("nav-table")
        ui.tap("nav-table")
        ui.wait("blood-0")
        wait_address(ui, "/game/table")
        ui.page.go_back()
        wait_address(ui, "/game")
        ui.wait("winner")
    finally:
        ui.close()
        server.stop()


def test_links_open_a_review_or_a_rules_section(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "links")
    seed(data, ("four_players.json",))
    store = TinyDBGameStore(data)
    game_id = store.list_games()[0]["game_id"]
    store.close()
    server = Server(data).start()
    try:
        ui = UI(browser, server, path=f"/review/{game_id}")
        ui.wait("winner")
        ui.shot("40-deep-link-review")
        ui.tap("back")
        ui.wait("review-0")
        wait_address(ui, "/")
        ui.close()
        ui = UI(browser, server, path="/rules/round")
        ui.wait("rules-list")
        assert "round" in ui.read("status").lower()
        ui.close()
        ui = UI(browser, server, path="/no/such/page")
        ui.wait("error")
        assert "no page at '/no/such/page'" in ui.read("error")
        wait_address(ui, "/")
        ui.close()
    finally:
        server.stop()
