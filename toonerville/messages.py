"""Explanations as data.

Every sentence the engine shows a learner — a meld verdict, a refusal, a hint — is a
`Message`: an English template, its parameters and the rule id that backs it. The text
is only produced when the message is turned into a string, through the active
translation, so a notebook can show it in the learner's language and a test can assert
on the rule id and parameters instead of on prose.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

_translation: gettext.NullTranslations = gettext.NullTranslations()


def set_translation(translation: gettext.NullTranslations | None) -> None:
    """Make `translation` the one every message is rendered through (None: English)."""
    global _translation
    _translation = translation if translation is not None else gettext.NullTranslations()


def translate(text: str) -> str:
    """The active language's version of an English template."""
    return _translation.gettext(text)


def _frozen(params: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(params))


@dataclass(frozen=True, slots=True)
class Message:
    """One explaining sentence: `template.format(**params)`, followed by the rule id."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    rule: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", _frozen(self.params))

    @property
    def text(self) -> str:
        """The sentence in the active language, without the rule id."""
        shown = {k: _shown(v) for k, v in self.params.items()}
        return translate(self.template).format(**shown)

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text

    def __repr__(self) -> str:
        return f"Message({self.template!r}, {dict(self.params)!r}, rule={self.rule!r})"


def _shown(value: Any) -> Any:
    """Parameters that are engine values appear in card notation."""
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    return value


def msg(template: str, rule: str | None = None, /, **params: Any) -> Message:
    """Shorthand used throughout the engine: `msg("... {card} ...", "T14", card=c)`."""
    return Message(template, params, rule)
