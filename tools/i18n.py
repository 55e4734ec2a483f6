"""The kit's translation catalogues, kept with Babel.

    python tools/i18n.py extract   toonerville/locale/toonerville.pot from the sources
    python tools/i18n.py update    extract, then merge the template into every .po: a new
                                   text arrives untranslated, a text no longer used goes
    python tools/i18n.py compile   every .po to its .mo (the .mo files are committed, so
                                   the kit itself runs without Babel)
    python tools/i18n.py check     exit 1, saying why, when a catalogue lacks a text, keeps
                                   a stale, fuzzy or untranslated one, changes a {placeholder}
                                   or an HTML tag, or its .mo is older than its .po

Adding a sentence: write it in English in the code, inside `msg("…", "T4", …)` (engine),
`_("…")` or `N_("…")` (widgets), `_t("…")` (render.py) or `ngettext("…", "…", n)`; run
`update`; translate the new empty entries of every `toonerville/locale/*/LC_MESSAGES/
toonerville.po`; run `compile` and `check`; commit the .pot, the .po and the .mo files.

The notebooks' prose is a second domain, `prose`: `update` also cuts every markdown cell
of `notebooks/*.ipynb` into blocks (`toonerville.pages.prose`) and writes them to
`toonerville/locale/prose.pot` and every `prose.po`; `compile` and `check` cover it too.

    python tools/i18n.py notebooks translated copies of every notebook, for JupyterLab
                                   readers, under build/notebooks/<lang>/ (not committed)

Babel is a build tool here (the `test` extra), never a dependency of the engine.
"""

from __future__ import annotations

import ast
import gettext
import io
import json
import re
import string
import sys
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "toonerville"
LOCALE_DIR = PACKAGE / "locale"
DOMAIN = "toonerville"
POT = LOCALE_DIR / f"{DOMAIN}.pot"
#: the notebooks' prose: its own domain, extracted from the markdown cells
PROSE = "prose"
NOTEBOOKS = ROOT / "notebooks"
BUILD_NOTEBOOKS = ROOT / "build" / "notebooks"
DOMAINS = (DOMAIN, PROSE)
MAPPING = ROOT / "babel.cfg"
#: The languages with a catalogue (English is the source language and needs none).
LANGUAGES = ("de", "hr", "su", "fa", "hi")
PROJECT, VERSION = "Toonerville Rook", "0.1.0"
WIDTH = 100

#: Calls whose first argument is a text to translate (`ngettext`: the first two).
KEYWORDS: dict[str, Any] = {
    "msg": (1,), "_t": (1,), "translate": (1,), "_": (1,), "N_": (1,), "ngettext": (1, 2),
    "plural": (1, 2),
    # helpers of single modules, rewritten by `extract_toonerville` (see FILE_HELPERS)
    "_count": None, "caption": None, "_fail": None,
}
#: Helpers of one module that pass a text on to a translation call:
#: render.py's `caption(title, n)`
#: looks up `title`; melds.py's `_fail(template, …)` is `msg(template, …)`, saves.py's
#: is `msg("cannot load this saved game: " + template, …)`.
FILE_HELPERS: dict[str, dict[str, str]] = {
    "render.py": {"caption": "first"},
    "melds.py": {"_fail": "first"},
    "saves.py": {"_fail": "cannot load this saved game: "},
}


