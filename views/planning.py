"""Planning: the current player's turn — Location, card (or face down), Diablerie, Drain, and
Play with the Blood it adds (§7). A typical turn is three taps: where, which card, and Play (or
Play +1/+2/+3 Blood, side by side, pinned on screen); until the turn can be played the Play
button says what is missing. A Drain keeps the choices made so far; the table's numbers stay
on this screen, under the form."""

import flet as ft

from companion.rules.legal import Legal
from companion.rules.queries import turn_order
from models.message import place
from views.card_picker import picked, picker
from views.choice import tiles
from views.locations_panel import locations_panel
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, button, card, main, text, wrap


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
    """Face down (costs 1 Blood, stays secret), or face up again (a card was tapped)."""
    d = _plan(app)
    d["face_up"] = face_up
    if not face_up:
        d["card"].pop("id", None)
        app.render()


def on_partner_pick(app: AppState, include: bool) -> None:
    """Tag team: the partner's Challenge reaches this play, or spares it (§13)."""
    _plan(app)["partner"] = include
    app.render()


def on_diablerie_pick(app: AppState, n: int) -> None:
    """Face-up Diablerie tokens to flip (each puts 1 Bank Blood here)."""
    _plan(app)["diablerie"] = n
    app.render()


def on_play_click(app: AppState, legal: Legal, blood: int | None = None) -> None:
    """Play the card as drafted (`blood`: with this much Blood from the Pool, the button's)."""
    d = _plan(app)
    if blood is not None:
        d["blood"] = blood
    seat = legal.actor
    assert seat is not None
    if d["loc"] is None:
        app.fail(app._("Choose the Location the card goes to."))
        return
    cmd: dict = {"type": "play_card", "player": seat, "location": d["loc"],
                 "face_up": d["face_up"], "blood": d["blood"], "diablerie": d["diablerie"]}
    if legal.partner_challenge is not None and d["partner"]:
        cmd["include_teammate"] = True
    if d["face_up"]:
        identity = picked(app, app.game.state.players[seat].clan, d["card"])
        if isinstance(identity, str):
            app.fail(app._("Face-up card: {reason}.", reason=identity))
            return
        cmd["card"] = identity.model_dump()
    app.play(cmd)


def on_drain_click(app: AppState, seat: int, uid: str) -> None:
    """Drain a card of the current player's Alliance; a Vampire (Diablerie) is confirmed
    first, saying what the token costs (§9, §11); any other drain is one tap, its news
    carrying an Undo (it may cost Influence: the button says how much)."""
    p = app.game.state.players[seat]
    c = next(a for a in p.alliance if a.uid == uid).card
    command = {"type": "drain", "player": seat, "card": uid}
    if c.kind != "vampire":
        app.play(command)
        return
    tokens = 2 if c.ability == "AL14" else 1
    after = p.diablerie + tokens
    cost = app.n_("{name} takes {n} Diablerie token ({total} in all): -1 Influence each at the "
                  "end of the game.",
                  "{name} takes {n} Diablerie tokens ({total} in all): -1 Influence each at the "
                  "end of the game.", tokens, name=p.name, total=min(after, 3))
    if after >= 3:
        cost += " " + app._("A third token puts {name} out of the game at once.", name=p.name)
    app.ask(app._("Drain {card}?", card=c.name),
            app._("{card} is a Vampire: draining it is Diablerie. {cost}", card=c.name,
                  cost=cost),
            app._("Drain it"), lambda: app.play(command))


def on_pass_click(app: AppState, seat: int) -> None:
    """Pass (no card left in hand)."""
    app.play({"type": "pass_turn", "player": seat})


def missing(app: AppState, legal: Legal, d: dict) -> str | None:
    """What the turn still needs before it can be played, in words for the Play button (None:
    ready)."""
    if d["loc"] is None:
        return app._("Choose where to play (Where?)")
    if not d["face_up"]:
        return None
    seat = legal.actor
    assert seat is not None
    identity = picked(app, app.game.state.players[seat].clan, d["card"], remember=False)
    if isinstance(identity, str):
        return app._("Choose the card, or Face down") if identity.startswith("choose") else \
            app._("Tap the card's printed Power")
    return None


def _play_label(app: AppState, d: dict) -> str:
    """The Play button's words: where, face down, Diablerie added (the Blood is on the
    buttons beside it)."""
    where = _short_place(app, d["loc"])
    play = app._("Play at {where}", where=where) if d["face_up"] else \
        app._("Play face down at {where}", where=where)
    if d["diablerie"]:
        return app._("{play} + {n} Diablerie", play=play, n=d["diablerie"])
    return play


