"""The notebooks' prose in the learner's language.

Every markdown cell of a notebook is English source text. This module cuts a cell into
*blocks* — a heading, a paragraph, a whole list, a whole table, a fenced code block — and
looks each block up, whole, in the gettext domain `prose` (`toonerville/locale/<code>/
LC_MESSAGES/prose.mo`), so a translator always sees a complete thought. What is not prose
stays out of the catalogue: leading `<a id="T14"></a>` anchor lines are cut off a block
and put back around its translation, fenced code is never translated, and the navigation
bar (`[Welcome](00-welcome.ipynb) · **2 Runs and sets** · …`) is translated label by label,
so its labels are shared by every notebook.

After translation the links are rewritten for the page they are shown in: a link to
another notebook keeps the language (`03-contracts.ipynb?lang=fa`), a link to a rule of
`docs/rules.md#T14` (or to the rulebook notebook) opens the static rulebook page, which
needs no kernel (`../templates/toonerville/static/rulebook-fa.html#T14`, written by
`tools/pages.py`), and a rule id in the running text (`(T14)`) becomes such a link. For a
right-to-left language each cell is wrapped in `<div dir="rtl">`, and code spans (card
notation such as `R7 R8 RK`) are isolated left to right with `<bdi dir="ltr">`.

Pure standard library: it runs in Voila's server, in JupyterLab and under Pyodide.
"""

from __future__ import annotations

import copy
import gettext
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from toonerville.engine.messages import DEFAULT, LOCALE_DIR, RTL, language, normalise

DOMAIN = "prose"
#: the rulebook notebook (for JupyterLab readers; links to it lead to the static page)
RULEBOOK_PAGE = "rulebook.ipynb"
#: the static rulebook page of a language in the Voila app, from a lesson's page
#: (`/voila/render/03-contracts.ipynb`): the page template's static folder, served by
#: Voila without a kernel
RULEBOOK_STATIC = "../templates/toonerville/static/rulebook-{lang}.html"
#: the rulebook page in the static site, beside the lessons of the same language
RULEBOOK_SITE = "rulebook.html"
#: a rule id in running text (T14, T13a, H5), not part of a longer word or a link
RULE_ID = re.compile(r"(?<![\w/#-])((?:T\d{1,2}a?|H\d{1,2}))(?![\w-])")
#: what a rule id inside it is not linked in: a code span, a link, an HTML tag, bold
_NOT_TEXT = re.compile(r"(`+)(?:(?!\1).)+?\1|!?\[[^\]]*\]\([^)]*\)|<[^>]+>|\*\*[^*]+\*\*",
                       re.S)
#: the notebook metadata key that says a notebook was translated, and into what
METADATA_KEY = "toonerville_language"
#: an environment variable naming another folder of prose catalogues (a translator
#: previewing a catalogue in Voila, or a test's made-up catalogue)
LOCALE_ENV = "TOONERVILLE_PROSE_LOCALE"

_ANCHOR = re.compile(r'^\s*<a\s+(?:id|name)="[^"]*"\s*>\s*</a>\s*$')
_HEADING = re.compile(r"^#{1,6}\s")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_TABLE_ROW = re.compile(r"^\s*\|")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HTML_ONLY = re.compile(r"^\s*<(style|script)\b", re.I)
_NAV_ITEM = re.compile(r"^(?:\[(?P<label>[^\]]+)\]\((?P<target>[^)\s]+)\)"
                       r"|\*\*(?P<here>[^*]+)\*\*)$")
_NAV_SEPARATOR = " · "
_LINK = re.compile(r"(?P<open>\]\()(?P<target>[^)\s]+)(?P<close>\))")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


class Translation(Protocol):
    """What translating needs of a catalogue (a `gettext.NullTranslations` has it)."""

    def gettext(self, message: str, /) -> str: ...


