"""Table setup inside a new game: first player, clans, Relic draft, Location cards (§2, §13)."""

import flet as ft

from companion.rules.legal import Legal
from models.cards import LocationCard, RelicCard
from models.common import CLANS
from models.message import place
from views.choice import Option, chips, pick_list
from views.state import AppState
from views.theme import (
    MUTED,
    SURFACE_HI,
    button,
    card,
    field,
    heading,
    main,
    short,
    tap_row,
    text,
    to_int,
    wrap,
)

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
        heading(app._("Who goes first?"), 19),
        text(app._("The first player takes the Ambition token; turns go clockwise from them."),
             15, color=MUTED),
        button(app._("Draw at random"), lambda e: on_first_player_pick(app, None),
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
            heading(app._("Clans"), 19),
            text(app._("Draw {n} clan sheets, then each player picks one in turn order. Or skip "
                       "the draw and let everyone choose freely below.", n=n), 15, color=MUTED),
            button(app._("Draw {n} clans at random", n=n), lambda e: on_clans_draw(app),
                   ident_="clans-draw"),
            text(app._("Drew them at the table? Tap the {n} clans drawn:", n=n), 15,
                 color=MUTED),
            wrap(*[button(c, lambda e, c=c: on_drawn_clan_toggle(app, c), primary=False,
                          selected=c in drawn, ident_=f"drawn-{c}", app=app) for c in CLANS]),
            button(app._("Use these {n} clans", n=n) if len(drawn) == n else
                   app._("Tap the {n} clans drawn ({tapped} tapped)", n=n, tapped=len(drawn)),
                   (lambda e: on_drawn_clans_confirm(app)) if len(drawn) == n else None,
                   primary=False, ident_="clans-drawn-ok"),
        ))
    elif s.setup.clans_offered:
        out.append(text(app._("Clans drawn: {clans}", clans=", ".join(s.setup.clans_offered)),
                        16))
    taken = [f"{p.name}: {p.clan}" for p in s.players if p.clan]
    out.append(card(
        heading(app._("Choose a clan"), 19),
        *([text(app._("Taken — {clans}", clans="; ".join(taken)), 15, color=MUTED)]
          if taken else []),
        wrap(*[button(c, lambda e, c=c: on_clan_pick(app, legal.actor, c),
                      ident_=f"clan-{c}") for c in legal.clans]),
    ))
    return out


# --- Relics ---------------------------------------------------------------------------------

def relic_name(entry: object) -> str:
    """The name a Relic is known by at the table: its name, else what it does (whole
    words)."""
    name = getattr(entry, "name", None)
    return name or short(f"Relic: {getattr(entry, 'text', None) or getattr(entry, 'id', '')}",
                         60)


def _relic_rows(app: AppState) -> list[dict]:
    n = len(app.game.state.players) + 1
    rows: list[dict] = app.draft("relics").setdefault("rows", [])
    while len(rows) < n:
        rows.append({"id": None, "name": "", "influence": ""})
    return rows


def _relic_open(app: AppState) -> int | None:
    """The Relic whose list is shown: the one being changed, else the first not entered."""
    opened = app.draft("relic-pick").get("open")
    if opened is not None:
        return opened
    return next((i for i, row in enumerate(_relic_rows(app)) if row["id"] is None), None)


def on_relic_entry_pick(app: AppState, i: int, entry_id: str) -> None:
    """A drawn Relic, tapped from the catalogue (or another one, to enter)."""
    row = _relic_rows(app)[i]
    row["id"] = entry_id
    entry = next((r for r in app.catalogue.relics if r.id == entry_id), None)
    row["name"] = relic_name(entry) if entry else ""
    row["influence"] = "" if entry is None or entry.influence is None else str(entry.influence)
    app.drafts["relic-pick"] = {}
    app.render()


def on_relic_change(app: AppState, i: int) -> None:
    """Open a Relic's list again."""
    app.drafts["relic-pick"] = {"open": i}
    app.render()


def on_relic_field_change(app: AppState, i: int, key: str, value: str,
                          redraw: bool = False) -> None:
    """A Relic's name or Influence was typed or tapped (a typed one draws the screen again
    only when that changes what the button says, or a refusal it answers goes)."""
    before = _relics_missing(app)
    _relic_rows(app)[i][key] = value
    refused = bool(app.error)
    app.error = None
    if redraw or refused or _relics_missing(app) != before:
        app.render(keep_news=not redraw)


def _relics_missing(app: AppState) -> str | None:
    """What the Relics drawn still lack, for the button (None: all entered)."""
    for i, row in enumerate(_relic_rows(app)):
        if row["id"] is None:
            return app._("Tap every Relic drawn first")
        infl = to_int(row["influence"])
        if not row["name"].strip() or infl is None or not 0 <= infl <= 10:
            return app._("Relic {n}: enter its name and Influence", n=i + 1)
    return None


