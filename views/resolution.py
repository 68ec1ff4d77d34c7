"""Resolution as a stepper per Location: Withdraw, Revelation, Preparation, Conflict,
Aftermath (§8). The Location just resolved heads the next one's screen with its outcome; a
main button that cannot act yet says what is missing."""

import flet as ft

from companion.rules.legal import Legal
from companion.story.words import title
from models.common import STEPS
from models.message import N_, place
from views.card_picker import picked, picker, taken_for
from views.effects import due_main, due_panel, effect_form
from views.locations_panel import position_line
from views.power_table import outcomes_card, power_table
from views.state import AppState
from views.theme import (
    GOLD,
    LINE,
    MUTED,
    OK,
    ON_GOLD,
    SMALL,
    SURFACE_HI,
    button,
    card,
    main,
    text,
    wrap,
)

THROUGH_LABEL = {"preparation": N_("Compare Power and finish this Location"),
                 "conflict": N_("Compare Power and finish this Location"),
                 "aftermath": N_("Finish this Location")}
STEP_LABEL = {"preparation": N_("Only this step: go to Conflict"),
              "conflict": N_("Only this step: compare Power, then Aftermath")}


def stepper(app: AppState, legal: Legal) -> ft.Control:
    """Which Location of how many, and the five steps: done ones ticked (calm, not alarm red),
    the current one lit, the coming ones outlined."""
    s = app.game.state
    chips = []
    for step in STEPS:
        now = step == legal.step
        done = STEPS.index(step) < STEPS.index(legal.step) if legal.step else False
        name = title(step, app.t)
        if now:
            said = app._("{step}: now", step=name)
        elif done:
            said = app._("{step}: done", step=name)
        else:
            said = app._("{step}: to come", step=name)
        label = ft.Text(name, size=SMALL, color=ON_GOLD if now else (
            OK if done else MUTED), weight=ft.FontWeight.BOLD if now else None,
            semantics_label=said)
        content: ft.Control = (ft.Row([ft.Icon(ft.Icons.CHECK, size=16, color=OK), label],
                                      spacing=4, tight=True) if done else label)
        chips.append(ft.Container(
            content=content, bgcolor=GOLD if now else (SURFACE_HI if done else None),
            border=None if now or done else ft.Border.all(1, LINE), border_radius=14,
            padding=ft.Padding.symmetric(horizontal=8, vertical=3)))
    loc = s.location
    assert loc is not None
    facts = {"place": place(loc.id), "n": s.location_index + 1, "total": len(s.locations)}
    head = app._("{place} ({n} of {total}) — {ally}", ally=loc.ally.name, **facts) \
        if loc.ally else app._("{place} ({n} of {total})", **facts)
    return card(text(head, 18, bold=True),
                ft.Row(chips, wrap=True, spacing=4, run_spacing=4), ident_="stepper")


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
                app.fail(app._("{name}'s face-down card: {reason}.", name=s.players[seat].name,
                               reason=identity))
                return None
            out[uid] = identity.model_dump()
    return out


def withdraw_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Stay/Withdraw per present player; withdrawing players' face-down cards identified."""
    s = app.game.state
    d = _wd(app)
    alone = len(legal.present) == 1
    rows: list[ft.Control] = [text(
        app._("Only {name} is here: Stay (the usual choice) or Withdraw.",
              name=s.players[legal.present[0]].name) if alone else
        app._("Everyone here chooses Stay or Withdraw in secret, then all reveal together."),
        16, color=MUTED)]
    for seat in legal.present:
        leave = seat in d["out"]
        line = position_line(s, s.location_index, seat, app=app) or s.players[seat].name
        who, _, what = line.partition(": ")
        parts: list[ft.Control] = [
            text(who, 17, bold=True), text(what, 16, color=MUTED),
            wrap(button(app._("Stay"), lambda e, seat=seat: on_withdraw_toggle(app, seat, False),
                        primary=False, selected=not leave, ident_=f"stay-{seat}",
                        spoken=app._("Stay: {name}", name=who), app=app),
                 button(app._("Withdraw"),
                        lambda e, seat=seat: on_withdraw_toggle(app, seat, True),
                        primary=False, selected=leave, ident_=f"withdraw-{seat}",
                        spoken=app._("Withdraw: {name}", name=who), app=app), spacing=6)]
        if leave:
            for uid in legal.face_down.get(seat, []):
                parts += [text(app._("Their face-down card turns up: which is it?"), 16,
                               color=MUTED),
                          *picker(app, s.players[seat].clan, d["reveal"].setdefault(uid, {}),
                                  f"wd-{uid}", taken_for(legal, seat, d["reveal"], uid))]
        rows.append(card(*parts, color=SURFACE_HI))
    if alone:
        who = s.players[legal.present[0]].name
        label = app._("{name} withdraws", name=who) if d["out"] else \
            app._("{name} stays: go on", name=who)
    elif not d["out"]:
        label = app._("Reveal: everyone stays")
    else:
        label = app.n_("Reveal: {names} withdraws", "Reveal: {names} withdraw", len(d["out"]),
                       names=", ".join(s.players[p].name for p in d["out"]))
    unnamed = _unnamed(app, {seat: legal.face_down.get(seat, []) for seat in d["out"]},
                       d["reveal"])
    if unnamed:
        label = app._("Name {name}'s face-down card first", name=unnamed)
    rows.append(main(button(label, (lambda e: on_withdraw_confirm(app, legal))
                            if not unnamed else None, ident_="withdraw-ok")))
    return rows


