"""The layers of docs/DESIGN.md, read from the source: front ends name no game, and no module imports itself back.

A front end (skald.engine, cli, web, bots, rl, sim) knows games only through the registry and the contract: it
never imports a game package and never compares anything with a game's name. No two modules of `src/` import each
other, directly or round a circle: imports inside functions count, and so do imports made only for the type
checker (`if TYPE_CHECKING:`). The web's rooms stay small (files and functions), and the docs and the code speak of
Skald as it is.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import proof_game  # noqa: F401  (registers "proof", so its name is forbidden in front ends too)
from skald.engine import game_names

SRC = Path(__file__).resolve().parent.parent / "src"
FRONT_ENDS = ("engine", "cli", "web", "bots", "rl", "sim", "train")


def module_name(path: Path) -> str:
    """`skald.cli.play` for src/skald/cli/play.py, `skald.cli` for its `__init__.py`."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(SRC.rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node that runs (at import or when a function is called): all but the body of `if TYPE_CHECKING:`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported(name: str, path: Path, tree: ast.AST, runtime_only: bool = True) -> set[str]:
    """The modules of `src/` that `name` imports; `from package import submodule` counts as the submodule."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(tree) if runtime_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in found if module in MODULES and module != name}


def import_graph() -> dict[str, set[str]]:
    """Each module of `src/` with the modules of `src/` it imports at run time."""
    return {name: imported(name, path, ast.parse(path.read_text(), str(path))) for name, path in MODULES.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules round it (the first repeated at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        trail: list[str] = []
        on_trail: dict[str, int] = {}
        stack: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        trail.append(start)
        on_trail[start] = 0
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                trail.pop()
                del on_trail[node]
                done.add(node)
            elif child in on_trail:
                return [*trail[on_trail[child] :], child]
            elif child not in done:
                on_trail[child] = len(trail)
                trail.append(child)
                stack.append((child, iter(sorted(graph[child]))))
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of string constants standing alone as statements: docstrings, and attribute docstrings."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def front_end_files() -> list[Path]:
    """Every module of the front-end layers."""
    return [path for path in MODULES.values() if path.relative_to(SRC / "skald").parts[0] in FRONT_ENDS]


def test_no_front_end_imports_a_game_package():
    offences = []
    for path in front_end_files():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):  # a type-only import of a game ties the layers as well
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offences += [
                f"{path.relative_to(SRC)}:{node.lineno} imports {name}"
                for name in names
                if name == "skald.games" or name.startswith("skald.games.")
            ]
    assert not offences, "front ends reach games only through the registry:\n" + "\n".join(offences)


def test_no_front_end_names_a_registered_game_in_its_code():
    names = set(game_names())
    assert {"vikings", "vikingdoms", "proof"} <= names
    offences = []
    for path in front_end_files():
        tree = ast.parse(path.read_text(), str(path))
        prose = _docstrings(tree)
        offences += [
            f"{path.relative_to(SRC)}:{node.lineno} names the game {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in names and id(node) not in prose
        ]
    assert not offences, "front ends ask the game, never branch on its name:\n" + "\n".join(offences)


def test_no_import_circles_among_the_modules_of_src():
    graph = import_graph()
    assert "skald.engine.state" in graph and graph["skald.cli.main"], "the graph is read from the source"
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_the_circle_finder_names_a_circle_it_is_shown():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_type_checking_imports_and_function_imports_are_told_apart():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from skald.engine.game import Game\n"
        "def later():\n    from skald.engine.record import Record\n"
    )
    tree = ast.parse(source)
    path = SRC / "skald" / "engine" / "example.py"
    assert imported("skald.engine.example", path, tree) == {"skald.engine.record"}
    assert imported("skald.engine.example", path, tree, runtime_only=False) == {
        "skald.engine.record",
        "skald.engine.game",
    }


def _registers_a_game(path: Path) -> bool:
    """Whether the module defines a `Game` subclass or registers one."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(base).endswith("Game") for base in node.bases):
            return True
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("register"):
            return True
    return False


def test_no_state_module_imports_its_games_registration():
    """A game's state is the rules alone: the module that defines or registers the game (and so imports the state)
    is never imported back by it, not even for the type checker."""
    offences = []
    for state_path in sorted((SRC / "skald" / "games").glob("*/state.py")):
        package = module_name(state_path).rpartition(".")[0]
        registering = {
            name
            for name, path in MODULES.items()
            if (name == package or name.startswith(package + ".")) and _registers_a_game(path)
        }
        assert registering, f"{package}: no module defines its game"
        tree = ast.parse(state_path.read_text(), str(state_path))
        reached = imported(module_name(state_path), state_path, tree, runtime_only=False) & registering
        offences += [f"{module_name(state_path)} imports {name}" for name in sorted(reached)]
    assert not offences, "\n".join(offences)


WEB = SRC / "skald" / "web"
#: Words that speak of how Skald was built rather than what it is.
PROCESS_WORDS = re.compile(
    r"\b(?:issues? #?\d+|part \d+ of|\(part \d+|(?:first|second|third|fourth|fifth|earlier|previous|last|this) session"
    r"|session \d+|stop \d+)\b",
    re.IGNORECASE,
)


def test_no_web_module_over_500_lines_and_no_function_over_80():
    long_files = [
        f"{path.relative_to(SRC)}: {count} lines"
        for path in sorted(WEB.rglob("*.py"))
        if (count := len(path.read_text().splitlines())) > 500
    ]
    long_functions = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > 80:
                    long_functions.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}: {length} lines")
    assert not long_files and not long_functions, "\n".join(long_files + long_functions)


def test_no_front_end_script_over_400_lines():
    scripts = sorted((WEB / "static").glob("*.js"))
    assert scripts, "the front end's scripts are read"
    long = [f"{path.name}: {n} lines" for path in scripts if (n := len(path.read_text().splitlines())) > 400]
    assert not long, "\n".join(long)


def test_no_import_circles_even_for_the_type_checker():
    graph = {
        name: imported(name, path, ast.parse(path.read_text(), str(path)), runtime_only=False)
        for name, path in MODULES.items()
    }
    cycle = find_cycle(graph)
    assert cycle is None, "import circle (type-checking imports included): " + " -> ".join(cycle or [])


def test_docs_and_code_describe_skald_not_how_it_was_built():
    root = SRC.parent
    texts = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    for folder in ("src", "tests", "benchmarks", "examples"):
        texts += sorted((root / folder).rglob("*.py"))
    offences = [
        f"{path.relative_to(root)}:{number}: {match.group(0)!r}"
        for path in texts
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        for match in PROCESS_WORDS.finditer(line)
        if path.name != "test_architecture.py"
    ]
    assert not offences, "\n".join(offences)
