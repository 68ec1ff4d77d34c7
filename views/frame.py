"""The frame around every screen: title bar (in a game: what happens now), scrolling body, main
button with the last tap's news right above it, and the undo bar.

What must never scroll away stays pinned: "whose turn / what now" in the title bar, the screen's
main button (marked with `theme.main`) and the refusal or news of the last tap at the bottom. Each
new turn or step gets a new scroll view, so it starts at the top. On a wide screen the board
stands beside the form; on a phone lying on its side the bars are compact.
"""

from __future__ import annotations

import math

import flet as ft

from companion.story.words import title
from models.common import location_name
from models.state import GameState
from views.state import AppState
from views.theme import (
    BG,
    BLOOD_DARK,
    GOLD,
    MAIN,
    MUTED,
    SMALL,
    SURFACE,
    TEXT,
    button,
    error_box,
    ident,
)

NEWS_LINES = {"phone": 7, "landscape": 2, "wide": 12}
"""Wrapped lines of news the pinned area shows before pointing to the Log."""


def status_line(app: AppState) -> str:
    """Round, phase and step of the open game; during Planning, on the referee's game screen,
    the acting player's numbers."""
    s = app.game.state
    if s.phase == "planning" and app.screen == "game" and app.is_referee:
        from views.planning import actor_line  # a game's screens only

        return actor_line(app, app.legal())
    return where_line(s)


def where_line(s: GameState) -> str:
    """Round, phase and step (a seat's subtitle: never another player's numbers)."""
    parts = [f"Round {s.round}"] if s.round else []
    if s.phase == "resolution" and s.location is not None and s.step:
        parts.append(f"{location_name(s.location.id)} · {title(s.step)}")
    else:
        parts.append(title(s.phase))
    return " · ".join(parts)


def _icon(app: AppState, name: str, icon: ft.IconData, handler, size: int) -> ft.Control:
    return ident(name, ft.IconButton(icon=icon, icon_color=TEXT, tooltip=name.capitalize(),
                                     icon_size=size - 24, on_click=lambda e: handler(app),
                                     width=size, height=size), name.capitalize())


def title_bar(app: AppState, title: str, subtitle: str | None = None,
              prompt: tuple[str, str | None] | None = None) -> ft.Control:
    """The top bar: Back, title and subtitle, Home. In a game, what happens now (whose turn,
    which step) takes the title's place, with the help button of its rules section (`prompt`:
    the line and that section's key). Kept between renders while it shows the same."""
    compact = app.layout() == "landscape"
    away = app.screen != "home" and app.problem is None
    back = away and app.can_go_back()
    home = away and app.host
    inputs = (title, subtitle, prompt, compact, back, home)
    return app.memo("title-bar", inputs, lambda: _title_bar(app, *inputs))


def _title_bar(app: AppState, title: str, subtitle: str | None,
               prompt: tuple[str, str | None] | None, compact: bool, back: bool,
               home: bool) -> ft.Control:
    if prompt:
        col: list[ft.Control] = [ident("prompt", ft.Text(
            prompt[0], size=SMALL if compact else 18, color=GOLD, weight=ft.FontWeight.BOLD))]
    else:
        col = [ident("title", ft.Text(title, size=20, weight=ft.FontWeight.BOLD, color=TEXT))]
    if subtitle:
        col.append(ident("status", ft.Text(subtitle, size=SMALL,
                                           color=MUTED if prompt else GOLD)))
    size = 48 if compact else 52
    row: list[ft.Control] = []
    if back:
        row.append(_icon(app, "back", ft.Icons.ARROW_BACK, on_back_click, size))
    row.append(ft.Column(col, spacing=0 if compact else 2, expand=True))
    if prompt and prompt[1] is not None:
        from views.help_button import help_button  # a game's screens only

        row.append(help_button(app, prompt[1]))
    if home:
        row.append(_icon(app, "home", ft.Icons.HOME, on_home_click, size))
    return ft.Container(content=ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                        bgcolor=BLOOD_DARK, key="title-bar",
                        padding=ft.Padding.symmetric(horizontal=10 if compact else 14,
                                                     vertical=2 if compact else 8))


def on_back_click(app: AppState) -> None:
    """Back to the previous screen."""
    app.notice = []
    app.back()


def on_home_click(app: AppState) -> None:
    """Back to the home screen (the game stays stored)."""
    app.drafts.clear()
    app.notice = []
    app.go("home")


