"""The package as a user gets it: a wheel built from the checkout, installed
into a fresh virtualenv outside the checkout, runs every command.

The wheel is built from a copy of the sources (pyproject.toml, README.md,
kaiser_sim/; nothing is written into the checkout) with ``pip wheel
--no-build-isolation`` (no network) and installed with ``--no-deps`` into a
new virtualenv whose only link to the development one is a ``.pth`` line
naming its site-packages (numpy, numba, ...): the development venv's
``.pth`` files, among them the editable install of the checkout, are not
read from there, and every command runs in a directory outside the
checkout, so ``kaiser_sim`` can only come from the wheel (checked).

Numba's compiled kernels are copied from the checkout's ``__pycache__``
(with the sources' timestamps) when the sources are the same, so that the
installed package loads them instead of compiling everything again (a
minute or more); without them the commands still run, only slower.

Sizes are tiny: each command is run for what it does, not for its numbers.
The whole module takes about a minute and a half on two cores.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path
from types import SimpleNamespace

import pytest

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[1]
DEAL = "N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K"
PLAY_DEAL = "N:AQJ.KT.9.A8 9.AJ.KJ7.Q9 KT.Q5.8.KT7 83.98.AQT.J"
#: each study's smallest useful run (with the run's 200 deals): --param overrides
STUDY_PARAMS = {
    "bid-odds": {},
    "hand-eval": {"holdout_deals": 100, "n_boot": 10},
    "bidding-chart": {},
    "five-hearts": {"max_resolve": 20},
    "three-spades": {"max_resolve": 20},
    "trump-and-nt": {},
    "lead": {},
    "dd-bias": {"max_deals": 10, "samples": 2},
    "match": {"matches": 2, "hands": 20, "rules_matches": 2, "policies": ["ev", "cautious"]},
}


def _param_args(params: dict) -> list[str]:
    return [a for k, v in params.items() for a in ("--param", f"{k}={json.dumps(v)}")]


def _seed_numba_cache(src: Path, dst: Path) -> None:
    """Give the installed sources that equal the checkout's the checkout's
    timestamps, and copy the checkout's numba cache (index + data files)."""
    for py in dst.rglob("*.py"):
        s = src / py.relative_to(dst)
        if s.is_file() and filecmp.cmp(s, py, shallow=False):
            shutil.copystat(s, py)
    for f in [*src.rglob("__pycache__/*.nbi"), *src.rglob("__pycache__/*.nbc")]:
        d = dst / f.relative_to(src)
        d.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(f, d)
        except OSError:  # being rewritten by another process: that kernel compiles
            pass


@pytest.fixture(scope="module")
def inst(tmp_path_factory):
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "kaiser_sim", src / "kaiser_sim", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(dist), str(src)], check=True, cwd=base,
                   capture_output=True)
    wheel = next(dist.glob("kaiser_sim-*.whl"))

    env_dir = base / "venv"
    venv.create(env_dir, with_pip=False, symlinks=True)
    python = env_dir / "bin" / "python"
    paths = json.loads(subprocess.check_output([str(python), "-c", "import json, sysconfig; "
                                                "print(json.dumps(sysconfig.get_paths()))"], text=True))
    site = Path(paths["purelib"])
    (site / "_dev_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", "--disable-pip-version-check", str(wheel)], check=True, cwd=base,
                   capture_output=True)
    _seed_numba_cache(ROOT / "kaiser_sim", site / "kaiser_sim")

    work = base / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PYTHONNOUSERSITE="1", PATH=f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return SimpleNamespace(wheel=wheel, python=python, script=env_dir / "bin" / "kaiser-sim", site=site,
                           work=work, env=env)


