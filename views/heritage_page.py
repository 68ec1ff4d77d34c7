"""Heritage: a new game's setup (2–4 players, their clans, the three battlegrounds and the
missions in play), then its score pad (`views.heritage_pad`). The app keeps score only: the
rules it follows are docs/heritage.md (§H…), and every refusal names its section."""

from __future__ import annotations

import flet as ft
from pydantic import ValidationError

from companion.heritage.models import (
    CLANS,
    KNOWN_BATTLEGROUNDS,
    MISSIONS_MAX,
    ROUNDS,
    HeritageGame,
    HeritageSetup,
    PlayerEntries,
    canonical_battleground,
)
from companion.library.pad_kinds import HERITAGE, heritage
from views.choice import chips
from views.frame import frame
from views.pads import open_pad, pad_session, problem_view, refusal
from views.state import AppState
from views.table_actions import SAVE_ERRORS, save_problem
from views.theme import MUTED, SMALL, button, card, field, heading, ident, main, text, wrap

NEW = "heritage-new"
"""The draft of the new-game form."""
MOST_PLAYERS = max(ROUNDS)


def _draft(app: AppState) -> dict:
    d = app.draft(NEW)
    d.setdefault("names", ["", ""])
    d.setdefault("clans", list(CLANS[:2]))
    d.setdefault("battlegrounds", [])
    d.setdefault("other", "")
    d.setdefault("missions", [])
    d.setdefault("mission", "")
    d.setdefault("chronicle", False)
    return d


def on_name_change(app: AppState, i: int, value: str) -> None:
    """A player's name was typed."""
    _draft(app)["names"][i] = value


def on_clan_pick(app: AppState, i: int, clan: str) -> None:
    """A player's clan."""
    _draft(app)["clans"][i] = clan
    app.render()


def on_player_add(app: AppState) -> None:
    """One more player (at most 4, §H2), with a clan nobody has yet."""
    d = _draft(app)
    if len(d["names"]) < MOST_PLAYERS:
        d["names"].append("")
        d["clans"].append(next(c for c in CLANS if c not in d["clans"]))
    app.render()


def on_player_remove(app: AppState, i: int) -> None:
    """Remove a player's row."""
    d = _draft(app)
    if len(d["names"]) > 2:
        del d["names"][i], d["clans"][i]
    app.render()


def on_battleground_toggle(app: AppState, name: str) -> None:
    """Put a battleground in play, or take it out."""
    chosen = _draft(app)["battlegrounds"]
    chosen.remove(name) if name in chosen else chosen.append(name)
    app.render()


def on_other_change(app: AppState, value: str) -> None:
    """The name of a battleground the seed does not name was typed."""
    _draft(app)["other"] = value


def on_other_add(app: AppState) -> None:
    """Put the typed battleground in play (a known name, in any case, is that one)."""
    d = _draft(app)
    name = canonical_battleground(d["other"])
    if not name:
        app.fail(app._("Another battleground: type its name first."))
        return
    if name not in d["battlegrounds"]:
        d["battlegrounds"].append(name)
    d["other"], app.error = "", None
    app.render()


def on_mission_change(app: AppState, value: str) -> None:
    """A mission's name was typed."""
    _draft(app)["mission"] = value


def on_mission_add(app: AppState) -> None:
    """Put the typed mission in play."""
    d = _draft(app)
    name = " ".join(d["mission"].split())
    if not name:
        app.fail(app._("Mission: type its name first."))
        return
    if name in d["missions"]:
        app.fail(app._("Mission: {name} is in play already; each mission needs its own name "
                       "(§H2).", name=repr(name)))
        return
    d["missions"].append(name)
    d["mission"], app.error = "", None
    app.render()


def on_mission_remove(app: AppState, i: int) -> None:
    """Take a mission out of play."""
    del _draft(app)["missions"][i]
    app.render()


