"""§8.1: secret simultaneous Stay/Withdraw, and the other inputs collected per player
(naming face-down cards, §8.1/§8.2; the Succubus Club take-back, §15)."""

import pytest

from companion.rules.errors import AccessError, InputRefused, StaleVersion
from companion.table.hub import CodeRefused
from models.table import Board, Referee, Seat
from tests.table_helpers import (
    DOWN,
    Devices,
    make_hub,
    plain,
    position,
    seated,
    unchanged,
)


@pytest.fixture
def dev():
    return Devices()


def withdraw_table(tmp_path, dev, *, seats=True, loc="1"):
    """Withdraw step at `loc`: Ann has a face-down card there, Bo and Cy face-up ones."""
    table = make_hub(tmp_path).new_table(position(3, {loc: {
        "Ann": ([DOWN], 1), "Bo": ([plain(3)], 0), "Cy": ([plain(2), DOWN], 0)}},
        resolution_location=loc))
    if seats:
        seated(table, dev)
    else:
        table.claim_referee(dev.ref, table.referee_code)
        table.join_board(dev.board, table.join_code)
    assert table.game.state.step == "withdraw" and table.game.legal().present == [0, 1, 2]
    return table


def views_json(table, roles):
    return {str(r): table.view_for(r).model_dump_json() for r in roles}


def test_two_of_three_choices_show_in_no_other_view(tmp_path, dev):
    """After 2 of 3 choices, the board's, the referee's and the third seat's views are the
    same whoever chose and whatever they chose; only "2 of 3" shows."""
    outsiders = [Board(), Referee(), Seat(player=2)]
    seen = []
    for picks in ({0: "withdraw", 1: "stay"}, {0: "stay", 1: "withdraw"},
                  {0: "stay", 1: "stay"}, {1: "withdraw", 0: "withdraw"}):
        table = withdraw_table(tmp_path / str(len(seen)), dev)
        for player, choice in picks.items():
            table.choose(getattr(dev, ["ann", "bo"][player]), player, choice, table.version)
        views = {r: table.view_for(r) for r in outsiders}
        for v in views.values():
            assert (v.withdraw.chosen, v.withdraw.of) == (2, 3)
            assert v.withdraw.mine is None and v.withdraw.revealed is None
            assert "2 of 3" in v.prompt
        assert table.view(dev.ann).withdraw.mine == picks[0]
        assert table.view(dev.bo).withdraw.mine == picks[1]
        assert not table.game.actions  # nothing played yet
        seen.append({str(r): v.model_dump_json(exclude={"table_id", "game_id"})
                     for r, v in views.items()})
    assert all(s == seen[0] for s in seen)


def test_who_has_chosen_is_not_shown_either(tmp_path, dev):
    """Ann+Bo having chosen looks the same as Bo+Cy having chosen, even to the referee."""
    roles = [Board(), Referee()]
    a = withdraw_table(tmp_path / "a", dev)
    a.choose(dev.ann, 0, "stay", a.version)
    a.choose(dev.bo, 1, "stay", a.version)
    b = withdraw_table(tmp_path / "b", dev)
    b.choose(dev.bo, 1, "stay", b.version)
    b.choose(dev.cy, 2, "stay", b.version)
    strip = {"table_id", "game_id"}
    assert ({str(r): a.view_for(r).model_dump_json(exclude=strip) for r in roles}
            == {str(r): b.view_for(r).model_dump_json(exclude=strip) for r in roles})
    for text in (a.view_for(Board()).last_change, str(_stale_error(a, dev))):
        assert not any(name in text for name in ("Ann", "Bo", "Cy")), text


def _stale_error(table, dev):
    """The refusal of an action drawn before the two choices (it names no chooser)."""
    with pytest.raises(StaleVersion) as info:
        table.undo(dev.ref, table.version - 2)
    return info.value


