"""The frame around every screen: title bar (in a game: what happens now), scrolling body, main
button with the last tap's news right above it, and the undo bar.

The screen belongs to the choices: the title bar holds its icons and one line of status, with
what happens now under them at full width (two lines at most; a tap shows the rest). Pinned at
the bottom are only the refusal of the last tap (until the input it names changes), one line of
news (a tap opens it, a cross closes it), the screen's main button (marked with `theme.main`,
after the choices it acts on: a main button that cannot act yet says what is missing) and the
undo bar; together at most about a quarter of a small phone's height. What Undo takes back
otherwise heads the content. Each new turn or step gets a new scroll view, so it starts at the
top. On a wide screen the board stands beside the form; on a phone lying on its side the bars
are compact.
"""

from __future__ import annotations

import math

import flet as ft

from models.message import place, term
from models.state import GameState
from views.locations_panel import ENGLISH_WORDS, EnglishWords
from views.state import AppState
from views.theme import (
    BG,
    BLOOD_DARK,
    FRENZY_TEXT,
    GOLD,
    MAIN,
    MUTED,
    NEWS_BG,
    SMALL,
    SURFACE,
    TEXT,
    TOUCH,
    button,
    error_box,
    icon_button,
    ident,
)

NEWS_LINES = {"phone": 7, "landscape": 2, "wide": 12}
"""Wrapped lines of news an opened news line shows before pointing to the Log."""
PROMPT_LINES = 2
"""Lines of "what happens now" shown before a tap shows the rest."""


def status_line(app: AppState) -> str:
    """Round, phase and step of the open game; during Planning, on the referee's game screen,
    the acting player's numbers."""
    s = app.game.state
    if s.phase == "planning" and app.screen == "game" and app.is_referee:
        from views.planning import actor_line  # a game's screens only

        return actor_line(app, app.legal())
    return where_line(s, app)


def where_line(s: GameState, app: AppState | EnglishWords | None = None) -> str:
    """Round, phase and step (a seat's subtitle: never another player's numbers), in `app`'s
    language (English without one)."""
    app = ENGLISH_WORDS if app is None else app
    if s.phase == "resolution" and s.location is not None and s.step:
        where = app._("{place} · {step}", place=place(s.location.id), step=term(s.step))
    else:
        where = app._("{phase}", phase=term(s.phase))
    return app._("Round {n} · {where}", n=s.round, where=where) if s.round else where


def _frame_draft(app: AppState) -> dict:
    """What the reader opened in the bars: the whole prompt, the whole news."""
    return app.draft("frame")


def on_prompt_toggle(app: AppState) -> None:
    """Show the whole of what happens now, or two lines of it again."""
    d = _frame_draft(app)
    d["prompt"] = not d.get("prompt")
    app.render(keep_news=True)


def _fits(words: str, width: float, size: int, lines: int) -> bool:
    """Whether a text of `size` px fits in `lines` lines of a bar this wide (an estimate:
    a little over half its size per character)."""
    per_line = max(12, int((width - 32) / (size * 0.56)))
    return math.ceil(len(words) / per_line) <= lines


def title_bar(app: AppState, title: str, subtitle: str | None = None,
              prompt: tuple[str, str | None] | None = None) -> ft.Control:
    """The top bar: Back, title or status, Help, Home in one row; in a game, what happens now
    (whose turn, which step) under them at full width, with the help button of its rules
    section (`prompt`: the line and that section's key). Kept between renders while it shows
    the same."""
    compact = app.layout() == "landscape"
    away = app.screen != "home" and app.problem is None
    back = away and app.can_go_back()
    home = away and app.host
    opened = bool(_frame_draft(app).get("prompt"))
    width = (app.size or (390, 844))[0]
    inputs = (title, subtitle, prompt, compact, back, home, opened, width)
    return app.memo("title-bar", inputs, lambda: _title_bar(app, *inputs))