@dataclass(frozen=True, slots=True)
class Block:
    """One unit of a markdown cell: `text` is what a translator sees (empty for a block
    with nothing to translate), `before` the anchor lines put back in front of it, and
    `kind` one of "heading", "paragraph", "list", "table", "code", "navigation"."""

    text: str
    kind: str
    before: tuple[str, ...] = ()

    @property
    def translatable(self) -> bool:
        return bool(self.text) and self.kind not in ("code", "navigation")


#: a block of nothing but inline code spans (a command line to type): nothing to translate
_CODE_ONLY = re.compile(r"^(?:\s*`[^`]+`\s*)+$")


def _kind(lines: list[str]) -> str:
    first = lines[0]
    if _FENCE.match(first) or _HTML_ONLY.match(first) or _CODE_ONLY.match("\n".join(lines)):
        return "code"
    if _HEADING.match(first):
        return "heading"
    if _LIST_ITEM.match(first):
        return "list"
    if _TABLE_ROW.match(first):
        return "table"
    if len(lines) == 1 and nav_items(first) is not None:
        return "navigation"
    return "paragraph"


def nav_items(line: str) -> list[tuple[str, str | None]] | None:
    """The (label, target) pairs of a navigation bar — `target` is None for the page
    itself, written in bold — or None when `line` is not a navigation bar (at least two
    items, all links or bold, separated by " · ")."""
    parts = line.strip().split(_NAV_SEPARATOR)
    if len(parts) < 2:
        return None
    items: list[tuple[str, str | None]] = []
    for part in parts:
        match = _NAV_ITEM.match(part.strip())
        if match is None:
            return None
        if match["here"] is not None:
            items.append((match["here"], None))
        else:
            items.append((match["label"], match["target"]))
    return items


def _chunks(markdown: str) -> Iterator[list[str]]:
    """Groups of lines: blank lines separate them, a fenced code block is one group
    whatever it holds, a heading is a group of its own, and the items of one list (or
    the rows of one table) stay together across blank lines."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    group: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line) and not (group and _kind(group) == "code"):
            if group:
                yield group
            fence = _FENCE.match(line)
            assert fence is not None
            group = [line]
            i += 1
            while i < len(lines):
                group.append(lines[i])
                i += 1
                if lines[i - 1].strip().startswith(fence.group(1)):
                    break
            yield group
            group = []
            continue
        if not line.strip():
            if group:
                yield group
                group = []
            i += 1
            continue
        if _HEADING.match(line) and not all(_ANCHOR.match(g) for g in group):
            yield group
            group = []
        group.append(line)
        if _HEADING.match(line):
            yield group
            group = []
        i += 1
    if group:
        yield group


def split_blocks(markdown: str) -> list[Block]:
    """A markdown cell as its blocks, in order (see the module's docstring)."""
    merged: list[list[str]] = []
    for group in _chunks(markdown):
        anchors = 0
        while anchors < len(group) and _ANCHOR.match(group[anchors]):
            anchors += 1
        body = group[anchors:]
        previous = merged[-1] if merged else None
        if previous is not None and body and not group[:anchors] \
                and _continues(previous, body):
            previous.extend(["", *body])
            continue
        merged.append(group)
    blocks = []
    for group in merged:
        anchors = 0
        while anchors < len(group) and _ANCHOR.match(group[anchors]):
            anchors += 1
        body = [line.rstrip() for line in group[anchors:]]
        before = tuple(line.strip() for line in group[:anchors])
        if not body:
            blocks.append(Block("", "anchor", before))
            continue
        blocks.append(Block("\n".join(body), _kind(body), before))
    return blocks


def _continues(previous: list[str], body: list[str]) -> bool:
    """Whether `body` goes on with the list (or table) that `previous` holds."""
    start = 0
    while start < len(previous) and _ANCHOR.match(previous[start]):
        start += 1
    if start >= len(previous):
        return False
    kind = _kind(previous[start:])
    if kind == "list":
        return bool(_LIST_ITEM.match(body[0]) or body[0].startswith(("  ", "\t")))
    return False


def messages_of(markdown: str) -> list[str]:
    """The texts of one markdown cell that go into the catalogue, in order."""
    out = []
    for block in split_blocks(markdown):
        if block.translatable:
            out.append(block.text)
        elif block.kind == "navigation":
            out.extend(label for label, _target in nav_items(block.text) or [])
    return out


def notebook_messages(nb: dict[str, Any]) -> Iterator[tuple[int, str]]:
    """(cell index, text) of every translatable text of a notebook's markdown cells."""
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") == "markdown":
            for text in messages_of(_source(cell)):
                yield index, text


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


# -- translating ------------------------------------------------------------------------
def catalogue(lang: str, localedir: Path | str | None = None) -> gettext.NullTranslations:
    """The prose catalogue of `lang` (English, or a missing catalogue: no translation)."""
    code = normalise(lang)
    if code == DEFAULT:
        return gettext.NullTranslations()
    folder = localedir or os.environ.get(LOCALE_ENV) or LOCALE_DIR
    try:
        return gettext.translation(DOMAIN, localedir=folder, languages=[code],
                                   fallback=True)
    except (OSError, ValueError):
        return gettext.NullTranslations()


def rewrite_link(target: str, lang: str) -> str:
    """A link as the page in `lang` needs it: notebooks keep the language, rule links
    open the rulebook page; other links (the web, images) are left alone."""
    code = normalise(lang)
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("/", "#")):
        return target
    path, _hash, fragment = target.partition("#")
    path, _q, query = path.partition("?")
    if re.fullmatch(r"(?:\.\./|\./)?(?:docs/)?rules\.md", path) or path == RULEBOOK_PAGE:
        return RULEBOOK_STATIC.format(lang=code) + (f"#{fragment}" if _hash else "")
    if not path.endswith(".ipynb"):
        return target
    params = [p for p in query.split("&") if p and not p.startswith("lang=")]
    if code != DEFAULT:
        params.insert(0, f"lang={code}")
    out = path + ("?" + "&".join(params) if params else "")
    return out + (f"#{fragment}" if _hash else "")


