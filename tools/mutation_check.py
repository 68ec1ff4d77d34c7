"""Mutation check of the rules tests: apply deliberate one-line rule mutations, one at a time, to
a temporary copy of the engine and run the rules tests; each mutation must make them fail.

Run from the repo root (slow: a test run per mutation; not part of the pytest suite):

    python tools/mutation_check.py            # every mutation
    python tools/mutation_check.py 3 17       # only these (numbers as listed)

Prints one line per mutation (caught / MISSED / STALE when its line is no longer in the code)
and the totals; exits 1 if any mutation was missed or is stale.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
COPY = ("companion", "models", "views", "tests", "examples", "docs", "tools", "README.md",
        "pyproject.toml")
TESTS = ["tests/test_rules_setup.py", "tests/test_rules_round.py",
         "tests/test_rules_planning.py", "tests/test_rules_resolution.py",
         "tests/test_rules_frenzy.py", "tests/test_rules_scoring.py",
         "tests/test_rules_position.py", "tests/test_rules_refusals.py",
         "tests/test_rules_effects.py", "tests/test_rules_undo.py",
         "tests/test_rules_fidelity.py", "tests/test_cards.py", "tests/test_catalogue_facts.py",
         "tests/test_copies.py", "tests/test_storage_migration.py", "tests/test_cli.py"]
"""The rules tests a mutation must break (the property, view and browser tests are left out:
they are slow, and the point is that the focused tests catch each rule)."""


class Mutation(NamedTuple):
    """One deliberate rule error: in `path`, the line holding `old` gets `new` instead."""

    path: str
    old: str
    new: str
    rule: str


QUERIES = "companion/rules/queries.py"
ENGINE = "companion/rules/engine.py"
PRIMITIVES = "companion/rules/primitives.py"
EFFECTS = "companion/rules/effects.py"
LEGAL = "companion/rules/legal.py"
APPLY = "companion/rules/apply.py"
SCORING = "companion/rules/scoring.py"

MUTATIONS = [
    Mutation(QUERIES, "REWARDS = {1: (1, 1, 1), 2: (2, 2, 1), 3: (3, 2, 1)}",
             "REWARDS = {1: (1, 1, 1), 2: (2, 2, 1), 3: (3, 2, 2)}", "§8.4 rewards table"),
    Mutation(QUERIES, "key=lambda p: (-totals[p], not wins_ties(state, p), "
             "order.index(p)))", "key=lambda p: (-totals[p], not wins_ties(state, p), "
             "-order.index(p)))", "§1 ties go to turn order"),
    Mutation(QUERIES, "key=lambda p: (-totals[p], not wins_ties(state, p), ",
             "key=lambda p: (-totals[p], wins_ties(state, p), ", "§15 win-ties Ally at a conflict"),
    Mutation(QUERIES, "        base //= 2", "        base = (base + 1) // 2",
             "§15 GA02 halves rounding down"),
    Mutation(QUERIES, "modifiers=list(card.modifiers), power=max(0, total))",
             "modifiers=list(card.modifiers), power=total)", "Ruling: Power never below 0"),
    Mutation(QUERIES, "judged = with_cards if loc.card_players is None else "
             "loc.card_players", "judged = with_cards", "§8.4 judged at the end of Withdraw"),
    Mutation(QUERIES, "return [s for s in seats if not state.players[s].eliminated]",
             "return seats", "§11 eliminated players are skipped"),
    Mutation(QUERIES, "if wins_ties(state, upper) and not wins_ties(state, lower)",
             "if False", "§8.4 tie note names the win-ties Ally"),
    Mutation(APPLY, "card.modifiers = []  # §14", "pass  # §14",
             "§14 a moved card drops its modifiers"),
    Mutation(APPLY, "loc.positions[e.player].blood = 0",
             "loc.positions[e.player].blood, loc.positions[e.player].cards = 0, []",
             "§11 others' cards stay on an eliminated Position"),
    Mutation(APPLY, "alliance.append(copy_model(e.card))",
             "alliance.append(e.card)", "events never change (copy on apply)"),
    Mutation(APPLY, 'if e.step == "revelation":  # the Withdraw step',
             'if e.step == "conflict":  # the Withdraw step', "§8.4 judged when Withdraw ends"),
    Mutation(APPLY, "p.diablerie_up += p.diablerie_down",
             "p.diablerie_up += 0", "§10 face-down Diablerie flips up at End of Round"),
    Mutation(APPLY, 'card = card.model_copy(update={"id": VICTIM.id})',
             "pass", "§1 entered Victims carry the Victim id"),
    Mutation(ENGINE, "if cmd.face_up and same_card(cmd.card.key(), "
             "taken_cards(s).get(seat, [])):", "if False:", "§2 one copy: face-up play"),
    Mutation(ENGINE, "if same_card(card.key(), taken.get(owner, [])):",
             "if False:", "§2 one copy: reveal and withdraw identities"),
    Mutation(ENGINE, "        if holder is not None:", "        if False:",
             "§1 an Ally in an Alliance is not laid again"),
    Mutation(ENGINE, "cost = (0 if cmd.face_up else 1) + cmd.blood",
             "cost = cmd.blood", "§7 face down costs 1 Blood (last-Blood check)"),
    Mutation(ENGINE, "    if p.blood - cost < 1:", "    if p.blood - cost < 0:",
             "§7 Ruling: the last Blood stays"),
    Mutation(ENGINE, 'delta=1, reason="won the Prince\'s Haven"',
             'delta=2, reason="won the Prince\'s Haven"', "§8.4 Prince's Haven +1 Influence"),
    Mutation(QUERIES, 'ranking=with_cards[:1], outcome="uncontested")',
             'ranking=ranking, outcome="uncontested")',
             "§8.4 Ruling: uncontested ranks only the player with cards"),
    Mutation(ENGINE, "return cards[index - 1].uid", "return cards[0].uid",
             "formats: a card named by place"),
    Mutation(ENGINE, "if cmd.include_teammate and effects.partner_challenge(s, "
             "seat) is None:", "if False:", "§13 include_teammate needs a partner's Challenge"),
    Mutation(PRIMITIVES, "if (by is not None and by != player and not "
             "teammates(s, by, player)", "if (by is not None and by != player",
             "§10/§13 no Influence for a teammate's Frenzy"),
    Mutation(PRIMITIVES, 'take_diablerie(ctx, player, 2 if card.card.ability == '
             '"AL14" else 1)', "take_diablerie(ctx, player, 1)", "§15 AL14 gives 2 Diablerie"),
    Mutation(PRIMITIVES, 'if c.card.ability == "drained_in_frenzy"]',
             'if c.card.ability == "nothing"]', "§10/§15 the Frenzy-drain Ally is drained first"),
    Mutation(EFFECTS, "if holder == seat or (partner and not include_teammate):",
             "if holder == seat:", "§13 Challenge spares the partner unless included"),
    Mutation(EFFECTS, "            if loc.positions[owner].blood > 0:",
             "            if True:", "§15 BR01 only with Deployed Blood"),
    Mutation(EFFECTS, "lose_blood(ctx, r, s.round, owner, reason, loc.id)",
             "lose_blood(ctx, r, 1, owner, reason, loc.id)", "§15 BR04 loses the round number"),
    Mutation(SCORING, "not any(wins_ties(state, s) for s in seats),",
             "False,", "§12/§15 win-ties Ally in the team table"),
    Mutation(SCORING, "return (-breakdowns[seat].total, not wins_ties(state, "
             "seat), -p.blood,", "return (-breakdowns[seat].total, not wins_ties(state, "
             "seat), p.blood,", "§12 more Blood wins a tie"),
    Mutation(SCORING, "total = active + drained + p.influence + relic - "
             "p.diablerie", "total = active + drained + p.influence + relic",
             "§12 −1 Influence per Diablerie"),
    Mutation(LEGAL, 'if drained and s.phase == "planning" and '
             "current_player(s) == seat:", "if drained:",
             "§15 restoring Relic in its owner's turn"),
    Mutation(LEGAL, "            if blood_relic_window(s):", "            if True:",
             "§15 Blood Relic as Resolution begins"),
    Mutation("models/setup.py", "return {n: pos.turns_taken + (n in before) for n in names}",
             "return {n: pos.turns_taken for n in names}", "§7 mid-lap positions"),
    Mutation("models/setup.py", "            if key.casefold() in keys:", "            if False:",
             "§1 an entered position holds each Ally once"),
    Mutation("models/power.py", "steps.append(f\"{what} ({m.source})", "steps.insert(0, f\"{what} "
             "({m.source})", "§8.4 Power explained in the order applied"),
    Mutation("companion/storage/transfer.py", 'node["ability"] = "drained_in_frenzy"',
             "pass", "schema 2 migration of the Frenzy-drain Ally"),
    Mutation("companion/rules/catalogue.py", 'if entry.get("id") == "LANI-KAHALE":', "if False:",
             "§15 Lani Kahale is a Victim (catalogue upgrade)"),
]


def _copy(dest: Path) -> None:
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns(
                "__pycache__", ".hypothesis", "browser"))
        else:
            shutil.copy2(src, dest / name)


def _run(where: Path, timeout: float) -> tuple[int, float]:
    """Run the rules tests in `where` (stop at the first failure); (exit code, seconds)."""
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *TESTS],
            cwd=where, env=env, capture_output=True, timeout=timeout)
        code = done.returncode
    except subprocess.TimeoutExpired:
        code = -1
    return code, time.monotonic() - start


def _output(where: Path) -> str:
    """The end of the rules tests' output (to see why the baseline fails)."""
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                           *TESTS], cwd=where, env=env, capture_output=True, text=True)
    return done.stdout[-3000:]


