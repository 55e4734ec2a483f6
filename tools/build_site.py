"""Build the kit as a static site: every notebook runs in the learner's browser (`make site`).

The site is JupyterLite's Voici app with the Pyodide kernel, written into one folder
(`build/site/` unless told otherwise) that any static web server can serve: GitHub Pages,
a school's web space, or `python -m http.server` on a USB stick. Everything comes from the
package registries (PyPI and npm); the built site asks nothing of any other host.

    python tools/build_site.py [--out DIR] [--force]

1. Pyodide: the core from the npm package `pyodide`; its lock is rewritten to list only
   the wheels this site ships (site/kernel-packages.json), with their real hashes: the
   pure-Python wheels at the lock's versions from PyPI, the kernel's own wheels from
   jupyterlite-pyodide-kernel, stand-ins for what the kernel asks for and the site does
   without (compiled sqlite3 and ssl, which the registries lack; jedi; site/stand-ins/),
   ipywidgets, and the toonerville wheel built from this repo (its
   .mo catalogues included). Every one is preloaded when the kernel starts, so no
   notebook needs an install cell and nothing is fetched from PyPI at run time.
2. `voici build` with site/jupyter_lite_config.json and site/jupyter-lite.json, the
   notebooks as contents and the kernel extension as the only federated extension.
3. Afterwards, in every page: Font Awesome from the npm package instead of a CDN (and
   nbconvert's mermaid loader, which would use one, dropped); relative URLs that Voici
   leaves unrebased in its render pages (voici issue 137) made right; links between
   notebooks point at their pages; site/url-query.js is inlined so the kernel sees the
   page's query string (?seed= ?lang= ...) in QUERY_STRING, as under Voila, and with it
   site/practice-store.js, the go-between of 07's practice list and localStorage.
4. The front door and the rulebook (tools/pages.py): `index.html` is the kit's front page
   (every language, the lessons in order) instead of JupyterLite's, the file list of
   `voici/tree/` sends a visitor there, and the rulebook is a static page beside the lessons
   of each language (`voici/render/fa/rulebook.html`): it needs no kernel. Links to the
   app's rulebook page become links to it.
5. Every page in every language: the notebooks go in as English at the root and, with
   their prose translated (toonerville.pages.prose), once more per language in a folder of its
   own (`voici/render/fa/02-runs-and-sets.html`). Each page knows its siblings in the
   other languages: `?lang=hi` on any page goes to the Hindi one, the query string and
   #anchor kept, and the links between pages stay in the language's folder.

A finished build records a digest of its inputs (sources, notebooks, site/, this script,
the lock files and the build tools' versions) in `DIR/.build-inputs`; a second run with
the same inputs does nothing, so tests and `make site` can call it freely.
"""

from __future__ import annotations

import argparse
import base64
import fcntl
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SITE_SOURCES = REPO / "site"
NOTEBOOKS = REPO / "notebooks"
NODE_MODULES = REPO / "node_modules"
DEFAULT_OUT = REPO / "build" / "site"
CACHE = REPO / "build" / "site-cache"
STAMP_NAME = ".build-inputs"

#: Pyodide 0.27's interpreter; pure wheels are downloaded for it.
PYODIDE_PYTHON = "3.12"
#: What the site takes from the npm package `pyodide` (no sourcemaps, no typings).
PYODIDE_CORE = (
    "pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
    "package.json",
)
FONT_AWESOME = NODE_MODULES / "@fortawesome" / "fontawesome-free"
KERNEL_EXTENSION = "jupyterlite-pyodide-kernel"
BUILD_TOOLS = ("voici-core", "jupyterlite-core", KERNEL_EXTENSION, "voila", "nbconvert")
CDN_CSS = re.compile(
    r'href="https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@[^/"]*/css/'
    r'(all|v4-shims)\.min\.css"'
)
CHARSET = re.compile(r'<meta charset="[^"]*"\s*/?>', re.I)
CONFIG_SCRIPT = re.compile(r'(<script id="jupyter-config-data"[^>]*>)(.*?)</script>', re.S)
CDN_FONT_AWESOME_4 = re.compile(
    r'<link rel="stylesheet" href="https://cdn\.jsdelivr\.net/npm/font-awesome@[^"]*"[^>]*>'
)
MERMAID_FROM_CDN = re.compile(
    r'<script type="module">(?:(?!</script>).)*cdnjs\.cloudflare\.com/ajax/libs/mermaid'
    r'(?:(?!</script>).)*</script>', re.S)
