"""Feed (§4), with the table checklist before round 1 and the summary of the last round."""

import flet as ft

from companion.rules.legal import Legal
from companion.rules.queries import turn_order
from companion.rules.scoring import influence
from models.message import place
from views.power_table import outcomes_card
from views.state import AppState
from views.theme import GOLD, MUTED, button, card, heading, main, text


def checklist(app: AppState) -> ft.Control:
    """What to lay out on the physical table before round 1 (§2, §13)."""
    s = app.game.state
    first = s.players[s.ambition].name if s.ambition is not None else "?"
    locs = ", ".join(app._("{place}", place=place(loc.id)) for loc in s.locations)
    lines = [
        app._("Each player: 6 Blood and 3 Influence in their Pool, one Stay and one Withdraw "
              "token."),
        app._("Each player: 1 Victim card in their Alliance (Victim deck face up)."),
        app._("Each player: Hunt and Ready in hand; shuffle the other 7 clan cards as a deck."),
        app._("Lay out the Locations: {locations} (the Prince's Haven last).", locations=locs),
        app._("Shuffle the Ally deck face down."),
        app._("{name} takes the Ambition token.", name=first),
    ]
    for p in s.players:
        if p.relic:
            lines.append(app._("{name} plays {clan} — Relic: {relic}", name=p.name,
                               clan=p.clan, relic=p.relic.name))
        else:
            lines.append(app._("{name} plays {clan}", name=p.name, clan=p.clan))
    for loc in s.locations:
        if loc.location_card:
            lines.append(app._("{place}: Location card {card}", place=place(loc.id),
                               card=loc.location_card.name))
    return card(heading(app._("Set up the table"), 19),
                *[text(f"• {line}", 16) for line in lines], ident_="checklist")


def round_summary(app: AppState) -> ft.Control:
    """Where everyone stands after the round just finished."""
    s = app.game.state
    rows = []
    for seat in turn_order(s):
        p = s.players[seat]
        active = sum(1 for c in p.alliance if not c.drained)
        rows.append(text(app.n_(
            "{name}: {blood} Blood · {influence} Influence if the game ended now · {n} active "
            "Alliance card",
            "{name}: {blood} Blood · {influence} Influence if the game ended now · {n} active "
            "Alliance cards", active, name=p.name, blood=p.blood,
            influence=influence(s, seat).total), 16))
    holder = s.players[s.ambition].name if s.ambition is not None else "?"
    return card(heading(app._("Round {n} is over", n=s.round - 1), 19),
                text(app._("{name} holds the Ambition token and goes first.", name=holder), 16,
                     color=GOLD),
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
        out += [round_summary(app), *outcomes_card(app.game, len(s.locations), app=app)]
    gains = [text(app._("{name}: +{n} Blood ({before} to {after})", name=s.players[p].name,
                        n=n, before=s.players[p].blood, after=s.players[p].blood + n), 18,
                  ident_=f"feed-{p}")
             for p, n in legal.feed.items()]
    out.append(card(heading(app._("Round {n}: Feed", n=s.round), 19),
                    text(app._("Everyone gains the Feed Blood of their active Alliance cards."),
                         16, color=MUTED),
                    *gains))
    out.append(main(button(app._("Feed: give everyone their Blood"), lambda e: on_feed_click(app),
                           ident_="feed")))
    return out
