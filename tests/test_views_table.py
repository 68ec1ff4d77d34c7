"""Table mode through the app factory: each session is a device with a role; roles
see the right screens, a seat's buttons are what `companion.table.access` allows, live sync redraws
every device, stale taps are refused, and no secret choice reaches another device's tree."""

import re
from pathlib import Path

import pytest

from companion.table.hub import TableHub
from models.table import Board, Referee, Seat
from tests.fake_page import FakePage
from tests.table_helpers import make_hub, plain, position
from tests.ui import click, find, has, ids, texts, type_in, value, walk
from views.app import create_app
from views.state import AppState


def device(hub: TableHub, address: str = "/") -> AppState:
    """A new device (one Flet session) opening `address`."""
    page = FakePage(address)
    create_app(hub)(page)  # type: ignore[arg-type]
    app = page.data
    assert isinstance(app, AppState)
    app.seen_after = 0  # a test taps at once; the pushed-screen grace has its own test
    return app


def host(hub: TableHub, address: str = "/") -> AppState:
    sep = "&" if "?" in address else "?"
    return device(hub, f"{address}{sep}key={hub.host_key}")


def seat(hub: TableHub, table_id: str, player: int, code: str) -> AppState:
    """A phone that opened the join address and claimed a seat."""
    phone = device(hub, f"/join/{table_id}")
    click(phone.root, f"pick-{player}")
    type_in(phone.root, "seat-code", code)
    click(phone.root, "claim-seat")
    assert phone.error is None, phone.error
    return phone


@pytest.fixture
def hub(tmp_path: Path) -> TableHub:
    return make_hub(tmp_path)


def at_table(hub: TableHub, start, n_seats: int = 3):
    """The host referees a new table; `n_seats` phones claim the first seats; a board."""
    ref = host(hub)
    assert ref.new_game(start)
    ref.go("game")
    table = ref.table
    assert table is not None
    phones = [seat(hub, table.table_id, i, table.seat_code(i)) for i in range(n_seats)]
    board = device(hub, f"/join/{table.table_id}")
    type_in(board.root, "board-code", table.join_code)
    click(board.root, "join-board")
    return ref, phones, board, table


def all_text(app: AppState) -> str:
    """Every text and button label on screen."""
    labels = [c.content for c in walk(app.root) if isinstance(getattr(c, "content", None), str)]
    return " | ".join(texts(app.root) + labels)


# --- who sees what ---------------------------------------------------------------------------

def test_a_device_without_host_key_or_code_sees_only_the_join_screen(hub) -> None:
    ref = host(hub)
    ref.new_game(position(3, phase="planning"))
    for address in ("/", "/stats", "/new", "/cards", "/game", f"/review/{ref.table.game_id}",
                    "/host", "/quick"):
        phone = device(hub, address)
        assert phone.screen == "join" and not phone.host, address
        assert not has(phone.root, "new-game") and not has(phone.root, "stats")
        assert "Ann" not in all_text(phone)  # nothing of the game, not even the names
    wrong = device(hub, "/?key=not-the-key")
    assert wrong.screen == "join" and not wrong.host
    assert host(hub).screen == "home"


def test_the_join_screen_shows_names_only_and_refuses_wrong_codes(hub) -> None:
    ref = host(hub)
    ref.new_game(position(3, phase="planning"))
    table = ref.table
    phone = device(hub, f"/join/{table.table_id}")
    shown = all_text(phone)
    assert "Ann" in shown and "Blood" not in shown and table.join_code not in shown
    click(phone.root, "pick-0")
    type_in(phone.root, "seat-code", "WRONG")
    for _ in range(6):  # 5 free tries, then each wrong code locks the device a while
        click(phone.root, "claim-seat")
        assert "wrong code" in (phone.error or "")
    click(phone.root, "claim-seat")
    assert "too many wrong codes" in (phone.error or "")
    assert phone.role is None and table.lobby().seats[0].taken is False


