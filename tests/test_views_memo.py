"""Parts of a screen kept between renders (AppState.memo): a tap always shows the new state,
undo the old one, and only unchanged parts are kept."""

import flet as ft

from companion.library.games import summary
from companion.library.session import GameSession
from companion.storage import MemoryGameStore
from tests.helpers import new_game, to_planning
from tests.ui import click, find, texts, value
from views.app import build
from views.state import AppState


def table_app() -> AppState:
    """A 4-player game in Planning, shown on the Table screen with the effect form open."""
    game = new_game(4)
    to_planning(game)
    store = MemoryGameStore()
    store.import_game({**game.to_document(), "summary": summary(game)})
    app = build(GameSession(store))
    app.open_game(game.header.game_id)
    app.go("table")
    click(app.root, "effect-open")
    click(app.root, "effect-player-0")
    return app


def panels(app: AppState) -> list[ft.Control]:
    return [find(app.root, f"player-{seat}") for seat in range(4)]


def test_a_tap_shows_the_new_number_and_keeps_only_what_did_not_change() -> None:
    app = table_app()
    before = panels(app)
    blood = int(value(app.root, "blood-0"))
    click(app.root, "effect-apply")  # Ann gains 1 Blood
    after = panels(app)
    assert value(app.root, "blood-0") == str(blood + 1)
    assert after[0] is not before[0]  # Ann's panel was rebuilt …
    assert all(a is b for a, b in zip(after[1:], before[1:], strict=True))  # … no other
    assert find(app.root, "effect-form") is not None
    click(app.root, "effect-apply")
    assert value(app.root, "blood-0") == str(blood + 2)


def test_undo_and_redo_show_the_state_they_lead_to() -> None:
    app = table_app()
    blood = int(value(app.root, "blood-0"))
    click(app.root, "effect-apply")
    click(app.root, "undo")
    assert value(app.root, "blood-0") == str(blood)
    assert app.game.state.players[0].blood == blood
    click(app.root, "redo")
    assert value(app.root, "blood-0") == str(blood + 1)
    click(app.root, "undo")  # (undo closes the effect form)
    click(app.root, "effect-open")
    click(app.root, "effect-player-0")
    click(app.root, "effect-apply")  # the same number again, by a new action
    assert value(app.root, "blood-0") == str(blood + 1)
    assert f"#{len(app.game.actions)}: Ann gains 1 Blood" in value(app.root, "undo-hint")


def test_a_part_of_a_screen_left_is_never_put_back() -> None:
    app = table_app()
    kept = panels(app)
    app.go("game")
    app.go("table")
    again = panels(app)
    assert all(a is not b for a, b in zip(again, kept, strict=True))


def test_memo_rebuilds_when_its_inputs_change_and_keeps_only_the_last_render() -> None:
    app = build(GameSession(MemoryGameStore()))
    built: list[int] = []

    def part(n: int) -> ft.Control:
        built.append(n)
        return ft.Text(str(n))

    app._keep = {}
    first = app.memo("x", 1, lambda: part(1))
    app._kept, app._keep = app._keep, {}
    assert app.memo("x", 1, lambda: part(1)) is first
    app._kept, app._keep = app._keep, {}
    changed = app.memo("x", 2, lambda: part(2))
    assert changed is not first and changed.value == "2"  # type: ignore[attr-defined]
    app._kept, app._keep = app._keep, {}  # a render without the part …
    app._kept, app._keep = app._keep, {}
    assert app.memo("x", 2, lambda: part(2)) is not changed  # … drops it
    assert built == [1, 2, 2]


def test_bars_numbers_and_news_are_kept_until_what_they_show_changes() -> None:
    app = table_app()
    click(app.root, "effect-apply")  # Ann gains 1 Blood
    kept = {name: find(app.root, name) for name in ("prompt", "help", "undo", "clock",
                                                     "infl-0", "blood-1")}
    blood = value(app.root, "blood-0")
    notice = find(app.root, "notice")
    click(app.root, "effect-apply")  # the same effect again: the same news, a new number
    assert value(app.root, "blood-0") == str(int(blood) + 1)
    assert all(find(app.root, name) is control for name, control in kept.items())
    assert "Ann gains 1 Blood" in " ".join(texts(find(app.root, "notice")))
    assert find(app.root, "notice") is not notice  # "Just happened #n" names the action
    kept["notice"] = find(app.root, "notice")
    app.render(keep_news=True)  # drawn again for another reason: the news line is kept
    assert find(app.root, "notice") is kept["notice"]
    click(app.root, "effect-action-gain_influence")
    click(app.root, "effect-apply")  # other news, another number: those two are new
    assert find(app.root, "notice") is not kept["notice"]
    assert "Ann gains 1 Influence" in " ".join(texts(find(app.root, "notice")))
    assert find(app.root, "infl-0") is not kept["infl-0"]
    assert find(app.root, "blood-1") is kept["blood-1"] and find(app.root, "undo") is kept["undo"]
    click(app.root, "undo")
    assert not find(app.root, "redo").disabled  # the buttons follow what can be redone
    app.go("game")  # another screen: its own prompt, a new bar
    assert find(app.root, "prompt") is not kept["prompt"]
