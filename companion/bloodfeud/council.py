"""The Council vote tally (§B9) and the checks of a whole Blood Feud session (§B2).

Results are data (`CouncilResult`, `SessionTally`); every refusal is a `BloodFeudError` whose key
says which check refused and whose message cites the section. `tally_file` reads a session file
(docs/bloodfeud-format.md) for the command line; nothing here writes anything.
"""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from companion.bloodfeud.errors import BloodFeudError, BloodFeudFileError
from companion.bloodfeud.models import (
    SESSION_FORMAT,
    SESSION_VERSION,
    Ballot,
    CouncilVote,
    Record,
    Session,
    SessionFile,
    SessionResult,
    Team,
)
from companion.bloodfeud.stations import PROPOSER_AMBITION_TOKENS, check_power, quorum

NO_EVENT = "No Event"
"""How No Event (a `None` choice) is written in texts."""

Outcome = Literal["event", "no_event", "revote", "phase_ended"]
"""How a round's vote stands: an Event passed; No Event won; a re-vote is due; the Gameplay
Phase ended with no Event chosen."""


class OptionTotal(Record):
    """One option of a count and the Voting Power behind it."""

    event: str | None
    """The proposed Event, or None for No Event."""
    voting_power: int
    """The sum of the Powers of the teams that pointed at it."""
    teams: tuple[str, ...]
    """Those teams, in ballot order."""


class Count(Record):
    """One show of hands: the vote or a re-vote (§B9)."""

    revote: bool
    """False for the vote, True for a re-vote between tied leaders."""
    totals: tuple[OptionTotal, ...]
    """Every option open in this count, the Events in proposal order and No Event last."""
    cast: int
    """All the Voting Power raised."""
    leaders: tuple[str | None, ...]
    """The options with the most Voting Power: one is a majority, more are a tie (§B9 ruling)."""


class CouncilResult(Record):
    """How one round's Council vote came out (§B9)."""

    round: int
    """The round of the vote."""
    team_count: int
    """Teams in the session."""
    quorum: int
    """Teams that had to vote: half of `team_count`, rounded up."""
    voters: tuple[str, ...]
    """The teams that voted, in ballot order (empty when no vote was held)."""
    counts: tuple[Count, ...]
    """The vote, then each re-vote, in order."""
    outcome: Outcome
    """Where the vote stands."""
    event: str | None = None
    """The Event that passed, for outcome "event"."""
    proposer: str | None = None
    """The team that proposed the passed Event."""
    ambition_tokens: dict[str, int] = {}
    """Ambition tokens gained by the vote, by team: the proposer's 1 when an Event passed."""
    revote_between: tuple[str | None, ...] = ()
    """For outcome "revote": the options of the re-vote still to be held (None: No Event)."""
    random_event: bool = False
    """The Storyteller gets an Event drawn unseen from the top of the deck (No Event won, or the
    Gameplay Phase ended with none chosen)."""
    discarded: tuple[str, ...] = ()
    """The proposed Events that go to the Event discard pile, once the vote is over."""


class SessionTally(Record):
    """A checked session with the outcome of each of its Council votes."""

    session: Session
    """The session as entered."""
    votes: tuple[CouncilResult, ...]
    """The outcome of each recorded Council vote, in round order."""


# --- the tally ---------------------------------------------------------------------------------


def _names(teams: Sequence[str]) -> dict[str, str]:
    """Each team name by its case-folded form (names compare without case)."""
    out: dict[str, str] = {}
    for name in teams:
        if name.casefold() in out:
            raise BloodFeudError("team_twice", "§B2",
                                 f"Teams refused: {name} is named twice", team=name)
        out[name.casefold()] = name
    if not out:
        raise BloodFeudError("team_count", "§B2", "Council vote refused: the session has no teams",
                             team_count=0)
    return out


def _team(names: dict[str, str], name: str, what: str, section: str) -> str:
    """The session's spelling of team `name`."""
    try:
        return names[name.casefold()]
    except KeyError:
        raise BloodFeudError("unknown_team", section,
                             f"{what} refused: {name} is not a team of this session",
                             team=name) from None


