"""The notebooks' prose in six languages (`toonerville/pages/prose.py`), the Voila hook that
applies it (`toonerville/pages/prose_hook.py`), the rulebook page and navigation bars
(`tools/rulebook.py`) and the language picker's reload of a served page."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from toonerville.engine.messages import set_language
from toonerville.pages import prose
from toonerville.pages.prose import (
    Block,
    messages_of,
    nav_items,
    rewrite_link,
    split_blocks,
    translate_markdown,
    translate_notebook,
)
from toonerville.pages.prose_hook import prelaunch_hook, requested_language

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"toonerville_{name}_tool",
                                                  ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _load(path: Path) -> dict[str, Any]:
    nb: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return nb


def _markdown(nb: dict[str, Any]) -> list[str]:
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "markdown"]


class Catalogue:
    """A translation that knows a few texts (a stand-in for a .mo file)."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def gettext(self, text: str) -> str:
        return self.texts.get(text, text)


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


# -- blocks -----------------------------------------------------------------------------
CELL = """# 2. Runs and sets

Contracts are made of two kinds of *melds*:

- A **run** is 4 or more cards.
  It may not wrap around (T4).

- A **set** is 3 or more cards (T5).

| Round | Contract |
|---|---|
| 1 | two sets |

```
python -m toonerville simulate --games 400
```
<a id="T14"></a>
**T14 · A taken card.** It must be melded."""


def test_a_cell_is_cut_into_headings_paragraphs_lists_tables_and_code() -> None:
    blocks = split_blocks(CELL)
    assert [b.kind for b in blocks] == ["heading", "paragraph", "list", "table", "code",
                                        "paragraph"]
    assert blocks[0].text == "# 2. Runs and sets"
    assert blocks[2].text.startswith("- A **run**") and blocks[2].text.endswith("(T5).")
    assert "\n\n- A **set**" in blocks[2].text  # one list, its blank line kept


def test_code_and_anchors_are_not_given_to_translators() -> None:
    texts = messages_of(CELL)
    assert not any("python -m" in t for t in texts)
    assert "**T14 · A taken card.** It must be melded." in texts
    assert not any("<a id" in t for t in texts)
    last = split_blocks(CELL)[-1]
    assert last.before == ('<a id="T14"></a>',)


def test_a_heading_is_a_block_even_without_a_blank_line() -> None:
    blocks = split_blocks("Some text\n## A heading\nMore text")
    assert [(b.kind, b.text) for b in blocks] == [
        ("paragraph", "Some text"), ("heading", "## A heading"), ("paragraph", "More text")]


def test_an_anchor_before_a_heading_stays_with_it() -> None:
    (block,) = split_blocks('<a id="H3"></a>\n## House rules')
    assert block == Block("## House rules", "heading", ('<a id="H3"></a>',))


def test_an_anchor_is_put_back_around_the_translation() -> None:
    text = '<a id="T14"></a>\n**T14 · A taken card.** It must be melded.'
    done = translate_markdown(text, "de", Catalogue(
        {"**T14 · A taken card.** It must be melded.":
         "**T14 · Eine genommene Karte.** Sie muss ausgelegt werden."}))
    assert done == '<a id="T14"></a>\n**T14 · Eine genommene Karte.** Sie muss ausgelegt werden.'


def test_the_navigation_bar_is_translated_label_by_label() -> None:
    bar = "[Welcome](00-welcome.ipynb) · **2 Runs and sets** · [Rulebook](rulebook.ipynb)"
    assert nav_items(bar) == [("Welcome", "00-welcome.ipynb"), ("2 Runs and sets", None),
                              ("Rulebook", "rulebook.ipynb")]
    assert messages_of(bar) == ["Welcome", "2 Runs and sets", "Rulebook"]
    done = translate_markdown(bar, "de", Catalogue(
        {"Welcome": "Willkommen", "2 Runs and sets": "2 Reihen und Sätze",
         "Rulebook": "Regelbuch"}))
    assert done == ("[Willkommen](00-welcome.ipynb?lang=de) · **2 Reihen und Sätze** · "
                    f"[Regelbuch]({RB}de.html)")


def test_a_sentence_with_a_middle_dot_is_not_a_navigation_bar() -> None:
    assert nav_items("Deal · then play") is None
    assert split_blocks("**T1 · One deck.** A Rook deck")[0].kind == "paragraph"


RB = "../templates/toonerville/static/rulebook-"  # the static rulebook page


