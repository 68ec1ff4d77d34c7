"""Blood Feud: a new session's record (the Storyteller, the teams and their players), then the
stored session: rounds played, each round's Council vote (`views.bloodfeud_council`), the
result as the Storyteller announces it, and the four stations as reference cards
(`views.bloodfeud_reference`). The app keeps the record only: the aids give no scoring, so a
tie stays a tie. The rules it follows are docs/bloodfeud.md (§B…)."""

from __future__ import annotations

from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.bloodfeud.council import enter_result, result_text, tally_session
from companion.bloodfeud.models import Faction, Session, SessionResult
from companion.library.pad import PadGame
from companion.library.pad_kinds import BLOOD_FEUD, blood_feud
from models.message import N_
from views.choice import chips
from views.frame import frame
from views.pads import (
    open_pad,
    pad_session,
    problem_view,
    refusal,
    save,
    undo_row,
    unsaved_banner,
    wide,
)
from views.state import AppState
from views.table_actions import SAVE_ERRORS, save_problem
from views.theme import GOLD, MUTED, SMALL, button, card, field, heading, ident, main, text, wrap

NEW = "bloodfeud-new"
"""The draft of the new-session form."""
FACTIONS: tuple[Faction, ...] = ("Vampire", "Human")
FACTION_WORDS = {"Vampire": N_("Vampire"), "Human": N_("Human")}
"""The sides as the screen says them (the record keeps the English name)."""
REVIEW = "bloodfeud-review"
"""Draft: the session ids shown for review (the record, no inputs); Home sets it as
`<kind>-review`."""


def _team() -> dict[str, str]:
    return {"name": "", "colour": "", "faction": "Vampire", "members": ""}


def _draft(app: AppState) -> dict[str, Any]:
    d = app.draft(NEW)
    d.setdefault("storyteller", "")
    d.setdefault("teams", [_team(), _team()])
    return d


def faction_word(app: AppState, faction: str) -> str:
    """A team's side in the device's language."""
    word = FACTION_WORDS.get(faction)
    return app._(word) if word else faction


def members(typed: str) -> list[str]:
    """Players typed with commas between them."""
    return [" ".join(m.split()) for m in typed.split(",") if m.strip()]


def on_storyteller_change(app: AppState, value: str) -> None:
    """The Storyteller's name was typed."""
    _draft(app)["storyteller"] = value


def on_team_change(app: AppState, i: int, key: str, value: str, redraw: bool = False) -> None:
    """A team's name, colour, side or players."""
    _draft(app)["teams"][i][key] = value
    if redraw:
        app.render()


def on_team_add(app: AppState) -> None:
    """One more team."""
    _draft(app)["teams"].append(_team())
    app.render()


def on_team_remove(app: AppState, i: int) -> None:
    """Remove a team's form (two stay)."""
    teams = _draft(app)["teams"]
    if len(teams) > 2:
        del teams[i]
    app.render()


def new_session(d: dict[str, Any]) -> Session:
    """The session the filled-in form starts (no round played yet).

    Raises:
        ValidationError, BloodFeudError: the field or check that refuses it.
    """
    session = Session.model_validate({
        "storyteller": d["storyteller"],
        "teams": [{"name": t["name"], "colour": t["colour"], "faction": t["faction"],
                   "members": members(t["members"])} for t in d["teams"]]})
    tally_session(session)
    return session


def on_start_click(app: AppState) -> None:
    """Store the new session and open it."""
    try:
        session = new_session(_draft(app))
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not started: {reason}", reason=refusal(app, err)))
        return
    try:
        pad = pad_session(app).new_pad(blood_feud(), session.model_dump(mode="json"))
    except SAVE_ERRORS as err:
        app.fail(app._("Not started, nothing stored: {problem}", problem=save_problem(err)))
        return
    except ValueError as err:
        app.fail(app._("Not started: {reason}", reason=refusal(app, err)))
        return
    app.drafts.pop(NEW, None)
    app.error = None
    app.say([app.n_("Blood Feud session stored: {n} team, Storyteller {name}.",
                    "Blood Feud session stored: {n} teams, Storyteller {name}.",
                    len(session.teams), name=session.storyteller)])
    app.go("bloodfeud", pad.header.game_id)


