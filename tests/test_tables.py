"""tables on one server — versions, joining, rate limits, the hub, notifications."""

import threading

import pytest

from companion.library.session import GameSession
from companion.rules.errors import StaleVersion, TableError
from companion.table.hub import (
    CODE_ALPHABET,
    EPOCH,
    CodeRefused,
    RateLimited,
    TableNotFound,
    new_device_token,
)
from models.table import Board, Referee, Seat
from tests.table_helpers import (
    Clock,
    Devices,
    make_hub,
    plain,
    position,
    record_file,
    seated,
    unchanged,
)


@pytest.fixture
def dev():
    return Devices()


def card_cmd(player, loc="1", power=3):
    return {"type": "play_card", "player": player, "location": loc, "face_up": True,
            "card": plain(power)}


def planning(tmp_path, dev, n=4, clock=None):
    hub = make_hub(tmp_path, clock)
    table = hub.new_table(position(n, phase="planning"))
    seated(table, dev)
    return hub, table


def at_conflict(tmp_path, dev):
    """Everyone stayed at Location 1 with face-up cards; Preparation, nothing due."""
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3, {"1": {"Ann": ([plain(3)], 0), "Bo": ([plain(2)], 0)}}))
    seated(table, dev)
    table.act(dev.ref, {"type": "choose_withdraw", "withdraw": []}, table.version)
    assert table.game.state.step == "preparation"
    return hub, table


# --- the version -------------------------------------------------------------------------------

def test_every_change_grows_the_version(tmp_path, dev):
    _, table = planning(tmp_path, dev)
    seen = [table.version]
    table.act(dev.ann, card_cmd("Ann"), table.version)
    seen.append(table.version)
    table.undo(dev.ref, table.version)
    seen.append(table.version)
    table.redo(dev.ref, table.version)
    seen.append(table.version)
    table.free_seat(dev.ref, 2, table.version)
    seen.append(table.version)
    table.claim_seat(dev.cy, 2, table.seat_code(2))
    seen.append(table.version)
    assert seen == sorted(set(seen))


def test_a_stale_action_is_refused_naming_what_changed(tmp_path, dev):
    _, table = planning(tmp_path, dev)
    drawn = table.version
    table.act(dev.ann, card_cmd("Ann"), drawn)
    with unchanged(table), pytest.raises(StaleVersion) as info:
        table.act(dev.bo, card_cmd("Bo"), drawn)
    assert "the table changed: Ann played a card" in str(info.value)
    with unchanged(table), pytest.raises(StaleVersion):
        table.undo(dev.ref, drawn)
    with unchanged(table), pytest.raises(StaleVersion):
        table.act(dev.bo, card_cmd("Bo"), table.version + 1)  # from the future: refused too
    table.act(dev.bo, card_cmd("Bo"), table.version)


