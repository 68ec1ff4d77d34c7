"""Statistics across stored games: clans, players, Frenzy and Diablerie, the Prince's Haven;
filtered by date, player count and variants."""

from concurrent.futures import Future
from datetime import UTC, date, datetime, timedelta

import flet as ft

from companion.library.library import Library
from companion.library.stats import Stats
from models.message import N_
from views.frame import frame
from views.locations_panel import ENGLISH_WORDS, EnglishWords
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
    text,
    wrap,
)

STATS_WAIT = 0.25
"""Seconds the screen waits for its figures before saying they are being counted (then it is
drawn again when they are: 100,000 games counted from nothing take seconds)."""
VARIANTS = (("relics", N_("Relics")), ("location_cards", N_("Location cards")),
            ("tag_team", N_("Tag team")))
PRESETS = (("all", N_("All time")), ("30", N_("Last 30 days")), ("365", N_("Last 12 months")))


def _draft(app: AppState) -> dict:
    d = app.draft("stats")
    for key, default in (("since", ""), ("until", ""), ("count", None), ("preset", "all"),
                         ("open", False), ("players", 0)):
        d.setdefault(key, default)
    d.setdefault("variants", {})
    return d


def parse_day(value: str, what: str,
              app: AppState | EnglishWords | None = None) -> date | None:
    """A YYYY-MM-DD date typed by the user (empty: no bound).

    Raises:
        ValueError: not a date, with a message naming the field (in `app`'s language).
    """
    app = ENGLISH_WORDS if app is None else app
    value = value.strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(app._("{field}: write the date as YYYY-MM-DD, e.g. 2024-03-01 "
                               "(not \"{value}\").", field=what, value=value)) from None


def filters(d: dict, today: date | None = None,
            app: AppState | EnglishWords | None = None) -> dict:
    """The `compute` keyword arguments for the chosen filters.

    Raises:
        ValueError: a typed date is not YYYY-MM-DD (said in `app`'s language).
    """
    app = ENGLISH_WORDS if app is None else app
    since = parse_day(d["since"], app._("From"), app)
    until = parse_day(d["until"], app._("To"), app)
    if d["preset"] != "all" and not (since or until):
        since = (today or datetime.now(UTC).date()) - timedelta(days=int(d["preset"]))
    if since and until and since > until:
        raise ValueError(app._("From is after To: swap the dates."))
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


def describe_filters(d: dict, app: AppState | EnglishWords | None = None) -> str:
    """'All time · 4 players · with Relics', in words (in `app`'s language)."""
    app = ENGLISH_WORDS if app is None else app
    since, until = d["since"], d["until"]
    if since and until:
        when = app._("{since} to {until}", since=since, until=until)
    elif since:
        when = app._("{since} to today", since=since)
    elif until:
        when = app._("the first game to {until}", until=until)
    else:
        when = app._(dict(PRESETS)[d["preset"]])
    parts = [when, app._("{n} players", n=d["count"]) if d["count"]
             else app._("any number of players")]
    for key, label in VARIANTS:
        if key in d["variants"]:
            parts.append(app._("with {variant}", variant=app._(label)) if d["variants"][key]
                         else app._("without {variant}", variant=app._(label)))
    return " · ".join(parts)


def _pct(rate: float, app: AppState | EnglishWords | None = None) -> str:
    app = ENGLISH_WORDS if app is None else app
    return app._("{percent}%", percent=round(rate * 100))


def _fixed(app: AppState | EnglishWords, value: float, digits: int) -> str:
    """A figure with `digits` decimals ('7.0'), written the language's way."""
    return f"{value:.{digits}f}" if app.t.english else app.t.number(round(value, digits))


def _length(app: AppState, seconds: int) -> str:
    """'45 min', '1 h 05 min' (rounded to the minute; under a minute: '< 1 min')."""
    minutes = round(max(0, seconds) / 60)
    if minutes == 0:
        return app._("< 1 min")
    h, m = divmod(minutes, 60)
    return app._("{h} h {m} min", h=h, m=f"{m:02d}") if h else app._("{m} min", m=m)


def _cells(values: list[str], widths: list[int | None], bold: bool = False,
           color: str = TEXT) -> ft.Control:
    return ft.Row([ft.Text(v, size=SMALL if not bold else 14, color=color, width=w,
                           expand=w is None, weight=ft.FontWeight.BOLD if bold else None,
                           text_align=ft.TextAlign.RIGHT if w else None)
                   for v, w in zip(values, widths, strict=True)], spacing=4)


