"""Schema versions, migrations, and validation of game documents and import files."""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from .records import ImportRefused, StoredGame

CURRENT_SCHEMA_VERSION = 4
"""Schema of the documents this release writes; it equals models.common.SCHEMA_VERSION."""
GAME_FORMAT = "vendetta-companion/game"
BACKUP_FORMAT = "vendetta-companion/backup"
ENTRY_KINDS = frozenset({"action", "undo", "redo", "clock"})
"""Journal entry kinds; "clock" marks when a table opened or closed the game."""

MAX_IMPORT_BYTES = 20 * 1024 * 1024
"""Largest single-game file `read_import_file` accepts."""
MAX_BACKUP_BYTES = 512 * 1024 * 1024
"""Largest backup file `read_import_file(..., max_bytes=MAX_BACKUP_BYTES)` should accept."""
MAX_CATALOGUE_BYTES = 1024 * 1024
"""Largest catalogue file (`catalogue import`); a full catalogue is a few tens of KB."""
MAX_SCRIPT_BYTES = 20 * 1024 * 1024
"""Largest script or score file (`play`, `score`)."""
MAX_ENTRIES = 100_000
MAX_GAMES = 100_000
MAX_DEPTH = 64
MAX_INT = 2**53
MAX_ROUND = 10_000
MAX_ID_LENGTH = 64

_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(10)}

Validator = Callable[[dict[str, Any]], dict[str, Any] | None]
"""Import check on a migrated game doc: raises ValueError to refuse; may return its summary."""
CatalogueValidator = Callable[[dict[str, Any]], object]
"""Import check on a catalogue document: raises ValueError to refuse."""
Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[int, Migration] = {}
"""Step functions by the version they upgrade from: MIGRATIONS[n] turns a vN doc into vN+1."""


def id_problem(game_id: object) -> str | None:
    """Say why `game_id` is not a safe game id (usable as a file name), or None if it is."""
    if not isinstance(game_id, str):
        return "game_id must be a string"
    if not game_id or len(game_id) > MAX_ID_LENGTH:
        return f"game_id must be 1 to {MAX_ID_LENGTH} characters"
    if not _ID_RE.fullmatch(game_id):
        return f"game_id {game_id!r} may only contain letters, digits, '-' and '_'"
    if game_id.lower() in _RESERVED:
        return f"game_id {game_id!r} is a reserved file name"
    return None


def migration(from_version: int) -> Callable[[Migration], Migration]:
    """Register a step that upgrades a game document from `from_version` to the next version."""

    def register(step: Migration) -> Migration:
        MIGRATIONS[from_version] = step
        return step

    return register


@migration(0)
def _v0_to_v1(doc: dict[str, Any]) -> dict[str, Any]:
    """v0 (prototype): header "id" and no "created"; entries said "type" instead of "kind"."""
    header = doc["header"]
    if not isinstance(header, dict) or not isinstance(doc.get("entries"), list):
        raise ValueError("v0 document needs a header object and an entries list")
    if "game_id" not in header:
        header["game_id"] = header.pop("id", None)
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    header.setdefault("created", summary.get("created") or "1970-01-01T00:00:00+00:00")
    header["schema_version"] = 1
    for entry in doc["entries"]:
        if isinstance(entry, dict) and "kind" not in entry and "type" in entry:
            entry["kind"] = entry.pop("type")
    doc["schema_version"] = 1
    return doc


_V1_NAME = "Miguel Chandler, Dancer"
_V2_NAME = "Frenzy-drain Ally"
_V1_TIE = re.compile(
    r"(ahead of|behind) (team )?(.+?): tied on (-?\d+) Influence(?: and (-?\d+) Blood)?; "
    r"(holds the Ally that wins all ties|more Blood \((-?\d+) to (-?\d+)\)|earlier in turn order)")


