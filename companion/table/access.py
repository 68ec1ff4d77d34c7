"""Who may do what at a table, and what each role may see.

Roles (`models.table`): the **referee**, a player's **seat**, the **board**. Permissions come
from the engine's legal actions (`companion.rules.legal`) plus the role, never from view code:

- **Board**: nothing; it only looks.
- **Seat(p)** acts only for player p:
  - setup: `pick_clan` / `pick_relic` when it is p's pick (`Legal.actor`);
  - Planning: `play_card`, `pass_turn`, `drain` during p's own turn (`Legal.actor`);
  - `use_relic` for p (when p's Relic may be used now), `peek` for p (when p is a peeker);
  - `resolve_effect` on a due effect p owns (apply, decline, order among p's own, teammate);
  - its secret Stay/Withdraw, the identities of p's own face-down cards when they are turned
    up, and p's Succubus Club take-back (collected per player: `companion.table.collect`).
- **Referee**: every engine command for anyone, and the only one who may `undo`, `redo`,
  apply manual effects (`apply_effect`), `next_step`, enter the table's setup (first player,
  drawn clans/Relics/Allies/Location cards, Feed, Hand Building), free seats. Two limits keep
  the Stay/Withdraw secret: once a choice has been entered secretly, the referee completes the
  choosing through the per-player choices (no raw `choose_withdraw` over them), and the referee
  enters choices only for players whose seat no device holds (a player without a phone).

Decisions: `next_step` is the referee's alone (a seat could skip an effect the referee still
has to apply by hand); the take-back is collected per player (each says their own amount), and
the referee may also send the whole `take_back_blood` command.

Every refusal is an `AccessError` naming the role and the reason; it is raised before anything
changes. `allowed()` lists what a role may do now, and `view()` builds what it may see: until
every present player has chosen, no view but the chooser's own holds any Stay/Withdraw choice
or says who has chosen (only "k of n").
"""

from pydantic import BaseModel, ConfigDict

from companion.rules.engine import seat_of
from companion.rules.errors import AccessError, chain
from companion.rules.game import Game
from companion.rules.legal import Legal, ask, relic_users
from companion.rules.queries import deployed_owners
from companion.table import collect
from models.commands import AnyCommand
from models.message import Message, msg, msgn, place, player
from models.state import GameState
from models.table import (
    Allowed,
    Board,
    NamingStatus,
    Pending,
    Referee,
    Role,
    Seat,
    SeatInfo,
    TakeBackStatus,
    WithdrawStatus,
)

SEAT_COMMANDS = {"pick_clan", "pick_relic", "play_card", "pass_turn", "drain", "use_relic",
                 "peek", "resolve_effect"}
"""Engine commands a seat may send (for its own player, when the rules let it)."""

TURN_COMMANDS = {"pick_clan", "pick_relic", "play_card", "pass_turn", "drain"}
"""Seat commands allowed only when it is the seat's turn or pick (`Legal.actor`)."""

COLLECTED = {
    "choose_withdraw": msg("Stay/Withdraw is chosen secretly, each on their own device (§8.1)"),
    "reveal": msg("each player names their own face-down cards (§8.2)"),
    "take_back_blood": msg("each player enters their own take-back (§15)"),
}
"""Whole-table commands a seat contributes to instead of sending."""


def role_label(role: Role, state: GameState) -> str:
    """The role in words, e.g. "Ann's seat"."""
    if isinstance(role, Seat):
        name = state.players[role.player].name if role.player < len(state.players) else "?"
        return f"{name}'s seat"
    return "the referee" if isinstance(role, Referee) else "the board"


READ_ONLY = msg("the board is read-only")
"""The board's refusal of anything."""
REFEREE_ONLY = msg("only the referee may do this")
"""The refusal of a referee's action to another role."""


def _refuse(role: Role, state: GameState, action: str, reason: Message) -> AccessError:
    """The refusal: the role in words, the action, the reason as a message (in English with
    the players' names)."""
    return AccessError(role_label(role, state), action, reason, [p.name for p in state.players])


def relic_usable(state: GameState, player: int) -> bool:
    """Whether the player's Relic may be used now (§13, §15; `legal.relic_users`)."""
    return player in relic_users(state)[0]


