"""The play session's words: what its settings offer (the buy-offer setting, the bot
kinds of "Next game") and the news of a round that ended, in the language in use.

Pure text over the engine (no traitlets, no widgets): `session.PlaySession` says these
sentences, 07's panels and the seat view show these choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import actions as A
from ..engine.events import Event
from ..engine.game import Game
from ..engine.messages import N_, Message, _, msg
from ..players.bots import BOT_KINDS, BOT_LEVELS, Bot
from ..players.scenarios import HUMAN

#: what the buy-offer setting may say: only discards that help, every one, none
BUY_OFFERS = (("helpful", N_("only discards that help me")),
              ("always", N_("every declined discard")),
              ("never", N_("never (pass for me)")))
#: the bot kinds the "Next game" settings offer: the levels, weakest first, then random
PLAY_BOT_KINDS = (*BOT_LEVELS, *(k for k in BOT_KINDS if k == "random"))
#: the kinds' names as the sentences show them ("against 3 heuristic bots")
KIND_WORDS = (N_("heuristic"), N_("random"), N_("beginner"), N_("strong"))


#: a move in words, by kind: the verbs in the learner's language, the cards in notation
_MOVE_WORDS: dict[type, str] = {
    A.Draw: N_("draw"),
    A.TakeDiscard: N_("take the discard"),
    A.Buy: N_("ask to buy"),
    A.Pass: N_("pass"),
    A.LayDown: N_("lay down {melds}"),
    A.LayOff: N_("lay off {card}"),
    A.SwapRook: N_("swap {card} for a Rook"),
    A.Discard: N_("discard {card}"),
}


def move_words(action: A.Action | None) -> Message | str:
    """A move without its seat, in words of the language in use when shown ("discard
    R7", "draw", "lay down R11 Y11 G11 / R3 R4 R5 R6"): the cards stay in notation, the
    verbs are translated (a sentence with it as a parameter renders it late)."""
    if action is None:
        return ""
    template = _MOVE_WORDS[type(action)]
    if isinstance(action, A.LayDown):
        return msg(template, None, melds=" / ".join(str(m) for m in action.melds))
    if isinstance(action, A.LayOff):
        card = action.card if action.as_card is None else f"RK={action.as_card}"
        return msg(template, None, card=str(card))
    if isinstance(action, A.SwapRook):
        return msg(template, None, card=str(action.natural))
    if isinstance(action, A.Discard):
        return msg(template, None, card=str(action.card))
    return msg(template, None)


def _and(names: Sequence[str]) -> str:
    """`"Crow and Jay"`, in the language in use."""
    return (" " + _("and") + " ").join(names)


def round_news(game: Game, events: Sequence[Event]) -> tuple[Message, str] | None:
    """A message for the round (or the game) that ended among these events."""
    ended = [e for e in events if e.kind == "round_end"]
    if not ended:
        return None
    number = ended[-1].round_number
    record = game.records[number - 1]
    if record.went_out is None:
        why = (_("nobody went out: the stock ran out") if record.ended_by == "stock"
               else _("nobody went out before the turn limit"))
    else:
        why = _("you went out") if record.went_out == HUMAN else \
            _("{name} went out").format(name=game.names[record.went_out])
    points = ", ".join(f"{n} {p}" for n, p in zip(game.names, record.points, strict=True))
    if game.is_over:
        best = min(game.totals)
        who = _and([game.names[i] for i, t in enumerate(game.totals) if t == best])
        return msg("Round {r} is over: {why}. Points: {points}. The game is over: {who} "
                   "wins with the lowest total, {best}", "T21", r=number, why=why,
                   points=points, who=who, best=best), "ok"
    return msg("Round {r} is over: {why}. Points: {points}. Round {next} is dealt; its "
               "contract is {contract}", "T20", r=number, why=why, points=points,
               next=number + 1, contract=str(game.rules.contract(number + 1))), "ok"


def settings_kinds(custom: Bot | None) -> list[tuple[str, str]]:
    """The bot kinds, named in the language in use (a custom bot by its own name)."""
    kinds = [(_(kind), kind) for kind in PLAY_BOT_KINDS]
    if custom is not None:
        kinds.insert(0, (custom.name, custom.name))
    return kinds


def buy_offer_options() -> list[tuple[str, str]]:
    """`BUY_OFFERS` as dropdown options in the language in use."""
    return [(_(label), key) for key, label in BUY_OFFERS]
