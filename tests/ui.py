"""Find and operate controls by their stable id, without a browser (tests and benchmarks)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

import flet as ft

if TYPE_CHECKING:
    from views.state import AppState


def walk(control: ft.Control) -> Iterator[ft.Control]:
    """Every control in a tree, depth first (a dialog's title, content and actions too; a
    table's headers, rows and cells)."""
    yield control
    for name in ("title", "content"):
        child = getattr(control, name, None)
        if isinstance(child, ft.Control):
            yield from walk(child)
    for name in ("controls", "actions", "columns", "rows", "cells"):
        children = getattr(control, name, None)
        for child in children if isinstance(children, list) else []:
            if isinstance(child, ft.Control):
                yield from walk(child)


def find(root: ft.Control, identifier: str) -> ft.Control:
    """The control wrapped by `ft.Semantics(identifier=...)`.

    Raises:
        LookupError: no such id on screen.
    """
    for c in walk(root):
        if isinstance(c, ft.Semantics) and c.identifier == identifier:
            assert c.content is not None
            return c.content
    raise LookupError(f"no control {identifier!r} on screen; ids: {ids(root)}")


def ids(root: ft.Control) -> list[str]:
    """Every stable id on screen."""
    return [c.identifier for c in walk(root) if isinstance(c, ft.Semantics) and c.identifier]


def has(root: ft.Control, identifier: str) -> bool:
    """Whether a control with this id is on screen."""
    return identifier in ids(root)


def click(root: ft.Control, identifier: str) -> None:
    """Tap a button."""
    c = find(root, identifier)
    if c.disabled or c.on_click is None:  # type: ignore[attr-defined]
        raise AssertionError(f"{identifier!r} is disabled")
    c.on_click(None)  # type: ignore[attr-defined]


def type_in(root: ft.Control, identifier: str, value: str) -> None:
    """Type into a text field."""
    c = find(root, identifier)
    c.value = value  # type: ignore[attr-defined]
    c.on_change(None)  # type: ignore[attr-defined]


def answer(app: AppState, yes: bool = True) -> None:
    """Tap Confirm (or Cancel) in the dialog of the question the app asks.

    Raises:
        AssertionError: no question is asked.
    """
    from views.confirm import confirm_dialog

    assert app.question is not None, "no confirmation is asked"
    click(confirm_dialog(app), "confirm-yes" if yes else "confirm-no")


def pick_ally(app: AppState, loc: str, entry_id: str) -> None:
    """Location Setup: open the Location's list if needed, tap the Ally."""
    r = app.root
    if not has(r, f"ally-{loc}-pick-{entry_id}"):
        click(r, f"ally-{loc}-chosen")
    click(r, f"ally-{loc}-pick-{entry_id}")


def enter_ally(app: AppState, loc: str, kind: str = "human",
               values: tuple[int, int, int, int] = (2, 1, 2, 0), name: str | None = None) -> None:
    """Tap the printed values the app asks for an Ally (and type its name)."""
    r = app.root
    if name is not None:
        type_in(r, f"ally-{loc}-name", name)
    if has(r, f"ally-{loc}-{kind}"):
        click(r, f"ally-{loc}-{kind}")
    for key, v in zip(("influence", "feed", "drain_blood", "drained_influence"), values,
                      strict=True):
        if has(r, f"ally-{loc}-{key}-{v}"):
            click(r, f"ally-{loc}-{key}-{v}")


def texts(root: ft.Control) -> list[str]:
    """Every text on screen."""
    return [str(c.value) for c in walk(root) if isinstance(c, ft.Text) and c.value]


def label(root: ft.Control, identifier: str) -> str:
    """The words a button shows (its label, whether given as text or as a Text)."""
    content = find(root, identifier).content  # type: ignore[attr-defined]
    return str(content.value if isinstance(content, ft.Text) else content)


def value(root: ft.Control, identifier: str) -> str:
    """The text shown by a Text with this id."""
    c = find(root, identifier)
    return str(c.value)  # type: ignore[attr-defined]


def autoplay_step(app: AppState, rng: random.Random, *, withdraw: bool = True) -> str:
    """Take the next action of the open game through the UI, as a referee would; returns
    what was tapped. Used by tests and the benchmark."""
    r = app.root
    legal = app.legal()
    s = app.game.state
    if legal.phase == "setup":
        if "set_first_player" in legal.commands:
            click(r, "first-0")
        elif "offer_clans" in legal.commands:
            click(r, "clans-draw")
        else:
            click(r, f"clan-{legal.clans[0]}")
        return "setup"
    if legal.phase == "feed":
        click(r, "feed")
    elif legal.phase == "location_setup":
        allies = {a.id: a for a in app.catalogue.allies}
        taken: set[str] = set()  # picked for an earlier Location of this form
        for i, loc in enumerate(s.locations):
            # each Ally exists once (§1): only those offered
            offered = [a for a in allies if a not in taken and has(r, f"ally-{loc.id}-pick-{a}")]
            entry = allies[offered[(i + s.round) % len(offered)]] if offered else None
            pick_ally(app, loc.id, entry.id if entry else "new")
            if entry is not None:
                taken.add(entry.id)
            if entry is None or not entry.complete():
                name = (None if entry and entry.name else
                        (entry.partial_name or f"Ally {entry.id}") if entry
                        else f"Ally {s.round}-{loc.id}")
                enter_ally(app, loc.id, entry.kind if entry and entry.kind else "human",
                           name=name.lstrip("…") if name else None)
        click(r, "allies-ok")
    elif legal.phase == "hand_building":
        click(r, "hands-ok")
    elif legal.phase == "planning":
        if "pass_turn" in legal.commands:
            click(r, "pass")
            return "pass"
        click(r, f"loc-pick-{rng.choice(legal.locations)}")
        if legal.can_play_face_down and rng.random() < 0.3:
            click(r, "face-down")
        else:
            _pick_card(app, "plan-card", s.players[legal.actor or 0].clan, rng)
        from views.planning import blood_limit

        d = app.draft("plan")
        top = blood_limit(legal, d["loc"], d.get("face_up", True))
        blood = rng.randint(0, top)
        click(r, f"play-{blood}" if blood else "play")  # Play, or Play +N Blood beside it
    elif legal.phase == "resolution":
        if legal.step == "withdraw":
            if withdraw and len(legal.present) > 1 and rng.random() < 0.25:
                seat = legal.present[-1]
                click(r, f"withdraw-{seat}")
                for uid in legal.face_down.get(seat, []):
                    _pick_card(app, f"wd-{uid}", s.players[seat].clan, rng)
            click(r, "withdraw-ok")
        elif legal.step == "revelation":
            for seat, uids in legal.face_down.items():
                for uid in uids:
                    _pick_card(app, f"rev-{uid}", s.players[seat].clan, rng)
            click(r, "reveal-ok")
        elif getattr(legal, "awaiting", None) == "take_back_blood":
            click(r, "take-back-ok")
        elif getattr(legal, "due", None):
            due = list(legal.due)
            i = next(i for i, d in enumerate(due) if d.uid in legal.next_due)
            click(r, f"due-{i}-apply" if due[i].can_accept else f"due-{i}-decline")
        else:
            click(r, "continue")
    return legal.phase


def _pick_card(app: AppState, prefix: str, clan: object, rng: random.Random) -> None:
    from views.card_picker import entries_for

    offered = [e for e in entries_for(app, clan)  # type: ignore[arg-type]
               if has(app.root, f"{prefix}-{e.id}")]  # one copy of each card (§1, §2)
    entry = rng.choice(offered)
    click(app.root, f"{prefix}-{entry.id}")
    if entry.power is None:
        click(app.root, f"{prefix}-power-{rng.randint(1, 5)}")
