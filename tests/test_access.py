"""who may do what at a table — from the engine's legal actions plus the role.

Every refusal must name the role and the reason and leave the game, its journal, the table
record and the version exactly as they were.
"""

import pytest

from companion.rules.errors import AccessError, RuleError
from models.setup import GameSetup
from models.table import Board, Referee, Seat
from tests.table_helpers import (
    DOWN,
    Devices,
    ally,
    make_hub,
    plain,
    position,
    seated,
    unchanged,
)


@pytest.fixture
def dev():
    return Devices()


def planning_table(tmp_path, dev, **kw):
    table = make_hub(tmp_path).new_table(position(4, phase="planning", **kw))
    seated(table, dev)
    return table


def card_cmd(player, loc="1", power=3):
    return {"type": "play_card", "player": player, "location": loc, "face_up": True,
            "card": plain(power)}


def refused(table, device, command, *fragments):
    """The command is refused for the device's role, naming it, and nothing changes."""
    with unchanged(table), pytest.raises(AccessError) as info:
        table.act(device, command, table.version)
    for f in fragments:
        assert f in str(info.value), str(info.value)
    return info.value


# --- Planning ----------------------------------------------------------------------------------

def test_a_seat_plays_its_own_planning_turn(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    assert table.game.legal().actor == 0
    table.act(dev.ann, card_cmd("Ann"), table.version)
    assert table.game.state.locations[0].positions[0].cards[0].card.power == 3
    assert table.game.legal().actor == 1


def test_a_seat_acting_out_of_turn_is_refused(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    err = refused(table, dev.bo, card_cmd("Bo"), "Bo's seat", "not your turn",
                  "Ann's turn")
    assert err.role == "Bo's seat"
    refused(table, dev.bo, {"type": "drain", "player": "Bo", "card": "x"}, "not your turn")


def test_a_seat_acting_for_another_player_is_refused(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    refused(table, dev.bo, card_cmd("Ann"), "Bo's seat", "not for Ann")
    refused(table, dev.bo, card_cmd(0), "not for Ann")  # by seat index too
    refused(table, dev.cy, {"type": "pass_turn", "player": "Ann"}, "Cy's seat", "not for Ann")


@pytest.mark.parametrize("command", [
    card_cmd("Ann"), {"type": "next_step"}, {"type": "feed"},
    {"type": "apply_effect", "action": "gain_blood", "player": "Ann", "amount": 1},
    {"type": "use_relic", "player": "Ann"},
])
def test_the_board_can_do_nothing(tmp_path, dev, command):
    table = planning_table(tmp_path, dev)
    refused(table, dev.board, command, "the board", "read-only")


@pytest.mark.parametrize("command", [
    {"type": "next_step"}, {"type": "feed"}, {"type": "finish_hand_building"},
    {"type": "apply_effect", "action": "gain_blood", "player": "Ann", "amount": 1},
])
def test_referee_only_commands_are_refused_to_a_seat(tmp_path, dev, command):
    table = planning_table(tmp_path, dev)
    refused(table, dev.ann, command, "Ann's seat", "only the referee")


def test_the_referee_acts_for_anyone(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    table.act(dev.ref, card_cmd("Ann"), table.version)
    table.act(dev.ref, {"type": "apply_effect", "action": "gain_blood", "player": "Cy",
                        "amount": 2}, table.version)
    assert table.game.state.players[2].blood == 8
    table.act(dev.ref, card_cmd("Bo", "2"), table.version)
    assert [len(loc.positions[1].cards) for loc in table.game.state.locations][:2] == [0, 1]


def test_the_engine_still_judges_what_a_role_may_send(tmp_path, dev):
    """The role allows Ann's turn; the rules refuse 4 Blood (§7): refused whole."""
    table = planning_table(tmp_path, dev)
    with unchanged(table), pytest.raises(RuleError, match="§7"):
        table.act(dev.ann, {**card_cmd("Ann"), "blood": 4}, table.version)


def test_undo_and_redo_are_the_referees_alone(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    table.act(dev.ann, card_cmd("Ann"), table.version)
    for device in (dev.ann, dev.bo, dev.board):
        with unchanged(table), pytest.raises(AccessError, match="only the referee"):
            table.undo(device, table.version)
    table.undo(dev.ref, table.version)
    assert not table.game.actions
    with unchanged(table), pytest.raises(AccessError, match="only the referee"):
        table.redo(dev.ann, table.version)
    table.redo(dev.ref, table.version)
    assert len(table.game.actions) == 1


def test_a_device_without_a_role_can_do_nothing(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    with unchanged(table), pytest.raises(ValueError, match="has not joined"):
        table.act(dev.stranger, card_cmd("Ann"), table.version)
    with pytest.raises(ValueError, match="has not joined"):
        table.view(dev.stranger)


# --- setup, Relics, peeking ----------------------------------------------------------------------

def test_a_seat_picks_its_own_clan_in_turn(tmp_path, dev):
    hub = make_hub(tmp_path)
    table = hub.new_table(GameSetup.model_validate(
        {"players": [{"name": n} for n in ("Ann", "Bo", "Cy")], "seed": 1}))
    seated(table, dev)
    refused(table, dev.ann, {"type": "set_first_player", "player": "Ann"}, "only the referee")
    table.act(dev.ref, {"type": "set_first_player", "player": "Bo"}, table.version)
    refused(table, dev.ann, {"type": "pick_clan", "player": "Ann", "clan": "Brujah"},
            "not your turn", "Bo's turn")
    refused(table, dev.ann, {"type": "pick_clan", "player": "Bo", "clan": "Brujah"},
            "not for Bo")
    table.act(dev.bo, {"type": "pick_clan", "player": "Bo", "clan": "Brujah"}, table.version)
    assert table.game.state.players[1].clan == "Brujah"


def test_a_seat_uses_its_own_relic_only(tmp_path, dev):
    relic = {"name": "Some relic", "influence": 1}
    table = planning_table(tmp_path, dev, players=[{"relic": relic} for _ in range(4)])
    refused(table, dev.bo, {"type": "use_relic", "player": "Ann"}, "not for Ann")
    assert "use_relic" in table.allowed(Seat(player=1)).commands  # any time: no automation
    table.act(dev.bo, {"type": "use_relic", "player": "Bo"}, table.version)
    assert table.game.state.players[1].relic_used
    assert "use_relic" not in table.allowed(Seat(player=1)).commands


def test_only_the_peeker_peeks_for_itself(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(
        3, {"1": {"Bo": ([DOWN], 0)}}, phase="planning",
        players=[{"alliance": [{"card": ally("peek_face_down")}]}, {}, {}]))
    seated(table, dev)
    uid = table.game.state.locations[0].positions[1].cards[0].uid
    assert table.allowed(Seat(player=0)).commands.count("peek") == 1
    assert "peek" not in table.allowed(Seat(player=2)).commands
    refused(table, dev.cy, {"type": "peek", "player": "Ann", "cards": [uid]}, "not for Ann")
    table.act(dev.ann, {"type": "peek", "player": "Ann", "cards": [uid]}, table.version)
    assert table.game.state.players[0].blood == 5


# --- due effects ---------------------------------------------------------------------------------

def effect_table(tmp_path, dev):
    """Preparation at Location 1 with Ann's BR07 due (steal 1 Blood from each Rival)."""
    table = make_hub(tmp_path).new_table(position(3, {"1": {
        "Ann": ([plain(3, "preparation", effect="BR07")], 0), "Bo": ([plain(2)], 0)}}))
    seated(table, dev)
    table.act(dev.ref, {"type": "choose_withdraw", "withdraw": []}, table.version)
    assert table.game.state.step == "preparation"
    return table, table.game.legal().next_due[0]


def test_a_seat_resolves_only_its_own_due_effect(tmp_path, dev):
    table, uid = effect_table(tmp_path, dev)
    refused(table, dev.bo, {"type": "resolve_effect", "card": uid}, "Bo's seat",
            "Ann's effect")
    refused(table, dev.ann, {"type": "next_step"}, "only the referee")
    assert table.allowed(Seat(player=0)).commands == ["resolve_effect"]
    assert table.allowed(Seat(player=1)).commands == []
    table.act(dev.ann, {"type": "resolve_effect", "card": uid}, table.version)
    assert [p.blood for p in table.game.state.players] == [7, 5, 6]


def test_the_referee_resolves_an_effect_for_its_owner(tmp_path, dev):
    table, uid = effect_table(tmp_path, dev)
    table.act(dev.ref, {"type": "resolve_effect", "card": uid}, table.version)
    assert table.game.state.players[0].blood == 7


def test_collected_commands_are_not_sent_by_a_seat(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3, {"1": {"Ann": ([DOWN], 0),
                                                             "Bo": ([plain(2)], 0)}}))
    seated(table, dev)
    refused(table, dev.ann, {"type": "choose_withdraw", "withdraw": []}, "secretly")


# --- what each role may do now -------------------------------------------------------------------

def test_allowed_lists_follow_the_turn(tmp_path, dev):
    table = planning_table(tmp_path, dev)
    ann, bo = table.allowed(Seat(player=0)), table.allowed(Seat(player=1))
    assert ann.commands == ["play_card", "drain"] and ann.prompt.startswith("Your Planning turn")
    assert bo.commands == [] and bo.prompt == "Nothing to do now."
    board = table.allowed(Board())
    assert board.commands == [] and not board.undo and not board.manage_seats
    ref = table.allowed(Referee())
    assert ref.commands == table.game.legal().commands and ref.manage_seats and not ref.undo
    table.act(dev.ann, card_cmd("Ann"), table.version)
    assert table.allowed(Referee()).undo
    assert table.allowed(Seat(player=1)).commands == ["play_card", "drain"]
    assert table.view(dev.bo).allowed.commands == ["play_card", "drain"]
    assert table.allowed(Seat(player=0)).commands == []
