"""A mixed table in a real browser: each device speaks its own language. The referee's browser
says English, one phone Italian, one Polish (the browser's locale); the Italian phone picks
Deutsch in the language picker and only that phone changes; a reload keeps its choice."""

from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import LANGUAGES
from companion.i18n.locales import po_path
from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub
from tests.browser.harness import PHONE, UI, Server, fresh_dir
from tests.table_helpers import position

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)

SEAT = ["{name}'s seat", "Leave this seat", "Where my cards lie", "The others"]
"""English texts of the seat screen (each language's words come from its catalogue)."""
REFEREE = ["Join codes", "Undo: nothing to take back", "Log: every action"]
"""English texts of the referee's screen (Log and Undo: their spoken labels)."""
SPOKEN = ("en", "it", "pl", "de")


@cache
def words(lang: str) -> dict[str, str]:
    """The texts of `SEAT` and `REFEREE` in `lang`, as its catalogue has them."""
    if lang == "en":
        return {k: k for k in SEAT + REFEREE}
    with po_path(lang).open("rb") as f:
        catalog = read_po(f)
    out = {}
    for key in SEAT + REFEREE:
        entry = catalog.get(key)
        assert entry is not None and entry.string and not entry.fuzzy, (lang, key)
        out[key] = entry.string
    return out


def seed(data: Path) -> dict[str, str]:
    """A stored 3-player game at Planning with its table (as the host opened it)."""
    store = TinyDBGameStore(data)
    table = TableHub(store).new_table(position(3, phase="planning"))
    out = {"id": table.table_id, **{f"seat{i}": table.seat_code(i) for i in range(3)}}
    store.close()
    return out


def device(browser, server: Server, locale: str, path: str, *, host: bool = False) -> UI:
    """A page in a fresh browser context whose browser speaks `locale` (closed with it)."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    ui = UI(browser, server, path=path, host=host, context=context)
    ui.own_context = True
    return ui


def seat(browser, server: Server, t: dict, player: int, locale: str) -> UI:
    """A phone (its browser in `locale`) that opened the join address and took its seat."""
    ui = device(browser, server, locale, f"/join/{t['id']}")
    ui.wait("claim-seat")
    ui.tap(f"pick-{player}")
    ui.fill("seat-code", t[f"seat{player}"])
    ui.tap("claim-seat")
    ui.wait("seat-state")
    return ui


def seat_speaks(ui: UI, lang: str, name: str, timeout: float = 10_000) -> None:
    """The seat screen is drawn in `lang`, and in no other of `SPOKEN`."""
    w = words(lang)
    ui.wait_text("title", w["{name}'s seat"].format(name=name), timeout)
    ui.wait_text("leave", w["Leave this seat"], timeout)
    body = ui.body_text()
    assert w["Where my cards lie"] in body and w["The others"] in body, (lang, body)
    for other in set(SPOKEN) - {lang}:
        assert words(other)["Where my cards lie"] not in body, (lang, other, body)


def referee_speaks_english(ui: UI) -> None:
    body = ui.body_text()
    for key in REFEREE:
        assert key in body, (key, body)
        for other in set(SPOKEN) - {"en"}:
            assert words(other)[key] not in body, (other, key, body)


def test_each_device_speaks_its_own_language(browser, tmp_path: Path) -> None:
    data = fresh_dir(tmp_path, "languages")
    t = seed(data)
    server = Server(data).start()
    uis: list[UI] = []
    try:
        ref = device(browser, server, "en-US", f"/join/{t['id']}", host=True)
        uis.append(ref)
        ref.wait("claim-referee")
        ref.tap("claim-referee")
        ref.wait("undo")
        ann = seat(browser, server, t, 0, "it-IT")
        uis.append(ann)
        bo = seat(browser, server, t, 1, "pl-PL")
        uis.append(bo)
        seat_speaks(ann, "it", "Ann")
        seat_speaks(bo, "pl", "Bo")
        referee_speaks_english(ref)

        # the Italian phone picks Deutsch: it alone changes
        ann.choose("language", LANGUAGES["de"])
        seat_speaks(ann, "de", "Ann")
        ann.page.mouse.move(2, 2)
        ann.shot("languages-seat-de-bottom")
        ann.page.mouse.move(195, 400)
        ann.page.mouse.wheel(0, -20_000)
        ann.page.mouse.move(2, 2)
        ann.shot("languages-seat-de-top")
        seat_speaks(bo, "pl", "Bo", timeout=2000)
        referee_speaks_english(ref)

        # a reload keeps German; so does a new tab of that browser (a new session, which
        # finds the choice in local storage before asking the browser's languages)
        ann.page.reload()
        ann.enable()
        ann.wait("seat-state")
        seat_speaks(ann, "de", "Ann")
        tab = UI(browser, server, path="/", host=False, context=ann.context)
        uis.append(tab)
        tab.wait("seat-state")
        seat_speaks(tab, "de", "Ann")
        seat_speaks(bo, "pl", "Bo", timeout=2000)
        referee_speaks_english(ref)
    finally:
        for ui in reversed(uis):  # the tab before its context
            ui.close()
        server.stop()