def check_command(role: Role, command: AnyCommand, game: Game, pending: Pending | None) -> None:
    """Whether `role` may send this engine command now (the engine then checks the rules).

    Raises:
        AccessError: not for this role now (names the role and the reason).
        RuleError: the command names no player of this table.
    """
    s = game.state
    action = command.type.replace("_", " ")
    if isinstance(role, Board):
        raise _refuse(role, s, action, READ_ONLY)
    if isinstance(role, Referee):
        if command.type == "choose_withdraw" and pending and pending.choices:
            raise _refuse(role, s, action, msg("players are choosing Stay/Withdraw secretly; "
                                               "enter the remaining choices instead (§8.1)"))
        return
    me = role.player
    if command.type in COLLECTED:
        raise _refuse(role, s, action, COLLECTED[command.type])
    if command.type not in SEAT_COMMANDS:
        raise _refuse(role, s, action, REFEREE_ONLY)
    lg = game.legal()
    if command.type == "resolve_effect":
        due = next((d for d in lg.due if d.uid == command.card), None)
        if due is not None and due.owner != me:
            raise _refuse(role, s, action, msg("{card} is {owner}'s effect; they resolve it",
                                               card=command.card, owner=player(due.owner)))
        return
    seat = seat_of(s, command.player)
    if seat != me:
        raise _refuse(role, s, action, msg("a seat acts only for its own player, not for "
                                           "{player}", player=player(seat)))
    if command.type in TURN_COMMANDS and lg.actor != me:
        said = msg("not your turn: it is {actor}'s turn ({prompt})", actor=player(lg.actor),
                   prompt=lg.prompt_message) if lg.actor is not None else \
            msg("not your turn: it is nobody's turn ({prompt})", prompt=lg.prompt_message)
        raise _refuse(role, s, action, said)


def check_choose(role: Role, seat: int, state: GameState, seats: dict[int, str]) -> None:
    """Whether `role` may enter (or change) this player's Stay/Withdraw.

    Raises:
        AccessError: a seat choosing for another, the referee choosing for a seated player,
            or the board.
    """
    action = "Stay/Withdraw"
    if isinstance(role, Board):
        raise _refuse(role, state, action, READ_ONLY)
    if isinstance(role, Seat) and role.player != seat:
        raise _refuse(role, state, action, msg("each player chooses for themselves, not for "
                                               "{player}", player=player(seat)))
    if isinstance(role, Referee) and seat in seats:
        raise _refuse(role, state, action, msg("{player} chooses on their own device; free "
                                               "their seat first if it is lost",
                                               player=player(seat)))


def check_own(role: Role, players: set[int], state: GameState, action: str) -> None:
    """Whether `role` may enter inputs belonging to these players (card owners, take-backs).

    Raises:
        AccessError: a seat entering for another player, or the board.
    """
    if isinstance(role, Board):
        raise _refuse(role, state, action, READ_ONLY)
    if isinstance(role, Seat) and players - {role.player}:
        others = chain([player(p) for p in sorted(players - {role.player})],
                       msg("{first}, {rest}"))
        raise _refuse(role, state, action, msg("a seat enters only its own player's, not "
                                               "{players}'s", players=others))


def check_referee(role: Role, state: GameState, action: str) -> None:
    """Referee-only table actions (undo, redo, freeing seats, viewers).

    Raises:
        AccessError: any other role.
    """
    if not isinstance(role, Referee):
        raise _refuse(role, state, action, REFEREE_ONLY)


def card_owners(game: Game, uids) -> set[int]:
    """Owners of these Deployed cards."""
    owners = deployed_owners(game.state)
    return {owners[u] for u in set(uids) if u in owners}


def allowed(role: Role, game: Game, pending: Pending | None, seats: dict[int, str]) -> Allowed:
    """What `role` may do now (for the views' buttons)."""
    s, lg = game.state, game.legal()
    if isinstance(role, Board):
        return Allowed(**ask(s, lg.prompt_message))
    who = collect.choosers(lg) if pending is not None else []
    choosing = bool(who) and not pending.revealed
    needed = collect.needed_cards(game, pending)
    if isinstance(role, Referee):
        cmds = [c for c in lg.commands
                if not (c == "choose_withdraw" and pending and pending.choices)]
        return Allowed(commands=cmds,
                       choose=[p for p in who if p not in seats] if choosing else [],
                       name_cards=[u for uids in needed.values() for u in uids],
                       take_back=dict(lg.take_back), undo=game.can_undo(),
                       redo=game.can_redo(), manage_seats=True,
                       **ask(s, _referee_prompt(lg, pending, who, needed)))
    me = role.player
    if s.phase == "game_over":
        return Allowed(**ask(s, lg.prompt_message))
    cmds = [c for c in lg.commands if c in TURN_COMMANDS and lg.actor == me]
    if "use_relic" in lg.commands and relic_usable(s, me):
        cmds.append("use_relic")
    if me in lg.peekers:
        cmds.append("peek")
    mine_due = [d for d in lg.due if d.uid in lg.next_due and d.owner == me]
    if mine_due and "resolve_effect" in lg.commands:
        cmds.append("resolve_effect")
    take = {me: lg.take_back[me]} if me in lg.take_back else {}
    prompt = _seat_prompt(game, lg, pending, me, choosing and me in who, needed.get(me, []),
                          take, mine_due)
    return Allowed(commands=cmds, choose=[me] if choosing and me in who else [],
                   name_cards=needed.get(me, []), take_back=take, **ask(s, prompt))


def _chosen(location: str, chosen: int, of: int) -> Message:
    """How many of the players at a Location have chosen Stay or Withdraw (§8.1)."""
    return msg("{where}: {chosen} of {of} players have chosen Stay or Withdraw.",
               where=place(location), chosen=chosen, of=of)