NOTEBOOK_LINK = re.compile(r'href="(\d\d-[A-Za-z0-9_-]+|rulebook)\.ipynb(["#?])')
#: links the rule ids of printed outputs to the rulebook (as the app's template does)
RULE_LINKS_JS = REPO / "share" / "jupyter" / "voila" / "templates" / "toonerville" / "rule-links.js"
#: the card-game keys of a seat (as the app's template has them)
KEYS_JS = RULE_LINKS_JS.with_name("keys.js")
#: a link to the app's static rulebook page (toonerville.pages.prose.RULEBOOK_STATIC)
APP_RULEBOOK_LINK = re.compile(r'href="\.\./templates/toonerville/static/rulebook-([a-z]+)\.html')
#: the languages of the site; English, the source, is at the root of `voici/render/`
SOURCE_LANGUAGE = "en"


class BuildError(RuntimeError):
    """A step of the build that cannot go on, with what to do about it."""


def log(text: str) -> None:
    print(f"[site] {text}", flush=True)


def normalise(name: str) -> str:
    """A package name as the lock and PyPI compare them."""
    return re.sub(r"[-_.]+", "-", name).lower()


# -- inputs ---------------------------------------------------------------------------------
def input_files() -> Iterator[Path]:
    """Every file whose change changes the site."""
    yield Path(__file__).resolve()
    for name in ("pyproject.toml", "package.json", "package-lock.json", "README.md",
                 "docs/rules.md", "tools/pages.py", "tools/rulebook.py",
                 "share/jupyter/voila/templates/toonerville/rule-links.js",
                 "share/jupyter/voila/templates/toonerville/keys.js"):
        yield REPO / name
    for folder, pattern in (
        (REPO / "toonerville", "*"), (NOTEBOOKS, "*"), (SITE_SOURCES, "*"),
    ):
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def inputs_digest() -> str:
    digest = hashlib.sha256()
    for path in input_files():
        digest.update(str(path.relative_to(REPO)).encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    for tool in BUILD_TOOLS:
        digest.update(f"{tool}=={importlib.metadata.version(tool)}".encode())
    return digest.hexdigest()


# -- wheels ---------------------------------------------------------------------------------
def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_name_version(path: Path) -> tuple[str, str]:
    name, version = path.name.split("-")[:2]
    return normalise(name), version


def pip_download(specs: Iterable[str], dest: Path) -> dict[str, Path]:
    """Pure-Python wheels for Pyodide's Python from PyPI, cached in `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {normalise(s.split("==")[0]): s.split("==")[1] for s in specs}
    have = {wheel_name_version(p): p for p in dest.glob("*.whl")}
    missing = [f"{n}=={v}" for n, v in wanted.items() if (n, v) not in have]
    if missing:
        log(f"downloading {len(missing)} wheels from PyPI")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
             "--no-deps", "--only-binary=:all:", "--platform", "any", "--implementation", "py",
             "--python-version", PYODIDE_PYTHON, "--dest", str(dest), *missing],
            check=True,
        )
        have = {wheel_name_version(p): p for p in dest.glob("*.whl")}
    found = {}
    for name, version in wanted.items():
        if (name, version) not in have:
            raise BuildError(f"PyPI has no pure-Python wheel of {name} {version}")
        found[name] = have[name, version]
    return found


def build_toonerville_wheel(dest: Path) -> Path:
    """The toonerville wheel from this repo (its .mo catalogues inside): the pure engine
    (TOONERVILLE_PURE=1, a py3-none-any wheel), the one Pyodide can install."""
    if dest.exists():
        shutil.rmtree(dest)
    log("building the toonerville wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "--quiet",
         "--no-deps", "--wheel-dir", str(dest), str(REPO)],
        check=True, env={**os.environ, "TOONERVILLE_PURE": "1"},
    )
    (wheel,) = dest.glob("toonerville-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        if not any(n.endswith(".mo") for n in archive.namelist()):
            raise BuildError(f"{wheel.name} has no .mo catalogues: the site would speak "
                             "English only")
    return wheel


def kernel_extension_wheel(cache: Path) -> Path:
    """jupyterlite-pyodide-kernel's own wheel (its lab extension and its kernel wheels),
    at the version installed for the build."""
    version = importlib.metadata.version(KERNEL_EXTENSION)
    return pip_download([f"{KERNEL_EXTENSION}=={version}"], cache)[normalise(KERNEL_EXTENSION)]


def kernel_wheels(extension_wheel: Path, dest: Path) -> dict[tuple[str, str], Path]:
    """The wheels the kernel extension ships under static/pypi (pyodide_kernel, piplite,
    the ipykernel and widgetsnbextension shims), unpacked into `dest`, by name and
    version."""
    dest.mkdir(parents=True, exist_ok=True)
    found: dict[tuple[str, str], Path] = {}
    with zipfile.ZipFile(extension_wheel) as archive:
        for member in archive.namelist():
            if "/static/pypi/" in member and member.endswith(".whl"):
                target = dest / Path(member).name
                target.write_bytes(archive.read(member))
                found[wheel_name_version(target)] = target
    return found


def folder_wheel(name: str, summary: str, source: Path | None, dest: Path) -> Path:
    """A pure wheel `name` 1.0.0 whose package (`name` with underscores) holds the files
    of `source`, or no package at all when `source` is None."""
    dest.mkdir(parents=True, exist_ok=True)
    version = "1.0.0"
    package = name.replace("-", "_")
    dist_info = f"{package}-{version}.dist-info"
    files: dict[str, bytes] = {}
    if source is not None:
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            if "__pycache__" not in path.parts:
                files[f"{package}/{path.relative_to(source).as_posix()}"] = path.read_bytes()
    files[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
    ).encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: toonerville build_site\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    record = []
    for member, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{member},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = dest / f"{package}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in files.items():
            info = zipfile.ZipInfo(member, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return wheel


def stand_in_wheel(name: str, module: bool, dest: Path) -> Path:
    """A wheel named `name` whose module is site/stand-ins/NAME, or that holds no module
    at all (then `import NAME` fails as it does in a Python built without it)."""
    source = SITE_SOURCES / "stand-ins" / name if module else None
    return folder_wheel(name, f"Toonerville static site stand-in for Pyodide's compiled "
                        f"{name}", source, dest)


# -- the Pyodide distribution ---------------------------------------------------------------
def lock_closure(packages: dict[str, dict[str, object]], roots: Iterable[str]) -> list[str]:
    """`roots` and everything they depend on in Pyodide's lock."""
    by_name = {normalise(k): k for k in packages}
    seen: list[str] = []
    todo = [normalise(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in by_name:
            raise BuildError(f"Pyodide's lock has no package {name!r}")
        seen.append(name)
        todo.extend(normalise(d) for d in packages[by_name[name]]["depends"])  # type: ignore[union-attr]
    return sorted(seen)


def lock_entry(
    name: str, wheel: Path, depends: Iterable[str], imports: Iterable[str]
) -> dict[str, object]:
    return {
        "name": name,
        "version": wheel_name_version(wheel)[1],
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256_of(wheel),
        "package_type": "package",
        "imports": list(imports),
        "depends": sorted(normalise(d) for d in depends),
        "unvendored_tests": False,
        "shared_library": False,
    }


def assemble_pyodide(dest: Path) -> list[str]:
    """Pyodide's core plus exactly the wheels the site ships and a lock that lists them.
    Returns the names in the lock."""
    core = NODE_MODULES / "pyodide"
    if not (core / "pyodide-lock.json").is_file():
        raise BuildError(f"{core} is missing: run `npm ci` first (package.json pins pyodide)")
    spec = json.loads((SITE_SOURCES / "kernel-packages.json").read_text())
    upstream = json.loads((core / "pyodide-lock.json").read_text())
    stand_ins: dict[str, dict[str, bool]] = spec["stand_ins"]

    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in PYODIDE_CORE:
        shutil.copy2(core / name, dest / name)

    lock: dict[str, dict[str, object]] = {}
    by_name = {normalise(k): v for k, v in upstream["packages"].items()}
    from_lock = [
        n for n in lock_closure(upstream["packages"], spec["from_lock"]) if n not in stand_ins
    ]
    wheels = pip_download(
        [f"{n}=={by_name[n]['version']}" for n in from_lock]
        + [f"{n}=={p['version']}" for n, p in spec["from_pypi"].items()],
        CACHE / "pypi",
    )
    for name in from_lock:
        entry = by_name[name]
        lock[name] = lock_entry(name, wheels[name], entry["depends"], entry["imports"])
    for name, package in spec["from_pypi"].items():
        wheel = wheels[normalise(name)]
        lock[normalise(name)] = lock_entry(name, wheel, package["depends"], package["imports"])

    shipped = kernel_wheels(kernel_extension_wheel(CACHE / "pypi"), CACHE / "kernel")
    for name, package in spec["from_kernel_extension"].items():
        versions = sorted(v for n, v in shipped if n == normalise(name))
        version = package.get("version", versions[-1] if versions else "")
        if (normalise(name), version) not in shipped:
            raise BuildError(f"the kernel extension ships no {name} {version}: {versions}")
        wheel = shipped[normalise(name), version]
        lock[normalise(name)] = lock_entry(name, wheel, package["depends"], package["imports"])
        wheels[normalise(name)] = wheel
    for name, stand_in in stand_ins.items():
        wheel = stand_in_wheel(name, stand_in["module"], CACHE / "stand-ins")
        lock[name] = lock_entry(name, wheel, [], [name] if stand_in["module"] else [])
        wheels[name] = wheel
    ours = spec["toonerville"]
    wheel = build_toonerville_wheel(CACHE / "toonerville")
    lock["toonerville"] = lock_entry("toonerville", wheel, ours["depends"], ours["imports"])
    wheels["toonerville"] = wheel

    for name, entry in lock.items():
        missing = [d for d in entry["depends"] if d not in lock]  # type: ignore[union-attr]
        if missing:
            raise BuildError(f"{name} depends on {missing}, which the site does not ship")
        shutil.copy2(wheels[name], dest / str(entry["file_name"]))
    (dest / "pyodide-lock.json").write_text(
        json.dumps({"info": upstream["info"], "packages": dict(sorted(lock.items()))}, indent=1)
    )
    return sorted(lock)


# -- the notebooks in every language ---------------------------------------------------------
def site_languages() -> tuple[str, ...]:
    sys.path.insert(0, str(REPO))
    from toonerville.engine.messages import LANGUAGES

    return tuple(LANGUAGES)


def stage_notebooks(dest: Path) -> Path:
    """The site's contents: every notebook in English at the top of `dest`, and in each
    other language in `dest/<lang>/`, its markdown translated."""
    sys.path.insert(0, str(REPO))
    from toonerville.pages.prose import translate_notebook

    for lang in site_languages():
        folder = dest if lang == SOURCE_LANGUAGE else dest / lang
        folder.mkdir(parents=True, exist_ok=True)
        for path in sorted(NOTEBOOKS.glob("*.ipynb")):
            if path.name == "rulebook.ipynb":
                continue  # a static page of its own (tools/pages.py), with no kernel
            nb = translate_notebook(json.loads(path.read_text(encoding="utf-8")), lang)
            (folder / path.name).write_text(json.dumps(nb, indent=1, ensure_ascii=False),
                                            encoding="utf-8")
    return dest


def page_language(page: Path, out: Path) -> tuple[str, str] | None:
    """(language, page name) of a render page, or None for any other page."""
    parts = page.relative_to(out).parts
    if len(parts) < 3 or parts[:2] != ("voici", "render"):
        return None
    languages = site_languages()
    if len(parts) == 3:
        return SOURCE_LANGUAGE, page.name
    if len(parts) == 4 and parts[2] in languages:
        return parts[2], page.name
    return None


def language_switch_js(lang: str, name: str) -> str:
    """The script that keeps a page's `?lang=` and its folder in step: another language
    asked for goes to that language's page (query and anchor kept); a translated page
    opened without `?lang=` gets its own, so its kernel speaks it too."""
    up = "" if lang == SOURCE_LANGUAGE else "../"
    pages = {code: up + (name if code == SOURCE_LANGUAGE else f"{code}/{name}")
             for code in site_languages()}
    return (
        "(function () {\n"
        f"  var here = {json.dumps(lang)}, pages = {json.dumps(pages)};\n"
        "  var params = new URLSearchParams(window.location.search);\n"
        "  var asked = (params.get('lang') || '').toLowerCase().split(/[-_]/)[0];\n"
        "  if (asked && asked !== here && pages[asked]) {\n"
        "    window.location.replace(pages[asked] + window.location.search"
        " + window.location.hash);\n"
        "  } else if (!asked && here !== 'en') {\n"
        "    params.set('lang', here);\n"
        "    window.history.replaceState(null, '', '?' + params.toString()"
        " + window.location.hash);\n"
        "  }\n"
        "})();\n")


# -- voici build ----------------------------------------------------------------------------
def voici_build(stage: Path, out: Path, extension_wheel: Path) -> None:
    config = json.loads((SITE_SOURCES / "jupyter_lite_config.json").read_text())
    config["LiteBuildConfig"].update(
        contents=[str(stage_notebooks(stage / "contents"))],
        federated_extensions=[str(extension_wheel)],
        output_dir=str(out),
        lite_dir=str(stage),
        cache_dir=str(CACHE / "lite"),
    )
    (stage / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))
    shutil.copy2(SITE_SOURCES / "jupyter-lite.json", stage / "jupyter-lite.json")
    log("running voici build")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(stage / "jupyter-config"),
           "JUPYTER_PLATFORM_DIRS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", "from voici_core.app import main; main()", "build",
         "--lite-dir", str(stage), "--output-dir", str(out)],
        cwd=stage, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    if done.returncode != 0:  # its task list is long: show it only when it failed
        print(done.stdout, file=sys.stderr)
        raise BuildError(f"voici build failed with exit code {done.returncode}")


# -- after the build ------------------------------------------------------------------------
def copy_font_awesome(out: Path) -> None:
    if not (FONT_AWESOME / "css" / "all.min.css").is_file():
        raise BuildError(f"{FONT_AWESOME} is missing: run `npm ci` first")
    dest = out / "static" / "fontawesome"
    (dest / "css").mkdir(parents=True, exist_ok=True)
    for name in ("all.min.css", "v4-shims.min.css"):
        shutil.copy2(FONT_AWESOME / "css" / name, dest / "css" / name)
    # every browser that runs Pyodide reads WOFF2, the first format the CSS offers
    shutil.copytree(FONT_AWESOME / "webfonts", dest / "webfonts", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.eot", "*.svg", "*.ttf", "*.woff"))
    shutil.copy2(FONT_AWESOME / "LICENSE.txt", dest / "LICENSE.txt")


def patch_page(page: Path, out: Path, url_query_js: str) -> None:
    """Font Awesome from the site, Voici issue 137, links between notebooks, and the
    query string handed to the kernel."""
    text = page.read_text(encoding="utf-8")
    root = os.path.relpath(out, page.parent).replace(os.sep, "/") + "/"
    text = CDN_CSS.sub(lambda m: f'href="{root}static/fontawesome/css/{m[1]}.min.css"', text)
    # nbconvert would fetch mermaid.js from a CDN for a ```mermaid diagram: the notebooks
    # have none, and the site asks no other host for anything
    text = MERMAID_FROM_CDN.sub("", text)
    # the tree page asks for Font Awesome 4: version 5 with its v4 shims draws the same icons
    text = CDN_FONT_AWESOME_4.sub(
        "".join(f'<link rel="stylesheet" href="{root}static/fontawesome/css/{name}.min.css" '
                'type="text/css" />' for name in ("all", "v4-shims")), text)
    parts = page.relative_to(out).parts
    if parts[:1] == ("voici",) and parts[1:2] in (("render",), ("tree",)) \
            and 'rel="icon"' not in text:
        # no icon link: the browser would ask for /favicon.ico, which is not there
        text = text.replace("<head>", '<head>\n<link rel="icon" href="data:;base64,=">', 1)
    render = page_language(page, out)
    if render is not None:
        # the page declares its own language and direction (screen readers, fonts)
        text = HTML_TAG.sub(f'<html lang="{render[0]}" dir="{page_direction(render[0])}">',
                            text, count=1)
        # Voici's render pages are deeper than the paths it writes into them
        text = re.sub(r'(src|href)="\./(?!/)', rf'\1="{root}', text)
        text = NOTEBOOK_LINK.sub(r'href="\1.html\2', text)
        text = APP_RULEBOOK_LINK.sub(
            lambda m: 'href="rulebook.html' + ("" if m[1] == SOURCE_LANGUAGE
                                               else f"?lang={m[1]}"), text)
    marker = CONFIG_SCRIPT.search(text)
    if marker and render is not None and "QUERY_STRING" not in text:
        config = rebase_config(json.loads(marker[2]), root)
        data = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
        script = f"{marker[1]}{data}</script>\n<script>\n{url_query_js}</script>"
        text = text[: marker.start()] + script + text[marker.end():]
        # first thing in the page (after its charset): one asked for in another language
        # leaves before its parser has reached its style sheets and scripts
        head = CHARSET.search(text) or re.search("<head>", text)
        at = head.end() if head else 0
        switch = f"\n<script>\n{language_switch_js(*render)}</script>"
        text = text[:at] + switch + text[at:]
        links = RULE_LINKS_JS.read_text(encoding="utf-8")
        keys = KEYS_JS.read_text(encoding="utf-8")
        at = text.rfind("</body>") if "</body>" in text else len(text)
        text = (text[:at] + f"<script>\n{links}</script>\n<script>\n{keys}</script>\n"
                + text[at:])
    page.write_text(text, encoding="utf-8")


#: the page's opening tag, whatever attributes Voici gave it
HTML_TAG = re.compile(r"<html\b[^>]*>")


def page_direction(lang: str) -> str:
    """"rtl" for a language written right to left (Persian), else "ltr"."""
    from toonerville.engine.messages import direction

    return direction(lang)


def rebase_config(config: dict[str, object], root: str) -> dict[str, object]:
    """The kernel's URLs in a page's configuration are resolved against the page itself,
    not the site's root: point the ones written as `./…` at the root (voici issue 137)."""
    def rebase(url: object) -> object:
        return root + url[2:] if isinstance(url, str) and url.startswith("./") else url

    plugins = config.get("litePluginSettings")
    if isinstance(plugins, dict):
        for settings in plugins.values():
            for key in ("pyodideUrl", "pipliteWheelUrl"):
                if key in settings:
                    settings[key] = rebase(settings[key])
            if "pipliteUrls" in settings:
                settings["pipliteUrls"] = [rebase(u) for u in settings["pipliteUrls"]]
    if "faviconUrl" in config:
        config["faviconUrl"] = rebase(config["faviconUrl"])
    return config


def finish(out: Path) -> None:
    copy_font_awesome(out)
    # the query string, and the learner's practice list from localStorage, for the kernel
    url_query_js = "\n".join((SITE_SOURCES / name).read_text()
                             for name in ("url-query.js", "practice-store.js"))
    for page in sorted(out.rglob("*.html")):
        patch_page(page, out, url_query_js)
    sys.path.insert(0, str(REPO / "tools"))
    import pages

    pages.write_site(out, language_switch_js)
    # JupyterLite's file lists are no front door: they send a visitor to the front page
    for tree in sorted((out / "voici" / "tree").rglob("index.html")):
        folder = tree.parent.relative_to(out)
        home = "../" * len(folder.parts) + "index.html" + (
            f"?lang={folder.name}" if folder.name in site_languages() else "")
        tree.write_text('<!DOCTYPE html>\n<meta charset="utf-8">\n'
                        f'<meta http-equiv="refresh" content="0; url={home}">\n'
                        f'<a href="{home}">Toonerville Rook</a>\n', encoding="utf-8")


def site_size(out: Path) -> int:
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def build(out: Path = DEFAULT_OUT, force: bool = False) -> Path:
    """Build the site into `out` unless it is already built from the same inputs; one
    build of `out` at a time (a lock file beside it): a second caller waits for the first
    and then finds the site up to date (`make test` starts a build before the browser
    tests, whose fixture asks for one too)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with (out.parent / f"{out.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build_unlocked(out, force)


def build_unlocked(out: Path, force: bool) -> Path:
    digest = inputs_digest()
    stamp = out / STAMP_NAME
    if not force and stamp.is_file() and stamp.read_text().strip() == digest:
        log(f"{out} is up to date")
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="site-stage-", dir=CACHE) as tmp:
        stage = Path(tmp)
        assemble_pyodide(stage / "static" / "pyodide")
        building = out.with_name(out.name + ".building")
        if building.exists():
            shutil.rmtree(building)
        voici_build(stage, building, kernel_extension_wheel(CACHE / "pypi"))
        finish(building)
    (building / STAMP_NAME).write_text(digest + "\n")
    if out.exists():
        shutil.rmtree(out)
    building.rename(out)
    log(f"built {out} ({site_size(out) / 1e6:.1f} MB); serve it with "
        f"`python -m http.server -d {out}` and open /voici/render/00-welcome.html")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the site's folder")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), force=args.force)
    except (BuildError, subprocess.CalledProcessError) as error:
        print(f"make site: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
