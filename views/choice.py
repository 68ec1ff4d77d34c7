"""Phone-friendly pickers in place of dropdowns: a row of chips, or a list of rows to tap with a
search box when the list is long. Every option is a button with its own stable id."""

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from views.locations_panel import ENGLISH_WORDS, EnglishWords
from views.state import AppState
from views.theme import (
    GOLD,
    LINE,
    MUTED,
    ON_GOLD,
    ON_GOLD_MUTED,
    RING,
    SMALL,
    SURFACE_HI,
    TEXT,
    button,
    button_style,
    ident,
    tap_row,
    text,
    wrap,
)

SEARCH_FROM = 8
"""Lists with more options than this get a search box."""


@dataclass(frozen=True)
class Option:
    """One choice: its key, what the row says, and an optional second line."""

    key: str
    title: str
    detail: str | None = None


def chips(options: list[tuple[str, str]], selected: str | None,
          on_pick: Callable[[str], None], prefix: str, *, width: int | None = None,
          about: str | None = None) -> ft.Row:
    """A wrapping row of buttons, the chosen one lit; ids are `<prefix>-<key>`. `about`: what
    the row chooses, said with each option to a screen reader ("Feed Blood: 2")."""
    return wrap(*[button(label, lambda e, k=key: on_pick(k), primary=False,
                         selected=key == selected, width=width, ident_=f"{prefix}-{key}",
                         spoken=f"{about}: {label}" if about else None)
                  for key, label in options], spacing=6)


def on_search_change(app: AppState, draft: dict, query: str) -> None:
    """Filter as the referee types (the screen is reconciled, so the box keeps its focus)."""
    draft["q"] = query
    app.render()


def pick_list(app: AppState, options: list[Option], selected: str | None,
              on_pick: Callable[[str], None], prefix: str, draft: dict,
              label: str | None = None, *, searched: bool = False) -> list[ft.Control]:
    """Rows to tap, the chosen one lit; a search box above a long list. Ids: `<prefix>-<key>`
    for the rows, `<prefix>-search` for the box. `searched`: the caller already chose
    `options` by the box's words (`draft["q"]`), e.g. a page of stored games; the box always
    shows."""
    out: list[ft.Control] = []
    shown = options
    label = app._("Search") if label is None else label
    if searched or len(options) > SEARCH_FROM:
        query = str(draft.get("q") or "")
        box = ft.TextField(label=label, value=query, text_size=18, prefix_icon=ft.Icons.SEARCH,
                           border_color=LINE, focused_border_color=GOLD,
                           focused_border_width=3, label_style=ft.TextStyle(color=MUTED))
        box.on_change = lambda e: on_search_change(app, draft, box.value or "")
        out.append(ident(f"{prefix}-search", box))
        words = query.lower().split()
        shown = options if searched else [
            o for o in options if all(w in f"{o.title} {o.detail or ''}".lower() for w in words)]
        if not shown:
            out.append(text(app._("Nothing matches \"{query}\".", query=query.strip()), 16,
                            color=MUTED))
    out += [tap_row(o.title, lambda e, k=o.key: on_pick(k), f"{prefix}-{o.key}",
                    detail=o.detail, selected=o.key == selected) for o in shown]
    return out


def tiles(options: list[tuple[str, str, str]], selected: str | None,
          on_pick: Callable[[str], None], prefix: str, *,
          app: AppState | EnglishWords | None = None) -> ft.ResponsiveRow:
    """Tiles of a bold word over a short line (e.g. "#1" over the Ally there), two to a row on
    a phone (room for a whole name), more on a wider screen; each is one button, its words
    read once; ids `<prefix>-<key>` (a screen reader's words in `app`'s language, English
    without one)."""
    app = ENGLISH_WORDS if app is None else app
    out = []
    for key, top, bottom in options:
        chosen = key == selected
        fg = ON_GOLD if chosen else TEXT
        head: list[ft.Control] = [ft.Text(top, size=17, weight=ft.FontWeight.BOLD, color=fg,
                                          semantics_label=app._("{option}, selected", option=top)
                                          if chosen
                                          else None)]
        if chosen:
            head.insert(0, ft.Icon(ft.Icons.CHECK, color=fg, size=20))
        lines: list[ft.Control] = [ft.Row(head, spacing=4, tight=True)]
        if bottom:
            lines.append(ft.Text(bottom, size=SMALL, color=ON_GOLD_MUTED if chosen else MUTED,
                                 max_lines=3, overflow=ft.TextOverflow.ELLIPSIS,
                                 text_align=ft.TextAlign.CENTER))
        body = ft.Column(lines, spacing=0, tight=True,
                         horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        style = button_style(GOLD if chosen else SURFACE_HI, fg,
                             ft.BorderSide(0, GOLD) if chosen else ft.BorderSide(1, LINE),
                             ring=ON_GOLD if chosen else RING,
                             padding=ft.Padding.symmetric(horizontal=6, vertical=8))
        tile = ident(f"{prefix}-{key}", ft.Button(content=body, style=style,
                                                   on_click=lambda e, k=key: on_pick(k)))
        tile.selected = chosen
        tile.col = {"xs": 6, "sm": 4, "md": 3}
        out.append(tile)
    return ft.ResponsiveRow(out, spacing=6, run_spacing=6)
