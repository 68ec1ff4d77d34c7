"""What is legal now: the commands the referee may send, with their limits (§2–§13).

The UI builds its buttons from this; it never re-implements a rule.
"""

from companion.rules.effects import (
    DueEffect,
    by_hand,
    due_effects,
    next_effects,
    partner_challenge,
    play_triggers,
    unknown_timing,
)
from companion.rules.engine import (
    blood_relic_window,
    clan_picker,
    feed_amounts,
    hand_building_cards,
    relic_picker,
)
from companion.rules.queries import (
    MAX_BLOOD_PER_PLAY,
    current_player,
    has_ability,
    planning_turns,
    present_players,
    taken_allies,
    taken_cards,
    turn_order,
)
from models.common import CLANS, Clan, Frozen, LocationId, Phase, Step
from models.message import Message, msg, player
from models.message import place as place_ref
from models.state import GameState


class Legal(Frozen):
    """The legal next actions and their limits."""

    phase: Phase
    """Current phase."""
    round: int
    """Current round (0 in setup)."""
    step: Step | None = None
    """Resolution step."""
    location: LocationId | None = None
    """Location being resolved."""
    prompt: str
    """What happens now, in a sentence (in English: `prompt_message` with the names)."""
    prompt_message: Message
    """The same as a message (`models.message`), for a device to say in its language."""
    commands: list[str]
    """Command types accepted now."""
    actor: int | None = None
    """Seat whose turn or choice it is."""
    turn: int | None = None
    """Planning: this player's turn number (1-based)."""
    turns: int | None = None
    """Planning: turns per player this round."""
    locations: list[LocationId] = []
    """Planning: Locations a card may be played at."""
    max_blood_face_up: int = 0
    """Planning: most Blood playable with a face-up card now (before any Drain)."""
    max_blood_face_down: int = 0
    """Planning: most Blood playable with a face-down card now."""
    can_play_face_down: bool = False
    """Planning: whether the face-down cost (1 Blood) is affordable now."""
    max_diablerie: int = 0
    """Planning: face-up Diablerie tokens that may be flipped."""
    drainable: list[str] = []
    """Planning: active Alliance cards the player may Drain."""
    present: list[int] = []
    """Resolution: players at the Location, in turn order."""
    face_down: dict[int, list[str]] = {}
    """Resolution: face-down card uids per player at the Location that must be identified
    (at Withdraw: if their owner withdraws; none at the Prince's Haven)."""
    clans: list[Clan] = []
    """Setup: clans the picker may take."""
    relics: list[int] = []
    """Setup: Relic indexes still available."""
    feed: dict[int, int] = {}
    """Feed: Blood each player will gain."""
    due: list[DueEffect] = []
    """Resolution: card effects still to resolve at this step, in turn order (§8.3–§8.5)."""
    next_due: list[str] = []
    """Resolution: uids of the due effects that may be resolved now (first owner's)."""
    awaiting: str | None = None
    """Resolution: an after-Location choice awaited (take_back_blood)."""
    take_back: dict[int, int] = {}
    """Succubus Club: most Blood each player may take back."""
    peekers: list[int] = []
    """Players who may Spend Blood to look at face-down cards (the peeking Ally, §15)."""
    peekable: list[str] = []
    """Face-down Deployed card uids on the table."""
    max_blood: dict[str, dict[str, int]] = {}
    """Planning: most Blood playable per Location, face 'up' and 'down', after Passive losses;
    with a partner's Challenge also 'up_with_partner' and 'down_with_partner' (it reaches the
    play too)."""
    partner_challenge: int | None = None
    """Planning, tag team: the current player's partner whose face-up Challenge (BR03) may
    reach this play if they choose (`play_card.include_teammate`, §13)."""
    hand_cards: int = 0
    """Hand Building: cards each player adds."""
    relic_users: list[int] = []
    """Players who may use their Relic now, in turn order (§13, §15): the restoring Relic in its
    owner's Planning turn with a drained card; the Blood Relic as Resolution begins; a Relic the
    companion does not know at any time from Feed to Resolution (its effect by hand)."""
    relic_cards: dict[int, list[str]] = {}
    """Drained Alliance cards the restoring Relic may make active, by its owner."""
    taken_cards: dict[int, list[str]] = {}
    """Planning and Resolution: per player, the clan cards (catalogue id, else name) they have
    face up on the table; a play, a reveal or a withdraw identity may not name them (§1, §2)."""
    taken_allies: list[str] = []
    """Allies (catalogue id, else name) in an Alliance or at a Location: Location Setup may not
    lay them (§1)."""
    by_hand: list[str] = []
    """Resolution: face-up cards here that act at this step but that the app does not apply
    (the referee applies them by hand), e.g. "Ann's Hunt (2)"."""
    unknown_timing: list[str] = []
    """Resolution: face-up cards here whose kind the app was never told (it cannot know
    whether or when they act)."""


