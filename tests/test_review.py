"""Game review: timeline sentences, stepping through states, chart data."""

import json
from pathlib import Path

import pytest

from companion.cli.main import Script
from companion.rules.game import Game
from companion.story.review import (
    blood_series,
    conflict_powers,
    influence_series,
    lines,
    state_after,
    timeline,
)
from tests.helpers import (
    ally,
    card,
    deployed,
    member,
    play,
    position_game,
    resolve_here,
    seat,
    where,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def conflict_game() -> Game:
    """Round 2 Resolution: Ann 5 + 4 Blood against Bo 4 + 3 Blood at Location #1."""
    game = position_game(4, phase="resolution", round=2, locations=[
        where("1", deployed("Ann", card(5), blood=4), deployed("Bo", card(4), blood=3))])
    while game.state.round == 2:
        resolve_here(game)
    return game


def example(name: str) -> Game:
    script = Script.model_validate(json.loads((EXAMPLES / name).read_text()))
    game = Game.new(script.start.setup or script.start.position)
    for action in script.actions:
        game.play(action)
    return game


def test_conflict_sentence_names_players_clans_totals_and_rewards():
    text = lines(conflict_game())
    assert ("Round 2, Location #1, Conflict: Ann (Brujah) 9, Bo (Gangrel) 7 — Ann takes the "
            "Ally (Ghoul 1) and 2 Influence; Bo takes a Victim and 2 Influence") in text
    assert ("Round 2, Location #2, Conflict: Nobody has clan cards here: no rewards; its Ally "
            "(Ghoul 2) leaves the game") in text
    assert text[-1].startswith("Round 2, End of Round: End of Round 2: Deployed cards go back")


def test_groups_follow_round_phase_location_step():
    groups = timeline(conflict_game())
    keys = [(g.round, g.phase, g.location, g.step) for g in groups]
    assert keys == [(2, "resolution", "1", "withdraw"), (2, "resolution", "1", "conflict"),
                    (2, "resolution", "2", "conflict"), (2, "resolution", "haven", "conflict"),
                    (2, "end_of_round", None, None)]
    assert groups[1].title == "Round 2, Location #1, Conflict"
    assert groups[0].entries[0].action == -1 and groups[0].entries[0].kind == "start"


def test_play_and_frenzy_sentences():
    game = position_game([seat("Ann"), seat("Bo", blood=1), seat("Cy"), seat("Di")])
    play(game, "Ann", "2", None, blood=1)
    game.play({"type": "apply_effect", "action": "lose_blood", "player": "Bo", "by": "Ann",
               "amount": 2, "reason": "Fist of Caine"})
    assert lines(game)[1:] == [
        "Round 1, Planning: Ann (Brujah) plays a card face down at Location #2 (spends 1 Blood "
        "for it, deploys 1 Blood)",
        "Round 1, Planning: Bo loses 1 Blood to Ann's Fist of Caine",
        "Round 1, Planning: Bo enters Frenzy (caused by Ann); Ann gains 1 Influence; a random "
        "draw drains Bo's Victim (+3 Blood)",
    ]
    assert [e.action for g in timeline(game) for e in g.entries] == [-1, 0, 1, 1]


def test_drain_diablerie_and_elimination_in_one_sentence():
    vampire = member(ally("Nosy", kind="vampire"))
    game = position_game([seat("Ann"), seat("Bo", diablerie_up=2, alliance=[vampire]),
                          seat("Cy"), seat("Di")], ambition="Bo")
    game.play({"type": "drain", "player": "Bo", "card": "pa2"})
    assert lines(game)[-1] == (
        "Round 1, Planning: Bo drains Nosy (+2 Blood); Diablerie: Bo takes 1 Diablerie token "
        "(3 in all); Bo is out of the game with a third Diablerie token: their cards and Blood "
        "leave the table")


@pytest.mark.parametrize("name", ["four_players.json", "five_players.json", "tag_team.json",
                                  "three_players.json", "card_effects.json"])
def test_every_example_game_tells_its_whole_story(name):
    """Every action with events appears; the story ends with the winner and final scores."""
    game = example(name)
    groups = timeline(game)
    told = {e.action for g in groups for e in g.entries}
    silent = {"next_step", "finish_hand_building", "feed", "reveal"}
    assert {i for i, a in enumerate(game.actions) if a.command.type not in silent} <= told
    assert groups[-1].title == "End of game"
    assert groups[-1].entries[0].text.endswith(f"wins with {_winning_total(game)} Influence" if
                                               not game.state.variants.tag_team else ")")
    assert all(e.text and "?" not in e.text for g in groups for e in g.entries)


def _winning_total(game: Game) -> int:
    return game.scoreboard.rows[0].influence.total


def test_four_player_example_sentences():
    text = lines(example("four_players.json"))
    assert ("Round 3, Location #2, Aftermath: Eli enters Frenzy (caused by Fatima); Fatima gains "
            "2 Influence (1 for the Frenzy, 1 for The Collar); a random draw drains Eli's Victim "
            "(+3 Blood)") in text
    assert ("Round 1, Location #1, Withdraw: Fatima withdraws from Location #1 with the Withdraw "
            "token: moves Ready (1) face up to the Prince's Haven") in text
    assert "End of game: Fatima (Brujah) wins with 24 Influence" in text


def test_state_after_steps_through_the_game():
    game = conflict_game()
    assert state_after(game, -1).model_dump() == game.state_at(0).model_dump()
    after_conflict = state_after(game, 2)
    assert after_conflict.players[0].influence == 5
    assert state_after(game, len(game.actions) - 1).model_dump() == game.state.model_dump()
    after_conflict.players[0].influence = 99
    assert game.state_at(3).players[0].influence == 5
    with pytest.raises(IndexError):
        state_after(game, len(game.actions))
    with pytest.raises(IndexError):
        state_after(game, -2)


def test_influence_and_blood_series():
    game = conflict_game()
    series = influence_series(game)
    assert series.actions == [-1, 0, 1, 2, 3]
    assert series.values["Ann"] == [4, 4, 4, 8, 8]  # Victim 1 + 3 tokens; + Ghoul 2 + 2 tokens
    assert series.values["Bo"] == [4, 4, 4, 7, 7]
    by_phase = influence_series(game, every="phase")
    assert by_phase.actions == [-1, 3] and by_phase.labels == ["R2 Resolution", "R3 Feed"]
    assert by_phase.values["Ann"] == [4, 8]
    assert blood_series(game).values["Ann"] == [6, 6, 6, 6, 6]  # deployed Blood goes to the Bank


def test_conflict_powers_explain_each_total():
    powers = conflict_powers(conflict_game())
    assert [(p.round, p.location, p.outcome) for p in powers] == [
        (2, "1", "contested"), (2, "2", "no_cards"), (2, "haven", "no_cards")]
    first = powers[0]
    assert first.action == 2
    assert [(p.name, p.clan, p.rank, p.total) for p in first.players] == [
        ("Ann", "Brujah", 1, 9), ("Bo", "Gangrel", 2, 7)]
    assert first.players[0].explain == first.players[0].breakdown.explain()
    assert "Conflict card 5 + 4 Blood" in first.players[0].explain


def test_conflict_powers_match_recorded_totals_in_examples():
    game = example("card_effects.json")
    for cp in conflict_powers(game):
        for p in cp.players:
            assert p.breakdown.total == p.total
