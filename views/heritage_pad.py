"""A stored Heritage game's score pad: the round count, the end-of-game entries of each player
(VP per battleground, the bloodline's vampires, missions claimed), the totals, ranks and
winner with every tie settled as §H5 says (the primogen draw entered when it is needed), and
two small calculators for battlegrounds in play. Each confirmed entry is one undoable save."""

from __future__ import annotations

from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.heritage.battlegrounds import inquisition, sabbat_wars, sabbat_wars_allegiances
from companion.heritage.errors import HeritageError
from companion.heritage.models import (
    ARCHETYPES,
    INQUISITION,
    SABBAT_WARS,
    HeritageGame,
    PrimogenDraw,
)
from companion.heritage.pad import GameResult, PlayerScore, next_round, score
from companion.library.pad import PadGame
from views.frame import frame
from views.pads import number_field, refusal, save, undo_row, unsaved_banner, whole
from views.state import AppState
from views.theme import (
    GOLD,
    MUTED,
    SMALL,
    SURFACE_HI,
    button,
    card,
    error_box,
    field,
    heading,
    ident,
    main,
    text,
    wrap,
)

REVIEW = "heritage-review"
"""Draft: the game ids shown for review (the result, no inputs); Home sets it as
`<kind>-review`."""


# --- the draft of the entries -------------------------------------------------------------


def _blank(n: int) -> str:
    """A number as its box shows it (0 as an empty box: empty boxes count 0)."""
    return "" if n == 0 else str(n)


def _player_draft(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "vp": {b: _blank(v) for b, v in entry["battleground_vp"].items()},
        "vampires": [{"name": v.get("name", ""), "power": _blank(v.get("power", 0)),
                      "boons": _blank(v.get("boons", 0)), "infamy": _blank(v.get("infamy", 0)),
                      "torpor": bool(v.get("torpor")), "leader": bool(v.get("clan_leader"))}
                     for v in entry.get("bloodline", [])],
        "missions": list(entry.get("missions_claimed", [])),
        "mission_power": _blank(entry.get("mission_power", 0)),
    }


def _draft(app: AppState, pad: PadGame) -> dict[str, Any]:
    """The typed entries: made from the saved pad, and made again whenever its saved entries
    change (a save, an undo, a redo), never by a round counted meanwhile."""
    doc = pad.doc
    d = app.draft(f"heritage-{pad.header.game_id}")
    base = (doc["entries"], doc.get("primogen_draw"))
    if d.get("base") != base:
        d.clear()
        d["base"] = base
        d["players"] = {e["player"]: _player_draft(e) for e in doc["entries"]}
        d["declared"], d["drawn"] = {}, None
    return d


def entries_from(game: HeritageGame, d: dict[str, Any]) -> list[dict[str, Any]]:
    """The end-of-game entries as typed.

    Raises:
        ValueError: a box holds no whole number (the message names the player and box).
    """
    out = []
    for name in game.setup.names:
        p = d["players"][name]
        vampires = []
        for j, v in enumerate(p["vampires"]):
            what = f"{name}, vampire {j + 1}"
            vampires.append({"name": v["name"].strip(),
                             "power": whole(v["power"], f"{what}, power"),
                             "boons": whole(v["boons"], f"{what}, boons"),
                             "infamy": whole(v["infamy"], f"{what}, infamy"),
                             "torpor": v["torpor"], "clan_leader": v["leader"]})
        out.append({
            "player": name,
            "battleground_vp": {b: whole(p["vp"].get(b), f"{name}, {b} VP", least=None)
                                for b in game.setup.battlegrounds},
            "bloodline": vampires,
            "missions_claimed": [m for m in game.setup.missions if m in p["missions"]],
            "mission_power": whole(p["mission_power"], f"{name}, mission power"),
        })
    return out


def checked(doc: dict[str, Any]) -> tuple[HeritageGame, GameResult, list[str]]:
    """A pad document checked and scored; a primogen draw the new entries no longer need is
    taken off (and said so).

    Raises:
        ValidationError, HeritageError: the entries break a rule.
    """
    game = HeritageGame.model_validate(doc)
    try:
        return game, score(game), []
    except HeritageError as err:
        if err.key not in ("primogen_not_needed", "primogen_players"):
            raise
    game = game.model_copy(update={"primogen_draw": None})
    return game, score(game), ["The primogen draw was taken off: the tie it settled is gone "
                               "(§H6)."]


# --- handlers -----------------------------------------------------------------------------


