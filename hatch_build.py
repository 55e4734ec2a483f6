"""The wheel's build hook (hatchling): the compiled engine where a C compiler is at hand,
the pure engine everywhere else, from the same source.

A standard wheel compiles the modules listed in pyproject.toml
(`[tool.toonerville.compiled] modules`) with mypyc (tools/compile_engine.py) and ships
the extensions beside the .py sources, tagged for this Python and platform. The wheel is
pure (`py3-none-any`, what Pyodide and the static site install) when:

- `TOONERVILLE_PURE=1` is set (the workflow's pure wheel, tools/build_site.py), or
- the compile fails (no C compiler, no mypy): a warning, then the pure wheel, unless
  `TOONERVILLE_COMPILED=1` demands the compiled one (the workflow's platform wheels).

An editable install never compiles (`make test` builds in place instead). The extensions
are kept in build/compiled-engine/, by the sources' hashes and the interpreter: pip asks
hatchling for a whole wheel to read its metadata and then again for the wheel it installs,
and the second build reuses the first one's extensions instead of compiling twice.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


class CompiledEngineHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or _flag("TOONERVILLE_PURE"):
            return
        sys.path.insert(0, str(ROOT / "tools"))
        try:
            import compile_engine
        finally:
            sys.path.pop(0)
        modules = compile_engine.compiled_modules(ROOT)
        key = hashlib.sha256((compile_engine.source_hashes(modules, ROOT) + sys.version
                              + sysconfig.get_platform()).encode()).hexdigest()[:16]
        out = ROOT / "build" / "compiled-engine" / key
        if not (out / "done").exists():
            shutil.rmtree(out, ignore_errors=True)
            try:
                compile_engine.build_extensions(modules, out, root=ROOT)
            except (Exception, SystemExit) as error:  # setuptools: no compiler = SystemExit
                if _flag("TOONERVILLE_COMPILED"):
                    raise
                self.app.display_warning(
                    f"toonerville: the compiled engine could not be built ({error}); "
                    "this wheel has the pure-Python engine")
                return
            (out / "done").touch()
        for path in sorted(out.rglob("*")):
            if path.suffix in (".so", ".pyd"):
                build_data["force_include"][str(path)] = str(path.relative_to(out))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
