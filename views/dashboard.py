"""The table dashboard: every player's Pool, Diablerie, Alliance and Relic; order; Locations."""

import flet as ft

from companion.rules.legal import Legal
from companion.rules.queries import turn_order
from companion.story.narrator_parts import card_ref
from models.state import GameState, PlayerState
from views.effects import effect_form, effect_inputs
from views.locations_panel import locations_panel
from views.peek import peek_panel
from views.state import AppState
from views.theme import GOLD, MUTED, SMALL, SURFACE, TEXT, button, card, heading, text


def _stat(label: str, value: int, color: str, identifier: str | None) -> ft.Control:
    number = text(str(value), 28, bold=True, color=color, ident_=identifier)
    return ft.Column([number, ft.Text(label, size=SMALL, color=MUTED)], spacing=0,
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def on_relic_use(app: AppState, seat: int, card: str | None = None) -> None:
    """Flip a player's Relic once it is confirmed: it can be used once a game (§13); `card`:
    the drained card the restoring Relic makes active."""
    p = app.game.state.players[seat]
    said = app._("{relic} can be used once a game; it is flipped now and cannot be used again "
                 "(Undo takes it back).", relic=card_ref(p.relic.id, p.relic.name)) if p.relic \
        else app._("their Relic can be used once a game; it is flipped now and cannot be used "
                   "again (Undo takes it back).")
    app.ask(app._("Use {name}'s Relic?", name=p.name), said, app._("Use the Relic"),
            lambda: app.play({"type": "use_relic", "player": seat, "card": card}))


def _relic_buttons(app: AppState, p: PlayerState, seat: int, legal: Legal) -> list[ft.Control]:
    """'Use the Relic' only when the engine says its text allows it now (§13, §15)."""
    if seat not in legal.relic_users:
        return []
    cards = legal.relic_cards.get(seat)
    if not cards:
        return [button(app._("Use the Relic"), lambda e: on_relic_use(app, seat),
                       primary=False, ident_=f"relic-use-{seat}")]
    names = {c.uid: card_ref(c.card.id, c.card.name) for c in p.alliance}
    return [button(app._("Use the Relic: {card} active again", card=names[uid]),
                   lambda e, uid=uid: on_relic_use(app, seat, uid), primary=False,
                   ident_=f"relic-use-{seat}-{uid}") for uid in cards]


def player_panel(app: AppState, state: GameState, seat: int, p: PlayerState,
                 legal: Legal | None = None, ids: bool = True) -> ft.Control:
    """One player's numbers and Alliance (`legal`: the open game's legal actions, for its
    buttons; None when reviewing or on the board; `ids`: the numbers carry their stable ids,
    left off on the board beside a form)."""
    tags = [p.clan or app._("no clan yet")]
    if p.team:
        tags.append(p.team)
    if state.ambition == seat:
        tags.append(app._("Ambition"))
    if p.eliminated:
        tags.append(app._("OUT"))

    def stat(label: str, value: int, color: str, name: str) -> ft.Control:
        if not ids:
            return _stat(label, value, color, None)
        key = f"{name}-{seat}"  # a number that did not change is kept as it is on screen
        return app.memo(key, value, lambda: _stat(label, value, color, key))

    stats = ft.Row([
        stat(app._("Blood"), p.blood, "#ff5a6e", "blood"),
        stat(app._("Influence"), p.influence, GOLD, "infl"),
        stat(app._("Diablerie up"), p.diablerie_up, TEXT, "dia-up"),
        stat(app._("down"), p.diablerie_down, MUTED, "dia-down"),
    ], alignment=ft.MainAxisAlignment.SPACE_AROUND)
    alliance = []
    for c in p.alliance:
        a = c.card
        name = card_ref(a.id, a.name)
        if c.drained:
            alliance.append(text(app._("Drained: {card} — worth {n} Inf", card=name,
                                       n=a.drained_influence), 15, color=MUTED))
        else:
            alliance.append(text(app._("Active: {card} — {n} Inf, Feed {feed}, Drain +{drain}",
                                       card=name, n=a.influence, feed=a.feed,
                                       drain=a.drain_blood), 15))
    label = " · ".join(tags)

    def name_row() -> ft.Control:
        return ft.Row([text(p.name, 20, bold=True), text(label, 15, color=MUTED)], wrap=True)

    parts: list[ft.Control] = [
        app.memo(f"name-{seat}", (p.name, label), name_row) if ids else name_row(),
        stats, *alliance]
    if p.relic:
        relic = card_ref(p.relic.id, p.relic.name)
        said = app._("Relic: {card} ({n} Inf, used)", card=relic, n=p.relic.influence) \
            if p.relic_used else \
            app._("Relic: {card} ({n} Inf, unused)", card=relic, n=p.relic.influence)
        parts.append(text(said, 15, color=GOLD))
        if legal is not None:
            parts += _relic_buttons(app, p, seat, legal)
    return card(*parts, color=SURFACE, ident_=f"player-{seat}" if ids else None)


def dashboard_view(app: AppState, state: GameState | None = None) -> list[ft.Control]:
    """The whole table at a glance: the open game's, or `state` read-only (game review)."""
    live = state is None
    s = app.game.state if state is None else state
    order = turn_order(s)
    names = " · ".join(f"{k}. {s.players[p].name}" for k, p in enumerate(order, start=1))
    holder = s.players[s.ambition].name if s.ambition is not None else \
        app._("not chosen yet")
    out: list[ft.Control] = [app.memo("order", (holder, names), lambda: card(
        text(app._("Ambition: {holder}", holder=holder), 18, bold=True, color=GOLD,
             ident_="ambition"),
        text(app._("Turn order: {names}", names=names), 16),
        color="#241012"))]
    seats = order + [i for i in range(len(s.players)) if i not in order]
    legal = app.legal() if live else None
    panels = [app.memo(f"player-{seat}", _panel_inputs(s, seat, legal),
                       lambda seat=seat: _panel(app, s, seat, legal)) for seat in seats]
    out.append(ft.ResponsiveRow(panels, spacing=10, run_spacing=10))
    if s.round:
        out.append(app.memo("locations-heading", None, lambda: heading(app._("Locations"), 18)))
        names = tuple(p.name for p in s.players)
        out.append(app.memo("locations", (s.locations, names, tuple(order)), lambda: ft.Column(
            locations_panel(s, app=app), spacing=12,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH)))
    if legal is not None and s.phase not in ("setup", "game_over"):
        out += peek_panel(app, legal)
        out.append(app.memo("effect-form", effect_inputs(app), lambda: effect_form(app)[0]))
    return out


def board_view(app: AppState) -> list[ft.Control]:
    """The board beside the form on a wide screen: turn order, every player, the Locations
    (read only: the buttons are on the Table screen)."""
    s = app.game.state
    order = turn_order(s)
    seats = order + [i for i in range(len(s.players)) if i not in order]
    out: list[ft.Control] = [heading(app._("The table"), 20)]
    out += [player_panel(app, s, seat, s.players[seat], ids=False)
            for seat in seats]
    if s.round:
        out += locations_panel(s, compact=True, ids=False, app=app)
    return out


def _panel_inputs(s: GameState, seat: int, legal: Legal | None) -> tuple:
    """What a player's panel shows and its buttons use."""
    relic = None if legal is None else (seat in legal.relic_users, legal.relic_cards.get(seat))
    return seat, s.players[seat], s.ambition == seat, relic


def _panel(app: AppState, s: GameState, seat: int, legal: Legal | None) -> ft.Control:
    panel = player_panel(app, s, seat, s.players[seat], legal)
    panel.col = {"xs": 12, "md": 6}  # two columns on a tablet
    return panel
