"""A stored Heritage game's score pad: the round count, the end-of-game entries of each player
(VP per battleground, the bloodline's vampires, missions claimed), the totals, ranks and
winner with every tie settled as §H5 says (the primogen draw entered when it is needed), and
small calculators for what is in play (the mission claimant, The War of the Princes, The
Inquisition, Sabbat Wars, the first player after a round on a morality board). Each confirmed
entry is one undoable save."""

from __future__ import annotations

from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.heritage.battlegrounds import (
    MissionVampire,
    first_player_after_round,
    inquisition,
    mission_claimant,
    sabbat_wars,
    sabbat_wars_allegiances,
    war_of_the_princes,
)
from companion.heritage.errors import HeritageError
from companion.heritage.models import (
    ARCHETYPES,
    BEAST_WITHIN,
    INQUISITION,
    RISE_OF_HUMANITY,
    SABBAT_WARS,
    WAR_OF_THE_PRINCES,
    HeritageGame,
    PrimogenDraw,
)
from companion.heritage.pad import GameResult, PlayerScore, next_round, score
from companion.library.pad import PadGame
from models.message import N_
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
ARCHETYPE_WORDS = {"warlike": N_("warlike"), "scholarly": N_("scholarly"),
                   "clandestine": N_("clandestine"), "wealthy": N_("wealthy")}
"""The archetypes as their buttons say them (translated where shown)."""
FIRST, SECOND = "the first attribute", "the second attribute"
"""The Inquisition calculator's two attributes (its names for them)."""


def _archetype(app: AppState, archetype: str) -> str:
    """An archetype in the device's language."""
    word = ARCHETYPE_WORDS.get(archetype)
    return app._(word) if word else archetype


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


def entries_from(app: AppState, game: HeritageGame, d: dict[str, Any]) -> list[dict[str, Any]]:
    """The end-of-game entries as typed.

    Raises:
        ValueError: a box holds no whole number (the message names the player and box).
    """
    out = []
    for name in game.setup.names:
        p = d["players"][name]
        vampires = []
        for j, v in enumerate(p["vampires"]):
            n = j + 1
            vampires.append({
                "name": v["name"].strip(),
                "power": whole(app, v["power"], app._("{name}, vampire {n}, power", name=name,
                                                      n=n)),
                "boons": whole(app, v["boons"], app._("{name}, vampire {n}, boons", name=name,
                                                      n=n)),
                "infamy": whole(app, v["infamy"], app._("{name}, vampire {n}, infamy",
                                                        name=name, n=n)),
                "torpor": v["torpor"], "clan_leader": v["leader"]})
        out.append({
            "player": name,
            "battleground_vp": {b: whole(app, p["vp"].get(b), app._(
                "{name}, {battleground} VP", name=name, battleground=b), least=None)
                for b in game.setup.battlegrounds},
            "bloodline": vampires,
            "missions_claimed": [m for m in game.setup.missions if m in p["missions"]],
            "mission_power": whole(app, p["mission_power"],
                                   app._("{name}, mission power", name=name)),
        })
    return out


def checked(app: AppState, doc: dict[str, Any]) -> tuple[HeritageGame, GameResult, list[str]]:
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
    return game, score(game), [app._("The primogen draw was taken off: the tie it settled is "
                                     "gone (§H6).")]


# --- handlers -----------------------------------------------------------------------------


