"""Addresses and Back: every screen has a route; Back returns to the previous screen."""

import pytest

from companion.library.session import GameSession
from companion.storage import MemoryGameStore
from tests.fake_page import FakePage
from tests.test_views import new_game
from tests.test_views_review import play_script
from tests.ui import click, has, texts
from views.app import build, create_app
from views.screens import HOME, Route, parse, route_of
from views.state import AppState


@pytest.mark.parametrize(("address", "route"), [
    ("/", HOME), ("", HOME), ("/new", Route("new")), ("/game", Route("game")),
    ("/game/table", Route("table")), ("/game/log/", Route("log")),
    ("/review/abc123", Route("review", "abc123")), ("/stats", Route("stats")),
    ("/rules", Route("rules")), ("/rules/frenzy", Route("rules", "frenzy")),
    ("/cards", Route("catalogue")), ("/quick", Route("quick")), ("/data", Route("data")),
    ("/stats?x=1", Route("stats")), ("/join/T1", Route("join", "T1")),
])
def test_every_screen_has_an_address(address: str, route: Route) -> None:
    assert parse(address) == route
    assert parse(route.path) == route


@pytest.mark.parametrize("address", [
    "/nowhere", "/review", "/review/", "/review/a/b", "/review/../x", "/game/x", "/stats/1",
    "/join", "/rules/a b",
])
def test_unknown_addresses_name_no_screen(address: str) -> None:
    assert parse(address) is None


def test_route_of_checks_the_screen() -> None:
    assert route_of("review", "g1").path == "/review/g1"
    assert route_of("stats", "ignored").path == "/stats"
    with pytest.raises(KeyError):
        route_of("nowhere")


@pytest.fixture
def store() -> MemoryGameStore:
    store = MemoryGameStore()
    play_script(GameSession(store), "four_players.json")
    return store


@pytest.fixture
def app(store: MemoryGameStore) -> AppState:
    return build(GameSession(store))


def test_back_returns_to_the_previous_screen(app: AppState) -> None:
    click(app.root, "stats")
    assert app.screen == "stats" and has(app.root, "back")
    click(app.root, "back")
    assert app.screen == "home" and not has(app.root, "back")
    click(app.root, "rules")
    click(app.root, "sec-round")
    assert app.route == Route("rules", "round")
    click(app.root, "back")
    assert app.route == Route("rules")
    click(app.root, "back")
    assert app.route == HOME


def test_review_has_an_address_and_back_leaves_it(app: AppState, store) -> None:
    game_id = store.list_games()[0]["game_id"]
    click(app.root, "review-0")
    assert app.route == Route("review", game_id)
    assert app.review is not None and app.table is None
    click(app.root, "back")
    assert app.route == HOME


def test_deep_link_opens_a_review_and_back_goes_home(store) -> None:
    game_id = store.list_games()[0]["game_id"]
    page = FakePage(f"/review/{game_id}")
    create_app(GameSession(store))(page)  # type: ignore[arg-type]
    assert [v.route for v in page.views] == ["/", f"/review/{game_id}"]
    page.pop()  # Android's Back button
    assert [v.route for v in page.views] == ["/"]
    assert page.pushed[-1] == "/"


def test_unknown_address_lands_home_with_a_message(store) -> None:
    page = FakePage("/nowhere/at/all")
    create_app(GameSession(store))(page)  # type: ignore[arg-type]
    assert [v.route for v in page.views] == ["/"]
    app_root = page.views[-1].controls[0].content
    assert any("no page at '/nowhere/at/all'" in t for t in texts(app_root))


def test_missing_review_lands_home_with_a_message(app: AppState) -> None:
    app.open_address("/review/nosuchgame")
    assert app.route == HOME and "no stored game 'nosuchgame'" in (app.error or "")


def test_browser_back_and_forward(store) -> None:
    page = FakePage("/")
    create_app(GameSession(store))(page)  # type: ignore[arg-type]
    page.change("/stats")  # typed or a link
    assert page.views[-1].route == "/stats"
    page.change("/")  # the browser's Back
    assert [v.route for v in page.views] == ["/"]
    page.change("/stats")  # Forward
    assert [v.route for v in page.views] == ["/", "/stats"]


def test_own_pushes_are_not_taken_for_browser_moves(store) -> None:
    page = FakePage("/")
    main = create_app(GameSession(store))
    main(page)  # type: ignore[arg-type]
    app_root = page.views[-1].controls[0].content
    click(app_root, "stats")
    click(app_root, "back")
    click(app_root, "rules")
    assert page.views[-1].route == "/rules"
    page.echo()  # late echoes of /stats, / and /rules must not move the app
    assert [v.route for v in page.views] == ["/", "/rules"]


def test_help_opens_the_section_and_back_returns_to_the_game() -> None:
    app = build(GameSession(MemoryGameStore()))
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    assert app.screen == "game"
    click(app.root, "help")
    assert app.screen == "rules" and app.route.param
    assert has(app.root, "rules-back")
    click(app.root, "rules-back")
    assert app.screen == "game"


def test_table_and_log_have_addresses_and_back(app: AppState, store) -> None:
    app.open_game(store.list_games()[0]["game_id"])
    assert app.route == Route("game")
    click(app.root, "nav-table")
    assert app.route.path == "/game/table"
    click(app.root, "nav-log")
    assert app.route.path == "/game/log"
    click(app.root, "back")
    assert app.route.path == "/game/table"
    click(app.root, "nav-table")  # the toggle goes back to the phase screen
    assert app.route.path == "/game"


def test_game_address_without_an_open_game_lands_home(app: AppState) -> None:
    app.open_address("/game/table")
    assert app.route == HOME and "No game is open" in (app.error or "")
