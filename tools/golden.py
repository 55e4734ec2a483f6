"""Golden playthroughs: a few seeded bot games whose whole event log is committed as text
(tests/golden/*.txt), so any change of the engine's or the bots' behaviour shows as a diff.

    python tools/golden.py            # rewrite the files after an intended change
    python tools/golden.py --check    # exit 1 and print the first difference if any

tests/test_golden.py runs the check.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toonerville import Rules  # noqa: E402
from toonerville.engine import messages  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

#: name → (bots, seed, house rules, turn limit)
GAMES: dict[str, tuple[tuple[str, ...], int, Rules, int]] = {
    "three-players": (("heuristic",) * 3, 1, Rules(), 40),
    "four-players-buying": (("heuristic", "nobuy", "heuristic", "random"), 2,
                            Rules(penalty_cards=2, max_buys_per_round=3, restock="turn_over"),
                            40),
    "five-players-house-rules": (("heuristic",) * 5, 3,
                                 Rules(extra_melds=True, round11_deal=12,
                                       swapped_rook="this_turn", rook_turn_up="stays",
                                       lay_off_same_turn=False), 40),
}


def playthrough(name: str) -> str:
    """The game's whole history, one event a line: round, the move's notation (or '-'
    for an automatic step), the sentence in English, and the cards it shows."""
    bots, seed, rules, turn_limit = GAMES[name]
    messages.set_language("en")
    game = play_game(bots, seed=seed, rules=rules, turn_limit=turn_limit)
    lines = [f"# {name}: bots {', '.join(bots)}; seed {seed}; rules {rules!r}; "
             f"turn limit {turn_limit}"]
    for e in game.history:
        cards = " ".join(map(str, e.cards))
        lines.append(f"R{e.round_number} {e.kind.value:<11} {e.action or '-'} | {e.text}"
                     + (f" [{cards}]" if cards else ""))
    lines.append(f"# totals {' '.join(map(str, game.totals))}; winners "
                 f"{' '.join(map(str, game.winners))}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in GAMES:
        path = GOLDEN / f"{name}.txt"
        text = playthrough(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
            continue
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old != text:
            status = 1
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), str(path),
                                        "now", lineterm="", n=1)
            print("\n".join(list(diff)[:40]))
    return status


if __name__ == "__main__":
    sys.exit(main())
