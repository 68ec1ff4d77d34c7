"""Table setup inside a new game: first player, clans, Relic draft, Location cards (§2, §13)."""

import flet as ft

from companion.legal import Legal
from models.cards import LocationCard, RelicCard
from models.common import CLANS, location_name
from views.state import AppState
from views.theme import MUTED, button, card, dropdown, field, heading, text, to_int, wrap

OTHER = "__other__"


def on_first_player_pick(app: AppState, seat: int | None) -> None:
    """Give the Ambition token to a player, or draw one at random (None)."""
    app.play({"type": "set_first_player", "player": seat})


def on_clans_draw(app: AppState) -> None:
    """Draw players+1 clans at random."""
    app.play({"type": "offer_clans"})


def on_drawn_clan_toggle(app: AppState, clan: str) -> None:
    """Mark a clan sheet the table drew by hand."""
    chosen: list = app.draft("clans").setdefault("drawn", [])
    if clan in chosen:
        chosen.remove(clan)
    else:
        chosen.append(clan)
    app.render()


def on_drawn_clans_confirm(app: AppState) -> None:
    """Use the clans the table drew by hand."""
    app.play({"type": "offer_clans", "clans": app.draft("clans").get("drawn", [])})


def on_clan_pick(app: AppState, seat: int, clan: str) -> None:
    """The picker takes a clan."""
    app.play({"type": "pick_clan", "player": seat, "clan": clan})


def _first_player(app: AppState) -> list[ft.Control]:
    players = app.game.state.players
    return [card(
        heading("Who goes first?", 19),
        text("The first player takes the Ambition token; turns go clockwise from them.", 15,
             color=MUTED),
        button("Draw at random", lambda e: on_first_player_pick(app, None),
               ident_="first-random"),
        wrap(*[button(p.name, lambda e, i=i: on_first_player_pick(app, i), primary=False,
                      ident_=f"first-{i}") for i, p in enumerate(players)]),
    )]


def _clans(app: AppState, legal: Legal) -> list[ft.Control]:
    s = app.game.state
    out: list[ft.Control] = []
    if "offer_clans" in legal.commands:
        n = len(s.players) + 1
        drawn = app.draft("clans").get("drawn", [])
        out.append(card(
            heading("Clans", 19),
            text(f"Draw {n} clan sheets, then each player picks one in turn order. "
                 "Or skip the draw and let everyone choose freely below.", 15, color=MUTED),
            button(f"Draw {n} clans at random", lambda e: on_clans_draw(app),
                   ident_="clans-draw"),
            text(f"Drew them at the table? Tap the {n} clans drawn:", 15, color=MUTED),
            wrap(*[button(c, lambda e, c=c: on_drawn_clan_toggle(app, c), primary=False,
                          selected=c in drawn, ident_=f"drawn-{c}") for c in CLANS]),
            button(f"Use these {len(drawn)} clans", (lambda e: on_drawn_clans_confirm(app))
                   if len(drawn) == n else None, primary=False, ident_="clans-drawn-ok"),
        ))
    elif s.setup.clans_offered:
        out.append(text("Clans drawn: " + ", ".join(s.setup.clans_offered), 16))
    taken = [f"{p.name}: {p.clan}" for p in s.players if p.clan]
    out.append(card(
        heading("Choose a clan", 19),
        *([text("Taken — " + "; ".join(taken), 15, color=MUTED)] if taken else []),
        wrap(*[button(c, lambda e, c=c: on_clan_pick(app, legal.actor, c),
                      ident_=f"clan-{c}") for c in legal.clans]),
    ))
    return out


# --- Relics ---------------------------------------------------------------------------------

def _relic_rows(app: AppState) -> list[dict]:
    n = len(app.game.state.players) + 1
    rows: list[dict] = app.draft("relics").setdefault("rows", [])
    while len(rows) < n:
        rows.append({"id": None, "name": "", "influence": ""})
    return rows


def on_relic_entry_pick(app: AppState, i: int, entry_id: str) -> None:
    """Fill a drawn Relic from the catalogue (or start a new one)."""
    row = _relic_rows(app)[i]
    row["id"] = entry_id
    entry = next((r for r in app.catalogue.relics if r.id == entry_id), None)
    row["name"] = (entry.name or "") if entry else ""
    row["influence"] = "" if entry is None or entry.influence is None else str(entry.influence)
    app.render()


def on_relic_field_change(app: AppState, i: int, key: str, value: str) -> None:
    """A Relic's name or Influence was typed."""
    _relic_rows(app)[i][key] = value


def on_relics_confirm(app: AppState) -> None:
    """Enter the Relics drawn for the draft."""
    relics = []
    for i, row in enumerate(_relic_rows(app)):
        name, infl = row["name"].strip(), to_int(row["influence"])
        if not name or infl is None or not 0 <= infl <= 10:
            app.fail(f"Relic {i + 1}: enter its name and printed Influence (0–10).")
            return
        entry_id = row["id"] if row["id"] not in (None, OTHER) else app.new_id("RELIC", name)
        entry = next((r for r in app.catalogue.relics if r.id == entry_id), None)
        if entry is None or entry.name != name or entry.influence != infl:
            app.remember("relics", {"id": entry_id, "name": name, "influence": infl})
        entry = next((r for r in app.catalogue.relics if r.id == entry_id), None)
        relics.append(RelicCard(name=name, influence=infl, id=entry_id,
                                ability=entry.ability if entry else None).model_dump())
    app.play({"type": "offer_relics", "relics": relics})


