"""Feed (§4), with the table checklist before round 1 and the summary of the last round."""

import flet as ft

from companion.rules.legal import Legal
from companion.rules.queries import turn_order
from companion.rules.scoring import influence
from models.common import location_name
from views.power_table import outcomes_card
from views.state import AppState
from views.theme import GOLD, MUTED, button, card, heading, main, plural, text


def checklist(app: AppState) -> ft.Control:
    """What to lay out on the physical table before round 1 (§2, §13)."""
    s = app.game.state
    first = s.players[s.ambition].name if s.ambition is not None else "?"
    locs = ", ".join(location_name(loc.id) for loc in s.locations)
    lines = [
        "Each player: 6 Blood and 3 Influence in their Pool, one Stay and one Withdraw token.",
        "Each player: 1 Victim card in their Alliance (Victim deck face up).",
        "Each player: Hunt and Ready in hand; shuffle the other 7 clan cards as a deck.",
        f"Lay out the Locations: {locs} (the Prince's Haven last).",
        "Shuffle the Ally deck face down.",
        f"{first} takes the Ambition token.",
    ]
    for p in s.players:
        extra = f" — Relic: {p.relic.name}" if p.relic else ""
        lines.append(f"{p.name} plays {p.clan}{extra}")
    for loc in s.locations:
        if loc.location_card:
            lines.append(f"{location_name(loc.id)}: Location card {loc.location_card.name}")
    return card(heading("Set up the table", 19),
                *[text(f"• {line}", 16) for line in lines], ident_="checklist")


def round_summary(app: AppState) -> ft.Control:
    """Where everyone stands after the round just finished."""
    s = app.game.state
    rows = []
    for seat in turn_order(s):
        p = s.players[seat]
        active = sum(1 for c in p.alliance if not c.drained)
        rows.append(text(f"{p.name}: {p.blood} Blood · {influence(s, seat).total} Influence "
                         f"if the game ended now · "
                         f"{plural(active, 'active Alliance card', 'active Alliance cards')}", 16))
    holder = s.players[s.ambition].name if s.ambition is not None else "?"
    return card(heading(f"Round {s.round - 1} is over", 19),
                text(f"{holder} holds the Ambition token and goes first.", 16, color=GOLD),
                *rows, ident_="round-summary")


def on_feed_click(app: AppState) -> None:
    """Everyone gains their Feed Blood."""
    app.play({"type": "feed"})


def feed_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Feed gains per player and one button to apply them."""
    s = app.game.state
    out: list[ft.Control] = []
    if s.round == 1:
        out.append(checklist(app))
    else:  # where the last round ended, and how each Location of it went
        out += [round_summary(app), *outcomes_card(app.game, len(s.locations))]
    gains = [text(f"{s.players[p].name}: +{n} Blood ({s.players[p].blood} to "
                  f"{s.players[p].blood + n})", 18, ident_=f"feed-{p}")
             for p, n in legal.feed.items()]
    out.append(card(heading(f"Round {s.round}: Feed", 19),
                    text("Everyone gains the Feed Blood of their active Alliance cards.", 16,
                         color=MUTED),
                    *gains))
    out.append(main(button("Feed: give everyone their Blood", lambda e: on_feed_click(app),
                           ident_="feed")))
    return out
