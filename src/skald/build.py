"""Which build of Skald runs: the pure-Python reference, or the engine and game rules compiled with mypyc.

A non-editable install compiles `COMPILED` when a C compiler is present (setup.py). `SKALD_PURE=1` makes such an
install run its Python sources instead: `prefer_sources()`, called first thing by `skald/__init__.py`, puts a finder
ahead of the ordinary ones that loads each compiled module from the `.py` file installed beside it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from importlib.abc import MetaPathFinder
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")

#: The modules a compiled build compiles (setup.py reads this list): the engine's state and play loop, the
#: Vikings, Vikingdoms and Vikingatid rules (not Vikingatid's board loader and validator, run once), Vikingatid's
#: dealing of unseen cards for a seat's resampled worlds, and the MCTS bot's search. Each is written to compile
#: (docs/engine.md, "Writing a game that compiles").
COMPILED = (
    "skald.engine.state",
    "skald.engine.play",
    "skald.games.vikings.steps",
    "skald.games.vikings.components",
    "skald.games.vikings.actions",
    "skald.games.vikings.mainland",
    "skald.games.vikings.scoring",
    "skald.games.vikings.advanced",
    "skald.games.vikings.state",
    "skald.games.vikings.evaluation",
    "skald.games.vikingdoms.board",
    "skald.games.vikingdoms.actions",
    "skald.games.vikingdoms.tiles",
    "skald.games.vikingdoms.state",
    "skald.games.vikingdoms.evaluation",
    "skald.games.vikingatid.position",
    "skald.games.vikingatid.steps",
    "skald.games.vikingatid.setup",
    "skald.games.vikingatid.actions",
    "skald.games.vikingatid.initiative",
    "skald.games.vikingatid.danger",
    "skald.games.vikingatid.trade",
    "skald.games.vikingatid.combat",
    "skald.games.vikingatid.plunder",
    "skald.games.vikingatid.kingdoms_war",
    "skald.games.vikingatid.journeys",
    "skald.games.vikingatid.reactions",
    "skald.games.vikingatid.elections",
    "skald.games.vikingatid.silver",
    "skald.games.vikingatid.purchases",
    "skald.games.vikingatid.conquest",
    "skald.games.vikingatid.emigration",
    "skald.games.vikingatid.taxation",
    "skald.games.vikingatid.cleanup",
    "skald.games.vikingatid.victory_points",
    "skald.games.vikingatid.christianisation",
    "skald.games.vikingatid.end",
    "skald.games.vikingatid.cards.deck",
    "skald.games.vikingatid.cards.windows",
    "skald.games.vikingatid.cards.play",
    "skald.games.vikingatid.cards.effect",
    "skald.games.vikingatid.cards.journey",
    "skald.games.vikingatid.cards.fights",
    "skald.games.vikingatid.cards.kingdoms",
    "skald.games.vikingatid.cards.elections",
    "skald.games.vikingatid.cards.effects",
    "skald.games.vikingatid.situation",
    "skald.games.vikingatid.step_rules",
    "skald.games.vikingatid.state",
    "skald.games.vikingatid.evaluation",
    "skald.games.vikingatid.resample",
    "skald.games.vikingatid.dealing",
    "skald.bots.evaluation",
    "skald.bots.mcts",
)


class SourceFirst(MetaPathFinder):
    """Finds the compiled modules' `.py` sources, so that the extension beside each is never loaded."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of `fullname`'s source file, for a module in `COMPILED`; None lets the ordinary finders look."""
        if fullname not in COMPILED or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def prefer_sources() -> None:
    """With `SKALD_PURE=1`, load the compiled modules from their Python sources (once)."""
    if os.environ.get("SKALD_PURE", "") not in ("", "0") and not any(
        isinstance(finder, SourceFirst) for finder in sys.meta_path
    ):
        sys.meta_path.insert(0, SourceFirst())


def build_name() -> str:
    """'compiled (mypyc)' when the engine and the Vikings rules run compiled, 'pure Python' otherwise; says so when
    a compiled build is installed but SKALD_PURE=1 runs it pure."""
    origins = []
    for name in COMPILED:
        module = sys.modules.get(name)
        spec = module.__spec__ if module is not None else importlib.util.find_spec(name)
        origins.append((spec.origin if spec is not None else None) or "")
    if all(origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for origin in origins):
        return "compiled (mypyc)"
    if any(isinstance(finder, SourceFirst) for finder in sys.meta_path):
        return "pure Python (SKALD_PURE=1)"
    return "pure Python"


def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
    """Stands in for `mypy_extensions.mypyc_attr` where mypy is not installed: at run time the decorator does
    nothing (mypyc reads it when it compiles)."""
    return lambda cls: cls