def _v2_tie_note(own: str, note: str, team: bool) -> str:
    """A v1 scoreboard tie note ('ahead of Bo: tied on 6 Influence; more Blood (4 to 2)') said
    as v2 does: who won the tie and why ('won the tie with Bo on 6 Influence: Ann has more
    Blood (4 to 2)'). Unknown text is kept."""
    m = _V1_TIE.fullmatch(note)
    if not m:
        return note
    side, other_team, other, influence, blood, why, more, less = m.groups()
    own = f"team {own}" if team else own
    other = f"team {other}" if other_team else other
    upper, lower = (own, other) if side == "ahead of" else (other, own)
    on = f"on {influence} Influence" + (f" and {blood} Blood" if blood is not None else "")
    if why.startswith("holds"):
        because = f"{upper} holds the Ally that wins all ties"
    elif more is not None:
        because = f"{upper} has more Blood ({more} to {less})"
    else:
        because = f"{upper} is earlier in turn order"
    verb = "won" if side == "ahead of" else "lost"
    return f"{verb} the tie with {lower if verb == 'won' else upper} {on}: {because}"


def _v1_card(node: Any) -> Any:
    """Walk a v1 document: the invented Ally's ability key, id and name (§15) renamed."""
    if isinstance(node, dict):
        if node.get("ability") == "AL30":
            node["ability"] = "drained_in_frenzy"
            if node.get("id") == "AL30":
                node["id"] = "ALLY-FRENZY-DRAIN"
        for key, value in node.items():
            node[key] = _v1_card(value)
        return node
    if isinstance(node, list):
        return [_v1_card(x) for x in node]
    if isinstance(node, str) and _V1_NAME in node:
        return node.replace(_V1_NAME, _V2_NAME)
    return node


def _v1_scoreboard(board: Any) -> None:
    """A v1 scoreboard: `winner` was the team in tag team; now the best player, with the team
    as `winning_team`; tie notes say who won the tie."""
    if not isinstance(board, dict) or not isinstance(board.get("rows"), list):
        return
    rows = [r for r in board["rows"] if isinstance(r, dict)]
    teams = board.get("teams")
    if isinstance(teams, list) and teams:
        board["winning_team"] = board.get("winner")
        board["winner"] = rows[0].get("name") if rows else board.get("winner")
    else:
        board["winning_team"] = None
    for row in rows:
        if isinstance(row.get("tiebreak"), str):
            row["tiebreak"] = _v2_tie_note(str(row.get("name")), row["tiebreak"], False)
    for row in teams if isinstance(teams, list) else []:
        if isinstance(row, dict) and isinstance(row.get("tiebreak"), str):
            row["tiebreak"] = _v2_tie_note(str(row.get("team")), row["tiebreak"], True)


@migration(1)
def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """v1 → v2 (§15 corrected): the Ally with the made-up code AL30 and name
    'Miguel Chandler, Dancer' becomes ALLY-FRENZY-DRAIN / 'Frenzy-drain Ally' (ability
    drained_in_frenzy) wherever it is recorded, reasons included; the kind the table played it
    with stays, as the game was played with it. Final scoreboards gain `winning_team` (the
    team; `winner` is now the best player) and tie notes that name who won the tie."""
    doc = _v1_card(doc)
    for entry in doc.get("entries") or []:
        for event in (entry.get("events") or []) if isinstance(entry, dict) else []:
            if isinstance(event, dict) and event.get("type") == "game_ended":
                _v1_scoreboard(event.get("scoreboard"))
    return doc


@migration(2)
def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    """v2 → v3: journals may hold clock entries (`{"kind": "clock", "running",
    "at"}`). A v2 document is a valid v3 document as it is: nothing changes but the version, so
    that an app that knows only v2 refuses a v3 file as too new instead of tripping over its
    first clock entry."""
    return doc


@migration(3)
def _v3_to_v4(doc: dict[str, Any]) -> dict[str, Any]:
    """v3 → v4: a header and a summary may say which game of the family they hold (`"game"`;
    missing means Vendetta, which every v3 game is). Nothing changes but the version, so that
    an app that knows only v3 refuses a v4 file, perhaps of another game, as too new."""
    return doc


