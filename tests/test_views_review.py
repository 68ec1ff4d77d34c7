"""Review, statistics, rules reference and card catalogue pages through the app factory
taps are handler calls, no browser."""

import json
from pathlib import Path

import flet_charts as fch
import pytest

from companion.cli.main import Script
from companion.library.session import GameSession
from companion.library.stats import compute
from companion.rules.reference import help_for, search
from companion.storage import MemoryGameStore, TinyDBGameStore
from companion.story.review import blood_series, conflict_powers, influence_series, state_after
from tests.ui import click, find, has, ids, texts, type_in, value
from views.app import build
from views.review_charts import round_marks
from views.state import AppState
from views.stats_page import filters

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def play_script(service: GameSession, name: str, stop: int | None = None) -> None:
    """Play an example script through the service (its first `stop` actions)."""
    script = Script.model_validate(json.loads((EXAMPLES / name).read_text()))
    service.new_game(script.start.setup or script.start.position)
    for action in script.actions[:stop]:
        service.play(action)


@pytest.fixture(scope="module")
def games() -> MemoryGameStore:
    """Three finished games (4, 3 and 5 players) and one unfinished, in a memory store."""
    store = MemoryGameStore()
    service = GameSession(store)
    for name in ("four_players.json", "three_players.json", "five_players.json"):
        play_script(service, name)
    play_script(service, "tag_team.json", stop=30)
    return store


@pytest.fixture
def app(games: MemoryGameStore) -> AppState:
    return build(GameSession(games))


def home_rows(app: AppState) -> list[dict]:
    """Summaries in Home's order: unfinished games first, then past games."""
    rows = app.library.store.list_games()
    return [s for s in rows if not s["finished"]] + [s for s in rows if s["finished"]]


def open_review(app: AppState, players: list[str]) -> None:
    """Tap Review on the Home row of the game with these players."""
    i = next(k for k, s in enumerate(home_rows(app)) if s["players"] == players)
    click(app.root, f"review-{i}")


FOUR = ["Dana", "Eli", "Fatima", "Gus"]


# --- game review -------------------------------------------------------------------------------

def test_review_opens_with_the_final_scoreboard_and_leaves_the_table_alone(app) -> None:
    open_review(app, FOUR)
    assert app.screen == "review" and app.table is None
    board = app.review.scoreboard
    assert value(app.root, "winner") == f"{board.winner} wins!"
    for row in board.rows:
        assert value(app.root, f"score-{row.rank}") == str(row.influence.total)


def test_story_groups_and_sentences_and_a_tap_replays_that_moment(app) -> None:
    open_review(app, FOUR)
    click(app.root, "review-tab-story")
    shown = texts(app.root)
    from companion.story.review import timeline

    groups = timeline(app.review)
    assert all(g.title in shown for g in groups)
    assert all(e.text in shown for g in groups for e in g.entries)
    conflict = next(gi for gi, g in enumerate(groups) if g.step == "conflict")
    click(app.root, "tl-part-2")  # only round 2
    assert not has(app.root, f"tl-group-{conflict}") or groups[conflict].round == 2
    click(app.root, "tl-part-all")
    click(app.root, f"tl-{conflict}-0")
    action = groups[conflict].entries[0].action
    assert app.review_at == action + 1
    assert has(app.root, "replay-head")
    state = state_after(app.review, action)
    for seat, p in enumerate(state.players):
        assert value(app.root, f"blood-{seat}") == str(p.blood)
        assert value(app.root, f"infl-{seat}") == str(p.influence)


