"""No shared table waits for ever, and its seats are safe, on SQLite and PostgreSQL:
a learner idle on their turn past the table's limit is played by a bot (every page sees
them away) until they come back with their key; a buy offer nobody answers passes after
its limit; a learner's buy-offer setting answers for them; the opener gives a seat to a
bot or to a new learner (the old key is then stale); a bot's seat takes only its bot's
move; a table of bots plays the game `simulate` plays for the same seed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import choose, clients_fixture, where_fixture  # noqa: F401

from toonerville import Game
from toonerville.engine import actions as A
from toonerville.engine.events import EventKind, Phase
from toonerville.engine.hints import discard_helps
from toonerville.players.simulate import play_game
from toonerville.store import Seat, SeatError, TableStore, open_store
from toonerville.store.errors import BadNameError

Clients = Callable[[], TableStore]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def three_learners(clients: Clients, clock: Clock, **limits: float
                   ) -> tuple[TableStore, str, str, list[Seat]]:
    store = clients()
    store.clock = clock
    code, host = store.open_hosted(3, seed=21, names=["Ann", "Bo", "Cy"], **limits)
    seats = []
    for _ in range(3):
        page = clients()
        page.clock = clock
        seats.append(page.claim(code))
    return store, code, host, seats


def test_a_learner_idle_on_their_turn_is_played_by_a_bot_and_gets_the_seat_back(
        clients: Clients) -> None:
    clock = Clock()
    store, code, _host, seats = three_learners(clients, clock, away_after=30, buy_after=10)
    assert store.info(code).limits == (30.0, 10.0)
    store.play_bots(code)
    mover = next(s for s in seats if (s.refresh() or True) and s.seat in s.view.deciders)
    before = store.info(code).moves
    clock.now += 29
    assert store.play_bots(code) == 0  # within the limit the table waits
    clock.now += 2
    assert store.play_bots(code) > 0  # past it, a bot plays for the learner
    assert store.away(code) == frozenset({mover.seat})
    watcher = clients().watch(code)
    assert watcher.away == frozenset({mover.seat})  # every page can say so
    assert store.info(code).moves > before
    # the others' turns wait for them as usual; the away learner's are played at once
    again = clients().claim(code, secret=mover.secret)  # a reload, another device
    assert again.seat == mover.seat and not again.is_away
    assert store.away(code) == frozenset()


def test_an_away_learner_who_moves_is_back(clients: Clients) -> None:
    clock = Clock()
    store, code, _host, seats = three_learners(clients, clock, away_after=5)
    store.play_bots(code)
    mover = next(s for s in seats if (s.refresh() or True) and s.seat in s.view.deciders)
    store.come_back(code, mover.seat, secret=mover.secret)  # not away: nothing to do
    clock.now += 6
    store.play_bots(code, limit=1)  # marks the learner away and makes the bot's move
    mover.refresh()
    assert mover.is_away
    assert mover.come_back() and not mover.is_away


def test_T10_an_unanswered_buy_offer_passes_after_its_limit(clients: Clients) -> None:
    clock = Clock()
    store, code, _host, seats = three_learners(clients, clock, away_after=600,
                                               buy_after=15)
    for seat in seats:
        seat.set_buy_offers("always")  # nobody's setting answers for them
    for _ in range(200):
        store.play_bots(code)
        mover = next((s for s in seats if (s.refresh() or True)
                      and s.seat in s.view.deciders), None)
        assert mover is not None
        if mover.view.phase is Phase.BUY:
            break
        if mover.view.phase is Phase.DRAW and mover.view.discard_top is not None:
            mover.play(A.Draw(mover.seat))  # declines the discard: a buy window opens
        else:
            mover.play(choose(mover))
    else:
        raise AssertionError("no buy window opened")
    waiting = set(mover.view.deciders)
    clock.now += 14
    assert store.play_bots(code) == 0
    clock.now += 2
    assert store.play_bots(code) == len(waiting)  # each waiting learner passes
    assert store.away(code) == frozenset()  # a pass is not being away
    mover.refresh()
    assert mover.view.phase is not Phase.BUY


def test_T10_a_helpful_setting_passes_a_card_nobody_wants_without_a_click(
        clients: Clients) -> None:
    """Three learners, default settings ("helpful"): a buy window is put to a learner
    only when the card would help them, and most close with no click at all."""
    clock = Clock()
    store, code, _host, seats = three_learners(clients, clock)
    rules = Game.from_json(store.export(code)).rules
    closed_alone = asked = 0
    for _ in range(150):
        store.play_bots(code)  # every page does this as it polls
        mover = next(s for s in seats if (s.refresh() or True)
                     and s.seat in s.view.deciders)
        view = mover.view
        if view.phase is Phase.BUY:
            assert view.offered is not None
            assert discard_helps(view, view.offered, rules) is not None
            asked += 1
            mover.play(A.Pass(mover.seat))
        elif view.phase is Phase.DRAW and view.discard_top is not None:
            mover.play(A.Draw(mover.seat))  # declines the discard: a buy window opens
            store.play_bots(code)
            mover.refresh()
            if mover.view.phase is Phase.PLAY:
                closed_alone += 1
        else:
            mover.play(choose(mover))
    assert closed_alone > asked


def test_the_opener_gives_a_seat_to_a_new_learner_and_the_old_key_is_stale(
        clients: Clients) -> None:
    store = clients()
    code, host = store.open_hosted(3, seed=22, bots={2: "heuristic"})
    ann, bo = store.claim(code), clients().claim(code)
    with pytest.raises(SeatError, match="opened table"):
        store.give_seat(code, 1, None, key=ann.secret)
    new = store.give_seat(code, 1, None, key=host)
    assert isinstance(new, str) and new != bo.secret
    with pytest.raises(SeatError, match="given to someone else"):
        clients().claim(code, secret=bo.secret)
    cy = clients().claim(code, secret=new)
    assert cy.seat == 1
    assert store.give_seat(code, 0, "random", key=host) is None
    assert store.info(code).bots == {0: "random", 2: "heuristic"}
    with pytest.raises(SeatError, match="played by a bot"):
        store.name_seat(code, 0, "Ann", secret=ann.secret)


def test_a_bots_seat_takes_only_its_bots_move(where: str, clients: Clients) -> None:
    store = clients()
    code, host = store.open_hosted(3, seed=23, bots={1: "random", 2: "random"})
    me = store.claim(code)
    for _ in range(300):
        bot = store.bot_move(code)
        if bot is None:
            me.refresh()
            me.play(choose(me))
            continue
        number = store.info(code).moves
        legal = Game.from_json(store.export(code)).legal_actions(bot.seat)
        other = next((a for a in legal if a != bot), None)
        if other is None:
            store.play_bots(code, limit=1)
            continue
        with pytest.raises(SeatError, match="played by a bot"):
            clients().append(code, other, expected=number)
        with pytest.raises(SeatError, match="played by a bot"):
            clients().append(code, other, expected=number, secret=me.secret)
        assert clients().append(code, bot, expected=number) == number + 1  # anyone
        break
    else:
        raise AssertionError("no bot decided")
    bot = store.bot_move(code)
    if bot is not None:
        legal = Game.from_json(store.export(code)).legal_actions(bot.seat)
        other = next((a for a in legal if a != bot), bot)
        store.append(code, other, expected=store.info(code).moves, secret=host)  # opener


def test_two_seats_of_a_table_never_share_a_name(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=24, bots={2: "heuristic"})
    store.claim(code, name="Ann")
    bo = clients().claim(code)
    for same in ("ann", " ANN ", "\uff21nn"):
        with pytest.raises(BadNameError, match="already called"):
            store.name_seat(code, bo.seat, same, secret=bo.secret)
    with pytest.raises(BadNameError, match="already called"):
        store.name_seat(code, bo.seat, "Player 2", secret=bo.secret)  # the bot's
    assert store.name_seat(code, bo.seat, "Anna", secret=bo.secret) == "Anna"


def test_a_table_of_bots_in_the_store_plays_the_game_simulate_plays(
        clients: Clients) -> None:
    bots = ("heuristic", "random", "random")
    expected = play_game(bots, seed=31, turn_limit=12)
    store = clients()
    start = Game.new(players=3, seed=31, turn_limit=12, names=expected.names)
    code = store.open_table(start=start, bots=dict(enumerate(bots)))
    store.play_bots(code)
    played = Game.from_json(store.export(code))
    assert played.actions == expected.actions and played.is_over


def test_two_pages_marking_one_learner_away_add_one_entry(clients: Clients) -> None:
    clock = Clock()
    store, code, _host, seats = three_learners(clients, clock, away_after=10)
    store.play_bots(code)
    mover = next(s for s in seats if (s.refresh() or True) and s.seat in s.view.deciders)
    pages = [clients() for _ in range(2)]
    for page in pages:
        page.clock = clock
        page.info(code)  # each page sees the table now
    clock.now += 11
    states = [page._caught_up(code) for page in pages]
    for page, state in zip(pages, states, strict=True):
        page._log(state, f"away {mover.seat}")  # as if both decided at the same moment
    rows = store.backend.claims(f"{code}~seats")
    assert sum(1 for r in rows.values() if r == f"away {mover.seat}") == 1


def test_T21_the_game_over_sentence_names_who_holds_each_seat_at_the_end(
        tmp_path: Path) -> None:
    """The learners named their seats after the table opened; at the end Ann is away (a
    bot plays for her) and Bo's seat was given to a bot: the sentence says so."""
    clock = Clock()
    store = open_store(str(tmp_path / "t.sqlite"))
    store.clock = clock
    code, host = store.open_hosted(3, seed=4, away_after=5, names=["P0", "P1", "P2"])
    ann, bo, cy = (store.claim(code, s, name=n) for s, n in enumerate(("Ann", "Bo", "Cy")))
    store.give_seat(code, bo.seat, "heuristic", key=host)
    while not store.finished(code):
        clock.now += 10
        store.play_bots(code)
    over = store.public_history(code)[-1]
    assert over.kind is EventKind.GAME_OVER
    assert over.names == ("Ann (a bot played for Ann at the end)", "a bot, in Bo's seat",
                          "Cy (a bot played for Cy at the end)")
    who = ", ".join(over.names[s] for s in over.detail["seats"])
    assert str(over.text.text).endswith(who) and "P0" not in str(over.text.text)
    # every other sentence names the seats as the page shows them
    assert store.public_history(code)[0].names == ("Ann", "Bo", "Cy")
    store.close()