def _relic_options(app: AppState) -> list[tuple[str, str]]:
    opts = [(r.id, r.name or (r.text or r.id)[:48]) for r in app.catalogue.relics]
    return [*opts, (OTHER, "Another Relic (type it in)")]


def _relics(app: AppState, legal: Legal) -> list[ft.Control]:
    s = app.game.state
    if "offer_relics" in legal.commands:
        rows = _relic_rows(app)
        out: list[ft.Control] = [
            heading(f"Relics: draw {len(rows)}", 19),
            text("Enter each Relic drawn: pick it from the list or type its name and "
                 "Influence.", 15, color=MUTED)]
        for i, row in enumerate(rows):
            out += [dropdown(f"Relic {i + 1}", _relic_options(app), row["id"],
                             lambda v, i=i: on_relic_entry_pick(app, i, v), f"relic-{i}"),
                    ft.Row([field("Name", row["name"],
                                  lambda v, i=i: on_relic_field_change(app, i, "name", v),
                                  expand=True, ident_=f"relic-{i}-name"),
                            field("Influence", row["influence"],
                                  lambda v, i=i: on_relic_field_change(app, i, "influence", v),
                                  numeric=True, width=120, ident_=f"relic-{i}-infl")])]
        out.append(button("These are the Relics", lambda e: on_relics_confirm(app),
                          ident_="relics-ok"))
        return [card(*out)]
    if "pick_relic" in legal.commands and legal.actor is not None:
        offered = s.setup.relics_offered or []
        return [card(
            heading(f"{s.players[legal.actor].name} drafts a Relic", 19),
            text("Drafting goes counter-clockwise, starting right of the first player.", 15,
                 color=MUTED),
            *[button(f"{offered[i].name} (Influence {offered[i].influence})",
                     lambda e, i=i: app.play({"type": "pick_relic", "player": legal.actor,
                                              "index": i}), ident_=f"pick-relic-{i}")
              for i in legal.relics])]
    return []


# --- Location cards ---------------------------------------------------------------------------

def on_location_card_pick(app: AppState, loc: str, entry_id: str) -> None:
    """Choose the Location card lying on a Location."""
    d = app.draft("location_cards").setdefault(loc, {"id": None, "name": ""})
    d["id"] = entry_id
    entry = next((c for c in app.catalogue.location_cards if c.id == entry_id), None)
    d["name"] = entry.name or "" if entry else ""
    app.render()


def on_location_card_name(app: AppState, loc: str, value: str) -> None:
    """Type a Location card's name."""
    app.draft("location_cards").setdefault(loc, {"id": OTHER, "name": ""})["name"] = value


def on_location_cards_confirm(app: AppState) -> None:
    """Lay out the Location cards."""
    cards = {}
    for loc in app.game.state.locations:
        if loc.id == "haven":
            continue
        d = app.draft("location_cards").get(loc.id, {})
        name = str(d.get("name", "")).strip()
        if not name:
            app.fail(f"{location_name(loc.id)}: choose or type its Location card.")
            return
        entry_id = d.get("id") if d.get("id") not in (None, OTHER) else app.new_id("LOC", name)
        entry = next((c for c in app.catalogue.location_cards if c.id == entry_id), None)
        if entry is None or entry.name != name:
            app.remember("location_cards", {"id": entry_id, "name": name})
            entry = next((c for c in app.catalogue.location_cards if c.id == entry_id), None)
        cards[loc.id] = LocationCard(name=name, id=entry_id,
                                     ability=entry.ability if entry else None).model_dump()
    app.play({"type": "place_location_cards", "cards": cards})


def _location_cards(app: AppState) -> list[ft.Control]:
    opts = [(c.id, c.name or c.id) for c in app.catalogue.location_cards]
    opts.append((OTHER, "Another card (type its name)"))
    out: list[ft.Control] = [heading("Location cards", 19),
                             text("One on each Location except the Prince's Haven.", 15,
                                  color=MUTED)]
    for loc in app.game.state.locations:
        if loc.id == "haven":
            continue
        d = app.draft("location_cards").get(loc.id, {"id": None, "name": ""})
        out.append(dropdown(location_name(loc.id), opts, d["id"],
                            lambda v, loc=loc.id: on_location_card_pick(app, loc, v),
                            f"loccard-{loc.id}"))
        if d["id"] == OTHER:
            out.append(field("Card name", d["name"],
                             lambda v, loc=loc.id: on_location_card_name(app, loc, v),
                             ident_=f"loccard-{loc.id}-name"))
    out.append(button("Lay out these cards", lambda e: on_location_cards_confirm(app),
                      ident_="loccards-ok"))
    return [card(*out)]


def setup_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Whatever setup choice is due now."""
    if "set_first_player" in legal.commands:
        return _first_player(app)
    if "pick_clan" in legal.commands:
        return _clans(app, legal)
    out: list[ft.Control] = []
    if "place_location_cards" in legal.commands:
        out += _location_cards(app)
    out += _relics(app, legal)
    return out
