"""Generate examples/*.json game scripts by playing plausible games through the engine."""

import json
import random
import sys
from pathlib import Path

from companion.rules.game import Game
from companion.rules.queries import present_players
from models.events import CardDrained, CardPlayed, FrenzyEntered
from models.setup import GameSetup


def _catalogue() -> dict:
    doc = json.loads(Path("companion/data/catalogue.json").read_text())
    out: dict = {}
    for c in doc["clan_cards"]:
        e = out.setdefault(c["clan"], {"prefix": c["id"][:2], "unnamed": []})
        if not c.get("starting") and "name" not in c:
            e["unnamed"].append(c["id"])
    return out


CATALOGUE = _catalogue()
NOTES = [
    "Ally names and values, the Power of Hunt and Ready, and the Power of unnamed cards are "
    "made-up entries a referee would type from the physical cards; see docs/formats.md.",
    "Known cards (BR01, BR04, BR07, GA02, NO07, TR05) are applied by hand with apply_effect.",
]
OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "examples")

KNOWN = {
    "BR01": {"power": 6, "kind": "conflict", "id": "BR01", "effect": "BR01", "name": "Bloody Fury", "clan": "Brujah"},
    "BR04": {"power": 4, "kind": "aftermath", "id": "BR04", "effect": "BR04", "name": "Fist of Caine",
             "clan": "Brujah"},
    "BR07": {"power": 3, "kind": "preparation", "id": "BR07", "effect": "BR07", "name": "Show of Force",
             "clan": "Brujah"},
    "BR03": {"power": 4, "kind": "passive", "id": "BR03", "effect": "BR03", "name": "Challenge",
             "clan": "Brujah"},
    "GA02": {"power": 2, "kind": "conflict", "id": "GA02", "effect": "GA02", "name": "Wolf Companion",
             "clan": "Gangrel"},
    "NO07": {"power": 4, "kind": "preparation", "id": "NO07", "effect": "NO07", "name": "Vanish",
             "clan": "Nosferatu"},
    "TR05": {"power": 3, "kind": "aftermath", "id": "TR05", "effect": "TR05", "name": "Cauldron of Blood",
             "clan": "Tremere"},
}
FIRST_DRAWS = {"Brujah": ["BR07", "BR04", "BR01"], "Gangrel": ["GA02"], "Nosferatu": ["NO07"],
               "Tremere": ["TR05"]}


