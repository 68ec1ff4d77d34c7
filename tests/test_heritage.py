"""Heritage score pad and chronicle ledger (docs/heritage.md): worked cases with the numbers of
seed 003, and one test per Ruling."""

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from companion.heritage.battlegrounds import (
    MissionVampire,
    clans_high_and_low,
    first_player_after_round,
    inquisition,
    mission_claimant,
    sabbat_wars,
    sabbat_wars_allegiances,
    war_of_the_princes,
)
from companion.heritage.errors import HeritageError, heritage_error_in
from companion.heritage.ledger import (
    aftermath_checklist,
    chapter_from_game,
    era_chapters,
    era_of,
    era_standing,
    free_dots,
    havens,
    is_era_end,
    load_ledger,
    next_chapter_order,
    obligations,
    titles,
)
from companion.heritage.models import (
    BEAST_WITHIN,
    CLANS,
    FIRST_CHAPTER_BATTLEGROUNDS,
    MORALITY_START,
    ChapterRecord,
    ChronicleLedger,
    HeritageGame,
    HeritageSetup,
    PrimogenDraw,
    Vampire,
)
from companion.heritage.pad import (
    load_game,
    next_round,
    result_text,
    rounds_for_players,
    score,
    score_file,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "heritage-game.json"
GROUNDS = list(FIRST_CHAPTER_BATTLEGROUNDS)
CLANS_OF = {"Ana": "Brujah", "Ben": "Ventrue", "Cleo": "Tremere", "Dee": "Gangrel"}


def refusal(exc: BaseException) -> HeritageError:
    """The HeritageError behind a refusal (itself, or wrapped by pydantic)."""
    found = heritage_error_in(exc)  # type: ignore[arg-type]
    assert found is not None, exc
    return found


def entry(player: str, grounds: tuple[int, int, int] = (0, 0, 0), *,
          bloodline: list[dict[str, Any]] | None = None, missions: list[str] | None = None,
          mission_power: int = 0) -> dict[str, Any]:
    """One player's pad entry over the first chapter's three battlegrounds."""
    return {
        "player": player, "battleground_vp": dict(zip(GROUNDS, grounds, strict=True)),
        "bloodline": bloodline or [], "missions_claimed": missions or [],
        "mission_power": mission_power,
    }


def game(entries: list[dict[str, Any]], *, missions: list[str] | None = None,
         chronicle: bool = False, draw: dict[str, Any] | None = None,
         rounds_played: int | None = None) -> HeritageGame:
    """A game of these entries' players (clans from CLANS_OF), missions M1–M3 by default."""
    players = [{"name": e["player"], "clan": CLANS_OF[e["player"]]} for e in entries]
    return HeritageGame.model_validate({
        "setup": {"players": players, "chronicle": chronicle, "battlegrounds": GROUNDS,
                  "missions": missions if missions is not None else ["M1", "M2", "M3"]},
        "entries": entries, "primogen_draw": draw, "rounds_played": rounds_played,
    })


def leader(power: int = 0, boons: int = 0, infamy: int = 0) -> dict[str, Any]:
    """A clan leader's line."""
    return {"name": "leader", "power": power, "boons": boons, "infamy": infamy,
            "clan_leader": True}


# ------------------------------------------------------------------ §H2, §H3 players and rounds


@pytest.mark.parametrize(("players", "rounds"), [(2, 10), (3, 9), (4, 8)])
def test_rounds_by_player_count(players: int, rounds: int) -> None:
    assert rounds_for_players(players) == rounds


def test_a_four_player_game_lasts_eight_rounds() -> None:
    assert rounds_for_players(4) == 8
    assert next_round(4, 7) == 8
    with pytest.raises(HeritageError) as err:
        next_round(4, 8)
    assert err.value.key == "game_over" and "round 8" in str(err.value)


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused_naming_the_rule(players: int) -> None:
    with pytest.raises(HeritageError) as err:
        rounds_for_players(players)
    assert err.value.key == "players_count"
    assert err.value.params == {"count": players}
    assert str(err.value).startswith("§H2: Heritage is played by 2 to 4 players")


def test_a_five_player_setup_is_refused() -> None:
    players = [{"name": n, "clan": c} for n, c in zip("ABCDE", CLANS, strict=False)]
    with pytest.raises(ValidationError) as err:
        HeritageSetup.model_validate({"players": players, "battlegrounds": GROUNDS})
    assert refusal(err.value).key == "players_count"
    assert "5 were entered" in str(err.value)


def test_the_nine_clans() -> None:
    assert len(CLANS) == 9 and {"Lasombra", "Tzimisce"} <= set(CLANS)


def test_ruling_clans_differ() -> None:
    players = [{"name": "Ana", "clan": "Brujah"}, {"name": "Ben", "clan": "Brujah"}]
    with pytest.raises(ValidationError) as err:
        HeritageSetup.model_validate({"players": players, "battlegrounds": GROUNDS})
    assert refusal(err.value).key == "clans_unique"


def test_ruling_battleground_names() -> None:
    setup = HeritageSetup.model_validate({
        "players": [{"name": "Ana", "clan": "Brujah"}, {"name": "Ben", "clan": "Ventrue"}],
        "battlegrounds": ["clans high and low", "INQUISITION", "  The   Burning  Cities "],
    })
    assert setup.battlegrounds == ["Of Clans High and Low", "The Inquisition",
                                   "The Burning Cities"]
    assert setup.rounds == 10
    with pytest.raises(ValidationError) as err:
        HeritageSetup.model_validate({
            "players": [{"name": "Ana", "clan": "Brujah"}, {"name": "Ben", "clan": "Ventrue"}],
            "battlegrounds": ["Sabbat Wars", "sabbat wars", "The Inquisition"],
        })
    assert refusal(err.value).key == "battlegrounds_unique"


def test_ruling_missions_in_play() -> None:
    with pytest.raises(ValidationError) as err:
        game([entry("Ana"), entry("Ben")], missions=["M1", "M2"], chronicle=True)
    assert refusal(err.value).key == "missions_count"
    with pytest.raises(ValidationError) as err:
        game([entry("Ana"), entry("Ben")], missions=[f"M{i}" for i in range(6)])
    assert refusal(err.value).key == "missions_count"
    assert game([entry("Ana"), entry("Ben")], missions=[]).setup.missions == []


# ------------------------------------------------------------------ §H4 victory points


def test_a_vampire_in_torpor_adds_nothing() -> None:
    sleeper = {"name": "sleeper", "power": 2, "boons": 1, "infamy": 1, "torpor": True}
    assert Vampire.model_validate(sleeper).vp == 0
    without = score(game([entry("Ana", bloodline=[leader(3)]), entry("Ben")]))
    with_it = score(game([entry("Ana", bloodline=[leader(3), sleeper]), entry("Ben")]))
    ana = with_it.scores[0]
    assert ana.total == without.scores[0].total == 3
    assert (ana.power, ana.boons, ana.infamy, ana.in_torpor) == (3, 0, 0, 1)


def test_power_and_boons_add_and_infamy_subtracts() -> None:
    result = score(game([entry("Ana", (1, 1, 1), bloodline=[leader(3, 2), {"power": 1,
                                                                        "infamy": 3}]),
                         entry("Ben")]))
    assert result.scores[0].total == 3 + 3 + 2 + 1 - 3  # 6


def test_negative_battleground_vp() -> None:
    result = score(game([entry("Ana", (4, 2, -3)), entry("Ben", (1, 1, 1))]))
    ana = next(s for s in result.scores if s.player == "Ana")
    assert ana.battleground_vp == {"Of Clans High and Low": 4, "The War of the Princes": 2,
                                   "The Beast Within": -3}
    assert ana.total == 3
    assert result.winner is None and result.needs_draw == ["Ana", "Ben"]


def test_a_clan_leader_is_never_in_torpor() -> None:
    with pytest.raises(ValidationError) as err:
        Vampire(power=1, clan_leader=True, torpor=True)
    assert refusal(err.value).key == "leader_torpor"


def test_every_battleground_in_play_needs_an_entry() -> None:
    bad = entry("Ana")
    del bad["battleground_vp"]["The Beast Within"]
    with pytest.raises(ValidationError) as err:
        game([bad, entry("Ben")])
    found = refusal(err.value)
    assert found.key == "battleground_vp" and found.params["missing"] == ["The Beast Within"]


def test_ruling_mission_power_counts_in_a_basic_game_only() -> None:
    basic = score(game([entry("Ana", missions=["M1"], mission_power=2), entry("Ben")]))
    assert basic.scores[0].total == 2 and basic.winner == "Ana"
    with pytest.raises(ValidationError) as err:
        game([entry("Ana", missions=["M1"], mission_power=2), entry("Ben")],
             missions=["M1", "M2", "M3", "M4", "M5"], chronicle=True)
    assert refusal(err.value).key == "mission_power_chronicle"


def test_a_mission_is_claimed_once() -> None:
    with pytest.raises(ValidationError) as err:
        game([entry("Ana", missions=["M1"]), entry("Ben", missions=["M1"])])
    assert refusal(err.value).key == "mission_claimed_twice"
    with pytest.raises(ValidationError) as err:
        game([entry("Ana", missions=["M9"]), entry("Ben")])
    assert refusal(err.value).key == "mission_unknown"


# ------------------------------------------------------------------ §H5, §H6 winner and ties


def three_way(ana_missions: list[str], ben_missions: list[str],
              draw: dict[str, Any] | None = None) -> HeritageGame:
    """Ana and Ben on 12 VP, Cleo on 7."""
    return game([
        entry("Ana", (3, 4, 1), bloodline=[leader(3, 1)], missions=ana_missions),
        entry("Ben", (5, 2, 0), bloodline=[leader(2, 2), {"power": 2, "infamy": 1}],
              missions=ben_missions),
        entry("Cleo", (2, 2, 0), bloodline=[leader(3), {"power": 1, "infamy": 1,
                                                        "torpor": True}]),
    ], draw=draw)


def test_a_vp_tie_goes_to_fewer_claimed_missions() -> None:
    result = score(three_way(["M1", "M2"], ["M3"]))
    assert [(s.player, s.total, s.missions_claimed, s.rank) for s in result.scores] == [
        ("Ben", 12, 1, 1), ("Ana", 12, 2, 2), ("Cleo", 7, 0, 3),
    ]
    assert result.finished and result.winner == "Ben"
    assert result.decided_by == "fewer_missions" and result.vanquished == "Cleo"
    assert "fewer missions" in result.summary


def test_equal_missions_need_the_primogen_draw() -> None:
    pending = score(three_way(["M1"], ["M2"]))
    assert not pending.finished and pending.winner is None
    assert pending.needs_draw == ["Ana", "Ben"]
    assert [s.rank for s in pending.scores] == [1, 1, 3]
    assert "primogen draw is needed" in pending.summary

    draw = {"declared": {"Ana": "warlike", "Ben": "wealthy"}, "drawn": "wealthy"}
    done = score(three_way(["M1"], ["M2"], draw))
    assert done.finished and done.winner == "Ben" and done.decided_by == "primogen_draw"
    assert [(s.player, s.rank) for s in done.scores] == [("Ben", 1), ("Ana", 2), ("Cleo", 3)]


def test_a_drawn_archetype_nobody_declared_is_refused() -> None:
    draw = {"declared": {"Ana": "warlike", "Ben": "wealthy"}, "drawn": "scholarly"}
    with pytest.raises(ValidationError) as err:
        three_way(["M1"], ["M2"], draw)
    found = refusal(err.value)
    assert found.key == "primogen_drawn_undeclared" and found.section == "§H6"


def test_declared_archetypes_must_differ() -> None:
    with pytest.raises(ValidationError) as err:
        PrimogenDraw(declared={"Ana": "warlike", "Ben": "warlike"}, drawn="warlike")
    assert refusal(err.value).key == "primogen_same_archetype"


def test_ruling_a_draw_for_other_players_or_not_needed_is_refused() -> None:
    wrong = {"declared": {"Ana": "warlike", "Cleo": "wealthy"}, "drawn": "wealthy"}
    with pytest.raises(HeritageError) as err:
        score(three_way(["M1"], ["M2"], wrong))
    assert err.value.key == "primogen_players"
    spare = {"declared": {"Ana": "warlike", "Ben": "wealthy"}, "drawn": "wealthy"}
    with pytest.raises(HeritageError) as err:
        score(three_way(["M1", "M2"], ["M3"], spare))
    assert err.value.key == "primogen_not_needed"


def test_ruling_shared_places_and_the_vanquished() -> None:
    result = score(game([entry("Ana", (5, 0, 0)), entry("Ben", (1, 0, 0)),
                         entry("Cleo", (1, 0, 0)), entry("Dee", (3, 0, 0))]))
    assert [(s.player, s.rank) for s in result.scores] == [
        ("Ana", 1), ("Dee", 2), ("Ben", 3), ("Cleo", 3),
    ]
    assert result.winner == "Ana" and result.decided_by == "victory_points"
    assert result.vanquished is None


def test_a_two_player_draw_settles_the_vanquished_too() -> None:
    draw = {"declared": {"Ana": "clandestine", "Ben": "scholarly"}, "drawn": "clandestine"}
    result = score(game([entry("Ana", (2, 0, 0)), entry("Ben", (2, 0, 0))], draw=draw))
    assert (result.winner, result.vanquished) == ("Ana", "Ben")


def test_ruling_scoring_before_the_last_round() -> None:
    result = score(game([entry("Ana", (5, 0, 0)), entry("Ben")], rounds_played=6))
    assert not result.finished and result.winner is None
    assert result.rounds == 10 and result.rounds_played == 6
    assert result.scores[0].player == "Ana" and "round 6 of 10" in result.summary
    with pytest.raises(ValidationError) as err:
        game([entry("Ana"), entry("Ben")], rounds_played=11)
    assert refusal(err.value).key == "rounds_played"


# ------------------------------------------------------------------ files


def test_the_example_file_scores() -> None:
    result = score_file(EXAMPLE)
    assert [(s.player, s.total, s.missions_claimed) for s in result.scores] == [
        ("Ben", 15, 1), ("Ana", 15, 2), ("Cleo", 8, 0),
    ]
    ana = result.scores[1]
    assert (ana.battlegrounds, ana.power, ana.boons, ana.infamy, ana.mission_power,
            ana.in_torpor) == (8, 4, 2, 1, 2, 1)
    assert result.winner == "Ben" and result.vanquished == "Cleo"
    text = result_text(result)
    assert text.splitlines()[0].startswith("1. Ben (Ventrue): 15 VP")
    assert text.splitlines()[-1] == result.summary
    assert json.loads(result.model_dump_json())["winner"] == "Ben"


def test_a_broken_file_is_refused_with_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"setup": ', encoding="utf-8")
    with pytest.raises(HeritageError) as err:
        load_game(bad)
    assert err.value.key == "format" and "line 1" in str(err.value)
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["entries"][0]["colour"] = "red"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HeritageError) as err:
        load_game(bad)
    assert err.value.key == "format" and "entries.0.colour" in str(err.value)