def _ballots(names: dict[str, str], ballots: Sequence[Ballot], options: Sequence[str | None],
             powers: dict[str, int], what: str, revote: bool = False
             ) -> list[tuple[str, str | None]]:
    """(team, choice) of each ballot, checked: known team, one ballot each, an open option."""
    seen: list[str] = []
    out: list[tuple[str, str | None]] = []
    by_fold = {o.casefold(): o for o in options if o is not None}
    for b in ballots:
        team = _team(names, b.team, what, "§B9")
        if team in seen:
            raise BloodFeudError("ballot_twice", "§B9",
                                 f"{what} refused: {team} voted twice; a team votes once",
                                 team=team)
        seen.append(team)
        if team not in powers:
            raise BloodFeudError("power_missing", "§B9",
                                 f"{what} refused: the Power of {team} is not entered",
                                 team=team)
        choice = None if b.event is None else by_fold.get(b.event.casefold())
        if (b.event is None and None not in options) or (b.event is not None and choice is None):
            open_ = ", ".join(NO_EVENT if o is None else o for o in options)
            raise BloodFeudError(
                "revote_choice" if revote else "unknown_event", "§B9",
                f"{what} refused: {team} chose {b.event or NO_EVENT}, which is not open to vote "
                f"(open: {open_})", team=team, choice=b.event, options=list(options))
        out.append((team, choice))
    return out


def _count(cast: list[tuple[str, str | None]], options: Sequence[str | None],
           powers: dict[str, int], revote: bool) -> Count:
    """Voting Power behind each open option, and the leaders (§B9)."""
    totals = [OptionTotal(event=o, voting_power=sum(powers[t] for t, c in cast if c == o),
                          teams=tuple(t for t, c in cast if c == o)) for o in options]
    top = max(t.voting_power for t in totals)
    return Count(revote=revote, totals=tuple(totals), cast=sum(t.voting_power for t in totals),
                 leaders=tuple(t.event for t in totals if t.voting_power == top))


def tally(vote: CouncilVote, teams: Sequence[str]) -> CouncilResult:
    """The outcome of one round's Council vote among `teams` (every team of the session) (§B9).

    The vote passes the option with more Voting Power than every other (§B9 ruling: 4 of 8 can
    pass); a tie is voted again between the tied options only; when the recorded re-votes run out
    on a tie the outcome is "revote", or "phase_ended" if the Gameplay Phase ended.

    Raises:
        BloodFeudError: keys "unknown_team", "team_twice"; "power_range" (§B2);
            "proposal_twice", "event_twice" (§B8); "power_twice", "power_missing",
            "ballot_twice", "unknown_event", "quorum", "revote_choice", "revote_voters",
            "revote_not_due", "vote_concluded" (§B9).
    """
    names = _names(teams)
    what = f"Council vote of round {vote.round}"
    proposers: dict[str, str] = {}
    for p in vote.proposals:
        team = _team(names, p.team, what, "§B8")
        if team in proposers.values():
            raise BloodFeudError("proposal_twice", "§B8",
                                 f"{what} refused: {team} proposed two Events; a team proposes "
                                 "once a round", team=team)
        if p.event.casefold() in {e.casefold() for e in proposers}:
            raise BloodFeudError("event_twice", "§B8",
                                 f"{what} refused: {p.event} is proposed twice", event=p.event)
        proposers[p.event] = team
    powers: dict[str, int] = {}
    for name, power in vote.powers.items():
        team = _team(names, name, what, "§B9")
        if team in powers:
            raise BloodFeudError("power_twice", "§B9",
                                 f"{what} refused: the Power of {team} is entered twice",
                                 team=team)
        powers[team] = check_power(power, team)
    need = quorum(len(names))
    events = list(proposers)
    base = dict(round=vote.round, team_count=len(names), quorum=need)
    if not vote.ballots:
        if vote.revotes:
            raise BloodFeudError("revote_not_due", "§B9",
                                 f"{what} refused: a re-vote without a vote", round=vote.round)
        if not vote.gameplay_ended:
            raise _quorum(what, 0, need, len(names))
        return CouncilResult(**base, voters=(), counts=(), outcome="phase_ended",
                             random_event=True, discarded=tuple(events))
    options: list[str | None] = [*events, None]
    cast = _ballots(names, vote.ballots, options, powers, what)
    voters = [t for t, _ in cast]
    if len(voters) < need:
        raise _quorum(what, len(voters), need, len(names))
    counts = [_count(cast, options, powers, revote=False)]
    for number, again in enumerate(vote.revotes, start=1):
        if len(counts[-1].leaders) == 1:
            raise BloodFeudError("revote_not_due", "§B9",
                                 f"{what} refused: re-vote {number} was held after a majority",
                                 round=vote.round, revote=number)
        options = list(counts[-1].leaders)
        cast = _ballots(names, again, options, powers, f"Re-vote {number} of round {vote.round}",
                        revote=True)
        if sorted(t for t, _ in cast) != sorted(voters):
            raise BloodFeudError(
                "revote_voters", "§B9",
                f"Re-vote {number} of round {vote.round} refused: the teams that voted "
                f"({', '.join(voters)}) re-vote, and only they", round=vote.round,
                voters=voters, revoters=[t for t, _ in cast])
        counts.append(_count(cast, options, powers, revote=True))
    final = counts[-1]
    if len(final.leaders) > 1:
        if vote.gameplay_ended:
            return CouncilResult(**base, voters=tuple(voters), counts=tuple(counts),
                                 outcome="phase_ended", random_event=True,
                                 discarded=tuple(events))
        return CouncilResult(**base, voters=tuple(voters), counts=tuple(counts),
                             outcome="revote", revote_between=final.leaders)
    if vote.gameplay_ended:
        raise BloodFeudError("vote_concluded", "§B9",
                             f"{what} refused: the vote chose an option, so the Gameplay Phase "
                             "did not end without one", round=vote.round)
    winner = final.leaders[0]
    if winner is None:
        return CouncilResult(**base, voters=tuple(voters), counts=tuple(counts),
                             outcome="no_event", random_event=True, discarded=tuple(events))
    proposer = proposers[winner]
    return CouncilResult(**base, voters=tuple(voters), counts=tuple(counts), outcome="event",
                         event=winner, proposer=proposer,
                         ambition_tokens={proposer: PROPOSER_AMBITION_TOKENS},
                         discarded=tuple(e for e in events if e != winner))


