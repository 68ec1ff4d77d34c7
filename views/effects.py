"""Card effects at a Resolution step: due effects from Legal, and any effect by hand (§14)."""


import flet as ft

from companion.rules.legal import Legal
from models.common import location_name
from views.choice import chips
from views.state import AppState
from views.theme import (
    GOLD,
    MUTED,
    SURFACE_HI,
    button,
    card,
    error_box,
    field,
    heading,
    main,
    text,
    to_int,
    wrap,
)

ACTIONS = [
    ("gain_blood", "Gain Blood"), ("lose_blood", "Lose Blood"), ("spend_blood", "Spend Blood"),
    ("steal_blood", "Steal Blood"), ("gain_influence", "Gain Influence"),
    ("lose_influence", "Lose Influence"), ("power", "Change a card's Power"),
    ("halve_printed_power", "Halve a card's printed Power"),
    ("withdraw", "Withdraw from this Location"), ("restore_card", "Restore a drained card"),
]
NO_AMOUNT = {"halve_printed_power", "withdraw", "restore_card"}
NOBODY = "-"


def on_due_resolve(app: AppState, uid: str, accept: bool, teammate: bool = False) -> None:
    """Apply (or decline) a pending card effect."""
    app.play({"type": "resolve_effect", "card": uid, "accept": accept,
              "include_teammate": teammate})


def due_main(app: AppState, legal: Legal) -> ft.Control | None:
    """The main button while effects are due: resolve the first one that may go now (Apply,
    or Skip when it cannot apply)."""
    first = next((i for i, item in enumerate(legal.due) if item.uid in legal.next_due), None)
    if first is None:
        return None
    item = legal.due[first]
    who = app.game.state.players[item.owner].name
    if item.can_accept:
        spare = " (teammate spared)" if item.teammate_choice else ""
        return main(button(f"Apply {who}'s {item.label}{spare}",
                           lambda e: on_due_resolve(app, item.uid, True),
                           ident_=f"due-{first}-apply"))
    return main(button(f"Skip {who}'s {item.label}: it cannot apply",
                       lambda e: on_due_resolve(app, item.uid, False),
                       ident_=f"due-{first}-decline"))


def due_panel(app: AppState, legal: Legal, *, pinned: bool = True) -> list[ft.Control]:
    """Each pending effect in turn order, with its other choices (Decline when optional,
    the teammate); the first one's Apply is the screen's main button (`due_main`) unless
    `pinned` is off (the by-hand form's Apply is the main button then)."""
    if not legal.due:
        return []
    s = app.game.state
    main_uid = next((d.uid for d in legal.due if d.uid in legal.next_due), None) \
        if pinned else None
    rows: list[ft.Control] = [heading("Card effects due now", 18)]
    for i, item in enumerate(legal.due):
        uid = item.uid
        now = uid in legal.next_due
        buttons: list[ft.Control] = []
        if now and item.can_accept and uid != main_uid:
            spare = " (teammate spared)" if item.teammate_choice else ""
            buttons.append(button(f"Apply{spare}",
                                  lambda e, uid=uid: on_due_resolve(app, uid, True),
                                  ident_=f"due-{i}-apply"))
        if now and item.can_accept and item.teammate_choice:
            buttons.append(button("Apply to the teammate too",
                                  lambda e, uid=uid: on_due_resolve(app, uid, True, True),
                                  primary=False, ident_=f"due-{i}-apply-all"))
        if now and item.optional and item.can_accept:
            buttons.append(button("Decline", lambda e, uid=uid: on_due_resolve(app, uid, False),
                                  primary=False, ident_=f"due-{i}-decline"))
        if now and not item.can_accept and uid != main_uid:
            buttons.append(button("It cannot apply: skip it",
                                  lambda e, uid=uid: on_due_resolve(app, uid, False),
                                  primary=False, ident_=f"due-{i}-decline"))
        if not now:
            buttons.append(text("Waits for the effects listed before it.", 16, color=MUTED))
        if uid == main_uid:
            buttons.append(text("Apply it with the button below." if item.can_accept else
                                "Half of the Pool is 0 Blood: it cannot apply (§14).", 16,
                                color=MUTED))
        rows.append(card(text(f"{s.players[item.owner].name}: {item.label}", 17, bold=True,
                              color=GOLD),
                         text(item.text, 16, color=MUTED),
                         wrap(*buttons), color=SURFACE_HI, ident_=f"due-{i}"))
    return [card(*rows)]


# --- effect by hand ---------------------------------------------------------------------------

def _form(app: AppState) -> dict:
    d = app.draft("effect")
    d.setdefault("open", False)
    d.setdefault("action", "gain_blood")
    d.setdefault("player", None)
    d.setdefault("by", NOBODY)
    d.setdefault("amount", "1")
    d.setdefault("card", None)
    d.setdefault("reason", "")
    return d


def on_effect_toggle(app: AppState) -> None:
    """Show or hide the form."""
    d = _form(app)
    d["open"] = not d["open"]
    app.render()


