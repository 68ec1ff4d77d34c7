"""A Heritage chronicle ledger (§H10–§H14): the founding players, chapters 1–21 in 7 eras with
the era ends flagged, each chapter's seats, victor and vanquished, the next chapter's first
player and clan-pick order, obligations, drop-in free dots, havens, titles, each chapter's
aftermath checklist and the era standings. Values the seed does not give (era points, the
era tie-breaker) are entries. Kept as a pad (`views.pads`): each confirmed entry is one
undoable save, and a refusal is shown in plain words with its § and saves nothing."""

from __future__ import annotations

from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.heritage.errors import HeritageError
from companion.heritage.ledger import (
    aftermath_checklist,
    chapter_from_game,
    era_chapters,
    era_of,
    era_standing,
    free_dots,
    havens,
    is_era_end,
    next_chapter_order,
    obligations,
    titles,
)
from companion.heritage.models import (
    AFTERMATH_STEPS,
    CHAPTERS,
    CLANS,
    ERAS,
    ROUNDS,
    ChapterRecord,
    ChronicleLedger,
    EraRecord,
)
from companion.library.pad import PadGame
from companion.library.pad_kinds import CHRONICLE, chronicle
from models.message import N_
from views.choice import chips
from views.frame import frame
from views.pads import (
    number_field,
    open_pad,
    pad_session,
    problem_view,
    refusal,
    save,
    undo_row,
    unsaved_banner,
    whole,
)
from views.state import AppState
from views.table_actions import SAVE_ERRORS, save_problem
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

NEW = "chronicle-new"
"""The draft of the new-ledger form."""
REVIEW = "chronicle-review"
"""Draft: the ledger ids shown for review (no inputs); Home sets it as `<kind>-review`."""
MOST_PLAYERS = max(ROUNDS)
STEP_WORDS = {
    "prepare": N_("Before the aftermath: clear the boards, take the vampires in torpor out of "
                  "the bloodlines, and take chronicle cards up to the next chapter overview"),
    "record": N_("Write each player's name and clan in the chronicle booklet (era points)"),
    "resolution": N_("Chapter resolution: the victor's and the vanquished's outcomes; write "
                     "any new title on the player sheet"),
    "plotting": N_("Plotting: unlock clan schemes from the research deck, for the clan played"),
    "missions": N_("Claim the chronicle missions, choose each response and take the rewards"),
    "obligations": N_("Obligations: the victor adds 1 at random, every other player removes 1"),
    "stickers": N_("Each player may apply one ability sticker to a vampire with a free slot"),
    "retain": N_("Each player may retain one vampire in their haven"),
    "new_characters": N_("Add the newly revealed characters to the character deck"),
    "era_end": N_("Era end: the dominating player draws one card and adds its dots to the "
                  "chronicle scoresheet"),
}
"""The aftermath steps as the checklist says them (`ledger.AFTERMATH_LABELS`, translated)."""


# --- the new-ledger form ------------------------------------------------------------------


def _new_draft(app: AppState) -> dict[str, Any]:
    d = app.draft(NEW)
    d.setdefault("names", ["", ""])
    return d


def on_founder_change(app: AppState, i: int, value: str) -> None:
    """A founding player's name was typed."""
    _new_draft(app)["names"][i] = value


def on_founder_add(app: AppState) -> None:
    """One more founding player (at most 4, §H2)."""
    d = _new_draft(app)
    if len(d["names"]) < MOST_PLAYERS:
        d["names"].append("")
    app.render()


def on_founder_remove(app: AppState, i: int) -> None:
    """Remove a founding player's row."""
    d = _new_draft(app)
    if len(d["names"]) > 2:
        del d["names"][i]
    app.render()


def on_start_click(app: AppState) -> None:
    """Store the new ledger and open it."""
    names = [n.strip() for n in _new_draft(app)["names"] if n.strip()]
    try:
        ledger = ChronicleLedger(youngest_to_oldest=names)
        pad = pad_session(app).new_pad(chronicle(), ledger.model_dump(mode="json"))
    except SAVE_ERRORS as err:
        app.fail(app._("Not started, nothing stored: {problem}", problem=save_problem(err)))
        return
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not started: {reason}", reason=refusal(app, err)))
        return
    app.drafts.pop(NEW, None)
    app.error = None
    app.say([app._("Chronicle ledger stored: {names}, youngest to oldest.",
                   names=", ".join(names))])
    app.go(CHRONICLE, pad.header.game_id)