def _unnamed(app: AppState, cards: dict[int, list[str]], sels: dict) -> str | None:
    """The first player whose face-down card here is not named yet (or lacks its Power)."""
    s = app.game.state
    for seat, uids in cards.items():
        for uid in uids:
            if isinstance(picked(app, s.players[seat].clan, sels.get(uid, {}),
                                 remember=False), str):
                return s.players[seat].name
    return None


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
    rows: list[ft.Control] = [text(app._("Turn every face-down card here face up and say what "
                                         "it is."), 16, color=MUTED)]
    for seat, uids in legal.face_down.items():
        for k, uid in enumerate(uids, start=1):
            name = s.players[seat].name
            head = app._("{name}'s face-down card #{number}", name=name, number=str(k)) \
                if len(uids) > 1 else app._("{name}'s face-down card", name=name)
            rows.append(card(text(head, 17, bold=True),
                             *picker(app, s.players[seat].clan, sels.setdefault(uid, {}),
                                     f"rev-{uid}", taken_for(legal, seat, sels, uid)),
                             color=SURFACE_HI))
    unnamed = _unnamed(app, legal.face_down, sels)
    rows.append(main(button(app._("Name {name}'s face-down card first", name=unnamed)
                            if unnamed else app._("The cards are face up"),
                            (lambda e: on_reveal_confirm(app, legal))
                            if not unnamed else None, ident_="reveal-ok")))
    return rows


# --- Preparation / Conflict / Aftermath ---------------------------------------------------------

def on_continue_click(app: AppState, through: bool = True) -> None:
    """Finish this step; `through`: and the later steps of this Location with nothing for
    the table (the engine stops where something is due)."""
    app.play({"type": "next_step", "through": through})


def _unknowns(app: AppState, legal: Legal) -> list[ft.Control]:
    """Cards here whose effect the app applies not by itself: the referee's to apply."""
    out: list[ft.Control] = []
    if legal.by_hand:
        out.append(text(app._("Apply by hand now ({step}): {cards}",
                              step=legal.step if app.t.english else title(legal.step, app.t),
                              cards="; ".join(legal.by_hand)), 17,
                        color=GOLD, ident_="by-hand"))
    if legal.unknown_timing:
        out.append(text(app._("The app does not know what these cards do: {cards}. If one acts "
                              "now, apply it by hand below, or go one step at a time.",
                              cards="; ".join(legal.unknown_timing)), 16, color=MUTED,
                        ident_="unknown-timing"))
    return out


def effects_step_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Due effects first, the Power table, effects by hand, and one tap to go on."""
    s = app.game.state
    assert s.location is not None and legal.step is not None
    hint = {"preparation": app._("Preparation cards act now, in turn order."),
            "conflict": app._("Conflict cards act now, then Power is compared."),
            "aftermath": app._("Aftermath cards act now, in turn order.")}[legal.step]
    can_go = "next_step" in legal.commands
    by_hand = bool(app.draft("effect").get("open"))  # the form's Apply is the main button then
    step = [*due_panel(app, legal, pinned=not by_hand), text(hint, 16, color=MUTED),
            *_unknowns(app, legal), *power_table(s, s.location, app=app)]
    if by_hand:  # the form being filled heads the screen (which opens at its top)
        return [*effect_form(app, pinned=True),
                # going on now would skip the effect being entered: say so, beside it
                button(app._(THROUGH_LABEL[legal.step]), None, primary=False,
                       ident_="continue"),
                text(app._("Apply the effect above, or close its form, before going on."), 16,
                     color=MUTED, ident_="continue-why"), *step]
    out: list[ft.Control] = [*step, *effect_form(app)]
    if can_go and legal.step in STEP_LABEL and (legal.by_hand or legal.unknown_timing):
        out.append(button(app._(STEP_LABEL[legal.step]), lambda e: on_continue_click(app, False),
                          primary=False, ident_="one-step"))
    due = due_main(app, legal)
    out.append(due if due is not None else main(button(
        app._(THROUGH_LABEL[legal.step]), (lambda e: on_continue_click(app)) if can_go else None,
        ident_="continue")))
    return out


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
    rows: list[ft.Control] = [text(app._("This Location's card lets every player take back up "
                                         "to 3 of their Blood here."), 16, color=MUTED)]
    for seat, most in (getattr(legal, "take_back", None) or {}).items():
        who = s.players[seat].name
        rows.append(card(text(who, 17, bold=True), wrap(*[
            button(str(n), lambda e, seat=seat, n=n: on_take_back_pick(app, seat, n),
                   primary=False, selected=chosen.get(seat, 0) == n, width=64,
                   ident_=f"take-{seat}-{n}", app=app,
                   spoken=app._("{name} takes back {n} Blood", name=who, n=n))
            for n in range(most + 1)]), color=SURFACE_HI))
    rows.append(main(button(app._("Done"), lambda e: on_take_back_confirm(app),
                            ident_="take-back-ok")))
    return rows


def resolution_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """The stepper and the current step's controls (collected per device once players hold
    seats: views.table_inputs); the Location just resolved, with its outcome, above them."""
    from views.table_inputs import referee_inputs

    s = app.game.state
    first_step = legal.step == "withdraw"  # the first screen after a Location was resolved
    head = outcomes_card(app.game, 1, app=app) if s.location_index and first_step else []
    inputs = referee_inputs(app, legal)
    if inputs is not None:
        return [*head, stepper(app, legal), *inputs]
    if getattr(legal, "awaiting", None) == "take_back_blood":
        return [*head, stepper(app, legal), *take_back_view(app, legal)]
    body = {"withdraw": withdraw_view, "revelation": revelation_view}.get(
        legal.step or "", effects_step_view)(app, legal)
    return [*head, stepper(app, legal), *body]