def test_a_newer_file_is_refused(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["version"] = 2
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HeritageError) as err:
        score_file(newer)
    assert err.value.key == "too_new"


def test_a_rule_refusal_in_a_file_keeps_its_key(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["setup"]["players"].append({"name": "Dee", "clan": "Gangrel"})
    data["setup"]["players"].append({"name": "Eve", "clan": "Lasombra"})
    five = tmp_path / "five.json"
    five.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HeritageError) as err:
        score_file(five)
    assert err.value.key == "players_count"


# ------------------------------------------------------------------ §H7 missions


def test_mission_claimant_ignores_torpor() -> None:
    claim = mission_claimant({
        "Ana": [MissionVampire(symbols=1, clan_leader=True), MissionVampire(symbols=2,
                                                                             torpor=True)],
        "Ben": [MissionVampire(symbols=2)],
    })
    assert claim.counts == {"Ana": 1, "Ben": 2}
    assert claim.claimant == "Ben" and claim.decided_by == "most"


def test_mission_tie_counts_the_clan_leader_twice() -> None:
    claim = mission_claimant({
        "Ana": [MissionVampire(symbols=1, clan_leader=True), MissionVampire(symbols=1)],
        "Ben": [MissionVampire(symbols=2)],
        "Cleo": [MissionVampire(symbols=3, clan_leader=True)],
    })
    assert claim.claimant == "Cleo" and claim.decided_by == "most"
    claim = mission_claimant({
        "Ana": [MissionVampire(symbols=1, clan_leader=True), MissionVampire(symbols=1)],
        "Ben": [MissionVampire(symbols=2), MissionVampire(symbols=3, torpor=True)],
        "Cleo": [MissionVampire(symbols=1)],
    })
    assert claim.tie_counts == {"Ana": 3, "Ben": 2}
    assert claim.claimant == "Ana" and claim.decided_by == "clan_leader_twice"


