"""The history index: every stored game's summary, in TinyDB files read a few at a time.

Layout of `index/` (each file a TinyDB database written through `AtomicJSONStorage`):
  manifest.json   table "meta": format, version, next file number, the games/ folder's stamp
                  at the last checkpoint; table "shards": per shard, in history order, its
                  file number, lowest key, unfinished and finished counts, content stamp
  shard-<n>.json  table "games": {"game_id", "summary"} of one shard's games, oldest first

The history is ordered by key = (summary "updated", else "created"; game id). Shards cut that
order into consecutive ranges of at most SHARD_SIZE games, so the manifest's counts say which
shards hold any page, newest first, finished or not: opening reads only the manifest, a page
reads only its shards (the last few read are kept parsed). A game whose key changes moves to
the shard of its new key, so shards never overlap. A shard file is never rewritten: a changed
shard goes to a new file, then the manifest is replaced (the commit point), then the old files
are deleted; whatever moment a process dies, the last committed index is whole.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from bisect import bisect_left, bisect_right, insort
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from .files import TMP_SUFFIX, AtomicJSONStorage, fsync_dir, remove_entry
from .transfer import id_problem

INDEX_FORMAT = "vendetta-companion/history-index"
INDEX_VERSION = 1
SHARD_SIZE = 1000
"""Most games in one shard file (about 1.2 MB of summaries)."""
KEEP_PARSED = 8
"""Unchanged shards kept parsed in memory, most recently used first."""
MANIFEST = "manifest.json"

Key = tuple[str, str]
"""(sort key, game id): a game's place in the history, oldest first."""
Hints = Callable[[], tuple[list[str], bool]]
"""Where a game not read yet may be: sort keys to try, and whether it is surely not indexed if
it is at none of them (else every shard is read)."""


def sort_key(summary: dict[str, Any]) -> str:
    """Newest-first sort key of a summary: "updated", else "created" (UTC ISO strings)."""
    return str(summary.get("updated") or summary.get("created") or "")


def is_finished(summary: dict[str, Any]) -> bool:
    """Whether a summary is of a finished game."""
    return bool(summary.get("finished"))


def search_text(summary: dict[str, Any]) -> str:
    """What a history search looks in: the player names and the winner, case-folded."""
    names = [str(n) for n in summary.get("players") or []]
    return "\n".join([*names, str(summary.get("winner") or "")]).casefold()


def id_digest(game_ids: Iterable[str]) -> int:
    """A fingerprint of a set of game ids (the same for the same set, in any order)."""
    digest = 0
    for gid in game_ids:
        digest ^= int.from_bytes(hashlib.blake2b(gid.encode(), digest_size=8).digest(), "big")
    return digest


def terms_of(query: str | None) -> list[str]:
    """A search as case-folded words, each to be found in a name (empty: no search)."""
    return (query or "").casefold().split()


