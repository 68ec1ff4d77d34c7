"""Blood Feud (seed 004, the four station aids): the Council vote tally, the Power-keyed lookups,
the session record and its file, and the reference they cite (docs/bloodfeud.md, §B1–§B10).

Worked cases with the numbers the aids give; each Ruling of the reference is pinned by a test.
"""

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from companion.bloodfeud.council import (
    CouncilResult,
    check_result,
    enter_result,
    read_session_file,
    record_vote,
    result_text,
    tally,
    tally_file,
    tally_session,
    tally_text,
)
from companion.bloodfeud.errors import BloodFeudError, BloodFeudFileError
from companion.bloodfeud.models import Ballot, CouncilVote, Proposal, Session, SessionResult, Team
from companion.bloodfeud.stations import (
    COUNCIL_BONUSES,
    MARKETPLACE_BONUSES,
    SECTIONS,
    STATIONS,
    PlacedOrder,
    check_power,
    council_bonus,
    markdown,
    marketplace_bonus,
    may_answer_block,
    may_stop_alliance,
    may_store,
    power_facts,
    purchase_price,
    quorum,
    resolution_order,
    section,
    station,
    store_cap,
    voting_power,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "bloodfeud.md"
FORMAT_DOC = ROOT / "docs" / "bloodfeud-format.md"
EXAMPLE = ROOT / "examples" / "bloodfeud-session.json"
"""The station aids, when the project's source documents sit beside the repository."""

TEAMS = ["Brujah", "City Hall", "FIRSTLIGHT", "Nosferatu"]
POWERS_3221 = {"Brujah": 3, "City Hall": 2, "FIRSTLIGHT": 2, "Nosferatu": 1}


def ballots(**choices: str | None) -> list[Ballot]:
    """Ballots from keyword pairs; `City_Hall` stands for City Hall."""
    return [Ballot(team=t.replace("_", " "), event=e) for t, e in choices.items()]


def vote(powers: dict[str, int], cast: list[Ballot], *, round_: int = 1,
         proposals: tuple[tuple[str, str], ...] = (("E1", "Brujah"), ("E2", "City Hall")),
         revotes: tuple[list[Ballot], ...] = (), ended: bool = False) -> CouncilVote:
    """A round's Council vote."""
    return CouncilVote(round=round_, powers=powers,
                       proposals=[Proposal(event=e, team=t) for e, t in proposals],
                       ballots=cast, revotes=list(revotes), gameplay_ended=ended)


def totals(result: CouncilResult, count: int = 0) -> dict[str | None, int]:
    """Voting Power per option in one count."""
    return {t.event: t.voting_power for t in result.counts[count].totals}


def refused(key: str, section_: str, call, *args, **kwargs) -> BloodFeudError:
    """Run `call`, which must be refused with `key`, citing `section_`."""
    with pytest.raises(BloodFeudError) as caught:
        call(*args, **kwargs)
    assert caught.value.key == key
    assert caught.value.section == section_ and f"({section_})" in str(caught.value)
    return caught.value


def session(**changes) -> Session:
    """A four-team session after three rounds, with no vote and no result."""
    base = dict(storyteller="Mara", rounds_played=3, teams=[
        Team(name="Brujah", colour="Blue", faction="Vampire", members=["Ann", "Bo"]),
        Team(name="City Hall", colour="Green", faction="Human", members=["Cy"]),
        Team(name="FIRSTLIGHT", colour="Red", faction="Human", members=["Eli"]),
        Team(name="Nosferatu", colour="Yellow", faction="Vampire", members=["Gus"]),
    ])
    return Session(**(base | changes))


# --- the Council vote (§B9) --------------------------------------------------------------------


def test_e2_passes_with_4_of_8_and_its_proposer_gains_one_ambition_token():
    result = tally(vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2",
                                             Nosferatu=None)), TEAMS)
    assert totals(result) == {"E1": 3, "E2": 4, None: 1}
    assert result.counts[0].cast == 8 and result.counts[0].leaders == ("E2",)
    assert (result.outcome, result.event, result.proposer) == ("event", "E2", "City Hall")
    assert result.ambition_tokens == {"City Hall": 1}
    assert result.discarded == ("E1",) and result.random_event is False
    assert result.quorum == 2 and result.voters == tuple(TEAMS)