def on_relics_confirm(app: AppState) -> None:
    """Enter the Relics drawn for the draft."""
    relics = []
    for i, row in enumerate(_relic_rows(app)):
        name, infl = row["name"].strip(), to_int(row["influence"])
        if not name or infl is None or not 0 <= infl <= 10:
            app.fail(app._("Relic {n}: tap it in the list, or enter its name and printed "
                           "Influence (0–10).", n=i + 1))
            return
        entry_id = row["id"] if row["id"] not in (None, OTHER) else app.new_id("RELIC", name)
        entry = next((r for r in app.catalogue.relics if r.id == entry_id), None)
        if entry is None or relic_name(entry) != name or entry.influence != infl:
            app.remember("relics", {"id": entry_id, "name": name, "influence": infl})
        entry = next((r for r in app.catalogue.relics if r.id == entry_id), None)
        relics.append(RelicCard(name=name, influence=infl, id=entry_id,
                                ability=entry.ability if entry else None).model_dump())
    app.play({"type": "offer_relics", "relics": relics})


def _relic_options(app: AppState, i: int) -> list[Option]:
    taken = {row["id"] for k, row in enumerate(_relic_rows(app)) if k != i}
    opts = [Option(r.id, relic_name(r), " · ".join(x for x in (
        app._("{n} Influence", n=r.influence) if r.influence is not None else
        app._("Influence not known"),
        r.text if r.name else None) if x)) for r in app.catalogue.relics if r.id not in taken]
    return [*opts, Option(OTHER, app._("Another Relic (not in this list)"),
                          app._("enter its name and Influence"))]


def _relic_slot(app: AppState, i: int, row: dict, opened: int | None) -> list[ft.Control]:
    out: list[ft.Control] = [text(app._("Relic {n}", n=i + 1), 17, bold=True)]
    if i == opened:
        out += pick_list(app, _relic_options(app, i), row["id"],
                         lambda k: on_relic_entry_pick(app, i, k), f"relic-{i}-pick",
                         app.draft("relic-pick"), app._("Search the Relics"))
        return out
    if row["id"] is None:
        return [*out, text(app._("Its list opens once the Relic above is entered."), 16,
                           color=MUTED)]
    title = row["name"] or app._("Another Relic")
    out.append(tap_row(title, lambda e: on_relic_change(app, i), f"relic-{i}-chosen",
                       detail=app._("{n} Influence · tap to change", n=row["influence"])
                       if row["influence"] else app._("tap to change"), app=app))
    entry = next((r for r in app.catalogue.relics if r.id == row["id"]), None)
    if row["id"] == OTHER:
        out.append(field(app._("Name"), row["name"],
                         lambda v: on_relic_field_change(app, i, "name", v),
                         ident_=f"relic-{i}-name"))
    if entry is None or entry.influence is None:
        out += [text(app._("Influence at the end of the game"), 16),
                chips([(str(v), str(v)) for v in range(0, 6)], row["influence"],
                      lambda v: on_relic_field_change(app, i, "influence", v, True),
                      f"relic-{i}-infl", width=56,
                      about=app._("Influence of Relic {n}", n=i + 1))]
    return out


def _relics(app: AppState, legal: Legal) -> list[ft.Control]:
    s = app.game.state
    if "offer_relics" in legal.commands:
        rows = _relic_rows(app)
        opened = _relic_open(app)
        out: list[ft.Control] = [
            heading(app._("Relics: draw {n}", n=len(rows)), 19),
            text(app._("Tap each Relic drawn in the list, or enter one the list does not hold."),
                 16, color=MUTED)]
        for i, row in enumerate(rows):
            out.append(card(*_relic_slot(app, i, row, opened), color=SURFACE_HI,
                            ident_=f"relic-{i}"))
        missing = _relics_missing(app)
        return [card(*out), main(button(
            missing or app._("These are the Relics"),
            (lambda e: on_relics_confirm(app)) if missing is None else None,
            ident_="relics-ok"))]
    if "pick_relic" in legal.commands and legal.actor is not None:
        offered = s.setup.relics_offered or []
        return [card(
            heading(app._("{name} drafts a Relic", name=s.players[legal.actor].name), 19),
            text(app._("Drafting goes counter-clockwise, starting right of the first player."),
                 16, color=MUTED),
            *[button(app._("{relic} (Influence {n})", relic=offered[i].name,
                           n=offered[i].influence),
                     lambda e, i=i: app.play({"type": "pick_relic", "player": legal.actor,
                                              "index": i}), ident_=f"pick-relic-{i}")
              for i in legal.relics])]
    return []


