"""Hand Building reminder (§6, §13 3-player round 1)."""

import flet as ft

from companion.rules.legal import Legal
from views.state import AppState
from views.theme import MUTED, button, card, heading, main, text


def on_hands_done(app: AppState) -> None:
    """Everyone has built their hand."""
    app.play({"type": "finish_hand_building"})


def hand_building_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """What each player does now; the app never asks what is in a hand."""
    keep = legal.hand_cards
    draw = keep + 1
    lines = [app._("Each player draws {draw} cards from their clan deck, keeps {keep} and puts "
                   "the other at the bottom of the deck.", draw=draw, keep=keep),
             app._("Hands stay secret: the app never asks.")]
    if keep == 2:
        lines.insert(1, app._("3-player game, round 1: draw 3, keep 2."))
    return [card(heading(app._("Round {n}: Hand Building", n=app.game.state.round), 19),
                 *[text(line, 17) for line in lines[:1]],
                 *[text(line, 16, color=MUTED) for line in lines[1:]]),
            main(button(app._("Hands are ready"), lambda e: on_hands_done(app), ident_="hands-ok"))]