class IndexDamaged(ValueError):
    """An index file cannot be read, or disagrees with the manifest."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path.name}: {reason}"[:300])
        self.path = path


class IndexMoved(RuntimeError):
    """Read-only: a shard file went away (the writer checkpointed); read the manifest again."""


@dataclass(eq=False)
class Shard:
    """A run of consecutive games of the history (from `low` to the next shard's `low`)."""

    low: Key
    counts: list[int]
    """[unfinished, finished] games held."""
    stamp: str
    """Changes whenever the shard's summaries change (kept across sessions)."""
    file: int | None = None
    """Number of the file holding exactly these summaries (None: not written yet)."""
    games: dict[str, dict[str, Any]] | None = None
    """Game id -> summary, while parsed."""
    order: list[Key] | None = None
    """The games' keys, sorted, while parsed."""
    kinds: tuple[str, dict[bool, list[str]]] | None = None
    """The stamp, and the unfinished and finished game ids newest first at that stamp
    (a page of one kind skips the other's games without looking at them)."""

    def count(self, finished: bool | None) -> int:
        """Games held, of one kind or both."""
        return self.counts[0] + self.counts[1] if finished is None else self.counts[finished]


def _exists(path: Path) -> bool:
    """Whether a file is there (False when it cannot even be looked at)."""
    try:
        return path.exists()
    except OSError:
        return False


def _db(path: Path) -> TinyDB:
    return TinyDB(path, storage=AtomicJSONStorage)


class HistoryIndex:
    """The summaries of every stored game, by game id and in history order.

    Not thread-safe (the store locks around it). Summaries handed out are the index's own:
    never modify them. A read-only index never writes.
    """

    def __init__(self, folder: Path, read_only: bool = False) -> None:
        self.folder = folder
        self.read_only = read_only
        self.version = 0
        """Change counter: differs after any summary was added, changed or removed."""
        self._counted: tuple[int, list[int]] = (-1, [0, 0])
        """The games held (unfinished, finished), summed at that `version`."""
        self.games_stamp: int | None = None
        """The games/ folder's mtime (ns) at the last checkpoint."""
        self.changed = False
        """Something is not checkpointed yet."""
        self.ids = 0
        """`id_digest` of the indexed game ids."""
        self._session = secrets.token_hex(4)
        self._stamps = 0
        self._next_file = 1
        self._garbage: list[int] = []  # files of replaced shards: deleted after a checkpoint
        self._shards: list[Shard] = [self._new_shard(("", ""))]
        self._where: dict[str, Key] = {}
        self._complete = True  # _where holds every game
        self._parsed: OrderedDict[int, Shard] = OrderedDict()  # unchanged parsed shards (LRU)
        self._texts: dict[str, list[tuple[Key, bool, str]]] = {}  # search texts by stamp

    # --- reading the files ---

    def _path(self, file: int) -> Path:
        return self.folder / f"shard-{file}.json"

    def _new_shard(self, low: Key) -> Shard:
        self._stamps += 1
        return Shard(low, [0, 0], f"{self._session}.{self._stamps}", None, {}, [])

    def load(self) -> bool:
        """Read the manifest (not the shards); False if there is none.

        Raises: IndexDamaged (unreadable, or not a manifest of this version).
        """
        path = self.folder / MANIFEST
        try:
            if not path.exists():
                return False
        except OSError as exc:  # e.g. the folder cannot be read
            raise IndexDamaged(self.folder, f"unreadable index folder: {exc!r}") from None
        try:
            db = _db(path)
            metas, rows = db.table("meta").all(), db.table("shards").all()
            [meta] = metas
            if (meta.get("format"), meta.get("version")) != (INDEX_FORMAT, INDEX_VERSION):
                raise ValueError(f"not a {INDEX_FORMAT} version {INDEX_VERSION} manifest")
            next_file, games_stamp, digest = meta["next_file"], meta["games_stamp"], meta["ids"]
            if type(next_file) is not int or type(digest) is not int or not (
                    games_stamp is None or type(games_stamp) is int):
                raise ValueError("bad meta record")
            shards = []
            for row in rows:
                low, counts = row["low"], [row["unfinished"], row["finished"]]
                if (type(row["file"]) is not int or not 0 < row["file"] < next_file
                        or not isinstance(row["stamp"], str) or not isinstance(low, list)
                        or len(low) != 2 or not all(isinstance(x, str) for x in low)
                        or not all(type(n) is int and n >= 0 for n in counts)):
                    raise ValueError(f"bad shard record {str(row)[:80]}")
                shards.append(Shard((low[0], low[1]), counts, row["stamp"], row["file"]))
            if not shards or any(a.low >= b.low for a, b in zip(shards, shards[1:], strict=False)):
                raise ValueError("shards missing or out of order")
            if len({s.file for s in shards}) != len(shards):
                raise ValueError("two shards share a file")
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise IndexDamaged(path, f"unreadable index: {exc!r}") from None
        self._shards, self._next_file, self.games_stamp = shards, next_file, games_stamp
        self.ids = digest
        self._where, self._complete, self._parsed, self._texts = {}, False, OrderedDict(), {}
        self.changed = False
        self.version += 1
        return True

    def _games(self, shard: Shard) -> dict[str, dict[str, Any]]:
        """A shard's summaries, parsing its file if needed.

        Raises: IndexDamaged; IndexMoved (read-only, the file is gone).
        """
        if shard.games is not None:
            if shard.file is not None:
                self._parsed.move_to_end(id(shard))
            return shard.games
        assert shard.file is not None
        path = self._path(shard.file)
        try:
            if not _exists(path):
                raise IndexDamaged(path, "missing")
            games, order = self._parse(shard, path)
        except IndexDamaged:
            if self.read_only and not _exists(path):
                raise IndexMoved(str(path)) from None
            raise
        shard.games, shard.order = games, order
        self._where.update((key[1], key) for key in order)
        self._parsed[id(shard)] = shard
        while len(self._parsed) > KEEP_PARSED:
            _, old = self._parsed.popitem(last=False)
            old.games = old.order = None
        return games

    def _parse(self, shard: Shard, path: Path) -> tuple[dict[str, dict[str, Any]], list[Key]]:
        """Read and check one shard file.

        Raises: IndexDamaged.
        """
        try:
            docs = _db(path).table("games").all()
        except (OSError, ValueError, TypeError, AttributeError, KeyError,
                RecursionError) as exc:
            raise IndexDamaged(path, f"unreadable index: {exc!r}") from None
        i = self._shards.index(shard)
        high = self._shards[i + 1].low if i + 1 < len(self._shards) else None
        games: dict[str, dict[str, Any]] = {}
        order: list[Key] = []
        finished = 0
        for doc in docs:
            gid, summary = doc.get("game_id"), doc.get("summary")
            if id_problem(gid) is not None or not isinstance(summary, dict) or gid in games:
                raise IndexDamaged(path, f"bad record {str(doc)[:80]}")
            key = (sort_key(summary), gid)
            if (i and key < shard.low) or (high is not None and key >= high):
                raise IndexDamaged(path, f"game {gid} is outside the shard's range")
            games[gid] = summary
            order.append(key)
            finished += is_finished(summary)
        if [len(games) - finished, finished] != shard.counts:
            raise IndexDamaged(path, "counts differ from the manifest")
        order.sort()
        return games, order

    def _shard_at(self, key: Key) -> int:
        """Position of the shard whose range holds `key`."""
        return max(0, bisect_right([s.low for s in self._shards], key) - 1)

    # --- queries ---

    def count(self, finished: bool | None = None) -> int:
        """How many games (finished, unfinished, or all); summed over the shards once per
        `version` (the home screen asks at every listing)."""
        if self._counted[0] != self.version:
            self._counted = (self.version, [sum(s.counts[k] for s in self._shards)
                                            for k in (0, 1)])
        counts = self._counted[1]
        return counts[0] + counts[1] if finished is None else counts[finished]

    def page(self, finished: bool | None, offset: int,
             limit: int | None) -> list[tuple[str, dict[str, Any]]]:
        """(game id, summary) newest first, from `offset`, at most `limit`; reads only the
        shards holding them.

        Raises: IndexDamaged; IndexMoved.
        """
        out: list[tuple[str, dict[str, Any]]] = []
        for shard in reversed(self._shards):
            if limit is not None and len(out) >= limit:
                break
            held = shard.count(finished)
            if offset >= held:
                offset -= held
                continue
            games = self._games(shard)
            if finished is None:
                assert shard.order is not None
                ids: Iterable[str] = (gid for _, gid in reversed(shard.order))
            else:
                ids = self._of_kind(shard, games)[finished]
            for gid in islice(ids, offset, None):
                out.append((gid, games[gid]))
                if limit is not None and len(out) >= limit:
                    break
            offset = 0
        return out

    @staticmethod
    def _of_kind(shard: Shard, games: dict[str, dict[str, Any]]) -> dict[bool, list[str]]:
        """A parsed shard's unfinished and finished game ids, newest first (kept until the
        shard's stamp changes)."""
        if shard.kinds is None or shard.kinds[0] != shard.stamp:
            assert shard.order is not None
            kinds: dict[bool, list[str]] = {False: [], True: []}
            for _, gid in reversed(shard.order):
                kinds[is_finished(games[gid])].append(gid)
            shard.kinds = (shard.stamp, kinds)
        return shard.kinds[1]

    def search(self, finished: bool | None, terms: list[str]) -> Iterator[tuple[str, Shard]]:
        """(game id, its shard) of the games whose names hold every term, newest first (the
        first search reads every shard; their search texts are kept).

        Raises: IndexDamaged; IndexMoved.
        """
        for shard in reversed(self._shards):
            if not shard.count(finished):
                continue
            texts = self._texts.get(shard.stamp)
            if texts is None:
                games = self._games(shard)
                assert shard.order is not None
                texts = [(k, is_finished(games[k[1]]), search_text(games[k[1]]))
                         for k in reversed(shard.order)]
                self._texts[shard.stamp] = texts
            for key, done, text in texts:
                if (finished is None or done == finished) and all(t in text for t in terms):
                    yield key[1], shard

    def summary_in(self, shard: Shard, game_id: str) -> dict[str, Any]:
        """A game's summary from the shard `search` found it in."""
        return self._games(shard)[game_id]

    def chunks(self, finished: bool | None) -> list[tuple[str, Shard]]:
        """(stamp, shard) of every shard holding such games, oldest first."""
        return [(s.stamp, s) for s in self._shards if s.count(finished)]

    def summaries_in(self, shard: Shard, finished: bool | None) -> list[tuple[str, dict]]:
        """(game id, summary) of a shard (`chunks`), oldest first; [] if it is gone."""
        if not any(s is shard for s in self._shards):
            return []
        games = self._games(shard)
        assert shard.order is not None
        return [(gid, games[gid]) for _, gid in shard.order
                if finished is None or is_finished(games[gid]) == finished]

    def known(self, game_id: str) -> bool:
        """Whether the game was seen in a shard read so far (False says nothing)."""
        return game_id in self._where

    def locate(self, game_id: str, hints: Hints | None = None) -> Shard | None:
        """The shard holding a game (None: not indexed): from what was read so far, else the
        shards of the keys `hints` gives, else every shard (read once).

        Raises: IndexDamaged; IndexMoved.
        """
        if game_id not in self._where and not self._complete:
            keys, certain = hints() if hints else ([], False)
            for key in keys:
                self._games(self._shards[self._shard_at((key, game_id))])
                if game_id in self._where:
                    break
            else:
                if not certain:
                    self.every_id()
        key = self._where.get(game_id)
        return None if key is None else self._shards[self._shard_at(key)]

    def key_of(self, game_id: str) -> str | None:
        """A game's sort key, if `locate` found it."""
        key = self._where.get(game_id)
        return None if key is None else key[0]

    def get(self, game_id: str, hints: Hints | None = None) -> dict[str, Any] | None:
        """A game's summary (None: not indexed).

        Raises: IndexDamaged; IndexMoved.
        """
        shard = self.locate(game_id, hints)
        return None if shard is None else self._games(shard)[game_id]

    def every_id(self) -> set[str]:
        """Every indexed game id (reads every shard not read yet, once).

        Raises: IndexDamaged; IndexMoved.
        """
        if not self._complete:
            for shard in self._shards:
                if shard.games is None and shard.count(None):
                    self._games(shard)
            self._complete = True
        return set(self._where)

    # --- changes (in memory until `save`) ---

    def put(self, game_id: str, summary: dict[str, Any], hints: Hints | None = None) -> bool:
        """Add or replace a game's summary (the index keeps `summary` itself); False if it was
        already there unchanged.

        Raises: IndexDamaged; IndexMoved.
        """
        shard = self.locate(game_id, hints)
        if shard is not None:
            if self._games(shard)[game_id] == summary:
                return False
            self._take(shard, game_id)
        else:
            self.ids ^= id_digest([game_id])
        key = (sort_key(summary), game_id)
        shard = self._shards[self._shard_at(key)]
        games = self._games(shard)
        assert shard.order is not None
        if shard is self._shards[-1] and len(games) >= SHARD_SIZE and key > shard.order[-1]:
            shard = self._new_shard(key)  # the newest game: a new shard, the full one unchanged
            self._shards.append(shard)
            games = self._games(shard)
        order = shard.order
        assert order is not None
        self._touch(shard)
        games[game_id] = summary
        insort(order, key)
        shard.counts[is_finished(summary)] += 1
        self._where[game_id] = key
        if len(order) > SHARD_SIZE:
            self._split(shard)
        self.version += 1
        return True

    def remove(self, game_id: str, hints: Hints | None = None) -> bool:
        """Drop a game; False if it was not indexed.

        Raises: IndexDamaged; IndexMoved.
        """
        shard = self.locate(game_id, hints)
        if shard is None:
            return False
        self._take(shard, game_id)
        self.ids ^= id_digest([game_id])
        self.version += 1
        return True

    def _take(self, shard: Shard, game_id: str) -> None:
        games = self._games(shard)
        assert shard.order is not None
        self._touch(shard)
        key = self._where.pop(game_id)
        del shard.order[bisect_left(shard.order, key)]
        shard.counts[is_finished(games.pop(game_id))] -= 1
        if not games and len(self._shards) > 1:
            self._shards.remove(shard)

    def _touch(self, shard: Shard) -> None:
        """The shard is about to change: keep it parsed until saved, give it a new stamp."""
        self._texts.pop(shard.stamp, None)
        self._stamps += 1
        shard.stamp = f"{self._session}.{self._stamps}"
        if shard.file is not None:
            self._garbage.append(shard.file)
            self._parsed.pop(id(shard), None)
            shard.file = None
        self.changed = True

    def _split(self, shard: Shard) -> None:
        """Cut a shard that grew too big: its upper half moves to a new shard."""
        assert shard.order is not None and shard.games is not None
        cut = len(shard.order) // 2
        moved = shard.order[cut:]
        new = self._new_shard(moved[0])
        assert new.games is not None
        new.order = moved
        del shard.order[cut:]
        for _, gid in moved:
            summary = shard.games.pop(gid)
            new.games[gid] = summary
            done = is_finished(summary)
            shard.counts[done] -= 1
            new.counts[done] += 1
        self._shards.insert(self._shards.index(shard) + 1, new)

    def build(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Replace everything with these (game id, summary) pairs, in full shards."""
        keyed = sorted(((sort_key(s), gid), s) for gid, s in items)
        self._garbage += [s.file for s in self._shards if s.file is not None]
        self._shards, self._parsed, self._texts = [], OrderedDict(), {}
        for start in range(0, max(1, len(keyed)), SHARD_SIZE):
            run = keyed[start:start + SHARD_SIZE]
            shard = self._new_shard(run[0][0] if run and start else ("", ""))
            assert shard.games is not None
            shard.order = [key for key, _ in run]
            for (_, gid), summary in run:
                shard.games[gid] = summary
                shard.counts[is_finished(summary)] += 1
            self._shards.append(shard)
        self._where = {key[1]: key for key, _ in keyed}
        self.ids = id_digest(self._where)
        self._complete = True
        self.changed = True
        self.version += 1

    # --- the checkpoint ---

    def save(self, games_stamp: int | None) -> None:
        """Write changed shards to new files, then the manifest (the commit), then delete the
        files it no longer names.

        Raises: OSError (the last committed index stays whole; `save` can be tried again).
        """
        assert not self.read_only
        written: list[Shard] = []
        try:
            self.folder.mkdir(exist_ok=True)
            for shard in self._shards:
                if shard.file is None:
                    self._write(shard)
                    written.append(shard)
            db = _db(self.folder / MANIFEST)
            storage: AtomicJSONStorage = db.storage  # type: ignore[assignment]
            with storage.batch():
                db.drop_tables()  # no need to read the old one
                db.table("meta").insert({"format": INDEX_FORMAT, "version": INDEX_VERSION,
                                         "next_file": self._next_file,
                                         "games_stamp": games_stamp, "ids": self.ids})
                db.table("shards").insert_multiple(
                    {"file": s.file, "low": list(s.low), "unfinished": s.counts[0],
                     "finished": s.counts[1], "stamp": s.stamp} for s in self._shards)
        except BaseException:
            for shard in written:  # not committed: no trace left
                assert shard.file is not None
                self._path(shard.file).unlink(missing_ok=True)
                self._parsed.pop(id(shard), None)
                shard.file = None
            raise
        self.games_stamp, self.changed = games_stamp, False
        for file in self._garbage:
            self._path(file).unlink(missing_ok=True)
        self._garbage = []
        fsync_dir(self.folder)
        while len(self._parsed) > KEEP_PARSED:
            _, old = self._parsed.popitem(last=False)
            old.games = old.order = None

    def _write(self, shard: Shard) -> None:
        """Write a changed shard to a new file."""
        assert shard.games is not None and shard.order is not None
        path = self._path(self._next_file)
        remove_entry(path)  # left by a checkpoint that never committed
        games = shard.games
        _db(path).table("games").insert_multiple(
            {"game_id": gid, "summary": games[gid]} for _, gid in shard.order)
        shard.file = self._next_file
        self._next_file += 1
        self._parsed[id(shard)] = shard

    def clean(self) -> None:
        """Delete temp files and shard files the manifest does not name (a writer, at open)."""
        named = {self._path(s.file).name for s in self._shards if s.file is not None}
        try:
            names = os.listdir(self.folder)
        except OSError:  # none yet, or damaged: the next checkpoint says
            return
        for name in names:
            if (name.startswith(".") and name.endswith(TMP_SUFFIX)) or (
                    name.startswith("shard-") and name.endswith(".json") and name not in named):
                try:
                    remove_entry(self.folder / name)
                except OSError:
                    pass  # left there: never named by a manifest, so never read