def _apply(where: Path, m: Mutation) -> bool:
    """Replace the one line holding `m.old`; False when it is not there exactly once."""
    path = where / m.path
    text = path.read_text("utf-8")
    if text.count(m.old) != 1:
        return False
    path.write_text(text.replace(m.old, m.new), "utf-8")
    return True


def main(argv: list[str]) -> int:
    """Check the chosen mutations (all by default); print a report."""
    chosen = [int(a) for a in argv] or list(range(1, len(MUTATIONS) + 1))
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        base = Path(tmp) / "base"
        _copy(base)
        probe = subprocess.run(
            [sys.executable, "-c", "import companion; print(companion.__file__)"],
            cwd=base, env={**os.environ, "PYTHONPATH": str(base)}, capture_output=True, text=True)
        if not probe.stdout.startswith(str(base)):
            print(f"the copy is not the code imported: {probe.stdout or probe.stderr}")
            return 2
        code, seconds = _run(base, 600)
        print(f"baseline (no mutation): exit {code} in {seconds:.0f} s")
        if code != 0:
            print("the tests fail without any mutation; fix them first")
            print(_output(base))
            return 2
        caught = missed = stale = 0
        for n in chosen:
            m = MUTATIONS[n - 1]
            work = Path(tmp) / f"m{n}"
            shutil.copytree(base, work)
            if not _apply(work, m):
                stale += 1
                print(f"{n:>3}  STALE   {m.path}: line not found once: {m.old!r}")
                continue
            code, seconds = _run(work, 600)
            shutil.rmtree(work, ignore_errors=True)
            if code == 0:
                missed += 1
                verdict = "MISSED"
            else:
                caught += 1
                verdict = "caught" if code > 0 else "timeout"
            print(f"{n:>3}  {verdict:7} {seconds:5.1f} s  {m.rule}  ({m.path})", flush=True)
        print(f"caught {caught} of {len(chosen)}; missed {missed}; stale {stale}")
    return 1 if missed or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