def new_view(app: AppState) -> list[ft.Control]:
    """The founding players, youngest to oldest."""
    d = _new_draft(app)
    n = len(d["names"])
    rows: list[ft.Control] = [
        heading(app._("Founding players"), 20),
        text(app._("2 to 4 players (§H2), from the youngest to the oldest: in chapter 1 the "
                   "youngest picks a clan first and the oldest starts (§H10)."), 16,
             color=MUTED),
    ]
    for i, name in enumerate(d["names"]):
        row: list[ft.Control] = [field(app._("Player {n}", n=i + 1), name,
                                       lambda v, i=i: on_founder_change(app, i, v),
                                       ident_=f"led-name-{i}", expand=True)]
        if n > 2:
            row.append(ident(f"led-remove-{i}", ft.IconButton(
                icon=ft.Icons.CLOSE, tooltip=app._("Remove player {n}", n=i + 1), width=48,
                height=48, on_click=lambda e, i=i: on_founder_remove(app, i))))
        rows.append(ft.Row(row, spacing=4))
    if n < MOST_PLAYERS:
        rows.append(button(app._("Add a player"), lambda e: on_founder_add(app), primary=False,
                           icon=ft.Icons.ADD, ident_="led-add-player"))
    body = [card(*rows), main(button(app._("Start the ledger"), lambda e: on_start_click(app),
                                     ident_="led-start"))]
    return frame(app, app._("New chronicle ledger"), body,
                 subtitle=app._("Heritage: 21 chapters in 7 eras"))


# --- the draft of a stored ledger ---------------------------------------------------------


def _seat(player: str = "", clan: str = "") -> dict[str, Any]:
    return {"player": player, "clan": clan, "vp": "", "missions": "", "titles": "",
            "haven": "", "era": ""}


def _draft(app: AppState, pad: PadGame, ledger: ChronicleLedger) -> dict[str, Any]:
    """The chapter being entered and the era points typed: made again whenever the saved
    ledger changes (a save, an undo, a redo)."""
    d = app.draft(f"chronicle-{pad.header.game_id}")
    if d.get("base") != len(ledger.chapters):  # a chapter saved or undone: a new form
        d["base"] = len(ledger.chapters)
        last = ledger.chapters[-1].players if ledger.chapters else ledger.youngest_to_oldest
        d["seats"] = [_seat(p) for p in last]
        d["open"] = ledger.chapters[-1].chapter if ledger.chapters else None
    if d.get("doc") != pad.doc:  # era points typed are made again from what is saved
        d["doc"] = pad.doc
        d["era_points"] = {}
    return d


def _ledger(pad: PadGame) -> ChronicleLedger:
    return ChronicleLedger.model_validate(pad.doc)


def _numbers(value: str) -> str:
    """A number as its box shows it."""
    return "" if value in (None, 0) else str(value)


# --- handlers -----------------------------------------------------------------------------


def on_seat_change(app: AppState, pad: PadGame, i: int, key: str, value: str,
                   redraw: bool = False) -> None:
    """A seat's value was typed (or its clan picked)."""
    _draft(app, pad, _ledger(pad))["seats"][i][key] = value
    if redraw:
        app.render()


def on_seat_add(app: AppState, pad: PadGame) -> None:
    """One more player in the chapter (at most 4, §H2)."""
    seats = _draft(app, pad, _ledger(pad))["seats"]
    if len(seats) < MOST_PLAYERS:
        seats.append(_seat())
    app.render()


def on_seat_remove(app: AppState, pad: PadGame, i: int) -> None:
    """Take a player out of the chapter being entered."""
    seats = _draft(app, pad, _ledger(pad))["seats"]
    if len(seats) > 1:
        del seats[i]
    app.render()


def _era_points(app: AppState, typed: str, what: str) -> int | None:
    """Era points as typed: empty is not entered yet (None)."""
    return None if not str(typed or "").strip() else whole(app, typed, what, least=None)


