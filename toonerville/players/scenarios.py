"""Named teaching positions, and the seat names the lessons use.

Owns the positions the notebooks and the play app start from, so that a notebook shows
a position with the engine alone (no widget module needed): `buy_position` (04: the
rulebook's buying example, G3 on the pile), `rook_position` (05: a Rook swap to make),
`laydown_scenario` (07: a hand that already holds round 1's two sets),
`round_end_scenario` (07: the human's last discard of a round the coach reviews),
`big_hand_scenario` (07: round 9's deal of 15, for the card keys) and the registry
`SCENARIOS` (`?scenario=laydown`, `?scenario=roundend`, `?scenario=bighand` in the app).
`seat_names` gives "Player 1", "Player 2" … in the language in use; `player_names` the
app's "Robin, Crow, Jay …".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.cards import Card, as_cards, format_cards, shoe
from ..engine.game import Game
from ..engine.messages import _
from ..engine.names import BIRDS
from ..engine.rules import Rules

#: the play app's seat for the person playing, and everyone's names there
HUMAN = 0
HUMAN_NAME = "Robin"
BOT_NAMES = BIRDS[:4]  # ("Crow", "Jay", "Magpie", "Raven")


def seat_names(players: int) -> tuple[str, ...]:
    """The lessons number seats from 1, as the rulebook's worked examples do (in the
    language in use: "Player 1", "Spieler 1", …)."""
    return tuple(_("Player {n}").format(n=i + 1) for i in range(players))


def player_names(players: int) -> tuple[str, ...]:
    """The app's seat names: you, then the bots (`("Robin", "Crow", "Jay")`)."""
    return (HUMAN_NAME, *BOT_NAMES[:players - 1])


def buy_position(players: int, seed: int) -> dict[str, Any]:
    """A seeded mid-round position for the buying lesson, as `Game.from_position`'s
    arguments: it is Player 2's turn, the top discard is G3 (as in the rulebook's worked
    example), every hand has 11 cards."""
    rng = random.Random(seed)
    cards = list(shoe(players))
    cards.remove(Card.parse("G3"))
    rng.shuffle(cards)
    hands = [cards[i * 11:(i + 1) * 11] for i in range(players)]
    rest = cards[players * 11:]
    pile, stock = [Card.parse("G3"), *rest[:2]], rest[2:]
    return {"hands": [format_cards(h) for h in hands], "stock": format_cards(stock),
            "discard_pile": format_cards(pile), "dealer": 0, "current": 1}


def rook_position(rules: Rules | None = None, seed: int = 5) -> Game:
    """Round 2, three players. Player 1 is down with the run R5 R6 R7 RK=R8 and the set
    G9 B9 RK; Player 2 is down with Y3 Y4 Y5 Y6 and B2 G2 Y2, holds R8 and has just
    taken the top discard, so may swap (T18, H10)."""
    game = Game.from_position(
        hands=["B12 R1 G5 Y11", "R8 G9 B11 Y13 G4", "B3 B5 R12 Y8 G10 G1 R2 Y1 B7"],
        stock="Y10 G13 R3 B6 G8 Y4 R11 B1 G6 R13", discard_pile="B14 Y7",
        table={0: ["R5 R6 R7 RK=R8", "G9 B9 RK"], 1: ["Y3 Y4 Y5 Y6", "B2 G2 Y2"]},
        round_number=2, dealer=0, current=1, rules=rules, seed=seed,
        names=seat_names(3), scores=[(35, 0, 60)])
    game.take_discard(1)
    return game


def laydown_scenario(players: int = 4, seed: int = 7, rules: Rules | None = None,
                     names: Sequence[str] | None = None) -> Game:
    """Round 1 (2 sets), the human's turn to draw, holding two sets already (7s and 3s).
    The other hands, the stock and the discard pile are a seeded deal of the rest."""
    hand = as_cards("R7 Y7 G7 B3 Y3 G3 R10 Y12 G1 B14 R2 Y5")
    rest = list(shoe(players))
    for card in hand:
        rest.remove(card)
    random.Random(f"laydown:{seed}").shuffle(rest)
    hands = [format_cards(hand)]
    for _seat in range(players - 1):
        hands.append(format_cards(rest[:12]))
        del rest[:12]
    return Game.from_position(hands=hands, stock=format_cards(rest[1:]),
                              discard_pile=format_cards(rest[:1]), round_number=1,
                              dealer=players - 1, current=HUMAN, rules=rules, seed=seed,
                              names=names or player_names(players))


def round_end_scenario(players: int = 4, seed: int = 46, rules: Rules | None = None,
                       names: Sequence[str] | None = None) -> Game:
    """Round 1 played by bots — the beginner bot in the human's seat, so the round has a
    learner's slips to review — up to the human's last discard of the round: the human
    chooses a discard (a choice the coach weighs), then the round ends before the human
    decides again (seed 46, four players: whatever is discarded). The bots play at a
    `table.Table` (its one seed rule), so the position is the same each time.
    For the hint with its costs and the round's review (07: `?scenario=roundend`)."""
    from ..engine.actions import Discard
    from .table import Table

    game = Game.new(players=players, seed=seed, rules=rules,
                    names=names or player_names(players))
    Table(game, {s: "beginner" if s == HUMAN else "heuristic" for s in range(players)}
          ).run(round_only=True)
    # the position of the human's last discard of round 1
    last = max((k for k, a in enumerate(game.actions)
                if a.seat == HUMAN and isinstance(a, Discard)), default=0)
    return game.position_at(last)


def big_hand_scenario(players: int = 4, seed: int = 7, rules: Rules | None = None,
                      names: Sequence[str] | None = None) -> Game:
    """Round 9 (5 sets, a deal of 15), the human's turn to draw: a hand of 16 cards once
    drawn, which the key tests discard from (any card in at most 4 key presses). Every
    hand, the stock and the discard pile are a seeded deal; the eight rounds before scored 0
    for everyone."""
    size = 15
    rest = list(shoe(players))
    random.Random(f"bighand:{seed}").shuffle(rest)
    hands = [format_cards(rest[seat * size:(seat + 1) * size]) for seat in range(players)]
    del rest[:players * size]
    return Game.from_position(hands=hands, stock=format_cards(rest[1:]),
                              discard_pile=format_cards(rest[:1]), round_number=9,
                              dealer=players - 1, current=HUMAN, rules=rules, seed=seed,
                              names=names or player_names(players),
                              scores=[[0] * players] * 8)


#: the play app's named starting positions (`?scenario=NAME`)
SCENARIOS: dict[str, Callable[..., Game]] = {"laydown": laydown_scenario,
                                             "roundend": round_end_scenario,
                                             "bighand": big_hand_scenario}
