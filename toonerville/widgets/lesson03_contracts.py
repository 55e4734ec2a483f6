"""03's lesson, contracts: `ContractExplorer`, `dealt_hand`, `contract_rate` (T7, T15).

A thin `Lesson` (see `lesson`) over the engine; `lessons` re-exports it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from html import escape

import ipywidgets as widgets

from ..engine.cards import Card, shuffled_shoe, sort_cards
from ..engine.messages import N_, _
from ..engine.rules import ROUNDS, Rules, contract_for
from ..pages.render import hand_html, meld_html
from .cards import HandView
from .lesson import Lesson, heading_html, lesson_row, seed_note_html, text_html


def dealt_hand(players: int, seed: int, round_number: int,
               rules: Rules | None = None) -> tuple[Card, ...]:
    """The hand a player gets in a fresh seeded deal of this round: one card in every
    `players` from a shuffled shoe (as the deal goes round the table), sorted as a player
    sorts it (by colour, then number; the Rook last)."""
    rules = rules or Rules()
    size = rules.deal_size(round_number)
    cards = shuffled_shoe(players, random.Random(seed))
    return sort_cards(cards[:players * size:players])


#: how many deals "Deal until it meets the contract" tries before it gives up (round 3's
#: two runs: about 1 deal in 500)
UNTIL_LIMIT = 20_000


def first_meeting(players: int, seed: int, round_number: int, rules: Rules | None = None,
                  limit: int = UNTIL_LIMIT) -> int | None:
    """How many deals, from `seed` on (seed, seed + 1, …), until a dealt hand meets the
    round's contract (1: the hand of `seed` itself), or None within `limit` deals."""
    from ..engine.solver import find_contract

    for tries in range(1, limit + 1):
        hand = dealt_hand(players, (seed + tries - 1) % 2**31, round_number, rules)
        if find_contract(hand, round_number, rules) is not None:
            return tries
    return None


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal `index` of a simulation seeded `seed`."""
    return random.Random(f"contracts:{seed}:{index}").randrange(2**31)


def contract_rate(round_number: int, deals: int = 300, players: int = 4, seed: int = 0,
                  rules: Rules | None = None,
                  progress: Callable[[int], None] | None = None) -> int:
    """How many of `deals` freshly dealt hands already meet the round's contract
    (`solver.find_contract`). `progress(k)` is called after every deal."""
    from ..engine.solver import find_contract

    met = 0
    for k in range(deals):
        hand = dealt_hand(players, deal_seed(seed, k), round_number, rules)
        if find_contract(hand, round_number, rules) is not None:
            met += 1
        if progress is not None:
            progress(k + 1)
    return met


class ContractExplorer(Lesson):
    """03: a round's contract, a seeded dealt hand, what the solver would lay down (or
    what is still missing), and a quick simulation of how often a fresh hand meets it."""

    def __init__(self, round_number: int = 1, seed: int | None = None, players: int = 4,
                 deals: int = 300, size: str | None = None, rules: Rules | None = None) -> None:
        super().__init__(size)
        self.rules = rules or Rules()
        seed = self._url_seed(11) if seed is None else seed
        def rounds() -> list[tuple[str, int]]:
            return [(f"{r}: {contract_for(r)}", r) for r in range(1, ROUNDS + 1)]

        self.round = self._label(
            widgets.Dropdown(options=rounds(), value=round_number,
                             layout=widgets.Layout(width="auto")),
            description=N_("Round"), options=rounds)
        self.players = self._label(
            widgets.Dropdown(options=[3, 4, 5], value=players,
                             layout=widgets.Layout(width="auto")), description=N_("Players"))
        self.seed = self._int_text(N_("Seed"), seed, "11em")
        self.next_button = self._button(N_("Deal another hand"), self.next_hand,
                                        style="primary")
        self.until_button = self._button(N_("Deal until it meets the contract"),
                                         self.deal_until,
                                         N_("Deal hand after hand until one already meets "
                                            "the contract, and count the deals"))
        self.until_result = widgets.HTML()
        self.about = widgets.HTML()
        self.hand = self._sized(HandView())
        self.solution = widgets.HTML()
        self.deals = self._label(
            widgets.BoundedIntText(value=deals, min=1, max=5000,
                                   layout=widgets.Layout(width="13em")),
            description=N_("Deals"))
        self.simulate_button = self._button(N_("How often?"), self.simulate,
                                            N_("Deal many fresh hands and count"))
        self.bar = widgets.IntProgress(value=0, min=0, max=deals,
                                       layout=widgets.Layout(width="min(100%, 30em)"))
        self.result = widgets.HTML()
        for control in (self.round, self.players, self.seed):
            self._watch(control, self.show_hand)
        how_often = self._label(widgets.HTML(), value=lambda: heading_html(
            _("How often does a fresh hand already meet it?")))
        self._assemble(
            lesson_row(self.round, self.players, self.seed, self.next_button, self.until_button),
            self.until_result, self.about, self.hand, self.solution, how_often,
            lesson_row(self.deals, self.simulate_button, self.bar), self.result)
        self.show_hand()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.hand.cards

    def next_hand(self) -> None:
        self.seed.value = (self.seed.value + 1) % 2**31  # its observer deals

    def deal_until(self) -> None:
        """Deal from the next seed on until a hand meets the contract, and show it with
        the number of deals it took."""
        start = (self.seed.value + 1) % 2**31
        tries = first_meeting(self.players.value, start, self.round.value, self.rules)
        if tries is None:
            self.until_result.value = text_html(
                _("No hand met the contract in {n} deals.").format(n=UNTIL_LIMIT), self.size)
            self.seed.value = (start + UNTIL_LIMIT - 1) % 2**31
            return
        self.seed.value = (start + tries - 1) % 2**31  # its observer deals that hand
        self.until_result.value = text_html(
            _("It took <b>{n}</b> deals to get a hand that meets the contract of round "
              "{r} (seed {seed}).").format(n=tries, r=self.round.value,
                                              seed=self.seed.value), self.size)

    def show_hand(self) -> None:
        from ..engine.solver import best_lay_down, shortfall

        self.messages.clear()
        self.until_result.value = ""
        r, size = self.round.value, self.size
        hand = dealt_hand(self.players.value, self.seed.value, r, self.rules)
        contract = contract_for(r)
        self.about.value = (text_html(_("<b>Round {r}</b>: each player is dealt {deal} cards; "
                                        "the contract is <b>{contract}</b> (T7), at least "
                                        "{min} cards.").format(
                                            r=r, deal=self.rules.deal_size(r),
                                            contract=escape(str(contract)),
                                            min=contract.min_cards), size)
                            + seed_note_html(self.seed.value, size))
        self.hand.show(hand, _("Your hand, as dealt"))
        best = best_lay_down(hand, r, self.rules)
        if best is None:
            why = shortfall(hand, r, self.rules)
            self.solution.value = text_html(
                _("Not yet: {why}. Keep drawing, taking and buying.").format(
                    why=escape(str(why))), size)
            return
        melds = "".join(meld_html(m, size) for m in best.melds)
        left = (hand_html(best.left, size, label=_("Left in hand")) if best.left
                else text_html(_("Nothing left: this hand could go out at once!"), size))
        self.solution.value = (text_html(_("This hand already meets the contract! The solver "
                                           "would lay down:"), size) + melds + left)

    def simulate(self) -> None:
        from ..explorer.deals import fresh_deal

        n, r = self.deals.value, self.round.value
        self.bar.max, self.bar.value = n, 0
        self.result.value = ""
        step = max(1, n // 50)

        def progress(k: int, _total: int) -> None:
            if k % step == 0 or k == n:
                self.bar.value = k

        # the explorer's own count (08 asks it the same way): a share with its interval,
        # and for a contract of sets only the chance counted exactly
        self._rate = fresh_deal(r, self.players.value, self.rules, n, self.seed.value,
                                progress)
        self._draw_rate()

    def _draw_rate(self) -> None:
        found = getattr(self, "_rate", None)
        if found is None:
            return
        share = found.estimate
        text = _("In <b>{n}</b> seeded deals of round {r} ({contract}, {players} players), "
                 "the hand dealt already met the contract <b>{met}</b> times: "
                 "<b>{percent}%</b> (95% interval {low}–{high}%).").format(
            n=found.hands, r=found.round_number,
            contract=escape(str(contract_for(found.round_number))),
            players=found.players, met=found.met, percent=f"{100 * share.value:.1f}",
            low=f"{100 * share.low:.1f}", high=f"{100 * share.high:.1f}")
        if found.exact is not None:
            text += " " + _("Counted exactly, without dealing: <b>{exact}</b>.").format(
                exact=escape(str(found.exact)))
        self.result.value = text_html(text, self.size)

    def _draw(self) -> None:
        if hasattr(self, "solution") and self.hand.cards:
            self.show_hand()
        if hasattr(self, "result"):
            self._draw_rate()