def on_save_click(app: AppState, pad: PadGame) -> None:
    """Check every typed entry and save the pad (one undoable action)."""
    d = _draft(app, pad)
    game = HeritageGame.model_validate(pad.doc)
    try:
        new, result, lines = checked({**pad.doc, "entries": entries_from(game, d)})
    except (ValidationError, ValueError) as err:
        app.fail(f"Not saved: {refusal(err)}")
        return
    doc = new.model_dump(mode="json")
    if doc == pad.doc:
        app.error = None
        app.say(["Nothing to save: the pad already holds these entries."])
        app.render()
        return
    save(app, doc, [result.summary, *lines])


def on_round_click(app: AppState, pad: PadGame, last: bool) -> None:
    """One more round finished (or the last one): saved at once."""
    game = HeritageGame.model_validate(pad.doc)
    rounds = game.setup.rounds
    played = rounds if game.rounds_played is None else game.rounds_played
    try:
        n = rounds if last else next_round(len(game.setup.players), played)
    except HeritageError as err:
        app.fail(f"Not counted: {err}")
        return
    if last and played >= rounds:
        app.fail(f"Not counted: §H3: all {rounds} rounds are finished already.")
        return
    try:
        new, result, lines = checked({**pad.doc, "rounds_played": n})
    except (ValidationError, ValueError) as err:
        app.fail(f"Not counted: {refusal(err)}")
        return
    said = (f"Round {n} of {rounds} finished." if n < rounds else
            f"All {rounds} rounds finished: the game is over (§H3). {result.summary}")
    save(app, new.model_dump(mode="json"), [said, *lines])


def on_vp_change(app: AppState, pad: PadGame, player: str, ground: str, value: str) -> None:
    """A battleground's VP was typed."""
    _draft(app, pad)["players"][player]["vp"][ground] = value


def on_vampire_change(app: AppState, pad: PadGame, player: str, j: int, key: str,
                      value: Any, redraw: bool = False) -> None:
    """A vampire's value was typed (or switched: torpor, clan leader)."""
    _draft(app, pad)["players"][player]["vampires"][j][key] = value
    if redraw:
        app.render()


def on_vampire_add(app: AppState, pad: PadGame, player: str) -> None:
    """One more vampire in a bloodline."""
    _draft(app, pad)["players"][player]["vampires"].append(
        {"name": "", "power": "", "boons": "", "infamy": "", "torpor": False, "leader": False})
    app.render()


def on_vampire_remove(app: AppState, pad: PadGame, player: str, j: int) -> None:
    """Take a vampire off the bloodline's entries."""
    del _draft(app, pad)["players"][player]["vampires"][j]
    app.render()


def on_mission_toggle(app: AppState, pad: PadGame, player: str, mission: str) -> None:
    """A mission claimed by this player, or not."""
    claimed = _draft(app, pad)["players"][player]["missions"]
    claimed.remove(mission) if mission in claimed else claimed.append(mission)
    app.render()


def on_mission_power_change(app: AppState, pad: PadGame, player: str, value: str) -> None:
    """Basic game: the power the claimed missions gave."""
    _draft(app, pad)["players"][player]["mission_power"] = value


def on_declare_pick(app: AppState, pad: PadGame, player: str, archetype: str) -> None:
    """A tied player's declared archetype (§H6)."""
    _draft(app, pad)["declared"][player] = archetype
    app.render()


def on_drawn_pick(app: AppState, pad: PadGame, archetype: str) -> None:
    """The declared archetype that came up first (§H6)."""
    _draft(app, pad)["drawn"] = archetype
    app.render()


def on_draw_save(app: AppState, pad: PadGame, tied: list[str]) -> None:
    """Save the primogen draw that settles the win."""
    d = _draft(app, pad)
    missing = [p for p in tied if p not in d["declared"]]
    if missing:
        app.fail(f"Not saved: primogen draw: {', '.join(missing)} declared no archetype yet "
                 "(§H6).")
        return
    if d["drawn"] is None:
        app.fail("Not saved: primogen draw: tap the archetype that came up first (§H6).")
        return
    try:
        draw = PrimogenDraw(declared={p: d["declared"][p] for p in tied}, drawn=d["drawn"])
        doc = {**pad.doc, "primogen_draw": draw.model_dump(mode="json")}
        result = score(HeritageGame.model_validate(doc))
    except (ValidationError, ValueError) as err:
        app.fail(f"Not saved: {refusal(err)}")
        return
    save(app, doc, [result.summary])


