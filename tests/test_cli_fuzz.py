"""Fuzz the command line: mutated examples, deep nesting, binary and endless input.

Every input must end in a documented exit code with at most one line on stderr, never a
traceback and never the "internal error" code (an unmapped failure).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import EXIT_CODES, main
from tests.process_helpers import ENV, ROOT, real_game

EXAMPLES = ROOT / "examples"
BUDGET_S = 60
WEIRD: list[Any] = [None, True, -1, 0, 2**63, 1e308, -0.5, "", "x" * 5000, "\u202e\U0001f9db",
                    [], {}, [None], {"type": "feed"}, "Ana", 99, "haven"]


def mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A copy of a JSON value with one random change somewhere inside."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        out = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.25:
            out[key + "_extra"] = rng.choice(WEIRD)
        elif roll < 0.6 and depth < 8:
            out[key] = mutate(value[key], rng, depth + 1)
        else:
            out[key] = rng.choice(WEIRD)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        out = list(value)
        i = rng.randrange(len(out))
        roll = rng.random()
        if roll < 0.15:
            del out[i]
        elif roll < 0.25:
            out.insert(i, copy.deepcopy(out[rng.randrange(len(out))]))
        elif roll < 0.35:
            rng.shuffle(out)
        elif roll < 0.7 and depth < 8:
            out[i] = mutate(value[i], rng, depth + 1)
        else:
            out[i] = rng.choice(WEIRD)
        return out
    return rng.choice(WEIRD)


def deep(n: int, kind: str) -> str:
    return ("[" * n + "]" * n) if kind == "list" else ('{"a":' * n + "1" + "}" * n)


def byte_noise(text: bytes, rng: random.Random) -> bytes:
    """Truncated, bit-flipped or BOM-prefixed bytes of a document."""
    roll = rng.random()
    if roll < 0.3:
        return text[: rng.randrange(len(text) + 1)]
    if roll < 0.6:
        data = bytearray(text)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if roll < 0.7:
        return "\ufeff".encode() + text
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exit_:  # argparse usage errors
            code = exit_.code if isinstance(exit_.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def test_fuzzed_inputs_never_crash_the_cli(tmp_path: Path) -> None:
    rng = random.Random(2024)
    scripts = [json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("*_*.json"))
               if p.name not in ("score_positions.json",)]
    score = json.loads((EXAMPLES / "score_positions.json").read_text())
    game = real_game("fuzz")
    catalogue = {"version": 1, "allies": [{"id": "AL14", "name": "Ally", "feed": 1}],
                 "clan_cards": [{"id": "BR-HUNT", "clan": "Brujah", "power": 1}]}
    backup = {"format": "vendetta-companion/backup", "schema_version": 1,
              "created": "2024-01-01T00:00:00+00:00", "games": [game], "catalogue": catalogue}
    data = str(tmp_path / "data")
    path = tmp_path / "input.json"
    kinds = [("play", rng.choice(scripts)), ("score", score), ("games import", game),
             ("games restore", backup), ("catalogue import", catalogue)]
    cases: list[tuple[str, bytes]] = []
    for i in range(360):
        command, doc = kinds[i % len(kinds)]
        if command == "play":
            doc = scripts[i // len(kinds) % len(scripts)]
        roll = rng.random()
        if roll < 0.7:
            body = json.dumps(mutate(doc, rng)).encode()
        elif roll < 0.9:
            body = byte_noise(json.dumps(doc).encode(), rng)
        else:
            body = deep(rng.choice([65, 500, 5000, 200_000]), rng.choice(["list", "dict"])).encode()
        cases.append((command, body))
    started = time.monotonic()
    codes: dict[int, int] = {}
    for n, (command, body) in enumerate(cases):
        path.write_bytes(body)
        argv = [*command.split(), str(path)]
        if command.split()[0] in ("games", "catalogue"):
            argv += ["--data-dir", data]
        code, _, err = run(*argv)
        codes[code] = codes.get(code, 0) + 1
        where = f"case {n}: {command} {body[:200]!r}"
        assert code in EXIT_CODES and code not in (70, 130), f"{where} -> {code}: {err}"
        assert "Traceback" not in err and err.count("\n") <= 1, f"{where}: {err}"
        assert (code == 0) == (err == ""), f"{where}: {code} {err}"
        assert time.monotonic() - started < BUDGET_S, f"fuzzing too slow: {n} cases"
    elapsed = time.monotonic() - started
    print(f"{len(cases)} fuzzed inputs in {elapsed:.1f} s, exit codes {sorted(codes.items())}")
    assert codes.get(0) and codes.get(1) and codes.get(2)  # the mutations reach every layer


@pytest.mark.parametrize("argv", [
    ["play", "/dev/zero"], ["score", "/dev/zero"], ["catalogue", "import", "/dev/zero"],
    ["games", "import", "/dev/zero"], ["games", "restore", "/dev/null"], ["play", "/"],
    ["catalogue", "export", "/"], ["games", "backup", "/proc/nope/x.json"],
    ["games", "export", "nope", "/tmp/x.json"], ["games", "import"], ["bogus"],
    ["play", "/nonexistent.json"],
])
def test_special_files_and_paths_in_a_real_process(tmp_path: Path, argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli.main", *argv, "--data-dir",
                           str(tmp_path)] if argv[0] in ("games", "catalogue") else
                          [sys.executable, "-m", "companion.cli.main", *argv], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (1, 2, 4), done
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 or lines[0].startswith("usage:"), done.stderr  # argparse: usage + 1


def test_a_script_action_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    doc = json.loads((EXAMPLES / "three_players.json").read_text())
    doc["actions"][2] = 7
    path.write_text(json.dumps(doc))
    code, _, err = run("play", str(path))
    assert code == 1 and err.startswith("action #2 (?): ")


def test_bom_is_accepted_the_same_way_everywhere(tmp_path: Path) -> None:
    bom = "\ufeff".encode()
    for name, argv in (("three_players", ["play"]), ("score_positions", ["score"])):
        path = tmp_path / f"{name}.json"
        path.write_bytes(bom + (EXAMPLES / f"{name}.json").read_bytes())
        assert run(*argv, str(path))[0] == 0
    path = tmp_path / "game.json"
    path.write_bytes(bom + json.dumps(real_game("bom")).encode())
    assert run("games", "import", str(path), "--data-dir", str(tmp_path / "d"))[0] == 0
    path.write_bytes(bom + b'{"allies": [{"id": "AL14", "feed": 1}]}')
    assert run("catalogue", "import", str(path), "--data-dir", str(tmp_path / "d"))[0] == 0


def test_every_exit_code_is_documented() -> None:
    docs = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in EXIT_CODES:
        assert f"| {code} |" in docs and f"**{code}**" in readme, code
