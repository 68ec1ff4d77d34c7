"""The one refusal of the Blood Feud package: a key for code, the values involved for display,
and an English message that names the section of docs/bloodfeud.md it applies."""

from typing import Any


class BloodFeudError(ValueError):
    """Something the station aids (as docs/bloodfeud.md reads them) do not allow; nothing changed.

    `key` says which check refused (e.g. "power_range", "quorum", "vote_per_round"), `params`
    holds the values involved (the name `args` is taken by every exception, as a tuple), and
    `section` is the §B section the message cites.
    """

    def __init__(self, key: str, section: str, message: str, **params: Any) -> None:
        self.key, self.section, self.reason = key, section, message
        self.params: dict[str, Any] = params
        super().__init__(f"{message} ({section})")


class BloodFeudFileError(BloodFeudError):
    """A Blood Feud file cannot be used as it stands: unreadable, not JSON, too large or deep,
    the wrong `format`, or fields the format does not have (docs/bloodfeud-format.md)."""
