"""Real-browser tests of the review pages: a finished game's review and its charts, the
statistics page, the rules reference search, and the help button of a Resolution step."""

import json
from pathlib import Path

import pytest

from companion.cli.main import Script
from companion.library.session import GameSession
from companion.rules.game import Game
from companion.storage import TinyDBGameStore
from tests.browser.harness import UI, Server, fresh_dir

# Same policy as test_browser.py: a test lost to a redraw is retried on a fresh server.
pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _script(name: str) -> Script:
    return Script.model_validate(json.loads((EXAMPLES / name).read_text()))


def seed(data_dir: Path, names: tuple[str, ...], stop_at_withdraw: bool = False) -> None:
    """Store example games (played through the service, as the app would)."""
    store = TinyDBGameStore(data_dir)
    service = GameSession(store)
    for name in names:
        script = _script(name)
        actions = list(script.actions)
        if stop_at_withdraw:  # stop at the first Withdraw step of the game
            game = Game.new(script.start.setup or script.start.position)
            for n, action in enumerate(actions):
                if game.state.phase == "resolution" and game.state.step == "withdraw":
                    actions = actions[:n]
                    break
                game.play(action)
        service.new_game(script.start.setup or script.start.position)
        for action in actions:
            service.play(action)
    store.close()


def test_review_story_replay_and_charts(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "review")
    seed(data, ("four_players.json",))
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.wait("review-0")
        ui.page.wait_for_timeout(800)
        ui.shot("20-home-history")
        ui.tap("review-0")
        ui.wait("winner")
        assert ui.read("winner").endswith("wins!")
        ui.shot("21-review-score")
        ui.tap("review-tab-story")
        ui.wait("tl-round-1")
        ui.shot("22-review-story")
        ui.tap("tl-part-2")
        ui.wait("tl-round-2") if ui.has("tl-round-2") else ui.page.wait_for_timeout(300)
        ui.tap("review-tab-replay")
        ui.wait("replay-head")
        ui.tap("replay-start")
        ui.wait_text("replay-head", "The start of the game")
        ui.tap("replay-next")
        ui.page.wait_for_function(
            "s => { const e = document.querySelector(s);"
            " return e && e.textContent.includes('After action 1 of'); }",
            arg='flt-semantics-host [flt-semantics-identifier="replay-head"]')
        ui.shot("23-review-replay")
        ui.tap("review-tab-charts")
        ui.wait("chart-influence")
        ui.wait("chart-influence-end")
        ui.page.wait_for_timeout(800)  # let the chart animation finish
        ui.shot("24-review-charts")
        ui.on_screen("chart-power-1")
        ui.page.wait_for_timeout(800)
        ui.shot("25-review-power")
    finally:
        ui.close()
        server.stop()


def test_stats_and_catalogue_pages(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "stats")
    seed(data, ("four_players.json", "three_players.json"))
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.wait("stats")
        ui.tap("stats")
        ui.wait_text("stats-games", "2 finished games counted")
        ui.shot("26-stats")
        ui.tap("stats-filters")
        ui.wait("stats-count-3")
        ui.tap("stats-count-3")
        ui.wait_text("stats-games", "1 finished game counted")
        ui.shot("27-stats-filters")
        ui.tap("home")
        ui.wait("catalogue")
        ui.tap("catalogue")
        ui.wait("cat-count")
        ui.shot("28-catalogue")
        ui.tap("card-BR-HUNT")
        ui.wait("edit-power")
        ui.fill("edit-power", "25")
        ui.tap("edit-save")
        ui.wait("error")
        assert "BR-HUNT" in ui.read("error") and "power" in ui.read("error")
        ui.shot("29-catalogue-refused")
    finally:
        ui.close()
        server.stop()


def test_rules_search_and_open_a_hit(browser, tmp_path: Path) -> None:
    server = Server(fresh_dir(tmp_path, "rules")).start()
    ui = UI(browser, server)
    try:
        ui.wait("rules")
        ui.tap("rules")
        ui.wait("rules-search")
        ui.shot("30-rules")
        ui.fill("rules-search", "frenzy")
        ui.wait("hit-frenzy")
        ui.shot("31-rules-search")
        ui.tap("hit-frenzy")
        ui.wait_text("section-title", "Frenzy")
        ui.shot("32-rules-section")
    finally:
        ui.close()
        server.stop()


def test_help_button_of_a_resolution_step(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "help")
    seed(data, ("four_players.json",), stop_at_withdraw=True)
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.wait("game-0")
        ui.tap("game-0")
        ui.wait("withdraw-ok")
        ui.shot("33-withdraw-help-button")
        ui.tap("help")
        ui.wait_text("section-title", "Step 1: Withdraw")
        ui.shot("34-help-withdraw")
        ui.tap("rules-back")
        ui.wait("withdraw-ok")
    finally:
        ui.close()
        server.stop()
