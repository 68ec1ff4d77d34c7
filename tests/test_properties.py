"""Property tests: random legal games to the end, invariants after every action (§1–§14).

Games come from `tests.strategies`; hypothesis draws the seeds (or drives every choice through
`st.data()`), derandomized so CI is stable, without shrinking so a failure stays cheap (the
failing seed is printed; replay it with `play_game(RandomChooser(seed))`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.rules.apply import apply_in_place as fold_one
from companion.rules.apply import fold, initial_state
from companion.rules.errors import RuleError
from companion.rules.game import Game
from companion.rules.legal import legal
from companion.rules.queries import PLANNING_TURNS, wins_ties
from models.events import AnyEvent
from models.setup import Position
from models.state import GameState
from tests.strategies import (
    DataChooser,
    RandomChooser,
    illegal_command,
    next_command,
    play_game,
    random_setup,
)

FAST = settings(max_examples=8, deadline=None, derandomize=True,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))
SEEDS = st.integers(0, 2**32 - 1)


# --- checks ----------------------------------------------------------------------------------


def check_state(s: GameState) -> None:
    """Invariants that hold between any two actions (§7, §9, §10, §11, §14)."""
    for seat, p in enumerate(s.players):
        assert p.blood >= 0 and p.influence >= 0, (p.name, p.blood, p.influence)
        assert p.eliminated or p.blood >= 1, f"{p.name} left at 0 Blood (§10 Frenzy)"
        assert p.diablerie_up >= 0 and p.diablerie_down >= 0
        assert p.diablerie <= 3, (p.name, p.diablerie)
        assert p.eliminated == (p.diablerie >= 3), f"{p.name}: third Diablerie ⇔ out (§11)"
        assert p.hand_size >= 0, (p.name, p.hand_size)
        for loc in s.locations:
            pos = loc.positions[seat]
            assert pos.blood >= 0
            if p.eliminated:
                assert pos.blood == 0 and not pos.cards, f"{p.name} out but deployed (§11)"
                assert all(c.owner != seat for q in loc.positions for c in q.cards)
    uids = [c.uid for p in s.players for c in p.alliance]
    uids += [c.uid for loc in s.locations for pos in loc.positions for c in pos.cards]
    assert len(uids) == len(set(uids)), "card uids must be unique"
    if s.phase in ("feed", "location_setup", "hand_building"):   # End of Round cleanup (§10)
        assert all(not pos.present() for loc in s.locations for pos in loc.positions)
        assert all(p.diablerie_down == 0 for p in s.players)
        hand = 2 + sum(2 if s.three_player and r == 1 else 1 for r in range(1, s.round))
        assert all(p.hand_size == hand for p in s.players if not p.eliminated), hand
    if s.phase == "planning":
        top = PLANNING_TURNS[s.three_player][s.round]
        assert all(0 <= t <= top for t in s.turns_taken)
    if s.phase != "game_over":
        assert s.scoreboard is None


def _seats(e: AnyEvent) -> set[int]:
    """Every seat an event names as acting, gaining, losing or taking part."""
    d = e.model_dump()
    seats = {d[k] for k in ("player", "by", "to_player") if isinstance(d.get(k), int)}
    seats |= set(d.get("stay", [])) | set(d.get("withdraw", []))
    if e.type == "conflict_resolved":
        seats |= set(e.result.totals) | set(e.result.ranking)
    return seats


def check_eliminated_never_act(events: list[AnyEvent]) -> None:
    """After player_eliminated, no event names that seat again (§11)."""
    out: set[int] = set()
    for i, e in enumerate(events):
        assert not (_seats(e) & out), f"event {i} {e!r} involves eliminated {out}"
        if e.type == "player_eliminated":
            out.add(e.player)


def _blood(s: GameState) -> int:
    return sum(p.blood for p in s.players) + sum(
        pos.blood for loc in s.locations for pos in loc.positions)


def check_event_log(events: list[AnyEvent]) -> None:
    """Refolding the log event by event: Blood in Pools + Deployed changes only by Bank moves
    and Influence only by its events (conservation); contested rankings follow the totals
    (§8.4); the Prince's Haven winner holds Ambition; a Frenzy caused by an opponent pays
    them Influence first (§10)."""
    s = initial_state(events[0])
    haven_winner: int | None = None
    for i, e in enumerate(events[1:], 1):
        if e.type == "frenzy_entered" and e.by is not None:
            nxt = events[i + 1]
            paid = nxt.type == "influence_changed" and nxt.player == e.by and nxt.delta >= 1
            team = s.players[e.player].team
            own = e.by == e.player or (team is not None and team == s.players[e.by].team)
            assert paid != own, f"event {i}: Frenzy reward (§10, Ruling; tag team §13)"
        if e.type == "conflict_resolved" and e.result.outcome == "contested":
            totals = [e.result.totals[p] for p in e.result.ranking]
            assert totals == sorted(totals, reverse=True), e.result
        blood, influence = _blood(s), sum(p.influence for p in s.players)
        if e.type == "blood_changed":
            blood += e.delta
        elif e.type == "blood_deployed" and e.from_bank:
            blood += e.amount
        elif e.type == "round_ended":
            blood -= sum(pos.blood for loc in s.locations for pos in loc.positions)
        elif e.type == "player_eliminated":
            blood -= sum(loc.positions[e.player].blood for loc in s.locations)
        elif e.type == "influence_changed":
            influence += e.delta
        if e.type == "conflict_resolved" and e.location == "haven" and e.result.ranking:
            haven_winner = e.result.ranking[0]
        if e.type in ("round_ended", "game_ended"):
            assert haven_winner is None or s.ambition == haven_winner, "§8.4 Ambition"
            haven_winner = None
        fold_one(s, e)
        assert _blood(s) == blood, f"Blood not conserved at event {i}: {e!r}"
        assert sum(p.influence for p in s.players) == influence, f"event {i}: {e!r}"


def check_scoreboard(s: GameState) -> None:
    """One row per player, ranks 1..n, eliminated last, §12 order; team table in tag team."""
    assert s.phase == "game_over" and s.scoreboard is not None
    board, n = s.scoreboard, len(s.players)
    assert [r.rank for r in board.rows] == list(range(1, n + 1))
    assert sorted(r.player for r in board.rows) == list(range(n))
    keys = []
    for r in board.rows:
        p = s.players[r.player]
        total = (sum(c.influence() for c in p.alliance) + p.influence
                 + (p.relic.influence if p.relic else 0) - p.diablerie)
        assert (r.name, r.eliminated, r.blood, r.influence.total) == (
            p.name, p.eliminated, p.blood, total)
        keys.append((r.eliminated, -total, not wins_ties(s, r.player), -p.blood,
                     r.turn_position))
    assert keys == sorted(keys), "rows not in §12 order (eliminated last §11; win-ties Ally §15)"
    if not s.variants.tag_team:
        assert board.teams is None and board.winner == board.rows[0].name
        return
    teams = board.teams
    assert teams is not None and [t.rank for t in teams] == list(range(1, len(teams) + 1))
    assert sorted(x for t in teams for x in t.players) == list(range(n))
    totals = {r.player: r.influence.total for r in board.rows}
    for t in teams:
        assert {s.players[x].team for x in t.players} == {t.team}
        assert t.influence == sum(totals[x] for x in t.players)
        assert t.blood == sum(s.players[x].blood for x in t.players)
    assert board.winning_team == teams[0].team and board.winner == board.rows[0].name
    team_keys = [(-t.influence, not any(wins_ties(s, x) for x in t.players), -t.blood)
                 for t in teams]
    assert team_keys == sorted(team_keys), "teams not in §12 order (win-ties Ally §15)"


def check_journal(game: Game) -> None:
    """The journal replayed (verified) gives the same state, events and redo stack."""
    again = Game.from_journal(game.header_doc(), game.journal(), verify=True)
    assert again.state.model_dump() == game.state.model_dump()
    assert again.events == game.events
    assert again.redo_stack == game.redo_stack


class Incremental:
    """After every action: state invariants, and a running fold equal to the game's state."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.seen = 0

    def __call__(self, game: Game) -> None:
        events = game.events
        if self.state is None:
            self.state, self.seen = initial_state(events[0]), 1
        for e in events[self.seen:]:
            fold_one(self.state, e)
        self.seen = len(events)
        check_state(game.state)
        assert self.state.model_dump() == game.state.model_dump()


