"""The narrator: events and commands put into words for the review, the command line and the
table, compared byte for byte with what each said before they shared one narrator
(tests/fixtures/narrator_golden.json), and every kind of event narrated.

The golden file holds, per game (each example script, each game of the version-1 backup
fixture and a few small games built here for the event kinds the examples never reach): the
review timeline, what each action did and its headline, the review's and the table's words for
each command, and the command line's text for each event. After a deliberate change of
wording, write it again with `python -m tests.test_narrator`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, get_args

import pytest

from companion.cli.main import Script, event_text
from companion.rules.apply import apply_in_place, initial_state
from companion.rules.game import Game
from companion.storage import migrate, read_import_file
from companion.story.narrator import Narrator, story
from companion.story.review import command_line, headline, timeline, told_each
from companion.story.words import render, title
from companion.table.table import describe
from models.commands import AnyCommand
from models.common import STEPS
from models.events import AnyEvent
from models.message import Message, msg, msgn, player
from tests.helpers import (
    ally,
    card,
    deployed,
    member,
    new_game,
    position_game,
    resolve_here,
    seat,
    where,
)
from tests.test_cards import card as catalogued
from tests.test_cards import plain, start, to_step

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "fixtures" / "narrator_golden.json"


def _script(path: Path) -> Game:
    script = Script.model_validate(json.loads(path.read_text(encoding="utf-8")))
    game = Game.new(script.start.setup or script.start.position)
    for action in script.actions:
        game.play(action)
    return game


def _relic_draft() -> Game:
    """Relics offered and drafted, Location cards placed, a Relic's owner plays."""
    game = new_game(3, first="Ann", variants={"relics": True, "location_cards": True})
    game.play({"type": "offer_relics", "relics": [{"name": f"Relic {i}", "influence": i}
                                                  for i in range(4)]})
    for _ in range(3):
        lg = game.legal()
        game.play({"type": "pick_relic", "player": lg.actor, "index": lg.relics[-1]})
    game.play({"type": "place_location_cards", "cards": {
        "1": {"name": "Succubus Club", "id": "SUCCUBUS-CLUB"}, "2": {"name": "Old Mill"}}})
    game.play({"type": "feed"})
    return game


def _elimination() -> Game:
    """A third Diablerie token puts a player out; then effects applied by hand."""
    vampire = member(ally("Nosy", kind="vampire"))
    game = position_game([seat("Ann"), seat("Bo", diablerie_up=2, alliance=[vampire]),
                          seat("Cy"), seat("Di")], ambition="Bo")
    game.play({"type": "drain", "player": "Bo", "card": "pa2"})
    return game


def _by_hand() -> Game:
    """Effects applied by hand, one of them with no effect (a note), through a Conflict."""
    game = position_game([seat("Ann"), seat("Bo"), seat("Cy"), seat("Di", influence=0)],
                         phase="resolution", round=2, locations=[
        where("1", deployed("Ann", card(5), blood=2), deployed("Bo", None, blood=1),
              deployed("Cy", card(3)), deployed("Di", card(1)))])

    def effect(action: str, player: str, **more: Any) -> None:
        game.play({"type": "apply_effect", "action": action, "player": player, **more})

    effect("steal_blood", "Bo", by="Ann", amount=2, reason="Feral Claws")
    effect("gain_blood", "Cy", amount=1)
    effect("lose_blood", "Di", by="Cy", amount=1)
    effect("gain_influence", "Ann", amount=2, reason="a bargain")
    effect("lose_influence", "Bo", amount=1)
    effect("lose_influence", "Di", amount=1, reason="a debt")
    effect("take_diablerie", "Cy", amount=1)
    game.play({"type": "choose_withdraw", "withdraw": []})
    game.play({"type": "reveal", "cards": {"pc6": {"power": 2, "name": "Jump"}}})
    game.play({"type": "next_step"})
    effect("power", "Ann", card="Ann/1/1", amount=2, reason="Potence")
    effect("halve_printed_power", "Ann", card="Ann/1/1", reason="Weakness")
    effect("spend_blood", "Bo", amount=1)
    effect("lose_blood", "Ann", amount=1, each_rival=True, reason="Dread")
    effect("withdraw", "Cy", reason="Shadow Step")
    effect("lose_blood", "Di", amount=30, by="Ann")
    while game.state.location_index == 0:
        game.play({"type": "next_step"})
    while game.state.round == 2:
        resolve_here(game)
    return game