def _quorum(what: str, voters: int, need: int, teams: int) -> BloodFeudError:
    """The refusal of a vote short of its quorum."""
    return BloodFeudError("quorum", "§B9",
                          f"{what} refused: {voters} of {teams} teams vote; at least {need} must "
                          "(half the teams, rounded up)", voters=voters, needed=need, teams=teams)


# --- the session -------------------------------------------------------------------------------


def _check_teams(teams: Sequence[Team]) -> None:
    """Names, colours and players each on one team (§B2 ruling)."""
    _names([t.name for t in teams])
    colours: dict[str, str] = {}
    players: dict[str, str] = {}
    for t in teams:
        if t.colour.casefold() in colours:
            raise BloodFeudError("colour_twice", "§B2",
                                 f"Teams refused: {t.name} and {colours[t.colour.casefold()]} "
                                 f"are both {t.colour}", colour=t.colour)
        colours[t.colour.casefold()] = t.name
        for m in t.members:
            if m.casefold() in players:
                raise BloodFeudError("member_twice", "§B2",
                                     f"Teams refused: {m} plays on {players[m.casefold()]} and "
                                     f"on {t.name}", member=m)
            players[m.casefold()] = t.name


def check_result(result: SessionResult, teams: Sequence[str]) -> None:
    """A result names known teams once each, and a pick only among tied teams (§B2 ruling).

    Raises:
        BloodFeudError: keys "unknown_team", "winner_twice", "pick_without_tie",
            "pick_not_tied" (§B2).
    """
    names = _names(teams)
    top = [_team(names, w, "Result", "§B2") for w in result.winners]
    if len(set(top)) < len(top):
        raise BloodFeudError("winner_twice", "§B2", "Result refused: a team is named twice",
                             winners=top)
    pick = result.storyteller_pick
    if pick is not None and not result.tie:
        raise BloodFeudError("pick_without_tie", "§B2",
                             f"Result refused: {top[0]} is alone on top, so there is no tie for "
                             "the Storyteller to pick from", pick=pick)
    if pick is not None and _team(names, pick, "Result", "§B2") not in top:
        raise BloodFeudError("pick_not_tied", "§B2",
                             f"Result refused: the Storyteller's pick {pick} is not one of the "
                             f"tied teams ({', '.join(top)})", pick=pick, winners=top)


