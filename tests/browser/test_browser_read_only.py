"""A data folder this process may not write (a read-only bind mount), served to a real browser:
the app starts on Home with the games and the read-only note, Review and Statistics open, New
game is disabled right under its reason."""

import os
import subprocess
from pathlib import Path

import pytest

from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub
from tests.browser.harness import UI, Server, fresh_dir, sel
from tests.browser.test_browser_review import seed

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)


def mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def test_read_only_folder_starts_for_review(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "data")
    seed(data, ("four_players.json", "three_players.json"))
    TableHub(TinyDBGameStore(data)).store.close()  # the host key, as after an earlier start
    folder = tmp_path / "ro"
    folder.mkdir()
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and mount("--bind", str(data),
                                                                   str(folder))):
        pytest.skip("needs root and mount rights for a read-only bind mount")
    try:
        assert mount("-o", "remount,bind,ro", str(folder))
        before = {str(p): p.stat().st_mtime_ns for p in data.rglob("*")}
        server = Server(folder).start()
        ui = UI(browser, server)
        try:
            ui.wait("read-only")
            note = ui.read("read-only")
            assert note == (f"This data folder is read-only: you can review games, not play "
                            f"or change them ({folder}).")
            ui.wait("review-0")
            ui.wait("review-1")
            assert not ui.has("game-0")  # nothing to resume or open at a table
            new_game = ui.page.get_by_role("button", name="New game")
            assert new_game.is_disabled()
            box_note = ui.page.locator(sel("read-only")).bounding_box()
            box_new = ui.page.locator(sel("new-game")).bounding_box()
            assert box_note and box_new and box_note["y"] < box_new["y"]  # the reason above
            ui.shot("90-read-only-home")
            ui.tap("review-0")
            ui.wait("review-tab-story")
            ui.page.go_back()
            ui.wait("stats")
            ui.tap("stats")
            ui.wait("stats-clans")
        finally:
            ui.close()
            server.stop()
        assert "Traceback" not in server.log.read_text()
        assert {str(p): p.stat().st_mtime_ns for p in data.rglob("*")} == before
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
