"""Location Setup: the Ally drawn for each Location, from the catalogue or typed in (§5)."""

import flet as ft

from companion.legal import Legal
from models.cards import AllyCard
from models.catalogue import AllyEntry
from models.common import location_name
from views.state import AppState
from views.theme import MUTED, button, card, dropdown, field, heading, text, to_int, wrap

NEW = "__new__"
NUMBERS = [("influence", "Influence"), ("feed", "Feed Blood"), ("drain_blood", "Drain Blood"),
           ("drained_influence", "Influence once drained")]


def ally_values(a: AllyCard | AllyEntry) -> str:
    """Short summary of an Ally's printed values."""
    def v(x: int | None) -> str:
        return "?" if x is None else str(x)
    return (f"Inf {v(a.influence)} · Feed {v(a.feed)} · Drain +{v(a.drain_blood)} · "
            f"drained {v(a.drained_influence)}")


def _options(app: AppState, legal: Legal) -> list[tuple[str, str]]:
    """Catalogue Allies still possible: not already in an Alliance (each Ally exists once, §1;
    the same Ally given for two Locations is refused when confirmed)."""
    gone = {k.casefold() for k in legal.taken_allies}
    opts = []
    for a in app.catalogue.allies:
        if a.id.casefold() in gone or (a.name or "").casefold() in gone:
            continue
        label = a.name or a.partial_name or a.text or a.id
        opts.append((a.id, f"{label[:40]} ({ally_values(a)})" if a.complete()
                     else f"{label[:40]} (values needed)"))
    return [*opts, (NEW, "A new Ally (type it in)")]


def _entry(app: AppState, entry_id: str | None) -> AllyEntry | None:
    return next((a for a in app.catalogue.allies if a.id == entry_id), None)


def on_ally_pick(app: AppState, loc: str, entry_id: str) -> None:
    """Choose the Ally at a Location; unknown values open the small form."""
    e = _entry(app, entry_id)
    name = (e.name or e.partial_name or "") if e else ""
    d = {"id": entry_id, "name": name, "kind": e.kind if e else None}
    for key, _ in NUMBERS:
        value = getattr(e, key) if e else None
        d[key] = "" if value is None else str(value)
    app.draft("allies")[loc] = d
    app.render()


def on_ally_field(app: AppState, loc: str, key: str, value: str) -> None:
    """A printed value typed in the form."""
    app.draft("allies")[loc][key] = value


def on_ally_kind(app: AppState, loc: str, kind: str) -> None:
    """Human or Vampire."""
    app.draft("allies")[loc]["kind"] = kind
    app.render()


def _card_from(app: AppState, loc: str, d: dict) -> AllyCard | str:
    name = str(d.get("name", "")).strip()
    values = {key: to_int(d.get(key)) for key, _ in NUMBERS}
    if not name or d.get("kind") not in ("human", "vampire") or None in values.values():
        return f"{location_name(loc)}: enter the Ally's name, Human or Vampire, and its values."
    entry_id = d["id"] if d["id"] != NEW else app.new_id("ALLY", name)
    entry = _entry(app, entry_id)
    try:
        card = AllyCard(name=name, kind=d["kind"], id=entry_id,
                        ability=entry.ability if entry else None, **values)
    except ValueError as err:
        return f"{location_name(loc)}: {str(err).splitlines()[-1]}"
    if entry is None or not entry.complete() or entry.card() != card:
        app.remember("allies", {"id": entry_id, "name": name, "kind": d["kind"], **values})
    return card


def on_allies_confirm(app: AppState) -> None:
    """Place the chosen Allies."""
    allies = {}
    for loc in app.game.state.locations:
        d = app.draft("allies").get(loc.id)
        if d is None:
            app.fail(f"Choose the Ally at {location_name(loc.id)}.")
            return
        result = _card_from(app, loc.id, d)
        if isinstance(result, str):
            app.fail(result)
            return
        allies[loc.id] = result.model_dump()
    app.play({"type": "place_allies", "allies": allies})


def _form(app: AppState, loc: str, d: dict) -> list[ft.Control]:
    e = _entry(app, d["id"])
    if e is not None and e.complete():
        return [text(ally_values(e), 16, color=MUTED)]
    out: list[ft.Control] = [
        text("Read the missing values from the card (they are remembered):", 15, color=MUTED),
        field("Name", d["name"], lambda v: on_ally_field(app, loc, "name", v),
              ident_=f"ally-{loc}-name"),
        wrap(*[button(k.capitalize(), lambda ev, k=k: on_ally_kind(app, loc, k), primary=False,
                      selected=d.get("kind") == k, ident_=f"ally-{loc}-{k}")
               for k in ("human", "vampire")]),
    ]
    out.append(ft.ResponsiveRow([
        field(label, d[key], lambda v, key=key: on_ally_field(app, loc, key, v), numeric=True,
              ident_=f"ally-{loc}-{key}", col=6) for key, label in NUMBERS],
        columns=12, spacing=8, run_spacing=8))
    if e is not None and e.text:
        out.insert(0, text(e.text, 15, color=MUTED))
    if e is not None and e.partial_name and not e.name:
        out.insert(1, text("Only the end of its name is known: complete it from the card.", 15,
                           color=MUTED))
    return out


def location_setup_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """An Ally picker per Location."""
    out: list[ft.Control] = [text("Draw an Ally for each Location and say which it is.", 16,
                                  color=MUTED)]
    opts = _options(app, legal)
    for loc in app.game.state.locations:
        d = app.draft("allies").get(loc.id)
        parts: list[ft.Control] = [
            heading(location_name(loc.id), 18),
            dropdown("Ally drawn", opts, d["id"] if d else None,
                     lambda v, loc=loc.id: on_ally_pick(app, loc, v), f"ally-{loc.id}")]
        if loc.location_card:
            parts.insert(1, text(f"Location card: {loc.location_card.name}", 15, color=MUTED))
        if d:
            parts += _form(app, loc.id, d)
        box = card(*parts)
        box.key = f"ally-card-{app.game.state.round}-{loc.id}"  # fresh controls each round
        out.append(box)
    out.append(button("Place these Allies", lambda e: on_allies_confirm(app),
                      ident_="allies-ok"))
    return out