def test_ruling_majority_is_the_most_voting_power_not_more_than_half():
    """3 of 7 passes: no option needs more than half of the Power raised."""
    powers = {"Brujah": 3, "City Hall": 2, "FIRSTLIGHT": 2}
    result = tally(vote(powers, ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT=None)), TEAMS)
    assert totals(result) == {"E1": 3, "E2": 2, None: 2} and result.counts[0].cast == 7
    assert (result.outcome, result.event, result.proposer) == ("event", "E1", "Brujah")
    assert result.ambition_tokens == {"Brujah": 1}


THREE_ALL = {"Brujah": 3, "City Hall": 2, "FIRSTLIGHT": 1, "Nosferatu": 2}
TIE_33 = ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2", Nosferatu=None)
"""E1 3, E2 3 (2 + 1), No Event 2."""


def test_a_3_3_tie_is_voted_again_between_the_two_events_only():
    result = tally(vote(THREE_ALL, TIE_33), TEAMS)
    assert totals(result) == {"E1": 3, "E2": 3, None: 2}
    assert result.outcome == "revote" and result.revote_between == ("E1", "E2")
    assert result.event is None and result.ambition_tokens == {} and result.discarded == ()
    again = ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2", Nosferatu=None)
    err = refused("revote_choice", "§B9", tally, vote(THREE_ALL, TIE_33, revotes=(again,)), TEAMS)
    assert err.params["team"] == "Nosferatu" and err.params["options"] == ["E1", "E2"]
    again = ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2", Nosferatu="E2")
    result = tally(vote(THREE_ALL, TIE_33, revotes=(again,)), TEAMS)
    assert totals(result, 1) == {"E1": 3, "E2": 5}  # No Event is not an option any more
    assert result.counts[1].revote and result.counts[1].cast == 8
    assert (result.outcome, result.event, result.proposer) == ("event", "E2", "City Hall")
    assert result.ambition_tokens == {"City Hall": 1} and result.discarded == ("E1",)


def test_ruling_no_event_tied_at_the_top_stays_in_the_revote():
    cast = ballots(Brujah="E1", City_Hall=None, FIRSTLIGHT=None)
    result = tally(vote(THREE_ALL, cast), TEAMS)
    assert totals(result) == {"E1": 3, "E2": 0, None: 3}
    assert result.outcome == "revote" and result.revote_between == ("E1", None)
    again = ballots(Brujah="E1", City_Hall=None, FIRSTLIGHT="E1")
    result = tally(vote(THREE_ALL, cast, revotes=(again,)), TEAMS)
    assert totals(result, 1) == {"E1": 4, None: 2}
    assert result.event == "E1" and result.ambition_tokens == {"Brujah": 1}
    refused("revote_choice", "§B9", tally,
            vote(THREE_ALL, cast, revotes=(ballots(Brujah="E2", City_Hall=None,
                                                    FIRSTLIGHT=None),)), TEAMS)


def test_no_event_with_the_most_power_sends_a_random_event_and_discards_every_proposal():
    result = tally(vote(POWERS_3221, ballots(Brujah=None, City_Hall="E2", Nosferatu="E1")), TEAMS)
    assert totals(result) == {"E1": 1, "E2": 2, None: 3}
    assert result.outcome == "no_event" and result.random_event is True
    assert result.event is None and result.ambition_tokens == {}
    assert result.discarded == ("E1", "E2")


def test_a_revote_that_ties_until_the_gameplay_phase_ends_sends_a_random_event():
    again = ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2", Nosferatu="E1")  # 5–3
    tied = ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2")  # 3–3 again, Nosferatu out
    refused("revote_voters", "§B9", tally, vote(THREE_ALL, TIE_33, revotes=(tied,)), TEAMS)
    tied = ballots(Brujah="E2", City_Hall="E1", FIRSTLIGHT="E2", Nosferatu="E1")  # 4–4
    pending = tally(vote(THREE_ALL, TIE_33, revotes=(tied,)), TEAMS)
    assert totals(pending, 1) == {"E1": 4, "E2": 4}
    assert pending.outcome == "revote" and pending.revote_between == ("E1", "E2")
    ended = tally(vote(THREE_ALL, TIE_33, revotes=(tied,), ended=True), TEAMS)
    assert ended.outcome == "phase_ended" and ended.random_event is True
    assert ended.discarded == ("E1", "E2") and ended.ambition_tokens == {}
    settled = tally(vote(THREE_ALL, TIE_33, revotes=(tied, again)), TEAMS)
    assert len(settled.counts) == 3 and settled.event == "E1"


