"""`next_step` with `through`: one tap passes the steps with nothing for the table.

Everything it does is what separate `next_step`s would do (§8.3–§8.5); it stops where the
table has something to do, and skips an effect that cannot apply (§14).
"""

import pytest

from companion.rules.errors import RuleError
from companion.rules.game import Game
from tests.test_cards import card, plain, start, to_step, uid_of

THROUGH = {"type": "next_step", "through": True}


def past_first(g: Game) -> bool:
    """Location #1 is resolved (the game went on to another Location or round)."""
    return g.state.phase != "resolution" or g.state.location_index > 0


def three_locations() -> Game:
    """Three players; cards at Location #1 (kinds unknown) and at #2."""
    return start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
                 {"1": {"A": ([plain(3, None)], 1), "B": ([plain(2, None)], 0)},
                  "2": {"C": ([plain(1, None)], 0)}})


def test_through_equals_the_steps_one_by_one():
    """§8.3–§8.5: the same events as Preparation → Conflict → Aftermath → next Location."""
    one, many = three_locations(), three_locations()
    for g in (one, many):
        to_step(g, "preparation")
    one.play(THROUGH)
    while many.state.location_index == 0:
        many.play({"type": "next_step"})
    assert [e for a in one.actions for e in a.events] == \
        [e for a in many.actions for e in a.events]
    assert one.state == many.state
    assert one.state.location_index == 1 and one.state.step == "withdraw"
    assert len(one.actions) == len(many.actions) - 2  # two taps fewer


def test_plain_next_step_is_unchanged():
    """A stored next_step (no `through`) still ends one step only: old journals replay."""
    g = three_locations()
    to_step(g, "preparation")
    g.play({"type": "next_step"})
    assert g.state.step == "conflict"
    assert g.actions[-1].command.model_dump()["through"] is False


def test_through_stops_at_a_due_effect():
    """§8.5: BR04 is due at Aftermath: the Conflict is settled, then the table resolves it."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("BR04")], 0), "B": ([plain(2, None)], 0)}})
    to_step(g, "preparation")
    g.play(THROUGH)
    assert g.state.step == "aftermath" and g.state.location_index == 0
    assert [d.effect for d in g.legal().due] == ["BR04"]
    assert any(e.type == "conflict_resolved" for e in g.actions[-1].events)


def test_through_stops_where_a_card_must_be_applied_by_hand():
    """A face-up Preparation card the app does not apply stops it at Preparation's end: the
    referee applies it by hand (§8.3); Legal names it."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([plain(3, "conflict")], 0), "B": ([plain(2, None)], 0)}})
    to_step(g, "preparation")
    assert g.legal().unknown_timing == ["B's card (2)"]
    g.play(THROUGH)
    assert g.state.step == "conflict"
    assert g.legal().by_hand == ["A's card (3)"]
    g.play(THROUGH)
    assert past_first(g)


def test_an_effect_that_cannot_apply_is_skipped():
    """§14 + §15 TR05: half of 1 Blood is 0, so Cauldron of Blood is ignored on the way."""
    g = start([{"name": "A", "blood": 1}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("TR05")], 0), "B": ([plain(2, None)], 0)}})
    to_step(g, "preparation")
    g.play(THROUGH)
    events = g.actions[-1].events
    skipped = [e for e in events if e.type == "effect_resolved"]
    assert len(skipped) == 1 and not skipped[0].accepted
    assert past_first(g)
    assert [p.blood for p in g.state.players][1:] == [6, 6]  # nobody lost Blood


def test_an_effect_that_can_apply_is_never_skipped():
    """TR05 with Blood to spend is the owner's choice: it stops there."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("TR05")], 0), "B": ([plain(2, None)], 0)}})
    to_step(g, "preparation")
    g.play(THROUGH)
    assert g.state.step == "aftermath" and g.legal().due[0].can_accept


def test_through_stops_at_the_succubus_club_choice():
    """§15 Succubus Club: the take-back is asked once the Location is resolved."""
    club = {"name": "Succubus Club", "id": "SUCCUBUS-CLUB", "ability": "succubus_club"}
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([plain(3, None)], 2), "B": ([plain(2, None)], 0)}},
              location_cards={"1": club})
    to_step(g, "preparation")
    g.play(THROUGH)
    assert g.state.awaiting == "take_back_blood"


def test_through_is_refused_like_next_step_while_an_effect_is_due():
    """§8.3: BR07 must be resolved first; nothing changes."""
    g = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
              {"1": {"A": ([card("BR07")], 0), "B": ([plain(2, None)], 0)}})
    to_step(g, "preparation")
    before = g.state.model_dump()
    with pytest.raises(RuleError, match="§8 preparation"):
        g.play(THROUGH)
    assert g.state.model_dump() == before
    g.play({"type": "resolve_effect", "card": uid_of(g, "1", 0)})
    g.play(THROUGH)
    assert past_first(g)


def test_through_replays_verified():
    """A journal with `through` rebuilds the same game (verify re-executes every command)."""
    g = three_locations()
    to_step(g, "preparation")
    g.play(THROUGH)
    again = Game.from_journal(g.header_doc(), g.journal(), verify=True)
    assert again.state == g.state
