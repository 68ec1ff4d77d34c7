"""Benchmark: live sync at a table. An action on device A (the referee's phone:
"Gain 1 Blood" for Ann) → the changed number visible on every other device (Ann's, Bo's... phones
and the board), with 1, 4 and 6 connected devices, against the single-device tap → update
figure measured in the same run. Server CPU per action: the whole server process's CPU time
(every thread, user + system) between the tap and the last device showing the number, so it
includes sending to and serving every device; not comparable with bench/tap_latency.py's
per-tap figure (one thread, one device).

Timing is done inside each page: a MutationObserver on `flt-semantics-host`, armed before the
tap, records `performance.timeOrigin + performance.now()` when the number shows; the tap time is
the pointerdown on A. All pages run in one browser on one machine, so these clocks are one
clock (checked against `Date.now()` in every page).

Run: python bench/table_sync.py [taps] [--quick]
     python bench/table_sync.py --club [--quick]   (5 tables x 5 devices on one server)
"""

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import median, pct  # noqa: E402
from inpage import chromium  # noqa: E402

from tests.browser.harness import PHONE, UI, Server, missing, sel  # noqa: E402
from tests.browser.play import pick  # noqa: E402

BOARD = {"width": 1280, "height": 800}
A_SIZE = {"width": 1024, "height": 1400}
"""Device A: tall enough to show the Apply button and the undo hint without scrolling."""

SPY = """(() => {
  const Real = window.WebSocket;
  window.__arrive = null;
  window.WebSocket = function (...args) {
    const ws = new Real(...args);
    ws.addEventListener('message', (ev) => {
      const size = ev.data.byteLength ?? ev.data.size ?? ev.data.length ?? 0;
      if (size < 120) return;  // the server's heartbeat, not an update
      if (window.__arrive === null) window.__arrive = performance.timeOrigin + performance.now();
    });
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, Real);
})();"""
"""Records when the first server message after arming arrives (before the page draws it)."""
ARM = """([s, want]) => {
  window.__seen = null;
  window.__arrive = null;
  const host = document.querySelector('flt-semantics-host');
  const check = () => {
    const e = document.querySelector(s);
    if (e && e.textContent.trim() === want && window.__seen === null) {
      window.__seen = performance.timeOrigin + performance.now();
      obs.disconnect();
    }
  };
  const obs = new MutationObserver(check);
  obs.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
  window.__obs = obs;
}"""
ARM_HINT = """([s, want]) => {
  window.__seen = null;
  const host = document.querySelector('flt-semantics-host');
  const obs = new MutationObserver(() => {
    const e = document.querySelector(s);
    if (e && e.textContent.includes(want) && window.__seen === null) {
      window.__seen = performance.timeOrigin + performance.now();
      obs.disconnect();
    }
  });
  obs.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
"""A's own update: its undo hint names the new action (#n)."""
TAP = """() => { window.__tap = null;
  document.addEventListener('pointerdown', () => {
    if (window.__tap === null) window.__tap = performance.timeOrigin + performance.now();
  }, {capture: true, once: true}); }"""
SKEW = "() => (performance.timeOrigin + performance.now()) - Date.now()"


def stats(values: list[float]) -> tuple[float, float]:
    """Median and 95th percentile."""
    return median(values), pct(values, 0.95)


def seed(data: Path, players: int) -> dict[str, str]:
    """A table at the Withdraw step of Location 1, every player there with a face-up card."""
    from companion.storage import TinyDBGameStore
    from companion.table.hub import TableHub
    from tests.table_helpers import NAMES, plain, position

    here = {"1": {NAMES[i]: ([plain(2)], 0) for i in range(players)}}
    store = TinyDBGameStore(data)
    table = TableHub(store).new_table(position(players, here))
    out = {"id": table.table_id, "code": table.join_code,
           **{f"seat{i}": table.seat_code(i) for i in range(players)}}
    store.close()
    return out


def spied(browser, size: dict):
    """A browser context whose pages record when server messages arrive."""
    context = browser.new_context(viewport=size)
    context.add_init_script(SPY)
    return context


