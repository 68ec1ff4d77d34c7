"""Backups at scale: size and time of a full backup, its preview and its restore, and
an automatic backup, for N stored games (default 1,000 finished example games).

Run: python bench/backups.py [N] [--quick] (--quick: 10 games, a check that it runs).
Prints figures and each one's ratio to a floor measured in the same run (reading every
journal once, `export_backup`'s own floor).
"""

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.cli.main import Script  # noqa: E402
from companion.library.backups import AutoBackups, apply, backup_file, preview  # noqa: E402
from companion.library.games import summary  # noqa: E402
from companion.library.library import Library  # noqa: E402
from companion.rules.game import Game  # noqa: E402
from companion.storage import (  # noqa: E402
    BACKUP_FORMAT,
    CURRENT_SCHEMA_VERSION,
    TinyDBGameStore,
)

EXAMPLES = ("three_players.json", "four_players.json", "five_players.json", "tag_team.json")


def games(n: int) -> list[dict]:
    """N finished games (the examples, each under new ids), as exported documents."""
    out = []
    for name in EXAMPLES:
        s = Script.model_validate(json.loads((ROOT / "examples" / name).read_text()))
        game = Game.new(s.start.setup or s.start.position, game_id="g")
        for a in s.actions:
            game.play(a)
        out.append((game.header_doc(), game.journal(), summary(game)))
    docs = []
    for i in range(n):
        header, entries, summ = out[i % len(out)]
        header = {**header, "game_id": f"bench{i:06d}"}
        docs.append({"format": "vendetta-companion/game", "schema_version": CURRENT_SCHEMA_VERSION,
                     "header": header, "entries": entries,
                     "summary": {**summ, "game_id": header["game_id"]}})
    return docs


def timed(fn):  # noqa: ANN001, ANN201 - tiny helper
    t = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t


def main(n: int = 1000) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-backups-"))
    try:
        src = TinyDBGameStore(work / "src")
        doc = {"format": BACKUP_FORMAT, "schema_version": CURRENT_SCHEMA_VERSION,
               "games": games(n)}
        src.import_backup(doc)  # no replay: setting up the data only
        service = Library(src)
        _, floor = timed(lambda: [src.load(g["game_id"]) for g in src.list_games()])
        (name, data), t_backup = timed(lambda: backup_file(service))
        dst = Library(TinyDBGameStore(work / "dst"))
        seen, t_preview = timed(lambda: preview(dst, data, name))
        said, t_restore = timed(lambda: apply(dst, preview(dst, data, name)))
        auto = AutoBackups.of(service)
        _, t_auto = timed(auto.write)
        _, t_auto_again = timed(auto.write)
        print(f"games: {n}; backup file {len(data) / 2**20:.1f} MB "
              f"({len(data) / n / 1024:.1f} KB a game)")
        print(f"floor: read every journal once      {floor * 1000:8.0f} ms")
        for label, t in (("backup file (export)", t_backup),
                         ("preview (replays every game)", t_preview),
                         ("preview + restore", t_restore),
                         ("automatic backup (changed data)", t_auto),
                         ("automatic backup (unchanged: skipped)", t_auto_again)):
            print(f"{label:36s} {t * 1000:8.0f} ms  x{t / floor:6.1f} floor")
        print(f"preview: {seen.new_games} new games; restore said: {said}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=1000, help="stored games")
    ap.add_argument("--quick", action="store_true", help="10 games: a check that it runs")
    opts = ap.parse_args()
    main(10 if opts.quick else opts.n)
