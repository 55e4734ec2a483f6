"""The static pages (tools/pages.py): the front page and the rulebook page, in every
language, current with their sources, with no developer text for the learner."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import pages  # noqa: E402

from toonerville.engine.messages import LANGUAGES  # noqa: E402

RULE_IDS = re.findall(r'<a id="([A-Za-z0-9]+)"></a>', (ROOT / "docs" / "rules.md").read_text())


def test_the_apps_pages_are_current() -> None:
    stale = [str(path.relative_to(ROOT)) for path, text in pages.app_files().items()
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run `python tools/pages.py`: {stale}"


def test_the_front_page_has_every_language_and_every_lesson() -> None:
    page = pages.front_page(pages.site_links())
    for lang in LANGUAGES:
        section = re.search(rf'<section class="front" lang="{lang}".*?</section>', page, re.S)
        assert section, lang
        folder = "" if lang == "en" else f"{lang}/"
        for n in range(11):
            assert re.search(rf'href="voici/render/{folder}{n:02d}-[a-z-]+\.html"', section[0])
        assert f'href="voici/render/{folder}rulebook.html"' in section[0]
        assert 'href="readme.html#in-the-classroom"' in section[0]
        for code in LANGUAGES:
            assert f'href="?lang={code}"' in section[0]
    assert 'dir="rtl"' in re.search(r'<section class="front" lang="fa"[^>]*>', page)[0]
    assert "http://" not in page and "https://" not in page  # works offline


def test_the_front_page_speaks_each_language() -> None:
    page = pages.front_page(pages.site_links())
    assert "Die Lektionen der Reihe nach" in page and "درس‌ها، به ترتیب" in page
    assert "पाठ, क्रम से" in page and "Lekcije, redom" in page and "Palajaran, saurutan" in page


NOTEBOOK = {"type": "notebook", "name": "00-welcome.ipynb"}
FOLDER = {"type": "directory", "name": "notebooks"}


@pytest.mark.parametrize(("folder", "listing", "lessons"), [
    # make app: notebooks/ is the server's root
    ("", [NOTEBOOK], "/base/voila/render/"),
    # Binder: the repository is the root; its front page at voila/tree/notebooks …
    ("notebooks", [NOTEBOOK], "/base/voila/render/notebooks/"),
    # … or at the root, voila/tree, which lists the notebooks folder
    ("", [FOLDER], "/base/voila/render/notebooks/"),
])
def test_the_apps_front_page_links_lead_to_the_lessons_of_the_folder_it_lists(
        folder: str, listing: list[dict[str, str]], lessons: str) -> None:
    import jinja2  # Voila's own template engine, installed with the notebooks extra
    page = jinja2.Template(pages.app_tree_template()).render(
        base_url="/base/", notebook_path=folder, contents={"content": iter(listing)})
    assert f'href="{lessons}03-contracts.ipynb?lang=fa"' in page
    assert f'href="{lessons}00-welcome.ipynb"' in page
    assert 'href="/base/voila/templates/toonerville/static/rulebook-hi.html"' in page
    assert "@BASE@" not in page and "@DIR@" not in page and "{%" not in page


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_rulebook_page_has_every_rule_and_no_developer_text(lang: str) -> None:
    page = pages.rulebook_page(lang, {c: f"{c}.html" for c in LANGUAGES}, "index.html")
    for rule in RULE_IDS:
        assert f'<p class="rule" id="{rule}">' in page, rule
    for developer_text in ("test_T14", "docs/rules.md", "toonerville.Rules", "rules.md",
                           "max_rooks_per_meld", "swap_only_when_down", "<code>seating"):
        assert developer_text not in page
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "fa" else "ltr"}">' in page
    assert '<a href="#T17">T17</a>' in page  # a rule id in the text leads to its rule


def test_the_rulebook_page_highlights_its_target_with_room_above_and_prints() -> None:
    page = pages.rulebook_page("en", {c: f"{c}.html" for c in LANGUAGES}, "index.html")
    assert ".rule:target {" in page and "scroll-margin-top" in page
    assert "@media print" in page and "window.print()" in page


def test_developer_text_is_in_the_developers_doc() -> None:
    text = (ROOT / "docs" / "developers.md").read_text()
    for needed in ("test_T14_", "docs/rules.md#T14", "toonerville.Rules"):
        assert needed in text