def chapter_from_draft(app: AppState, ledger: ChronicleLedger,
                       d: dict[str, Any]) -> ChapterRecord:
    """The chapter as typed; its outcome follows VP, then fewer claimed missions, and players
    equal on both stay in the order entered (§H10).

    Raises:
        ValueError, ValidationError: a box holds no whole number, a clan is not chosen, or
            the chapter breaks a rule (HeritageError inside, naming its §).
    """
    chapter = len(ledger.chapters) + 1
    seats = []
    for i, s in enumerate(d["seats"]):
        name = s["player"].strip()
        if not name:
            raise ValueError(app._("Chapter {chapter}, player {n}: type the name.",
                                   chapter=chapter, n=i + 1))
        if not s["clan"]:
            raise ValueError(app._("Chapter {chapter}, {name}: tap the clan played (§H2).",
                                   chapter=chapter, name=name))
        seats.append({
            "player": s["player"].strip(), "clan": s["clan"],
            "vp": whole(app, s["vp"], app._("{name}, VP", name=name), least=None),
            "missions_claimed": whole(app, s["missions"],
                                      app._("{name}, missions claimed", name=name)),
            "era_points": _era_points(app, s["era"], app._("{name}, era points", name=name)),
            "titles": [t.strip() for t in s["titles"].split(",") if t.strip()],
            "haven": s["haven"].strip() or None,
        })
    order = sorted(range(len(seats)),
                   key=lambda k: (-seats[k]["vp"], seats[k]["missions_claimed"], k))
    return ChapterRecord(chapter=chapter, seats=seats,
                         placings=[seats[k]["player"] for k in order])


def on_chapter_save(app: AppState, pad: PadGame) -> None:
    """Check the chapter as typed and add it to the ledger (one undoable save)."""
    ledger = _ledger(pad)
    if len(ledger.chapters) >= CHAPTERS:
        app.fail(app._("Not saved: §H10: all 21 chapters are recorded."))
        return
    d = _draft(app, pad, ledger)
    try:
        record = chapter_from_draft(app, ledger, d)
        new = ChronicleLedger.model_validate(
            {**pad.doc, "chapters": [*pad.doc["chapters"], record.model_dump(mode="json")]})
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
        return
    lines = [app._("Chapter {n}: {victor} is the victor, {vanquished} the vanquished.",
                   n=record.chapter, victor=record.victor, vanquished=record.vanquished)]
    if is_era_end(record.chapter):
        lines.append(app._("It ends era {era}: its aftermath has the era step (§H11).",
                           era=era_of(record.chapter)))
    save(app, new.model_dump(mode="json"), lines)


def on_fill_click(app: AppState, pad: PadGame, game_id: str) -> None:
    """Fill the chapter being entered from a finished Heritage chronicle pad (§H10)."""
    from companion.heritage.models import HeritageGame
    from companion.heritage.pad import score
    from companion.library.games import load_game

    ledger = _ledger(pad)
    try:
        stored = load_game(app.library.store, game_id)
        game = HeritageGame.model_validate(stored.doc)  # type: ignore[union-attr]
        record = chapter_from_game(len(ledger.chapters) + 1, game, score(game))
    except (ValidationError, ValueError, KeyError, OSError) as err:
        app.fail(app._("Not filled in: {reason}", reason=refusal(app, err)))
        return
    d = _draft(app, pad, ledger)
    d["seats"] = [{**_seat(s.player, s.clan), "vp": str(s.vp),
                   "missions": _numbers(s.missions_claimed)}
                  for p in record.placings for s in record.seats if s.player == p]
    app.error = None
    app.say([app._("Filled in from the Heritage pad: add titles, havens and era points, "
                   "then save the chapter.")])
    app.render()


def on_chapter_open(app: AppState, pad: PadGame, chapter: int) -> None:
    """Show a recorded chapter's seats and aftermath."""
    _draft(app, pad, _ledger(pad))["open"] = chapter
    app.render()


def _replace_chapter(pad: PadGame, record: ChapterRecord) -> dict[str, Any]:
    chapters = list(pad.doc["chapters"])
    chapters[record.chapter - 1] = record.model_dump(mode="json")
    return {**pad.doc, "chapters": chapters}


