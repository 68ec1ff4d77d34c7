"""Import time of the app, each in a fresh interpreter, against `import flet` in the same run.

Figures: `import views.app` against `import flet`; and what the app entry does before its
first page (the console script's module, views.app, an empty data folder opened, the home page
built) against `import flet` plus a one-button page built (Flet loads a control's modules when
it is first used). Runs are interleaved so machine load hits all alike; medians are shown.
Bytecode is cached as in an installed app (a first, untimed run writes `__pycache__`, even
when PYTHONDONTWRITEBYTECODE is set here). `--detail` lists the
slowest modules (`python -X importtime`).

Run: python bench/imports.py [--repeat N] [--detail] [--quick]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from figures import Row, median, show  # noqa: E402

CHILD = {
    "flet": "import flet",
    "page": ("import flet as ft\n"
             "ft.View(controls=[ft.Column([ft.Text('0'), ft.Button('Tap')])])"),
    "app": "import views.app",
    "entry": ("import companion.cli.args, views.app\n"
              "companion.cli.args.options([])\n"
              "from companion.library.library import Library\n"
              "from companion.storage import TinyDBGameStore\n"
              "views.app.build(Library(TinyDBGameStore(sys.argv[1])))"),
}
"""What each fresh interpreter times (the entry's data folder is argv[1])."""
TIMER = "import sys, time\nt = time.perf_counter()\n{body}\nprint((time.perf_counter() - t) * 1000)"
GOAL_MS = 400


def child_env() -> dict[str, str]:
    """This environment, with the checkout importable and bytecode cached."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def fresh(kind: str, folder: str) -> float:
    """ms one fresh interpreter takes for CHILD[kind]."""
    out = subprocess.run([sys.executable, "-c", TIMER.format(body=CHILD[kind]), folder],
                         cwd=ROOT, capture_output=True, text=True, check=True, env=child_env())
    return float(out.stdout.strip().splitlines()[-1])


def measure(repeat: int) -> list[Row]:
    """The rows: app import and entry vs `import flet`, medians of interleaved runs."""
    times: dict[str, list[float]] = {k: [] for k in CHILD}
    with tempfile.TemporaryDirectory() as folder:
        fresh("entry", folder)  # writes the bytecode caches
    for _ in range(repeat):
        for kind in CHILD:
            with tempfile.TemporaryDirectory() as folder:
                times[kind].append(fresh(kind, folder))
    flet, page = median(times["flet"]), median(times["page"])
    return [
        Row("import views.app vs import flet", median(times["app"]), floor=flet,
            floor_name="(flet)", max_value=GOAL_MS),
        Row("app entry to first page built vs flet + one-button page", median(times["entry"]),
            floor=page, floor_name="(flet page)", max_value=GOAL_MS),
    ]


def detail(top: int = 25) -> None:
    """The modules views.app imports that cost most (cumulative µs, -X importtime)."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import flet, views.app"],
                         cwd=ROOT, capture_output=True, text=True, check=True,
                         env=child_env())
    rows = []
    for line in out.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m and not m.group(4).startswith(("flet", "encodings")):
            rows.append((int(m.group(2)), int(m.group(1)), m.group(4)))
    for cumulative, own, name in sorted(rows, reverse=True)[:top]:
        print(f"  {cumulative / 1000:8.1f} ms cumulative {own / 1000:7.1f} ms own  {name}")


def main(argv: list[str] | None = None) -> list[Row]:
    """Measure, print the table, return the rows."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="fresh interpreters per figure")
    ap.add_argument("--detail", action="store_true", help="list the slowest imports")
    ap.add_argument("--quick", action="store_true", help="one interpreter per figure")
    opts = ap.parse_args(argv)
    rows = measure(1 if opts.quick else opts.repeat)
    show(rows)
    if opts.detail:
        detail()
    return rows


if __name__ == "__main__":
    main()
