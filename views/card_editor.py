"""Enter or correct a card's printed values; saved to the user's catalogue (validated)."""

import re

import flet as ft

from companion.rules.catalogue import CatalogueError
from views.state import AppState
from views.theme import MUTED, SURFACE_HI, button, card, field, heading, text, wrap

FIELDS = {
    "clan_cards": [("name", "Name", False), ("power", "Printed Power (0-20)", True),
                   ("text", "What it does (your words)", False)],
    "allies": [("name", "Name", False), ("influence", "Influence while active", True),
               ("feed", "Feed Blood", True), ("drain_blood", "Blood when drained", True),
               ("drained_influence", "Influence once drained", True),
               ("text", "Special ability (your words)", False)],
    "relics": [("name", "Name", False), ("influence", "Influence at the end", True),
               ("text", "Ability (your words)", False)],
    "location_cards": [("name", "Name", False), ("text", "Ability (your words)", False)],
}
"""Typed fields per catalogue section: (key, label, whole number?)."""

KINDS = {"clan_cards": ["preparation", "conflict", "aftermath", "passive"],
         "allies": ["human", "vampire"]}
"""Fields chosen with buttons."""

SECTION_NAMES = {"clan_cards": "Clan card", "allies": "Ally", "relics": "Relic",
                 "location_cards": "Location card"}


def plain_error(message: str) -> str:
    """'allies[0] (card X1).influence: …' said as 'Ally X1, influence: …'."""
    m = re.fullmatch(r"(\w+)\[\d+\] \(card ([^)]*)\)\.?([\w.]*): (.*)", message, re.S)
    if not m:
        return message
    section, card_id, key, why = m.groups()
    what = SECTION_NAMES.get(section, section)
    return f"{what} {card_id}" + (f", {key.replace('_', ' ')}" if key else "") + f": {why}"


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
            return f"New {SECTION_NAMES[section]}: give it a name first."
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
                return f"{label}, {title}: write a whole number, not \"{raw}\"."
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
        app.fail(f"Not saved: {entry}")
        return
    try:
        app.remember_card(d["section"], entry)
    except CatalogueError as err:
        app.fail(f"Not saved: {plain_error(str(err))}")
        return
    app.drafts.pop("card", None)
    app.error = None
    app.notice = [f"Saved {entry['id']}: {entry.get('name') or ''}".rstrip(": ")]
    app.render()


def card_editor(app: AppState) -> list[ft.Control]:
    """The form for the card being edited."""
    d = app.draft("card")
    section = d["section"]
    what = SECTION_NAMES[section]
    title = f"New {what}" if d.get("new") else f"{what} {d['id']}"
    if d.get("clan"):
        title += f" · {d['clan']}"
    parts: list[ft.Control] = [
        heading(title, 20),
        text("Copy the values printed on your card. Leave a box empty when you do not know "
             "it; the app will ask during play.", 15, color=MUTED)]
    for key, label, numeric in FIELDS[section]:
        parts.append(field(label, str(d.get(key) or ""),
                           lambda v, k=key: on_field_change(app, k, v), numeric=numeric,
                           ident_=f"edit-{key}"))
    if section in KINDS:
        parts += [text("Kind", 15, color=MUTED), wrap(*[
            button(k.capitalize(), lambda e, k=k: on_kind_pick(app, k), primary=False,
                   selected=d.get("kind") == k, ident_=f"edit-kind-{k}")
            for k in KINDS[section]], spacing=6)]
    parts.append(ft.Row([
        button("Save", lambda e: on_edit_save(app), expand=True, ident_="edit-save",
               disabled=app.read_only),
        button("Cancel", lambda e: on_edit_cancel(app), primary=False, expand=True,
               ident_="edit-cancel")], spacing=8))
    return [card(*parts, color=SURFACE_HI, ident_="card-editor")]
