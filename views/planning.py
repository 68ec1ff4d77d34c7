"""Planning: the current player's turn — Location, face up/down, Blood, Diablerie, Drain (§7)."""

import flet as ft

from companion.legal import Legal
from models.common import location_name
from views.card_picker import picked, picker
from views.locations_panel import locations_panel
from views.state import AppState
from views.theme import GOLD, MUTED, button, card, heading, text, wrap


def blood_limit(legal: Legal, loc: str | None, face_up: bool, partner: bool = False) -> int:
    """Most Blood playable now at a Location (Passive losses counted when the engine says;
    `partner`: the partner's Challenge reaches this play too)."""
    per_loc = getattr(legal, "max_blood", {}) or {}
    if loc in per_loc:
        key = ("up" if face_up else "down") + ("_with_partner" if partner else "")
        return per_loc[loc].get(key, per_loc[loc]["up" if face_up else "down"])
    return legal.max_blood_face_up if face_up else legal.max_blood_face_down


def _plan(app: AppState) -> dict:
    d = app.draft("plan")
    d.setdefault("loc", None)
    d.setdefault("face_up", True)
    d.setdefault("card", {})
    d.setdefault("blood", 0)
    d.setdefault("diablerie", 0)
    d.setdefault("partner", False)
    return d


def on_location_pick(app: AppState, loc: str) -> None:
    """Where the card goes."""
    _plan(app)["loc"] = loc
    app.render()


def on_face_pick(app: AppState, face_up: bool) -> None:
    """Face up (say which card) or face down (costs 1 Blood, stays secret)."""
    _plan(app)["face_up"] = face_up
    app.render()


def on_blood_pick(app: AppState, n: int) -> None:
    """Blood from the Pool to the Position."""
    _plan(app)["blood"] = n
    app.render()


def on_partner_pick(app: AppState, include: bool) -> None:
    """Tag team: the partner's Challenge reaches this play, or spares it (§13)."""
    _plan(app)["partner"] = include
    app.render()


def on_diablerie_pick(app: AppState, n: int) -> None:
    """Face-up Diablerie tokens to flip (each puts 1 Bank Blood here)."""
    _plan(app)["diablerie"] = n
    app.render()


def on_play_click(app: AppState, legal: Legal) -> None:
    """Play the card as drafted."""
    d = _plan(app)
    seat = legal.actor
    assert seat is not None
    if d["loc"] is None:
        app.fail("Choose the Location the card goes to.")
        return
    cmd: dict = {"type": "play_card", "player": seat, "location": d["loc"],
                 "face_up": d["face_up"], "blood": d["blood"], "diablerie": d["diablerie"]}
    if legal.partner_challenge is not None and d["partner"]:
        cmd["include_teammate"] = True
    if d["face_up"]:
        identity = picked(app, app.game.state.players[seat].clan, d["card"])
        if isinstance(identity, str):
            app.fail(f"Face-up card: {identity}.")
            return
        cmd["card"] = identity.model_dump()
    app.play(cmd)


def on_drain_click(app: AppState, seat: int, uid: str) -> None:
    """Drain a card of the current player's Alliance."""
    app.play({"type": "drain", "player": seat, "card": uid})


def on_pass_click(app: AppState, seat: int) -> None:
    """Pass (no card left in hand)."""
    app.play({"type": "pass_turn", "player": seat})