def test_mission_still_tied_needs_the_primogen() -> None:
    bloodlines = {
        "Ana": [MissionVampire(symbols=1, clan_leader=True), MissionVampire(symbols=1)],
        "Ben": [MissionVampire(symbols=1, clan_leader=True), MissionVampire(symbols=1)],
    }
    pending = mission_claimant(bloodlines)
    assert pending.claimant is None and pending.needs_draw == ["Ana", "Ben"]
    draw = PrimogenDraw(declared={"Ana": "scholarly", "Ben": "warlike"}, drawn="warlike")
    settled = mission_claimant(bloodlines, draw)
    assert settled.claimant == "Ben" and settled.decided_by == "primogen_draw"


def test_ruling_nobody_claims_a_mission_nobody_shows() -> None:
    claim = mission_claimant({"Ana": [MissionVampire(symbols=3, torpor=True)],
                              "Ben": [MissionVampire()]})
    assert claim.claimant is None and claim.decided_by == "nobody" and claim.needs_draw == []


# ------------------------------------------------------------------ §H8 battlegrounds


COUNTS = {"Ana": {"x": 2, "y": 1}, "Ben": {"x": 0, "y": 3}}


def test_inquisition_equal_is_nobody() -> None:
    even = inquisition({"x": 2, "y": 2}, COUNTS)
    assert even.winners == [] and even.vp == {"Ana": 0, "Ben": 0}


