"""Command line: play a game script, score end-of-game positions, or start the app.

Formats are documented in docs/formats.md; their JSON Schemas come from `schemas()`.
Narrated text (the events' words, a refusal's reason) follows the shell's locale
(`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`); `--json` output and exit codes never change
with it.
"""

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SkipValidation, ValidationError, model_validator

from companion.cli.args import options
from companion.i18n import ENGLISH, Translator, negotiate, shell_locales, translator
from companion.rules.apply import apply_in_place, initial_state
from companion.rules.errors import RuleError, brief
from companion.rules.game import Game, GameHeader
from companion.rules.queries import full_turn_order, power
from companion.rules.scoring import scoreboard
from companion.storage import (
    MAX_BACKUP_BYTES,
    MAX_CATALOGUE_BYTES,
    MAX_IMPORT_BYTES,
    MAX_SCRIPT_BYTES,
    ImportRefused,
    describe_os_error,
    read_import_file,
)
from companion.story.narrator import event_note
from companion.story.words import render
from models.cards import VICTIM, AllyCard, RelicCard
from models.commands import COMMAND_ADAPTER, AnyCommand
from models.common import CLANS, Clan, Frozen, location_name
from models.events import EVENT_ADAPTER, AnyEvent, PositionLoaded
from models.setup import GameSetup, Position, PositionAllianceCard, PositionPlayer, Variants
from models.state import GameState, Scoreboard

SCRIPT_FORMAT = "vendetta-companion/script"
SCORE_FORMAT = "vendetta-companion/score"


class ScriptStart(Frozen):
    """Where a script begins: a new table or an entered position (exactly one)."""

    setup: GameSetup | None = None
    """A new table, set up by the script's first actions (§2)."""
    position: Position | None = None
    """A position entered at the start of a phase."""

    @model_validator(mode="after")
    def _one(self) -> "ScriptStart":
        if (self.setup is None) == (self.position is None):
            raise ValueError("give exactly one of 'setup' or 'position'")
        return self


class Script(Frozen):
    """A game script for `vendetta-companion play`."""

    format: Literal["vendetta-companion/script"]
    """Format tag."""
    title: str | None = None
    """What the script shows (not used by the runner)."""
    notes: list[str] = []
    """Free remarks (not used by the runner)."""
    start: ScriptStart
    """How the game starts."""
    actions: list[SkipValidation[AnyCommand]] = []
    """Referee actions in order; each is validated when it is played."""


class ScorePlayer(Frozen):
    """One player's end-of-game position for `vendetta-companion score`."""

    name: str = Field(min_length=1, max_length=30)
    """Player's name."""
    clan: Clan | None = None
    """Clan (shown only)."""
    team: str | None = Field(default=None, max_length=20)
    """Team (tag team)."""
    blood: int = Field(ge=0, le=200)
    """Blood in Pool (first tie-break)."""
    influence: int = Field(ge=0, le=200)
    """Influence tokens in Pool."""
    diablerie: int = Field(default=0, ge=0, le=3)
    """Diablerie tokens, face up or down; 3 means eliminated (§11)."""
    victims: int = Field(default=0, ge=0, le=40)
    """Active Victims in the Alliance."""
    drained_victims: int = Field(default=0, ge=0, le=40)
    """Drained Victims in the Alliance."""
    alliance: list[PositionAllianceCard] = []
    """Other Alliance cards (Allies) with their values."""
    relic: RelicCard | None = None
    """Relic (variant)."""
    eliminated: bool = False
    """Out of the game (§11)."""


class ScoreFile(Frozen):
    """End-of-game positions for `vendetta-companion score`."""

    format: Literal["vendetta-companion/score"]
    """Format tag."""
    players: list[ScorePlayer] = Field(min_length=3, max_length=6)
    """Players in clockwise seat order."""
    ambition: str
    """Name of the Ambition token holder at the end (first in turn order)."""
    variants: Variants = Variants()
    """Variants in play (tag_team scores teams; relics when players hold one)."""


class ActionEntry(Frozen):
    """A played action in an exported game."""

    kind: Literal["action"]
    command: AnyCommand
    events: list[AnyEvent]
    at: str | None = None
    """When it was confirmed (ISO 8601, UTC)."""


