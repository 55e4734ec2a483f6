"""Explanations as data, and the language they are shown in.

Every sentence the engine shows a learner — a meld verdict, a refusal, a hint — is a
`Message`: an English template, its parameters and the rule id that backs it. The text
is only produced when the message is turned into a string, through the active
translation, so a notebook can show it in the learner's language and a test can assert
on the rule id and parameters instead of on prose.

The translations are gettext catalogues in `toonerville/locale/<code>/LC_MESSAGES/`
(domain "toonerville"), compiled to `.mo` files that are committed, so the kit needs
nothing beyond the standard library to speak them. `set_language("fa")` switches every
later rendering; an unknown code, or a missing catalogue, means English. Babel is only
the build tool that extracts and compiles the catalogues (`python tools/i18n.py`).
"""

from __future__ import annotations

import gettext
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

#: The kit's languages: code → the language's own name (for the language picker).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "hr": "Bosanski · Hrvatski · Srpski",
    "su": "Basa Sunda",
    "fa": "فارسی",
    "hi": "हिन्दी",
}
#: Languages written right to left.
RTL: frozenset[str] = frozenset({"fa"})
#: The default language, and the one every missing translation falls back to.
DEFAULT = "en"
DOMAIN = "toonerville"
#: the rulebook every rule id points to, with an anchor per id (`docs/rules.md#T14`)
RULEBOOK = "docs/rules.md"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"  # toonerville/locale

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT
_listeners: list[weakref.ref[Any] | weakref.WeakMethod[Any]] = []


def set_translation(translation: gettext.NullTranslations | None) -> None:
    """Make `translation` the one every message is rendered through (None: English)."""
    global _translation
    _translation = translation if translation is not None else gettext.NullTranslations()


def normalise(code: str | None) -> str:
    """A language code as the kit spells it: `"fa-IR"` → `"fa"`, `"DE_at"` → `"de"`;
    anything that is not one of `LANGUAGES` → `"en"`."""
    if not isinstance(code, str):
        return DEFAULT
    base = code.strip().replace("_", "-").split("-")[0].lower()
    aliases = {"bs": "hr", "sr": "hr", "sh": "hr", "per": "fa"}
    base = aliases.get(base, base)
    return base if base in LANGUAGES else DEFAULT


def set_language(code: str | None) -> str:
    """Speak `code` from now on (`"de"`, `"hr"`, `"su"`, `"fa"`, `"hi"`, `"en"`) and tell
    every listener. An unknown code, or a catalogue that cannot be found, means English;
    this never raises. Returns the language now active."""
    global _language
    wanted = normalise(code)
    translation: gettext.NullTranslations = gettext.NullTranslations()
    if wanted != DEFAULT:
        try:
            translation = gettext.translation(DOMAIN, localedir=LOCALE_DIR,
                                              languages=[wanted], fallback=True)
        except (OSError, ValueError):  # a damaged catalogue: English, not a crash
            translation = gettext.NullTranslations()
        if type(translation) is gettext.NullTranslations:
            wanted = DEFAULT
    set_translation(translation)
    changed = wanted != _language
    _language = wanted
    if changed:
        _notify()
    return wanted


def language() -> str:
    """The code of the language in use (`"en"` unless `set_language` chose another)."""
    return _language


def direction(code: str | None = None) -> str:
    """`"rtl"` for a right-to-left language (Persian), else `"ltr"`; default: the one in
    use."""
    return "rtl" if normalise(code if code is not None else _language) in RTL else "ltr"


def add_listener(callback: Callable[[str], object]) -> None:
    """Call `callback(code)` whenever the language changes. Only a weak reference is
    kept (a bound method through `WeakMethod`), so a listener never keeps a widget
    alive."""
    ref: weakref.ref[Any] | weakref.WeakMethod[Any]
    ref = (weakref.WeakMethod(callback) if hasattr(callback, "__self__")
           else weakref.ref(callback))
    _listeners.append(ref)


def _notify() -> None:
    alive = []
    for ref in _listeners:
        callback = ref()
        if callback is None:
            continue
        alive.append(ref)
        callback(_language)
    _listeners[:] = alive


def translate(text: str) -> str:
    """The active language's version of an English template."""
    return _translation.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The active language's form of a template for the count `n`, by the catalogue's
    own plural rule (one form in Sundanese, three in Bosnian/Croatian/Serbian)."""
    return _translation.ngettext(singular, plural, n)


def plural(singular: str, plural_form: str, n: int, **params: Any) -> str:
    """`"{n} card"` / `"{n} cards"` for the count `n`, in the active language's own plural
    form, filled in: the one way the kit writes a count (`plural("{n} card", "{n} cards",
    3)` → "3 cards"; three forms in Bosnian/Croatian/Serbian, one in Sundanese)."""
    return ngettext(singular, plural_form, n).format(n=n, **params)


def _(text: str) -> str:
    """A fixed text of the widgets in the active language (gettext's usual name)."""
    return translate(text)


def N_(text: str) -> str:
    """Marks a text for the catalogue without translating it yet (translated when shown)."""
    return text


#: Words that reach a sentence as a parameter (`"not a {what}: …"`) and are shown in
#: the learner's language too. Only these exact texts are translated as parameters, so
#: card notation and player names are never touched.
TERMS: frozenset[str] = frozenset({
    N_("run"), N_("set"), N_("this"), N_("the contract"),
    N_("Red"), N_("Yellow"), N_("Green"), N_("Black"), N_("Rook"),
    # what a player may do only after drawing ("draw first: … then you may {what}")
    N_("lay down"), N_("lay off"), N_("swap a Rook"), N_("discard"),
})


def _frozen(params: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(params))


def _format(template: str, params: Mapping[str, Any]) -> str:
    """`template` in the active language, filled in; a translation whose placeholders
    do not match falls back to the English template rather than failing."""
    try:
        return translate(template).format(**params)
    except (KeyError, IndexError, ValueError):
        return template.format(**params)


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
        return _format(self.template, shown)

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text

    @property
    def rule_link(self) -> str | None:
        """Where the rule is written down: `docs/rules.md#T14` (None for no rule)."""
        return rule_link(self.rule) if self.rule else None

    def __repr__(self) -> str:
        return f"Message({self.template!r}, {dict(self.params)!r}, rule={self.rule!r})"


def _shown(value: Any) -> Any:
    """Parameters that are engine values appear in card notation; a word of `TERMS`
    appears in the active language."""
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    if isinstance(value, str) and value in TERMS:
        return translate(value)
    return value


def rule_link(rule: str, base: str = RULEBOOK) -> str:
    """The address of a rule in the rulebook: `rule_link("T14")` → `docs/rules.md#T14`."""
    return f"{base}#{rule}"


def msg(template: str, rule: str | None = None, /, **params: Any) -> Message:
    """Shorthand used throughout the engine: `msg("... {card} ...", "T14", card=c)`."""
    return Message(template, params, rule)
