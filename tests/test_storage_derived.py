"""A damaged or read-only data folder, on real files and in real processes: the derived parts
(`index/`, `dirty/`, `tables/`, cache notes) are set aside under a dated name and rebuilt from
the journals; only an unreadable `games/` stops the store; a folder the process may not write
opens read-only everywhere; output paths that name no file are bad input.

We run as root, which reads and writes everything whatever the permissions: the unreadable and
read-only variants run their app and CLI as the unprivileged user `nobody` (setpriv), on a
folder that user owns (unreadable parts) or may only read (read-only folder).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.library.session import GameSession
from companion.storage import TinyDBGameStore
from companion.table.hub import TableHub
from tests.process_helpers import ENV, ROOT, cli
from tests.ui import click, find, has
from views.app import DataFolder, build

SCRIPT = json.loads((ROOT / "examples" / "four_players.json").read_text())
PLAYED = (3, 5, 7, 9)
"""Actions played in each of the folder's four games (none finished)."""
NOBODY = 65534
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
can_drop_root = pytest.mark.skipif(
    not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv")),
    reason="needs root (to hand the folder to an unprivileged user) and setpriv")


def make_games(folder: Path) -> dict[str, int]:
    """Four games in progress; game id -> actions played."""
    from models.setup import GameSetup

    svc = GameSession(TinyDBGameStore(folder))
    played = {}
    for n in PLAYED:
        game = svc.new_game(GameSetup.model_validate(SCRIPT["start"]["setup"]))
        for command in SCRIPT["actions"][:n]:
            svc.play(command)
        played[game.header.game_id] = n
    svc.store.close()
    return played


@pytest.fixture(scope="module")
def four_games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """A data folder of four games (copied by each test that changes it)."""
    folder = tmp_path_factory.mktemp("four") / "data"
    return folder, make_games(folder)


def copy_of(four_games: tuple[Path, dict[str, int]], where: Path) -> tuple[Path, dict[str, int]]:
    folder, played = four_games
    shutil.copytree(folder, where)
    return where, played


def damage(folder: Path, part: str, how: str) -> None:
    """Damage a derived part of the data folder (as root: a file, or garbage inside)."""
    target = folder / part
    if how == "file":
        shutil.rmtree(target, ignore_errors=True)
        target.write_bytes(b"\x00not a folder\n")
    elif how == "unreadable":
        target.mkdir(exist_ok=True)
        target.chmod(0)
    elif part == "index":  # garbage: every file of the index, and a stray folder
        for path in target.iterdir():
            path.write_bytes(b"\xff\xfe{garbage")
        (target / "shard-999.json").mkdir()
    else:  # dirty/: a marker of garbage, and folders where markers should be
        some = next((folder / "games").iterdir()).name.removesuffix(".jsonl")
        (target / some).mkdir()
        (target / some / "x").write_bytes(b"garbage")
        (target / "zz-not-a-game").write_bytes(b"\xff" * 100)


def resume_and_play(folder: DataFolder, game_id: str, n: int) -> None:
    """Open a game at a table as the app does and play its next action (stored)."""
    assert folder.hub is not None
    table = folder.hub.open_table(game_id)
    table.session.play(SCRIPT["actions"][n])
    assert not table.session.unsaved


def check_everything_back(where: Path, played: dict[str, int], resumed: str) -> None:
    """Every game listed by a fresh writer and by the CLI, the resumed one a step further."""
    with TinyDBGameStore(where) as store:
        assert store.damaged() == []  # nothing left to set aside
        assert {s["game_id"] for s in store.list_games()} == set(played)
        for gid, n in played.items():
            actions = [e for e in store.load(gid).entries if e["kind"] == "action"]
            assert len(actions) == n + (gid == resumed)


@pytest.mark.parametrize(("part", "how"), [("index", "file"), ("index", "garbage"),
                                           ("dirty", "file"), ("dirty", "garbage")])
def test_a_damaged_derived_folder_is_set_aside_and_rebuilt(
        four_games: tuple[Path, dict[str, int]], tmp_path: Path, part: str, how: str) -> None:
    where, played = copy_of(four_games, tmp_path / "data")
    damage(where, part, how)
    before = (where / part).read_bytes() if how == "file" else None
    listed = cli("games", "list", "--data-dir", str(where))  # a reader rebuilds in memory
    assert listed.returncode == 0, listed.stderr
    assert {line.split()[0] for line in listed.stdout.splitlines()} == set(played)
    assert "Traceback" not in listed.stderr
    folder = DataFolder(where)
    assert folder.try_open() is None  # the app starts
    assert folder.library is not None and folder.library.store.count_games() == 4
    if how == "file":  # the whole folder set aside under a dated name, made anew
        [aside] = where.glob(f"{part}.damaged-*")
        assert aside.read_bytes() == before and (where / part).is_dir()
        assert any(d.path == where / part for d in folder.library.store.damaged())
    game = min(played)
    resume_and_play(folder, game, played[game])
    folder.close()
    if how == "garbage" and part == "dirty":
        assert sorted(p.name for p in (where / "dirty").iterdir()) == []
    check_everything_back(where, played, game)


