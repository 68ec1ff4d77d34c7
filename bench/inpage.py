"""The benchmarks' browser (Debian Chromium through Playwright) and a tap timed inside the page.

A MutationObserver on `flt-semantics-host` is armed before the tap; it notes `performance.now()`
from the pointerdown the click dispatches to the first mutation after which the target is shown
(with the expected text, if one is given).

`chromium(one_core=True)` keeps the browser to one core (the last) when there are several, for
timing the server (bench/tap_latency.py): at a table the server and the browsers are different
machines, while here they share two cores, and Chromium's drawing (a tap's ripple is drawn in
software) otherwise takes the server's core in the middle of the very tap being timed (measured:
server wall time per tap 9–11 ms for 4.6–6.9 ms of CPU). Screens whose time is mostly the
browser's drawing (Home, Statistics) are timed with every core.
"""

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.browser.harness import sel

ARM = """([sel, expected]) => {
  const bench = window.__bench = {t0: null};
  const host = document.querySelector('flt-semantics-host');
  const done = () => { const e = document.querySelector(sel);
    return e && (expected === null || e.textContent.trim() === expected); };
  window.__benchDone = new Promise(resolve => {
    const obs = new MutationObserver(() => {
      if (bench.t0 !== null && done()) { obs.disconnect(); resolve(performance.now() - bench.t0); }
    });
    obs.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(-1); }, 30000);
  });
  window.addEventListener('pointerdown', () => { bench.t0 = performance.now(); },
                          {capture: true, once: true});
}"""
"""Resolves `window.__benchDone` with the ms from the next pointerdown until `sel` is in the
tree (showing `expected`, unless null); -1 after 30 s."""


@contextmanager
def chromium(one_core: bool = False) -> Iterator[Any]:
    """A headless Chromium browser (on one core only, if asked), closed on exit."""
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import CHROMIUM, LAUNCH_ARGS

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        launcher = _one_core(Path(tmp), CHROMIUM) if one_core else CHROMIUM
        browser = pw.chromium.launch(executable_path=launcher,
                                     headless=True, args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _one_core(folder: Path, executable: str) -> str:
    """A launcher in `folder` that starts `executable` on the machine's last core only (itself
    on one core, or without `taskset`); Chromium and all its processes keep that affinity."""
    taskset, cores = shutil.which("taskset"), os.cpu_count() or 1
    if taskset is None or cores < 2:
        return executable
    launcher = folder / "chromium-one-core"
    launcher.write_text(f'#!/bin/sh\nexec {taskset} -c {cores - 1} {executable} "$@"\n')
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    return str(launcher)


def in_page_tap(page: Any, button: str, target: str, expected: str | None = None) -> float:
    """ms from the pointerdown on `button` until `target` shows (`expected`, if given).

    Raises:
        RuntimeError: it never showed (30 s).
    """
    page.wait_for_selector(sel(button), state="attached")
    box = page.locator(sel(button)).first.bounding_box()
    for _ in range(100):  # attached before it is laid out: wait for its place on screen
        if box is not None and box["width"] > 0:
            break
        page.wait_for_timeout(50)
        box = page.locator(sel(button)).first.bounding_box()
    else:
        raise RuntimeError(f"{button} is on the page but never laid out")
    page.evaluate(ARM, [sel(target), expected])
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ms = page.evaluate("window.__benchDone")
    if ms < 0:
        shown = "" if expected is None else f" {expected!r}"
        raise RuntimeError(f"{target} never showed{shown} after tapping {button}")
    return ms
