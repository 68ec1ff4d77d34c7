"""The Heritage chronicle ledger screen and the Heritage pad's helpers through the app factory,
no browser: taps are handler calls. Each confirmed entry is one undoable save; a refusal is
shown in plain words with its § and leaves the ledger and the disk as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.library.backups import backup_file
from companion.library.library import Library
from companion.library.pad_kinds import chronicle
from companion.library.session import GameSession
from companion.storage import MemoryGameStore, TinyDBGameStore
from tests.ui import click, find, has, label, texts, type_in, value, walk
from views.app import build
from views.screens import Route, parse
from views.state import AppState


@pytest.fixture
def store() -> MemoryGameStore:
    return MemoryGameStore()


@pytest.fixture
def app(store: MemoryGameStore) -> AppState:
    app = build(GameSession(store))
    app.seen_after = 0
    return app


def chosen(app: AppState, identifier: str) -> bool:
    return any(getattr(c, "identifier", None) == identifier and c.selected
               for c in walk(app.root))


def saves(app: AppState) -> int:
    assert app.pad is not None and app.pad.game is not None
    return len(app.library.store.load(app.pad.game.header.game_id).entries)


def new_ledger(app: AppState, names: tuple[str, ...] = ("Ana", "Ben", "Cleo")) -> None:
    """Home → new Heritage game → Start a chronicle ledger → the ledger."""
    r = app.root
    click(r, "new-heritage")
    click(r, "her-ledger")
    assert app.screen == "chronicle" and app.route.param is None
    for i, name in enumerate(names):
        if i >= 2:
            click(r, "led-add-player")
        type_in(r, f"led-name-{i}", name)
    click(r, "led-start")
    assert app.error is None and app.screen == "chronicle" and app.route.param


def chapter(app: AppState, seats: list[tuple[str, str, int, int]]) -> None:
    """Type a chapter's seats (player, clan, VP, missions claimed) and save it."""
    r = app.root
    while sum(has(r, f"led-seat-{i}-name") for i in range(4)) < len(seats):
        click(r, "led-seat-add")
    for i, (player, clan, vp, missions) in enumerate(seats):
        type_in(r, f"led-seat-{i}-name", player)
        click(r, f"led-seat-{i}-clan-{clan}")
        type_in(r, f"led-seat-{i}-vp", str(vp))
        type_in(r, f"led-seat-{i}-missions", str(missions))
    click(r, "led-save")


TABLE = [("Ana", "Brujah", 20, 1), ("Ben", "Ventrue", 15, 0), ("Cleo", "Tremere", 9, 2)]


def test_the_ledger_has_an_address() -> None:
    assert parse("/chronicle") == Route("chronicle")
    assert parse("/chronicle/chronicle-abc") == Route("chronicle", "chronicle-abc")


def test_chapters_eras_and_the_next_chapter_order(app: AppState) -> None:
    new_ledger(app)
    r = app.root
    assert value(r, "led-founders") == "Youngest to oldest: Ana, Ben, Cleo"
    assert value(r, "led-next") == "Chapter 1 of 21, era 1."
    assert value(r, "led-first") == "First player: Cleo"  # the oldest starts (§H10)
    assert value(r, "led-pick") == "Clan-pick order: Ana, Ben, Cleo"  # youngest first
    assert value(r, "led-era-7-rest").startswith("Not played yet: 19, 20, 21")
    chapter(app, TABLE)
    assert app.error is None and saves(app) == 1
    assert "Chapter 1: Ana is the victor, Cleo the vanquished." in app.notice[0]
    assert value(r, "led-next") == "Chapter 2 of 21, era 1."
    assert value(r, "led-first") == "First player: Cleo"  # chapter 1's vanquished starts
    assert value(r, "led-pick") == "Clan-pick order: Cleo, Ben, Ana"  # the victor picks last
    chapter(app, [("Ana", "Gangrel", 3, 0), ("Ben", "Brujah", 10, 0),
                  ("Cleo", "Nosferatu", 7, 0)])
    assert value(r, "led-next") == "Chapter 3 of 21, era 1: it ends the era."
    assert value(r, "led-first") == "First player: Ana"
    chapter(app, TABLE)
    assert any("It ends era 1" in line for line in app.notice)
    assert label(r, "led-ch-3") == "Chapter 3: Ana victor, Cleo vanquished (era end)"
    assert label(r, "led-ch-2") == "Chapter 2: Ben victor, Ana vanquished"
    assert value(r, "led-next") == "Chapter 4 of 21, era 2."
    # the era step applies to chapter 3's aftermath only
    assert has(r, "led-step-9") and chosen(app, "led-ch-3")
    click(r, "led-step-9")
    assert app.error is None and chosen(app, "led-step-9")
    click(r, "led-ch-2")
    assert value(r, "led-step-9").endswith("(only after chapters 3, 6 … 21)")


