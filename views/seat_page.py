"""A player's own screen at a table: their numbers, where their cards lie, what they are asked
to do now (or do at the table by hand, e.g. draw their cards), and only the buttons their seat
may use (`companion.table.access`), with the same controls the referee has for that player.
"""

import flet as ft

from companion.rules.legal import Legal
from companion.story.narrator_parts import card_ref
from companion.table.access import TableView
from models.message import N_, place
from models.state import PlayerState
from views.dashboard import on_relic_use
from views.effects import due_main, due_panel
from views.frame import frame, where_line
from views.language_picker import language_picker
from views.locations_panel import ENGLISH_WORDS, EnglishWords, position_line
from views.peek import peek_panel
from views.planning import planning_view
from views.setup_steps import setup_view
from views.state import AppState
from views.table_inputs import choice_panel, naming_panel, take_back_panel
from views.theme import (
    GOLD,
    MUTED,
    SMALL,
    SURFACE,
    SURFACE_HI,
    TEXT,
    button,
    card,
    heading,
    text,
)

TURN = {"play_card", "pass_turn", "drain", "pick_clan", "pick_relic"}

HEADLINES = {
    "turn": N_("Your turn"), "choose": N_("Choose Stay or Withdraw"),
    "name": N_("Name your face-down card"), "take_back": N_("Take Blood back?"),
    "effect": N_("Your card effect"), "none": N_("Nothing to do now"),
}
"""The seat's headline for what it has to do (English; shown with `app._`)."""


def by_hand(tv: TableView, app: AppState | EnglishWords | None = None) -> tuple[str, str] | None:
    """What the player does at the table now with their own cards while the app waits for the
    referee (headline, what to do), or None: Hand Building (§6) and Feed (§4); in `app`'s
    language (English without one)."""
    app = ENGLISH_WORDS if app is None else app
    s, me = tv.state, tv.role.player  # type: ignore[union-attr]
    if s.phase == "hand_building":
        draw, keep = (3, 2) if len(s.players) == 3 and s.round == 1 else (2, 1)
        return (app._("Draw your cards"),
                app._("Draw {draw} from your Clan deck, keep {keep} in hand and put the other at "
                      "the bottom of the deck. The referee ends Hand Building.", draw=draw,
                      keep=keep))
    if s.phase == "feed" and not s.players[me].eliminated:
        feed = sum(c.card.feed for c in s.players[me].alliance if not c.drained)
        return (app._("Feed"),
                app._("Take {feed} Blood from the Bank for your active Alliance cards (the "
                      "referee enters Feed).", feed=feed))
    return None


def to_do(view: TableView | None) -> str:
    """What the seat is asked to do now: turn, choose, name, take_back, effect or none."""
    if view is None:
        return "none"
    al = view.allowed
    if TURN & set(al.commands):
        return "turn"
    if al.choose:
        return "choose"
    named = view.naming.named if view.naming else {}
    if any(u not in named for u in al.name_cards):
        return "name"
    if al.take_back and view.take_back is not None and \
            not set(al.take_back) <= set(view.take_back.entered):
        return "take_back"
    if "resolve_effect" in al.commands:
        return "effect"
    return "none"


