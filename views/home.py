"""Home: new game, resume, history, quick score, rules and catalogue."""

from __future__ import annotations

import flet as ft

from companion.library.kinds import is_vendetta, kind_id, known, title
from models.message import term
from views.frame import frame
from views.language_picker import language_picker
from views.pager import page_start, pager
from views.state import AppState
from views.theme import MUTED, button, card, heading, ident, text


def on_new_click(app: AppState) -> None:
    """Open the new-game wizard."""
    app.drafts.pop("wizard", None)
    app.go("new")


def on_game_open(app: AppState, game_id: str) -> None:
    """Resume or view a stored game."""
    app.open_game(game_id)


def on_review_open(app: AppState, game_id: str) -> None:
    """Review a stored game: score, story, replay, charts."""
    app.open_review(game_id)


def on_pad_new(app: AppState, kind: str) -> None:
    """Start a score pad of another game of the family (Heritage, Blood Feud)."""
    app.drafts.pop(f"{kind}-new", None)
    app.go(kind)


def on_pad_open(app: AppState, kind: str, game_id: str, review: bool) -> None:
    """Open a stored pad: its entries, or (`review`) its result alone."""
    app.draft(f"{kind}-review")[game_id] = review
    app.go(kind, game_id)


def _pad_detail(app: AppState, s: dict) -> str:
    """Where a pad stands: its winner or tie, else its round."""
    if s.get("finished"):
        if s.get("tie"):  # a tie stays a tie; the Storyteller's pick is said beside it
            tied = [str(r.get("name")) for r in s.get("standings") or [] if r.get("rank") == 1]
            pick = s.get("winner") if s.get("winner") in tied else None
            names = app.t.join(tied) if tied else str(s.get("winner"))
            if pick:
                return app._("Tie: {names} (the Storyteller's pick: {pick})", names=names,
                             pick=pick)
            return app._("Tie: {names}", names=names)
        return app._("{name} wins", name=str(s.get("winner")))
    if s.get("needs_draw"):
        return app._("Tied: the primogen draw decides")
    if s.get("rounds"):
        return app._("Round {round} of {rounds}", round=s.get("round"), rounds=s.get("rounds"))
    return (app._("Round {round}", round=s.get("round")) if s.get("round")
            else app._("Not started"))


def _pad_row(app: AppState, s: dict, i: int, when: str) -> ft.Control:
    """A stored game of another game of the family: its name, players, where it stands."""
    kind, game_id, done = str(kind_id(s)), s["game_id"], bool(s.get("finished"))
    review = button(app._("Review"), lambda e: on_pad_open(app, kind, game_id, True),
                    primary=done or app.read_only, expand=True, ident_=f"review-{i}")
    edit = button(app._("Open"), lambda e: on_pad_open(app, kind, game_id, False), primary=not done,
                  expand=True, ident_=f"game-{i}")
    buttons = [review] if app.read_only else [review, edit] if done else [edit, review]
    return card(text(f"{title(s)}: {', '.join(s.get('players') or [])}", 18, bold=True),
                text(_pad_detail(app, s), 15, color=MUTED, ident_=f"detail-{i}"),
                text(when, 13, color=MUTED), ft.Row(buttons, spacing=6))


def _game_row(app: AppState, s: dict, i: int) -> ft.Control:
    players = ", ".join(s.get("players") or [])
    when = str(s.get("updated") or s.get("created") or "")[:16].replace("T", " ")
    when = app.t.datetime(when) if when else ""
    if not known(s):
        return card(text(players or str(s.get("game_id")), 18, bold=True),
                    text(app._("A game of {kind}: this version of the app does not know it. It "
                               "needs a newer version.", kind=repr(kind_id(s))), 15, color=MUTED,
                         ident_=f"unknown-{i}"),
                    text(when, 13, color=MUTED))
    if not is_vendetta(s):
        return _pad_row(app, s, i, when)
    if s.get("finished"):
        scores = s.get("scores") or {}
        detail = app._("Won by {winner}  ·  {scores}", winner=str(s.get("winner")),
                       scores=", ".join(f"{k} {app.t.number(v)}" for k, v in scores.items()))
        label = app._("Open at the table")
    else:
        phase = str(s.get("phase", ""))
        detail = (app._("Round {round} · {phase}", round=s.get("round"), phase=term(phase))
                  if s.get("round") else app._("Setting up"))
        label = app._("Resume")
    done = bool(s.get("finished"))
    review = button(app._("Review"), lambda e: on_review_open(app, s["game_id"]),
                    primary=done or app.read_only, expand=True, ident_=f"review-{i}")
    table = button(label, lambda e: on_game_open(app, s["game_id"]), primary=not done,
                   expand=True, ident_=f"game-{i}")
    buttons = [review] if app.read_only else [review, table] if done else [table, review]
    return card(
        text(players, 18, bold=True),
        text(f"{detail}", 15, color=MUTED),
        text(when, 13, color=MUTED),
        ft.Row(buttons, spacing=6),
    )


