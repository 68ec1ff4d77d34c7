"""The import graph of the project's own packages has no circle (every import counted, also
those inside functions and under TYPE_CHECKING): each module can be read knowing only what it
imports."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "models", "views")


def graph() -> dict[str, set[str]]:
    """Module → the project modules it imports."""
    mods: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            deps: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    deps.add(node.module)
                    deps.update(f"{node.module}.{a.name}" for a in node.names)
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names)
            mods[name] = deps
    return {m: {d for d in deps if d in mods and d != m} for m, deps in mods.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles() -> None:
    g = graph()
    assert len(g) > 50  # the packages were read
    assert circles(g) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


ROOMS = ("models", "companion.heritage", "companion.bloodfeud", "companion.storage",
         "companion.rules", "companion.i18n", "companion.story", "companion.library",
         "companion.table", "companion.cli", "views")
"""The rooms from the lowest up: a module may import its own room and the rooms before it."""


def room(module: str) -> int:
    """The index in ROOMS of the room a module lives in."""
    found = [i for i, r in enumerate(ROOMS) if module == r or module.startswith(r + ".")]
    assert found, f"{module} lives in no room: add it to a sub-package of companion"
    return found[-1]


def test_no_lower_room_imports_a_higher_one() -> None:
    g = graph()
    upward = sorted(f"{m} imports {d}" for m, deps in g.items() if m != "companion"
                    for d in deps if d != "companion" and room(d) > room(m))
    assert upward == []


def test_the_room_check_sees_an_upward_import() -> None:
    assert room("companion.rules.engine") < room("companion.table.hub") < room("views.app")