def on_chronicle_toggle(app: AppState) -> None:
    """A chronicle chapter (5 chronicle missions, no mission power) or a basic game."""
    d = _draft(app)
    d["chronicle"] = not d["chronicle"]
    app.render()


def new_game(d: dict) -> HeritageGame:
    """The pad a filled-in form starts: no round finished, every entry 0.

    Raises:
        ValidationError: the setup breaks a rule (the HeritageError inside names it).
    """
    players = [{"name": n.strip(), "clan": c}
               for n, c in zip(d["names"], d["clans"], strict=True) if n.strip()]
    setup = HeritageSetup(players=players, chronicle=d["chronicle"],
                          battlegrounds=d["battlegrounds"], missions=d["missions"])
    return HeritageGame(setup=setup, rounds_played=0, entries=[
        PlayerEntries(player=p.name, battleground_vp={b: 0 for b in setup.battlegrounds})
        for p in setup.players])


def on_start_click(app: AppState) -> None:
    """Store the new pad and open it."""
    d = _draft(app)
    try:
        game = new_game(d)
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not started: {reason}", reason=refusal(app, err)))
        return
    try:
        pad = pad_session(app).new_pad(heritage(), game.model_dump(mode="json"))
    except SAVE_ERRORS as err:
        app.fail(app._("Not started, nothing stored: {problem}", problem=save_problem(err)))
        return
    except ValueError as err:
        app.fail(app._("Not started: {reason}", reason=refusal(app, err)))
        return
    app.drafts.pop(NEW, None)
    app.error = None
    app.say([app.n_("Heritage game stored: {names}; it lasts {n} round (§H3).",
                    "Heritage game stored: {names}; it lasts {n} rounds (§H3).",
                    game.setup.rounds, names=", ".join(game.setup.names))])
    app.go("heritage", pad.header.game_id)


def _remove(identifier: str, tooltip: str, on_click) -> ft.Control:
    """A small remove button (48 px) whose one label is its tooltip."""
    return ident(identifier, ft.IconButton(icon=ft.Icons.CLOSE, tooltip=tooltip, width=48,
                                           height=48, on_click=on_click))


def _players(app: AppState, d: dict) -> list[ft.Control]:
    n = len(d["names"])
    out: list[ft.Control] = [
        heading(app._("Players"), 20),
        text(app._("2 to 4 players (§H2), each a different clan. With {n} players the game "
                   "lasts {rounds} rounds (§H3).", n=n, rounds=ROUNDS[n]), 16, color=MUTED,
             ident_="her-rounds-hint"),
    ]
    for i, (name, clan) in enumerate(zip(d["names"], d["clans"], strict=True)):
        row: list[ft.Control] = [field(app._("Player {n}", n=i + 1), name,
                                       lambda v, i=i: on_name_change(app, i, v),
                                       ident_=f"her-name-{i}", expand=True)]
        if n > 2:
            row.append(_remove(f"her-remove-{i}", app._("Remove player {n}", n=i + 1),
                               lambda e, i=i: on_player_remove(app, i)))
        out.append(card(ft.Row(row, spacing=4), text(app._("Clan of player {n}", n=i + 1),
                                                     SMALL, color=MUTED),
                        chips([(c, c) for c in CLANS], clan,
                              lambda c, i=i: on_clan_pick(app, i, c), f"her-clan-{i}")))
    if n < MOST_PLAYERS:
        out.append(button(app._("Add a player"), lambda e: on_player_add(app), primary=False,
                          ident_="her-add-player", icon=ft.Icons.ADD))
    return out


