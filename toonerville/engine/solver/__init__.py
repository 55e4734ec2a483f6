"""Can this hand meet this round's contract, and how should it be laid down?

Owns the searches over one player's hand: `find_contract` (the smallest melds that make
a round's contract, T7), `best_lay_down` (the lay-down that leaves the fewest points in
hand, T3, T15, H7), `whole_hand` (the entire hand as the contract's melds, T17) and
`shortfall` (what is still missing, as a `Message`). Every answer passes `check_meld` and
`check_lay_down` under the same `Rules` (H1, H7, H8) and uses only cards of the hand.
Whose turn it is, and whether the player may lay down now, is the game's business.

The modules, each with one job:

- `tally`      a hand as counts per cell, the rules as numbers, sharing natural cards
               among melds (H1), making `Meld` objects from cells
- `contract`   the decision search on minimal melds: `find_contract`, `shortfall`
- `partition`  the exact search on melds of any length, and its bounds:
               `best_lay_down`, `whole_hand`, `Arrangement` (their answer)
- `arrange`    the end of that search: from the runs and sets it decided to the melds,
               the Rooks shared out and the cards left in hand
- `sweep`      the exact search with no step limit (number by number, a table of
               states), which finishes a walk that ran out of steps (H7)
"""

from .contract import find_contract, shortfall
from .partition import Arrangement, best_lay_down, whole_hand

__all__ = ["Arrangement", "best_lay_down", "find_contract", "shortfall", "whole_hand"]
