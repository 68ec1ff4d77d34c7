"""Your data (route /data): back up everything to a file, restore or import a file after a
preview of what it holds, automatic backups, one game's file, the card catalogue's file.

The work is done by companion.library.backups; long steps (checking a big backup, writing files) run
off the UI loop and report their progress.
"""

import asyncio
from datetime import UTC, datetime
from typing import Any

import flet as ft

from companion.library.backups import (
    AutoBackups,
    Preview,
    apply,
    backup_file,
    catalogue_file,
    game_file,
    preview,
)
from companion.rules.catalogue import CatalogueError
from companion.storage import (
    MAX_BACKUP_BYTES,
    ImportRefused,
    ReadOnlyStore,
    StorageError,
    describe_os_error,
)
from models.message import N_
from views.choice import Option, pick_list
from views.files import handler, offer_file, picker, size_text
from views.frame import frame
from views.share_result import with_action
from views.state import AppState
from views.theme import (
    GOLD,
    MUTED,
    OK,
    SMALL,
    SURFACE_HI,
    TEXT,
    button,
    card,
    heading,
    ident,
    tap_row,
    text,
)

READ_ONLY = N_("Review only here: another app is using this data folder, so restoring, "
               "importing and automatic backups happen there.")


def read_only_text(app: AppState) -> str:
    """Why restoring and importing are not offered here (this app only reviews games)."""
    folder_note = getattr(app.folder, "read_only_reason", None)
    if folder_note is not None and app.read_only_reason == folder_note:
        return app._("Review only here: {reason}; restoring and importing are not possible.",
                     reason=folder_note)
    return app._(READ_ONLY)


SHOWN_GAMES = 25
"""Games listed in a preview (the rest are counted)."""


def cards_count(app: AppState, section: str, n: int) -> str:
    """'3 clan cards', '1 Relic': how many cards of a catalogue section."""
    if section == "clan_cards":
        return app.n_("{n} clan card", "{n} clan cards", n)
    if section == "allies":
        return app.n_("{n} Allies", "{n} Allies", n)
    if section == "relics":
        return app.n_("{n} Relic", "{n} Relics", n)
    return app.n_("{n} Location card", "{n} Location cards", n)


def _draft(app: AppState) -> dict[str, Any]:
    return app.draft("data")


def say(app: AppState, message: str | None, problem: str | None = None) -> None:
    """Show what happened (or why not) on the page."""
    d = _draft(app)
    d["message"], d["checking"] = message, None
    app.error = problem
    app.render()


# --- saving files ------------------------------------------------------------------------------


async def save(app: AppState, name: str, data: bytes) -> None:
    """Offer a file and say how it went."""
    said, problem = await offer_file(app, name, data, "json")
    say(app, said, problem)


async def on_backup_save(app: AppState) -> None:
    """Everything in one file."""
    name, data = await asyncio.to_thread(backup_file, app.library)
    await save(app, name, data)


async def on_game_save(app: AppState) -> None:
    """The chosen game in one file."""
    gid = _draft(app).get("game")
    if not gid:
        say(app, None, app._("Choose a game first."))
        return
    try:
        name, data = game_file(app.library, gid)
    except (KeyError, StorageError) as err:
        say(app, None, app._("This game cannot be saved: {error}", error=str(err)))
        return
    await save(app, name, data)


async def on_catalogue_save(app: AppState) -> None:
    """The card catalogue in one file."""
    name, data = catalogue_file(app.library)
    await save(app, name, data)


def on_game_pick(app: AppState, game_id: str | None) -> None:
    """The game to save."""
    _draft(app)["game"] = game_id
    app.render()


def on_catalogue_share(app: AppState) -> None:
    """The catalogue as text to copy and paste (the Cards page)."""
    app.draft("catalogue")["tab"] = "share"
    app.go("catalogue")


# --- opening files: check, preview, confirm -----------------------------------------------------