def planning_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """The turn form, built from what is legal now."""
    s = app.game.state
    seat = legal.actor
    assert seat is not None
    p = s.players[seat]
    d = _plan(app)
    partner = legal.partner_challenge is not None and d["partner"]
    max_blood = blood_limit(legal, d["loc"], d["face_up"], partner)
    d["blood"] = min(d["blood"], max_blood)
    d["diablerie"] = min(d["diablerie"], legal.max_diablerie)
    dia = f" · {p.diablerie_up} Diablerie face up" if p.diablerie_up else ""
    out: list[ft.Control] = [card(
        heading(f"{p.name}'s turn {legal.turn} of {legal.turns}", 22),
        text(f"{p.clan} · {p.blood} Blood in Pool · {p.hand_size} card(s) in hand{dia}", 17,
             color=GOLD, ident_="actor-stats"),
    )]
    if "pass_turn" in legal.commands:
        out.append(card(text(f"{p.name} has no card in hand and passes.", 17),
                        button("Pass the turn", lambda e: on_pass_click(app, seat),
                               ident_="pass")))
    else:
        names = {loc.id: (f"{location_name(loc.id)}" + (f" · {loc.ally.name}" if loc.ally
                                                           else "")) for loc in s.locations}
        form: list[ft.Control] = [
            text("1. Where?", 17, bold=True),
            wrap(*[button(names[loc], lambda e, loc=loc: on_location_pick(app, loc),
                          primary=False, selected=d["loc"] == loc, ident_=f"loc-pick-{loc}")
                   for loc in legal.locations]),
            text("2. Face up or face down?", 17, bold=True),
            wrap(button("Face up", lambda e: on_face_pick(app, True), primary=False,
                        selected=d["face_up"], ident_="face-up"),
                 button("Face down (costs 1 Blood)",
                        (lambda e: on_face_pick(app, False)) if legal.can_play_face_down
                        else None, primary=False, selected=not d["face_up"],
                        ident_="face-down")),
        ]
        if not legal.can_play_face_down:
            form.append(text("Face down is not possible: it would spend the last Blood.", 15,
                             color=MUTED))
        if d["face_up"]:
            form += [text("Which card?", 17, bold=True),
                     *picker(app, p.clan, d["card"], "plan-card",
                             legal.taken_cards.get(seat, []))]
        else:
            form.append(text("Face down: the card stays secret until it is revealed.", 15,
                             color=MUTED))
        if legal.partner_challenge is not None:
            mate = s.players[legal.partner_challenge].name
            form += [text(f"{mate}'s Challenge is face up: does it reach {p.name}'s play "
                          "elsewhere too (1 Blood)? Tag team: its owner chooses.", 15,
                          color=MUTED),
                     wrap(button("No, spare the partner", lambda e: on_partner_pick(app, False),
                                 primary=False, selected=not d["partner"],
                                 ident_="partner-spare"),
                          button("Yes, it reaches them", lambda e: on_partner_pick(app, True),
                                 primary=False, selected=d["partner"],
                                 ident_="partner-include"))]
        form += [text("3. Blood from the Pool (0–3)", 17, bold=True),
                 wrap(*[button(str(n), lambda e, n=n: on_blood_pick(app, n), primary=False,
                               selected=d["blood"] == n, width=64, ident_=f"blood-{n}")
                        for n in range(max_blood + 1)])]
        if max_blood < 3:
            form.append(text(f"At most {max_blood}: the Pool must keep at least 1 Blood. "
                             "Drain a card first to play more.", 15, color=MUTED))
        if legal.max_diablerie:
            form += [text("Flip Diablerie tokens (1 Blood from the Bank each)", 17, bold=True),
                     wrap(*[button(str(n), lambda e, n=n: on_diablerie_pick(app, n),
                                   primary=False, selected=d["diablerie"] == n, width=64,
                                   ident_=f"dia-{n}")
                            for n in range(legal.max_diablerie + 1)])]
        where = location_name(d["loc"]) if d["loc"] else "…"
        form.append(button(f"Play at {where}", lambda e: on_play_click(app, legal),
                           ident_="play"))
        out.append(card(*form))
    if legal.drainable:
        cards = {c.uid: c for c in p.alliance}
        drains = []
        for uid in legal.drainable:
            c = cards[uid].card
            warn = " — Diablerie!" if c.kind == "vampire" else ""
            drains.append(button(f"Drain {c.name} (+{c.drain_blood} Blood){warn}",
                                 lambda e, uid=uid: on_drain_click(app, seat, uid),
                                 primary=False, ident_=f"drain-{uid}"))
        out.append(card(text("Drain a card of the Alliance (any time in this turn)", 16,
                             color=MUTED), *drains))
    out += locations_panel(s, compact=True)
    return out
