"""Location Setup: the Ally drawn for each Location, tapped from the catalogue or entered (§5).

One Location's list is open at a time (the next one opens by itself); an Ally the app does not
fully know asks for its printed values with taps, and a name only if the referee wants it
remembered."""

import flet as ft

from companion.rules.legal import Legal
from models.cards import AllyCard
from models.catalogue import AllyEntry
from models.common import location_name
from models.message import N_, place
from views.choice import Option, chips, pick_list
from views.state import AppState
from views.theme import (
    GOLD,
    MUTED,
    SURFACE_HI,
    button,
    card,
    field,
    heading,
    ident,
    main,
    short,
    tap_row,
    text,
    to_int,
)

NEW = "new"
"""The list's last row: an Ally the catalogue does not hold."""
NUMBERS = [("influence", N_("Influence while active"), range(0, 6)),
           ("feed", N_("Feed Blood"), range(0, 6)),
           ("drain_blood", N_("Blood when drained"), range(0, 6)),
           ("drained_influence", N_("Influence once drained"), range(-1, 5))]
"""Printed values of an Ally, each with the chips offered (other values: 'Other')."""


def ally_values(a: AllyCard | AllyEntry, app: AppState) -> str:
    """Short summary of an Ally's printed values."""
    def v(x: int | None) -> str:
        return "?" if x is None else str(x)
    return app._("Inf {influence} · Feed {feed} · Drain +{drain} · drained {drained}",
                 influence=v(a.influence), feed=v(a.feed), drain=v(a.drain_blood),
                 drained=v(a.drained_influence))


def ally_title(a: AllyEntry, app: AppState | None = None) -> str:
    """What the list says of an Ally: its name (or the part of it the sources show), or what it
    does when its name is unknown (whole words, never cut); in `app`'s language (English
    without it: the name a card is stored with)."""
    if a.name or a.partial_name:
        return a.name or a.partial_name or ""
    if app is None:
        return f"Unnamed Ally: {a.text}" if a.text else f"Unnamed Ally {a.id}"
    return app._("Unnamed Ally: {text}", text=a.text) if a.text else \
        app._("Unnamed Ally {id}", id=a.id)


def _options(app: AppState, loc: str, legal: Legal) -> list[Option]:
    """The Allies that may lie here: those the table already entered first (by name), then
    the ones whose values are still unknown; none already in an Alliance or at a Location
    (from the engine's legal actions) nor chosen for another Location (each Ally exists once,
    §1)."""
    gone = {k.casefold() for k in legal.taken_allies}
    others = {d["id"] for other, d in _picks(app).items() if other != loc} - {NEW}
    allies = sorted((a for a in app.catalogue.allies if a.id not in others
                     and a.id.casefold() not in gone and (a.name or "").casefold() not in gone),
                    key=lambda a: (not a.complete(), ally_title(a, app).casefold()))
    opts = [Option(a.id, ally_title(a, app), ally_values(a, app) if a.complete() else
                   app._("values not known yet: read them from the card")) for a in allies]
    return [Option(NEW, app._("An Ally not in this list"), app._("enter its printed values")),
            *opts]


def _entry(app: AppState, entry_id: str | None) -> AllyEntry | None:
    return next((a for a in app.catalogue.allies if a.id == entry_id), None)


def _picks(app: AppState) -> dict:
    return app.draft("allies")


def entering(app: AppState) -> str | None:
    """The Location being entered: the one being changed, else the first whose Ally is not
    chosen or still lacks a value (the next one opens once it is done)."""
    picks = _picks(app)
    chosen = app.draft("ally-pick").get("open")
    if chosen is not None:
        return chosen
    return next((loc.id for loc in app.game.state.locations
                 if loc.id not in picks or _missing(app, picks[loc.id])), None)


def _missing(app: AppState, d: dict) -> list[str]:
    """What is still to enter for a chosen Ally (the name is optional)."""
    out = [] if d.get("kind") in ("human", "vampire") else [app._("Human or Vampire")]
    return out + [app._(label) for key, label, _ in NUMBERS if to_int(d.get(key)) is None]