def on_edit_click(app: AppState, game_id: str) -> None:
    """Leave the review: show the pad's entries."""
    app.draft(REVIEW).pop(game_id, None)
    app.render()


def on_calc_change(app: AppState, key: str, value: str) -> None:
    """A count typed into a calculator."""
    app.draft("heritage-calc")[key] = value


def on_inquisition_click(app: AppState) -> None:
    """The Inquisition: fewer face-up tokens wins; equal counts, nobody (§H8.3)."""
    c = app.draft("heritage-calc")
    try:
        first = whole(c.get("inq_a"), "Face-up tokens, first attribute")
        second = whole(c.get("inq_b"), "Face-up tokens, second attribute")
        out = inquisition({"the first attribute": first, "the second attribute": second}, {})
    except ValueError as err:
        c["inq"] = f"Refused: {err}"
    else:
        c["inq"] = (f"{out.winners[0][:1].upper()}{out.winners[0][1:]} wins: each of its "
                    f"vampires scores 1 VP (§H8.3)." if out.winners else
                    "Equal counts: nobody wins The Inquisition (§H8.3).")
    app.render()


def on_sabbat_click(app: AppState, players: int) -> None:
    """Sabbat Wars: Camarilla or Sabbat with 3+ regions, else the Anarchs; 9 VP (§H8.4)."""
    c = app.draft("heritage-calc")
    try:
        pool = sabbat_wars_allegiances(players)
        out = sabbat_wars({str(i): a for i, a in enumerate(pool)},
                          whole(c.get("sab_cam"), "Regions held by the Camarilla"),
                          whole(c.get("sab_sab"), "Regions held by the Sabbat"))
    except ValueError as err:
        c["sab"] = f"Refused: {err}"
    else:
        winner = out.winners[0]
        c["sab"] = (f"{winner} wins: each player holding {winner} scores 9 VP (§H8.4)."
                    if winner in pool else
                    f"{winner} wins, and nobody holds {winner} with {players} players: "
                    "nobody scores here (§H8.4).")
    app.render()


# --- drawing ------------------------------------------------------------------------------


def _rounds(app: AppState, pad: PadGame, game: HeritageGame, review: bool) -> ft.Control:
    total = game.setup.rounds
    played = total if game.rounds_played is None else game.rounds_played
    over = played >= total
    said = (f"All {total} rounds finished: the game is over (§H3)." if over else
            f"Rounds finished: {played} of {total}" + (" (none yet)." if not played else "."))
    parts: list[ft.Control] = [text(said, 18, bold=True, ident_="her-rounds")]
    if not review and not over:
        buttons = [button(f"Round {played + 1} done", lambda e: on_round_click(app, pad, False),
                          primary=False, expand=True, ident_="her-round-plus")]
        if played + 1 < total:
            buttons.append(button("Last round done", lambda e: on_round_click(app, pad, True),
                                  primary=False, expand=True, ident_="her-round-last"))
        parts.append(ft.Row(buttons, spacing=6))
    return card(*parts)


def _breakdown(s: PlayerScore) -> str:
    """Where a total comes from (the terms that are not 0)."""
    parts = [f"{s.battlegrounds} from battlegrounds"]
    parts += [f"{sign}{n} {what}" for sign, n, what in (
        ("+", s.power, "power"), ("+", s.boons, "boons"), ("-", s.infamy, "infamy"),
        ("+", s.mission_power, "mission power")) if n]
    torpor = f"; {s.in_torpor} in torpor (0 VP)" if s.in_torpor else ""
    return ", ".join(parts) + torpor


def outcome_words(result: GameResult) -> str:
    """The result's headline: who wins, or what still decides it."""
    if result.winner and result.finished:
        return f"{result.winner} wins"
    if result.needs_draw:
        return "Tied: the primogen draw decides"
    return "Not over yet: totals so far"


def _result(result: GameResult) -> ft.Control:
    rows: list[ft.Control] = [
        text(outcome_words(result), 24, bold=True, color=GOLD, ident_="her-outcome"),
        text(result.summary, 16, color=MUTED, ident_="her-summary"),
    ]
    for k, s in enumerate(result.scores):
        missions = f"{s.missions_claimed} mission{'s' if s.missions_claimed != 1 else ''}"
        rows.append(ident(f"her-rank-{k}", ft.Column([
            text(f"{s.rank}. {s.player} ({s.clan}): {s.total} VP, {missions} claimed", 17,
                 bold=True),
            text(_breakdown(s), SMALL, color=MUTED)], spacing=0)))
    if result.vanquished:
        rows.append(text(f"Vanquished: {result.vanquished}", 16, color=MUTED))
    return card(heading("Result", 19), *rows, ident_="her-result")


