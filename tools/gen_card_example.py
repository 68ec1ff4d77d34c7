"""Write examples/card_effects.json: a round-3 game, entered as a position, where every
automated card of §15 acts. Run from the repo root; it checks each effect as it plays."""

import json
import sys
from pathlib import Path

from companion.rules.catalogue import shipped
from companion.rules.game import Game
from models.setup import Position

CAT = shipped()


def clan(card_id: str) -> dict:
    return next(c for c in CAT.clan_cards if c.id == card_id).identity().model_dump(
        exclude_none=True)


def plain(power: int, kind: str = "conflict") -> dict:
    return {"power": power, "kind": kind}


def ally(entry_id: str, **values) -> dict:
    """A catalogue Ally completed with values the user read off the card (made up here)."""
    entry = next(a for a in CAT.allies if a.id == entry_id)
    name = entry.name or entry.partial_name or f"Example Ally {entry_id}"
    base = {"name": name, "kind": entry.kind or "human",
            "influence": 1, "feed": 1, "drain_blood": 2, "drained_influence": 0,
            "id": entry.id, "ability": entry.ability}
    return {**base, **values}


VICTIM = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1, "drain_blood": 3,
          "drained_influence": 0, "id": "VICTIM"}
RELIC_RESTORE = {"name": "Restoring relic", "influence": 0, "id": "RELIC-RESTORE",
                 "ability": "restore_drained"}
RELIC_BLOOD = {"name": "Blood relic", "influence": 2, "id": "RELIC-BLOOD",
               "ability": "blood_each_location"}
RELIC_PLAIN = {"name": "Another relic", "influence": 1}
PLAIN_ALLY = {"name": "Example Ally 1", "kind": "human", "influence": 1, "feed": 1,
              "drain_blood": 2, "drained_influence": 0}

position = {
    "players": [
        {"name": "Ada", "clan": "Brujah", "blood": 8, "influence": 6,
         "alliance": [{"card": VICTIM}, {"card": ally("ALLY-FRENZY-BONUS", influence=2)},
                      {"card": VICTIM, "drained": True}],
         "relic": RELIC_RESTORE},
        {"name": "Ben", "clan": "Gangrel", "blood": 9, "influence": 5,
         "alliance": [{"card": VICTIM}, {"card": ally("ALLY-FRENZY-DRAIN", drain_blood=3)},
                      {"card": ally("ALLY-WIN-TIES", influence=2)}],
         "relic": RELIC_BLOOD},
        {"name": "Cat", "clan": "Nosferatu", "blood": 6, "influence": 5,
         "alliance": [{"card": VICTIM}, {"card": ally("AL14", influence=3, drain_blood=5)},
                      {"card": ally("ALLY-PEEK")}],
         "relic": RELIC_PLAIN},
        {"name": "Dov", "clan": "Tremere", "blood": 7, "influence": 4,
         "alliance": [{"card": VICTIM}, {"card": PLAIN_ALLY}],
         "relic": RELIC_PLAIN},
    ],
    "variants": {"relics": True, "location_cards": True},
    "seed": 2026, "round": 3, "phase": "planning", "ambition": "Ada",
    "locations": [
        {"id": "1", "ally": ally("ALLY-ACQUIRE-5", influence=2),
         "location_card": {"name": "The Collar", "id": "THE-COLLAR", "ability": "the_collar"}},
        {"id": "2", "ally": ally("ALLY-ACQUIRE-PER-CARD", influence=1),
         "location_card": {"name": "Succubus Club", "id": "SUCCUBUS-CLUB",
                           "ability": "succubus_club"}},
        {"id": "haven", "ally": ally("ALLY-ACQUIRE-3", influence=3)},
    ],
}

game = Game.new(Position.model_validate(position))
actions: list[dict] = []


def play(cmd: dict) -> None:
    """Play a command; Ben's Frenzy draws are entered 'physically' (his Victim), to keep his
    win-ties Ally for the tie at #2."""
    drains = [e for e in game.preview(cmd) if e.type == "card_drained" and e.random]
    if any(e.player == 1 for e in drains):
        ben = game.state.players[1]
        victim = next(c.uid for c in ben.alliance if c.card.kind == "victim" and not c.drained)
        cmd = {**cmd, "draws": [victim if e.player == 1 else e.uid for e in drains]}
    game.play(cmd)
    actions.append(cmd)


def blood(name: str) -> int:
    return next(p.blood for p in game.state.players if p.name == name)


def up(player: str, loc: str, card: dict, blood_: int = 0, **kw) -> None:
    play({"type": "play_card", "player": player, "location": loc, "face_up": True,
          "card": card, "blood": blood_, **kw})