def test_two_devices_sending_next_step_at_once_apply_it_once(tmp_path, dev):
    """Real threads, same version: one is applied, the other is stale; one step moved."""
    _, table = at_conflict(tmp_path, dev)
    table.claim_referee(dev.ref2, table.referee_code)
    drawn, actions = table.version, len(table.game.actions)
    barrier = threading.Barrier(2)
    results = []

    def tap(device):
        barrier.wait()
        try:
            table.act(device, {"type": "next_step"}, drawn)
            results.append("applied")
        except StaleVersion:
            results.append("stale")

    threads = [threading.Thread(target=tap, args=(d,)) for d in (dev.ref, dev.ref2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied", "stale"]
    assert len(table.game.actions) == actions + 1
    assert table.game.state.step == "conflict"


def test_many_racing_taps_apply_exactly_one(tmp_path, dev):
    """Eight taps of a repeatable action drawn from one version: one applies, seven are stale."""
    _, table = planning(tmp_path, dev)
    drawn = table.version
    barrier = threading.Barrier(8)
    results = []
    gain = {"type": "apply_effect", "action": "gain_blood", "player": "Cy", "amount": 1}

    def tap():
        barrier.wait()
        try:
            table.act(dev.ref, gain, drawn)
            results.append("applied")
        except StaleVersion:
            results.append("stale")

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied"] + ["stale"] * 7
    assert len(table.game.actions) == 1 and table.game.state.players[2].blood == 7


def test_versions_are_not_reused_after_a_restart(tmp_path, dev):
    hub, table = planning(tmp_path, dev)
    table.act(dev.ann, card_cmd("Ann"), table.version)
    old = table.version
    hub.store.close()
    again = make_hub(tmp_path).get(table.table_id)
    assert again.version > old and again.version // EPOCH == old // EPOCH + 1
    with pytest.raises(StaleVersion, match="the server restarted"):
        again.act(dev.bo, card_cmd("Bo"), old)
    again.act(dev.bo, card_cmd("Bo"), again.version)


# --- joining -------------------------------------------------------------------------------------

def test_codes_are_short_and_unambiguous(tmp_path):
    table = make_hub(tmp_path).new_table(position(3))
    seats = [table.seat_code(i) for i in range(3)]
    for code in (table.join_code, table.referee_code, table.table_id, *seats):
        assert 4 <= len(code) <= 6 and set(code) <= set(CODE_ALPHABET)
    assert not set("0O1IL2Z5S8B") & set(CODE_ALPHABET)
    assert len({table.join_code, table.referee_code, *seats}) == 5  # every code its own


def test_a_device_that_has_not_joined_sees_only_the_lobby(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3, phase="planning"))
    table.claim_seat(dev.ann, 0, table.seat_code(0))
    lobby = table.lobby()
    assert [(s.name, s.taken) for s in lobby.seats] == [("Ann", True), ("Bo", False),
                                                        ("Cy", False)]
    text = lobby.model_dump_json()
    assert "blood" not in text and table.join_code not in text
    assert not any(table.seat_code(i) in text for i in range(3))
    assert table._record.seats[0] not in text  # noqa: SLF001 - no device token hash
    assert not lobby.allow_viewers


def test_claiming_a_seat_needs_that_seats_own_code(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3))
    with unchanged(table), pytest.raises(CodeRefused, match="wrong code for Ann's seat"):
        table.claim_seat(dev.ann, 0, "WRONG")
    for other in (table.referee_code, table.join_code, table.seat_code(1), table.seat_code(2)):
        with unchanged(table), pytest.raises(CodeRefused):
            table.claim_seat(dev.ann, 0, other)  # another seat's (or role's) code is no key
    assert table.role_of(dev.ann) is None
    assert table.claim_seat(dev.ann, 0, f" {table.seat_code(0).lower()} ") == Seat(player=0)
    assert table.role_of(dev.ann) == Seat(player=0)
    assert [s.taken for s in table.view(dev.ann).seats] == [True, False, False]


def test_one_device_per_seat_until_the_referee_frees_it(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3))
    table.claim_referee(dev.ref, table.referee_code)
    table.claim_seat(dev.ann, 0, table.seat_code(0))
    with unchanged(table), pytest.raises(TableError, match="held by another device"):
        table.claim_seat(dev.thief, 0, table.seat_code(0))
    v = table.version
    table.claim_seat(dev.ann, 0, table.seat_code(0))  # the same device again: fine, no change
    assert table.version == v
    with unchanged(table), pytest.raises(ValueError, match="only the referee"):
        table.free_seat(dev.ann, 0, table.version)
    old = table.seat_code(0)
    table.free_seat(dev.ref, 0, table.version)
    assert table.role_of(dev.ann) is None
    assert table.seat_code(0) != old  # a freed seat gets a new code: the old one opens nothing
    with pytest.raises(CodeRefused):
        table.claim_seat(dev.thief, 0, old)
    table.claim_seat(dev.newphone, 0, table.seat_code(0))
    assert table.role_of(dev.newphone) == Seat(player=0)


def test_a_device_holds_one_role(tmp_path, dev):
    table = make_hub(tmp_path).new_table(position(3))
    table.claim_seat(dev.ann, 0, table.seat_code(0))
    table.claim_seat(dev.ann, 1, table.seat_code(1))  # moved to another seat: the first is free
    assert [s.taken for s in table.view_for(Board()).seats] == [False, True, False]
    table.claim_referee(dev.ann, table.referee_code)
    assert table.role_of(dev.ann) == Referee()
    assert not any(s.taken for s in table.view_for(Board()).seats)
    table.leave(dev.ann)
    assert table.role_of(dev.ann) is None


def test_referee_code_or_host_key(tmp_path, dev):
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3))
    with pytest.raises(CodeRefused):
        table.claim_referee(dev.a, table.join_code)
    assert table.claim_referee(dev.a, table.referee_code) == Referee()
    assert table.claim_referee(dev.host, hub.host_key) == Referee()
    assert hub.is_host(hub.host_key) and not hub.is_host("guess")


def test_the_board_needs_a_code_unless_viewers_are_allowed(tmp_path, dev):
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3))
    table.claim_referee(dev.ref, table.referee_code)
    with pytest.raises(CodeRefused, match="type the code for the board first"):
        table.join_board(dev.tablet)  # no code typed: not counted as a wrong try
    for _ in range(10):
        with pytest.raises(CodeRefused, match="type the code"):
            table.join_board(dev.tablet, " ")
    assert table.join_board(dev.tablet, table.join_code) == Board()
    table.set_allow_viewers(dev.ref, True, table.version)
    assert table.join_board(dev.viewer) == Board()
    open_table = hub.new_table(position(3), allow_viewers=True)
    assert open_table.join_board(dev.other) == Board()


