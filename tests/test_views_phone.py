"""The phone screen, in-process: the bars give the screen to the choices, refusals go when their
input changes, a main button that cannot act says why, fewer taps, names for screen readers,
the theme's contrast (pure Python over views/theme.py) and plurals."""

import json
import random
import subprocess
import sys
from pathlib import Path

import flet as ft
import pytest

from companion.library.session import GameSession
from companion.storage import MemoryGameStore
from tests.test_cards import plain, start
from tests.test_views import new_game
from tests.test_views_edges import app_for, pinned, planning_app, scroller
from tests.ui import autoplay_step, click, find, has, ids, label, texts, type_in, value, walk
from views.app import build
from views.theme import (
    CONTRAST_PAIRS,
    PLAYER_COLORS,
    SURFACE,
    TOUCH,
    button,
    contrast,
    icon_button,
    plural,
    tap_row,
)

ROOT = Path(__file__).resolve().parent.parent


# --- contrast and focus ring --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CONTRAST_PAIRS))
def test_every_colour_pair_of_the_theme_reads_well(name: str) -> None:
    """Text 4.5:1 or more, field and button borders and the focus ring 3:1 or more."""
    fg, bg, least = CONTRAST_PAIRS[name]
    assert contrast(fg, bg) >= least, f"{name}: {contrast(fg, bg):.2f}:1 < {least}:1"


def test_contrast_is_computed_as_wcag_says() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48


def test_chart_colours_stand_out_on_the_panels() -> None:
    assert all(contrast(c, SURFACE) >= 3.0 for c in PLAYER_COLORS)


@pytest.mark.parametrize("kind", ["main", "secondary", "chosen"])
def test_every_button_shows_a_focus_ring(kind: str) -> None:
    """A 3-px ring on keyboard focus, contrasting 3:1 with what it replaces (the red main
    buttons too)."""
    b = button("Go", lambda e: None, primary=kind == "main", selected=kind == "chosen")
    side = b.style.side
    ring, rest = side[ft.ControlState.FOCUSED], side[ft.ControlState.DEFAULT]
    fill = b.style.bgcolor[ft.ControlState.DEFAULT]
    assert ring.width >= 3
    assert contrast(ring.color, fill) >= 3.0
    if rest.width:
        assert contrast(ring.color, rest.color) >= 3.0


def test_buttons_grow_with_their_labels_and_targets_reach_44_px() -> None:
    b = button("A label long enough to wrap on a phone at large text", lambda e: None)
    assert b.height is None  # no fixed height: a wrapped label is never cut
    chip = button("0", lambda e: None, width=48, ident_="chip")
    assert find(ft.Column([chip]), "chip").width is None  # a least width: grows with text
    icon = icon_button("back", ft.Icons.ARROW_BACK, "Back", lambda e: None)
    assert icon.content.width >= TOUCH - 4 and icon.content.height >= TOUCH - 4


def test_plurals() -> None:
    assert plural(1, "game", "games") == "1 game"
    assert plural(2, "game", "games") == "2 games"
    assert plural(0, "win", "wins") == "0 wins"


# --- one name per control ------------------------------------------------------------------------


def test_icon_buttons_say_what_they_do() -> None:
    app = planning_app()
    for name, said in (("back", "Back"), ("home", "Home"), ("help", "Rules: ")):
        icon = find(app.root, name).icon
        assert isinstance(icon, ft.Icon) and icon.semantics_label.startswith(said)


def test_a_tile_or_row_reads_its_words_once() -> None:
    """No label over a control that shows its own text (it was read twice)."""
    app = planning_app()
    for c in walk(app.root):
        if isinstance(c, ft.Semantics) and c.identifier and c.label:
            assert not any(isinstance(x, ft.Text) for x in walk(c.content)), c.identifier
    row = tap_row("Beat Cop", lambda e: None, "row", detail="Inf 2")
    assert not find(row, "row").data and isinstance(find(row, "row"), ft.Button)


