"""Refusals, table notices and the words a game keeps are messages (a template and its
arguments, `models.message`) that read in English exactly as the finished sentences did; a
game saved before, with English reasons and tie-break notes, replays and reads the same.

The expected texts below are what the refusals said before they were messages.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import Script, event_log, scoreboard_text
from companion.rules.catalogue import shipped
from companion.rules.errors import AccessError, InputRefused, RuleError, TableError
from companion.rules.game import Game
from companion.story.review import timeline
from companion.table import access, collect
from models.commands import COMMAND_ADAPTER
from models.events import EVENT_LIST_ADAPTER, AnyEvent
from models.message import Message, render
from models.said import Said
from models.table import Board, Pending, Referee, Seat
from tests.helpers import ally, card, deployed, new_game, position_game, seat, where
from tests.test_cards import card as catalogued
from tests.test_cards import start

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "game_v3_english.json"
"""Three players' example game as the previous release saved it (schema 3): English reasons,
Power sources and tie-break notes."""


def _card_name(card_id: str) -> str:
    """A card's name in the shipped catalogue (what a device says for `card(id)`)."""
    cat = shipped()
    entries = [*cat.clan_cards, *cat.allies, *cat.relics, *cat.location_cards]
    return next((c.name for c in entries if c.id == card_id and c.name), card_id)


def _english(message: Message, game: Game) -> str:
    return render(message, [p.name for p in game.state.players], card_name=_card_name)


# --- refusals of the rules -------------------------------------------------------------------

def _first() -> Game:
    game = new_game(4, setup=False)
    game.play({"type": "set_first_player", "player": "Ann"})
    return game


def _br07_at(step: str) -> Game:
    """Show of Force (BR07) face up at Location 1, the table at `step` there."""
    game = start([{"name": "A"}, {"name": "B"}, {"name": "C"}],
                 {"1": {"A": ([catalogued("BR07")], 0), "B": ([{"power": 1}], 0)}})
    steps = ["withdraw", "revelation", "preparation", "conflict", "aftermath"]
    while steps.index(game.state.step) < steps.index(step):
        if game.state.step == "withdraw":
            game.play({"type": "choose_withdraw"})
        elif game.legal().due:
            game.play({"type": "resolve_effect", "card": game.legal().due[0].uid})
        else:
            game.play({"type": "next_step"})
    return game


