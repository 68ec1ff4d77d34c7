"""Files in and out of the app: the session's file picker, offering a file (a download in a
browser, a save dialog on desktop and mobile), and event handlers for async work."""

import inspect
from collections.abc import Callable
from typing import Any

import flet as ft

from views.state import AppState


def handler(fn: Callable[..., Any], *args: Any) -> Callable[[Any], Any]:
    """An event handler Flet runs as it should: awaited (a coroutine function) or iterated (an
    async generator function, each `yield` sending the page as it is)."""
    if inspect.isasyncgenfunction(fn):
        async def each(e: Any):  # noqa: ANN202
            async for _ in fn(*args):
                yield
        return each

    async def once(e: Any) -> None:
        await fn(*args)
    return once


def picker(app: AppState) -> ft.FilePicker:
    """This session's file picker (save dialogs, downloads on the web, opening files); a
    chosen file goes to the screen that asked for one (`AppState.on_file_chosen`)."""
    if app.file_picker is None:
        async def on_result(e: Any):  # noqa: ANN202
            chosen = app.on_file_chosen
            if chosen is None:
                return
            async for _ in chosen(app, e):
                yield

        app.file_picker = ft.FilePicker(on_result=on_result)
    return app.file_picker


def size_text(app: AppState, n: int) -> str:
    """'171 KB', '11.8 MB' (the number and the unit the device's language's way)."""
    if n >= 2**20:
        return app._("{size} MB", size=round(n / 2**20, 1))
    return app._("{size} KB", size=max(1, round(n / 1024)))


async def offer_file(app: AppState, name: str, data: bytes, ext: str
                     ) -> tuple[str | None, str | None]:
    """Offer a file to save; (what happened, None) or (None, why not)."""
    try:
        where = await picker(app).save_file(
            dialog_title=app._("Save"), file_name=name, src_bytes=data,
            file_type=ft.FilePickerFileType.CUSTOM, allowed_extensions=[ext])
    except Exception as err:  # noqa: BLE001 - a platform without dialogs: say so, keep going
        return None, app._("Could not offer the file {name}: {error}", name=name, error=str(err))
    page = getattr(app.file_picker, "page", None)
    size = size_text(app, len(data))
    if getattr(page, "web", True):
        return app._("Downloading {name} ({size}).", name=name, size=size), None
    if where:
        return app._("Saved {name} ({size}) to {where}.", name=name, size=size, where=where), None
    return app._("Not saved: the dialog was closed."), None
