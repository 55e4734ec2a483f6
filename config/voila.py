"""Voila configuration of the kit's own (the rest lives in ../voila.json): the prelaunch
hook that translates every markdown cell into the language of `?lang=`.

Voila reads this file when `config/` is on its config path, e.g.

    JUPYTER_CONFIG_PATH=config python -m voila notebooks/

(it cannot live in the repository's root: a `voila.py` there would be imported instead of
the `voila` package by `python -m voila`). Voila refuses a prelaunch hook together with
`preheat_kernel`: a preheated page is rendered before anyone asks for it, in English.
"""

from toonerville.prose_hook import prelaunch_hook

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - given by traitlets
c.VoilaConfiguration.prelaunch_hook = prelaunch_hook
