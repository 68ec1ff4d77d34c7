"""The rough edges found at the table, each through the app factory (no browser)."""

import random

import flet as ft
import pytest

from companion.library.session import GameSession
from companion.rules.game import Game
from companion.storage import MemoryGameStore
from companion.story.review import headline, told, told_each
from tests.fake_page import FakePage
from tests.test_cards import card, plain, start
from tests.test_views import new_game
from tests.ui import (
    answer,
    autoplay_step,
    click,
    enter_ally,
    find,
    has,
    ids,
    pick_ally,
    texts,
    type_in,
    value,
    walk,
)
from views.app import build, create_app
from views.state import AppState
from views.theme import DIM_BG, SMALL, button, text

# --- helpers -----------------------------------------------------------------------------------


def app_for(game: Game) -> AppState:
    """The app on a table whose game starts from `game`'s entered position."""
    svc = GameSession(MemoryGameStore())
    svc.new_game(game.header.start)
    app = build(svc)
    app.go("game")
    return app


def scroller(app: AppState) -> ft.Column:
    """The scrolling body of the screen shown."""
    return next(c for c in walk(app.root) if isinstance(c, ft.Column)
                and str(c.key or "").startswith("scroll-"))


def pinned(app: AppState) -> list[str]:
    """Ids on screen outside the scrolling body (they never scroll away)."""
    inside = set(ids(scroller(app)))
    return [i for i in ids(app.root) if i not in inside]


def planning_app(players: int = 4) -> AppState:
    app = build(GameSession(MemoryGameStore()))
    new_game(app, players, ("Brujah", "Gangrel", "Nosferatu", "Tremere")[:players])
    rng = random.Random(0)
    while app.game.state.phase != "planning":
        autoplay_step(app, rng)
    return app


def vampire_position(diablerie: int = 0) -> Game:
    """Planning, Ann to play, with a Vampire Ally in her Alliance."""
    vampire = {"name": "Old Kindred", "kind": "vampire", "influence": 2, "feed": 1,
               "drain_blood": 3, "drained_influence": 0}
    return start([{"name": "Ann", "diablerie_up": diablerie,
                   "alliance": [{"card": vampire}]}, {"name": "Bob"}, {"name": "Cat"}],
                 phase="planning", ambition="Ann")


# --- feedback stays on screen ------------------------------------------------------------------


def test_whose_turn_and_the_main_button_never_scroll_away():
    app = planning_app()
    assert {"prompt", "play", "undo"} <= set(pinned(app))
    assert "Ann's turn 1 of 2" in value(app.root, "prompt")
    assert "loc-pick-1" in ids(scroller(app))  # the choices scroll, the button does not


def test_a_refusal_shows_next_to_the_button_that_caused_it():
    app = planning_app()
    click(app.root, "loc-pick-1")
    click(app.root, "face-down")
    app.fail("Not allowed: the table changed.")  # e.g. another device played meanwhile
    on_screen = pinned(app)
    between = on_screen[on_screen.index("error") + 1:on_screen.index("play")]
    assert set(between) <= {"notice", "undo-hint", "notice-close"}  # right above Play
    app.render(keep_news=True)  # drawn again, nothing changed: it stays
    assert has(app.root, "error")


def test_a_refusal_goes_when_the_input_it_names_changes():
    """A refusal is about the choices made: any change of them takes it away."""
    app = planning_app()
    click(app.root, "loc-pick-1")
    app.fail("Not allowed: the table changed.")
    assert has(app.root, "error")
    click(app.root, "loc-pick-2")
    assert not has(app.root, "error") and app.error is None
    click(app.root, "nav-table")  # a typed value (no redraw of its own) takes it away too
    click(app.root, "effect-open")
    app.fail("Effect: something was wrong.")
    type_in(app.root, "effect-amount", "2")
    assert not has(app.root, "error") and app.error is None


def test_what_just_happened_shows_above_the_main_button():
    app = planning_app()
    click(app.root, "loc-pick-2")
    click(app.root, "face-down")
    click(app.root, "play")
    on_screen = pinned(app)
    between = on_screen[on_screen.index("notice") + 1:on_screen.index("play")]
    assert set(between) <= {"undo-hint", "notice-close"}  # the news line's own parts
    assert "plays a card face down at Location #2" in value(app.root, "undo-hint")