def test_no_vote_held_before_the_gameplay_phase_ended():
    result = tally(vote({}, [], ended=True), TEAMS)
    assert result.outcome == "phase_ended" and result.counts == () and result.voters == ()
    assert result.random_event is True and result.discarded == ("E1", "E2")


@pytest.mark.parametrize("teams,needed", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3),
                                          (7, 4)])
def test_quorum_is_half_the_teams_rounded_up(teams, needed):
    assert quorum(teams) == needed


def test_a_vote_short_of_its_quorum_is_refused():
    err = refused("quorum", "§B9", tally, vote(POWERS_3221, ballots(Brujah="E1")), TEAMS)
    assert err.params == {"voters": 1, "needed": 2, "teams": 4}
    assert "1 of 4 teams vote; at least 2 must" in str(err)
    five = [*TEAMS, "Ventrue"]
    powers = POWERS_3221 | {"Ventrue": 4}
    refused("quorum", "§B9", tally, vote(powers, ballots(Brujah="E1", Ventrue="E2")), five)
    assert tally(vote(powers, ballots(Brujah="E1", Ventrue="E2", Nosferatu="E2")),
                 five).event == "E2"  # 5 of 8 among 3 voters of 5 teams
    refused("quorum", "§B9", tally, vote(POWERS_3221, []), TEAMS)  # nobody voted, phase goes on


def test_ruling_a_failed_quorum_does_not_use_up_the_rounds_vote():
    s = session()
    refused("quorum", "§B9", record_vote, s, vote(POWERS_3221, ballots(Nosferatu=None)))
    assert s.council == []
    s = record_vote(s, vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E2")))
    assert [v.round for v in s.council] == [1]


def test_two_votes_in_one_round_are_refused():
    first = vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2"))
    s = record_vote(session(), first)
    second = vote(POWERS_3221, ballots(Brujah="E1", Nosferatu="E1"))
    err = refused("vote_per_round", "§B9", record_vote, s, second)
    assert err.params == {"round": 1} and s.council == [first]
    refused("vote_per_round", "§B9", tally_session, session(council=[first, second]))
    s = record_vote(s, second.model_copy(update={"round": 2}))
    assert [v.round for v in s.council] == [1, 2]
    assert [r.event for r in tally_session(s).votes] == ["E2", "E1"]


def test_ruling_one_ballot_per_team():
    cast = ballots(Brujah="E1", City_Hall="E2") + ballots(Brujah="E2")
    err = refused("ballot_twice", "§B9", tally, vote(POWERS_3221, cast), TEAMS)
    assert err.params == {"team": "Brujah"}


def test_one_proposal_per_team_and_round_and_no_event_proposed_twice():
    refused("proposal_twice", "§B8", tally,
            vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E1"),
                 proposals=(("E1", "Brujah"), ("E2", "Brujah"))), TEAMS)
    refused("event_twice", "§B8", tally,
            vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E1"),
                 proposals=(("E1", "Brujah"), ("e1", "City Hall"))), TEAMS)


def test_ballots_name_a_proposed_event_a_known_team_and_one_with_a_power():
    refused("unknown_event", "§B9", tally,
            vote(POWERS_3221, ballots(Brujah="E9", City_Hall="E2")), TEAMS)
    refused("unknown_team", "§B9", tally,
            vote(POWERS_3221, ballots(Brujah="E1", Ventrue="E2")), TEAMS)
    refused("power_missing", "§B9", tally,
            vote({"Brujah": 3}, ballots(Brujah="E1", City_Hall="E2")), TEAMS)
    refused("unknown_team", "§B8", tally,
            vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E1"),
                 proposals=(("E1", "Ventrue"),)), TEAMS)
    # names compare without case, and the session's spelling is kept
    result = tally(vote(POWERS_3221, ballots(brujah="e1", city_hall="E1")), TEAMS)
    assert result.voters == ("Brujah", "City Hall") and totals(result)["E1"] == 5


def test_no_revote_after_a_majority_and_no_phase_end_after_a_choice():
    decided = ballots(Brujah="E1", City_Hall="E2", FIRSTLIGHT="E2")  # E2 4–3
    refused("revote_not_due", "§B9", tally,
            vote(POWERS_3221, decided, revotes=(decided,)), TEAMS)
    refused("vote_concluded", "§B9", tally, vote(POWERS_3221, decided, ended=True), TEAMS)
    refused("revote_not_due", "§B9", tally, vote(POWERS_3221, [], revotes=(decided,)), TEAMS)