def rulebook_href(rule: str, lang: str | None = None) -> str:
    """Where a rule id printed by a widget should lead: the static rulebook page at the
    rule, in the language in use (`../templates/toonerville/static/rulebook-fa.html#T14`
    in the Voila app; in the static site, where the rulebook is a page beside the
    lessons, `rulebook.html?lang=fa#T14`)."""
    code = normalise(lang if lang is not None else language())
    if sys.platform == "emscripten":
        return RULEBOOK_SITE + (f"?lang={code}" if code != DEFAULT else "") + f"#{rule}"
    return RULEBOOK_STATIC.format(lang=code) + f"#{rule}"


def link_rule_ids(markdown: str, lang: str) -> str:
    """Every rule id in the running text of `markdown` a link to the rule (`(T14)` →
    `([T14](…rulebook-fa.html#T14))`); ids in code, links, tags and bold are left alone."""
    code = normalise(lang)

    def plain(text: str) -> str:
        return RULE_ID.sub(lambda m: f"[{m[1]}]({rewrite_link('rules.md#' + m[1], code)})",
                           text)

    out, at = [], 0
    for skip in _NOT_TEXT.finditer(markdown):
        out.append(plain(markdown[at:skip.start()]))
        out.append(skip.group(0))
        at = skip.end()
    out.append(plain(markdown[at:]))
    return "".join(out)


def rewrite_links(markdown: str, lang: str) -> str:
    return _LINK.sub(lambda m: m["open"] + rewrite_link(m["target"], lang) + m["close"],
                     markdown)


def isolate_code(markdown: str) -> str:
    """Code spans kept left to right inside right-to-left text: `` `R7 R8` `` →
    `<bdi dir="ltr">`R7 R8`</bdi>` (the markdown of the code span itself is kept)."""
    return _CODE_SPAN.sub(lambda m: f'<bdi dir="ltr">{m.group(0)}</bdi>', markdown)


