"""Pick a clan card's identity from its owner's clan list; ask the Power when unknown. Cards
the engine says are already on the table (one copy each, §1/§2) are not offered."""

from collections.abc import Collection

import flet as ft

from companion.catalogue import clan_cards
from companion.legal import Legal
from models.cards import ClanCard
from models.catalogue import ClanCardEntry
from models.common import Clan
from views.state import AppState
from views.theme import MUTED, button, field, text, to_int, wrap


def entries_for(app: AppState, clan: Clan | None) -> list[ClanCardEntry]:
    """The clan's 9 cards (every clan's cards when the clan is unknown)."""
    if clan is None:
        return list(app.catalogue.clan_cards)
    return clan_cards(app.catalogue, clan)


def _label(e: ClanCardEntry) -> str:
    return f"{e.name or e.id} · {e.power if e.power is not None else '?'}"


def on_card_pick(app: AppState, sel: dict, card_id: str) -> None:
    """A card was chosen."""
    sel["id"] = card_id
    sel.setdefault("power", "")
    app.render()


def on_power_change(sel: dict, value: str) -> None:
    """The printed Power of a card whose Power the catalogue does not know."""
    sel["power"] = value


def taken_for(legal: Legal, seat: int, sels: dict, uid: str | None = None) -> list[str]:
    """Cards not to offer for a card of `seat`: those face up on the table (from the engine's
    legal actions) and those chosen for the player's other face-down cards (`sels` by uid)."""
    others = [sels.get(u, {}).get("id") for u in legal.face_down.get(seat, []) if u != uid]
    return [*legal.taken_cards.get(seat, []), *(o for o in others if o)]


def picker(app: AppState, clan: Clan | None, sel: dict, prefix: str,
           taken: Collection[str] = ()) -> list[ft.Control]:
    """Buttons for each card of the clan not `taken`; a Power field when the chosen card's is
    unknown."""
    gone = {k.casefold() for k in taken}
    entries = [e for e in entries_for(app, clan) if e.id == sel.get("id") or not (
        e.id.casefold() in gone or (e.name or "").casefold() in gone)]
    chosen = next((e for e in entries if e.id == sel.get("id")), None)
    out: list[ft.Control] = [wrap(*[
        button(_label(e), lambda ev, e=e: on_card_pick(app, sel, e.id), primary=False,
               selected=chosen is not None and e.id == chosen.id, ident_=f"{prefix}-{e.id}")
        for e in entries])]
    if chosen is not None and chosen.power is None:
        out += [text(f"The app does not know the printed Power of {chosen.name or chosen.id} "
                     "yet: read it from the card.", 15, color=MUTED),
                field("Printed Power", str(sel.get("power", "")),
                      lambda v: on_power_change(sel, v), numeric=True, width=180,
                      ident_=f"{prefix}-power")]
    return out


def picked(app: AppState, clan: Clan | None, sel: dict) -> ClanCard | str:
    """The chosen card's identity, or what is missing; remembers a typed Power."""
    entry = next((e for e in entries_for(app, clan) if e.id == sel.get("id")), None)
    if entry is None:
        return "choose which card it is"
    if entry.power is None:
        power = to_int(sel.get("power"))
        if power is None or not 0 <= power <= 20:
            return f"enter the printed Power of {entry.name or entry.id} (0–20)"
        app.remember("clan_cards", {"id": entry.id, "clan": entry.clan, "power": power})
        entry = entry.model_copy(update={"power": power})
    return entry.identity()