def test_ruling_inquisition_any_equal_count_is_nobody() -> None:
    assert inquisition({"x": 1, "y": 1}, COUNTS).winners == []


def test_inquisition_fewer_face_up_wins() -> None:
    outcome = inquisition({"x": 3, "y": 1}, COUNTS)
    assert outcome.winners == ["y"] and outcome.vp == {"Ana": 1, "Ben": 3}


def test_clans_high_and_low() -> None:
    assert clans_high_and_low("x", 2, COUNTS).vp == {"Ana": 4, "Ben": 0}
    assert clans_high_and_low(None, 1, COUNTS).vp == {"Ana": 0, "Ben": 0}
    with pytest.raises(HeritageError) as err:
        clans_high_and_low("x", 3, COUNTS)
    assert err.value.key == "vp_per_vampire"


def test_war_of_the_princes_central_counts_two_and_ties_share() -> None:
    alone = war_of_the_princes({"x": 2, "y": 3}, "x", COUNTS)
    assert alone.winners == ["x"] and alone.vp == {"Ana": 4, "Ben": 0}
    shared = war_of_the_princes({"x": 1, "y": 3}, "x", COUNTS, any_attribute={"Ben": 2})
    assert shared.winners == ["x", "y"]
    assert shared.vp == {"Ana": 2 * 3, "Ben": 2 * 3 + 2}


