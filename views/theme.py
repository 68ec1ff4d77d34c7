"""Colours, sizes and small control helpers shared by every view (dark red/black theme).

Every text colour reads at 4.5:1 or more on every background it is drawn on, and every border
that shows where a control is at 3:1 or more (`CONTRAST_PAIRS`, checked by a test). Buttons grow
with their labels (no fixed height: a label wraps between words at any text size), reach 48 px,
and show a 3 px focus ring that contrasts with what it replaces, on the red main buttons too.
"""

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
DIM_TEXT = "#9c8c8a"
"""Text of a button that cannot be tapped now (flat and dim, yet readable: it often says what
is missing)."""
LINE = "#9a7b80"
"""Borders of text fields and secondary buttons (3:1 on every background)."""
DIM_LINE = "#3a2c2e"
"""Border of a button that cannot be tapped now."""
ON_GOLD = "#1a0d00"
"""Text on a gold (chosen) surface."""
ON_GOLD_MUTED = "#3a2a10"
"""Secondary text on a gold surface."""
NEWS_BG = "#261417"
"""Background of the last tap's news."""
ERROR_TEXT = "#ffd6d6"
FRENZY_TEXT = "#ffb3b3"
RING = "#ffffff"
"""The focus ring (on a gold, chosen control: ON_GOLD)."""
TOUCH = 48
"""Least height and width of every tappable control (buttons grow with their labels)."""
SMALL = 16
"""Smallest text size: secondary lines stay readable on a phone."""
MAIN = "main"
"""`data` of a screen's main button: the frame keeps it pinned on screen."""

Handler = Callable[[Any], None]


CONTRAST_PAIRS: dict[str, tuple[str, str, float]] = {
    "text on the page": (TEXT, BG, 4.5),
    "text on a panel": (TEXT, SURFACE, 4.5),
    "text on a raised panel": (TEXT, SURFACE_HI, 4.5),
    "muted on the page": (MUTED, BG, 4.5),
    "muted on a panel": (MUTED, SURFACE, 4.5),
    "muted on a raised panel": (MUTED, SURFACE_HI, 4.5),
    "gold on the page": (GOLD, BG, 4.5),
    "gold on a panel": (GOLD, SURFACE, 4.5),
    "gold on a raised panel": (GOLD, SURFACE_HI, 4.5),
    "prompt in the title bar": (GOLD, BLOOD_DARK, 4.5),
    "title in the title bar": (TEXT, BLOOD_DARK, 4.5),
    "status in the title bar": (MUTED, BLOOD_DARK, 4.5),
    "main button label": (TEXT, BLOOD, 4.5),
    "chosen option label": (ON_GOLD, GOLD, 4.5),
    "chosen option detail": (ON_GOLD_MUTED, GOLD, 4.5),
    "disabled button label": (DIM_TEXT, DIM_BG, 4.5),
    "secondary button label": (TEXT, SURFACE_HI, 4.5),
    "done step": (OK, SURFACE_HI, 4.5),
    "refusal text": (ERROR_TEXT, ERROR_BG, 4.5),
    "news text": (TEXT, NEWS_BG, 4.5),
    "news heading": (MUTED, NEWS_BG, 4.5),
    "Frenzy news": (FRENZY_TEXT, NEWS_BG, 4.5),
    "field border on the page": (LINE, BG, 3.0),
    "field border on a panel": (LINE, SURFACE, 3.0),
    "field border on a raised panel": (LINE, SURFACE_HI, 3.0),
    "focus ring on a main button": (RING, BLOOD, 3.0),
    "focus ring on a secondary button": (RING, LINE, 3.0),
    "focus ring on a chosen option": (ON_GOLD, GOLD, 3.0),
    "focus ring on the page": (RING, BG, 3.0),
    "focus ring in the title bar": (RING, BLOOD_DARK, 3.0),
}
"""Every foreground/background pair the theme draws, with the least contrast it needs (text
4.5:1; borders and the focus ring 3:1 against what they sit on or replace)."""


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two '#rrggbb' colours (1 to 21)."""
    def luminance(colour: str) -> float:
        rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def theme() -> ft.Theme:
    """The app's dark theme (standard density everywhere: a browser on a desktop would make
    controls compact, below the 48-px targets)."""
    return ft.Theme(
        color_scheme_seed=BLOOD,
        color_scheme=ft.ColorScheme(primary=BLOOD, on_primary=TEXT, surface=BG, on_surface=TEXT,
                                    secondary=GOLD, error="#ff6b6b"),
        scaffold_bgcolor=BG, visual_density=ft.VisualDensity.STANDARD,
    )


def plural(n: int, one: str, many: str) -> str:
    """'1 game', '2 games': the count and the right form of its noun."""
    return f"{n} {one if n == 1 else many}"


def ident(identifier: str, control: ft.Control, label: str | None = None) -> ft.Semantics:
    """Wrap a control with a stable id (tests, accessibility). `label`: only for a control
    without text of its own (a chart, an icon): a label over a control that shows its text
    would be read twice."""
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


def button_style(bg: str, fg: str, border: ft.BorderSide, *, ring: str = RING,
                 padding: ft.Padding | None = None) -> ft.ButtonStyle:
    """A button's look in each state: dim and flat when it cannot be tapped, a 3-px ring in
    `ring` when it has the keyboard's focus."""
    off, focus, rest = ft.ControlState.DISABLED, ft.ControlState.FOCUSED, ft.ControlState.DEFAULT
    return ft.ButtonStyle(
        bgcolor={off: DIM_BG, rest: bg}, color={off: DIM_TEXT, rest: fg},
        icon_color={off: DIM_TEXT, rest: fg},
        side={focus: ft.BorderSide(3, ring), off: ft.BorderSide(1, DIM_LINE), rest: border},
        elevation={off: 0, rest: 1}, shape=ft.RoundedRectangleBorder(radius=10),
        padding=padding or ft.Padding.symmetric(horizontal=14, vertical=12),
        visual_density=ft.VisualDensity.STANDARD,
        text_style=ft.TextStyle(size=17, weight=ft.FontWeight.W_600))


