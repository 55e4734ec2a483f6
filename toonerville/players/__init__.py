"""The players: the Bot protocol, the registry of bots by name and the basic bots
(`bots`), the table that plays bots in turn (`table`), many games at once (`simulate`)
and the teaching positions (`scenarios`). Built on the engine only (docs/layout.md).
"""