def connect(browser, server: Server, t: dict, devices: int) -> tuple[UI, list[tuple[UI, str]]]:
    """Device A (the referee at the Preparation step, its effect form open) and the others,
    each with the id of the element that shows Ann's Blood."""
    a = UI(browser, server, path=f"/join/{t['id']}", context=spied(browser, A_SIZE))
    a.wait("claim-referee")
    a.tap("claim-referee")
    a.wait("withdraw-ok")
    a.tap("withdraw-ok")  # everyone stays: the Preparation step, nothing due
    a.wait("effect-open")
    pick(a, "effect-open")
    a.tap("effect-player-0")  # Ann
    a.page.wait_for_timeout(200)
    a.on_screen("effect-apply")
    others: list[tuple[UI, str]] = []
    for i in range(devices - 2 if devices > 1 else 0):
        ui = UI(browser, server, path=f"/join/{t['id']}", host=False,
                context=spied(browser, PHONE))
        ui.wait("claim-seat")
        ui.tap(f"pick-{i}")
        ui.fill("seat-code", t[f"seat{i}"])
        ui.tap("claim-seat")
        ui.wait("seat-state")
        others.append((ui, "my-blood" if i == 0 else "pool-0"))
    if devices > 1:
        b = UI(browser, server, path=f"/join/{t['id']}", host=False,
               context=spied(browser, BOARD))
        b.wait("join-board")
        b.fill("board-code", t["code"])
        b.tap("join-board")
        b.wait("board-prompt")
        others.append((b, "board-blood-0"))
    return a, others


def expected(ui: UI, ident: str, blood: int) -> str:
    return f"Ann: {blood} Blood · 3 Influence" if ident == "pool-0" else str(blood)


def run(browser, devices: int, taps: int) -> dict[str, list[float] | float]:
    """Taps on A with `devices` connected; latencies in ms and server CPU per action."""
    import psutil

    with tempfile.TemporaryDirectory() as tmp:
        t = seed(Path(tmp), max(3, devices - 2))
        server = Server(Path(tmp)).start()
        a, others = connect(browser, server, t, devices)
        out: dict[str, list[float] | float] = {"self": [], "each": [], "last": [],
                                               "arrive": [], "arrive_last": []}
        skews = [abs(ui.page.evaluate(SKEW) - a.page.evaluate(SKEW)) for ui, _ in others]
        proc = psutil.Process(server.proc.pid)
        cpu = 0.0
        try:
            blood = 6
            for k in range(taps + 3):
                blood += 1
                a.page.evaluate(ARM_HINT, [sel("undo-hint"), f"#{k + 2}:"])
                for ui, ident in others:
                    ui.page.evaluate(ARM, [sel(ident), expected(ui, ident, blood)])
                a.page.evaluate(TAP)
                c0 = sum(proc.cpu_times()[:2])
                a.page.locator(sel("effect-apply")).first.click()
                for ui in [a, *(u for u, _ in others)]:
                    ui.page.wait_for_function("() => window.__seen !== null", timeout=10_000)
                c1 = sum(proc.cpu_times()[:2])
                tap = a.page.evaluate("() => window.__tap")
                seen = [ui.page.evaluate("() => window.__seen") - tap for ui, _ in others]
                came = [ui.page.evaluate("() => window.__arrive") - tap for ui, _ in others]
                if k < 3:
                    continue  # warm-up
                cpu += c1 - c0
                out["self"].append(a.page.evaluate("() => window.__seen") - tap)
                out["each"] += seen
                if seen:
                    out["last"].append(max(seen))
                    out["arrive"] += came
                    out["arrive_last"].append(max(came))
                time.sleep(0.3)  # every page idle again before the next tap
        finally:
            for ui in [a, *(u for u, _ in others)]:
                ui.context.close()
            server.stop()
        out["cpu_ms"] = cpu * 1000 / taps
        out["skew_ms"] = max(skews, default=0.0)
        return out