def test_device_tokens_are_checked(tmp_path):
    table = make_hub(tmp_path).new_table(position(3))
    for bad in ("short", "x" * 200, "has spaces in it ....", 42):
        with pytest.raises(TableError, match="not a device token"):
            table.claim_seat(bad, 0, table.seat_code(0))
    assert len(new_device_token()) >= 16


# --- rate limiting -------------------------------------------------------------------------------

def test_wrong_codes_lock_the_device_out_for_longer_and_longer(tmp_path, dev):
    clock = Clock()
    table = make_hub(tmp_path, clock).new_table(position(3))
    for _ in range(5):
        with pytest.raises(CodeRefused, match="wrong code"):
            table.claim_seat(dev.guess, 0, "AAAAA")
    with pytest.raises(CodeRefused, match="wrong code"):
        table.claim_seat(dev.guess, 0, "AAAAA")  # the 6th: counted, then locked 2 s
    with pytest.raises(RateLimited) as info:
        table.claim_seat(dev.guess, 0, table.seat_code(0))  # even the right code, while locked
    assert info.value.seconds == pytest.approx(2)
    table.claim_seat(dev.other, 0, table.seat_code(0))  # another device is not locked
    clock.now += 2.5
    with pytest.raises(CodeRefused):
        table.claim_seat(dev.guess, 1, "AAAAA")  # the 7th: locked 4 s
    clock.now += 3
    with pytest.raises(RateLimited):
        table.claim_seat(dev.guess, 1, table.seat_code(1))
    clock.now += 1.5
    assert table.claim_seat(dev.guess, 1, table.seat_code(1)) == Seat(player=1)


def test_wrong_codes_lock_the_client_address_across_device_tokens(tmp_path):
    clock = Clock()
    table = make_hub(tmp_path, clock).new_table(position(3))
    for _ in range(6):
        with pytest.raises(CodeRefused):
            table.claim_seat(new_device_token(), 0, "AAAAA", client="10.0.0.9")
    with pytest.raises(RateLimited):
        table.claim_seat(new_device_token(), 0, table.seat_code(0), client="10.0.0.9")
    table.claim_seat(new_device_token(), 0, table.seat_code(0), client="10.0.0.10")


def test_wrong_codes_from_many_devices_never_lock_out_the_others(tmp_path):
    clock = Clock()
    hub = make_hub(tmp_path, clock)
    table = hub.new_table(position(3))
    for i in range(40):  # a guesser on many addresses
        with pytest.raises(CodeRefused):
            table.claim_seat(new_device_token(), 0, "AAAAA", client=f"10.0.1.{i}")
    # a player at the table, on an address of their own, joins at once
    assert table.claim_seat(new_device_token(), 0, table.seat_code(0),
                            client="10.0.2.1") == Seat(player=0)


def test_a_right_code_clears_the_wrong_tries(tmp_path, dev):
    clock = Clock()
    table = make_hub(tmp_path, clock).new_table(position(3))
    for _ in range(5):  # typos, not yet locked
        with pytest.raises(CodeRefused):
            table.claim_seat(dev.typo, 0, "AAAAA", client="10.0.0.5")
    table.claim_seat(dev.typo, 0, table.seat_code(0), client="10.0.0.5")
    table.leave(dev.typo)
    for _ in range(5):  # counted from nothing again: five more typos lock nothing
        with pytest.raises(CodeRefused, match="wrong code"):
            table.claim_seat(dev.typo, 1, "AAAAA", client="10.0.0.5")
    assert table.claim_seat(dev.typo, 1, table.seat_code(1), client="10.0.0.5") == Seat(player=1)


def test_failures_are_forgotten_after_a_quiet_hour(tmp_path, dev):
    clock = Clock()
    table = make_hub(tmp_path, clock).new_table(position(3))
    for _ in range(5):
        with pytest.raises(CodeRefused):
            table.claim_seat(dev.typo, 0, "AAAAA")
    clock.now += 3601
    with pytest.raises(CodeRefused, match="wrong code"):
        table.claim_seat(dev.typo, 0, "AAAAA")  # counted as the first again: no lock
    table.claim_seat(dev.typo, 0, table.seat_code(0))


# --- the hub -------------------------------------------------------------------------------------

