// How long does the strong bot take per decision under Pyodide (the static site's
// Python), in node?
//
// Loads Pyodide from node_modules/pyodide (installed by `npm install`), mounts this
// checkout's `toonerville` package read-only (the engine and the coach are standard
// library only, as the static site ships them) and runs the same loop as
// benchmarks/bench_decision.py: rounds FIRST..LAST of GAMES games (seeds 0, 1, ...; seat 0
// is the heuristic bot, untimed, before round FIRST: the late rounds' hands are the
// largest) with the strong bot in seat 0 and heuristic bots elsewhere, timing every
// decision of the strong bot as the level plays (`StrongBot()`: `strong.DEFAULT_WORLDS` worlds, no
// clock), at each other number of worlds given, and at the static site's hint budget
// (HINT_WORLDS and SITE_HINT_PRICE of widgets/coach_view.py, read from its source: that
// module imports ipywidgets, which is not here). Prints the Pyodide version, the time to load, how many
// decisions and how many were searched, the median, 90th percentile and maximum seconds
// per decision (all, and searched only), and the load average before and after.
//
//     nice node benchmarks/bench_pyodide_strong.mjs [GAMES] [LAST] [FIRST] [WORLDS ...]
import { loadPyodide } from "pyodide";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const games = Number(process.argv[2] ?? 1);
const rounds = Number(process.argv[3] ?? 2);
const first = Number(process.argv[4] ?? 1);
const worldsAlso = process.argv.slice(5).map(Number);
if (![games, rounds, first, ...worldsAlso].every((x) => Number.isInteger(x) && x >= 1)) {
  console.error("usage: node benchmarks/bench_pyodide_strong.mjs [GAMES] [LAST] [FIRST] [WORLDS ...] (whole numbers from 1)");
  process.exit(2);
}
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(", ");

console.log(`load average at start: ${load()}`);
const t0 = performance.now();
const pyodide = await loadPyodide({ indexURL: path.join(repo, "node_modules", "pyodide") });
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
console.log(`Pyodide ${pyodide.version} loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const code = `
import ast, random, statistics, sys, time
from functools import partial
sys.path.insert(0, "/repo")
from toonerville.players.bots import HeuristicBot
from toonerville.coach.strong import ADVICE, DEFAULT_WORLDS, StrongBot
from toonerville.engine.game import Game

def page_constants():
    """HINT_WORLDS and SITE_HINT_PRICE as widgets/coach_view.py sets them."""
    tree = ast.parse(open("/repo/toonerville/widgets/coach_view.py").read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \\
                isinstance(node.targets[0], ast.Name) and \\
                node.targets[0].id in ("HINT_WORLDS", "SITE_HINT_PRICE"):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    return found["HINT_WORLDS"], found["SITE_HINT_PRICE"]

def figures(xs):
    if not xs:
        return "none"
    q = statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]
    return (f"n={len(xs)} median {statistics.median(xs):.3f} s, 90th pct {q:.3f} s, "
            f"max {max(xs):.3f} s")

def run(games, first, rounds, make):
    every, searched = [], []
    for seed in range(games):
        game = Game.new(players=4, seed=seed, turn_limit=200)
        strong = make()
        others = [HeuristicBot() for _ in range(4)]
        rng = random.Random(seed)
        while not game.is_over and game.round_number <= rounds:
            seat = game.deciders[0]
            view, legal = game.view(seat), partial(game.legal_actions, seat)
            if seat == 0 and game.round_number >= first:
                start = time.perf_counter()
                decision = strong.decide(view, game.rules, legal, rng)
                spent = time.perf_counter() - start
                every.append(spent)
                if decision.weighed:
                    searched.append(spent)
                move = decision.action
            else:
                move = others[seat].choose(view, game.rules, legal, rng)
            game.apply(move)
    return every, searched

hint_worlds, hint_price = page_constants()
budgets = [(f"default budget ({DEFAULT_WORLDS} worlds)", lambda: StrongBot())]
budgets += [(f"{w} worlds", (lambda w=w: StrongBot(worlds=w))) for w in ${JSON.stringify(worldsAlso)}]
budgets.append((f"the site's hint budget ({hint_worlds} worlds, priced on {hint_price})",
                lambda: StrongBot(worlds=hint_worlds, price=hint_price, clear=ADVICE,
                                  kept=0, aligned=False, closer=0)))
out = [sys.version.split()[0]]
for name, make in budgets:
    every, searched = run(${games}, ${first}, ${rounds}, make)
    out.append(f"{name}: all decisions {figures(every)}; searched {figures(searched)}")
"\\n".join(out)
`;
const t1 = performance.now();
const result = await pyodide.runPythonAsync(code);
console.log(`Python ${result}`);
console.log(`games ${games}, rounds ${first}-${rounds}, strong bot in seat 0 of 4; ` +
            `${((performance.now() - t1) / 1000).toFixed(1)} s in all`);
console.log(`load average at the end: ${load()}`);
