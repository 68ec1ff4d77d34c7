"""Data-safety costs: taking the data folder, being refused, restoring backups,
the largest catalogue allowed; each against a floor measured in the same run.

Run: python bench/safety.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from figures import median_ms  # noqa: E402

from companion.library.library import Library  # noqa: E402
from companion.storage import FolderBusy, FolderLock, MemoryGameStore, TinyDBGameStore  # noqa: E402
from tests.process_helpers import ENV, Holder, real_game  # noqa: E402


def floor_open_close(folder: Path) -> None:
    path = folder / "floor"
    with path.open("a"):
        pass


def lock_figures(root: Path, n: int) -> None:
    folder = root / "lock"
    folder.mkdir()
    floor = median_ms(lambda: floor_open_close(folder), n)
    take = median_ms(lambda: FolderLock(folder).release(), n)
    TinyDBGameStore(folder).close()
    store_open = median_ms(lambda: TinyDBGameStore(folder).close(), n)
    holder = Holder(folder)
    try:
        def refused() -> None:
            try:
                TinyDBGameStore(folder)
            except FolderBusy:
                return
            raise AssertionError("not refused")

        refuse = median_ms(refused, n)
    finally:
        holder.quit()
    print(f"floor: open+close a file             {floor:8.3f} ms")
    print(f"take + give up the folder lock      {take:8.3f} ms  ({take / floor:.0f}x floor)")
    print(f"open + close an empty store         {store_open:8.3f} ms")
    print(f"refused (another process holds it)  {refuse:8.3f} ms")


RESTORE_CHILD = """
import json, resource, sys, time
from companion.library.library import Library
from companion.storage import TinyDBGameStore, read_import_file, MAX_BACKUP_BYTES
start = time.perf_counter()
doc = read_import_file(sys.argv[2], MAX_BACKUP_BYTES)
read = time.perf_counter()
svc = Library(TinyDBGameStore(sys.argv[1]))
added = svc.restore_backup(doc)
svc.store.close()
done = time.perf_counter()
raw = TinyDBGameStore(sys.argv[1] + "-unchecked")
raw.import_backup(doc)  # the same restore without the engine replay: the cost of the writes
raw.close()
unchecked = time.perf_counter()
print(json.dumps({"read_ms": (read - start) * 1000, "restore_ms": (done - read) * 1000,
                  "write_ms": (unchecked - done) * 1000,
                  "games": len(added),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def restore_figures(root: Path, sizes: list[int]) -> None:
    game = real_game("x", "four_players")
    print(f"{'games':>6} {'backup MB':>10} {'parse ms (floor)':>17} {'restore ms':>11} "
          f"{'per game ms':>12} {'unchecked ms':>13} {'peak RSS MB':>12}")
    for n in sizes:
        games = []
        for i in range(n):
            doc = json.loads(json.dumps(game))
            doc["header"]["game_id"] = f"g{i:05d}"
            games.append(doc)
        path = root / f"backup{n}.json"
        path.write_text(json.dumps({"format": "vendetta-companion/backup", "schema_version": 1,
                                    "games": games}))
        out = subprocess.run([sys.executable, "-c", RESTORE_CHILD, str(root / f"data{n}"),
                              str(path)], cwd=ROOT, env=ENV, capture_output=True, text=True,
                             check=True)
        r = json.loads(out.stdout)
        print(f"{n:>6} {path.stat().st_size / 2**20:>10.2f} {r['read_ms']:>17.0f} "
              f"{r['restore_ms']:>11.0f} {r['restore_ms'] / n:>12.1f} {r['write_ms']:>13.0f} "
              f"{r['rss_mb']:>12.0f}")


def catalogue_figures() -> None:
    """A catalogue near the limits (500 cards per section with the shipped ones): how long one
    typed card value then takes."""
    svc = Library(MemoryGameStore())
    full = {"allies": [{"id": f"A{i:03d}", "name": "n" * 60, "text": "t" * 300}
                       for i in range(480)],
            "clan_cards": [{"id": f"C{i:03d}", "clan": "Brujah", "name": "n" * 60,
                            "text": "t" * 300} for i in range(430)],
            "relics": [{"id": f"R{i:03d}", "name": "n" * 60, "text": "t" * 300}
                       for i in range(490)],
            "location_cards": [{"id": f"L{i:03d}", "name": "n" * 60, "text": "t" * 300}
                               for i in range(490)]}
    size = len(json.dumps(full)) / 2**20
    svc.import_catalogue(full)
    floor = median_ms(lambda: Library(MemoryGameStore()).remember(
        "allies", {"id": "AL14", "feed": 1}), 5)
    remember = median_ms(lambda: svc.remember("allies", {"id": "AL14", "feed": 1}), 5)
    cards = sum(len(v) for v in full.values())
    print(f"catalogue near the limits: {cards} cards of the user's, {size:.2f} MB of JSON")
    print(f"one typed card value: {remember:.0f} ms (empty catalogue floor {floor:.0f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lock_figures(root, 20 if args.quick else 200)
        restore_figures(root, [1, 10] if args.quick else [1, 10, 100, 500])
        catalogue_figures()


if __name__ == "__main__":
    main()
