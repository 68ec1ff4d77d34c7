"""The card catalogue: each clan's 9 cards, Allies, Relics, Location cards; unknown values
marked; tap a card to enter its printed values; share the catalogue."""

import flet as ft

from companion.rules.catalogue import clan_cards
from models.catalogue import AllyEntry, ClanCardEntry, LocationCardEntry, RelicEntry
from models.common import CLANS
from models.message import N_
from views.card_editor import card_editor, kind_name, start_edit
from views.catalogue_share import share_panel
from views.frame import frame
from views.state import AppState
from views.theme import MUTED, TEXT, button, tap_row, text, wrap

TABS = (("clan_cards", N_("Clan cards")), ("allies", N_("Allies")), ("relics", N_("Relics")),
        ("location_cards", N_("Locations")), ("share", N_("Share")))
ADD = {"allies": N_("Add an Ally"), "relics": N_("Add a Relic"),
       "location_cards": N_("Add a Location card")}
"""The button adding a card to a section."""
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


def missing(app: AppState, entry: object) -> list[str]:
    """Values of a catalogue entry still unknown (what play will ask for)."""
    if isinstance(entry, ClanCardEntry):
        keys = [("name", N_("name")), ("kind", N_("kind")), ("power", N_("Power"))]
    elif isinstance(entry, AllyEntry):
        keys = [("name", N_("name")), ("kind", N_("human/vampire")),
                ("influence", N_("Influence")), ("feed", N_("Feed")),
                ("drain_blood", N_("Drain Blood")), ("drained_influence", N_("drained Influence"))]
    elif isinstance(entry, RelicEntry):
        keys = [("name", N_("name")), ("influence", N_("Influence"))]
    else:
        keys = [("name", N_("name"))]
    return [app._(label) for key, label in keys if getattr(entry, key, None) is None]


def _v(x: object) -> object:
    return "?" if x is None else x


def details(app: AppState, entry: object) -> str:
    """The known printed values, '?' for the unknown ones."""
    if isinstance(entry, ClanCardEntry):
        kind = kind_name(app, entry.kind)
        if entry.starting:
            return app._("Starting card · {kind} · Power {power}", kind=kind,
                         power=_v(entry.power))
        return app._("{kind} · Power {power}", kind=kind, power=_v(entry.power))
    if isinstance(entry, AllyEntry):
        return app._("{kind} · Influence {influence} · Feed {feed} · Drain +{drain} · drained "
                     "{drained}", kind=kind_name(app, entry.kind), influence=_v(entry.influence),
                     feed=_v(entry.feed), drain=_v(entry.drain_blood),
                     drained=_v(entry.drained_influence))
    if isinstance(entry, RelicEntry):
        return app._("Influence {influence}", influence=_v(entry.influence))
    assert isinstance(entry, LocationCardEntry)
    return entry.text or app._("Location card")


def card_row(app: AppState, section: str, entry: object) -> ft.Control:
    """One card: id and name, values, and what is still unknown (tap to edit)."""
    gaps = missing(app, entry)
    cut = getattr(entry, "partial_name", None)
    name = getattr(entry, "name", None) or (app._("{name} (complete the name)", name=cut) if cut
                                            else app._("name unknown"))
    line = details(app, entry)
    if gaps:
        line += "\n" + app._("Unknown: {values}", values=", ".join(gaps))
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
    unknown = sum(1 for e in entries if missing(app, e))
    out.append(text(app.n_("{n} card; {unknown} with values still unknown (shown in pink). Tap "
                           "a card to enter what is printed on it.",
                           "{n} card(s); {unknown} with values still unknown (shown in pink). "
                           "Tap a card to enter what is printed on it.", len(entries),
                           unknown=unknown), 15, color=MUTED, ident_="cat-count"))
    out += [card_row(app, tab, e) for e in entries]
    if tab in ADD:
        out.append(button(app._(ADD[tab]),
                          lambda e: start_edit(app, tab, None), primary=False,
                          ident_="cat-new", icon=ft.Icons.ADD))
    return out


def catalogue_view(app: AppState) -> list[ft.Control]:
    """Tabs; then the editor, the list of cards, or the share panel."""
    d = _draft(app)
    tabs = wrap(*[button(app._(label), lambda e, t=tab: on_tab_pick(app, t), primary=False,
                         selected=d["tab"] == tab, ident_=f"cat-tab-{tab}")
                  for tab, label in TABS], spacing=6)
    if "card" in app.drafts:
        body = card_editor(app)
    elif d["tab"] == "share":
        body = share_panel(app)
    else:
        body = _list(app, d)
    return frame(app, app._("Cards"), [tabs, *body], subtitle=app._("Card catalogue"))