# --- properties ------------------------------------------------------------------------------


@FAST
@given(seed=SEEDS)
def test_random_games_end_with_a_complete_scoreboard(seed: int) -> None:
    """§3–§12: any random legal game ends; invariants hold after every action; replays agree."""
    game = play_game(RandomChooser(seed), after=Incremental())
    check_scoreboard(game.state)
    check_eliminated_never_act(game.events)
    check_event_log(game.events)
    assert fold(game.events).model_dump() == game.state.model_dump()


@settings(FAST, max_examples=4)
@given(seed=SEEDS)
def test_games_with_automated_card_effects(seed: int) -> None:
    """The same with §15 effects the engine applies itself (BR01–TR05 clan cards, Ally
    abilities, Relics, Succubus Club / The Collar): resolve_effect, take_back_blood."""
    game = play_game(RandomChooser(seed), automate=0.5,
                     after=lambda g: check_state(g.state))
    check_scoreboard(game.state)
    check_eliminated_never_act(game.events)
    check_event_log(game.events)
    assert fold(game.events).model_dump() == game.state.model_dump()


AL14 = {"name": "Edward Neally", "kind": "vampire", "influence": 1, "feed": 0, "drain_blood": 2,
        "drained_influence": 0, "id": "AL14", "ability": "AL14"}