def test_replay_steps_through_every_action(app) -> None:
    open_review(app, FOUR)
    click(app.root, "review-tab-replay")
    total = len(app.review.actions)
    assert value(app.root, "replay-head").startswith(f"After action {total} of {total}")
    assert find(app.root, "replay-next").disabled
    click(app.root, "replay-start")
    assert value(app.root, "replay-head") == "The start of the game"
    assert value(app.root, "blood-0") == str(state_after(app.review, -1).players[0].blood)
    click(app.root, "replay-next")
    assert value(app.root, "replay-head").startswith(f"After action 1 of {total}")
    click(app.root, "replay-ahead")  # to the end of the first timeline group
    from companion.story.review import timeline

    first = timeline(app.review)[0]
    assert app.review_at == max(e.action for e in first.entries) + 1
    for _ in range(6):
        click(app.root, "replay-ahead")
    at = app.review_at
    s = state_after(app.review, at - 1)
    assert [value(app.root, f"blood-{i}") for i in range(4)] == [str(p.blood) for p in s.players]
    click(app.root, "replay-back")
    assert app.review_at < at
    click(app.root, "replay-prev")
    assert not has(app.root, "effect-open")  # the replayed table is read-only


def test_chart_data_matches_the_review_series(app) -> None:
    open_review(app, FOUR)
    click(app.root, "review-tab-charts")
    game = app.review
    for ident_, series in (("chart-influence", influence_series(game)),
                           ("chart-blood", blood_series(game))):
        chart = find(app.root, ident_)
        assert isinstance(chart, fch.LineChart)
        assert len(chart.data_series) == len(series.players)
        for line, name in zip(chart.data_series, series.players, strict=True):
            assert [p.y for p in line.points] == series.values[name]
            assert [p.x for p in line.points] == list(range(len(series.labels)))
        assert chart.max_y > max(max(v) for v in series.values.values())
        labels = [lab.label.value for lab in chart.bottom_axis.labels]
        assert {"R1", "R2", "R3"} <= set(labels)
    conflicts = conflict_powers(game)
    for rnd in sorted({c.round for c in conflicts}):
        bars = find(app.root, f"chart-power-{rnd}")
        assert isinstance(bars, fch.BarChart)
        these = [c for c in conflicts if c.round == rnd]
        assert [[r.to_y for r in g.rods] for g in bars.groups] == [
            [p.total for p in c.players] for c in these]
        first = these[0]
        assert value(app.root, f"power-line-{rnd}-0").endswith(
            ", ".join(f"{p.name} {p.total}" for p in first.players)) or first.outcome == "no_cards"


def test_round_marks_put_each_round_where_it_starts() -> None:
    from companion.story.review import Series

    labels = ["Setup"] * 10 + ["R1 Feed"] * 10 + ["R2 Feed"] * 10 + ["End of game"] * 10
    s = Series(players=["A"], actions=list(range(-1, 39)), labels=labels,
               values={"A": [0] * 40})
    assert round_marks(s) == [(0, "Start"), (10, "R1"), (20, "R2"), (39, "End")]
    labels = ["Setup"] + ["R1 Feed"] * 20 + ["R2 Feed"] * 18 + ["End of game"]
    s = s.model_copy(update={"labels": labels})
    assert round_marks(s) == [(1, "R1"), (21, "R2"), (39, "End")]  # 'Start' would collide


def test_unfinished_game_review_says_so(app) -> None:
    i = next(k for k, s in enumerate(home_rows(app)) if not s["finished"])
    click(app.root, f"review-{i}")
    assert has(app.root, "not-finished")
    click(app.root, "review-tab-replay")
    assert has(app.root, "replay-head")


# --- statistics --------------------------------------------------------------------------------

def test_stats_page_shows_compute_figures(app, games) -> None:
    click(app.root, "stats")
    stats = compute(games.list_games(finished=True))
    assert stats.games == 3
    assert value(app.root, "stats-games") == "3 finished games counted"
    assert stats.games == 3
    assert value(app.root, "stats-frenzies") == f"Frenzies per game: {stats.frenzies_per_game:.2f}"
    for c in stats.clans:
        assert has(app.root, f"clan-row-{c.clan}")
    p = stats.players[0]
    games = f"{p.games} game" + ("" if p.games == 1 else "s")  # "1 game", "2 games"
    wins = f"{p.wins} win" + ("" if p.wins == 1 else "s")
    assert value(app.root, "player-stats-0").startswith(f"{games} · {wins}")
    h = stats.haven[0]
    assert f"{h.wins} of {h.games}" in value(app.root, "stats-haven-1")