def on_save_click(app: AppState, pad: PadGame) -> None:
    """Check every typed entry and save the pad (one undoable action)."""
    d = _draft(app, pad)
    game = HeritageGame.model_validate(pad.doc)
    try:
        new, result, lines = checked(app, {**pad.doc, "entries": entries_from(app, game, d)})
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
        return
    doc = new.model_dump(mode="json")
    if doc == pad.doc:
        app.error = None
        app.say([app._("Nothing to save: the pad already holds these entries.")])
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
        app.fail(app._("Not counted: {reason}", reason=str(err)))
        return
    if last and played >= rounds:
        app.fail(app.n_("Not counted: §H3: all {n} round is finished already.",
                        "Not counted: §H3: all {n} rounds are finished already.", rounds))
        return
    try:
        new, result, lines = checked(app, {**pad.doc, "rounds_played": n})
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not counted: {reason}", reason=refusal(app, err)))
        return
    said = app._("Round {n} of {total} finished.", n=n, total=rounds) if n < rounds else \
        app.n_("All {n} round finished: the game is over (§H3). {summary}",
               "All {n} rounds finished: the game is over (§H3). {summary}", rounds,
               summary=result.summary)
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
        app.fail(app._("Not saved: primogen draw: {names} declared no archetype yet (§H6).",
                       names=", ".join(missing)))
        return
    if d["drawn"] is None:
        app.fail(app._("Not saved: primogen draw: tap the archetype that came up first (§H6)."))
        return
    try:
        draw = PrimogenDraw(declared={p: d["declared"][p] for p in tied}, drawn=d["drawn"])
        doc = {**pad.doc, "primogen_draw": draw.model_dump(mode="json")}
        result = score(HeritageGame.model_validate(doc))
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
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
        first = whole(app, c.get("inq_a"), app._("Face-up tokens, first attribute"))
        second = whole(app, c.get("inq_b"), app._("Face-up tokens, second attribute"))
        out = inquisition({FIRST: first, SECOND: second}, {})
    except ValueError as err:
        c["inq"] = app._("Refused: {reason}", reason=str(err))
    else:
        winner = out.winners[0] if out.winners else None
        c["inq"] = app._("The first attribute wins: each of its vampires scores 1 VP "
                         "(§H8.3).") if winner == FIRST else \
            app._("The second attribute wins: each of its vampires scores 1 VP "
                  "(§H8.3).") if winner == SECOND else \
            app._("Equal counts: nobody wins The Inquisition (§H8.3).")
    app.render()


def on_sabbat_click(app: AppState, players: int) -> None:
    """Sabbat Wars: Camarilla or Sabbat with 3+ regions, else the Anarchs; 9 VP (§H8.4)."""
    c = app.draft("heritage-calc")
    try:
        pool = sabbat_wars_allegiances(players)
        out = sabbat_wars({str(i): a for i, a in enumerate(pool)},
                          whole(app, c.get("sab_cam"), app._("Regions held by the Camarilla")),
                          whole(app, c.get("sab_sab"), app._("Regions held by the Sabbat")))
    except ValueError as err:
        c["sab"] = app._("Refused: {reason}", reason=str(err))
    else:
        winner = out.winners[0]
        c["sab"] = app._("{winner} wins: each player holding {winner} scores 9 VP (§H8.4).",
                         winner=winner) if winner in pool else \
            app.n_("{winner} wins, and nobody holds {winner} with {n} player: nobody scores "
                   "here (§H8.4).",
                   "{winner} wins, and nobody holds {winner} with {n} players: nobody scores "
                   "here (§H8.4).", players, winner=winner)
    app.render()


def on_calc_pick(app: AppState, key: str, value: str | None) -> None:
    """A choice in a calculator (the central space's faction, who holds the marker)."""
    app.draft("heritage-calc")[key] = value
    app.render()