# -- links -------------------------------------------------------------------------------
@pytest.mark.parametrize(("target", "lang", "expected"), [
    ("03-contracts.ipynb", "fa", "03-contracts.ipynb?lang=fa"),
    ("03-contracts.ipynb#try-it", "hi", "03-contracts.ipynb?lang=hi#try-it"),
    ("07-play-a-game.ipynb?seed=3", "de", "07-play-a-game.ipynb?lang=de&seed=3"),
    ("07-play-a-game.ipynb?lang=hr&seed=3", "su", "07-play-a-game.ipynb?lang=su&seed=3"),
    ("docs/rules.md#T14", "fa", f"{RB}fa.html#T14"),
    ("../docs/rules.md#H3", "en", f"{RB}en.html#H3"),
    ("rulebook.ipynb?lang=de#T4", "hi", f"{RB}hi.html#T4"),
    ("03-contracts.ipynb", "en", "03-contracts.ipynb"),
    ("https://example.org/rules.md", "fa", "https://example.org/rules.md"),
    ("#T14", "fa", "#T14"),
    ("picture.png", "fa", "picture.png"),
])
def test_links_keep_the_language_and_rule_links_open_the_rulebook(
        target: str, lang: str, expected: str) -> None:
    assert rewrite_link(target, lang) == expected


def test_a_rule_id_leads_to_the_rulebook_page_in_the_language_in_use() -> None:
    assert prose.rulebook_href("T14", "fa") == f"{RB}fa.html#T14"
    assert prose.rulebook_href("H3", "en") == f"{RB}en.html#H3"
    set_language("hi")
    assert prose.rulebook_href("T7") == f"{RB}hi.html#T7"


def test_rule_ids_in_running_text_link_to_the_rulebook() -> None:
    text = "Each round has its contract (T7); see T10–T12, not `T8`, **T9 ·** or [T3](x)."
    done = prose.link_rule_ids(text, "de")
    assert f"([T7]({RB}de.html#T7))" in done
    assert f"[T10]({RB}de.html#T10)–[T12]({RB}de.html#T12)" in done
    assert "`T8`" in done and "**T9 ·**" in done and "[T3](x)" in done
    assert prose.link_rule_ids("XT4 T130 H5x", "en") == "XT4 T130 H5x"


def test_links_are_rewritten_inside_a_translated_paragraph() -> None:
    text = "See [the rule](docs/rules.md#T14) and [contracts](03-contracts.ipynb)."
    done = translate_markdown(text, "de", Catalogue({text: text.replace("See", "Siehe")}))
    assert done == (f"Siehe [the rule]({RB}de.html#T14) and "
                    "[contracts](03-contracts.ipynb?lang=de).")


# -- right to left, and what is still English --------------------------------------------
def test_persian_is_right_to_left_with_card_notation_left_to_right() -> None:
    text = "A run: `B11 B12 B13 B14`."
    done = translate_markdown(text, "fa", Catalogue({text: "یک ردیف: `B11 B12 B13 B14`."}))
    assert done.startswith('<div dir="rtl" lang="fa">') and done.endswith("</div>")
    assert '<bdi dir="ltr">`B11 B12 B13 B14`</bdi>' in done


def test_hindi_and_german_are_left_to_right() -> None:
    for lang in ("hi", "de"):
        text = "A run: `B11 B12 B13 B14`."
        done = translate_markdown(text, lang, Catalogue({text: "x `B11 B12 B13 B14`."}))
        assert "rtl" not in done and "<bdi" not in done


def test_a_paragraph_without_a_translation_says_it_is_english() -> None:
    done = translate_markdown("# Try it\n\nPlay a round.", "fa", Catalogue({}))
    assert done.count('<div lang="en" dir="ltr">') == 2
    english = translate_markdown("# Try it\n\nPlay a round.", "en")
    assert english == "# Try it\n\nPlay a round."


def test_a_code_block_is_never_translated_nor_turned_around() -> None:
    code = "```\npython -m toonerville simulate\n```"
    catalogue = Catalogue({code: "nope"})
    assert translate_markdown(code, "fa", catalogue) == \
        f'<div dir="rtl" lang="fa">\n\n{code}\n\n</div>'