def on_step_toggle(app: AppState, pad: PadGame, chapter: int, step: str) -> None:
    """Tick an aftermath step as done, or untick it (one undoable save, §H11)."""
    ledger = _ledger(pad)
    record = ledger.chapters[chapter - 1]
    done = set(record.aftermath_done) ^ {step}
    try:
        new = ChapterRecord.model_validate({**record.model_dump(mode="json"), "aftermath_done":
                                            [s for s in AFTERMATH_STEPS if s in done]})
        doc = ChronicleLedger.model_validate(_replace_chapter(pad, new)).model_dump(mode="json")
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
        return
    save(app, doc, [app._("Chapter {n}: aftermath step ticked.", n=chapter) if step in done
                    else app._("Chapter {n}: aftermath step unticked.", n=chapter)])


def on_era_points_change(app: AppState, pad: PadGame, chapter: int, player: str,
                         value: str) -> None:
    """Era points typed for a recorded chapter."""
    d = _draft(app, pad, _ledger(pad))
    d["era_points"].setdefault(chapter, {})[player] = value


def on_era_points_save(app: AppState, pad: PadGame, chapter: int) -> None:
    """Save the era points the booklet gave a recorded chapter (entries, §H14)."""
    ledger = _ledger(pad)
    record = ledger.chapters[chapter - 1]
    typed = _draft(app, pad, ledger)["era_points"].get(chapter, {})
    try:
        seats = [{**s.model_dump(mode="json"), "era_points": _era_points(
            app, typed.get(s.player, "" if s.era_points is None else str(s.era_points)),
            app._("{name}, era points", name=s.player))} for s in record.seats]
        new = ChapterRecord.model_validate({**record.model_dump(mode="json"), "seats": seats})
        doc = ChronicleLedger.model_validate(_replace_chapter(pad, new)).model_dump(mode="json")
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
        return
    if doc == pad.doc:
        app.error = None
        app.say([app._("Nothing to save: the ledger already holds these era points.")])
        app.render()
        return
    save(app, doc, [app._("Chapter {n}: era points saved.", n=chapter)])


def on_dominated_pick(app: AppState, pad: PadGame, era: int, player: str) -> None:
    """The era's dominating player as the booklet's tie-breaker settled it (§H14)."""
    ledger = _ledger(pad)
    eras = [e.model_dump(mode="json") for e in ledger.eras if e.era != era]
    try:
        entry = EraRecord(era=era, dominated_by=player)
        new = ChronicleLedger.model_validate(
            {**pad.doc, "eras": sorted([*eras, entry.model_dump(mode="json")],
                                       key=lambda e: e["era"])})
        era_standing(new, era)
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
        return
    save(app, new.model_dump(mode="json"),
         [app._("{name} dominates era {era} (§H14).", name=player, era=era)])


def on_edit_click(app: AppState, game_id: str) -> None:
    """Leave the review: show the ledger's inputs."""
    app.draft(REVIEW).pop(game_id, None)
    app.render()


# --- drawing ------------------------------------------------------------------------------


def _players(app: AppState, ledger: ChronicleLedger) -> ft.Control:
    """Each player: obligations, haven, titles (youngest to oldest, then drop-ins)."""
    held, kept, gained = obligations(ledger), havens(ledger), titles(ledger)
    rows: list[ft.Control] = [
        heading(app._("Players"), 19),
        text(app._("Youngest to oldest: {names}", names=", ".join(ledger.youngest_to_oldest)),
             16, color=MUTED, ident_="led-founders"),
    ]
    for i, player in enumerate(gained):
        parts = [app.n_("{n} obligation", "{n} obligations", held.get(player, 0))]
        parts.append(app._("haven: {name}", name=kept[player]) if kept.get(player)
                     else app._("haven empty"))
        if gained[player]:
            parts.append(app.n_("{n} title ({names})", "{n} titles ({names})",
                                len(gained[player]), names=", ".join(gained[player])))
        rows.append(ident(f"led-player-{i}", ft.Column([
            text(player, 17, bold=True),
            text("; ".join(parts), SMALL, color=MUTED, ident_=f"led-player-{i}-facts")],
            spacing=0)))
    rows.append(text(app._("Obligations: the victor adds 1, the chapter's other players remove "
                           "1, never below 0 (§H12). Each title scores 1 at the chronicle's "
                           "end (§H13)."), SMALL, color=MUTED))
    return card(*rows, ident_="led-players")