def test_ruling_war_of_the_princes_without_courts() -> None:
    assert war_of_the_princes({"x": 0, "y": 0}, None, COUNTS).winners == []


@pytest.mark.parametrize(("players", "deal"), [
    (2, ("Camarilla", "Sabbat")),
    (3, ("Camarilla", "Sabbat", "Anarch")),
    (4, ("Camarilla", "Camarilla", "Sabbat", "Sabbat")),
])
def test_sabbat_wars_allegiances(players: int, deal: tuple[str, ...]) -> None:
    assert sabbat_wars_allegiances(players) == deal


def test_sabbat_wars_nine_vp_for_the_winning_allegiance() -> None:
    four = {"Ana": "Camarilla", "Ben": "Sabbat", "Cleo": "Camarilla", "Dee": "Sabbat"}
    assert sabbat_wars(four, 3, 2).vp == {"Ana": 9, "Ben": 0, "Cleo": 9, "Dee": 0}
    three = {"Ana": "Camarilla", "Ben": "Sabbat", "Cleo": "Anarch"}
    anarchs = sabbat_wars(three, 2, 2)
    assert anarchs.winners == ["Anarch"] and anarchs.vp == {"Ana": 0, "Ben": 0, "Cleo": 9}


def test_ruling_sabbat_wars_anarchs_with_two_players_and_both_on_three() -> None:
    two = {"Ana": "Camarilla", "Ben": "Sabbat"}
    assert sabbat_wars(two, 1, 2).vp == {"Ana": 0, "Ben": 0}
    with pytest.raises(HeritageError) as err:
        sabbat_wars(two, 3, 3)
    assert err.value.key == "sabbat_wars_both"
    with pytest.raises(HeritageError) as err:
        sabbat_wars({"Ana": "Camarilla", "Ben": "Anarch"}, 3, 0)
    assert err.value.key == "allegiances"