def _referee_prompt(lg: Legal, pending: Pending | None, who: list[int],
                    needed: dict[int, list[str]]) -> Message:
    if who and pending is not None and not pending.revealed:
        return _chosen(lg.location, len(pending.choices), len(who))
    if needed and pending is not None:
        left = sum(1 for uids in needed.values() for u in uids if u not in pending.cards)
        return msgn("{where}: {n} face-down card(s) still to be named.",
                    "{where}: {n} face-down card(s) still to be named.", left,
                    where=place(lg.location))
    if lg.awaiting == "take_back_blood" and pending is not None:
        return msg("{where}: {said} of {of} players have said how much Blood they take back.",
                   where=place(lg.location), said=len(pending.amounts), of=len(lg.take_back))
    return lg.prompt_message


def _seat_prompt(game: Game, lg: Legal, pending: Pending | None, me: int, choosing: bool,
                 to_name: list[str], take: dict[int, int], mine_due: list) -> Message:
    s = game.state
    where = place(lg.location) if lg.location else ""
    if choosing:
        mine = pending.choices.get(me) if pending else None
        if mine is None:
            return msg("{where}: choose Stay or Withdraw.", where=where)
        # never the choice itself in the banner's large type (a neighbour could read it)
        return msg("{where}: your choice is in; you may change it until everyone has chosen.",
                   where=where)
    if to_name and pending is not None and any(u not in pending.cards for u in to_name):
        return msg("{where}: say what your face-down card(s) here are.", where=where)
    if take and (pending is None or me not in pending.amounts):
        return msg("{where}: say how much Blood you take back (0 to {most}).", where=where,
                   most=take[me])
    if mine_due:
        return msg("{where}: resolve {card}.", where=where, card=mine_due[0].label)
    if lg.actor == me and s.phase == "planning":
        return msg("Your Planning turn ({turn} of {turns}).", turn=lg.turn, turns=lg.turns)
    if lg.actor == me and s.phase == "setup":
        return msg("Your pick.")
    return msg("Nothing to do now.")


class TableView(BaseModel):
    """Everything one role may see of a table: no secret it may not know is in here."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    table_id: str
    """Table id."""
    game_id: str
    """Game id."""
    version: int
    """Table version this view was drawn from; send it back with every action."""
    role: Role
    """The role this view is for."""
    state: GameState
    """The game state (public by construction: hidden cards are never entered)."""
    legal: Legal
    """What the rules allow now (whoever acts)."""
    prompt: str
    """What happens now at the table, in a sentence (for everyone; in English)."""
    prompt_message: Message
    """The same as a message, for a device to say in its language."""
    seats: list[SeatInfo]
    """Every player seat."""
    allow_viewers: bool
    """Whether the board may be joined without a code."""
    withdraw: WithdrawStatus | None = None
    """The Stay/Withdraw being chosen, if any."""
    naming: NamingStatus | None = None
    """Face-down cards being named, if any."""
    take_back: TakeBackStatus | None = None
    """Succubus Club take-back being collected, if any."""
    allowed: Allowed
    """What this role may do now."""
    last_change: str | None = None
    """The last change of the table, in a few words (names no secret)."""
    news: list[Message] = []
    """The same change as messages (`last_change` says them in English, joined by "; ")."""


def seat_list(state: GameState, seats: dict[int, str]) -> list[SeatInfo]:
    """Every player seat, taken or free (never which device holds it)."""
    return [SeatInfo(player=i, name=p.name, taken=i in seats)
            for i, p in enumerate(state.players)]


def view(role: Role, game: Game, pending: Pending | None, seats: dict[int, str], *,
         table_id: str, version: int, allow_viewers: bool,
         last_change: str | None, news: list[Message] | None = None) -> TableView:
    """What `role` may see of the table: secret choices are stripped (§8.1)."""
    s, lg = game.state, game.legal()
    who = collect.choosers(lg) if pending is not None else []
    withdraw = None
    if who and pending is not None:
        withdraw = WithdrawStatus(
            location=lg.location, chosen=len(pending.choices), of=len(who),
            mine=pending.choices.get(role.player) if isinstance(role, Seat) else None,
            revealed=dict(pending.choices) if pending.revealed else None)
    needed = collect.needed_cards(game, pending)
    naming = NamingStatus(needed=needed, named={u: c for u, c in pending.cards.items()
                                                if any(u in x for x in needed.values())}
                          ) if needed and pending is not None else None
    take = TakeBackStatus(most=dict(lg.take_back), entered=dict(pending.amounts)
                          ) if lg.awaiting == "take_back_blood" and pending is not None else None
    return TableView(
        table_id=table_id, game_id=game.header.game_id, version=version, role=role, state=s,
        legal=lg, **ask(s, lg.prompt_message if withdraw is None or withdraw.revealed else
                        _chosen(lg.location, withdraw.chosen, withdraw.of)),
        seats=seat_list(s, seats),
        allow_viewers=allow_viewers, withdraw=withdraw, naming=naming, take_back=take,
        allowed=allowed(role, game, pending, seats), last_change=last_change,
        news=list(news or []))
