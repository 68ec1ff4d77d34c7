"""Statistics across stored games: clans, players, Frenzy and Diablerie, the Prince's Haven;
filtered by date, player count and variants."""

import weakref
from concurrent.futures import Future
from datetime import UTC, date, datetime, timedelta

import flet as ft

from companion.library.library import Library
from companion.library.stats import Stats
from companion.rules.clock import length_text
from views.frame import frame
from views.pager import page_start, pager
from views.state import AppState
from views.theme import (
    GOLD,
    MUTED,
    SMALL,
    SURFACE_HI,
    TEXT,
    button,
    card,
    field,
    heading,
    ident,
    plural,
    text,
    wrap,
)

STATS_WAIT = 0.25
"""Seconds the screen waits for its figures before saying they are being counted (then it is
drawn again when they are: 100,000 games counted from nothing take seconds)."""
VARIANTS = (("relics", "Relics"), ("location_cards", "Location cards"), ("tag_team", "Tag team"))
PRESETS = (("all", "All time"), ("30", "Last 30 days"), ("365", "Last 12 months"))


def _draft(app: AppState) -> dict:
    d = app.draft("stats")
    for key, default in (("since", ""), ("until", ""), ("count", None), ("preset", "all"),
                         ("open", False), ("players", 0)):
        d.setdefault(key, default)
    d.setdefault("variants", {})
    return d


def parse_day(value: str, what: str) -> date | None:
    """A YYYY-MM-DD date typed by the user (empty: no bound).

    Raises:
        ValueError: not a date, with a message naming the field.
    """
    value = value.strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{what}: write the date as YYYY-MM-DD, e.g. 2024-03-01 "
                         f"(not \"{value}\").") from None


def filters(d: dict, today: date | None = None) -> dict:
    """The `compute` keyword arguments for the chosen filters.

    Raises:
        ValueError: a typed date is not YYYY-MM-DD.
    """
    since, until = parse_day(d["since"], "From"), parse_day(d["until"], "To")
    if d["preset"] != "all" and not (since or until):
        since = (today or datetime.now(UTC).date()) - timedelta(days=int(d["preset"]))
    if since and until and since > until:
        raise ValueError("From is after To: swap the dates.")
    return {"since": since, "until": until, "player_count": d["count"],
            "variants": dict(d["variants"]) or None}


def on_preset_pick(app: AppState, preset: str) -> None:
    """All time, or the last N days (clears typed dates)."""
    d = _draft(app)
    d.update(preset=preset, since="", until="")
    app.render()


def on_date_change(app: AppState, key: str, value: str) -> None:
    """A typed From/To date (applied with the Apply button)."""
    _draft(app)[key] = value


def on_dates_apply(app: AppState) -> None:
    """Use the typed dates."""
    _draft(app)["preset"] = "all"
    app.render()


def on_count_pick(app: AppState, count: int | None) -> None:
    """Only games with this many players (None: any)."""
    _draft(app)["count"] = count
    app.render()


def on_variant_pick(app: AppState, key: str, wanted: bool | None) -> None:
    """Only games with (True) or without (False) a variant; None: either."""
    v = _draft(app)["variants"]
    v.pop(key, None) if wanted is None else v.__setitem__(key, wanted)
    app.render()


def on_filters_toggle(app: AppState) -> None:
    """Show or hide the filters."""
    d = _draft(app)
    d["open"] = not d["open"]
    app.render()


def describe_filters(d: dict) -> str:
    """'All time · 4 players · with Relics', in words."""
    if d["since"] or d["until"]:
        when = f"{d['since'] or 'the first game'} to {d['until'] or 'today'}"
    else:
        when = dict(PRESETS)[d["preset"]]
    parts = [when, f"{d['count']} players" if d["count"] else "any number of players"]
    for key, label in VARIANTS:
        if key in d["variants"]:
            parts.append(f"{'with' if d['variants'][key] else 'without'} {label}")
    return " · ".join(parts)


def _pct(rate: float) -> str:
    return f"{round(rate * 100)}%"


