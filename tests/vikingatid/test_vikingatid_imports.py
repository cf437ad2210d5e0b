"""Vikingatid's modules import one another one way only, even for the type checker (docs/vikingatid.md, "The plan of
the package"): the card effects, renderers, tensor and evaluation read a `Situation`, never the state that imports
them, so no circle closes through an `if TYPE_CHECKING:` import either."""

from __future__ import annotations

import ast
from pathlib import Path

import skald.games.vikingatid

PACKAGE = "skald.games.vikingatid"
ROOT = Path(skald.games.vikingatid.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    """Each module of the package by its dotted name."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([PACKAGE, *parts])] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules `name` imports anywhere in its source, type-only imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.add(whole if whole in modules else node.module)
    return {module for module in found if module in modules and module != name}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, as the modules round it, or None."""
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> list[str] | None:
        if node in trail:
            return [*trail[trail.index(node) :], node]
        if node in done:
            return None
        for child in sorted(graph[node]):
            circle = visit(child, [*trail, node])
            if circle is not None:
                return circle
        done.add(node)
        return None

    for start in sorted(graph):
        circle = visit(start, [])
        if circle is not None:
            return circle
    return None


def test_no_vikingatid_module_imports_itself_back_even_for_the_type_checker() -> None:
    modules = _modules()
    assert f"{PACKAGE}.cards.effects" in modules and f"{PACKAGE}.situation" in modules
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    circle = _circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_circle_finder_sees_a_circle_closed_by_a_type_only_import() -> None:
    assert _circle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None