def migrate(
    doc: dict[str, Any],
    target: int = CURRENT_SCHEMA_VERSION,
    steps: dict[int, Migration] | None = None,
) -> dict[str, Any]:
    """Return a copy of game document `doc` upgraded step by step to schema `target`.

    Raises: ValueError if the version is not an int, is newer than `target`, or a step is missing.
    """
    steps = MIGRATIONS if steps is None else steps
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"schema_version must be a non-negative integer, not {version!r}")
    if version > target:
        raise ValueError(f"schema_version {version} is newer than supported ({target})")
    if version == target:
        return doc
    doc = copy.deepcopy(doc)
    while version < target:
        if version not in steps:
            raise ValueError(f"no migration from schema_version {version}")
        doc = steps[version](doc)
        version += 1
        doc["schema_version"] = version
        if isinstance(doc.get("header"), dict):
            doc["header"]["schema_version"] = version
    return doc


def export_doc(game: StoredGame) -> dict[str, Any]:
    """The one-file export document of a game."""
    return {
        "format": GAME_FORMAT,
        "schema_version": game.header.get("schema_version", CURRENT_SCHEMA_VERSION),
        "header": game.header,
        "entries": game.entries,
        "summary": game.summary,
    }


def _refuse(where: str, message: str) -> ImportRefused:
    return ImportRefused(f"{where}: {message}" if where else message)


