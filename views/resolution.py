"""Resolution as a stepper per Location: Withdraw, Revelation, Preparation, Conflict,
Aftermath (§8)."""

import flet as ft

from companion.legal import Legal
from models.common import STEPS, location_name
from views.card_picker import picked, picker, taken_for
from views.effects import due_panel, effect_form
from views.locations_panel import position_line
from views.power_table import power_table
from views.state import AppState
from views.theme import BLOOD, GOLD, MUTED, SURFACE_HI, TEXT, button, card, heading, text, wrap

NEXT_LABEL = {"preparation": "Continue to Conflict",
              "conflict": "Compare Power and give rewards",
              "aftermath": "Finish this Location"}


def stepper(app: AppState, legal: Legal) -> ft.Control:
    """Which Location of how many, and the five steps with the current one lit."""
    s = app.game.state
    chips = []
    for step in STEPS:
        now = step == legal.step
        done = STEPS.index(step) < STEPS.index(legal.step) if legal.step else False
        chips.append(ft.Container(
            content=ft.Text(step.capitalize(), size=14, color="#1a0d00" if now else TEXT,
                            weight=ft.FontWeight.BOLD if now else None),
            bgcolor=GOLD if now else (BLOOD if done else SURFACE_HI), border_radius=14,
            padding=ft.Padding.symmetric(horizontal=10, vertical=6)))
    loc = s.location
    assert loc is not None
    ally = f" — {loc.ally.name}" if loc.ally else ""
    return card(heading(f"{location_name(loc.id)}{ally}", 20),
                text(f"Location {s.location_index + 1} of {len(s.locations)}", 15, color=MUTED),
                ft.Row(chips, wrap=True, spacing=6, run_spacing=6), ident_="stepper")


# --- Withdraw ---------------------------------------------------------------------------------

def _wd(app: AppState) -> dict:
    d = app.draft("withdraw")
    d.setdefault("out", [])
    d.setdefault("reveal", {})
    return d


def on_withdraw_toggle(app: AppState, seat: int, leave: bool) -> None:
    """Stay or Withdraw for one player."""
    out: list = _wd(app)["out"]
    if leave and seat not in out:
        out.append(seat)
    if not leave and seat in out:
        out.remove(seat)
    app.render()


def on_withdraw_confirm(app: AppState, legal: Legal) -> None:
    """Reveal everyone's token."""
    d = _wd(app)
    cards = {seat: legal.face_down.get(seat, []) for seat in d["out"]}
    reveal = _identities(app, cards, d["reveal"])
    if reveal is not None:
        app.play({"type": "choose_withdraw", "withdraw": list(d["out"]), "reveal": reveal})


def _identities(app: AppState, cards: dict[int, list[str]], sels: dict) -> dict | None:
    """The identity picked for each face-down card, or None (and the reason shown)."""
    s = app.game.state
    out = {}
    for seat, uids in cards.items():
        for uid in uids:
            identity = picked(app, s.players[seat].clan, sels.setdefault(uid, {}))
            if isinstance(identity, str):
                app.fail(f"{s.players[seat].name}'s face-down card: {identity}.")
                return None
            out[uid] = identity.model_dump()
    return out


def withdraw_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Stay/Withdraw per present player; withdrawing players' face-down cards identified."""
    s = app.game.state
    d = _wd(app)
    rows: list[ft.Control] = [text("Everyone here chooses Stay or Withdraw in secret, then "
                                   "all reveal together.", 16, color=MUTED)]
    for seat in legal.present:
        leave = seat in d["out"]
        line = position_line(s, s.location_index, seat) or s.players[seat].name
        parts: list[ft.Control] = [
            text(line, 17, bold=True),
            wrap(button("Stay", lambda e, seat=seat: on_withdraw_toggle(app, seat, False),
                        primary=False, selected=not leave, ident_=f"stay-{seat}"),
                 button("Withdraw", lambda e, seat=seat: on_withdraw_toggle(app, seat, True),
                        primary=False, selected=leave, ident_=f"withdraw-{seat}"))]
        if leave:
            for uid in legal.face_down.get(seat, []):
                parts += [text("Their face-down card turns up: which is it?", 15,
                               color=MUTED),
                          *picker(app, s.players[seat].clan, d["reveal"].setdefault(uid, {}),
                                  f"wd-{uid}", taken_for(legal, seat, d["reveal"], uid))]
        rows.append(card(*parts, color=SURFACE_HI))
    rows.append(button("Reveal the tokens", lambda e: on_withdraw_confirm(app, legal),
                       ident_="withdraw-ok"))
    return rows