def _cells(values: list[str], widths: list[int | None], bold: bool = False,
           color: str = TEXT) -> ft.Control:
    return ft.Row([ft.Text(v, size=SMALL if not bold else 14, color=color, width=w,
                           expand=w is None, weight=ft.FontWeight.BOLD if bold else None,
                           text_align=ft.TextAlign.RIGHT if w else None)
                   for v, w in zip(values, widths, strict=True)], spacing=4)


def data_table(headers: list[str], rows: list[list[str]], ids: list[str] | None = None,
               *, numeric_from: int = 1) -> ft.Control:
    """A table with column headers (a screen reader says each cell's column); it scrolls
    sideways when a phone or large text is too narrow for it. Columns from `numeric_from` on
    are numbers (right-aligned)."""
    def cell(value: str, k: int) -> ft.DataCell:
        return ft.DataCell(ft.Text(value, size=SMALL, color=TEXT))
    table = ft.DataTable(
        columns=[ft.DataColumn(ft.Text(h, size=14, weight=ft.FontWeight.BOLD, color=MUTED),
                               numeric=k >= numeric_from) for k, h in enumerate(headers)],
        rows=[ft.DataRow(cells=[cell(v, k) for k, v in enumerate(row)]) for row in rows],
        column_spacing=14, horizontal_margin=4, heading_row_height=40, data_row_min_height=40,
        data_row_max_height=float("inf"), divider_thickness=0.5)
    if ids is not None:
        for row, identifier in zip(table.rows, ids, strict=True):
            row.cells[0].content = ident(identifier, row.cells[0].content)
    return ft.Row([table], scroll=ft.ScrollMode.AUTO)


def clan_table(stats: Stats) -> ft.Control:
    """Win rate and average final Influence by clan, best first, as a table with headers."""
    rows = [[c.clan, str(c.games), str(c.wins), _pct(c.win_rate), f"{c.average_influence:.1f}"]
            for c in stats.clans]
    return card(heading("Clans", 19),
                data_table(["Clan", "Games", "Wins", "Win %", "Average Influence"], rows,
                           [f"clan-row-{c.clan}" for c in stats.clans]),
                ident_="stats-clans")


PLAYERS_SHOWN = 10
"""Player panels on one page (most wins first; the others a page away): the list must not
grow with the history."""


def on_players_turn(app: AppState, step: int) -> None:
    """The next (+1) or previous (-1) page of players."""
    d = _draft(app)
    d["players"] = max(0, d["players"] + step * PLAYERS_SHOWN)
    app.render()