# --- Power and the lookups keyed by it (§B2, §B4–§B7, §B10) ------------------------------------


@pytest.mark.parametrize("power", [0, 7, -1, True, 2.5, "3"])
def test_power_outside_1_to_6_is_refused(power):
    for lookup in (check_power, voting_power, marketplace_bonus, council_bonus, store_cap,
                   power_facts):
        err = refused("power_range", "§B2", lookup, power)
        assert err.params["power"] == power
    refused("power_range", "§B2", may_stop_alliance, 2, power, 3)
    if isinstance(power, int) and not isinstance(power, bool):
        refused("power_range", "§B2", tally,
                vote({"Brujah": power, "City Hall": 2}, ballots(Brujah="E1", City_Hall="E2")),
                TEAMS)
    else:  # not a whole number at all: the record's shape refuses it
        with pytest.raises(ValidationError):
            vote({"Brujah": power}, ballots(Brujah="E1"))


BONUSES = {
    # power: (free Market buries, Cost discount, Event swaps, Bury an Ambition card)
    1: (3, 1, 3, True),
    2: (2, 0, 2, False),
    3: (2, 0, 2, False),
    4: (1, 0, 1, False),
    5: (1, 0, 1, False),
    6: (1, 0, 1, False),
}
"""The bonus actions of aids 3 and 4 (§B7, §B10), Power by Power."""


@pytest.mark.parametrize("power", sorted(BONUSES))
def test_bonus_actions_by_power(power):
    market, council = marketplace_bonus(power), council_bonus(power)
    assert (market.free_buries, market.cost_discount, council.event_swaps,
            council.bury_ambition_card) == BONUSES[power]
    assert len(market.actions) == len(council.actions) == (2 if power == 1 else 1)
    facts = power_facts(power)
    assert (facts.voting_power, facts.store_cap) == (power, power)
    assert facts.marketplace == market and facts.council == council


def test_bonus_bands_cover_1_to_6_once_each():
    for bands in (MARKETPLACE_BONUSES, COUNCIL_BONUSES):
        covered = [p for b in bands for p in range(b.powers[0], b.powers[1] + 1)]
        assert sorted(covered) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("power", [1, 2, 3, 4, 5, 6])
def test_the_store_cap_is_the_teams_power(power):
    assert store_cap(power) == power
    assert may_store(power, power) and not may_store(power + 1, power)
    assert may_store(0, power)


def test_ruling_the_power_1_discount_raises_the_store_cap_to_2():
    assert store_cap(1, discount=True) == 2
    assert not may_store(2, 1) and may_store(2, 1, discount=True)
    assert not may_store(3, 1, discount=True)
    err = refused("bonus_not_available", "§B7", store_cap, 2, discount=True)
    assert err.params == {"power": 2}
    refused("cost_range", "§B6", may_store, -1, 3)


def test_purchase_price_with_and_without_the_power_1_discount():
    assert purchase_price(5, 1) == 5 and purchase_price(5, 1, discount=True) == 4
    assert purchase_price(5, 4) == 5
    refused("bonus_not_available", "§B7", purchase_price, 5, 4, discount=True)
    refused("not_in_aid", "§B6", purchase_price, 0, 1, discount=True)


def test_ruling_who_may_stop_a_proposed_alliance():
    """'Equal or lower than either team': at most the lower of the two Powers."""
    assert may_stop_alliance(2, 2, 4) is True
    assert may_stop_alliance(2, 3, 1) is False
    assert may_stop_alliance(5, 6, 1) is False  # below one of them is not enough
    assert may_stop_alliance(1, 6, 1) is True


def test_ruling_who_may_answer_a_block():
    """'If either of the two teams has equal or lower Power': at least one of them."""
    assert may_answer_block(3, 4, 3) is True
    assert may_answer_block(3, 2, 6) is True
    assert may_answer_block(3, 4, 5) is False


def test_orders_resolve_from_least_to_most_power_and_only_a_teams_first_counts():
    placed = [PlacedOrder(team="Brujah", power=3, order="Attack"),
              PlacedOrder(team="Nosferatu", power=1, order="Defend"),
              PlacedOrder(team="City Hall", power=2, order="Requisition"),
              PlacedOrder(team="FIRSTLIGHT", power=2, order="Attack"),
              PlacedOrder(team="Brujah", power=3, order="Defend")]
    order = resolution_order(placed)
    assert [(o.team, o.order) for o in order.resolve] == [
        ("Nosferatu", "Defend"), ("City Hall", "Requisition"), ("FIRSTLIGHT", "Attack"),
        ("Brujah", "Attack")]
    assert [(o.team, o.order) for o in order.skipped] == [("Brujah", "Defend")]
    refused("power_range", "§B2", resolution_order, [PlacedOrder(team="Brujah", power=9)])


