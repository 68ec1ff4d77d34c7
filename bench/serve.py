"""Serve the app (or a trivial one-button page) for the benchmarks, timing each tap server side.

Run by bench/run_all.py, never by the product: `python bench/serve.py app DATA_DIR` or
`python bench/serve.py trivial`, with FLET_FORCE_WEB_SERVER=1 FLET_SERVER_PORT=… and
BENCH_TAP_LOG=<file>: each click's time from the handler's start to the end of the page
update (Flet's diff and send included) is appended there in ms, and for the app the time
inside `Service.play` as "play <ms>".
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flet.messaging.session import Session  # noqa: E402

LOG = os.environ.get("BENCH_TAP_LOG")
_dispatch = Session.dispatch_event


async def _timed_dispatch(self, control_id, event_name, event_data):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    await _dispatch(self, control_id, event_name, event_data)
    if LOG and event_name == "click":
        with open(LOG, "a") as fh:
            fh.write(f"tap {(time.perf_counter() - start) * 1000:.3f}\n")


Session.dispatch_event = _timed_dispatch  # type: ignore[method-assign]


def trivial() -> None:
    """One button and one number: Flet's own floor for a tap."""
    import flet as ft

    def main(page: ft.Page) -> None:
        count = ft.Text("0", size=30)

        def on_tap_click(e: object) -> None:
            count.value = str(int(count.value or 0) + 1)

        page.add(ft.Semantics(identifier="count", content=count),
                 ft.Semantics(identifier="tap", content=ft.Button("Tap", on_click=on_tap_click)))

    ft.run(main)


def app(data_dir: str) -> None:
    """The real app, with `Service.play` timed too."""
    from companion.service import Service
    from views.app import run

    play = Service.play

    def timed_play(self, command):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return play(self, command)
        finally:
            if LOG:
                with open(LOG, "a") as fh:
                    fh.write(f"play {(time.perf_counter() - start) * 1000:.3f}\n")

    Service.play = timed_play  # type: ignore[method-assign]
    run(True, int(os.environ["FLET_SERVER_PORT"]), data_dir, host="127.0.0.1")


if __name__ == "__main__":
    if sys.argv[1] == "trivial":
        trivial()
    else:
        app(sys.argv[2])
