"""Build Skald, compiling the engine and the Vikings rules with mypyc where it can (pyproject.toml has the rest).

- A wheel or a non-editable `pip install .` compiles the modules in `skald.build.COMPILED` when mypyc and a working
  C compiler are at hand, and otherwise installs the pure-Python build with a one-line notice: the install never
  fails for want of a compiler (pip shows the notice with -v).
- An editable install stays pure (a compiled module beside its .py would hide every edit) unless SKALD_COMPILE=1.
- SKALD_COMPILE=0 builds pure whatever the kind of install.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
EDITABLE = any(command in sys.argv for command in ("editable_wheel", "develop"))


def compiled_modules() -> list[str]:
    """The source files of `skald.build.COMPILED`, read without importing skald."""
    namespace: dict[str, object] = {}
    text = (HERE / "src" / "skald" / "build.py").read_text(encoding="utf-8")
    start = text.index("COMPILED = (")
    exec(text[start : text.index(")", start) + 1], namespace)
    names = namespace["COMPILED"]
    assert isinstance(names, tuple)
    return [str(Path("src", *name.split("."))) + ".py" for name in names]


def notice(why: str) -> None:
    """The one line said when the build falls back to pure Python."""
    print(f"skald: {why}; installing the pure-Python build (same behaviour, slower)", file=sys.stderr, flush=True)


def compiler_works() -> bool:
    """Whether the C compiler Python would use (CC and the like honoured) can compile a trivial file."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("int skald_probe(void) { return 0; }\n", encoding="utf-8")
        try:
            compiler.compile([str(source)], output_dir=folder)
        except Exception:
            return False
    return True


class OptionalBuildExt(build_ext):
    """build_ext that, when compiling fails after all, removes what it built and leaves the pure build."""

    def run(self) -> None:
        """Build the extensions, or fall back to pure Python with a notice."""
        try:
            super().run()
        except Exception as error:
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            notice(f"compiling with mypyc failed ({type(error).__name__}: {error})")


def extensions() -> list[object]:
    """The mypyc extensions to build, or [] for the pure build."""
    wanted = os.environ.get("SKALD_COMPILE", "")
    if wanted == "0" or (EDITABLE and wanted != "1"):
        return []
    if not any(command in sys.argv for command in ("bdist_wheel", "build_ext", "build", "install", "editable_wheel")):
        return []  # metadata only (egg_info, sdist): nothing to compile
    try:
        from mypyc.build import mypycify
    except ImportError:
        notice("mypyc is not installed")
        return []
    if not compiler_works():
        notice(f"no working C compiler ({os.environ.get('CC', 'cc')})")
        return []
    try:
        return list(mypycify(compiled_modules(), opt_level="3"))
    except BaseException as error:  # mypyc exits through SystemExit on a type error
        notice(f"mypyc could not compile the modules ({type(error).__name__}: {error})")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
