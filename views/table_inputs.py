"""Inputs collected per player at a table: secret Stay/Withdraw (§8.1), naming
face-down cards as they turn up (§8.1, §8.2), the Succubus Club take-back (§15).

Used by the referee's Resolution screen once any seat is held (the referee then enters only
what phone-less players say) and by a player's own screen. What a device may enter comes from
`app.view.allowed` (`companion.table.access`); nothing here decides it. Until every choice is in, no
screen shows a choice or who has chosen, only "k of n".
"""

import flet as ft

from companion.rules.legal import Legal
from models.cards import ClanCard
from models.message import place
from models.table import Seat
from views.card_picker import picked, picker, taken_for
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE_HI, button, card, heading, text, wrap


def collecting(app: AppState) -> bool:
    """Whether the table collects inputs per device: some player holds a seat."""
    return app.view is not None and any(s.taken for s in app.view.seats)


def on_choice_pick(app: AppState, player: int, choice: str) -> None:
    """Enter (or change) a secret Stay/Withdraw."""
    assert app.table is not None
    app.table_call(app.table.choose, player, choice)


def on_cards_name(app: AppState, uids: list[str]) -> None:
    """Send the identities picked for these face-down cards."""
    assert app.table is not None and app.view is not None
    s = app.game.state
    owners = {u: p for p, us in app.view.legal.face_down.items() for u in us}
    sels = app.draft("naming")
    named: dict[str, dict] = {}
    for uid in uids:
        owner = owners.get(uid)
        clan = s.players[owner].clan if owner is not None else None
        identity = picked(app, clan, sels.setdefault(uid, {}))
        if isinstance(identity, str):
            app.fail(app._("{name}'s face-down card: {problem}.", name=s.players[owner].name,
                           problem=identity) if owner is not None else
                     app._("A's face-down card: {problem}.", problem=identity))
            return
        assert isinstance(identity, ClanCard)
        named[uid] = identity.model_dump()
    app.table_call(app.table.name_cards, named)


def on_entry_clear(app: AppState, player: int) -> None:
    """Referee: clear what was entered for this player at this step (they enter it again)."""
    assert app.table is not None
    app.table_call(app.table.clear_input, player)


def on_take_back_enter(app: AppState, player: int, amount: int) -> None:
    """Enter the Blood a player takes back."""
    assert app.table is not None
    app.table_call(app.table.take_back, player, amount)


def _revealed(app: AppState, name: str, choice: str) -> str:
    """A revealed choice: 'Ann: Stay'."""
    if choice == "stay":
        return app._("{name}: Stay", name=name)
    if choice == "withdraw":
        return app._("{name}: Withdraw", name=name)
    return f"{name}: {choice.capitalize()}"


def choice_panel(app: AppState) -> list[ft.Control]:
    """The secret Stay/Withdraw: the count, and buttons for the players this device enters."""
    tv = app.view
    if tv is None or tv.withdraw is None:
        return []
    w, s = tv.withdraw, app.game.state
    if w.revealed is not None:
        lines = [text(_revealed(app, s.players[p].name, c), 18, bold=True,
                      ident_=f"revealed-{p}") for p, c in w.revealed.items()]
        return [card(heading(app._("Revealed at {place}", place=place(w.location)), 20),
                     *lines, ident_="revealed")]
    out: list[ft.Control] = [card(
        text(app._("{chosen} of {total} have chosen", chosen=w.chosen, total=w.of), 24,
             bold=True, color=GOLD, ident_="chosen-count"),
        text(app._("Choices stay secret on every screen until the last one is in; then all "
                   "are shown together (§8.1)."), 15, color=MUTED))]
    me = tv.role.player if isinstance(tv.role, Seat) else None
    for p in tv.allowed.choose:
        mine = w.mine if p == me else None
        label = app._("Your token: Stay or Withdraw?") if p == me else \
            app._("{name} (no phone: enter what they chose)", name=s.players[p].name)
        out.append(card(text(label, 18, bold=True), wrap(
            button(app._("Stay"), lambda e, p=p: on_choice_pick(app, p, "stay"), primary=False,
                   selected=mine == "stay", ident_=f"choose-stay-{p}"),
            button(app._("Withdraw"), lambda e, p=p: on_choice_pick(app, p, "withdraw"),
                   primary=False, selected=mine == "withdraw", ident_=f"choose-withdraw-{p}")),
            color=SURFACE_HI))
    return out