# --- the session record (§B2) ------------------------------------------------------------------


def test_a_tie_is_shown_as_a_tie_with_the_storytellers_pick_beside_it():
    result = SessionResult(winners=["Brujah", "City Hall"], storyteller_pick="Brujah")
    s = enter_result(session(), result)
    assert s.result is not None and s.result.tie and s.result.winners == ["Brujah", "City Hall"]
    assert result_text(s.result) == ("Result: tie between Brujah and City Hall "
                                     "(the Storyteller's pick: Brujah)")
    assert result_text(SessionResult(winners=["Nosferatu"])) == "Result: Nosferatu wins"
    assert result_text(SessionResult(winners=["Brujah", "City Hall"])) == (
        "Result: tie between Brujah and City Hall")
    assert result_text(None) == "Result: not entered yet"


def test_the_storytellers_pick_comes_from_the_tie_and_only_with_one():
    refused("pick_not_tied", "§B2", enter_result, session(),
            SessionResult(winners=["Brujah", "City Hall"], storyteller_pick="Nosferatu"))
    refused("pick_without_tie", "§B2", enter_result, session(),
            SessionResult(winners=["Brujah"], storyteller_pick="Brujah"))
    refused("unknown_team", "§B2", check_result, SessionResult(winners=["Ventrue"]), TEAMS)
    refused("winner_twice", "§B2", check_result,
            SessionResult(winners=["Brujah", "brujah"]), TEAMS)


def test_checks_of_the_record():
    teams = session().teams
    same_colour = teams[1].model_copy(update={"colour": "blue"})
    refused("colour_twice", "§B2", tally_session, session(teams=[teams[0], same_colour]))
    twice = teams[1].model_copy(update={"members": ["Cy", "ann"]})
    refused("member_twice", "§B2", tally_session, session(teams=[teams[0], twice]))
    same_name = teams[1].model_copy(update={"name": "BRUJAH"})
    refused("team_twice", "§B2", tally_session, session(teams=[teams[0], same_name]))
    with pytest.raises(ValidationError):
        Session(storyteller="Mara", teams=[teams[0]])  # at least two teams
    with pytest.raises(ValidationError):
        Team(name="Brujah", colour="Blue", faction="Vampire", members=[])
    with pytest.raises(ValidationError):
        Team(name="Brujah", colour="Blue", faction="Ghoul", members=["Ann"])


def test_a_vote_after_the_rounds_played_is_refused():
    late = vote(POWERS_3221, ballots(Brujah="E1", City_Hall="E2"), round_=4)
    err = refused("round_range", "§B9", record_vote, session(), late)
    assert err.params == {"round": 4, "rounds_played": 3}


# --- the session file --------------------------------------------------------------------------


def test_the_example_file_tallies():
    t = tally_file(EXAMPLE)
    assert [v.outcome for v in t.votes] == ["event", "event", "phase_ended"]
    first, second, third = t.votes
    assert totals(first) == {"E1": 3, "E2": 4, "E3": 0, None: 1} and first.counts[0].cast == 8
    assert first.ambition_tokens == {"City Hall": 1} and first.discarded == ("E1", "E3")
    assert totals(second) == {"E4": 3, "E5": 3, None: 2} and totals(second, 1) == {"E4": 5,
                                                                                  "E5": 3}
    assert second.event == "E4" and second.ambition_tokens == {"Brujah": 1}
    assert third.random_event and third.discarded == ("E6",)
    assert t.session.result is not None and t.session.result.storyteller_pick == "Brujah"
    text = tally_text(t)
    assert "E2 passes; City Hall proposed it and gains 1 Ambition token" in text
    assert "re-vote: E4 5 (Brujah, Nosferatu), E5 3 (City Hall, FIRSTLIGHT) of 8" in text
    assert "Round 3, Council: no vote held" in text
    assert "Result: tie between Brujah and City Hall (the Storyteller's pick: Brujah)" in text
    dumped = json.loads(json.dumps(t.model_dump(mode="json")))
    assert dumped["votes"][0]["counts"][0]["totals"][3] == {"event": None, "voting_power": 1,
                                                            "teams": ["Nosferatu"]}


