"""The game clock: played time in all and per round, paused while the app is closed,
kept in the journal, replayed exactly, refused when malformed, averaged in Statistics."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.cli.main import Script
from companion.library.games import summary, validate_game_document
from companion.library.session import GameSession
from companion.library.stats import compute
from companion.rules.clock import ClockMark, clock_text, intervals, length_text, played
from companion.rules.game import Game, ReplayError
from companion.storage import ImportRefused, MemoryGameStore, TinyDBGameStore

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)


def at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat(timespec="seconds")


def mark(running: bool, minutes: float) -> dict:
    return {"kind": "clock", "running": running, "at": at(minutes)}


def script(name: str = "four_players.json") -> Script:
    return Script.model_validate(json.loads((EXAMPLES / name).read_text()))


def played_journal(name: str = "four_players.json", minutes_per_action: float = 1.0
                   ) -> tuple[dict, list[dict]]:
    """A finished example game whose action n was confirmed n minutes after T0."""
    s = script(name)
    game = Game.new(s.start.setup or s.start.position, game_id="clocked")
    for a in s.actions:
        game.play(a)
    entries = []
    for n, action in enumerate(game.actions, start=1):
        entries.append({**Game.action_entry(action), "at": at(n * minutes_per_action)})
    return game.header_doc(), entries


def test_intervals_add_up_and_a_killed_app_ends_at_its_last_sign_of_life() -> None:
    marks = [ClockMark(True, T0), ClockMark(False, T0 + timedelta(minutes=10)),
             ClockMark(True, T0 + timedelta(hours=5)),  # reopened 5 h later: pause not counted
             ClockMark(True, T0 + timedelta(hours=9))]  # killed before: no stop mark
    life = [T0 + timedelta(hours=5, minutes=20)]  # last action before the kill
    spans = intervals(marks, life, until=T0 + timedelta(hours=9, minutes=3))
    minutes = [(b - a).total_seconds() / 60 for a, b in spans]
    assert minutes == [10, 20, 3]


def test_per_round_split_and_game_end_cut_off() -> None:
    marks = [ClockMark(True, T0)]
    actions = [(T0 + timedelta(minutes=5), 1), (T0 + timedelta(minutes=30), 2),
               (T0 + timedelta(minutes=50), 3), (T0 + timedelta(minutes=70), 3)]
    t = played(marks, actions, ended=T0 + timedelta(minutes=70),
               now=T0 + timedelta(hours=3))
    assert t.rounds == [5 * 60, 25 * 60, 20 * 60, 20 * 60]
    assert t.seconds == 70 * 60 and not t.running


def test_game_time_from_a_journal_with_a_pause() -> None:
    header, entries = played_journal()
    n = len(entries)
    # open at 0, closed at minute 20 (pause of 100 minutes), reopened at minute 120
    journal = [mark(True, 0)]
    for i, e in enumerate(entries, start=1):
        if i == 21:
            journal += [mark(False, 20.5), mark(True, 120)]
            e = {**e, "at": at(120 + (i - 20))}
        elif i > 21:
            e = {**e, "at": at(120 + (i - 20))}
        journal.append(e)
    game = Game.from_journal(header, journal, verify=True)
    t = game.time(now=T0 + timedelta(days=2))
    # played: 20.5 min before the pause, then from 120 to the last action (120 + n - 20)
    assert t is not None and t.seconds == int(20.5 * 60 + (n - 20) * 60)
    assert sum(t.rounds) == t.seconds and len(t.rounds) == 4 and not t.running
    assert game.state.phase == "game_over"
    assert [m.running for m in game.clock] == [True, False, True]


def test_old_journals_have_no_time_and_replay_unchanged() -> None:
    header, entries = played_journal()
    game = Game.from_journal(header, entries, verify=True)
    assert game.time() is None and summary(game)["time"] is None


def test_clock_entries_change_no_state() -> None:
    header, entries = played_journal()
    plain = Game.from_journal(header, entries)
    marked = Game.from_journal(header, [mark(True, 0), *entries[:7], mark(False, 7.5),
                                        mark(True, 9), *entries[7:]], verify=True)
    assert marked.state == plain.state
    assert marked.events == plain.events


@pytest.mark.parametrize("entry, problem", [
    ({"kind": "clock", "running": "yes", "at": at(0)}, "running"),
    ({"kind": "clock", "running": True}, "at"),
    ({"kind": "clock", "running": True, "at": "tea time"}, "at"),
])
def test_malformed_clock_entries_are_refused_on_import(entry: dict, problem: str) -> None:
    header, entries = played_journal()
    doc = {"format": "vendetta-companion/game", "schema_version": 1, "header": header,
           "entries": [entry, *entries]}
    store = MemoryGameStore()
    with pytest.raises(ImportRefused, match=problem):
        store.import_game(doc, validate=validate_game_document)
    assert store.list_games() == []
    with pytest.raises(ReplayError):
        Game.from_journal(header, [entry, *entries])


def test_service_hooks_store_the_clock_and_survive_a_restart(tmp_path: Path) -> None:
    s = script()
    store = TinyDBGameStore(tmp_path)
    svc = GameSession(store)
    game = svc.new_game(s.start.setup or s.start.position)
    assert svc.clock_start() and not svc.clock_start()  # already running: nothing written
    for a in s.actions[:10]:
        svc.play(a)
    assert svc.clock_stop() and not svc.clock_stop()
    stored = store.load(game.header.game_id)
    kinds = [e["kind"] for e in stored.entries]
    assert kinds.count("clock") == 2 and kinds[0] == "clock" and kinds[-1] == "clock"
    assert stored.summary["time"] == game.time().summary()
    store.close()
    # a restart: the clock is as it was when the app closed, and runs again once opened
    store = TinyDBGameStore(tmp_path)
    svc = GameSession(store)
    again = svc.open_game(game.header.game_id)
    assert again.time() == game.time() and not again.clock_running()
    assert svc.clock_start() and again.clock_running()
    assert Game.from_journal(*_doc(store, game.header.game_id), verify=True).clock == again.clock
    store.close()


def _doc(store: TinyDBGameStore, game_id: str) -> tuple[dict, list[dict]]:
    stored = store.load(game_id)
    return stored.header, stored.entries


def test_no_clock_for_a_finished_game_or_without_a_game() -> None:
    s = script()
    svc = GameSession(MemoryGameStore())
    assert not svc.clock_start()
    svc.new_game(s.start.setup or s.start.position)
    for a in s.actions:
        svc.play(a)
    assert not svc.clock_start() and not svc.clock_stop()


def test_a_refused_clock_entry_leaves_the_clock_as_it_was() -> None:
    class Full(MemoryGameStore):
        def append(self, game_id: str, entry: dict, summary: dict | None = None) -> None:
            if entry["kind"] == "clock":
                raise OSError(28, "No space left on device")
            super().append(game_id, entry, summary)

    s = script()
    svc = GameSession(Full())
    svc.new_game(s.start.setup or s.start.position)
    assert not svc.clock_start()
    assert svc.game is not None and svc.game.clock == []


def test_compact_journal_keeps_the_clock() -> None:
    header, entries = played_journal()
    game = Game.from_journal(header, [mark(True, 0), *entries, mark(False, 999)])
    again = Game.from_journal(game.header_doc(), game.journal(), verify=True)
    assert again.clock == game.clock and again.time() == game.time()


def test_stats_average_length_per_player_count() -> None:
    def game(players: int, seconds: int | None) -> dict:
        names = [f"P{i}" for i in range(players)]
        return {"finished": True, "winner": "P0", "player_count": players,
                "created": at(0), "players": names,
                "standings": [{"name": n, "clan": None, "influence": 5} for n in names],
                "time": None if seconds is None else {"seconds": seconds, "rounds": []}}

    stats = compute([game(3, 3600), game(3, 1800), game(4, 4000), game(4, None),
                     game(5, 0)])
    assert [(n.player_count, n.games, n.average_seconds) for n in stats.lengths] == [
        (3, 2, 2700.0), (4, 1, 4000.0)]


def test_clock_words() -> None:
    assert clock_text(7) == "0:07" and clock_text(725) == "12:05"
    assert clock_text(3729) == "1:02:09"
    assert length_text(20) == "< 1 min" and length_text(2700) == "45 min"
    assert length_text(3900) == "1 h 05 min"


def test_a_table_runs_its_games_clock_while_open(tmp_path: Path) -> None:
    """The clock starts when a table opens a game, stops when the table closes or the app
    stops its clocks, and starts again when the stored table is opened after a restart."""
    from tests.table_helpers import make_hub, position

    hub = make_hub(tmp_path)
    table = hub.new_table(position(3, phase="planning"))
    assert table.game.clock_running()
    hub.stop_clocks()
    assert not table.game.clock_running()
    game_id = table.game_id
    hub.store.close()
    again = make_hub(tmp_path)  # a restart: the stored table is opened by its first device
    table = again.open_table(game_id)
    assert table.game.clock_running()
    entries = again.store.load(game_id).entries
    marks = [e["running"] for e in entries if e.get("kind") == "clock"]
    assert marks == [True, False, True]
    again.close(table.table_id)
    assert not again.library.load_game(game_id).clock_running()
