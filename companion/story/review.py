"""Game review: a readable timeline, the state after any action, and chart data.

The timeline is grouped round → phase → Location → step; each entry is one plain sentence and
names the action it came from, so a review screen can show `state_after(game, entry.action)`.
Action index -1 stands for the start of the game (before the first action). The sentences are
the narrator's (`companion.story.narrator`), put into English here.
"""

from collections.abc import Callable, Sequence
from typing import Any, Literal
from weakref import WeakKeyDictionary

from pydantic import Field

from companion.rules.apply import apply_in_place
from companion.rules.game import Game
from companion.rules.queries import power
from companion.rules.scoring import influence
from companion.story import narrator_commands
from companion.story.narrator import Told, story, story_of_action, title
from companion.story.narrator_parts import place
from companion.story.words import Translator, render
from models.common import Clan, Frozen, LocationId, Step
from models.message import msg, term
from models.power import PowerBreakdown
from models.state import GameState


class TimelineEntry(Frozen):
    """One sentence of the timeline."""

    action: int
    """Index of the action it came from (-1: the start of the game)."""
    kind: str
    """What it tells, e.g. 'play', 'conflict', 'frenzy', 'drain', 'effect', 'score'."""
    text: str = Field(max_length=20_000)
    """The sentence (the final scores of a big table with tie notes run long)."""


class TimelineGroup(Frozen):
    """Consecutive entries of one round, phase, Location and step."""

    round: int
    """Round (0 during setup)."""
    phase: str
    """A phase, or 'end_of_round'."""
    location: LocationId | None
    """Location being resolved (Resolution only)."""
    step: Step | None
    """Resolution step."""
    title: str
    """E.g. 'Round 2, Location #1, Conflict'."""
    entries: list[TimelineEntry]
    """Sentences in order."""


def _names(game: Game) -> list[str]:
    return [p.name for p in game.state_at(0).players]


def timeline(game: Game, translator: Translator | None = None) -> list[TimelineGroup]:
    """The game's story as plain sentences, grouped round → phase → Location → step (in the
    translator's language; English without one)."""
    groups: list[TimelineGroup] = []
    current = None
    entries: list[TimelineEntry] = []
    names = _names(game)

    def close() -> None:
        if current is not None and entries:
            rnd, phase, loc, step = current
            groups.append(TimelineGroup(round=rnd, phase=phase, location=loc, step=step,
                                        title=render(title(current), names, translator),
                                        entries=list(entries)))

    for said in story(game):
        text = render(said.message, names, translator)
        if not text:
            continue
        if said.key != current:
            close()
            current, entries = said.key, []
        entries.append(TimelineEntry(action=said.action, kind=said.kind, text=text))
    close()
    return groups


def told(game: Game, index: int = -1, translator: Translator | None = None) -> list[str]:
    """What one action did (the last by default), one sentence per thing that changed: every
    Blood, Influence, Diablerie and card movement, with player and amount (in the
    translator's language; English without one).

    Raises:
        IndexError: no such action.
    """
    i = range(len(game.actions))[index]
    action = game.actions[i]
    kept = _TOLD.get(game)
    if kept is None or kept[0] != i or kept[1] is not action:
        # The same action object at the same place has the same story: the screen asks for the
        # last action's at every render (each device in its own language).
        kept = _TOLD[game] = (i, action, story_of_action(game, i), {})
    said = kept[3]
    if translator not in said:
        said[translator] = _sentences(kept[2], _names(game), translator)
    return list(said[translator])


_TOLD: WeakKeyDictionary[Game, tuple[int, object, list[Told], dict[Any, list[str]]]] = \
    WeakKeyDictionary()
"""The last action each game was asked about, with what it did (`told`), in words per
language asked."""


def told_each(game: Game) -> list[list[str]]:
    """`told` for every action of the game, in order (one pass over the game)."""
    out: list[list[Told]] = [[] for _ in game.actions]
    for said in story(game):
        if said.action >= 0:
            out[said.action].append(said)
    names = _names(game)
    return [_sentences(each, names) for each in out]


def _sentences(entries: list[Told], names: Sequence[str],
               translator: Translator | None = None) -> list[str]:
    """The entries' sentences; when they span several Locations, each names its own."""
    texts = [(said.key[2], render(said.message, names, translator)) for said in entries]
    texts = [(loc, text) for loc, text in texts if text]
    places = {loc for loc, _ in texts}
    out = []
    for loc, text in texts:
        if len(places) > 1 and loc is not None:
            where = render(msg("{place}", place=place(loc)), names, translator)
            if not text.startswith(where):
                text = render(msg("{place}: {said}", place=place(loc), said=text), names,
                              translator)
        out.append(text)
    return out


def headline(game: Game, index: int = -1, sentences: list[str] | None = None) -> str:
    """One line naming an action (the last by default): its first sentence, or what the
    command did when it moved nothing (e.g. "Went on to Conflict at Location #1").

    Raises:
        IndexError: no such action.
    """
    i = range(len(game.actions))[index]
    said = told(game, i) if sentences is None else sentences
    if said:
        return said[0]
    return command_line(game.state_at(i), game.actions[i].command, game.state_at(i + 1))