# ------------------------------------------------------------------ §H9 first player


def test_first_player_from_the_morality_boards() -> None:
    assert MORALITY_START == {"The Beast Within": -3, "The Rise of Humanity": 8}
    beast = first_player_after_round(BEAST_WITHIN, {"Ana": -3, "Ben": -1, "Cleo": -2}, "Ana")
    assert beast.first_player == "Ben" and beast.moved
    rise = first_player_after_round("Rise of Humanity", {"Ana": 8, "Ben": 5, "Cleo": 6},
                                    "Ana")
    assert rise.first_player == "Ben"


def test_a_tie_for_the_marker_moves_nothing() -> None:
    tie = first_player_after_round(BEAST_WITHIN, {"Ana": 0, "Ben": 2, "Cleo": 2}, "Ana")
    assert tie.first_player == "Ana" and not tie.moved
    with pytest.raises(HeritageError) as err:
        first_player_after_round("The Inquisition", {"Ana": 0, "Ben": 1}, "Ana")
    assert err.value.key == "morality_battleground"


# ------------------------------------------------------------------ §H10–§H14 chronicle


def seat(player: str, vp: int, missions: int = 0, **more: Any) -> dict[str, Any]:
    """A ledger seat."""
    return {"player": player, "clan": CLANS_OF[player], "vp": vp,
            "missions_claimed": missions, **more}


def chapter(n: int, seats: list[dict[str, Any]], placings: list[str],
            **more: Any) -> dict[str, Any]:
    """A ledger chapter."""
    return {"chapter": n, "seats": seats, "placings": placings, **more}


def ledger(chapters: list[dict[str, Any]], eras: list[dict[str, Any]] | None = None,
           founders: list[str] | None = None) -> ChronicleLedger:
    """A ledger founded by Cleo (youngest), Ana and Ben (oldest)."""
    return ChronicleLedger.model_validate({
        "youngest_to_oldest": founders or ["Cleo", "Ana", "Ben"], "chapters": chapters,
        "eras": eras or [],
    })


THREE = [
    chapter(1, [seat("Ana", 14), seat("Ben", 10), seat("Cleo", 8)], ["Ana", "Ben", "Cleo"]),
    chapter(2, [seat("Ana", 15), seat("Ben", 12), seat("Cleo", 12, 1)], ["Ana", "Ben", "Cleo"]),
    chapter(3, [seat("Ana", 9), seat("Ben", 16), seat("Cleo", 11)], ["Ben", "Cleo", "Ana"]),
]


def test_chapters_and_eras() -> None:
    assert (era_of(1), era_of(3), era_of(4), era_of(21)) == (1, 1, 2, 7)
    assert [c for c in range(1, 22) if is_era_end(c)] == [3, 6, 9, 12, 15, 18, 21]
    assert era_chapters(7) == (19, 20, 21)
    with pytest.raises(HeritageError) as err:
        era_of(22)
    assert err.value.key == "chapter_range"


