"""New game wizard, first page: players, seat order and variants (§2, §13)."""

import random

import flet as ft
from pydantic import ValidationError

from models.setup import GameSetup, PlayerSetup, Variants
from views.frame import frame
from views.state import AppState
from views.theme import (
    MUTED,
    TOUCH,
    button,
    card,
    field,
    heading,
    icon_button,
    text,
    wrap,
)


def _draft(app: AppState) -> dict:
    d = app.draft("wizard")
    d.setdefault("names", ["", "", "", ""])
    d.setdefault("relics", False)
    d.setdefault("location_cards", False)
    d.setdefault("tag_team", False)
    return d


def known_names(app: AppState) -> list[str]:
    """Player names from earlier games, most recent first."""
    seen: dict[str, None] = {}
    try:
        games = app.library.list_games(limit=50)
    except Exception:  # noqa: BLE001
        games = []
    for g in games:
        for name in g.get("players") or []:
            seen.setdefault(name, None)
    return list(seen)[:16]


def teams_for(n: int) -> list[str]:
    """Team of each seat in tag team: teammates sit opposite (A1, B1, A2, B2…) (§13)."""
    half = n // 2
    return [f"Team {i % half + 1}" for i in range(n)]


def _named(names: list[str]) -> int:
    return sum(1 for n in names if n.strip())


def on_name_change(app: AppState, i: int, value: str) -> None:
    """A name was typed: the screen is drawn again when that changes what Create game says
    (or a refusal it answers goes)."""
    names = _draft(app)["names"]
    before = min(_named(names), 3)
    names[i] = value
    refused = bool(app.error)
    app.error = None
    if refused or min(_named(names), 3) != before:
        app.render(keep_news=True)


def on_known_pick(app: AppState, name: str) -> None:
    """Put a remembered name in the first empty seat (or a new seat)."""
    names = _draft(app)["names"]
    if name in names:
        return
    if "" in [n.strip() for n in names]:
        names[[n.strip() for n in names].index("")] = name
    elif len(names) < 6:
        names.append(name)
    app.render()


def on_seat_add(app: AppState) -> None:
    """Add a seat (up to 6)."""
    names = _draft(app)["names"]
    if len(names) < 6:
        names.append("")
    app.render()


def on_seat_remove(app: AppState, i: int) -> None:
    """Remove a seat (at least 3 stay)."""
    names = _draft(app)["names"]
    if len(names) > 3:
        names.pop(i)
    app.render()


def on_seat_up(app: AppState, i: int) -> None:
    """Move a player one seat earlier (clockwise order)."""
    names = _draft(app)["names"]
    if i > 0:
        names[i - 1], names[i] = names[i], names[i - 1]
    app.render()


def on_variant_toggle(app: AppState, key: str) -> None:
    """Turn a variant on or off."""
    d = _draft(app)
    d[key] = not d[key]
    app.render()


def on_create_click(app: AppState) -> None:
    """Create the game and go on to the table setup."""
    d = _draft(app)
    names = [n.strip() for n in d["names"] if n.strip()]
    if len(names) < 3:
        app.fail(app._("Enter at least 3 player names."))
        return
    tag = d["tag_team"]
    teams = teams_for(len(names)) if tag else [None] * len(names)
    try:
        setup = GameSetup(
            players=[PlayerSetup(name=n, team=t) for n, t in zip(names, teams, strict=True)],
            variants=Variants(relics=d["relics"], location_cards=d["location_cards"],
                              tag_team=tag),
            seed=random.randrange(2**31))
    except ValidationError as err:
        app.fail(err.errors()[0]["msg"].removeprefix("Value error, "))
        return
    if not app.new_game(setup):
        return
    app.drafts.clear()
    app.notice = []
    app.go("game")


