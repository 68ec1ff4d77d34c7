"""The referee's join screen of a table: its join address on every network interface and a QR
code of it, who holds which seat, each seat's own code (with a QR that fills it in) shown on
request one at a time, the board code and the referee code on request, the viewers setting."""

import io

import flet as ft
import segno

from companion.table.network import join_url
from views.frame import frame
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE_HI, button, card, heading, text, wrap


def qr_png(url: str) -> bytes:
    """A QR code of `url` as PNG bytes (dark on white, with a quiet zone)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=8, border=3)
    return buf.getvalue()


def on_seat_free(app: AppState, player: int) -> None:
    """Free a player's seat (a lost or flat phone), after a confirmation: the seat gets a new
    code, shown here for that player to take it back on another device."""
    assert app.table is not None and app.view is not None
    name = app.view.state.players[player].name

    def free() -> None:
        assert app.table is not None
        if app.table_call(app.table.free_seat, player):
            app.draft("host")["show"] = f"seat-{player}"
            app.render()

    app.ask(app._("Free {name}'s seat?", name=name),
            app._("The phone holding it loses it at once. {name}'s seat gets a new code: show "
                  "it to them to take the seat on another device.", name=name),
            app._("Free the seat"), free)


def on_viewers_toggle(app: AppState, allow: bool) -> None:
    """Let the board be joined without a code, or not."""
    assert app.table is not None
    app.table_call(app.table.set_allow_viewers, allow)


def on_code_show(app: AppState, which: str | None) -> None:
    """Show one code (a seat's, the board's or the referee's), or hide it: one at a time, so
    the screen can be turned to that one player."""
    app.draft("host")["show"] = which
    app.render()


def _code(label: str, code: str, identifier: str) -> ft.Control:
    return ft.Column([text(label, 15, color=MUTED),
                      text(" ".join(code), 34, bold=True, color=GOLD, ident_=identifier)],
                     spacing=0)


def _shown_code(app: AppState, label: str, code: str, identifier: str,
                url: str | None) -> list[ft.Control]:
    """A code on request, with its QR (the address that fills it in) and a Hide button."""
    out: list[ft.Control] = [_code(label, code, identifier)]
    if url:
        out.append(ft.Image(src=qr_png(url), width=200, height=200, fit=ft.BoxFit.CONTAIN))
    out.append(button(app._("Hide the code"), lambda e: on_code_show(app, None), primary=False,
                      ident_=f"{identifier}-hide"))
    return out


def seat_url(base: str, table_id: str, player: int, code: str) -> str:
    """The join address that picks this seat and fills in its code (a QR for that player)."""
    return f"{join_url(base, table_id)}?seat={player}&code={code}"


def host_view(app: AppState) -> list[ft.Control]:
    """Everything a table needs to join this game. No code is on screen unless asked for, one
    at a time: this screen is often turned to the table."""
    table, tv = app.table, app.view
    assert table is not None and tv is not None
    show = app.draft("host").get("show")
    urls = [join_url(base, table.table_id) for base in app.base_urls]
    body: list[ft.Control] = []
    if urls:
        body.append(card(
            heading(app._("Scan to join"), 20),
            ft.Image(src=qr_png(urls[0]), width=260, height=260, fit=ft.BoxFit.CONTAIN),
            text(urls[0], 20, bold=True, ident_="join-url"),
            *[text(u, 16, color=MUTED, ident_=f"join-url-{i}") for i, u in
              enumerate(urls[1:], start=1)],
            text(app._("Phones on the same network open this address (or scan the code). Each "
                       "player then needs their own seat's code: tap Show code beside their "
                       "name and let only them see it."), 15, color=MUTED),
            ident_="join-address",
        ))
    else:
        body.append(card(text(app._("Table {table}: start the app with --web so phones can "
                                    "join.", table=table.table_id), 16, ident_="join-url")))
    rows: list[ft.Control] = [heading(app._("Seats"), 20)]
    for seat in tv.seats:
        p = seat.player
        status = app._("on a phone") if seat.taken else \
            app._("free (the referee enters for them)")
        line: list[ft.Control] = [
            text(seat.name, 18, bold=True),
            text(status, 15, color=GOLD if seat.taken else MUTED, ident_=f"seat-{p}")]
        if seat.taken:
            line.append(button(app._("Free {name}'s seat", name=seat.name),
                               lambda e, p=p: on_seat_free(app, p),
                               primary=False, ident_=f"free-{p}"))
        elif show != f"seat-{p}":
            line.append(button(app._("Show {name}'s code", name=seat.name),
                               lambda e, p=p: on_code_show(app, f"seat-{p}"), primary=False,
                               ident_=f"show-code-{p}"))
        rows.append(ft.Row(line, wrap=True, spacing=10))
        if show == f"seat-{p}" and not seat.taken:
            code = table.seat_code(p)
            url = seat_url(app.base_urls[0], table.table_id, p, code) if app.base_urls else None
            rows.append(card(*_shown_code(app, app._("{name}'s seat code", name=seat.name), code,
                                          f"seat-code-{p}", url), ident_=f"code-card-{p}"))
    body.append(card(*rows, color=SURFACE_HI))
    allow = table.allow_viewers
    board: list[ft.Control] = [
        heading(app._("The board"), 20),
        wrap(button(app._("Board without a code: on") if allow else
                    app._("Board without a code: off"),
                    lambda e: on_viewers_toggle(app, not allow), primary=False,
                    selected=allow, ident_="viewers")),
        text(app._("On: anyone who opens the address may show the public board (never a "
                   "secret)."), 15, color=MUTED)]
    if not allow:
        board += _shown_code(app, app._("Board code"), table.join_code, "join-code", None) \
            if show == "board" else [button(app._("Show the board code"),
                                            lambda e: on_code_show(app, "board"),
                                            primary=False, ident_="show-board-code")]
    body.append(card(*board))
    referee: list[ft.Control] = [heading(app._("Another referee"), 20), text(
        app._("A second device can referee with this code. Keep it to yourself."), 15,
        color=MUTED)]
    referee += _shown_code(app, app._("Referee code"), table.referee_code, "referee-code",
                           None) \
        if show == "referee" else [button(app._("Show the referee code"),
                                          lambda e: on_code_show(app, "referee"),
                                          primary=False, ident_="show-referee-code")]
    body.append(card(*referee, color=SURFACE_HI))
    body.append(button(app._("Back to the game"), lambda e: app.go("game"), ident_="to-game"))
    return frame(app, app._("Table {table}", table=table.table_id), body,
                 subtitle=app._("Join this table"))