def _write(tmp_path: Path, data: object | str, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _example() -> dict:
    return json.loads(EXAMPLE.read_text("utf-8"))


@pytest.mark.parametrize("content,key", [
    ("{not json", "not_json"),
    ('{"format": "vendetta-companion/bloodfeud", "format": "x"}', "not_json"),
    ('{"format": "vendetta-companion/bloodfeud", "rounds_played": NaN}', "not_json"),
    ("[" * 70 + "]" * 70, "too_deep"),
    ('{"format": "vendetta-companion/score"}', "format"),
    ("[]", "format"),
])
def test_a_file_that_cannot_be_used_is_refused(tmp_path, content, key):
    with pytest.raises(BloodFeudFileError) as caught:
        tally_file(_write(tmp_path, content))
    assert caught.value.key == key and "docs/bloodfeud-format.md" in str(caught.value)


def test_file_fields_version_size_and_reading(tmp_path):
    data = _example() | {"version": 2}
    with pytest.raises(BloodFeudFileError) as caught:
        tally_file(_write(tmp_path, data))
    assert caught.value.key == "too_new"
    data = _example() | {"umpire": "Mara"}
    with pytest.raises(BloodFeudFileError) as caught:
        tally_file(_write(tmp_path, data))
    assert caught.value.key == "invalid" and "umpire" in str(caught.value)
    with pytest.raises(BloodFeudFileError) as caught:
        tally_file(tmp_path / "missing.json")
    assert caught.value.key == "file_unreadable"
    with pytest.raises(BloodFeudFileError) as caught:
        read_session_file(EXAMPLE, max_bytes=100)
    assert caught.value.key == "file_too_large"
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())
    assert len(tally_file(bom).votes) == 3


def test_a_file_that_breaks_a_rule_is_refused_not_malformed(tmp_path):
    data = _example()
    data["council"][0]["ballots"] = [{"team": "Brujah", "event": "E1"}]
    with pytest.raises(BloodFeudError) as caught:
        tally_file(_write(tmp_path, data))
    assert not isinstance(caught.value, BloodFeudFileError)
    assert caught.value.key == "quorum"
    data = _example()
    data["council"][1]["round"] = 1
    with pytest.raises(BloodFeudError) as caught:
        tally_file(_write(tmp_path, data))
    assert caught.value.key == "vote_per_round"


# --- the reference (docs/bloodfeud.md) ---------------------------------------------------------


def test_docs_bloodfeud_md_is_made_from_the_reference():
    """Regenerate after editing companion/bloodfeud/stations.py (command in the file's head)."""
    assert DOC.read_text("utf-8") == markdown()


def test_sections_are_numbered_in_order_and_name_their_source():
    assert [s.number for s in SECTIONS] == [f"§B{n}" for n in range(1, 11)]
    assert all(s.source.startswith("seed 004, station aid") for s in SECTIONS)
    assert section("§B9").title == "The Council vote"
    with pytest.raises(KeyError):
        section("§B" + "99")


def test_the_four_stations_are_cards_with_their_sections():
    assert [(c.number, c.name) for c in STATIONS] == [
        (1, "Cityscape"), (2, "Orders"), (3, "Marketplace"), (4, "Council")]
    assert station(4).sections == ("§B8", "§B9", "§B10")
    for card in STATIONS:
        assert card.purpose and all(section(n).source.endswith(f"({card.name})")
                                    for n in card.sections)
    with pytest.raises(KeyError):
        station(5)


def test_every_ruling_of_the_council_and_alliances_is_in_the_reference():
    titles = {r.title for s in SECTIONS for r in s.rulings}
    assert {"Majority means the most Voting Power", "What a re-vote is between",
            "Who may stop a proposed Alliance", "Power runs from 1 to 6",
            "A tie stays a tie", "The Store cap at Power 1"} <= titles


def test_every_cited_section_exists():
    cited: set[str] = set()
    files = [*(ROOT / "companion" / "bloodfeud").glob("*.py"), DOC, FORMAT_DOC,
             Path(__file__)]
    for f in files:
        cited |= set(re.findall(r"§B\d+", f.read_text("utf-8")))
    assert {"§B2", "§B8", "§B9"} <= cited
    assert cited <= {s.number for s in SECTIONS}