def test_diablerie_never_exceeds_three_tokens() -> None:
    """§9/§11: a player out at the third token never holds more than 3 (brief invariant)."""
    pos = Position.model_validate({
        "round": 1, "phase": "planning", "ambition": "Ann",
        "locations": [{"id": i, "ally": {**AL14, "ability": None, "id": None, "name": f"V{i}"}}
                      for i in ("1", "2", "haven")],
        "players": [{"name": "Ann", "clan": "Brujah", "blood": 5, "influence": 3,
                     "diablerie_up": 2, "alliance": [{"card": AL14}], "hand_size": 3},
                    {"name": "Bo", "clan": "Gangrel", "blood": 5, "influence": 3},
                    {"name": "Cy", "clan": "Tremere", "blood": 5, "influence": 3}]})
    game = Game.new(pos)
    game.play({"type": "drain", "player": "Ann", "card": game.state.players[0].alliance[0].uid})
    assert game.state.players[0].eliminated
    assert game.state.players[0].diablerie <= 3, game.state.players[0].diablerie


VAMPIRE = {"name": "V", "kind": "vampire", "influence": 1, "feed": 0, "drain_blood": 2,
           "drained_influence": 0}
BR03 = {"power": 4, "kind": "passive", "id": "BR03", "name": "Bring it on!", "effect": "BR03"}


def test_player_eliminated_during_their_play_does_not_end_a_turn() -> None:
    """§11: no event names an eliminated player, even at the end of the play that put them out."""
    pos = Position.model_validate({
        "round": 1, "phase": "planning", "ambition": "Ann",
        "locations": [{"id": "1", "ally": {**VAMPIRE, "name": "V1"},
                       "deployed": [{"player": "Bo", "cards": [{"card": BR03}]}]},
                      {"id": "2", "ally": {**VAMPIRE, "name": "V2"}},
                      {"id": "haven", "ally": {**VAMPIRE, "name": "V3"}}],
        "players": [{"name": "Ann", "clan": "Brujah", "blood": 1, "influence": 3,
                     "diablerie_up": 2, "alliance": [{"card": VAMPIRE}], "hand_size": 3},
                    {"name": "Bo", "clan": "Gangrel", "blood": 5, "influence": 3},
                    {"name": "Cy", "clan": "Tremere", "blood": 5, "influence": 3}]})
    game = Game.new(pos)
    game.play({"type": "play_card", "player": "Ann", "location": "2", "card": {"power": 1}})
    assert game.state.players[0].eliminated
    check_eliminated_never_act(game.events)


