"""The table dashboard: every player's Pool, Diablerie, Alliance and Relic; order; Locations."""

import flet as ft

from companion.rules import turn_order
from models.state import GameState, PlayerState
from views.effects import effect_form
from views.locations_panel import locations_panel
from views.peek import peek_panel
from views.state import AppState
from views.theme import GOLD, MUTED, SURFACE, TEXT, button, card, heading, text


def _stat(label: str, value: int, color: str, identifier: str) -> ft.Control:
    return ft.Column([
        text(str(value), 28, bold=True, color=color, ident_=identifier),
        ft.Text(label, size=13, color=MUTED)], spacing=0,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def on_relic_use(app: AppState, seat: int) -> None:
    """Flip a player's Relic (its effect is applied by hand or by the engine)."""
    app.play({"type": "use_relic", "player": seat})


def player_panel(app: AppState, state: GameState, seat: int, p: PlayerState,
                 live: bool = True) -> ft.Control:
    """One player's numbers and Alliance (`live`: the open game, with its buttons)."""
    tags = [p.clan or "no clan yet"]
    if p.team:
        tags.append(p.team)
    if state.ambition == seat:
        tags.append("Ambition")
    if p.eliminated:
        tags.append("OUT")
    stats = ft.Row([
        _stat("Blood", p.blood, "#ff5a6e", f"blood-{seat}"),
        _stat("Influence", p.influence, GOLD, f"infl-{seat}"),
        _stat("Diablerie up", p.diablerie_up, TEXT, f"dia-up-{seat}"),
        _stat("down", p.diablerie_down, MUTED, f"dia-down-{seat}"),
    ], alignment=ft.MainAxisAlignment.SPACE_AROUND)
    alliance = []
    for c in p.alliance:
        a = c.card
        if c.drained:
            alliance.append(text(f"Drained: {a.name} — worth {a.drained_influence} Inf", 15,
                                 color=MUTED))
        else:
            alliance.append(text(f"Active: {a.name} — {a.influence} Inf, Feed {a.feed}, "
                                 f"Drain +{a.drain_blood}", 15))
    parts: list[ft.Control] = [
        ft.Row([text(p.name, 20, bold=True), text(" · ".join(tags), 15, color=MUTED)],
               wrap=True),
        stats, *alliance]
    if p.relic:
        state_txt = "used" if p.relic_used else "unused"
        parts.append(text(f"Relic: {p.relic.name} ({p.relic.influence} Inf, {state_txt})", 15,
                          color=GOLD))
        if live and not p.relic_used and state.phase not in ("setup", "game_over"):
            parts.append(button("Use the Relic", lambda e: on_relic_use(app, seat),
                                primary=False, ident_=f"relic-use-{seat}"))
    return card(*parts, color=SURFACE, ident_=f"player-{seat}")


def dashboard_view(app: AppState, state: GameState | None = None) -> list[ft.Control]:
    """The whole table at a glance: the open game's, or `state` read-only (game review)."""
    live = state is None
    s = app.game.state if state is None else state
    order = turn_order(s)
    names = " · ".join(f"{k}. {s.players[p].name}" for k, p in enumerate(order, start=1))
    holder = s.players[s.ambition].name if s.ambition is not None else "not chosen yet"
    out: list[ft.Control] = [card(
        text(f"Ambition: {holder}", 18, bold=True, color=GOLD, ident_="ambition"),
        text(f"Turn order: {names}", 16),
        color="#241012")]
    seats = order + [i for i in range(len(s.players)) if i not in order]
    panels = [player_panel(app, s, seat, s.players[seat], live) for seat in seats]
    for panel in panels:
        panel.col = {"xs": 12, "md": 6}  # two columns on a tablet
    out.append(ft.ResponsiveRow(panels, spacing=10, run_spacing=10))
    if s.round:
        out.append(heading("Locations", 18))
        out += locations_panel(s)
    if live and s.phase not in ("setup", "game_over"):
        out += peek_panel(app, app.legal())
        out += effect_form(app)
    return out
