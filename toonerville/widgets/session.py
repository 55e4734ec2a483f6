"""The model of "my seat at a table", as traitlets: the play app's game against bots
(`PlaySession`, notebook 07, here); a seat at a shared table (`SharedSession`, 09 and
10) lives in `seat_model` with the traits every seat model shares (`SeatModel`).

`PlaySession` owns the `Game`, its `table.Table` and the app's settings, and announces every
change as a trait (`game`, `moves`, `phase`, `humans`, `settings`, `buy_offers`,
`message`, `notes`); 07's page (`play.py`) observes it and shows the seat through the
seat view (`seat.SeatView`, whose Hint and Suggest ask the engine themselves). It holds
no rules knowledge of its own: every question about the game goes to the engine
(`Game`, `hints.discard_helps`), and a refusal becomes the `message`.

After each of the human's moves the bots play until the human must decide again; a
declined discard is offered to the human only as `buy_offers` says ("helpful": only
a card that helps, by `hints.discard_helps`; "always"; "never"), else the session
passes for them. `take_back()` undoes the human's last move and the bot moves after it
(`Game.undo`) and leaves a note in `notes`, which the log shows among the game's events.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

import traitlets

from ..engine import actions as A
from ..engine.cards import Card, format_cards, sort_cards
from ..engine.errors import SaveFileError, ToonervilleError
from ..engine.events import Event, Phase
from ..engine.game import Game
from ..engine.messages import Message, _, msg
from ..engine.rules import Rules
from ..players.bots import BOT_KINDS, Bot
from ..players.scenarios import HUMAN, HUMAN_NAME, SCENARIOS, player_names
from ..players.table import Table, offer_help
from .seat_model import SeatModel
from .session_words import BUY_OFFERS, move_words, round_news

#: the longest text Load accepts (a whole saved game is far shorter)
MAX_SAVE_CHARS = 2_000_000
#: how the engine's refusal of a save begins (`saves.py`)
SAVE_PREFIX = "cannot load this saved game: "


log = logging.getLogger("toonerville.session")

class PlaySession(SeatModel):
    """One game of the play app: you at seat 0 (`humans`), bots at the other seats."""

    game = traitlets.Instance(Game)
    #: moves played so far (`len(game.actions)`): changes with every move and take-back
    moves = traitlets.Int(0)
    phase = traitlets.Unicode("")
    humans = traitlets.Tuple((HUMAN,))
    #: bots (2-4), kind and seed for the next new game
    settings = traitlets.Dict()
    buy_offers = traitlets.Enum([key for key, _label in BUY_OFFERS], default_value="helpful")

    def __init__(self, seed: int = 7, bots: int = 3, bot_kind: str | Bot = "heuristic",
                 rules: Rules | None = None, turn_limit: int | None = None,
                 buy_offers: str = "helpful", *, game: Game | None = None,
                 scenario: str | None = None) -> None:
        super().__init__()
        self.custom_bot = None if isinstance(bot_kind, str) else bot_kind
        self.settings = {"seed": seed, "bots": min(max(bots, 2), 4),
                         "kind": bot_kind if isinstance(bot_kind, str) else bot_kind.name}
        self.rules = rules or Rules()
        self.turn_limit = turn_limit
        self._chosen: list[int] = []  # indices in game.actions of moves the human chose
        self._offers_seen = 0
        self.buy_offers = buy_offers
        if game is not None:
            self.start(game)
            self.say(msg("Play on: {turn}", None, turn=self.whose()))
        elif not (scenario and self.scenario(scenario)):
            self.new_game()
            if scenario:
                self.say(msg("There is no scenario '{name}' (there is {known}): here is a "
                             "new game instead", None, name=scenario,
                             known=", ".join(SCENARIOS)), "error")
        self.observe(lambda _c: self._offers_setting_changed(), "buy_offers")

    # -- saying things -------------------------------------------------------------------
    def note(self, message: Message) -> None:
        """A line for the log, after the events so far."""
        self.notes = (*self.notes, (len(self.game.history), message))

    # -- starting games ------------------------------------------------------------------
    def new_game(self, rules: Rules | None = None) -> None:
        """Deal a new game with the settings; the seed then moves on by one."""
        if rules is not None:
            self.rules = rules
        settings = dict(self.settings)
        players, seed = int(settings["bots"]) + 1, int(settings["seed"])
        game = Game.new(players=players, seed=seed, rules=self.rules,
                        names=player_names(players), turn_limit=self.turn_limit)
        settings["seed"] = seed + 1
        self.settings = settings
        self.start(game)
        kind = str(settings["kind"])
        self.say(msg("A new game (seed {seed}): you are {name}, at seat 0, against {k} "
                     "{kind} bots. {turn}", None, seed=game.seed, name=HUMAN_NAME,
                     k=game.players - 1, kind=msg(kind) if kind in BOT_KINDS else kind,
                     turn=self.whose()))

    def scenario(self, name: str) -> bool:
        """Start the named teaching position (`SCENARIOS`); False if there is none."""
        if name not in SCENARIOS:
            return False
        players = int(self.settings["bots"]) + 1
        seed = int(self.settings["seed"])
        self.start(SCENARIOS[name](players=players, seed=seed, rules=self.rules,
                                   names=player_names(players)))
        self.settings = {**self.settings, "seed": seed + 1}
        self.say(msg("A teaching position: {turn}", None, turn=self.whose()))
        return True

    def start(self, game: Game) -> None:
        """Play on from `game` (seat 0 is you); the bots play until you must decide."""
        kind = str(self.settings["kind"])
        custom = self.custom_bot
        bots: dict[int, Bot | str] = {
            seat: custom if custom is not None and kind == custom.name else kind
            for seat in range(1, game.players)}
        self.table = Table(game, bots, buy_offers={HUMAN: self.buy_offers})
        self.bots: list[Bot | None] = [self.table.bot_of(s) if s != HUMAN else None
                                       for s in range(game.players)]
        self._chosen = []
        self._offers_seen = 0
        self.game = game
        self.notes = ()
        seen = len(game.history)
        self.play_bots()
        self._announce()
        self._news(game.history[seen:])

    # -- the human's moves ---------------------------------------------------------------
    def act(self, action: A.Action) -> bool:
        """Apply the human's move, let the bots answer, say what happened. A refusal
        says why and changes nothing."""
        game = self.game
        before = Counter(game.hand(HUMAN))
        seen = len(game.history)
        try:
            game.apply(action)
        except ToonervilleError as err:
            self.say(err.message, "error")
            return False
        self._chosen.append(len(game.actions) - 1)
        if not isinstance(action, A.Buy | A.Pass):
            self._offers_seen = 0  # offers are counted from your own turn on
        mine = [e for e in game.history[seen:] if e.seat == HUMAN and e.action]
        self.play_bots()
        got = Counter(game.hand(HUMAN)) - before  # a draw completes after the buy window
        self._announce()
        if self._news(game.history[seen:]):
            return True
        if isinstance(action, A.SwapRook):
            self.say(msg("You put {card} in the Rook's place; the Rook went {where}", "T18",
                         card=action.natural, where=self._rook_went(action)), "ok")
        elif isinstance(action, A.Draw | A.Buy) and got:
            self.say(msg("You got {cards}", "T9" if isinstance(action, A.Draw) else "T11",
                         cards=format_cards(sort_cards(got.elements()))), "info")
        elif mine:
            self.say(mine[-1].text, "ok")
        return True

    def _rook_went(self, action: A.SwapRook) -> str:
        """Where the Rook of a swap went, in words of the language in use."""
        if action.lay_down is not None:
            return _("into your lay-down")
        if action.lay_off_onto is None:
            return _("into your hand, to play this turn")
        owner, index = action.lay_off_onto
        melds = self.game.view(HUMAN).table[owner]
        meld = str(melds[index]) if index < len(melds) else ""
        return _("onto {name}'s {meld}").format(name=self.game.names[owner], meld=meld)

    def take_back(self) -> bool:
        """Undo the human's last move and every move after it (the bots', the passes
        made for you); the log notes it. False (and why) if there is nothing to undo."""
        game = self.game
        if not self._chosen:
            self.say(msg("There is no move of yours to take back in this game", None),
                     "error")
            return False
        last = self._chosen.pop()
        taken = None
        while len(game.actions) > last:
            taken = game.undo()
        self._offers_seen = 0
        logged = len(game.history)  # notes stay, at most after the events left
        self.notes = tuple((min(at, logged), note) for at, note in self.notes)
        self.offer = self._offer_now()
        self.note(msg("{name} took back {move}", None, name=HUMAN_NAME,
                      move=move_words(taken)))
        self._announce()
        self.say(msg("Taken back: {move}. {turn}", None,
                     move=move_words(taken),
                     turn=self.whose()), "info")
        return True

    # -- the bots ------------------------------------------------------------------------
    def play_bots(self, for_me: bool = False) -> None:
        """Let the bots move until the human must decide (with `for_me`, a heuristic bot
        plays the human's seat too, as for a learner who is away). A declined discard the
        human is not to be offered (`buy_offers`) is passed for them (`Table`)."""
        table = self.table
        table.learner_moved()
        if for_me:
            table.set_away(HUMAN)
        try:
            table.run()
        finally:
            table.set_away(HUMAN, False)
        self.offer = self._offer_now()

    def offer_reason(self) -> Message | None:
        """Why the discard offered now would help you (`table.offer_help`), or None."""
        return offer_help(self.game.view(HUMAN), self.game.rules)

    def _offer_now(self) -> tuple[int, Card, int] | tuple[()]:
        game = self.game
        view = game.view(HUMAN)
        if game.is_over or view.phase is not Phase.BUY or HUMAN not in view.deciders \
                or view.offered is None:
            return ()
        self._offers_seen += 1
        return (self._offers_seen, view.offered, view.current)

    def _offers_setting_changed(self) -> None:
        self.table.set_buy_offers(HUMAN, self.buy_offers)
        if HUMAN in self.game.deciders and HUMAN not in self.table.learner_to_act():
            seen = len(self.game.history)
            self.play_bots()
            self._announce()
            self._news(self.game.history[seen:])

    def autoplay(self) -> None:
        """A heuristic bot plays your seat until the game is over (demos, benchmarks)."""
        seen = len(self.game.history)
        self.play_bots(for_me=True)
        self._chosen = []
        self._announce()
        news = self._news(self.game.history[seen:])
        stalled = self.table.stalled
        if stalled is not None and not self.game.is_over:
            # (a round no bot can end, as in a save without a turn limit: the table's one
            # safety limit stops them, and the page says so rather than "played on")
            self.say(msg("The bots could not finish this game: {why}. You can play on "
                         "yourself, or start a new game", None, why=stalled), "error")
        elif not news:
            self.say(msg("The bots played on for you", None), "info")

    # -- save and load -------------------------------------------------------------------
    def load(self, text: str | bytes) -> bool:
        """Replace the game by a saved one; a bad save is blamed on the file, says why
        and keeps this game."""
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        if len(text) > MAX_SAVE_CHARS:
            self.say(msg("This file is not a saved game: it is {n} characters long, far "
                         "more than a saved game (at most {most})", None, n=len(text),
                         most=MAX_SAVE_CHARS), "error")
            return False
        try:
            game = Game.from_json(text)
        except SaveFileError as err:
            why = err.message.text
            if why.startswith(SAVE_PREFIX):  # the engine's own opening, said once
                why = why[len(SAVE_PREFIX):]
            self.say(msg("This file is not a saved game: {why}", err.message.rule,
                         why=why), "error")
            return False
        except Exception:  # noqa: BLE001 - whatever the file holds, it is to blame
            # (a fault of the kit's, not the file's words: the page names no exception)
            log.exception("a save could not be loaded")
            self.say(msg("This file is not a saved game: the kit could not read it. "
                         "Nothing was changed; the game goes on as it was", None), "error")
            return False
        self.settings = {**self.settings, "bots": game.players - 1}
        self.start(game)
        self.say(msg("Loaded: round {r}. {turn}", None, r=game.round_number,
                     turn=self.whose()), "ok")
        return True

    # -- announcing ----------------------------------------------------------------------
    def whose(self) -> Message:
        """Whose move it is, as a sentence rendered when shown (a greeting made before
        the page's language is applied is shown in that language all the same)."""
        game = self.game
        if game.is_over:
            return msg("The game is over.")
        if HUMAN in game.deciders:
            return msg("It is your move.")
        return msg("It is {name}'s turn.", None, name=game.names[game.current])

    def _announce(self) -> None:
        """Tell the views: the move count and the phase (the game object stays)."""
        game = self.game
        self.moves = len(game.actions)
        self.phase = game.phase.value
        why: Message | str = "" if self._chosen else msg(
            "There is no move of yours to take back in this game", None)
        self.show_seat(game.view(HUMAN), game.history,
                       bots={s: b.name for s, b in enumerate(self.bots) if b is not None},
                       away=self.table.away(), take_back=(bool(self._chosen), why),
                       legal=self.legal_now(), number=len(game.actions),
                       finished=game.is_over, rules=game.rules)

    def legal_now(self) -> list[A.Action]:
        """Your moves now; the lay-down among them is the solver's best one (the one
        leaving fewest points, checked like any move: `Game.suggest_lay_down`)."""
        game = self.game
        if HUMAN not in game.deciders:
            return []
        legal = game.legal_actions(HUMAN)
        if any(isinstance(a, A.LayDown) for a in legal):
            best = game.suggest_lay_down(HUMAN)
            if best is not None:
                legal = [A.LayDown(HUMAN, best) if isinstance(a, A.LayDown) else a
                         for a in legal]
        return legal

    def _news(self, events: Sequence[Event]) -> bool:
        """Say so when a round (or the game) ended among these events."""
        news = round_news(self.game, events)
        if news is None:
            return False
        self.say(*news)
        return True


__all__ = ["PlaySession"]