def test_each_new_turn_or_step_starts_at_the_top_and_picks_keep_the_place():
    """A new scroll view (new key) per turn/step/screen starts at the top; a pick within the
    turn keeps the same one, so the screen does not jump."""
    app = planning_app()
    first = scroller(app).key
    click(app.root, "loc-pick-1")
    assert scroller(app).key == first
    click(app.root, "face-down")
    click(app.root, "play")
    assert scroller(app).key != first  # Bob's turn
    second = scroller(app).key
    click(app.root, "nav-table")
    assert scroller(app).key not in (first, second)
    click(app.root, "nav-log")
    log_key = scroller(app).key
    click(app.root, "nav-log")  # back to the game: Bob's turn, at the top again
    assert scroller(app).key == second != log_key


def test_log_opens_newest_first():
    app = planning_app()
    n = len(app.game.actions)
    click(app.root, "nav-log")
    logs = [i for i in ids(app.root) if i.startswith("log-")]
    assert logs[0] == f"log-{n}" and logs[-1] == "log-1"


# --- one narrator, everything told once ----------------------------------------------------------


def test_cauldron_of_blood_spend_and_losses_are_told_with_players_and_amounts():
    """§15 TR05 through the views: the owner's Spend and each Rival's loss, once each."""
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([card("TR05")], 0), "Bob": ([plain(2, None)], 0),
                     "Cat": ([plain(1, None)], 0)}}, ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    click(app.root, "continue")  # through to Aftermath, where Cauldron of Blood is due
    assert app.game.state.step == "aftermath"
    click(app.root, "due-0-apply")
    said = app.notice
    assert any("Ann spends 3 Blood" in s for s in said)
    assert sum("Bob loses 4 Blood" in s for s in said) == 1
    assert sum("Cat loses 4 Blood" in s for s in said) == 1
    assert len(said) == len(set(said))
    assert said == told(app.game)  # the notice is the narrator's


def test_wolf_companion_is_told_once_naming_each_card_and_owner():
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([card("GA02")], 0), "Bob": ([plain(2), plain(3)], 0),
                     "Cat": ([plain(1)], 0)}}, ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    click(app.root, "continue")
    click(app.root, "due-0-apply")
    said = [s for s in app.notice if "Wolf Companion" in s and "halves" in s]
    assert len(said) == 1
    assert "Bob's card (2), Bob's card (3) and Cat's card (1)" in said[0]
    assert not any(s.startswith("Power change") for s in app.notice)


def test_withdraw_says_where_blood_and_cards_go():
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([plain(2, None)], 2), "Bob": ([plain(3, None)], 1)}},
              ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-0")
    assert find(app.root, "withdraw-ok").content == "Reveal: Ann withdraws"
    click(app.root, "withdraw-ok")
    said = " ".join(app.notice)
    assert "takes back 2 Blood to their Pool" in said
    assert "face up to the Prince's Haven" in said


def test_the_log_and_the_undo_line_come_from_the_narrator():
    app = planning_app()
    g = app.game
    said = told_each(g)
    # fresh news: one pinned line; read, it becomes the content's first line
    assert value(app.root, "undo-hint") == f"Just happened #{len(g.actions)}: {said[-1][0]}"
    click(app.root, "loc-pick-1")
    assert "undo-hint" in ids(scroller(app))
    assert value(app.root, "undo-hint") == f"Undo takes back #{len(g.actions)}: {said[-1][0]}"
    click(app.root, "nav-log")
    shown = texts(app.root)
    for n, sentences in enumerate(said, start=1):
        assert value(app.root, f"log-{n}") == f"{n}. {headline(g, n - 1)}"
        assert all(line in shown for line in sentences[1:])


# --- costly taps are confirmed ----------------------------------------------------------------


