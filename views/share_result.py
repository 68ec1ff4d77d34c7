"""Share a finished game: the scoreboard as text and as a picture, the play for BG
Stats."""

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.rules.game import Game
from companion.story.scorecard import scorecard_png
from companion.story.share import bgstats_link, bgstats_play, result_text
from views.files import handler, offer_file
from views.state import AppState
from views.theme import MUTED, OK, SMALL, button, card, heading, ident, text


def _draft(app: AppState) -> dict[str, Any]:
    return app.draft("share")


def with_action(control: ft.Control, make: Callable[[], Any]) -> ft.Control:
    """Give a button (possibly wrapped in its id) a client action, run inside the tap: the only
    moment a browser lets a page share, copy or open a link. Without a page (view tests) the
    button gets none."""
    try:
        action = make()
    except RuntimeError:  # no page: Flet's shared services need one
        return control
    target = control.content if isinstance(control, ft.Semantics) else control
    target.action = action  # type: ignore[attr-defined]
    return control


def on_picture_click(app: AppState, game: Game) -> None:
    """Draw the scoreboard picture and show it with its Share and Save buttons."""
    _draft(app)["png"] = scorecard_png(game)
    app.render()


def _png_name(game: Game) -> str:
    return f"vendetta-score-{game.header.created[:10]}-{game.header.game_id}.png"


async def on_picture_share(app: AppState, game: Game) -> None:
    """The platform's share sheet with the picture (a download where a browser has none)."""
    d = _draft(app)
    try:
        await ft.Share().share_files(
            [ft.ShareFile.from_bytes(d["png"], mime_type="image/png", name=_png_name(game))],
            text=result_text(game))
    except Exception as err:  # noqa: BLE001 - no share sheet here: say so, keep going
        d["message"] = app._("Could not share the picture: {error}. Save it instead.",
                             error=str(err))
    app.render()


async def on_picture_save(app: AppState, game: Game) -> None:
    """Save the picture (a download in a browser)."""
    said, problem = await offer_file(app, _png_name(game), _draft(app)["png"], "png")
    _draft(app)["message"] = said or problem
    app.render()


def share_panel(app: AppState, game: Game) -> list[ft.Control]:
    """Share (text, picture, BG Stats), under the final scoreboard (its Review is the screen's
    main button: `views.scoreboard.scoreboard_actions`)."""
    d = _draft(app)
    if d.get("game") != game.header.game_id:
        d.clear()
        d["game"] = game.header.game_id
    message = result_text(game)
    link = bgstats_link(bgstats_play(game))
    out: list[ft.Control] = []
    rows: list[ft.Control] = [
        heading(app._("Share the result"), 19),
        ident("share-text", ft.Text(message, size=SMALL)),
        ft.Row([
            with_action(button(app._("Share text"), lambda e: None, expand=True,
                               ident_="share-send", icon=ft.Icons.SHARE),
                        lambda: ft.ShareText(message, subject=app._("Vendetta: final score"))),
            with_action(button(app._("Copy text"), lambda e: None, primary=False, expand=True,
                               ident_="share-copy", icon=ft.Icons.COPY),
                        lambda: ft.CopyToClipboard(message)),
        ], spacing=6),
    ]
    png = d.get("png")
    if png is None:
        rows.append(ft.Row([button(app._("Make a picture"), lambda e: on_picture_click(app, game),
                                   primary=False, expand=True, ident_="share-picture",
                                   icon=ft.Icons.IMAGE)]))
    else:
        rows += [ident("share-image", ft.Image(src=png, width=360, fit=ft.BoxFit.CONTAIN),
                       app._("Picture of the final score")),
                 ft.Row([
                     button(app._("Share picture"), handler(on_picture_share, app, game),
                            expand=True, ident_="share-picture-send", icon=ft.Icons.SHARE),
                     button(app._("Save picture"), handler(on_picture_save, app, game),
                            primary=False, expand=True, ident_="share-picture-save",
                            icon=ft.Icons.SAVE_ALT)], spacing=6)]
    rows += [
        text(app._("BG Stats: opens its import dialog with this play (players, clans as roles, "
                   "Influence as scores, winner, length)."), SMALL, color=MUTED),
        ft.Row([
            with_action(button(app._("Open in BG Stats"), lambda e: None, primary=False,
                               expand=True, ident_="share-bgstats", icon=ft.Icons.OPEN_IN_NEW),
                        lambda: ft.OpenUrl(link, target=ft.UrlTarget.BLANK)),
            with_action(button(app._("Copy its link"), lambda e: None, primary=False, expand=True,
                               ident_="share-bgstats-copy", icon=ft.Icons.LINK),
                        lambda: ft.CopyToClipboard(link)),
        ], spacing=6),
    ]
    if d.get("message"):
        rows.append(text(d["message"], SMALL, color=OK, ident_="share-message"))
    out.append(card(*rows, ident_="share-panel"))
    return out