def test_roles_get_their_screens(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    assert isinstance(ref.role, Referee) and has(ref.root, "undo")
    assert isinstance(phones[0].role, Seat) and has(phones[0].root, "seat-state")
    assert isinstance(board.role, Board) and has(board.root, "board-prompt")
    for app in (*phones, board):
        assert not has(app.root, "undo") and not has(app.root, "redo")
        app.open_address("/game/log")  # the referee's screens stay the referee's
        assert app.screen == "game"
    click(ref.root, "to-host")
    shown = all_text(ref)  # a screen turned to the table: no code until asked for
    assert not any(code in shown.replace(" ", "") for code in (
        table.join_code, table.referee_code, *(table.seat_code(i) for i in range(3))))
    click(ref.root, "show-board-code")
    assert value(ref.root, "join-code") == " ".join(table.join_code)
    click(ref.root, "show-referee-code")  # one at a time
    assert not has(ref.root, "join-code")
    assert value(ref.root, "referee-code") == " ".join(table.referee_code)
    assert value(ref.root, "seat-0") == "on a phone"
    assert not has(ref.root, "show-code-0")  # a held seat's code is not shown
    click(ref.root, "free-0")  # asks first
    assert ref.question is not None and table.role_of(phones[0].device) is not None
    ref.answer(True)
    assert table.role_of(phones[0].device) is None
    assert value(ref.root, "seat-code-0") == " ".join(table.seat_code(0))  # the new code


ACTION_IDS = ("play", "pass", "loc-pick", "face-", "blood-", "drain-", "relic-use", "peek-",
              "due-", "choose-", "name-", "take-", "undo", "redo", "continue", "free-")


def action_ids(app: AppState) -> set[str]:
    return {i for i in ids(app.root) if i.startswith(ACTION_IDS)}


def test_a_seat_has_exactly_the_buttons_its_role_allows(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann, bo, _ = phones
    assert set(table.allowed(Seat(player=0)).commands) == {"play_card", "drain"}
    assert any(i.startswith("drain-") for i in action_ids(ann))
    assert has(ann.root, "play") and value(ann.root, "seat-state").startswith("Your turn")
    assert table.allowed(Seat(player=1)).commands == []
    assert action_ids(bo) == set() and value(bo.root, "seat-state") == "Nothing to do now"
    assert action_ids(board) == set()
    assert {"undo", "redo"} <= action_ids(ref)


def test_a_play_on_one_phone_redraws_every_device(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann, bo, cy = phones
    before = board.renders
    click(ann.root, "loc-pick-1")
    click(ann.root, "face-down")
    click(ann.root, "play-1")  # Play with 1 Blood
    assert ann.error is None, ann.error
    assert table.game.state.players[0].blood == 4  # 1 Blood to the Position + 1 face down
    for app in (ref, bo, cy, board):
        assert app.version == table.version
    assert board.renders > before
    assert value(board.root, "board-blood-0") == "4"
    assert value(board.root, "board-power-1-0") == "1"  # the face-down card counts 0
    assert bo.cue and value(bo.root, "seat-state") == "Your turn!"  # Bo's turn: a visible cue
    assert value(ann.root, "seat-state") == "Nothing to do now"


def test_a_phone_acting_out_of_turn_or_stale_is_refused(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann, bo, _ = phones
    bo.play({"type": "play_card", "player": 1, "location": "1", "face_up": False})
    assert "not your turn" in (bo.error or "")
    drawn = ann.version
    table.free_seat(ref.device, 2, table.version)  # any change: Ann's drawn version is old
    ann.version = drawn
    ann.play({"type": "play_card", "player": 0, "location": "1", "face_up": False})
    assert "the table changed" in (ann.error or "")
    assert ann.version == table.version  # drawn again: the next tap carries the new version
    assert table.game.state.players[0].blood == 6


def test_a_freed_seat_sends_the_phone_back_to_the_join_screen(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ref.go("host")
    click(ref.root, "free-1")
    ref.answer(True)  # confirmed
    assert ref.error is None and value(ref.root, "seat-1").startswith("free")
    assert has(phones[1].root, "claim-seat") and phones[1].role is None
    assert "no longer holds Bo's seat: the referee freed it" in (phones[1].error or "")
    assert has(phones[1].root, "error")  # said on the join screen, not a silent fall back


# --- the secret Stay/Withdraw ----------------------------------------------------------------

WITHDRAW = {"1": {"Ann": ([plain(3)], 1), "Bo": ([plain(2)], 0), "Cy": ([plain(1)], 0)}}


def trees_after(tmp_path: Path, choices: dict[int, str]) -> dict[str, list[str]]:
    """Every device's texts and ids after these players chose (a fresh table)."""
    hub = make_hub(tmp_path)
    ref, phones, board, table = at_table(hub, position(3, WITHDRAW))
    for p, c in choices.items():
        click(phones[p].root, f"choose-{c}-{p}")
        assert phones[p].error is None, phones[p].error
    def public(app: AppState) -> str:  # the same words whatever was chosen, bar the clock
        text = all_text(app).replace(table.table_id, "T")
        return re.sub(r"Played [^|]*\|", "Played (time) |", text)

    return {name: [public(app)] + ids(app.root)
            + [str(_props(app))]
            for name, app in (("ref", ref), ("ann", phones[0]), ("bo", phones[1]),
                              ("cy", phones[2]), ("board", board))}


def _props(app: AppState) -> list:
    """Selected state of every button (a chosen token would show as selected)."""
    return [getattr(c, "style", None) and str(c.style.bgcolor) for c in walk(app.root)]


def test_after_two_of_three_choices_no_other_device_shows_any(tmp_path: Path) -> None:
    a = trees_after(tmp_path / "a", {0: "stay", 1: "withdraw"})
    b = trees_after(tmp_path / "b", {0: "withdraw", 1: "stay"})
    for name in ("ref", "cy", "board"):
        assert a[name] == b[name], name  # the same tree whatever was chosen
    assert "2 of 3 have chosen" in a["board"][0] and "2 of 3 have chosen" in a["ref"][0]
    assert a["ann"] != b["ann"]  # only Ann's own screen shows Ann's token


def test_the_last_choice_reveals_all_together(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, WITHDRAW))
    click(phones[0].root, "choose-withdraw-0")
    click(phones[1].root, "choose-stay-1")
    assert not any(i.startswith("board-revealed") for i in ids(board.root))
    click(phones[2].root, "choose-stay-2")
    assert table.game.state.step != "withdraw"  # one choose_withdraw was played
    assert value(board.root, "board-prompt")
    assert table.game.state.locations[0].positions[0].cards == []  # Ann withdrew
    for app in (ref, *phones, board):  # every device says so, the last chooser's too
        assert "Ann withdraws" in all_text(app), all_text(app)


def test_the_referee_enters_choices_only_for_players_without_a_phone(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, WITHDRAW), n_seats=2)
    shown = ids(ref.root)
    assert "choose-stay-2" in shown and "choose-stay-0" not in shown
    assert "withdraw-ok" not in shown  # no one-tap form over the players' own choices
    click(ref.root, "choose-stay-2")
    assert value(board.root, "board-chosen") == "1 of 3 have chosen Stay or Withdraw"


def name_card(app: AppState, uid: str, power: int) -> None:
    """Name a face-down card on this device: its first offered identity (an unknown Power
    is tapped as `power`), then confirm; nothing refused."""
    entry = next(i for i in ids(app.root) if i.startswith(f"name-{uid}-"))
    click(app.root, entry)
    if has(app.root, f"name-{uid}-power-{power}"):
        click(app.root, f"name-{uid}-power-{power}")
    click(app.root, "name-ok")
    assert app.error is None, app.error


def test_withdrawn_face_down_cards_are_named_by_their_owner(hub) -> None:
    start = position(3, {"1": {"Ann": ([{"face_up": False}], 0), "Bo": ([plain(2)], 0),
                               "Cy": ([plain(1)], 0)}})
    ref, phones, board, table = at_table(hub, start)
    for p, c in ((0, "withdraw"), (1, "stay"), (2, "stay")):
        click(phones[p].root, f"choose-{c}-{p}")
    ann = phones[0]
    assert value(ann.root, "seat-state").startswith("Name your face-down card")
    assert not any(i.startswith("name-") and i != "name-ok" for i in ids(phones[1].root))
    uid = table.game.legal().face_down[0][0]
    name_card(ann, uid, 3)
    assert table.game.state.step != "withdraw"


def test_undo_is_the_referees_alone(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann = phones[0]
    click(ann.root, "loc-pick-1")
    click(ann.root, "face-down")
    click(ann.root, "play")
    assert len(table.game.actions) == 1
    click(ref.root, "undo")
    assert len(table.game.actions) == 0 and ref.error is None
    assert value(ann.root, "seat-state").startswith("Your turn")


def test_the_succubus_take_back_is_entered_on_each_phone(hub) -> None:
    club = {"name": "Succubus Club", "ability": "succubus_club"}
    start = position(3, {"1": {"Ann": ([plain(5)], 5), "Bo": ([plain(3)], 1)}},
                     location_cards={"1": club})
    ref, phones, board, table = at_table(hub, start, n_seats=1)  # Bo has no phone
    click(phones[0].root, "choose-stay-0")
    click(ref.root, "choose-stay-1")  # Cy is not at Location 1: all are in
    for _ in range(6):
        if table.game.state.awaiting:
            break
        click(ref.root, "continue")
    ann = phones[0]
    assert value(ann.root, "seat-state").startswith("Take Blood back?")
    assert {i for i in ids(ann.root) if i.startswith("take-")} == {"take-0-0", "take-0-1",
                                                                   "take-0-2", "take-0-3",
                                                                   "take-back"}
    assert not any(i.startswith("take-0-") for i in ids(ref.root))  # Ann says it herself
    assert has(ref.root, "take-1-1")  # the referee enters Bo's (no phone)
    click(ann.root, "take-0-3")
    assert value(board.root, "board-prompt")
    click(ref.root, "take-1-0")
    assert table.game.actions[-1].command.type == "take_back_blood"
    assert table.game.state.players[0].blood == 6 + 3


def test_the_referee_names_a_phoneless_players_card_at_revelation(hub) -> None:
    start = position(3, {"1": {"Ann": ([{"face_up": False}], 0),
                               "Cy": ([{"face_up": False}], 0)}})
    ref, phones, board, table = at_table(hub, start, n_seats=1)  # only Ann has a phone
    click(phones[0].root, "choose-stay-0")
    click(ref.root, "choose-stay-2")
    assert table.game.state.step == "revelation"
    cy_uid = table.game.legal().face_down[2][0]
    ann_uid = table.game.legal().face_down[0][0]
    assert not any(i.startswith(f"name-{cy_uid}") for i in ids(phones[0].root))
    for app, uid in ((ref, cy_uid), (phones[0], ann_uid)):
        name_card(app, uid, 4)
    assert [a.command.type for a in table.game.actions] == ["choose_withdraw", "reveal"]


def test_opening_a_game_joins_its_table_and_never_moves_another_device(hub) -> None:
    first = host(hub)
    first.new_game(position(3, phase="planning"))
    first.go("game")
    other_game = hub.new_table(position(4, phase="planning")).game_id
    hub.close(next(t for t, g in hub.table_ids().items() if g == other_game))
    second = host(hub)
    second.open_game(first.table.game_id)
    assert second.table is first.table  # joined, not forked
    third = host(hub)
    third.open_game(other_game)
    assert third.table is not first.table and first.table.game_id != other_game
    assert first.screen == "game" and first.game.header.game_id == first.table.game_id


def test_a_tap_right_after_a_pushed_change_counts_as_drawn_before_it(tmp_path: Path) -> None:
    """Two referees tap Next step at once: the second device's screen was redrawn by the first
    one's change a moment before its tap arrived; the tap meant the screen before, so it is
    refused as stale and the step applies once. Later taps are accepted."""
    hub = make_hub(tmp_path)
    ref, phones, board, table = at_table(hub, position(3, WITHDRAW))
    other = device(hub, f"/join/{table.table_id}")
    other.join("referee", table.referee_code)
    other.seen_after = 60  # every tap of this test lands "at once" after a push
    for p in range(3):
        click(phones[p].root, f"choose-stay-{p}")
    before = len(table.game.actions)
    click(ref.root, "continue")
    assert len(table.game.actions) == before + 1
    click(other.root, "continue")  # redrawn by the push, but the tap was aimed at the old screen
    assert len(table.game.actions) == before + 1
    assert "the table changed" in (other.error or "")
    other.seen_after = 0  # the new screen has been seen: its taps count
    assert other.drawn_version() == table.version


def test_a_pushed_redraw_keeps_what_did_not_change_on_each_device(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann, bo, cy = phones
    kept = {"cy-numbers": find(cy.root, "my-numbers"), "cy-cards": find(cy.root, "my-cards"),
            "board-bo": find(board.root, "board-blood-1"),
            "board-cy": find(board.root, "board-blood-2")}
    click(ann.root, "loc-pick-1")
    click(ann.root, "face-down")
    click(ann.root, "play-1")  # Play with 1 Blood
    assert value(board.root, "board-blood-0") == "4" and value(cy.root, "pool-0").startswith(
        "Ann: 4 Blood")
    assert find(cy.root, "my-numbers") is kept["cy-numbers"]  # Cy's own numbers did not move
    assert find(cy.root, "my-cards") is kept["cy-cards"]
    assert find(board.root, "board-blood-1") is kept["board-bo"]
    assert find(board.root, "board-blood-2") is kept["board-cy"]
    assert value(bo.root, "seat-state") == "Your turn!"  # Bo's banner is new: his turn now


# --- every seat finishes its own turn ------------------------------------------------------------

def _own_effect_due(hub, key: str):
    """A table where Ann's card with effect `key` is due at its step; Ann and Bo on phones."""
    from companion.rules.effects import EFFECT_STEP

    step = EFFECT_STEP[key]
    ref, phones, board, table = at_table(hub, position(3, {"1": {
        "Ann": ([plain(3, step, effect=key)], 1), "Bo": ([plain(4)], 1)}}), n_seats=2)
    ann, bo = phones
    click(ann.root, "choose-stay-0")  # secret Stay on each phone
    click(bo.root, "choose-stay-1")
    for _ in range(4):  # the referee moves the table on until the card acts
        if "resolve_effect" in table.allowed(Seat(player=0)).commands:
            break
        table.act(ref.device, {"type": "next_step"}, table.version)
    assert "resolve_effect" in table.allowed(Seat(player=0)).commands, key
    return ref, ann, bo, table


@pytest.mark.parametrize("key", ["BR01", "BR07", "GA02", "NO07", "BR04", "TR05"])
def test_a_seat_applies_its_own_due_effect_with_no_referee_tap(hub, key) -> None:
    ref, ann, bo, table = _own_effect_due(hub, key)
    uid = table.game.legal().next_due[0]
    assert value(ann.root, "seat-state").startswith("Your card effect")
    assert "with the button below" in all_text(ann)
    assert has(ann.root, "due-0-apply") or has(ann.root, "due-0-decline")  # the button is there
    assert not any(i.startswith("due-") for i in action_ids(bo))  # not Bo's to resolve
    actions = len(table.game.actions)
    click(ann.root, "due-0-apply" if has(ann.root, "due-0-apply") else "due-0-decline")
    assert ann.error is None, ann.error
    assert len(table.game.actions) == actions + 1
    assert uid not in [d.uid for d in table.game.legal().due]  # resolved by Ann herself
    done = table.game.actions[-1].command
    assert done.type == "resolve_effect" and done.card == uid


@pytest.mark.parametrize("key", ["NO07", "TR05"])
def test_a_seat_may_decline_or_apply_its_optional_effect(hub, key) -> None:
    ref, ann, bo, table = _own_effect_due(hub, key)
    assert has(ann.root, "due-0-apply") and has(ann.root, "due-0-decline")  # both offered
    click(ann.root, "due-0-decline")
    done = table.game.actions[-1].command
    assert done.type == "resolve_effect" and done.accept is False


def test_an_undo_is_told_on_every_device(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann, bo, cy = phones
    click(ann.root, "loc-pick-1")
    click(ann.root, "face-down")
    click(ann.root, "play")
    assert "Ann" in " ".join(bo.notice)
    click(ref.root, "undo")
    for phone in (ann, bo, cy):
        assert phone.notice == ["The referee took back: Ann played a card."], phone.notice
        assert "Just happened" in all_text(phone)
    assert value(ann.root, "seat-state").startswith("Your turn")


def test_a_stale_refusal_says_who_did_what_in_plain_words(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    ann = phones[0]
    drawn = ref.version
    click(ann.root, "loc-pick-1")
    click(ann.root, "face-down")
    click(ann.root, "play")
    ref.version = drawn  # the referee's screen was drawn before Ann's play
    ref.undo()
    assert ref.error is not None and "Ann played a card" in ref.error
    assert "play card" not in ref.error and "_" not in ref.error


def test_each_phase_tells_a_seat_what_to_do_at_the_table(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="hand_building"))
    assert value(phones[0].root, "seat-state") == "Draw your cards"
    assert "Draw 3 from your Clan deck, keep 2" in value(phones[0].root, "seat-prompt")
    assert "Nothing to do now" not in all_text(phones[1])


def test_the_seat_title_shows_its_own_state_not_the_actors(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    for phone in phones[1:]:  # Ann's turn: Bo's and Cy's subtitles say nothing of Ann's pool
        assert value(phone.root, "status") == "Round 1 · Planning"


def test_the_naming_picker_offers_no_card_already_face_up(hub) -> None:
    card = {"id": "BR-HUNT", "name": "Hunt", "power": 3, "kind": "conflict"}
    ref, phones, board, table = at_table(hub, position(3, {"1": {
        "Ann": ([card, {"face_up": False}], 0), "Bo": ([plain(2)], 0)}}), n_seats=2)
    click(phones[0].root, "choose-stay-0")
    click(phones[1].root, "choose-stay-1")
    assert table.game.state.step == "revelation"
    uid = table.view_for(Seat(player=0)).naming.needed[0][0]
    offered = {i for i in ids(phones[0].root) if i.startswith(f"name-{uid}-")}
    assert offered and f"name-{uid}-BR-HUNT" not in offered


def test_a_seats_news_never_points_to_a_log_it_cannot_open(hub) -> None:
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    phones[1].say([f"line {i} " + "x" * 60 for i in range(20)])
    phones[1].render(keep_news=True)
    assert "read them in the Log" not in all_text(phones[1])


def test_the_referee_clears_a_players_pending_names_from_the_screen(hub) -> None:
    card = {"id": "BR-HUNT", "name": "Hunt", "power": 3, "kind": "conflict"}
    ref, phones, board, table = at_table(hub, position(3, {"1": {
        "Ann": ([{"face_up": False}], 0), "Bo": ([card, {"face_up": False}], 0)}}), n_seats=2)
    click(phones[0].root, "choose-stay-0")
    click(phones[1].root, "choose-stay-1")
    bo_uid = table.view_for(Seat(player=1)).naming.needed[1][0]
    table.name_cards(phones[1].device, {bo_uid: {"id": "BR-RAGE", "power": 2,
                                                  "kind": "conflict"}})
    ref.render()
    assert not has(ref.root, "clear-0")  # nothing entered for Ann: nothing to clear
    click(ref.root, "clear-1")
    assert ref.error is None and bo_uid not in table.view_for(Board()).naming.named
    assert len(table.game.actions) == 1  # only the Stay/Withdraw: nothing undone


def test_a_confirmed_question_sends_the_page(hub) -> None:
    """The dialog's button leaves the page when the dialog closes: the page is sent by hand
    (Flet's automatic update after the tap would not reach the screen)."""
    ref, phones, board, table = at_table(hub, position(3, phase="planning"))
    sent = []
    ref.on_navigate = sent.append
    ref.go("host")
    sent.clear()
    click(ref.root, "free-1")
    ref.answer(True)
    assert table.role_of(phones[1].device) is None and sent == [ref]


def test_a_seats_own_link_fills_in_the_seat_and_its_code(hub) -> None:
    ref = host(hub)
    ref.new_game(position(3, phase="planning"))
    table = ref.table
    phone = device(hub, f"/join/{table.table_id}?seat=1&code={table.seat_code(1)}")
    assert phone.screen == "join" and phone.draft("join")["player"] == 1
    click(phone.root, "claim-seat")  # one tap
    assert phone.error is None and phone.role == Seat(player=1)
    other = device(hub, f"/join/{table.table_id}?seat=2&code={table.seat_code(1)}")
    click(other.root, "claim-seat")  # Bo's code in a link for Cy's seat opens nothing
    assert "wrong code for Cy's seat" in (other.error or "") and other.role is None
