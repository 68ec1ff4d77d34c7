"""The one refusal of the Heritage package: a narrow `ValueError` that names its rule."""

from typing import Any


class HeritageError(ValueError):
    """An entry or request the Heritage rules (docs/heritage.md) do not allow.

    `key` says which check refused (stable, for translations and tests), `params` holds the
    values the message was built from, `section` the rule section it cites (e.g. "§H3").
    (`args` is taken by `BaseException` and always a tuple, hence `params`.)
    """

    def __init__(self, key: str, section: str, message: str, **params: Any) -> None:
        self.key, self.section, self.params, self.reason = key, section, params, message
        super().__init__(f"{section}: {message}")


def heritage_error_in(err: Exception) -> HeritageError | None:
    """The `HeritageError` behind an exception: itself, or the first one a pydantic
    `ValidationError` wrapped (model validators raise it as a ValueError); None otherwise."""
    if isinstance(err, HeritageError):
        return err
    errors = getattr(err, "errors", None)
    if callable(errors):
        for problem in errors():
            found = (problem.get("ctx") or {}).get("error")
            if isinstance(found, HeritageError):
                return found
    return None
