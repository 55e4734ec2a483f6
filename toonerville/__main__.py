"""The command line: `python -m toonerville demo` plays a seeded bot game and prints it
round by round; `python -m toonerville simulate ...` runs the rules explorer."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import buildinfo
from .engine.game import Game
from .explorer.cli import add_simulate_command
from .players.simulate import play_game


def demo(seed: int, players: int, out=sys.stdout) -> Game:  # type: ignore[no-untyped-def]
    """Play one heuristic-bot game and print each round's story and the score sheet."""
    game = play_game(["heuristic"] * players, seed=seed)
    print(f"Toonerville Rook — {players} heuristic bots, seed {seed}", file=out)
    for record in game.records:
        contract = game.rules.contract(record.round_number)
        who = game.names[record.went_out] if record.went_out is not None else "nobody"
        print(f"\nRound {record.round_number:2d} ({contract}): {who} went out after "
              f"{record.turns} turns; buys {sum(record.buys)}", file=out)
        print("   " + "  ".join(f"{game.names[i]}: {p:3d}" for i, p in enumerate(record.points)),
              file=out)
    print("\nTotals: " + ", ".join(f"{n} {t}" for n, t in zip(game.names, game.totals,
                                                             strict=True)), file=out)
    winners = ", ".join(game.names[i] for i in game.winners)
    print(f"Lowest total wins (T21): {winners}", file=out)
    return game


def version() -> str:
    """The installed distribution's version ("unknown" when run from a checkout only)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version("toonerville")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="toonerville", description=__doc__)
    # like the other command-line texts (argparse's), an English technical line
    parser.add_argument("--version", action="version",
                        version=f"toonerville {version()}, {buildinfo.describe()}")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="play a seeded bot game and print it round by round")
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    add_simulate_command(sub)
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo(args.seed, args.players)
        return 0
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
