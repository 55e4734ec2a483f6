"""The compiled engine: mypyc compiles the engine modules listed in pyproject.toml
(`[tool.toonerville.compiled] modules`) to C extensions from the same typed source.

    python tools/compile_engine.py           # build in place, next to the sources (if stale)
    python tools/compile_engine.py --force   # build in place even if up to date
    python tools/compile_engine.py --clean   # remove the in-place build: the pure engine runs
    python tools/compile_engine.py --status  # say whether an up-to-date in-place build exists

Owns building the extensions and the record of what they were built from. `make test`
builds in place (an editable install does not compile); hatch_build.py builds a wheel's
extensions with `build_extensions` into a temporary folder. The sources stay the
source of truth: an in-place build writes `toonerville/_compiled_sources.txt` (the
SHA-256 of every compiled module's source), and `toonerville/__init__.py` uses the
compiled modules only while every hash still matches, so an edited source never runs
as a stale extension. `TOONERVILLE_PURE=1` forces the pure engine at run time either way.

Needs mypy (mypyc ships with it), setuptools and a C compiler.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import os
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "toonerville"
STAMP = ROOT / PACKAGE / "_compiled_sources.txt"
#: file name patterns of what a build leaves in the tree (the per-module extensions, the
#: shared library mypyc puts beside the package, the stamp)
BUILT = ("*.so", "*.pyd")


def compiled_modules(root: Path = ROOT) -> list[str]:
    """The source files to compile, relative to the repository (from pyproject.toml)."""
    with open(root / "pyproject.toml", "rb") as f:
        config = tomllib.load(f)
    modules = config["tool"]["toonerville"]["compiled"]["modules"]
    return [str(m) for m in modules]


def source_hashes(modules: Sequence[str], root: Path = ROOT) -> str:
    """The stamp's text: one `sha256  path` line per compiled module."""
    lines = []
    for path in modules:
        digest = hashlib.sha256((root / path).read_bytes()).hexdigest()
        lines.append(f"{digest}  {path}\n")
    return "".join(lines)


def built_files(root: Path = ROOT) -> list[Path]:
    """The extension files of an in-place build (the package's and the shared library)."""
    found: list[Path] = []
    for pattern in BUILT:
        found += (root / PACKAGE).rglob(pattern)
        found += root.glob(pattern)  # mypyc's shared library sits beside the package
    return sorted(found)


def up_to_date(root: Path = ROOT) -> bool:
    """Is there an in-place build, for this interpreter, of the sources as they are?"""
    stamp = root / PACKAGE / STAMP.name
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so
    if not stamp.exists() or not any(p.name.endswith(suffix) for p in built_files(root)):
        return False
    return stamp.read_text() == source_hashes(compiled_modules(root), root)


def build_extensions(modules: Sequence[str], build_lib: Path | None, *, root: Path = ROOT,
                     jobs: int | None = None, quiet: bool = True) -> None:
    """Compile `modules` with mypyc and setuptools' build_ext: in place when `build_lib`
    is None, else into `build_lib` (a wheel's tree). The C files go to a temporary folder.
    """
    from mypyc.build import mypycify  # imported here: only a build needs mypy
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    old_cwd = os.getcwd()
    os.chdir(root)  # mypyc names the modules after the paths, relative to the repository
    try:
        with tempfile.TemporaryDirectory(prefix="toonerville-mypyc-") as tmp:
            extensions = mypycify(
                # mypy's cache of its own: `make test` runs the type check beside this
                # build, and two mypy processes writing one .mypy_cache can read each
                # other's half-written files (mypy then stops with an INTERNAL ERROR)
                [f"--cache-dir={root / 'build' / 'mypyc-cache'}", *modules],
                opt_level="3",
                debug_level="0",
                multi_file=True,  # one C file per module, so the compiler can run in parallel
                target_dir=str(Path(tmp) / "c"),
                group_name=PACKAGE,  # the shared library is `toonerville__mypyc`, not a hash
            )
            dist = Distribution({"name": PACKAGE, "ext_modules": extensions})
            dist.verbose = not quiet
            cmd = _parallel_build_ext(build_ext, jobs or os.cpu_count() or 1)(dist)
            cmd.inplace = build_lib is None
            if build_lib is not None:
                cmd.build_lib = str(build_lib)
            cmd.build_temp = str(Path(tmp) / "obj")
            cmd.ensure_finalized()
            cmd.run()
    finally:
        os.chdir(old_cwd)


def _parallel_build_ext(base: type[Any], jobs: int) -> type[Any]:
    """setuptools' build_ext, compiling the C files of one extension `jobs` at a time:
    mypyc puts every module's C file into one shared library, which build_ext would
    otherwise compile one file after another."""

    class ParallelBuildExt(base):  # type: ignore[misc]
        def build_extension(self, ext: Any) -> None:
            compile_one = self.compiler.compile

            def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    batches = pool.map(lambda s: compile_one([s], *args, **kwargs), sources)
                    return [obj for batch in batches for obj in batch]

            self.compiler.compile = compile_all
            try:
                super().build_extension(ext)
            finally:
                self.compiler.compile = compile_one

    return ParallelBuildExt


def clean(root: Path = ROOT) -> list[Path]:
    removed = built_files(root)
    for path in removed:
        path.unlink()
    stamp = root / PACKAGE / STAMP.name
    if stamp.exists():
        stamp.unlink()
        removed.append(stamp)
    shutil.rmtree(root / "build" / "mypyc", ignore_errors=True)
    return removed


def build_in_place(root: Path = ROOT, *, force: bool = False, jobs: int | None = None) -> bool:
    """Build next to the sources unless an up-to-date build is there; True if it built."""
    if not force and up_to_date(root):
        return False
    clean(root)
    modules = compiled_modules(root)
    build_extensions(modules, None, root=root, jobs=jobs)
    (root / PACKAGE / STAMP.name).write_text(source_hashes(modules, root))
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--force", action="store_true", help="build even if up to date")
    what.add_argument("--clean", action="store_true", help="remove the in-place build")
    what.add_argument("--status", action="store_true", help="is the in-place build current?")
    parser.add_argument("--jobs", type=int, default=None, help="C compilers run at once")
    args = parser.parse_args(argv)
    if args.clean:
        for path in clean():
            print(f"removed {path.relative_to(ROOT)}")
        return 0
    if args.status:
        current = up_to_date()
        print("compiled engine: " + ("up to date" if current else "missing or stale"))
        return 0 if current else 1
    start = time.perf_counter()
    if build_in_place(force=args.force, jobs=args.jobs):
        print(f"compiled engine: {len(compiled_modules())} modules built in place in "
              f"{time.perf_counter() - start:.0f} s")
    else:
        print("compiled engine: up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
