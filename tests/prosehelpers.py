"""Made-up prose catalogues for the tests: every block of every notebook "translated"
by turning its Latin letters into Persian (fa) or Devanagari (hi) ones, keeping what a
translator must keep (links, code spans, HTML tags, markdown marks). It tells whether the
mechanism reaches every paragraph before the real translations exist."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_LETTERS = {
    "fa": "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی",
    "hi": "अआइईउऊएऐओऔकखगघचछजझटठडढतथदधनपफबभमयरलवशसह",
}
#: what stays as it is: code spans, link targets, HTML tags, entities, rule ids
_KEEP = re.compile(r"(`+)(?:.+?)\1|\]\([^)]*\)|<[^>]+>|&[a-z]+;|\b[TH]\d{1,2}\b", re.S)


def pseudo(text: str, lang: str) -> str:
    """`text` with every Latin letter outside `_KEEP` turned into a letter of `lang`."""
    letters = _LETTERS[lang]

    def turn(part: str) -> str:
        return "".join(letters[(ord(ch.lower()) - 97) % len(letters)]
                       if "a" <= ch.lower() <= "z" else ch for ch in part)

    out, last = [], 0
    for match in _KEEP.finditer(text):
        out.append(turn(text[last:match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(turn(text[last:]))
    return "".join(out)


def i18n_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("toonerville_i18n_tool",
                                                  ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def fake_catalogue(lang: str, tool: ModuleType | None = None) -> Any:
    """A Babel catalogue of every prose block, made up in `lang`."""
    from babel.messages.catalog import Catalog

    tool = tool or i18n_tool()
    catalog = Catalog(locale=lang, domain="prose")
    for message in tool.extract_prose():
        if message.id:
            catalog.add(message.id, pseudo(message.id, lang))
    return catalog


def write_fake_catalogues(folder: Path, langs: tuple[str, ...] = ("fa", "hi")) -> Path:
    """`folder/<lang>/LC_MESSAGES/prose.mo` for `langs`, every prose block made up."""
    tool = i18n_tool()
    for lang in langs:
        catalog = fake_catalogue(lang, tool)
        target = folder / lang / "LC_MESSAGES" / "prose.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(tool.mo_bytes(catalog))
    return folder
