"""What the page's address asks for: `?seed=`, `?size=`, `?lang=` and the rest.

Owns reading the query string of a served page (Voila, or the static site, whose kernel
is handed the page's query string): `query_params`, `seed_from_url` (a reproducible
demonstration deal), `size_from_url`, `lang_from_url`, and `url_notes` (what the address
asked for and cannot have, in the learner's words). A preheated Voila kernel waits for its
request before reading it (`_wait_for_voila_request`).
"""

from __future__ import annotations

import logging
import os
import urllib.parse
from typing import overload

from ..engine.messages import DEFAULT, Message, msg, normalise
from ..pages.render import SIZES

log = logging.getLogger("toonerville.widgets")
#: the sizes a page's address may ask for ("small" is for thumbnails only)
PAGE_SIZES = tuple(size for size in SIZES if size != "small")

# -- the seed of a demonstration ----------------------------------------------------------
_request_waited = False


def _wait_for_voila_request() -> None:
    """Under Voila's preheated kernels the request (and its QUERY_STRING) arrives only
    after the notebook started running: wait for it, once per kernel. Elsewhere
    (JupyterLab, nbval, plain Voila) this does nothing."""
    global _request_waited
    if _request_waited or os.environ.get("VOILA_PREHEAT", "False") != "True":
        return
    _request_waited = True
    try:
        from voila.utils import wait_for_request

        wait_for_request()
    except Exception:  # no Voila, or no request info: the default seed it is
        log.warning("could not read the Voila request", exc_info=True)


def query_params() -> dict[str, str]:
    """The query parameters of the page (Voila's `QUERY_STRING`); {} outside Voila."""
    _wait_for_voila_request()
    parsed = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""), keep_blank_values=False)
    return {k: v[-1] for k, v in parsed.items() if v}


@overload
def seed_from_url(default: int, name: str = "seed") -> int: ...
@overload
def seed_from_url(default: None, name: str = "seed") -> int | None: ...
def seed_from_url(default: int | None, name: str = "seed") -> int | None:
    """The seed given in the page's URL (`…/03-contracts.ipynb?seed=42`), or `default`
    (None: a page that deals at random unless the address asks for a deal).

    A value that is not a whole number from 0 to 2**31 - 1 is ignored."""
    text = query_params().get(name, "").strip()
    try:
        seed = int(text)
    except ValueError:
        return default
    return seed if 0 <= seed < 2**31 else default


def size_from_url(default: str = "normal", name: str = "size") -> str:
    """The card and text size given in the page's URL (`…/07-play-a-game.ipynb?size=
    projector`: normal, large or projector), or `default`; anything else is ignored."""
    text = query_params().get(name, "").strip().lower()
    return text if text in PAGE_SIZES else default


def url_notes(seed_default: int | None = None) -> list[Message]:
    """What the page's address asked for and cannot have, in the learner's words: a
    `?seed=` that is not a whole number from 0 to 2**31 - 1 (when the page uses a seed,
    `seed_default`, the one used instead), a `?size=` that is not a size."""
    params, notes = query_params(), []
    seed = params.get("seed", "").strip()
    if seed_default is not None and seed and seed_from_url(-1) == -1:
        notes.append(msg("The address asks for seed “{text}”, but a seed is a whole number "
                         "from 0 to 2147483647, so this page uses seed {seed}.",
                         text=seed[:40], seed=seed_default))
    size = params.get("size", "").strip()
    if size and size_from_url("") == "":
        notes.append(msg("The address asks for size “{text}”, which this page does not "
                         "have: the sizes are normal, large and projector.", text=size[:40]))
    return notes


def lang_from_url(default: str = DEFAULT, name: str = "lang") -> str:
    """The language given in the page's URL (`…/02-runs-and-sets.ipynb?lang=fa`), or
    `default`. Regional forms are understood (`fa-IR`, `de_AT`); a code that is not one
    of `LANGUAGES` is ignored."""
    text = query_params().get(name, "").strip()
    if not text:
        return default
    code = normalise(text)
    asked_english = text.replace("_", "-").split("-")[0].lower() == DEFAULT
    return code if code != DEFAULT or asked_english else default