def _next(app: AppState, ledger: ChronicleLedger, d: dict[str, Any]) -> ft.Control:
    """The next chapter: its era, first player and clan-pick order (§H10)."""
    chapter = len(ledger.chapters) + 1
    if chapter > CHAPTERS:
        return card(text(app._("All 21 chapters are recorded: the chronicle is over (§H10)."),
                         18, bold=True, ident_="led-next"))
    era = era_of(chapter)
    said = app._("Chapter {n} of 21, era {era}: it ends the era.", n=chapter, era=era) \
        if is_era_end(chapter) else app._("Chapter {n} of 21, era {era}.", n=chapter, era=era)
    rows: list[ft.Control] = [heading(app._("Next chapter"), 19),
                              text(said, 18, bold=True, ident_="led-next")]
    names = [s["player"].strip() for s in d["seats"] if s["player"].strip()]
    try:
        order = next_chapter_order(ledger, names)
    except HeritageError as err:
        rows.append(error_box(str(err), "led-order-error"))
        return card(*rows)
    rows += [
        text(app._("First player: {name}", name=order.first_player) if order.first_player
             else app._("First player: the table chooses (§H10)."), 17,
             ident_="led-first"),
        text(app._("Clan-pick order: {names}", names=", ".join(order.pick_order)), 17,
             ident_="led-pick"),
    ]
    if order.unplaced:
        rows.append(text(app._("No place in the pick order, the table decides: {names} "
                               "(§H10).", names=", ".join(order.unplaced)), 16,
                         ident_="led-unplaced"))
    dots = [(p, free_dots(ledger, p)) for p in names]
    dots = [(p, n) for p, n in dots if n]
    if dots:
        rows.append(text(app._("Free dots for joining now (§H13): {list}", list=", ".join(
            f"{p} {n}" for p, n in dots)), 16, ident_="led-free-dots"))
    rows.append(text(order.note, SMALL, color=MUTED))
    return card(*rows, ident_="led-next-card")


def _seat_form(app: AppState, pad: PadGame, i: int, s: dict[str, Any], n: int) -> ft.Control:
    pre = f"led-seat-{i}"

    def change(key: str):
        return lambda value: on_seat_change(app, pad, i, key, value)

    name = field(app._("Player {n}", n=i + 1), s["player"], change("player"),
                 ident_=f"{pre}-name", expand=True)
    top: list[ft.Control] = [name]
    if n > 2:
        top.append(ident(f"{pre}-remove", ft.IconButton(
            icon=ft.Icons.CLOSE, tooltip=app._("Remove player {n}", n=i + 1), width=48,
            height=48, on_click=lambda e: on_seat_remove(app, pad, i))))
    return ft.Container(content=ft.Column([
        ft.Row(top, spacing=4),
        chips([(c, c) for c in CLANS], s["clan"] or None,
              lambda c: on_seat_change(app, pad, i, "clan", c, True), f"{pre}-clan"),
        ft.Row([number_field(app._("VP"), s["vp"], change("vp"), f"{pre}-vp", signed=True),
                number_field(app._("Missions claimed"), s["missions"], change("missions"),
                             f"{pre}-missions"),
                number_field(app._("Era points"), s["era"], change("era"), f"{pre}-era",
                             signed=True)], spacing=6),
        field(app._("Titles gained (commas between)"), s["titles"], change("titles"),
              ident_=f"{pre}-titles"),
        field(app._("Vampire retained in the haven"), s["haven"], change("haven"),
              ident_=f"{pre}-haven"),
    ], spacing=8), bgcolor=SURFACE_HI, border_radius=10, padding=10)


def _fill_choices(app: AppState, pad: PadGame) -> list[ft.Control]:
    """Finished Heritage pads the chapter can be filled in from."""
    try:
        listed = [s for s in app.library.list_games()
                  if s.get("game") == "heritage" and s.get("finished")]
    except Exception:  # noqa: BLE001 - the list is a convenience: typing stays possible
        return []
    if not listed:
        return []
    return [text(app._("Or fill it in from a finished Heritage chronicle chapter:"), SMALL,
                 color=MUTED),
            wrap(*[button(app._("{names}: {winner} wins", names=", ".join(s.get("players")
                                                                           or []),
                                winner=s.get("winner")),
                          lambda e, g=s["game_id"]: on_fill_click(app, pad, g), primary=False,
                          ident_=f"led-fill-{k}") for k, s in enumerate(listed[:6])],
                 spacing=6)]