def relic_users(state: GameState) -> tuple[list[int], dict[int, list[str]]]:
    """Who may use their Relic now, and which drained cards the restoring Relic may restore
    (§13, §15)."""
    s = state
    users: list[int] = []
    cards: dict[int, list[str]] = {}
    if s.phase in ("setup", "game_over"):
        return users, cards
    for seat in turn_order(s):
        p = s.players[seat]
        if p.relic is None or p.relic_used:
            continue
        if p.relic.ability == "restore_drained":
            drained = [c.uid for c in p.alliance if c.drained]
            if drained and s.phase == "planning" and current_player(s) == seat:
                users.append(seat)
                cards[seat] = drained
        elif p.relic.ability == "blood_each_location":
            if blood_relic_window(s):
                users.append(seat)
        else:
            users.append(seat)
    return users, cards


def _anytime(s: GameState) -> dict:
    """Commands accepted at any point from Feed to Resolution, and who may use a Relic."""
    users, cards = relic_users(s)
    return {"commands": ["apply_effect", *(["use_relic"] if users else [])],
            "relic_users": users, "relic_cards": cards}


def _with(cmds: list[str], s: GameState) -> dict:
    extra = _anytime(s)
    return {**extra, "commands": [*cmds, *extra["commands"]]}


def ask(s: GameState, message: Message) -> dict[str, str | Message]:
    """A prompt's fields: the message and its English with the players' names."""
    return {"prompt": message.english([p.name for p in s.players]), "prompt_message": message}


def winner_of(s: GameState) -> Message | str:
    """Who wins, as said in the game-over prompt: the team in tag team, else the winner."""
    board = s.scoreboard
    if board is None:
        return "?"
    return msg("Team {team}", team=board.winning_team) if board.winning_team else board.winner


def legal(state: GameState) -> Legal:
    """Describe the legal next actions in `state`."""
    s = state
    base = dict(phase=s.phase, round=s.round)
    if s.phase == "game_over":
        return Legal(**base, **ask(s, msg("The game is over: {winner} wins.",
                                          winner=winner_of(s))), commands=[])
    if s.phase == "setup":
        return _setup(s, base)
    if s.phase == "feed":
        return Legal(**base, **ask(s, msg("Round {round}: Feed. Everyone gains Blood from "
                                          "their active Alliance cards.", round=s.round)),
                     feed=feed_amounts(s), **_with(["feed"], s))
    if s.phase == "location_setup":
        return Legal(**base, **ask(s, msg("Location Setup: enter the Ally drawn for each "
                                          "Location.")),
                     taken_allies=taken_allies(s), **_with(["place_allies"], s))
    if s.phase == "hand_building":
        n = hand_building_cards(s)
        return Legal(**base, **ask(s, msg("Hand Building: everyone draws {draw}, keeps {keep}.",
                                          draw=n + 1, keep=n)),
                     hand_cards=n, **_with(["finish_hand_building"], s))
    if s.phase == "planning":
        return _planning(s, base)
    return _resolution(s, base)


def _setup(s: GameState, base: dict) -> Legal:
    if s.ambition is None:
        return Legal(**base, **ask(s, msg("Choose the first player (or draw one at random).")),
                     commands=["set_first_player"])
    picker = clan_picker(s)
    if picker is not None:
        taken = {p.clan for p in s.players}
        pool = s.setup.clans_offered or list(CLANS)
        cmds = ["pick_clan"] if s.setup.clans_offered or any(taken - {None}) else [
            "offer_clans", "pick_clan"]
        return Legal(**base, **ask(s, msg("{player} picks a clan.", player=player(picker))),
                     commands=cmds, actor=picker, clans=[c for c in pool if c not in taken])
    cmds = []
    if s.variants.location_cards and not s.setup.location_cards_done:
        cmds.append("place_location_cards")
    drafter = relic_picker(s)
    if s.variants.relics and s.setup.relics_offered is None:
        cmds.append("offer_relics")
        prompt = msg("Draw the Relics for the draft.")
    elif drafter is not None:
        cmds.append("pick_relic")
        prompt = msg("{player} drafts a Relic.", player=player(drafter))
    else:
        prompt = msg("Place the Location cards.")
    free = [i for i in range(len(s.setup.relics_offered or [])) if i not in s.setup.relics_taken]
    return Legal(**base, **ask(s, prompt), commands=cmds, actor=drafter, relics=free)


