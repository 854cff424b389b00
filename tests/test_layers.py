"""The package's layers run one way (docs/design.md).

Every module of ``kaiser_sim`` belongs to one layer; a module may import
from its own layer and the layers below it, never from a layer above (a
*back edge*), and modules do not import each other in a cycle.  Imports are
read with ``ast`` from the source, including those inside functions (a lazy
import is still a dependency, and so is one in a module's ``if __name__ ==
"__main__":`` script block); only ``if TYPE_CHECKING:`` blocks are left out.  Also: no
module imports another module's private (``_name``) names, and the command
line's ``--help`` imports nothing heavy.

A new module must be given a layer in :data:`LAYERS`, and go into its
layer's folder: the root of the package holds only the vocabulary every
layer shares (:data:`VOCABULARY`).  The known exceptions
below are to be fixed (each names why it exists); when one is fixed, remove
it here too (the tests say so).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "kaiser_sim"

#: the modules at the root of ``kaiser_sim/``: the vocabulary every layer shares (docs/design.md); every
#: other layer is a folder
VOCABULARY = ("config", "errors", "cards", "rules", "hands", "stats", "deal", "scoring", "auction")

#: lowest first.  The root's shared vocabulary is the bottom two layers (``kaiser_sim.__version__``,
#: what ``from . import __version__`` takes, with it); above it each layer is a folder.  The package's
#: ``__init__`` (the public API, imported lazily) is a façade at the top, beside the command line.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("shared vocabulary: cards and rules", ("kaiser_sim.__version__", "kaiser_sim.config", "kaiser_sim.errors",
                                            "kaiser_sim.cards", "kaiser_sim.rules", "kaiser_sim.hands",
                                            "kaiser_sim.stats")),
    ("shared vocabulary: deals", ("kaiser_sim.deal", "kaiser_sim.scoring", "kaiser_sim.auction")),
    ("double-dummy engine", ("kaiser_sim.dd", "kaiser_sim.dd.*")),
    ("the door from the rules to the engine", ("kaiser_sim.game", "kaiser_sim.game.*")),
    ("runs and results", ("kaiser_sim.runs", "kaiser_sim.runs.*")),
    ("hands and models", ("kaiser_sim.strategy", "kaiser_sim.strategy.*")),
    ("studies", ("kaiser_sim.studies", "kaiser_sim.studies.*")),
    ("report", ("kaiser_sim.report", "kaiser_sim.report.*")),
    ("command line", ("kaiser_sim.cli", "kaiser_sim.cli.*", "kaiser_sim.__main__", "kaiser_sim")),
]
#: the layers of the root (the rest are folders)
ROOT_LAYERS = 2

#: back edges still there, to be fixed in the files named (importer, imported)
KNOWN_BACK_EDGES: set = set()  # none left (advisor and make_model now use kaiser_sim.runs.figures / kaiser_sim.hands)


#: import cycles still there (sets of modules)
KNOWN_CYCLES: list = []  # none left (the win-probability model lives in policies, beside the auction it is estimated from)

#: private names imported across modules
KNOWN_PRIVATE_IMPORTS: dict = {}  # none left (the search kernels and their helpers are public names of kaiser_sim.dd)

#: what ``--help`` must not import
HEAVY = ("numpy", "numba", "pyarrow", "pandas", "matplotlib", "distributed", "dask", "scipy")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _skipped_blocks(tree: ast.Module) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (a script block, ``if __name__ == "__main__":``, counts:
    its imports run when the module is run)."""
    skipped = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        test = ast.unparse(node.test)
        if test in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skipped


