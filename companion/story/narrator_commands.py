"""What a command did, in a few words, as messages: the log's line for an action that moved
nothing (`headline`) and a table's news of a change or an undo (`news`).

Both name no secret: a face-down card stays "a card".
"""

from __future__ import annotations

from typing import Any

from companion.rules.engine import seat_of
from companion.rules.errors import RuleError
from companion.rules.queries import deployed_owners
from companion.story.narrator_parts import place
from models.message import Message, msg, player, term
from models.state import GameState

HEADLINES = {
    "play_card": msg("{who} played a card"),
    "drain": msg("{who} drained a card"),
    "pass_turn": msg("{who} passed"),
    "use_relic": msg("{who} used their Relic"),
    "pick_clan": msg("{who} picked a clan"),
    "pick_relic": msg("{who} drafted a Relic"),
    "choose_withdraw": msg("Stay/Withdraw revealed"),
    "reveal": msg("Face-down cards turned up"),
    "finish_hand_building": msg("Hands built"),
    "feed": msg("Feed"),
    "next_step": msg("Next step"),
    "place_allies": msg("Allies placed"),
    "resolve_effect": msg("Card effect resolved"),
    "apply_effect": msg("Effect on {who}"),
    "take_back_blood": msg("Blood taken back"),
    "peek": msg("{who} looked at a face-down card"),
}
"""A command as the log names it ({who}: the command's player)."""

WHAT_PLAYERS_DID = {
    "play_card": msg("{who} played a card"),
    "pass_turn": msg("{who} passed"),
    "drain": msg("{who} drained a card of their Alliance"),
    "use_relic": msg("{who} used their Relic"),
    "peek": msg("{who} looked at a face-down card"),
    "pick_clan": msg("{who} picked a clan"),
    "pick_relic": msg("{who} picked a Relic"),
    "resolve_effect": msg("{who} resolved a card effect"),
}
"""What a player's command did, for a table's news ({who}: the player)."""

WHAT_THE_TABLE_DID = {
    "choose_withdraw": msg("the Stay/Withdraw choices were revealed"),
    "reveal": msg("the face-down cards were turned up"),
    "next_step": msg("the table moved on a step"),
    "take_back_blood": msg("the Blood taken back was entered"),
    "apply_effect": msg("an effect was applied by hand"),
    "feed": msg("Feed was entered"),
    "place_allies": msg("the Allies were placed"),
    "finish_hand_building": msg("Hand Building ended"),
    "set_first_player": msg("the first player was chosen"),
    "offer_clans": msg("the clans were drawn"),
    "offer_relics": msg("the Relics were drawn"),
    "place_location_cards": msg("the Location cards were placed"),
}
"""What a whole-table command did, for a table's news."""


def headline(before: GameState, command: Any, after: GameState | None = None) -> Message:
    """A few words on a command, from the state it was played in (and the one it led to)."""
    kind = getattr(command, "type", "")
    if kind == "next_step" and after is not None:
        if after.phase == "resolution" and after.step:
            return msg("Went on to {step} at {place}", step=term(after.step),
                       place=place(after.locations[after.location_index].id))
        return msg("Went on to {phase}", phase=term(after.phase))
    if kind not in HEADLINES:
        return msg("{command}", command=kind.replace("_", " ").capitalize())
    ref = getattr(command, "player", None)
    who = (player(ref) if isinstance(ref, int) and 0 <= ref < len(before.players)
           else str(ref) if ref is not None else "?")
    return msg(HEADLINES[kind].key, who=who)


def news(command: Any, state: GameState) -> Message:
    """Who did what, for "the table changed: …" and the news of an undo (`state`: the game
    as it stands after)."""
    kind = command.type
    if kind in WHAT_THE_TABLE_DID:
        return WHAT_THE_TABLE_DID[kind]
    ref = getattr(command, "player", None)
    if kind == "resolve_effect":
        ref = deployed_owners(state).get(command.card)
    try:
        seat = seat_of(state, ref) if ref is not None else None
    except RuleError:
        seat = None
    if seat is None:
        return msg("the referee entered: {command}", command=kind.replace("_", " "))
    if kind in WHAT_PLAYERS_DID:
        return msg(WHAT_PLAYERS_DID[kind].key, who=player(seat))
    return msg("{who}: {command}", who=player(seat), command=kind.replace("_", " "))