def _battlegrounds(app: AppState, d: dict) -> list[ft.Control]:
    chosen = d["battlegrounds"]
    others = [b for b in chosen if b not in KNOWN_BATTLEGROUNDS]
    said = app._("Choose 3 (§H2). Chosen ({n}): {names}.", n=len(chosen),
                 names=", ".join(chosen)) if chosen else \
        app._("Choose 3 (§H2). Chosen (0): none yet.")
    box = field(app._("Another battleground"), d["other"], lambda v: on_other_change(app, v),
                ident_="her-bg-other", expand=True)
    return [
        heading(app._("Battlegrounds in play"), 20),
        text(said, 16, color=MUTED, ident_="her-bg-chosen"),
        wrap(*[button(b, lambda e, b=b: on_battleground_toggle(app, b), primary=False,
                      selected=b in chosen, ident_=f"her-bg-{k}")
               for k, b in enumerate(KNOWN_BATTLEGROUNDS)], spacing=6),
        text(app._("A board the six names above do not cover: type the name you give it."),
             SMALL, color=MUTED),
        ft.Row([box, button(app._("Add"), lambda e: on_other_add(app), primary=False,
                            ident_="her-bg-add")], spacing=6),
        *[ft.Row([text(b, 16, bold=True), _remove(f"her-bg-remove-{j}",
                                                  app._("Remove {name}", name=b),
                                                  lambda e, b=b: on_battleground_toggle(app, b))],
                 alignment=ft.MainAxisAlignment.SPACE_BETWEEN) for j, b in enumerate(others)],
    ]


def _missions(app: AppState, d: dict) -> list[ft.Control]:
    rule = app._("A chronicle chapter has 5 chronicle missions (§H2), by the names you give "
                 "them.") if d["chronicle"] else \
        app._("A basic game has 0 to {n} missions (§H2), by the names you give them.",
              n=MISSIONS_MAX)
    box = field(app._("Mission name"), d["mission"], lambda v: on_mission_change(app, v),
                ident_="her-mission", expand=True)
    return [
        heading(app._("Missions in play"), 20),
        text(rule, 16, color=MUTED),
        ft.Row([box, button(app._("Add"), lambda e: on_mission_add(app), primary=False,
                            ident_="her-mission-add")], spacing=6),
        *[ft.Row([text(m, 16, bold=True), _remove(f"her-mission-remove-{j}",
                                                  app._("Remove {name}", name=m),
                                                  lambda e, j=j: on_mission_remove(app, j))],
                 alignment=ft.MainAxisAlignment.SPACE_BETWEEN)
          for j, m in enumerate(d["missions"])],
        button(app._("Chronicle chapter"), lambda e: on_chronicle_toggle(app), primary=False,
               selected=d["chronicle"], ident_="her-chronicle"),
    ]


def on_ledger_click(app: AppState) -> None:
    """Open a new chronicle ledger's form (`views.heritage_ledger`)."""
    app.drafts.pop("chronicle-new", None)
    app.error = None
    app.go("chronicle")


def new_view(app: AppState) -> list[ft.Control]:
    """The new-game form, and the way to a chronicle ledger."""
    d = _draft(app)
    ledger = card(text(app._("Playing a chronicle? Keep its 21 chapters, eras, obligations and "
                             "aftermath in a ledger (§H10–§H14)."), 16, color=MUTED),
                  button(app._("Start a chronicle ledger"), lambda e: on_ledger_click(app),
                         primary=False, icon=ft.Icons.MENU_BOOK, ident_="her-ledger"))
    body = [*_players(app, d), *_battlegrounds(app, d), *_missions(app, d), ledger,
            main(button(app._("Start the score pad"), lambda e: on_start_click(app),
                        ident_="her-start"))]
    return frame(app, app._("New Heritage game"), body,
                 subtitle=app._("Score pad: players and setup"))


def heritage_view(app: AppState) -> list[ft.Control]:
    """A new game's form, or the stored game's score pad."""
    if app.route.param is None:
        return new_view(app)
    pad, problem = open_pad(app, HERITAGE, app._("Heritage"))
    if pad is None:
        return frame(app, app._("Heritage"), problem_view(app, problem or ""))
    from views.heritage_pad import pad_view

    return pad_view(app, pad)