# -- notebooks ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_english_pages_are_their_source_but_for_rule_links(path: Path) -> None:
    nb = _load(path)
    done = translate_notebook(nb, "en")
    for before, after in zip(_markdown(nb), _markdown(done), strict=True):
        fixed = re.sub(r"\((?:\.\./)?(?:docs/)?rules\.md(?=[#)])|\(rulebook\.ipynb(?=[#)])",
                       "(RB", before)
        shown = after.replace(f"{RB}en.html", "RB")
        plain = re.compile(r"\[((?:T\d+a?|H\d+))\]\(RB#\1\)")
        assert plain.sub(r"\1", shown).split() == plain.sub(r"\1", fixed).split()


def test_translating_a_notebook_leaves_the_original_alone() -> None:
    nb = _load(ROOT / "notebooks" / "02-runs-and-sets.ipynb")
    before = json.dumps(nb)
    done = translate_notebook(nb, "fa")
    assert json.dumps(nb) == before
    assert done["metadata"][prose.METADATA_KEY] == "fa"
    assert _markdown(done)[0].startswith("<style>")  # the page's right-to-left style
    assert [c["cell_type"] for c in done["cells"]] == [c["cell_type"] for c in nb["cells"]]
    code = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert [c["source"] for c in done["cells"] if c["cell_type"] == "code"] == code


