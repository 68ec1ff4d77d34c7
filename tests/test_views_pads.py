"""The Heritage and Blood Feud pad screens through the app factory, no browser: taps are
handler calls. Each confirmed entry is one undoable save; a refusal is shown naming the field
(and the rule's section) and leaves the pad and the disk as they were."""

from __future__ import annotations

import pytest

from companion.library.session import GameSession
from companion.storage import MemoryGameStore
from tests.ui import click, find, has, ids, texts, type_in, value, walk
from views.app import build
from views.screens import Route, parse
from views.state import AppState

TEAMS = [("Brujah", "Blue", "Ann, Bo"), ("City Hall", "Green", "Cy"),
         ("FIRSTLIGHT", "Red", "Eli"), ("Nosferatu", "Yellow", "Gus")]


@pytest.fixture
def store() -> MemoryGameStore:
    return MemoryGameStore()


@pytest.fixture
def app(store: MemoryGameStore) -> AppState:
    app = build(GameSession(store))
    app.seen_after = 0
    return app


def chosen(app: AppState, identifier: str) -> bool:
    """Whether an option button is lit (its selected state, as screen readers hear it)."""
    return any(getattr(c, "identifier", None) == identifier and c.selected
               for c in walk(app.root))


def saves(app: AppState) -> int:
    """Saves in the open pad's journal (on the store, not in memory)."""
    assert app.pad is not None and app.pad.game is not None
    return len(app.library.store.load(app.pad.game.header.game_id).entries)


def new_heritage(app: AppState, names: tuple[str, ...] = ("Ana", "Ben", "Cleo"),
                 missions: tuple[str, ...] = ("M1", "M2")) -> None:
    """Home → new Heritage game → the pad, with the first three battlegrounds."""
    r = app.root
    click(r, "new-heritage")
    for i, name in enumerate(names):
        if i >= 2:
            click(r, "her-add-player")
        type_in(r, f"her-name-{i}", name)
    for k in range(3):
        click(r, f"her-bg-{k}")
    for m in missions:
        type_in(r, "her-mission", m)
        click(r, "her-mission-add")
    click(r, "her-start")
    assert app.error is None and app.screen == "heritage" and app.route.param


# --- addresses -------------------------------------------------------------------------------


@pytest.mark.parametrize(("address", "route"), [
    ("/heritage", Route("heritage")), ("/heritage/heritage-abc", Route("heritage", "heritage-abc")),
    ("/bloodfeud", Route("bloodfeud")), ("/bloodfeud/b1/", Route("bloodfeud", "b1")),
])
def test_the_pads_have_addresses(address: str, route: Route) -> None:
    assert parse(address) == route and parse(route.path) == route


def test_an_unknown_pad_says_so(app: AppState) -> None:
    app.go("heritage", "nope")
    assert "no stored game 'nope'" in value(app.root, "pad-problem")


# --- Heritage --------------------------------------------------------------------------------


def test_a_heritage_game_from_home_to_its_winner_and_back_on_home(app: AppState) -> None:
    new_heritage(app)
    r = app.root
    assert "lasts 9 rounds (§H3)" in app.notice[0]
    assert value(r, "her-rounds") == "Rounds finished: 0 of 9 (none yet)."
    click(r, "her-round-plus")
    assert value(r, "her-rounds") == "Rounds finished: 1 of 9."
    assert value(r, "her-outcome") == "Not over yet: totals so far"
    click(r, "her-round-last")
    assert value(r, "her-rounds").startswith("All 9 rounds finished")
    assert not has(r, "her-round-plus")
    type_in(r, "her-1-vp-0", "5")
    type_in(r, "her-1-vp-2", "-2")
    click(r, "her-save")
    assert app.error is None and value(r, "her-outcome") == "Ben wins"
    assert "3 from battlegrounds" in texts(find(r, "her-rank-0"))[1]
    click(r, "home")
    assert "Heritage: Ana, Ben, Cleo" in texts(r) and value(r, "detail-0") == "Ben wins"
    click(r, "review-0")  # the result, no inputs
    assert value(app.root, "her-outcome") == "Ben wins" and not has(app.root, "her-save")
    click(app.root, "her-edit")
    assert has(app.root, "her-save")


def test_heritage_refuses_a_table_of_one(app: AppState, store: MemoryGameStore) -> None:
    click(app.root, "new-heritage")
    type_in(app.root, "her-name-0", "Ana")
    click(app.root, "her-start")
    assert app.error == "Not started: §H2: Heritage is played by 2 to 4 players; 1 were entered"
    assert app.screen == "heritage" and app.route.param is None and store.list_games() == []


