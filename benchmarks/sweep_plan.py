"""What the props sweep's plan costs to make: a ruleset build, and each covering array.

Prints the median time of one ``Ruleset.build`` over ``--runs`` runs of ``--builds`` builds, with
the compiled dispatch code reused (as it is) and compiled anew each time (the baseline, in the same
process), and their ratio; then, for each strength asked, the time to make the plan from nothing
(what the sweep's first collection after a plugin change costs), its rulesets and its tuples.

    uv run python benchmarks/sweep_plan.py --strength 1 --strength 2 --strength 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from liarsdice import dispatch
from liarsdice.ruleset import Ruleset, installed
from liarsdice.testing.suite.plan import Request, make_plan

VARIANTS = ["revolver", "chips", "calza", "bluff", "pass"]


def build_ms(builds: int, *, compile_each: bool) -> float:
    """Milliseconds a build of ``VARIANTS`` takes, over ``builds`` builds."""
    started = time.perf_counter()
    for _ in range(builds):
        if compile_each:
            dispatch._compiled.cache_clear()
        Ruleset.build(VARIANTS, {"chips.start": 5})
    return (time.perf_counter() - started) / builds * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strength", type=int, action="append", help="1, 2 or 3 (repeatable)")
    parser.add_argument("--builds", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    installed()
    reused, compiled = [], []
    for _ in range(args.runs):
        compiled.append(build_ms(args.builds, compile_each=True))
        reused.append(build_ms(args.builds, compile_each=False))
    first, second = statistics.median(reused), statistics.median(compiled)
    print(f"Ruleset.build of {'+'.join(VARIANTS)}, median of {args.runs} runs of {args.builds}:")
    print(
        f"  dispatch reused {first:.2f} ms, compiled each time {second:.2f} ms, ratio {first / second:.2f}"
    )
    for strength in args.strength or [2]:
        started = time.perf_counter()
        plan = make_plan(Request("cover", strength))
        seconds = time.perf_counter() - started
        print(f"strength {strength}: made in {seconds:.1f} s; {plan.summary()}", flush=True)


if __name__ == "__main__":
    main()
