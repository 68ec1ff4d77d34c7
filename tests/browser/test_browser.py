"""Real-browser tests: the app served by Flet, driven in Chromium at phone size."""

import re
from pathlib import Path

import pytest

from companion.rules.game import Game
from companion.storage import TinyDBGameStore
from tests.browser.harness import TABLET, UI, Server, fresh_dir
from tests.browser.play import Referee, act, ids, pick

# A real browser against a real server redraws on its own clock: a lost tap is retried by the
# harness, and a whole test is retried at most twice on a fresh server before it counts as failed.
pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)

ALLIES = [("T-DOCK", "Dock Boss"), ("T-NURSE", "Night Nurse"), ("T-PRIEST", "Old Priest"),
          ("T-CLERK", "Hotel Clerk"), ("T-COP", "Beat Cop"), ("T-DJ", "Club DJ"),
          ("T-CABBIE", "Night Cabbie"), ("T-MEDIC", "Ward Medic"), ("T-BARMAN", "Barman"),
          ("T-COURIER", "Courier")]
"""Allies the table draws: at least 3 a round for 3 rounds, as each Ally exists once (§1)."""


def seed_catalogue(data_dir: Path) -> None:
    """Allies the user entered in earlier games (complete values)."""
    store = TinyDBGameStore(data_dir)
    store.save_catalogue({"allies": [
        {"id": i, "name": n, "kind": "human", "influence": 2, "feed": 1, "drain_blood": 2,
         "drained_influence": 0} for i, n in ALLIES]})
    store.close()


def start_game(ui: UI, names: list[str], clans: list[str]) -> None:
    """Wizard, first player, free clan choice."""
    ui.tap("new-game")
    ui.wait("name-0")
    for i, name in enumerate(names):
        if i >= 4:
            pick(ui, "add-player")
        ui.fill(f"name-{i}", name)
    ui.shot("02-new-game")
    # Create game is enabled once 3 names reached the server (until then it says so)
    ui.wait_text("create-game", "Create game")
    ui.tap("create-game")
    ui.wait("first-0")
    ui.shot("03-first-player")
    act(ui, "first-0")
    ui.shot("04-clans")
    for clan in clans:
        act(ui, f"clan-{clan}")


def table_numbers(ui: UI, n: int) -> list[tuple[str, str]]:
    """(Blood, Influence) of every seat on the Table screen."""
    ui.wait("player-0")  # the Table screen is drawn (a Planning screen has blood-N chips)
    return [(ui.read(f"blood-{s}"), ui.read(f"infl-{s}")) for s in range(n)]


def test_full_four_player_game(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "game")
    seed_catalogue(data)
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.wait("new-game")
        ui.shot("01-home")
        start_game(ui, ["Ann", "Bob", "Cat", "Dan"], ["Brujah", "Gangrel", "Nosferatu",
                                                      "Tremere"])
        ui.wait("checklist")
        ui.shot("05-checklist")
        act(ui, "feed")
        pick(ui, "nav-table")
        assert table_numbers(ui, 4) == [("7", "3")] * 4  # 6 Blood + Victim's Feed 1 (§2, §4)
        ui.shot("06-table")
        pick(ui, "nav-table")
        ui.wait("allies-ok")
        ui.shot("07-location-setup")
        ref = Referee(ui, [i for i, _ in ALLIES])
        seen: set[str] = set()
        for _ in range(400):
            on = ids(ui)
            for key, shot in (("play", "09-planning"), ("withdraw-ok", "10-withdraw"),
                              ("reveal-ok", "11-revelation"), ("continue", "12-conflict"),
                              ("round-summary", "13-round-summary"),
                              ("hands-ok", "08-hand-building")):
                if key in on and shot not in seen:
                    seen.add(shot)
                    ui.shot(shot)
            if "power-table" in on and "row" not in seen and ui.has("notice") and \
                    "Power at" in ui.read("notice"):
                seen.add("row")
                ui.shot("12b-ranking")
            if ref.step() == "done":
                break
        ui.wait("winner")
        ui.shot("14-final-score")
        shown = {int(m.group(1)): ui.read(f"score-{m.group(1)}")
                 for i in ids(ui) if (m := re.fullmatch(r"score-(\d)", i))}
        assert sorted(shown) == [1, 2, 3, 4]
        for rank in shown:  # each total equals the sum of its parts (§12)
            line = ui.read(f"breakdown-{rank}")
            parts = [int(x) for x in re.findall(r"(?:cards|tokens|Relic) (-?\d+)", line)]
            minus = [int(x) for x in re.findall(r"Diablerie (\d+)", line)]
            assert sum(parts) - sum(minus) == int(shown[rank]) == int(line.rsplit("= ", 1)[1])
        assert [int(shown[r]) for r in sorted(shown)] == sorted(
            (int(v) for v in shown.values()), reverse=True)
        winner = ui.read("winner")
        pick(ui, "nav-log")
        ui.shot("15-log")
    finally:
        ui.close()
        server.stop()
    summary = TinyDBGameStore(data).list_games(finished=True)[0]
    assert winner == f"{summary['winner']} wins!"
    best = max(summary["scores"].values())
    assert int(shown[1]) == best


