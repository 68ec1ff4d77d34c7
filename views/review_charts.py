"""Charts of a reviewed game (flet-charts): Influence and Blood across it, Power per Conflict.

Charts draw no accessibility nodes, so each chart sits in a Semantics wrapper with a stable id
and comes with a short text summary; tests read the chart's data from the control itself.
Colour is never the only cue: each player's line has its own dash pattern and marker shape
(at each round's start and at the end), the key shows both, and the values at the end are
written out beside the chart.
"""

import flet as ft
import flet_charts as fch

from companion.story.review import ConflictPower, Series
from models.message import N_
from views.state import AppState
from views.theme import MUTED, SURFACE, TEXT, card, heading, ident, player_color, text

GRID = "#3a2a2d"


def _axis_label(value: float, label: str) -> fch.ChartAxisLabel:
    return fch.ChartAxisLabel(value=value, label=ft.Text(label, size=12, color=MUTED))


def round_marks(series: Series, app: AppState | None = None) -> list[tuple[int, str]]:
    """(x, label) at the start, at each round's first point, and at the end; a label too
    close to the next one is left out. With `app`, the labels in its device's language."""
    marks = [(0, "Start")]
    seen = set()
    for x, label in enumerate(series.labels):
        if label.startswith("R") and " " in label:
            rnd = label.split(" ", 1)[0]
            if rnd not in seen:
                seen.add(rnd)
                if x:
                    marks.append((x, rnd))
    last = len(series.labels) - 1
    if last > 0 and all(m[0] != last for m in marks):
        marks.append((last, "End"))
    near = max(3, last // 10)  # labels closer than this would print on top of each other
    if len(marks) > 1 and marks[1][0] < near:
        marks.pop(0)  # round 1 starts right after setup: its label stands for the start
    if len(marks) > 1 and last - marks[-2][0] < near and marks[-1][1] == "End":
        marks.pop()
    return marks if app is None else [(x, _mark_label(app, label)) for x, label in marks]


def _mark_label(app: AppState, label: str) -> str:
    """'Start', 'R2', 'End' in the device's language."""
    if label == "Start":
        return app._("Start")
    if label == "End":
        return app._("End")
    number = label.removeprefix("R")
    return app._("R{round}", round=int(number)) if number.isdigit() else label


MARKERS = [(N_("circle"), ft.Icons.CIRCLE), (N_("square"), ft.Icons.SQUARE),
           (N_("cross"), ft.Icons.CLOSE), (N_("ring"), ft.Icons.RADIO_BUTTON_UNCHECKED),
           (N_("box"), ft.Icons.CROP_SQUARE), (N_("big cross"), ft.Icons.CLOSE)]
"""Each seat's marker shape (its name, and its icon in the key)."""
PATTERNS = {"solid": N_("{shape}, solid line"), "dashed": N_("{shape}, dashed line"),
            "dotted": N_("{shape}, dotted line"), "dash-dot": N_("{shape}, dash-dot line")}
"""What the key says of a marker and its line pattern (a screen reader's label)."""
DASHES: list[list[int] | None] = [None, [10, 5], [3, 4], [12, 4, 3, 4], [6, 6], [2, 8]]
"""Each seat's line pattern: solid, dashed, dotted, dash-dot…"""


def marker(seat: int) -> fch.ChartPointShape:
    """The chart marker of a seat (its shape in the key too)."""
    color = player_color(seat)
    shape = MARKERS[seat % len(MARKERS)][0]
    if shape == "circle":
        return fch.ChartCirclePoint(color=color, radius=5)
    if shape == "square":
        return fch.ChartSquarePoint(color=color, size=9)
    if shape == "ring":
        return fch.ChartCirclePoint(color=SURFACE, radius=5, stroke_color=color, stroke_width=2)
    if shape == "box":
        return fch.ChartSquarePoint(color=SURFACE, size=9, stroke_color=color, stroke_width=2)
    return fch.ChartCrossPoint(color=color, size=12 if shape == "cross" else 16, width=3)


def legend(app: AppState, names: list[str], seats: list[int] | None = None) -> ft.Control:
    """Each player's marker shape and line pattern in their colour, and their name (the
    charts' key: told apart without colour too); `seats`: whose names (default: seat order)."""
    def key(i: int, name: str) -> ft.Control:
        shape, icon = MARKERS[i % len(MARKERS)]
        dash = DASHES[i % len(DASHES)]
        pattern = "solid" if dash is None else "dashed" if dash[0] >= 6 and len(dash) == 2 \
            else "dotted" if len(dash) == 2 else "dash-dot"
        return ft.Row([ft.Icon(icon, color=player_color(i), size=16,
                               semantics_label=app._(PATTERNS[pattern], shape=app._(shape))),
                       ft.Text(name, size=15, color=TEXT)], spacing=6, tight=True)
    order = seats if seats is not None else list(range(len(names)))
    return ft.Row([key(i, n) for i, n in zip(order, names, strict=True)], wrap=True,
                  spacing=14, run_spacing=6)


def line_chart(app: AppState, series: Series, what: str, identifier: str) -> ft.Control:
    """One line per player across the game; x is the number of actions played."""
    top = max((max(v) for v in series.values.values() if v), default=0)
    step = 5 if top > 12 else 2
    marks = {x for x, _ in round_marks(series)} | {len(series.labels) - 1}
    chart = fch.LineChart(
        data_series=[fch.LineChartData(
            points=[fch.LineChartDataPoint(x=x, y=y, tooltip=f"{name} {y}",
                                           point=marker(seat) if x in marks else False)
                    for x, y in enumerate(values)],
            color=player_color(seat), stroke_width=3, curved=False,
            dash_pattern=DASHES[seat % len(DASHES)])
            for seat, (name, values) in enumerate(series.values.items())],
        min_x=0, max_x=max(len(series.labels) - 1, 1), min_y=0, max_y=top + 1,
        left_axis=fch.ChartAxis(label_size=30, labels=[
            _axis_label(v, str(v)) for v in range(0, top + 2, step)]),
        bottom_axis=fch.ChartAxis(label_size=24, label_spacing=1, labels=[
            _axis_label(x, lab) for x, lab in round_marks(series, app)]),
        horizontal_grid_lines=fch.ChartGridLines(interval=step, color=GRID, width=1),
        vertical_grid_lines=fch.ChartGridLines(interval=max(len(series.labels), 1), color=GRID,
                                               width=1),
        bgcolor=SURFACE, height=240, interactive=True, expand=False,
    )
    final = ", ".join(f"{n} {v[-1]}" for n, v in series.values.items() if v)
    return card(heading(what, 18),
                ident(identifier, chart, app._("Chart of {what}", what=what)),
                legend(app, series.players),
                text(app._("At the end: {values}", values=final), 15, color=MUTED,
                     ident_=f"{identifier}-end"))


def _short(app: AppState, location: str) -> str:
    return app._("Haven") if location == "haven" else f"#{location}"


def power_chart(app: AppState, conflicts: list[ConflictPower], rnd: int) -> ft.Control:
    """Bars of each player's total Power at each Location resolved in one round."""
    these = [c for c in conflicts if c.round == rnd]
    top = max((p.total for c in these for p in c.players), default=0)
    chart = fch.BarChart(
        groups=[fch.BarChartGroup(x=k, spacing=3, rods=[
            fch.BarChartRod(from_y=0, to_y=p.total, width=12, color=player_color(p.player),
                            border_radius=3, tooltip=f"{p.name} {p.total}")
            for p in c.players]) for k, c in enumerate(these)],
        bottom_axis=fch.ChartAxis(label_size=24, labels=[
            _axis_label(k, _short(app, c.location)) for k, c in enumerate(these)]),
        left_axis=fch.ChartAxis(label_size=30, labels=[
            _axis_label(v, str(v)) for v in range(0, top + 2, 5 if top > 12 else 2)]),
        horizontal_grid_lines=fch.ChartGridLines(interval=5 if top > 12 else 2, color=GRID,
                                                 width=1),
        min_y=0, max_y=top + 1, bgcolor=SURFACE, height=200, interactive=True,
    )
    present = sorted({p.player: p.name for c in these for p in c.players}.items())
    lines: list[ft.Control] = [legend(app, [name for _, name in present],
                                      [seat for seat, _ in present])]
    for k, c in enumerate(these):
        where = _short(app, c.location)
        if c.outcome == "no_cards":
            line = app._("{place}: nobody had clan cards", place=where)
        else:
            line = app._("{place}: {powers}", place=where,
                         powers=", ".join(f"{p.name} {p.total}" for p in c.players))
        lines.append(text(line, 15, color=MUTED, ident_=f"power-line-{rnd}-{k}"))
    return card(heading(app._("Power at each Conflict, round {round}", round=rnd), 18),
                ident(f"chart-power-{rnd}", chart, app._("Power in round {round}", round=rnd)),
                *lines)
