"""Pick a clan card's identity from its owner's clan list. Only what play needs is asked: the
printed Power when the app does not know it; the name may be added then too (optional), and
both are remembered for the next games. Cards the engine says are already on the table (one
copy each, §1/§2) are not offered."""

from collections.abc import Callable, Collection

import flet as ft

from companion.rules.catalogue import clan_cards
from companion.rules.legal import Legal
from companion.story.narrator_parts import card_ref
from models.cards import ClanCard
from models.catalogue import ClanCardEntry
from models.common import Clan
from models.message import Message
from views.choice import chips
from views.locations_panel import ENGLISH_WORDS, EnglishWords
from views.state import AppState
from views.theme import MUTED, button, field, tap_row, text, to_int, wrap


def entries_for(app: AppState, clan: Clan | None) -> list[ClanCardEntry]:
    """The clan's 9 cards (every clan's cards when the clan is unknown)."""
    if clan is None:
        return list(app.catalogue.clan_cards)
    return clan_cards(app.catalogue, clan)


def card_label(e: ClanCardEntry, app: AppState | EnglishWords | None = None) -> str:
    """'Bloody Fury · 6'; a card whose name the app was never told shows the code printed
    on it ('TR02 · 3'), and an unknown Power says so ('TR02 · Power ?'); in `app`'s language
    (English without one)."""
    app = ENGLISH_WORDS if app is None else app
    name = app.words(card_name(e)) if e.name else e.id
    if e.power is None:
        return app._("{card} · Power ?", card=name)
    return f"{name} · {app.t.number(e.power)}"


def card_name(e: ClanCardEntry) -> Message:
    """A catalogue card's name as a message (named in the device's language)."""
    return Message(key="{card}", args={"card": card_ref(e.id, e.name)})


def on_card_pick(app: AppState, sel: dict, card_id: str,
                 then: Callable[[], None] | None = None) -> None:
    """A card was chosen."""
    sel["id"] = card_id
    sel.setdefault("power", "")
    sel.setdefault("name", "")
    if then is not None:
        then()
    app.render()


def on_value_change(sel: dict, key: str, value: str) -> None:
    """The printed Power (or the name) of a card the catalogue does not fully know."""
    sel[key] = value


def on_power_typed(app: AppState, sel: dict, value: str) -> None:
    """A Power beyond the chips, typed: the screen's buttons follow (complete or not)."""
    sel["power"] = value
    app.render(keep_news=True)


def on_card_change(app: AppState, sel: dict) -> None:
    """Back to the whole list of cards."""
    sel.pop("id", None)
    app.render()


def on_power_pick(app: AppState, sel: dict, value: str) -> None:
    """The printed Power, tapped."""
    sel["power"] = value
    app.render()


def on_other_power(app: AppState, sel: dict) -> None:
    """A Power beyond the chips: show a box for it."""
    sel["other"] = True
    app.render()


def taken_for(legal: Legal, seat: int, sels: dict, uid: str | None = None) -> list[str]:
    """Cards not to offer for a card of `seat`: those face up on the table (from the engine's
    legal actions) and those chosen for the player's other face-down cards (`sels` by uid)."""
    others = [sels.get(u, {}).get("id") for u in legal.face_down.get(seat, []) if u != uid]
    return [*legal.taken_cards.get(seat, []), *(o for o in others if o)]


def picker(app: AppState, clan: Clan | None, sel: dict, prefix: str,
           taken: Collection[str] = (), on_pick: Callable[[], None] | None = None,
           extra: ft.Control | None = None) -> list[ft.Control]:
    """Buttons for each card of the clan not `taken` (and `extra` after them). A card whose
    printed Power the app does not know stands alone once tapped, with its Power to tap (and its
    name to add, optional). `on_pick` runs when a card is tapped."""
    gone = {k.casefold() for k in taken}
    entries = [e for e in entries_for(app, clan) if e.id == sel.get("id") or not (
        e.id.casefold() in gone or (e.name or "").casefold() in gone)]
    chosen = next((e for e in entries if e.id == sel.get("id")), None)
    if chosen is not None and chosen.power is None:
        return _power_form(app, chosen, sel, prefix)
    out: list[ft.Control] = [wrap(*[
        button(card_label(e, app), lambda ev, e=e: on_card_pick(app, sel, e.id, on_pick),
               primary=False, selected=chosen is not None and e.id == chosen.id,
               ident_=f"{prefix}-{e.id}")
        for e in entries], *([extra] if extra is not None else []), spacing=6)]
    if chosen is not None and chosen.name is None:
        out += [text(app._("{card} has no name in the app yet: add it if you like (it is "
                           "remembered).", card=chosen.id), 16, color=MUTED),
                _name_box(app, sel, prefix)]
    elif any(e.name is None for e in entries):
        out.append(text(app._("A card the app cannot name yet shows the code printed on it."),
                        16, color=MUTED))
    return out


def _name_box(app: AppState, sel: dict, prefix: str) -> ft.Control:
    return field(app._("Name (optional)"), str(sel.get("name", "")),
                 lambda v: on_value_change(sel, "name", v), width=220,
                 ident_=f"{prefix}-name")


def _power_form(app: AppState, chosen: ClanCardEntry, sel: dict,
                prefix: str) -> list[ft.Control]:
    """The chosen card alone (tap to change), its printed Power to tap, its name to add."""
    name = app.words(card_name(chosen)) if chosen.name else chosen.id
    out: list[ft.Control] = [
        tap_row(card_label(chosen, app), lambda e: on_card_change(app, sel), f"{prefix}-chosen",
                detail=app._("tap to choose another card"), selected=True),
        text(app._("Printed Power of {card} (read it on the card; it is remembered):",
                   card=name), 16, color=MUTED),
        chips([(str(n), str(n)) for n in range(10)], str(sel.get("power", "")),
              lambda v: on_power_pick(app, sel, v), f"{prefix}-power", width=56,
              about=app._("Printed Power of {card}", card=name))]
    if sel.get("other") or str(sel.get("power", "")) not in ("", *map(str, range(10))):
        out.append(field(app._("Printed Power"), str(sel.get("power", "")),
                         lambda v: on_power_typed(app, sel, v), numeric=True,
                         width=170, ident_=f"{prefix}-power"))
    else:
        out.append(button(app._("Other…"), lambda e: on_other_power(app, sel), primary=False,
                          ident_=f"{prefix}-power-more"))
    if chosen.name is None:
        out.append(_name_box(app, sel, prefix))
    return out


def picked(app: AppState, clan: Clan | None, sel: dict, *,
           remember: bool = True) -> ClanCard | str:
    """The chosen card's identity, or what is missing; remembers a typed Power and name
    (unless `remember` is off: a screen only checking whether the card is complete)."""
    entry = next((e for e in entries_for(app, clan) if e.id == sel.get("id")), None)
    if entry is None:
        return app._("choose which card it is")
    learnt: dict = {}
    if entry.power is None:
        power = to_int(sel.get("power"))
        if power is None or not 0 <= power <= 20:
            return app._("enter the printed Power of {card} (0–20)",
                         card=app.words(card_name(entry)) if entry.name else entry.id)
        learnt["power"] = power
    name = str(sel.get("name") or "").strip()
    if entry.name is None and name:
        learnt["name"] = name[:60]
    if learnt:
        if remember:
            app.remember("clan_cards", {"id": entry.id, "clan": entry.clan, **learnt})
        entry = entry.model_copy(update=learnt)
    return entry.identity()
