"""The rules engine: cards and notation, rules, melds, the solver, the game as a state
machine, scoring, tournaments, saves, errors and the message catalogue.

Pure standard library (what Pyodide runs on the static site; mypyc compiles the modules
listed in pyproject.toml). It imports nothing from the layers above it (players, coach,
explorer, store, pages, serving, widgets) except pages.render inside the `_repr_html_`
methods of Card, Meld, Verdict and Game (python-chess's pattern): docs/layout.md.
"""
