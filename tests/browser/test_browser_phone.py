"""Every phase's referee screen on a 390×844 phone, a 320×568 phone and with the browser's text
at 200 %: each control the step needs comes into view by scrolling the content (never hidden
behind the pinned parts), the pinned bottom stays small, and screenshots are taken for a person
to look at (artifacts/screenshots/phone/). The accessibility tree of the main screens: one name
per control, none doubled, chosen options say so, and the keyboard's order is the drawn order.

One server holds a game stopped at each screen; one browser page visits them all (the app's
own navigation: no reload), so the whole module takes about a minute.
"""

import re
from pathlib import Path

import pytest

from tests.browser.harness import SHOTS, Server, fresh_dir, sel
from tests.browser.phases import SCENARIOS, seed_games
from tests.browser.phone import SIZES, Phone, ids_starting, prepare, tap

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

OUT = SHOTS / "phone"
BOTTOM_SHARE = 25.0
"""Most of the height the pinned bottom may take on a phone at normal text size (%)."""
BOTTOM_SHARE_WITH_NEWS = 27.0
"""The same right after a tap, while its one line of news shows too (%)."""


@pytest.fixture(scope="module")
def served(browser, tmp_path_factory: pytest.TempPathFactory):
    data = fresh_dir(tmp_path_factory.mktemp("phone"), "phone")
    tables = seed_games(data)
    server = Server(data).start()
    ui = Phone(browser, server, "390x844")
    try:
        yield ui, tables
    finally:
        ui.close()
        server.stop()


def test_every_phase_screen_fits_small_phones_and_large_text(served) -> None:
    ui, tables = served
    OUT.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for screen in SCENARIOS:
        ui.resize("390x844")
        ui.referee(tables[screen][0])
        for k, stage in enumerate(prepare(ui, screen)):
            for size in SIZES:
                ui.resize(size)
                where = f"{screen}/{stage} at {size}"
                seen, hidden = ui.sweep()
                if hidden:
                    problems.append(f"{where}: never wholly in view: {sorted(hidden)}")
                m = ui.pinned()
                if m["content"] < 0.3 * m["height"]:
                    problems.append(f"{where}: the content gets only {m['content']} px")
                if not size.endswith("text200") and m["bottom_share"] > BOTTOM_SHARE:
                    problems.append(f"{where}: the pinned bottom takes {m['bottom_share']} %")
                ui.mouse_away()
                ui.page.screenshot(path=str(OUT / f"{screen}-{k}-{size}.png"))
    assert not problems, "\n".join(problems)


def test_news_line_and_result_stay_small_on_the_smallest_phone(served) -> None:
    """Right after a tap: one line of news (a tap opens it, a cross closes it); the outcome
    of the Location just resolved is in the content."""
    ui, tables = served
    ui.resize("320x568")
    ui.referee(tables["conflict"][0])
    tap(ui, "continue")
    ui.wait("notice-close")
    m = ui.pinned()
    assert m["bottom_share"] <= BOTTOM_SHARE_WITH_NEWS, m
    assert ui.has("last-result") and "Result at Location #1" in ui.read("last-result")
    assert re.match(r"Just happened #\d+: ", ui.read("undo-hint"))
    ui.page.screenshot(path=str(OUT / "conflict-resolved-320x568.png"))
    tap(ui, "notice-close")
    assert not ui.has("notice-close") and ui.pinned()["bottom_share"] <= BOTTOM_SHARE


def ax_nodes(ui: Phone) -> list[dict]:
    """The browser's accessibility tree, the nodes a screen reader meets (role, name)."""
    cdp = ui.page.context.new_cdp_session(ui.page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    return [n for n in nodes if not n.get("ignored")]


def doubled(name: str) -> bool:
    """'#1 Beat Cop #1 Beat Cop': a name that says the same words twice."""
    words = name.split()
    half = len(words) // 2
    return len(words) >= 2 and len(words) % 2 == 0 and words[:half] == words[half:]


def tab_order(ui: Phone, most: int = 80) -> list[str]:
    """The ids the keyboard's Tab visits from the top of the page, once round."""
    ui.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    order: list[str] = []
    for _ in range(most):
        ui.page.keyboard.press("Tab")
        ui.page.wait_for_timeout(40)
        got = ui.page.evaluate("""() => { let e = document.activeElement;
            while (e && !e.getAttribute?.('flt-semantics-identifier')) e = e.parentElement;
            return e ? e.getAttribute('flt-semantics-identifier') : null; }""")
        if got is None:
            continue
        if order and got == order[0]:
            break
        order.append(got)
    return order


def test_main_screens_read_well_with_a_screen_reader_and_a_keyboard(served) -> None:
    ui, tables = served
    ui.resize("390x844")
    for screen in ("planning", "withdraw", "location-setup", "final-score"):
        ui.referee(tables[screen][0])
        states = list(prepare(ui, screen))  # the screen with a choice made
        nodes = ax_nodes(ui)
        buttons = [n for n in nodes if n.get("role", {}).get("value") == "button"]
        names = [str(n.get("name", {}).get("value") or "") for n in buttons]
        assert buttons and all(names), f"{screen}: a button without a name: {names}"
        assert not [n for n in names if doubled(n)], f"{screen}: doubled names: {names}"
        if screen in ("planning", "withdraw"):  # the chosen option says so, not only its colour
            chosen = ui.page.locator("flt-semantics-host [aria-current='true']")
            assert chosen.count() >= 1, f"{screen} ({states[-1]}): no chosen state"
            assert any(n.endswith(", selected") for n in names), names
        order = tab_order(ui)
        assert order == tab_order(ui), f"{screen}: the Tab order changed between two passes"
        drawn = ui.page.eval_on_selector_all(
            "flt-semantics-host [flt-semantics-identifier]",
            "els => els.map(e => e.getAttribute('flt-semantics-identifier'))")
        assert order == [i for i in drawn if i in order], f"{screen}: Tab order {order}"
        regions = {i: ("top" if i in ("back", "help", "home", "to-host") else
                       "bar" if i in ("undo", "redo", "nav-table", "nav-log") else
                       "main" if ui.page.locator(f"{sel('pinned')} {sel(i)}").count() else
                       "content") for i in order}
        kinds = [regions[i] for i in order]
        assert kinds == sorted(kinds, key=["top", "content", "main", "bar"].index), \
            f"{screen}: the keyboard meets {kinds} (main button after the choices it acts on)"
    assert Path(OUT).exists()
