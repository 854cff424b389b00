"""Every example in the README, in the pages of docs/ written by hand, and in
every command's --help runs.

Each example is run as written (through click's runner, in a clone of
the checkout: ``git clone --shared``, or a scratch directory holding a copy
of ``analyses/`` where there is no git), with its sizes cut down so the
suite stays quick: ``--deals``/``-n``/``--count``/``--matches`` capped, a
report given ``--max-resolve 10``, simulations one worker.  Pipes (``|``)
feed one example's output to the next; redirections (``>``) keep the output
in the named file; ``mkdir -p`` lines make their directory.  The one example
that needs a Dask cluster is checked for its options only (``test_docs``).

A newcomer who follows the examples changes no file git tracks or would
track: after each block (the README's and each command's ``--help``)
``git status --porcelain`` of the clone is empty, what the examples write
being under an ignored folder (``runs/``, ``reports/``, ``out/``), and the
package's shipped models are as they were.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kaiser_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
#: the most deals / matches an example may ask for here, by command
CAP = {"deal": 50, "simulate": 120, "study": 120, "report": 150, "hand": 60, "match": 4, "table-play-model": 100,
       "listening-table": 100}
COUNT_OPTIONS = ("--deals", "-n", "--count", "--matches")
NEEDS_CLUSTER = re.compile(r"--scheduler\s+tcp://")


#: the README and the hand-written pages of docs/ (docs/reference/ is generated from the --help texts, whose
#: examples run below as the help's)
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _readme_examples() -> list[list[str]]:
    """The code blocks of the README and of the hand-written docs pages: one
    list of example lines a block (order matters: a block's later lines may
    read what its earlier ones wrote)."""
    blocks, current, inside = [], [], False
    lines = [ln for path in DOC_FILES for ln in path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        if line.startswith("```"):
            if inside and current:
                blocks.append(current)
            current, inside = [], not inside
            continue
        if inside and line.startswith(("kaiser-sim ", "mkdir -p ")):
            current.append(line)
    return blocks


def _help_examples() -> list[list[str]]:
    out = []
    for command in (main, *main.commands.values()):  # the group's own example too
        text = command.help or ""
        lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith(("kaiser-sim ", "mkdir -p "))]
        if lines:
            out.append(lines)
    return out


def _strip_comment(line: str) -> str:
    # a comment after the command: two spaces and a '#' (deal strings have no '#')
    return re.split(r"\s{2,}#", line, maxsplit=1)[0].strip()


def _shrink(args: list[str]) -> list[str]:
    command = args[0]
    out = list(args)
    cap = CAP.get(command)
    given = False
    for i, a in enumerate(out[:-1]):
        if a in COUNT_OPTIONS and cap is not None:
            given = True
            out[i + 1] = str(min(int(out[i + 1]), cap))
    has = lambda *opts: any(o in out for o in opts)  # noqa: E731
    if command == "report":
        if not has("--max-resolve"):
            out += ["--max-resolve", "10"]
        if not given and not has("--from"):
            out += ["--deals", str(cap)]
    if command == "hand" and not given:
        out += ["-n", str(cap)]
    if command == "match" and not given:
        out += ["-n", str(cap)]
    if command == "study" and len(out) > 1 and not any(a.startswith("matches=") for a in out):
        from kaiser_sim.studies import StudyError, study

        try:  # a study that plays matches (no deals to cap): a few matches
            plays = study(out[1]).category == "matches"
        except StudyError:
            plays = False
        if plays:
            out += ["--param", f"matches={CAP['match']}"]
    if command == "simulate" and not has("--workers", "-w") and not has("--resume"):
        out += ["--workers", "1"]
    assert "--replace-shipped" not in out, "an example must not write over the shipped model"
    if command == "table-play-model":
        out += ["--holdout", "100", "--sensitivity", "0", "--samples", "1", "--workers", "1"]
    return out


def _make_inputs(runner, args: list[str]) -> None:
    """An example that reads a results directory made by another example
    (``--from runs/s1``, ``info runs/s1``, ``--resume --out runs/s1``) gets a
    small one made first, if it is not there."""
    wanted = []
    for i, a in enumerate(args[:-1]):
        if a == "--from":
            wanted.append(args[i + 1])
    if args[0] == "info" and len(args) > 1:
        wanted.append(args[1])
    if args[0] == "simulate" and "--resume" in args:
        wanted.append(args[args.index("--out") + 1])
    for path in wanted:
        if not Path(path).exists():
            r = runner.invoke(main, ["simulate", "-n", str(CAP["simulate"]), "--seed", "1", "--out", path, "-w", "1",
                                     "-q"], catch_exceptions=False)
            assert r.exit_code == 0, r.output


def _run_line(runner, line: str, stdin: str | None = None) -> str:
    line = _strip_comment(line)
    if line.startswith("mkdir -p "):
        for d in shlex.split(line)[2:]:
            Path(d).mkdir(parents=True, exist_ok=True)
        return ""
    target = None
    if " > " in line:
        line, target = (part.strip() for part in line.split(" > ", 1))
    stages = [s.strip() for s in line.split(" | ")]
    text = stdin
    for stage in stages:
        args = shlex.split(stage)
        assert args[0] == "kaiser-sim", stage
        args = _shrink(args[1:])
        _make_inputs(runner, args)
        result = runner.invoke(main, args, input=text, catch_exceptions=False)
        assert result.exit_code == 0, f"{stage!r} -> exit {result.exit_code}: {result.output[-2000:]}"
        text = result.stdout
    if target:
        Path(target).write_text(text or "", encoding="utf-8")
    return text


def _ids(blocks):
    return [next(shlex.split(_strip_comment(x))[1] for x in b if x.startswith("kaiser-sim ")) + f"-{i}"
            for i, b in enumerate(blocks)]


README_BLOCKS = _readme_examples()
HELP_BLOCKS = _help_examples()


def _git(*args, cwd) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=60).stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A clone of this checkout (its committed state), or None without git."""
    dest = tmp_path_factory.mktemp("examples") / "clone"
    try:
        _git("clone", "-q", "--shared", str(ROOT), str(dest), cwd=dest.parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return dest


def _shipped() -> dict:
    """The package's shipped data files (a command run from the clone would
    write the package's, not the clone's): name -> sha256."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((ROOT / "kaiser_sim" / "data").iterdir())
            if p.is_file()}


@pytest.fixture
def scratch(tmp_path, monkeypatch, clone):
    """The directory an example block runs in: the clone, made clean (every
    file a previous block wrote removed, ignored ones too), or without git a
    scratch directory with ``analyses/``."""
    if clone is None:
        shutil.copytree(ROOT / "analyses", tmp_path / "analyses")
        monkeypatch.chdir(tmp_path)
        return None
    _git("clean", "-q", "-ffdx", cwd=clone)
    _git("checkout", "-q", "--", ".", cwd=clone)
    monkeypatch.chdir(clone)
    return clone


def test_examples_were_found():
    assert len(README_BLOCKS) >= 8 and sum(map(len, README_BLOCKS)) >= 25
    assert len(HELP_BLOCKS) >= 8


@pytest.mark.parametrize("block", README_BLOCKS + HELP_BLOCKS,
                         ids=[f"readme-{i}" for i in _ids(README_BLOCKS)] + [f"help-{i}" for i in _ids(HELP_BLOCKS)])
def test_example_runs(block, scratch):
    runner = CliRunner()
    shipped = _shipped()
    for line in block:
        if NEEDS_CLUSTER.search(line):
            continue  # needs a Dask cluster: its options are checked in test_docs
        _run_line(runner, line)
    assert _shipped() == shipped, "an example changed the package's shipped model"
    if scratch is not None:
        status = _git("status", "--porcelain", cwd=scratch)
        assert status == "", f"an example changed a tracked file or left one git would track:\n{status}"
