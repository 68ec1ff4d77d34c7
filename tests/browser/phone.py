"""Small phones and large text in a real browser: open a phase's screen as its referee, bring it
to the states worth checking, and at each size measure what the pinned parts take and sweep the
content from top to bottom to see every control come into view."""

from __future__ import annotations

from collections.abc import Iterator

from tests.browser.harness import UI, Server, sel

SIZES: dict[str, tuple[dict, int]] = {
    "390x844": ({"width": 390, "height": 844}, 16),
    "320x568": ({"width": 320, "height": 568}, 16),
    "390x844-text200": ({"width": 390, "height": 844}, 32),
}
"""Name → (viewport, the browser's root font size in px: 32 is text at 200 %)."""

TEXT_SIZE = "(px) => { document.documentElement.style.fontSize = px + 'px'; }"
"""Flutter's web engine reads the text scale from the root element's font size and follows its
changes: the same as a person setting their browser's text size. Set after the page loaded
(the app's start-up clears a style set by an init script)."""

GO = """(p) => { history.pushState(null, '', p);
  window.dispatchEvent(new PopStateEvent('popstate', {state: null})); }"""
"""Open an address inside the running app (as its router does): no reload, the same session."""

MEASURE = """() => {
  const rect = s => { const e = document.querySelector(
      `flt-semantics-host [flt-semantics-identifier="${s}"]`);
    return e ? e.getBoundingClientRect() : null; };
  let content = rect('content');
  const h = window.innerHeight;
  if (!content) {  // screens drawn without the id (older versions): the largest scroll view
    for (const e of document.querySelectorAll('flt-semantics-host flt-semantics')) {
      if (!(e.getAttribute('style') || '').includes('scrollbar-width')) continue;
      const r = e.getBoundingClientRect();
      if (!content || r.width * r.height > content.width * content.height) content = r;
    }
  }
  if (!content) return {top: h, bottom: 0, content: 0, height: h};
  return {top: Math.round(content.top), bottom: Math.round(h - content.bottom),
          content: Math.round(content.height), height: h};
}"""

CONTROLS = """() => {
  const c = document.querySelector('flt-semantics-host [flt-semantics-identifier="content"]');
  const v = c ? c.getBoundingClientRect() : {top: 0, bottom: window.innerHeight};
  const out = {};
  for (const e of document.querySelectorAll('flt-semantics-host [flt-semantics-identifier]')) {
    const id = e.getAttribute('flt-semantics-identifier');
    const live = e.matches('[tabindex], input, textarea') ||
                 e.querySelector('[tabindex], input, textarea');
    if (!live || e.querySelector('[flt-semantics-identifier]')) continue;
    const r = e.getBoundingClientRect();
    const inside = c && c.contains(e);
    const top = inside ? v.top : 0, bottom = inside ? v.bottom : window.innerHeight;
    const shown = Math.min(r.bottom, bottom) - Math.max(r.top, top);
    out[id] = {inside: !!inside, y: Math.round(r.top),
               seen: r.height > 0 && shown >= Math.min(r.height, bottom - top) - 1};
  }
  return out;
}"""
"""Each control with an id (the innermost, one a person operates): whether it lies in the
scrolling content, and whether it is wholly in view (or fills the view, when taller)."""


class Phone(UI):
    """The host's browser in its own context, at one of `SIZES` (changed with `resize`)."""

    def __init__(self, browser, server: Server, size_name: str, path: str = "") -> None:
        viewport, _ = SIZES[size_name]
        super().__init__(browser, server, viewport, path)
        self.size_name = ""
        self.resize(size_name)

    def resize(self, size_name: str) -> None:
        """The same page at another of `SIZES` (another phone, or its text size changed)."""
        if size_name == self.size_name:
            return
        viewport, font = SIZES[size_name]
        self.page.set_viewport_size(viewport)
        self.page.evaluate(TEXT_SIZE, font)
        self.size_name = size_name
        self.page.wait_for_timeout(300)

    def referee(self, table_id: str) -> None:
        """Open a table's join page inside the app and take the referee's role there."""
        self.page.evaluate(GO, f"/join/{table_id}")
        self.wait("claim-referee")
        self.tap("claim-referee")
        self.wait("undo")
        self.page.wait_for_timeout(300)

    def pinned(self) -> dict:
        """Pixels above and below the scrolling content, the content's height, and the
        bottom's share of the screen (%)."""
        m = self.page.evaluate(MEASURE)
        m["bottom_share"] = round(100 * m["bottom"] / m["height"], 1)
        return m

    def scroll_content(self, dy: float) -> None:
        box = self.page.locator(sel("content")).first.bounding_box()
        if box is None:
            return
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.wheel(0, dy)
        self.page.wait_for_timeout(120)

    def sweep(self) -> tuple[set[str], set[str]]:
        """Scroll the content from top to bottom as a person would (most of a screen at a
        time); the controls seen wholly in view at some point, and those met but never."""
        height = self.pinned()["content"] or 200
        self.scroll_content(-20_000)
        seen: set[str] = set()
        met: set[str] = set()
        last: dict = {}
        for _ in range(60):
            now = self.page.evaluate(CONTROLS)
            met |= set(now)
            seen |= {i for i, c in now.items() if c["seen"]}
            where = {i: c["y"] for i, c in now.items() if c["inside"]}
            if where == last:  # nothing moved: the bottom
                break
            last = where
            self.scroll_content(0.7 * height)
        self.scroll_content(-20_000)
        return seen, met - seen

    def mouse_away(self) -> None:
        self.page.mouse.move(2, 2)  # no hover highlight in a screenshot


def ids_starting(ui: UI, prefix: str, *, known_power: bool = False) -> list[str]:
    """Ids on screen starting with `prefix`, in page order (`known_power`: only cards whose
    printed Power is known)."""
    keep = "!e.textContent.includes('?')" if known_power else "true"
    return ui.page.eval_on_selector_all(
        f'flt-semantics-host [flt-semantics-identifier^="{prefix}"]',
        f"els => els.filter(e => {keep}).map(e => e.getAttribute('flt-semantics-identifier'))")


def tap(ui: Phone, identifier: str | None) -> None:
    """Tap a control, let the screen settle."""
    if identifier is None:
        return
    ui.tap(identifier)
    ui.page.wait_for_timeout(300)
    ui.mouse_away()


def prepare(ui: Phone, screen: str) -> Iterator[str]:
    """Bring a phase's screen to each state worth looking at, changing nothing in the game;
    yields the state's name there."""
    yield "start"
    if screen == "location-setup":
        tap(ui, "ally-1-pick-new")
        yield "new-ally"
    elif screen == "planning":
        tap(ui, ids_starting(ui, "loc-pick-")[0])
        cards = ids_starting(ui, "plan-card-", known_power=True)
        tap(ui, cards[1] if len(cards) > 1 else "face-down")
        yield "chosen"
    elif screen == "withdraw":
        leave = [i for i in ids_starting(ui, "withdraw-") if i != "withdraw-ok"]
        tap(ui, leave[-1])
        yield "withdrawing"
    elif screen == "conflict":
        tap(ui, "effect-open")
        yield "effect-form"