def down(player: str, loc: str, blood_: int = 0) -> None:
    play({"type": "play_card", "player": player, "location": loc, "face_up": False,
          "blood": blood_})


# Planning, round 3: 4 turns each, Ada first.
up("Ada", "2", clan("BR03"), 1)                    # Challenge face up at #2
before = blood("Ben")
down("Ben", "1")                                   # costs 1 + BR03 makes Ben Lose 1
assert blood("Ben") == before - 2
up("Cat", "2", clan("NO07"))                       # at #2: BR03 does not react
play({"type": "peek", "player": "Cat", "cards": [game.state.locations[0].positions[1]
                                                  .cards[0].uid]})
up("Dov", "1", clan("TR05"), 1)                    # BR03 reacts: Dov Loses 1
drained = next(c.uid for c in game.state.players[0].alliance if c.drained)
play({"type": "use_relic", "player": "Ada", "card": drained})
up("Ada", "1", clan("BR07"))
up("Ben", "1", clan("GA02"), 1)                    # BR03: Ben Loses 1
up("Cat", "haven", plain(3))                       # BR03: Cat Loses 1
up("Dov", "2", plain(4, "preparation"))
up("Ada", "haven", clan("BR01"), 2)
up("Ben", "haven", plain(2))                       # BR03: Ben Loses 1
up("Cat", "1", plain(2, "aftermath"))              # BR03
up("Dov", "haven", plain(5, "aftermath"))          # BR03
up("Ada", "1", clan("BR04"))
up("Ben", "2", plain(4))                           # at #2: ties Ada's Challenge
al14 = next(c.uid for c in game.state.players[2].alliance if c.card.ability == "AL14")
play({"type": "drain", "player": "Cat", "card": al14})      # AL14: 2 Diablerie tokens
assert game.state.players[2].diablerie == 2
up("Cat", "2", plain(2))
up("Dov", "2", plain(1))
assert game.state.phase == "resolution"

# Resolution: the Blood relic first.
play({"type": "use_relic", "player": "Ben"})
# Location #1 (The Collar): everyone stays; Ben's face-down card is revealed.
ben_down = game.state.locations[0].positions[1].cards[0].uid
play({"type": "choose_withdraw"})
play({"type": "reveal", "cards": {ben_down: plain(2, "preparation")}})
while game.legal().due or game.state.step != "aftermath":
    legal = game.legal()
    if legal.due:
        uid = legal.next_due[0]
        play({"type": "resolve_effect", "card": uid})
    else:
        play({"type": "next_step"})
while game.legal().due:
    play({"type": "resolve_effect", "card": game.legal().next_due[0]})
play({"type": "next_step"})
assert any(e.type == "card_drained" and not e.random and e.frenzy
           for e in game.events), "the Frenzy-drain Ally drained directly"
# Location #2 (Succubus Club): Dov withdraws; his cards go to the Prince's Haven.
play({"type": "choose_withdraw", "withdraw": ["Dov"]})
while game.state.location_index == 1:
    legal = game.legal()
    if legal.awaiting:
        play({"type": "take_back_blood", "amounts": {game.state.players[p].name: n
                                                     for p, n in legal.take_back.items()}})
    elif legal.due:
        due = next(d for d in legal.due if d.uid == legal.next_due[0])
        play({"type": "resolve_effect", "card": due.uid, "accept": due.can_accept})
    else:
        play({"type": "next_step"})
tie = next(e for e in game.events if e.type == "conflict_resolved" and e.location == "2")
assert tie.result.totals[0] == tie.result.totals[1] and tie.result.ranking[0] == 1, tie
# Prince's Haven
play({"type": "choose_withdraw"})
while game.state.phase != "game_over":
    legal = game.legal()
    if legal.due:
        due = next(d for d in legal.due if d.uid == legal.next_due[0])
        play({"type": "resolve_effect", "card": due.uid, "accept": due.can_accept})
    else:
        play({"type": "next_step"})

script = {"format": "vendetta-companion/script",
          "notes": ["Every automated card of §15 in one round-3 game, entered as a position. Ally "
                  "values, Relic names and unnamed cards' Power are example entries a user "
                  "would read off their own cards."],
          "start": {"position": position}, "actions": actions}
out = Path(sys.argv[1] if len(sys.argv) > 1 else "examples/card_effects.json")
out.write_text(json.dumps(script, indent=1) + "\n")
print("winner:", game.scoreboard.winner)
for row in game.scoreboard.rows:
    print(row.rank, row.name, row.influence.total, row.blood, row.eliminated)
