"""The engine's refusals.

Every error is a `ValueError` subclass carrying a `Message` (what was wrong, in a
learner's words, and the rule that says so). The type tells a program what kind of
refusal it is; the message tells a person why. An action that raises one of these has
changed nothing.
"""

from __future__ import annotations

from .messages import Message


class ToonervilleError(ValueError):
    """Base of every refusal the engine makes."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)  # the sentence is rendered only when shown
        self.message = message

    @property
    def rule(self) -> str | None:
        return self.message.rule

    @property
    def rule_link(self) -> str | None:
        """The rule in the rulebook, `docs/rules.md#T14`, that says why."""
        return self.message.rule_link

    def __str__(self) -> str:  # rendered late, so a language switch applies
        return str(self.message)


class NotationError(ToonervilleError):
    """Text that is not card or meld notation (`R15`, `Q3`, `RK=B`)."""


class RulesError(ToonervilleError):
    """A house-rules setting that cannot be played."""


class IllegalActionError(ToonervilleError):
    """An action the rules do not allow here; the game is unchanged."""


class WrongPhaseError(IllegalActionError):
    """The action belongs to another part of the turn (e.g. discarding before drawing)."""


class NotYourTurnError(IllegalActionError):
    """Somebody acted who is not the one to decide now."""


class NoSuchSeatError(IllegalActionError):
    """A seat number that is not at this table (seats go from 0 to players - 1)."""


class MalformedActionError(IllegalActionError):
    """An action value of the wrong type or shape (a seat that is not a whole number, a
    card that is not a card, a meld reference that is not two numbers)."""


class CardNotInHandError(IllegalActionError):
    """The player named a card they do not hold."""


class InvalidMeldError(IllegalActionError):
    """A proposed meld is not a valid run or set."""


class ContractNotMetError(IllegalActionError):
    """A lay-down that is not this round's contract."""


class AlreadyDownError(IllegalActionError):
    """A second lay-down by a player whose contract is already on the table (H7)."""


class DeadEndError(IllegalActionError):
    """A move that would leave the player with no way to end the turn (T13a, H12)."""


class LayOffError(IllegalActionError):
    """A card that cannot be added to the chosen meld."""


class BuyError(IllegalActionError):
    """A buy the rules refuse."""


class DiscardError(IllegalActionError):
    """A discard the rules refuse (T14, T17)."""


class RookSwapError(IllegalActionError):
    """A Rook swap the rules refuse (T18, T19, H10)."""


class SaveFileError(ToonervilleError):
    """A saved game that cannot be loaded; nothing was loaded."""
