"""Rules and card catalogue pages (short placeholders for now)."""

import flet as ft

from views.frame import frame
from views.state import AppState
from views.theme import MUTED, card, heading, text


def rules_view(app: AppState) -> list[ft.Control]:
    """A short reminder of the round; the full rules reference comes later."""
    lines = [
        "3 rounds. Each round: Feed, Location Setup, Hand Building, Planning, Resolution.",
        "Planning: on each turn play one card at a Location, face up for free or face down "
        "for 1 Blood, with up to 3 Blood. Nobody may empty their own Pool.",
        "Resolution, Location by Location: Withdraw, Revelation, Preparation, Conflict, "
        "Aftermath. Highest Power wins; ties go to turn order.",
        "A Pool that reaches 0 Blood means Frenzy: a random Alliance card is drained.",
        "At the end, most Influence wins; then most Blood; then turn order.",
    ]
    return frame(app, "Rules", [card(heading("The game in brief", 19),
                                     *[text(f"• {line}", 16) for line in lines]),
                                text("The full rules reference is coming.", 15, color=MUTED)])


def catalogue_view(app: AppState) -> list[ft.Control]:
    """What the app knows of the cards; unknown values are entered during play."""
    cat = app.catalogue
    known = sum(1 for c in cat.clan_cards if c.power is not None)
    allies = sum(1 for a in cat.allies if a.complete())
    lines = [f"Clan cards: {len(cat.clan_cards)} ({known} with a known Power)",
             f"Allies: {len(cat.allies)} ({allies} with all values known)",
             f"Relics: {len(cat.relics)}", f"Location cards: {len(cat.location_cards)}"]
    return frame(app, "Cards", [card(heading("Card catalogue", 19),
                                     *[text(line, 16) for line in lines]),
                                text("Values you type during a game are remembered here. "
                                     "Editing the catalogue directly is coming.", 15,
                                     color=MUTED)])
