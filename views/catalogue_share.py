"""Share the card catalogue: export it as JSON, import a document another group shared."""

import json

import flet as ft

from companion.rules.catalogue import SECTIONS, CatalogueError
from views.card_editor import plain_error
from views.state import AppState
from views.theme import GOLD, MUTED, button, card, heading, ident, text


def count_text(app: AppState, section: str, n: int) -> str:
    """'2 Ally cards', '1 Relic(s)': how many cards of a section were imported."""
    if section == "clan_cards":
        return app.n_("{n} clan card", "{n} clan cards", n)
    if section == "allies":
        return app.n_("{n} Ally card", "{n} Ally cards", n)
    if section == "relics":
        return app.n_("{n} Relic(s)", "{n} Relics", n)
    return app.n_("{n} Location card", "{n} Location cards", n)


def export_text(app: AppState) -> str:
    """The user's catalogue as indented JSON."""
    return json.dumps(app.library.export_catalogue(), indent=1, ensure_ascii=False)


def on_import_change(app: AppState, value: str) -> None:
    """The pasted document (imported with the Import button)."""
    app.draft("import")["text"] = value


def on_import_click(app: AppState) -> None:
    """Merge the pasted document; a refusal names the card and field, and saves nothing."""
    raw = str(app.draft("import").get("text") or "").strip()
    if not raw:
        app.fail(app._("Not imported: paste a catalogue document (JSON) into the box first."))
        return
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as err:
        app.fail(app._("Not imported: this is not JSON ({error}, line {line}, column "
                       "{column}).", error=err.msg, line=err.lineno, column=err.colno))
        return
    try:
        app.import_catalogue(doc)
    except CatalogueError as err:
        app.fail(app._("Not imported: {why}. Nothing was changed.",
                       why=plain_error(app, str(err))))
        return
    counts = [count_text(app, s, len(doc.get(s) or [])) for s in SECTIONS
              if isinstance(doc, dict) and doc.get(s)]
    app.drafts.pop("import", None)
    app.error = None
    app.notice = [app._("Imported: {counts}.", counts=", ".join(counts)) if counts
                  else app._("Imported: nothing new.")]
    app.render()


def share_panel(app: AppState) -> list[ft.Control]:
    """The export box with a Copy button, and the import box."""
    doc = export_text(app)

    async def on_export_copy(e: object) -> None:
        await ft.Clipboard().set(doc)

    export_box = ft.TextField(value=doc, multiline=True, read_only=True, min_lines=4,
                              max_lines=12, text_size=14, border_color="#6b4a4f",
                              label=app._("Your catalogue (JSON)"), label_style=ft.TextStyle(
                                  color=MUTED))
    import_box = ft.TextField(value=str(app.draft("import").get("text") or ""), multiline=True,
                              min_lines=4, max_lines=10, text_size=14, border_color="#6b4a4f",
                              focused_border_color=GOLD,
                              label=app._("Paste a catalogue (JSON)"),
                              label_style=ft.TextStyle(color=MUTED))
    import_box.on_change = lambda e: on_import_change(app, import_box.value or "")
    return [
        card(heading(app._("Export"), 19),
             text(app._("Everything you entered from your cards, to share with another group or "
                        "keep as a copy."), 15, color=MUTED),
             ident("export-json", export_box),
             button(app._("Copy to the clipboard"), on_export_copy, primary=False,
                    ident_="export-copy", icon=ft.Icons.COPY)),
        card(heading(app._("Import"), 19),
             text(app._("Cards in the pasted document are added to yours; values it gives "
                        "replace yours card by card."), 15, color=MUTED),
             ident("import-json", import_box),
             button(app._("Import"), lambda e: on_import_click(app), ident_="import-ok",
                    disabled=app.read_only)),
    ]