def wizard_view(app: AppState) -> list[ft.Control]:
    """Players in clockwise seat order, remembered names, variants."""
    d = _draft(app)
    names: list[str] = d["names"]
    rows: list[ft.Control] = []
    for i, name in enumerate(names):
        who = name.strip()
        row: list[ft.Control] = [
            text(f"{i + 1}", 18, color=MUTED),
            field(app._("Player {n}", n=i + 1), name, lambda v, i=i: on_name_change(app, i, v),
                  expand=True, ident_=f"name-{i}")]
        # a move or a removal that cannot be done is not offered (the note below says why)
        up = (app._("Move {name} one seat up", name=who) if who
              else app._("Move player {n} one seat up", n=i + 1))
        row.append(icon_button(f"up-{i}", ft.Icons.ARROW_UPWARD, up,
                               lambda e, i=i: on_seat_up(app, i)) if i else
                   ft.Container(width=TOUCH))
        if len(names) > 3:
            remove = (app._("Remove {name}", name=who) if who
                      else app._("Remove player {n}", n=i + 1))
            row.append(icon_button(f"remove-{i}", ft.Icons.CLOSE, remove,
                                   lambda e, i=i: on_seat_remove(app, i)))
        rows.append(ft.Row(row, spacing=4))
    if len(names) <= 3:
        rows.append(text(app._("3 players are the fewest: no seat can be removed."), 15,
                         color=MUTED))
    body: list[ft.Control] = [
        heading(app._("Who is playing?")),
        text(app._("Enter the players in clockwise order around the table (3 to 6)."), 16,
             color=MUTED),
        *rows,
        button(app._("Add a player") if len(names) < 6 else app._("6 players: the most"),
               (lambda e: on_seat_add(app)) if len(names) < 6 else None,
               primary=False, ident_="add-player"),
    ]
    known = [n for n in known_names(app) if n not in names]
    if known:
        body += [text(app._("Played before (tap to add):"), 15, color=MUTED),
                 wrap(*[button(n, lambda e, n=n: on_known_pick(app, n), primary=False,
                               ident_=f"known-{n}") for n in known])]
    n = len(names)
    tag_ok = n in (4, 6)
    variants = [
        text(app._("3-player mode applies by itself with 3 players."), 15, color=MUTED),
        button(app._("Relics: on") if d["relics"] else app._("Relics: off"),
               lambda e: on_variant_toggle(app, "relics"), selected=d["relics"],
               primary=False, ident_="variant-relics"),
        button(app._("Location cards: on") if d["location_cards"]
               else app._("Location cards: off"),
               lambda e: on_variant_toggle(app, "location_cards"),
               selected=d["location_cards"], primary=False, ident_="variant-locations"),
        button(app._("Tag team: on") if d["tag_team"] else app._("Tag team: off"),
               (lambda e: on_variant_toggle(app, "tag_team")) if tag_ok or d["tag_team"]
               else None, selected=d["tag_team"], primary=False, ident_="variant-tag"),
    ]
    if not tag_ok:
        variants.append(text(app._("Tag team needs 4 or 6 players."), 14, color=MUTED))
    elif d["tag_team"]:
        teams = teams_for(n)
        filled = [x.strip() or app._("Player {n}", n=i + 1) for i, x in enumerate(names)][:n]
        for k in range(n // 2):
            members = " & ".join(p for p, tt in zip(filled, teams, strict=True)
                                 if tt == f"Team {k + 1}")
            variants.append(text(app._("Team {n}: {members} (sitting opposite)", n=k + 1,
                                       members=members), 15))
    named = _named(names)
    ready = named >= 3
    body += [card(heading(app._("Variants"), 18), *variants),
             button(app._("Create game") if ready else
                    app.n_("Enter at least 3 player names ({n} name so far)",
                           "Enter at least 3 player names ({n} names so far)", named),
                    (lambda e: on_create_click(app)) if ready else None,
                    ident_="create-game")]
    return frame(app, app._("New game"), body, subtitle=app._("Step 1: players and variants"))
