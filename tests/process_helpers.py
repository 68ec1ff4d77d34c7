"""Real processes on real folders: a child that holds a data folder, and running the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

HOLDER = """
import sys
from companion.storage import TinyDBGameStore
from tests.storage_helpers import entry, header, summary
store = TinyDBGameStore(sys.argv[1], role=sys.argv[2], address=sys.argv[3] or None)
print("ready", flush=True)
for line in sys.stdin:
    word, *rest = line.split()
    if word == "create":
        store.create_game(header(rest[0]), summary(0))
    elif word == "append":
        n = int(rest[1])
        store.append(rest[0], entry(n), summary(n, rnd=n // 10 + 1))
    elif word == "quit":
        store.close()
        print("closed", flush=True)
        break
    print("ok", flush=True)
"""


class Holder:
    """A child process that opens a data folder for writing and keeps it until told to quit."""

    def __init__(self, folder: Path, role: str = "web server",
                 address: str = "http://table:8550") -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), role, address],
                                     cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if line.strip() != "ready":
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"holder did not start: {line!r} {err[-500:]}")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, line: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def quit(self) -> None:
        if self.proc.poll() is None:
            self.send("quit")
            self.proc.wait(10)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


def cli(*args: str, timeout: float = 60, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `vendetta-companion ARGS` in a new process; text output."""
    return subprocess.run([sys.executable, "-m", "companion.cli.main", *args], cwd=ROOT,
                          env=env or ENV, capture_output=True, text=True, timeout=timeout)


def real_game(game_id: str | None = None, example: str = "three_players") -> dict:
    """An exported game, played from an example script through the engine."""
    from companion.rules.game import Game
    from models.setup import GameSetup

    script = json.loads((ROOT / "examples" / f"{example}.json").read_text())
    game = Game.new(GameSetup.model_validate(script["start"]["setup"]), game_id=game_id)
    for command in script["actions"]:
        game.play(command)
    return json.loads(json.dumps(game.to_document()))


def tree(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` with its size and modification time (to prove no change)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_dir()}