def naming_panel(app: AppState) -> list[ft.Control]:
    """Pickers for the face-down cards this device names now; which are named already."""
    tv = app.view
    if tv is None or tv.naming is None:
        return []
    s = app.game.state
    seated = {x.player for x in tv.seats if x.taken} if app.is_referee else set()
    owner_of = {u: p for p, us in tv.naming.needed.items() for u in us}
    mine = [u for u in tv.allowed.name_cards
            if u not in tv.naming.named and owner_of.get(u) not in seated]
    rows: list[ft.Control] = [heading(app._("Face-down cards turning up"), 20)]
    for owner, uids in tv.naming.needed.items():
        done = sum(1 for u in uids if u in tv.naming.named)
        line: list[ft.Control] = [text(app._("{name}: {done} of {total} named",
                                             name=s.players[owner].name, done=done,
                                             total=len(uids)),
                                       16, color=MUTED, ident_=f"named-{owner}")]
        if done and app.is_referee:  # a wrong name is corrected without undoing anything
            line.append(button(app._("Clear {name}'s names", name=s.players[owner].name),
                               lambda e, p=owner: on_entry_clear(app, p), primary=False,
                               ident_=f"clear-{owner}"))
        rows.append(wrap(*line))
    sels = app.draft("naming")
    for owner, uids in tv.naming.needed.items():
        for k, uid in enumerate(uids, start=1):
            if uid not in mine:
                continue
            # Only what the owner may still have: not a card face up for them, nor one named
            # (or being picked) for another of their face-down cards (§2).
            named_here = [c.key() for u, c in tv.naming.named.items() if u in uids and u != uid]
            taken = [*taken_for(tv.legal, owner, sels, uid), *(key for key in named_here if key)]
            name = s.players[owner].name
            ask = app._("{name}'s face-down card #{k}: which is it?", name=name, k=k) \
                if len(uids) > 1 else app._("{name}'s face-down card: which is it?", name=name)
            rows.append(card(text(ask, 17, bold=True),
                             *picker(app, s.players[owner].clan, sels.setdefault(uid, {}),
                                     f"name-{uid}", taken=taken), color=SURFACE_HI))
    if mine:
        rows.append(button(app._("These are the cards"), lambda e: on_cards_name(app, mine),
                           ident_="name-ok"))
    return [card(*rows, ident_="naming")]


def take_back_panel(app: AppState) -> list[ft.Control]:
    """Succubus Club: amounts entered so far, and buttons for this device's players."""
    tv = app.view
    if tv is None or tv.take_back is None:
        return []
    s = app.game.state
    rows: list[ft.Control] = [heading(app._("Taking Blood back"), 20)]
    for p, most in tv.take_back.most.items():
        got = tv.take_back.entered.get(p)
        name = s.players[p].name
        said = app._("{name} ({most} at most): takes back {n}", name=name, most=most, n=got) \
            if got is not None else \
            app._("{name} ({most} at most): has not said yet", name=name, most=most)
        line: list[ft.Control] = [text(said, 16, ident_=f"took-{p}")]
        if got is not None and app.is_referee:
            line.append(button(app._("Clear {name}'s amount", name=name),
                               lambda e, p=p: on_entry_clear(app, p), primary=False,
                               ident_=f"clear-{p}"))
        rows.append(wrap(*line))
    for p, most in tv.allowed.take_back.items():
        if app.is_referee and any(x.player == p and x.taken for x in tv.seats):
            continue  # they say it on their own phone
        rows.append(card(text(app._("{name}: how much Blood back?", name=s.players[p].name), 17,
                              bold=True),
                         wrap(*[button(str(n), lambda e, p=p, n=n: on_take_back_enter(app, p, n),
                                       primary=False,
                                       selected=tv.take_back.entered.get(p) == n, width=64,
                                       ident_=f"take-{p}-{n}") for n in range(most + 1)]),
                         color=SURFACE_HI))
    return [card(*rows, ident_="take-back")]


def referee_inputs(app: AppState, legal: Legal) -> list[ft.Control] | None:
    """The referee's collected-inputs screen for this step, or None (the one-device forms)."""
    if not collecting(app) or legal.phase != "resolution":
        return None
    tv = app.view
    assert tv is not None
    if tv.take_back is not None:
        return take_back_panel(app)
    if tv.withdraw is not None or tv.naming is not None:
        out = [text(app.words(tv.allowed.prompt_message), 17, ident_="inputs-prompt")]
        return out + choice_panel(app) + naming_panel(app)
    return None