def on_ally_pick(app: AppState, loc: str, entry_id: str) -> None:
    """The Ally at a Location; the next Location's list opens."""
    e = _entry(app, entry_id)
    d: dict = {"id": entry_id, "name": (e.name or e.partial_name or "") if e else "",
               "kind": e.kind if e else None}
    for key, _, _ in NUMBERS:
        value = getattr(e, key) if e else None
        d[key] = "" if value is None else str(value)
    _picks(app)[loc] = d
    app.drafts["ally-pick"] = {}
    app.render()


def on_ally_change(app: AppState, loc: str) -> None:
    """Open a Location's list again to pick another Ally."""
    app.drafts["ally-pick"] = {"open": loc}
    app.render()


def on_ally_field(app: AppState, loc: str, key: str, value: str, redraw: bool = False) -> None:
    """A printed value (tapped or typed) or the name; a typed one draws the screen again only
    when that changes what the Place button says (or a refusal it answers goes)."""
    d = _picks(app)[loc]
    before = _missing(app, d)
    d[key] = value
    refused = bool(app.error)
    app.error = None
    if redraw or refused or _missing(app, d) != before:
        app.render(keep_news=not redraw)


def on_other_toggle(app: AppState, loc: str, key: str) -> None:
    """Show a box for a value beyond the chips."""
    _picks(app)[loc].setdefault("other", []).append(key)
    app.render()


def _card_from(app: AppState, loc: str, d: dict) -> AllyCard | str:
    name = str(d.get("name", "")).strip()
    values = {key: to_int(d.get(key)) for key, _, _ in NUMBERS}
    missing = _missing(app, d)
    if missing:
        return app._("{place}: tap the Ally's {values}.", place=place(loc),
                     values=", ".join(missing))
    entry = _entry(app, d["id"]) if d["id"] != NEW else None
    keep = bool(entry or name)  # an Ally with neither code nor name cannot be recognised later
    entry_id = entry.id if entry else (app.new_id("ALLY", name) if name else None)
    shown = name or (entry and ally_title(entry)) or \
        f"Ally at {location_name(loc)}, round {app.game.state.round}"
    try:
        card = AllyCard(name=short(shown, 60), kind=d["kind"], id=entry_id,
                        ability=entry.ability if entry else None, **values)
    except ValueError as err:
        return app._("{place}: {reason}", place=place(loc), reason=str(err).splitlines()[-1])
    known = _entry(app, entry_id)
    if keep and (known is None or not known.complete() or known.card() != card):
        app.remember("allies", {"id": entry_id, "name": name or None, "kind": d["kind"],
                                **values})
    return card


def on_allies_confirm(app: AppState) -> None:
    """Place the chosen Allies."""
    allies = {}
    for loc in app.game.state.locations:
        d = _picks(app).get(loc.id)
        if d is None:
            app.fail(app._("Choose the Ally at {place}.", place=place(loc.id)))
            return
        result = _card_from(app, loc.id, d)
        if isinstance(result, str):
            app.fail(result)
            return
        allies[loc.id] = result.model_dump()
    app.play({"type": "place_allies", "allies": allies})


def _values_form(app: AppState, loc: str, d: dict) -> list[ft.Control]:
    """Taps for the printed values the app does not know (and the name, optional)."""
    e = _entry(app, d["id"]) if d["id"] != NEW else None
    out: list[ft.Control] = [text(app._("Tap the values printed on the card:"), 16,
                                  color=MUTED)]
    if e is None or e.name is None:
        out.append(field(app._("Name (optional; a named Ally is remembered)"), d["name"],
                         lambda v: on_ally_field(app, loc, "name", v),
                         ident_=f"ally-{loc}-name"))
        if e is not None and e.partial_name:
            out.append(text(app._("Only the end of its name is known: complete it from the "
                                  "card."), 16, color=MUTED))
    if e is None or e.kind is None:
        out.append(chips([("human", app._("Human")), ("vampire", app._("Vampire"))],
                         d.get("kind"), lambda k: on_ally_field(app, loc, "kind", k, True),
                         f"ally-{loc}", about=app._("Human or Vampire")))
    for key, marked, values in NUMBERS:
        label = app._(marked)
        if e is not None and getattr(e, key) is not None:
            continue
        options = [(str(v), str(v)) for v in values]
        other = key in d.get("other", []) or (
            d[key] not in ("", *(k for k, _ in options)))
        head: list[ft.Control] = [ft.Container(content=text(label, 16, bold=True),
                                               expand=True)]
        if not other:
            head.append(ident(f"ally-{loc}-{key}-more", ft.TextButton(
                content=ft.Text(app._("Other…"),
                                semantics_label=app._("{value}: another value", value=label)),
                on_click=lambda e, key=key: on_other_toggle(app, loc, key), height=44,
                style=ft.ButtonStyle(color=GOLD, text_style=ft.TextStyle(size=16)))))
        row: list[ft.Control] = [
            ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            chips(options, d[key], lambda v, key=key: on_ally_field(app, loc, key, v, True),
                  f"ally-{loc}-{key}", width=48, about=label)]
        if other:
            row.append(field(app._("Other value"), d[key],
                             lambda v, key=key: on_ally_field(app, loc, key, v), numeric=True,
                             width=160, ident_=f"ally-{loc}-{key}-other"))
        out.append(ft.Column(row, spacing=2))
    return out