def on_claimant_click(app: AppState, names: list[str]) -> None:
    """Who claims a mission: most symbols outside torpor, then the clan leader twice, then
    the primogen draw (§H7)."""
    c = app.draft("heritage-calc")
    try:
        bloodlines = {}
        for i, name in enumerate(names):
            total = whole(app, c.get(f"mis_{i}"), app._("{name}, symbols", name=name))
            leader = whole(app, c.get(f"mis_{i}_lead"),
                            app._("{name}, clan leader's symbols", name=name))
            if leader > total:
                raise ValueError(app._("{name}: the clan leader's {leader} symbols are part of "
                                       "the {total} counted; enter at most {total}.",
                                       name=name, leader=leader, total=total))
            bloodlines[name] = [MissionVampire(symbols=total - leader),
                                MissionVampire(symbols=leader, clan_leader=True)]
        out = mission_claimant(bloodlines)
    except (ValidationError, ValueError) as err:
        c["mis"] = app._("Refused: {reason}", reason=refusal(app, err))
    else:
        c["mis"] = app._("Nobody shows the symbol: nobody claims the mission (§H7).") \
            if out.decided_by == "nobody" else \
            app._("{name} claims the mission: the most symbols (§H7).", name=out.claimant) \
            if out.decided_by == "most" else \
            app._("{name} claims the mission: tied, and the clan leader counted twice "
                  "settles it (§H7).", name=out.claimant) \
            if out.decided_by == "clan_leader_twice" else \
            app._("Still tied with the clan leader counted twice: {names} make the primogen "
                  "draw (§H7, §H6).", names=", ".join(out.needs_draw))
    app.render()


def on_faction_add(app: AppState) -> None:
    """One more faction on The War of the Princes."""
    c = app.draft("heritage-calc")
    c["wop_n"] = c.get("wop_n", 2) + 1
    app.render()


def on_princes_click(app: AppState) -> None:
    """The War of the Princes: most courts, the central space worth two; ties share (§H8.2)."""
    c = app.draft("heritage-calc")
    try:
        courts = {str(k + 1): whole(app, c.get(f"wop_{k}"),
                                    app._("Courts of faction {n}", n=k + 1))
                  for k in range(c.get("wop_n", 2))}
        out = war_of_the_princes(courts, c.get("wop_central"), {})
    except ValueError as err:
        c["wop"] = app._("Refused: {reason}", reason=refusal(app, err))
    else:
        said = ", ".join(out.winners)
        c["wop"] = app._("No faction holds a court: nobody wins (§H8.2).") \
            if not out.winners else \
            app._("Faction {n} wins: each vampire of its attribute scores 2 VP (§H8.2).",
                  n=said) if len(out.winners) == 1 else \
            app._("Shared victory of factions {names}: each vampire of their attributes "
                  "scores 2 VP (§H8.2).", names=said)
    app.render()


def on_first_player_click(app: AppState, ground: str, slug: str, names: list[str]) -> None:
    """The first player after a round on a morality board; a tie moves nothing (§H9)."""
    c = app.draft("heritage-calc")
    try:
        current = c.get(f"{slug}_cur")
        if current not in names:
            raise ValueError(app._("Tap who holds the first player marker now."))
        positions = {name: whole(app, c.get(f"{slug}_{i}"),
                                 app._("{name}, space", name=name), least=None)
                     for i, name in enumerate(names)}
        out = first_player_after_round(ground, positions, current)
    except ValueError as err:
        c[slug] = app._("Refused: {reason}", reason=refusal(app, err))
    else:
        c[slug] = app._("{name} takes the first player marker (§H9).",
                        name=out.first_player) if out.moved else \
            app._("The marker stays with {name} (§H9).", name=out.first_player)
    app.render()


# --- drawing ------------------------------------------------------------------------------


def _rounds(app: AppState, pad: PadGame, game: HeritageGame, review: bool) -> ft.Control:
    total = game.setup.rounds
    played = total if game.rounds_played is None else game.rounds_played
    over = played >= total
    said = app.n_("All {n} round finished: the game is over (§H3).",
                  "All {n} rounds finished: the game is over (§H3).", total) if over else \
        app._("Rounds finished: {played} of {total}.", played=played, total=total) if played \
        else app._("Rounds finished: 0 of {total} (none yet).", total=total)
    parts: list[ft.Control] = [text(said, 18, bold=True, ident_="her-rounds")]
    if not review and not over:
        buttons = [button(app._("Round {n} done", n=played + 1),
                          lambda e: on_round_click(app, pad, False),
                          primary=False, expand=True, ident_="her-round-plus")]
        if played + 1 < total:
            buttons.append(button(app._("Last round done"),
                                  lambda e: on_round_click(app, pad, True),
                                  primary=False, expand=True, ident_="her-round-last"))
        parts.append(ft.Row(buttons, spacing=6))
    return card(*parts)


