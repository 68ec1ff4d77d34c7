"""Events never change after they are created (architecture, issue 9), and cards can be named
by where they lie instead of by uid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.apply import fold
from companion.cli import Script
from companion.errors import RuleError
from companion.game import Game
from tests.helpers import card, deployed, loc_state, position_game, where

EXAMPLES = sorted(p for p in (Path(__file__).resolve().parent.parent / "examples").glob("*.json")
                  if p.name != "score_positions.json")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_event_equals_its_journal_line_after_the_whole_game(path: Path) -> None:
    """Each example is played; each action's journal line is written as it is confirmed. After
    the whole game, and after folding the whole log again from scratch, every event still dumps
    exactly as its journal line (a drain must not reach back into a card_acquired event)."""
    script = Script.model_validate(json.loads(path.read_text("utf-8")))
    game = Game.new(script.start.setup or script.start.position)
    lines = []
    for command in script.actions:
        action = game.play(command)
        lines.append(json.dumps(Game.action_entry(action)["events"], sort_keys=True))
    assert game.state.phase == "game_over"

    def now() -> list[str]:
        return [json.dumps([e.model_dump(mode="json") for e in a.events], sort_keys=True)
                for a in game.actions]

    assert now() == lines
    fold(game.events)
    assert now() == lines
    acquired = [e for a in game.actions for e in a.events if e.type == "card_acquired"]
    assert acquired and not any(e.card.drained for e in acquired)


def test_cards_named_by_player_location_and_place() -> None:
    """docs/formats.md: 'Ann/1/2' is Ann's 2nd card at Location #1, so a script names a
    face-down card without knowing its uid."""
    game = position_game(4, phase="resolution", resolution_location="1", locations=[
        where("1", deployed("Ann", card(3), None), deployed("Bo", None))])
    game.play({"type": "choose_withdraw"})
    for bad in ("Ann/1/3", "Zed/1/1", "Ann/9/1", "Ann/1/0", "Ann/1/x"):
        with pytest.raises(RuleError, match="§"):
            game.play({"type": "reveal", "cards": {bad: card(1), "1/1/1": card(2)}})
    game.play({"type": "reveal", "cards": {"Ann/1/2": card(4), "1/1/1": card(2)}})
    ann, bo = (loc_state(game, "1").positions[i].cards for i in (0, 1))
    assert (ann[1].card.power, bo[0].card.power) == (4, 2)
    game.play({"type": "apply_effect", "action": "power", "player": "Ann", "card": "Ann/1/1",
               "amount": 1, "reason": "a boost"})
    assert loc_state(game, "1").positions[0].cards[0].modifiers[0].amount == 1