def on_retry_click(app: AppState) -> None:
    """Try again to save the actions the disk refused."""
    app.retry_save()


def save_banner(app: AppState) -> ft.Control | None:
    """What is not saved yet and why, with a Retry button (None when all is saved)."""
    svc = app.session
    if svc is None or not svc.unsaved:
        return None
    lines = [
        ft.Text(f"Not saved yet: {svc.save_error or 'the disk refused it'}", size=16,
                color=TEXT, weight=ft.FontWeight.BOLD),
        ft.Text(f"The last {len(svc.unsaved)} action(s) are on the table here but not on disk. "
                "Keep the app open: they are saved, in order, as soon as the disk accepts "
                "them (tried again every few seconds, or tap Retry).", size=SMALL, color=TEXT),
        button("Retry saving", lambda e: on_retry_click(app), ident_="retry-save",
               icon=ft.Icons.SAVE),
    ]
    return ident("save-problem", ft.Container(
        content=ft.Column(lines, spacing=6), bgcolor="#3a1a12",
        border=ft.Border.all(2, "#ff8a65"), border_radius=10, padding=12))


def on_news_more(app: AppState) -> None:
    """Read everything the last tap did, in the Log."""
    app.go("log")


def _lines(sentence: str, width: float) -> int:
    """Lines a sentence wraps to at SMALL px in a panel of this width (an estimate)."""
    per_line = max(20, int((width - 48) / 8.6))
    return math.ceil(len(sentence) / per_line)


def news(app: AppState) -> list[ft.Control]:
    """What is not saved, the refusal (if any) and what the last action did: as much as fits;
    the rest is one tap away in the Log."""
    out: list[ft.Control] = []
    if banner := save_banner(app):
        out.append(banner)
    if app.error:
        out.append(error_box(app.error))
    if not app.notice:
        return out
    width = (app.size or (390, 844))[0]
    if app.layout() == "wide":
        width *= 0.6
    budget, shown = NEWS_LINES[app.layout()], []
    for sentence in app.notice:
        cost = _lines(sentence, width)
        if shown and cost > budget:
            break
        shown.append(sentence)
        budget -= cost
    rest = len(app.notice) - len(shown)
    if rest and not app.is_referee:  # a seat or the board has no Log: every line, here
        shown, rest = list(app.notice), 0
    more = bool(rest) and app.table is not None and app.screen in ("game", "table")
    # The same news (e.g. the same effect applied again) is kept as it is on screen.
    out.append(app.memo("notice", (tuple(shown), rest, more),
                        lambda: _news_box(app, shown, rest, more)))
    return out


def _news_box(app: AppState, shown: list[str], rest: int, more: bool) -> ft.Control:
    lines: list[ft.Control] = [ft.Text(line, size=SMALL,
                                       color="#ffb3b3" if "Frenzy" in line else TEXT)
                               for line in shown]
    if more:
        lines.append(ident("notice-more", ft.TextButton(
            f"…and {rest} more: read them in the Log", on_click=lambda e: on_news_more(app),
            style=ft.ButtonStyle(color=GOLD, text_style=ft.TextStyle(size=SMALL))),
            "More news"))
    return ident("notice", ft.Container(
        content=ft.Column([ft.Text("Just happened", size=SMALL, color=MUTED), *lines],
                          spacing=3),
        bgcolor="#261417", border=ft.Border.all(1, GOLD), border_radius=10,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8)))


def _notice(notice: list[str]) -> ft.Control:
    lines = [ft.Text(line, size=16, color="#ffb3b3" if "FRENZY" in line else TEXT)
             for line in notice]
    return ident("notice", ft.Container(
        content=ft.Column([ft.Text("Just happened", size=14, color=MUTED), *lines], spacing=4),
        bgcolor="#261417", border=ft.Border.all(1, GOLD), border_radius=10, padding=12))


def on_undo_click(app: AppState) -> None:
    """Take back the last action."""
    app.undo()


def on_redo_click(app: AppState) -> None:
    """Play again what was taken back."""
    app.redo()


def on_view_toggle(app: AppState, screen: str) -> None:
    """Switch between the phase screen, the table dashboard and the log."""
    app.notice = []
    app.go("game" if app.screen == screen else screen)


