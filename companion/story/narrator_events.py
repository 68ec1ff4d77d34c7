"""The narrator's working parts: the entries of the action being told (`Teller`) and the
events that join several into one sentence (Blood, Influence, Frenzy and Drain, Power, the
Conflict and the final scores). `companion.story.narrator` tells the other events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from companion.rules.queries import conflict_tie_notes, teammates
from companion.story.narrator_parts import (
    Arg,
    Draft,
    Key,
    because,
    card_ref,
    deployed,
    deployed_label,
    kept,
    key_of,
    named,
    place,
    seat_ref,
    series,
)
from models.events import AnyEvent
from models.message import Message, items, msg, term
from models.state import GameState

BLOOD_VERBS = {"gain": msg("{who} gains {n} Blood"), "lose": msg("{who} loses {n} Blood"),
               "spend": msg("{who} spends {n} Blood"), "return": msg("{who} gets back {n} Blood"),
               "drain": msg("{who} gains {n} Blood")}
"""A Pool's change of Blood by its kind."""


class Teller:
    """The entries of a game's actions being told, with a working state in step with the
    events (each event is told before it is applied)."""

    RICH: ClassVar[dict[str, Callable[[Teller, Any], None]]]
    """The events told here, by type."""

    def __init__(self, state: GameState):
        self.s = state
        self.drafts: list[Draft] = []
        self.action = -1
        self.through = False
        """The action is a `next_step` with `through`: say which steps it passed."""
        self.passing: tuple[str, int] | None = None
        """A step entered during such an action, with the drafts count when it began."""

    # --- players and entries --------------------------------------------------------------

    def who(self, seat: int | None) -> Arg:
        """A player by seat ('?' when there is none)."""
        return seat_ref(self.s, seat)

    def named(self, seat: int) -> Arg:
        """A player with their clan."""
        return named(self.s, seat)

    def seat_key(self, seat: int) -> int | str:
        """A player as a key of `Draft.items`."""
        return seat if 0 <= seat < len(self.s.players) else "?"

    def new(self, kind: str, head: Message | None = None, player: int | None = None,
            key: Key | None = None) -> Draft:
        """Start an entry of this action."""
        last = self.drafts[-1] if self.drafts else None
        if last is not None and last.action == self.action and last.kind == "effect":
            last.what = None  # what follows tells what the effect did
        draft = Draft(self.action, key or key_of(self.s), kind, player, head)
        self.drafts.append(draft)
        return draft

    def find(self, kinds: str | tuple[str, ...], player: int | None = None) -> Draft | None:
        """The latest entry of this action of one of these kinds (and this player)."""
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        for d in reversed(self.drafts):
            if d.action != self.action:
                return None
            if d.kind in kinds and (player is None or d.player == player):
                return d
        return None

    def passed(self) -> None:
        """A step a `through` action entered and left with nothing told: say so."""
        if self.passing is None:
            return
        step, count = self.passing
        self.passing = None
        if step in ("preparation", "aftermath") and len(self.drafts) == count:
            loc = self.s.locations[self.s.location_index]
            self.new("skip", msg("{step}: no effect due at {place}", step=term(step),
                                 place=place(loc.id)),
                     key=(self.s.round, "resolution", loc.id, step))

    def attach(self, part: Message, kind: str, player: int | None = None) -> None:
        """Add to this action's Frenzy/Drain (of `player`) or Conflict entry, or stand alone."""
        d = (self.find(("frenzy", "drain"), player) if player is not None
             else self.find("conflict"))
        if d:
            d.parts.append(part)
        else:
            self.new(kind, part, player)

    def moving(self, player: int | None) -> Draft:
        """The entry of a player's withdrawal being built (its sentence ends at 'withdrew')."""
        return self.find("moving", player) or self.new("moving", None, player)

    # --- the richer events ----------------------------------------------------------------

    def blood(self, e: AnyEvent) -> None:
        n = self.who
        if e.kind == "feed":
            d = self.find("feed") or self.new("feed", msg("Each player feeds"))
            d.parts.append(msg("{who} +{n} Blood", who=n(e.player), n=e.delta))
        elif e.kind == "spend" and e.reason == "face-down card":
            pass  # implied by 'plays a card face down'
        elif e.kind == "steal":
            if e.delta < 0:
                args = {"by": n(e.by), "n": -e.delta, "who": n(e.player)}
                self.new("steal", msg("{by} steals {n} Blood from {who} with {reason}",
                                      reason=kept(e.reason), **args) if because(e.reason)
                         else msg("{by} steals {n} Blood from {who}", **args), e.by)
        elif e.kind == "drain" and self.find(("frenzy", "drain"), e.player):
            self.find(("frenzy", "drain"), e.player).suffix(msg("{said} (+{n} Blood)", n=e.delta))
        elif e.kind == "frenzy":
            part = msg("with no active Alliance card, {who} gains {n} Blood", who=n(e.player),
                       n=e.delta)
            d = self.find("frenzy", e.player)
            d.parts.append(part) if d else self.new("frenzy", part, e.player)
        else:
            template = BLOOD_VERBS.get(e.kind) or BLOOD_VERBS["gain" if e.delta > 0 else "lose"]
            said = msg(template.key, who=n(e.player), n=abs(e.delta))
            if e.by is not None and e.by != e.player:
                said = (msg("{said} to {by}'s {reason}", said=said, by=n(e.by),
                                   reason=kept(e.reason))
                        if because(e.reason) else msg("{said} (caused by {by})", said=said,
                                                      by=n(e.by)))
            elif because(e.reason):
                said = msg("{said} — {reason}", said=said, reason=kept(e.reason))
            self.new("blood", said, e.player)

    def influence(self, e: AnyEvent) -> None:
        n, reason = self.who, e.reason
        placed = reason[:3] in ("1st", "2nd", "3rd")
        d = self.find("conflict")
        if d and (placed or reason == "won the Prince's Haven"):
            d.items.setdefault(self.seat_key(e.player), []).append(
                msg("{n} Influence", n=e.delta) if placed
                else msg("{n} more Influence for winning the Prince's Haven", n=e.delta))
            return
        f = self.find("frenzy")
        if f and e.by is not None and e.by == e.player and ": " in reason:
            source = reason.rsplit(": ", 1)[0]
            source = "the Frenzy" if source == "sent a player into Frenzy" else source
            if not f.gains:
                f.parts.append(Message(key=""))  # said below, once the gains are known
            f.gains.append((e.delta, source))
            total = sum(g for g, _ in f.gains)
            if f.gains == [(1, "the Frenzy")]:
                f.parts[-1] = msg("{who} gains {n} Influence", who=n(e.player), n=total)
            else:
                why = series([msg("{n} for {source}", n=g, source=msg("the Frenzy") if src ==
                                  "the Frenzy" else src) for g, src in f.gains])
                f.parts[-1] = msg("{who} gains {n} Influence ({why})", who=n(e.player), n=total,
                                  why=why)
            return
        if f and reason == "Frenzy with no active Alliance card":
            f.parts.append(msg("{who} has no active Alliance card to drain and loses {n} "
                               "Influence", who=n(e.player), n=-e.delta))
            return
        args = {"who": n(e.player), "n": abs(e.delta)}
        said = msg("{who} gains {n} Influence", **args) if e.delta > 0 else \
            msg("{who} loses {n} Influence", **args)
        self.new("influence", msg("{said} — {reason}", said=said, reason=kept(reason))
                 if because(reason) else said, e.player)

    def deployed(self, e: AnyEvent) -> None:
        where = place(e.location)
        relic = self.find("relic", e.player)
        if relic:
            relic.parts.append(msg("{n} Blood onto {place}", n=e.amount, place=where))
            return
        d = self.find("play", e.player)
        if d:
            d.parts.append(msg("deploys {n} Blood from the Bank for flipped Diablerie",
                               n=e.amount) if e.from_bank else
                           msg("deploys {n} Blood", n=e.amount))
        else:
            self.new("play", msg("{who} deploys {n} Blood at {place}", who=self.who(e.player),
                                 n=e.amount, place=where), e.player)

    def drained(self, e: AnyEvent) -> None:
        card = next(c for c in self.s.players[e.player].alliance if c.uid == e.uid)
        args = {"who": self.who(e.player), "card": card_ref(card.card.id, card.card.name)}
        if not e.frenzy:
            self.new("drain", msg("{who} drains {card}", **args), e.player)
            return
        if card.card.ability == "drained_in_frenzy":
            part = msg("{who}'s {card} is drained directly (its own ability)", **args)
        elif e.random:
            part = msg("a random draw drains {who}'s {card}", **args)
        else:
            part = msg("the card drawn at the table drains {who}'s {card}", **args)
        d = self.find("frenzy", e.player)
        d.parts.append(part) if d else self.new("frenzy", part, e.player)

    def frenzy(self, e: AnyEvent) -> None:
        args = {"who": self.who(e.player), "by": self.who(e.by)}
        if e.by is None:
            said = msg("{who} enters Frenzy", **args)
        elif e.by == e.player:
            said = msg("{who} enters Frenzy (by their own effect: nobody gains Influence)",
                       **args)
        elif teammates(self.s, e.by, e.player):
            said = msg("{who} enters Frenzy (caused by their teammate {by}: no Influence "
                       "between teammates)", **args)
        else:
            said = msg("{who} enters Frenzy (caused by {by})", **args)
        self.new("frenzy", said, e.player)

    def power_modified(self, e: AnyEvent) -> None:
        card = deployed(self.s, e.uid)
        m = e.modifier
        kind = f"power:{m.source}:{m.kind}:{m.amount}"
        d = self.find(kind)
        if d is None:
            head = (msg("{source} halves the printed Power of {cards}", source=kept(m.source))
                    if m.kind == "halve_printed" else
                    msg("{source}: {amount} Power to {cards}", source=kept(m.source),
                        amount=f"{m.amount:+d}"))
            d = self.new(kind, head, card.owner if card else None)
        d.parts.append(msg("{who}'s {card}", who=self.who(card.owner if card else None),
                           card=deployed_label(card)))

    def conflict(self, e: AnyEvent) -> None:
        r, who = e.result, self.named
        key = (*key_of(self.s)[:3], "conflict")  # also when an empty Location is skipped
        if r.outcome == "no_cards":
            self.new("conflict", msg("Nobody has clan cards here: no rewards"), key=key)
        elif r.outcome == "uncontested":
            seat = r.ranking[0]
            self.new("conflict", msg("Only {who} had clan cards here as Withdraw ended ({n} "
                                     "Power): only the first place counts", who=who(seat),
                                     n=r.totals.get(seat, 0)), key=key)
        else:
            seats = [*r.ranking, *(p for p in r.totals if p not in r.ranking)]
            ranks = series([msg("{who} {n}", who=who(p), n=r.totals[p]) for p in seats])
            ties = [kept(t) for t in conflict_tie_notes(self.s, r)]
            self.new("conflict", msg("{ranks} ({ties})", ranks=ranks, ties=series(ties, "; "))
                     if ties else msg("{said}", said=ranks), key=key)

    def game_end(self, e: AnyEvent) -> None:
        board = e.scoreboard
        key: Key = (self.s.round, "game_over", None, None)
        if board.teams:
            team = board.teams[0]
            self.new("winner", msg("Team {team} wins with {n} Influence ({players})",
                                   team=team.team, n=team.influence,
                                   players=items([self.who(p) for p in team.players])), key=key)
        else:
            top = board.rows[0]
            self.new("winner", msg("{who} wins with {n} Influence", who=self.named(top.player),
                                   n=top.influence.total), key=key)
        rows = []
        for r in board.rows:
            row = msg("{rank}. {who} {n} Influence, {blood} Blood", rank=r.rank,
                      who=self.named(r.player), n=r.influence.total, blood=r.blood)
            row = msg("{said} (eliminated)", said=row) if r.eliminated else row
            rows.append(msg("{said} — {note}", said=row, note=kept(r.tiebreak)) if r.tiebreak
                        else row)
        teams = [msg("Team {team} {n} Influence, {blood} Blood", team=t.team, n=t.influence,
                     blood=t.blood) for t in board.teams or []]
        teams = [msg("{said} — {note}", said=row, note=kept(t.tiebreak)) if t.tiebreak else row
                 for row, t in zip(teams, board.teams or [], strict=True)]
        self.new("score", msg("Final scores: {scores}", scores=series(teams + rows, "; ")),
                 key=key)


Teller.RICH = {"blood_changed": Teller.blood, "influence_changed": Teller.influence,
               "blood_deployed": Teller.deployed, "card_drained": Teller.drained,
               "frenzy_entered": Teller.frenzy, "power_modified": Teller.power_modified,
               "conflict_resolved": Teller.conflict, "game_ended": Teller.game_end}
