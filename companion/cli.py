"""Command line: play a game script, score end-of-game positions, or start the app.

Formats are documented in docs/formats.md; their JSON Schemas come from `schemas()`.
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SkipValidation, ValidationError, model_validator

from companion.apply import initial_state
from companion.errors import RuleError
from companion.game import Game, GameHeader
from companion.rules import full_turn_order, power
from companion.scoring import scoreboard
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


class GameDocument(Frozen):
    """An exported game (`Game.to_document()`)."""

    format: Literal["vendetta-companion/game"]
    schema_version: int
    header: GameHeader
    entries: list[ActionEntry | UndoEntry | RedoEntry]
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
    """An input file is unreadable or malformed (exit 2)."""


def _load(path: str, model: type[Frozen], fmt: str) -> Any:
    """Read and validate an input file.

    Raises:
        InputError: unreadable, not JSON, wrong format tag or invalid.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"{path}: cannot read a JSON document: {err}") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise InputError(f'{path}: not a {fmt} file (expected "format": "{fmt}")')
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise InputError(f"{path}: {_errors(err)}") from None


def _errors(err: ValidationError) -> str:
    msgs = [(".".join(map(str, e["loc"])), e["msg"].removeprefix("Value error, "))
            for e in err.errors()]
    return "; ".join(f"{loc}: {msg}" if loc else msg for loc, msg in msgs)


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
    return "\n".join(lines)


def scoreboard_text(board: Scoreboard) -> str:
    """Readable final standings (§12)."""
    lines = [f"Final scoreboard: {board.winner} wins", "rank  player (clan): Influence = "
             "active + drained + tokens + relic - Diablerie; Blood; note"]
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


def cmd_play(path: str, as_json: bool) -> int:
    """Run a game script and print the state (and scoreboard once the game is over).

    Raises:
        InputError: the script is malformed.
    """
    script: Script = _load(path, Script, SCRIPT_FORMAT)
    try:
        game = Game.new(script.start.setup or script.start.position)
    except (ValueError, KeyError) as err:
        raise InputError(f"{path}: start: {err}") from None
    for i, action in enumerate(script.actions):
        kind = action.get("type", "?") if isinstance(action, dict) else "?"
        try:
            game.play(action)
        except ValidationError as err:
            print(f"action #{i} ({kind}): {_errors(err)}", file=sys.stderr)
            return 1
        except RuleError as err:
            print(f"action #{i} ({kind}): {err}", file=sys.stderr)
            return 1
    board = game.scoreboard
    if as_json:
        _dump({"state": game.state.model_dump(mode="json"),
               "scoreboard": board.model_dump(mode="json") if board else None,
               "legal": game.legal().model_dump(mode="json")})
    else:
        print(state_text(game.state))
        print(scoreboard_text(board) if board else f"Next: {game.legal().prompt}")
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


def _service(data_dir: str | None) -> Any:
    from companion.paths import resolve_data_dir
    from companion.service import Service
    from companion.storage import TinyDBGameStore

    return Service(TinyDBGameStore(resolve_data_dir(data_dir)))


def cmd_catalogue(action: str, path: str | None, data_dir: str | None) -> int:
    """Show, export or import the card catalogue (shipped facts + the user's entries)."""
    from companion.catalogue import CatalogueError

    svc = _service(data_dir)
    try:
        if action == "export":
            Path(path).write_text(json.dumps(svc.export_catalogue(), indent=1) + "\n")
            print(f"catalogue written to {path}")
        elif action == "import":
            try:
                doc = json.loads(Path(path).read_text("utf-8"))
            except (OSError, ValueError) as err:
                raise InputError(f"{path}: not a readable JSON file ({err})") from None
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
    except CatalogueError as err:
        print(f"catalogue refused: {err}", file=sys.stderr)
        return 1
    finally:
        svc.store.close()
    return 0


def cmd_games(action: str, args: list[str], data_dir: str | None) -> int:
    """List stored games, export one or all (backup), import a game or restore a backup."""
    from companion.service import validate_game_document
    from companion.storage import ImportRefused, StorageError, read_import_file

    svc = _service(data_dir)
    store = svc.store
    try:
        for damaged in store.damaged():
            print(f"damaged file moved aside: {damaged.path} -> {damaged.backup} "
                  f"({damaged.reason})", file=sys.stderr)
        if action == "list":
            for g in store.list_games():
                state = f"won by {g.get('winner')}" if g.get("finished") else (
                    f"round {g.get('round')}, {g.get('phase')}")
                print(f"{g['game_id']}  {g.get('created', '')[:16]}  "
                      f"{', '.join(g.get('players') or [])}  {state}")
        elif action == "export":
            game_id, path = args
            Path(path).write_text(json.dumps(store.export_game(game_id), indent=1) + "\n")
            print(f"game {game_id} written to {path}")
        elif action == "backup":
            Path(args[0]).write_text(json.dumps(store.export_backup()) + "\n")
            print(f"backup written to {args[0]}")
        elif action == "import":
            gid = store.import_game(read_import_file(args[0]), validate=validate_game_document)
            print(f"imported game {gid}")
        elif action == "restore":
            added = store.import_backup(read_import_file(args[0]),
                                        validate=validate_game_document)
            print(f"restored {len(added)} game(s)")
    except (ImportRefused, StorageError, KeyError, OSError) as err:
        print(f"games {action} refused: {err}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def run_app(web: bool, port: int, data_dir: str | None) -> int:
    """Start the Flet app, if the UI is installed."""
    try:
        from views.app import run
    except ImportError as err:
        if err.name not in ("views.app", "views"):
            raise
        print("the app UI is not installed yet", file=sys.stderr)
        return 1
    run(web=web, port=port, data_dir=data_dir)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vendetta-companion",
        description="Referee for Vampire: The Masquerade - Vendetta. Without a subcommand, "
                    "starts the app.")
    parser.add_argument("--web", action="store_true", help="serve the app to browsers")
    parser.add_argument("--port", type=int, default=8550, help="port for --web (8550)")
    parser.add_argument("--data-dir", help="folder for saved games")
    sub = parser.add_subparsers(dest="command")
    for name, arg, text in (("play", "script", "run a game script (docs/formats.md)"),
                            ("score", "file", "score end-of-game positions (§12)")):
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument(arg, help="JSON file")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
        p.add_argument("--data-dir", default=argparse.SUPPRESS, help="accepted, not used")
    p = sub.add_parser("catalogue", help="show, export or import the card catalogue",
                       description="The card catalogue: facts shipped with the companion plus "
                                   "values you entered from your own cards.")
    p.add_argument("action", choices=["show", "export", "import"])
    p.add_argument("file", nargs="?", help="JSON file (export/import)")
    p.add_argument("--data-dir", default=argparse.SUPPRESS, help="folder for saved data")
    p = sub.add_parser("games", help="list, export, import, back up or restore saved games",
                       description="Saved games: list; export ID FILE; import FILE; "
                                   "backup FILE; restore FILE.")
    p.add_argument("action", choices=["list", "export", "import", "backup", "restore"])
    p.add_argument("args", nargs="*", help="ID and/or FILE")
    p.add_argument("--data-dir", default=argparse.SUPPRESS, help="folder for saved data")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `vendetta-companion` console script; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args.script, args.json)
        if args.command == "score":
            return cmd_score(args.file, args.json)
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
        print(err, file=sys.stderr)
        return 2
    return run_app(args.web, args.port, args.data_dir)


if __name__ == "__main__":
    sys.exit(main())
