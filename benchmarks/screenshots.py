"""Screenshots of the kit as a learner sees it, for the notes and the README: the app's
front page in English and Persian, 02 and 07 in Persian and Hindi (the real catalogues),
and 07 at projector size at 1920x1080.

    python benchmarks/screenshots.py            # writes benchmarks/screenshots/*.png

Voila is started as `make app` serves it (the test suite's own start-up), Chromium is
Debian's; every page is waited for until its widgets are shown and the kernel is idle.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHROMIUM, CHROMIUM_ARGS, NOTEBOOKS_DIR, start_voila, stop_voila  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

OUT = ROOT / "benchmarks" / "screenshots"
SHOTS = (  # file, notebook ("" for the app's front page), query, viewport
    ("front-page-en.png", "", {}, (1280, 900)),
    ("front-page-fa.png", "", {"lang": "fa"}, (1280, 900)),
    ("02-fa.png", "02-runs-and-sets.ipynb", {"lang": "fa"}, (1280, 900)),
    ("02-hi.png", "02-runs-and-sets.ipynb", {"lang": "hi"}, (1280, 900)),
    ("07-fa.png", "07-play-a-game.ipynb", {"lang": "fa", "seed": 7}, (1280, 900)),
    ("07-hi.png", "07-play-a-game.ipynb", {"lang": "hi", "seed": 7}, (1280, 900)),
    ("07-projector-url-1920x1080.png", "07-play-a-game.ipynb",
     {"size": "projector", "seed": 7}, (1920, 1080)),
)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    log = Path(tempfile.mkdtemp()) / "voila.log"
    server = start_voila(NOTEBOOKS_DIR, log)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for name, notebook, query, (width, height) in SHOTS:
                page = browser.new_page(viewport={"width": width, "height": height})
                if notebook:
                    url = server.render_url(notebook, **query)
                    page.goto(url, timeout=180_000)
                    page.locator(".jupyter-widgets").first.wait_for(timeout=180_000)
                    page.wait_for_timeout(3000)  # the last redraws of the page
                else:  # the front page is a static page: no kernel, no widgets
                    url = f"{server.base_url}/?" + "&".join(f"{k}={v}" for k, v in query.items())
                    page.goto(url, wait_until="load", timeout=180_000)
                page.screenshot(path=str(OUT / name), full_page=name.startswith("02"))
                print(f"{OUT / name}: {url}")
                page.close()
            browser.close()
    finally:
        stop_voila(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