def _chapter_form(app: AppState, pad: PadGame, ledger: ChronicleLedger,
                  d: dict[str, Any]) -> ft.Control:
    n = len(d["seats"])
    rows: list[ft.Control] = [
        heading(app._("Add chapter {n}", n=len(ledger.chapters) + 1), 19),
        text(app._("The outcome follows VP, then fewer claimed missions; players equal on "
                   "both stay in the order entered here (§H10). Era points may wait: enter "
                   "them later on the chapter (§H14)."), SMALL, color=MUTED),
        *_fill_choices(app, pad),
        *[_seat_form(app, pad, i, s, n) for i, s in enumerate(d["seats"])],
    ]
    if n < MOST_PLAYERS:
        rows.append(button(app._("Add a player"), lambda e: on_seat_add(app, pad),
                           primary=False, icon=ft.Icons.ADD, ident_="led-seat-add"))
    return card(*rows, ident_="led-chapter-form")


def _chapter_line(app: AppState, pad: PadGame, record: ChapterRecord, review: bool,
                  opened: bool) -> ft.Control:
    said = app._("Chapter {n}: {victor} victor, {vanquished} vanquished", n=record.chapter,
                 victor=record.victor, vanquished=record.vanquished)
    if is_era_end(record.chapter):
        said = app._("{chapter} (era end)", chapter=said)
    return button(said, lambda e: on_chapter_open(app, pad, record.chapter), primary=False,
                  selected=opened, ident_=f"led-ch-{record.chapter}")


def _era(app: AppState, pad: PadGame, ledger: ChronicleLedger, era: int, review: bool,
         opened: int | None) -> ft.Control:
    numbers = era_chapters(era)
    recorded = [r for r in ledger.chapters if r.chapter in numbers]
    rows: list[ft.Control] = [heading(app._("Era {era}: chapters {first}–{last}", era=era,
                                            first=numbers[0], last=numbers[-1]), 18)]
    rows += [_chapter_line(app, pad, r, review, r.chapter == opened) for r in recorded]
    rest = [n for n in numbers if n > len(ledger.chapters)]
    if rest:
        rows.append(text(app._("Not played yet: {chapters} (chapter {last} ends the era)",
                               chapters=", ".join(str(n) for n in rest), last=numbers[-1]),
                         16, color=MUTED, ident_=f"led-era-{era}-rest"))
    if recorded:
        try:
            standing = era_standing(ledger, era)
        except HeritageError as err:
            rows.append(error_box(str(err), f"led-era-{era}-error"))
        else:
            points = ", ".join(f"{p} {v}" for p, v in standing.points.items())
            if points:
                rows.append(text(app._("Era points: {points}", points=points), 16,
                                 ident_=f"led-era-{era}-points"))
            rows.append(text(standing.note, SMALL, color=MUTED,
                             ident_=f"led-era-{era}-standing"))
            if (standing.complete and standing.dominated_by is None and not review
                    and len(standing.leaders) > 1):
                rows += [text(app._("Tied: enter who dominates by the booklet's tie-breaker "
                                    "(§H14)."), SMALL, color=MUTED),
                         wrap(*[button(p, lambda e, p=p: on_dominated_pick(app, pad, era, p),
                                       primary=False, ident_=f"led-era-{era}-dom-{k}")
                                for k, p in enumerate(standing.leaders)], spacing=6)]
    return card(*rows, ident_=f"led-era-{era}")