def test_refusal_undo_and_redo(browser, tmp_path: Path) -> None:
    server = Server(fresh_dir(tmp_path, "undo")).start()
    ui = UI(browser, server)
    try:
        ui.wait("new-game")
        start_game(ui, ["Ann", "Bob", "Cat"], ["Brujah", "Gangrel", "Ventrue"])
        act(ui, "feed")
        pick(ui, "nav-table")
        assert table_numbers(ui, 3) == [("7", "3")] * 3
        # a refused action shows its reason and changes nothing (§14 Spend)
        pick(ui, "effect-open")
        pick(ui, "effect-action-spend_blood")
        pick(ui, "effect-player-0")
        ui.fill("effect-amount", "9")
        act(ui, "effect-apply")
        ui.wait("error")
        assert "last Blood" in ui.read("error")
        ui.shot("16-refused")
        assert table_numbers(ui, 3) == [("7", "3")] * 3
        # undo restores the previous screen and numbers
        act(ui, "undo")
        ui.wait_text("blood-0", "6")
        assert table_numbers(ui, 3) == [("6", "3")] * 3
        pick(ui, "nav-table")
        ui.wait("feed")
        assert "Feed" in ui.read("status")
        ui.shot("17-after-undo")
        act(ui, "redo")
        ui.wait("allies-ok")
    finally:
        ui.close()
        server.stop()


def test_kill_restart_resume(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "kill")
    seed_catalogue(data)
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.wait("new-game")
        start_game(ui, ["Ann", "Bob", "Cat", "Dan", "Eve"],
                   ["Brujah", "Gangrel", "Nosferatu", "Tremere", "Toreador"])
        ref = Referee(ui, [i for i, _ in ALLIES])
        while "play" not in ids(ui) or ref.plays < 3:
            ref.step()
        pick(ui, "nav-table")
        before = table_numbers(ui, 5)
        status, hint = ui.read("status"), ui.read("undo-hint")
    finally:
        ui.close()
    server.kill()  # SIGKILL mid-game
    server = Server(data, server.port).start()
    ui = UI(browser, server, TABLET)
    try:
        ui.wait("game-0")
        ui.shot("18-resume-tablet")
        ui.tap("game-0")
        ui.wait("undo-hint")
        pick(ui, "nav-table")  # the same screen as before the kill
        assert ui.read("status") == status
        assert ui.read("undo-hint") == hint
        assert table_numbers(ui, 5) == before
        ui.shot("19-table-tablet")
    finally:
        ui.close()
        server.stop()
    store = TinyDBGameStore(data)
    game = store.list_games()[0]["game_id"]
    stored = store.load(game)
    Game.from_journal(stored.header, stored.entries, verify=True)