def test_a_damaged_cache_note_and_tables_folder_are_set_aside(
        four_games: tuple[Path, dict[str, int]], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    where, played = copy_of(four_games, tmp_path / "data")
    (where / "index" / "note-stats.json").mkdir()  # a folder where the cache note goes
    (where / "tables").write_text("not a folder")
    folder = DataFolder(where)
    with caplog.at_level(logging.WARNING):
        assert folder.try_open() is None
    [aside] = where.glob("tables.damaged-*")
    assert aside.read_text() == "not a folder" and (where / "tables").is_dir()
    assert all(r.exc_info is None for r in caplog.records)  # one line, no traceback
    store = folder.library.store
    store.save_note("stats", {"counted": 4})
    assert store.load_note("stats") == {"counted": 4}
    assert list((where / "index").glob("note-stats.json.damaged-*"))
    game = max(played)
    resume_and_play(folder, game, played[game])
    assert (where / "tables" / f"{game}.json").is_file()  # the table is stored again
    folder.close()
    check_everything_back(where, played, game)


@pytest.fixture
def shared_base() -> Iterator[Path]:
    """A folder `nobody` can reach (pytest's own temp folders are root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="vendetta-derived-"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        for path in base.rglob("*"):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


APP_AS_NOBODY = """
import json, sys
from views.app import DataFolder, build
from tests.ui import has, texts
folder = DataFolder(sys.argv[1])
problem = folder.try_open()
out = {"problem": problem.message if problem else None,
       "read_only": folder.read_only_reason}
if problem is None:
    store = folder.library.store
    out["games"] = store.count_games()
    out["damaged"] = [[str(d.path), str(d.backup)] for d in store.damaged()]
    app = build(folder.library, None, folder)
    out["home"] = " ".join(texts(app.root))
    out["new_game"] = has(app.root, "new-game")
    if folder.read_only_reason is None:
        gid = store.list_games()[0]["game_id"]
        table = folder.hub.open_table(gid)
        script = json.load(open(sys.argv[2]))
        table.session.play(script["actions"][len(table.game.actions)])
        out["played"] = [gid, not table.session.unsaved]
    else:
        gid = store.list_games()[0]["game_id"]
        app.open_review(gid)
        out["review"] = app.screen
        app.open_game(gid)
        out["refused"] = app.error
folder.close()
print(json.dumps(out))
"""


def as_nobody(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*AS_NOBODY, sys.executable, *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)


def app_as_nobody(where: Path) -> dict:
    done = as_nobody("-c", APP_AS_NOBODY, str(where),
                     str(ROOT / "examples" / "four_players.json"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@can_drop_root
@pytest.mark.parametrize("part", ["index", "dirty"])
def test_an_unreadable_derived_folder_for_a_real_user(
        four_games: tuple[Path, dict[str, int]], shared_base: Path, part: str) -> None:
    where, played = copy_of(four_games, shared_base / "data")
    shutil.chown(where, NOBODY, NOBODY)
    for path in where.rglob("*"):
        shutil.chown(path, NOBODY, NOBODY)
    damage(where, part, "unreadable")
    listed = as_nobody("-m", "companion.cli.main", "games", "list", "--data-dir", str(where))
    assert listed.returncode == 0, listed.stderr
    assert {line.split()[0] for line in listed.stdout.splitlines()} == set(played)
    seen = app_as_nobody(where)
    assert seen["problem"] is None and seen["games"] == 4 and seen["new_game"]
    [aside] = where.glob(f"{part}.damaged-*")
    assert [[str(where / part), str(aside)]] == seen["damaged"]
    gid, saved = seen["played"]
    assert saved
    check_everything_back(where, played, gid)


@can_drop_root
def test_unreadable_journals_stop_the_store_on_the_error_screen(
        four_games: tuple[Path, dict[str, int]], shared_base: Path) -> None:
    where, _ = copy_of(four_games, shared_base / "data")
    for path in [where, *where.rglob("*")]:
        shutil.chown(path, NOBODY, NOBODY)
    (where / "games").chmod(0)
    seen = app_as_nobody(where)
    assert seen["problem"] == f"cannot read the games folder {where / 'games'}: " \
                              f"permission denied"
    listed = as_nobody("-m", "companion.cli.main", "games", "list", "--data-dir", str(where))
    assert listed.returncode == 4 and str(where / "games") in listed.stderr
    assert listed.stderr.count("\n") == 1 and "Traceback" not in listed.stderr
    assert len(list((where / "games").iterdir())) == 4  # nothing was moved (root looks)


@can_drop_root
def test_a_folder_the_user_may_not_write_opens_read_only(
        four_games: tuple[Path, dict[str, int]], shared_base: Path) -> None:
    """The folder stays root's (readable by all): the app and the CLI run as `nobody`."""
    where, played = copy_of(four_games, shared_base / "data")
    TableHub(TinyDBGameStore(where)).store.close()  # tables/ and the host key, as after a start
    for path in [where, *where.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    before = {p: p.stat().st_mtime_ns for p in where.rglob("*")}
    seen = app_as_nobody(where)
    assert seen["problem"] is None and seen["games"] == 4
    note = f"this data folder is read-only: you can review games, not play or change them " \
           f"({where})"
    assert seen["read_only"] == note and f"T{note[1:]}." in seen["home"] and seen["new_game"]
    assert seen["review"] == "review" and seen["refused"] == f"Review only here: {note}."
    gid = next(iter(played))
    out = shared_base / "out"
    out.mkdir()
    out.chmod(0o777)
    for args in (("games", "list"), ("games", "export", gid, str(out / "g.json")),
                 ("games", "backup", str(out / "all.json")), ("catalogue", "show")):
        done = as_nobody("-m", "companion.cli.main", *args, "--data-dir", str(where))
        assert done.returncode == 0 and done.stderr == "", (args, done.stderr)
    assert json.loads((out / "g.json").read_text())["header"]["game_id"] == gid
    assert len(json.loads((out / "all.json").read_text())["games"]) == 4
    for args in (("games", "import", str(out / "g.json")),
                 ("games", "restore", str(out / "all.json")),
                 ("catalogue", "import", str(out / "g.json"))):
        done = as_nobody("-m", "companion.cli.main", *args, "--data-dir", str(where))
        assert done.returncode == 4, (args, done.stderr)
        assert f"the data folder {where} is read-only here" in done.stderr
        assert done.stderr.count("\n") == 1
    assert {p: p.stat().st_mtime_ns for p in where.rglob("*")} == before  # nothing changed


def test_a_read_only_app_disables_what_writes(four_games: tuple[Path, dict[str, int]]) -> None:
    """In-process view of an app whose store is read-only: New game, resuming, and the
    catalogue's Save and Import are disabled; Review and Statistics open."""
    where, _ = four_games
    store = TinyDBGameStore(where, read_only=True)
    app = build(GameSession(store))
    assert find(app.root, "new-game").disabled and has(app.root, "read-only")
    assert not any(has(app.root, f"game-{i}") for i in range(4))
    click(app.root, "review-3")
    assert app.screen == "review"
    app.go("stats")
    assert app.screen == "stats" and app.error is None
    app.go("catalogue")
    click(app.root, "cat-tab-share")
    assert find(app.root, "import-ok").disabled
    click(app.root, "cat-tab-allies")
    click(app.root, "cat-new")
    assert find(app.root, "edit-save").disabled
    store.close()


@pytest.mark.parametrize("command", ["export", "backup", "catalogue"])
def test_an_output_path_that_names_no_file_is_bad_input(
        four_games: tuple[Path, dict[str, int]], tmp_path: Path, command: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    where, played = four_games
    gid = next(iter(played))
    for out, problem in ((tmp_path, "it is a folder"),
                         (tmp_path / "no" / "x.json", f"the folder {tmp_path / 'no'} does "
                                                      f"not exist"),
                         (where / "games" / f"{gid}.jsonl" / "x.json", "is a file, not a "
                                                                         "folder")):
        args = {"export": ["games", "export", gid, str(out)],
                "backup": ["games", "backup", str(out)],
                "catalogue": ["catalogue", "export", str(out)]}[command]
        assert main([*args, "--data-dir", str(where)]) == 2
        err = capsys.readouterr().err
        assert err == f"cannot write {out}: " + err.split(": ", 1)[1] and problem in err
        assert err.count("\n") == 1
    assert not (tmp_path / "no").exists()