def test_heritage_setup_refusals_name_their_rule(app: AppState, store: MemoryGameStore) -> None:
    r = app.root
    click(r, "new-heritage")
    type_in(r, "her-name-0", "Ana")
    type_in(r, "her-name-1", "Ben")
    click(r, "her-start")
    assert "§H2" in (app.error or "") and "3 battlegrounds" in (app.error or "")
    click(r, "her-clan-1-Brujah")
    for k in range(3):
        click(r, f"her-bg-{k}")
    click(r, "her-start")
    assert "§H2" in (app.error or "") and "Brujah chosen twice" in (app.error or "")
    click(r, "her-add-player")
    click(r, "her-add-player")
    assert not has(r, "her-add-player")  # 4 players at most
    assert store.list_games() == []


def test_a_typed_battleground_and_a_mission_list(app: AppState) -> None:
    r = app.root
    click(r, "new-heritage")
    type_in(r, "her-bg-other", "inquisition")  # a known name, typed loosely
    click(r, "her-bg-add")
    assert chosen(app, "her-bg-4") and value(r, "her-bg-chosen").endswith(
        "(1): The Inquisition.")
    type_in(r, "her-bg-other", "Rebel Cities")
    click(r, "her-bg-add")
    assert has(r, "her-bg-remove-0")
    type_in(r, "her-mission", "M1")
    click(r, "her-mission-add")
    type_in(r, "her-mission", "M1")
    click(r, "her-mission-add")
    assert "in play already" in (app.error or "")


def test_entry_refusals_name_the_field_and_save_nothing(app: AppState) -> None:
    new_heritage(app)
    r = app.root
    before, doc = saves(app), app.pad.game.doc  # type: ignore[union-attr]
    type_in(r, "her-0-vp-1", "lots")
    click(r, "her-save")
    assert app.error == ('Not saved: Ana, The War of the Princes VP: "lots" is not a whole '
                         'number.')
    type_in(r, "her-0-vp-1", "2")
    click(r, "her-0-add-vampire")
    type_in(r, "her-0-v0-power", "-1")
    click(r, "her-save")
    assert app.error == "Not saved: Ana, vampire 1, power: -1 is below 0; enter 0 or more."
    type_in(r, "her-0-v0-power", "3")
    click(r, "her-0-v0-torpor")
    click(r, "her-0-v0-leader")
    click(r, "her-save")
    assert app.error == ("Not saved: §H4: a clan leader is never in torpor (a childe goes in "
                         "its place)")
    click(r, "her-0-v0-torpor")
    click(r, "her-0-mission-0")
    click(r, "her-1-mission-0")
    click(r, "her-save")
    assert "§H7" in (app.error or "") and "claimed by one player only" in (app.error or "")
    assert saves(app) == before and app.pad.game.doc == doc  # type: ignore[union-attr]
    click(r, "her-1-mission-0")
    click(r, "her-save")
    assert app.error is None and saves(app) == before + 1


def test_torpor_counts_nothing_and_undo_redo_each_save(app: AppState) -> None:
    new_heritage(app)
    r = app.root
    click(r, "her-round-last")
    click(r, "her-2-add-vampire")
    for key, v in (("power", "2"), ("boons", "1"), ("infamy", "1")):
        type_in(r, f"her-2-v0-{key}", v)
    click(r, "her-2-v0-torpor")
    click(r, "her-save")
    cleo = next(k for k in range(3) if "Cleo" in texts(find(r, f"her-rank-{k}"))[0])
    assert "0 VP" in texts(find(r, f"her-rank-{cleo}"))[0]  # a vampire in torpor adds nothing
    click(r, "her-2-v0-torpor")
    click(r, "her-save")
    assert value(r, "her-outcome") == "Cleo wins"
    click(r, "pad-undo")
    assert value(r, "her-outcome") == "Tied: the primogen draw decides"
    assert chosen(app, "her-2-v0-torpor")  # the entries as saved before
    assert "Undo done." in app.notice
    click(r, "pad-redo")
    assert value(r, "her-outcome") == "Cleo wins"
    click(r, "pad-undo")
    click(r, "pad-undo")
    click(r, "pad-undo")
    assert value(r, "her-rounds") == "Rounds finished: 0 of 9 (none yet)."
    assert find(r, "pad-undo").disabled and not find(r, "pad-redo").disabled