def test_draining_a_vampire_asks_first_and_cancel_changes_nothing():
    """§9: Diablerie is confirmed; Cancel plays nothing."""
    app = app_for(vampire_position())
    uid = app.game.state.players[0].alliance[0].uid
    before = len(app.game.actions)
    click(app.root, f"drain-{uid}")
    assert app.question is not None and len(app.game.actions) == before
    assert "Diablerie" in app.question.text
    answer(app, yes=False)
    assert app.question is None and len(app.game.actions) == before
    click(app.root, f"drain-{uid}")
    answer(app, yes=True)
    p = app.game.state.players[0]
    assert p.alliance[0].drained and p.diablerie == 1


def test_a_third_diablerie_token_is_named_in_the_question():
    """§11: the question says the player would be out of the game."""
    app = app_for(vampire_position(diablerie=2))
    uid = app.game.state.players[0].alliance[0].uid
    click(app.root, f"drain-{uid}")
    assert "out of the game" in app.question.text


def test_a_victim_drain_is_one_tap():
    app = planning_app()
    uid = app.legal().drainable[0]
    click(app.root, f"drain-{uid}")
    assert app.question is None and app.game.state.players[0].alliance[0].drained


def test_using_a_relic_asks_first():
    relic = {"name": "Old Chalice", "influence": 2}
    g = start([{"name": "Ann", "relic": relic}, {"name": "Bob", "relic": relic},
               {"name": "Cat", "relic": relic}], phase="planning", ambition="Ann")
    app = app_for(g)
    click(app.root, "nav-table")
    click(app.root, "relic-use-1")
    assert app.question is not None and not app.game.state.players[1].relic_used
    answer(app, yes=True)
    assert app.game.state.players[1].relic_used


def test_the_page_shows_the_question_as_a_dialog_and_closes_it():
    page = FakePage()
    svc = GameSession(MemoryGameStore())
    svc.new_game(vampire_position().header.start)
    create_app(svc)(page)  # type: ignore[arg-type]
    root = page.views[-1].controls[0].content
    uid = svc.game.state.players[0].alliance[0].uid
    click(root, f"drain-{uid}")
    assert len(page.dialogs) == 1 and isinstance(page.dialogs[0], ft.AlertDialog)
    click(page.dialogs[0], "confirm-yes")
    # the session plays at its table (page.data: the session's AppState)
    assert page.dialogs == [] and page.data.game.state.players[0].diablerie == 1


# --- disabled looks disabled, done is not an alarm, text is readable ---------------------------


def test_a_button_that_cannot_be_tapped_is_drawn_dim():
    live, off = button("Go", lambda e: None), button("Go", None)
    assert off.disabled and not live.disabled
    state = ft.ControlState
    assert off.style.bgcolor[state.DISABLED] == DIM_BG != live.style.bgcolor[state.DEFAULT]


def test_completed_steps_are_ticked_not_red():
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([card("BR07")], 0), "Bob": ([plain(2, None)], 0)}},
              ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    stepper = find(app.root, "stepper")
    chips = [c for c in walk(stepper) if isinstance(c, ft.Container) and c.border_radius == 14]
    assert "#b3122b" not in {c.bgcolor for c in chips}  # no alarm red
    assert sum(isinstance(x, ft.Icon) and x.icon == ft.Icons.CHECK
               for c in chips for x in walk(c)) == 2  # Withdraw and Revelation done


def test_no_text_below_the_readable_size_on_the_game_screens():
    assert text("small print", 13).size == SMALL
    app = planning_app()
    for screen in ("game", "table", "log"):
        app.go(screen)
        sizes = {c.size for c in walk(app.root) if isinstance(c, ft.Text) and c.size}
        assert min(sizes) >= SMALL, (screen, sorted(sizes))


# --- needless taps and swipes -----------------------------------------------------------------


def test_one_tap_passes_the_steps_with_nothing_to_decide():
    """Withdraw (everyone stays) then one tap: Preparation, Conflict and Aftermath of a
    Location where nothing is due (§8.3–§8.5)."""
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([plain(3, None)], 1), "Bob": ([plain(2, None)], 0)},
               "2": {"Cat": ([plain(1, None)], 0)}}, ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    assert app.game.state.step == "preparation"
    assert "unknown-timing" in ids(app.root) and has(app.root, "one-step")
    click(app.root, "continue")
    s = app.game.state
    assert (s.location_index, s.step) == (1, "withdraw")
    assert any("Ann (Brujah) 4, Bob (Gangrel) 2" in t for t in app.notice)


