"""Per-player inputs collected at a table before they become one engine command.

Three Resolution steps need something from several players at once:
- **Withdraw (§8.1)**: every present player chooses Stay or Withdraw in secret. When the last
  choice is in, all are revealed together; if withdrawing players leave face-down cards (not at
  the Prince's Haven), their owners name those cards; then one `choose_withdraw` is played.
- **Revelation (§8.2)**: the owners of the face-down cards name them; then one `reveal`.
- **Succubus Club (§15)**: each player with Blood there says how much they take back; then one
  `take_back_blood`.

The inputs (`models.table.Pending`) are not game events: they belong to one *step instance*
(`step_key`) and are dropped as soon as the game is no longer there (an undo, a redo, the Relic
that restarts the Withdraw step). Every function here is pure: it returns a new `Pending` or
raises `InputRefused`, and never changes the game. Who may enter what is `companion.table.access`.
"""

from companion.rules.errors import InputRefused, card_arg
from companion.rules.game import Game
from companion.rules.legal import Legal
from companion.rules.queries import deployed_owners, same_card, taken_cards
from models.cards import ClanCard
from models.commands import AnyCommand, ChooseWithdraw, Reveal, TakeBackBlood
from models.message import Message, msg, place, player, term
from models.table import Choice, Pending

Kind = str
"""'withdraw', 'revelation' or 'take_back'."""


def step_kind(game: Game) -> Kind | None:
    """Which collecting step the game is at, if any."""
    s = game.state
    if s.phase != "resolution" or s.step is None:
        return None
    if s.awaiting == "take_back_blood":
        return "take_back"
    return s.step if s.step in ("withdraw", "revelation") else None


def step_key(game: Game) -> str | None:
    """Identity of the current collecting step instance (None when nothing is collected).

    Round, Location, step and the number of actions before the one that started the step: a
    step left (undo) and reached again by other actions gets another key.
    """
    kind = step_kind(game)
    if kind is None:
        return None
    s = game.state
    started = 0
    for n in range(len(game.actions), 0, -1):
        if any(_starts(e, s.location_index, kind) for e in game.actions[n - 1].events):
            started = n
            break
    return f"r{s.round}.l{s.location_index}.{kind}.a{started}"


def _starts(event, index: int, kind: Kind) -> bool:
    if kind == "take_back":
        return event.type == "awaiting_choice" and event.choice == "take_back_blood"
    return event.type == "step_started" and event.location_index == index and event.step == kind


def current(game: Game, pending: Pending | None) -> Pending | None:
    """The pending inputs valid now: those of the current step (cleaned of players no longer
    concerned), a fresh empty record at a collecting step, or None elsewhere."""
    key = step_key(game)
    if key is None:
        return None
    if pending is None or pending.key != key:
        return Pending(key=key)
    lg = game.legal()
    who = choosers(lg)
    choices = {p: c for p, c in pending.choices.items() if p in who}
    return pending.model_copy(update={
        "choices": choices,
        "revealed": pending.revealed or bool(choices) and set(choices) >= set(who),
        "amounts": {p: a for p, a in pending.amounts.items() if p in lg.take_back},
    })


def choosers(lg: Legal) -> list[int]:
    """Players who choose Stay/Withdraw now (§8.1): those present, in turn order."""
    return list(lg.present) if lg.step == "withdraw" and not lg.awaiting else []


def needed_cards(game: Game, pending: Pending | None) -> dict[int, list[str]]:
    """Face-down card uids to be named now, by owner (empty when none are)."""
    kind = step_kind(game)
    lg = game.legal()
    if kind == "revelation":
        return dict(lg.face_down)
    if kind == "withdraw" and pending is not None and pending.revealed:
        return {p: uids for p, uids in lg.face_down.items()
                if pending.choices.get(p) == "withdraw"}
    return {}


NOT_NOW: dict[tuple[Kind, bool], Message] = {
    ("withdraw", True): msg("Stay/Withdraw refused: not now, it is the {step} step ({rule})"),
    ("withdraw", False): msg("Stay/Withdraw refused: not now, it is the {phase} phase ({rule})"),
    ("take_back", True): msg("taking back Blood refused: not now, it is the {step} step "
                             "({rule})"),
    ("take_back", False): msg("taking back Blood refused: not now, it is the {phase} phase "
                              "({rule})"),
}
"""The refusal of an input at another step (True) or outside Resolution (False), by kind."""


def _need(game: Game, kind: Kind) -> Legal:
    if step_kind(game) != kind:
        lg = game.legal()
        rule = {"withdraw": "§8.1", "revelation": "§8.2", "take_back": "§15"}[kind]
        said = NOT_NOW[kind, bool(lg.step)]
        raise _refused(game, said.model_copy(update={"args": {
            "step": term(str(lg.step)), "phase": term(lg.phase), "rule": rule}}))
    return game.legal()


def _refused(game: Game, message: Message, cards: dict[str, str] | None = None) -> InputRefused:
    """An input's refusal, said in English with the players' names (and the cards')."""
    return InputRefused(message, [p.name for p in game.state.players], cards)


