"""Storage benchmark: per-action save latency and history listing, vs. one naive TinyDB file.

Run: python bench/storage.py [--quick] [--entries N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tinydb import TinyDB

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

from datasets import write_folder  # noqa: E402

from companion.storage import CURRENT_SCHEMA_VERSION, TinyDBGameStore  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
T0 = datetime(2020, 1, 1, tzinfo=UTC)


def header(gid: str, i: int) -> dict[str, Any]:
    return {"game_id": gid, "schema_version": CURRENT_SCHEMA_VERSION, "created": stamp(i),
            "setup": {"players": PLAYERS, "clans": ["Brujah", "Toreador", "Ventrue", "Tremere"],
                      "seed": i}}


def stamp(i: int) -> str:
    """Game i's time: an hour apart, in UTC ISO form; negative i is 'now' (newest)."""
    when = T0 + (timedelta(days=3650) if i < 0 else timedelta(hours=i))
    return when.isoformat()


def summary(i: int, rnd: int, finished: bool) -> dict[str, Any]:
    return {"players": PLAYERS, "clans": ["Brujah", "Toreador", "Ventrue", "Tremere"],
            "round": rnd, "winner": "Ann" if finished else None,
            "scores": {p: (i + k) % 13 for k, p in enumerate(PLAYERS)} if finished else {},
            "finished": finished, "created": stamp(i), "updated": stamp(i + 1)}


def entry(n: int) -> dict[str, Any]:
    return {"kind": "action", "command": {"type": "PlayCard", "player": n % 4, "card": f"c{n}"},
            "events": [{"type": "CardPlayed", "player": n % 4, "card": f"c{n}", "v": 1},
                       {"type": "BloodChanged", "player": n % 4, "delta": -(n % 3)}]}


def stored_game(i: int, entries: int) -> tuple[dict, list[dict], dict]:
    gid = f"g{i:06d}"
    return header(gid, i), [entry(n) for n in range(entries)], summary(i, 5, i % 20 != 0)


def setup_ours(root: Path, games: int, entries: int) -> None:
    """Bulk setup in the store's real format: journals, then the history index built and
    checkpointed by the store's own code (bench/datasets.py), so opening reads no journal."""
    write_folder(root, [stored_game(i, entries) for i in range(games)])


