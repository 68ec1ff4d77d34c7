"""Blood Feud's Council vote of the round under way, entered as the table holds it: each
team's Power (1–6), the Events proposed, each team's raised hand (an Event, No Event, or no
vote), the re-votes between tied options; the tally is shown as it is entered (passes, a
re-vote between the tied options only, no quorum, the proposer's Ambition token) and the
vote is recorded once it is settled (one a round, §B9). Recorded votes are listed."""

from __future__ import annotations

from typing import Any

import flet as ft
from pydantic import ValidationError

from companion.bloodfeud.council import (
    CouncilResult,
    council_text,
    count_text,
    record_vote,
    tally,
)
from companion.bloodfeud.models import CouncilVote, Session
from companion.bloodfeud.stations import POWERS, PROPOSER_AMBITION_TOKENS
from companion.library.pad import PadGame
from views.choice import chips
from views.pads import refusal, save, wide
from views.state import AppState
from views.theme import GOLD, MUTED, SMALL, TEXT, button, card, field, heading, ident, text

ABSENT = "absent"
"""A ballot's key for a team that does not vote."""


def _draft(app: AppState, pad: PadGame, session: Session) -> dict[str, Any]:
    """The vote being entered for the round under way (made anew for each round)."""
    d = app.draft(f"bloodfeud-vote-{pad.header.game_id}")
    if d.get("round") != session.rounds_played:
        d.clear()
        d.update(round=session.rounds_played, powers={}, proposals={}, ballots={}, revotes=[],
                 ended=False)
    return d


def _events(session: Session, d: dict[str, Any]) -> list[tuple[str, str]]:
    """(team, Event) of each proposal typed, in team order."""
    out = []
    for t in session.teams:
        event = " ".join(str(d["proposals"].get(t.name, "")).split())
        if event:
            out.append((t.name, event))
    return out


def _tidy(session: Session, d: dict[str, Any]) -> None:
    """Forget hands raised for an Event no longer proposed."""
    events = {e for _, e in _events(session, d)}
    for team, choice in list(d["ballots"].items()):
        if choice is not None and choice not in events:
            del d["ballots"][team]
            d["revotes"] = []


def vote_of(session: Session, d: dict[str, Any]) -> CouncilVote:
    """The vote as entered, with the re-votes every voter has answered.

    Raises:
        ValidationError: a shape the record does not take (names the field).
    """
    names = [t.name for t in session.teams]
    voters = [t for t in names if t in d["ballots"]]
    revotes = [[{"team": t, "event": rv[t]} for t in voters]
               for rv in d["revotes"] if all(t in rv for t in voters)]
    return CouncilVote.model_validate({
        "round": d["round"], "powers": dict(d["powers"]),
        "proposals": [{"event": e, "team": t} for t, e in _events(session, d)],
        "ballots": [{"team": t, "event": d["ballots"][t]} for t in voters],
        "revotes": revotes, "gameplay_ended": d["ended"]})


def _option(app: AppState, event: str | None) -> str:
    """A vote's option as the screen says it: an Event's name, or No Event."""
    return app._("No Event") if event is None else event


def outcome_text(app: AppState, result: CouncilResult) -> str:
    """What came of a vote, in a sentence."""
    if result.outcome == "event":
        cast = result.counts[-1]
        behind = next(t.voting_power for t in cast.totals if t.event == result.event)
        return app.n_("{event} passes with {power} of {cast} Voting Power; {team} proposed it "
                      "and gains {n} Ambition token (§B9).",
                      "{event} passes with {power} of {cast} Voting Power; {team} proposed it "
                      "and gains {n} Ambition tokens (§B9).", PROPOSER_AMBITION_TOKENS,
                      event=result.event, power=behind, cast=cast.cast, team=result.proposer)
    if result.outcome == "no_event":
        return app._("No Event wins: the Storyteller gets a random Event from the deck (§B9).")
    if result.outcome == "revote":
        options = [_option(app, o) for o in result.revote_between]
        return app._("Tie: re-vote between {options} only (§B9).",
                     options=" and ".join(options) if app.t.english else app.t.join(options))
    return app._("The Gameplay Phase ended with no Event chosen: the Storyteller gets a random "
                 "Event from the deck (§B9).")