def _translate_block(block: Block, translation: Translation,
                     mark_english: bool) -> str:
    """A block in the catalogue's language. With `mark_english`, a text the catalogue
    lacks is kept in English but says so (`lang="en"`, left to right), so a reader of a
    Persian page is not thrown by a paragraph running the other way and a check can
    find every paragraph still waiting for its translation."""

    def label(text: str) -> str:
        done = translation.gettext(text)
        return f'<span lang="en" dir="ltr">{done}</span>' if mark_english and done == text \
            else done

    if block.kind == "navigation":
        items = nav_items(block.text) or []
        shown = [f"**{label(text)}**" if target is None else f"[{label(text)}]({target})"
                 for text, target in items]
        return _NAV_SEPARATOR.join(shown)
    if not block.translatable:
        return block.text
    done = translation.gettext(block.text)
    if mark_english and done == block.text:
        return f'<div lang="en" dir="ltr">\n\n{done}\n\n</div>'
    return done


def translate_markdown(markdown: str, lang: str,
                       translation: Translation | None = None,
                       localedir: Path | str | None = None) -> str:
    """One markdown cell in `lang`: every block translated (a block the catalogue lacks
    stays English, marked `lang="en"`), anchors put back, links rewritten, and for a
    right-to-left language code spans isolated and the whole cell wrapped right to left."""
    code = normalise(lang)
    if translation is None:
        translation = catalogue(code, localedir)
    parts = []
    for block in split_blocks(markdown):
        text = _translate_block(block, translation, mark_english=code != DEFAULT)
        text = rewrite_links(text, code) if block.kind != "code" else text
        if block.kind in ("paragraph", "list", "table"):
            text = link_rule_ids(text, code)
        if code in RTL and block.kind not in ("code",):
            text = isolate_code(text)
        parts.append("\n".join([*block.before, text]) if block.text else
                     "\n".join(block.before))
    out = "\n\n".join(parts)
    if code in RTL:
        out = f'<div dir="rtl" lang="{code}">\n\n{out}\n\n</div>'
    return out


#: For a right-to-left page: every cell and output right to left, and each line of an
#: example output in the direction of its first letter (card notation stays left to
#: right), code left to right. Put into the first markdown cell.
RTL_STYLE = """<style>
.jp-Cell, .jp-OutputArea, .widget-html-content { direction: rtl; }
.jp-OutputArea-output pre { direction: rtl; unicode-bidi: plaintext; text-align: right; }
code, kbd, .jp-InputArea { direction: ltr; unicode-bidi: isolate; }
</style>"""


def translate_notebook(nb: dict[str, Any], lang: str,
                       localedir: Path | str | None = None) -> dict[str, Any]:
    """A copy of the notebook `nb` (as a dict, nbformat 4) with every markdown cell in
    `lang`; the original is not changed. English is the source: its copy only has its
    rule links pointed at the rulebook page."""
    code = normalise(lang)
    translation = catalogue(code, localedir)
    out = copy.deepcopy(nb)
    first = True
    for cell in out.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        text = translate_markdown(_source(cell), code, translation)
        if first and code in RTL:
            text = RTL_STYLE + "\n\n" + text
        first = False
        cell["source"] = text
    metadata = out.setdefault("metadata", {})
    metadata[METADATA_KEY] = code
    return out


__all__ = ["DOMAIN", "LOCALE_ENV", "RULEBOOK_PAGE", "Block", "split_blocks", "messages_of",
           "notebook_messages", "nav_items", "catalogue", "rewrite_link", "rewrite_links",
           "rulebook_href", "link_rule_ids", "RULEBOOK_STATIC", "RULEBOOK_SITE",
           "isolate_code", "translate_markdown", "translate_notebook"]
