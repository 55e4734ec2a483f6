"""Toonerville Rook: the package's public face.

`from toonerville import Game, Rules, parse_cards, actions, ...` gives the names that
notebooks, saved code and the README use. The package is laid out in layers, each a
folder that imports only the ones before it (docs/layout.md, tests/test_layers.py):

- `engine`    the rules (pure standard library; what Pyodide runs and mypyc compiles):
              cards, rules, melds, the solver, `Game`, scoring, tournaments, saves, errors,
              the message catalogue
- `players`   the Bot protocol and registry, the basic bots, the table, `simulate`,
              the teaching positions
- `coach`     the strong bot, levels, hints, reviews (importing it registers its bots)
- `explorer`  studying many games: statistics, runner, tables, sweeps, plots, the CLI
- `store`     shared tables, seats and tournaments (SQLite / PostgreSQL)
- `pages`     prose and languages, the front page, the static site's stand-ins, the
              SVG/HTML pictures (`render`)
- `serving`   the class's kernel manager
- `widgets`   the only ipywidgets layer
- `buildinfo` which build runs: the compiled engine (mypyc, from this same source) or the
              pure one; `BUILD` says which, `TOONERVILLE_PURE=1` forces the pure one

Only the standard library is imported here.
"""

from . import buildinfo as _buildinfo

_buildinfo.choose()  # before any engine module is imported

# ruff: noqa: E402 - the engine's modules are imported after the build is chosen
from . import coach as coach  # registers the coach's bots ("beginner", "strong") by name
from .engine import actions  # the moves, `actions.Draw(...)`: notebooks use them
from .engine.cards import (
    COLOURS,
    ROOK,
    Card,
    Colour,
    deck,
    format_cards,
    hand_points,
    parse_cards,
    shoe,
)
from .engine.errors import (
    AlreadyDownError,
    BuyError,
    CardNotInHandError,
    ContractNotMetError,
    DeadEndError,
    DiscardError,
    IllegalActionError,
    InvalidMeldError,
    LayOffError,
    MalformedActionError,
    NoSuchSeatError,
    NotationError,
    NotYourTurnError,
    RookSwapError,
    RulesError,
    SaveFileError,
    ToonervilleError,
    WrongPhaseError,
)
from .engine.events import Event, Phase
from .engine.game import Game
from .engine.laydown import check_lay_down
from .engine.melds import Meld, MeldKind, Verdict, check_meld, is_run, is_set
from .engine.messages import Message
from .engine.rules import Contract, Restock, RookTurnUp, Rules, Seating, SwappedRook, contract_for
from .engine.scoring import MasterSheet, places, round_scores
from .engine.seating import seat_tables
from .engine.solver import Arrangement, best_lay_down, find_contract, shortfall, whole_hand
from .engine.views import PlayerView, RoundRecord
from .players.bots import HeuristicBot, RandomBot
from .players.simulate import GameRecord, play_game, simulate

#: "compiled" (the engine's modules run as C extensions built by mypyc from this source) or
#: "pure" (plain Python: under Pyodide, without a compiler, or with TOONERVILLE_PURE=1)
BUILD: str = _buildinfo.report()
__build__ = BUILD

__all__ = [
    "BUILD", "actions",
    "COLOURS", "ROOK", "BuyError", "Card", "CardNotInHandError", "Colour", "Contract",
    "ContractNotMetError", "DiscardError", "IllegalActionError", "InvalidMeldError",
    "LayOffError", "Meld", "MeldKind", "Message", "NotYourTurnError", "NotationError",
    "Restock", "RookSwapError", "RookTurnUp", "Rules", "RulesError", "SaveFileError",
    "ToonervilleError", "Verdict", "WrongPhaseError", "check_lay_down", "check_meld",
    "contract_for", "format_cards", "hand_points", "is_run", "is_set", "parse_cards",
    "Arrangement", "best_lay_down", "find_contract", "shortfall", "whole_hand",
    "Game", "Event",
    "Phase", "PlayerView", "RoundRecord", "HeuristicBot", "RandomBot", "GameRecord",
    "play_game", "simulate", "AlreadyDownError", "DeadEndError", "MalformedActionError",
    "NoSuchSeatError", "Seating", "SwappedRook", "deck", "shoe", "MasterSheet", "places",
    "round_scores", "seat_tables",
]
