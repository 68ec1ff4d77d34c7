"""Explained Power totals at a Location (§8.4)."""

from models.common import Frozen
from models.state import PowerModifier


class CardPower(Frozen):
    """One Deployed card's Power and why."""

    uid: str
    """Card id in the game."""
    label: str
    """Readable card label."""
    owner: int
    """Owner's seat."""
    face_up: bool
    """Face-down cards count 0 (§8.2)."""
    printed: int | None
    """Printed Power, if known."""
    modifiers: list[PowerModifier]
    """Modifiers applied, in order."""
    power: int
    """Resulting Power (never below 0)."""


class PowerBreakdown(Frozen):
    """A player's total Power at a Location: cards plus Deployed Blood."""

    player: int
    """Seat."""
    cards: list[CardPower]
    """Each card's Power."""
    blood: int
    """Deployed Blood (1 Power each)."""
    total: int
    """Sum of card Power and Deployed Blood."""

    def explain(self) -> str:
        """One-line explanation, e.g. 'Bloody Fury 6 -2 (...) = 4 + 3 Blood = total 7'."""
        parts = []
        for c in self.cards:
            if not c.face_up:
                parts.append("face-down card 0")
                continue
            mods = "".join(
                f" {'halved' if m.kind == 'halve_printed' else f'{m.amount:+d}'} ({m.source})"
                for m in c.modifiers
            )
            parts.append(f"{c.label} {c.printed}{mods} = {c.power}" if mods
                         else f"{c.label} {c.power}")
        if self.blood:
            parts.append(f"{self.blood} Blood")
        return " + ".join(parts or ["nothing"]) + f" = total {self.total}"