def _spoken(app: AppState, d: dict, blood: int) -> str:
    """Everything a Play button plays, in words (what a screen reader says)."""
    adds = [app._("{n} Blood", n=blood) if blood else app._("no Blood")]
    adds += [app._("{n} Diablerie", n=d["diablerie"])] if d["diablerie"] else []
    what = app.t.join(adds)
    if d["face_up"]:
        return app._("Play at {place} with {what}", place=place(d["loc"]), what=what)
    return app._("Play face down at {place} with {what}", place=place(d["loc"]), what=what)


def play_buttons(app: AppState, legal: Legal, d: dict, most: int) -> list[ft.Control]:
    """Play (no Blood) and, beside it, Play with 1, 2 or 3 Blood from the Pool: one tap
    plays the turn with its Blood. Disabled, the button says what is missing."""
    why = missing(app, legal, d)
    if why is not None:
        return [main(button(why, None, ident_="play"))]
    row = [button(_play_label(app, d), lambda e: on_play_click(app, legal, 0), ident_="play",
                  spoken=_spoken(app, d, 0))]
    for n in range(1, most + 1):
        more = button(f"+{n}", lambda e, n=n: on_play_click(app, legal, n), ident_=f"play-{n}",
                      spoken=_spoken(app, d, n))
        # narrow (Material buttons are 64 px at least): all four fit a 320-px phone in one
        # row, and "+3" still fits at 200 % text
        more.content.width = 52
        more.content.style.padding = ft.Padding.symmetric(horizontal=2, vertical=12)
        row.append(more)
    return [main(ft.Row(row, wrap=True, spacing=4, run_spacing=4))]


def _short_place(app: AppState, loc: str) -> str:
    return app._("Haven") if loc == "haven" else f"#{loc}"


def _partner_choice(app: AppState, legal: Legal, d: dict) -> list[ft.Control]:
    """Tag team: whether the partner's face-up Challenge reaches this play too (§13)."""
    if legal.partner_challenge is None or legal.actor is None:
        return []
    s = app.game.state
    mate, name = s.players[legal.partner_challenge].name, s.players[legal.actor].name
    return [text(app._("{mate}'s Challenge is face up: does it reach {name}'s play elsewhere "
                       "too (1 Blood)? Tag team: its owner chooses.", mate=mate, name=name), 16,
                 color=MUTED),
            wrap(button(app._("No, spare the partner"), lambda e: on_partner_pick(app, False),
                        primary=False, selected=not d["partner"], ident_="partner-spare",
                        app=app),
                 button(app._("Yes, it reaches them"), lambda e: on_partner_pick(app, True),
                        primary=False, selected=d["partner"], ident_="partner-include",
                        app=app))]


def turn_form(app: AppState, legal: Legal) -> list[ft.Control]:
    """The choices of a turn, compact enough for a phone: where, which card (or face down),
    Diablerie; the Blood is chosen with Play."""
    s = app.game.state
    seat = legal.actor
    assert seat is not None
    p = s.players[seat]
    d = _plan(app)
    partner = legal.partner_challenge is not None and d["partner"]
    max_blood = blood_limit(legal, d["loc"], d["face_up"], partner)
    d["blood"] = min(d["blood"], max_blood)
    d["diablerie"] = min(d["diablerie"], legal.max_diablerie)
    allies = {loc.id: loc.ally.name if loc.ally else "" for loc in s.locations}
    down = button(app._("Face down (1 Blood)"), (lambda e: on_face_pick(app, False))
                  if legal.can_play_face_down else None, primary=False,
                  selected=not d["face_up"], ident_="face-down", app=app)
    form: list[ft.Control] = [
        text(app._("Where?"), 17, bold=True),
        tiles([(loc, _short_place(app, loc), allies[loc]) for loc in legal.locations],
              d["loc"], lambda loc: on_location_pick(app, loc), "loc-pick"),
        *_partner_choice(app, legal, d),
        text(app._("Which card? (or face down)"), 17, bold=True)]
    if not d["face_up"]:
        form.append(text(app._("Face down: the card stays secret until it is revealed. Tap a "
                               "card to play face up instead."), 16, color=MUTED))
    form.append(down)  # first: one of the choices, and no card to pick then
    if not legal.can_play_face_down:  # the reason, right under the button it disables
        form.append(text(app._("Face down is not possible: it would spend the last Blood."),
                         16, color=MUTED, ident_="face-down-why"))
    form += picker(app, p.clan, d["card"], "plan-card", legal.taken_cards.get(seat, []),
                   on_pick=lambda: on_face_pick(app, True))
    if legal.max_diablerie:
        form += [text(app._("Flip Diablerie tokens (1 Blood from the Bank each)"), 17,
                      bold=True),
                 wrap(*[button(str(n), lambda e, n=n: on_diablerie_pick(app, n),
                               primary=False, selected=d["diablerie"] == n, width=64,
                               ident_=f"dia-{n}", app=app,
                               spoken=app._("Flip {n} Diablerie", n=n))
                        for n in range(legal.max_diablerie + 1)])]
    if max_blood == 3:
        blood = app._("Blood from the Pool: Play adds none; +1, +2 or +3 beside it play with "
                      "that much.")
    elif max_blood:
        blood = app._("Blood from the Pool: at most {n} now (+1… beside Play): the Pool must "
                      "keep at least 1 Blood. Drain a card first to play more.", n=max_blood)
    else:
        blood = app._("No Blood can be added now: the Pool must keep at least 1 Blood.")
    form.append(text(blood, 16, color=MUTED, ident_="blood-note"))
    return [card(*form)]