def _join(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def nesting_problem(value: Any, where: str = "document", limit: int = MAX_DEPTH) -> str | None:
    """Say if parsed JSON nests deeper than `limit` (checked without recursion), else None."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return f"{where}: nested deeper than {limit} levels"
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, dict | list))
    return None


def plain_json_problem(value: Any, where: str = "", depth: int = 0) -> str | None:
    """Say where and why `value` is not plain, bounded JSON, or None if it is fine."""
    found = _plain_problem(value, depth)
    if found is None:
        return None
    path, message = found
    for key in reversed(path):
        where = _join(where, key)
    return f"{where or 'document'}: {message}"


def _plain_problem(value: Any, depth: int) -> tuple[list[str | int], str] | None:
    """(path from `value` in reverse, why) of the first problem; the path is built only then."""
    kind = type(value)
    if kind is str or value is None or kind is bool:
        return None
    if depth > MAX_DEPTH:
        return [], f"nested deeper than {MAX_DEPTH} levels"
    if kind is int or (isinstance(value, int) and not isinstance(value, bool)):
        return None if -MAX_INT <= value <= MAX_INT else ([], f"number {value} is out of range")
    if isinstance(value, float):
        ok = math.isfinite(value) and abs(value) <= MAX_INT
        return None if ok else ([], f"number {value} is out of range")
    if isinstance(value, list):
        for i, item in enumerate(value):
            if type(item) is not str and (found := _plain_problem(item, depth + 1)):
                found[0].append(i)
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return [], f"key {key!r} is not a string"
            if type(item) is not str and (found := _plain_problem(item, depth + 1)):
                found[0].append(key)
                return found
        return None
    if isinstance(value, str | bool):
        return None
    return [], f"{type(value).__name__} is not a JSON value"


def check_entry(entry: object, where: str = "entry") -> None:
    """Check the storage-level shape of one journal entry.

    Raises: ValueError (ImportRefused) naming the problem.
    """
    if not isinstance(entry, dict):
        raise _refuse(where, "must be an object")
    kind = entry.get("kind")
    if not isinstance(kind, str):
        raise _refuse(where, "kind must be a string")
    if kind not in ENTRY_KINDS:
        raise _refuse(where, f"unknown kind {kind!r} (expected one of "
                      f"{', '.join(sorted(ENTRY_KINDS))})")
    if "command" in entry and not isinstance(entry["command"], dict):
        raise _refuse(_join(where, "command"), "must be an object")
    if "events" in entry and not isinstance(entry["events"], list):
        raise _refuse(_join(where, "events"), "must be a list")
    if kind == "clock":
        extra = sorted(set(entry) - {"kind", "running", "at"})
        if extra:
            raise _refuse(_join(where, extra[0]), "is not a field of a clock entry")
        if not isinstance(entry.get("running"), bool):
            raise _refuse(_join(where, "running"), "must be true or false")
    _check_time(entry.get("at"), _join(where, "at"), required=kind == "clock")


def check_header(header: object, where: str = "header") -> None:
    """Check a game header: safe game_id, current schema_version, ISO "created".

    Raises: ValueError (ImportRefused) naming the problem.
    """
    if not isinstance(header, dict):
        raise _refuse(where, "must be an object")
    if problem := id_problem(header.get("game_id")):
        raise _refuse(_join(where, "game_id"), problem)
    version = header.get("schema_version")
    if version != CURRENT_SCHEMA_VERSION or isinstance(version, bool):
        raise _refuse(_join(where, "schema_version"),
                      f"must be {CURRENT_SCHEMA_VERSION}, not {version!r}")
    _check_time(header.get("created"), _join(where, "created"), required=True)
    if "game" in header and (not isinstance(header["game"], str)
                             or id_problem(header["game"]) is not None):
        raise _refuse(_join(where, "game"), "must name a game (letters, digits, - and _)")


def check_summary(summary: object, where: str = "summary") -> None:
    """Check the fields of a summary that storage relies on or can judge.

    Raises: ValueError (ImportRefused) naming the problem.
    """
    if not isinstance(summary, dict):
        raise _refuse(where, "must be an object")
    if "finished" in summary and not isinstance(summary["finished"], bool):
        raise _refuse(_join(where, "finished"), "must be true or false")
    rnd = summary.get("round")
    if rnd is not None and (not isinstance(rnd, int) or isinstance(rnd, bool)
                            or not 0 <= rnd <= MAX_ROUND):
        raise _refuse(_join(where, "round"), f"must be an integer from 0 to {MAX_ROUND}")
    players = summary.get("players")
    if players is not None and not isinstance(players, list):
        raise _refuse(_join(where, "players"), "must be a list")
    for key in ("created", "updated"):
        _check_time(summary.get(key), _join(where, key), required=False)


def _check_time(value: object, where: str, required: bool) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str):
        raise _refuse(where, "must be an ISO date-time string")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise _refuse(where, f"{value[:40]!r} is not an ISO date-time") from None


def check_game_doc(doc: object, where: str = "", validate: Validator | None = None) -> StoredGame:
    """Validate (and migrate) one exported game document; return it as a StoredGame.

    "summary" is optional in the document; a dict returned by `validate` replaces it (the
    engine's own view beats the file's claim); with neither, a minimal one is made from
    header["created"].

    Raises: ImportRefused saying what is wrong and where.
    """
    if not isinstance(doc, dict):
        raise _refuse(where, "a game must be a JSON object")
    if doc.get("format") != GAME_FORMAT:
        raise _refuse(_join(where, "format"), f"must be {GAME_FORMAT!r}")
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise _refuse(_join(where, "schema_version"), "must be a non-negative integer")
    if version > CURRENT_SCHEMA_VERSION:
        raise _refuse(_join(where, "schema_version"), f"{version} is newer than this app "
                      f"supports ({CURRENT_SCHEMA_VERSION}); update the app")
    if problem := plain_json_problem(doc, where):
        raise ImportRefused(problem)
    try:
        doc = migrate(doc)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise _refuse(where, f"cannot upgrade from schema_version {version}: {exc}") from None
    check_header(doc.get("header"), _join(where, "header"))
    entries = doc.get("entries")
    if not isinstance(entries, list):
        raise _refuse(_join(where, "entries"), "must be a list")
    if len(entries) > MAX_ENTRIES:
        raise _refuse(_join(where, "entries"), f"more than {MAX_ENTRIES} entries")
    for i, entry in enumerate(entries):
        check_entry(entry, f"{_join(where, 'entries')}[{i}]")
    summary = doc.get("summary")
    if summary is not None:
        check_summary(summary, _join(where, "summary"))
    if validate is not None:
        try:
            computed = validate(doc)
        except ValueError as exc:
            raise _refuse(where, str(exc)) from None
        if computed is not None:
            if problem := plain_json_problem(computed, _join(where, "summary")):
                raise ImportRefused(problem)
            check_summary(computed, _join(where, "summary"))
            summary = computed
    if summary is None:
        created = doc["header"]["created"]
        summary = {"created": created, "updated": created}
    return StoredGame(doc["header"], entries, summary)


def check_backup_doc(
    doc: object, validate: Validator | None = None,
    validate_catalogue: CatalogueValidator | None = None,
) -> tuple[list[StoredGame], dict[str, Any] | None]:
    """Validate a backup document; return its games and catalogue (None if absent).

    Every game goes through `validate` and the catalogue through `validate_catalogue`: the
    checks `games import` and `catalogue import` make.

    Raises: ImportRefused saying what is wrong and where.
    """
    if not isinstance(doc, dict):
        raise ImportRefused("a backup must be a JSON object")
    if doc.get("format") != BACKUP_FORMAT:
        raise _refuse("format", f"must be {BACKUP_FORMAT!r}")
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise _refuse("schema_version", "must be a non-negative integer")
    if version > CURRENT_SCHEMA_VERSION:
        raise _refuse("schema_version", f"{version} is newer than this app supports "
                      f"({CURRENT_SCHEMA_VERSION}); update the app")
    games = doc.get("games")
    if not isinstance(games, list):
        raise _refuse("games", "must be a list")
    if len(games) > MAX_GAMES:
        raise _refuse("games", f"more than {MAX_GAMES} games")
    checked = [check_game_doc(game, f"games[{i}]", validate) for i, game in enumerate(games)]
    catalogue = doc.get("catalogue")
    if catalogue is not None:
        if not isinstance(catalogue, dict):
            raise _refuse("catalogue", "must be an object")
        if problem := plain_json_problem(catalogue, "catalogue"):
            raise ImportRefused(problem)
        if len(json.dumps(catalogue)) > MAX_CATALOGUE_BYTES:
            raise _refuse("catalogue", f"larger than {_size(MAX_CATALOGUE_BYTES)}")
        if validate_catalogue is not None:
            try:
                validate_catalogue(catalogue)
            except ValueError as exc:
                raise _refuse("catalogue", str(exc)) from None
    return checked, catalogue


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def parse_json_bytes(raw: bytes, name: str = "file") -> Any:
    """Decode strict UTF-8 JSON (a leading BOM is dropped; no NaN/Infinity; bounded nesting).

    Raises: ImportRefused if the bytes are not valid UTF-8 or JSON, or nest too deeply.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportRefused(f"{name}: not valid UTF-8 (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]

    def no_constant(token: str) -> Any:
        raise ValueError(f"{token} is not allowed")

    try:
        doc = json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        hint = " (file truncated?)" if exc.pos >= len(text.rstrip()) else ""
        raise ImportRefused(
            f"{name}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}{hint}"
        ) from None
    except RecursionError:
        raise ImportRefused(f"{name}: not valid JSON: nested far too deeply") from None
    except ValueError as exc:
        raise ImportRefused(f"{name}: not valid JSON: {exc}") from None
    if problem := nesting_problem(doc, name):
        raise ImportRefused(problem)
    return doc


def read_import_file(path: str | Path, max_bytes: int = MAX_IMPORT_BYTES) -> dict[str, Any]:
    """Read a JSON input file into a dict: the one reader of every file the user gives.

    Reads at most `max_bytes` (so /dev/zero or a huge file is refused, not loaded), then
    `parse_json_bytes`.
    Raises: ImportRefused naming the file and the problem; OSError if it cannot be read.
    """
    path = Path(path)
    with path.open("rb") as fh:
        raw = fh.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise ImportRefused(f"{path}: file is larger than {_size(max_bytes)}")
    doc = parse_json_bytes(raw, str(path))
    if not isinstance(doc, dict):
        raise ImportRefused(f"{path}: top level must be a JSON object")
    return doc