def _draw(app: AppState, pad: PadGame, tied: list[str]) -> ft.Control:
    d = _draft(app, pad)
    rows: list[ft.Control] = [
        heading("Primogen draw", 19),
        text("Each tied player declares a different archetype; the character deck is turned "
             "over until a declared one shows (§H6). Enter what happened.", 16, color=MUTED),
    ]
    for i, player in enumerate(tied):
        rows += [text(f"{player} declared", 16, bold=True),
                 wrap(*[button(a, lambda e, p=player, a=a: on_declare_pick(app, pad, p, a),
                               primary=False, selected=d["declared"].get(player) == a,
                               ident_=f"her-declare-{i}-{a}") for a in ARCHETYPES], spacing=6)]
    rows += [text("Came up first", 16, bold=True),
             wrap(*[button(a, lambda e, a=a: on_drawn_pick(app, pad, a), primary=False,
                           selected=d["drawn"] == a, ident_=f"her-drawn-{a}")
                    for a in ARCHETYPES], spacing=6),
             button("Save the draw", lambda e: on_draw_save(app, pad, tied),
                    ident_="her-draw-save")]
    return card(*rows, color="#241012", ident_="her-draw")


def _vampire(app: AppState, pad: PadGame, player: str, i: int, j: int,
             v: dict[str, Any]) -> ft.Control:
    pre = f"her-{i}-v{j}"

    def change(key: str):
        return lambda value: on_vampire_change(app, pad, player, j, key, value)

    name = field(f"Vampire {j + 1} (name optional)", v["name"], change("name"),
                 ident_=f"{pre}-name", expand=True)
    remove = ident(f"{pre}-remove", ft.IconButton(
        icon=ft.Icons.CLOSE, tooltip=f"Remove vampire {j + 1}", width=48, height=48,
        on_click=lambda e: on_vampire_remove(app, pad, player, j)))
    numbers = ft.Row([number_field(label, v[key], change(key), f"{pre}-{key}")
                      for key, label in (("power", "Power"), ("boons", "Boons"),
                                         ("infamy", "Infamy"))], spacing=6)
    switches = ft.Row([
        button("In torpor", lambda e: on_vampire_change(app, pad, player, j, "torpor",
                                                        not v["torpor"], True),
               primary=False, selected=v["torpor"], expand=True, ident_=f"{pre}-torpor"),
        button("Clan leader", lambda e: on_vampire_change(app, pad, player, j, "leader",
                                                          not v["leader"], True),
               primary=False, selected=v["leader"], expand=True, ident_=f"{pre}-leader"),
    ], spacing=6)
    return ft.Container(content=ft.Column([ft.Row([name, remove], spacing=4), numbers,
                                           switches], spacing=8),
                        bgcolor=SURFACE_HI, border_radius=10, padding=10)


def _player(app: AppState, pad: PadGame, game: HeritageGame, i: int) -> ft.Control:
    seat = game.setup.players[i]
    p = _draft(app, pad)["players"][seat.name]
    rows: list[ft.Control] = [
        heading(f"{seat.name} ({seat.clan})", 19),
        text("VP from each battleground (may be negative):", SMALL, color=MUTED),
        *[number_field(f"{b} VP", p["vp"].get(b, ""),
                       lambda v, b=b: on_vp_change(app, pad, seat.name, b, v),
                       f"her-{i}-vp-{k}", signed=True)
          for k, b in enumerate(game.setup.battlegrounds)],
        text("Bloodline: +1 VP per power and boon, -1 per infamy; a vampire in torpor counts "
             "nothing (§H4).", SMALL, color=MUTED),
        *[_vampire(app, pad, seat.name, i, j, v) for j, v in enumerate(p["vampires"])],
        button("Add a vampire", lambda e: on_vampire_add(app, pad, seat.name), primary=False,
               icon=ft.Icons.ADD, ident_=f"her-{i}-add-vampire"),
    ]
    if game.setup.missions:
        rows += [text("Missions claimed (fewer wins a tie on VP, §H5):", SMALL, color=MUTED),
                 wrap(*[button(m, lambda e, m=m: on_mission_toggle(app, pad, seat.name, m),
                               primary=False, selected=m in p["missions"],
                               ident_=f"her-{i}-mission-{k}")
                        for k, m in enumerate(game.setup.missions)], spacing=6)]
        if not game.setup.chronicle:
            rows.append(number_field("Power from claimed missions", p["mission_power"],
                                     lambda v: on_mission_power_change(app, pad, seat.name, v),
                                     f"her-{i}-mission-power"))
    return card(*rows, ident_=f"her-player-{i}")