def _face_down(player: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play_card", "player": player, "location": "1", "face_up": False, **extra}


ALLIES = {i: ally(f"Ally {i}") for i in ("1", "2", "haven")}

REFUSALS: dict[str, tuple[Callable[[], Game], dict[str, Any], str]] = {
    "setup: first player first": (
        lambda: new_game(4, setup=False), {"type": "pick_clan", "player": "Bo", "clan": "Brujah"},
        "choose the first player first (it sets the picking order)"),
    "setup: clans in turn order": (
        _first, {"type": "pick_clan", "player": "Bo", "clan": "Brujah"},
        "clans are picked in turn order: Ann picks now"),
    "setup: clans drawn": (
        _first, {"type": "offer_clans", "clans": ["Brujah"]},
        "draw 5 different clans (players + 1), not ['Brujah']"),
    "setup: first player twice": (
        _first, {"type": "set_first_player", "player": "Bo"},
        "the first player was already chosen"),
    "setup: Relics drawn first": (
        lambda: new_game(4, variants={"relics": True}),
        {"type": "pick_relic", "player": "Ann", "index": 0}, "draw the Relics first"),
    "setup: Relics drawn": (
        lambda: new_game(4, variants={"relics": True}),
        {"type": "offer_relics", "relics": [{"name": "R", "influence": 1}]},
        "draw 5 Relics (players + 1), not 1"),
    "feed: another phase": (
        lambda: position_game(4, phase="feed"), _face_down("Ann"),
        "this belongs to the planning phase; it is now feed"),
    "location setup: an Ally missing": (
        lambda: position_game(4, phase="location_setup"),
        {"type": "place_allies", "allies": {"1": ally("X")}},
        "give the Ally at each Location: Location #1, Location #2, Prince's Haven"),
    "location setup: an Ally owned": (
        lambda: position_game([seat("Ann", alliance=[{"card": ally("Ghoul 1")}]), seat("Bo"),
                               seat("Cy"), seat("Di")], phase="location_setup"),
        {"type": "place_allies", "allies": {**ALLIES, "1": ally("Ghoul 1")}},
        "Ghoul 1 is in Ann's Alliance; each Ally exists once"),
    "location setup: an Ally twice": (
        lambda: position_game(4, phase="location_setup"),
        {"type": "place_allies", "allies": {**ALLIES, "2": ally("Ally 1")}},
        "Ally 1 is given for two Locations; each Ally exists once"),
    "planning: another's turn": (
        lambda: position_game(4), _face_down("Bo"), "it is Ann's Planning turn"),
    "planning: Blood per card": (
        lambda: position_game(4),
        {"type": "play_card", "player": "Ann", "location": "1", "face_up": True,
         "card": card(2), "blood": 4},
        "at most 3 Blood from the Pool per card, not 4"),
    "planning: the last Blood": (
        lambda: position_game([seat("Ann", blood=3), seat("Bo"), seat("Cy"), seat("Di")]),
        _face_down("Ann", blood=2),
        "playing face down (1) and 2 Blood would leave 0 Blood in the Pool; a player may never "
        "bring their own Pool to 0 (Drain first)"),
    "planning: Diablerie to flip": (
        lambda: position_game(4), _face_down("Ann", diablerie=2),
        "only 0 face-up Diablerie token(s) to flip, not 2"),
    "planning: drain an unknown card": (
        lambda: position_game(4), {"type": "drain", "player": "Ann", "card": "zz"},
        "'zz' is not a card of their Alliance"),
    "planning: a second copy face up": (
        lambda: position_game(4, locations=[where("2", deployed("Ann", catalogued("BR01")))]),
        {"type": "play_card", "player": "Ann", "location": "1", "face_up": True,
         "card": catalogued("BR01")},
        "Bloody Fury (6) is already face up on the table this round; each player owns one copy "
        "of each card"),
    "planning: must play": (
        lambda: position_game(4), {"type": "pass_turn", "player": "Ann"},
        "a player with cards in hand must play one"),
    "planning: drawn cards not needed": (
        lambda: position_game(4), _face_down("Ann", draws=["x"]),
        "the drawn cards ['x'] were not needed: no Frenzy drew them"),
    "withdraw: not at the Location": (
        lambda: position_game(4, phase="resolution",
                              locations=[where("1", deployed("Ann", card(2)))]),
        {"type": "choose_withdraw", "withdraw": ["Bo"]}, "they are not at Location #1"),
    "withdraw: another step": (
        lambda: position_game(4, phase="resolution",
                              locations=[where("1", deployed("Ann", card(2)))]),
        {"type": "next_step"},
        "this belongs to the preparation or conflict or aftermath step; it is now withdraw"),
    "preparation: no effect waiting": (
        lambda: _br07_at("preparation"), {"type": "resolve_effect", "card": "nope"},
        "card 'nope' has no effect waiting at this step"),
    "preparation: an effect first": (
        lambda: _br07_at("preparation"), {"type": "next_step"},
        "resolve Show of Force (3) of A first (or decline it, if optional)"),
    "aftermath: nothing to take back": (
        lambda: _br07_at("aftermath"), {"type": "take_back_blood", "amounts": {}},
        "Blood is taken back only after a Succubus Club Location resolves"),
    "any phase: spend the last Blood": (
        lambda: position_game(4),
        {"type": "apply_effect", "player": "Ann", "action": "spend_blood", "amount": 6},
        "spending 6 of 6 Blood would spend the last Blood, which is never allowed"),
    "any phase: an amount of 0": (
        lambda: position_game(4),
        {"type": "apply_effect", "player": "Ann", "action": "gain_blood", "amount": 0},
        "gain blood needs an amount of at least 1"),
    "any phase: no Relic": (
        lambda: position_game(4), {"type": "use_relic", "player": "Ann"}, "they have no Relic"),
    "any phase: no peeking Ally": (
        lambda: position_game(4), {"type": "peek", "player": "Ann", "cards": ["x"]},
        "only the owner of the Ally that looks at face-down cards may"),
    "any phase: no such player": (
        lambda: position_game(4), {"type": "pass_turn", "player": "Zed"},
        "there is no player 'Zed' at this table"),
    "game over": (
        lambda: position_game(4, phase="game_over", round=3), {"type": "feed"},
        "the game is over"),
}
"""Refusals across the phases: the game, the command, the reason as the refusal said it."""


@pytest.mark.parametrize("case", REFUSALS, ids=str)
def test_a_refusal_carries_a_message_that_reads_as_before(case: str) -> None:
    build, command, said = REFUSALS[case]
    game = build()
    with pytest.raises(RuleError) as info:
        game.play(command)
    err = info.value
    assert isinstance(err.message, Message)
    assert err.reason == said and str(err).endswith(f": {said} ({err.rule})")
    assert _english(err.message, game) == said
    again = Message.model_validate_json(err.message.model_dump_json())
    assert again.model_dump(mode="json") == err.message.model_dump(mode="json")
    assert _english(again, game) == said, "a message is plain JSON data"


def test_a_refusal_names_players_and_cards_by_reference() -> None:
    """A player is a seat and a catalogued card its id: each device says them its own way."""
    game = _first()
    with pytest.raises(RuleError) as info:
        game.play({"type": "pick_clan", "player": "Bo", "clan": "Brujah"})
    assert info.value.message.args == {"picker": {"player": 0}}
    assert info.value.seat == 1 and info.value.player == "Bo"
    game = _br07_at("preparation")
    with pytest.raises(RuleError) as info:
        game.play({"type": "next_step"})
    assert info.value.message.args["card"] == {"card": "BR07"}
    assert info.value.message.args["owner"] == {"player": 0}
    assert render(info.value.message, ["Ada", "Bea", "Cleo"],
                  card_name={"BR07": "Dimostrazione di forza"}.get) == \
        "resolve Dimostrazione di forza (3) of Ada first (or decline it, if optional)"


# --- refusals of the table -------------------------------------------------------------------

PLAY = {"type": "play_card", "player": "Ann", "location": "1", "face_up": False}

TABLE_REFUSALS: dict[str, tuple[Callable[[Game], None], str]] = {
    "the board": (
        lambda g: access.check_command(Board(), COMMAND_ADAPTER.validate_python(PLAY), g, None),
        "play card refused for the board: the board is read-only"),
    "a seat for another": (
        lambda g: access.check_command(Seat(player=1), COMMAND_ADAPTER.validate_python(PLAY),
                                       g, None),
        "play card refused for Bo's seat: a seat acts only for its own player, not for Ann"),
    "not your turn": (
        lambda g: access.check_command(
            Seat(player=1), COMMAND_ADAPTER.validate_python({**PLAY, "player": "Bo"}), g, None),
        "play card refused for Bo's seat: not your turn: it is Ann's turn (Planning, round 1: "
        "Ann's turn 1 of 2.)"),
    "the referee's": (
        lambda g: access.check_referee(Seat(player=2), g.state, "undo"),
        "undo refused for Cy's seat: only the referee may do this"),
    "choosing for another": (
        lambda g: access.check_choose(Seat(player=0), 2, g.state, {}),
        "Stay/Withdraw refused for Ann's seat: each player chooses for themselves, not for Cy"),
    "a seated player's choice": (
        lambda g: access.check_choose(Referee(), 2, g.state, {2: "x"}),
        "Stay/Withdraw refused for the referee: Cy chooses on their own device; free their "
        "seat first if it is lost"),
    "another's inputs": (
        lambda g: access.check_own(Seat(player=0), {1, 2}, g.state, "naming cards"),
        "naming cards refused for Ann's seat: a seat enters only its own player's, not Bo, "
        "Cy's"),
    "Stay/Withdraw not now": (
        lambda g: collect.choose(g, Pending(key=""), 0, "stay"),
        "Stay/Withdraw refused: not now, it is the planning phase (§8.1)"),
    "take-back not now": (
        lambda g: collect.take_back(g, Pending(key=""), 0, 1),
        "taking back Blood refused: not now, it is the planning phase (§15)"),
}
"""Table refusals and their text before they were messages."""


@pytest.mark.parametrize("case", TABLE_REFUSALS, ids=str)
def test_a_table_refusal_carries_a_message_that_reads_as_before(case: str) -> None:
    act, said = TABLE_REFUSALS[case]
    game = position_game(4)
    with pytest.raises(TableError) as info:
        act(game)
    err = info.value
    assert isinstance(err.message, Message) and str(err) == said
    if isinstance(err, AccessError):
        assert said.endswith(f": {err.reason}") and _english(err.message, game) == err.reason
    else:
        assert isinstance(err, InputRefused) and _english(err.message, game) == said


def test_table_notices_are_messages_that_read_as_before(tmp_path: Path) -> None:
    """What changed at a table (its last change, the news of an undo, the refusal of a stale
    action) is kept as messages and reads in English as it did."""
    from companion.rules.errors import StaleVersion
    from tests.table_helpers import Devices, make_hub, seated
    from tests.table_helpers import position as table_position

    dev = Devices()
    table = make_hub(tmp_path).new_table(table_position(3, phase="planning"))
    seated(table, dev)
    start = table.version
    table.act(dev.ann, {"type": "play_card", "player": 0, "location": "1", "face_up": False},
              table.version)
    seen = table.view(dev.board)
    assert seen.last_change == "Ann played a card"
    assert [m.english(["Ann", "Bo", "Cy"]) for m in seen.news] == ["Ann played a card"]
    table.undo(dev.ref, table.version)
    assert table.undo_news() == "The referee took back: Ann played a card."
    assert isinstance(table.taken_back[1], Message)
    with pytest.raises(StaleVersion) as info:
        table.undo(dev.ref, start - 1)
    err = info.value
    assert str(err) == ("the table changed: a board joined; Ann played a card; the referee "
                        "took back: Ann played a card. Look again and retry.")
    assert isinstance(err.message, Message) and len(err.changes) == 3
    assert render(err.message, ["Ann", "Bo", "Cy"]) == str(err)
    with pytest.raises(TableError) as info:
        table.claim_seat(dev.stranger, 1, table.seat_code(1))
    assert str(info.value) == ("claiming a seat refused: Bo's seat is held by another device; "
                               "the referee can free it")
    assert info.value.message.args == {"player": {"player": 1}}


# --- every refusal is a message ----------------------------------------------------------------

ERRORS = {"RuleError": 2, "PhaseError": 2, "TurnError": 2, "TableError": 0, "InputRefused": 0,
          "StaleVersion": 0, "TableNotFound": 0, "CodeRefused": 0, "AccessError": 2,
          "fail": 1, "_refuse": 3, "_refused": 1}
"""Who refuses, and the place of the reason among its arguments."""


def _said_ok(node: ast.expr) -> bool:
    """A message: msg(...)/msgn(...), a name or attribute holding one, a choice of them."""
    if isinstance(node, ast.IfExp):
        return _said_ok(node.body) and _said_ok(node.orelse)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in ("msg", "msgn") or (
            isinstance(node.func, ast.Attribute) and node.func.attr == "model_copy")
    return isinstance(node, ast.Name | ast.Attribute | ast.Subscript)


def _refusals(folder: str) -> list[tuple[str, int, ast.Call]]:
    out = []
    for path in sorted((ROOT / "companion" / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else None
            if name in ERRORS and len(node.args) > ERRORS[name]:
                out.append((f"{folder}/{path.name}", node.lineno, node.args[ERRORS[name]]))
    return out


@pytest.mark.parametrize("folder", ["rules", "table"])
def test_every_refusal_is_a_message_not_a_sentence(folder: str) -> None:
    """No f-string nor finished text is given as a refusal's reason: a message is."""
    found = _refusals(folder)
    bad = [(where, line, ast.unparse(arg)[:60]) for where, line, arg in found
           if not _said_ok(arg)]
    assert not bad, bad
    if folder == "rules":
        assert len(found) >= 75, "the scan finds the engine's refusals"


@pytest.mark.parametrize("folder", ["rules", "table"])
def test_every_message_template_is_a_literal(folder: str) -> None:
    """A template is the text's gettext msgid: plain literal text, never built."""
    for path in sorted((ROOT / "companion" / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("msg", "msgn"):
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), \
                    f"{path.name}:{node.lineno}"


# --- words a game keeps --------------------------------------------------------------------

EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.json")
                  if json.loads(p.read_text()).get("format") == "vendetta-companion/script")


def _played(path: Path) -> Game:
    script = Script.model_validate(json.loads(path.read_text(encoding="utf-8")))
    game = Game.new(script.start.setup or script.start.position)
    for action in script.actions:
        game.play(action)
    return game


def _kept(event: AnyEvent) -> list[str]:
    """The words an event keeps (reasons, notes, Power sources, tie-break notes)."""
    out = [getattr(event, k) for k in ("reason", "text") if hasattr(event, k)]
    if event.type == "power_modified":
        out.append(event.modifier.source)
    if event.type == "game_ended":
        board = event.scoreboard
        out += [r.tiebreak for r in [*board.rows, *(board.teams or [])] if r.tiebreak]
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_kept_words_are_messages_written_as_data(path: Path) -> None:
    """Each reason, note, source and tie-break note is a message that reads as its English;
    written, one with arguments is its message (no finished sentence), and it reads back the
    same."""
    game = _played(path)
    events = game.events[1:]
    kept = [w for e in events for w in _kept(e)]
    assert kept and all(isinstance(w, Said) for w in kept)
    assert all(w.message.english() == w for w in kept), "kept words need no roster"
    with_args = [w for w in kept if w.message.args]
    assert with_args, "the engine's words carry their arguments"
    written = json.loads(json.dumps([e.model_dump(mode="json") for e in events]))
    text = json.dumps(written)
    for w in with_args:
        assert json.dumps(w.message.key)[1:-1] in text
    again = EVENT_LIST_ADAPTER.validate_python(written)
    assert again == events
    assert [w.message for e in again for w in _kept(e)] == [w.message for w in kept]


def test_a_scoreboard_says_its_tie_notes_as_text_outside_its_event() -> None:
    """The final scoreboard on its own (the command line's JSON) keeps English tie notes; in
    the game_ended event they are written as messages."""
    game = _played(ROOT / "examples" / "three_players.json")
    board = game.scoreboard
    notes = [r.tiebreak for r in board.rows if r.tiebreak]
    assert notes and all(isinstance(n, Said) and n.message.args for n in notes)
    alone = board.model_dump(mode="json")
    assert [r["tiebreak"] for r in alone["rows"] if r["tiebreak"]] == notes
    event = game.events[-1].model_dump(mode="json")
    assert [r["tiebreak"] for r in event["scoreboard"]["rows"] if r["tiebreak"]] == \
        [n.message.model_dump(exclude_defaults=True) for n in notes]


def test_words_a_person_typed_stay_their_text() -> None:
    """A referee's reason is kept as it was typed, braces included."""
    game = position_game(4)
    action = game.play({"type": "apply_effect", "player": "Ann", "action": "lose_influence",
                        "amount": 9, "reason": "a {strange} reason"})
    lost = action.events[0]
    assert lost.reason == "a {strange} reason" and lost.reason.message.english() == lost.reason
    assert lost.model_dump(mode="json")["reason"] == "a {strange} reason"
    game = position_game([seat("Ann", influence=0), seat("Bo"), seat("Cy"), seat("Di")])
    note = game.play({"type": "apply_effect", "player": "Ann", "action": "lose_influence",
                      "amount": 1, "reason": "a {strange} reason"}).events[0]
    assert note.text == "a {strange} reason: no effect"


# --- a game saved before messages ------------------------------------------------------------

def _fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _file_words(doc: dict[str, Any]) -> list[str]:
    """The English the file holds where the engine now keeps messages, in order."""
    out = []
    for entry in doc["entries"]:
        for e in entry.get("events", []):
            out += [e[k] for k in ("reason", "text") if k in e]
            if e["type"] == "power_modified":
                out.append(e["modifier"]["source"])
            if e["type"] == "game_ended":
                board = e["scoreboard"]
                out += [r["tiebreak"] for r in [*board["rows"], *(board.get("teams") or [])]
                        if r.get("tiebreak")]
    return out


def test_the_fixture_is_the_previous_shape() -> None:
    doc = _fixture()
    words = _file_words(doc)
    assert doc["schema_version"] == 3 and all(isinstance(w, str) for w in words)
    assert "won the tie with Cleo on 19 Influence: Ana has more Blood (3 to 2)" in words
    assert "1st at Prince's Haven" in words and "Bloody Fury (BR01)" in words


@pytest.mark.parametrize("verify", [False, True])
def test_a_game_saved_with_english_words_replays_and_reads_the_same(verify: bool) -> None:
    """Read back, the old English is each word's text (never rewritten: written again, the
    journal is the file's); replayed through the rules, the events equal the engine's, which
    carry their messages; and the game reads as the same game played now."""
    doc = _fixture()
    old = Game.from_journal(doc["header"], doc["entries"], verify=verify)
    words = [w for e in old.events[1:] for w in _kept(e)]
    assert words == _file_words(doc) and all(isinstance(w, Said) for w in words)
    now = _played(ROOT / "examples" / "three_players.json")
    assert old.events[1:] == now.events[1:]
    assert old.state == now.state and old.scoreboard == now.scoreboard
    if verify:  # mapped to the engine's messages
        assert [w.message for w in words] == [w.message for e in now.events[1:]
                                              for w in _kept(e)]
        notes = [r.tiebreak for r in old.scoreboard.rows if r.tiebreak]
        assert notes[0].message.key.startswith("won the tie with {lower}")
    else:  # each says its text
        assert all(w.message.english() == w and not w.message.args for w in words)
        assert old.journal() == doc["entries"]
    assert scoreboard_text(old.scoreboard) == scoreboard_text(now.scoreboard)
    assert [(g.title, [e.text for e in g.entries]) for g in timeline(old)] == \
        [(g.title, [e.text for e in g.entries]) for g in timeline(now)]
    assert [e.get("text") for e in event_log(old)] == [e.get("text") for e in event_log(now)]
