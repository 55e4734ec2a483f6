"""07's game outlives its kernel: `GameKeeper` keeps it under a key in the page's address.

Owns the page's side of `store.solo`: the key of the page's game (the address's
`?game=KEY`, else a new one), the game kept after every change of the session (each
move, take-back, new game, load: the ordinary save of `saves.py`, with the bot kind, the
next seed and the buy-offer setting), and the game found again when a new kernel serves
the same address: a reload after the kernel died, or after the server restarted, shows
the same game at the same move and says so. The key reaches the address by the page's
script (`resume.js` in the page template), which reads it from a hidden element
(`tr-game-key`, `data-key`) and writes `?game=KEY` into the address without a reload;
the same element carries the line (`data-lost`, `KEPT`) the script adds to the page's
notice that its kernel is gone.

Served pages only (Voila): in JupyterLab or on the static site (no server, no store)
`keeper_for_page` gives None and the game lives in its kernel, as before. A store that
cannot be opened or written is said once; the game goes on in the page.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..engine.errors import SaveFileError, ToonervilleError
from ..engine.game import Game
from ..engine.messages import N_, Message, _, msg
from ..players.bots import BOT_KINDS
from ..store.solo import KEEP_DAYS, SoloGames, is_key, new_key
from .safety import served
from .session import PlaySession
from .session_words import BUY_OFFERS
from .store_place import store_location
from .url import query_params

log = logging.getLogger("toonerville.widgets")
#: the page's address parameter that names its game
PARAM = "game"
#: what the page adds to its "lost its game" notice (the page's script shows it)
KEPT = N_("Your game is kept: reload the page and it comes back at the move you were at.")


@dataclass(frozen=True, slots=True)
class Restored:
    """A kept game found again, with the page's set-up for it: the bot kind, the seed of
    the next new game, the buy-offer setting."""

    game: Game
    kind: str
    seed: int
    buy_offers: str


class GameKeeper:
    """Keeps one page's game in `games` under `key` (see the module's docstring)."""

    def __init__(self, games: SoloGames, key: str | None = None) -> None:
        self.games = games
        #: the key was in the address (a game may be waiting under it)
        self.asked = is_key(key)
        self.key = key if key is not None and is_key(key) else new_key()
        #: for the page's script: the key, and what to add when the kernel is lost, in a
        #: hidden element
        self.marker = widgets.HTML(layout=widgets.Layout(display="none"))
        self.marker.add_class("tr-game-key-box")
        self.relabel()
        self._session: PlaySession | None = None
        self._failed = False
        #: why the kept game was not found again (said by the page after its greeting)
        self.missing: Message | str | None = None

    def __repr__(self) -> str:
        return f"GameKeeper({self.games!r})"  # the key stays out of logs

    def relabel(self) -> None:
        """The hidden element, with its sentence in the language in use."""
        self.marker.value = (f'<span class="tr-game-key" data-key="{escape(self.key)}" '
                             f'data-lost="{escape(_(KEPT))}"></span>')

    # -- finding the game again -----------------------------------------------------------
    def restored(self) -> Restored | None:
        """The game kept under the key, replayed and checked, or None (then `missing`
        says why, when the address named a game)."""
        if not self.asked:
            return None
        try:
            kept = self.games.find(self.key)
        except (ToonervilleError, sqlite3.Error) as err:
            self.missing = _why(err)
            return None
        if kept is None:
            self.missing = msg("No game is kept under this page's address (a game is kept "
                               "for {days} days after its last move)", None, days=KEEP_DAYS)
            return None
        try:
            game = Game.from_json(kept.save)
        except SaveFileError as err:
            self.missing = err.message
            return None
        setup = _setup(kept.setup)
        return Restored(game, setup["kind"], setup["seed"], setup["buy_offers"])

    # -- keeping it ------------------------------------------------------------------------
    def follow(self, session: PlaySession) -> None:
        """Keep the session's game now and after every change."""
        self._session = session
        session.observe(lambda _c: self.keep(), "revision")
        self.keep()

    def keep(self) -> bool:
        """Keep the game as it is now; a failure is said once (the game goes on)."""
        session = self._session
        if session is None:
            return False
        setup = json.dumps({"kind": str(session.settings["kind"]),
                            "seed": int(session.settings["seed"]),
                            "buy_offers": session.buy_offers})
        try:
            self.games.keep(self.key, session.game.to_json(indent=None), setup)
        except (ToonervilleError, sqlite3.Error, OSError) as err:
            log.warning("a solo game could not be kept: %s", err)
            if not self._failed:
                self._failed = True
                session.say(msg("Your game cannot be kept for a reload ({why}); it goes on "
                                "while this page is open", None, why=_why(err)), "error")
            return False
        self._failed = False
        return True


def _why(err: Exception) -> Message | str:
    return err.message if isinstance(err, ToonervilleError) else str(err)[:160]


def _setup(text: str) -> dict[str, Any]:
    """The page's set-up kept with a game; anything missing or odd is the default."""
    try:
        data = json.loads(text)
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    kind = data.get("kind")
    seed = data.get("seed")
    offers = data.get("buy_offers")
    return {"kind": kind if kind in BOT_KINDS else "heuristic",
            "seed": seed if type(seed) is int and 0 <= seed < 2**31 else 7,
            "buy_offers": offers if offers in dict(BUY_OFFERS) else "helpful"}


def keeper_for_page(keep: SoloGames | bool | None = None, key: str | None = None,
                    where: str | Path | None = None) -> GameKeeper | None:
    """The page's keeper: `keep` a `SoloGames` (tests), True (the class store, see
    `store_place.store_location`), False (none), or None: the class store on a served
    page (Voila), none elsewhere. The key is `key`, else the address's `?game=`."""
    if keep is False or (keep is None and not served()):
        return None
    if key is None:
        key = query_params().get(PARAM)
    games = keep if isinstance(keep, SoloGames) else _open(where)
    return None if games is None else GameKeeper(games, key)


def _open(where: str | Path | None) -> SoloGames | None:
    location = store_location(where)
    if location.startswith(("postgresql://", "postgres://")):
        # the solo games live in SQLite only: beside the default file of this server
        folder = Path.home() / ".toonerville"
        folder.mkdir(parents=True, exist_ok=True)
        location = str(folder / "solo.sqlite")
    try:
        return SoloGames(location)
    except (sqlite3.Error, OSError) as err:
        log.warning("no store for solo games at %s: %s", location, err)
        return None