def on_rules_open(app: AppState) -> None:
    """The rules reference."""
    app.go("rules")


def on_stats_open(app: AppState) -> None:
    """Statistics across the finished games."""
    app.go("stats")


PAGE = {False: 5, True: 10}
"""Rows shown at once: games in progress, past games (the rest a page away; few rows keep
the home screen quick to draw on a phone whatever the history)."""


def on_page_turn(app: AppState, finished: bool, step: int) -> None:
    """Show the next older (+1) or newer (-1) page of games in progress or past games."""
    d = app.draft("home")
    d[finished] = max(0, d.get(finished, 0) + step * PAGE[finished])
    app.render()


def _page(app: AppState, finished: bool) -> tuple[list[dict], list[ft.Control]]:
    """One page of games, newest first, and (if there are more) its pager."""
    library, d = app.library, app.draft("home")
    total = library.count_games(finished)
    start = d[finished] = page_start(d.get(finished, 0), PAGE[finished], total)
    games = library.list_games(finished, PAGE[finished], offset=start)
    return games, pager("past" if finished else "live", start, len(games), total,
                        lambda step: on_page_turn(app, finished, step), app=app)


def read_only_note(app: AppState) -> str:
    """Why games are only reviewed here, in words: the folder's own note when this process
    may not write in it, else who holds it."""
    folder_note = getattr(app.folder, "read_only_reason", None)
    if folder_note is not None and app.read_only_reason == folder_note:
        return f"{folder_note[:1].upper()}{folder_note[1:]}."
    if app.read_only_reason:
        return app._("Review only: {why}. Games can be looked at here, not played.",
                     why=app.read_only_reason)
    return app._("Review only: another app is using this data folder. Games can be looked at "
                 "here, not played.")


def home_view(app: AppState) -> list[ft.Control]:
    """The home screen."""
    try:
        unfinished, live_pager = _page(app, False)
        finished, past_pager = _page(app, True)
    except Exception:  # noqa: BLE001 - a broken index must not block the home screen
        unfinished, finished, live_pager, past_pager = [], [], [], []
    games = unfinished + finished
    new_game = button(app._("New game"), lambda e: on_new_click(app), ident_="new-game",
                      icon=ft.Icons.ADD, disabled=app.read_only)
    body: list[ft.Control] = [new_game, *[
        button(label, lambda e, k=kind: on_pad_new(app, k), primary=False, icon=ft.Icons.ADD,
               disabled=app.read_only, ident_=f"new-{kind}")
        for kind, label in (("heritage", app._("New Heritage game")),
                            ("bloodfeud", app._("New Blood Feud session")))]]
    if app.read_only:  # the reason right above the button it disables
        body.insert(0, ident("read-only", text(read_only_note(app), 15, color=MUTED)))
    body += [
        ft.Row([
            button(app._("Quick score"), lambda e: app.go("quick"), primary=False, expand=True,
                   ident_="quick-score"),
            button(app._("Statistics"), lambda e: on_stats_open(app), primary=False, expand=True,
                   ident_="stats"),
        ], spacing=6),
        ft.Row([
            button(app._("Rules"), lambda e: on_rules_open(app), primary=False, expand=True,
                   ident_="rules"),
            button(app._("Cards"), lambda e: app.go("catalogue"), primary=False, expand=True,
                   ident_="catalogue"),
        ], spacing=6),
        button(app._("Your data: backups, restore, import"), lambda e: app.go("data"),
               primary=False, ident_="data", icon=ft.Icons.SAVE),
    ]
    if unfinished:
        body.append(heading(app._("Games in progress") if app.read_only
                            else app._("Resume a game")))
        body += [_game_row(app, g, i) for i, g in enumerate(unfinished)] + live_pager
    if finished:
        body.append(heading(app._("Past games")))
        body += [_game_row(app, g, len(unfinished) + i) for i, g in enumerate(finished)]
        body += past_pager
    if not games:
        body.append(text(app._("No games here.") if app.read_only else
                         app._("No games yet. Start one with New game."), color=MUTED))
    body.append(ft.Row([language_picker(app)], alignment=ft.MainAxisAlignment.END))
    return frame(app, "Vendetta Companion", body, subtitle=app._("Referee for the table"))
