"""Rules tests: End of Game and score (§12), incl. tag team and Relics (§13)."""

from __future__ import annotations

from typing import Any

from companion.rules.game import Game
from models.state import Scoreboard
from tests.helpers import (
    NAMES,
    ally,
    card,
    deployed,
    member,
    of_type,
    position_game,
    refused,
    resolve_here,
    seat,
    victim,
    where,
)


def end_game(players: list[dict[str, Any]], ambition: str = "Ann",
             **extra: Any) -> tuple[Game, Scoreboard]:
    """Load round 3 at the (empty) Prince's Haven and finish the game."""
    game = position_game(players, phase="resolution", round=3, ambition=ambition,
                         resolution_location="haven", locations=[where("haven")], **extra)
    events = game.play({"type": "choose_withdraw", "withdraw": []}).events
    assert of_type(events, "game_ended")
    assert game.state.phase == "game_over"
    board = game.state.scoreboard
    assert board is not None
    return game, board


def rows(board: Scoreboard) -> list[tuple[str, int]]:
    """(name, total Influence) best first."""
    return [(r.name, r.influence.total) for r in board.rows]


def test_s12_influence_is_cards_plus_tokens_minus_diablerie() -> None:
    """§12: Influence = active cards + drained cards' drained Influence + tokens − 1 per
    Diablerie token (face up or down)."""
    alliance = [member(ally("Retainer", influence=2, drained_influence=1)), member(victim()),
                member(ally("Thrall", influence=4, drained_influence=1), drained=True),
                member(victim(), drained=True)]
    players = [seat("Ann", influence=5, alliance=alliance, diablerie_up=1, diablerie_down=1),
               seat("Bo", influence=0, alliance=[]), seat("Cy", influence=2)]
    _, board = end_game(players)
    ann = next(r for r in board.rows if r.name == "Ann")
    b = ann.influence
    assert (b.active_cards, b.drained_cards, b.tokens, b.relic, b.diablerie, b.total) == (
        3, 1, 5, 0, -2, 7)
    assert rows(board) == [("Ann", 7), ("Cy", 3), ("Bo", 0)]
    assert board.winner == "Ann"
    assert [r.rank for r in board.rows] == [1, 2, 3]


def test_s12_tie_broken_by_blood_then_turn_order() -> None:
    """§12: tie on Influence → most Blood; still tied → first in turn order (Ambition holder)."""
    players = [seat("Ann", influence=4, blood=3), seat("Bo", influence=4, blood=5),
               seat("Cy", influence=4, blood=3), seat("Di", influence=1, blood=9)]
    _, board = end_game(players, ambition="Cy")
    assert [r.name for r in board.rows] == ["Bo", "Cy", "Ann", "Di"]
    assert board.rows[0].tiebreak is not None and "Blood" in board.rows[0].tiebreak
    cy = board.rows[1]
    assert cy.turn_position == 1 and cy.tiebreak is not None
    assert "turn order" in (board.rows[2].tiebreak or "")
    assert board.winner == "Bo"


def test_s12_game_ends_immediately_after_round_three() -> None:
    """§12: after round 3's Resolution the game ends; no further command is accepted."""
    players = [seat("Ann"), seat("Bo"), seat("Cy")]
    game = position_game(players, phase="resolution", round=3, resolution_location="haven",
                         locations=[where("haven", deployed("Bo", card(3), blood=1))])
    events = resolve_here(game)
    assert [e.type for e in events][-1] == "game_ended"
    assert game.scoreboard is not None
    assert game.scoreboard.winner == "Bo"
    # tokens 3 + 3 (1st, round 3) + 1 (Haven); Victim 1; the Ally won 2
    assert rows(game.scoreboard)[0] == ("Bo", 3 + 3 + 1 + 1 + 2)
    assert game.state.players[1].blood == 6, "Deployed Blood does not go back to the Pool"
    refused(game, {"type": "next_step"}, "§12")
    assert game.legal().commands == []


def test_s12_s11_ruling_eliminated_player_ranked_below_everyone() -> None:
    """§11/§12 Ruling: an eliminated player is listed below every player still in."""
    players = [seat("Ann", influence=20, eliminated=True, diablerie_up=3), seat("Bo",
               influence=0), seat("Cy", influence=1)]
    _, board = end_game(players, ambition="Bo")
    assert [r.name for r in board.rows] == ["Cy", "Bo", "Ann"]
    assert board.rows[-1].eliminated and board.rows[-1].influence.total == 20 + 1 - 3
    assert board.winner == "Cy"


def test_s12_s13_tag_team_scores_team_totals() -> None:
    """§12/§13: tag team: teams rank by total Influence (the best single player may lose)."""
    players = [seat("Ann", team="A", influence=9), seat("Bo", team="B", influence=4),
               seat("Cy", team="A", influence=0, alliance=[]),
               seat("Di", team="B", influence=5)]
    _, board = end_game(players, variants={"tag_team": True})
    assert board.teams is not None
    assert [(t.team, t.influence) for t in board.teams] == [("B", 11), ("A", 10)]
    assert board.teams[0].players == [1, 3]
    assert board.winning_team == "B" and board.winner == "Ann"
    assert board.rows[0].name == "Ann", "conflict and score ranks stay individual"