def test_a_choice_can_be_changed_or_taken_back_until_the_last_is_in(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    table.choose(dev.bo, 1, "withdraw", table.version)
    table.choose(dev.bo, 1, "stay", table.version)
    assert table.view(dev.bo).withdraw.mine == "stay"
    table.choose(dev.ann, 0, "stay", table.version)
    table.choose(dev.ann, 0, None, table.version)  # taken back
    assert table.view_for(Board()).withdraw.chosen == 1
    table.choose(dev.ann, 0, "stay", table.version)
    table.choose(dev.cy, 2, "stay", table.version)
    assert [a.command.type for a in table.game.actions] == ["choose_withdraw"]
    assert table.game.actions[0].command.withdraw == []


def test_the_last_choice_plays_one_choose_withdraw_revealing_all(tmp_path, dev):
    """Bo withdraws (no face-down card): nothing to name, one action at once."""
    table = withdraw_table(tmp_path, dev)
    heard = []
    table.subscribe(heard.append)
    table.choose(dev.ann, 0, "stay", table.version)
    table.choose(dev.bo, 1, "withdraw", table.version)
    assert not table.game.actions
    table.choose(dev.cy, 2, "stay", table.version)
    assert len(table.game.actions) == 1
    cmd = table.game.actions[0].command
    assert cmd.type == "choose_withdraw" and cmd.withdraw == [1] and cmd.reveal == {}
    chosen = next(e for e in table.game.actions[0].events if e.type == "withdraw_chosen")
    assert (chosen.stay, chosen.withdraw) == ([0, 2], [1])
    assert table.game.state.step == "revelation"  # Ann's and Cy's face-down cards remain
    assert table.view_for(Board()).withdraw is None
    assert len(heard) == 3
    assert "the Stay/Withdraw choices were revealed" in table.view_for(Board()).last_change


def test_withdrawing_face_down_cards_wait_for_their_owner_to_name_them(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    table.choose(dev.ann, 0, "withdraw", table.version)
    table.choose(dev.bo, 1, "stay", table.version)
    table.choose(dev.cy, 2, "withdraw", table.version)
    # Revealed for everyone; nothing played until the face-down cards are named.
    assert not table.game.actions
    for role in (Board(), Referee(), Seat(player=1)):
        v = table.view_for(role)
        assert v.withdraw.revealed == {0: "withdraw", 1: "stay", 2: "withdraw"}
        assert set(v.naming.needed) == {0, 2}
    s = table.game.state.locations[0]
    ann_uid = s.positions[0].cards[0].uid
    cy_uid = next(c.uid for c in s.positions[2].cards if not c.face_up)
    assert table.view(dev.ann).allowed.name_cards == [ann_uid]
    assert table.view(dev.ann).allowed.choose == []
    with unchanged(table), pytest.raises(InputRefused, match="revealed"):
        table.choose(dev.ann, 0, "stay", table.version)  # no change once revealed
    with unchanged(table), pytest.raises(AccessError, match="Bo's seat"):
        table.name_cards(dev.bo, {ann_uid: plain(4)}, table.version)
    with unchanged(table), pytest.raises(AccessError, match="not Cy's"):
        table.name_cards(dev.ann, {cy_uid: plain(4)}, table.version)
    table.name_cards(dev.ann, {ann_uid: plain(4)}, table.version)
    assert table.view_for(Board()).naming.named[ann_uid].power == 4
    assert not table.game.actions
    table.name_cards(dev.ref, {cy_uid: plain(1)}, table.version)  # Cy's phone is asleep
    assert len(table.game.actions) == 1
    cmd = table.game.actions[0].command
    assert cmd.withdraw == [0, 2] and {u: c.power for u, c in cmd.reveal.items()} == {
        ann_uid: 4, cy_uid: 1}


def test_withdrawing_from_the_princes_haven_needs_no_identities(tmp_path, dev):
    table = withdraw_table(tmp_path, dev, loc="haven")
    for name, p in (("ann", 0), ("bo", 1), ("cy", 2)):
        table.choose(getattr(dev, name), p, "withdraw" if p == 0 else "stay", table.version)
    assert [a.command.withdraw for a in table.game.actions] == [[0]]
    assert table.game.actions[0].command.reveal == {}


def test_the_referee_chooses_for_a_player_without_a_phone(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3, {"1": {
        "Ann": ([plain(1)], 0), "Bo": ([plain(3)], 0), "Cy": ([plain(2)], 0)}}))
    table.claim_referee(dev.ref, table.referee_code)
    table.claim_seat(dev.ann, 0, table.seat_code(0))
    table.claim_seat(dev.bo, 1, table.seat_code(1))  # Cy has no phone
    assert table.view(dev.ref).allowed.choose == [2]
    with unchanged(table), pytest.raises(AccessError, match="own device"):
        table.choose(dev.ref, 0, "stay", table.version)
    table.choose(dev.ref, 2, "withdraw", table.version)
    ref_view = table.view(dev.ref)
    assert ref_view.withdraw.mine is None and ref_view.withdraw.revealed is None
    assert '"withdraw":"' not in ref_view.model_dump_json().replace(" ", "")
    table.choose(dev.ann, 0, "stay", table.version)
    table.choose(dev.bo, 1, "stay", table.version)
    assert table.game.actions[-1].command.withdraw == [2]


def test_choices_are_each_players_own(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    with unchanged(table), pytest.raises(AccessError, match="not for Bo"):
        table.choose(dev.ann, 1, "stay", table.version)
    with unchanged(table), pytest.raises(AccessError, match="read-only"):
        table.choose(dev.board, 1, "stay", table.version)
    with unchanged(table), pytest.raises(InputRefused, match="'stay' or 'withdraw'"):
        table.choose(dev.ann, 0, "maybe", table.version)


def test_a_player_not_at_the_location_does_not_choose(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3, {"1": {
        "Ann": ([plain(1)], 0), "Bo": ([plain(3)], 0)}}))
    seated(table, dev)
    assert table.view_for(Board()).withdraw.of == 2
    assert table.view(dev.cy).allowed.choose == []
    with unchanged(table), pytest.raises(InputRefused, match="not at Location #1"):
        table.choose(dev.cy, 2, "stay", table.version)


def test_the_referee_cannot_override_secret_choices(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    assert "choose_withdraw" in table.view(dev.ref).allowed.commands  # nobody chose yet
    table.choose(dev.ann, 0, "withdraw", table.version)
    assert "choose_withdraw" not in table.view(dev.ref).allowed.commands
    with unchanged(table), pytest.raises(AccessError, match="secretly"):
        table.act(dev.ref, {"type": "choose_withdraw", "withdraw": []}, table.version)


def test_choosing_outside_the_withdraw_step_is_refused(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3, phase="planning"))
    seated(table, dev)
    with unchanged(table), pytest.raises(InputRefused, match="§8.1"):
        table.choose(dev.ann, 0, "stay", table.version)


def test_undo_drops_choices_of_a_step_no_longer_current(tmp_path, dev):
    """The last Planning turn starts Resolution; a choice is made; the referee takes the turn
    back and plays it again: the Withdraw step starts afresh, nobody has chosen."""
    table = make_hub(tmp_path).new_table(position(3, {"1": {
        "Ann": ([plain(1)], 0), "Bo": ([plain(3)], 0), "Cy": ([plain(2)], 0)}},
        phase="planning", turns_taken=2))
    seated(table, dev)
    for name, p in (("ann", 0), ("bo", 1), ("cy", 2)):
        table.act(getattr(dev, name), {"type": "play_card", "player": p, "location": "2",
                                       "face_up": True, "card": plain(1)}, table.version)
    assert table.game.state.step == "withdraw"
    table.choose(dev.ann, 0, "withdraw", table.version)
    table.choose(dev.bo, 1, "stay", table.version)
    table.undo(dev.ref, table.version)
    assert table.game.state.phase == "planning" and table.view_for(Board()).withdraw is None
    assert table._record.pending is None  # noqa: SLF001 - the stored record has no choice
    table.redo(dev.ref, table.version)
    assert table.view_for(Board()).withdraw.chosen == 0
    assert table.view(dev.ann).withdraw.mine is None


def test_an_action_inside_the_step_keeps_the_choices(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    table.choose(dev.ann, 0, "withdraw", table.version)
    table.act(dev.ref, {"type": "apply_effect", "action": "gain_blood", "player": "Bo",
                        "amount": 1}, table.version)
    assert table.view(dev.ann).withdraw.mine == "withdraw"
    table.undo(dev.ref, table.version)
    assert table.view(dev.ann).withdraw.mine == "withdraw"


# --- Revelation and the Succubus Club -------------------------------------------------------------

def test_revelation_collects_each_owners_identities_then_reveals_once(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    table.act(dev.ref, {"type": "choose_withdraw", "withdraw": []}, table.version)
    assert table.game.state.step == "revelation"
    needed = table.view_for(Board()).naming.needed
    assert set(needed) == {0, 2}
    (ann_uid,), (cy_uid,) = needed[0], needed[2]
    refuse = {"type": "reveal", "cards": {ann_uid: plain(1), cy_uid: plain(1)}}
    with unchanged(table), pytest.raises(AccessError, match="own face-down"):
        table.act(dev.ann, refuse, table.version)
    with unchanged(table), pytest.raises(InputRefused, match="uids and identities"):
        table.name_cards(dev.cy, {}, table.version)
    with unchanged(table), pytest.raises(ValueError, match="power"):
        table.name_cards(dev.cy, {cy_uid: {"power": -1}}, table.version)
    table.name_cards(dev.cy, {cy_uid: plain(5)}, table.version)
    table.name_cards(dev.cy, {cy_uid: plain(6)}, table.version)  # corrected
    assert table.view(dev.ann).allowed.name_cards == [ann_uid]
    assert len(table.game.actions) == 1
    table.name_cards(dev.ann, {ann_uid: {"power": 2}}, table.version)
    assert [a.command.type for a in table.game.actions] == ["choose_withdraw", "reveal"]
    assert {u: c.power for u, c in table.game.actions[-1].command.cards.items()} == {
        ann_uid: 2, cy_uid: 6}
    assert table.game.state.step == "preparation"


def test_the_succubus_club_take_back_is_collected_per_player(tmp_path, dev):
    club = {"name": "Succubus Club", "ability": "succubus_club"}
    table = make_hub(tmp_path).new_table(position(3, {"1": {
        "Ann": ([plain(5)], 5), "Bo": ([plain(3)], 1)}}, location_cards={"1": club}))
    seated(table, dev)
    table.act(dev.ref, {"type": "choose_withdraw", "withdraw": []}, table.version)
    while table.game.state.awaiting is None:
        table.act(dev.ref, {"type": "next_step"}, table.version)
    assert table.view_for(Board()).take_back.most == {0: 3, 1: 1}
    assert table.view(dev.bo).allowed.take_back == {1: 1}
    with unchanged(table), pytest.raises(AccessError, match="not Ann's"):
        table.take_back(dev.bo, 0, 3, table.version)
    with unchanged(table), pytest.raises(InputRefused, match="0 to 1"):
        table.take_back(dev.bo, 1, 2, table.version)
    with unchanged(table), pytest.raises(InputRefused, match="not a number"):
        table.take_back(dev.bo, 1, "1", table.version)
    with unchanged(table), pytest.raises(InputRefused, match="no Blood"):
        table.take_back(dev.cy, 2, 0, table.version)
    with unchanged(table), pytest.raises(AccessError, match="own take-back"):
        table.act(dev.ann, {"type": "take_back_blood", "amounts": {"Ann": 3}}, table.version)
    blood = [p.blood for p in table.game.state.players]
    table.take_back(dev.ann, 0, 3, table.version)
    assert table.view_for(Board()).take_back.entered == {0: 3}
    table.take_back(dev.bo, 1, 1, table.version)
    assert table.game.actions[-1].command.type == "take_back_blood"
    assert [p.blood for p in table.game.state.players][:2] == [blood[0] + 3, blood[1] + 1]


# --- independent inputs, checked at entry ------------------------------------------------------

def test_choices_entered_at_the_same_instant_are_all_accepted(tmp_path, dev):
    """Three phones drawn from the same version choose at once: no refusal as stale."""
    table = withdraw_table(tmp_path, dev)
    drawn = table.version
    table.choose(dev.bo, 1, "stay", drawn)
    table.choose(dev.ann, 0, "stay", drawn)
    table.choose(dev.cy, 2, "withdraw", drawn)
    assert table.view_for(Board()).withdraw.revealed == {0: "stay", 1: "stay", 2: "withdraw"}


def test_choices_from_threads_at_once_are_all_accepted(tmp_path, dev):
    import threading

    table = withdraw_table(tmp_path, dev, loc="haven")
    drawn, start, errors = table.version, threading.Barrier(3), []

    def choose(device, player):
        start.wait()
        try:
            table.choose(device, player, "stay", drawn)
        except Exception as err:  # noqa: BLE001 - collected and asserted below
            errors.append(err)

    threads = [threading.Thread(target=choose, args=(d, p))
               for d, p in ((dev.ann, 0), (dev.bo, 1), (dev.cy, 2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [a.command.type for a in table.game.actions] == ["choose_withdraw"]


def named(uid_id: str, power: int = 3) -> dict:
    """A clan card identity with an id (so it can be a copy of another)."""
    return {"id": uid_id, "power": power, "kind": "conflict"}


def revelation_table(tmp_path, dev):
    """Revelation at Location #1 (everyone stayed): Ann has a face-down card there; Cy has
    NO-HUNT face up and a face-down card."""
    table = make_hub(tmp_path).new_table(position(3, {"1": {
        "Ann": ([DOWN], 0), "Bo": ([plain(3)], 0),
        "Cy": ([named("NO-HUNT"), DOWN], 0)}}, resolution_location="1"))
    seated(table, dev)
    for device, player in ((dev.ann, 0), (dev.bo, 1), (dev.cy, 2)):
        table.choose(device, player, "stay")
    assert table.game.state.step == "revelation"
    return table


def test_a_wrong_naming_is_refused_at_entry_and_never_blocks_the_others(tmp_path, dev):
    table = revelation_table(tmp_path, dev)
    loc = table.game.state.locations[0]
    ann_uid = loc.positions[0].cards[0].uid
    cy_uid = next(c.uid for c in loc.positions[2].cards if not c.face_up)
    # Cy names her face-down card as the card she already has face up: refused now
    with unchanged(table), pytest.raises(InputRefused, match="Cy already has .* face up"):
        table.name_cards(dev.cy, {cy_uid: named("NO-HUNT")})
    table.name_cards(dev.ann, {ann_uid: named("BR-RAGE", 2)})  # Ann's is accepted
    assert len(table.game.actions) == 1
    table.name_cards(dev.cy, {cy_uid: named("NO-PROWL", 1)})  # Cy corrects: all in
    assert [a.command.type for a in table.game.actions] == ["choose_withdraw", "reveal"]


def test_the_referee_clears_a_pending_naming(tmp_path, dev):
    table = revelation_table(tmp_path, dev)
    loc = table.game.state.locations[0]
    cy_uid = next(c.uid for c in loc.positions[2].cards if not c.face_up)
    table.name_cards(dev.cy, {cy_uid: named("NO-PROWL", 1)})
    assert cy_uid in table.view_for(Board()).naming.named
    with unchanged(table), pytest.raises(AccessError, match="only the referee"):
        table.clear_input(dev.ann, 2, table.version)
    table.clear_input(dev.ref, 2, table.version)
    assert cy_uid not in table.view_for(Board()).naming.named
    assert [a.command.type for a in table.game.actions] == ["choose_withdraw"]  # nothing undone
    assert "cleared Cy's entry" in table.view_for(Board()).last_change


def test_the_referee_clears_a_secret_choice_without_seeing_it(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    table.choose(dev.bo, 1, "withdraw")
    table.clear_input(dev.ref, 1, table.version)
    assert table.view(dev.bo).withdraw.mine is None
    assert table.view_for(Board()).withdraw.chosen == 0


def test_a_freed_seat_shows_its_pending_choice_only_with_its_new_code(tmp_path, dev):
    table = withdraw_table(tmp_path, dev)
    table.choose(dev.bo, 1, "withdraw")
    old = table.seat_code(1)
    table.free_seat(dev.ref, 1, table.version)  # Bo's phone is lost
    for code in (old, table.seat_code(0), table.seat_code(2), table.join_code):
        with unchanged(table), pytest.raises(CodeRefused):
            table.claim_seat(dev.thief, 1, code)
    for role in (Board(), Referee(), Seat(player=0)):
        assert table.view_for(role).withdraw.mine is None
        assert "withdraw" not in table.view_for(role).model_dump_json(
            include={"withdraw", "allowed", "prompt", "last_change"}).replace(
            '"withdraw":{', "")
    table.claim_seat(dev.newphone, 1, table.seat_code(1))
    assert table.view(dev.newphone).withdraw.mine == "withdraw"