# --- handlers -----------------------------------------------------------------------------


def on_power_pick(app: AppState, pad: PadGame, team: str, power: int) -> None:
    """A team's current Power."""
    _draft(app, pad, Session.model_validate(pad.doc))["powers"][team] = power
    app.render()


def on_proposal_change(app: AppState, pad: PadGame, team: str, value: str) -> None:
    """The Event a team proposed (empty: none)."""
    session = Session.model_validate(pad.doc)
    d = _draft(app, pad, session)
    d["proposals"][team] = value
    _tidy(session, d)
    app.render()


def on_ballot_pick(app: AppState, pad: PadGame, team: str, choice: str | None) -> None:
    """A team's raised hand: an Event, None for No Event, or ABSENT."""
    d = _draft(app, pad, Session.model_validate(pad.doc))
    if choice == ABSENT:
        d["ballots"].pop(team, None)
    else:
        d["ballots"][team] = choice
    d["revotes"], d["ended"] = [], False
    app.render()


def on_revote_pick(app: AppState, pad: PadGame, k: int, team: str, choice: str | None) -> None:
    """A team's hand in re-vote `k` (0 is the first)."""
    d = _draft(app, pad, Session.model_validate(pad.doc))
    while len(d["revotes"]) <= k:
        d["revotes"].append({})
    d["revotes"][k][team] = choice
    del d["revotes"][k + 1:]
    app.render()


def on_ended_toggle(app: AppState, pad: PadGame) -> None:
    """The Gameplay Phase ended with no Event chosen (no vote held, or the last tied)."""
    d = _draft(app, pad, Session.model_validate(pad.doc))
    d["ended"] = not d["ended"]
    app.render()


def on_vote_save(app: AppState, pad: PadGame) -> None:
    """Record the round's vote once it is settled (one a round)."""
    session = Session.model_validate(pad.doc)
    d = _draft(app, pad, session)
    try:
        vote = vote_of(session, d)
        result = tally(vote, [t.name for t in session.teams])
        if result.outcome == "revote":
            app.fail(app._("Not recorded: {outcome} Enter the re-vote, or mark that the "
                           "Gameplay Phase ended.", outcome=outcome_text(app, result)))
            return
        updated = record_vote(session, vote)
    except (ValidationError, ValueError) as err:
        app.fail(app._("Not recorded: {reason}", reason=refusal(app, err)))
        return
    save(app, updated.model_dump(mode="json"),
         [app._("Round {n}'s vote recorded. {outcome}", n=vote.round,
                outcome=outcome_text(app, result))])


# --- drawing ------------------------------------------------------------------------------


def _preview(app: AppState, session: Session,
             d: dict[str, Any]) -> tuple[CouncilResult | None, str]:
    """The tally of the vote as entered, or why it cannot be counted yet."""
    try:
        result = tally(vote_of(session, d), [t.name for t in session.teams])
    except (ValidationError, ValueError) as err:
        return None, app._("Not settled yet: {reason}", reason=refusal(app, err))
    return result, outcome_text(app, result)


