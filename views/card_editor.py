"""Enter or correct a card's printed values; saved to the user's catalogue (validated)."""

import re

import flet as ft

from companion.rules.catalogue import CatalogueError
from models.message import N_
from views.state import AppState
from views.theme import MUTED, SURFACE_HI, button, card, field, heading, text, wrap

FIELDS = {
    "clan_cards": [("name", N_("Name"), False), ("power", N_("Printed Power (0-20)"), True),
                   ("text", N_("What it does (your words)"), False)],
    "allies": [("name", N_("Name"), False), ("influence", N_("Influence while active"), True),
               ("feed", N_("Feed Blood"), True), ("drain_blood", N_("Blood when drained"), True),
               ("drained_influence", N_("Influence once drained"), True),
               ("text", N_("Special ability (your words)"), False)],
    "relics": [("name", N_("Name"), False), ("influence", N_("Influence at the end"), True),
               ("text", N_("Ability (your words)"), False)],
    "location_cards": [("name", N_("Name"), False), ("text", N_("Ability (your words)"), False)],
}
"""Typed fields per catalogue section: (key, label, whole number?)."""

KINDS = {"clan_cards": ["preparation", "conflict", "aftermath", "passive"],
         "allies": ["human", "vampire"]}
"""Fields chosen with buttons."""
KIND_NAMES = {"preparation": N_("Preparation"), "conflict": N_("Conflict"),
              "aftermath": N_("Aftermath"), "passive": N_("Passive"), "human": N_("Human"),
              "vampire": N_("Vampire")}
"""The buttons' words for the kinds."""

SECTION_NAMES = {"clan_cards": N_("Clan card"), "allies": N_("Ally"), "relics": N_("Relic"),
                 "location_cards": N_("Location card")}
NEW_TITLES = {"clan_cards": N_("New Clan card"), "allies": N_("New Ally"),
              "relics": N_("New Relic"), "location_cards": N_("New Location card")}
"""The editor's title for a card not in the catalogue yet."""


def kind_name(app: AppState, kind: str | None) -> str:
    """A card's kind in the device's language ('Conflict', 'Human'; '?' when unknown)."""
    if kind is None:
        return "?"
    return app._(KIND_NAMES[kind]) if kind in KIND_NAMES else kind.capitalize()


def section_name(app: AppState, section: str) -> str:
    """'Ally', 'Relic': one card of a catalogue section."""
    return app._(SECTION_NAMES[section]) if section in SECTION_NAMES else section


def plain_error(app: AppState, message: str) -> str:
    """'allies[0] (card X1).influence: …' said as 'Ally X1, influence: …'."""
    m = re.fullmatch(r"(\w+)\[\d+\] \(card ([^)]*)\)\.?([\w.]*): (.*)", message, re.S)
    if not m:
        return message
    section, card_id, key, why = m.groups()
    what = section_name(app, section)
    if key:
        return app._("{section} {card}, {field}: {why}", section=what, card=card_id,
                     field=key.replace("_", " "), why=why)
    return app._("{section} {card}: {why}", section=what, card=card_id, why=why)


def start_edit(app: AppState, section: str, entry: object | None) -> None:
    """Open the editor on a catalogue entry (None: a new card of this section)."""
    values: dict = {"section": section, "new": entry is None}
    if entry is not None:
        values["id"] = entry.id  # type: ignore[attr-defined]
        values["clan"] = getattr(entry, "clan", None)
        for key, _, _ in FIELDS[section]:
            v = getattr(entry, key, None)
            values[key] = "" if v is None else str(v)
        if not values.get("name") and getattr(entry, "partial_name", None):
            values["name"] = entry.partial_name  # type: ignore[attr-defined]  # §15: complete it
        values["kind"] = getattr(entry, "kind", None)
    app.drafts["card"] = values
    app.error = None
    app.render()