@settings(FAST, max_examples=3)
@given(data=st.data())
def test_games_driven_by_hypothesis_data(data: Any) -> None:
    """The same properties with every choice drawn by hypothesis itself."""
    game = play_game(DataChooser(data), after=lambda g: check_state(g.state))
    check_scoreboard(game.state)
    check_eliminated_never_act(game.events)
    assert fold(game.events).model_dump() == game.state.model_dump()


@settings(FAST, max_examples=4)
@given(seed=SEEDS)
def test_undo_redo(seed: int) -> None:
    """Undo k then the state is the state k actions ago; redo k restores state and events."""
    rng = random.Random(seed ^ 0x5EED)
    history: list[dict[str, Any]] = []

    def after(game: Game) -> None:
        if not history:
            history.append(initial_state(game.events[0]).model_dump())
        history.append(game.state.model_dump())
        assert game.state_at(len(game.actions) - 1).model_dump() == history[-2]
        assert game.legal() == legal(game.state)
        if rng.random() > 0.08:
            return
        k = rng.randint(1, min(6, len(game.actions)))
        events, now = list(game.events), history[-1]
        for _ in range(k):
            game.undo()
        assert len(game.actions) == len(history) - 1 - k
        assert game.state.model_dump() == history[-1 - k]
        if rng.random() < 0.3:   # branch: a new action after undo drops the redo stack
            del history[len(game.actions) + 1:]
            game.play(next_command(game.state, RandomChooser(rng)))
            assert not game.can_redo()
            history.append(game.state.model_dump())
            return
        for _ in range(k):
            game.redo()
        assert game.state.model_dump() == now and game.events == events
        assert not game.can_redo()

    game = play_game(RandomChooser(seed), after=after)
    start = game.state.model_dump()
    n = len(game.actions)
    while game.can_undo():
        game.undo()
    assert game.state.model_dump() == initial_state(game.events[0]).model_dump()
    with pytest.raises(IndexError):
        game.undo()
    for _ in range(n):
        game.redo()
    assert game.state.model_dump() == start


