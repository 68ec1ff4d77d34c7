"""items 2–4 through the app factory with temp stores: the Data page (backup, preview,
restore, refusals, automatic backups), sharing a result, the clock line and game lengths."""

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from companion.cli.main import Script
from companion.library.backups import AutoBackup, AutoBackups, backup_file, game_file, kept
from companion.library.library import Library
from companion.library.session import GameSession
from companion.rules.game import Game
from companion.storage import MemoryGameStore, TinyDBGameStore
from companion.story.share import bgstats_link, bgstats_play, result_text
from tests.ui import click, find, has, value
from views.app import build
from views.data_page import check_file, confirm, on_cancel
from views.state import AppState

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NAMES = ("four_players.json", "three_players.json", "tag_team.json")


def play(service: GameSession, name: str) -> Game:
    s = Script.model_validate(json.loads((EXAMPLES / name).read_text()))
    game = service.new_game(s.start.setup or s.start.position)
    for a in s.actions:
        service.play(a)
    return game


def journals(store) -> dict[str, tuple[dict, list[dict]]]:  # noqa: ANN001
    return {g["game_id"]: (store.load(g["game_id"]).header, store.load(g["game_id"]).entries)
            for g in store.list_games()}


@pytest.fixture
def source(tmp_path: Path) -> Library:
    service = GameSession(TinyDBGameStore(tmp_path / "source"))
    for name in NAMES:
        play(service, name)
    library = Library(service.store)
    library.remember("allies", {"id": "AL-TEST", "name": "Test Ally", "kind": "human",
                                "influence": 2, "feed": 1, "drain_blood": 2,
                                "drained_influence": 0})
    return library


def data_app(tmp_path: Path, name: str = "target") -> AppState:
    app = build(GameSession(TinyDBGameStore(tmp_path / name)))
    click(app.root, "data")
    return app


def test_home_leads_to_the_data_page(tmp_path: Path) -> None:
    app = data_app(tmp_path)
    assert app.route.path == "/data"
    for ident in ("data-backup-save", "data-open", "data-auto-now", "data-catalogue-save"):
        assert has(app.root, ident)


def test_backup_preview_then_restore_brings_every_game_back(tmp_path: Path,
                                                            source: Library) -> None:
    name, data = backup_file(source)
    app = data_app(tmp_path)
    check_file(app, name, data)
    assert app.error is None and has(app.root, "data-preview")
    summary = value(app.root, "data-preview-summary")
    assert "3 game(s)" in summary and "3 new here" in summary
    lines = [value(app.root, f"data-preview-game-{i}") for i in range(3)]
    assert any("won by Blue" in line for line in lines)  # the tag-team winner
    assert "1 Allies" in value(app.root, "data-preview-cards")
    assert app.library.store.list_games() == []  # a preview writes nothing
    confirm(app)
    assert app.error is None and "Restored 3 game(s)" in value(app.root, "data-message")
    assert journals(app.library.store) == journals(source.store)
    for header, entries in journals(app.library.store).values():
        Game.from_journal(header, entries, verify=True)
    assert any(a.id == "AL-TEST" for a in app.catalogue.allies)
    # the same file again: everything already here, nothing to restore
    check_file(app, name, data)
    assert "0 new here, 3 already here" in value(app.root, "data-preview-summary")
    assert not find(app.root, "data-confirm").disabled  # its catalogue would be restored
    games_only = {k: v for k, v in json.loads(data).items() if k != "catalogue"}
    check_file(app, name, json.dumps(games_only).encode())
    assert find(app.root, "data-confirm").disabled  # nothing to restore: nothing to press