class UndoEntry(Frozen):
    """Undo of the last action."""

    kind: Literal["undo"]


class RedoEntry(Frozen):
    """Redo of the last undone action."""

    kind: Literal["redo"]


class ClockEntry(Frozen):
    """The game clock started (a table opened the game) or stopped (schema version 3)."""

    kind: Literal["clock"]
    running: bool
    at: str
    """When (ISO 8601, UTC)."""


class GameDocument(Frozen):
    """An exported game (`Game.to_document()`)."""

    format: Literal["vendetta-companion/game"]
    schema_version: int
    header: GameHeader
    entries: list[ActionEntry | UndoEntry | RedoEntry | ClockEntry]
    summary: dict[str, Any] | None = None
    """History-index summary, as exported by the app's storage (optional)."""


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas of the documented formats, by file name under docs/schema/."""
    return {
        "script.schema.json": Script.model_json_schema(),
        "score.schema.json": ScoreFile.model_json_schema(),
        "game.schema.json": GameDocument.model_json_schema(),
        "command.schema.json": COMMAND_ADAPTER.json_schema(),
        "event.schema.json": EVENT_ADAPTER.json_schema(),
    }



# --- building states ---------------------------------------------------------------------------

class InputError(Exception):
    """An input file is unreadable or malformed, or the arguments are wrong (exit 2)."""


def _load(path: str, model: type[Frozen], fmt: str) -> Any:
    """Read and validate an input file (BOM, size and nesting as for every input).

    Raises:
        InputError: unreadable, not JSON, too large or deep, wrong format tag or invalid.
    """
    data = _read_input(path, MAX_SCRIPT_BYTES)
    if data.get("format") != fmt:
        raise InputError(f'{path}: not a {fmt} file (expected "format": "{fmt}")')
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise InputError(f"{path}: {_errors(err)}") from None


def _read_input(path: str, max_bytes: int) -> dict[str, Any]:
    """The one reader of every JSON file a command is given.

    Raises:
        InputError: naming the file and the problem.
    """
    try:
        return read_import_file(path, max_bytes)
    except ImportRefused as err:
        raise InputError(str(err)) from None
    except OSError as err:
        raise InputError(f"cannot read {path}: "
                         f"{describe_os_error(err, with_file=False)}") from None


def _errors(err: ValidationError) -> str:
    """The first problem of a validation error, on one line (and how many more there are)."""
    return brief(err)


def one_line(text: str, limit: int = 500) -> str:
    """`text` on one line, cut to `limit` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def score_state(doc: ScoreFile) -> GameState:
    """A game-over state holding the entered positions (§12).

    Raises:
        ValueError: the positions break a rule (message names the §).
    """
    spare = iter(c for c in CLANS if c not in {p.clan for p in doc.players})
    players = [
        PositionPlayer(
            name=p.name, clan=p.clan or next(spare), team=p.team, blood=p.blood,
            influence=p.influence, diablerie_up=p.diablerie, relic=p.relic,
            eliminated=p.eliminated or p.diablerie >= 3, hand_size=0,
            alliance=[PositionAllianceCard(card=VICTIM)] * p.victims
            + [PositionAllianceCard(card=VICTIM, drained=True)] * p.drained_victims
            + list(p.alliance))
        for p in doc.players
    ]
    state = initial_state(PositionLoaded(position=Position(
        players=players, variants=doc.variants, round=3, phase="game_over",
        ambition=doc.ambition)))
    for seat, p in enumerate(doc.players):
        state.players[seat].clan = p.clan
    return state


# --- text output -------------------------------------------------------------------------------

def _ally(card: AllyCard) -> str:
    return (f"{card.name} ({card.kind}: Influence {card.influence}, Feed {card.feed}, "
            f"Drain {card.drain_blood}, drained Influence {card.drained_influence})")


