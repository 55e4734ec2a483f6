"""Seeded playouts: 200 bot games with the game's invariants checked after every action
(12 or 13 for each pairing of a seating with a house-rules variant), and the heuristic
bot against the random bot. `TOONERVILLE_PLAYOUTS=1000` plays more, as the second
edition's test did (a long run is a benchmark's job); the default keeps the test command
inside its 15 minutes on two cores, where every CPU-second counts."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

from gamehelpers import conserved

from toonerville import Rules, check_meld
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.players.simulate import play_game, simulate

GAMES = int(os.environ.get("TOONERVILLE_PLAYOUTS", "200"))
TURN_LIMIT = 12  # short rounds keep the whole games inside the test budget
SEATINGS = (("heuristic",) * 3, ("heuristic", "random", "heuristic", "random"),
            ("heuristic",) * 5, ("random", "heuristic", "heuristic"))
HOUSE_RULES = (Rules(), Rules(penalty_cards=2, max_buys_per_round=2, extra_melds=True),
               Rules(rooks_at_most_naturals=True, restock="turn_over", rook_turn_up="stays"),
               Rules(round11_deal=12, lay_off_same_turn=False, swap_only_when_down=True))


#: melds already checked valid under a house-rules variant: a meld on the table is a
#: value, so one proven valid stays valid and need not be parsed again after every move
_VALID: set[tuple[Rules, object]] = set()


def check_invariants(game: Game) -> None:
    assert conserved(game), "a card appeared or vanished"
    ids_by_card = game.round_cards
    for seat in range(game.players):
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        assert sum(view.hand_sizes) + view.stock_size + view.discard_size + sum(
            len(m.cards) for ms in view.table for m in ms) == len(ids_by_card)
        for melds in view.table:
            for meld in melds:
                if (game.rules, meld) not in _VALID:
                    assert check_meld(str(meld), game.rules), f"invalid meld: {meld}"
                    _VALID.add((game.rules, meld))
        for s, melds in enumerate(view.table):
            assert bool(melds) <= view.down[s]
    if game.is_over:
        assert len(game.scores) == 11 and game.deciders == ()
    else:
        assert len(game.scores) == game.round_number - 1
        assert game.deciders, "nobody to decide"
        assert game.phase in (Phase.DRAW, Phase.BUY, Phase.PLAY)


def _play(index: int) -> tuple[int, int]:
    bots = SEATINGS[index % len(SEATINGS)]
    rules = HOUSE_RULES[index // len(SEATINGS) % len(HOUSE_RULES)]
    game = play_game(bots, seed=index, rules=rules, turn_limit=TURN_LIMIT,
                     after_action=check_invariants)
    return len(game.actions), sum(1 for r in game.records if r.ended_by == "out")


def test_seeded_games_keep_every_invariant() -> None:
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_play, range(GAMES), chunksize=10))
    assert len(results) == GAMES
    assert sum(moves for moves, _ in results) > GAMES * 100
    assert sum(outs for _, outs in results) > 0  # some rounds end by going out


def test_same_seed_same_records() -> None:
    a = list(simulate(2, bots=("heuristic",) * 4, seed=3, turn_limit=40))
    b = list(simulate(2, bots=("heuristic",) * 4, seed=3, turn_limit=40))
    assert a == b
    c = list(simulate(2, bots=("heuristic",) * 4, seed=4, turn_limit=40))
    assert [r.scores for r in a] != [r.scores for r in c]


def test_heuristic_bot_beats_random_bot() -> None:
    """Mixed tables (two of each, seats alternating); the full 200-game figure is in
    benchmarks/bench_bots.py."""
    heuristic, random_ = [], []
    for record in simulate(12, bots=("heuristic", "random") * 2, seed=1, turn_limit=30):
        heuristic += [record.totals[0], record.totals[2]]
        random_ += [record.totals[1], record.totals[3]]
    assert sum(heuristic) / len(heuristic) < 0.75 * sum(random_) / len(random_)
