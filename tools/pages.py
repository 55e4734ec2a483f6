"""The kit's static pages, in every language, from one source: the front page and the
rulebook page (no kernel behind either).

    python tools/pages.py          write the app's copies (committed, see below)
    python tools/pages.py check    exit 1, saying which file, when one is not current

Sources: the texts of `toonerville/pages/frontpage.py` and the lessons' navigation labels (both
through the kit's catalogues), `docs/rules.md` (each block through the `prose` catalogue,
as the rulebook notebook's) and README.md's "Set-up" and "In the classroom" sections.

- **The app** (`make app`, Voila): the front page is the template's tree page
  (`share/jupyter/voila/templates/toonerville/tree-lab.html` and `tree.html`, what Voila
  shows at `/` and `/voila/tree/`), and the rulebook and the README's instructions are
  static files of the template (`…/toonerville/static/rulebook-<lang>.html`, served by
  Voila at `/voila/templates/toonerville/static/…` without a kernel). These files are
  committed, so `make app` needs no build step; `check` (and tests/test_pages.py) keeps
  them current.
- **The static site** (`tools/build_site.py` calls `write_site`): `index.html` is the front
  page, `voici/render/rulebook.html` and `voici/render/<lang>/rulebook.html` the rulebook
  (beside the lessons, whose links lead there), `readme.html` the instructions.

The front page holds all six languages, one shown at a time (`?lang=`, else the browser's
language, else English); each language's lesson links open the lessons in that language.
The rulebook page is one file per language, printable, and a rule reached by its anchor
(`rulebook-fa.html#T14`) is highlighted with a little space above it. Developer notes of
docs/rules.md (`*In the engine:* \\`switch\\``) are left out of the learner's page: they are
for docs/developers.md's readers.

Build tool: it needs mistune (installed with nbconvert); the kit itself does not.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import mistune

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from rulebook import PAGES, RULES, sections  # noqa: E402

from toonerville.engine.messages import LANGUAGES, RTL, direction  # noqa: E402
from toonerville.pages.frontpage import texts  # noqa: E402
from toonerville.pages.prose import RULEBOOK_STATIC, catalogue, translate_markdown  # noqa: E402

TEMPLATE = ROOT / "share" / "jupyter" / "voila" / "templates" / "toonerville"
STATIC = TEMPLATE / "static"
README = ROOT / "README.md"
#: where the app serves the template's static folder, from its root
APP_STATIC = "voila/templates/toonerville/static/"
#: README's sections a teacher needs, by their headings
README_SECTIONS = ("Set-up", "In the classroom")
#: a rule id in running text (T14, T13a, H5)
RULE_ID = re.compile(r"(?<![\w/#-])((?:T\d{1,2}a?|H\d{1,2}))(?![\w-])")
#: a developer's note ending a rule: `*In the engine:* `switch`, `switch`.` in any language
ENGINE_NOTE = re.compile(r"\s*\*[^*\n]+(?:\n[^*\n]+)?\*\s*"
                         r"(?:<bdi dir=\"ltr\">)?`[a-z0-9_]+`(?:</bdi>)?"
                         r"(?:[\s,،、]*(?:<bdi dir=\"ltr\">)?`[a-z0-9_]+`(?:</bdi>)?)*"
                         r"\s*[.।]?(?=\s*(?:\n\n|\n?</div>|$))")
_MARKDOWN = mistune.create_markdown(escape=False, plugins=["table"])
_ANCHORED = re.compile(r'<p><a id="([A-Za-z0-9]+)"></a>\s*')

STYLE = """
:root { color-scheme: light; --ink: #1d2433; --muted: #52607a; --accent: #1f5fa8;
  --mark: #fff1b8; --edge: #e3b800; }
* { box-sizing: border-box; }
body { margin: 0; font: 18px/1.55 system-ui, "Segoe UI", "Noto Sans", sans-serif;
  color: var(--ink); background: #f7f8fb; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; background: #fff;
  min-height: 100vh; }
a { color: var(--accent); }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline;
  justify-content: space-between; border-bottom: 1px solid #dde3ee; padding-bottom: .5rem; }
nav.languages { display: flex; flex-wrap: wrap; gap: .25rem .75rem; font-size: .95rem; }
nav.languages a[aria-current] { font-weight: 700; text-decoration: none; color: var(--ink); }
h1 { font-size: 2rem; margin: .75rem 0 .25rem; }
.tagline { font-size: 1.15rem; color: var(--muted); margin-top: 0; }
.start { display: inline-block; margin: .5rem 0 1rem; padding: .6rem 1.1rem;
  background: var(--accent); color: #fff; border-radius: 6px; text-decoration: none;
  font-weight: 600; }
ol.lessons { padding-inline-start: 0; list-style: none; }
ol.lessons li { margin: .55rem 0; }
ol.lessons a { font-weight: 600; }
ol.lessons span { display: block; color: var(--muted); }
code, kbd { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em; }
code { background: #eef1f6; padding: 0 .2em; border-radius: 3px; }
table { border-collapse: collapse; margin: .75rem 0; }
th, td { border: 1px solid #ccd3df; padding: .2rem .6rem; text-align: start; }
.rule { scroll-margin-top: 1.5rem; padding: .35rem .5rem; margin-inline: -.5rem;
  border-radius: 6px; }
.rule:target { background: var(--mark); box-shadow: 0 0 0 3px var(--edge); }
footer { margin-top: 2rem; color: var(--muted); font-size: .9rem; }
[hidden] { display: none !important; }
@media print {
  body { background: #fff; font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .no-print, nav.languages { display: none !important; }
  .rule:target { background: none; box-shadow: none; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; }
  p, li, tr { break-inside: avoid; }
}
"""


# -- links ----------------------------------------------------------------------------------
def app_links(base: str = "@BASE@", folder: str = "@DIR@") -> dict[str, Callable[[str, str], str]]:
    """Where the front page's links lead in the Voila app (`base` is its root URL, `folder`
    the notebooks' folder as the server sees it, ending in "/" unless it is the root)."""
    return {
        "lesson": lambda lang, nb: f"{base}voila/render/{folder}{nb}" + (
            "" if lang == "en" else f"?lang={lang}"),
        "rulebook": lambda lang, _nb: f"{base}{APP_STATIC}rulebook-{lang}.html",
        "readme": lambda _lang, _nb: f"{base}{APP_STATIC}readme.html#in-the-classroom",
    }


def site_links() -> dict[str, Callable[[str, str], str]]:
    """Where the front page's links lead in the static site (from its root)."""
    def folder(lang: str) -> str:
        return "voici/render/" + ("" if lang == "en" else f"{lang}/")

    return {
        "lesson": lambda lang, nb: folder(lang) + nb.replace(".ipynb", ".html"),
        "rulebook": lambda lang, _nb: folder(lang) + "rulebook.html",
        "readme": lambda _lang, _nb: "readme.html#in-the-classroom",
    }


def nav_labels(lang: str) -> dict[str, str]:
    """Notebook file → its navigation label in `lang`."""
    translation = catalogue(lang)
    return {page: translation.gettext(label) for page, label in PAGES}


# -- the front page -------------------------------------------------------------------------
def _e(text: str) -> str:
    return html.escape(text, quote=True)


def language_menu(here: str, href: Callable[[str], str]) -> str:
    items = []
    for code, name in LANGUAGES.items():
        current = ' aria-current="true"' if code == here else ""
        items.append(f'<a href="{_e(href(code))}" lang="{code}" hreflang="{code}" '
                     f'dir="{direction(code)}" data-lang="{code}"{current}>{_e(name)}</a>')
    return "\n".join(items)


def front_section(lang: str, links: dict[str, Callable[[str, str], str]]) -> str:
    t = texts(lang)
    labels = nav_labels(lang)
    lessons = []
    for page, _label in PAGES:
        if page == "rulebook.ipynb":
            continue
        lessons.append(f'<li><a href="{_e(links["lesson"](lang, page))}">'
                       f"{_e(labels[page])}</a><span>{_e(t[page])}</span></li>")
    lessons.append(f'<li><a href="{_e(links["rulebook"](lang, ""))}">'
                   f'{_e(labels["rulebook.ipynb"])}</a><span>{_e(t["rulebook_line"])}'
                   "</span></li>")
    menu = language_menu(lang, lambda code: f"?lang={code}")
    return f"""<section class="front" lang="{lang}" dir="{direction(lang)}" data-lang="{lang}"{
        '' if lang == 'en' else ' hidden'}>
<header class="top">
<strong>{_e(t["title"])}</strong>
<nav class="languages" aria-label="{_e(t["language"])}">
{menu}
</nav>
</header>
<h1>{_e(t["title"])}</h1>
<p class="tagline">{_e(t["tagline"])}</p>
<p>{_e(t["about"])}</p>
<a class="start" href="{_e(links["lesson"](lang, PAGES[0][0]))}">{_e(t["start"])}</a>
<h2>{_e(t["lessons"])}</h2>
<ol class="lessons">
{chr(10).join(lessons)}
</ol>
<h2>{_e(t["teachers"])}</h2>
<p>{_e(t["teachers_body"])}</p>
<p><a class="readme" href="{_e(links["readme"](lang, ""))}">{_e(t["readme_link"])}</a></p>
<footer>{_e(t["offline"])}</footer>
</section>"""


#: shows the section of `?lang=` (else of the browser's language, else English)
FRONT_SCRIPT = """<script>
(function () {
  var known = %s;
  function pick() {
    var asked = new URLSearchParams(window.location.search).get('lang');
    var wanted = asked ? [asked] : (navigator.languages || [navigator.language || '']);
    for (var i = 0; i < wanted.length; i++) {
      var code = String(wanted[i] || '').toLowerCase().split(/[-_]/)[0];
      if (known.indexOf(code) >= 0) { return code; }
    }
    return 'en';
  }
  var lang = pick();
  document.querySelectorAll('section.front').forEach(function (section) {
    section.hidden = section.getAttribute('data-lang') !== lang;
  });
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'fa' ? 'rtl' : 'ltr';
  var title = document.querySelector('section.front[data-lang="' + lang + '"] h1');
  if (title) { document.title = title.textContent; }
})();
</script>"""


def front_page(links: dict[str, Callable[[str, str], str]]) -> str:
    """The front page, every language in it, its links as `links` says."""
    body = "\n".join(front_section(lang, links) for lang in LANGUAGES)
    return f"""<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(texts("en")["title"])}</title>
<link rel="icon" href="data:;base64,=">
<style>{STYLE}</style>
</head>
<body>
<main>
{body}
</main>
{FRONT_SCRIPT % json.dumps(list(LANGUAGES))}
</body>
</html>
"""


def app_tree_template() -> str:
    """The front page as the Voila template's tree page: a Jinja template whose only
    Jinja is the server's root URL and the folder it lists. `make app` serves notebooks/
    as the root (`/voila/render/00-welcome.ipynb`); a Jupyter server started in the
    repository, as on Binder, lists it as a folder (`/voila/tree/notebooks`, whose lessons
    are at `/voila/render/notebooks/00-welcome.ipynb`)."""
    page = front_page(app_links())
    # the lessons' folder: the one listed, or its `notebooks` folder when it has one (the
    # repository's root on Binder, `?urlpath=voila`)
    where = ("{% set lessons = namespace(folder=(notebook_path or '').strip('/')) %}"
             "{% if not lessons.folder %}{% for item in (contents or {}).get('content', []) %}"
             "{% if item.type == 'directory' and item.name == 'notebooks' %}"
             "{% set lessons.folder = 'notebooks' %}{% endif %}{% endfor %}{% endif %}")
    folder = "{% if lessons.folder %}{{ lessons.folder }}/{% endif %}"
    return (where + "{% raw %}" + page.replace("@BASE@", "{% endraw %}{{ base_url }}{% raw %}")
            .replace("@DIR@", "{% endraw %}" + folder + "{% raw %}") + "{% endraw %}\n")


# -- the rulebook ---------------------------------------------------------------------------
def _link_ids(text: str, href: Callable[[str], str]) -> str:
    """Rule ids in the text between HTML tags linked (not inside a link, code or a tag)."""
    out: list[str] = []
    depth = {"a": 0, "code": 0, "h1": 0, "h2": 0, "strong": 0}
    for piece in re.split(r"(<[^>]+>)", text):
        tag = re.match(r"<(/?)([a-z0-9]+)", piece)
        if tag:
            name = tag[2]
            if name in depth:
                depth[name] += -1 if tag[1] else 1
            out.append(piece)
        elif any(depth.values()):
            out.append(piece)
        else:
            out.append(RULE_ID.sub(lambda m: f'<a href="{href(m[1])}">{m[1]}</a>', piece))
    return "".join(out)


def learner_markdown(markdown: str) -> str:
    """docs/rules.md's text as a learner reads it: developer notes left out."""
    return ENGINE_NOTE.sub("", markdown)


def rulebook_body(lang: str) -> str:
    """The rules in `lang` as HTML: every rule a `.rule` element with its id."""
    translation = catalogue(lang)
    parts = []
    for section in sections(RULES.read_text(encoding="utf-8")):
        text = learner_markdown(translate_markdown(section, lang, translation))
        parts.append(_MARKDOWN(text))  # type: ignore[arg-type]
    body = "\n".join(str(p) for p in parts)
    # the rule links the translation made lead to this very page
    own = html.escape(RULEBOOK_STATIC.format(lang=lang), quote=True)
    body = body.replace(f'href="{own}#', 'href="#')
    body = _ANCHORED.sub(lambda m: f'<p class="rule" id="{m[1]}">', body)
    return _link_ids(body, lambda rule: f"#{rule}")


def rulebook_page(lang: str, siblings: dict[str, str], home: str,
                  switch_script: str = "") -> str:
    """The rulebook in `lang`; `siblings` gives each language's page, `home` the front
    page; `switch_script`, if any, goes first in the head (the static site's `?lang=`)."""
    t = texts(lang)
    menu = language_menu(lang, lambda code: siblings[code])
    rtl_style = ("<style>code, kbd, bdi[dir=ltr] { direction: ltr; unicode-bidi: isolate; }"
                 "</style>") if lang in RTL else ""
    script = f"<script>\n{switch_script}</script>\n" if switch_script else ""
    return f"""<!DOCTYPE html>
<html lang="{lang}" dir="{direction(lang)}">
<head>
<meta charset="utf-8">
{script}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(t["title"])}: {_e(t["rulebook_title"])}</title>
<link rel="icon" href="data:;base64,=">
<style>{STYLE}</style>{rtl_style}
</head>
<body class="rulebook">
<main>
<header class="top">
<a class="no-print" href="{_e(home)}">{_e(t["home"])}</a>
<nav class="languages" aria-label="{_e(t["language"])}">
{menu}
</nav>
<button class="no-print" type="button" onclick="window.print()">{_e(t["print"])}</button>
</header>
{rulebook_body(lang)}
</main>
</body>
</html>
"""


def readme_page() -> str:
    """README.md's instructions for a teacher (English, as the README is)."""
    text = README.read_text(encoding="utf-8")
    chunks = re.split(r"\n(?=## )", text)
    wanted = [c for c in chunks if c.startswith("## ")
              and c[3:].splitlines()[0].strip() in README_SECTIONS]
    body = str(_MARKDOWN("\n\n".join(wanted)))
    body = re.sub(r"<h2>([^<]+)</h2>",
                  lambda m: f'<h2 id="{re.sub(r"[^a-z0-9]+", "-", m[1].lower()).strip("-")}">'
                            f"{m[1]}</h2>", body)
    return f"""<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Toonerville Rook: README</title>
<link rel="icon" href="data:;base64,=">
<style>{STYLE}</style>
</head>
<body>
<main>
<h1>Toonerville Rook</h1>
{body}
</main>
</body>
</html>
"""


# -- the app's files and the site's ---------------------------------------------------------
def app_files() -> dict[Path, str]:
    """Every file of the app this tool writes, with its text."""
    tree = app_tree_template()
    out = {TEMPLATE / "tree-lab.html": tree, TEMPLATE / "tree.html": tree,
           STATIC / "readme.html": readme_page()}
    siblings = {code: f"rulebook-{code}.html" for code in LANGUAGES}
    for lang in LANGUAGES:
        home = "../../../../" + ("" if lang == "en" else f"?lang={lang}")
        out[STATIC / f"rulebook-{lang}.html"] = rulebook_page(lang, siblings, home)
    return out


def site_files(switch_js: Callable[[str, str], str]) -> Iterator[tuple[str, str]]:
    """(path from the site's root, text) of every page this tool adds to the static site;
    `switch_js(lang, name)` is the site's script that follows `?lang=` to the page of that
    language."""
    yield "index.html", front_page(site_links())
    yield "readme.html", readme_page()
    for lang in LANGUAGES:
        up = "../../" if lang == "en" else "../../../"
        siblings = {code: ("" if lang == "en" else "../")
                    + ("" if code == "en" else f"{code}/") + "rulebook.html"
                    for code in LANGUAGES}
        folder = "voici/render/" + ("" if lang == "en" else f"{lang}/")
        yield (folder + "rulebook.html",
               rulebook_page(lang, siblings, up + "index.html" + (
                   "" if lang == "en" else f"?lang={lang}"), switch_js(lang, "rulebook.html")))


def write_site(out: Path, switch_js: Callable[[str, str], str]) -> None:
    for name, text in site_files(switch_js):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv not in ([], ["check"]):
        print(__doc__)
        return 2
    stale = []
    for path, text in app_files().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if argv == ["check"]:
            stale.append(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    for path in stale:
        print(f"{path.relative_to(ROOT)} is not current: run `python tools/pages.py`",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