def _in_f_strings(source: bytes, keywords: Collection[str]) -> Iterator[tuple[Any, ...]]:
    """Translation calls inside the `{…}` of f-strings (`f"<b>{_t('Total')}</b>"`), which
    Python 3.11's tokenizer — and so Babel's extractor — sees as one string."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for part in node.values:
            if not isinstance(part, ast.FormattedValue):
                continue
            for call in ast.walk(part.value):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                        and call.func.id in keywords:
                    args = tuple(a.value if isinstance(a, ast.Constant)
                                 and isinstance(a.value, str) else None for a in call.args)
                    yield call.lineno, call.func.id, args, []


def extract_toonerville(fileobj: IO[bytes], keywords: Collection[str],
                        comment_tags: Collection[str],
                        options: Mapping[str, Any]) -> Iterator[tuple[Any, ...]]:
    """Babel's Python extractor, plus the calls inside f-strings, with the helpers of
    `FILE_HELPERS` turned into the plain translation calls they make."""
    helpers = FILE_HELPERS.get(Path(getattr(fileobj, "name", "")).name, {})
    source = fileobj.read()
    words: Any = keywords
    found: list[tuple[Any, ...]] = list(extract_python(io.BytesIO(source), words,
                                                       comment_tags, options))  # type: ignore[arg-type]
    found += _in_f_strings(source, keywords)
    for lineno, funcname, messages, comments in found:
        args: tuple[Any, ...] = messages if isinstance(messages, tuple) else (messages,)
        if funcname not in ("_count", "caption", "_fail"):
            if funcname == "msg" and args and args[0] == helpers.get("_fail"):
                continue  # saves.py's `msg(prefix + template)`: its `_fail` calls say it
            yield lineno, funcname, messages, comments
            continue
        how = helpers.get(funcname)
        if how is None:
            continue  # a function of that name elsewhere: not a translation call
        if how == "one and many":
            texts = [t for t in args[1:3] if isinstance(t, str)]
        elif how == "first":
            texts = [args[0]] if args and isinstance(args[0], str) else []
        else:  # a prefix
            texts = [how + args[0]] if args and isinstance(args[0], str) else []
        for text in texts:
            yield lineno, "_t", (text,), comments


def method_map() -> tuple[list[tuple[str, Any]], dict[str, Any]]:
    with MAPPING.open(encoding="utf-8") as f:
        methods, options = parse_mapping_cfg(f, str(MAPPING))  # type: ignore[no-untyped-call]
    mapped = [(pattern, extract_toonerville if method.endswith("extract_toonerville")
               else method) for pattern, method in methods]
    return mapped, options


def _prose_module() -> Any:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from toonerville.pages import prose
    return prose


def extract_prose() -> Catalog:
    """The prose template: every block of every notebook's markdown cells, by notebook
    and cell (a block repeated in several notebooks is one message)."""
    prose = _prose_module()
    catalog = Catalog(project=PROJECT, version=VERSION, charset="utf-8", domain=PROSE,
                      copyright_holder="Toonerville Rook contributors")
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell, text in prose.notebook_messages(nb):
            catalog.add(text, None, [(path.relative_to(ROOT).as_posix(), cell + 1)])
    return catalog


def extract_catalog(domain: str = DOMAIN) -> Catalog:
    """The template of `domain`: every translatable text of the package (or of the
    notebooks' prose), in source order."""
    if domain == PROSE:
        return extract_prose()
    catalog = Catalog(project=PROJECT, version=VERSION, charset="utf-8",
                      copyright_holder="Toonerville Rook contributors")
    methods, options = method_map()
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, methods, options, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def pot_path(domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / f"{domain}.pot"


def po_path(code: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po"


def mo_path(code: str, domain: str = DOMAIN) -> Path:
    return po_path(code, domain).with_suffix(".mo")


def load_po(code: str, domain: str = DOMAIN) -> Catalog:
    with po_path(code, domain).open("rb") as f:
        return read_po(f, locale=code, domain=domain)


def _write_po(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, ignore_obsolete=True, include_lineno=False)
    data = buffer.getvalue()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def _keys(catalog: Catalog) -> set[Any]:
    return {m.id for m in catalog if m.id}


def _shape(catalog: Catalog) -> list[tuple[Any, tuple[str, ...]]]:
    """The messages and the files they come from (line numbers are not kept)."""
    return [(m.id, tuple(sorted({f for f, _line in m.locations}))) for m in catalog if m.id]


def extract(domain: str = DOMAIN) -> Catalog:
    """Write the template; a template whose messages did not change is left as it is
    (its date too), so `update` and `compile` leave the catalogues alone."""
    template = extract_catalog(domain)
    pot = pot_path(domain)
    if pot.exists():
        with pot.open("rb") as f:
            old = read_po(f)
        if _shape(old) == _shape(template):
            print(f"{pot.relative_to(ROOT)}: {len(_keys(template))} messages, unchanged")
            return old
    _write_po(pot, template)
    print(f"{pot.relative_to(ROOT)}: {len(_keys(template))} messages, written")
    return template


def extract_all() -> None:
    for domain in DOMAINS:
        extract(domain)


def update() -> None:
    for domain in DOMAINS:
        update_domain(domain)


def update_domain(domain: str) -> None:
    template = extract(domain)
    for code in LANGUAGES:
        path = po_path(code, domain)
        if path.exists():
            catalog = load_po(code, domain)
        else:
            catalog = Catalog(locale=code, domain=domain, project=PROJECT, version=VERSION,
                              charset="utf-8", copyright_holder="Toonerville Rook contributors")
        before = {(m.id, m.string) for m in catalog if m.id}
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()
        missing = sum(1 for m in catalog if m.id and not _translated(m))
        if {(m.id, m.string) for m in catalog if m.id} != before or not path.exists():
            _write_po(path, catalog)
        print(f"{path.relative_to(ROOT)}: {len(_keys(catalog))} messages, "
              f"{missing} to translate")


def mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> None:
    for domain in DOMAINS:
        for code in LANGUAGES:
            data = mo_bytes(load_po(code, domain))
            path = mo_path(code, domain)
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)
            print(f"{path.relative_to(ROOT)}: compiled")


# -- checks -----------------------------------------------------------------------------
def placeholders(text: str) -> Counter[str]:
    """The `{fields}` of a template, with their conversions: `"{a} {b!r}"` → a, b!r."""
    found: Counter[str] = Counter()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            found[name + (f"!{conversion}" if conversion else "")
                  + (f":{spec}" if spec else "")] += 1
    return found


_TAG = re.compile(r"</?[a-z]+\b[^>]*>")


def tags(text: str) -> Counter[str]:
    return Counter(_TAG.findall(text))


def _forms(message: Any) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) \
        else [message.string]


def _translated(message: Any) -> bool:
    return all(_forms(message))


def translation_problems(catalog: Catalog) -> list[str]:
    """Translations that change a placeholder or an HTML tag, or are missing or fuzzy."""
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        if m.fuzzy:
            out.append(f"fuzzy: {ids[0]!r}")
        if not _translated(m):
            out.append(f"untranslated: {ids[0]!r}")
            continue
        want_fields = set().union(*(placeholders(i) for i in ids))
        for form in _forms(m):
            try:
                got = placeholders(form)
            except ValueError as err:
                out.append(f"broken braces in the translation of {ids[0]!r}: {err}")
                continue
            if set(got) != want_fields and not (len(ids) > 1 and set(got) <= want_fields):
                out.append(f"placeholders {sorted(got)} instead of {sorted(want_fields)} "
                           f"in the translation of {ids[0]!r}")
            if tags(form) != tags(ids[0]):
                out.append(f"HTML tags changed in the translation of {ids[0]!r}")
    return out


def mo_problems(code: str, domain: str = DOMAIN) -> list[str]:
    """The committed .mo against the .po compiled now (compared as catalogues)."""
    path = mo_path(code, domain)
    if not path.exists():
        return [f"{path.relative_to(ROOT)} is missing: run `python tools/i18n.py compile`"]
    committed = gettext.GNUTranslations(io.BytesIO(path.read_bytes()))
    fresh = gettext.GNUTranslations(io.BytesIO(mo_bytes(load_po(code, domain))))
    c1 = {k: v for k, v in committed._catalog.items() if k != ""}  # type: ignore[attr-defined]
    c2 = {k: v for k, v in fresh._catalog.items() if k != ""}  # type: ignore[attr-defined]
    if c1 != c2 or committed.info().get("plural-forms") != fresh.info().get("plural-forms"):
        return [f"{path.relative_to(ROOT)} is older than its .po: run "
                "`python tools/i18n.py compile`"]
    return []


def catalogue_problems(code: str, template: Catalog | None = None,
                       domain: str = DOMAIN) -> list[str]:
    """Everything wrong with one language's catalogue, as sentences."""
    template = template if template is not None else extract_catalog(domain)
    path = po_path(code, domain)
    if not path.exists():
        return [f"{path.relative_to(ROOT)} is missing: run `python tools/i18n.py update`"]
    catalog = load_po(code, domain)
    out = key_problems(template, catalog)
    out += (prose_problems(catalog) if domain == PROSE else translation_problems(catalog))
    return out + mo_problems(code, domain)


def key_problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Texts of the template the catalogue lacks, and texts it keeps that the source no
    longer has (a paragraph rewritten in English: its old translation is stale)."""
    wanted, have = _keys(template), _keys(catalog)
    out = [f"missing: {_first(k)!r}" for k in sorted(wanted - have, key=str)]
    out += [f"stale: {_first(k)!r}" for k in sorted(have - wanted, key=str)]
    return out + [f"obsolete: {_first(m.id)!r}" for m in catalog.obsolete.values()]


_LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
#: a rule id (T14, H3): a learner looks it up in the rulebook, so it stays as it is
_RULE_ID = re.compile(r"\b[TH]\d{1,2}\b")


def prose_problems(catalog: Catalog) -> list[str]:
    """Prose translations that are missing or fuzzy, or change a link, a code span (card
    notation, a command), an HTML tag or a rule id (T14: the rulebook is looked up by it)."""
    out = []
    for m in catalog:
        if not m.id:
            continue
        if m.fuzzy:
            out.append(f"fuzzy: {m.id!r}")
        source, text = _first(m.id), _forms(m)[0]
        if not text:
            out.append(f"untranslated: {source!r}")
            continue
        if Counter(_LINK_TARGET.findall(text)) != Counter(_LINK_TARGET.findall(source)):
            out.append(f"links changed in the translation of {source!r}")
        if Counter(c for _t, c in _CODE.findall(text)) \
                != Counter(c for _t, c in _CODE.findall(source)):
            out.append(f"code changed in the translation of {source!r}")
        if tags(text) != tags(source):
            out.append(f"HTML tags changed in the translation of {source!r}")
        if Counter(_RULE_ID.findall(text)) != Counter(_RULE_ID.findall(source)):
            out.append(f"rule ids changed in the translation of {source!r}")
    return out


def _first(key: Any) -> str:
    return key[0] if isinstance(key, tuple | list) else str(key)


def check() -> int:
    failed = False
    for domain in DOMAINS:
        template = extract_catalog(domain)
        for code in LANGUAGES:
            problems = catalogue_problems(code, template, domain)
            print(f"{code} ({domain}): {len(_keys(template))} messages, "
                  + ("ok" if not problems else f"{len(problems)} problems"))
            for p in problems:
                print(f"  {p}")
            failed = failed or bool(problems)
    return 1 if failed else 0


def write_notebooks(out_dir: Path = BUILD_NOTEBOOKS) -> None:
    """Every notebook in every language, as files JupyterLab opens:
    `build/notebooks/<lang>/NAME.ipynb` (English too, with its rule links pointed at the
    rulebook page). The code cells are copied as they are, after one that sets the
    copy's language (JupyterLab has no `?lang=`); the package they import must be
    installed (`pip install -e .`)."""
    prose = _prose_module()
    for code in ("en", *LANGUAGES):
        target = out_dir / code
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(NOTEBOOKS.glob("*.ipynb")):
            nb = prose.translate_notebook(json.loads(path.read_text(encoding="utf-8")), code)
            if code != "en":  # no URL in JupyterLab: the copy says its language itself
                nb["cells"].insert(1, {
                    "cell_type": "code", "execution_count": None, "id": "language-of-copy",
                    "metadata": {}, "outputs": [],
                    "source": ["from toonerville.engine.messages import set_language\n\n",
                               f'set_language("{code}")  # the language of this copy'],
                })
            text = json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
            (target / path.name).write_text(text, encoding="utf-8")
        print(f"{target.relative_to(ROOT)}: {len(list(NOTEBOOKS.glob('*.ipynb')))} notebooks")


def main(argv: list[str]) -> int:
    commands = {"extract": extract_all, "update": update, "compile": compile_all,
                "notebooks": write_notebooks}
    if len(argv) != 1 or argv[0] not in (*commands, "check"):
        print(__doc__)
        return 2
    if argv[0] == "check":
        return check()
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