def _breakdown(app: AppState, s: PlayerScore) -> str:
    """Where a total comes from (the terms that are not 0)."""
    parts = [app._("{n} from battlegrounds", n=s.battlegrounds)]
    if s.power:
        parts.append(app._("+{n} power", n=s.power))
    if s.boons:
        parts.append(app._("+{n} boons", n=s.boons))
    if s.infamy:
        parts.append(app._("-{n} infamy", n=s.infamy))
    if s.mission_power:
        parts.append(app._("+{n} mission power", n=s.mission_power))
    said = ", ".join(parts)
    if s.in_torpor:
        return app._("{breakdown}; {n} in torpor (0 VP)", breakdown=said, n=s.in_torpor)
    return said


def outcome_words(app: AppState, result: GameResult) -> str:
    """The result's headline: who wins, or what still decides it."""
    if result.winner and result.finished:
        return app._("{name} wins", name=result.winner)
    if result.needs_draw:
        return app._("Tied: the primogen draw decides")
    return app._("Not over yet: totals so far")


def _result(app: AppState, result: GameResult) -> ft.Control:
    rows: list[ft.Control] = [
        text(outcome_words(app, result), 24, bold=True, color=GOLD, ident_="her-outcome"),
        text(result.summary, 16, color=MUTED, ident_="her-summary"),
    ]
    for k, s in enumerate(result.scores):
        rows.append(ident(f"her-rank-{k}", ft.Column([
            text(app.n_("{rank}. {player} ({clan}): {total} VP, {n} mission claimed",
                        "{rank}. {player} ({clan}): {total} VP, {n} missions claimed",
                        s.missions_claimed, rank=s.rank, player=s.player, clan=s.clan,
                        total=s.total), 17, bold=True),
            text(_breakdown(app, s), SMALL, color=MUTED)], spacing=0)))
    if result.vanquished:
        rows.append(text(app._("Vanquished: {names}", names=result.vanquished), 16,
                         color=MUTED))
    return card(heading(app._("Result"), 19), *rows, ident_="her-result")


def _draw(app: AppState, pad: PadGame, tied: list[str]) -> ft.Control:
    d = _draft(app, pad)
    rows: list[ft.Control] = [
        heading(app._("Primogen draw"), 19),
        text(app._("Each tied player declares a different archetype; the character deck is "
                   "turned over until a declared one shows (§H6). Enter what happened."), 16,
             color=MUTED),
    ]
    for i, player in enumerate(tied):
        rows += [text(app._("{name} declared", name=player), 16, bold=True),
                 wrap(*[button(_archetype(app, a),
                               lambda e, p=player, a=a: on_declare_pick(app, pad, p, a),
                               primary=False, selected=d["declared"].get(player) == a,
                               ident_=f"her-declare-{i}-{a}") for a in ARCHETYPES], spacing=6)]
    rows += [text(app._("Came up first"), 16, bold=True),
             wrap(*[button(_archetype(app, a), lambda e, a=a: on_drawn_pick(app, pad, a),
                           primary=False, selected=d["drawn"] == a, ident_=f"her-drawn-{a}")
                    for a in ARCHETYPES], spacing=6),
             button(app._("Save the draw"), lambda e: on_draw_save(app, pad, tied),
                    ident_="her-draw-save")]
    return card(*rows, color="#241012", ident_="her-draw")