def drain_panel(app: AppState, legal: Legal) -> list[ft.Control]:
    """The Alliance cards the player may Drain now (the turn's choices stay as they are)."""
    if not legal.drainable or legal.actor is None:
        return []
    seat = legal.actor
    cards = {c.uid: c for c in app.game.state.players[seat].alliance}
    drains = []
    for uid in legal.drainable:
        c = cards[uid].card
        loss = (c.influence or 0) - (c.drained_influence or 0)
        if c.kind == "vampire":
            label = app._("Drain {card} (+{n} Blood — Diablerie!)", card=c.name,
                          n=c.drain_blood)
        elif loss > 0:
            label = app._("Drain {card} (+{n} Blood, -{loss} Influence)", card=c.name,
                          n=c.drain_blood, loss=loss)
        else:
            label = app._("Drain {card} (+{n} Blood)", card=c.name, n=c.drain_blood)
        drains.append(button(label,
                             lambda e, uid=uid: on_drain_click(app, seat, uid),
                             primary=False, ident_=f"drain-{uid}"))
    return [card(text(app._("Drain a card of the Alliance (any time in this turn)"), 16,
                      color=MUTED), *drains)]


def actor_line(app: AppState, legal: Legal) -> str:
    """The player whose turn it is, in numbers (shown under the prompt)."""
    assert legal.actor is not None
    p = app.game.state.players[legal.actor]
    if p.diablerie_up:
        return app._("{clan} · {blood} Blood · {n} in hand · {up} Diablerie up", clan=p.clan,
                     blood=p.blood, n=p.hand_size, up=p.diablerie_up)
    return app._("{clan} · {blood} Blood · {n} in hand", clan=p.clan, blood=p.blood,
                 n=p.hand_size)


def board_strip(app: AppState) -> list[ft.Control]:
    """The table while planning, without leaving the screen: every player's numbers, then
    what lies at each Location."""
    s = app.game.state
    rows: list[ft.Control] = [text(app._("The table"), 17, bold=True, color=GOLD)]
    for seat in turn_order(s):
        p = s.players[seat]
        active = sum(1 for c in p.alliance if not c.drained)
        facts = {"name": p.name, "clan": p.clan, "blood": p.blood, "influence": p.influence}
        if p.diablerie_up:
            line = app.n_("{name} ({clan}): {blood} Blood · {influence} Influence · {n} active "
                          "card · {up} Diablerie up",
                          "{name} ({clan}): {blood} Blood · {influence} Influence · {n} active "
                          "cards · {up} Diablerie up", active, up=p.diablerie_up, **facts)
        else:
            line = app.n_("{name} ({clan}): {blood} Blood · {influence} Influence · {n} active "
                          "card",
                          "{name} ({clan}): {blood} Blood · {influence} Influence · {n} active "
                          "cards", active, **facts)
        rows.append(text(line, 16, ident_=f"strip-{seat}"))
    return [card(*rows, color=SURFACE, ident_="board-strip"),
            *locations_panel(s, compact=True, app=app)]


def planning_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """The turn form, built from what is legal now; Play (or Pass) is the main button, the
    table's numbers under the form (beside it on a wide screen)."""
    s = app.game.state
    seat = legal.actor
    assert seat is not None
    p = s.players[seat]
    out: list[ft.Control] = []
    if "pass_turn" in legal.commands:
        out += [text(app._("{name} has no card in hand and passes.", name=p.name), 17),
                main(button(app._("Pass the turn"), lambda e: on_pass_click(app, seat),
                            ident_="pass"))]
    else:
        d = _plan(app)
        out += turn_form(app, legal)
        partner = legal.partner_challenge is not None and d["partner"]
        out += play_buttons(app, legal, d, blood_limit(legal, d["loc"], d["face_up"], partner))
    out += drain_panel(app, legal)
    if app.layout() != "wide":  # on a wide screen the board beside shows them
        out += board_strip(app)
    return out
