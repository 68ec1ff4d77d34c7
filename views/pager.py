"""Newer / "11–20 of 57" / Older: one page of a list that grows with the history (
no screen shows more than a page of it at once)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from views.theme import MUTED, button, ident, text

if TYPE_CHECKING:
    from views.state import AppState


def pager(name: str, start: int, shown: int, total: int,
          on_turn: Callable[[int], None], back: str | None = None, on: str | None = None, *,
          app: AppState | None = None) -> list[ft.Control]:
    """The row turning pages of `total` items (`shown` from `start`), or nothing when they
    fit on one page; `on_turn(-1)` or `on_turn(+1)`. `back`/`on`: the buttons' words (default
    Newer/Older); `app`: the device whose language the row speaks (English without it). Ids:
    `<name>-newer`, `<name>-shown`, `<name>-older`."""
    if start == 0 and shown >= total:
        return []
    if app is None:
        back, on = back or "Newer", on or "Older"
        where = f"{start + 1}–{start + shown} of {total}"
    else:
        back, on = back or app._("Newer"), on or app._("Older")
        where = app._("{first}–{last} of {total}", first=start + 1, last=start + shown,
                      total=total)
    return [ft.Row([
        button(back, lambda e: on_turn(-1), primary=False, expand=True, disabled=start == 0,
               ident_=f"{name}-newer"),
        ident(f"{name}-shown", text(where, 15, color=MUTED)),
        button(on, lambda e: on_turn(1), primary=False, expand=True,
               disabled=start + shown >= total, ident_=f"{name}-older"),
    ], spacing=6)]


def page_start(start: int, size: int, total: int) -> int:
    """`start` moved back onto the last page when the list shrank below it."""
    return start if start < total else max(0, total - 1) // size * size