def test_a_tampered_backup_is_refused_in_the_preview(tmp_path: Path, source: Library) -> None:
    name, data = backup_file(source)
    doc = json.loads(data)
    entries = doc["games"][1]["entries"]
    action = next(e for e in entries if e["kind"] == "action" and e["events"])
    action["events"].append(action["events"][0])  # an event the command does not give
    app = data_app(tmp_path)
    before = sorted(p.read_bytes() for p in (tmp_path / "target").rglob("*") if p.is_file())
    check_file(app, "tampered.json", json.dumps(doc).encode())
    assert app.error and "games[1]" in app.error and "Nothing was changed" in app.error
    assert not has(app.root, "data-preview")
    after = sorted(p.read_bytes() for p in (tmp_path / "target").rglob("*") if p.is_file())
    assert before == after


@pytest.mark.parametrize("raw, problem", [
    (b"\xff\xfe not utf-8", "UTF-8"),
    (b'{"format": "vendetta-companion/backup", "schema_version": 1, "games": [', "JSON"),
    (b"[1, 2, 3]", "JSON object"),
    (b'{"format": "something else"}', "not a backup"),
    (b'{"allies": [{"id": "AL-X", "influence": -4}]}', "allies"),
])
def test_bad_files_are_refused_with_a_reason(tmp_path: Path, raw: bytes, problem: str) -> None:
    app = data_app(tmp_path)
    check_file(app, "bad.json", raw)
    assert app.error and problem in app.error and not has(app.root, "data-confirm")


def test_one_game_file_and_a_catalogue_file(tmp_path: Path, source: Library) -> None:
    gid = source.store.list_games()[0]["game_id"]
    name, data = game_file(source, gid)
    app = data_app(tmp_path)
    check_file(app, name, data)
    assert value(app.root, "data-preview-summary") == "One game."
    confirm(app)
    assert [g["game_id"] for g in app.library.store.list_games()] == [gid]
    cat = json.dumps(source.export_catalogue()).encode()
    check_file(app, "cards.json", cat)
    assert "1 Allies" in value(app.root, "data-preview-cards")
    on_cancel(app)
    assert "Nothing was changed" in value(app.root, "data-message")
    assert not any(a.id == "AL-TEST" for a in app.library.user_catalogue().allies)


def test_automatic_backups_skip_unchanged_data_and_restore(tmp_path: Path,
                                                          source: Library) -> None:
    auto = AutoBackups.of(source)
    first = auto.write()
    assert first is not None and first.games == 3 and auto.write() is None
    play(GameSession(source.store), "five_players.json")
    second = auto.write()
    # the same day: the newer backup replaces the older one (the newest of each day is kept)
    assert second is not None and second.games == 4 and auto.listing() == [second]
    app = data_app(tmp_path)
    check_file(app, second.name, auto.read(second.name))
    assert "4 new here" in value(app.root, "data-preview-summary")
    with pytest.raises(KeyError):
        auto.read("../catalogue.json")


def test_rotation_keeps_seven_days_and_four_weeks() -> None:
    start = datetime(2025, 1, 1, 20, tzinfo=UTC)
    backups = []
    for day in range(60):  # two backups a day for 60 days
        for hour in (0, 2):
            when = start + timedelta(days=day, hours=hour)
            backups.append(AutoBackup(Path(f"auto-{day}-{hour}"), when, 1, "0" * 8, 1))
    keep = kept(backups)
    days = sorted({b.when.date() for b in keep}, reverse=True)
    assert all(b.when.hour == 22 for b in keep)  # the newest of each day
    last = start + timedelta(days=59)
    assert days[:7] == [(last - timedelta(days=i)).date() for i in range(7)]
    weeks = sorted({b.when.isocalendar()[:2] for b in backups}, reverse=True)
    kept_weeks = {b.when.isocalendar()[:2] for b in keep}
    assert set(weeks[:4]) <= kept_weeks and len(keep) <= 7 + 4
    assert {b.when.date() for b in keep} - set(days[:7]) == {
        max(b.when for b in backups if b.when.isocalendar()[:2] == w).date()
        for w in weeks[:4]} - set(days[:7])
    # a group that stopped playing keeps its last backups however old
    old = [AutoBackup(Path("a"), start, 1, "0" * 8, 1)]
    assert kept(old) == old