def run(inst, *args, timeout=300) -> subprocess.CompletedProcess:
    """``kaiser-sim ARGS`` of the installed package, in a directory outside the checkout."""
    p = subprocess.run([str(inst.script), *map(str, args)], cwd=inst.work, env=inst.env, capture_output=True,
                       text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"kaiser-sim {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr[-3000:]}"
    return p


@pytest.fixture(scope="module")
def results(inst):
    out = inst.work / "run"
    p = run(inst, "simulate", "--deals", 200, "--seed", 1, "--out", out, "--workers", 1, "--quiet")
    assert p.stdout == ""
    return out


def test_the_wheel_is_what_runs(inst):
    code = ("import importlib.metadata as m, kaiser_sim; "
            "print(kaiser_sim.__file__); print(kaiser_sim.__version__); print(m.version('kaiser-sim'))")
    p = subprocess.run([str(inst.python), "-c", code], cwd=inst.work, env=inst.env, capture_output=True, text=True,
                       check=True)
    where, version, dist_version = p.stdout.split()
    assert Path(where).is_relative_to(inst.site), where
    assert not Path(where).is_relative_to(ROOT)
    assert version == dist_version
    assert inst.wheel.name.startswith(f"kaiser_sim-{version}-")
    for data in ("make_model.csv", "make_model.json", "table_play_model.json"):
        assert (inst.site / "kaiser_sim" / "data" / data).is_file(), data
    assert run(inst, "--version").stdout.strip().endswith(version)


def test_help_of_every_command(inst):
    group = run(inst, "--help").stdout
    commands = group.split("Commands:")[1].split()
    names = [w for w in commands if w.islower() and w.replace("-", "").isalpha() and not w.startswith("-")]
    for name in ("deal", "solve", "simulate", "info", "study", "report", "hand", "match", "play", "rules",
                 "table-play-model", "make-model"):
        assert name in names, name
    for name in ("deal", "solve", "simulate", "info", "study", "report", "hand", "match", "play", "rules",
                 "table-play-model", "make-model"):
        assert "Usage: kaiser-sim" in run(inst, name, "--help").stdout
    p = subprocess.run([str(inst.python), "-m", "kaiser_sim", "--help"], cwd=inst.work, env=inst.env,
                       capture_output=True, text=True, check=True)
    assert p.stdout == group
    # the make model is rebuilt through the command line only (the module's script alias imported the CLI
    # from below it, a back edge of the layers)
    p = subprocess.run([str(inst.python), "-m", "kaiser_sim", "make-model", "--help"], cwd=inst.work, env=inst.env,
                       capture_output=True, text=True, check=True)
    assert "make-model" in p.stdout


def test_deal_solve_rules(inst):
    deals = run(inst, "deal", "--count", 2, "--seed", 1).stdout.splitlines()
    assert deals[0] == DEAL
    solved = run(inst, "solve", "--mode", "points", "--format", "json", DEAL).stdout
    assert json.loads(solved)["points"]["N"]["S"] == 8
    assert "standard" in run(inst, "rules").stdout
    assert "target" in run(inst, "rules", "tournament").stdout


def test_simulate_and_info(inst, results):
    info = json.loads(run(inst, "info", results, "--format", "json").stdout)
    assert info["complete"] and info["metadata"]["deals"] == 200


def test_hand_match_play(inst):
    assert "Trump" in run(inst, "hand", "AK93.5.AK.8", "-n", 50, "--no-specials").stdout
    doc = json.loads(run(inst, "match", "-a", "ev", "-b", "cautious", "-n", 4, "--format", "json", "--quiet").stdout)
    assert doc
    assert "Double dummy" in run(inst, "play", PLAY_DEAL, "--strain", "H", "--leader", "N", "-k", 2).stdout


def test_make_model(inst, results):
    csv, js = inst.work / "model.csv", inst.work / "model.json"
    run(inst, "make-model", results, "--csv", csv, "--json", js)
    assert json.loads(js.read_text())["provenance"]["deals"] == 200


@pytest.fixture(scope="module")
def studies(inst, results):
    """Every study, each on the run's deals (bid-odds also simulating its own)."""
    docs = {}
    for name, params in STUDY_PARAMS.items():
        out = inst.work / "studies" / name
        source = [] if name == "match" else ["--from", results]
        run(inst, "study", name, *source, "--out", out, "--quiet", *_param_args(params))
        docs[name] = json.loads((out / "study.json").read_text())
    out = inst.work / "studies" / "bid-odds-simulated"
    run(inst, "study", "bid-odds", "--deals", 100, "--workers", 1, "--out", out, "--quiet")
    docs["bid-odds-simulated"] = json.loads((out / "study.json").read_text())
    return docs


def test_every_study_runs(studies):
    for name in STUDY_PARAMS:
        assert studies[name]["study"] == name
        assert studies[name]["n"] > 0


@pytest.mark.parametrize("name", sorted(STUDY_PARAMS))
def test_installed_studies_use_the_checkout_definitions(studies, name):
    """An installed study runs with the parameters, seed, rules and
    description of the checkout's ``analyses/NAME.toml``."""
    from kaiser_sim.rules import get_preset

    definition = tomllib.loads((ROOT / "analyses" / f"{name}.toml").read_text(encoding="utf-8"))
    doc = studies[name]
    expected = {k: v for k, v in definition.get("params", {}).items() if k not in STUDY_PARAMS[name]}
    got = {k: v for k, v in doc["params"].items() if k not in STUDY_PARAMS[name]}
    if name == "match":
        got.pop("seed", None)
    assert got == expected
    assert doc["description"] == definition.get("description", "")
    rules = get_preset(definition.get("rules", "standard")).with_overrides(list(definition.get("rule", [])))
    assert doc["rules"] == rules.to_dict()
    if name == "bid-odds":  # simulated with the definition's seed
        assert studies["bid-odds-simulated"]["seed"] == definition["seed"]
        assert studies["bid-odds-simulated"]["params"] == definition["params"]


def test_report(inst, results):
    out = inst.work / "report"
    p = run(inst, "report", "--from", results, "--max-resolve", 10, "--out", out, "--quiet")
    assert "report:" in p.stdout
    assert (out / "report.pdf").stat().st_size > 10_000
    assert (out / "report.md").is_file()