def on_effect_set(app: AppState, key: str, value: str, rerender: bool = True) -> None:
    """A form value changed (a typed one draws the screen again only when that changes what
    the Apply button says)."""
    d = _form(app)
    before = _effect_missing(app, d)
    d[key] = value
    if key in ("action", "player"):
        d["card"] = None
    refused = bool(app.error)
    app.error = None  # the input the refusal named changed
    if rerender or refused or _effect_missing(app, d) != before:
        app.render(keep_news=not rerender)


def _effect_missing(app: AppState, d: dict) -> str | None:
    """What the effect needs before it can be applied, for its button (None: ready)."""
    if d["player"] is None:
        return "Choose to whom"
    if d["action"] not in NO_AMOUNT and to_int(d["amount"]) is None:
        return "Type the amount (a whole number)"
    if d["action"] in ("power", "halve_printed_power", "restore_card") and not d["card"]:
        return "Choose the card"
    return None


def on_effect_apply(app: AppState) -> None:
    """Send the effect (a refusal shows right under the button too)."""
    d = _form(app)
    d["tried"] = True
    if (why := _effect_missing(app, d)) is not None:
        app.fail(f"Effect: {why[:1].lower()}{why[1:]}.")
        return
    cmd: dict = {"type": "apply_effect", "action": d["action"], "player": int(d["player"]),
                 "reason": d["reason"].strip()}
    if d["by"] not in (None, NOBODY):
        cmd["by"] = int(d["by"])
    if d["action"] not in NO_AMOUNT:
        cmd["amount"] = to_int(d["amount"])
    if d["action"] in ("power", "halve_printed_power", "restore_card"):
        cmd["card"] = d["card"]
    app.play(cmd)


def _card_options(app: AppState, action: str, seat: int) -> list[tuple[str, str]]:
    s = app.game.state
    if action == "restore_card":
        return [(c.uid, c.card.name) for c in s.players[seat].alliance if c.drained]
    loc = s.location
    if loc is None:
        return []
    return [(c.uid, c.card.label() if c.face_up and c.card else "face-down card")
            for c in loc.positions[seat].cards]


def effect_inputs(app: AppState) -> tuple:
    """Everything `effect_form` shows (for `AppState.memo`)."""
    d = _form(app)
    s = app.game.state
    cards = (tuple(_card_options(app, d["action"], int(d["player"])))
             if d["open"] and d["player"] else ())
    return (tuple(d.items()), tuple((p.name, p.eliminated) for p in s.players),
            s.location.id if s.location else None, cards)


def effect_form(app: AppState, *, pinned: bool = False) -> list[ft.Control]:
    """Apply any effect by hand: the escape hatch for every card the app does not automate.
    Its fields come before its Apply button (`pinned`: Apply is the screen's main button,
    pinned under the form; then the form holds only its Close). Apply says what is missing
    until the effect is complete."""
    d = _form(app)
    if not d["open"]:
        return [button("Apply an effect by hand", lambda e: on_effect_toggle(app),
                       primary=False, ident_="effect-open", icon=ft.Icons.EDIT)]
    s = app.game.state
    players = [(str(i), p.name) for i, p in enumerate(s.players) if not p.eliminated]
    parts: list[ft.Control] = [
        heading("Apply an effect by hand", 18),
        text("For a card or Relic the app does not apply by itself.", 16, color=MUTED),
        text("What happens?", 16, bold=True),
        chips(ACTIONS, d["action"], lambda v: on_effect_set(app, "action", v),
              "effect-action", about="What happens"),
        text("To whom?", 16, bold=True),
        chips(players, d["player"], lambda v: on_effect_set(app, "player", v),
              "effect-player", about="To whom"),
        text("Whose effect is it? (the thief, or who causes a Frenzy)", 16, bold=True),
        chips([(NOBODY, "nobody / the table"), *players], d["by"],
              lambda v: on_effect_set(app, "by", v), "effect-by", about="Whose effect"),
    ]
    if d["action"] not in NO_AMOUNT:
        label = "Power change (+/-)" if d["action"] == "power" else "Amount"
        parts.append(field(label, d["amount"],
                           lambda v: on_effect_set(app, "amount", v, rerender=False),
                           numeric=True, width=200, ident_="effect-amount"))
    if d["action"] in ("power", "halve_printed_power", "restore_card") and d["player"]:
        opts = _card_options(app, d["action"], int(d["player"]))
        where = "drained cards" if d["action"] == "restore_card" else (
            f"cards at {location_name(s.location.id)}" if s.location else "cards")
        parts += ([text("Which card?", 16, bold=True),
                   chips(opts, d["card"], lambda v: on_effect_set(app, "card", v),
                         "effect-card", about="Which card")]
                  if opts else [text(f"No {where} for this player.", 16, color=MUTED)])
    parts.append(field("Reason (card name)", d["reason"],
                       lambda v: on_effect_set(app, "reason", v, rerender=False),
                       ident_="effect-reason"))
    why = _effect_missing(app, d)
    apply = button(why or "Apply effect", (lambda e: on_effect_apply(app)) if why is None
                   else None, ident_="effect-apply")
    close = button("Close", lambda e: on_effect_toggle(app), primary=False,
                   ident_="effect-close")
    parts.append(close if pinned else wrap(apply, close))
    if app.error and d.get("tried") and not pinned:
        parts.append(error_box(app.error, "effect-error"))
    form = card(*parts, ident_="effect-form")
    return [form, main(apply)] if pinned else [form]
