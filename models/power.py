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

    def explain(self) -> str:
        """'Label 6, −2 (source) → 4, printed Power halved (source) → 1': the modifiers in the
        order they were applied; halving acts on the printed Power (§15 GA02)."""
        if not self.face_up:
            return "face-down card 0"
        printed = self.printed or 0
        steps, halved, added = [], False, 0
        for m in self.modifiers:
            if m.kind == "halve_printed":
                halved, what = True, "printed Power halved"
            else:
                added += m.amount
                what = f"{m.amount:+d}".replace("-", "−")
            steps.append(f"{what} ({m.source}) → {(printed // 2 if halved else printed) + added}")
        if not steps:
            return f"{self.label} {self.power}"
        floor = "" if self.power == (printed // 2 if halved else printed) + added else (
            f", never below 0 → {self.power}")
        return f"{self.label} {printed}, " + ", ".join(steps) + floor


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
        """One line, each card's modifiers in the order they were applied with the value after
        each, e.g. 'Bloody Fury 6, printed Power halved (Wolf Companion (GA02)) → 3,
        −2 (Bloody Fury (BR01)) → 1 + 2 Blood = total 3'."""
        parts = [c.explain() for c in self.cards]
        if self.blood:
            parts.append(f"{self.blood} Blood")
        return " + ".join(parts or ["nothing"]) + f" = total {self.total}"