def _through() -> Game:
    """`next_step` with `through`: an effect that cannot apply is skipped, steps with nothing
    to do are said to be passed."""
    game = start([{"name": "A", "blood": 1}, {"name": "B"}, {"name": "C"}],
                 {"1": {"A": ([catalogued("TR05")], 0), "B": ([plain(2, None)], 0)},
                  "2": {"C": ([plain(1, None)], 0)}})
    to_step(game, "preparation")
    while game.state.phase == "resolution":
        if game.state.step == "withdraw":
            game.play({"type": "choose_withdraw"})
        else:
            game.play({"type": "next_step", "through": True})
    return game


def _frenzies() -> Game:
    """Planning in a tag team: a pass with an empty hand, Frenzies by one's own effect, by a
    teammate's and with no Alliance card to drain."""
    game = position_game([seat("Ann", team="Red", hand_size=0), seat("Bo", team="Blue"),
                          seat("Cy", team="Red", alliance=[], blood=2),
                          seat("Di", team="Blue", blood=2)], variants={"tag_team": True})
    game.play({"type": "pass_turn", "player": "Ann"})
    for who, by in (("Cy", "Cy"), ("Di", "Bo"), ("Bo", None)):
        game.play({"type": "apply_effect", "action": "lose_blood", "player": who,
                   "amount": 6, **({"by": by} if by else {})})
    return game


CONSTRUCTED = {"relic_draft": _relic_draft, "elimination": _elimination, "by_hand": _by_hand,
               "through": _through, "frenzies": _frenzies}
"""Small games for what the examples never do (Relic draft, elimination, effects by hand,
steps passed at once, Frenzies of every cause)."""


@cache
def games() -> dict[str, Game]:
    """Every game the golden file speaks of, by name."""
    out = {f"examples/{p.name}": _script(p) for p in sorted((ROOT / "examples").glob("*.json"))
           if json.loads(p.read_text(encoding="utf-8")).get("format")
           == "vendetta-companion/script"}
    backup = read_import_file(ROOT / "tests" / "fixtures" / "backup_v1.json")
    for doc in backup["games"]:
        doc = migrate(doc)
        out[f"backup_v1/{doc['header']['game_id']}"] = Game.from_journal(doc["header"],
                                                                         doc["entries"])
    out.update({f"constructed/{name}": build() for name, build in CONSTRUCTED.items()})
    return out


def _event_texts(game: Game) -> list[str | None]:
    """The command line's words on each event after the start (None: it says none)."""
    state = initial_state(game.start_events[0])
    out = []
    for action in game.actions:
        for event in action.events:
            out.append(event_text(state, event))
            apply_in_place(state, event)
    return out


def said(game: Game) -> dict[str, Any]:
    """Everything the companion says of a game's events and commands, in English."""
    actions = range(len(game.actions))
    before = [game.state_at(i) for i in actions]
    after = [game.state_at(i + 1) for i in actions]
    names = [p.name for p in game.state.players]
    return {
        "timeline": [[e.action, e.kind, f"{g.title}: {e.text}"]
                     for g in timeline(game) for e in g.entries],
        "told": told_each(game),
        "headline": [headline(game, i) for i in actions],
        "command_line": [[command_line(before[i], a.command, after[i]),
                          command_line(before[i], a.command)]
                         for i, a in enumerate(game.actions)],
        "describe": [[render(describe(a.command, SimpleNamespace(state=after[i])), names),
                      render(describe(a.command, SimpleNamespace(state=before[i])), names)]
                     for i, a in enumerate(game.actions)],
        "cli": _event_texts(game),
    }


@cache
def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}