def club(browser, tables: int, devices: int, taps: int) -> dict[str, float]:
    """A club night: one server, `tables` tables of `devices` devices each (the referee,
    seats, a board), every referee tapping at the same moment; server CPU per action and per
    action per device, and the slowest device of each table (p50/p95, ms)."""
    import psutil

    with tempfile.TemporaryDirectory() as tmp:
        seeds = [seed(Path(tmp), max(3, devices - 2)) for _ in range(tables)]
        server = Server(Path(tmp)).start()
        rooms = [connect(browser, server, t, devices) for t in seeds]
        proc = psutil.Process(server.proc.pid)
        cpu, slowest = 0.0, []
        try:
            blood = 6
            for k in range(taps + 2):
                blood += 1
                for a, others in rooms:
                    for ui, ident in others:
                        ui.page.evaluate(ARM, [sel(ident), expected(ui, ident, blood)])
                    a.page.evaluate(TAP)
                c0 = sum(proc.cpu_times()[:2])
                for a, _ in rooms:  # every table's referee taps at once
                    a.page.locator(sel("effect-apply")).first.click(no_wait_after=True)
                for _, others in rooms:
                    for ui, _ in others:
                        ui.page.wait_for_function("() => window.__seen !== null",
                                                  timeout=30_000)
                c1 = sum(proc.cpu_times()[:2])
                if k < 2:
                    continue  # warm-up
                cpu += c1 - c0
                for a, others in rooms:
                    tap = a.page.evaluate("() => window.__tap")
                    slowest.append(max(ui.page.evaluate("() => window.__seen") - tap
                                       for ui, _ in others))
                time.sleep(0.5)
        finally:
            for a, others in rooms:
                for ui in [a, *(u for u, _ in others)]:
                    ui.context.close()
            server.stop()
    per_action = cpu * 1000 / (taps * tables)
    p50, p95 = stats(slowest)
    return {"cpu_action": per_action, "cpu_device": per_action / devices, "p50": p50,
            "p95": p95}


def main() -> None:
    if "--club" in sys.argv:
        reason = missing()
        if reason:
            print(f"table sync: skipped ({reason})")
            return
        quick = "--quick" in sys.argv
        tables, devices, taps = (2, 3, 2) if quick else (5, 5, 10)
        with chromium() as browser:
            r = club(browser, tables, devices, taps)
        print(f"club night: {tables} tables x {devices} devices on one server, every referee "
              f"tapping at once, {taps} rounds")
        print(f"server CPU per action {r['cpu_action']:.1f} ms, per action per device "
              f"{r['cpu_device']:.1f} ms; slowest device of a table on screen "
              f"{r['p50']:.0f} / {r['p95']:.0f} ms (median / p95) after its referee's tap")
        return
    quick = "--quick" in sys.argv  # 1 and 2 devices, 3 taps: a check that it runs
    counts = [a for a in sys.argv[1:] if not a.startswith("--")]
    taps = int(counts[0]) if counts else 3 if quick else 30
    reason = missing()
    if reason:
        print(f"table sync: skipped ({reason})")
        return
    with chromium() as browser:
        results = {n: run(browser, n, taps) for n in ((1, 2) if quick else (1, 4, 6))}
    floor = stats(results[1]["self"])  # type: ignore[arg-type]
    print(f"table sync, {taps} taps each; ms from the tap on A (median / p95)")
    print(f"{'devices':<8}{'A on screen':>15}{'others: message in':>21}"
          f"{'others: on screen':>20}{'slowest on screen':>19}{'server CPU':>12}")
    for n, r in results.items():
        me = stats(r["self"])  # type: ignore[arg-type]
        came = stats(r["arrive_last"]) if r["last"] else (0.0, 0.0)  # type: ignore[arg-type]
        each = stats(r["each"]) if r["each"] else (0.0, 0.0)  # type: ignore[arg-type]
        last = stats(r["last"]) if r["last"] else (0.0, 0.0)  # type: ignore[arg-type]
        print(f"{n:<8}{me[0]:>8.0f} /{me[1]:>5.0f}{came[0]:>14.0f} /{came[1]:>5.0f}"
              f"{each[0]:>13.0f} /{each[1]:>5.0f}{last[0]:>12.0f} /{last[1]:>5.0f}"
              f"{r['cpu_ms']:>9.1f} ms")
    print(f"floor (1 device, tap -> number on A): p95 {floor[1]:.0f} ms. Added by propagation "
          "at p95 (slowest device on screen - floor): " + ", ".join(
              f"{n} devices {stats(r['last'])[1] - floor[1]:+.0f} ms"  # type: ignore[arg-type]
              for n, r in results.items() if r["last"]))
    print("'message in' = the slowest other device received the server's update; 'on screen' "
          "adds its own drawing (all pages share this machine's CPU).")
    print(f"clocks of the pages agree within "
          f"{max(r['skew_ms'] for r in results.values()):.2f} ms")  # type: ignore[type-var]


if __name__ == "__main__":
    main()