def test_obligations_never_go_below_zero(app: AppState) -> None:
    new_ledger(app)
    r = app.root
    chapter(app, TABLE)  # Ana +1, Ben 0, Cleo 0
    chapter(app, TABLE)  # Ana 2
    chapter(app, [("Ana", "Brujah", 1, 0), ("Ben", "Ventrue", 15, 0),
                  ("Cleo", "Tremere", 9, 0)])  # Ana 1, Ben 1, Cleo stays 0
    assert value(r, "led-player-0-facts").startswith("1 obligation;")
    assert value(r, "led-player-1-facts").startswith("1 obligation;")
    assert value(r, "led-player-2-facts").startswith("0 obligations;")


def test_a_drop_in_gets_free_dots_and_has_no_pick_place(app: AppState) -> None:
    new_ledger(app, ("Ana", "Ben"))
    r = app.root
    chapter(app, [("Ana", "Brujah", 5, 0), ("Ben", "Ventrue", 3, 0)])
    click(r, "led-seat-add")
    type_in(r, "led-seat-2-name", "Dee")
    click(r, "led-seat-2-clan-Gangrel")  # the screen is drawn again
    assert value(r, "led-unplaced").startswith("No place in the pick order")
    assert value(r, "led-free-dots") == "Free dots for joining now (§H13): Dee 1"


def test_a_refusal_is_shown_with_its_rule_and_nothing_is_saved(app: AppState) -> None:
    new_ledger(app)
    r = app.root
    before, doc = saves(app), app.pad.game.doc  # type: ignore[union-attr]
    chapter(app, [("Ana", "Brujah", 20, 0), ("Ben", "Brujah", 15, 0),
                  ("Cleo", "Tremere", 9, 0)])
    assert app.error == ("Not saved: §H2: chapter 1: each player controls a different clan "
                         "(Brujah chosen twice)")
    assert any(app.error in t for t in texts(r))  # shown on the screen
    chapter(app, [("Ana", "Brujah", 20, 0), ("Ben", "Ventrue", 15, 0),
                  ("Dee", "Tremere", 9, 0)])
    assert app.error == "Not saved: §H10: chapter 1 is played by the founding players"
    type_in(r, "led-seat-0-vp", "lots")
    click(r, "led-save")
    assert app.error == 'Not saved: Ana, VP: "lots" is not a whole number.'
    assert saves(app) == before and app.pad.game.doc == doc  # type: ignore[union-attr]


def test_undo_takes_a_chapter_back_and_redo_saves_it_again(app: AppState) -> None:
    new_ledger(app)
    r = app.root
    chapter(app, TABLE)
    assert value(r, "led-next") == "Chapter 2 of 21, era 1."
    click(r, "pad-undo")
    assert value(r, "led-next") == "Chapter 1 of 21, era 1." and "Undo done." in app.notice
    click(r, "pad-redo")
    assert value(r, "led-next") == "Chapter 2 of 21, era 1."


def test_era_points_are_entries_and_decide_the_era(app: AppState) -> None:
    new_ledger(app, ("Ana", "Ben"))
    r = app.root
    for _ in range(3):
        chapter(app, [("Ana", "Brujah", 5, 0), ("Ben", "Ventrue", 3, 0)])
    assert "not complete" in value(r, "led-era-1-standing")
    for n in (1, 2, 3):
        click(r, f"led-ch-{n}")
        type_in(r, "led-era-pts-0", "2")
        type_in(r, "led-era-pts-1", "2")
        click(r, "led-era-pts-save")
        assert app.error is None
    assert value(r, "led-era-1-points") == "Era points: Ana 6, Ben 6"
    assert "tied" in value(r, "led-era-1-standing")
    click(r, "led-era-1-dom-1")
    assert app.error is None and "Ben dominates era 1" in value(r, "led-era-1-standing")


def test_a_chapter_filled_in_from_a_finished_heritage_pad(app: AppState,
                                                          store: MemoryGameStore) -> None:
    from companion.heritage.models import HeritageGame, HeritageSetup, PlayerEntries
    from companion.library.pad_kinds import heritage

    grounds = ["Of Clans High and Low", "The War of the Princes", "The Beast Within"]
    setup = HeritageSetup(players=[{"name": "Ana", "clan": "Brujah"},
                                   {"name": "Ben", "clan": "Ventrue"}],
                          chronicle=True, battlegrounds=grounds,
                          missions=["M1", "M2", "M3", "M4", "M5"])
    game = HeritageGame(setup=setup, entries=[
        PlayerEntries(player="Ana", battleground_vp={g: 1 for g in grounds}),
        PlayerEntries(player="Ben", battleground_vp={g: 3 for g in grounds},
                      missions_claimed=["M1"])])
    GameSession(store).new_pad(heritage(), game.model_dump(mode="json"))
    new_ledger(app, ("Ana", "Ben"))
    r = app.root
    click(r, "led-fill-0")
    assert app.error is None
    assert find_value(app, "led-seat-0-name") == "Ben" and find_value(app, "led-seat-0-vp") == "9"
    click(r, "led-save")
    assert app.error is None and value(r, "led-first") == "First player: Ana"