@pytest.mark.parametrize("name", sorted(_golden()))
def test_every_game_reads_as_before(name: str) -> None:
    want = _golden()[name]
    got = said(games()[name])
    for part in want:
        assert got[part] == want[part], part


def test_the_golden_file_speaks_of_every_game() -> None:
    assert sorted(_golden()) == sorted(games())


QUIET = {
    "phase_started": "the review's group titles say it",
    "step_started": "told only when one `through` tap passes a step with nothing to do",
    "turn_ended": "told only when a player passes",
}
"""Event kinds the narrator may leave untold in a game, and why."""


def _kinds(union: Any) -> set[str]:
    return {t.model_fields["type"].default for t in get_args(get_args(union)[0])}


class Watching(Narrator):
    """A narrator that counts the events that changed what it tells."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.telling: Counter[str] = Counter()

    def _now(self) -> list[Any]:
        return [(d.kind, d.key, d.message()) for d in self.drafts if d.action == self.action]

    def event(self, e: Any) -> None:
        before = self._now()
        super().event(e)
        if self._now() != before:
            self.telling[e.type] += 1


def _told_kinds(game: Game) -> set[str]:
    """The event kinds that changed what the narrator tells of this game."""
    watching = Watching(game)
    watching.start(game.start_events[0])
    for i in range(len(game.actions)):
        watching.run_one(i)
    started = {game.start_events[0].type} if watching.said()[0].action == -1 else set()
    return set(watching.telling) | started


@pytest.mark.parametrize("name", sorted(games()))
def test_the_narrator_tells_every_event_kind_of_every_game(name: str) -> None:
    """Every kind of event in the game changes what is told (but the QUIET ones, which may
    not), and every entry renders, each field filled."""
    game = games()[name]
    kinds = {e.type for e in [*game.start_events, *(e for a in game.actions for e in a.events)]}
    assert kinds - _told_kinds(game) <= set(QUIET)
    names = [p.name for p in game.state.players]
    for told in story(game):
        text = render(told.message, names)
        assert text and "{" not in text and not re.search(r"\bplayer \d", text), (told, text)


def test_every_event_kind_is_told_and_every_command_named() -> None:
    """The narrated games hold every kind of event and command, and each event kind is told
    in one of them (the group titles say the phases)."""
    told = set().union(*(_told_kinds(g) for g in games().values()))
    assert _kinds(AnyEvent) - told == {"phase_started"}
    assert _kinds(AnyCommand) == {a.command.type for g in games().values() for a in g.actions}


def test_messages_are_data() -> None:
    """A story's messages go through JSON and read the same."""
    game = games()["examples/card_effects.json"]
    names = [p.name for p in game.state.players]
    for told in story(game):
        data = json.loads(json.dumps(told.message.model_dump(mode="json")))
        assert render(Message.model_validate(data), names) == render(told.message, names)


def test_one_title_per_phase_and_step() -> None:
    assert [title(p) for p in ("setup", "location_setup", "game_over")] == \
        ["Setup", "Location Setup", "End of game"]
    assert [title(s) for s in STEPS] == [s.capitalize() for s in STEPS]
    assert title("tag_team") == "tag team"


def test_a_translator_plugs_in() -> None:
    """A language's catalogue translates the templates, the titles and the plural forms."""

    class Pirate:
        def gettext(self, text: str) -> str:
            return {"{who} picks {clan}": "{who} be takin' {clan}",
                    "Planning": "Plottin'"}.get(text, text)

        def ngettext(self, one: str, many: str, n: int) -> str:
            return "{who} grabs {n} o' them cards" if n != 1 else one

    pirate = Pirate()
    assert render(msg("{who} picks {clan}", who=player(1), clan="Brujah"), ["Ann", "Bo"],
                  pirate) == "Bo be takin' Brujah"
    assert title("planning", pirate) == "Plottin'"
    assert render(msgn("{who} adds {n} card", "{who} adds {n} cards", 3, who=player(0)),
                  ["Ann"], pirate) == "Ann grabs 3 o' them cards"


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({name: said(g) for name, g in games().items()}, indent=1,
                                 ensure_ascii=False) + "\n", encoding="utf-8")
