"""The one model of "my seat at a table", as traitlets: `SeatModel`.

The seat view (`seat.SeatView.follow`) observes one of these and reads nothing else
(the widgets tutorial's model/view split). Its traits: `seat`, `names` (bots by their
names), `bot_seats` (seat → kind), `hand` (sorted), `to_act`, `may_act`, the buy
`offer` with the card, who `declined` it and why it would help (`buy_reason`, the
buy-offer rule `table.offer_help`), the seats `away` (a bot plays for them until they
come back), `recap` (the last finished round: its points and the running totals) and
how long its recap stays (`recap_seconds`: a shared table does not wait for it),
`can_take_back` (possible, or why not), `message`, and what the view draws: `view` (what
the seat may see), `legal`, `history`, `number`, `finished`, `watching`, `game_rules` and
`notes`; `show_seat(...)` sets them all at once and `revision` goes up with every
change. The play app's `session.PlaySession` is one (a game in this kernel against
bots); `TableSession` is a seat at a `table.Table` held in this kernel (pass-and-play's,
one seat shown at a time); `SharedSession` is a seat (or a watcher's place) at a shared
table of the store that polls by itself through `TableStore.play_bots`, sends the
learner's moves and settings, and words its hand-overs and away notes: the one holder of
a shared seat for the pages that show one (`classroom.SharedTable`, 09, and
`tournament_seat.TournamentSeat`, 10).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import traitlets

from ..engine import actions as A
from ..engine.cards import sort_cards
from ..engine.errors import IllegalActionError, ToonervilleError
from ..engine.events import Event, EventKind, Phase
from ..engine.messages import Message, _, msg
from ..engine.rules import Rules
from ..engine.views import PlayerView
from ..players.table import Table, offer_help
from ..store import Seat, TableStore, Watcher
from ..store.errors import SeatError
from ..store.tablestate import public_events
from .recap import RECAP_SECONDS
from .seat_moves import NO_TAKE_BACK
from .session_words import move_words


class SeatModel(traitlets.HasTraits):
    """What a seat view shows of "my seat at a table" (see the module's docstring)."""

    seat = traitlets.Int(0)
    names = traitlets.Tuple()
    #: the seats bots play: seat → bot kind
    bot_seats = traitlets.Dict()
    hand = traitlets.Tuple()
    to_act = traitlets.Tuple()
    may_act = traitlets.Bool(False)
    #: the buy offer shown now: (number since your last move, card, seat offering) or ()
    offer = traitlets.Tuple()
    #: who declined the card on offer, in order: the player who drew instead, then passes
    declined = traitlets.Tuple()
    away = traitlets.Tuple()
    #: the last finished round: {"round", "points", "totals"}, or {} before any
    recap = traitlets.Dict()
    #: (True, "") when your last move can be taken back, else (False, why not)
    can_take_back = traitlets.Tuple((False, ""))
    #: the last sentence for the learner: (serial, Message or str, kind)
    message = traitlets.Tuple((0, "", "info"))
    #: what the seat may see now (a `PlayerView`), None before any
    view = traitlets.Any(None)
    #: the seat's moves now (none while it waits, or watches)
    legal = traitlets.Tuple()
    #: the sentences everyone at the table may read, oldest first
    history = traitlets.Tuple()
    #: moves made so far, and whether the game is over
    number = traitlets.Int(0)
    finished = traitlets.Bool(False)
    #: a watcher's place (or a covered device): no hand, no moves
    watching = traitlets.Bool(False)
    #: the table's rules (None: the standard ones; not `rules`: 07's session keeps the
    #: next new game's under that name)
    game_rules = traitlets.Any(None)
    #: the owner's lines for the log: (events before it, Message)
    notes = traitlets.Tuple()
    #: why the declined discard on offer would help this seat (`table.offer_help`), or None
    buy_reason = traitlets.Any(None)
    #: seconds a round's recap stays above the new round before it closes by itself, at
    #: a table that does not wait for a learner reading it (a shared one); None: the
    #: table waits, and the recap covers the new round until Continue (07, pass-and-play)
    recap_seconds = traitlets.Int(None, allow_none=True)
    revision = traitlets.Int(0)

    def take_back(self) -> bool:
        """Take back the seat's last move, by this model's rule (07's session: the
        learner's last move and the bots' after it; pass-and-play's: the learner's own
        last move while nobody has acted since), and say what was taken back; here, at a
        table whose moves cannot be taken back, say why not (`can_take_back`). The one
        entry point the seat view's Take back calls."""
        _possible, why = self.can_take_back
        self.say(why or msg(NO_TAKE_BACK, None), "error")
        return False

    def say(self, message: Message | str, kind: str = "info") -> None:
        """Show `message` to the learner (a new serial, so a repeat is announced too)."""
        self.message = (self.message[0] + 1, message, kind)

    def show_seat(self, view: PlayerView, history: Sequence[Event], *,
                  bots: dict[int, str], away: Collection[int],
                  take_back: tuple[bool, Message | str], legal: Sequence[A.Action] = (),
                  number: int = 0, finished: bool = False, watching: bool = False,
                  rules: Rules | None = None) -> None:
        """Set the seat's traits from what the seat may see (`history`: the sentences
        everyone may read), then `revision`, which the seat view observes."""
        with self.hold_trait_notifications():
            self.seat = view.seat
            self.names = tuple(view.names)
            self.set_trait("bot_seats", dict(bots))
            self.hand = tuple(sort_cards(view.hand))
            self.to_act = tuple(view.deciders)
            self.may_act = view.seat in view.deciders
            self.declined = declined_by(view, history)
            self.away = tuple(sorted(away))
            self.recap = recap_of(view)
            self.can_take_back = take_back
            self.view = view
            self.legal = () if watching or finished else tuple(legal)
            self.history = tuple(history)
            self.number, self.finished, self.watching = number, finished, watching
            self.game_rules = rules
            self.buy_reason = None if watching else offer_help(view, rules or Rules())
        self.revision += 1

def declined_by(view: PlayerView, history: Sequence[Event]) -> tuple[str, ...]:
    """The names of those who declined the card on offer now: the player who drew from
    the stock instead, then those who passed; () outside a buy window."""
    if view.phase is not Phase.BUY:
        return ()
    seats: list[int] = []
    for event in reversed(history):
        if event.kind == EventKind.OFFER:
            seats.append(event.seat if event.seat is not None else view.current)
            break
        if event.kind == EventKind.PASS and event.seat is not None:
            seats.append(event.seat)
    return tuple(view.names[s] for s in reversed(seats))


def recap_of(view: PlayerView) -> dict[str, object]:
    """The last finished round as the score sheet has it, with the running totals."""
    if not view.scores:
        return {}
    rows = view.scores
    return {"round": len(rows), "points": tuple(rows[-1]),
            "totals": tuple(sum(r[i] for r in rows) for i in range(len(rows[-1])))}


class SharedSession(SeatModel):
    """My seat at a shared table (or a watcher's place), as the same model 07's session
    is: `poll()` tells the table this page is open (a seat's heartbeat), makes the moves
    no learner makes (bots, passes, a stand-in for a learner who is away:
    `TableStore.play_bots`) and catches up; `act(move)` sends a move; a move at a shared
    table cannot be taken back (the others have seen it). The hand-overs and away notes
    are its traits: `lost` (the seat's key no longer holds it: the opener gave it to a
    bot, `"bot"`, or to another learner, `"learner"`), `away` and `closed` (the other
    learners whose page said it closed and who are not away yet: seat → when), and their
    sentences `away_words()` and `lost_words()`."""

    #: "" while the key holds the seat; "bot" or "learner": to whom the opener gave it
    lost = traitlets.Unicode("")
    #: the other learners whose page said it closed, not away yet: seat → wall-clock time
    closed = traitlets.Dict()

    def __init__(self, store: TableStore, handle: Seat | Watcher) -> None:
        super().__init__(recap_seconds=RECAP_SECONDS)
        self.store = store
        self.handle = handle
        self._shown: object = None
        self.poll(force=True)

    @property
    def code(self) -> str:
        return self.handle.code

    def poll(self, force: bool = False) -> bool:
        """Catch up with the table; True (and the traits set) if anything changed: a
        move, a name, who is away, whose page closed, or the seat lost (`lost`)."""
        handle = self.handle
        if self.lost:
            return False
        if not handle.finished:
            if isinstance(handle, Seat):
                try:
                    handle.heartbeat()  # this page is open (a closed tab stops beating)
                except SeatError:  # the key no longer holds the seat: it was given away
                    return self._lose(handle)
            self.store.play_bots(handle.code)
        handle.refresh()
        if isinstance(handle, Seat) and handle.seat in handle.bots:
            return self._lose(handle)
        mine = handle.seat if isinstance(handle, Seat) else None
        closed = {seat: at for seat, at in self.store.closed_pages(handle.code).items()
                  if seat != mine and seat not in handle.away and seat not in handle.bots}
        def shown() -> object:
            return (handle.number, handle.view.names, handle.away,
                    tuple(handle.bots.items()), tuple(sorted(closed.items())))

        if not force and shown() == self._shown:
            return False
        # the moves of the state the view shows: `legal_actions` catches the handle up
        # if the table moved in between, so the prompt and the buttons always agree
        legal = handle.legal_actions() if isinstance(handle, Seat) \
            and not handle.finished else ()
        self._shown = shown()
        with self.hold_trait_notifications():
            self.set_trait("closed", closed)
            self.show_seat(handle.view, self.store.public_history(handle.code),
                           bots=handle.bots, away=handle.away, take_back=(False, msg(
                               "a move at a shared table cannot be taken back: the others "
                               "have seen it", None)),
                           legal=legal, number=handle.number, finished=handle.finished,
                           watching=not isinstance(handle, Seat))
        return True

    def _lose(self, handle: Seat) -> bool:
        handle.refresh()
        self.lost = "bot" if handle.seat in handle.bots else "learner"
        return True

    # -- the hand-overs and away notes, in words (said the same on every page) ------
    @property
    def away_here(self) -> bool:
        """Is this page's own seat played by a bot while its learner is away (the page
        then offers the seat back: `come_back`)?"""
        handle = self.handle
        return isinstance(handle, Seat) and handle.seat in self.away

    def away_words(self) -> tuple[str, ...]:
        """Who is away (a bot plays for them; this page's own learner first, told how
        to come back), and whose page closed and in how many seconds a bot plays for
        them: the sentences, in the language in use, one a note."""
        names, mine = self.names, self.away_here
        notes = [_("{name} is away: a bot plays for {name}").format(name=names[s])
                 for s in self.away if not (mine and s == self.seat)]
        if mine:
            notes.insert(0, _("You were away: a bot plays for you until you take your "
                              "seat back"))
        if self.closed:
            wait = self.store.info(self.code).limits[0]
            now = self.store.wall_clock()
            notes.extend(_(
                "{name}'s page is closed: a bot plays for {name} in {n} s unless {name} "
                "comes back").format(name=names[int(seat)],
                                     n=max(0, round(wait - (now - at))))
                for seat, at in sorted(self.closed.items()))
        return tuple(notes)

    def lost_words(self) -> Message | None:
        """What the learner is told when the opener gave this seat away (`lost`): to a
        bot or to another learner, and that the page watches from now on; else None."""
        handle = self.handle
        if not self.lost or not isinstance(handle, Seat):
            return None
        if self.lost == "bot":
            return msg("the table's opener gave your seat {seat} to a bot: you are "
                       "watching table {code} now; ask the opener for a seat to play "
                       "again", None, seat=handle.seat, code=handle.code)
        return msg("the table's opener gave your seat {seat} to another learner: you are "
                   "watching table {code} now; ask the opener for a seat to play again",
                   None, seat=handle.seat, code=handle.code)

    # -- what the learner does -------------------------------------------------------
    def act(self, action: A.Action) -> bool:
        """Send a move for this seat and say it is on the table; a refusal (the
        engine's, the store's: "the table moved on") becomes the message, and the seat is
        brought up to date either way, so nothing the learner sees is out of date."""
        handle = self.handle
        if not isinstance(handle, Seat):
            self.say(msg("you are watching: join a seat to play", None), "error")
            return False
        try:
            handle.play(action)
        except ToonervilleError as err:
            self.poll()
            self.say(err.message, "error")
            return False
        self.say(msg("your move is on the table: {move}", None, move=move_words(action)),
                 "ok")
        self.poll()
        return True

    def come_back(self) -> bool:
        """Take the seat back from the bot that played it while you were away, and say
        so; False if there is none to take back (a watcher, a seat not away)."""
        handle = self.handle
        if not isinstance(handle, Seat) or not handle.come_back():
            return False
        self.poll(force=True)
        self.say(msg("you are back at seat {seat} of table {code}, where the game was",
                     None, seat=handle.seat, code=handle.code), "ok")
        return True

    def set_buy_offers(self, setting: str) -> None:
        """Which buy offers to see ("helpful", "always", "never"): the others pass
        by themselves, at once (a watcher, or a finished table, has none to set)."""
        handle = self.handle
        if isinstance(handle, Seat) and not handle.finished:
            handle.set_buy_offers(setting)
            self.poll(force=True)


class TableSession(SeatModel):
    """A seat at a table held in this kernel (`table.Table`): pass-and-play's, where the
    seat shown is the learner holding the device (`show(seat)`). `act(move)` plays it and
    lets the bots answer; a learner's own last move can be taken back while nobody has
    acted since (`can_take_back` says why not otherwise)."""

    def __init__(self, table: Table, seat: int = 0, watching: bool = False) -> None:
        super().__init__()
        self.table = table
        self.show(seat, watching)

    def show(self, seat: int | None = None, watching: bool = False) -> None:
        """Set the traits for `seat` (default: the seat shown now); `watching`: its
        view without moves (the game is over, or nobody holds the device)."""
        game = self.table.game
        seat = self.seat if seat is None else seat
        last = game.actions[-1] if game.actions else None
        mine = last is not None and last.seat == seat
        why: Message | str = "" if mine else msg(
            "only your own last move can be taken back, and only while nobody has acted "
            "since", None)
        self.show_seat(game.view(seat), public_events(game.history),
                       bots={s: x.bot for s, x in enumerate(self.table.sitters)
                             if x.bot is not None},
                       away=self.table.away(), take_back=(mine, why),
                       legal=() if watching else game.legal_actions(seat),
                       number=len(game.actions), finished=game.is_over, watching=watching,
                       rules=game.rules)

    def act(self, action: A.Action) -> bool:
        """Play `action` for the seat shown; the bots answer; a refusal says why."""
        game = self.table.game
        if action.seat != self.seat:
            self.say(msg("it is {name}'s turn, not {who}'s", "T9",
                         name=game.names[game.current], who=game.names[self.seat]), "error")
            return False
        try:
            self.table.play(action)
        except IllegalActionError as err:
            self.say(err.message, "error")
            return False
        self.show()
        return True

    def take_back(self) -> bool:
        """Undo the seat's own last move, if nobody has acted since, and say so (a
        watcher's place has no move to take back)."""
        if self.watching:
            self.say(msg("you are watching: join a seat to play", None), "error")
            return False
        self.show()  # whether, and why not, as the table is now
        possible, why = self.can_take_back
        if not possible:
            self.say(why, "error")
            return False
        game = self.table.game
        taken = game.undo()
        self.show()
        self.say(msg("{name} took back {move}", None, name=game.names[self.seat],
                     move=taken.notation().split(": ", 1)[-1]), "info")
        return True