def new_view(app: AppState) -> list[ft.Control]:
    """The new-session form."""
    d = _draft(app)
    teams = d["teams"]
    body: list[ft.Control] = [
        field(app._("Storyteller"), d["storyteller"], lambda v: on_storyteller_change(app, v),
              ident_="bf-storyteller"),
        heading(app._("Teams"), 20),
        text(app._("At least two teams, each with a different name and colour; nobody plays on "
                   "two teams (§B2)."), 16, color=MUTED),
    ]
    for i, t in enumerate(teams):
        head: list[ft.Control] = [ft.Container(heading(app._("Team {n}", n=i + 1), 18),
                                               expand=True)]
        if len(teams) > 2:
            head.append(ident(f"bf-team-{i}-remove", ft.IconButton(
                icon=ft.Icons.CLOSE, tooltip=app._("Remove team {n}", n=i + 1), width=48,
                height=48, on_click=lambda e, i=i: on_team_remove(app, i))))
        body.append(card(
            ft.Row(head),
            field(app._("Team name"), t["name"],
                  lambda v, i=i: on_team_change(app, i, "name", v), ident_=f"bf-team-{i}-name"),
            field(app._("Colour"), t["colour"],
                  lambda v, i=i: on_team_change(app, i, "colour", v),
                  ident_=f"bf-team-{i}-colour"),
            chips([(f, faction_word(app, f)) for f in FACTIONS], t["faction"],
                  lambda f, i=i: on_team_change(app, i, "faction", f, True), f"bf-team-{i}"),
            text(app._("Its players, with commas between the names:"), SMALL, color=MUTED),
            field(app._("Players"), t["members"],
                  lambda v, i=i: on_team_change(app, i, "members", v),
                  ident_=f"bf-team-{i}-members")))
    body += [button(app._("Add a team"), lambda e: on_team_add(app), primary=False,
                    icon=ft.Icons.ADD, ident_="bf-add-team"),
             main(button(app._("Start the session record"), lambda e: on_start_click(app),
                         ident_="bf-start"))]
    return frame(app, app._("New Blood Feud session"), body,
                 subtitle=app._("Session record: teams"))


# --- the stored session -------------------------------------------------------------------


def on_round_click(app: AppState, pad: PadGame) -> None:
    """One more round under way: saved at once."""
    n = int(pad.doc.get("rounds_played", 0)) + 1
    save(app, {**pad.doc, "rounds_played": n}, [app._("Round {n} under way.", n=n)])


def _result_draft(app: AppState, pad: PadGame) -> dict[str, Any]:
    """The result being entered: made from the saved one, again whenever that changes."""
    saved = pad.doc.get("result")
    d = app.draft(f"bloodfeud-result-{pad.header.game_id}")
    if "base" not in d or d["base"] != saved:
        d.clear()
        d["base"] = saved
        d["winners"] = list((saved or {}).get("winners") or [])
        d["pick"] = (saved or {}).get("storyteller_pick")
        d["note"] = (saved or {}).get("note") or ""
    return d


def on_top_toggle(app: AppState, pad: PadGame, team: str) -> None:
    """A team on top, or no longer."""
    d = _result_draft(app, pad)
    d["winners"].remove(team) if team in d["winners"] else d["winners"].append(team)
    if d["pick"] not in d["winners"] or len(d["winners"]) < 2:
        d["pick"] = None
    app.render()


def on_pick(app: AppState, pad: PadGame, team: str) -> None:
    """The Storyteller's pick among tied teams ("" for none)."""
    _result_draft(app, pad)["pick"] = team or None
    app.render()


def on_note_change(app: AppState, pad: PadGame, value: str) -> None:
    """What the Storyteller adds."""
    _result_draft(app, pad)["note"] = value


def on_result_save(app: AppState, pad: PadGame) -> None:
    """Save the result as the Storyteller announced it."""
    d = _result_draft(app, pad)
    session = Session.model_validate(pad.doc)
    order = [t.name for t in session.teams]
    try:
        result = SessionResult(winners=sorted(d["winners"], key=order.index),
                               storyteller_pick=d["pick"], note=d["note"].strip() or None)
        updated = enter_result(session, result)
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not saved: {reason}", reason=refusal(app, err)))
        return
    save(app, updated.model_dump(mode="json"), [result_text(result)])