def _stat(label: str, value: int | str, color: str, identifier: str) -> ft.Control:
    return ft.Column([text(str(value), 30, bold=True, color=color, ident_=identifier),
                      ft.Text(label, size=SMALL, color=MUTED)], spacing=0,
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def _mine(legal: Legal, view: TableView) -> Legal:
    """The legal actions narrowed to this seat's own (for the shared phase forms)."""
    me = view.role.player  # type: ignore[union-attr]
    return legal.model_copy(update={
        "commands": list(view.allowed.commands),
        "due": [d for d in legal.due if d.owner == me],
        "peekers": [me] if me in legal.peekers else [],
    })


def on_leave_click(app: AppState, name: str) -> None:
    """Give the seat up (another phone may claim it with the seat's code), once confirmed."""
    app.ask(app._("Leave {name}'s seat?", name=name),
            app._("This phone stops being your seat. You can take it again with your seat's "
                  "code; until then the referee enters for you."),
            app._("Leave the seat"), app.leave)


def seat_view(app: AppState) -> list[ft.Control]:
    """The seat's screen."""
    tv = app.view
    assert tv is not None
    me = tv.role.player  # type: ignore[union-attr]
    s = tv.state
    p = s.players[me]
    now = to_do(tv)
    lit = now != "none"
    headline = app._(HEADLINES[now]) + ("!" if app.cue and lit else "")
    prompt = app.words(tv.allowed.prompt_message if lit else tv.prompt_message)
    hand = by_hand(tv, app) if not lit else None
    if hand is not None:
        headline, prompt = hand
    relic = "use_relic" in tv.allowed.commands
    where = tuple(app._("{place} — {cards}", place=place(s.locations[i].id),
                        cards=line.split(": ", 1)[-1])
                  for i in range(len(s.locations)) if (line := position_line(s, i, me, app=app)))
    others = tuple((i, q.name, q.blood, q.influence, q.eliminated)
                   for i, q in enumerate(s.players) if i != me)
    # Each part is kept as it is on screen while it shows the same (another device's action
    # changes one or two of them).
    body: list[ft.Control] = [
        app.memo("seat-banner", (headline, prompt, lit, app.cue),
                 lambda: _banner(headline, prompt, lit, app.cue)),
        app.memo("my-numbers", (me, p, relic), lambda: _numbers(app, me, p, relic))]
    body += _actions(app, tv, now)
    body.append(app.memo("my-cards", where, lambda: card(
        heading(app._("Where my cards lie"), 18),
        *[text(w, 16) for w in where] or [text(app._("No card deployed."), 15, color=MUTED)],
        ident_="my-cards")))
    body.append(app.memo("the-others", others, lambda: card(
        heading(app._("The others"), 18),
        *[text(app._("{name}: {blood} Blood · {influence} Influence · OUT", name=name,
                     blood=blood, influence=influence) if out
               else app._("{name}: {blood} Blood · {influence} Influence", name=name,
                          blood=blood, influence=influence),
               16, ident_=f"pool-{i}") for i, name, blood, influence, out in others],
        color=SURFACE_HI)))
    body.append(app.memo("leave", p.name, lambda: button(
        app._("Leave this seat"), lambda e: on_leave_click(app, p.name), primary=False,
        ident_="leave")))
    body.append(ft.Row([language_picker(app)], alignment=ft.MainAxisAlignment.END))
    return frame(app, app._("{name}'s seat", name=p.name), body, subtitle=where_line(s, app))


def _banner(headline: str, prompt: str, lit: bool, cue: bool) -> ft.Control:
    """What this seat has to do now: lit (gold) when it is its turn or choice."""
    return ft.Container(content=ft.Column([
        text(headline, 28 if lit else 22, bold=True, color="#1a0d00" if lit else TEXT,
             ident_="seat-state"),
        text(prompt, 17, color="#1a0d00" if lit else MUTED, ident_="seat-prompt")], spacing=4),
        bgcolor=GOLD if lit else SURFACE, border_radius=12, padding=14,
        border=ft.Border.all(4, TEXT) if cue and lit else None)


def _numbers(app: AppState, me: int, p: PlayerState, relic: bool) -> ft.Control:
    """This seat's Pool, Influence, Diablerie, hand size, Alliance and Relic."""
    stats = ft.Row([
        _stat(app._("Pool"), p.blood, "#ff5a6e", "my-blood"),
        _stat(app._("Influence"), p.influence, GOLD, "my-influence"),
        _stat(app._("Diablerie up/down"), f"{p.diablerie_up}/{p.diablerie_down}", TEXT,
              "my-diablerie"),
        _stat(app._("In hand"), p.hand_size, TEXT, "my-hand"),
    ], alignment=ft.MainAxisAlignment.SPACE_AROUND, wrap=True, spacing=16, run_spacing=8)
    alliance = [text(app._("Drained: {card} — {influence} Inf",
                           card=card_ref(c.card.id, c.card.name),
                           influence=c.card.drained_influence) if c.drained
                     else app._("Active: {card} — {influence} Inf, Feed {feed}, Drain +{drain}",
                                card=card_ref(c.card.id, c.card.name),
                                influence=c.card.influence, feed=c.card.feed,
                                drain=c.card.drain_blood),
                     15, color=MUTED if c.drained else TEXT) for c in p.alliance]
    mine: list[ft.Control] = [stats, text(app._("Alliance"), 16, bold=True), *alliance]
    if p.relic:
        relic_ref = card_ref(p.relic.id, p.relic.name)
        mine.append(text(app._("Relic: {card} ({influence} Inf, used)", card=relic_ref,
                               influence=p.relic.influence) if p.relic_used
                         else app._("Relic: {card} ({influence} Inf, unused)", card=relic_ref,
                                    influence=p.relic.influence), 15, color=GOLD))
        if relic:
            mine.append(button(app._("Use my Relic"), lambda e: on_relic_use(app, me),
                               primary=False, ident_="relic-use"))
    return card(*mine, ident_="my-numbers")


def _actions(app: AppState, tv: TableView, now: str) -> list[ft.Control]:
    """The forms for what this seat may do now."""
    legal = _mine(app.legal(), tv)
    al = tv.allowed
    out: list[ft.Control] = []
    if tv.state.phase == "game_over":
        return out
    if now == "turn":
        if tv.state.phase == "setup":
            out += setup_view(app, legal)
        elif tv.state.phase == "planning":
            out += planning_view(app, legal)
    out += choice_panel(app) if tv.withdraw is not None else []
    if al.name_cards:
        out += naming_panel(app)
    if al.take_back:
        out += take_back_panel(app)
    if "resolve_effect" in al.commands:
        out += due_panel(app, legal)
        first = due_main(app, legal)  # the panel says "apply it with the button below"
        if first is not None:
            out.append(first)
    if "peek" in al.commands:
        out += peek_panel(app, legal)
    return out
