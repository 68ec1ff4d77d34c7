"""Words a game keeps: why Blood or Influence changed, a Power modifier's source, a note, how a
tie was broken, kept as messages (`models.message`) that still read as their English text.

A `Said` is a `str` whose value is the English text, so everything that shows, compares or
searches it reads the same words as before; its `message` is the same said as data, for a
device that puts it into its own language.

Written to a file, a `Said` is its message (`{"key": …, "args": {…}}`), or plain text when the
message has no arguments (its English is then its key, so it reads back as the same message).
Games saved before messages hold English text there: read back, each text becomes a `Said`
whose message says exactly that text (the file is never rewritten), so it replays, compares
and reads as it did.

A kept message holds plain values only (names as text, numbers, `term`s, `items`): no
`player(i)` or `card(id)` reference, so it reads the same without the game's roster or
catalogue.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    PlainSerializer,
    PlainValidator,
    SerializationInfo,
    StringConstraints,
    ValidationError,
)

from models.message import Message, render

MAX_SAID = 500
"""Longest English text a kept message may read as (the models' limit for any text)."""

REFERENCES = ("player", "card")
"""References a kept message may not hold (they need the roster or the catalogue)."""


def literal(text: str) -> Message:
    """The message that says exactly `text` (English saved by an earlier release, or words
    a person typed): its key is the text with braces doubled."""
    return Message.model_construct(key=text.replace("{", "{{").replace("}", "}}"), args={},
                                   plural=None)


def _references(value: Any) -> bool:
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in REFERENCES:
            return True
        return any(_references(v) for v in value.values())
    if isinstance(value, list):
        return any(_references(v) for v in value)
    return False


class Said(str):
    """English text that knows its message (see the module docstring)."""

    message: Message
    """The same words as data."""

    def __new__(cls, said: Message | str) -> Said:
        """`Said(text)` says exactly `text`; `Said(message)` reads as the message's English.

        Raises:
            ValueError: the message holds a player or card reference, or reads as more than
                `MAX_SAID` characters.
        """
        if isinstance(said, Message):
            if any(_references(v) for v in said.args.values()):
                raise ValueError(f"a kept message holds plain values, not references: "
                                 f"{said.key!r}")
            text, message = render(said), said
        else:
            text, message = str(said), literal(str(said))
        if len(text) > MAX_SAID:
            raise ValueError(f"at most {MAX_SAID} characters, not {len(text)}")
        self = super().__new__(cls, text)
        self.message = message
        return self

    def __reduce__(self) -> tuple[type[Said], tuple[Message]]:
        return Said, (self.message,)

    def __copy__(self) -> Said:
        return self

    def __deepcopy__(self, memo: dict | None = None) -> Said:
        """Immutable: a copy can share it."""
        return self


def said(value: Message | str) -> Said:
    """A `Said` of a message or a text (a `Said` is returned as it is)."""
    return value if isinstance(value, Said) else Said(value)


def message_of(value: str) -> Message:
    """The message of kept words: a `Said`'s own, or the message saying a plain text."""
    return value.message if isinstance(value, Said) else literal(str(value))


def _validate(value: Any) -> Said:
    if isinstance(value, Message | str):
        return said(value)
    if isinstance(value, dict):
        try:
            return Said(Message.model_validate(value))
        except ValidationError as err:
            raise ValueError(f"not a message: {err.errors()[0]['msg']}") from None
    raise ValueError("should be text or a message ({key, args})")


def as_data(value: Any) -> Any:
    """Kept words as written to a file: plain text when the message has no arguments, else
    the message."""
    message = message_of(value)
    if not message.args and message.plural is None:
        return str(value)
    return message.model_dump(exclude_defaults=True)


def _text_or_data(value: Any, info: SerializationInfo) -> Any:
    context = info.context
    if isinstance(context, dict) and context.get("said") == "data":
        return as_data(value)
    return str(value)


KEPT = Annotated[str, StringConstraints(max_length=MAX_SAID)] | Message
"""What kept words are read from: a text, or a message (their JSON Schema)."""

SaidData = Annotated[Said, PlainValidator(_validate, json_schema_input_type=KEPT),
                     PlainSerializer(as_data)]
"""Kept words written as their message (event fields)."""

SaidText = Annotated[Said, PlainValidator(_validate, json_schema_input_type=KEPT),
                     PlainSerializer(_text_or_data)]
"""Kept words written as English text, or as their message when the serialization context
holds `{"said": "data"}` (a scoreboard, written as data inside its event)."""