def _detail(app: AppState, pad: PadGame, ledger: ChronicleLedger, d: dict[str, Any],
            review: bool) -> ft.Control | None:
    """The opened chapter: its seats, era points and aftermath checklist (§H11)."""
    chapter = d.get("open")
    if not chapter or chapter > len(ledger.chapters):
        return None
    record = ledger.chapters[chapter - 1]
    rows: list[ft.Control] = [heading(app._("Chapter {n}, era {era}", n=chapter,
                                            era=era_of(chapter)), 19)]
    for k, player in enumerate(record.placings):
        s = record.seat(player)
        assert s is not None
        line = app.n_("{place}. {player} ({clan}): {vp} VP, {n} mission claimed",
                      "{place}. {player} ({clan}): {vp} VP, {n} missions claimed",
                      s.missions_claimed, place=k + 1, player=player, clan=s.clan, vp=s.vp)
        rows.append(text(line, 16, bold=k == 0, ident_=f"led-seat-line-{k}"))
    rows.append(text(app._("Victor: {victor}. Vanquished: {vanquished}.",
                           victor=record.victor, vanquished=record.vanquished), 16,
                     color=GOLD, ident_="led-outcome"))
    if not review:
        typed = d["era_points"].get(chapter, {})
        saved = {s.player: "" if s.era_points is None else str(s.era_points)
                 for s in record.seats}
        rows += [text(app._("Era points the booklet gave (entries, §H14):"), SMALL,
                      color=MUTED),
                 wrap(*[ft.Container(number_field(
                     p, typed.get(p, saved[p]),
                     lambda v, p=p: on_era_points_change(app, pad, chapter, p, v),
                     f"led-era-pts-{k}", signed=True), width=120)
                     for k, p in enumerate(record.players)], spacing=6),
                 button(app._("Save era points"), lambda e: on_era_points_save(app, pad,
                                                                               chapter),
                        primary=False, ident_="led-era-pts-save")]
    rows.append(text(app._("Aftermath, in order (§H11):"), 17, bold=True))
    for k, item in enumerate(aftermath_checklist(record)):
        words = app._(STEP_WORDS[item.step])
        if not item.applies:
            rows.append(text(app._("{step} (only after chapters 3, 6 … 21)", step=words),
                             SMALL, color=MUTED, ident_=f"led-step-{k}"))
        elif review:
            rows.append(text(app._("Done: {step}", step=words) if item.done
                             else app._("To do: {step}", step=words), 16,
                             ident_=f"led-step-{k}"))
        else:
            rows.append(button(words, lambda e, s=item.step: on_step_toggle(
                app, pad, chapter, s), primary=False, selected=item.done,
                ident_=f"led-step-{k}"))
    return card(*rows, ident_="led-detail")


def ledger_pad_view(app: AppState, pad: PadGame) -> list[ft.Control]:
    """A stored ledger: players, next chapter, the chapter form, the eras, the opened chapter;
    or, for review, all but the inputs."""
    ledger = _ledger(pad)
    review = app.read_only or bool(app.draft(REVIEW).get(pad.header.game_id))
    d = _draft(app, pad, ledger)
    body: list[ft.Control] = []
    if banner := unsaved_banner(app):
        body.append(banner)
    body += [_players(app, ledger), _next(app, ledger, d)]
    if detail := _detail(app, pad, ledger, d, review):
        body.append(detail)
    body += [_era(app, pad, ledger, era, review, d.get("open")) for era in range(1, ERAS + 1)]
    if review:
        if not app.read_only:
            body.append(main(button(app._("Edit the ledger"), lambda e: on_edit_click(
                app, pad.header.game_id), ident_="led-edit")))
    else:
        if len(ledger.chapters) < CHAPTERS:
            body.append(_chapter_form(app, pad, ledger, d))
        body.append(undo_row(app, pad, button(
            app._("Save the chapter"),
            (lambda e: on_chapter_save(app, pad)) if len(ledger.chapters) < CHAPTERS else None,
            expand=True, ident_="led-save")))
    return frame(app, app._("Heritage chronicle"), body,
                 subtitle=app.n_("{n} chapter of 21 recorded", "{n} chapters of 21 recorded",
                                 len(ledger.chapters)), place=pad.header.game_id)


def ledger_view(app: AppState) -> list[ft.Control]:
    """A new ledger's founding players, or the stored ledger."""
    if app.route.param is None:
        return new_view(app)
    pad, problem = open_pad(app, CHRONICLE, app._("Heritage chronicle"))
    if pad is None:
        return frame(app, app._("Heritage chronicle"), problem_view(app, problem or ""))
    return ledger_pad_view(app, pad)