def test_obligations_never_go_below_zero() -> None:
    book = ledger(THREE)
    assert obligations(book, through=1) == {"Cleo": 0, "Ana": 1, "Ben": 0}
    assert obligations(book, through=2) == {"Cleo": 0, "Ana": 2, "Ben": 0}
    assert obligations(book) == {"Cleo": 0, "Ana": 1, "Ben": 1}


def test_ruling_an_absent_player_keeps_their_obligations() -> None:
    book = ledger(THREE + [chapter(4, [seat("Ben", 9), seat("Cleo", 10)], ["Cleo", "Ben"])])
    assert obligations(book) == {"Cleo": 1, "Ana": 1, "Ben": 0}


def test_first_chapter_order() -> None:
    order = next_chapter_order(ledger([]), ["Ana", "Ben", "Cleo"])
    assert order.chapter == 1 and order.first_player == "Ben"
    assert order.pick_order == ["Cleo", "Ana", "Ben"]


def test_next_chapters_first_player_is_the_previous_vanquished() -> None:
    order = next_chapter_order(ledger(THREE), ["Ana", "Ben", "Cleo"])
    assert order.chapter == 4 and order.first_player == "Ana"
    assert order.pick_order == ["Ana", "Cleo", "Ben"]  # the victor, Ben, picks last
    assert order.unplaced == []


def test_ruling_drop_ins_and_absent_vanquished() -> None:
    order = next_chapter_order(ledger(THREE), ["Ben", "Cleo", "Dee"])
    assert order.first_player is None
    assert order.pick_order == ["Cleo", "Ben"] and order.unplaced == ["Dee"]


def test_ruling_free_dots_for_missed_chapters() -> None:
    book = ledger(THREE + [chapter(4, [seat("Ben", 9), seat("Cleo", 10)], ["Cleo", "Ben"])])
    assert free_dots(book, "Dee") == 4  # a newcomer at chapter 5 missed chapters 1–4
    assert free_dots(book, "Ana") == 1  # back at chapter 5 after missing chapter 4
    assert free_dots(book, "Ben") == 0
    assert free_dots(book, "Ana", chapter=4) == 0


def test_placings_follow_vp_then_missions() -> None:
    with pytest.raises(ValidationError) as err:
        ledger([chapter(1, [seat("Ana", 14), seat("Ben", 10), seat("Cleo", 8)],
                        ["Ben", "Ana", "Cleo"])])
    assert refusal(err.value).key == "placings_order"
    with pytest.raises(ValidationError) as err:
        ledger([chapter(1, [seat("Ana", 10, 2), seat("Ben", 10, 1), seat("Cleo", 8)],
                        ["Ana", "Ben", "Cleo"])])
    assert refusal(err.value).key == "placings_order"


def test_ruling_equal_seats_keep_the_entered_order() -> None:
    record = ChapterRecord.model_validate(
        chapter(1, [seat("Ana", 10, 1), seat("Ben", 10, 1)], ["Ben", "Ana"]))
    assert (record.victor, record.vanquished) == ("Ben", "Ana")


def test_titles_and_havens() -> None:
    rows = [dict(c) for c in THREE]
    rows[0] = chapter(1, [seat("Ana", 14, titles=["the Unbowed"], haven="a retainer"),
                          seat("Ben", 10), seat("Cleo", 8)], ["Ana", "Ben", "Cleo"])
    rows[2] = chapter(3, [seat("Ana", 9, haven=None), seat("Ben", 16, titles=["Reeve"],
                                                           haven="a scholar"),
                          seat("Cleo", 11)], ["Ben", "Cleo", "Ana"])
    book = ledger(rows)
    assert titles(book) == {"Cleo": [], "Ana": ["the Unbowed"], "Ben": ["Reeve"]}
    assert havens(book) == {"Cleo": None, "Ana": None, "Ben": "a scholar"}


