"""Table mode in a real browser: several browser contexts — phones, a board, the
referee — against ONE server; every device sees each play, secrets stay secret, seats survive
reloads and a killed server."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub
from tests.browser.harness import PHONE, UI, Server, fresh_dir, sel
from tests.table_helpers import plain, position

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)

BOARD = {"width": 1280, "height": 800}
NAMES = ["Ann", "Bo", "Cy", "Di"]
CHOICE = re.compile(r"\b(Ann|Bo|Cy|Di): (Stay|Withdraw)\b")


def seed(data: Path, start, *, viewers: bool = False) -> dict[str, str]:
    """A stored game with its table (as the host would have opened it)."""
    store = TinyDBGameStore(data)
    table = TableHub(store).new_table(start, allow_viewers=viewers)
    out = {"id": table.table_id, "code": table.join_code, "referee": table.referee_code,
           "game": table.game_id,
           **{f"seat{i}": table.seat_code(i) for i in range(len(table.game.state.players))}}
    store.close()
    return out


def phone(browser, server: Server, t: dict, player: int, size: dict | None = None) -> UI:
    """A phone that opened the join address and took its seat."""
    ui = UI(browser, server, size or PHONE, path=f"/join/{t['id']}", host=False)
    ui.wait("claim-seat")
    ui.tap(f"pick-{player}")
    ui.fill("seat-code", t[f"seat{player}"])
    ui.tap("claim-seat")
    ui.wait("seat-state")
    return ui


def board(browser, server: Server, t: dict) -> UI:
    ui = UI(browser, server, BOARD, path=f"/join/{t['id']}", host=False)
    ui.wait("join-board")
    ui.fill("board-code", t["code"])
    ui.tap("join-board")
    ui.wait("board-prompt")
    return ui


def referee(browser, server: Server, t: dict) -> UI:
    """The host's own browser, referee of the table."""
    ui = UI(browser, server, path=f"/join/{t['id']}")
    ui.wait("claim-referee")
    ui.tap("claim-referee")
    ui.wait("undo")
    return ui


def text_of(ui: UI) -> str:
    return ui.body_text()


def close(*uis: UI) -> None:
    for i, ui in enumerate(uis):
        try:
            ui.shot(f"last-{i}")
        except Exception:  # noqa: BLE001 - a closed page has nothing to show
            pass
        ui.close()


def test_four_phones_play_their_own_turns_seen_everywhere(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "planning")
    t = seed(data, position(4, phase="planning"))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        # a wrong code claims nothing
        ann = UI(browser, server, path=f"/join/{t['id']}", host=False)
        uis.append(ann)
        ann.wait("claim-seat")
        ann.tap("pick-0")
        ann.fill("seat-code", "WRONG")
        ann.tap("claim-seat")
        ann.wait("error")
        assert "wrong code" in ann.read("error")
        assert not ann.has("seat-state")
        ann.fill("seat-code", t["seat1"])  # another seat's code opens nothing either
        ann.tap("claim-seat")
        ann.page.wait_for_timeout(500)
        assert "wrong code for Ann's seat" in ann.read("error") and not ann.has("seat-state")
        ann.fill("seat-code", t["seat0"])
        ann.tap("claim-seat")
        ann.wait("seat-state")
        phones = [ann] + [phone(browser, server, t, i) for i in range(1, 4)]
        uis += phones[1:]
        tablet = board(browser, server, t)
        uis.append(tablet)
        ann.shot("60-seat-your-turn")
        tablet.shot("61-board")
        for turn, ui in enumerate(phones):
            for other in phones:
                other.wait("seat-state")
            assert ui.read("seat-state").startswith("Your turn"), (turn, ui.read("seat-state"))
            for j, other in enumerate(phones):
                if j != turn:  # out of turn: no way to play
                    assert not other.has("play") and not other.has("loc-pick-1")
            ui.tap("loc-pick-1")
            ui.tap("face-down")
            ui.tap("play-1")  # Play, with 1 Blood
            # 6 Blood - 1 (face down) - 1 (on the Position): every device shows 4 at once
            tablet.wait_text(f"board-blood-{turn}", "4")
            for j, other in enumerate(phones):
                if j != turn:
                    other.wait_text(f"pool-{turn}", f"{NAMES[turn]}: 4 Blood · 3 Influence")
            ui.wait_text("my-blood", "4")
        assert any("1 face down" in x for x in tablet.texts_of("board-here-"))
        # a reload brings the phone back to its seat; so does a new tab (local storage)
        phones[2].page.reload()
        phones[2].enable()
        phones[2].wait("seat-state")
        assert phones[2].read("title") == "Cy's seat"
        tab = UI(browser, server, path="/", host=False, context=phones[3].context)
        uis.append(tab)
        tab.wait("seat-state")
        assert tab.read("title") == "Di's seat"
    finally:
        close(*uis)
        server.stop()