def _form(app: AppState, pad: PadGame, session: Session) -> list[ft.Control]:
    d = _draft(app, pad, session)
    _tidy(session, d)
    names = [t.name for t in session.teams]
    events = [e for _, e in _events(session, d)]
    # Laid on the page, not in a card: six Power buttons of 44 px fit a 320 px phone's row.
    rows: list[ft.Control] = [
        ident("bf-council", heading(app._("Council vote of round {n}", n=d["round"]), 20)),
        text(app._("Power of each team (1 to 6): its Voting Power (§B9)."), 16, bold=True)]
    for i, team in enumerate(names):
        rows += [text(app._("Power of {team}", team=team), SMALL, color=MUTED),
                 chips([(str(p), str(p)) for p in POWERS],
                       str(d["powers"].get(team, "")),
                       lambda p, t=team: on_power_pick(app, pad, t, int(p)), f"bf-power-{i}",
                       width=44)]
    rows.append(text(app._("Events proposed (one a team; leave empty for none, §B8)."), 16,
                     bold=True))
    rows += [wide(field(app._("Event proposed by {team}", team=team),
                        d["proposals"].get(team, ""),
                        lambda v, t=team: on_proposal_change(app, pad, t, v),
                        ident_=f"bf-prop-{i}")) for i, team in enumerate(names)]
    options = [(f"e{k}", e) for k, e in enumerate(events)] + [("none", _option(app, None)),
                                                              (ABSENT, app._("No vote"))]
    choice = {f"e{k}": e for k, e in enumerate(events)} | {"none": None}
    rows.append(text(app._("Hands raised: each voting team's Power counts; at least half the "
                           "teams must vote (§B9)."), 16, bold=True))
    for i, team in enumerate(names):
        now = d["ballots"].get(team, ABSENT)
        key = ABSENT if now == ABSENT else "none" if now is None else f"e{events.index(now)}"
        rows += [text(app._("{team} votes", team=team), SMALL, color=MUTED),
                 chips(options, key, lambda k, t=team: on_ballot_pick(
                     app, pad, t, ABSENT if k == ABSENT else choice[k]), f"bf-ballot-{i}")]
    result, said = _preview(app, session, d)
    if result is not None:
        rows += [text(count_text(c), SMALL, color=MUTED, ident_=f"bf-count-{k}")
                 for k, c in enumerate(result.counts)]
    rows.append(text(said, 18, bold=True, color=GOLD if result else TEXT, ident_="bf-tally"))
    if result is not None and result.outcome == "revote":
        rows += _revote(app, pad, d, result, names)
    if result is not None and result.outcome in ("revote", "phase_ended") or not d["ballots"]:
        rows.append(button(app._("Gameplay Phase ended without an Event"),
                           lambda e: on_ended_toggle(app, pad), primary=False,
                           selected=d["ended"], ident_="bf-ended"))
    rows.append(button(app._("Record round {n}'s vote", n=d["round"]),
                       lambda e: on_vote_save(app, pad),
                       ident_="bf-vote-save"))
    return rows


def _revote(app: AppState, pad: PadGame, d: dict[str, Any], result: CouncilResult,
            names: list[str]) -> list[ft.Control]:
    """The next re-vote: each team that voted, between the tied options only."""
    k = len(result.counts) - 1
    between = list(result.revote_between)
    options = [(str(j), _option(app, o)) for j, o in enumerate(between)]
    current = d["revotes"][k] if k < len(d["revotes"]) else {}
    rows: list[ft.Control] = [text(app._("Re-vote {n}", n=k + 1), 16, bold=True)]
    for team in result.voters:
        now = current.get(team, ABSENT)
        key = str(between.index(now)) if now in between else ""
        rows += [text(app._("{team} votes again", team=team), SMALL, color=MUTED),
                 chips(options, key, lambda j, t=team: on_revote_pick(
                     app, pad, k, t, between[int(j)]), f"bf-revote-{k}-{names.index(team)}")]
    return rows


def _recorded(app: AppState, session: Session) -> list[ft.Control]:
    names = [t.name for t in session.teams]
    out: list[ft.Control] = []
    for vote in reversed(session.council):
        try:
            lines = council_text(tally(vote, names)).splitlines()
        except ValueError as err:
            lines = [app._("Round {n}: {reason}", n=vote.round, reason=str(err))]
        out.append(card(text(lines[0], 17, bold=True),
                        *[text(line.strip(), SMALL, color=MUTED) for line in lines[1:]],
                        ident_=f"bf-vote-{vote.round}"))
    return out


def council_cards(app: AppState, pad: PadGame, session: Session,
                  review: bool) -> list[ft.Control]:
    """The form of the round under way's vote (when it has none yet), then the votes
    recorded, newest first."""
    out: list[ft.Control] = []
    r = session.rounds_played
    if not review:
        if not r:
            out.append(card(text(app._("Start round 1 to enter its Council vote."), 16,
                                 color=MUTED, ident_="bf-council-wait")))
        elif any(v.round == r for v in session.council):
            out.append(card(text(app._("Round {n}'s Council vote is recorded (one a round, "
                                       "§B9). Start the next round for the next vote.", n=r),
                                 16, color=MUTED, ident_="bf-council-done")))
        else:
            out += _form(app, pad, session)
    return out + _recorded(app, session)
