"""Undo/redo of referee actions back to the start of the game, with random results kept."""

from __future__ import annotations

import pytest

from companion.rules.game import Game
from tests.helpers import NAMES, card, new_game, of_type, play, resolve_here, to_planning


def test_s2_to_s10_undo_to_the_start_and_redo_gives_the_same_game() -> None:
    """§2–§10: every action undoes back to the start; redo re-applies the recorded events, so
    random results (first player, clans, Frenzy drain) are the same."""
    game = new_game(4, setup=False, seed=3)
    start = game.state.model_dump()
    game.play({"type": "set_first_player"})
    game.play({"type": "offer_clans"})
    for _ in range(4):
        legal = game.legal()
        assert legal.actor is not None
        game.play({"type": "pick_clan", "player": legal.actor, "clan": legal.clans[0]})
    to_planning(game)
    while game.state.phase == "planning":
        actor = game.legal().actor
        assert actor is not None
        play(game, NAMES[actor], "1" if actor % 2 else "haven", card(actor + 1), blood=1)
    resolve_here(game)
    events = game.play({"type": "apply_effect", "action": "lose_blood", "player": 1,
                        "amount": 30, "by": 0}).events
    assert of_type(events, "card_drained")[0].random is True
    end = game.state.model_dump()
    log = list(game.events)
    n = len(game.actions)
    assert n > 15

    states = []
    while game.can_undo():
        states.append(game.state.model_dump())
        game.undo()
    assert game.state.model_dump() == start
    assert len(game.actions) == 0 and len(game.events) == 1
    with pytest.raises(IndexError):
        game.undo()

    for expected in reversed(states):
        game.redo()
        assert game.state.model_dump() == expected
    assert game.state.model_dump() == end
    assert game.events == log
    with pytest.raises(IndexError):
        game.redo()


def test_s7_new_action_after_undo_clears_redo() -> None:
    """§7: a new action after undo replaces the undone future."""
    game = new_game(3)
    to_planning(game)
    play(game, "Ann", "1", card(2))
    game.undo()
    play(game, "Ann", "2", card(5))
    assert not game.can_redo()
    played = [c for loc in game.state.locations for c in loc.positions[0].cards]
    assert [(c.card.power if c.card else None) for c in played] == [5]


def test_s7_replayed_journal_equals_incremental_state() -> None:
    """§7: the log rebuilds the same state (verified replay of every command)."""
    game = new_game(4)
    to_planning(game)
    for name in ("Ann", "Bo", "Cy", "Di"):
        play(game, name, "haven", card(2), blood=1)
    again = Game.from_journal(game.header_doc(), game.journal(), verify=True)
    assert again.state.model_dump() == game.state.model_dump()