# --- Location cards ---------------------------------------------------------------------------

def on_location_card_pick(app: AppState, loc: str, entry_id: str) -> None:
    """The Location card lying on a Location (or another one, to name)."""
    d = app.draft("location_cards").setdefault(loc, {"id": None, "name": ""})
    d["id"] = entry_id
    entry = next((c for c in app.catalogue.location_cards if c.id == entry_id), None)
    d["name"] = entry.name or "" if entry else ""
    app.drafts["loccard-pick"] = {}
    app.render()


def on_location_card_change(app: AppState, loc: str) -> None:
    """Open a Location's list of cards again."""
    app.drafts["loccard-pick"] = {"open": loc}
    app.render()


def on_location_card_name(app: AppState, loc: str, value: str) -> None:
    """Type a Location card's name (the screen is drawn again when that changes what the
    button says, or a refusal it answers goes)."""
    before = _cards_missing(app)
    app.draft("location_cards").setdefault(loc, {"id": OTHER, "name": ""})["name"] = value
    refused = bool(app.error)
    app.error = None
    if refused or _cards_missing(app) != before:
        app.render(keep_news=True)


def _cards_missing(app: AppState) -> str | None:
    """What the Location cards still lack, for the button (None: all entered)."""
    chosen = app.draft("location_cards")
    for loc in app.game.state.locations:
        if loc.id == "haven":
            continue
        d = chosen.get(loc.id, {})
        if d.get("id") is None:
            return app._("Tap the card of every Location first")
        if not str(d.get("name", "")).strip():
            return app._("{place}: type its card's name", place=place(loc.id))
    return None


def on_location_cards_confirm(app: AppState) -> None:
    """Lay out the Location cards."""
    cards = {}
    for loc in app.game.state.locations:
        if loc.id == "haven":
            continue
        d = app.draft("location_cards").get(loc.id, {})
        name = str(d.get("name", "")).strip()
        if not name:
            app.fail(app._("{place}: tap its Location card, or type its name.",
                           place=place(loc.id)))
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
    locs = [loc.id for loc in app.game.state.locations if loc.id != "haven"]
    chosen = app.draft("location_cards")
    opened = app.draft("loccard-pick").get("open") or next(
        (loc for loc in locs if chosen.get(loc, {}).get("id") is None), None)
    out: list[ft.Control] = [heading(app._("Location cards"), 19),
                             text(app._("One on each Location except the Prince's Haven."), 16,
                                  color=MUTED)]
    for loc in locs:
        d = chosen.get(loc, {"id": None, "name": ""})
        parts: list[ft.Control] = [text(app._("{place}", place=place(loc)), 17, bold=True)]
        if loc == opened:
            taken = {v.get("id") for k, v in chosen.items() if k != loc} - {OTHER}
            opts = [Option(c.id, c.name or c.id, c.text) for c in app.catalogue.location_cards
                    if c.id not in taken]
            opts.append(Option(OTHER, app._("Another card (not in this list)"),
                               app._("type its name")))
            parts += pick_list(app, opts, d["id"],
                               lambda k, loc=loc: on_location_card_pick(app, loc, k),
                               f"loccard-{loc}-pick", app.draft("loccard-pick"))
        elif d["id"] is not None:
            parts.append(tap_row(d["name"] or app._("Another card"),
                                 lambda e, loc=loc: on_location_card_change(app, loc),
                                 f"loccard-{loc}-chosen", detail=app._("tap to change"),
                                 app=app))
            if d["id"] == OTHER:
                parts.append(field(app._("Card name"), d["name"],
                                   lambda v, loc=loc: on_location_card_name(app, loc, v),
                                   ident_=f"loccard-{loc}-name"))
        else:
            parts.append(text(app._("Its list opens once the Location above is done."), 16,
                              color=MUTED))
        out.append(card(*parts, color=SURFACE_HI, ident_=f"loccard-{loc}"))
    missing = _cards_missing(app)
    return [card(*out), main(button(
        missing or app._("Lay out these cards"),
        (lambda e: on_location_cards_confirm(app)) if missing is None else None,
        ident_="loccards-ok"))]


def setup_view(app: AppState, legal: Legal) -> list[ft.Control]:
    """Whatever setup choice is due now."""
    if "set_first_player" in legal.commands:
        return _first_player(app)
    if "pick_clan" in legal.commands:
        return _clans(app, legal)
    if "place_location_cards" in legal.commands:  # first the cards, then the Relics
        return _location_cards(app)
    return _relics(app, legal)
