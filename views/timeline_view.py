"""A reviewed game's story: sentences grouped round -> phase -> Location -> step."""

import flet as ft

from companion.rules.game import Game
from companion.story.review import TimelineGroup, timeline
from models.message import N_
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, SURFACE_HI, TEXT, button, ident, text, wrap


def review_draft(app: AppState) -> dict:
    """The review screen's choices (tab, round shown, cached timeline)."""
    d = app.draft("review")
    d.setdefault("tab", "score")
    d.setdefault("round", "all")
    return d


def groups_of(app: AppState, game: Game) -> list[TimelineGroup]:
    """The timeline in the device's language, computed once per opened game (and language)."""
    d = review_draft(app)
    key = (game.header.game_id, len(game.actions), app.lang)
    if d.get("timeline_key") != key:
        d["timeline_key"], d["timeline"] = key, timeline(game, app.t)
    return d["timeline"]


def _part(g: TimelineGroup) -> str:
    if g.phase == "setup" or (g.round == 0 and g.phase != "game_over"):
        return "setup"
    if g.phase == "game_over":
        return "end"
    return str(g.round)


PART_NAMES = {"all": N_("All"), "setup": N_("Setup"), "1": N_("Round 1"), "2": N_("Round 2"),
              "3": N_("Round 3"), "end": N_("End")}


def on_part_pick(app: AppState, part: str) -> None:
    """Show one round (or setup, the end, or all)."""
    review_draft(app)["round"] = part
    app.render()


def on_entry_open(app: AppState, action: int) -> None:
    """Replay the table as it stood right after this sentence's action."""
    app.review_at = action + 1
    review_draft(app)["tab"] = "replay"
    app.render()


def _entry_row(app: AppState, action: int, sentence: str, identifier: str) -> ft.Control:
    box = ft.Container(
        content=ft.Text(sentence, size=16, color=TEXT), bgcolor=SURFACE_HI, border_radius=8,
        padding=ft.Padding.symmetric(horizontal=12, vertical=14), ink=True,
        on_click=lambda e: on_entry_open(app, action))
    return ident(identifier, box, sentence)


def timeline_view(app: AppState, game: Game) -> list[ft.Control]:
    """Part chips, then each group's title and its sentences (tap one to see the table)."""
    d = review_draft(app)
    groups = groups_of(app, game)
    parts = [p for p in PART_NAMES if p == "all" or any(_part(g) == p for g in groups)]
    if d["round"] not in parts:
        d["round"] = "all"
    out: list[ft.Control] = [
        wrap(*[button(app._(PART_NAMES[p]), lambda e, p=p: on_part_pick(app, p), primary=False,
                      selected=d["round"] == p, ident_=f"tl-part-{p}") for p in parts],
             spacing=6),
        text(app._("Tap a line to see the table as it stood right after it."), 15,
             color=MUTED),
    ]
    shown_round = None
    for gi, g in enumerate(groups):
        if d["round"] != "all" and _part(g) != d["round"]:
            continue
        if d["round"] == "all" and g.round != shown_round and g.round and g.phase != "game_over":
            shown_round = g.round
            out.append(ident(f"tl-round-{g.round}", ft.Text(
                app._("Round {round}", round=g.round), size=22, weight=ft.FontWeight.BOLD,
                color=GOLD)))
        rows: list[ft.Control] = [text(g.title, 17, bold=True, color=GOLD,
                                       ident_=f"tl-group-{gi}")]
        rows += [_entry_row(app, e.action, e.text, f"tl-{gi}-{k}")
                 for k, e in enumerate(g.entries)]
        out.append(ft.Container(content=ft.Column(
            rows, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), bgcolor=SURFACE,
                                border_radius=12, padding=10))
    return out