def _title_bar(app: AppState, title: str, subtitle: str | None,
               prompt: tuple[str, str | None] | None, compact: bool, back: bool,
               home: bool, opened: bool, width: float) -> ft.Control:
    size = 44 if compact else TOUCH
    row: list[ft.Control] = []
    if back:
        row.append(icon_button("back", ft.Icons.ARROW_BACK, app._("Back"),
                               lambda e: on_back_click(app), size=size))
    if prompt and compact:  # a phone on its side: one row, what happens now in it
        head: list[ft.Control] = [_prompt(app, prompt[0], SMALL, opened, width - 3 * size)]
        if subtitle:
            head.append(ident("status", ft.Text(subtitle, size=SMALL, color=MUTED, max_lines=1,
                                                overflow=ft.TextOverflow.ELLIPSIS)))
    elif prompt:  # the status (whose numbers, where) beside the icons
        head = [ident("status", ft.Text(subtitle or "", size=SMALL, color=MUTED, max_lines=2,
                                        overflow=ft.TextOverflow.ELLIPSIS))] if subtitle else []
    else:
        head = [ident("title", ft.Text(title, size=20, weight=ft.FontWeight.BOLD, color=TEXT))]
        if subtitle:
            head.append(ident("status", ft.Text(subtitle, size=SMALL, color=GOLD)))
    row.append(ft.Column(head, spacing=0, expand=True))
    if prompt and prompt[1] is not None:
        from views.help_button import help_button  # a game's screens only

        row.append(help_button(app, prompt[1], size))
    if home:
        row.append(icon_button("home", ft.Icons.HOME, app._("Home"), lambda e: on_home_click(app),
                               size=size))
    bar: list[ft.Control] = [ft.Row(row, spacing=4,
                                    vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if prompt and not compact:
        bar.append(_prompt(app, prompt[0], 18, opened, width))
    return ft.Container(content=ft.Column(bar, spacing=0), bgcolor=BLOOD_DARK, key="title-bar",
                        padding=ft.Padding.only(left=4, right=4, top=0 if compact else 2,
                                                bottom=2 if compact else 8))


def _prompt(app: AppState, words: str, size: int, opened: bool, width: float) -> ft.Control:
    """What happens now: at most PROMPT_LINES lines (at any text size), a tap shows the rest
    (a screen reader reads it whole). The arrow shows when it is longer than that at the
    usual text size."""
    long = not _fits(words, width, size, PROMPT_LINES)
    # (an ellipsis without a line limit would cut the text to one line)
    shown = ident("prompt", ft.Text(
        words, size=size, color=GOLD, weight=ft.FontWeight.BOLD,
        max_lines=None if opened else PROMPT_LINES,
        overflow=ft.TextOverflow.CLIP if opened else ft.TextOverflow.ELLIPSIS))
    body: ft.Control = shown
    if long:
        arrow = ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE
        body = ft.Row([ft.Container(shown, expand=True), ft.Icon(arrow, color=GOLD, size=22)],
                      spacing=4, vertical_alignment=ft.CrossAxisAlignment.START)
    return ft.Container(content=body, on_click=lambda e: on_prompt_toggle(app), ink=True,
                        border_radius=8, padding=ft.Padding.symmetric(horizontal=6, vertical=2))


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
        ft.Text(app._("Not saved yet: {reason}",
                      reason=svc.save_error or app._("the disk refused it")), size=16,
                color=TEXT, weight=ft.FontWeight.BOLD),
        ft.Text(app.n_("The last {n} action is on the table here but not on disk. Keep the app "
                       "open: it is saved as soon as the disk accepts it (tried again every "
                       "few seconds, or tap Retry).",
                       "The last {n} actions are on the table here but not on disk. Keep the "
                       "app open: they are saved, in order, as soon as the disk accepts them "
                       "(tried again every few seconds, or tap Retry).", len(svc.unsaved)),
                size=SMALL, color=TEXT),
        button(app._("Retry saving"), lambda e: on_retry_click(app), ident_="retry-save",
               icon=ft.Icons.SAVE),
    ]
    return ident("save-problem", ft.Container(
        content=ft.Column(lines, spacing=6), bgcolor="#3a1a12",
        border=ft.Border.all(2, "#ff8a65"), border_radius=10, padding=12))


def on_news_more(app: AppState) -> None:
    """Read everything the last tap did, in the Log."""
    app.go("log")


def on_news_toggle(app: AppState) -> None:
    """Open the news line (every sentence), or fold it to one line again."""
    d = _frame_draft(app)
    d["news"] = not d.get("news")
    app.render(keep_news=True)


def on_news_close(app: AppState) -> None:
    """Put the news away (what Undo takes back stays at the top of the content)."""
    app.notice = []
    _frame_draft(app).pop("news", None)
    app.render()


def on_news_undo(app: AppState) -> None:
    """Undo, from the news of the tap that did it (a drain's toast)."""
    app.undo()


def _lines(sentence: str, width: float) -> int:
    """Lines a sentence wraps to at SMALL px in a panel of this width (an estimate)."""
    per_line = max(20, int((width - 48) / 8.6))
    return math.ceil(len(sentence) / per_line)


def refusal(app: AppState) -> str | None:
    """The refusal of the last tap while the input it names is unchanged: it goes by itself
    as soon as any choice or typed value of the screen changes (or the next tap plays)."""
    if not app.error:
        app.drafts.get("frame", {}).pop("refused", None)
        return None
    seen = repr({k: v for k, v in app.drafts.items() if k != "frame"})
    d = _frame_draft(app)
    said = d.get("refused")
    # A refusal given again is a new text object (messages are formatted anew): shown anew,
    # even when it reads the same as the one before.
    if said is None or said[0] is not app.error:
        d["refused"] = (app.error, seen)
    elif said[1] != seen:  # the input changed since: the refusal no longer applies
        app.error = None
        d.pop("refused", None)
        return None
    return app.error


def clear_refusal(app: AppState) -> None:
    """A typed value changed (a text box draws nothing by itself): the refusal shown goes."""
    if app.error:
        app.error = None
        app.render(keep_news=True)


def _game_news(app: AppState) -> bool:
    """Whether this screen shows a game's news line (the referee's game, table and log)."""
    return app.table is not None and app.screen in ("game", "table", "log") and \
        app.is_referee


def news(app: AppState) -> list[ft.Control]:
    """What is not saved, the refusal (if any) and what the last action did: one line on the
    referee's game screens (a tap opens it), every sentence elsewhere."""
    out: list[ft.Control] = []
    if banner := save_banner(app):
        out.append(banner)
    if refused := refusal(app):
        out.append(error_box(refused, app=app))
    if not app.notice:
        return out
    if _game_news(app):
        out.append(news_line(app))
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


def _sentence(line: str) -> ft.Text:
    return ft.Text(line, size=SMALL, color=FRENZY_TEXT if "Frenzy" in line else TEXT)


def _news_box(app: AppState, shown: list[str], rest: int, more: bool) -> ft.Control:
    lines: list[ft.Control] = [_sentence(line) for line in shown]
    if more:
        lines.append(_more_link(app, rest))
    return ident("notice", ft.Container(
        content=ft.Column([ft.Text(app._("Just happened"), size=SMALL, color=MUTED), *lines],
                          spacing=3),
        bgcolor=NEWS_BG, border=ft.Border.all(1, GOLD), border_radius=10,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8)))