def test_the_aftermath_checklist_in_order_with_era_end_flagged() -> None:
    third = ChapterRecord.model_validate(
        chapter(3, [seat("Ana", 9), seat("Ben", 16)], ["Ben", "Ana"],
                aftermath_done=["prepare", "record"]))
    items = aftermath_checklist(third)
    assert [i.step for i in items] == [
        "prepare", "record", "resolution", "plotting", "missions", "obligations", "stickers",
        "retain", "new_characters", "era_end",
    ]
    assert [i.done for i in items[:3]] == [True, True, False]
    assert items[-1].applies
    second = ChapterRecord.model_validate(chapter(2, [seat("Ana", 9), seat("Ben", 16)],
                                                  ["Ben", "Ana"]))
    assert not aftermath_checklist(second)[-1].applies
    with pytest.raises(ValidationError) as err:
        ChapterRecord.model_validate(chapter(2, [seat("Ana", 9), seat("Ben", 16)],
                                             ["Ben", "Ana"], aftermath_done=["era_end"]))
    assert refusal(err.value).key == "not_era_end"


def with_era_points(points: list[dict[str, int]]) -> list[dict[str, Any]]:
    """THREE with each chapter's era points entered."""
    rows = []
    for c, per in zip(THREE, points, strict=True):
        seats = [dict(s, era_points=per[s["player"]]) for s in c["seats"]]
        rows.append(dict(c, seats=seats))
    return rows


def test_era_standing_sums_era_points() -> None:
    assert not era_standing(ledger(THREE), 1).complete
    book = ledger(with_era_points([{"Ana": 3, "Ben": 2, "Cleo": 1},
                                   {"Ana": 3, "Ben": 2, "Cleo": 1},
                                   {"Ana": 1, "Ben": 3, "Cleo": 2}]))
    standing = era_standing(book, 1)
    assert standing.points == {"Ana": 7, "Ben": 7, "Cleo": 4}
    assert standing.dominated_by is None and standing.leaders == ["Ana", "Ben"]


def test_ruling_era_tie_is_entered() -> None:
    rows = with_era_points([{"Ana": 3, "Ben": 2, "Cleo": 1}, {"Ana": 3, "Ben": 2, "Cleo": 1},
                            {"Ana": 1, "Ben": 3, "Cleo": 2}])
    entered = era_standing(ledger(rows, [{"era": 1, "dominated_by": "Ben"}]), 1)
    assert entered.dominated_by == "Ben" and entered.decided_by == "tie_breaker_entered"
    drawn = era_standing(ledger(rows, [{"era": 1, "primogen_draw": {
        "declared": {"Ana": "wealthy", "Ben": "warlike"}, "drawn": "wealthy"}}]), 1)
    assert drawn.dominated_by == "Ana" and drawn.decided_by == "primogen_draw"
    with pytest.raises(HeritageError) as err:
        era_standing(ledger(rows, [{"era": 1, "dominated_by": "Cleo"}]), 1)
    assert err.value.key == "era_dominated_by"


def test_chapter_from_a_scored_chronicle_game(tmp_path: Path) -> None:
    missions = ["M1", "M2", "M3", "M4", "M5"]
    played = game([entry("Ana", (6, 0, 0), missions=["M1"]), entry("Ben", (6, 0, 0)),
                   entry("Cleo", (2, 0, 0))], missions=missions, chronicle=True)
    result = score(played)
    record = chapter_from_game(1, played, result)
    assert record.placings == ["Ben", "Ana", "Cleo"]
    assert (record.victor, record.vanquished) == ("Ben", "Cleo")
    book = ChronicleLedger(youngest_to_oldest=["Cleo", "Ana", "Ben"], chapters=[record])
    path = tmp_path / "chronicle.json"
    path.write_text(book.model_dump_json(), encoding="utf-8")
    assert load_ledger(path) == book
    assert next_chapter_order(load_ledger(path), ["Ana", "Ben", "Cleo"]).first_player == "Cleo"


def test_a_shared_place_needs_the_entered_order() -> None:
    missions = ["M1", "M2", "M3", "M4", "M5"]
    played = game([entry("Ana", (6, 0, 0)), entry("Ben", (2, 0, 0)),
                   entry("Cleo", (2, 0, 0))], missions=missions, chronicle=True)
    with pytest.raises(HeritageError) as err:
        chapter_from_game(1, played, score(played))
    assert err.value.key == "placings_needed"
    record = chapter_from_game(1, played, score(played), ["Ana", "Cleo", "Ben"])
    assert record.vanquished == "Ben"
