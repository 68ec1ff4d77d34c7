"""Rules tests: every kind of refused command leaves state and log unchanged and names the
rule (§) and, where there is one, the player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pydantic
import pytest

from companion.rules.errors import PhaseError, RuleError, TurnError
from companion.rules.game import Game
from tests.helpers import (
    NAMES,
    ally,
    card,
    deployed,
    member,
    new_game,
    p,
    position_game,
    refused,
    resolve_here,
    seat,
    snapshot,
    stay_all,
    to_planning,
    victim,
    where,
)

Builder = Callable[[], Game]


def unset() -> Game:
    """A new table before the first player is chosen."""
    return new_game(4, setup=False)


def first_chosen() -> Game:
    """Ann is first; nobody has a clan."""
    game = new_game(4, setup=False)
    game.play({"type": "set_first_player", "player": "Ann"})
    return game


def clans_offered() -> Game:
    """Ann is first; 5 clans were drawn."""
    game = first_chosen()
    game.play({"type": "offer_clans", "clans": ["Brujah", "Gangrel", "Malkavian", "Nosferatu",
                                                "Toreador"]})
    return game


def relic_setup() -> Game:
    """Relics and Location cards variants, clans chosen, Relics not yet drawn."""
    return new_game(3, variants={"relics": True, "location_cards": True})


def relics_offered() -> Game:
    """Relics drawn (Ann first, so Cy drafts first)."""
    game = relic_setup()
    game.play({"type": "offer_relics", "relics": [{"name": f"R{i}", "influence": i}
                                                  for i in range(4)]})
    return game


def relics_drafted() -> Game:
    """Every Relic drafted; Location cards still to place."""
    game = relics_offered()
    for name in ("Cy", "Bo", "Ann"):
        game.play({"type": "pick_relic", "player": name, "index": NAMES.index(name)})
    return game


def planning() -> Game:
    """A fresh round 1 Planning from a new game (Ann's turn)."""
    game = new_game(4)
    to_planning(game)
    return game


def rich_planning() -> Game:
    """Planning, Ann to play, with a drained Victim, 1 face-up Diablerie and 2 Blood."""
    return position_game([seat("Ann", blood=2, diablerie_up=1,
                               alliance=[member(victim(), drained=True), member(ally())]),
                          seat("Bo"), seat("Cy", hand_size=0),
                          seat("Di", eliminated=True, diablerie_up=3)])


def withdraw_step() -> Game:
    """Resolution at #1: Ann (face-down card) and Bo are there, Cy is not."""
    return position_game(3, phase="resolution", resolution_location="1",
                         locations=[where("1", deployed("Ann", None), deployed("Bo", card(2)))])


def revelation_step() -> Game:
    """Resolution at #1, Revelation of Ann's face-down card."""
    game = withdraw_step()
    stay_all(game)
    return game


def preparation_step() -> Game:
    """Resolution at #1, Preparation (nothing face down)."""
    game = position_game(3, phase="resolution", resolution_location="1",
                         locations=[where("1", deployed("Ann", card(1)), deployed("Bo", card(2)))])
    stay_all(game)
    return game


def game_over() -> Game:
    """A finished game."""
    game = position_game(3, phase="resolution", round=3, resolution_location="haven",
                         locations=[where("haven", deployed("Bo", card(2)))])
    resolve_here(game)
    return game


def eff(action: str, player: str = "Ann", amount: int = 1, **extra: Any) -> dict[str, Any]:
    """An apply_effect command."""
    return {"type": "apply_effect", "action": action, "player": player, "amount": amount,
            **extra}


CASES: list[tuple[str, Builder, dict[str, Any], str, str | None, type[RuleError]]] = [
    # id, builder, command, rule, player named, error class
    ("game over", game_over, {"type": "next_step"}, "§12", None, PhaseError),
    ("unknown player", planning, {"type": "pass_turn", "player": "Zed"}, "§2", "Zed", RuleError),
    ("eliminated player", rich_planning, {"type": "drain", "player": "Di", "card": "x"}, "§11",
     "Di", TurnError),
    ("wrong phase", planning, {"type": "feed"}, "§3", None, PhaseError),
    ("wrong step", withdraw_step, {"type": "next_step"}, "§8", None, PhaseError),
    ("first player twice", first_chosen, {"type": "set_first_player", "player": "Bo"}, "§2",
     None, PhaseError),
    ("clans before first player", unset, {"type": "offer_clans"}, "§2", None, PhaseError),
    ("pick before first player", unset, {"type": "pick_clan", "player": "Ann",
                                         "clan": "Brujah"}, "§2", None, PhaseError),
    ("clans drawn twice", clans_offered, {"type": "offer_clans"}, "§2", None, PhaseError),
    ("wrong clan count", first_chosen, {"type": "offer_clans", "clans": ["Brujah"]}, "§2",
     None, RuleError),
    ("clan pick out of turn", first_chosen, {"type": "pick_clan", "player": "Bo",
                                             "clan": "Brujah"}, "§2", "Bo", TurnError),
    ("clan not drawn", clans_offered, {"type": "pick_clan", "player": "Ann",
                                       "clan": "Ventrue"}, "§2", "Ann", RuleError),
    ("every clan chosen", relic_setup, {"type": "pick_clan", "player": "Ann",
                                        "clan": "Ventrue"}, "§2", "Ann", PhaseError),
    ("relics not in play", lambda: new_game(4, variants={"location_cards": True}),
     {"type": "offer_relics", "relics": []}, "§13", None, PhaseError),
    ("relics before clans", lambda: new_game(3, variants={"relics": True}, setup=False),
     {"type": "offer_relics", "relics": []}, "§13", None, PhaseError),
    ("relics drawn twice", relics_offered, {"type": "offer_relics", "relics": [
        {"name": "R", "influence": 1}] * 4}, "§13", None, PhaseError),
    ("wrong relic count", relic_setup, {"type": "offer_relics", "relics": [
        {"name": "R", "influence": 1}] * 3}, "§13", None, RuleError),
    ("pick relic before drawn", relic_setup, {"type": "pick_relic", "player": "Cy",
                                              "index": 0}, "§13", "Cy", PhaseError),
    ("relic out of order", relics_offered, {"type": "pick_relic", "player": "Ann",
                                            "index": 0}, "§13", "Ann", TurnError),
    ("relic not available", relics_offered, {"type": "pick_relic", "player": "Cy",
                                             "index": 4}, "§13", "Cy", RuleError),
    ("every relic drafted", relics_drafted, {"type": "pick_relic", "player": "Cy",
                                             "index": 3}, "§13", "Cy", PhaseError),
    ("location cards not in play", lambda: new_game(3, variants={"relics": True}),
     {"type": "place_location_cards", "cards": {}}, "§13", None, PhaseError),
    ("location cards missing", relic_setup, {"type": "place_location_cards",
                                             "cards": {"1": {"name": "L"}}}, "§13", None,
     RuleError),
    ("allies missing", lambda: position_game(4, phase="location_setup"),
     {"type": "place_allies", "allies": {"1": ally()}}, "§5", None, RuleError),
    ("not your turn", planning, {"type": "play_card", "player": "Bo", "location": "1",
                                 "card": card(1)}, "§7", "Bo", TurnError),
    ("drain unknown card", planning, {"type": "drain", "player": "Ann", "card": "zz"}, "§9",
     "Ann", RuleError),
    ("drain drained card", rich_planning, {"type": "drain", "player": "Ann", "card": "pa1"},
     "§9", "Ann", RuleError),
    ("location not in play", planning, {"type": "play_card", "player": "Ann", "location": "3",
                                        "card": card(1)}, "§2", "Ann", RuleError),
    ("face up without identity", planning, {"type": "play_card", "player": "Ann",
                                            "location": "1"}, "§7", "Ann", RuleError),
    ("face down with identity", planning, {"type": "play_card", "player": "Ann",
                                           "location": "1", "face_up": False, "card": card(1)},
     "§7", "Ann", RuleError),
    ("more than 3 Blood", planning, {"type": "play_card", "player": "Ann", "location": "1",
                                     "card": card(1), "blood": 4}, "§7", "Ann", RuleError),
    ("too many Diablerie flips", rich_planning, {"type": "play_card", "player": "Ann",
                                                 "location": "1", "card": card(1),
                                                 "diablerie": 2}, "§7", "Ann", RuleError),
    ("last Blood", rich_planning, {"type": "play_card", "player": "Ann", "location": "1",
                                   "face_up": False, "blood": 1}, "§7 Ruling (last Blood)",
     "Ann", RuleError),
    ("pass with cards", planning, {"type": "pass_turn", "player": "Ann"}, "§7", "Ann",
     RuleError),
    ("withdraw not present", withdraw_step, {"type": "choose_withdraw", "withdraw": ["Cy"]},
     "§8.1", "Cy", RuleError),
    ("withdraw listed twice", withdraw_step, {"type": "choose_withdraw",
                                              "withdraw": ["Bo", "Bo"]}, "§8.1", None,
     RuleError),
    ("withdraw without identity", withdraw_step, {"type": "choose_withdraw",
                                                  "withdraw": ["Ann"]}, "§8.1", None,
     RuleError),
    ("reveal wrong cards", revelation_step, {"type": "reveal", "cards": {}}, "§8.2", None,
     RuleError),
    ("effect amount 0", planning, eff("gain_blood", amount=0), "§14", "Ann", RuleError),
    ("spend last Blood", rich_planning, eff("spend_blood", amount=2), "§14 Spend", "Ann",
     RuleError),
    ("steal without thief", planning, eff("steal_blood"), "§14 Steal", "Ann", RuleError),
    ("effect in setup", unset, eff("gain_blood"), "§3", None, PhaseError),
    ("withdraw effect not present", preparation_step, eff("withdraw", player="Cy", amount=0),
     "§8.1", "Cy", RuleError),
    ("withdraw effect wrong step", planning, eff("withdraw", amount=0), "§3", None,
     PhaseError),
    ("restore an active card", rich_planning, eff("restore_card", amount=0, card="pa2"), "§",
     "Ann", RuleError),
    ("power unknown card", preparation_step, eff("power", card="zz"), "§8.4", "Ann",
     RuleError),
    ("power 0", preparation_step, eff("power", amount=0, card="pc1"), "§8.4", "Ann",
     RuleError),
    ("power outside resolution", planning, eff("power", card="zz"), "§3", None, PhaseError),
    ("no Relic", planning, {"type": "use_relic", "player": "Bo"}, "§13", "Bo", RuleError),
    ("draws not needed", planning, {**eff("lose_blood", player="Bo"), "draws": ["v1"]}, "§10",
     None, RuleError),
    ("draw not an active card", lambda: position_game([seat("Ann", blood=1), seat("Bo"),
                                                       seat("Cy")]),
     {**eff("lose_blood", by="Bo"), "draws": ["zz"]}, "§10", "Ann", RuleError),
    ("draw missing", lambda: position_game([seat("Ann", blood=1), seat("Bo"), seat("Cy")]),
     {**eff("lose_blood", by="Bo"), "draws": []}, "§10", "Ann", RuleError),
]


@pytest.mark.parametrize(("build", "command", "rule", "player", "error"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_s2_to_s14_refused_command_changes_nothing(build: Builder, command: dict[str, Any],
                                                   rule: str, player: str | None,
                                                   error: type[RuleError]) -> None:
    """§2–§14: a refused command raises a narrow RuleError naming the rule and the player;
    state, log and redo stack are unchanged."""
    game = build()
    err = refused(game, command, rule, player)
    assert isinstance(err, error), type(err)
    assert err.action == command["type"]
    if player is not None:
        assert err.player == player or player in err.reason


def test_s7_refused_play_keeps_the_redo_stack() -> None:
    """§7: a refused command does not clear the redo stack (nothing happened)."""
    game = planning()
    game.play({"type": "play_card", "player": "Ann", "location": "1", "card": card(1)})
    game.undo()
    refused(game, {"type": "play_card", "player": "Bo", "location": "1", "card": card(1)},
            "§7", "Bo")
    assert game.can_redo()
    game.redo()
    assert p(game, "Ann").hand_size == 2


def test_s7_malformed_command_changes_nothing() -> None:
    """§7: a malformed command (negative Blood) is rejected by validation; nothing changes."""
    game = planning()
    before = snapshot(game)
    with pytest.raises(pydantic.ValidationError):
        game.play({"type": "play_card", "player": "Ann", "location": "1", "card": card(1),
                   "blood": -1})
    assert snapshot(game) == before
