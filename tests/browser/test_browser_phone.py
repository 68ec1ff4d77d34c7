"""Every phase's referee screen on a 390×844 phone, a 320×568 phone and with the browser's text
at 200 %: each control the step needs comes into view by scrolling the content (never hidden
behind the pinned parts), the pinned bottom stays small, and screenshots are taken for a person
to look at (artifacts/screenshots/phone/). The accessibility tree of the main screens: one name
per control, none doubled, chosen options say so, and the keyboard's order is the drawn order.

One server holds a game stopped at each screen; one browser page visits them all (the app's
own navigation: no reload), so the whole module takes about a minute.
"""

import re

import pytest

from tests.browser.harness import SHOTS, Server, fresh_dir, sel
from tests.browser.phases import SCENARIOS, seed_games
from tests.browser.phone import CONTROLS, SIZES, Phone, ids_starting, prepare, tap

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

OUT = SHOTS / "phone"
BOTTOM_SHARE = 25.0
"""Most of the height the pinned bottom may take on a phone at normal text size (%)."""
BOTTOM_SHARE_WITH_NEWS = 25.0
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
                # reachable on the small phone and at large text: on the big phone as well
                seen, hidden = ui.sweep() if size != "390x844" else (set(), set())
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
    """Right after a tap: one line of news (a tap opens it, a cross closes it), the pinned
    bottom still a quarter of the screen at most; the outcome of the Location just resolved
    is in the content."""
    ui, tables = served
    ui.resize("320x568")
    ui.referee(tables["conflict"][0])
    for _ in range(6):  # on through the Location (applying what is due) to the next one
        if ui.has("last-result"):
            break
        due = [i for i in ids_starting(ui, "due-") if re.fullmatch(r"due-\d+-apply", i)]
        tap(ui, due[0] if due else "continue")
    ui.wait("notice-close")
    m = ui.pinned()
    assert m["bottom_share"] <= BOTTOM_SHARE_WITH_NEWS, m
    said = ui.page.locator(sel("last-result")).evaluate(
        "e => (e.getAttribute('aria-label') || '') + ' ' + e.textContent")
    assert "Result at Location #1" in said and "1st: " in said, said
    assert re.match(r"Just happened #\d+: ", ui.read("undo-hint"))
    ui.page.screenshot(path=str(OUT / "conflict-resolved-320x568.png"))
    tap(ui, "undo-hint")  # opened: every sentence
    ui.page.screenshot(path=str(OUT / "conflict-resolved-news-open-320x568.png"))
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


def tab_pass(ui: Phone, last: str = "nav-log", most: int = 90) -> list[str]:
    """The ids the keyboard's Tab visits from the Back button (the content at its top) to
    `last`, as a person using a keyboard goes through a screen."""
    ui.scroll_content(-20_000)
    ui.page.locator(f"{sel('back')} [tabindex]").first.focus()
    ui.page.wait_for_timeout(60)
    order = ["back"]
    for _ in range(most):
        ui.page.keyboard.press("Tab")
        ui.page.wait_for_timeout(20)
        got = ui.page.evaluate("""() => { let e = document.activeElement;
            while (e && !e.getAttribute?.('flt-semantics-identifier')) e = e.parentElement;
            return e ? e.getAttribute('flt-semantics-identifier') : null; }""")
        if got is not None and got not in order:
            order.append(got)
        if got == last:
            break
    return order


CHOICES = {"planning": ("loc-pick-", "plan-card-", "face-down"),
           "withdraw": ("stay-", "withdraw-"), "location-setup": ("ally-",)}
"""Per screen, the choices its main button acts on (the keyboard meets them first)."""
MAIN = {"planning": "play", "withdraw": "withdraw-ok", "location-setup": "allies-ok",
        "final-score": "to-review"}


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
        ui.scroll_content(-20_000)
        bottom = ui.pinned()
        well_above = bottom["height"] - bottom["bottom"] - 2 * 48  # clear of the pinned bar
        on_screen = {i for i, c in ui.page.evaluate(CONTROLS).items()
                     if c["seen"] and c["inside"] and c["y"] < well_above}
        order = tab_pass(ui)
        if screen == "planning":
            assert order == tab_pass(ui), f"{screen}: the Tab order changed: {order}"
        live = not ui.page.locator(f"{sel(MAIN[screen])} [aria-disabled='true']").count()
        for must in ("back", "home", "undo", "nav-table", "nav-log", *[MAIN[screen]] * live):
            assert must in order, f"{screen}: Tab never reaches {must}: {order}"
        if not live:  # a disabled button is not a Tab stop (its label says why)
            continue
        main = order.index(MAIN[screen])
        # Flutter orders Tab by where controls are drawn (Flet offers no traversal group): the
        # choices in view come before the pinned main button; those near or below it may not
        for i in order:
            if i.startswith(CHOICES.get(screen, ())) and i != MAIN[screen] and i in on_screen:
                assert order.index(i) < main, f"{screen}: {i} comes after the main button"
        assert main < order.index("undo") < order.index("nav-log"), order