def test_alone_at_a_location_the_button_says_so():
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Bob": ([plain(3, None)], 0)}}, ambition="Ann")
    app = app_for(g)
    assert "Only Bob is here" in " ".join(texts(app.root))
    assert find(app.root, "withdraw-ok").content == "Bob stays: go on"


def test_an_effect_that_cannot_apply_is_one_tap_and_says_why():
    g = start([{"name": "Ann", "blood": 1}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([card("TR05")], 0), "Bob": ([plain(2, None)], 0)}},
              ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    click(app.root, "one-step")
    click(app.root, "one-step")  # to Aftermath, one step at a time: Cauldron is due there
    assert app.game.state.step == "aftermath"
    assert "cannot apply" in find(app.root, "due-0-decline").content
    click(app.root, "due-0-decline")
    assert app.legal().due == []


def test_a_drain_keeps_the_turns_location_face_and_blood():
    app = planning_app()
    click(app.root, "loc-pick-2")
    click(app.root, "face-down")
    click(app.root, f"drain-{app.legal().drainable[0]}")
    d = app.draft("plan")
    assert (d["loc"], d["face_up"]) == ("2", False)
    assert find(app.root, "face-down").style.bgcolor[ft.ControlState.DEFAULT] == "#e0b35a"
    assert has(app.root, "toast-undo")  # the drain's news carries its own Undo
    click(app.root, "play-2")
    card_ = app.game.state.locations[1].positions[0].cards[0]
    assert not card_.face_up and app.game.state.locations[1].positions[0].blood == 2


def test_the_final_scoreboard_leads_to_its_review():
    app = build(GameSession(MemoryGameStore()))
    new_game(app, 3, ("Brujah", "Gangrel", "Nosferatu"))
    rng = random.Random(5)
    while app.game.state.phase != "game_over":
        autoplay_step(app, rng)
    assert "to-review" in pinned(app)
    click(app.root, "to-review")
    assert app.route.path == f"/review/{app.game.header.game_id}"


# --- less typing in the first game -------------------------------------------------------------


def test_an_unnamed_new_ally_needs_only_taps_and_is_not_remembered():
    app = build(GameSession(MemoryGameStore()))
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    click(app.root, "feed")
    known = len(app.catalogue.allies)
    for loc in ("1", "2", "haven"):
        pick_ally(app, loc, "new")
        enter_ally(app, loc, "vampire", (3, 2, 1, 0))  # five taps, no typing
    click(app.root, "allies-ok")
    assert app.error is None, app.error
    ally = app.game.state.locations[0].ally
    assert ally.name == "Ally at Location #1, round 1" and ally.kind == "vampire"
    assert (ally.influence, ally.feed, ally.drain_blood, ally.drained_influence) == (3, 2, 1, 0)
    assert len(app.catalogue.allies) == known  # nothing to recognise it by later


def test_ally_labels_are_whole_words():
    """Unnamed Allies show what they do, or the part of the name the sources give (§15)."""
    app = build(GameSession(MemoryGameStore()))
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    click(app.root, "feed")
    shown = texts(app.root)
    for a in app.catalogue.allies:
        if a.partial_name and not a.name:
            assert a.partial_name in shown
        elif a.text and not a.name:
            assert f"Unnamed Ally: {a.text}" in shown