# --- Revelation -------------------------------------------------------------------------------

def on_reveal_confirm(app: AppState, legal: Legal) -> None:
    """Enter the identities of every face-down card here."""
    cards = _identities(app, legal.face_down, app.draft("reveal"))
    if cards is not None:
        app.play({"type": "reveal", "cards": cards})


def revelation_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """A card picker for each face-down card of the players who stayed."""
    s = app.game.state
    sels = app.draft("reveal")
    rows: list[ft.Control] = [text("Turn every face-down card here face up and say what it "
                                   "is.", 16, color=MUTED)]
    for seat, uids in legal.face_down.items():
        for k, uid in enumerate(uids, start=1):
            rows.append(card(text(f"{s.players[seat].name}'s face-down card"
                                  + (f" #{k}" if len(uids) > 1 else ""), 17, bold=True),
                             *picker(app, s.players[seat].clan, sels.setdefault(uid, {}),
                                     f"rev-{uid}", taken_for(legal, seat, sels, uid)),
                             color=SURFACE_HI))
    rows.append(button("The cards are face up", lambda e: on_reveal_confirm(app, legal),
                       ident_="reveal-ok"))
    return rows


# --- Preparation / Conflict / Aftermath ---------------------------------------------------------

def on_continue_click(app: AppState) -> None:
    """Finish this step."""
    app.play({"type": "next_step"})


def effects_step_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Power table, due effects, effect by hand, Continue."""
    s = app.game.state
    assert s.location is not None and legal.step is not None
    hint = {"preparation": "Preparation cards act now, in turn order.",
            "conflict": "Conflict cards act now, then Power is compared.",
            "aftermath": "Aftermath cards act now, in turn order."}[legal.step]
    can_go = "next_step" in legal.commands
    return [
        *power_table(s, s.location),
        text(hint, 16, color=MUTED),
        *due_panel(app, legal),
        *effect_form(app),
        button(NEXT_LABEL[legal.step], (lambda e: on_continue_click(app)) if can_go else None,
               ident_="continue"),
        *([] if can_go else [text("Resolve the card effects above first.", 15,
                                  color=MUTED)]),
    ]


# --- Succubus Club: take Blood back --------------------------------------------------------------

def on_take_back_pick(app: AppState, seat: int, n: int) -> None:
    """How much Blood a player takes back from here."""
    app.draft("take_back")[seat] = n
    app.render()


def on_take_back_confirm(app: AppState) -> None:
    """Everyone has taken back what they wanted."""
    amounts = {str(seat): n for seat, n in app.draft("take_back").items() if n}
    app.play({"type": "take_back_blood", "amounts": amounts})


def take_back_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Each player with Blood here may take back up to 3."""
    s = app.game.state
    chosen = app.draft("take_back")
    rows: list[ft.Control] = [text("This Location's card lets every player take back up to 3 "
                                   "of their Blood here.", 16, color=MUTED)]
    for seat, most in (getattr(legal, "take_back", None) or {}).items():
        rows.append(card(text(s.players[seat].name, 17, bold=True), wrap(*[
            button(str(n), lambda e, seat=seat, n=n: on_take_back_pick(app, seat, n),
                   primary=False, selected=chosen.get(seat, 0) == n, width=64,
                   ident_=f"take-{seat}-{n}") for n in range(most + 1)]), color=SURFACE_HI))
    rows.append(button("Done", lambda e: on_take_back_confirm(app), ident_="take-back-ok"))
    return rows


def resolution_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """The stepper and the current step's controls (collected per device once players hold
    seats: views.table_inputs)."""
    from views.table_inputs import referee_inputs

    inputs = referee_inputs(app, legal)
    if inputs is not None:
        return [stepper(app, legal), *inputs]
    if getattr(legal, "awaiting", None) == "take_back_blood":
        return [stepper(app, legal), *take_back_view(app, legal)]
    body = {"withdraw": withdraw_view, "revelation": revelation_view}.get(
        legal.step or "", effects_step_view)(app, legal)
    return [stepper(app, legal), *body]
