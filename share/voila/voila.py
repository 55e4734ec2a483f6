"""Voila settings that must be Python (a callable), beside the data in the root `voila.json`.

`make app` and the tests pass this folder to ``--Voila.config_file_paths`` after the
repository root. The page texts of the `toonerville` template (starting, class full,
kernel lost) reach the page through its page config, in every language of the kit.
"""

from toonerville.serving.texts import page_config_hook

c = get_config()  # noqa: F821 - provided by traitlets when it loads this file
c.VoilaConfiguration.page_config_hook = page_config_hook