def _more_link(app: AppState, rest: int) -> ft.Control:
    return ident("notice-more", ft.TextButton(
        app.n_("…and {n} more: read them in the Log", "…and {n} more: read them in the Log",
               rest), on_click=lambda e: on_news_more(app),
        style=ft.ButtonStyle(color=GOLD, text_style=ft.TextStyle(size=SMALL))))


def undo_line(app: AppState) -> str:
    """'Undo takes back #12: Ann plays…' (what the Undo button would take back)."""
    g = app.game
    last = _last_headline(app) if g.actions else app._("nothing yet")
    return app._("Undo takes back #{number}: {action}", number=str(len(g.actions)), action=last)


def _last_headline(app: AppState) -> str:
    """The last action's first sentence (or what its command did), in the device's
    language."""
    from companion.story import narrator_commands  # a game's screens only
    from companion.story.review import headline, told

    g = app.game
    if app.t.english:
        return headline(g)
    said = told(g, -1, app.t)
    if said:
        return said[0]
    return app.words(narrator_commands.headline(g.state_at(len(g.actions) - 1),
                                                g.actions[-1].command, g.state))


def news_line(app: AppState) -> ft.Control:
    """The last tap's news in one line ("Just happened #12: …"), a tap opens every sentence;
    a cross puts it away. After a drain it carries its own Undo (the toast of a tap that
    cost Influence)."""
    g = app.game
    opened = bool(_frame_draft(app).get("news"))
    drained = bool(g.actions) and getattr(g.actions[-1].command, "type", "") == "drain"
    inputs = (tuple(app.notice), len(g.actions), opened, drained, g.can_undo())
    return app.memo("notice", inputs, lambda: _news_line(app, opened, drained))