def on_edit_click(app: AppState, game_id: str) -> None:
    """Leave the review: show the record's forms."""
    app.draft(REVIEW).pop(game_id, None)
    app.render()


def _rounds(app: AppState, pad: PadGame, session: Session, review: bool) -> ft.Control:
    n = session.rounds_played
    said = app._("Round under way: {n}", n=n) if n else app._("No round started yet")
    parts: list[ft.Control] = [text(said, 18, bold=True, ident_="bf-rounds"),
                               text(app._("The aids set no number of rounds: count them here."),
                                    SMALL, color=MUTED)]
    if not review:
        parts.append(button(app._("Start round {n}", n=n + 1), lambda e: on_round_click(app, pad),
                            primary=False, ident_="bf-round-plus"))
    return card(*parts)


def _result(app: AppState, pad: PadGame, session: Session, review: bool) -> ft.Control:
    rows: list[ft.Control] = [
        heading(app._("Result"), 19),
        text(result_text(session.result), 20, bold=True, color=GOLD, ident_="bf-result"),
    ]
    if review:
        return card(*rows, ident_="bf-result-card")
    d = _result_draft(app, pad)
    names = [t.name for t in session.teams]
    rows += [text(app._("As the Storyteller announces it: tap every team on top (more than one "
                        "is a tie, and stays one, §B2)."), 16, color=MUTED),
             wrap(*[button(t, lambda e, t=t: on_top_toggle(app, pad, t), primary=False,
                           selected=t in d["winners"], ident_=f"bf-top-{k}")
                    for k, t in enumerate(names)], spacing=6)]
    if len(d["winners"]) > 1:
        tied = [t for t in names if t in d["winners"]]
        rows += [text(app._("A tie. If the Storyteller picks one of them, it is kept beside the "
                            "tie:"), 16, color=MUTED),
                 chips([("none", app._("No pick")), *[(str(names.index(t)), t) for t in tied]],
                       str(names.index(d["pick"])) if d["pick"] in names else "none",
                       lambda k: on_pick(app, pad, "" if k == "none" else names[int(k)]),
                       "bf-pick")]
    rows += [wide(field(app._("Storyteller's note (optional)"), d["note"],
                        lambda v: on_note_change(app, pad, v), ident_="bf-note")),
             button(app._("Save the result"), lambda e: on_result_save(app, pad),
                    ident_="bf-result-save")]
    return card(*rows, ident_="bf-result-card")


def _teams(app: AppState, session: Session) -> ft.Control:
    return card(heading(app._("Teams"), 18),
                text(app._("Storyteller: {name}", name=session.storyteller), 16, bold=True),
                *[text(f"{t.name} ({t.colour}, {faction_word(app, t.faction)}): "
                       f"{', '.join(t.members)}", 16, ident_=f"bf-team-line-{k}")
                  for k, t in enumerate(session.teams)],
                ident_="bf-teams")


def session_view(app: AppState, pad: PadGame) -> list[ft.Control]:
    """The record of a stored session; for review, what was recorded and no forms."""
    from views.bloodfeud_council import council_cards
    from views.bloodfeud_reference import reference_cards

    session = Session.model_validate(pad.doc)
    review = app.read_only or bool(app.draft(REVIEW).get(pad.header.game_id))
    body: list[ft.Control] = []
    if banner := unsaved_banner(app):
        body.append(banner)
    body += [_rounds(app, pad, session, review), _teams(app, session),
             *council_cards(app, pad, session, review), _result(app, pad, session, review),
             *reference_cards(app)]
    if review:
        if not app.read_only:
            body.append(main(button(app._("Edit the record"), lambda e: on_edit_click(
                app, pad.header.game_id), ident_="bf-edit")))
    else:
        body.append(undo_row(app, pad))
    return frame(app, app._("Blood Feud"), body,
                 subtitle=app._("Storyteller {name}", name=session.storyteller),
                 place=pad.header.game_id)


def bloodfeud_view(app: AppState) -> list[ft.Control]:
    """A new session's form, or the stored session's record."""
    if app.route.param is None:
        return new_view(app)
    pad, problem = open_pad(app, BLOOD_FEUD, app._("Blood Feud"))
    if pad is None:
        return frame(app, app._("Blood Feud"), problem_view(app, problem or ""))
    return session_view(app, pad)