def test_stay_and_withdraw_say_for_whom_and_values_say_which_row() -> None:
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([plain(2)], 1), "Bob": ([plain(3)], 0)}}, ambition="Ann")
    app = app_for(g)
    assert find(app.root, "stay-0").content.semantics_label == "Stay: Ann, selected"
    assert find(app.root, "withdraw-1").content.semantics_label == "Withdraw: Bob"
    other = build(GameSession(MemoryGameStore()))  # an Ally's values: chips name their row
    new_game(other, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    click(other.root, "feed")
    click(other.root, "ally-1-pick-new")
    assert find(other.root, "ally-1-feed-2").content.semantics_label == "Feed Blood: 2"
    assert find(other.root, "ally-1-vampire").content.semantics_label == \
        "Human or Vampire: Vampire"


# --- the bars and the pinned bottom ---------------------------------------------------------------


def test_what_happens_now_has_the_full_width_under_the_icons() -> None:
    app = planning_app()
    bar = app.root.controls[1]  # under the table's connection strip
    rows = bar.content.controls
    assert {"back", "status", "help", "home"} <= set(ids(rows[0]))
    assert "prompt" in ids(rows[1]) and "prompt" not in ids(rows[0])
    assert find(app.root, "prompt").max_lines == 2
    click(app.root, "loc-pick-1")  # (the screen drawn again: a tap opens the prompt)
    tap = next(c for c in walk(rows[1]) if isinstance(c, ft.Container) and c.on_click)
    tap.on_click(None)
    assert find(app.root, "prompt").max_lines is None


def test_just_happened_is_one_line_that_opens_and_closes() -> None:
    app = planning_app()
    click(app.root, "loc-pick-2")
    click(app.root, "face-down")
    click(app.root, "play")
    line = find(app.root, "undo-hint")
    assert line.max_lines == 1 and line.value.startswith("Just happened #")
    sentences = len(app.notice)
    opener = next(c for c in walk(find(app.root, "notice"))
                  if isinstance(c, ft.Container) and c.on_click)
    opener.on_click(None)
    assert find(app.root, "undo-hint").max_lines is None
    assert all(s in texts(find(app.root, "notice")) for s in app.notice[:sentences])
    click(app.root, "notice-close")
    assert not has(app.root, "notice") and app.notice == []
    assert "undo-hint" in ids(scroller(app))  # what Undo takes back heads the content


def test_a_drain_costing_influence_offers_its_own_undo() -> None:
    app = planning_app()
    uid = app.legal().drainable[0]
    assert "-1 Influence" in label(app.root, f"drain-{uid}")  # the cost, on the button
    before = len(app.game.actions)
    click(app.root, f"drain-{uid}")  # one tap (no question): its news carries an Undo
    assert len(app.game.actions) == before + 1 and app.question is None
    click(app.root, "toast-undo")
    assert len(app.game.actions) == before


def test_the_effect_being_entered_is_never_skipped_by_the_obvious_tap() -> None:
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([plain(2, None)], 0), "Bob": ([plain(3, None)], 0)}},
              ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    click(app.root, "effect-open")
    assert "effect-apply" in pinned(app)  # the form's Apply is the pinned main button …
    assert find(app.root, "continue").disabled  # … going on waits, saying why beside it
    assert "before going on" in value(app.root, "continue-why")
    assert label(app.root, "effect-apply") == "Choose to whom"  # disabled, saying why
    click(app.root, "effect-player-0")
    type_in(app.root, "effect-amount", "x")
    assert label(app.root, "effect-apply") == "Type the amount (a whole number)"
    type_in(app.root, "effect-amount", "2")
    assert label(app.root, "effect-apply") == "Apply effect"
    click(app.root, "effect-apply")
    assert app.game.state.players[0].blood == 8


def test_a_location_s_outcome_is_shown_in_the_content() -> None:
    g = start([{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
              {"1": {"Ann": ([plain(2, None)], 0), "Bob": ([plain(3, None)], 0)},
               "2": {"Cat": ([plain(1, None)], 0)}}, ambition="Ann")
    app = app_for(g)
    click(app.root, "withdraw-ok")
    click(app.root, "continue")
    assert app.game.state.location_index == 1
    assert "last-result" in ids(scroller(app))
    assert value(app.root, "result-0-0") == "1st: Bob, Power 3"
    assert value(app.root, "result-0-1") == "2nd: Ann, Power 2"


def test_the_final_standings_come_first_and_whole() -> None:
    app = build(GameSession(MemoryGameStore()))
    new_game(app, 4, ("Brujah", "Gangrel", "Nosferatu", "Tremere"))
    rng = random.Random(4)
    while app.game.state.phase != "game_over":
        autoplay_step(app, rng)
    words = " ".join(texts(find(app.root, "standings")))
    for r in app.game.scoreboard.rows:
        assert f"{r.rank}. {r.name}" in words and f"{r.influence.total} Influence" in words


# --- the board while planning, and taps ---------------------------------------------------------


def test_the_table_s_numbers_are_on_the_planning_screen() -> None:
    app = planning_app()
    s = app.game.state
    for seat, p in enumerate(s.players):
        assert value(app.root, f"strip-{seat}").startswith(f"{p.name} ({p.clan}): {p.blood}")


def test_a_planning_turn_is_three_taps_and_a_plain_location_two() -> None:
    """The scripted 4-player game of bench/round_taps.py (a filled catalogue)."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "round_taps.py"), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout)
    assert counts["planning turn taps (most)"] <= 3
    assert counts["plain location taps (most)"] <= 4