def _news_line(app: AppState, opened: bool, drained: bool) -> ft.Control:
    g = app.game
    first = _last_headline(app) if g.actions else app.notice[0]
    head = ident("undo-hint", ft.Text(
        app._("Just happened #{number}: {action}", number=str(len(g.actions)), action=first),
        size=SMALL, color=TEXT,
        weight=ft.FontWeight.W_600, max_lines=None if opened else 1,
        overflow=ft.TextOverflow.CLIP if opened else ft.TextOverflow.ELLIPSIS))
    row: list[ft.Control] = [
        ft.Container(content=ft.Row([ft.Container(head, expand=True), ft.Icon(
            ft.Icons.EXPAND_LESS if opened else ft.Icons.EXPAND_MORE, color=GOLD, size=22,
            semantics_label=app._("Show less") if opened else app._("Show all"))], spacing=2),
            on_click=lambda e: on_news_toggle(app), ink=True, expand=True,
            padding=ft.Padding.only(left=10, right=4, top=6, bottom=6), border_radius=8)]
    if drained and g.can_undo():
        row.append(ident("toast-undo", ft.TextButton(
            app._("Undo"), on_click=lambda e: on_news_undo(app), height=TOUCH,
            style=ft.ButtonStyle(color=GOLD, text_style=ft.TextStyle(
                size=SMALL, weight=ft.FontWeight.BOLD)))))
    row.append(icon_button("notice-close", ft.Icons.CLOSE, app._("Close the news"),
                           lambda e: on_news_close(app), color=MUTED, size=44))
    parts: list[ft.Control] = [ft.Row(row, spacing=0,
                                      vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if opened:
        width = (app.size or (390, 844))[0]
        budget, shown = NEWS_LINES[app.layout()], []
        for sentence in app.notice:
            cost = _lines(sentence, width)
            if shown and cost > budget:
                break
            shown.append(sentence)
            budget -= cost
        rest = len(app.notice) - len(shown)
        body: list[ft.Control] = [_sentence(line) for line in shown]
        if rest:
            body.append(_more_link(app, rest))
        parts.append(ft.Container(ft.Column(body, spacing=3),
                                  padding=ft.Padding.only(left=10, right=10, bottom=8)))
    return ident("notice", ft.Container(  # a gold edge, no frame: one line is 44 px in all
        content=ft.Column(parts, spacing=0), bgcolor=NEWS_BG, border_radius=10,
        border=ft.Border.only(left=ft.BorderSide(4, GOLD))))


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
    """Undo / Redo / Table / Log, always one tap away (what Undo takes back heads the content,
    or is the news line). Lying on its side, a phone shows the main button in the same
    row. The row wraps between buttons at any text size (never a word cut)."""
    g = app.game
    compact = app.layout() == "landscape"
    if compact and mains:
        for m in mains:
            m.expand = 2
        row: ft.Control = ft.Row([*_undo_buttons(app, True), *mains], spacing=6)
    else:  # the buttons change only with what can be undone and the screen: kept till then
        inputs = (g.can_undo(), g.can_redo(), app.screen)
        row = app.memo("undo-buttons", inputs, lambda: ft.Row(
            _undo_buttons(app, False), spacing=4, run_spacing=4, wrap=True,
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN))
    bar = ft.Container(content=row, bgcolor=SURFACE, expand=True,
                       padding=ft.Padding.only(left=8, right=8, top=2))
    return ft.Row([bar], spacing=0, key="undo-bar")  # the whole width, its buttons spread


def _nav(label: str, icon: ft.IconData, handler, ident_: str, spoken: str, *,
         selected: bool = False, expand: bool = False, app: AppState | None = None
         ) -> ft.Control:
    """A bar button: its word only (four fit a 320-px phone in one row), its icon when the
    bar is beside the main button on a phone lying on its side."""
    b = button(label, handler, primary=False, selected=selected, ident_=ident_,
               icon=icon if expand and not selected else None, spoken=spoken, expand=expand,
               app=app)
    if not expand:  # four to a row: on a 320-px phone, and at 200 % text on a 390-px one
        style = b.content.style
        style.padding = ft.Padding.symmetric(horizontal=8, vertical=12.5)  # 44 px high
        style.text_style = ft.TextStyle(size=SMALL, weight=ft.FontWeight.W_600)
    return b


def _undo_buttons(app: AppState, expand: bool) -> list[ft.Control]:
    g = app.game
    return [
        _nav(app._("Undo"), ft.Icons.UNDO,
             (lambda e: on_undo_click(app)) if g.can_undo() else None, "undo",
             app._("Undo the last action") if g.can_undo() else
             app._("Undo: nothing to take back"), expand=expand),
        _nav(app._("Redo"), ft.Icons.REDO,
             (lambda e: on_redo_click(app)) if g.can_redo() else None, "redo",
             app._("Redo") if g.can_redo() else app._("Redo: nothing was taken back"),
             expand=expand),
        _nav(app._("Table"), ft.Icons.TABLE_CHART_OUTLINED,
             lambda e: on_view_toggle(app, "table"), "nav-table",
             app._("Table: every player and Location"), selected=app.screen == "table",
             expand=expand, app=app),
        _nav(app._("Log"), ft.Icons.HISTORY, lambda e: on_view_toggle(app, "log"), "nav-log",
             app._("Log: every action"), selected=app.screen == "log", expand=expand,
             app=app),
    ]


def action_area(app: AppState, mains: list[ft.Control], below: bool) -> ft.Control | None:
    """The refusal or news of the last tap, right above the main button (pinned)."""
    parts = news(app) + ([] if below else mains)
    if not parts:
        return None
    return ident("pinned", ft.Container(
        content=ft.Column(parts, spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        bgcolor=BG, padding=ft.Padding.only(left=8, right=8, top=2, bottom=2),
        border=ft.Border.only(top=ft.BorderSide(1, "#3a2327"))))


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
    if game_bar and layout != "landscape" and not (_game_news(app) and app.notice):
        hint = undo_line(app)
        rest.insert(1 if rest else 0, app.memo("undo-hint", hint, lambda: ident(
            "undo-hint", ft.Text(hint, size=SMALL, color=MUTED, max_lines=1,
                                 overflow=ft.TextOverflow.ELLIPSIS))))
    scroller = ft.Column(rest, expand=True, spacing=12,
                         scroll=None if fixed else ft.ScrollMode.AUTO,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                         key=f"scroll-{app.screen}-{place}")
    in_bar = game_bar and layout == "landscape"
    area = action_area(app, mains, in_bar)
    content = ident("content", ft.Container(content=scroller, expand=True, bgcolor=BG,
                                            padding=ft.Padding.all(12)))
    content.expand = True
    column: list[ft.Control] = [content]
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