def test_stats_filters(app) -> None:
    click(app.root, "stats")
    click(app.root, "stats-filters")
    click(app.root, "stats-count-3")
    assert value(app.root, "stats-games") == "1 finished game counted"
    click(app.root, "stats-count-any")
    click(app.root, "stats-location_cards-on")
    with_cards = int(value(app.root, "stats-games").split()[0])
    click(app.root, "stats-location_cards-off")
    without = int(value(app.root, "stats-games").split()[0])
    assert with_cards + without == 3
    click(app.root, "stats-location_cards-any")
    type_in(app.root, "stats-since", "2001-02-30")
    click(app.root, "stats-apply")
    assert app.error and "YYYY-MM-DD" in app.error and has(app.root, "error")
    type_in(app.root, "stats-since", "2999-01-01")
    click(app.root, "stats-apply")
    assert app.error is None
    assert has(app.root, "stats-empty")
    type_in(app.root, "stats-since", "")
    click(app.root, "stats-preset-30")
    assert value(app.root, "stats-games") == "3 finished games counted"


def test_stats_filter_arguments() -> None:
    from datetime import date

    d = {"since": "", "until": "2024-05-01", "count": 4, "preset": "all",
         "variants": {"relics": False}}
    assert filters(d) == {"since": None, "until": date(2024, 5, 1), "player_count": 4,
                          "variants": {"relics": False}}
    d = {**d, "until": "", "preset": "30"}
    assert filters(d, today=date(2024, 3, 31))["since"] == date(2024, 3, 1)
    with pytest.raises(ValueError, match="From is after To"):
        filters({**d, "since": "2024-05-02", "until": "2024-05-01"})


# --- rules reference ---------------------------------------------------------------------------

def test_rules_search_filters_and_a_hit_opens_its_section(app) -> None:
    click(app.root, "rules")
    type_in(app.root, "rules-search", "diablerie")
    hits = [i for i in ids(app.root) if i.startswith("hit-")]
    assert hits == [f"hit-{h.id}" for h in search("diablerie")][:20]
    click(app.root, hits[0])
    assert value(app.root, "section-title") == search("diablerie")[0].title
    click(app.root, "rules-list")
    assert find(app.root, "rules-search").value == "diablerie"  # the search is kept
    type_in(app.root, "rules-search", "zzzz")
    assert has(app.root, "no-hits")


def test_rules_groups_and_rulings(app) -> None:
    click(app.root, "rules")
    assert has(app.root, "sec-step-conflict")  # round, phases and steps start unfolded
    assert not has(app.root, "sec-ruling-last-blood")
    click(app.root, "group-ruling")
    assert has(app.root, "sec-ruling-last-blood")
    click(app.root, "sec-ruling-last-blood")
    assert any("rule book" in t for t in texts(app.root))


def test_help_button_on_a_resolution_step_opens_its_section_and_comes_back(
        tmp_path) -> None:
    service = GameSession(TinyDBGameStore(tmp_path))
    play_script(service, "four_players.json", stop=200)
    script = json.loads((EXAMPLES / "four_players.json").read_text())
    # rewind to the first Withdraw step of the game
    while not (service.game.state.phase == "resolution"
               and service.game.state.step == "withdraw"):
        service.undo()
        assert len(service.game.actions) < len(script["actions"])
    app = build(service)
    app.go("game")
    app.render()
    click(app.root, "withdraw-1")  # a draft choice, kept across the help visit
    click(app.root, "help")
    assert app.screen == "rules"
    assert value(app.root, "section-title") == help_for("withdraw").title
    click(app.root, "rules-back")
    assert app.screen == "game" and 1 in app.draft("withdraw")["out"]
    for key in ("feed", "planning", "hand_building", "location_setup"):
        assert help_for(key).id  # every phase screen has a section to open