class Builder:
    def __init__(self, setup: dict, seed: int, ally_start: int = 1):
        self.setup = setup
        self.game = Game.new(GameSetup.model_validate(setup))
        self.actions: list[dict] = []
        self.rng = random.Random(seed)
        self.hands: dict[int, list[dict]] = {}
        self.decks: dict[int, list[dict]] = {}
        self.secret: dict[str, dict] = {}
        self.played: dict[str, tuple[int, dict]] = {}
        self.ally_no = ally_start
        self.physical_draws_done = 0
        self.want_physical = 1
        self.by_hand_done = False

    @property
    def s(self):
        return self.game.state

    def do(self, cmd: dict):
        try:
            action = self.game.play(cmd)
        except Exception:
            print("FAILED", cmd, file=sys.stderr)
            raise
        self.actions.append(cmd)
        return action

    def name(self, seat: int) -> str:
        return self.s.players[seat].name

    # --- setup ---
    def deal(self):
        for seat, p in enumerate(self.s.players):
            clan = p.clan
            pre = CATALOGUE[clan]["prefix"]
            self.hands[seat] = [{"power": 2, "id": f"{pre}-HUNT", "name": "Hunt", "clan": clan},
                                {"power": 1, "id": f"{pre}-READY", "name": "Ready", "clan": clan}]
            deck = [dict(KNOWN[k]) for k in FIRST_DRAWS.get(clan, [])]
            kinds = ["conflict", "preparation", "aftermath", "conflict", "passive", "conflict"]
            unnamed = list(CATALOGUE[clan]["unnamed"])
            rest = [k for k, v in KNOWN.items() if v["clan"] == clan
                    and k not in FIRST_DRAWS.get(clan, [])]
            while unnamed and len(deck) < 7:
                deck.append({"power": self.rng.randint(2, 6), "kind": kinds[len(deck) % 6],
                             "id": unnamed.pop(0), "clan": clan})
            deck += [dict(KNOWN[k]) for k in rest]
            self.decks[seat] = deck

    def ally(self, vampire: bool = False) -> dict:
        n = self.ally_no
        self.ally_no += 1
        if vampire:
            return {"name": f"Example Ally {n}", "kind": "vampire", "influence": 3, "feed": 1,
                    "drain_blood": 4, "drained_influence": 1}
        r = self.rng
        return {"name": f"Example Ally {n}", "kind": "human", "influence": r.randint(1, 3),
                "feed": r.randint(0, 2), "drain_blood": r.randint(2, 4),
                "drained_influence": r.randint(0, 1)}

    # --- round phases ---
    def feed_setup_hands(self, vampire_at: str | None):
        self.do({"type": "feed"})
        allies = {loc.id: self.ally(vampire=loc.id == vampire_at) for loc in self.s.locations}
        self.do({"type": "place_allies", "allies": allies})
        n = 2 if self.s.three_player and self.s.round == 1 else 1
        for seat in self.hands:
            for _ in range(n):
                self.hands[seat].append(self.decks[seat].pop(0))
        self.do({"type": "finish_hand_building"})

    def planning(self, overrides: dict):
        turn_no: dict[int, int] = {}
        while self.s.phase == "planning":
            seat = self.game.legal().actor
            turn_no[seat] = turn_no.get(seat, 0) + 1
            p = self.s.players[seat]
            ov = overrides.get((self.s.round, p.name, turn_no[seat]), {})
            vamp = any(c.card.kind == "vampire" and not c.drained for c in p.alliance)
            if self.s.round == 3 and turn_no[seat] == 1 and vamp and p.diablerie == 0:
                self.drain_something(seat, "vampire")
                ov = {**ov, "diablerie": 1}
            elif "drain" in ov or (p.blood <= 2 and ov.get("drain", True) is not False):
                self.drain_something(seat, ov.get("drain"))
            self.play_turn(seat, ov)

    def drain_something(self, seat: int, which: str | None):
        p = self.s.players[seat]
        active = [c for c in p.alliance if not c.drained]
        if which == "vampire":
            pick = next(c for c in active if c.card.kind == "vampire")
        else:
            ok = [c for c in active if c.card.kind != "vampire" or p.diablerie == 0]
            if not ok:
                return
            pick = max(ok, key=lambda c: (c.card.kind == "human", c.card.drain_blood))
        self.do({"type": "drain", "player": p.name, "card": pick.uid})

    def play_turn(self, seat: int, ov: dict):
        p = self.s.players[seat]
        hand = self.hands[seat]
        r = self.rng
        if "card" in ov:
            card = next(c for c in hand if c.get("id") == ov["card"] or c.get("name") == ov["card"])
        else:
            known = [c for c in hand if c.get("effect")]
            card = known[0] if known and r.random() < 0.6 else r.choice(hand)
        hand.remove(card)
        face_up = ov.get("face_up", card.get("effect") is not None or r.random() < 0.65)
        if p.blood < 3:
            face_up = True
        room = p.blood - (0 if face_up else 1) - 1
        blood = ov.get("blood", min(3, max(0, r.randint(0, room - 1))))
        locs = [loc.id for loc in self.s.locations]
        loc = ov.get("loc", r.choice(locs))
        diab = ov.get("diablerie", p.diablerie_up if r.random() < 0.7 else 0)
        cmd = {"type": "play_card", "player": p.name, "location": loc}
        if face_up:
            cmd["card"] = card
        else:
            cmd["face_up"] = False
        if blood:
            cmd["blood"] = blood
        if diab:
            cmd["diablerie"] = diab
        action = self.do(cmd)
        uid = next(e.uid for e in action.events if isinstance(e, CardPlayed))
        self.played[uid] = (seat, card)
        if not face_up:
            self.secret[uid] = card

    def effect(self, cmd: dict):
        """Play an apply_effect; the first Frenzy of the game gets its draw entered by hand."""
        events = self.game.preview(cmd)
        drains = [e for e in events if isinstance(e, CardDrained) and e.random]
        frenzies = [e for e in events if isinstance(e, FrenzyEntered)]
        if frenzies and drains and self.physical_draws_done < self.want_physical:
            draws = [e.uid for e in drains]
            if len(drains) == 1:
                p = self.s.players[frenzies[0].player]
                active = [c for c in p.alliance if not c.drained and c.card.drain_blood > 0]
                victims = [c for c in active if c.card.kind == "victim"]
                draws = [(victims or active)[-1].uid]
            cmd = {**cmd, "draws": draws}
            self.physical_draws_done += 1
        self.do(cmd)

    def true_total(self, loc, seat: int) -> int:
        pos = loc.positions[seat]
        return pos.blood + sum(c.card.power if c.card else self.secret.get(c.uid, {"power": 0})
                               ["power"] for c in pos.cards)

    def rivals(self, loc, seat: int) -> list[int]:
        s = self.s
        return [q for q in present_players(s, loc) if q != seat
                and not (s.players[q].team and s.players[q].team == s.players[seat].team)]

    def resolution(self, withdraws: dict):
        rnd = self.s.round
        while self.s.phase == "resolution" and self.s.round == rnd:
            s = self.s
            loc = s.locations[s.location_index]
            here = present_players(s, loc)
            step = s.step
            if step == "withdraw":
                leaving = list(withdraws.get((rnd, loc.id), []))
                for seat in here:
                    tot = self.true_total(loc, seat)
                    best = max(self.true_total(loc, q) for q in here)
                    p = s.players[seat]
                    if (loc.id != "haven" and p.name not in leaving and len(here) > 2
                            and tot * 3 < best and self.rng.random() < 0.6):
                        leaving.append(p.name)
                reveal = {c.uid: self.secret[c.uid] for q in here if s.players[q].name in leaving
                          for c in loc.positions[q].cards if not c.face_up
                          if loc.id != "haven"}  # from the Haven, cards go back unseen
                cmd = {"type": "choose_withdraw", "withdraw": leaving}
                if reveal:
                    cmd["reveal"] = reveal
                self.do(cmd)
                continue
            if step == "revelation":
                fd = self.game.legal().face_down
                self.do({"type": "reveal",
                         "cards": {u: self.secret[u] for uids in fd.values() for u in uids}})
                continue
            legal = self.game.legal()
            if "take_back_blood" in legal.commands:
                self.do({"type": "take_back_blood",
                         "amounts": {self.name(q): n for q, n in legal.take_back.items()}})
                continue
            if "resolve_effect" in legal.commands:
                due = next(d for d in legal.due if d.uid == legal.next_due[0])
                accept = due.can_accept
                if due.effect == "NO07":
                    best = max(self.true_total(loc, q) for q in here)
                    accept = loc.id != "haven" and self.true_total(loc, due.owner) < best
                if due.effect == "TR05":
                    accept = accept and s.players[due.owner].blood >= 4
                cmd = {"type": "resolve_effect", "card": due.uid}
                if not accept:
                    cmd["accept"] = False
                self.effect(cmd)
                continue
            if step == "preparation" and not self.by_hand_done:
                for q in here:
                    mine = [c for c in loc.positions[q].cards if c.card and c.card.kind ==
                            "preparation" and c.card.name is None and c.owner == q]
                    rivals = self.rivals(loc, q)
                    if mine and rivals:
                        self.by_hand_done = True
                        self.effect({"type": "apply_effect", "action": "steal_blood",
                                     "player": self.name(rivals[-1]), "by": self.name(q),
                                     "amount": 1, "reason": f"{mine[0].card.id}: as its "
                                     "text says (example entry)"})
                        break
            self.do({"type": "next_step"})

    def card_effect(self, loc, seat: int, c):
        s = self.s
        me = s.players[seat].name
        cid = c.card.id
        reason = f"{c.card.name} ({cid})"
        if cid == "BR07":
            for q in self.rivals(loc, seat):
                self.effect({"type": "apply_effect", "action": "steal_blood",
                             "player": self.name(q), "by": me, "amount": 1, "reason": reason})
        elif cid == "BR04":
            for q in self.rivals(loc, seat):
                self.effect({"type": "apply_effect", "action": "lose_blood",
                             "player": self.name(q), "by": me, "amount": s.round,
                             "reason": reason})
        elif cid == "BR01" and loc.positions[seat].blood:
            self.do({"type": "apply_effect", "action": "power", "player": me, "card": c.uid,
                     "amount": -2, "reason": reason})
        elif cid == "GA02":
            for q in self.rivals(loc, seat):
                for rc in loc.positions[q].cards:
                    self.do({"type": "apply_effect", "action": "halve_printed_power",
                             "player": self.name(q), "card": rc.uid, "reason": reason})
        elif cid == "TR05" and s.players[seat].blood >= 4:
            self.do({"type": "apply_effect", "action": "spend_blood", "player": me,
                     "amount": s.players[seat].blood // 2, "reason": reason})
            for q in self.rivals(self.s.locations[self.s.location_index], seat):
                self.effect({"type": "apply_effect", "action": "lose_blood",
                             "player": self.name(q), "by": me, "amount": 4, "reason": reason})
        elif cid == "NO07" and loc.id != "haven":
            best = max(self.true_total(loc, q) for q in present_players(s, loc))
            if self.true_total(loc, seat) < best:
                rivals = self.rivals(loc, seat)
                self.do({"type": "apply_effect", "action": "withdraw", "player": me,
                         "reason": reason})
                for q in rivals:
                    self.effect({"type": "apply_effect", "action": "steal_blood",
                                 "player": self.name(q), "by": me, "amount": 1,
                                 "reason": reason})

    def run(self, setup_cmds: list[dict], vampires: dict[int, str], overrides: dict,
            withdraws: dict):
        for cmd in setup_cmds:
            if cmd["type"] == "pick_clan" and "clan" not in cmd:
                offered = self.s.setup.clans_offered
                taken = {p.clan for p in self.s.players}
                cmd = {**cmd, "clan": next(c for c in offered if c not in taken)}
            self.do(cmd)
        self.deal()
        for rnd in (1, 2, 3):
            self.feed_setup_hands(vampires.get(rnd))
            self.planning(overrides)
            self.resolution(withdraws)
            if rnd < 3:
                for _uid, (seat, card) in list(self.played.items()):
                    self.hands[seat].append(card)
                self.played.clear()
        assert self.s.phase == "game_over", self.s.phase
        return self

    def write(self, path: Path, title: str):
        head = json.dumps({"format": "vendetta-companion/script", "title": title,
                           "notes": NOTES, "start": {"setup": self.setup}},
                          indent=2, ensure_ascii=False)
        lines = ",\n".join("    " + json.dumps(a, ensure_ascii=False) for a in self.actions)
        path.write_text(head[:-2] + ',\n  "actions": [\n' + lines + "\n  ]\n}\n",
                        encoding="utf-8")
        print(path, len(self.actions), "actions; winner", self.s.scoreboard.winner)
        for r in self.s.scoreboard.rows:
            print("  ", r.rank, r.name, r.influence.total, r.blood, r.tiebreak)


def picks(names: list[str], order_from: int, clans: list[str | None]) -> list[dict]:
    n = len(names)
    seats = [(order_from + i) % n for i in range(n)]
    return [{"type": "pick_clan", "player": names[s], **({"clan": clans[i]} if clans[i] else {})}
            for i, s in enumerate(seats)]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    # 3 players: entered first player and entered clan draw.
    names = ["Ana", "Ben", "Cleo"]
    b = Builder({"players": [{"name": n} for n in names], "seed": 31}, seed=3)
    setup = [{"type": "set_first_player", "player": "Ben"},
             {"type": "offer_clans", "clans": ["Brujah", "Nosferatu", "Tremere", "Ventrue"]},
             *picks(names, 1, ["Brujah", "Nosferatu", "Tremere"])]
    b.run(setup, {2: "1"}, {
        (1, "Ben", 1): {"card": "Ready", "face_up": False, "loc": "haven", "blood": 1},
        (1, "Ben", 2): {"card": "Show of Force", "loc": "1", "blood": 1},
        (1, "Cleo", 2): {"loc": "1", "blood": 3, "card": "Hunt"},
        (2, "Cleo", 1): {"loc": "1", "blood": 2},
    }, {}).write(OUT / "three_players.json", "A 3-player game (3-player mode)")

    # 4 players: first player drawn at random, clans drawn at random.
    names = ["Dana", "Eli", "Fatima", "Gus"]
    b = Builder({"players": [{"name": n} for n in names], "seed": 4242}, seed=4)
    b.game.play({"type": "set_first_player"})
    first = b.s.ambition
    b = Builder({"players": [{"name": n} for n in names], "seed": 4242,
                 "variants": {"location_cards": True}}, seed=4)
    setup = [{"type": "set_first_player"},
             {"type": "offer_clans", "clans": ["Gangrel", "Brujah", "Tremere", "Toreador",
                                               "Malkavian"]},
             *picks(names, first, ["Gangrel", "Brujah", "Tremere", "Malkavian"]),
             {"type": "place_location_cards", "cards": {
                 "1": {"name": "Succubus Club", "id": "SUCCUBUS-CLUB", "ability": "succubus_club"},
                 "2": {"name": "The Collar", "id": "THE-COLLAR", "ability": "the_collar"}}}]
    b.run(setup, {1: "2"}, {}, {}).write(OUT / "four_players.json", "A 4-player game, first player and clans drawn")

    # 5 players: free choice of clans (no draw), entered first player.
    names = ["Hana", "Ivan", "June", "Kofi", "Lena"]
    b = Builder({"players": [{"name": n} for n in names], "seed": 5}, seed=5)
    setup = [{"type": "set_first_player", "player": "June"},
             *picks(names, 2, ["Nosferatu", "Brujah", "Ventrue", "Gangrel", "Tremere"])]
    b.run(setup, {2: "3"}, {}, {(2, "haven"): ["Hana"]}).write(OUT / "five_players.json", "A 5-player game with Location #3, clans chosen freely")

    # Tag team, 4 players: Red (Mara, Ola) against Blue (Nico, Pia), clans drawn at random.
    players = [{"name": "Mara", "team": "Red"}, {"name": "Nico", "team": "Blue"},
               {"name": "Ola", "team": "Red"}, {"name": "Pia", "team": "Blue"}]
    b = Builder({"players": players, "variants": {"tag_team": True}, "seed": 66}, seed=6)
    setup = [{"type": "set_first_player", "player": "Nico"}, {"type": "offer_clans"},
             *picks([p["name"] for p in players], 1, [None] * 4)]
    b.run(setup, {1: "haven", 2: "1"}, {}, {}).write(OUT / "tag_team.json", "Tag team: Red (Mara, Ola) against Blue (Nico, Pia)")


if __name__ == "__main__":
    main()