def _check(app: AppState, name: str, raw: bytes, progress: Any = None
           ) -> Preview | ImportRefused:
    try:
        return preview(app.library, raw, name, progress)
    except ImportRefused as err:
        return err


def _show_check(app: AppState, outcome: Preview | ImportRefused) -> None:
    d = _draft(app)
    if isinstance(outcome, ImportRefused):
        d.pop("preview", None)
        say(app, None, app._("This file cannot be used: {error}. Nothing was changed.",
                             error=str(outcome)))
    else:
        d["preview"] = outcome
        say(app, None)


def check_file(app: AppState, name: str, raw: bytes) -> None:
    """Check a chosen file and show what it holds; a refusal changes nothing."""
    _show_check(app, _check(app, name, raw))


async def check_in_background(app: AppState, name: str, raw: bytes):  # noqa: ANN201
    """Check a file off the UI loop, showing progress (an async generator: each `yield`
    sends the page as it is now)."""
    d = _draft(app)
    d["message"], app.error = None, None
    d["checking"] = app._("Checking {name}…", name=name)
    app.render()
    yield
    counts = [0, 0]

    def progress(done: int, total: int) -> None:
        counts[:] = [done, total]

    task = asyncio.ensure_future(asyncio.to_thread(_check, app, name, raw, progress))
    while not task.done():
        await asyncio.wait({task}, timeout=0.5)
        if counts[1] and not task.done():
            d["checking"] = app._("Checking {name}: game {done} of {total}…", name=name,
                                  done=counts[0], total=counts[1])
            app.render()
            yield
    _show_check(app, task.result())
    yield


