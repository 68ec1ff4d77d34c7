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
    """A table action refused (table mode, issue 11); the table and its game are unchanged."""


class AccessError(TableError):
    """The device's role may not do this now (names the role and the reason)."""

    def __init__(self, role: str, action: str, reason: str):
        self.role, self.action, self.reason = role, action, reason
        super().__init__(f"{action} refused for {role}: {reason}")


class StaleVersion(TableError):
    """The action was drawn from an older version of the table: the table changed since."""


class InputRefused(TableError):
    """A per-player input (Stay/Withdraw, a card's identity, a take-back) is not valid now."""


def brief(err: Exception, limit: int = 300) -> str:
    """An error as one short line: a validation error gives its first problem and a count."""
    from pydantic import ValidationError

    if isinstance(err, ValidationError):
        problems = err.errors()
        first = problems[0]
        loc = ".".join(str(x) for x in first["loc"])
        text = first["msg"].removeprefix("Value error, ")
        text = f"{loc}: {text}" if loc else text
        if len(problems) > 1:
            text += f" (and {len(problems) - 1} more problem(s))"
    else:
        text = str(err)
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
