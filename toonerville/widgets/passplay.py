"""Pass-and-play: 3–5 players at one screen, the `PassAndPlay` page of 09.

Owns the page where learners sit around one device: each seat is a learner (who types a
name) or a bot, and the game lives in memory in this kernel (`Game`; nothing is stored).
The table is drawn by the one seat view of every table page (`seat.SeatView`), for one
seat at a time. Whenever the decision passes to another learner, the hand leaves the page and a
cover says "pass the device to <name>"; only that learner's "I am <name>" shows their
hand again. A buy window (T10) asks each learner still to answer in turn, each behind
the cover; bots answer and play by themselves, at once, between the learners' moves.
A round's review is of the learner holding the device; its "Try it again" puts the
round's costly decisions on that learner's own practice list (`practice.PracticePanel`,
one per learner's name, in this kernel like the game), shown under the table only while
that learner holds the device.

Stable hooks for tests are CSS classes: `tr-passplay` (the page), `tr-pp-players`,
`tr-pp-name` and `tr-pp-kind` (one per seat), `tr-pp-start`, `tr-pp-cover`,
`tr-pp-cover-text`, `tr-pp-reveal`, `tr-pp-new`, `tr-message`, `tr-practice-box` (the
holder's practice panel, `tr-practice`), and the seat view's
(`tr-status`, `tr-prompt`, `tr-hand`, `tr-draw`, `tr-recap`, … see `seat`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from html import escape

import ipywidgets as widgets

from ..coach.review import Mistake
from ..engine import actions as A
from ..engine.errors import IllegalActionError, ToonervilleError
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.messages import N_, _, msg
from ..engine.names import bot_names, name_key
from ..players.bots import make_bot
from ..players.table import Table
from ..store.names import NAME_LIMIT, clean_name
from .base import SHOWN, MessageBox, displayed, size_style, translated, translated_button
from .level_view import LevelGuide, level_options
from .practice import PracticePanel
from .seat import SeatView
from .seat_model import TableSession
from .textbox import capped_text

#: a seat's kind for a learner (the others are `bots.BOT_KINDS`)
HUMAN = "human"
MAX_PLAYERS = 5


class PassAndPlay(widgets.VBox):  # type: ignore[misc]
    """Several learners (and bots) at one screen, a cover between their turns.

    Choose the players in the lobby and click Start, or call `start(names, kinds)`.
    `.game` is the game (None before the start); `.holder` is the seat whose hand the
    page shows now, None while the cover is up; `.waiting_for` is the learner the cover
    names."""

    def __init__(self, *, size: str = "normal", seed: int | None = None) -> None:
        #: the one model of the seat shown, over the page's `Table` (None before the start)
        self.session: TableSession | None = None
        self.kinds: tuple[str, ...] = ()
        self.holder: int | None = None
        self.waiting_for: int | None = None
        self._seed = seed
        self._size = size
        #: each learner's "Try it again" list, by the key of their name (`name_key`)
        self._practice: dict[str, PracticePanel] = {}
        self._build()
        # the practice panel comes after the page's message box: the key script says a
        # key's "not now" in the first message box around the seat view
        super().__init__(children=[size_style(), self.lobby, self.message, self.board,
                                   self.practice_box])
        self.add_class("tr-passplay")
        self.message.info(msg("name the learners at this screen (bots take the other "
                              "seats), then click Start", None))

    @property
    def game(self) -> Game | None:
        """The game (the session's table's), None before the start."""
        return None if self.session is None else self.session.table.game

    @property
    def table(self) -> Table:
        """The table the game is played at (`table.Table`: bots, stalls, moves)."""
        return self._session().table

    def _session(self) -> TableSession:
        if self.session is None:
            raise ToonervilleError(msg("start a game first", None))
        return self.session

    def __repr__(self) -> str:
        if self.game is None:
            return "PassAndPlay(not started)"
        return (f"PassAndPlay({len(self.kinds)} players, move {len(self.game.actions)}, "
                f"showing {self.holder!r})")

    # -- building the page -----------------------------------------------------------
    def _build(self) -> None:
        self.message = MessageBox(size=self._size)
        self.message.add_class("tr-message")
        guard = self.message.guard
        # every control of the lobby follows the language menu (`base.translated`)
        self.players = translated(widgets.Dropdown(options=[3, 4, 5], value=3,
                                                   layout=widgets.Layout(width="auto")),
                                  description=N_("Players"))
        self.players.add_class("tr-pp-players")
        self.players.observe(lambda _c: self._show_rows(), "value")

        def kinds() -> list[tuple[str, str]]:
            return [(_("a learner"), HUMAN),
                    *((_("bot ({kind})").format(kind=word), k) for word, k in level_options())]

        self.name_texts: list[widgets.Text] = []
        self.kind_choices: list[widgets.Dropdown] = []
        self.rows: list[widgets.HBox] = []
        for seat in range(MAX_PLAYERS):
            name = translated(
                capped_text(NAME_LIMIT, self.message, css="tr-pp-name"),
                description=partial(lambda k: _("Seat {k}").format(k=k), seat),
                placeholder=partial(lambda k: _("Player {k}").format(k=k), seat))
            kind = translated(widgets.Dropdown(options=kinds(), value=HUMAN,
                                               layout=widgets.Layout(width="auto")),
                              description=N_("played by"), options=kinds)
            kind.add_class("tr-pp-kind")
            self.name_texts.append(name)
            self.kind_choices.append(kind)
            self.rows.append(widgets.HBox([name, kind]))
        self.start_button = translated_button(N_("Start"), "tr-pp-start", N_(
            "Deal a new game for these players at this screen"))
        self.start_button.on_click(guard(lambda _b: self.start()))
        #: every bot level described, the ones chosen in bold (`level_view`)
        self.levels = LevelGuide(self._size).follow(*self.kind_choices)
        self.lobby = widgets.VBox([self.players, *self.rows, self.levels, self.start_button])
        self.lobby.add_class("tr-pp-lobby")
        self._show_rows()
        # the cover and the table
        self.cover_text = widgets.HTML()
        self.cover_text.add_class("tr-pp-cover-text")
        self.reveal_button = translated_button(N_("I am …"), "tr-pp-reveal", N_(
            "Show your hand: only the learner named here should click"))
        self.reveal_button.button_style = "primary"
        self.reveal_button.on_click(guard(lambda _b: self.reveal()))
        self.cover = widgets.VBox([self.cover_text, self.reveal_button],
                                  layout=widgets.Layout(display="none"))
        self.cover.add_class("tr-pp-cover")
        self.seat_view = SeatView(self._play, self.message, size=self._size,
                                  take_back=self._take_back)
        self.seat_view.layout.display = "none"
        self.seat_view.no_seat = msg("the device is covered: the learner it names clicks "
                                     "their button first", None)
        # a round's review is of the learner holding the device when it is opened
        self.seat_view.recap.review_source = lambda: None if self.game is None \
            or self.holder is None else (self.game, self.holder)
        self.seat_view.recap.review_at_once = False
        self.seat_view.recap.review.on_try = guard(self._try_again)
        self.practice_box = widgets.VBox()
        self.practice_box.add_class("tr-practice-box")
        self.new_button = translated_button(N_("New game"), "tr-pp-new", N_(
            "Leave this game and choose the players again"))
        self.new_button.on_click(guard(lambda _b: self.leave()))
        self.board = widgets.VBox([self.cover, self.seat_view, self.new_button],
                                  layout=widgets.Layout(display="none"))
        self.board.add_class("tr-pp-board")

    def _show_rows(self) -> None:
        for seat, row in enumerate(self.rows):
            row.layout.display = displayed(seat < int(self.players.value))

    # -- starting --------------------------------------------------------------------
    def start(self, names: Sequence[str] | None = None, kinds: Sequence[str] | None = None,
              seed: int | None = None) -> Game:
        """Deal a game for `names` (empty: "Player k") whose seats are `kinds` (`HUMAN`
        or a bot kind); the lobby's values by default. At least one seat is a learner."""
        if names is not None:
            count = len(names)
        elif kinds is not None:
            count = len(kinds)
        else:
            count = int(self.players.value)
        if names is None:
            names = [t.value for t in self.name_texts[:count]]
        if kinds is None:
            kinds = [k.value for k in self.kind_choices[:count]]
        if len(names) != len(kinds) or not 3 <= len(names) <= MAX_PLAYERS:
            raise ToonervilleError(msg("pass-and-play seats 3 to {most} players, each "
                                       "with a name and a kind; got {n} names and {k} "
                                       "kinds", None, most=MAX_PLAYERS, n=len(names),
                                       k=len(kinds)))
        for kind in kinds:
            if kind != HUMAN:
                make_bot(kind)  # an unknown bot is refused here, with its sentence
        if HUMAN not in kinds:
            raise ToonervilleError(msg("make at least one seat a learner: a table of bots "
                                       "plays in notebook 8", None))
        chosen = seat_names(names, kinds)
        game = Game.new(players=len(chosen), names=chosen,
                        seed=self._seed if seed is None else seed)
        self.kinds = tuple(kinds)
        bots = {s: make_bot(k) for s, k in enumerate(kinds) if k != HUMAN}
        table = Table(game, bots, buy_offers={s: "always" for s in range(len(kinds))})
        self.session = TableSession(table, watching=True)  # nobody holds the device yet
        self.seat_view.follow(self.session)
        self.holder = self.waiting_for = None
        self.lobby.layout.display = "none"
        self.board.layout.display = SHOWN
        self.message.info(msg("the cards are dealt", None))
        table.run()
        self._advance()
        return game

    def leave(self) -> None:
        """Back to the lobby (the game is dropped)."""
        self.session = None
        self.holder = self.waiting_for = None
        self.seat_view.cover()
        self.practice_box.children = ()
        self.board.layout.display = "none"
        self.lobby.layout.display = SHOWN
        self.message.info(msg("name the learners at this screen (bots take the other "
                              "seats), then click Start", None))

    # -- whose turn ------------------------------------------------------------------
    def _game(self) -> Game:
        return self._session().table.game

    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, k in enumerate(self.kinds) if k == HUMAN)

    def next_learner(self) -> int | None:
        """The learner who decides next (in a buy window, the first still to answer);
        None when the game is over or only bots decide."""
        self._game()
        return next(iter(self.table.learner_to_act()), None)

    def _advance(self) -> None:
        """After the table moved on (`Table.run`, `Table.play`): show the learner who
        decides now — at once if they hold the device already, else behind the cover;
        if the table stopped the bots (its one safety limit), say so and show no hand."""
        game = self._game()
        if game.is_over:
            self.holder = self.waiting_for = None
            self._hide_cover()
            self._show(game.current, watching=True)
            self.message.ok(msg("the game is over", None))
            return
        stalled = self.table.stalled
        if stalled is not None:
            self.holder = self.waiting_for = None
            self.seat_view.cover()
            self.practice_box.children = ()
            raise ToonervilleError(stalled)
        seat = self.next_learner()
        assert seat is not None  # the table runs on until a learner acts, or it stalls
        if seat == self.holder:
            self._show(seat)
            return
        self.holder, self.waiting_for = None, seat
        self.seat_view.cover()
        self.seat_view.layout.display = "none"
        self.practice_box.children = ()
        name = game.names[seat]
        if game.phase == Phase.BUY:
            why = _("{name} may buy the declined discard").format(name=escape(name))
        else:
            why = _("it is {name}'s turn").format(name=escape(name))
        self.cover_text.value = _(
            "<h3>Pass the device to {name}</h3><p>{why}. The others look away; {name}, "
            "click the button when you hold the device.</p>").format(
            name=escape(name), why=why)
        self.reveal_button.description = _("I am {name}").format(name=name)
        self.cover.layout.display = SHOWN

    def reveal(self) -> None:
        """The learner the cover names holds the device: show their hand."""
        seat = self.waiting_for
        if seat is None:
            raise ToonervilleError(msg("nobody is waiting for the device now", None))
        self.holder, self.waiting_for = seat, None
        self._hide_cover()
        self._show(seat)
        self.message.info(msg("{name}, this is your hand", None,
                              name=self._game().names[seat]))

    def _hide_cover(self) -> None:
        self.cover.layout.display = "none"
        self.seat_view.layout.display = SHOWN

    def _show(self, seat: int, watching: bool = False) -> None:
        """The seat model shows `seat` (the seat view follows it), and the practice
        panel is that learner's (none when watching)."""
        self._session().show(seat, watching)
        panel = None if watching else self._practice.get(self._learner_key(seat))
        self.practice_box.children = () if panel is None else (panel,)

    # -- try it again ----------------------------------------------------------------
    def _learner_key(self, seat: int) -> str:
        return name_key(self._game().names[seat])

    def practice_of(self, seat: int) -> PracticePanel:
        """The "Try it again" panel of the learner in `seat`, made when first asked
        for (kept in this kernel, by the learner's name: a new game with the same
        names finds it again)."""
        key = self._learner_key(seat)
        if key not in self._practice:
            self._practice[key] = PracticePanel(None, size=self._size)
        return self._practice[key]

    def _try_again(self, game: Game, found: Sequence[Mistake]) -> None:
        """The review's "Try it again": onto the reviewed learner's list, shown while
        that learner holds the device."""
        if not found:
            return
        seat = found[0].seat
        panel = self.practice_of(seat)
        panel.add(game, found)
        if seat == self.holder:
            self.practice_box.children = (panel,)

    # -- the moves -------------------------------------------------------------------
    def _take_back(self) -> bool:
        """Take back the last move of the learner holding the device, while nobody has
        acted since (a bot's answer or another learner's move cannot be unseen): the
        seat model's rule (`TableSession.take_back`); the page only checks that someone
        holds the device."""
        seat = self.holder
        if seat is None:
            self.message.error(self.seat_view.no_seat)
            return False
        session = self._session()
        session.show(seat)  # the device holder's seat, whose rule the model keeps
        done = session.take_back()
        _serial, said, kind = session.message  # what was taken back, or why not
        self.message.show(said, kind)
        return done

    def _play(self, action: A.Action) -> bool:
        """A move of the learner holding the device: checked by the engine, then the
        game goes on (bots, then the cover for the next learner)."""
        game = self._game()
        if self.holder is None or action.seat != self.holder:
            self.message.error(self.seat_view.no_seat)
            return False
        try:
            self.table.play(action)
        except IllegalActionError as err:
            self.message.error(err.message)
            return False
        self.message.ok(msg("{name}: {move}", None, name=game.names[action.seat],
                            move=action.notation().split(": ", 1)[-1]))
        self._advance()
        return True


def seat_names(names: Sequence[str], kinds: Sequence[str]) -> tuple[str, ...]:
    """The seats' names: each name typed (`clean_name`), else "Player k" for a learner
    and a bird's name for a bot ("Crow", as at every table: `names.bot_names`, never a
    name another seat has). Two seats named alike ("Ann", "ann") are refused."""
    typed = [clean_name(n) if n.strip() else None for n in names]
    taken = [n if n is not None else _("Player {k}").format(k=k)
             for k, n in enumerate(typed) if n is not None or kinds[k] == HUMAN]
    birds = iter(bot_names(sum(1 for k, n in enumerate(typed)
                               if n is None and kinds[k] != HUMAN), taken))
    chosen = tuple(n if n is not None else
                   _("Player {k}").format(k=k) if kinds[k] == HUMAN else next(birds)
                   for k, n in enumerate(typed))
    keys = [name_key(n) for n in chosen]
    twice = next((n for n, key in zip(chosen, keys, strict=True) if keys.count(key) > 1),
                 None)
    if twice is not None:
        raise ToonervilleError(msg("two seats have the name {name}: give each learner "
                                   "a name of their own", None, name=twice))
    return chosen