def test_share_panel_text_picture_and_bgstats() -> None:
    svc = GameSession(MemoryGameStore())
    game = play(svc, "four_players.json")
    app = build(svc)  # the app opens the played game at a table
    app.go("game")
    board = game.scoreboard
    assert board is not None
    shown = value(app.root, "share-text")
    assert shown == result_text(game)
    assert f"Winner: {board.winner}" in shown
    for r in board.rows:
        assert f"{r.rank}. {r.name} ({r.clan}): {r.influence.total} Influence" in shown
        assert value(app.root, f"score-{r.rank}") == str(r.influence.total)
    click(app.root, "share-picture")
    assert has(app.root, "share-image") and has(app.root, "share-picture-send")
    png = app.draft("share")["png"]
    assert Image.open(io.BytesIO(png)).size[0] == 1080
    bg = bgstats_play(game)
    assert bg["sourceName"] == "Vendetta Companion" and bg["sourcePlayId"] == \
        game.header.game_id
    winners = [p["name"] for p in bg["players"] if p["winner"]]
    assert winners == [board.winner]
    assert sum(p["startPlayer"] for p in bg["players"]) == 1
    assert {p["name"]: p["score"] for p in bg["players"]} == {
        r.name: r.influence.total for r in board.rows}
    assert all(set(p) >= {"name", "winner", "startPlayer", "score", "rank", "role"}
               for p in bg["players"])
    assert bgstats_link(bg).startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
    click(app.root, "to-review")
    assert app.route.path == f"/review/{game.header.game_id}"


def test_tag_team_share_names_teams() -> None:
    game = play(GameSession(MemoryGameStore()), "tag_team.json")
    text = result_text(game)
    assert "Teams:" in text and "Players:" in text
    bg = bgstats_play(game)
    board = game.scoreboard
    assert board is not None and {p["name"] for p in bg["players"] if p["winner"]} == {
        game.state.players[i].name for i in next(t.players for t in board.teams or []
                                                 if t.rank == 1)}


def test_clock_line_on_the_game_screen_and_lengths_in_statistics() -> None:
    app = build(GameSession(MemoryGameStore()))
    s = Script.model_validate(json.loads((EXAMPLES / "four_players.json").read_text()))
    app.new_game(s.start.setup)
    assert app.session.game is not None and app.session.game.clock_running()
    app.go("game")
    assert value(app.root, "clock").startswith("Played 0:0")
    assert "Setup" in value(app.root, "clock")
    for a in s.actions:
        app.session.play(a)
    app.go("stats")
    assert value(app.root, "stats-games").startswith("1 finished")
    # the clock ran for well under a minute in this test: the game counts with its seconds
    lengths = [i for i in ("stats-length-4",) if has(app.root, i)]
    timed = app.session.game.time()
    assert timed is not None and (lengths == ["stats-length-4"]) == (timed.seconds > 0)


def test_the_backup_fingerprint_follows_every_change_and_survives_a_restart(tmp_path: Path
                                                                            ) -> None:
    """The automatic backup's "anything changed?" mark reads no summary, yet changes with a
    new game, a changed summary (a game played on) and the catalogue, and is the same after a
    restart."""
    from companion.library.backups import fingerprint

    svc = GameSession(TinyDBGameStore(tmp_path))
    play(svc, "four_players.json")
    marks = [fingerprint(svc)]
    svc.store.close()
    svc = GameSession(TinyDBGameStore(tmp_path))
    assert fingerprint(svc) == marks[0]  # a restart changes nothing
    s = Script.model_validate(json.loads((EXAMPLES / "three_players.json").read_text()))
    svc.new_game(s.start.setup or s.start.position)
    marks.append(fingerprint(svc))
    for a in s.actions:  # played to its end: its summary changes
        svc.play(a)
    marks.append(fingerprint(svc))
    svc.store.save_catalogue({"version": 2, "allies": []})  # the catalogue file changed
    marks.append(fingerprint(svc))
    assert len(set(marks)) == 4, marks
    svc.store.close()