def state_text(state: GameState) -> str:
    """Readable summary of a state."""
    s = state
    head = f"Round {s.round}, {s.phase.replace('_', ' ')}"
    if s.phase == "resolution" and s.step:
        head += f": {location_name(s.locations[s.location_index].id)}, {s.step} step"
    lines = [head]
    if s.ambition is not None:
        order = ", ".join(s.players[p].name for p in full_turn_order(s))
        lines.append(f"Ambition: {s.players[s.ambition].name} (turn order {order})")
    lines.append("Players:")
    for p in s.players:
        out = " — ELIMINATED" if p.eliminated else ""
        team = f", team {p.team}" if p.team else ""
        lines.append(f"  {p.name} ({p.clan or 'no clan yet'}{team}): Blood {p.blood}, "
                     f"Influence {p.influence}, Diablerie {p.diablerie_up} up/"
                     f"{p.diablerie_down} down, hand {p.hand_size}{out}")
        for c in p.alliance:
            state_word = "drained" if c.drained else "active"
            lines.append(f"    {c.uid}: {c.card.name} [{state_word}, Influence {c.influence()}]")
        if p.relic:
            lines.append(f"    relic: {p.relic.name} (Influence {p.relic.influence}, "
                         f"{'used' if p.relic_used else 'unused'})")
    if s.phase not in ("setup", "game_over"):
        lines.append("Locations:")
        for loc in s.locations:
            extra = f" [{loc.location_card.name}]" if loc.location_card else ""
            ally = _ally(loc.ally) if loc.ally else "no Ally"
            lines.append(f"  {location_name(loc.id)}{extra}: {ally}")
            for seat, pos in enumerate(loc.positions):
                if pos.present():
                    left = " (withdrew)" if seat in loc.withdrawn else ""
                    uids = ", ".join(c.uid for c in pos.cards)
                    lines.append(f"    {s.players[seat].name}{left}: "
                                 f"{power(s, loc, seat).explain()}"
                                 + (f" [cards {uids}]" if uids else ""))
            if loc.result:
                ranked = ", ".join(f"{s.players[p].name} {loc.result.totals[p]}"
                                   for p in loc.result.ranking)
                lines.append(f"    result ({loc.result.outcome}): {ranked or 'nobody'}")
                lines += [f"    tie: {note}" for note in loc.tie_notes]
    return "\n".join(lines)


def scoreboard_text(board: Scoreboard) -> str:
    """Readable final standings (§12)."""
    best = f" (best player: {board.winner})" if board.winning_team else ""
    lines = [f"Final scoreboard: {board.headline()} wins{best}",
             "rank  player (clan): Influence = active + drained + tokens + relic - Diablerie; "
             "Blood; note"]
    for r in board.rows:
        i = r.influence
        note = "; ".join(x for x in ("eliminated" if r.eliminated else "", r.tiebreak or "") if x)
        lines.append(f"{r.rank:>4}  {r.name} ({r.clan or '-'}): {i.total} = {i.active_cards} + "
                     f"{i.drained_cards} + {i.tokens} + {i.relic} - {-i.diablerie}; "
                     f"Blood {r.blood}" + (f"; {note}" if note else ""))
    if board.teams:
        lines.append("Teams:")
        names = {r.player: r.name for r in board.rows}
        for t in board.teams:
            who = ", ".join(names[p] for p in t.players)
            note = f"; {t.tiebreak}" if t.tiebreak else ""
            lines.append(f"{t.rank:>4}  {t.team} ({who}): Influence {t.influence}; "
                         f"Blood {t.blood}{note}")
    return "\n".join(lines)


# --- subcommands ---------------------------------------------------------------------------------

