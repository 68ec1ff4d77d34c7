"""State copies share frozen values and copy the rest; events never change after creation."""

import json
from pathlib import Path

import pytest

from companion.cli.main import Script
from companion.rules.game import SNAPSHOT_EVERY, Game
from models.common import copy_model
from models.events import EVENT_LIST_ADAPTER
from models.state import copy_state

EXAMPLES = sorted(p for p in (Path(__file__).parents[1] / "examples").glob("*.json")
                  if json.loads(p.read_text()).get("format") == "vendetta-companion/script")


def played(path: Path) -> Game:
    script = Script.model_validate(json.loads(path.read_text()))
    game = Game.new(script.start.setup or script.start.position)
    for action in script.actions:
        game.play(action)
    return game


def test_copy_shares_frozen_values_and_copies_mutable_ones() -> None:
    game = played(EXAMPLES[0])
    state = game.state
    copy = copy_state(state)
    assert copy == state and copy.model_dump() == state.model_dump()
    assert copy is not state and copy.players is not state.players
    p, q = copy.players[0], state.players[0]
    assert p is not q and p.alliance is not q.alliance
    assert p.alliance[0] is not q.alliance[0] and p.alliance[0].card is q.alliance[0].card
    assert copy.locations[0].positions[0] is not state.locations[0].positions[0]
    assert copy.variants is state.variants and copy.scoreboard is state.scoreboard
    before = state.model_dump()
    p.blood += 5
    p.alliance[0].drained = not p.alliance[0].drained
    copy.locations[0].positions[1].cards.clear()
    copy.turns_taken.append(9)
    assert state.model_dump() == before
    assert state.model_copy(deep=True).model_dump() == before  # the same copy underneath
    assert copy_model(state.players[0]).model_dump() == before["players"][0]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_events_never_change_when_folded_or_replayed(path: Path) -> None:
    """Each event after play and replay (undo and redo too) equals its journal line."""
    game = played(path)
    journal = [e for a in game.journal() for e in a.get("events", [])]
    for _ in range(min(len(game.actions), 2 * SNAPSHOT_EVERY + 3)):
        game.undo()
    while game.can_redo():
        game.redo()
    again = Game.from_journal(game.header_doc(), json.loads(json.dumps(game.journal())))
    for g in (game, again):
        now = [e.model_dump(mode="json") for a in g.actions for e in a.events]
        assert now == journal
        assert EVENT_LIST_ADAPTER.validate_python(journal) == g.events[1:]
    drained = [e for e in game.events if e.type == "card_acquired" and e.card.drained]
    assert not drained, "a fold changed an acquired card's event"