def tally_session(session: Session) -> SessionTally:
    """Check a whole session and tally each of its Council votes (§B2, §B9).

    Raises:
        BloodFeudError: the teams, a vote or the result break a check; "round_range", a vote
            after the rounds played; "vote_per_round", two votes in one round (§B9).
    """
    _check_teams(session.teams)
    names = [t.name for t in session.teams]
    results: list[CouncilResult] = []
    for vote in sorted(session.council, key=lambda v: v.round):
        if vote.round > session.rounds_played:
            raise BloodFeudError("round_range", "§B9",
                                 f"Council vote of round {vote.round} refused: only "
                                 f"{session.rounds_played} round(s) played", round=vote.round,
                                 rounds_played=session.rounds_played)
        if results and results[-1].round == vote.round:
            raise _second_vote(vote.round)
        results.append(tally(vote, names))
    if session.result is not None:
        check_result(session.result, names)
    return SessionTally(session=session, votes=tuple(results))


def _second_vote(round_: int) -> BloodFeudError:
    """The refusal of a second Council vote in one round."""
    return BloodFeudError("vote_per_round", "§B9",
                          f"Council vote of round {round_} refused: round {round_} already has "
                          "its vote; only one is resolved per round", round=round_)


def record_vote(session: Session, vote: CouncilVote) -> Session:
    """`session` with `vote` added in round order, once it tallies (§B9).

    Raises:
        BloodFeudError: key "vote_per_round", the round already has a vote; or any refusal of
            `tally_session`.
    """
    if any(v.round == vote.round for v in session.council):
        raise _second_vote(vote.round)
    council = sorted([*session.council, vote], key=lambda v: v.round)
    updated = session.model_copy(update={"council": council})
    tally_session(updated)
    return updated


def enter_result(session: Session, result: SessionResult) -> Session:
    """`session` with the result the Storyteller announced (§B2).

    Raises:
        BloodFeudError: as `check_result`.
    """
    check_result(result, [t.name for t in session.teams])
    return session.model_copy(update={"result": result})


# --- texts -------------------------------------------------------------------------------------


def _option(event: str | None) -> str:
    return NO_EVENT if event is None else event