def test_s12_s13_tag_team_tie_broken_by_team_blood() -> None:
    """§12: tag team tie on Influence → most team Blood."""
    players = [seat("Ann", team="A", influence=4, blood=9), seat("Bo", team="B", influence=4,
               blood=5), seat("Cy", team="A", influence=4, blood=1),
               seat("Di", team="B", influence=4, blood=6)]
    _, board = end_game(players, variants={"tag_team": True})
    assert board.teams is not None
    assert [(t.team, t.blood) for t in board.teams] == [("B", 11), ("A", 10)]
    assert board.winning_team == "B"


def test_s12_s13_relic_influence_counts_used_or_not() -> None:
    """§12/§13: a Relic is worth its printed Influence at game end, used or not."""
    relic = {"name": "Relic", "influence": 2}
    players = [seat("Ann", relic=relic, relic_used=True), seat("Bo", relic=relic),
               seat("Cy", relic={"name": "Other", "influence": 0})]
    _, board = end_game(players, variants={"relics": True})
    totals = {r.name: (r.influence.relic, r.influence.total) for r in board.rows}
    assert totals == {"Ann": (2, 6), "Bo": (2, 6), "Cy": (0, 4)}


def test_s13_relic_used_once_per_game() -> None:
    """§13: a Relic is used once (flipped); a second use is refused; no Relic, no use."""
    relic = {"name": "Old Relic", "influence": 1}
    game = position_game([seat(n, relic=relic) for n in NAMES[:3]], variants={"relics": True})
    events = game.play({"type": "use_relic", "player": "Ann"}).events
    assert [e.type for e in events] == ["relic_used"]
    assert [pl.relic_used for pl in game.state.players] == [True, False, False]
    refused(game, {"type": "use_relic", "player": "Ann"}, "§13", "Ann", "Old Relic")
    game.play({"type": "use_relic", "player": "Cy"})
    assert [pl.relic_used for pl in game.state.players] == [True, False, True]
    refused(position_game(3), {"type": "use_relic", "player": "Bo"}, "§13", "Bo")


def test_s12_s13_tag_team_tie_on_influence_and_blood_goes_to_turn_order() -> None:
    """§12: tag team tie on Influence and Blood → the team first in turn order (Ambition)."""
    players = [seat("Ann", team="A", influence=4, blood=3), seat("Bo", team="B", influence=4,
               blood=3), seat("Cy", team="A", influence=4, blood=3),
               seat("Di", team="B", influence=4, blood=3)]
    _, board = end_game(players, ambition="Bo", variants={"tag_team": True})
    assert board.teams is not None
    assert [t.team for t in board.teams] == ["B", "A"]
    assert board.teams[0].tiebreak is not None and "turn order" in board.teams[0].tiebreak


# --- plain tie notes, the win-all-ties Ally in the team table, winning_team ---------

def test_s12_tie_notes_say_who_won_the_tie_and_why() -> None:
    """§12: Ann and Bo tie on 6 Influence, Ann has more Blood; Cy and Di tie on 4 Influence and
    3 Blood, Cy is earlier in turn order. Each note names the winner of the tie and why."""
    players = [seat("Ann", influence=5, blood=4), seat("Bo", influence=5, blood=2),
               seat("Cy", influence=3, blood=3), seat("Di", influence=3, blood=3)]
    _, board = end_game(players)
    notes = {r.name: r.tiebreak for r in board.rows}
    assert notes == {
        "Ann": "won the tie with Bo on 6 Influence: Ann has more Blood (4 to 2)",
        "Bo": "lost the tie with Ann on 6 Influence: Ann has more Blood (4 to 2)",
        "Cy": "won the tie with Di on 4 Influence and 3 Blood: Cy is earlier in turn order",
        "Di": "lost the tie with Cy on 4 Influence and 3 Blood: Cy is earlier in turn order"}


def test_s12_s15_win_all_ties_ally_breaks_a_team_tie() -> None:
    """§12/§13/§15: teams A and B tie on 10 Influence; team A has more Blood, but Bo (team B)
    holds the Ally that wins all ties, so team B wins. The best individual is the `winner`,
    the team is the `winning_team`."""
    lucky = {**ally("Lucky", influence=1, drained_influence=0), "ability": "win_ties"}
    players = [seat("Ann", team="A", influence=6, blood=5),
               seat("Bo", team="B", influence=3, blood=2,
                    alliance=[member(victim()), member(lucky)]),
               seat("Cy", team="A", influence=2, blood=5),
               seat("Di", team="B", influence=4, blood=2)]
    _, board = end_game(players, variants={"tag_team": True})
    assert board.teams is not None
    assert [(t.team, t.influence, t.blood) for t in board.teams] == [("B", 10, 4),
                                                                     ("A", 10, 10)]
    assert board.teams[0].tiebreak == ("won the tie with team A on 10 Influence: Bo holds "
                                       "the Ally that wins all ties")
    assert board.winning_team == "B"
    assert board.winner == "Ann" == board.rows[0].name


def test_s12_individual_game_has_no_winning_team() -> None:
    """§12: without tag team, `winning_team` is empty and `winner` is the best player."""
    _, board = end_game([seat("Ann", influence=5), seat("Bo"), seat("Cy")])
    assert (board.winner, board.winning_team) == ("Ann", None)