def test_a_catalogue_folder_can_be_given(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("babel")
    sys.path.insert(0, str(ROOT / "tests"))
    from prosehelpers import write_fake_catalogues

    write_fake_catalogues(tmp_path, ("hi",))
    monkeypatch.setenv(prose.LOCALE_ENV, str(tmp_path))
    nb = translate_notebook(_load(ROOT / "notebooks" / "02-runs-and-sets.ipynb"), "hi")
    text = "\n".join(_markdown(nb))
    assert 'lang="en"' not in text
    assert "B13 B14 B1 B2" in text  # card notation is kept
    prose_only = re.sub(r"`[^`]*`|\]\([^)]*\)|<[^>]*>", "", text)  # code, links, tags
    assert not re.search(r"\b(the|and|of)\b", prose_only)


def test_the_made_up_catalogues_keep_what_a_translator_must_keep() -> None:
    """The browser test's stand-in catalogues pass the same check as real ones."""
    pytest.importorskip("babel")
    sys.path.insert(0, str(ROOT / "tests"))
    from prosehelpers import fake_catalogue

    tool = _tool("i18n")
    for lang in ("fa", "hi"):
        assert tool.prose_problems(fake_catalogue(lang, tool)) == []


class Request:
    def __init__(self, **query: str) -> None:
        self.query = query

    def get_argument(self, name: str, default: str | None = None) -> str | None:
        return self.query.get(name, default)


def test_the_voila_hook_reads_the_language_of_the_request() -> None:
    assert requested_language(Request(lang="fa-IR")) == "fa"
    assert requested_language(Request(lang="xx")) == "en"
    assert requested_language(Request()) == "en"
    assert requested_language(object()) == "en"  # a request it cannot read


def test_the_voila_hook_translates_the_notebook_it_is_given() -> None:
    nb = _load(ROOT / "notebooks" / "01-deck-and-deal.ipynb")
    code_before = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    back = prelaunch_hook(Request(lang="hi", seed="4"), nb, cwd="notebooks")
    assert back is nb
    assert nb["metadata"][prose.METADATA_KEY] == "hi"
    assert "00-welcome.ipynb?lang=hi" in "".join(nb["cells"][0]["source"])
    assert [c["source"] for c in nb["cells"] if c["cell_type"] == "code"] == code_before


# -- the rulebook page and the navigation bars --------------------------------------------
def test_the_rulebook_page_is_current_with_docs_rules_md() -> None:
    """`python tools/rulebook.py` regenerates both; this fails when either is stale."""
    tool = _tool("rulebook")
    stale = [p.name for p, text in tool.planned().items()
             if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert not stale, f"run `python tools/rulebook.py`: {stale} are not current"


def test_the_rulebook_page_has_one_cell_per_section_and_every_rule_anchor() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    nb = _load(ROOT / "notebooks" / "rulebook.ipynb")
    cells = _markdown(nb)
    sections = [line for line in rules.splitlines() if line.startswith("## ")]
    assert len(cells) == 1 + 1 + len(sections)  # navigation, title and introduction
    ids = re.findall(r'<a id="([TH]\d+)"></a>', rules)
    assert ids and re.findall(r'<a id="([TH]\d+)"></a>', "".join(cells)) == ids


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_page_opens_with_a_navigation_bar_to_the_rulebook(path: Path) -> None:
    first = _markdown(_load(path))[0]
    items = nav_items(first)
    assert items is not None
    assert ("Rulebook", "rulebook.ipynb" if path.name != "rulebook.ipynb" else None) in items
    here = [label for label, target in items if target is None]
    assert len(here) <= 1


def test_the_nav_bar_of_a_translated_page_keeps_the_language() -> None:
    nb = translate_notebook(_load(ROOT / "notebooks" / "rulebook.ipynb"), "su")
    assert "(03-contracts.ipynb?lang=su)" in _markdown(nb)[0]


# -- the language picker on a served page --------------------------------------------------
def test_a_served_picker_reloads_the_page_in_the_language_chosen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ipywidgets")
    from toonerville.widgets.language import LanguagePicker

    monkeypatch.setenv("QUERY_STRING", "size=large&lang=fa")
    picker = LanguagePicker("fa")
    assert picker.reload.value == ""  # the page's own language: no reload
    picker.dropdown.value = "hi"
    assert "searchParams.set(&#x27;lang&#x27;,&#x27;hi&#x27;)" in picker.reload.value
    assert "window.URL" in picker.reload.value


def test_a_picker_in_jupyterlab_switches_only_the_widgets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ipywidgets")
    from toonerville.widgets.language import LanguagePicker

    monkeypatch.delenv("QUERY_STRING", raising=False)
    picker = LanguagePicker("en")
    picker.dropdown.value = "de"
    assert picker.reload.value == ""
    assert picker.dropdown.description.endswith("Sprache")


def test_the_reload_only_names_a_language_of_the_kit() -> None:
    pytest.importorskip("ipywidgets")
    from toonerville.widgets.language import LanguagePicker

    with pytest.raises(ValueError, match="unknown language"):
        LanguagePicker.reload_html("fa');alert(1);('")


# -- the static site's pages per language --------------------------------------------------
def test_each_static_page_knows_its_language_and_its_siblings(tmp_path: Path) -> None:
    site = _tool("build_site")
    out = tmp_path
    render = out / "voici" / "render"
    assert site.page_language(render / "02-runs-and-sets.html", out) == \
        ("en", "02-runs-and-sets.html")
    assert site.page_language(render / "fa" / "02-runs-and-sets.html", out) == \
        ("fa", "02-runs-and-sets.html")
    assert site.page_language(out / "voici" / "tree" / "index.html", out) is None
    assert site.page_language(render / "xx" / "02-runs-and-sets.html", out) is None
    script = site.language_switch_js("fa", "rulebook.html")
    pages = json.loads(re.search(r"pages = (\{.*?\});", script)[1])  # type: ignore[index]
    assert pages == {"en": "../rulebook.html", "de": "../de/rulebook.html",
                     "hr": "../hr/rulebook.html", "su": "../su/rulebook.html",
                     "fa": "../fa/rulebook.html", "hi": "../hi/rulebook.html"}
    assert '"en": "rulebook.html"' in site.language_switch_js("en", "rulebook.html")


def test_the_static_site_gets_every_notebook_in_every_language(tmp_path: Path) -> None:
    site = _tool("build_site")
    site.stage_notebooks(tmp_path)
    # the rulebook is a static page there (tools/pages.py), not a notebook with a kernel
    names = {p.name for p in NOTEBOOKS} - {"rulebook.ipynb"}
    assert {p.name for p in tmp_path.glob("*.ipynb")} == names
    for lang in ("de", "hr", "su", "fa", "hi"):
        assert {p.name for p in (tmp_path / lang).glob("*.ipynb")} == names
        nb = _load(tmp_path / lang / "02-runs-and-sets.ipynb")
        assert nb["metadata"][prose.METADATA_KEY] == lang


def test_a_static_page_declares_its_language_and_direction(tmp_path: Path) -> None:
    site = _tool("build_site")
    page = tmp_path / "voici" / "render" / "fa" / "09-classroom.html"
    page.parent.mkdir(parents=True)
    page.write_text('<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"></head>'
                    "<body></body></html>", encoding="utf-8")
    site.patch_page(page, tmp_path, "")
    assert '<html lang="fa" dir="rtl">' in page.read_text(encoding="utf-8")
    english = tmp_path / "voici" / "render" / "09-classroom.html"
    english.write_text('<html lang="en"><head></head></html>', encoding="utf-8")
    site.patch_page(english, tmp_path, "")
    assert '<html lang="en" dir="ltr">' in english.read_text(encoding="utf-8")
