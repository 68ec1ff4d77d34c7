"""Quick score: type in end-of-game positions, get the scoreboard (§12)."""

import flet as ft
from pydantic import ValidationError

from companion.rules.apply import initial_state
from companion.rules.scoring import scoreboard
from models.cards import AllyCard, RelicCard
from models.common import CLANS
from models.events import PositionLoaded
from models.message import N_
from models.setup import Position, PositionAllianceCard, PositionPlayer, Variants
from models.state import Scoreboard
from views.choice import chips
from views.frame import frame
from views.scoreboard import scoreboard_view
from views.state import AppState
from views.theme import MUTED, button, card, field, heading, main, text, to_int, wrap

NUMBERS = [("blood", N_("Blood")), ("tokens", N_("Influence tokens")),
           ("diablerie", N_("Diablerie")), ("active", N_("Active cards' Influence")),
           ("drained", N_("Drained cards' Influence")), ("relic", N_("Relic Influence"))]


def _draft(app: AppState) -> dict:
    d = app.draft("quick")
    d.setdefault("rows", [_row(i) for i in range(4)])
    d.setdefault("ambition", "0")
    d.setdefault("board", None)
    return d


def _row(i: int) -> dict:
    return {"name": "", "clan": CLANS[i], "blood": "", "tokens": "", "diablerie": "0",
            "active": "", "drained": "0", "relic": "0"}


def on_count_pick(app: AppState, n: int) -> None:
    """Set the number of players."""
    rows = _draft(app)["rows"]
    while len(rows) < n:
        rows.append(_row(len(rows)))
    del rows[n:]
    app.render()


def on_quick_field(app: AppState, i: int, key: str, value: str, rerender: bool = False) -> None:
    """A value was typed or chosen."""
    _draft(app)["rows"][i][key] = value
    if rerender:
        app.render()


def on_ambition_pick(app: AppState, value: str) -> None:
    """Who holds the Ambition token at the end."""
    _draft(app)["ambition"] = value
    app.render()


def _cards(total: int, drained: bool) -> list[PositionAllianceCard]:
    """Alliance cards carrying a typed Influence total (≤ 10 per card)."""
    out = []
    while total > 0:
        part = min(total, 10)
        values = dict(influence=0, drained_influence=part) if drained else dict(
            influence=part, drained_influence=0)
        out.append(PositionAllianceCard(drained=drained, card=AllyCard(
            name="Drained cards" if drained else "Active cards", kind="human", feed=0,
            drain_blood=0, **values)))
        total -= part
    return out


def compute(app: AppState, rows: list[dict], ambition: int) -> Scoreboard | str:
    """The scoreboard of typed positions, or what is wrong with them (in the device's
    language)."""
    players = []
    relics = any(to_int(r["relic"], 0) for r in rows)
    for i, r in enumerate(rows):
        name = r["name"].strip() or app._("Player {n}", n=i + 1)
        v = {key: to_int(r[key], 0 if key in ("diablerie", "drained", "relic") else None)
             for key, _ in NUMBERS}
        missing = [app._(label) for key, label in NUMBERS if v[key] is None]
        if missing:
            return app._("{name}: enter {values}.", name=name, values=", ".join(missing))
        if min(v.values()) < 0:
            return app._("{name}: numbers cannot be negative.", name=name)
        try:
            players.append(PositionPlayer(
                name=name, clan=r["clan"], blood=v["blood"], influence=v["tokens"],
                diablerie_up=min(v["diablerie"], 3), alliance=[
                    *_cards(v["active"], False), *_cards(v["drained"], True)],
                relic=RelicCard(name="Relic", influence=v["relic"]) if relics else None,
                eliminated=v["diablerie"] >= 3))
        except ValidationError as err:
            return app._("{name}: {why}", name=name, why=str(err.errors()[0]["msg"]))
    try:
        pos = Position(players=players, round=3, phase="game_over",
                       ambition=players[ambition].name, variants=Variants(relics=relics))
    except ValidationError as err:
        return str(err.errors()[0]["msg"]).removeprefix("Value error, ")
    return scoreboard(initial_state(PositionLoaded(position=pos)))


def on_score_click(app: AppState) -> None:
    """Compute the scoreboard."""
    d = _draft(app)
    result = compute(app, d["rows"], int(d["ambition"]))
    if isinstance(result, str):
        d["board"] = None
        app.fail(result)
        return
    app.error = None
    d["board"] = result
    app.render()


def quick_score_view(app: AppState) -> list[ft.Control]:
    """One small form per player, then the scoreboard."""
    d = _draft(app)
    rows = d["rows"]
    body: list[ft.Control] = [
        text(app._("Type each player's end-of-game numbers. Players in clockwise order."), 16,
             color=MUTED),
        wrap(*[button(app.n_("{n} player", "{n} players", n),
                      lambda e, n=n: on_count_pick(app, n), primary=False,
                      selected=len(rows) == n, ident_=f"qs-count-{n}") for n in range(3, 7)]),
    ]
    for i, r in enumerate(rows):
        nums = ft.ResponsiveRow([
            field(app._(label), r[key], lambda v, i=i, key=key: on_quick_field(app, i, key, v),
                  numeric=True, ident_=f"qs-{i}-{key}", col=6) for key, label in NUMBERS],
            columns=12, spacing=8, run_spacing=8)
        body.append(card(
            heading(app._("Player {n}", n=i + 1), 17),
            field(app._("Name"), r["name"], lambda v, i=i: on_quick_field(app, i, "name", v),
                  ident_=f"qs-{i}-name"),
            text(app._("Clan"), 16, bold=True),
            chips([(c, c) for c in CLANS], r["clan"],
                  lambda v, i=i: on_quick_field(app, i, "clan", v, rerender=True),
                  f"qs-{i}-clan"),
            nums))
    names = [(str(i), r["name"].strip() or app._("Player {n}", n=i + 1))
             for i, r in enumerate(rows)]
    body += [text(app._("Who holds the Ambition token at the end?"), 16, bold=True),
             chips(names, d["ambition"], lambda v: on_ambition_pick(app, v), "qs-ambition"),
             main(button(app._("Score"), lambda e: on_score_click(app), ident_="qs-score"))]
    if d["board"] is not None:  # the scoreboard first: a new score starts at the top
        body = [heading(app._("Scoreboard"), 20), *scoreboard_view(d["board"]), *body]
    return frame(app, app._("Quick score"), body, subtitle=app._("End-of-game positions only"),
                 place=f"board-{id(d['board'])}" if d["board"] is not None else "")