def _calculators(app: AppState, game: HeritageGame) -> list[ft.Control]:
    """The Inquisition and Sabbat Wars helpers, for those in play."""
    c = app.draft("heritage-calc")
    out: list[ft.Control] = []
    if INQUISITION in game.setup.battlegrounds:
        out.append(card(
            heading("The Inquisition: who wins?", 18),
            text("Count the face-up clan politics tokens of its two attributes (§H8.3).",
                 SMALL, color=MUTED),
            ft.Row([number_field("First attribute", c.get("inq_a", ""),
                                 lambda v: on_calc_change(app, "inq_a", v), "her-inq-a"),
                    number_field("Second attribute", c.get("inq_b", ""),
                                 lambda v: on_calc_change(app, "inq_b", v), "her-inq-b")],
                   spacing=6),
            button("Compare", lambda e: on_inquisition_click(app), primary=False,
                   ident_="her-inq-go"),
            *([text(c["inq"], 16, ident_="her-inq-result")] if c.get("inq") else [])))
    if SABBAT_WARS in game.setup.battlegrounds:
        n = len(game.setup.players)
        out.append(card(
            heading("Sabbat Wars: who wins?", 18),
            text(f"With {n} players deal these allegiances at random: "
                 f"{', '.join(sabbat_wars_allegiances(n))} (§H8.4).", 16,
                 ident_="her-sabbat-deal"),
            ft.Row([number_field("Camarilla regions", c.get("sab_cam", ""),
                                 lambda v: on_calc_change(app, "sab_cam", v), "her-sab-cam"),
                    number_field("Sabbat regions", c.get("sab_sab", ""),
                                 lambda v: on_calc_change(app, "sab_sab", v), "her-sab-sab")],
                   spacing=6),
            button("Who wins?", lambda e: on_sabbat_click(app, n), primary=False,
                   ident_="her-sab-go"),
            *([text(c["sab"], 16, ident_="her-sab-result")] if c.get("sab") else [])))
    return out


def _setup(game: HeritageGame) -> ft.Control:
    s = game.setup
    kind = "Chronicle chapter" if s.chronicle else "Basic game"
    return card(
        heading("In play", 18),
        text(", ".join(f"{p.name} ({p.clan})" for p in s.players), 16),
        text(f"Battlegrounds: {', '.join(s.battlegrounds)}", 16),
        text(f"Missions: {', '.join(s.missions) if s.missions else 'none'}", 16),
        text(f"{kind}: {s.rounds} rounds (§H3)", 16, color=MUTED), ident_="her-setup")


def pad_view(app: AppState, pad: PadGame) -> list[ft.Control]:
    """The pad of a stored game: rounds, result, draw, entries, helpers; or, for review,
    the result alone."""
    game = HeritageGame.model_validate(pad.doc)
    review = app.read_only or bool(app.draft(REVIEW).get(pad.header.game_id))
    body: list[ft.Control] = []
    if banner := unsaved_banner(app):
        body.append(banner)
    body.append(_rounds(app, pad, game, review))
    try:
        result: GameResult | None = score(game)
    except HeritageError as err:  # a draw that no longer fits: say it, keep the entries
        result = None
        body.append(error_box(f"The result cannot be worked out: {err}", "her-result-error"))
    if result is not None:
        body.append(_result(result))
        if result.needs_draw and not review:
            body.append(_draw(app, pad, result.needs_draw))
    if review:
        if not app.read_only:
            body.append(main(button("Edit the entries", lambda e: on_edit_click(
                app, pad.header.game_id), ident_="her-edit")))
    else:
        body.append(text("End-of-game pad: type each player's numbers (empty boxes count 0), "
                         "then Save. Each save can be undone.", 16, color=MUTED))
        body += [_player(app, pad, game, i) for i in range(len(game.setup.players))]
        body += _calculators(app, game)
        body.append(undo_row(app, pad, button("Save", lambda e: on_save_click(app, pad),
                                              expand=True, ident_="her-save")))
    body.append(_setup(game))
    names = ", ".join(game.setup.names)
    return frame(app, "Heritage", body, subtitle=names, place=pad.header.game_id)