def on_field_change(app: AppState, key: str, value: str) -> None:
    """A typed value (checked when saved)."""
    app.draft("card")[key] = value


def on_kind_pick(app: AppState, kind: str) -> None:
    """Preparation/Conflict/Aftermath/Passive, or Human/Vampire."""
    app.draft("card")["kind"] = kind
    app.render()


def on_edit_cancel(app: AppState) -> None:
    """Close the editor without saving."""
    app.drafts.pop("card", None)
    app.error = None
    app.render()


def entry_from(app: AppState, d: dict) -> dict | str:
    """The catalogue entry the form describes, or why it cannot be saved (names the card and
    the field)."""
    section = d["section"]
    card_id = d.get("id")
    if d.get("new"):
        name = str(d.get("name") or "").strip()
        if not name:
            return app._("{title}: give it a name first.", title=app._(NEW_TITLES[section]))
        card_id = app.new_id({"allies": "ALLY", "relics": "RELIC"}.get(section, "LOC"), name)
    entry: dict = {"id": card_id}
    if section == "clan_cards":
        entry["clan"] = d["clan"]
    label = f"{card_id}" + (f" ({d['name'].strip()})" if str(d.get("name") or "").strip()
                            else "")
    for key, title, numeric in FIELDS[section]:
        raw = str(d.get(key) or "").strip()
        if not raw:
            continue
        if numeric:
            try:
                entry[key] = int(raw)
            except ValueError:
                return app._("{card}, {field}: write a whole number, not \"{value}\".",
                             card=label, field=app._(title), value=raw)
        else:
            entry[key] = raw
    if d.get("kind") and section in KINDS:
        entry["kind"] = d["kind"]
    return entry


def on_edit_save(app: AppState) -> None:
    """Validate and save into the user's catalogue; a refusal is shown inline."""
    d = app.draft("card")
    entry = entry_from(app, d)
    if isinstance(entry, str):
        app.fail(app._("Not saved: {why}", why=entry))
        return
    try:
        app.remember_card(d["section"], entry)
    except CatalogueError as err:
        app.fail(app._("Not saved: {why}", why=plain_error(app, str(err))))
        return
    app.drafts.pop("card", None)
    app.error = None
    name = str(entry.get("name") or "").strip()
    app.notice = [app._("Saved {card}: {name}", card=entry["id"], name=name) if name
                  else app._("Saved {card}", card=entry["id"])]
    app.render()


def card_editor(app: AppState) -> list[ft.Control]:
    """The form for the card being edited."""
    d = app.draft("card")
    section = d["section"]
    title = (app._(NEW_TITLES[section]) if d.get("new")
             else app._("{section} {card}", section=section_name(app, section), card=d["id"]))
    if d.get("clan"):
        title += f" · {d['clan']}"
    parts: list[ft.Control] = [
        heading(title, 20),
        text(app._("Copy the values printed on your card. Leave a box empty when you do not "
                   "know it; the app will ask during play."), 15, color=MUTED)]
    for key, label, numeric in FIELDS[section]:
        parts.append(field(app._(label), str(d.get(key) or ""),
                           lambda v, k=key: on_field_change(app, k, v), numeric=numeric,
                           ident_=f"edit-{key}"))
    if section in KINDS:
        parts += [text(app._("Kind"), 15, color=MUTED), wrap(*[
            button(kind_name(app, k), lambda e, k=k: on_kind_pick(app, k), primary=False,
                   selected=d.get("kind") == k, ident_=f"edit-kind-{k}")
            for k in KINDS[section]], spacing=6)]
    parts.append(ft.Row([
        button(app._("Save"), lambda e: on_edit_save(app), expand=True, ident_="edit-save",
               disabled=app.read_only),
        button(app._("Cancel"), lambda e: on_edit_cancel(app), primary=False, expand=True,
               ident_="edit-cancel")], spacing=8))
    return [card(*parts, color=SURFACE_HI, ident_="card-editor")]