def undo_bar(app: AppState, mains: list[ft.Control] | None = None) -> ft.Control:
    """Undo / Redo / Table / Log, always one tap away, with what Undo will take back. Lying on
    its side, a phone shows the main button in the same row and no hint."""
    g = app.game
    compact = app.layout() == "landscape"
    if compact and mains:
        for m in mains:
            m.expand = 2
        row: ft.Control = ft.Row([*_undo_buttons(app), *mains], spacing=6)
    else:  # the buttons change only with what can be undone and the screen: kept till then
        inputs = (g.can_undo(), g.can_redo(), app.screen)
        row = app.memo("undo-buttons", inputs, lambda: ft.Row(_undo_buttons(app), spacing=6))
    parts: list[ft.Control] = [row]
    if not compact:
        from companion.story.review import headline  # a game's screens only

        last = headline(g) if g.actions else "nothing yet"
        parts.insert(0, ident("undo-hint", ft.Text(
            f"Undo takes back #{len(g.actions)}: {last}", size=SMALL, color=MUTED, max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS)))
    return ft.Container(content=ft.Column(parts, spacing=4), bgcolor=SURFACE, key="undo-bar",
                        padding=ft.Padding.symmetric(horizontal=10, vertical=6 if compact else 8))


def _undo_buttons(app: AppState) -> list[ft.Control]:
    g = app.game
    return [
        button("Undo", (lambda e: on_undo_click(app)) if g.can_undo() else None,
               expand=True, primary=False, ident_="undo"),
        button("Redo", (lambda e: on_redo_click(app)) if g.can_redo() else None,
               expand=True, primary=False, ident_="redo"),
        button("Table", lambda e: on_view_toggle(app, "table"), expand=True,
               selected=app.screen == "table", primary=False, ident_="nav-table"),
        button("Log", lambda e: on_view_toggle(app, "log"), expand=True,
               selected=app.screen == "log", primary=False, ident_="nav-log"),
    ]


def action_area(app: AppState, mains: list[ft.Control], below: bool) -> ft.Control | None:
    """The refusal or news of the last tap, right above the main button (pinned)."""
    parts = news(app) + ([] if below else mains)
    if not parts:
        return None
    return ft.Container(content=ft.Column(parts, spacing=8,
                                          horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                        bgcolor=BG, padding=ft.Padding.only(left=12, right=12, top=8, bottom=8),
                        border=ft.Border.only(top=ft.BorderSide(1, "#3a2327")))


def frame(app: AppState, title: str, body: list[ft.Control], *, subtitle: str | None = None,
          game_bar: bool = False, prompt: tuple[str, str | None] | None = None,
          aside: list[ft.Control] | None = None, place: str = "",
          fixed: bool = False) -> list[ft.Control]:
    """The whole page: bars, the scrolling body, the pinned main button and news.

    `prompt`: what happens now, and the key of its rules section (a help button); `aside`:
    shown beside the body on a wide screen; `place`: where the game stands (a new value starts
    the body at the top); `fixed`: the body fills the screen and never scrolls (the board).
    """
    layout = app.layout()
    mains = [c for c in body if getattr(c, "data", None) == MAIN]
    rest = [c for c in body if getattr(c, "data", None) != MAIN]
    scroller = ft.Column(rest, expand=True, spacing=12,
                         scroll=None if fixed else ft.ScrollMode.AUTO,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                         key=f"scroll-{app.screen}-{place}")
    in_bar = game_bar and layout == "landscape"
    area = action_area(app, mains, in_bar)
    column: list[ft.Control] = [ft.Container(content=scroller, expand=True, bgcolor=BG,
                                             padding=ft.Padding.all(12))]
    if area is not None:
        column.append(area)
    main_part: ft.Control = ft.Column(column, expand=True, spacing=0)
    if layout == "wide" and aside:
        side = ft.Container(
            content=ft.Column(aside, spacing=10, scroll=ft.ScrollMode.AUTO,
                              horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                              key=f"aside-{app.screen}"),
            expand=2, bgcolor="#120a0b", padding=ft.Padding.all(12),
            border=ft.Border.only(left=ft.BorderSide(1, "#3a2327")))
        main_part.expand = 3
        board = ident("board", side)
        board.expand = 2
        main_part = ft.Row([main_part, board], expand=True, spacing=0,
                           vertical_alignment=ft.CrossAxisAlignment.STRETCH)
    out: list[ft.Control] = [title_bar(app, title, subtitle, prompt), main_part]
    if game_bar:
        out.append(undo_bar(app, mains if in_bar else None))
    return out