def choose(game: Game, pending: Pending, seat: int, choice: Choice | None) -> Pending:
    """Enter, change or (None) take back a player's secret Stay/Withdraw.

    When it is the last one, the choices become revealed.

    Raises:
        InputRefused: not the Withdraw step, the player is not at the Location, or every choice
            is already in and revealed.
    """
    lg = _need(game, "withdraw")
    if choice not in ("stay", "withdraw", None):
        raise _refused(game, msg("Stay/Withdraw refused: choose 'stay' or 'withdraw', not "
                                 "{choice}", choice=repr(choice)))
    who = choosers(lg)
    if seat not in who:
        raise _refused(game, msg("Stay/Withdraw refused for {player}: they are not at "
                                 "{location} (§8.1)", player=player(seat),
                                 location=place(lg.location)))
    if pending.revealed:
        raise _refused(game, msg("Stay/Withdraw refused: every choice is in and revealed; they "
                                 "can no longer change (§8.1)"))
    choices = dict(pending.choices)
    if choice is None:
        choices.pop(seat, None)
    else:
        choices[seat] = choice
    return pending.model_copy(update={"choices": choices,
                                      "revealed": set(choices) >= set(who)})


def name_cards(game: Game, pending: Pending, cards: dict[str, ClanCard]) -> Pending:
    """Enter (or correct) identities of face-down cards being named now.

    Raises:
        InputRefused: a uid is not a face-down card to be named now.
    """
    needed = {u for uids in needed_cards(game, pending).values() for u in uids}
    if not needed:
        raise _refused(game, msg("naming cards refused: no face-down card is being named now "
                                 "(§8.1, §8.2)"))
    wrong = sorted(set(cards) - needed)
    if wrong:
        raise _refused(game, msg("naming cards refused: {wrong} are not face-down cards to name "
                                 "now; these are {needed} (§8.1, §8.2)", wrong=wrong,
                                 needed=sorted(needed)))
    merged = {**pending.cards, **cards}
    _check_copies(game, cards, merged)
    return pending.model_copy(update={"cards": merged})


def _check_copies(game: Game, new: dict[str, ClanCard], merged: dict[str, ClanCard]) -> None:
    """Refuse an identity its owner already has face up, or names for another of their cards
    (§2: one copy of each card), at entry: a wrong name accepted now would block the whole
    step's command later, and with it every other player's naming.

    Raises:
        InputRefused: names the player, the card and why.
    """
    s = game.state
    owners = deployed_owners(s)
    up = taken_cards(s)
    for uid, card in new.items():
        owner = owners[uid]
        names: dict[str, str] = {}
        if same_card(card.key(), up.get(owner, [])):
            raise _refused(game, msg("naming cards refused: {player} already has {card} ({power}) "
                                     "face up this round; each player owns one copy of each card "
                                     "(§2)", player=player(owner), card=card_arg(card, names),
                                     power=card.power), names)
        twins = [u for u, c in merged.items()
                 if u != uid and owners.get(u) == owner and same_card(card.key(), [c.key() or ""])]
        if twins:
            raise _refused(game, msg("naming cards refused: {card} ({power}) is already named for "
                                     "another of {player}'s face-down cards; each player owns "
                                     "one copy of each card (§2)", card=card_arg(card, names),
                                     power=card.power, player=player(owner)), names)


def clear(game: Game, pending: Pending, player: int) -> Pending:
    """Drop every input entered for this player at this step (their choice before the reveal,
    the names of their face-down cards, their take-back): the referee's correction of a wrong
    entry, without undoing anything else."""
    owners = deployed_owners(game.state)
    choices = pending.choices if pending.revealed else \
        {p: c for p, c in pending.choices.items() if p != player}
    return pending.model_copy(update={
        "choices": choices,
        "cards": {u: c for u, c in pending.cards.items() if owners.get(u) != player},
        "amounts": {p: a for p, a in pending.amounts.items() if p != player}})


def take_back(game: Game, pending: Pending, seat: int, amount: int) -> Pending:
    """Enter (or change) the Blood a player takes back at the Succubus Club.

    Raises:
        InputRefused: not awaiting the take-back, no Blood of theirs there, or out of range.
    """
    lg = _need(game, "take_back")
    most = lg.take_back.get(seat)
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise _refused(game, msg("taking back Blood refused: {amount} is not a number of Blood",
                                 amount=repr(amount)))
    if most is None:
        raise _refused(game, msg("taking back Blood refused for {player}: they have no Blood at "
                                 "{location} (§15)", player=player(seat),
                                 location=place(lg.location)))
    if not 0 <= amount <= most:
        raise _refused(game, msg("taking back Blood refused for {player}: 0 to {most}, not "
                                 "{amount} (§15)", player=player(seat), most=most,
                                 amount=amount))
    return pending.model_copy(update={"amounts": {**pending.amounts, seat: amount}})


def command(game: Game, pending: Pending | None) -> AnyCommand | None:
    """The one engine command the inputs make, once every one is in (else None)."""
    kind = step_kind(game)
    if pending is None or kind is None:
        return None
    needed = [u for uids in needed_cards(game, pending).values() for u in uids]
    named = {u: pending.cards[u] for u in needed if u in pending.cards}
    if len(named) < len(needed):
        return None
    if kind == "withdraw":
        if not pending.revealed:
            return None
        who = choosers(game.legal())
        return ChooseWithdraw(withdraw=[p for p in who if pending.choices.get(p) == "withdraw"],
                              reveal=named)
    if kind == "revelation":
        return Reveal(cards=named) if needed else None
    most = game.legal().take_back
    if not most or set(pending.amounts) < set(most):
        return None
    return TakeBackBlood(amounts={str(p): a for p, a in pending.amounts.items()})


__all__ = ["choose", "choosers", "clear", "command", "current", "name_cards", "needed_cards",
           "step_key", "step_kind", "take_back"]
