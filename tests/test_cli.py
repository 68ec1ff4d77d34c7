"""The command-line runner: game scripts, "just score it", formats and schemas (§2–§13)."""

import json
import sys
import types
from pathlib import Path

import pytest

from companion.cli.main import GameDocument, Script, main, schemas
from companion.rules.game import Game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
VICTIM = {"name": "Victim", "kind": "victim", "influence": 1, "feed": 1, "drain_blood": 3,
          "drained_influence": 0}
SETUP = {"players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cleo"}], "seed": 1}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI and return (exit code, stdout, stderr)."""
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path: Path, doc: object, name: str = "doc.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def script(actions: list[dict], start: dict | None = None) -> dict:
    return {"format": "vendetta-companion/script", "start": start or {"setup": SETUP},
            "actions": actions}


# --- play ----------------------------------------------------------------------------------------

WINNERS = {"three_players": "Ben", "four_players": "Fatima", "five_players": "Hana",
           "tag_team": "Team Blue"}


@pytest.mark.parametrize("name", sorted(WINNERS))
def test_example_plays_to_a_final_scoreboard(capsys, name):
    path = str(EXAMPLES / f"{name}.json")
    code, out, err = run(capsys, "play", path)
    assert (code, err) == (0, "")
    assert "Round 3, game over" in out
    assert f"Final scoreboard: {WINNERS[name]} wins" in out
    if name == "tag_team":
        assert "Teams:" in out

    code, out, _ = run(capsys, "play", path, "--json")
    doc = json.loads(out)
    assert code == 0
    board = doc["scoreboard"]
    winner = board["winning_team"] or board["winner"]
    assert winner == WINNERS[name].removeprefix("Team ")
    assert doc["state"]["phase"] == "game_over"
    assert doc["legal"]["commands"] == []
    rows = doc["scoreboard"]["rows"]
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert len(rows) == len(doc["state"]["players"])


def test_examples_show_the_documented_features():
    """The examples use every kind of referee action the formats document describes."""
    actions = [a for p in EXAMPLES.glob("*_*.json") if p.name != "score_positions.json"
               for a in json.loads(p.read_text())["actions"]]
    kinds = {a["type"] for a in actions}
    assert {"set_first_player", "offer_clans", "pick_clan", "feed", "place_allies",
            "finish_hand_building", "drain", "play_card", "choose_withdraw", "reveal",
            "apply_effect", "resolve_effect", "take_back_blood", "place_location_cards",
            "next_step"} <= kinds
    assert any(a.get("draws") for a in actions)
    assert any(a["type"] == "apply_effect" and a.get("draws") for a in actions)
    assert any(a["type"] == "play_card" and a.get("diablerie") for a in actions)
    assert any(a["type"] == "play_card" and a.get("face_up") is False for a in actions)
    assert any(a["type"] == "choose_withdraw" and a.get("withdraw") for a in actions)


def test_play_prints_the_state_before_the_end(capsys, tmp_path):
    path = write(tmp_path, script([{"type": "set_first_player", "player": "Ben"}]))
    code, out, _ = run(capsys, "play", path)
    assert code == 0
    assert "Ambition: Ben (turn order Ben, Cleo, Ana)" in out
    assert "Next: Ben picks a clan." in out
    code, out, _ = run(capsys, "play", path, "--json")
    assert json.loads(out)["scoreboard"] is None


def test_play_from_a_position(capsys, tmp_path):
    position = {
        "players": [{"name": n, "clan": c, "blood": 4, "influence": 5, "hand_size": 1,
                     "alliance": [{"card": VICTIM}]}
                    for n, c in (("Ana", "Brujah"), ("Ben", "Gangrel"), ("Cleo", "Ventrue"))],
        "round": 3, "phase": "resolution", "ambition": "Cleo", "resolution_location": "haven",
        "locations": [{"id": "haven", "ally": {**VICTIM, "name": "Example Ally 1",
                                                "kind": "human"}, "deployed": [
            {"player": "Ana", "cards": [{"card": {"power": 5}}]},
            {"player": "Ben", "blood": 2}]}],
    }
    actions = [{"type": "choose_withdraw"}, {"type": "next_step"}, {"type": "next_step"},
               {"type": "next_step"}]
    code, out, _ = run(capsys, "play", write(tmp_path, script(actions, {"position": position})),
                       "--json")
    doc = json.loads(out)
    assert code == 0
    # §8.4: Ana alone has cards: 1st-place reward only (3 + 1 for the Prince's Haven).
    assert doc["scoreboard"]["winner"] == "Ana"
    assert doc["state"]["players"][0]["influence"] == 9
    assert doc["state"]["players"][1]["influence"] == 5
    assert [c["card"]["name"] for c in doc["state"]["players"][0]["alliance"]] == [
        "Victim", "Example Ally 1"]


def test_refused_action_names_index_and_rule(capsys, tmp_path):
    actions = [{"type": "set_first_player", "player": "Ana"},
               {"type": "pick_clan", "player": "Cleo", "clan": "Brujah"}]
    code, out, err = run(capsys, "play", write(tmp_path, script(actions)))
    assert code == 1
    assert err.startswith("action #1 (pick_clan): ")
    assert "§2" in err and "Ana picks now" in err


def test_refused_action_with_json_prints_the_error_and_the_state_before(capsys, tmp_path):
    """docs/formats.md: `play --json` on a refused action exits 1 and prints the error (message,
    §, player, action index) with the state just before it."""
    actions = [{"type": "set_first_player", "player": "Ana"},
               {"type": "pick_clan", "player": "Cleo", "clan": "Brujah"}]
    code, out, err = run(capsys, "play", write(tmp_path, script(actions)), "--json")
    assert code == 1 and err.startswith("action #1 (pick_clan): ")
    doc = json.loads(out)
    assert doc["error"] == {
        "action_index": 1, "action": "pick_clan", "rule": "§2", "player": "Cleo",
        "message": doc["error"]["message"], "reason": "clans are picked in turn order: Ana "
                                                      "picks now"}
    assert "Ana picks now" in doc["error"]["message"]
    assert doc["state"]["ambition"] == 0 and doc["state"]["players"][2]["clan"] is None
    assert doc["legal"]["actor"] == 0 and doc["scoreboard"] is None
    code, out, _ = run(capsys, "play", write(tmp_path, script(actions[:1])), "--json")
    assert json.loads(out)["state"] == doc["state"]


def test_malformed_action_with_json_names_its_index(capsys, tmp_path):
    actions = [{"type": "set_first_player", "player": "Ana"}, {"type": "teleport"}]
    code, out, _ = run(capsys, "play", write(tmp_path, script(actions)), "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["action_index"] == 1 and error["action"] == "teleport"
    assert error["rule"] is None and error["player"] is None and "teleport" in error["message"]


def test_play_json_events_show_random_outcomes_and_their_causes(capsys):
    """`play --json --events`: every event, with the action it came from; random outcomes and
    Frenzy causes are said in words (who caused it, which card was drawn)."""
    path = str(EXAMPLES / "card_effects.json")
    code, out, _ = run(capsys, "play", path, "--json", "--events")
    doc = json.loads(out)
    assert code == 0
    events = doc["events"]
    assert events[0]["type"] == "position_loaded" and events[0]["action"] == -1
    assert [e["action"] for e in events] == sorted(e["action"] for e in events)
    frenzies = [e for e in events if e["type"] == "frenzy_entered"]
    assert frenzies and all("text" in e for e in frenzies)
    caused = next(e for e in frenzies if e["by"] is not None)
    names = [p["name"] for p in doc["state"]["players"]]
    assert f"caused by {names[caused['by']]}" in caused["text"]
    drains = [e for e in events if e["type"] == "card_drained" and e["frenzy"]]
    assert any("drawn at random" in e["text"] for e in drains if e["random"])
    assert any("directly" in e["text"] for e in drains)
    code, out, _ = run(capsys, "play", path, "--events")
    assert code == 0 and "Events:" in out and "drawn at random" in out
    code, out, _ = run(capsys, "play", path, "--json")
    assert "events" not in json.loads(out)


def test_last_blood_ruling_refused(capsys, tmp_path):
    doc = json.loads((EXAMPLES / "three_players.json").read_text())
    setup_len = next(i for i, a in enumerate(doc["actions"]) if a["type"] == "play_card")
    first = doc["actions"][setup_len]["player"]
    start = doc["actions"][:setup_len]
    doc["actions"] = start + [{"type": "drain", "player": first, "card": "nope"}]
    code, _, err = run(capsys, "play", write(tmp_path, doc))
    assert code == 1
    assert err.startswith(f"action #{setup_len} (drain): ") and "§9" in err
    # 7 Blood after Feed, 4 lost: face down (1) + 2 Blood would empty the Pool.
    doc["actions"] = start + [
        {"type": "apply_effect", "action": "lose_blood", "player": first, "amount": 4},
        {"type": "play_card", "player": first, "location": "1", "face_up": False, "blood": 2}]
    code, _, err = run(capsys, "play", write(tmp_path, doc))
    assert code == 1
    assert err.startswith(f"action #{setup_len + 1} (play_card): ")
    assert "§7 Ruling (last Blood)" in err


def test_malformed_action_is_refused_with_its_index(capsys, tmp_path):
    actions = [{"type": "set_first_player", "player": "Ana"}, {"type": "teleport"}, 3]
    code, _, err = run(capsys, "play", write(tmp_path, script(actions)))
    assert code == 1
    assert err.startswith("action #1 (teleport): ")


@pytest.mark.parametrize("content", [
    "not json",
    json.dumps([1, 2]),
    json.dumps({"format": "vendetta-companion/score", "players": []}),
    json.dumps(script([], {"setup": {"players": [{"name": "Ana"}, {"name": "Ben"}]}})),
    json.dumps({**script([]), "start": {}}),
    json.dumps({**script([]), "actions": {"type": "feed"}}),
    json.dumps(script([], {"position": {"players": [
        {"name": n, "clan": "Brujah", "blood": 1, "influence": 1} for n in "ABC"],
        "round": 1, "phase": "feed", "ambition": "Z"}})),
])
def test_malformed_script_exits_2(capsys, tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "play", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(str(path))


def test_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "score", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err


def test_data_dir_is_accepted_by_subcommands(capsys, tmp_path):
    path = str(EXAMPLES / "score_positions.json")
    assert run(capsys, "score", path, "--data-dir", str(tmp_path))[0] == 0
    assert run(capsys, "--data-dir", str(tmp_path), "score", path)[0] == 0


# --- score ---------------------------------------------------------------------------------------

def score_doc() -> dict:
    return json.loads((EXAMPLES / "score_positions.json").read_text())


def ranking(capsys, tmp_path, doc: dict) -> list[dict]:
    code, out, err = run(capsys, "score", write(tmp_path, doc), "--json")
    assert (code, err) == (0, "")
    return json.loads(out)["scoreboard"]["rows"]


def test_score_example_tie_broken_by_blood(capsys, tmp_path):
    rows = ranking(capsys, tmp_path, score_doc())
    assert [(r["name"], r["influence"]["total"]) for r in rows] == [
        ("Sam", 13), ("Quinn", 11), ("Rosa", 11), ("Tess", 7)]
    assert "more Blood (5 to 3)" in rows[1]["tiebreak"]
    code, out, _ = run(capsys, "score", str(EXAMPLES / "score_positions.json"))
    assert code == 0 and "Final scoreboard: Sam wins" in out
    assert "Quinn (Ventrue): 11 = 3 + 0 + 9 + 0 - 1; Blood 5" in out


@pytest.mark.parametrize(("ambition", "first"), [("Rosa", "Rosa"), ("Quinn", "Quinn"),
                                                 ("Sam", "Quinn"), ("Tess", "Quinn")])
def test_score_tie_broken_by_turn_order(capsys, tmp_path, ambition, first):
    """§12: equal Influence and Blood: first in turn order from the Ambition holder wins."""
    doc = score_doc()
    doc["players"][1]["blood"] = 5
    doc["ambition"] = ambition
    rows = ranking(capsys, tmp_path, doc)
    assert rows[1]["name"] == first
    assert "earlier in turn order" in rows[1]["tiebreak"]


def test_score_diablerie_and_elimination(capsys, tmp_path):
    """§11: three Diablerie tokens put a player below everyone still in."""
    doc = score_doc()
    doc["players"][2]["diablerie"] = 3
    rows = ranking(capsys, tmp_path, doc)
    assert rows[-1]["name"] == "Sam" and rows[-1]["eliminated"]
    assert rows[-1]["influence"]["total"] == 10


def test_score_tag_team(capsys, tmp_path):
    doc = score_doc()
    doc["variants"] = {"tag_team": True}
    doc["players"] = teams("Red", "Blue", "Red", "Blue")
    code, out, _ = run(capsys, "score", write(tmp_path, doc), "--json")
    board = json.loads(out)["scoreboard"]
    assert code == 0
    # Red: Quinn 11 + Sam 13 = 24; Blue: Rosa 11 + Tess 7 = 18.
    assert [(t["team"], t["influence"], t["blood"]) for t in board["teams"]] == [
        ("Red", 24, 9), ("Blue", 18, 5)]
    assert board["winning_team"] == "Red" and board["winner"] == "Sam"
    code, out, _ = run(capsys, "score", write(tmp_path, doc))
    assert "Final scoreboard: Team Red wins (best player: Sam)" in out
    assert "Teams:" in out and "Red (Quinn, Sam): Influence 24; Blood 9" in out


def test_score_without_clans(capsys, tmp_path):
    doc = score_doc()
    for player in doc["players"]:
        del player["clan"]
    rows = ranking(capsys, tmp_path, doc)
    assert [(r["name"], r["clan"]) for r in rows][:2] == [("Sam", None), ("Quinn", None)]


def teams(*names: str) -> list[dict]:
    return [{**p, "team": t} for p, t in zip(score_doc()["players"], names, strict=True)]


@pytest.mark.parametrize("change", [
    {"ambition": "Nobody"},
    {"variants": {"tag_team": True}},
    {"variants": {"tag_team": True}, "players": teams("Red", "Red", "Blue", "Blue")},
    {"players": [{**p, "clan": "Brujah"} for p in score_doc()["players"]]},
    {"players": [{**p, "relic": {"name": "A Relic", "influence": 2}}
                 for p in score_doc()["players"]]},
    {"players": []},
    {"format": "vendetta-companion/script"},
])
def test_malformed_score_file_exits_2(capsys, tmp_path, change):
    code, out, err = run(capsys, "score", write(tmp_path, {**score_doc(), **change}))
    assert (code, out) == (2, "")
    assert err


# --- app, schemas -------------------------------------------------------------------------------

def test_no_subcommand_starts_the_app(capsys, monkeypatch, tmp_path):
    """The entry point above both layers starts the UI; companion.cli.main never imports views."""
    import vendetta_companion

    calls = []
    fake = types.ModuleType("views.server")
    fake.start = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "views.server", fake)
    assert main(["--web"]) is None  # companion.cli.main reports "no subcommand" to its caller
    assert vendetta_companion.main(["--web", "--port", "9000", "--data-dir",
                                    str(tmp_path)]) == 0
    assert calls == [{"web": True, "port": 9000, "data_dir": str(tmp_path), "host": None}]
    assert vendetta_companion.main(["--host", "127.0.0.1"]) == 0
    assert calls[-1] == {"web": False, "port": 8550, "data_dir": None, "host": "127.0.0.1"}
    assert vendetta_companion.main(["score", "/no/such/file.json"]) == 2


def test_app_not_installed(capsys, monkeypatch):
    import vendetta_companion

    monkeypatch.setitem(sys.modules, "views.server", None)
    assert vendetta_companion.main([]) == 1
    assert "the app UI is not installed" in capsys.readouterr().err


def test_committed_schemas_are_fresh():
    """docs/schema/ must equal the schemas generated now (python tools/gen_schema.py)."""
    for name, schema in schemas().items():
        committed = json.loads((ROOT / "docs" / "schema" / name).read_text(encoding="utf-8"))
        assert committed == schema, f"docs/schema/{name} is stale: run tools/gen_schema.py"


def export(face_down: bool) -> dict:
    """Export part of the 4-player example, with undo and redo, up to its first face-down play
    (or just past it)."""
    script = Script.model_validate_json((EXAMPLES / "four_players.json").read_text())
    first = next(i for i, a in enumerate(script.actions) if a.get("face_up") is False)
    game = Game.new(script.start.setup)
    for action in script.actions[:first + 1 if face_down else first]:
        game.play(action)
    game.undo()
    game.undo()
    game.redo()
    doc = game.to_document()
    again = Game.from_journal(doc["header"], doc["entries"], verify=True)
    assert again.state == game.state and again.can_redo()
    return doc


def test_exported_game_matches_its_documented_model():
    """An exported game (with undo/redo) fits game.schema.json's model and loads back."""
    GameDocument.model_validate(export(face_down=False))


def test_exported_game_with_a_face_down_card_loads_back():
    GameDocument.model_validate(export(face_down=True))
