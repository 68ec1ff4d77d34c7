"""The host screen of a table (issue 11, item 2): its join address on every network interface,
a QR code of it, the join and referee codes, who holds which seat, and the viewers setting."""

import io

import flet as ft
import segno

from companion.network import join_url
from views.frame import frame
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE_HI, button, card, heading, text, wrap


def qr_png(url: str) -> bytes:
    """A QR code of `url` as PNG bytes (dark on white, with a quiet zone)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=8, border=3)
    return buf.getvalue()


def on_seat_free(app: AppState, player: int) -> None:
    """Free a player's seat (a lost or flat phone) so another device can claim it."""
    assert app.table is not None
    app.table_call(app.table.free_seat, player)


def on_viewers_toggle(app: AppState, allow: bool) -> None:
    """Let the board be joined without a code, or not."""
    assert app.table is not None
    app.table_call(app.table.set_allow_viewers, allow)


def _code(label: str, code: str, identifier: str) -> ft.Control:
    return ft.Column([text(label, 15, color=MUTED),
                      text(" ".join(code), 34, bold=True, color=GOLD, ident_=identifier)],
                     spacing=0)


def host_view(app: AppState) -> list[ft.Control]:
    """Everything a table needs to join this game."""
    table, tv = app.table, app.view
    assert table is not None and tv is not None
    urls = [join_url(base, table.table_id) for base in app.base_urls]
    body: list[ft.Control] = []
    if urls:
        body.append(card(
            heading("Scan to join", 20),
            ft.Image(src=qr_png(urls[0]), width=260, height=260, fit=ft.BoxFit.CONTAIN),
            text(urls[0], 20, bold=True, ident_="join-url"),
            *[text(u, 16, color=MUTED, ident_=f"join-url-{i}") for i, u in
              enumerate(urls[1:], start=1)],
            text("Phones on the same network open this address (or scan the code).", 15,
                 color=MUTED), ident_="join-address",
        ))
    else:
        body.append(card(text(f"Table {table.table_id}: start the app with --web so phones "
                              "can join.", 16, ident_="join-url")))
    body.append(card(
        ft.Row([_code("Code for a player's seat", table.join_code, "join-code"),
                _code("Referee code", table.referee_code, "referee-code")],
               wrap=True, spacing=30),
        text("Tell the players the seat code; keep the referee code to yourself.", 15,
             color=MUTED)))
    rows: list[ft.Control] = [heading("Seats", 20)]
    for seat in tv.seats:
        rows.append(ft.Row([
            text(seat.name, 18, bold=True),
            text("on a phone" if seat.taken else "free (the referee enters for them)", 15,
                 color=GOLD if seat.taken else MUTED, ident_=f"seat-{seat.player}"),
            *([button("Free", lambda e, p=seat.player: on_seat_free(app, p), primary=False,
                      ident_=f"free-{seat.player}")] if seat.taken else []),
        ], wrap=True, spacing=10))
    body.append(card(*rows, color=SURFACE_HI))
    allow = table.allow_viewers
    body.append(card(
        heading("The board", 20),
        wrap(button(f"Board without a code: {'on' if allow else 'off'}",
                    lambda e: on_viewers_toggle(app, not allow), primary=False,
                    selected=allow, ident_="viewers")),
        text("On: anyone who opens the address may show the public board (never a secret).",
             15, color=MUTED)))
    body.append(button("Back to the game", lambda e: app.go("game"), ident_="to-game"))
    return frame(app, f"Table {table.table_id}", body, subtitle="Join this table")
