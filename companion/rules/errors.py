"""Narrow errors for refused commands; every message names the player, the action and the rule."""


class RuleError(ValueError):
    """A command the rules do not allow now; state and log are unchanged."""

    def __init__(self, rule: str, action: str, message: str, player: str | None = None):
        self.rule, self.action, self.player, self.reason = rule, action, player, message
        who = f" for {player}" if player else ""
        super().__init__(f"{action} refused{who}: {message} ({rule})")


class PhaseError(RuleError):
    """The command does not belong to the current phase or step."""


class TurnError(RuleError):
    """It is not this player's turn (or they are out of the game)."""


class TableError(ValueError):
    """A table action refused (table mode); the table and its game are unchanged."""


class AccessError(TableError):
    """The device's role may not do this now (names the role and the reason)."""

    def __init__(self, role: str, action: str, reason: str):
        self.role, self.action, self.reason = role, action, reason
        super().__init__(f"{action} refused for {role}: {reason}")


class StaleVersion(TableError):
    """The action was drawn from an older version of the table: the table changed since."""


class InputRefused(TableError):
    """A per-player input (Stay/Withdraw, a card's identity, a take-back) is not valid now."""


PLAIN_WORDS = {
    "extra_forbidden": "a field this format does not have (misspelt, or from another program)",
    "missing": "missing",
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number",
    "string_type": "should be text",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "list_type": "should be a list",
    "dict_type": "should be an object",
    "model_type": "should be an object",
}
"""A validation problem's kind, said in plain words (the others keep their own message)."""


def brief(err: Exception, limit: int = 300) -> str:
    """An error as one short line: a validation error gives its first problem (where, and in
    plain words) and a count."""
    from pydantic import ValidationError

    if isinstance(err, ValidationError):
        problems = err.errors()
        first = problems[0]
        loc = ".".join(str(x) for x in first["loc"])
        text = PLAIN_WORDS.get(first["type"]) or first["msg"].removeprefix("Value error, ")
        text = f"{loc}: {text}" if loc else text
        if len(problems) > 1:
            text += f" (and {len(problems) - 1} more problem(s))"
    else:
        text = str(err)
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