def test_a_learner_whose_page_goes_quiet_is_away_whoever_is_to_play(
        clients: Clients) -> None:
    """Each learner's page beats as it polls; a page not heard for the away limit (a
    closed tab) is away even while the table waits on someone else, every page can say
    so, and the seat is back as soon as that page is heard again. A learner away for
    keeping the table waiting on their own turn stays away though their page beats."""
    clock = Clock()
    store, code, _host, seats = three_learners(clients, clock, away_after=30)
    for page in seats:
        page.store.wall_clock = clock
    store.play_bots(code)
    for page in seats:
        page.refresh()
    mover = next(s for s in seats if s.seat in s.view.deciders)
    quiet = next(s for s in seats if s.seat not in s.view.deciders)
    other = next(s for s in seats if s not in (mover, quiet))
    assert all(not page.heartbeat() for page in seats)  # every page is open
    clock.now += 20
    mover.heartbeat()
    other.heartbeat()  # quiet's tab was closed: it beats no more
    clock.now += 11
    fresh = clients()  # another learner's page, which sees the table from now on
    fresh.clock = fresh.wall_clock = clock
    fresh.play_bots(code)
    assert store.away(code) == frozenset({quiet.seat})  # not the one the table waits on
    assert clients().watch(code).away == frozenset({quiet.seat})  # every page says so
    assert quiet.heartbeat() and not quiet.is_away  # the page is heard: back at once
    assert store.away(code) == frozenset()
    # idle on one's own turn is another matter: a beating page does not undo it
    later = clients()
    later.clock = later.wall_clock = clock
    later.play_bots(code)
    for step in (15, 16):
        clock.now += step
        for page in seats:
            page.heartbeat()
    later.play_bots(code)
    assert later.away(code) == frozenset({mover.seat})  # the table waited 31 s on them
    clock.now += 3
    assert not mover.heartbeat()
    assert store.away(code) == frozenset({mover.seat})


def test_a_pages_moves_describe_the_state_its_view_shows_when_the_table_moved_between(
        clients: Clients) -> None:
    """A page reads its view, then another page moves, then the page asks for its moves:
    it gets the moves of the state its view now shows, never none under a stale view
    (a shared table's prompt said "Your answer" above a disabled Pass)."""
    clock = Clock()
    _store, _code, _host, seats = three_learners(clients, clock)
    for seat in seats:
        seat.refresh()
    mover = next(s for s in seats if s.seat in s.view.deciders)
    others = [s for s in seats if s is not mover]
    mover.play(A.Draw(mover.seat))  # the declined discard is offered to the others
    for page in others:  # each still at the view before the draw: the mover's turn
        legal = page.legal_actions()
        assert page.number == mover.number
        assert page.view.phase is Phase.BUY and page.seat in page.view.deciders
        assert A.Pass(page.seat) in legal, legal
        assert all(a.seat == page.seat for a in legal)
