"""The card catalogue: each clan's 9 cards, Allies, Relics, Location cards; unknown values
marked; tap a card to enter its printed values; share the catalogue."""

import flet as ft

from companion.rules.catalogue import clan_cards
from models.catalogue import AllyEntry, ClanCardEntry, LocationCardEntry, RelicEntry
from models.common import CLANS
from views.card_editor import card_editor, start_edit
from views.catalogue_share import share_panel
from views.frame import frame
from views.state import AppState
from views.theme import MUTED, TEXT, button, tap_row, text, wrap

TABS = (("clan_cards", "Clan cards"), ("allies", "Allies"), ("relics", "Relics"),
        ("location_cards", "Locations"), ("share", "Share"))
UNKNOWN = "#ffb3b3"
"""Title colour of a card with values still unknown."""


def _draft(app: AppState) -> dict:
    d = app.draft("catalogue")
    d.setdefault("tab", "clan_cards")
    d.setdefault("clan", CLANS[0])
    return d


def on_tab_pick(app: AppState, tab: str) -> None:
    """Show another kind of card (or Share)."""
    _draft(app)["tab"] = tab
    app.drafts.pop("card", None)
    app.error, app.notice = None, []
    app.render()


def on_clan_pick(app: AppState, clan: str) -> None:
    """Show one clan's 9 cards."""
    _draft(app)["clan"] = clan
    app.render()


def missing(entry: object) -> list[str]:
    """Values of a catalogue entry still unknown (what play will ask for)."""
    if isinstance(entry, ClanCardEntry):
        keys = [("name", "name"), ("kind", "kind"), ("power", "Power")]
    elif isinstance(entry, AllyEntry):
        keys = [("name", "name"), ("kind", "human/vampire"), ("influence", "Influence"),
                ("feed", "Feed"), ("drain_blood", "Drain Blood"),
                ("drained_influence", "drained Influence")]
    elif isinstance(entry, RelicEntry):
        keys = [("name", "name"), ("influence", "Influence")]
    else:
        keys = [("name", "name")]
    return [label for key, label in keys if getattr(entry, key, None) is None]


def _v(x: object) -> str:
    return "?" if x is None else str(x)


def details(entry: object) -> str:
    """The known printed values, '?' for the unknown ones."""
    if isinstance(entry, ClanCardEntry):
        tag = "Starting card · " if entry.starting else ""
        return f"{tag}{(entry.kind or '?').capitalize()} · Power {_v(entry.power)}"
    if isinstance(entry, AllyEntry):
        return (f"{(entry.kind or '?').capitalize()} · Influence {_v(entry.influence)} · "
                f"Feed {_v(entry.feed)} · Drain +{_v(entry.drain_blood)} · drained "
                f"{_v(entry.drained_influence)}")
    if isinstance(entry, RelicEntry):
        return f"Influence {_v(entry.influence)}"
    assert isinstance(entry, LocationCardEntry)
    return entry.text or "Location card"


def card_row(app: AppState, section: str, entry: object) -> ft.Control:
    """One card: id and name, values, and what is still unknown (tap to edit)."""
    gaps = missing(entry)
    cut = getattr(entry, "partial_name", None)
    name = getattr(entry, "name", None) or (f"{cut} (complete the name)" if cut
                                            else "name unknown")
    line = details(entry) + (f"\nUnknown: {', '.join(gaps)}" if gaps else "")
    card_id = str(getattr(entry, "id", "?"))
    return tap_row(f"{card_id} · {name}", lambda e: start_edit(app, section, entry),
                   f"card-{card_id}", detail=line, title_color=UNKNOWN if gaps else TEXT)


def _list(app: AppState, d: dict) -> list[ft.Control]:
    cat = app.catalogue
    tab = d["tab"]
    out: list[ft.Control] = []
    if tab == "clan_cards":
        out.append(wrap(*[button(c, lambda e, c=c: on_clan_pick(app, c), primary=False,
                                 selected=d["clan"] == c, ident_=f"cat-clan-{c}")
                          for c in CLANS], spacing=6))
        entries: list = clan_cards(cat, d["clan"])
    else:
        entries = list(getattr(cat, tab))
    unknown = sum(1 for e in entries if missing(e))
    out.append(text(f"{len(entries)} card(s); {unknown} with values still unknown (shown in "
                    "pink). Tap a card to enter what is printed on it.", 15, color=MUTED,
                    ident_="cat-count"))
    out += [card_row(app, tab, e) for e in entries]
    if tab != "clan_cards":
        what = {"allies": "an Ally", "relics": "a Relic", "location_cards": "a Location card"}
        out.append(button(f"Add {what[tab]}",
                          lambda e: start_edit(app, tab, None), primary=False,
                          ident_="cat-new", icon=ft.Icons.ADD))
    return out


def catalogue_view(app: AppState) -> list[ft.Control]:
    """Tabs; then the editor, the list of cards, or the share panel."""
    d = _draft(app)
    tabs = wrap(*[button(label, lambda e, t=tab: on_tab_pick(app, t), primary=False,
                         selected=d["tab"] == tab, ident_=f"cat-tab-{tab}")
                  for tab, label in TABS], spacing=6)
    if "card" in app.drafts:
        body = card_editor(app)
    elif d["tab"] == "share":
        body = share_panel(app)
    else:
        body = _list(app, d)
    return frame(app, "Cards", [tabs, *body], subtitle="Card catalogue")