def find_value(app: AppState, identifier: str) -> str:
    return str(find(app.root, identifier).value)  # type: ignore[attr-defined]


def test_the_ledger_lists_on_home_and_reviews(app: AppState) -> None:
    new_ledger(app)
    chapter(app, TABLE)
    click(app.root, "home")
    assert "Heritage chronicle: Ana, Ben, Cleo" in texts(app.root)
    click(app.root, "review-0")
    assert app.screen == "chronicle" and not has(app.root, "led-save")
    click(app.root, "led-edit")
    assert has(app.root, "led-save")


# --- the Heritage pad's helpers ----------------------------------------------------------


def test_the_pad_helpers_show_only_for_what_is_in_play(app: AppState) -> None:
    r = app.root
    click(r, "new-heritage")
    for i, name in enumerate(("Ana", "Ben")):
        type_in(r, f"her-name-{i}", name)
    for k in range(3):  # Of Clans High and Low, The War of the Princes, The Beast Within
        click(r, f"her-bg-{k}")
    type_in(r, "her-mission", "M1")
    click(r, "her-mission-add")
    click(r, "her-start")
    assert not has(r, "her-inq-go") and not has(r, "her-rise-go")
    # the mission claimant: a tie settled by the clan leader counted twice (§H7)
    type_in(r, "her-mis-0", "3")
    type_in(r, "her-mis-1", "3")
    type_in(r, "her-mis-1-lead", "1")
    click(r, "her-mis-go")
    assert value(r, "her-mis-result").startswith("Ben claims the mission: tied")
    type_in(r, "her-mis-1-lead", "4")
    click(r, "her-mis-go")
    assert value(r, "her-mis-result").startswith("Refused: Ben: the clan leader's 4")
    # The War of the Princes: the central space counts two; a tie is shared (§H8.2)
    type_in(r, "her-wop-0", "3")
    type_in(r, "her-wop-1", "1")
    click(r, "her-wop-central-1")
    click(r, "her-wop-go")
    assert value(r, "her-wop-result").startswith("Shared victory of factions 1, 2")
    # the first player after a round on The Beast Within: highest token; a tie moves nothing
    type_in(r, "her-beast-0", "-1")
    type_in(r, "her-beast-1", "2")
    click(r, "her-beast-go")
    assert value(r, "her-beast-result").startswith("Refused: Tap who holds")
    click(r, "her-beast-cur-0")
    click(r, "her-beast-go")
    assert value(r, "her-beast-result") == "Ben takes the first player marker (§H9)."
    type_in(r, "her-beast-0", "2")
    click(r, "her-beast-go")
    assert value(r, "her-beast-result") == "The marker stays with Ana (§H9)."


# --- storage ---------------------------------------------------------------------------------


def test_a_chronicle_ledger_restores_from_a_backup(tmp_path: Path) -> None:
    from companion.heritage.models import ChapterRecord, ChronicleLedger

    source = TinyDBGameStore(tmp_path / "a")
    session = GameSession(source)
    pad = session.new_pad(chronicle(), ChronicleLedger(youngest_to_oldest=["Ana", "Ben"])
                          .model_dump(mode="json"))
    record = ChapterRecord(chapter=1, seats=[
        {"player": "Ana", "clan": "Brujah", "vp": 5, "titles": ["Prince"]},
        {"player": "Ben", "clan": "Ventrue", "vp": 3}], placings=["Ana", "Ben"])
    session.play({"type": "record", "doc": {**pad.doc, "chapters": [
        record.model_dump(mode="json")]}})
    summary = source.list_games()[0]
    assert summary["game"] == "chronicle" and summary["chapters"] == 1
    assert summary["finished"] is False and summary["winner"] is None
    _, data = backup_file(Library(source))
    source.close()
    target = TinyDBGameStore(tmp_path / "b")
    assert Library(target).restore_backup(json.loads(data)) == [pad.header.game_id]
    from companion.library.games import load_game

    restored = load_game(target, pad.header.game_id)
    assert restored.doc == session.game.doc  # type: ignore[union-attr]
    assert target.list_games()[0]["standings"][0]["titles"] == 1
    target.close()
