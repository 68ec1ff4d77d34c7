"""Blood Feud's four stations as reference cards (the project's own words, from
`companion.bloodfeud.stations`): tap a station to read its sections and rulings; and what a
team gets at each Power (Voting Power, Store cap, bonus actions)."""

from __future__ import annotations

import flet as ft

from companion.bloodfeud.stations import POWERS, STATIONS, power_facts, section
from views.choice import chips
from views.state import AppState
from views.theme import GOLD, MUTED, SMALL, card, heading, ident, tap_row, text

DRAFT = "bloodfeud-reference"


def on_station_toggle(app: AppState, number: int) -> None:
    """Open a station's card (or close it)."""
    d = app.draft(DRAFT)
    d["open"] = None if d.get("open") == number else number
    app.render()


def on_power_pick(app: AppState, power: int) -> None:
    """Look up what a team at this Power gets."""
    app.draft(DRAFT)["power"] = power
    app.render()


def _sections(app: AppState, numbers: tuple[str, ...]) -> list[ft.Control]:
    out: list[ft.Control] = []
    for number in numbers:
        s = section(number)
        out += [text(f"{s.number} {s.title}", 18, bold=True, color=GOLD),
                text(app._("Source: {source}.", source=s.source), SMALL, color=MUTED)]
        out += [text(p, 16) for p in s.intro]
        for e in s.entries:
            limit = f" ({e.limit})" if e.limit else ""
            out += [text(f"{e.title}{limit}", 16, bold=True), text(e.text, 16)]
        for r in s.rulings:
            out += [text(app._("Ruling: {title}", title=r.title), 16, bold=True, color=GOLD),
                    text(r.text, 16)]
    return out


def _lookup(app: AppState) -> list[ft.Control]:
    """The Power buttons (on the page: six of 44 px fit a 320 px phone's row) and what the
    chosen Power gives."""
    power = app.draft(DRAFT).get("power")
    rows: list[ft.Control] = [
        heading(app._("What a Power gives"), 20),
        chips([(str(p), str(p)) for p in POWERS], str(power or ""),
              lambda p: on_power_pick(app, int(p)), "bf-lookup", width=44)]
    if power is not None:
        f = power_facts(power)
        rows.append(card(
            text(app._("Voting Power {power} (§B9); Stores items of Cost up to {cap} for free, "
                       "once a round (§B6).", power=f.voting_power, cap=f.store_cap), 16,
                 ident_="bf-lookup-facts"),
            text(app._("Marketplace bonus (§B7): {actions}",
                       actions=" ".join(f.marketplace.actions)), 16),
            text(app._("Council bonus (§B10): {actions}", actions=" ".join(f.council.actions)),
                 16)))
    return rows


def reference_cards(app: AppState) -> list[ft.Control]:
    """The four stations (one open at a time) and the Power lookup."""
    opened = app.draft(DRAFT).get("open")
    out: list[ft.Control] = [heading(app._("The four stations"), 20)]
    for st in STATIONS:
        out.append(tap_row(app._("Station {n}: {name}", n=st.number, name=st.name),
                           lambda e, n=st.number: on_station_toggle(app, n),
                           f"bf-station-{st.number}", detail=st.purpose,
                           selected=opened == st.number,
                           icon=ft.Icons.EXPAND_LESS if opened == st.number
                           else ft.Icons.EXPAND_MORE))
        if opened == st.number:
            out.append(ident(f"bf-station-{st.number}-text",
                             card(*_sections(app, st.sections))))
    out += _lookup(app)
    return out