def imports() -> list[tuple[str, str, str | None, int]]:
    """``(importer, imported module, name or None, line)`` for every import of a
    ``kaiser_sim`` module: ``from .x import y`` gives ``(m, kaiser_sim.x, "y")``,
    or ``(m, kaiser_sim.x.y, None)`` when ``y`` is a module."""
    found = []
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _skipped_blocks(tree)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                found += [(mod, a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == "kaiser_sim"]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "kaiser_sim":
                    continue
                for a in node.names:
                    if f"{target}.{a.name}" in MODULES:
                        found.append((mod, f"{target}.{a.name}", None, node.lineno))
                    elif target == "kaiser_sim" and a.name == "__version__":
                        found.append((mod, "kaiser_sim.__version__", None, node.lineno))
                    else:
                        found.append((mod, target, a.name, node.lineno))
    return found


IMPORTS = imports()


def layer_of(mod: str) -> int:
    for i, (_, members) in enumerate(LAYERS):
        for m in members:
            if mod == m or (m.endswith(".*") and mod.startswith(m[:-1])):
                return i
    raise KeyError(mod)


def back_edges() -> dict[tuple[str, str], list[int]]:
    edges = defaultdict(list)
    for a, b, _, line in IMPORTS:
        if layer_of(a) < layer_of(b):
            edges[(a, b)].append(line)
    return dict(edges)


def cycles() -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = defaultdict(set)
    for a, b, _, _ in IMPORTS:
        if a != b and b in MODULES:
            graph[a].add(b)
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    for v in MODULES:
        if v not in index:
            visit(v)
    return found


def private_imports() -> dict[tuple[str, str], set[str]]:
    found = defaultdict(set)
    for a, b, name, _ in IMPORTS:
        if name and name.startswith("_") and not name.startswith("__") and a != b:
            found[(a, b)].add(name)
    return dict(found)


def test_every_module_has_a_layer():
    for mod in MODULES:
        layer_of(mod)  # KeyError: add the new module to LAYERS


def test_the_root_holds_only_the_shared_vocabulary():
    """A module at the root of ``kaiser_sim/`` is shared vocabulary (in the bottom
    layers); anything else goes into its layer's folder."""
    root = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert root == set(VOCABULARY), f"at the root but not vocabulary: {sorted(root - set(VOCABULARY))}; " \
                                    f"vocabulary no longer at the root: {sorted(set(VOCABULARY) - root)}"
    for mod in root:
        assert layer_of(f"kaiser_sim.{mod}") < ROOT_LAYERS, mod


def test_every_layer_above_the_vocabulary_is_a_folder():
    """Above the root's vocabulary every module lies in its layer's folder, and
    a folder's modules are all in one layer (the command line's ``__main__``
    and the package's façade excepted)."""
    folders = defaultdict(set)
    for mod in MODULES:
        if layer_of(mod) < ROOT_LAYERS or mod in ("kaiser_sim", "kaiser_sim.__main__"):
            continue
        parts = mod.split(".")
        assert len(parts) >= 2 and (PACKAGE / parts[1]).is_dir(), f"{mod}: not in a folder"
        folders[parts[1]].add(layer_of(mod))
    assert all(len(layers) == 1 for layers in folders.values()), dict(folders)
    for _, members in LAYERS[ROOT_LAYERS:]:
        for m in members:
            assert m in ("kaiser_sim", "kaiser_sim.__main__") or (PACKAGE / m.split(".")[1]).is_dir(), m


def test_every_import_names_a_module_of_the_package():
    """Each ``kaiser_sim`` import names a module that exists (a relative import
    left one level short after a move resolves inside the new folder, where
    the layer check alone would not see it)."""
    missing = [(a, b, line) for a, b, _, line in IMPORTS if b not in MODULES and b != "kaiser_sim.__version__"]
    assert not missing, f"imports of modules that do not exist (importer, imported, line): {missing}"


def test_no_new_back_edges():
    new = {edge: lines for edge, lines in back_edges().items() if edge not in KNOWN_BACK_EDGES}
    assert not new, "imports from a higher layer (importer -> imported: lines): " + "; ".join(
        f"{a} ({LAYERS[layer_of(a)][0]}) -> {b} ({LAYERS[layer_of(b)][0]}): {lines}" for (a, b), lines in new.items())


def test_known_back_edges_are_still_there():
    fixed = KNOWN_BACK_EDGES - set(back_edges())
    assert not fixed, f"fixed, remove them from KNOWN_BACK_EDGES: {sorted(fixed)}"


def test_no_new_import_cycles():
    found = cycles()
    new = [c for c in found if c not in KNOWN_CYCLES]
    assert not new, f"import cycles: {[sorted(c) for c in new]}"
    fixed = [c for c in KNOWN_CYCLES if c not in found]
    assert not fixed, f"fixed, remove them from KNOWN_CYCLES: {[sorted(c) for c in fixed]}"


def test_no_new_private_imports():
    found = private_imports()
    new = {k: v - KNOWN_PRIVATE_IMPORTS.get(k, set()) for k, v in found.items()}
    new = {k: v for k, v in new.items() if v}
    assert not new, f"private names imported across modules: {new}"


def test_no_module_imports_the_package_facade():
    """Inside the package, import from the defining module, not from ``kaiser_sim``
    (whose public names are the top layer's façade)."""
    bad = [(a, name, line) for a, b, name, line in IMPORTS if b == "kaiser_sim" and a != "kaiser_sim"]
    assert not bad


#: modules outside ``kaiser_sim.dd`` and ``kaiser_sim.game`` allowed to import the solver directly, each with why
#: (none: the runs, the strategy, the studies and the command line, ``solve`` and ``play`` included, all go through
#: ``kaiser_sim.game``; the package's façade ``kaiser_sim.__init__`` names ``dd`` as a string for its lazy public
#: ``dd_table`` / ``solve`` / ``can_reach``, the standard game's stable API, which is not an import statement)
DD_IMPORT_EXCEPTIONS: dict[str, str] = {}


def test_only_the_door_imports_the_solver():
    """One door (issue 44): above ``kaiser_sim.game`` nothing imports ``kaiser_sim.dd`` (nor any of its modules),
    so every caller reaches the solver with the rules given, through one set of entry points."""
    bad = sorted({(a, b, line) for a, b, _, line in IMPORTS
                  if (b == "kaiser_sim.dd" or b.startswith("kaiser_sim.dd."))
                  and not (a == "kaiser_sim.dd" or a.startswith(("kaiser_sim.dd.", "kaiser_sim.game")))
                  and a not in DD_IMPORT_EXCEPTIONS})
    assert not bad, f"imports of the solver from above the door (importer, imported, line): {bad}"
    stale = [m for m in DD_IMPORT_EXCEPTIONS if not any(a == m and b.startswith("kaiser_sim.dd") for a, b, _, _ in IMPORTS)]
    assert not stale, f"fixed, remove them from DD_IMPORT_EXCEPTIONS: {stale}"


def test_the_solver_knows_no_rules_object():
    """``kaiser_sim.dd`` holds the standard game's kernels only: none of its modules imports ``kaiser_sim.rules``
    or the door above it (the kitty, low no trump and cover 3 are applied in ``kaiser_sim.game``)."""
    bad = sorted({(a, b) for a, b, _, _ in IMPORTS
                  if (a == "kaiser_sim.dd" or a.startswith("kaiser_sim.dd."))
                  and (b == "kaiser_sim.rules" or b.startswith("kaiser_sim.game"))})
    assert not bad, bad


def test_the_door_imports_nothing_above_it():
    """``kaiser_sim.game`` imports only the shared vocabulary and the solver: never the runs, the strategy, the
    studies, the report or the command line."""
    above = ("kaiser_sim.runs", "kaiser_sim.strategy", "kaiser_sim.studies", "kaiser_sim.report", "kaiser_sim.cli")
    bad = sorted({(a, b) for a, b, _, _ in IMPORTS
                  if a.startswith("kaiser_sim.game") and (b == "kaiser_sim" or b.startswith(above))})
    assert not bad, bad


def test_cli_constants_match_the_library():
    from kaiser_sim import cli
    from kaiser_sim.runs import deal_io

    assert tuple(cli.DEAL_FORMATS) == tuple(deal_io.FORMATS)


#: commands the group must have (the --help check below runs every command the group has)
COMMANDS = ("deal", "solve", "simulate", "info", "study", "report", "hand", "match", "play", "rules",
            "table-play-model", "make-model", "listening-table")


def test_help_imports_nothing_heavy():
    """``kaiser-sim --help`` and every command's ``--help`` (each command of the
    group, whatever module of ``kaiser_sim.cli`` defines it), in a fresh
    interpreter: none of numpy, numba, pyarrow, pandas, matplotlib, distributed."""
    code = f"""
import sys
from kaiser_sim.cli import main
commands = sorted(main.commands)
for args in [["--help"], ["--version"]] + [[c, "--help"] for c in commands]:
    try:
        main(args, prog_name="kaiser-sim")
    except SystemExit as e:
        assert e.code == 0, (args, e.code)
import kaiser_sim
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))
print("COMMANDS", *commands, file=sys.stderr)
print("HEAVY", heavy, file=sys.stderr)
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    *_, commands_line, heavy_line = p.stderr.strip().splitlines()
    assert heavy_line == "HEAVY []"
    commands = commands_line.split()[1:]
    assert set(COMMANDS) <= set(commands)
    for c in commands:
        assert f"Usage: kaiser-sim {c} " in p.stdout


#: what ``kaiser-sim hand`` (no ``--plot``) must not import: it draws nothing, writes no run, fits nothing
HAND_UNUSED = ("matplotlib", "scipy", "distributed", "dask", "reportlab", "PIL", "sklearn", "statsmodels")
#: kaiser_sim's parts the advisor does not use (``kaiser_sim.studies`` itself, the registry, is light and the
#: CLI's ``study`` options read it; its study modules are not)
HAND_UNUSED_PARTS = ("kaiser_sim.runs.", "kaiser_sim.report.", "kaiser_sim.studies.")


def test_hand_imports_only_what_it_uses():
    """``kaiser-sim hand`` with calls heard, in a fresh interpreter (issue 46: the
    process start is part of the player's wait): it imports none of
    :data:`HAND_UNUSED` nor kaiser_sim's runs, report or study modules, and
    importing the command line and the advisor loads no numba kernel (each is
    loaded from numba's cache when first called).  numpy, numba, pandas (the
    advisor's tables are DataFrames) and pyarrow (which pandas imports) are on
    its path."""
    code = """
import gc, sys
from kaiser_sim.cli import main
import kaiser_sim.strategy.advisor
from numba.core.dispatcher import Dispatcher
print("LOADED_AT_IMPORT", sorted(d.py_func.__qualname__ for d in gc.get_objects()
                                 if isinstance(d, Dispatcher) and d.signatures), file=sys.stderr)
main(["hand", "AQ98.K5.A.T", "--seat", "S", "--auction", "6 pass 7", "-n", "2", "--play-check", "0",
      "--seed", "1", "--format", "json"], prog_name="kaiser-sim", standalone_mode=False)
print("MODULES", *sorted(sys.modules), file=sys.stderr)
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr
    assert '"schema": "kaiser-sim/hand-advice/' in p.stdout
    lines = p.stderr.splitlines()
    assert next(x for x in lines if x.startswith("LOADED_AT_IMPORT")) == "LOADED_AT_IMPORT []"
    modules = next(x for x in lines if x.startswith("MODULES ")).split()[1:]
    assert "pandas" in modules  # the run was the advisor's (if pandas leaves its path, keep it off: say so here)
    assert sorted({m.split(".")[0] for m in modules} & set(HAND_UNUSED)) == []
    assert [m for m in modules if m.startswith(HAND_UNUSED_PARTS)] == []


@pytest.mark.parametrize("name", ["dd_table", "solve", "can_reach", "load_results"])
def test_public_names_load_on_first_use(name):
    import kaiser_sim

    assert callable(getattr(kaiser_sim, name))
    assert name in dir(kaiser_sim)


def test_seeds_have_one_home():
    """The default seeds are config.DEFAULT_SEED (deals, runs, hands, matches)
    and config.STUDY_SEED (studies and the report), and the largest seed
    config.MAX_SEED, each defined there only: no other module defines one of
    its own (one name, one meaning: a DEFAULT_SEED of 1 beside config's 0 was
    issue 44's; a second MAX_SEED in the studies was left after it)."""
    import re

    root = Path(__file__).resolve().parents[1] / "kaiser_sim"
    for path in root.rglob("*.py"):
        if path.name == "config.py" and path.parent == root:
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(DEFAULT_SEED|STUDY_SEED|MAX_SEED)\s*=", text, re.M), path


def _frame_attrs_uses() -> list[str]:
    """``module:line`` of every ``.attrs`` read or written in ``kaiser_sim``."""
    found = []
    for mod, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "attrs":
                found.append(f"{mod}:{node.lineno}")
    return found


def test_no_module_puts_metadata_on_a_frame():
    """Issue 44: run metadata travels in an explicit object
    (:class:`kaiser_sim.runs.results.RunResults` beside the frame, a study's
    :class:`~kaiser_sim.studies.common.StudyTables`), never on a DataFrame's
    ``attrs``, which pandas copies or drops as a frame is worked on: no
    module of the package reads or writes ``.attrs``."""
    assert _frame_attrs_uses() == []


#: public functions whose ``rules=None`` means "not given" (the command's ``--rules`` left out: the rules
#: recorded with a run are used), not the standard game; each docstring says so
RULES_NOT_GIVEN = {
    "kaiser_sim.runs.simulate.simulate": "a resumed run uses its own rules",
    "kaiser_sim.studies.runner.run_study": "the rules recorded with the results, else the definition's",
    "kaiser_sim.report.make.make_report": "the rules recorded with --from's results, else the preset",
}


def _public_functions():
    """``(qualified name, ast function)`` of every public function of the package's modules: those at
    module level and the methods (and ``__init__``) of its public classes, read from the source."""
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                yield f"{mod}.{node.name}", node
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                for item in node.body:
                    if (isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                            and (not item.name.startswith("_") or item.name == "__init__")):
                        yield f"{mod}.{node.name}.{item.name}", item


def _rules_defaulting_to_none() -> list[str]:
    found = []
    for name, fn in _public_functions():
        a = fn.args
        positional = a.posonlyargs + a.args
        pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        pairs += [(arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        for arg, default in pairs:
            if arg.arg == "rules" and isinstance(default, ast.Constant) and default.value is None:
                found.append(name)
    return found


def test_rules_default_to_a_rules_value_not_none():
    """Issue 44: ``rules=None`` no longer stands for the standard game; a
    public function whose rules may be left out defaults to a ``Rules``
    value (the standard preset), or takes them without a default.  The
    exceptions (:data:`RULES_NOT_GIVEN`) mean "not given: the run's own
    rules", and their docstrings say so."""
    assert sorted(_rules_defaulting_to_none()) == sorted(RULES_NOT_GIVEN)


def test_the_rules_not_given_exceptions_say_so():
    functions = dict(_public_functions())
    for name in RULES_NOT_GIVEN:
        doc = ast.get_docstring(functions[name]) or ""
        assert "not given" in doc, name
