"""Colours, sizes and small control helpers shared by every view (dark red/black theme)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

BLOOD = "#b3122b"
"""Accent: buttons, Blood."""
BLOOD_DARK = "#5c0a17"
BG = "#0d0708"
SURFACE = "#1c1113"
SURFACE_HI = "#2a1a1d"
TEXT = "#f3e9e6"
MUTED = "#bfaaa6"
GOLD = "#e0b35a"
"""Influence."""
ERROR_BG = "#4a0d14"
OK = "#7fc28a"
DIM_BG = "#1a1314"
"""Background of a button that cannot be tapped now."""
DIM_TEXT = "#6f5f5d"
"""Text of a button that cannot be tapped now."""
TOUCH = 52
"""Height of every tappable control (≥ 48 px)."""
SMALL = 16
"""Smallest text size: secondary lines stay readable on a phone."""
MAIN = "main"
"""`data` of a screen's main button: the frame keeps it pinned on screen."""

Handler = Callable[[Any], None]


def theme() -> ft.Theme:
    """The app's dark theme."""
    return ft.Theme(
        color_scheme_seed=BLOOD,
        color_scheme=ft.ColorScheme(primary=BLOOD, on_primary=TEXT, surface=BG, on_surface=TEXT,
                                    secondary=GOLD, error="#ff6b6b"),
        scaffold_bgcolor=BG,
    )


def ident(identifier: str, control: ft.Control, label: str | None = None) -> ft.Semantics:
    """Wrap a control with a stable id (tests, accessibility)."""
    # Keyed by its id: a control that takes another id is a new control (remounted), so the
    # accessibility tree never keeps an id of an earlier screen.
    return ft.Semantics(identifier=identifier, label=label, content=control, key=identifier)


def text(value: str, size: int = 17, *, color: str = TEXT, bold: bool = False,
         ident_: str | None = None) -> ft.Control:
    """Readable body text, never below SMALL px; `ident_` gives it a stable id."""
    t = ft.Text(value, size=max(size, SMALL), color=color,
                weight=ft.FontWeight.BOLD if bold else None)
    return ident(ident_, t) if ident_ else t


def heading(value: str, size: int = 22) -> ft.Text:
    """A section title."""
    return ft.Text(value, size=size, weight=ft.FontWeight.BOLD, color=TEXT)


def button(label: str, on_click: Handler | None, *, primary: bool = True,
           selected: bool = False, expand: bool | int | None = None, disabled: bool = False,
           ident_: str | None = None, icon: ft.IconData | None = None,
           width: int | None = None) -> ft.Control:
    """A large button; `selected` marks a chosen option of a group (gold, a check mark, and
    the selected state told to screen readers: colour is never the only cue). A button that
    cannot be tapped now (`disabled`, or no handler) is drawn flat and dim, never like a live
    one."""
    if selected and icon is None:
        icon = ft.Icons.CHECK
    if selected:
        bg, fg, border = GOLD, "#1a0d00", ft.BorderSide(0, GOLD)
    elif primary:
        bg, fg, border = BLOOD, TEXT, ft.BorderSide(0, BLOOD)
    else:
        bg, fg, border = SURFACE_HI, TEXT, ft.BorderSide(1, "#5a3a3f")
    off = ft.ControlState.DISABLED
    b = ft.Button(
        content=label, icon=icon, on_click=on_click, height=TOUCH, expand=expand, width=width,
        disabled=disabled or on_click is None,
        style=ft.ButtonStyle(bgcolor={off: DIM_BG, ft.ControlState.DEFAULT: bg},
                             color={off: DIM_TEXT, ft.ControlState.DEFAULT: fg},
                             icon_color={off: DIM_TEXT, ft.ControlState.DEFAULT: fg},
                             side={off: ft.BorderSide(1, "#2e2325"),
                                   ft.ControlState.DEFAULT: border},
                             elevation={off: 0, ft.ControlState.DEFAULT: 1},
                             shape=ft.RoundedRectangleBorder(radius=10),
                             padding=ft.Padding.symmetric(horizontal=14),
                             text_style=ft.TextStyle(size=17, weight=ft.FontWeight.W_600)),
    )
    if not ident_:
        return b
    sem = ident(ident_, b)
    sem.expand = expand
    sem.selected = selected
    return sem