def _location(app: AppState, loc_id: str, opened: str | None, legal: Legal) -> ft.Control:
    state_loc = next(lo for lo in app.game.state.locations if lo.id == loc_id)
    d = _picks(app).get(loc_id)
    parts: list[ft.Control] = [heading(app._("{place}", place=place(loc_id)), 18)]
    if state_loc.location_card:
        parts.append(text(app._("Location card: {card}", card=state_loc.location_card.name), 16,
                          color=MUTED))
    if loc_id == opened and (d is None or app.draft("ally-pick").get("open") == loc_id):
        parts.append(text(app._("Which Ally was drawn here? Tap it:"), 16, color=MUTED))
        parts += pick_list(app, _options(app, loc_id, legal), d["id"] if d else None,
                           lambda k: on_ally_pick(app, loc_id, k), f"ally-{loc_id}-pick",
                           app.draft("ally-pick"), app._("Search the Allies"))
    elif d is not None:
        e = _entry(app, d["id"])
        title = (e and ally_title(e, app)) or (d["name"] or app._("An Ally not in the list"))
        complete = e is not None and e.complete()
        entered = not _missing(app, d)
        if complete:
            detail = ally_values(e, app)
        elif entered:
            kind = app._("Human") if d["kind"] == "human" else app._("Vampire")
            detail = app._("{kind} · Inf {influence} · Feed {feed} · Drain +{drain} · drained "
                           "{drained}", kind=kind, influence=d["influence"], feed=d["feed"],
                           drain=d["drain_blood"], drained=d["drained_influence"])
        else:
            detail = app._("its values below")
        parts.append(tap_row(title, lambda ev: on_ally_change(app, loc_id),
                             f"ally-{loc_id}-chosen",
                             detail=app._("{values} · tap to change", values=detail),
                             color=SURFACE_HI, app=app))
        if not complete and loc_id == opened:
            parts += _values_form(app, loc_id, d)
    else:
        parts.append(text(app._("Its list opens once the Location above is done."), 16,
                          color=MUTED))
    box = card(*parts, ident_=f"ally-{loc_id}")
    box.key = f"ally-card-{app.game.state.round}-{loc_id}"  # fresh controls each round
    return box


def location_setup_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """An Ally picker per Location, one open at a time; Place is the main button."""
    locs = app.game.state.locations
    opened = entering(app)
    out: list[ft.Control] = [_location(app, loc.id, opened, legal) for loc in locs]
    label = _place_label(app)
    out.append(main(button(label or app._("Place these Allies"), (lambda e: on_allies_confirm(app))
                           if label is None else None, ident_="allies-ok")))
    return out


def _short_place(app: AppState, loc: str) -> str:
    return app._("Haven") if loc == "haven" else f"#{loc}"


def _place_label(app: AppState) -> str | None:
    """What Location Setup still needs, for its Place button (None: every Ally is in)."""
    picks = _picks(app)
    for loc in app.game.state.locations:
        d = picks.get(loc.id)
        if d is None:
            return app._("Choose the Ally at {place}", place=place(loc.id))
        if missing := _missing(app, d):
            if len(missing) > 1:
                return app.n_("{where}: tap {value} and {n} more",
                              "{where}: tap {value} and {n} more", len(missing) - 1,
                              where=_short_place(app, loc.id), value=missing[0])
            return app._("{where}: tap {value}", where=_short_place(app, loc.id),
                         value=missing[0])
    return None
