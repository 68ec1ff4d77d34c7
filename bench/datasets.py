"""Benchmark data: the longest example game, and data folders of N stored games.

A folder of N games is written directly in the store's own format: one journal per game (the
header and summary of one real finished game, with its own id, player names and dates; 1 in 8
left unfinished), then the history index built by the store's own `HistoryIndex` and
checkpointed with the games/ folder's stamp, so opening it reads only the manifest. 100,000
games take seconds, not a replay each. Folders are cached under the temp dir, keyed by the
formats they were written in, and reused while their games/ folder is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(tempfile.gettempdir()) / "vendetta-bench"
"""Where generated data folders are kept between runs."""

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Liv",
         "Max", "Nia", "Oz", "Pia"]
EXAMPLES = ["three_players", "four_players", "five_players", "tag_team", "card_effects"]


def longest_game() -> Any:
    """The example game with the most actions, played through the engine."""
    from companion.cli.main import Script
    from companion.rules.game import Game

    best = None
    for name in EXAMPLES:
        script = Script.model_validate(json.loads((ROOT / "examples" / f"{name}.json")
                                                  .read_text()))
        game = Game.new(script.start.setup or script.start.position)
        for action in script.actions:
            game.play(action)
        if best is None or len(game.actions) > len(best.actions):
            best = game
    return best


def varied(summary: dict[str, Any], i: int, n: int) -> dict[str, Any]:
    """Game i of n: the real summary with its own id, player names, dates; 1 in 8 unfinished
    (built, not deep-copied: values that do not vary are shared)."""
    old = summary["players"]
    names = [f"{NAMES[(i + 3 * k) % len(NAMES)]}{(i // len(NAMES)) % 50}"
             for k in range(len(old))]
    ren = dict(zip(old, names, strict=True))
    when = (f"{2010 + (i * 15) // max(n, 1):04d}-{1 + i % 12:02d}-{1 + i % 28:02d}T"
            f"{i % 24:02d}:{(i // 24) % 60:02d}:{i % 60:02d}+00:00")
    s = {**summary, "game_id": f"g{i:07d}", "players": names, "created": when, "updated": when,
         "standings": [{**row, "name": ren.get(row["name"], row["name"])}
                       for row in summary.get("standings") or []],
         "haven_winners": [ren.get(w, w) for w in summary.get("haven_winners") or []]}
    if i % 8 == 0:
        s.update(finished=False, phase="planning", round=2, winner=None, scores=None)
    elif summary.get("winner") is not None:
        s["winner"] = ren.get(summary["winner"], summary["winner"])
        s["scores"] = {ren.get(k, k): v for k, v in (summary.get("scores") or {}).items()}
    return s


def write_folder(root: Path, games: list[tuple[dict[str, Any], list[dict[str, Any]],
                                               dict[str, Any]]]) -> None:
    """Write a data folder (root must be new) in the store's real format: one journal per
    (header, entries, summary), then the history index built and checkpointed by the store's
    own `HistoryIndex`, stamped with the games/ folder so that opening reads no journal."""
    from concurrent.futures import ThreadPoolExecutor

    from companion.storage.files import journal_bytes
    from companion.storage.history import HistoryIndex

    folder = root / "games"
    folder.mkdir(parents=True)
    (root / "dirty").mkdir()

    def write(game: tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]) -> None:
        header, entries, summary = game
        data = journal_bytes(header, entries, summary)
        fd = os.open(folder / f"{header['game_id']}.jsonl",
                     os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    with ThreadPoolExecutor(16) as pool:  # file creation waits on the disk: overlap it
        for _ in pool.map(write, games, chunksize=256):
            pass
    index = HistoryIndex(root / "index")
    index.build([(h["game_id"], s) for h, _, s in games])
    index.save(os.stat(folder).st_mtime_ns)


def write_store(root: Path, n: int, game: Any) -> None:
    """Write a data folder holding n games in the store's real format (root must be new)."""
    from companion.library.games import summary

    header, base = game.header_doc(), summary(game)
    write_folder(root, [({**header, "game_id": s["game_id"]}, [], s)
                        for s in (varied(base, i, n) for i in range(n))])


def _fingerprint() -> str:
    """What a cached folder depends on: this generator, the index and journal formats, the
    example games."""
    h = hashlib.blake2b(digest_size=8)
    for path in (Path(__file__), ROOT / "companion" / "storage" / "history.py",
                 ROOT / "companion" / "storage" / "files.py",
                 *sorted((ROOT / "examples").glob("*.json"))):
        h.update(path.read_bytes())
    return h.hexdigest()


def data_folder(n: int, game: Any) -> tuple[Path, float | None]:
    """A data folder of n games (cached): its path and the seconds spent writing it (None:
    reused)."""
    import time

    base = CACHE / _fingerprint()
    if CACHE.is_dir():
        for old in CACHE.iterdir():  # written by another version: no longer of use
            if old != base:
                shutil.rmtree(old, ignore_errors=True)
    folder, done = base / f"games-{n}", base / f"games-{n}.done"
    try:
        if done.read_text() == str(os.stat(folder / "games").st_mtime_ns):
            return folder, None
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    write_store(folder, n, game)
    done.write_text(str(os.stat(folder / "games").st_mtime_ns))
    return folder, time.perf_counter() - start