@settings(FAST, max_examples=3)
@given(seed=SEEDS)
def test_state_at_equals_a_fold_of_the_first_n_actions(seed: int) -> None:
    """Snapshots are kept every SNAPSHOT_EVERY actions: state_at(n) for any n, before and after
    undo, redo and a branch, and after a journal replay, is the fold of the first n actions;
    a state once returned is never changed by later actions."""
    rng = random.Random(seed)
    game = play_game(RandomChooser(seed), automate=0.3)

    def check(g: Game, picks: int = 12) -> None:
        total = len(g.actions)
        for n in {0, total, max(0, total - 1), *(rng.randint(0, total) for _ in range(picks))}:
            events = g.start_events + [e for a in g.actions[:n] for e in a.events]
            assert g.state_at(n).model_dump() == fold(events).model_dump(), n
        assert g.legal() == legal(g.state), "the kept legal actions are of another state"
        with pytest.raises(IndexError):
            g.state_at(total + 1)

    check(game)
    kept = {n: (game.state_at(n), game.state_at(n).model_dump())
            for n in (0, len(game.actions) // 2, len(game.actions))}
    for _ in range(rng.randint(1, 40)):
        game.undo()
    check(game)
    for _ in range(rng.randint(0, len(game.redo_stack))):
        game.redo()
    check(game)
    if game.state.phase != "game_over":
        game.play(next_command(game.state, RandomChooser(rng)))
        check(game)
    again = Game.from_journal(game.header_doc(), game.journal())
    check(again)
    assert again.events == game.events
    # a replayed game makes its snapshots when first needed: undo into them, then play on
    replayed = Game.from_journal(game.header_doc(), game.journal())
    for _ in range(min(len(replayed.actions), rng.randint(1, 40))):
        replayed.undo()
        assert replayed.state.model_dump() == fold(
            replayed.start_events + [e for a in replayed.actions for e in a.events]).model_dump()
    check(replayed)
    for _ in range(rng.randint(0, len(replayed.redo_stack))):
        replayed.redo()
    if replayed.state.phase != "game_over":
        replayed.play(next_command(replayed.state, RandomChooser(rng)))
    check(replayed)
    for state, dumped in kept.values():
        assert state.model_dump() == dumped, "a returned state changed"


@settings(FAST, max_examples=2)
@given(seed=SEEDS)
def test_journal_replays_to_the_same_game(seed: int) -> None:
    """Game.from_journal(header, journal, verify=True) rebuilds the game, redo stack included
    (face-down cards too: their card_played.card is None)."""
    game = play_game(RandomChooser(seed), face_down_rate=0.5)
    check_journal(game)
    for _ in range(random.Random(seed).randint(1, 8)):
        game.undo()
    check_journal(game)


@settings(FAST, max_examples=6)
@given(seed=SEEDS)
def test_refused_commands_change_nothing(seed: int) -> None:
    """Illegal commands raise RuleError naming the §; state, log and redo stack unchanged."""
    rng = random.Random(seed)
    ch = RandomChooser(rng)
    kinds: Counter[str] = Counter()

    def try_illegal(game: Game) -> None:
        if rng.random() > 0.25:
            return
        bad = illegal_command(game.state, ch)
        if bad is None:
            return
        kind, cmd = bad
        before, n, redo = game.state.model_dump(), len(game.actions), len(game.redo_stack)
        with pytest.raises(RuleError) as err:
            game.play(cmd)
        assert "§" in str(err.value), (kind, cmd, str(err.value))
        assert game.state.model_dump() == before, (kind, cmd)
        assert (len(game.actions), len(game.redo_stack)) == (n, redo), (kind, cmd)
        kinds[kind] += 1

    game = play_game(ch, after=try_illegal)
    for _ in range(3):
        try_illegal(game)
    assert kinds, "no illegal command was tried"


@settings(FAST, max_examples=4)
@given(seed=SEEDS)
def test_same_seed_same_commands_same_events(seed: int) -> None:
    """Determinism: replaying the commands gives identical events; random Frenzy draws are
    recorded (random=True), and entering them as `draws` gives the same outcome (§10)."""
    game = play_game(RandomChooser(seed), automate=0.3)
    again = Game.new(game.header.start, game_id="again")
    drawn = 0
    for action in game.actions:
        picks = [e.uid for e in action.events if e.type == "card_drained" and e.random]
        assert all(e.frenzy for e in action.events if e.type == "card_drained" and e.random)
        if picks:
            drawn += 1
            physical = again.preview(action.command.model_copy(update={"draws": picks}))
            assert physical == [e.model_copy(update={"random": False})
                                if e.type == "card_drained" else e for e in action.events]
        assert again.play(action.command.model_dump()).events == action.events
    assert again.events == game.events


def test_driver_reaches_the_interesting_rules() -> None:
    """The driver really exercises Frenzy, Diablerie, elimination, withdraws, relics, teams."""
    seen: Counter[str] = Counter()
    for seed in range(5):
        game = play_game(RandomChooser(seed), random_setup(RandomChooser(seed), 3 + seed % 4),
                         effect_rate=0.2)
        check_scoreboard(game.state)
        seen.update(e.type for e in game.events)
        seen.update(f"random_draw:{e.random}" for e in game.events if e.type == "card_drained")
        seen["tag_team"] += game.state.variants.tag_team
    for kind in ("frenzy_entered", "diablerie_taken", "diablerie_flipped", "withdrew",
                 "card_moved", "cards_returned", "relic_used", "power_modified",
                 "ambition_taken", "random_draw:True", "random_draw:False", "tag_team",
                 "location_cards_placed", "card_restored"):
        assert seen[kind], f"the driver never produced {kind}: {seen}"