def player_cards(app: AppState, stats: Stats) -> list[ft.Control]:
    """One page of player panels (most wins first): games, wins, average and best Influence,
    nemesis; numbered by rank."""
    d = _draft(app)
    total = len(stats.players)
    start = d["players"] = page_start(d["players"], PLAYERS_SHOWN, total)
    page = stats.players[start:start + PLAYERS_SHOWN]
    out: list[ft.Control] = [heading("Players", 19)]
    for k, p in enumerate(page, start=start):
        nemesis = (f"Nemesis: {p.nemesis} (won {p.nemesis_wins} of the games {p.name} lost)"
                   if p.nemesis else "Nemesis: nobody yet")
        out.append(card(
            ft.Row([text(f"{k + 1}. {p.name}", 19, bold=True),
                    text(f"{p.wins} / {p.games} won", 17, bold=True, color=GOLD)],
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            text(f"{plural(p.games, 'game', 'games')} · {plural(p.wins, 'win', 'wins')} "
                 f"({_pct(p.win_rate)}) · average "
                 f"{p.average_influence:.1f} Influence · best {p.best_influence}", 15,
                 ident_=f"player-stats-{k}"),
            text(nemesis, SMALL, color=MUTED, ident_=f"nemesis-{k}"), color=SURFACE_HI))
    return out + pager("players", start, len(page), total,
                       lambda step: on_players_turn(app, step), "Previous", "Next")


def _filters_panel(app: AppState, d: dict) -> ft.Control:
    presets = wrap(*[button(label, lambda e, p=p: on_preset_pick(app, p), primary=False,
                            selected=d["preset"] == p and not (d["since"] or d["until"]),
                            ident_=f"stats-preset-{p}") for p, label in PRESETS], spacing=6)
    boxes = [field(label, d[key], lambda v, k=key: on_date_change(app, k, v),
                   ident_=f"stats-{key}", expand=True)
             for key, label in (("since", "From"), ("until", "To"))]
    for box in boxes:
        box.content.hint_text = "YYYY-MM-DD"  # type: ignore[attr-defined]
    dates = ft.Row(boxes, spacing=6)
    counts = wrap(*[button("Any" if n is None else str(n),
                           lambda e, n=n: on_count_pick(app, n), primary=False,
                           selected=d["count"] == n, width=64 if n else 80,
                           ident_=f"stats-count-{n or 'any'}") for n in (None, 3, 4, 5, 6)],
                  spacing=6)
    variants = []
    for key, label in VARIANTS:
        now = d["variants"].get(key)
        variants.append(ft.Column([text(label, SMALL, color=MUTED), wrap(*[
            button(name, lambda e, k=key, w=w: on_variant_pick(app, k, w), primary=False,
                   selected=now is w, ident_=f"stats-{key}-{tag}")
            for w, name, tag in ((None, "Either", "any"), (True, "With", "on"),
                                 (False, "Without", "off"))], spacing=6)], spacing=4))
    return card(presets, text("Or type dates as YYYY-MM-DD (either may stay empty):", 15,
                              color=MUTED), dates,
                button("Apply dates", lambda e: on_dates_apply(app), primary=False,
                       ident_="stats-apply"),
                text("Players at the table", SMALL, color=MUTED), counts, *variants)


def figures(app: AppState, history: Library, kwargs: dict) -> Stats | None:
    """The figures for these filters, or None while they are being counted: the screen is
    drawn again when they are ready (a page that cannot be drawn from another thread waits)."""
    if app.later is None:
        return history.stats(**kwargs)
    future = history.stats_future(**kwargs)
    try:
        return future.result(timeout=STATS_WAIT)
    except TimeoutError:
        pass
    d = _draft(app)
    if d.get("counting") is not future:
        d["counting"] = future
        future.add_done_callback(lambda f: app.later(lambda: on_stats_counted(app, f)))
    return None


def on_stats_counted(app: AppState, future: Future) -> None:
    """The figures the screen waited for are ready: show them if it still waits for them."""
    d = _draft(app)
    if d.get("counting") is future:
        d.pop("counting")
        if app.screen == "stats":
            app.render(keep_news=True)


def counting_card(history: Library) -> ft.Control:
    """Said while the figures are being counted."""
    games = history.store.count_games(finished=True)
    return card(ft.Row([ft.ProgressRing(width=22, height=22, stroke_width=3),
                        ft.Container(text(
                            f"Counting {plural(games, 'finished game', 'finished games')}…",
                            20, bold=True, color=GOLD, ident_="stats-counting"), expand=True)],
                       spacing=12),
                text("The figures appear here when they are counted (only the first time: "
                     "they are kept); other screens work meanwhile.", 16, color=MUTED),
                color="#241012")


def figure_cards(app: AppState, stats: Stats) -> list[ft.Control]:
    """The figures: the summary, then clans and players (or why there are none)."""
    summary = card(
        text(f"{plural(stats.games, 'finished game', 'finished games')} counted", 20,
             bold=True, color=GOLD,
             ident_="stats-games"),
        text(f"Frenzies per game: {stats.frenzies_per_game:.2f}", 17, ident_="stats-frenzies"),
        text(f"Diablerie tokens per game (held at the end): {stats.diablerie_per_game:.2f}",
             17, ident_="stats-diablerie"),
        *[text(f"Average length with {n.player_count} players: "
               f"{length_text(round(n.average_seconds))} "
               f"({plural(n.games, 'timed game', 'timed games')})", 16,
               ident_=f"stats-length-{n.player_count}") for n in stats.lengths],
        *[text(f"Round {h.round}: the Prince's Haven winner won the game "
               f"{h.wins} of {h.games} times ({_pct(h.rate)})" if h.games else
               f"Round {h.round}: nobody won the Prince's Haven", 16,
               ident_=f"stats-haven-{h.round}") for h in stats.haven],
        color="#241012")
    if stats.games:
        return [summary, clan_table(stats), *player_cards(app, stats)]
    return [summary, text("No finished game matches these filters.", 17, color=MUTED,
                          ident_="stats-empty")]


PAD_GAMES = (("heritage", "Heritage", "Player", "Clan"),
             ("bloodfeud", "Blood Feud", "Team", "Faction"))
"""The other games of the family: kind, name, who wins, and what they play."""
_PAD_PARTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Per store: per kind, the totals of each chunk of finished games (by its stamp)."""


def pad_figures(history: Library, kind: str) -> dict:
    """`Library.pad_stats(kind)`, counting again only the chunks of the history that changed
    since last asked (a long history is not read again on every visit)."""
    from companion.library.pad_kinds import pad_totals

    store = history.store
    try:
        kept = _PAD_PARTS.setdefault(store, {}).get(kind, {})
    except TypeError:  # a store that cannot be kept track of
        return history.pad_stats(kind)
    parts = {stamp: kept.get(stamp) or pad_totals(read(), kind)
             for stamp, read in store.summary_chunks(finished=True)}
    _PAD_PARTS[store][kind] = parts
    total: dict = {"games": 0, "players": {}, "clans": {}}
    for part in parts.values():
        total["games"] += part["games"]
        for table in ("players", "clans"):
            for name, (played, won) in part[table].items():
                counts = total[table].setdefault(name, [0, 0])
                counts[0] += played
                counts[1] += won
    return total


def _wins(title: str, counts: dict[str, list[int]], prefix: str) -> ft.Control:
    """Games and wins of each name, most wins first (the first rows: the list must not grow
    with the history)."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))
    ranked = ranked[:PLAYERS_SHOWN * 2]
    return data_table([title, "Games", "Wins"],
                      [[name, str(played), str(won)] for name, (played, won) in ranked],
                      [f"{prefix}-{k}" for k in range(len(ranked))])


def pad_cards(history: Library) -> list[ft.Control]:
    """A card per other game of the family with finished games: games counted, and wins per
    player (team) and per clan (faction). A tie counts a win for each tied team."""
    out: list[ft.Control] = []
    for kind, name, who, what in PAD_GAMES:
        figures_ = pad_figures(history, kind)
        if not figures_["games"]:
            continue
        out.append(card(
            heading(name, 19),
            text(f"{plural(figures_['games'], 'finished game', 'finished games')} counted "
                 "(all time)", 17, bold=True, color=GOLD, ident_=f"stats-{kind}-games"),
            _wins(who, figures_["players"], f"stats-{kind}-player"),
            _wins(what, figures_["clans"], f"stats-{kind}-clan"),
            ident_=f"stats-{kind}"))
    return out


def stats_view(app: AppState) -> list[ft.Control]:
    """Filters, then the figures for the games they keep."""
    d = _draft(app)
    try:
        kwargs = filters(d)
        app.error = None
    except ValueError as err:
        app.error = str(err)
        d["open"] = True
        kwargs = filters({**d, "since": "", "until": ""})
    body: list[ft.Control] = [card(
        text(f"Games: {describe_filters(d)}", 16, ident_="stats-filter-line"),
        button("Hide filters" if d["open"] else "Change filters",
               lambda e: on_filters_toggle(app), primary=False, ident_="stats-filters"))]
    if d["open"]:
        body.append(_filters_panel(app, d))
    history = app.library  # the hub's: one cache
    stats = figures(app, history, kwargs)
    body += [counting_card(history)] if stats is None else figure_cards(app, stats)
    body += pad_cards(history)
    return frame(app, "Statistics", body, subtitle="Across your finished games")