def test_a_tie_goes_to_fewer_missions_then_to_the_primogen_draw(app: AppState) -> None:
    new_heritage(app)
    r = app.root
    click(r, "her-round-last")
    type_in(r, "her-0-vp-0", "4")
    type_in(r, "her-1-vp-0", "4")
    click(r, "her-0-mission-0")
    click(r, "her-save")
    assert value(r, "her-outcome") == "Ben wins"  # fewer claimed missions (§H5)
    assert "fewer missions" in value(r, "her-summary")
    click(r, "her-1-mission-1")
    click(r, "her-save")
    assert value(r, "her-outcome") == "Tied: the primogen draw decides"
    before = saves(app)
    click(r, "her-declare-0-warlike")
    click(r, "her-declare-1-warlike")
    click(r, "her-drawn-warlike")
    click(r, "her-draw-save")
    assert "§H6" in (app.error or "") and "warlike declared twice" in (app.error or "")
    click(r, "her-declare-1-wealthy")
    click(r, "her-drawn-scholarly")
    click(r, "her-draw-save")
    assert "§H6" in (app.error or "") and "scholarly was declared by nobody" in (app.error or "")
    assert saves(app) == before
    click(r, "her-drawn-wealthy")
    click(r, "her-draw-save")
    assert app.error is None and value(r, "her-outcome") == "Ben wins"
    assert "primogen draw" in value(r, "her-summary")
    type_in(r, "her-0-vp-0", "9")  # the tie is gone: so is its draw
    click(r, "her-save")
    assert value(r, "her-outcome") == "Ana wins" and any("taken off" in n for n in app.notice)


def test_the_battleground_calculators(app: AppState) -> None:
    r = app.root
    click(r, "new-heritage")
    for i, name in enumerate(("Ana", "Ben")):
        type_in(r, f"her-name-{i}", name)
    for k in (0, 4, 5):  # Of Clans High and Low, The Inquisition, Sabbat Wars
        click(r, f"her-bg-{k}")
    click(r, "her-start")
    type_in(r, "her-inq-a", "1")
    type_in(r, "her-inq-b", "3")
    click(r, "her-inq-go")
    assert value(r, "her-inq-result").startswith("The first attribute wins")
    type_in(r, "her-inq-b", "1")
    click(r, "her-inq-go")
    assert value(r, "her-inq-result").startswith("Equal counts: nobody wins")
    assert value(r, "her-sabbat-deal").startswith("With 2 players deal these allegiances at "
                                                  "random: Camarilla, Sabbat")
    type_in(r, "her-sab-cam", "1")
    type_in(r, "her-sab-sab", "2")
    click(r, "her-sab-go")
    assert "Anarch wins, and nobody holds Anarch with 2 players" in value(r, "her-sab-result")
    type_in(r, "her-sab-cam", "3")
    type_in(r, "her-sab-sab", "3")
    click(r, "her-sab-go")
    assert value(r, "her-sab-result").startswith("Refused: §H8.4")


# --- Blood Feud ------------------------------------------------------------------------------


def new_session(app: AppState) -> None:
    """Home → new Blood Feud session with four teams → the record."""
    r = app.root
    click(r, "new-bloodfeud")
    type_in(r, "bf-storyteller", "Mara")
    click(r, "bf-add-team")
    click(r, "bf-add-team")
    for i, (name, colour, members) in enumerate(TEAMS):
        type_in(r, f"bf-team-{i}-name", name)
        type_in(r, f"bf-team-{i}-colour", colour)
        type_in(r, f"bf-team-{i}-members", members)
    click(r, "bf-team-1-Human")
    click(r, "bf-start")
    assert app.error is None and app.screen == "bloodfeud" and app.route.param


def test_blood_feud_session_refusals_name_the_field(app: AppState,
                                                    store: MemoryGameStore) -> None:
    r = app.root
    click(r, "new-bloodfeud")
    click(r, "bf-start")
    assert app.error == "Not started: Storyteller: is empty: type it."
    type_in(r, "bf-storyteller", "Mara")
    type_in(r, "bf-team-0-name", "Brujah")
    type_in(r, "bf-team-0-colour", "Blue")
    type_in(r, "bf-team-0-members", "Ann")
    type_in(r, "bf-team-1-name", "Ventrue")
    type_in(r, "bf-team-1-colour", "blue")
    click(r, "bf-start")
    assert app.error == "Not started: Team 2, members: needs at least 1."
    type_in(r, "bf-team-1-members", "Bo")
    click(r, "bf-start")
    assert app.error == "Not started: Teams refused: Ventrue and Brujah are both blue (§B2)"
    assert store.list_games() == []


def vote(app: AppState, powers: tuple[int, ...], events: tuple[str, ...],
         hands: tuple[str, ...]) -> None:
    """Start a round and enter its vote: hands are `e<k>`, `none` (No Event) or `absent`."""
    r = app.root
    click(r, "bf-round-plus")
    for i, p in enumerate(powers):
        click(r, f"bf-power-{i}-{p}")
    for i, e in enumerate(events):
        type_in(r, f"bf-prop-{i}", e)
    for i, h in enumerate(hands):
        click(r, f"bf-ballot-{i}-{h}")


