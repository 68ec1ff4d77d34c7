"""`vendetta-companion heritage score FILE` and `bloodfeud tally FILE`: text or JSON, and the
documented exit codes (2: a file that cannot be used, 1: a rule refused)."""

import json
from pathlib import Path

from companion.cli.main import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_heritage_score_prints_the_winner(capsys) -> None:
    assert main(["heritage", "score", str(EXAMPLES / "heritage-game.json")]) == 0
    out = capsys.readouterr().out
    assert "Ben wins with 15 VP, having claimed fewer missions (1)" in out
    assert main(["heritage", "score", str(EXAMPLES / "heritage-game.json"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["winner"] == "Ben" and result["decided_by"] == "fewer_missions"
    assert [s["total"] for s in result["scores"]] == [15, 15, 8]


def test_bloodfeud_tally_prints_the_votes(capsys) -> None:
    assert main(["bloodfeud", "tally", str(EXAMPLES / "bloodfeud-session.json"), "--json"]) == 0
    tally = json.loads(capsys.readouterr().out)
    assert tally["session"]["storyteller"] and tally["votes"]


def test_bad_files_and_refusals_have_their_exit_codes(tmp_path: Path, capsys) -> None:
    assert main(["heritage", "score", str(tmp_path / "missing.json")]) == 2
    (tmp_path / "text.json").write_text("not json")
    assert main(["bloodfeud", "tally", str(tmp_path / "text.json")]) == 2
    doc = json.loads((EXAMPLES / "heritage-game.json").read_text())
    doc["rounds_played"] = 12  # a 3-player game lasts 9 rounds
    (tmp_path / "long.json").write_text(json.dumps(doc))
    assert main(["heritage", "score", str(tmp_path / "long.json")]) == 1
    err = capsys.readouterr().err
    assert "§H3" in err and "Traceback" not in err