def _dump(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def shell_translator() -> Translator:
    """The translator of the shell's language (English when the shell's locale is C, unset
    or a language the companion does not speak)."""
    return translator(negotiate(shell_locales()))


def event_text(state: GameState, event: AnyEvent,
               words: Translator | None = None) -> str | None:
    """A random outcome or a cause said in words, from the state just before the event (who
    was drawn, who caused a Frenzy, which card a Frenzy drained and how, §2, §10); None for
    other events. The narrator's note, in the translator's language (English without one)."""
    note = event_note(state, event)
    return None if note is None else render(note, [p.name for p in state.players], words)


def event_log(game: Game, words: Translator | None = None) -> list[dict[str, Any]]:
    """Every event as JSON with the index of its action (-1: the start) and, for random
    outcomes and causes, a `text` saying them in words (English, as the JSON always has it;
    `words`: in that translator's language, for the shell)."""
    state = initial_state(game.start_events[0])
    out = [{"action": -1, **game.start_events[0].model_dump(mode="json")}]
    for i, action in enumerate(game.actions):
        for event in action.events:
            entry = {"action": i, **event.model_dump(mode="json")}
            text = event_text(state, event, words)
            if text:
                entry["text"] = text
            apply_in_place(state, event)
            out.append(entry)
    return out


def _events_text(log: list[dict[str, Any]]) -> str:
    lines = ["Events:"]
    for e in log:
        fields = {k: v for k, v in e.items() if k not in ("action", "type", "v", "text")}
        lines.append(f"{e['action']:>4}  {e['type']}: "
                     + (e.get("text") or json.dumps(fields, ensure_ascii=False)[:160]))
    return "\n".join(lines)


def _report(game: Game, events: bool) -> dict[str, Any]:
    """The JSON printed by `play --json` (docs/formats.md)."""
    board = game.scoreboard
    out = {"state": game.state.model_dump(mode="json"),
           "scoreboard": board.model_dump(mode="json") if board else None,
           "legal": game.legal().model_dump(mode="json")}
    if events:
        out["events"] = event_log(game)
    return out


def _refusal(index: int, kind: str, err: RuleError | ValidationError) -> dict[str, Any]:
    """The `error` object of a refused action (docs/formats.md)."""
    if isinstance(err, RuleError):
        return {"action_index": index, "action": kind, "rule": err.rule, "player": err.player,
                "reason": err.reason, "message": str(err)}
    text = _errors(err)
    return {"action_index": index, "action": kind, "rule": None, "player": None,
            "reason": text, "message": text}


def _said(err: RuleError | ValidationError, names: list[str], words: Translator) -> str:
    """A refusal for the shell: its English text, or in the shell's language its reason and
    rule."""
    if words.english or not isinstance(err, RuleError):
        return _refusal(0, "", err)["message"]
    return render(err.message, names, words) + f" ({err.rule})"


def cmd_play(path: str, as_json: bool, events: bool = False) -> int:
    """Run a game script and print the state (and scoreboard once the game is over); with
    `events`, every event too. A refused action exits 1: stderr names it; with `as_json` stdout
    also holds the error and the state just before it.

    Raises:
        InputError: the script is malformed.
    """
    script: Script = _load(path, Script, SCRIPT_FORMAT)
    words = shell_translator() if not as_json else ENGLISH
    try:
        game = Game.new(script.start.setup or script.start.position)
    except (ValueError, KeyError) as err:
        raise InputError(f"{path}: start: {err}") from None
    for i, action in enumerate(script.actions):
        kind = action.get("type", "?") if isinstance(action, dict) else "?"
        try:
            game.play(action)
        except (ValidationError, RuleError) as err:
            error = _refusal(i, kind, err)
            if as_json:
                _dump({"error": error, **_report(game, events)})
            said = _said(err, [p.name for p in game.state.players], words)
            print(f"action #{i} ({kind}): {said}", file=sys.stderr)
            return 1
    board = game.scoreboard
    if as_json:
        _dump(_report(game, events))
    else:
        print(state_text(game.state))
        names = [p.name for p in game.state.players]
        print(scoreboard_text(board) if board else
              f"Next: {render(game.legal().prompt_message, names, words)}")
        if events:
            print(_events_text(event_log(game, words)))
    return 0


def cmd_score(path: str, as_json: bool) -> int:
    """Score end-of-game positions (§12).

    Raises:
        InputError: the file is malformed.
    """
    doc: ScoreFile = _load(path, ScoreFile, SCORE_FORMAT)
    try:
        board = scoreboard(score_state(doc))
    except ValidationError as err:
        raise InputError(f"{path}: {_errors(err)}") from None
    except ValueError as err:
        raise InputError(f"{path}: {err}") from None
    if as_json:
        _dump({"scoreboard": board.model_dump(mode="json")})
    else:
        print(scoreboard_text(board))
    return 0


CLI_LOCK_WAIT = 3.0
"""Seconds a command that writes waits for the data folder before it gives up (exit 3)."""
LIST_PAGE = 500
"""Games `games list` reads from the index at a time (it prints them as it goes)."""


class IOFailure(Exception):
    """A file or the data folder cannot be read or written (exit 4)."""


def _library(data_dir: str | None, write: bool) -> Any:
    """The library of the data folder: writable (waits briefly for the lock) or read-only.

    Raises:
        FolderBusy: another process writes there (exit 3).
        FolderUnavailable: the folder cannot be opened (exit 4).
    """
    from companion.library.library import Library
    from companion.storage import TinyDBGameStore
    from companion.storage.paths import resolve_data_dir

    folder = resolve_data_dir(data_dir, create=False)
    if write:
        return Library(TinyDBGameStore(folder, wait=CLI_LOCK_WAIT, role="command line"))
    return Library(TinyDBGameStore(folder, read_only=True))


def _check_output(path: str) -> None:
    """Refuse an output path that cannot name a file to write: a folder, or a file in a folder
    that does not exist (wrong arguments, not a disk problem).

    Raises:
        InputError: naming the path and the problem.
    """
    out = Path(path)
    if not out.name or out.is_dir():
        raise InputError(f"cannot write {path}: it is a folder")
    parent = out.parent
    if not parent.exists():
        raise InputError(f"cannot write {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise InputError(f"cannot write {path}: {parent} is a file, not a folder")


def _write_output(path: str, text: str) -> None:
    """Write a file the user asked for, whole or not at all.

    Raises:
        InputError: the path names a folder or a file in a missing folder.
        IOFailure: naming the file and the disk's problem.
    """
    from companion.storage.files import atomic_write_bytes

    _check_output(path)
    try:
        atomic_write_bytes(Path(path), text.encode("utf-8"))
    except OSError as err:
        raise IOFailure(f"cannot write {path}: "
                        f"{describe_os_error(err, with_file=False)}") from None


def _report_damage(store: Any) -> None:
    for damaged in store.damaged():
        where = (f"moved aside to {damaged.backup}" if damaged.backup
                 else "left in place")
        print(one_line(f"damaged file {damaged.path} ({where}): {damaged.reason}"),
              file=sys.stderr)


def cmd_catalogue(action: str, path: str | None, data_dir: str | None) -> int:
    """Show, export or import the card catalogue (shipped facts + the user's entries).

    Raises:
        InputError, IOFailure, FolderBusy, FolderUnavailable, CatalogueError (see `main`).
    """
    doc = _read_input(path, MAX_CATALOGUE_BYTES) if action == "import" and path else None
    if action == "export" and path:
        _check_output(path)
    svc = _library(data_dir, write=action == "import")
    try:
        if action == "export":
            _write_output(path, json.dumps(svc.export_catalogue(), indent=1) + "\n")
            print(f"catalogue written to {path}")
        elif action == "import":
            svc.import_catalogue(doc)
            print(f"catalogue merged from {path}")
        else:
            cat = svc.catalogue()
            for c in cat.clan_cards:
                known = "" if c.complete() else "  [values to enter]"
                print(f"{c.id:10} {c.clan:10} {c.name or '?':22} {c.kind or '?':12} "
                      f"{'?' if c.power is None else c.power}{known}")
            for a in cat.allies:
                vals = (a.influence, a.feed, a.drain_blood, a.drained_influence)
                shown = "/".join("?" if v is None else str(v) for v in vals)
                print(f"{a.id:22} {a.name or '?':36} {a.kind or '?':8} {shown}")
    finally:
        svc.store.close()
    return 0


def cmd_games(action: str, args: list[str], data_dir: str | None) -> int:
    """List stored games, export one or all (backup), import a game or restore a backup.

    Only import and restore write in the data folder; the others open it read-only.
    Raises:
        InputError, IOFailure, FolderBusy, FolderUnavailable, StorageError (see `main`).
    """
    doc = None
    if action in ("import", "restore"):
        doc = _read_input(args[0], MAX_IMPORT_BYTES if action == "import" else MAX_BACKUP_BYTES)
    elif action in ("export", "backup"):
        _check_output(args[-1])
    svc = _library(data_dir, write=doc is not None)
    store = svc.store
    try:
        _report_damage(store)
        if action == "list":
            for offset in range(0, store.count_games(), LIST_PAGE):
                for g in store.list_games(limit=LIST_PAGE, offset=offset):
                    state = f"won by {g.get('winner')}" if g.get("finished") else (
                        f"round {g.get('round')}, {g.get('phase')}")
                    print(f"{g['game_id']}  {str(g.get('created', ''))[:16]}  "
                          f"{', '.join(map(str, g.get('players') or []))}  {state}")
        elif action == "export":
            game_id, path = args
            _write_output(path, json.dumps(store.export_game(game_id), indent=1) + "\n")
            print(f"game {game_id} written to {path}")
        elif action == "backup":
            _write_output(args[0], json.dumps(store.export_backup()) + "\n")
            print(f"backup written to {args[0]}")
        elif action == "import":
            print(f"imported game {svc.import_game(doc)}")
        elif action == "restore":
            print(f"restored {len(svc.restore_backup(doc))} game(s)")
    finally:
        svc.store.close()
    return 0


EXIT_CODES = {
    0: "done",
    1: "refused: the rules or a document's checks refused it, or no such game; nothing changed",
    2: "bad input: wrong arguments (an output file that names a folder, or a file in a folder "
       "that does not exist), or a file that cannot be read, is not JSON, is too large or too "
       "deeply nested, or has the wrong format or invalid fields",
    3: "busy: another process (the app, the web server, another command) writes in the data "
       "folder; nothing was written",
    4: "disk: the data folder or an output file cannot be read or written (full, read-only, "
       "no permission); nothing was changed",
    70: "internal error (a bug): reported on one line; please report it",
    130: "interrupted (Ctrl-C)",
}
"""Every exit code of `vendetta-companion` (README and docs/formats.md list them)."""


def _fail(code: int, where: str, message: str) -> int:
    print(one_line(f"{where}: {message}" if where else message), file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int | None:
    """Run a subcommand; returns its exit code, or None when no subcommand was given (the
    caller, `vendetta_companion.main`, then starts the app).

    Every failure becomes one line on stderr and a documented exit code (`EXIT_CODES`).
    """
    from companion.rules.catalogue import CatalogueError
    from companion.storage import FolderBusy, StorageError

    args = options(argv)
    what = " ".join(x for x in (args.command, getattr(args, "action", None)) if x)
    try:
        if args.command == "play":
            return cmd_play(args.script, args.json, args.events)
        if args.command == "score":
            return cmd_score(args.file, args.json)
        if args.command in ("heritage", "bloodfeud"):
            from companion.cli import pads

            try:
                run = pads.cmd_heritage if args.command == "heritage" else pads.cmd_bloodfeud
                return run(args.file, args.json)
            except pads.PadInput as err:
                return _fail(2, what, str(err))
            except pads.PadRefused as err:
                return _fail(1, f"{what} refused", str(err))
        if args.command == "catalogue":
            if args.action != "show" and not args.file:
                raise InputError(f"catalogue {args.action} needs a FILE")
            return cmd_catalogue(args.action, args.file, getattr(args, "data_dir", None))
        if args.command == "games":
            wanted = {"list": 0, "export": 2, "import": 1, "backup": 1, "restore": 1}
            if len(args.args) != wanted[args.action]:
                raise InputError(f"games {args.action} takes {wanted[args.action]} argument(s)")
            return cmd_games(args.action, args.args, getattr(args, "data_dir", None))
    except InputError as err:
        return _fail(2, "", str(err))
    except FolderBusy as err:
        return _fail(3, what, f"{err}; nothing was written. Close it, or try again when it "
                              f"is done")
    except (CatalogueError, StorageError) as err:
        if isinstance(err, OSError):  # FolderUnavailable
            return _fail(4, what, str(err))
        return _fail(1, f"{what} refused", str(err))
    except IOFailure as err:
        return _fail(4, what, str(err))
    except BrokenPipeError:  # e.g. `games list | head -1`: the reader has what it wanted
        _silence_stdout()
        return 0
    except OSError as err:
        return _fail(4, what, describe_os_error(err))
    except KeyboardInterrupt:
        return _fail(130, what, "interrupted")
    except Exception as err:  # noqa: BLE001 - never a traceback: a bug, reported in one line
        return _fail(70, what, f"internal error, please report it: "
                               f"{type(err).__name__}: {err}")
    return None


def _silence_stdout() -> None:
    """Stop Python from complaining at exit about a stdout nobody reads any more."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
