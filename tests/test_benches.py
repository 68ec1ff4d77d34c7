"""Every benchmark keeps running: each script of bench/ with --quick (tiny data, a few seconds),
as a subprocess. No figure is judged here, only that the script ends well and printed figures,
so a benchmark that no longer fits the code fails here rather than on the day it is needed."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.harness import missing

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

SCRIPTS = {"actions.py": False, "backups.py": False, "run_all.py": False, "safety.py": False,
           "storage.py": False, "table_sync.py": True, "taps.py": True, "round_taps.py": False,
           "phone_shots.py": True}
"""Each benchmark script run here, and whether it needs the browser (Chromium through
Playwright); actions.py and run_all.py leave their browser parts out by themselves."""
RUN_BY_RUN_ALL = {"tap_latency.py": ("tap -> number p50", True),
                  "imports.py": ("import views.app", False)}
"""Scripts that run_all.py runs (their `main`, with --quick): a figure each prints, and
whether it needs the browser."""
HELPERS = {"datasets.py", "figures.py", "inpage.py", "serve.py"}
"""Modules the scripts import or start (serve.py is the server half of the browser benches)."""
NUMBER = re.compile(r"\d+(?:\.\d+)?")
SKIPPED = re.compile(r"skipped(?::| \()")
"""How a benchmark says it left a part out (as opposed to a figure about skipped work)."""


def test_every_script_of_bench_is_run_here():
    assert {p.name for p in BENCH.glob("*.py")} == set(SCRIPTS) | set(RUN_BY_RUN_ALL) | HELPERS


@pytest.mark.flaky(reruns=1, reruns_delay=2)  # as the browser tests: a busy machine's hiccup
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_bench_runs_quick(script: str) -> None:
    if SCRIPTS[script] and (reason := missing()):
        pytest.skip(reason)
    done = subprocess.run([sys.executable, str(BENCH / script), "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(NUMBER.findall(done.stdout)) >= 3, done.stdout
    if not missing():
        assert not SKIPPED.search(done.stdout), done.stdout
    if script == "run_all.py":
        for figure, browser in RUN_BY_RUN_ALL.values():
            assert figure in done.stdout or (browser and missing())