def _planning(s: GameState, base: dict) -> Legal:
    seat = current_player(s)
    assert seat is not None, "planning always has a current player between actions"
    p = s.players[seat]
    room = p.blood - 1
    n = planning_turns(s)
    turn = s.turns_taken[seat] + 1
    cmds = ["play_card"] if p.hand_size else ["pass_turn"]
    drainable = [c.uid for c in p.alliance if not c.drained]
    if drainable:
        cmds.append("drain")
    partner = partner_challenge(s, seat)

    def most(lost: int) -> dict[str, int]:
        return {"up": max(0, min(MAX_BLOOD_PER_PLAY, room - lost)),
                "down": max(0, min(MAX_BLOOD_PER_PLAY, room - lost - 1))}

    max_blood = {}
    for loc in s.locations:
        max_blood[loc.id] = most(len(play_triggers(s, seat, loc.id)))
        if partner is not None:
            both = most(len(play_triggers(s, seat, loc.id, include_teammate=True)))
            max_blood[loc.id] |= {f"{k}_with_partner": v for k, v in both.items()}
    return Legal(
        **base, **ask(s, msg("Planning, round {round}: {player}'s turn {turn} of {turns}.",
                             round=s.round, player=player(seat), turn=turn, turns=n)),
        actor=seat, turn=turn, turns=n, locations=[loc.id for loc in s.locations],
        max_blood_face_up=max(0, min(MAX_BLOOD_PER_PLAY, room)),
        max_blood_face_down=max(0, min(MAX_BLOOD_PER_PLAY, room - 1)),
        can_play_face_down=room >= 1, max_diablerie=p.diablerie_up, drainable=drainable,
        max_blood=max_blood, partner_challenge=partner, taken_cards=taken_cards(s),
        **_with(cmds, s), **_peek(s))


def _resolution(s: GameState, base: dict) -> Legal:
    loc = s.locations[s.location_index]
    here = present_players(s, loc)
    face_down = {p: [c.uid for c in loc.positions[p].cards if not c.face_up] for p in here}
    face_down = {p: uids for p, uids in face_down.items() if uids}
    if s.step == "withdraw" and loc.id == "haven":
        face_down = {}  # withdrawing from the Haven takes cards back to hand unseen (§8.1)
    where = place_ref(loc.id)
    prompts = {
        "withdraw": msg("{where}: each player here reveals Stay or Withdraw.", where=where)
        if here else msg("{where}: nobody is here; continue.", where=where),
        "revelation": msg("{where}: turn the face-down cards up and say what they are.",
                          where=where),
        "preparation": msg("{where}: apply Preparation effects in turn order, then continue.",
                           where=where),
        "conflict": msg("{where}: apply Conflict effects in turn order, then continue to "
                        "compare Power.", where=where),
        "aftermath": msg("{where}: apply Aftermath effects in turn order, then continue.",
                         where=where),
    }
    due = due_effects(s)
    nxt = next_effects(s)
    cmds = {"withdraw": ["choose_withdraw"], "revelation": ["reveal"]}.get(s.step, ["next_step"])
    prompt = prompts[s.step]
    take_back = {}
    if s.awaiting == "take_back_blood":
        cmds = ["take_back_blood"]
        take_back = {p: min(3, loc.positions[p].blood) for p in turn_order(s)
                     if loc.positions[p].blood}
        prompt = msg("{where} is resolved: each player may take back up to 3 Blood from "
                     "here.", where=where)
    elif due:
        cmds = ["resolve_effect"]
        prompt = msg("{where}: {player} resolves {card}.", where=where,
                     player=player(nxt[0].owner), card=nxt[0].label)
    return Legal(**base, step=s.step, location=loc.id, **ask(s, prompt),
                 present=here, face_down=face_down, due=due,
                 next_due=[d.uid for d in nxt], awaiting=s.awaiting, take_back=take_back,
                 taken_cards=taken_cards(s), by_hand=by_hand(s),
                 unknown_timing=unknown_timing(s), **_with(cmds, s), **_peek(s))


def _peek(s: GameState) -> dict:
    """Who may look at face-down cards now, and which cards there are (§15)."""
    peekers = [p for p in turn_order(s)
               if s.players[p].blood > 1 and has_ability(s, p, "peek_face_down")]
    cards = [c.uid for loc in s.locations for pos in loc.positions for c in pos.cards
             if not c.face_up]
    return {"peekers": peekers, "peekable": cards} if peekers and cards else {}