def test_help_button_on_each_phase_screen() -> None:
    service = GameSession(MemoryGameStore())
    play_script(service, "three_players.json", stop=12)
    app = build(service)
    app.go("game")
    seen = set()
    for _ in range(60):
        legal = app.legal()
        key = legal.step if legal.phase == "resolution" else legal.phase
        if key not in seen:
            seen.add(key)
            click(app.root, "help")
            assert value(app.root, "section-title") == help_for(key).title
            click(app.root, "rules-back")
        if legal.phase == "resolution" and legal.step == "aftermath":
            break
        app.play(_next_command(app))
        app.render()
    assert {"planning", "withdraw", "preparation", "conflict", "aftermath"} <= seen


def _next_command(app: AppState):
    """The next action of the three-player example."""
    script = Script.model_validate(json.loads((EXAMPLES / "three_players.json").read_text()))
    return script.actions[len(app.game.actions)]


# --- card catalogue ----------------------------------------------------------------------------

def test_catalogue_marks_unknown_values_and_saves_an_edit(tmp_path) -> None:
    app = build(GameSession(TinyDBGameStore(tmp_path)))
    click(app.root, "catalogue")
    assert value(app.root, "cat-count").startswith("9 card(s)")
    assert "Starting card · ? · Power ?\nUnknown: kind, Power" in texts(
        find(app.root, "card-BR-HUNT"))
    assert not any("Unknown" in t for t in texts(find(app.root, "card-BR01")))
    click(app.root, "card-BR-HUNT")
    type_in(app.root, "edit-power", "25")
    click(app.root, "edit-save")
    assert app.error == ("Not saved: Clan card BR-HUNT, power: Input should be less than or "
                         "equal to 20")
    type_in(app.root, "edit-power", "two")
    click(app.root, "edit-save")
    assert "BR-HUNT (Hunt), Printed Power (0-20): write a whole number" in app.error
    type_in(app.root, "edit-power", "2")
    click(app.root, "edit-kind-conflict")
    click(app.root, "edit-save")
    assert app.error is None and not has(app.root, "card-editor")
    entry = next(c for c in app.library.catalogue().clan_cards if c.id == "BR-HUNT")
    assert (entry.power, entry.kind) == (2, "conflict")
    assert next(c for c in app.catalogue.clan_cards if c.id == "BR-HUNT").power == 2


def test_catalogue_new_ally_export_and_import(tmp_path) -> None:
    app = build(GameSession(TinyDBGameStore(tmp_path)))
    click(app.root, "catalogue")
    click(app.root, "cat-tab-allies")
    click(app.root, "cat-new")
    click(app.root, "edit-save")
    assert "give it a name" in app.error
    type_in(app.root, "edit-name", "Harbour Master")
    for key, v in (("influence", "2"), ("feed", "1"), ("drain_blood", "2"),
                   ("drained_influence", "0")):
        type_in(app.root, f"edit-{key}", v)
    click(app.root, "edit-kind-human")
    click(app.root, "edit-save")
    assert app.error is None
    assert has(app.root, "card-ALLY-HARBOUR-MASTER")
    click(app.root, "cat-tab-share")
    doc = json.loads(find(app.root, "export-json").value)
    assert doc["allies"][0]["name"] == "Harbour Master"
    type_in(app.root, "import-json", "{not json")
    click(app.root, "import-ok")
    assert app.error.startswith("Not imported: this is not JSON")
    type_in(app.root, "import-json", json.dumps({"relics": [{"id": "R9", "influence": 11}]}))
    click(app.root, "import-ok")
    assert app.error == ("Not imported: Relic R9, influence: Input should be less than or equal "
                         "to 10. Nothing was changed.")
    type_in(app.root, "import-json", json.dumps({"relics": [{"id": "R9", "name": "Old Crown",
                                                             "influence": 2}]}))
    click(app.root, "import-ok")
    assert app.error is None and app.notice == ["Imported: 1 Relic(s)."]
    assert any(r.id == "R9" and r.name == "Old Crown" for r in app.catalogue.relics)


def test_every_new_screen_renders_at_home_and_back(app) -> None:
    for screen in ("rules", "catalogue", "stats", "home"):
        app.go(screen)
        assert app.root.controls
    app.go("review")  # nothing opened for review: back to Home
    assert app.screen == "home"