def data_table(headers: list[str | tuple[str, str]], rows: list[list[str]],
               ids: list[str] | None = None, *, numeric_from: int = 1) -> ft.Control:
    """A table with column headers (a screen reader names each cell's column; a header given
    as (shown, said) is shown short and said in full); it scrolls sideways when a phone or
    large text is too narrow for it. Columns from `numeric_from` on are numbers."""
    heads = [h if isinstance(h, tuple) else (h, h) for h in headers]
    table = ft.DataTable(
        columns=[ft.DataColumn(ft.Text(shown, size=14, weight=ft.FontWeight.BOLD, color=MUTED,
                                       semantics_label=said if said != shown else None),
                               numeric=k >= numeric_from)
                 for k, (shown, said) in enumerate(heads)],
        rows=[ft.DataRow(cells=[ft.DataCell(ft.Text(v, size=SMALL, color=TEXT)) for v in row])
              for row in rows],
        column_spacing=12, horizontal_margin=4, heading_row_height=40, data_row_min_height=40,
        data_row_max_height=float("inf"), divider_thickness=0.5)
    if ids is not None:
        for row, identifier in zip(table.rows, ids, strict=True):
            row.cells[0].content = ident(identifier, row.cells[0].content)
    return ft.Row([table], scroll=ft.ScrollMode.AUTO)