def test_the_council_vote_passes_e2_with_4_of_8(app: AppState) -> None:
    new_session(app)
    r = app.root
    assert value(r, "bf-council-wait").startswith("Start round 1")
    vote(app, (3, 2, 2, 1), ("E1", "E2"), ("e0", "e1", "e1", "none"))
    assert value(r, "bf-count-0") == ("vote: E1 3 (Brujah), E2 4 (City Hall, FIRSTLIGHT), "
                                      "No Event 1 (Nosferatu) of 8")
    assert value(r, "bf-tally") == ("E2 passes with 4 of 8 Voting Power; City Hall proposed it "
                                    "and gains 1 Ambition token (§B9).")
    click(r, "bf-vote-save")
    assert app.error is None and has(r, "bf-vote-1") and has(r, "bf-council-done")
    click(r, "pad-undo")
    assert not has(r, "bf-vote-1") and value(r, "bf-tally").startswith("E2 passes")
    click(r, "pad-redo")
    assert has(r, "bf-vote-1")


def test_a_tie_revotes_between_the_tied_events_only(app: AppState) -> None:
    new_session(app)
    r = app.root
    vote(app, (3, 2, 2, 1), ("E1", "E2"), ("e0", "e1", "absent", "e1"))
    assert value(r, "bf-tally") == "Tie: re-vote between E1 and E2 only (§B9)."
    before = saves(app)
    click(r, "bf-vote-save")
    assert (app.error or "").startswith("Not recorded: Tie") and saves(app) == before
    assert not any(i.endswith("-2") for i in ids(r) if i.startswith("bf-revote-0-"))
    click(r, "bf-revote-0-0-0")
    click(r, "bf-revote-0-1-0")
    click(r, "bf-revote-0-3-1")
    assert value(r, "bf-tally").startswith("E1 passes with 5 of 6")
    click(r, "bf-vote-save")
    assert app.error is None and saves(app) == before + 1


def test_a_vote_short_of_its_quorum_is_refused(app: AppState) -> None:
    new_session(app)
    r = app.root
    vote(app, (3, 2, 2, 1), ("E1",), ("e0",))
    assert "1 of 4 teams vote; at least 2 must" in value(r, "bf-tally")
    before = saves(app)
    click(r, "bf-vote-save")
    assert "§B9" in (app.error or "") and saves(app) == before


def test_the_result_keeps_a_tie_and_the_storytellers_pick(app: AppState) -> None:
    new_session(app)
    r = app.root
    click(r, "bf-result-save")
    assert app.error == "Not saved: Winners: needs at least 1."
    click(r, "bf-top-0")
    click(r, "bf-top-1")
    click(r, "bf-pick-1")
    click(r, "bf-result-save")
    assert value(r, "bf-result") == ("Result: tie between Brujah and City Hall (the "
                                     "Storyteller's pick: City Hall)")
    click(r, "home")
    assert value(r, "detail-0") == ("Tie: Brujah and City Hall (the Storyteller's pick: City "
                                    "Hall)")


def test_the_stations_and_the_power_lookup(app: AppState) -> None:
    new_session(app)
    r = app.root
    assert not has(r, "bf-station-4-text")
    click(r, "bf-station-4")
    assert any(t.startswith("§B9 ") for t in texts(find(r, "bf-station-4-text")))
    click(r, "bf-station-4")
    assert not has(r, "bf-station-4-text")
    click(r, "bf-lookup-1")
    assert value(r, "bf-lookup-facts").startswith("Voting Power 1 (§B9)")


# --- statistics ------------------------------------------------------------------------------


def test_statistics_count_each_game_apart(app: AppState) -> None:
    new_heritage(app)
    r = app.root
    click(r, "her-round-last")
    type_in(r, "her-0-vp-0", "3")
    click(r, "her-save")
    app.go("stats")
    assert value(app.root, "stats-games").startswith("0 finished game")  # Vendetta's
    assert value(app.root, "stats-heritage-games") == "1 finished game counted (all time)"
    assert value(app.root, "stats-heritage-player-0") == "Ana"  # most wins first
    assert value(app.root, "stats-heritage-clan-0") == "Brujah"
    assert not has(app.root, "stats-bloodfeud")


def test_a_disk_that_refuses_keeps_the_entry_queued_and_says_so(
        app: AppState, store: MemoryGameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    new_heritage(app)
    r = app.root
    real = type(store).append

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(type(store), "append", full)
    click(r, "her-round-plus")
    assert has(r, "pad-unsaved") and app.notice[0].startswith("Entered here, not on disk yet")
    assert saves(app) == 0
    monkeypatch.setattr(type(store), "append", real)
    click(r, "pad-retry")
    assert not has(r, "pad-unsaved") and saves(app) == 1
