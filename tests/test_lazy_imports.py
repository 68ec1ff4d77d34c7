"""starting the app imports only what its first page needs (timed in
bench/imports.py; here, which modules a fresh interpreter has loaded)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LATER = ["companion.rules.game", "companion.rules.engine", "companion.table.access",
         "companion.table.collect", "companion.table.table", "companion.library.backups",
         "companion.story.scorecard", "models.events", "models.commands", "views.seat_page",
         "views.frame", "PIL", "segno", "flet_charts", "babel", "companion.i18n.catalogues"]
"""Modules only a played game, a screen, an action or a language other than English needs."""


def loaded_after(code: str) -> set[str]:
    """The modules of LATER that a fresh interpreter has loaded after running `code`."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps([m for m in {LATER!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_app_import_leaves_the_engine_and_the_screens_for_later():
    assert loaded_after("import views.app") == set()


def test_validators_are_built_on_first_use():
    probe = ("import sys, views.app\nfrom models.table import Seat\n"
             "assert not Seat.__pydantic_complete__\n"
             "assert Seat(player=2).player == 2 and Seat.__pydantic_complete__")
    subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True)


def test_a_played_game_imports_the_engine(tmp_path):
    code = ("import sys\nfrom companion.library.session import GameSession\n"
            "from companion.storage import TinyDBGameStore\n"
            "from companion.table.hub import TableHub\nfrom models.setup import GameSetup\n"
            f"hub = TableHub(TinyDBGameStore({str(tmp_path)!r}))\n"
            "hub.new_table(GameSetup(players=[{'name': n} for n in ('Ann', 'Bo', 'Cy')]))")
    assert {"companion.rules.game", "companion.table.table", "models.events"} <= loaded_after(code)