def _vampire(app: AppState, pad: PadGame, player: str, i: int, j: int,
             v: dict[str, Any]) -> ft.Control:
    pre = f"her-{i}-v{j}"

    def change(key: str):
        return lambda value: on_vampire_change(app, pad, player, j, key, value)

    name = field(app._("Vampire {n} (name optional)", n=j + 1), v["name"], change("name"),
                 ident_=f"{pre}-name", expand=True)
    remove = ident(f"{pre}-remove", ft.IconButton(
        icon=ft.Icons.CLOSE, tooltip=app._("Remove vampire {n}", n=j + 1), width=48,
        height=48, on_click=lambda e: on_vampire_remove(app, pad, player, j)))
    numbers = ft.Row([number_field(label, v[key], change(key), f"{pre}-{key}")
                      for key, label in (("power", app._("Power")), ("boons", app._("Boons")),
                                         ("infamy", app._("Infamy")))], spacing=6)
    switches = ft.Row([
        button(app._("In torpor"), lambda e: on_vampire_change(app, pad, player, j, "torpor",
                                                               not v["torpor"], True),
               primary=False, selected=v["torpor"], expand=True, ident_=f"{pre}-torpor"),
        button(app._("Clan leader"), lambda e: on_vampire_change(app, pad, player, j, "leader",
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
        text(app._("VP from each battleground (may be negative):"), SMALL, color=MUTED),
        *[number_field(app._("{battleground} VP", battleground=b), p["vp"].get(b, ""),
                       lambda v, b=b: on_vp_change(app, pad, seat.name, b, v),
                       f"her-{i}-vp-{k}", signed=True)
          for k, b in enumerate(game.setup.battlegrounds)],
        text(app._("Bloodline: +1 VP per power and boon, -1 per infamy; a vampire in torpor "
                   "counts nothing (§H4)."), SMALL, color=MUTED),
        *[_vampire(app, pad, seat.name, i, j, v) for j, v in enumerate(p["vampires"])],
        button(app._("Add a vampire"), lambda e: on_vampire_add(app, pad, seat.name),
               primary=False, icon=ft.Icons.ADD, ident_=f"her-{i}-add-vampire"),
    ]
    if game.setup.missions:
        rows += [text(app._("Missions claimed (fewer wins a tie on VP, §H5):"), SMALL,
                      color=MUTED),
                 wrap(*[button(m, lambda e, m=m: on_mission_toggle(app, pad, seat.name, m),
                               primary=False, selected=m in p["missions"],
                               ident_=f"her-{i}-mission-{k}")
                        for k, m in enumerate(game.setup.missions)], spacing=6)]
        if not game.setup.chronicle:
            rows.append(number_field(app._("Power from claimed missions"), p["mission_power"],
                                     lambda v: on_mission_power_change(app, pad, seat.name, v),
                                     f"her-{i}-mission-power"))
    return card(*rows, ident_=f"her-player-{i}")


def _result_line(c: dict[str, Any], key: str, identifier: str) -> list[ft.Control]:
    """A calculator's answer, once asked."""
    return [text(c[key], 16, ident_=identifier)] if c.get(key) else []


def _claimant(app: AppState, game: HeritageGame) -> ft.Control:
    """Who claims a mission (§H7): each player's symbols outside torpor, and how many of
    them the clan leader shows."""
    c = app.draft("heritage-calc")
    names = game.setup.names
    rows: list[ft.Control] = [
        heading(app._("Who claims a mission?"), 18),
        text(app._("For one mission: each player's symbols outside torpor, and how many of "
                   "them their clan leader shows (§H7)."), SMALL, color=MUTED)]
    for i, name in enumerate(names):
        rows.append(ft.Row([
            number_field(app._("{name}: symbols", name=name), c.get(f"mis_{i}", ""),
                         lambda v, i=i: on_calc_change(app, f"mis_{i}", v), f"her-mis-{i}"),
            number_field(app._("of them, clan leader"), c.get(f"mis_{i}_lead", ""),
                         lambda v, i=i: on_calc_change(app, f"mis_{i}_lead", v),
                         f"her-mis-{i}-lead")], spacing=6))
    rows += [button(app._("Who claims it?"), lambda e: on_claimant_click(app, names),
                    primary=False, ident_="her-mis-go"), *_result_line(c, "mis", "her-mis-result")]
    return card(*rows)


def _princes(app: AppState) -> ft.Control:
    """The War of the Princes (§H8.2): courts per faction, the central space worth two."""
    c = app.draft("heritage-calc")
    n = c.get("wop_n", 2)
    central = c.get("wop_central")
    return card(
        heading(app._("The War of the Princes: who wins?"), 18),
        text(app._("Courts each faction holds, the central space apart: it counts two "
                   "(§H8.2)."), SMALL, color=MUTED),
        wrap(*[ft.Container(number_field(app._("Faction {n}", n=k + 1), c.get(f"wop_{k}", ""),
                                         lambda v, k=k: on_calc_change(app, f"wop_{k}", v),
                                         f"her-wop-{k}"), width=110) for k in range(n)],
             button(app._("Add a faction"), lambda e: on_faction_add(app), primary=False,
                    icon=ft.Icons.ADD, ident_="her-wop-add"), spacing=6),
        text(app._("Central space held by"), SMALL, color=MUTED),
        wrap(button(app._("Nobody"), lambda e: on_calc_pick(app, "wop_central", None),
                    primary=False, selected=central is None, ident_="her-wop-central-none"),
             *[button(app._("Faction {n}", n=k + 1),
                      lambda e, k=k: on_calc_pick(app, "wop_central", str(k + 1)),
                      primary=False, selected=central == str(k + 1),
                      ident_=f"her-wop-central-{k}") for k in range(n)], spacing=6),
        button(app._("Who wins?"), lambda e: on_princes_click(app), primary=False,
               ident_="her-wop-go"), *_result_line(c, "wop", "her-wop-result"))


def _first_player(app: AppState, game: HeritageGame, ground: str, slug: str) -> ft.Control:
    """The first player after a round on a morality board (§H9)."""
    c = app.draft("heritage-calc")
    names = game.setup.names
    rule = app._("Highest token takes the first player marker; a tie moves nothing (§H9).") \
        if ground == BEAST_WITHIN else \
        app._("Lowest token takes the first player marker; a tie moves nothing (§H9).")
    return card(
        heading(app._("{battleground}: first player next round", battleground=ground), 18),
        text(rule, SMALL, color=MUTED),
        wrap(*[ft.Container(number_field(app._("{name}: space", name=name),
                                         c.get(f"{slug}_{i}", ""),
                                         lambda v, i=i: on_calc_change(app, f"{slug}_{i}", v),
                                         f"her-{slug}-{i}", signed=True), width=150)
               for i, name in enumerate(names)], spacing=6),
        text(app._("Holds the marker now"), SMALL, color=MUTED),
        wrap(*[button(name, lambda e, name=name: on_calc_pick(app, f"{slug}_cur", name),
                      primary=False, selected=c.get(f"{slug}_cur") == name,
                      ident_=f"her-{slug}-cur-{i}") for i, name in enumerate(names)],
             spacing=6),
        button(app._("Who starts?"), lambda e: on_first_player_click(app, ground, slug, names),
               primary=False, ident_=f"her-{slug}-go"),
        *_result_line(c, slug, f"her-{slug}-result"))


def _calculators(app: AppState, game: HeritageGame) -> list[ft.Control]:
    """The helpers for what is in play: the mission claimant (missions in play), The War of
    the Princes, The Inquisition, Sabbat Wars and the morality boards' first player."""
    c = app.draft("heritage-calc")
    out: list[ft.Control] = []
    grounds = game.setup.battlegrounds
    if game.setup.missions:
        out.append(_claimant(app, game))
    if WAR_OF_THE_PRINCES in grounds:
        out.append(_princes(app))
    for ground, slug in ((BEAST_WITHIN, "beast"), (RISE_OF_HUMANITY, "rise")):
        if ground in grounds:
            out.append(_first_player(app, game, ground, slug))
    if INQUISITION in game.setup.battlegrounds:
        out.append(card(
            heading(app._("The Inquisition: who wins?"), 18),
            text(app._("Count the face-up clan politics tokens of its two attributes (§H8.3)."),
                 SMALL, color=MUTED),
            ft.Row([number_field(app._("First attribute"), c.get("inq_a", ""),
                                 lambda v: on_calc_change(app, "inq_a", v), "her-inq-a"),
                    number_field(app._("Second attribute"), c.get("inq_b", ""),
                                 lambda v: on_calc_change(app, "inq_b", v), "her-inq-b")],
                   spacing=6),
            button(app._("Compare"), lambda e: on_inquisition_click(app), primary=False,
                   ident_="her-inq-go"),
            *([text(c["inq"], 16, ident_="her-inq-result")] if c.get("inq") else [])))
    if SABBAT_WARS in game.setup.battlegrounds:
        n = len(game.setup.players)
        out.append(card(
            heading(app._("Sabbat Wars: who wins?"), 18),
            text(app.n_("With {n} player deal these allegiances at random: {allegiances} "
                        "(§H8.4).",
                        "With {n} players deal these allegiances at random: {allegiances} "
                        "(§H8.4).", n, allegiances=", ".join(sabbat_wars_allegiances(n))), 16,
                 ident_="her-sabbat-deal"),
            ft.Row([number_field(app._("Camarilla regions"), c.get("sab_cam", ""),
                                 lambda v: on_calc_change(app, "sab_cam", v), "her-sab-cam"),
                    number_field(app._("Sabbat regions"), c.get("sab_sab", ""),
                                 lambda v: on_calc_change(app, "sab_sab", v), "her-sab-sab")],
                   spacing=6),
            button(app._("Who wins?"), lambda e: on_sabbat_click(app, n), primary=False,
                   ident_="her-sab-go"),
            *([text(c["sab"], 16, ident_="her-sab-result")] if c.get("sab") else [])))
    return out


def _setup(app: AppState, game: HeritageGame) -> ft.Control:
    s = game.setup
    kind = app.n_("Chronicle chapter: {n} round (§H3)", "Chronicle chapter: {n} rounds (§H3)",
                  s.rounds) if s.chronicle else \
        app.n_("Basic game: {n} round (§H3)", "Basic game: {n} rounds (§H3)", s.rounds)
    return card(
        heading(app._("In play"), 18),
        text(", ".join(f"{p.name} ({p.clan})" for p in s.players), 16),
        text(app._("Battlegrounds: {names}", names=", ".join(s.battlegrounds)), 16),
        text(app._("Missions: {names}", names=", ".join(s.missions)) if s.missions else
             app._("Missions: none"), 16),
        text(kind, 16, color=MUTED), ident_="her-setup")


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
        body.append(error_box(app._("The result cannot be worked out: {reason}",
                                    reason=str(err)), "her-result-error"))
    if result is not None:
        body.append(_result(app, result))
        if result.needs_draw and not review:
            body.append(_draw(app, pad, result.needs_draw))
    if review:
        if not app.read_only:
            body.append(main(button(app._("Edit the entries"), lambda e: on_edit_click(
                app, pad.header.game_id), ident_="her-edit")))
    else:
        body.append(text(app._("End-of-game pad: type each player's numbers (empty boxes count "
                               "0), then Save. Each save can be undone."), 16, color=MUTED))
        body += [_player(app, pad, game, i) for i in range(len(game.setup.players))]
        body += _calculators(app, game)
        body.append(undo_row(app, pad, button(app._("Save"), lambda e: on_save_click(app, pad),
                                              expand=True, ident_="her-save")))
    body.append(_setup(app, game))
    names = ", ".join(game.setup.names)
    return frame(app, app._("Heritage"), body, subtitle=names, place=pad.header.game_id)