WITHDRAW = {"1": {"Ann": ([plain(3)], 1), "Bo": ([plain(2)], 0), "Cy": ([plain(1)], 0)}}


def test_secret_stay_withdraw_until_the_last_choice(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "withdraw")
    t = seed(data, position(3, WITHDRAW))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        ref = referee(browser, server, t)
        uis.append(ref)
        phones = [phone(browser, server, t, i) for i in range(3)]
        uis += phones
        tablet = board(browser, server, t)
        uis.append(tablet)
        phones[0].tap("choose-withdraw-0")
        phones[1].tap("choose-stay-1")
        tablet.wait_text("board-chosen", "2 of 3 have chosen Stay or Withdraw")
        ref.wait_text("chosen-count", "2 of 3 have chosen")
        phones[2].wait_text("chosen-count", "2 of 3 have chosen")
        phones[0].shot("62-seat-chosen")
        tablet.shot("63-board-2-of-3")
        for ui in uis:  # no device's accessibility tree holds any choice
            assert not CHOICE.search(text_of(ui)), text_of(ui)
            assert "withdraws" not in text_of(ui) and "withdrew" not in text_of(ui)
        phones[2].tap("choose-stay-2")
        for ui in uis:  # all appear together
            ui.page.wait_for_function(
                "s => (document.querySelector(s)?.textContent || '').includes('Ann withdraws')",
                arg="flt-semantics-host", timeout=10_000)
        assert "Ann" not in tablet.read("board-news").replace("Ann withdraws", "")
    finally:
        close(*uis)
        server.stop()


def test_next_step_from_two_devices_at_once_applies_once(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "next")
    both = {"1": {"Ann": ([plain(3)], 0), "Bo": ([plain(2)], 0)}}
    t = seed(data, position(3, both))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        host = referee(browser, server, t)
        uis.append(host)
        other = UI(browser, server, path=f"/join/{t['id']}", host=False)
        uis.append(other)
        other.wait("claim-referee")
        other.fill("referee-code-field", t["referee"])
        other.tap("claim-referee")
        other.wait("undo")
        host.tap("withdraw-ok")  # everyone stays (no seat held: the one-device form)
        host.wait("continue")
        other.wait("continue")
        host.page.wait_for_timeout(300)
        # both taps fire at the same wall-clock instant, before either screen is redrawn
        at = host.page.evaluate("Date.now() + 400")
        script = ("([s, at]) => setTimeout(() => document.querySelector(s).click(), "
                  "at - Date.now())")
        for ui in (host, other):
            ui.page.evaluate(script, [sel("continue") + " [flt-tappable]", at])
        host.page.wait_for_timeout(1500)
        store_entries = _actions(data, t["game"])
        assert store_entries == 2, store_entries  # choose_withdraw + ONE next_step
        refused = [ui for ui in (host, other) if ui.has("error")]
        assert refused and "the table changed" in refused[0].read("error")
    finally:
        close(*uis)
        server.stop()


def _actions(data: Path, game_id: str) -> int:
    """Actions in the stored journal (read-only, while the server runs)."""
    import json

    lines = (data / "games" / f"{game_id}.jsonl").read_text().splitlines()
    kinds = [(json.loads(x).get("entry") or {}).get("kind") for x in lines if x.strip()]
    return kinds.count("action") - kinds.count("undo") + kinds.count("redo")