def test_a_game_open_at_a_table_is_joined_not_forked(tmp_path, dev):
    hub = make_hub(tmp_path)
    table = hub.new_table(position(3, phase="planning"))
    assert hub.open_table(table.game_id) is table
    assert hub.get(table.table_id) is table
    hub.store.close()
    again = make_hub(tmp_path)
    reopened = again.open_table(table.game_id)
    assert (reopened.table_id, reopened.join_code) == (table.table_id, table.join_code)
    assert again.get(table.table_id) is reopened


def test_a_stored_game_opens_a_new_table(tmp_path, dev):
    hub = make_hub(tmp_path)
    game = GameSession(hub.store).new_game(position(3, phase="planning"))  # e.g. from the history
    table = hub.open_table(game.header.game_id)
    assert table.game.state.model_dump() == game.state.model_dump()
    assert hub.table_ids() == {table.table_id: game.header.game_id}
    with pytest.raises(KeyError):
        hub.open_table("nosuchgame")
    with pytest.raises(TableNotFound):
        hub.get("NOSUCH")


def test_two_tables_on_one_hub_do_not_interfere(tmp_path, dev):
    hub = make_hub(tmp_path)
    a = hub.new_table(position(3, phase="planning"))
    b = hub.new_table(position(3, phase="planning"))
    assert a.table_id != b.table_id and a.game_id != b.game_id
    heard_b = []
    b.subscribe(heard_b.append)
    a.claim_seat(dev.ann, 0, a.seat_code(0))
    b_before = (b.version, b.game.state.model_dump())
    a.act(dev.ann, card_cmd("Ann"), a.version)
    assert (b.version, b.game.state.model_dump()) == b_before and heard_b == []
    with pytest.raises(TableError, match="has not joined"):
        b.act(dev.ann, card_cmd("Ann"), b.version)  # a seat at one table is nothing at another
    with pytest.raises(CodeRefused):
        b.claim_seat(dev.ann, 0, a.seat_code(0))
    hub.store.close()
    again = make_hub(tmp_path)
    assert len(again.get(a.table_id).game.actions) == 1
    assert len(again.get(b.table_id).game.actions) == 0


def test_closing_a_table_keeps_the_game(tmp_path, dev):
    hub, table = planning(tmp_path, dev)
    heard = []
    table.subscribe(heard.append)
    path = record_file(table)
    hub.close(table.table_id)
    assert heard and not path.exists() and table.closed
    with pytest.raises(TableNotFound):
        hub.get(table.table_id)
    with pytest.raises(TableNotFound):
        table.act(dev.ann, card_cmd("Ann"), table.version)
    assert hub.library.load_game(table.game_id).header.game_id == table.game_id


def test_a_read_only_store_writes_no_table(tmp_path, dev):
    hub, table = planning(tmp_path, dev)
    before = record_file(table).read_bytes()
    hub.store.read_only = True  # as when another process owns the data folder
    with unchanged(table), pytest.raises(OSError, match="read-only"):
        table.free_seat(dev.ref, 0, table.version)
    assert record_file(table).read_bytes() == before and table.role_of(dev.ann) == Seat(player=0)


def test_a_damaged_table_file_is_moved_aside(tmp_path, dev):
    hub, table = planning(tmp_path, dev)
    hub.store.close()
    record_file(table).write_text("{not json")
    again = make_hub(tmp_path)
    assert again.table_ids() == {}
    assert list((tmp_path / "tables").glob("*.damaged-*"))
    assert again.open_table(table.game_id).game_id == table.game_id  # the game is intact


# --- change notification -------------------------------------------------------------------------

def test_listeners_hear_every_change_and_a_broken_one_breaks_nothing(tmp_path, dev):
    _, table = planning(tmp_path, dev)
    heard, after = [], []

    def broken(version):
        raise RuntimeError("a view that crashed")

    table.subscribe(heard.append)
    table.subscribe(broken)
    stop = table.subscribe(after.append)
    table.act(dev.ann, card_cmd("Ann"), table.version)
    table.free_seat(dev.ref, 3, table.version)
    assert heard == after == [table.version - 1, table.version]
    stop()
    table.undo(dev.ref, table.version)
    assert len(after) == 2 and heard[-1] == table.version


def test_listeners_run_outside_the_lock(tmp_path, dev):
    """A listener may read the table (as a view re-rendering does) from another thread."""
    _, table = planning(tmp_path, dev)
    seen = []

    def render(version):
        t = threading.Thread(target=lambda: seen.append(table.view(dev.board).version))
        t.start()
        t.join(timeout=5)

    table.subscribe(render)
    table.act(dev.ann, card_cmd("Ann"), table.version)
    assert seen == [table.version]
