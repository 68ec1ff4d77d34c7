"""A score pad: how the companion keeps a game of the family it does not referee move by move
(Heritage, Blood Feud). The players fill in one document (the setup, then the entries); every
save is an action in the game's journal, so a pad has undo and redo, survives a kill like a
Vendetta game (each action is written before it counts) and is listed, reviewed, backed up and
restored through the same store.

A pad's journal: the header holds `game` (its kind) and `start` (the first document); each
action entry holds `{"type": "record", "doc": …}`, the whole document as saved. The document is
checked by its kind's model before it is stored; a refused document changes nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from models.common import SCHEMA_VERSION


class PadError(ValueError):
    """A pad document refused (names the field and why); nothing was stored or changed."""


@dataclass(frozen=True)
class PadKind:
    """What the library needs to know of one kind of pad."""

    id: str
    """The `game` field (e.g. "heritage")."""
    title: str
    """The game's name as the app shows it."""
    model: type[BaseModel]
    """The document's model: checks every saved document."""
    summarize: Callable[[BaseModel], dict[str, Any]]
    """A checked document → the summary fields of its kind (players, finished, winner…)."""


@dataclass
class PadAction:
    """One save of the pad."""

    doc: dict[str, Any]
    """The whole document as saved (JSON)."""
    at: str
    """When it was saved (ISO 8601, UTC)."""


@dataclass
class PadHeader:
    """What a stored pad starts from."""

    game_id: str
    game: str
    created: str
    start: dict[str, Any]

    def doc(self) -> dict[str, Any]:
        """The header as stored (with the schema version and the kind)."""
        return {"game_id": self.game_id, "schema_version": SCHEMA_VERSION, "game": self.game,
                "created": self.created, "start": self.start, "kind": "pad"}


@dataclass
class PadGame:
    """A pad and its saves, with undo and redo (the `GameSession` interface of a game)."""

    kind: PadKind
    header: PadHeader
    actions: list[PadAction] = field(default_factory=list)
    redo_stack: list[PadAction] = field(default_factory=list)
    clock: list[Any] = field(default_factory=list)
    """Pads keep no clock (the session's clock calls leave them alone)."""

    @classmethod
    def new(cls, kind: PadKind, doc: dict[str, Any] | BaseModel) -> PadGame:
        """A new pad starting from `doc`.

        Raises:
            PadError: the document is not a valid pad of this kind.
        """
        checked = check(kind, doc)
        now = _now()
        header = PadHeader(f"{kind.id}-{uuid.uuid4().hex[:12]}", kind.id, now, checked)
        return cls(kind, header)

    @property
    def doc(self) -> dict[str, Any]:
        """The document as it stands (the last save, else the start)."""
        return self.actions[-1].doc if self.actions else self.header.start

    @property
    def model(self) -> BaseModel:
        """The document as its kind's model."""
        return self.kind.model.model_validate(self.doc)

    @property
    def updated(self) -> str:
        """When it was last saved."""
        return self.actions[-1].at if self.actions else self.header.created

    def header_doc(self) -> dict[str, Any]:
        """The header as stored."""
        return self.header.doc()

    def play(self, command: dict[str, Any]) -> PadAction:
        """Save a new version of the document (`{"type": "record", "doc": …}`).

        Raises:
            PadError: not a record command, or the document is refused.
        """
        if not isinstance(command, dict) or command.get("type") != "record":
            raise PadError("a pad takes only {'type': 'record', 'doc': …}")
        action = PadAction(check(self.kind, command.get("doc")), _now())
        self.actions.append(action)
        self.redo_stack.clear()
        return action

    def undo(self) -> PadAction:
        """Take back the last save. Raises: IndexError: nothing to undo."""
        action = self.actions.pop()
        self.redo_stack.append(action)
        return action

    def redo(self) -> PadAction:
        """Save again the last save taken back. Raises: IndexError: nothing to redo."""
        action = self.redo_stack.pop()
        self.actions.append(action)
        return action

    def can_redo(self) -> bool:
        """Whether a save was taken back."""
        return bool(self.redo_stack)

    @staticmethod
    def action_entry(action: PadAction) -> dict[str, Any]:
        """The journal entry of a save."""
        return {"kind": "action", "command": {"type": "record", "doc": action.doc},
                "events": [], "at": action.at}

    def summary(self) -> dict[str, Any]:
        """The history-index summary: the kind's fields and the pad's own."""
        return {**self.kind.summarize(self.model), "game": self.kind.id,
                "game_id": self.header.game_id, "created": self.header.created,
                "updated": self.updated}

    @classmethod
    def from_journal(cls, kind: PadKind, header: dict[str, Any],
                     entries: list[dict[str, Any]], verify: bool = False) -> PadGame:
        """A stored pad replayed (every saved document checked again).

        Raises:
            PadError: the header or an entry is malformed or refused (names which).
        """
        try:
            pad = cls(kind, PadHeader(str(header["game_id"]), kind.id, str(header["created"]),
                                      check(kind, header["start"])))
        except (KeyError, TypeError) as err:
            raise PadError(f"header: {err} is missing") from None
        except PadError as err:
            raise PadError(f"header.start: {err}") from None
        for i, entry in enumerate(entries):
            what = entry.get("kind") if isinstance(entry, dict) else None
            try:
                if what == "undo":
                    pad.undo()
                elif what == "redo":
                    pad.redo()
                elif what == "action":
                    pad.play(entry["command"])
                    pad.actions[-1].at = str(entry.get("at") or pad.actions[-1].at)
                elif what != "clock":
                    raise PadError(f"unknown entry kind {what!r}")
            except (PadError, IndexError, KeyError, TypeError) as err:
                raise PadError(f"entry {i + 1}: {err}") from None
        return pad


def check(kind: PadKind, doc: Any) -> dict[str, Any]:
    """A pad document checked by its kind's model, as JSON.

    Raises:
        PadError: names the first problem.
    """
    try:
        model = doc if isinstance(doc, kind.model) else kind.model.model_validate(doc)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        text = first["msg"].removeprefix("Value error, ")
        raise PadError(f"{where}: {text}" if where else text) from None
    except ValueError as err:
        raise PadError(str(err)) from None
    return model.model_dump(mode="json")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
