"""Step through a reviewed game: the table dashboard as it stood after any action."""

import flet as ft

from companion.rules.game import Game
from companion.story import narrator_commands
from companion.story.review import state_after, told
from companion.story.words import render, title
from models.message import place, term
from models.state import GameState
from views.dashboard import dashboard_view
from views.state import AppState
from views.theme import GOLD, MUTED, button, card, text
from views.timeline_view import groups_of


def on_replay_move(app: AppState, n: int) -> None:
    """Show the table after the first `n` actions (0 = the start)."""
    assert app.review is not None
    app.review_at = max(0, min(n, len(app.review.actions)))
    app.render()


def stops(app: AppState, game: Game) -> list[int]:
    """Where each timeline group (a phase, or a Location's step) ends, as action counts."""
    ends = {max(e.action for e in g.entries) + 1 for g in groups_of(app, game)}
    return sorted(n for n in ends | {0, len(game.actions)} if n >= 0)


def _where(app: AppState, s: GameState) -> str:
    parts = [app._("Round {round}", round=s.round)] if s.round else []
    parts.append(title(s.phase, app.t))
    if s.phase == "resolution" and s.location is not None and s.step:
        parts.append(app._("{place}, {step}", place=place(s.location.id), step=term(s.step)))
    return " · ".join(parts)


def _headline(app: AppState, game: Game, i: int) -> str:
    """One line naming action `i` in the device's language: its first sentence, or what the
    command did when it moved nothing (as `companion.story.review.headline`)."""
    said = told(game, i, app.t)
    if said:
        return said[0]
    before = game.state_at(i)
    return render(narrator_commands.headline(before, game.actions[i].command,
                                             game.state_at(i + 1)),
                  [p.name for p in before.players], app.t)


def replay_view(app: AppState, game: Game) -> list[ft.Control]:
    """Where we are, what that action did, the move and jump buttons, and the table."""
    total = len(game.actions)
    n = app.review_at = max(0, min(app.review_at, total))
    state = state_after(game, n - 1)
    if n == 0:
        head = app._("The start of the game")
        said: list[str] = [e.text for g in groups_of(app, game) for e in g.entries
                           if e.action == -1]
    else:
        head = app._("After action {n} of {total}: {said}", n=n, total=total,
                     said=_headline(app, game, n - 1))
        said = [e.text for g in groups_of(app, game) for e in g.entries if e.action == n - 1]
    ends = stops(app, game)
    back = max((k for k in ends if k < n), default=None)
    ahead = min((k for k in ends if k > n), default=None)
    moves = ft.Row([
        button(app._("Start"), (lambda e: on_replay_move(app, 0)) if n > 0 else None, primary=False,
               expand=True, ident_="replay-start"),
        button(app._("< Prev"), (lambda e: on_replay_move(app, n - 1)) if n > 0 else None,
               primary=False, expand=True, ident_="replay-prev"),
        button(app._("Next >"), (lambda e: on_replay_move(app, n + 1)) if n < total else None,
               primary=False, expand=True, ident_="replay-next"),
        button(app._("End"), (lambda e: on_replay_move(app, total)) if n < total else None,
               primary=False, expand=True, ident_="replay-end"),
    ], spacing=6)
    jumps = ft.Row([
        button(app._("<< Phase"),
               (lambda e: on_replay_move(app, back)) if back is not None else None,
               primary=False, expand=True, ident_="replay-back"),
        button(app._("Phase >>"), (lambda e: on_replay_move(app, ahead)) if ahead is not None
               else None, primary=False, expand=True, ident_="replay-ahead"),
    ], spacing=6)
    return [
        card(text(_where(app, state), 16, color=GOLD, ident_="replay-where"),
             text(head, 18, bold=True, ident_="replay-head"),
             *[text(line, 15, color=MUTED) for line in said[:8]],
             color="#241012"),
        moves,
        jumps,
        text(app._("<< and >> jump to the end of the previous or next phase (in Resolution, "
                   "of each Location's step)."), 14, color=MUTED),
        *dashboard_view(app, state),
    ]
