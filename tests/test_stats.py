"""Statistics across games from history summaries, with known answers."""

from datetime import date, datetime

import pytest

from companion.library.games import summary
from companion.library.stats import compute
from tests.helpers import deployed, position_game, resolve_here, where


def game(winner: str, rows: list[tuple], *, created: str = "2024-03-01T20:00:00+00:00",
         havens: list[str | None] | None = None, variants: dict | None = None,
         finished: bool = True) -> dict:
    """A summary; rows are (name, clan, influence[, frenzies, diablerie, team])."""
    standings = []
    for rank, row in enumerate(rows, 1):
        name, clan, influence, frenzies, diablerie, team = (*row, *(0, 0, None)[len(row) - 3:])
        standings.append({"name": name, "clan": clan, "team": team, "influence": influence,
                          "blood": 5, "rank": rank, "eliminated": False, "frenzies": frenzies,
                          "diablerie": diablerie})
    return {"game_id": f"g{id(standings)}", "created": created, "updated": created,
            "players": [r[0] for r in rows], "clans": [r[1] for r in rows],
            "variants": {"relics": False, "location_cards": False, "tag_team": False,
                         **(variants or {})},
            "finished": finished, "winner": winner if finished else None,
            "player_count": len(rows), "standings": standings,
            "scores": {r[0]: r[2] for r in rows}, "haven_winners": havens or []}


THREE = [
    game("Ann", [("Ann", "Brujah", 20, 1, 0), ("Bo", "Ventrue", 15, 0, 1),
                 ("Cy", "Tremere", 10, 2, 0)],
         havens=["Bo", "Ann", "Ann"], created="2024-01-05T20:00:00+00:00"),
    game("Bo", [("Ann", "Ventrue", 12, 0, 0), ("Bo", "Brujah", 18, 1, 2),
                ("Cy", "Tremere", 9, 0, 0)],
         havens=["Bo", None, "Cy"], created="2024-02-05T20:00:00+00:00"),
    game("Bo", [("Ann", "Tremere", 11, 0, 0), ("Bo", "Brujah", 16, 0, 0),
                ("Cy", "Gangrel", 14, 0, 0), ("Di", "Ventrue", 8, 1, 0)],
         havens=["Ann", "Bo", "Bo"], created="2024-03-05T20:00:00+00:00",
         variants={"relics": True}),
    game(None, [("Ann", "Brujah", 3)], finished=False),
]


def test_clan_win_rate_and_average_influence():
    stats = compute(THREE)
    assert stats.games == 3
    brujah = next(c for c in stats.clans if c.clan == "Brujah")
    assert (brujah.games, brujah.wins) == (3, 3)
    assert brujah.win_rate == 1.0 and brujah.average_influence == pytest.approx(54 / 3)
    ventrue = next(c for c in stats.clans if c.clan == "Ventrue")
    assert (ventrue.games, ventrue.wins, ventrue.average_influence) == (3, 0, 35 / 3)
    assert stats.clans[0].clan == "Brujah"


def test_brujah_wins_two_of_three():
    games = [game("Ann", [("Ann", "Brujah", 9), ("Bo", "Gangrel", 5), ("Cy", "Tremere", 4)]),
             game("Ann", [("Ann", "Brujah", 7), ("Bo", "Gangrel", 6), ("Cy", "Tremere", 2)]),
             game("Cy", [("Ann", "Brujah", 5), ("Bo", "Gangrel", 6), ("Cy", "Tremere", 8)])]
    brujah = next(c for c in compute(games).clans if c.clan == "Brujah")
    assert (brujah.wins, brujah.games) == (2, 3)
    assert brujah.win_rate == pytest.approx(2 / 3)
    assert brujah.average_influence == 7


def test_players_wins_average_best_and_nemesis():
    players = {p.name: p for p in compute(THREE).players}
    ann, bo, cy = players["Ann"], players["Bo"], players["Cy"]
    assert (ann.games, ann.wins, ann.best_influence) == (3, 1, 20)
    assert ann.average_influence == pytest.approx(43 / 3)
    assert (ann.nemesis, ann.nemesis_wins) == ("Bo", 2)
    assert (bo.games, bo.wins, bo.nemesis, bo.nemesis_wins) == (3, 2, "Ann", 1)
    assert (cy.wins, cy.nemesis, cy.nemesis_wins) == (0, "Bo", 2)
    assert players["Di"].games == 1 and players["Di"].nemesis == "Bo"
    assert [p.name for p in compute(THREE).players] == ["Bo", "Ann", "Cy", "Di"]


