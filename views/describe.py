"""Plain-language descriptions of actions and events, for the log and the notices."""

from companion.game import Action
from models.common import location_name
from models.events import (
    AllyDiscarded,
    AmbitionTaken,
    AnyEvent,
    BloodChanged,
    CardAcquired,
    CardDrained,
    ConflictResolved,
    DiablerieTaken,
    FrenzyEntered,
    GameEnded,
    InfluenceChanged,
    NoteAdded,
    PlayerEliminated,
    PowerModified,
    RoundEnded,
    Withdrew,
)
from models.state import GameState


def _name(state: GameState, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(state.players):
        return "?"
    return state.players[seat].name


def _card_name(state: GameState, player: int, uid: str) -> str:
    for c in state.players[player].alliance:
        if c.uid == uid:
            return c.card.name
    return "a card"


def describe(action: Action, state: GameState) -> str:
    """One line saying what an action was, e.g. 'Anna played Bloody Fury at Location #1'."""
    c = action.command
    t = c.type

    def who(ref: object) -> str:
        return _name(state, ref) if isinstance(ref, int) else str(ref)

    if t == "play_card":
        what = (f"{c.card.label()} face up" if c.face_up and c.card else "a card face down")
        extra = "".join([f" + {c.blood} Blood" if c.blood else "",
                         f" + {c.diablerie} Diablerie flip" if c.diablerie else ""])
        return f"{who(c.player)} played {what} at {location_name(c.location)}{extra}"
    if t == "drain":
        seat = next((i for i, p in enumerate(state.players) if p.name == who(c.player)), 0)
        return f"{who(c.player)} drained {_card_name(state, seat, c.card)}"
    if t == "apply_effect":
        amount = f" {c.amount}" if c.amount else ""
        return f"Effect on {who(c.player)}: {c.action.replace('_', ' ')}{amount}" + (
            f" ({c.reason})" if c.reason else "")
    texts = {
        "set_first_player": "First player chosen",
        "offer_clans": "Clans drawn for picking",
        "pick_clan": f"{who(getattr(c, 'player', ''))} took {getattr(c, 'clan', '')}",
        "offer_relics": "Relics drawn for the draft",
        "pick_relic": f"{who(getattr(c, 'player', ''))} drafted a Relic",
        "place_location_cards": "Location cards laid out",
        "feed": "Feed: everyone gained Blood",
        "place_allies": "Allies placed at the Locations",
        "finish_hand_building": "Hands built",
        "pass_turn": f"{who(getattr(c, 'player', ''))} passed",
        "choose_withdraw": "Stay/Withdraw revealed",
        "reveal": "Face-down cards revealed",
        "use_relic": f"{who(getattr(c, 'player', ''))} used their Relic",
        "next_step": "Continued to the next step",
        "resolve_effect": "Card effect resolved",
    }
    return texts.get(t, t.replace("_", " "))


def event_line(e: AnyEvent, state: GameState) -> str | None:
    """A line for an event worth telling the table, or None."""
    n = lambda seat: _name(state, seat)  # noqa: E731
    if isinstance(e, FrenzyEntered):
        cause = f", caused by {n(e.by)}" if e.by is not None and e.by != e.player else ""
        return f"FRENZY: {n(e.player)} dropped to 0 Blood{cause}"
    if isinstance(e, CardDrained):
        how = " (drawn at random)" if e.random else ""
        return f"{n(e.player)} drained {_card_name(state, e.player, e.uid)}{how}"
    if isinstance(e, DiablerieTaken):
        return f"{n(e.player)} takes {e.count} Diablerie token{'s' if e.count > 1 else ''}"
    if isinstance(e, PlayerEliminated):
        return f"{n(e.player)} is out of the game (third Diablerie)"
    if isinstance(e, InfluenceChanged):
        return f"{n(e.player)} {e.delta:+d} Influence" + (f" ({e.reason})" if e.reason else "")
    if isinstance(e, BloodChanged) and e.kind not in ("feed", "spend"):
        return f"{n(e.player)} {e.delta:+d} Blood" + (f" ({e.reason})" if e.reason else "")
    if isinstance(e, CardAcquired):
        return f"{n(e.player)} gains {e.card.card.name} into their Alliance"
    if isinstance(e, AmbitionTaken):
        return f"{n(e.player)} takes the Ambition token: turn order now starts with them"
    if isinstance(e, AllyDiscarded):
        return f"Nobody had cards at {location_name(e.location)}: its Ally leaves the game"
    if isinstance(e, ConflictResolved):
        if e.result.outcome == "no_cards":
            return None
        ranking = ", ".join(f"{n(p)} {e.result.totals.get(p, 0)}" for p in e.result.ranking)
        return f"Power at {location_name(e.location)}: {ranking}"
    if isinstance(e, Withdrew):
        return f"{n(e.player)} withdrew from {location_name(e.location)}"
    if isinstance(e, PowerModified):
        return f"Power change: {e.modifier.source}"
    if isinstance(e, RoundEnded):
        return f"Round {e.round} is over: Deployed cards go back to hand, Blood to the Bank"
    if isinstance(e, GameEnded):
        return f"The game is over: {e.scoreboard.headline()} wins"
    if isinstance(e, NoteAdded):
        return e.text
    return None


def notable(state: GameState, action: Action) -> list[str]:
    """What an action did that the table should hear (rewards, Frenzy, Diablerie…)."""
    if action.command.type in ("feed", "play_card", "pick_clan", "set_first_player"):
        lines = [event_line(e, state) for e in action.events
                 if isinstance(e, FrenzyEntered | CardDrained | DiablerieTaken
                               | PlayerEliminated | InfluenceChanged)]
    else:
        lines = [event_line(e, state) for e in action.events]
    return [line for line in lines if line]