def main(control: ft.Control) -> ft.Control:
    """Mark a screen's main button: the frame pins it at the bottom, always on screen, with
    the refusal or news of the last tap right above it."""
    control.data = MAIN
    return control


def card(*controls: ft.Control, color: str = SURFACE, ident_: str | None = None) -> ft.Control:
    """A padded panel grouping related controls."""
    c = ft.Container(content=ft.Column(list(controls), spacing=10), bgcolor=color,
                     border_radius=12, padding=14)
    return ident(ident_, c) if ident_ else c


def wrap(*controls: ft.Control, spacing: int = 8) -> ft.Row:
    """A row that wraps onto several lines on a narrow screen."""
    return ft.Row(list(controls), wrap=True, spacing=spacing, run_spacing=spacing)


def field(label: str, value: str, on_change: Handler, *, numeric: bool = False,
          width: int | None = None, ident_: str | None = None,
          expand: bool | None = None, col: int | None = None) -> ft.Control:
    """A text input with a stable id; `on_change` gets the typed value."""
    tf = ft.TextField(label=label, value=value, width=width, expand=None if ident_ else expand,
                      keyboard_type=ft.KeyboardType.NUMBER if numeric else None,
                      text_size=18, border_color="#6b4a4f", focused_border_color=GOLD,
                      label_style=ft.TextStyle(color=MUTED))
    tf.on_change = lambda e: on_change(tf.value)
    if not ident_:
        return tf
    sem = ident(ident_, tf)
    sem.expand = expand
    if col is not None:
        sem.col = col
    return sem


def error_box(message: str, identifier: str = "error") -> ft.Control:
    """A refusal explained inline."""
    return ident(identifier, ft.Container(
        content=ft.Text(message, size=17, color="#ffd6d6"), bgcolor=ERROR_BG,
        border=ft.Border.all(1, "#ff6b6b"), border_radius=10, padding=12), "Refused")


def short(words: str, most: int) -> str:
    """At most `most` characters, cut between words (with '…'), never inside one."""
    if len(words) <= most:
        return words
    cut = words[:most - 1].rsplit(" ", 1)[0].rstrip(" ,.;:")
    return f"{cut}…"


def to_int(value: str | None, default: int | None = None) -> int | None:
    """Parse a whole number typed by the user."""
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


PLAYER_COLORS = ["#ff5a6e", "#e0b35a", "#6cc6ff", "#7fc28a", "#c08cff", "#ff9f43"]
"""One colour per seat in charts and legends (distinct on the dark background)."""


def player_color(seat: int) -> str:
    """The chart colour of a seat."""
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def tap_row(title: str, on_click: Handler, identifier: str, *, detail: str | None = None,
            color: str = SURFACE_HI, title_color: str = TEXT,
            icon: ft.IconData | None = None, selected: bool = False) -> ft.Control:
    """A full-width tappable row, a title and an optional detail; over TOUCH px high (17 px
    text and 14 px padding above and below). `selected` lights it as the chosen option."""
    if selected:
        color, title_color = GOLD, "#1a0d00"
    col: list[ft.Control] = [ft.Text(title, size=17, weight=ft.FontWeight.W_600,
                                     color=title_color)]
    if detail:
        col.append(ft.Text(detail, size=SMALL, color="#3a2a10" if selected else MUTED))
    body: ft.Control = ft.Column(col, spacing=2, expand=True)
    if icon is not None:
        body = ft.Row([ft.Icon(icon, color=title_color, size=26), body], spacing=10)
    box = ft.Container(content=body, bgcolor=color, border_radius=10,
                       padding=ft.Padding.symmetric(horizontal=14, vertical=14),
                       on_click=on_click, ink=True)
    return ident(identifier, box, title)