def test_a_known_relic_is_tapped_from_the_list_without_typing():
    app = build(GameSession(MemoryGameStore()))
    r = app.root
    click(r, "new-game")
    for i, n in enumerate(["Ann", "Bob", "Cat"]):
        type_in(r, f"name-{i}", n)
    click(r, "variant-relics")
    click(r, "create-game")
    click(r, "first-0")
    for clan in ("Brujah", "Gangrel", "Nosferatu"):
        click(r, f"clan-{clan}")
    click(r, "relic-0-pick-RELIC-RESTORE")
    click(r, "relic-1-pick-RELIC-BLOOD")
    assert not has(r, "relic-2-pick-RELIC-BLOOD")  # one copy of each card
    click(r, "relic-2-pick-__other__")
    type_in(r, "relic-2-name", "Silver Mirror")
    click(r, "relic-2-infl-3")
    click(r, "relic-3-pick-__other__")
    type_in(r, "relic-3-name", "Iron Key")
    click(r, "relic-3-infl-1")
    click(r, "relics-ok")
    assert app.error is None, app.error
    offered = app.game.state.setup.relics_offered
    assert [x.influence for x in offered] == [0, 2, 3, 1]
    assert offered[0].name.startswith("Relic: Once, during your Planning turn")


def test_an_unknown_clan_card_asks_its_power_and_may_learn_its_name():
    app = planning_app()
    r = app.root
    label = find(r, "plan-card-BR02").content
    assert label == "BR02 · Power ?"
    click(r, "loc-pick-1")
    click(r, "plan-card-BR02")
    assert has(r, "plan-card-power-4") and has(r, "plan-card-name")
    assert not has(r, "plan-card-BR01")  # the card stands alone, its Power right below
    click(r, "plan-card-power-4")
    type_in(r, "plan-card-name", "Brawl")
    click(r, "play")
    assert app.error is None, app.error
    entry = next(c for c in app.catalogue.clan_cards if c.id == "BR02")
    assert (entry.name, entry.power) == ("Brawl", 4)


def test_no_dropdown_anywhere_in_a_whole_game():
    app = build(GameSession(MemoryGameStore()))
    seen = 0
    new_game(app, 4)
    rng = random.Random(9)
    while app.game.state.phase != "game_over":
        for screen in ("game", "table"):
            app.go(screen)
            assert not any(isinstance(c, ft.Dropdown) for c in walk(app.root))
            seen += 1
        click(app.root, "effect-open") if has(app.root, "effect-open") else None
        assert not any(isinstance(c, ft.Dropdown) for c in walk(app.root))
        click(app.root, "effect-close") if has(app.root, "effect-close") else None
        app.go("game")
        autoplay_step(app, rng)
    app.go("quick")
    assert not any(isinstance(c, ft.Dropdown) for c in walk(app.root))
    assert seen > 50


# --- tablet and landscape ---------------------------------------------------------------------


def test_a_tablet_shows_the_board_beside_the_form():
    app = planning_app()
    app.resize(1280, 800)
    assert app.layout() == "wide"
    board = find(app.root, "board")
    assert "Ann" in " ".join(texts(board)) and not has(scroller(app), "loc-1")
    row = next(c for c in walk(app.root) if isinstance(c, ft.Row)
               and any(getattr(x, "identifier", None) == "board" for x in c.controls))
    assert len(row.controls) == 2  # form | board


def test_a_phone_on_its_side_gets_compact_bars():
    app = planning_app()
    app.resize(844, 390)
    assert app.layout() == "landscape"
    assert not has(app.root, "undo-hint")
    bar = app.root.controls[-1]
    assert "play" in ids(bar) and "undo" in ids(bar)  # main button beside Undo
    top = next(c for c in app.root.controls if c.key != "connection")  # under the table's strip
    assert "prompt" in ids(top)  # what now, in the title bar
    assert "title" not in ids(app.root)


def test_the_page_size_reaches_the_app():
    """The page's width at start and on resize picks the layout."""
    svc = GameSession(MemoryGameStore())
    svc.new_game(vampire_position().header.start)
    page = FakePage(width=1280, height=800)
    create_app(svc)(page)  # type: ignore[arg-type]
    root = page.views[-1].controls[0].content
    assert has(root, "board")
    page.resize(390, 844)
    assert not has(root, "board") and has(root, "undo-hint")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800), (844, 390)])
def test_every_phase_screen_draws_at_every_size(size):
    app = build(GameSession(MemoryGameStore()))
    app.resize(*size)
    new_game(app, 4)
    rng = random.Random(2)
    while app.game.state.phase != "game_over":
        autoplay_step(app, rng)
        assert "prompt" in ids(app.root)