def _join(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count_text(count: Count) -> str:
    """One show of hands on a line, e.g. `E1 3 (Brujah), E2 4 (…), No Event 1 (…) of 8`."""
    parts = [f"{_option(t.event)} {t.voting_power}" + (f" ({', '.join(t.teams)})" if t.teams
                                                       else "") for t in count.totals]
    return f"{'re-vote' if count.revote else 'vote'}: {', '.join(parts)} of {count.cast}"


def council_text(result: CouncilResult) -> str:
    """One round's vote: the counts, then what came of it."""
    if result.counts:
        lines = [f"Round {result.round}, Council vote: {len(result.voters)} of "
                 f"{result.team_count} teams voted (quorum {result.quorum})"]
    else:
        lines = [f"Round {result.round}, Council: no vote held"]
    lines += [f"  {count_text(c)}" for c in result.counts]
    if result.outcome == "event":
        lines.append(f"  {result.event} passes; {result.proposer} proposed it and gains "
                     f"{PROPOSER_AMBITION_TOKENS} Ambition token")
    elif result.outcome == "no_event":
        lines.append("  No Event wins: the Storyteller gets a random Event from the deck")
    elif result.outcome == "revote":
        lines.append("  tie: re-vote between "
                     f"{_join([_option(o) for o in result.revote_between])}")
    else:
        lines.append("  the Gameplay Phase ended with no Event chosen: the Storyteller gets a "
                     "random Event from the deck")
    if result.discarded:
        lines.append(f"  to the Event discard pile: {', '.join(result.discarded)}")
    return "\n".join(lines)


def result_text(result: SessionResult | None) -> str:
    """The result as the Storyteller entered it; a tie stays a tie."""
    if result is None:
        return "Result: not entered yet"
    if not result.tie:
        text = f"Result: {result.winners[0]} wins"
    else:
        text = f"Result: tie between {_join(result.winners)}"
        if result.storyteller_pick:
            text += f" (the Storyteller's pick: {result.storyteller_pick})"
    return text + (f". {result.note}" if result.note else "")


def tally_text(tally_: SessionTally) -> str:
    """A session and its votes as the command line prints them."""
    s = tally_.session
    lines = [f"Blood Feud session, Storyteller {s.storyteller}: {len(s.teams)} teams, "
             f"{s.rounds_played} round(s) played"]
    lines += [f"  {t.name} ({t.colour}, {t.faction}): {', '.join(t.members)}" for t in s.teams]
    lines += [council_text(r) for r in tally_.votes]
    lines.append(result_text(s.result))
    return "\n".join(lines)


# --- the file ----------------------------------------------------------------------------------

MAX_FILE_BYTES = 20 * 1024 * 1024
"""Largest session file read, as for the other input files (a bound on input, no rule)."""
MAX_DEPTH = 64
"""Deepest nesting of a session file, as for the other input files."""
FORMAT_DOC = "docs/bloodfeud-format.md"
"""Where the file format is described; file refusals cite it."""


class _Duplicate(ValueError):
    """A JSON object names one key twice."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (a second value would silently win)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _depth(data: Any) -> int:
    """How deeply `data` nests lists and objects."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            stack += [(x, level + 1) for x in (item.values() if isinstance(item, dict) else item)]
    return deepest


def _file_error(key: str, path: str, message: str) -> BloodFeudFileError:
    return BloodFeudFileError(key, FORMAT_DOC, f"{path}: {message}", path=path)


def _first_problem(err: ValidationError) -> str:
    """The first problem of a validation error on one line, and how many more there are."""
    problems = err.errors()
    where = ".".join(str(x) for x in problems[0]["loc"])
    text = f"{where}: {problems[0]['msg']}" if where else problems[0]["msg"]
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return text + more


def read_session_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> Session:
    """The session held in a Blood Feud session file (docs/bloodfeud-format.md): UTF-8 with or
    without a BOM, strict JSON, no key twice, at most `max_bytes` and 64 levels deep.

    Raises:
        BloodFeudFileError: keys "file_unreadable", "file_too_large", "not_json", "too_deep",
            "format", "too_new", "invalid".
    """
    where = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as err:
        raise _file_error("file_unreadable", where,
                          f"cannot be read ({err.strerror or err})") from None
    if len(raw) > max_bytes:
        raise _file_error("file_too_large", where, f"larger than {max_bytes} bytes")
    try:
        data = json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_pairs,
                          parse_constant=_constant)
    except _Duplicate as err:
        raise _file_error("not_json", where, f"the key {err} is given twice") from None
    except RecursionError:
        raise _file_error("too_deep", where, f"nested more than {MAX_DEPTH} levels") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError, NaN and Infinity
        raise _file_error("not_json", where, f"not JSON text ({err})") from None
    if _depth(data) > MAX_DEPTH:
        raise _file_error("too_deep", where, f"nested more than {MAX_DEPTH} levels")
    if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
        raise _file_error("format", where, f'not a {SESSION_FORMAT} file (expected "format": '
                          f'"{SESSION_FORMAT}")')
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > SESSION_VERSION:
        raise _file_error("too_new", where, f"version {version} is newer than this app reads "
                          f"(up to {SESSION_VERSION}): update the app")
    try:
        doc = SessionFile.model_validate(data)
    except ValidationError as err:
        raise _file_error("invalid", where, _first_problem(err)) from None
    return Session.model_validate(doc.model_dump(exclude={"format", "version"}))


def tally_file(path: str | Path) -> SessionTally:
    """Read a session file and tally it, for `vendetta-companion bloodfeud tally FILE`.

    Raises:
        BloodFeudFileError: the file cannot be used (see `read_session_file`): bad input.
        BloodFeudError: the session breaks a check of §B2 or §B9: refused.
    """
    return tally_session(read_session_file(path))