def button(label: str, on_click: Handler | None, *, primary: bool = True,
           selected: bool = False, expand: bool | int | None = None, disabled: bool = False,
           ident_: str | None = None, icon: ft.IconData | None = None,
           width: int | None = None, spoken: str | None = None, app: Any = None) -> ft.Control:
    """A large button; its height grows with its label (which wraps between words at any text
    size). `width` is the least width of a short label's button (a digit chip): it grows
    with larger text instead of cutting the label. `selected` marks a chosen option of a
    group (gold, a check mark, and the selected state told to screen readers: colour is never
    the only cue). `spoken`: what a screen reader says when the label needs its context
    ("Stay: Ann" for a "Stay" beside Ann's name). A button that cannot be tapped now
    (`disabled`, or no handler) is drawn flat and dim, never like a live one: its label, or a
    line right beside it, says why. `app`: the device whose language says "selected" (English
    without it)."""
    expand = expand or None  # False would make a flex child: an error inside a wrapping row
    if selected and icon is None:
        icon = ft.Icons.CHECK
    if selected:
        style = button_style(GOLD, ON_GOLD, ft.BorderSide(0, GOLD), ring=ON_GOLD)
    elif primary:
        style = button_style(BLOOD, TEXT, ft.BorderSide(0, BLOOD))
    else:
        style = button_style(SURFACE_HI, TEXT, ft.BorderSide(1, LINE))
    if width is not None:  # a least width: side padding that makes it, at the usual size
        est = 10 * len(label) + (26 if icon is not None else 0)
        style.padding = ft.Padding.symmetric(horizontal=max(8, (width - est) / 2), vertical=12)
        width = None
    content: str | ft.Control = label
    if spoken or selected:
        said = spoken or label
        content = ft.Text(label, semantics_label=_selected(said, app) if selected else said)
    b = ft.Button(content=content, icon=icon, on_click=on_click, expand=expand, width=width,
                  disabled=disabled or on_click is None, style=style)
    if not ident_:
        return b
    sem = ident(ident_, b)
    sem.expand = expand
    sem.selected = selected
    return sem