async def on_file_result(app: AppState, e: Any):  # noqa: ANN201
    """A file was chosen (or the dialog was closed)."""
    files = list(getattr(e, "files", None) or [])
    if not files:
        return
    f = files[0]
    raw = getattr(f, "bytes", None)
    if isinstance(raw, list):
        raw = bytes(raw)
    try:
        if (getattr(f, "size", 0) or 0) > MAX_BACKUP_BYTES:
            raise ImportRefused(app._("{name}: file is larger than {size} MB", name=f.name,
                                      size=MAX_BACKUP_BYTES // 2**20))
        if raw is None and getattr(f, "path", None):
            with open(f.path, "rb") as fh:
                raw = fh.read(MAX_BACKUP_BYTES + 1)
    except (OSError, ImportRefused) as err:
        say(app, None, app._("This file cannot be used: {error}. Nothing was changed.",
                             error=str(err)))
        return
    if raw is None:
        say(app, None, app._("{name}: the file could not be read.", name=f.name))
        return
    async for _ in check_in_background(app, f.name, raw):
        yield


async def on_auto_open(app: AppState, name: str) -> None:
    """Preview an automatic backup (checked off the UI loop)."""
    try:
        raw = AutoBackups.of(app.library).read(name)
    except (KeyError, OSError) as err:
        say(app, None, app._("This backup cannot be read: {error}", error=str(err)))
        return
    _show_check(app, await asyncio.to_thread(_check, app, name, raw))


def _apply(app: AppState, chosen: Preview) -> tuple[str | None, str | None]:
    """(what changed, None) or (None, why nothing changed)."""
    try:
        return apply(app.library, chosen), None
    except ReadOnlyStore:
        return None, app._("Not done: {why} Nothing was changed.", why=read_only_text(app))
    except (ImportRefused, CatalogueError, StorageError) as err:
        return None, app._("Not done: {error}. Nothing was changed.", error=str(err))
    except OSError as err:
        return None, app._("Not done: the disk refused it ({error}). Nothing was changed.",
                           error=describe_os_error(err))


def _show_apply(app: AppState, outcome: tuple[str | None, str | None]) -> None:
    said, problem = outcome
    if said is not None:
        _draft(app).pop("preview", None)
        app.catalogue = app.stored_catalogue()
    say(app, said, problem)


def confirm(app: AppState) -> None:
    """Restore, import or merge what the preview showed (all or nothing)."""
    chosen: Preview | None = _draft(app).get("preview")
    if chosen is not None:
        _show_apply(app, _apply(app, chosen))


async def on_confirm(app: AppState):  # noqa: ANN201
    """Confirm (the writing runs off the UI loop: many games take a moment)."""
    d = _draft(app)
    chosen: Preview | None = d.get("preview")
    if chosen is None:
        return
    d["checking"] = app._("Writing…")
    app.render()
    yield
    _show_apply(app, await asyncio.to_thread(_apply, app, chosen))
    yield


def on_cancel(app: AppState) -> None:
    """Drop the preview; nothing was changed."""
    _draft(app).pop("preview", None)
    say(app, app._("Nothing was changed."))


async def on_auto_now(app: AppState) -> None:
    """Write an automatic backup now (if anything changed since the last one)."""
    try:
        made = await asyncio.to_thread(AutoBackups.of(app.library).write)
    except OSError as err:
        say(app, None, app._("No backup written: {error}", error=describe_os_error(err)))
        return
    except StorageError as err:
        say(app, None, app._("No backup written: {error}", error=str(err)))
        return
    if made:
        say(app, app.n_("Backed up now: {n} game, listed under Automatic backups.",
                        "Backed up now: {n} games, listed under Automatic backups.", made.games))
    else:
        say(app, app._("Nothing changed since the newest automatic backup."))


# --- the page -----------------------------------------------------------------------------------


def _day(app: AppState, iso: str) -> str:
    """A stored time (ISO) as the device's language writes a date and time."""
    return app.t.datetime(iso) if iso else ""


def _line(app: AppState, g: Any) -> str:
    players = ", ".join(g.players) or app._("no players yet")
    if g.finished:
        state = app._("won by {winner}", winner=g.winner)
    else:
        state = app._("round {n}", n=g.round) if g.round else app._("setting up")
    return f"{players} · {_day(app, g.created)} · {state}"


def _confirm_label(app: AppState, p: Preview) -> str | None:
    """What confirming the preview does (None: nothing, every game is already here)."""
    if p.kind == "catalogue":
        return app._("Merge these cards")
    if p.new_games:
        if p.kind == "game":
            return app._("Import this game")
        return app.n_("Restore {n} game", "Restore {n} games", p.new_games)
    return app._("Restore the card catalogue") if p.catalogue is not None else None


def _summary(app: AppState, p: Preview) -> str:
    """'A backup of 3 games, made …: 1 new here, 2 already here.'"""
    n, new = len(p.games), p.new_games
    if p.created:
        return app.n_("A backup of {n} game, made {when} UTC: {new} new here, {old} already "
                      "here.",
                      "A backup of {n} game(s), made {when} UTC: {new} new here, {old} already "
                      "here.", n, when=_day(app, p.created), new=new, old=n - new)
    return app.n_("A backup of {n} game: {new} new here, {old} already here.",
                  "A backup of {n} game(s): {new} new here, {old} already here.", n,
                  new=new, old=n - new)


def _cards_line(app: AppState, p: Preview) -> str:
    """What the file's card catalogue does to yours, with its counts."""
    assert p.catalogue is not None
    counts = ", ".join(cards_count(app, s, n) for s, n in p.catalogue.items() if n)
    if p.kind == "backup":
        if counts:
            return app._("The card catalogue, replacing yours: {counts}.", counts=counts)
        return app._("The card catalogue, replacing yours: no cards.")
    if counts:
        return app._("Cards to merge into yours: {counts}.", counts=counts)
    return app._("Cards to merge into yours: no cards.")


def preview_card(app: AppState, p: Preview) -> ft.Control:
    """What the chosen file holds, and the button that applies it."""
    rows: list[ft.Control] = [heading(f"{p.name}", 18)]
    if p.kind == "backup":
        rows.append(text(_summary(app, p), 16, ident_="data-preview-summary"))
    elif p.kind == "game":
        rows.append(text(app._("One game.") if p.new_games else app._("One game (already here)."),
                         16, ident_="data-preview-summary"))
    for i, g in enumerate(p.games[:SHOWN_GAMES]):
        line = app._("{game}  (already here)", game=_line(app, g)) if g.stored \
            else _line(app, g)
        rows.append(text(line, SMALL, color=MUTED if g.stored else TEXT,
                         ident_=f"data-preview-game-{i}"))
    if len(p.games) > SHOWN_GAMES:
        more = len(p.games) - SHOWN_GAMES
        rows.append(text(app.n_("… and {n} more.", "… and {n} more.", more), SMALL,
                         color=MUTED))
    if p.catalogue is not None:
        rows.append(text(_cards_line(app, p), SMALL, ident_="data-preview-cards"))
    elif p.kind == "backup":
        rows.append(text(app._("No card values in this file: yours stay as they are."), 15,
                         color=MUTED, ident_="data-preview-cards"))
    label = _confirm_label(app, p)
    nothing = label is None or app.read_only
    if app.read_only:
        rows.append(text(read_only_text(app), SMALL, color=MUTED, ident_="data-read-only"))
    rows.append(ft.Row([
        button(label or app._("Nothing new to add"), None if nothing else handler(on_confirm, app),
               expand=2,
               ident_="data-confirm"),
        button(app._("Cancel"), lambda e: on_cancel(app), primary=False, expand=1,
               ident_="data-cancel"),
    ], spacing=6))
    return card(*rows, color="#241012", ident_="data-preview")


GAMES_SHOWN = 20
"""Games offered at once by the one-game picker (the search box finds the others)."""


def _games_card(app: AppState) -> ft.Control:
    d = _draft(app)
    search = d.setdefault("game-search", {})
    query = str(search.get("q") or "").strip() or None
    try:
        games = app.library.list_games(limit=GAMES_SHOWN, query=query)
    except Exception:  # noqa: BLE001 - a broken index must not hide the rest of the page
        games = []
    options = [Option(g["game_id"], ", ".join(g.get("players") or []) or g["game_id"],
                      _day(app, str(g.get("created") or ""))) for g in games]
    picks = pick_list(app, options, d.get("game"), lambda v: on_game_pick(app, v),
                      "data-game", search, label=app._("Search by player"), searched=True)
    return card(heading(app._("One game"), 19),
                text(app._("Save one game to send it to another device or another group; open "
                           "a game file above to add it here."), SMALL, color=MUTED),
                *picks,
                button(app._("Save this game"), handler(on_game_save, app), primary=False,
                       ident_="data-game-save", icon=ft.Icons.SAVE_ALT))


def _auto_card(app: AppState) -> ft.Control:
    auto = AutoBackups.of(app.library)
    rows: list[ft.Control] = [heading(app._("Automatic backups"), 19)]
    if auto.folder is None:
        rows.append(text(app._("This table keeps no data folder, so nothing is backed up "
                               "automatically."), SMALL, color=MUTED))
        return card(*rows)
    rows.append(text(app._("Written when the app starts and when a game ends, if anything "
                           "changed; the newest of each of the last 7 days and of the last 4 "
                           "weeks are kept in {folder}.", folder=str(auto.folder)),
                     SMALL, color=MUTED))
    listing = auto.listing()
    now = datetime.now(UTC)
    for i, b in enumerate(listing):
        age = (now - b.when).days
        day = app.t.datetime(b.when)
        when = (app.n_("{when} UTC ({n} d ago)", "{when} UTC ({n} d ago)", age, when=day)
                if age else app._("{when} UTC", when=day))
        detail = app.n_("{n} game · {size} · tap to see and restore",
                        "{n} games · {size} · tap to see and restore", b.games,
                        size=size_text(app, b.size))
        rows.append(tap_row(when, handler(on_auto_open, app, b.name), f"auto-{i}",
                            detail=detail, color=SURFACE_HI, icon=ft.Icons.HISTORY))
    if not listing:
        rows.append(text(app._("None yet."), SMALL, color=MUTED, ident_="auto-none"))
    if not app.read_only:
        rows.append(button(app._("Back up now"), handler(on_auto_now, app), primary=False,
                           ident_="data-auto-now", icon=ft.Icons.BACKUP))
    return card(*rows)


def data_view(app: AppState) -> list[ft.Control]:
    """The Data page."""
    app.on_file_chosen = on_file_result  # a file chosen in the picker comes here
    d = _draft(app)
    try:
        games = app.library.count_games()
    except Exception:  # noqa: BLE001 - a broken index must not hide the restore
        games = 0
    cards = len(app.library.export_catalogue()) - 1
    body: list[ft.Control] = []
    if d.get("message"):
        body.append(ft.Container(
            content=text(d["message"], 16, ident_="data-message"), bgcolor="#12261a",
            border=ft.Border.all(1, OK), border_radius=10, padding=12))
    if d.get("checking"):
        body.append(ident("data-checking", ft.Row([
            ft.ProgressRing(width=22, height=22, color=GOLD),
            text(d["checking"], 16)], spacing=10)))
    if d.get("preview") is not None:
        body.append(preview_card(app, d["preview"]))
    open_file = with_action(
        button(app._("Choose a file…"), lambda e: None, ident_="data-open",
               icon=ft.Icons.FOLDER_OPEN),
        lambda: ft.PickFiles(picker(app),
                             dialog_title=app._("Choose a backup, game or catalogue file"),
                             file_type=ft.FilePickerFileType.CUSTOM,
                             allowed_extensions=["json"], with_data=True,
                             cancel_upload_on_window_blur=False))
    cards_: list[ft.Control] = [
        card(heading(app._("Back up everything"), 19),
             text(app.n_("{n} game and your card catalogue in one file. Keep it somewhere "
                         "else than this device.",
                         "{n} games and your card catalogue in one file. Keep it somewhere "
                         "else than this device.", games) if cards > 0
                  else app.n_("{n} game in one file. Keep it somewhere else than this device.",
                              "{n} games in one file. Keep it somewhere else than this device.",
                              games), 15, color=MUTED, ident_="data-counts"),
             button(app._("Save a backup file"), handler(on_backup_save, app),
                    ident_="data-backup-save", icon=ft.Icons.DOWNLOAD)),
        card(heading(app._("Restore or import"), 19),
             text(app._("A backup, one game or a card catalogue. You see what the file holds "
                        "before anything changes; a file that is damaged or was tampered with "
                        "is refused whole. Games already here are kept as they are."), SMALL,
                  color=MUTED),
             text(read_only_text(app), SMALL, ident_="data-read-only") if app.read_only
             else open_file),
        _auto_card(app),
    ]
    if games:
        cards_.append(_games_card(app))
    cards_.append(card(heading(app._("Card catalogue"), 19),
                     text(app._("The card values you entered, to share with another group."),
                          15, color=MUTED),
                     ft.Row([button(app._("Save the catalogue"), handler(on_catalogue_save, app),
                                    primary=False, expand=True, ident_="data-catalogue-save"),
                             button(app._("Copy as text"), lambda e: on_catalogue_share(app),
                                    primary=False, expand=True, ident_="data-catalogue-text")],
                            spacing=6)))
    for c in cards_:
        c.col = {"xs": 12, "md": 6}  # two columns on a tablet, one on a phone
    body.append(ft.ResponsiveRow(cards_, spacing=12, run_spacing=12))
    return frame(app, app._("Your data"), body,
                 subtitle=app._("Backups, restore, import and export"))