def setup_naive(path: Path, games: int, entries: int) -> None:
    """Bulk setup of the naive design: one TinyDB JSON file holding every game."""
    docs = {}
    for i in range(games):
        h, e, s = stored_game(i, entries)
        docs[str(i + 1)] = {"game_id": h["game_id"], "header": h, "entries": e, "summary": s}
    path.write_text(json.dumps({"games": docs}))


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_ours(root: Path, actions: int) -> dict[str, Any]:
    """Open, list (cold: open + list, and warm) and per-action saves. The folder has one owner
    at a time (a second writable store is refused), so each open is closed before the next."""
    def opened() -> None:
        TinyDBGameStore(root).close()

    def listed_cold() -> None:
        with TinyDBGameStore(root) as store:
            store.list_games()

    open_s = timed(opened)
    list_cold = timed(listed_cold)
    with TinyDBGameStore(root) as store:
        list_warm = statistics.median(timed(store.list_games) for _ in range(5))
        store.create_game(header("current", -1), summary(-1, 1, False))
        saves = [timed(lambda n=n: store.append("current", entry(n),
                                                summary(n, 1 + n // 40, False)))
                 for n in range(actions)]
    return {"open": open_s, "saves": saves, "list": list_cold, "list_warm": list_warm}


def bench_naive(path: Path, actions: int) -> dict[str, Any]:
    def list_all() -> None:
        db = TinyDB(path)
        [doc["summary"] for doc in db.table("games").all()]
        db.close()

    list_cold = timed(list_all)
    db = TinyDB(path)
    table = db.table("games")
    did = table.insert({"game_id": "current", "header": header("current", -1), "entries": [],
                        "summary": summary(-1, 1, False)})

    def save(n: int) -> None:
        def change(doc: dict[str, Any]) -> None:
            doc["entries"].append(entry(n))
            doc["summary"] = summary(n, 1 + n // 40, False)
        table.update(change, doc_ids=[did])

    saves = [timed(lambda n=n: save(n)) for n in range(actions)]
    db.close()
    return {"saves": saves, "list": list_cold}


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


def replay_benchmark(games: int = 1000, entries: int = 40) -> None:
    """REPLAY BENCHMARK: load + Game.from_journal of a full 4-player game among `games` others.

    The game is examples/four_players.json played through the engine, stored through the real
    import path; the naive design stores it as one more document of its single TinyDB file.
    """
    try:
        from companion.cli.main import Script
        from companion.library.library import summary as summarize
        from companion.rules.game import Game
    except ImportError:
        print("replay: engine not available")
        return
    script_path = ROOT / "examples" / "four_players.json"
    if not script_path.exists():
        print("replay: examples/four_players.json not found")
        return
    script = Script.model_validate(json.loads(script_path.read_text()))
    game = Game.new(script.start.setup or script.start.position)
    for action in script.actions:
        game.play(action)
    doc = {**game.to_document(), "summary": summarize(game)}
    gid = game.header.game_id
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        setup_ours(root / "ours", games, entries)
        setup_naive(root / "naive.json", games, entries)
        store = TinyDBGameStore(root / "ours")
        store.import_game(doc)
        naive_db = TinyDB(root / "naive.json")
        table = naive_db.table("games")
        did = table.insert({"game_id": gid, "header": doc["header"], "entries": doc["entries"],
                            "summary": doc["summary"]})
        try:
            replay = statistics.median(
                timed(lambda: Game.from_journal(doc["header"], doc["entries"])) for _ in range(5))
        except ValueError as exc:
            print(f"replay: Game.from_journal refused the engine's own journal: {str(exc)[:160]}")
            return
        ours = statistics.median(timed(lambda: store.load(gid)) for _ in range(5))
        naive = timed(lambda: table.get(doc_id=did))  # seconds per call at 10,000 games
        store.close()
        naive_db.close()
    print(f"\nreplay of a full 4-player game ({len(doc['entries'])} entries) with {games} other "
          f"games stored:")
    print(f"  load: ours {ms(ours).strip()} ms, naive {ms(naive).strip()} ms "
          f"({naive / ours:.0f}x); Game.from_journal {ms(replay).strip()} ms")
    print(f"  load + replay: ours {ms(ours + replay).strip()} ms, naive "
          f"{ms(naive + replay).strip()} ms ({(naive + replay) / (ours + replay):.1f}x)")


def stats_summary(i: int) -> dict[str, Any]:
    """A finished game's history summary in the service's real shape (standings, Havens)."""
    clans = ["Brujah", "Gangrel", "Malkavian", "Nosferatu", "Toreador", "Tremere", "Ventrue"]
    n = 3 + i % 3
    names = [f"P{(i + k) % 9}" for k in range(n)]
    influence = [(i * (k + 3)) % 17 + 5 for k in range(n)]
    best = max(range(n), key=lambda k: influence[k])
    return {"game_id": f"g{i:06d}", "created": stamp(i), "updated": stamp(i + 1),
            "players": names, "clans": [clans[(i + k) % 7] for k in range(n)],
            "variants": {"relics": i % 2 == 0, "location_cards": i % 3 == 0, "tag_team": False},
            "round": 3, "phase": "game_over", "finished": True, "winner": names[best],
            "scores": dict(zip(names, influence, strict=True)), "player_count": n,
            "standings": [{"name": names[k], "clan": clans[(i + k) % 7], "team": None,
                           "influence": influence[k], "blood": k + 2, "rank": None,
                           "eliminated": False, "frenzies": (i + k) % 3,
                           "diablerie": (i + k) % 2} for k in range(n)],
            "haven_winners": [names[(i + r) % n] for r in range(3)]}


def stats_benchmark(games: int = 10_000) -> None:
    """STATS BENCHMARK: `companion.library.stats.compute` over `games` summaries (one pass,
    no replay)."""
    try:
        from companion.library.stats import compute
    except ImportError:
        print("stats: companion.library.stats not available")
        return
    summaries = [stats_summary(i) for i in range(games)]
    plain = statistics.median(timed(lambda: compute(summaries)) for _ in range(5))
    filtered = statistics.median(timed(lambda: compute(
        summaries, since=T0, until=T0 + timedelta(days=365), player_count=[4, 5],
        variants={"relics": True})) for _ in range(5))
    print(f"\nstats over {games} game summaries (median of 5): all games {ms(plain).strip()} ms;"
          f" with date, player-count and variant filters {ms(filtered).strip()} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="a check that it runs: sizes 10 and 100, 20 saves, tiny figures")
    parser.add_argument("--entries", type=int, default=40, help="entries per stored game")
    args = parser.parse_args()
    sizes = [10, 100] if args.quick else [10, 1000, 10000]
    actions = 20 if args.quick else 200
    print(f"Stored games have {args.entries} entries each; the measured game is a new one.")
    print("ours: per-game fsync'd journal + TinyDB index (AtomicJSONStorage); naive: one TinyDB"
          " JSONStorage file, each action updates that game's document.\n")
    head = (f"{'games':>6} | {'save p50 ms':>21} {'x':>7} | {'save p95 ms':>21} {'x':>7} | "
            f"{'list history ms':>21} {'x':>7} | {'list warm':>9} {'open':>8}")
    print(head)
    print(f"{'':>6} | {'ours':>9} {'naive':>11} {'':>7} | {'ours':>9} {'naive':>11} {'':>7} | "
          f"{'ours':>9} {'naive':>11} {'':>7} | {'ours ms':>9} {'ours ms':>8}")
    print("-" * len(head))
    for games in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            setup_ours(root / "ours", games, args.entries)
            setup_naive(root / "naive.json", games, args.entries)
            ours = bench_ours(root / "ours", actions)
            naive_actions = max(5, min(actions, 200_000 // max(games * args.entries, 1)))
            naive = bench_naive(root / "naive.json", naive_actions)
        o50, n50 = statistics.median(ours["saves"]), statistics.median(naive["saves"])
        o95, n95 = p95(ours["saves"]), p95(naive["saves"])
        print(f"{games:>6} | {ms(o50)} {ms(n50):>11} {n50 / o50:>6.0f}x | {ms(o95)} {ms(n95):>11}"
              f" {n95 / o95:>6.0f}x | {ms(ours['list'])} {ms(naive['list']):>11}"
              f" {naive['list'] / ours['list']:>6.1f}x | {ms(ours['list_warm'])}"
              f" {ms(ours['open']).strip():>8}")
    print(f"\nx = naive / ours. Saves: ours {actions} per size, naive fewer at large sizes."
          " 'list history' = open the store + list every summary (cold), 'list warm' = list on an"
          " open store, 'open' = open the store.")
    replay_benchmark(sizes[-1], args.entries)
    stats_benchmark(100 if args.quick else 10_000)


if __name__ == "__main__":
    main()