def command_line(before: GameState, command: object, after: GameState | None = None) -> str:
    """A few words on a command, from the state it was played in (and the one it led to)."""
    return render(narrator_commands.headline(before, command, after),
                  [p.name for p in before.players])


def lines(game: Game) -> list[str]:
    """The timeline flattened: 'Round 2, Location #1, Conflict: …' per entry."""
    return [f"{g.title}: {e.text}" for g in timeline(game) for e in g.entries]


def state_after(game: Game, action_index: int) -> GameState:
    """A copy of the state as it stood after an action (-1: the start of the game).

    Raises:
        IndexError: no such action.
    """
    if not -1 <= action_index < len(game.actions):
        raise IndexError(f"action {action_index} is not in this game "
                         f"(0 to {len(game.actions) - 1}, or -1 for the start)")
    return game.state_at(action_index + 1).model_copy(deep=True)


# --- chart data ---------------------------------------------------------------------------------


class Series(Frozen):
    """Per-player values across the game, one point per action (or per phase)."""

    players: list[str]
    """Player names, seat order."""
    actions: list[int]
    """Action index of each point (-1: the start)."""
    labels: list[str]
    """Where each point lies, e.g. 'R2 Planning'."""
    values: dict[str, list[int]]
    """One list per player name, aligned with `actions`."""


def _point_label(s: GameState) -> str:
    if s.phase in ("setup", "game_over"):
        return render(msg("{phase}", phase=term(s.phase)))
    return render(msg("R{round} {phase}", round=s.round, phase=term(s.phase)))


def _series(game: Game, value: Callable[[GameState, int], int],
            every: Literal["action", "phase"]) -> Series:
    states = [game.state_at(k) for k in range(len(game.actions) + 1)]
    keep = [k for k in range(len(states))
            if every == "action" or k in (0, len(states) - 1)
            or (states[k].round, states[k].phase) != (states[k - 1].round, states[k - 1].phase)]
    names = [p.name for p in states[0].players]
    return Series(players=names, actions=[k - 1 for k in keep],
                  labels=[_point_label(states[k]) for k in keep],
                  values={name: [value(states[k], seat) for k in keep]
                          for seat, name in enumerate(names)})


def influence_series(game: Game, every: Literal["action", "phase"] = "action") -> Series:
    """Each player's Influence as it would score (§12) after every action (or phase start)."""
    return _series(game, lambda s, seat: influence(s, seat).total, every)


def blood_series(game: Game, every: Literal["action", "phase"] = "action") -> Series:
    """Each player's Blood in Pool after every action (or phase start)."""
    return _series(game, lambda s, seat: s.players[seat].blood, every)


class PlayerPower(Frozen):
    """One player's total Power at a resolved Location, explained."""

    player: int
    """Seat."""
    name: str
    """Player's name."""
    clan: Clan | None
    """Clan."""
    rank: int | None
    """1 = winner; None when not ranked (no rewards there)."""
    total: int
    """Total Power."""
    breakdown: PowerBreakdown
    """Cards and Blood that make it up."""
    explain: str
    """E.g. 'Bloody Fury 6 -2 (Bloody Fury (BR01)) = 4 + 3 Blood → 7'."""


class ConflictPower(Frozen):
    """Power at one Location's Conflict (§8.4)."""

    action: int
    """Index of the action that determined the winner."""
    round: int
    """Round."""
    location: LocationId
    """Location id."""
    title: str
    """E.g. 'Round 2, Location #1'."""
    outcome: str
    """'contested', 'uncontested' or 'no_cards'."""
    players: list[PlayerPower]
    """Ranked players first, then the others present."""


def conflict_powers(game: Game) -> list[ConflictPower]:
    """Each resolved Location's Power per player, as it stood when the winner was determined."""
    out: list[ConflictPower] = []
    for i, action in enumerate(game.actions):
        if not any(e.type == "conflict_resolved" for e in action.events):
            continue
        s = game.state_at(i).model_copy(deep=True)
        for e in action.events:
            if e.type == "conflict_resolved":
                loc = next(lo for lo in s.locations if lo.id == e.location)
                r = e.result
                seats = [*r.ranking, *(p for p in r.totals if p not in r.ranking)]
                rows = []
                for seat in seats:
                    b = power(s, loc, seat)
                    p = s.players[seat]
                    rank = r.ranking.index(seat) + 1 if seat in r.ranking else None
                    rows.append(PlayerPower(player=seat, name=p.name, clan=p.clan, rank=rank,
                                            total=r.totals[seat], breakdown=b,
                                            explain=b.explain()))
                out.append(ConflictPower(action=i, round=s.round, location=loc.id,
                                         title=render(msg("Round {round}, {place}",
                                                          round=s.round, place=place(loc.id))),
                                         outcome=r.outcome, players=rows))
            apply_in_place(s, e)
    return out
