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
