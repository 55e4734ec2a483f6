"""Calling the public engine with junk (issue 27): every call must return or raise the
engine's own refusal (a `ToonervilleError`); anything else — IndexError, TypeError,
AttributeError, KeyError … — is a foreign exception, counted per function with an
example.

The calls are those of `tests/argfuzz.py` (public functions, constructors and `Game`
methods, the solver's excepted), each with its parameters filled with random junk.
Run it in both builds:

    python benchmarks/fuzz_arguments.py [--calls 50000] [--seed 27]
    TOONERVILLE_PURE=1 python benchmarks/fuzz_arguments.py
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import toonerville  # noqa: E402
from tests.argfuzz import TARGETS, call, choose_call, is_foreign, plain_junk  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=27)
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    junk = plain_junk()
    made: Counter[str] = Counter()
    foreign: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], str] = {}
    started = time.perf_counter()
    for k in range(opts.calls):
        target = TARGETS[k % len(TARGETS)]
        args, kwargs = choose_call(target, rng, junk)
        err = call(target, args, kwargs, game=rng.randrange(5))
        made[target.name] += 1
        if err is not None and is_foreign(err):
            key = (target.name, type(err).__name__)
            foreign[key] += 1
            if key not in example:
                shown = ", ".join([repr(a)[:30] for a in args]
                                  + [f"{n}={v!r}"[:40] for n, v in kwargs.items()])
                example[key] = f"{target.name}({shown}): {str(err)[:80]}"
    seconds = time.perf_counter() - started
    total = sum(foreign.values())
    print(f"build {toonerville.BUILD}; {opts.calls} calls of {len(TARGETS)} public calls "
          f"in {seconds:.1f} s; load average {os.getloadavg()[0]:.2f}")
    print(f"foreign exceptions: {total} "
          f"({len({name for name, _ in foreign})} functions)")
    for (name, kind), n in sorted(foreign.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d}  {kind:18s} {example[(name, kind)]}")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
