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