def clan_table(stats: Stats, app: AppState | EnglishWords | None = None) -> ft.Control:
    """Win rate and average final Influence by clan, best first, as a table with headers."""
    app = ENGLISH_WORDS if app is None else app
    rows = [[c.clan, app.t.number(c.games), app.t.number(c.wins), _pct(c.win_rate, app),
             _fixed(app, c.average_influence, 1)]
            for c in stats.clans]
    return card(heading(app._("Clans"), 19),
                data_table([app._("Clan"), app._("Games"), app._("Wins"), app._("Win %"),
                            app._("Average Influence")], rows,
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
    out: list[ft.Control] = [heading(app._("Players"), 19)]
    for k, p in enumerate(page, start=start):
        nemesis = (app._("Nemesis: {nemesis} (won {n} of the games {name} lost)",
                         nemesis=p.nemesis, n=p.nemesis_wins, name=p.name)
                   if p.nemesis else app._("Nemesis: nobody yet"))
        games = app.n_("{n} game", "{n} games", p.games)
        wins = app.n_("{n} win", "{n} wins", p.wins)
        out.append(card(
            ft.Row([text(f"{k + 1}. {p.name}", 19, bold=True),
                    text(app._("{wins} / {games} won", wins=p.wins, games=p.games), 17,
                         bold=True, color=GOLD)],
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            text(app._("{games} · {wins} ({percent}) · average {average} Influence · best "
                       "{best}", games=games, wins=wins, percent=_pct(p.win_rate, app),
                       average=_fixed(app, p.average_influence, 1),
                       best=p.best_influence), 15,
                 ident_=f"player-stats-{k}"),
            text(nemesis, SMALL, color=MUTED, ident_=f"nemesis-{k}"), color=SURFACE_HI))
    return out + pager("players", start, len(page), total,
                       lambda step: on_players_turn(app, step), app._("Previous"),
                       app._("Next"), app=app)


def _filters_panel(app: AppState, d: dict) -> ft.Control:
    presets = wrap(*[button(app._(label), lambda e, p=p: on_preset_pick(app, p), primary=False,
                            selected=d["preset"] == p and not (d["since"] or d["until"]),
                            ident_=f"stats-preset-{p}") for p, label in PRESETS], spacing=6)
    boxes = [field(label, d[key], lambda v, k=key: on_date_change(app, k, v),
                   ident_=f"stats-{key}", expand=True)
             for key, label in (("since", app._("From")), ("until", app._("To")))]
    for box in boxes:
        box.content.hint_text = "YYYY-MM-DD"  # type: ignore[attr-defined]
    dates = ft.Row(boxes, spacing=6)
    counts = wrap(*[button(app._("Any") if n is None else str(n),
                           lambda e, n=n: on_count_pick(app, n), primary=False,
                           selected=d["count"] == n, width=64 if n else 80,
                           ident_=f"stats-count-{n or 'any'}") for n in (None, 3, 4, 5, 6)],
                  spacing=6)
    variants = []
    for key, label in VARIANTS:
        now = d["variants"].get(key)
        variants.append(ft.Column([text(app._(label), SMALL, color=MUTED), wrap(*[
            button(name, lambda e, k=key, w=w: on_variant_pick(app, k, w), primary=False,
                   selected=now is w, ident_=f"stats-{key}-{tag}")
            for w, name, tag in ((None, app._("Either"), "any"), (True, app._("With"), "on"),
                                 (False, app._("Without"), "off"))], spacing=6)], spacing=4))
    return card(presets, text(app._("Or type dates as YYYY-MM-DD (either may stay empty):"), 15,
                              color=MUTED), dates,
                button(app._("Apply dates"), lambda e: on_dates_apply(app), primary=False,
                       ident_="stats-apply"),
                text(app._("Players at the table"), SMALL, color=MUTED), counts, *variants)


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


def counting_card(history: Library, app: AppState) -> ft.Control:
    """Said while the figures are being counted."""
    games = history.count_games(finished=True)
    counting = app.n_("Counting {n} finished game…", "Counting {n} finished games…", games)
    return card(ft.Row([ft.ProgressRing(width=22, height=22, stroke_width=3),
                        ft.Container(text(counting, 20, bold=True, color=GOLD,
                                          ident_="stats-counting"), expand=True)],
                       spacing=12),
                text(app._("The figures appear here when they are counted (only the first "
                           "time: they are kept); other screens work meanwhile."), 16,
                     color=MUTED),
                color="#241012")


def figure_cards(app: AppState, stats: Stats) -> list[ft.Control]:
    """The figures: the summary, then clans and players (or why there are none)."""
    summary = card(
        text(app.n_("{n} finished game counted", "{n} finished games counted", stats.games),
             20, bold=True, color=GOLD,
             ident_="stats-games"),
        text(app._("Frenzies per game: {rate}", rate=_fixed(app, stats.frenzies_per_game, 2)), 17,
             ident_="stats-frenzies"),
        text(app._("Diablerie tokens per game (held at the end): {rate}",
                   rate=_fixed(app, stats.diablerie_per_game, 2)), 17, ident_="stats-diablerie"),
        *[text(app.n_("Average length with {players} players: {length} ({n} timed game)",
                      "Average length with {players} players: {length} ({n} timed games)",
                      n.games, players=n.player_count,
                      length=_length(app, round(n.average_seconds))), 16,
               ident_=f"stats-length-{n.player_count}") for n in stats.lengths],
        *[text(app._("Round {round}: the Prince's Haven winner won the game {wins} of {games} "
                     "times ({percent})", round=h.round, wins=h.wins, games=h.games,
                     percent=_pct(h.rate, app)) if h.games else
               app._("Round {round}: nobody won the Prince's Haven", round=h.round), 16,
               ident_=f"stats-haven-{h.round}") for h in stats.haven],
        color="#241012")
    if stats.games:
        return [summary, clan_table(stats, app), *player_cards(app, stats)]
    return [summary, text(app._("No finished game matches these filters."), 17, color=MUTED,
                          ident_="stats-empty")]


PAD_GAMES = (("heritage", "Heritage", N_("Player"), N_("Clan")),
             ("bloodfeud", "Blood Feud", N_("Team"), N_("Faction")))
"""The other games of the family: kind, name, who wins, and what they play."""
FACTION_WORDS = {"Vampire": N_("Vampire"), "Human": N_("Human")}
"""Blood Feud's factions, said in the device's language (a clan's name stays as it is)."""


def _wins(app: AppState, title: str, counts: dict[str, list[int]],
          prefix: str) -> ft.Control:
    """Games and wins of each name, most wins first (the first rows: the list must not grow
    with the history)."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))
    ranked = ranked[:PLAYERS_SHOWN * 2]
    return data_table([app._(title), app._("Games"), app._("Wins")],
                      [[app._(FACTION_WORDS[name]) if name in FACTION_WORDS else name,
                        app.t.number(played), app.t.number(won)]
                       for name, (played, won) in ranked],
                      [f"{prefix}-{k}" for k in range(len(ranked))])


def pad_cards(history: Library, app: AppState) -> list[ft.Control]:
    """A card per other game of the family with finished games: games counted, and wins per
    player (team) and per clan (faction). A tie counts a win for each tied team."""
    out: list[ft.Control] = []
    for kind, name, who, what in PAD_GAMES:
        figures_ = history.pad_stats(kind)
        if not figures_["games"]:
            continue
        out.append(card(
            heading(name, 19),
            text(app.n_("{n} finished game counted (all time)",
                        "{n} finished games counted (all time)", figures_["games"]), 17,
                 bold=True, color=GOLD, ident_=f"stats-{kind}-games"),
            _wins(app, who, figures_["players"], f"stats-{kind}-player"),
            _wins(app, what, figures_["clans"], f"stats-{kind}-clan"),
            ident_=f"stats-{kind}"))
    return out


def stats_view(app: AppState) -> list[ft.Control]:
    """Filters, then the figures for the games they keep."""
    d = _draft(app)
    try:
        kwargs = filters(d, app=app)
        app.error = None
    except ValueError as err:
        app.error = str(err)
        d["open"] = True
        kwargs = filters({**d, "since": "", "until": ""})
    body: list[ft.Control] = [card(
        text(app._("Games: {filters}", filters=describe_filters(d, app)), 16,
             ident_="stats-filter-line"),
        button(app._("Hide filters") if d["open"] else app._("Change filters"),
               lambda e: on_filters_toggle(app), primary=False, ident_="stats-filters"))]
    if d["open"]:
        body.append(_filters_panel(app, d))
    history = app.library  # the hub's: one cache
    stats = figures(app, history, kwargs)
    body += [counting_card(history, app)] if stats is None else figure_cards(app, stats)
    body += pad_cards(history, app)
    return frame(app, app._("Statistics"), body, subtitle=app._("Across your finished games"))
