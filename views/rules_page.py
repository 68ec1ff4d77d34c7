"""The rules reference: search, the sections by group, the Rulings, and one section to read."""

import flet as ft

from companion.rules.reference import Section, search, section, sections
from views.frame import frame
from views.rules_section import GROUP_NAMES, section_panel
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, button, card, ident, tap_row, text

OPEN_GROUPS = {"round", "phase", "step"}
"""Groups shown expanded until the reader folds them."""


def _draft(app: AppState) -> dict:
    d = app.draft("rules")
    d.setdefault("q", "")
    d.setdefault("open", None)
    d.setdefault("groups", sorted(OPEN_GROUPS))
    return d


def on_section_open(app: AppState, section_id: str) -> None:
    """Read one section (it has its own address: /rules/<id>)."""
    app.go("rules", section_id)


def on_section_close(app: AppState) -> None:
    """Back to the list (and the search results)."""
    app.go("rules")


def on_group_toggle(app: AppState, group: str) -> None:
    """Fold or unfold a group of sections."""
    groups: list = _draft(app)["groups"]
    groups.remove(group) if group in groups else groups.append(group)
    app.render()


def on_back_click(app: AppState) -> None:
    """Back to the screen the help button was on."""
    app.drafts.pop("rules", None)
    app.back()


def from_game(app: AppState) -> bool:
    """Whether the previous screen is the game (a help button opened the rules)."""
    return app.can_go_back() and app.history[-2].screen in ("game", "table", "log")


def whole_words(snippet: str) -> str:
    """A search snippet that starts and ends on whole words ('...' where text was cut)."""
    if snippet.startswith("…") and " " in snippet:
        snippet = "..." + snippet[1:].split(" ", 1)[1]
    if snippet.endswith("…") and not snippet[:-1].endswith((".", "!", "?")) and " " in snippet:
        snippet = snippet[:-1].rsplit(" ", 1)[0] + "..."
    elif snippet.endswith("…"):
        snippet = snippet[:-1]
    return snippet


def hit_rows(app: AppState, query: str) -> list[ft.Control]:
    """The search results for a query, best first (tap one to read it)."""
    if not query.strip():
        return []
    hits = search(query)
    if not hits:
        return [text(app._("Nothing matches \"{query}\". Try one word, e.g. Frenzy.",
                           query=query.strip()), 16, color=MUTED, ident_="no-hits")]
    rows: list[ft.Control] = [text(app.n_("{n} section matches", "{n} sections match",
                                          len(hits)), 15, color=MUTED)]
    rows += [tap_row(h.title, lambda e, i=h.id: on_section_open(app, i), f"hit-{h.id}",
                     detail=whole_words(h.snippet), title_color=GOLD) for h in hits[:20]]
    return rows


def on_search_change(app: AppState, query: str) -> None:
    """Filter as the reader types (the screen is reconciled, so the field keeps its focus)."""
    _draft(app)["q"] = query
    app.render()


def _groups(app: AppState, d: dict) -> list[ft.Control]:
    by_group: dict[str, list[Section]] = {}
    for s in sections():
        by_group.setdefault(s.group, []).append(s)
    out: list[ft.Control] = []
    for group, name in GROUP_NAMES.items():
        items = by_group.get(group, [])
        if not items:
            continue
        shown = group in d["groups"]
        head = tap_row(app._("{group} ({n})", group=app._(name), n=len(items)),
                       lambda e, g=group: on_group_toggle(app, g), f"group-{group}",
                       color=SURFACE, title_color=GOLD,
                       icon=ft.Icons.EXPAND_LESS if shown else ft.Icons.EXPAND_MORE)
        rows = [head]
        if shown:
            rows += [tap_row(s.title.removeprefix("Ruling: "),
                             lambda e, i=s.id: on_section_open(app, i), f"sec-{s.id}")
                     for s in items]
        out.append(ft.Column(rows, spacing=6,
                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    return out


def rules_view(app: AppState) -> list[ft.Control]:
    """Search box and results, then every group; or the open section."""
    d = _draft(app)
    back = ([button(app._("Back to the game"), lambda e: on_back_click(app), primary=False,
                    ident_="rules-back", icon=ft.Icons.ARROW_BACK)]
            if from_game(app) else [])
    if d["open"]:
        sec = section(d["open"])
        body = [*back, section_panel(app, sec),
                button(app._("All rules"), lambda e: on_section_close(app), primary=False,
                       ident_="rules-list", icon=ft.Icons.LIST)]
        return frame(app, app._("Rules"), body, subtitle=sec.title)
    results = ft.Column(hit_rows(app, d["q"]), spacing=6,
                        horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    box = ft.TextField(label=app._("Search the rules"), value=d["q"], text_size=18,
                       prefix_icon=ft.Icons.SEARCH, border_color="#6b4a4f",
                       focused_border_color=GOLD, label_style=ft.TextStyle(color=MUTED),
                       hint_text=app._("e.g. Frenzy, tie, Steal"))
    box.on_change = lambda e: on_search_change(app, box.value or "")
    box.on_submit = box.on_change
    body = [*back, card(ident("rules-search", box), results),
            text(app._("Everything below is in the companion's own words; the Rulings say how "
                       "it settles what the rule book leaves open."), 15, color=MUTED),
            *_groups(app, d)]
    return frame(app, app._("Rules"), body, subtitle=app._("Rules reference"))
