"""Card effects at a Resolution step: due effects from Legal, and any effect by hand (§14)."""


import flet as ft

from companion.rules.legal import Legal
from models.message import N_, place
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
    ("gain_blood", N_("Gain Blood")), ("lose_blood", N_("Lose Blood")),
    ("spend_blood", N_("Spend Blood")), ("steal_blood", N_("Steal Blood")),
    ("gain_influence", N_("Gain Influence")), ("lose_influence", N_("Lose Influence")),
    ("power", N_("Change a card's Power")),
    ("halve_printed_power", N_("Halve a card's printed Power")),
    ("withdraw", N_("Withdraw from this Location")),
    ("restore_card", N_("Restore a drained card")),
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
        label = app._("Apply {name}'s {card} (teammate spared)", name=who, card=item.label) \
            if item.teammate_choice else app._("Apply {name}'s {card}", name=who, card=item.label)
        return main(button(label,
                           lambda e: on_due_resolve(app, item.uid, True),
                           ident_=f"due-{first}-apply"))
    return main(button(app._("Skip {name}'s {card}: it cannot apply", name=who, card=item.label),
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
    rows: list[ft.Control] = [heading(app._("Card effects due now"), 18)]
    for i, item in enumerate(legal.due):
        uid = item.uid
        now = uid in legal.next_due
        buttons: list[ft.Control] = []
        if now and item.can_accept and uid != main_uid:
            buttons.append(button(app._("Apply (teammate spared)") if item.teammate_choice
                                  else app._("Apply"),
                                  lambda e, uid=uid: on_due_resolve(app, uid, True),
                                  ident_=f"due-{i}-apply"))
        if now and item.can_accept and item.teammate_choice:
            buttons.append(button(app._("Apply to the teammate too"),
                                  lambda e, uid=uid: on_due_resolve(app, uid, True, True),
                                  primary=False, ident_=f"due-{i}-apply-all"))
        if now and item.optional and item.can_accept:
            buttons.append(button(app._("Decline"),
                                  lambda e, uid=uid: on_due_resolve(app, uid, False),
                                  primary=False, ident_=f"due-{i}-decline"))
        if now and not item.can_accept and uid != main_uid:
            buttons.append(button(app._("It cannot apply: skip it"),
                                  lambda e, uid=uid: on_due_resolve(app, uid, False),
                                  primary=False, ident_=f"due-{i}-decline"))
        if not now:
            buttons.append(text(app._("Waits for the effects listed before it."), 16,
                                color=MUTED))
        if uid == main_uid:
            buttons.append(text(app._("Apply it with the button below.") if item.can_accept
                                else app._("Half of the Pool is 0 Blood: it cannot apply (§14)."),
                                16, color=MUTED))
        rows.append(card(text(app._("{name}: {card}", name=s.players[item.owner].name,
                                    card=item.label), 17, bold=True, color=GOLD),
                         text(app._(item.text), 16, color=MUTED),
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
        return app._("Choose to whom")
    if d["action"] not in NO_AMOUNT and to_int(d["amount"]) is None:
        return app._("Type the amount (a whole number)")
    if d["action"] in ("power", "halve_printed_power", "restore_card") and not d["card"]:
        return app._("Choose the card")
    return None


def on_effect_apply(app: AppState) -> None:
    """Send the effect (a refusal shows right under the button too)."""
    d = _form(app)
    d["tried"] = True
    if (why := _effect_missing(app, d)) is not None:
        app.fail(app._("Effect: {reason}.", reason=f"{why[:1].lower()}{why[1:]}"))
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
    return [(c.uid, c.card.label() if c.face_up and c.card else app._("face-down card"))
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
        return [button(app._("Apply an effect by hand"), lambda e: on_effect_toggle(app),
                       primary=False, ident_="effect-open", icon=ft.Icons.EDIT)]
    s = app.game.state
    players = [(str(i), p.name) for i, p in enumerate(s.players) if not p.eliminated]
    parts: list[ft.Control] = [
        heading(app._("Apply an effect by hand"), 18),
        text(app._("For a card or Relic the app does not apply by itself."), 16, color=MUTED),
        text(app._("What happens?"), 16, bold=True),
        chips([(key, app._(label)) for key, label in ACTIONS], d["action"],
              lambda v: on_effect_set(app, "action", v), "effect-action",
              about=app._("What happens")),
        text(app._("To whom?"), 16, bold=True),
        chips(players, d["player"], lambda v: on_effect_set(app, "player", v),
              "effect-player", about=app._("To whom")),
        text(app._("Whose effect is it? (the thief, or who causes a Frenzy)"), 16, bold=True),
        chips([(NOBODY, app._("nobody / the table")), *players], d["by"],
              lambda v: on_effect_set(app, "by", v), "effect-by", about=app._("Whose effect")),
    ]
    if d["action"] not in NO_AMOUNT:
        label = app._("Power change (+/-)") if d["action"] == "power" else app._("Amount")
        parts.append(field(label, d["amount"],
                           lambda v: on_effect_set(app, "amount", v, rerender=False),
                           numeric=True, width=200, ident_="effect-amount"))
    if d["action"] in ("power", "halve_printed_power", "restore_card") and d["player"]:
        opts = _card_options(app, d["action"], int(d["player"]))
        if d["action"] == "restore_card":
            none = app._("No drained cards for this player.")
        elif s.location:
            none = app._("No cards at {place} for this player.", place=place(s.location.id))
        else:
            none = app._("No cards for this player.")
        parts += ([text(app._("Which card?"), 16, bold=True),
                   chips(opts, d["card"], lambda v: on_effect_set(app, "card", v),
                         "effect-card", about=app._("Which card"))]
                  if opts else [text(none, 16, color=MUTED)])
    parts.append(field(app._("Reason (card name)"), d["reason"],
                       lambda v: on_effect_set(app, "reason", v, rerender=False),
                       ident_="effect-reason"))
    why = _effect_missing(app, d)
    apply = button(why or app._("Apply effect"), (lambda e: on_effect_apply(app)) if why is None
                   else None, ident_="effect-apply")
    close = button(app._("Close"), lambda e: on_effect_toggle(app), primary=False,
                   ident_="effect-close")
    parts.append(close if pinned else wrap(apply, close))
    if app.error and d.get("tried") and not pinned:
        parts.append(error_box(app.error, "effect-error", app=app))
    form = card(*parts, ident_="effect-form")
    return [form, main(apply)] if pinned else [form]