def _selected(label: str, app: Any) -> str:
    """'Ann, selected': what a screen reader says of a chosen option (in `app`'s language,
    English without it)."""
    return f"{label}, selected" if app is None else app._("{label}, selected", label=label)


def icon_button(identifier: str, icon: ft.IconData, label: str, on_click: Handler, *,
                color: str = TEXT, size: int = TOUCH) -> ft.Control:
    """An icon button that says what it does (its icon carries the spoken name; the tooltip
    shows it to a mouse), with the focus ring."""
    focus, rest = ft.ControlState.FOCUSED, ft.ControlState.DEFAULT
    b = ft.IconButton(icon=ft.Icon(icon, color=color, semantics_label=label), tooltip=label,
                      icon_size=min(30, size - 18), width=size, height=size, on_click=on_click,
                      style=ft.ButtonStyle(
                          side={focus: ft.BorderSide(3, RING),
                                rest: ft.BorderSide(0, ft.Colors.TRANSPARENT)},
                          shape=ft.RoundedRectangleBorder(radius=size // 2),
                          visual_density=ft.VisualDensity.STANDARD))
    return ident(identifier, b)


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
                      text_size=18, border_color=LINE, focused_border_color=GOLD,
                      focused_border_width=3, label_style=ft.TextStyle(color=MUTED))
    tf.on_change = lambda e: on_change(tf.value)
    if not ident_:
        return tf
    sem = ident(ident_, tf)
    sem.expand = expand
    if col is not None:
        sem.col = col
    return sem


def error_box(message: str, identifier: str = "error", *, app: Any = None) -> ft.Control:
    """A refusal explained inline (`app`: the device whose language names it, English
    without it)."""
    return ident(identifier, ft.Container(
        content=ft.Text(message, size=17, color=ERROR_TEXT), bgcolor=ERROR_BG,
        border=ft.Border.all(1, "#ff6b6b"), border_radius=10, padding=12),
        "Refused" if app is None else app._("Refused"))


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


PLAYER_COLORS = ["#E69F00", "#56B4E9", "#1fb58a", "#CC79A7", "#F0E442", "#e8702a"]
"""One colour per seat in charts and legends: the Okabe-Ito colours told apart with every kind
of colour blindness (brightened for the dark background; 3:1 or more on it). Charts add a
marker shape per seat too: colour is never the only cue."""


def player_color(seat: int) -> str:
    """The chart colour of a seat."""
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def tap_row(title: str, on_click: Handler, identifier: str, *, detail: str | None = None,
            color: str = SURFACE_HI, title_color: str = TEXT,
            icon: ft.IconData | None = None, selected: bool = False,
            app: Any = None) -> ft.Control:
    """A full-width button of a title and an optional detail, its label read once (the
    texts are its name). `selected` lights it as the chosen option (and says so, in `app`'s
    language: English without it)."""
    muted = MUTED
    if selected:
        color, title_color, muted = GOLD, ON_GOLD, ON_GOLD_MUTED
    col: list[ft.Control] = [ft.Text(title, size=17, weight=ft.FontWeight.W_600,
                                     color=title_color,
                                     semantics_label=_selected(title, app) if selected
                                     else None)]
    if detail:
        col.append(ft.Text(detail, size=SMALL, color=muted))
    body: ft.Control = ft.Column(col, spacing=2, expand=True)
    if icon is not None or selected:
        body = ft.Row([ft.Icon(icon or ft.Icons.CHECK, color=title_color, size=26), body],
                      spacing=10)
    style = button_style(color, title_color, ft.BorderSide(0, color),
                         ring=ON_GOLD if selected else RING,
                         padding=ft.Padding.symmetric(horizontal=14, vertical=12))
    style.alignment = ft.Alignment.CENTER_LEFT
    style.elevation = 0
    sem = ident(identifier, ft.Button(content=body, on_click=on_click, style=style,
                                      expand=True))
    sem.expand = True
    sem.selected = selected
    return ft.Row([sem])
