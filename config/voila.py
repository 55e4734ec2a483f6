"""Voila configuration of the kit's own (the rest lives in ../voila.json): the prelaunch
hook that translates every markdown cell into the language of `?lang=`, and the cookie
secret kept in a file (`toonerville.serving.visitors.cookie_secret`), so that the
visitors' signed names outlive a restart of the server.

Voila reads this file when `config/` is on its config path, as `make app` and the
browser tests start it:

    python -m voila --Voila.config_file_paths=. --Voila.config_file_paths=config notebooks/

(it cannot live in the repository's root: a `voila.py` there would be imported instead
of the `voila` package by `python -m voila`).

Voila 0.5 refuses a prelaunch hook together with `preheat_kernel` (voila.json turns it
on for a class), because a preheated page is rendered before anyone asks for it. The
two are made to work together here, for the pinned Voila 0.5.13: the startup check does
not see the hook; a preheated page is rendered with no request, so the hook makes it the
English page; and a request for another language does not take a preheated English page
but starts its own kernel, with its page rendered through the hook (as without
preheating: a few seconds more to wait).
"""

from voila.app import Voila
from voila.handler import VoilaHandler

from toonerville.engine.messages import DEFAULT
from toonerville.pages.prose_hook import prelaunch_hook, requested_language
from toonerville.serving.visitors import cookie_secret

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - given by traitlets
c.VoilaConfiguration.prelaunch_hook = prelaunch_hook
c.Voila.cookie_secret = cookie_secret()

_init_settings = Voila.init_settings
_should_use_rendered_notebook = VoilaHandler.should_use_rendered_notebook


def _init_settings_with_preheat(self, *args, **kwargs):  # type: ignore[no-untyped-def]
    """Voila's own start-up, with the hook hidden from its preheat check only."""
    configuration = self.voila_configuration
    hook, configuration.prelaunch_hook = configuration.prelaunch_hook, None
    try:
        return _init_settings(self, *args, **kwargs)
    finally:
        configuration.prelaunch_hook = hook


def _preheated_only_in_english(self, *args, **kwargs):  # type: ignore[no-untyped-def]
    """A preheated page is English: a page in another language is rendered afresh."""
    if requested_language(self) != DEFAULT:
        return False
    return _should_use_rendered_notebook(self, *args, **kwargs)


Voila.init_settings = _init_settings_with_preheat
VoilaHandler.should_use_rendered_notebook = _preheated_only_in_english