def test_frenzies_and_diablerie_per_game():
    stats = compute(THREE)
    assert stats.frenzies_per_game == pytest.approx((3 + 1 + 1) / 3)
    assert stats.diablerie_per_game == pytest.approx((1 + 2 + 0) / 3)


def test_haven_winner_rate_per_round():
    haven = compute(THREE).haven
    assert [(h.round, h.games, h.wins) for h in haven] == [(1, 3, 1), (2, 2, 2), (3, 3, 2)]
    assert haven[2].rate == pytest.approx(2 / 3)


def test_haven_winners_of_a_position_game_line_up_with_the_last_rounds():
    """A game entered in round 3 has one Haven winner: it is round 3's."""
    g = game("Ann", [("Ann", "Brujah", 9), ("Bo", "Gangrel", 5), ("Cy", "Tremere", 4)],
             havens=["Ann"])
    assert [(h.games, h.wins) for h in compute([g]).haven] == [(0, 0), (0, 0), (1, 1)]


def test_filters_dates_player_count_variants():
    assert compute(THREE, since=date(2024, 2, 5)).games == 2
    assert compute(THREE, until=date(2024, 2, 5)).games == 2
    assert compute(THREE, since=datetime(2024, 2, 5, 21, 0), until=date(2024, 3, 31)).games == 1
    assert compute(THREE, player_count=4).games == 1
    assert compute(THREE, player_count=[3, 5]).games == 2
    assert compute(THREE, variants={"relics": True}).games == 1
    assert compute(THREE, variants={"relics": False, "tag_team": False}).games == 2
    empty = compute(THREE, player_count=6)
    assert empty.games == 0 and empty.players == [] and empty.frenzies_per_game == 0


def test_tag_team_wins_count_for_both_partners():
    g = game("Red", [("Ann", "Brujah", 10, 0, 0, "Red"), ("Bo", "Gangrel", 12, 0, 0, "Blue"),
                     ("Cy", "Tremere", 9, 0, 0, "Red"), ("Di", "Ventrue", 8, 0, 0, "Blue")],
             havens=["Bo", "Cy", "Cy"], variants={"tag_team": True})
    stats = compute([g])
    players = {p.name: p for p in stats.players}
    assert [players[n].wins for n in ("Ann", "Bo", "Cy", "Di")] == [1, 0, 1, 0]
    assert (players["Bo"].nemesis, players["Bo"].nemesis_wins) == ("Ann", 1)
    assert {c.clan for c in stats.clans if c.wins} == {"Brujah", "Tremere"}
    assert [(h.games, h.wins) for h in stats.haven] == [(1, 0), (1, 1), (1, 1)]


def test_names_match_ignoring_case_and_older_summaries_count():
    old = {"finished": True, "winner": "ann", "players": ["ann", "Bo", "Cy"],
           "clans": ["Brujah", "Gangrel", "Tremere"], "scores": {"ann": 9, "Bo": 3, "Cy": 2},
           "created": "2023-01-01T00:00:00+00:00"}
    stats = compute([old, THREE[0]])
    ann = next(p for p in stats.players if p.name.casefold() == "ann")
    assert (ann.games, ann.wins, ann.best_influence) == (2, 2, 20)


def test_real_summary_of_a_finished_game():
    g = position_game(4, phase="resolution", round=3, locations=[
        where("1", deployed("Ann", {"power": 5, "kind": "conflict"}, blood=1))])
    while g.state.phase != "game_over":
        resolve_here(g)
    stats = compute([summary(g)])
    assert stats.games == 1
    assert next(p for p in stats.players if p.name == "Ann").wins == 1
    assert [h.games for h in stats.haven] == [0, 0, 0]  # nobody won the Prince's Haven


def test_ten_thousand_summaries_in_one_pass():
    """(Its speed is measured by bench/run_all.py, not here.)"""
    many = [THREE[i % 3] for i in range(10_000)]
    stats = compute(many, since=date(2020, 1, 1))
    assert stats.games == 10_000