def test_a_killed_server_restarts_with_seats_and_secret_choices(browser, tmp_path: Path
                                                                 ) -> None:
    data = fresh_dir(tmp_path, "restart")
    t = seed(data, position(3, WITHDRAW))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        phones = [phone(browser, server, t, i) for i in range(3)]
        uis += phones
        tablet = board(browser, server, t)
        uis.append(tablet)
        phones[0].tap("choose-withdraw-0")
        tablet.wait_text("board-chosen", "1 of 3 have chosen Stay or Withdraw")
        before = _actions(data, t["game"])
        server.kill()  # SIGKILL mid-Resolution, one secret choice pending
        server.start()
        for ui in uis:  # each device comes back to its role by itself (local storage)
            ui.page.wait_for_timeout(100)
            if not ui.has("connection"):
                ui.page.reload()
                ui.enable()
        tablet.wait_text("board-chosen", "1 of 3 have chosen Stay or Withdraw", 30_000)
        for ui in phones:  # back in its seat (reconnected by itself, else after a reload)
            _back(ui, "seat-prompt")
        assert "your choice is in" in phones[0].read("seat-prompt")
        assert "Withdraw" not in phones[0].read("seat-prompt")  # not in large type
        assert [ui.read("title") for ui in phones] == ["Ann's seat", "Bo's seat", "Cy's seat"]
        assert _actions(data, t["game"]) == before  # nothing lost, nothing added
        phones[1].tap("choose-stay-1")
        phones[2].tap("choose-stay-2")
        tablet.page.wait_for_function(
            "s => (document.querySelector(s)?.textContent || '').includes('Ann withdraws')",
            arg="flt-semantics-host", timeout=10_000)
        assert _actions(data, t["game"]) == before + 1
    finally:
        close(*uis)
        server.stop()


def _back(ui: UI, identifier: str) -> None:
    """Wait for a device to show `identifier` after a server restart; a page whose websocket
    is still backing off is reloaded once, as its user would (it keeps its role)."""
    try:
        ui.page.wait_for_selector(sel(identifier), state="attached", timeout=15_000)
    except PlaywrightTimeout:
        ui.page.reload()
        ui.enable()
        ui.page.wait_for_selector(sel(identifier), state="attached", timeout=30_000)


def test_two_tables_on_one_server_do_not_interfere(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "two")
    one = seed(data, position(3, phase="planning"))
    two = seed(data, position(3, phase="planning"), viewers=True)
    server = Server(data).start()
    uis: list[UI] = []
    try:
        ann1 = phone(browser, server, one, 0)
        ann2 = phone(browser, server, two, 0)
        board1 = board(browser, server, one)
        board2 = UI(browser, server, BOARD, path=f"/join/{two['id']}", host=False)
        uis += [ann1, ann2, board1, board2]
        board2.wait("join-board")
        board2.tap("join-board")  # this table lets viewers in without a code
        board2.wait("board-prompt")
        ann1.tap("loc-pick-1")
        ann1.tap("face-down")
        ann1.tap("play")
        board1.wait_text("board-blood-0", "5")
        board2.page.wait_for_timeout(500)
        assert board2.read("board-blood-0") == "6"
        assert ann2.read("seat-state").startswith("Your turn")
        shown = ann2.body_text()
        assert f"Table {two['id']}" in shown and one["id"] not in shown
    finally:
        close(*uis)
        server.stop()


def test_screens_at_phone_and_tablet_size(browser, tmp_path: Path) -> None:
    """Join, host, seat and board screens, for a person to look at."""
    data = fresh_dir(tmp_path, "shots")
    t = seed(data, position(4, {"1": {"Ann": ([plain(3)], 1), "Bo": ([{"face_up": False}], 2)}},
                            phase="planning"))
    server = Server(data).start()
    uis: list[UI] = []
    try:
        for size, tag in ((PHONE, "phone"), (BOARD, "tablet")):
            join = UI(browser, server, size, path=f"/join/{t['id']}", host=False)
            uis.append(join)
            join.wait("claim-seat")
            join.shot(f"70-join-{tag}")
            host = UI(browser, server, size, path=f"/join/{t['id']}")
            uis.append(host)
            host.wait("claim-referee")
            host.tap("claim-referee")
            host.wait("to-host")
            host.tap("to-host")
            host.wait("show-board-code")
            host.tap("show-board-code")
            host.wait("join-code")
            assert host.read("join-code").replace(" ", "") == t["code"]
            host.shot(f"71-host-{tag}")
            seat = phone(browser, server, t, 2 if tag == "phone" else 3, size)
            uis.append(seat)
            seat.shot(f"72-seat-{tag}")
            view = board(browser, server, t) if tag == "tablet" else None
            if view is not None:
                uis.append(view)
                view.shot("73-board-tablet")
        small = UI(browser, server, PHONE, path=f"/join/{t['id']}", host=False)
        uis.append(small)
        small.wait("join-board")
        small.fill("board-code", t["code"])
        small.tap("join-board")
        small.wait("board-prompt")
        small.shot("73-board-phone")
    finally:
        close(*uis)
        server.stop()
