"""Study definitions (TOML), running a study, and writing its outputs.

Every study carries its default definition in its module (``DEFINITION``, a
dict with the keys of a definition file) beside the declaration of its
parameters (``PARAMETERS``, :mod:`kaiser_sim.studies.params`), so an
installed package runs each study with the same definitions as the
checkout.  The module is the one home of both: ``analyses/NAME.toml`` in the
source tree is written from it (:func:`definition_text`, ``make analyses``)
for users to read and copy, and a test keeps the files equal to that text.
A definition file::

    study = "bid-odds"          # a name of kaiser_sim.studies.STUDIES
    deals = 100000              # deals to simulate when no results are given
    seed = 1
    rules = "standard"          # a preset (kaiser-sim rules)
    rule = []                   # overrides, "key=value"
    [params]                    # keyword arguments of the study's run()
    trump_rule = "longest-strength"

The parameters are checked through the study's declaration
(:func:`check_params`: no list of parameter names here), before any work.

:func:`run_study` reads an existing results dataset or simulates one, runs
the study and writes into the output directory: every table as
``NAME.csv`` and ``NAME.md``, every chart as ``NAME.png`` and ``NAME.svg``,
and ``study.json`` (study, parameters, seed, n, rules, package version,
the results used, the files written).
"""

from __future__ import annotations

import copy
import json
import math
import textwrap
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__, config
from ..runs.output_dir import removed_on_failure, source_date_epoch, staged
from ..runs.results import RunResults
from ..rules import Rules, RulesError, get_preset
from ..runs.services import check_output_dir, check_points, check_results_path, obtain_results, results_rules
from . import CATEGORIES, REGISTRY, STUDIES, StudyError, get_study, study as declared
from .common import StudyTables, save_figure
from .params import check_params as check_declared, describe, short, toml_value

#: the checkout's ``analyses/`` (the published definitions as files); absent in
#: an installed package and never needed: :func:`definition_for` reads the
#: definitions from the study modules
ANALYSES_DIR = Path(__file__).resolve().parents[2] / "analyses"
DEFAULT_DEALS = 10_000
_KEYS = {"study", "deals", "seed", "rules", "rule", "params", "description"}
#: the width of the definition files' comments and of the parameter listing
_TEXT_WIDTH = 110


@dataclass
class StudyDefinition:
    """What to run: the study, how many deals, seed, rules and parameters."""

    study: str
    deals: int = DEFAULT_DEALS
    seed: int = config.STUDY_SEED  # a definition that names no seed: the studies' seed
    rules: str = "standard"
    rule: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    description: str = ""
    source: str | None = None

    def make_rules(self) -> Rules:
        try:
            return get_preset(self.rules).with_overrides(list(self.rule))
        except RulesError as e:
            raise StudyError(f"{self.source or self.study}: {e}") from None


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_toml(path) -> dict:
    """The TOML file ``path`` as a dict; :class:`StudyError` if it cannot be
    read, is not a regular file, is larger than :data:`kaiser_sim.config.MAX_DEFINITION_BYTES`, is not
    UTF-8 text or not valid TOML."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir() and not path.is_file():  # a FIFO would wait for a writer
            raise StudyError(f"{path} is not a regular file (a device, a FIFO or a socket): not a study definition")
        if path.is_file() and path.stat().st_size > config.MAX_DEFINITION_BYTES:
            raise StudyError(f"{path} is larger than {config.MAX_DEFINITION_BYTES:,} bytes: not a study definition")
        data = path.read_bytes()
    except OSError as e:
        raise StudyError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise StudyError(f"{path} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}): "
                         "not a study definition") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{path} is not valid TOML: {e}") from None
    except RecursionError:
        raise StudyError(f"{path} is not valid TOML: nested too deeply") from None
    except ValueError as e:  # a number beyond Python's 4300-digit limit, a bad date
        raise StudyError(f"{path} is not valid TOML: {_too_long(e)}") from None


def load_definition(path) -> StudyDefinition:
    """Read a study definition TOML file; :class:`StudyError` naming the problem
    (an unreadable file, a missing or unknown key, a value of the wrong type or
    out of range)."""
    path = Path(path)
    return definition_from_dict(read_toml(path), str(path))


def definition_from_dict(data: dict, source: str) -> StudyDefinition:
    """A definition from the keys of a definition file (``study``, ``deals``,
    ...), checked as :func:`load_definition` checks a file; ``source`` names
    where it comes from in messages and ``study.json``."""
    path = source
    unknown = set(data) - _KEYS
    if unknown:
        raise StudyError(f"{path}: unknown key(s) {', '.join(sorted(str(k)[:40] for k in unknown))}; "
                         f"keys: {', '.join(sorted(_KEYS))}")
    if "study" not in data:
        raise StudyError(f"{path}: no 'study' key (one of {', '.join(STUDIES)})")

    def bad(key, want):
        return StudyError(f"{path}: {key} must be {want}, got {short(data[key])}")

    for key in ("study", "rules", "description"):
        if key in data and not isinstance(data[key], str):
            raise bad(key, "a string")
    if "deals" in data and not (_whole(data["deals"]) and 1 <= data["deals"] <= config.STUDY_MAX_DEALS):
        raise bad("deals", f"a whole number from 1 to {config.STUDY_MAX_DEALS:,}")
    if "seed" in data and not (_whole(data["seed"]) and data["seed"] >= 0):
        raise bad("seed", "a whole number >= 0")
    if "rule" in data and not (isinstance(data["rule"], list) and all(isinstance(r, str) for r in data["rule"])):
        raise bad("rule", 'a list of "key=value" strings, like rule = ["target=62"]')
    if "params" in data and not isinstance(data["params"], dict):
        raise bad("params", "a table of parameters, like [params] followed by key = value lines")
    d = StudyDefinition(study=data["study"], deals=data.get("deals", DEFAULT_DEALS),
                        seed=data.get("seed", config.STUDY_SEED), rules=data.get("rules", "standard"),
                        rule=list(data.get("rule", [])), params=dict(data.get("params", {})),
                        description=data.get("description", ""), source=source)
    try:
        get_study(d.study)  # check the name
    except StudyError as e:
        raise StudyError(f"{path}: {e}") from None
    d.make_rules()  # check the rules
    return d


def definition_for(name_or_file) -> StudyDefinition:
    """A definition from a ``.toml`` path, else the study's own default
    definition (its module's ``DEFINITION``: the same as the checkout's
    ``analyses/NAME.toml``)."""
    text = str(name_or_file)
    try:
        is_file = Path(text).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL byte
        is_file = False
    if text.endswith(".toml") or is_file:
        return load_definition(text)
    module = get_study(text)
    return definition_from_dict(copy.deepcopy(module.DEFINITION), f"{module.__name__}.DEFINITION")


def parse_param(text: str) -> tuple[str, object]:
    """``key=value`` with a TOML value (``3``, ``true``, ``"x"``; bare words are strings)."""
    if "=" not in text:
        raise StudyError(f"--param {text}: write KEY=VALUE")
    key, value = (t.strip() for t in text.split("=", 1))
    if not key:
        raise StudyError(f"--param {short(text)}: no KEY before the =")
    try:
        doc = tomllib.loads(f"v = {value}")
        parsed = doc["v"] if len(doc) == 1 else value
    except (tomllib.TOMLDecodeError, RecursionError):
        parsed = value
    except ValueError:  # a number beyond Python's 4300-digit limit
        raise StudyError(f"--param {key}: value {short(value)} is out of range") from None
    return key, parsed


def check_params(module, params: dict) -> None:
    """Refuse parameters the study ``module`` does not declare, and values its
    declaration refuses (of the wrong kind, out of range, not among the
    choices: :func:`kaiser_sim.studies.params.check_params` over the
    module's ``PARAMETERS``): :class:`StudyError` naming the parameter."""
    check_declared(module.PARAMETERS, params, module.KEY)


def definition_text(name: str) -> str:
    """The text of ``analyses/NAME.toml``: study ``name``'s ``DEFINITION`` as
    TOML, under a comment saying what the study answers and where the file
    comes from, each parameter its ``PARAMETERS`` declare with what it takes
    and sets as a comment (those the definition does not set as a comment
    only).  ``make analyses`` writes the files (:func:`write_definitions`);
    a test keeps them equal to this text."""
    module = get_study(name)
    d = module.DEFINITION
    check_params(module, d["params"])  # every parameter it sets is declared, with a value the declaration takes
    key = d["study"]
    source = module.__name__.replace(".", "/") + ".py"
    lines = _comment(f"{key}: {declared(key).summary}")
    lines += _comment(f"Run it with kaiser-sim study analyses/{key}.toml, or kaiser-sim study {key} (the same "
                      f"definition, from the package); a copy of this file, changed, runs as a new study.  Written "
                      f"by make analyses from {source} (DEFINITION and PARAMETERS): change the module, not this "
                      f"file.")
    study = declared(key)
    if not study.uses_results:
        lines += _comment(f"This study {CATEGORIES[study.category]} instead of reading a results dataset: it takes "
                          f"no deals, and seed seeds its {study.unit} (kaiser-sim study {key} --seed S).")
    for field_name in ("study", "description", "deals", "seed", "rules", "rule"):
        if field_name in d:
            lines.append(f"{field_name} = {toml_value(d[field_name])}")
    lines += ["", "[params]"]
    for i, param in enumerate(module.PARAMETERS):
        lines += [""] * (i > 0) + _comment(describe(param))
        if param.name in d["params"]:
            lines.append(f"{param.name} = {toml_value(d['params'][param.name])}")
    return "\n".join(lines) + "\n"


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, width=_TEXT_WIDTH, initial_indent="# ", subsequent_indent="# ",
                         break_on_hyphens=False)


def write_definitions(directory) -> list[Path]:
    """Write every registered study's definition file into ``directory``
    (:func:`definition_text`; ``make analyses`` writes ``analyses/``): the
    paths written."""
    directory = Path(directory)
    written = []
    for key in (s.key for s in REGISTRY):
        path = directory / f"{key}.toml"
        path.write_text(definition_text(key), encoding="utf-8")
        written.append(path)
    return written


def parameters_text(definition: StudyDefinition) -> str:
    """What ``kaiser-sim study NAME --list`` prints of one study: what it
    answers, the parameters ``definition`` sets, and every parameter its
    ``PARAMETERS`` declare (what it takes, its default, what it sets)."""
    module = get_study(definition.study)
    key = definition.study.strip().lower().replace("_", "-")
    sets = ", ".join(f"{k} = {toml_value(v)}" for k, v in definition.params.items()) or "none"
    lines = [f"{key}: {declared(key).summary}",
             *textwrap.wrap(f"its definition ({definition.source}) sets: {sets}", width=_TEXT_WIDTH,
                            initial_indent="  ", subsequent_indent="      ", break_on_hyphens=False)]
    for param in module.PARAMETERS:
        lines += textwrap.wrap(describe(param), width=_TEXT_WIDTH, initial_indent="  ", subsequent_indent="      ",
                               break_on_hyphens=False)
    return "\n".join(lines) + "\n"


# --- writing --------------------------------------------------------------------------------


def _cell(x) -> str:
    if x is None:
        return ""
    if isinstance(x, (float, np.floating)):
        if math.isnan(x):
            return ""
        return f"{x:.4g}" if abs(x) < 1e5 else f"{x:,.0f}"
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return f"{int(x)}"
    return str(x).replace("|", "\\|")


def to_markdown(df: pd.DataFrame) -> str:
    """A GitHub Markdown table (floats to 4 significant digits)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


def write_outputs(tables: dict, figures: dict, out, inputs: dict) -> list[str]:
    """Write tables (CSV, Markdown), figures (PNG, SVG) and ``study.json``.

    All of them or none: they are written into a hidden directory in ``out``
    and moved into place at the end; if one cannot be written (a full disk)
    the others are removed and :class:`kaiser_sim.runs.output_dir.OutputError`
    names the problem."""
    import matplotlib.pyplot as plt

    try:
        with staged(out, "the study's outputs") as stage:
            return _write_outputs(tables, figures, stage, inputs)
    finally:
        for fig in figures.values():
            plt.close(fig)


def _write_outputs(tables: dict, figures: dict, out: Path, inputs: dict) -> list[str]:
    written = []
    tables = StudyTables(tables)  # a plain dict of frames: no notes, no footers
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
        meta = tables.meta(name)
        text = f"# {name}\n\n" + (f"{meta.note}\n\n" if meta.note else "") + to_markdown(df)
        if meta.footer:
            text += f"\n_{meta.footer}_\n"
        (out / f"{name}.md").write_text(text, encoding="utf-8")
        written += [f"{name}.csv", f"{name}.md"]
    for name, fig in figures.items():
        for ext in ("png", "svg"):
            save_figure(fig, out / f"{name}.{ext}", ext)
            written.append(f"{name}.{ext}")
    doc = dict(inputs)
    doc["files"] = written
    (out / "study.json").write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    return written + ["study.json"]


@dataclass
class StudyOutput:
    tables: StudyTables  # the study's tables, each with its note, footer and run info (tables.meta(name))
    figures: dict
    files: list[str]
    inputs: dict


def run_study(definition: StudyDefinition, out, results: RunResults | None = None, from_path=None,
              rules: Rules | None = None, progress=None, workers: int | None = None,
              write: bool = True, force: bool = False) -> StudyOutput:
    """Run one study end to end: obtain results, ``run``, ``plot``, write.

    ``rules`` (for scoring): ``None`` is "not given" (the command's
    ``--rules`` left out), and then the rules recorded with the results, else
    the definition's, are used -- not the standard game; with ``results`` (a
    :class:`~kaiser_sim.runs.results.RunResults`: a frame and its run
    metadata) or ``from_path`` the deals come from there (their seed and n
    are recorded), else ``definition.deals``
    deals are simulated with ``definition.seed`` into ``out/results``.

    Everything is checked before any work (the definition, the parameters,
    the rules, that ``from_path`` holds points values, that ``out`` can be
    written); a run refused or failing before its results are obtained
    leaves nothing it created behind (files written, directories made); a
    study that fails after simulating its deals keeps them in ``out/results``
    (a rerun, or ``--from out/results``, reuses them) and removes only what
    it wrote after them.  Nothing it did not create is ever removed.  ``force``: deals already
    simulated into ``out/results`` are simulated again (``study --force``).

    Refusals are :class:`~kaiser_sim.errors.KaiserSimError`: the study's own
    (:class:`StudyError`: the definition, the parameters) and those of the
    layers below raised as they are (the run services' and the run layer's:
    results that cannot be read or simulated, an ``out`` that cannot be
    written; the rules'; a match study's engine).
    """
    study = declared(definition.study)
    module = study.load()
    check_params(module, definition.params)
    simulating = results is None and from_path is None
    if not study.uses_results:
        if results is not None or from_path is not None:
            raise StudyError(f"study {definition.study} {CATEGORIES[study.category]}: it reads no results dataset "
                             "(no --from)")
        rules = rules or definition.make_rules()
        if write:
            check_output_dir(out)
        with removed_on_failure(out):
            return _run_match_study(study, definition, out, rules, write)
    t0 = time.time()
    source = str(from_path) if from_path is not None else ("a DataFrame given" if results is not None else None)
    if results is not None:
        check_points(results.frame, None)
        meta = results.metadata
    elif from_path is not None:
        meta = check_results_path(from_path)
    else:
        meta = {}
    rules = rules or results_rules(meta, source) or definition.make_rules()
    if write or simulating:
        check_output_dir(out)
    # a failure while the results are obtained removes what that created (nothing is left of a refused run);
    # once they are, a failure of the study keeps them: the deals simulated into out/results are the run's most
    # costly part, and a rerun or --from out/results reuses them
    with removed_on_failure(out, Path(out) / "results"):
        if results is None and from_path is not None:
            results = obtain_results(from_path)
            meta = results.metadata
        if results is None:
            results = obtain_results(None, definition.deals, definition.seed, rules, out, progress, workers, force)
            meta = results.metadata
            source = str(Path(out) / "results")
        run_rules = results_rules(meta, source)
        if run_rules is not None and (run_rules.hand_size, run_rules.deck34) != (rules.hand_size, rules.deck34):
            raise StudyError(f"the results were dealt for rules '{run_rules.label}' (hand size {run_rules.hand_size}), "
                             f"not for '{rules.label}'")
    with removed_on_failure(out):  # removes out only if this run is to create it (no deals simulated into it)
        return _finish_study(module, definition, out, results, meta, source, rules, t0, write)


def _finish_study(module, definition, out, results, meta, source, rules, t0, write) -> StudyOutput:
    t1 = time.time()
    tables = module.run(results, rules, **definition.params)
    figures = module.plot(tables)
    t2 = time.time()
    inputs = {
        "study": definition.study,
        "definition": definition.source,
        "description": definition.description,
        "params": definition.params,
        "seed": meta.get("seed", definition.seed),
        "n": int(tables.meta(next(iter(tables))).run.get("n", len(results.frame))) if tables else int(len(results.frame)),
        "results": source,
        "rules": rules.to_dict(),
        "version": __version__,
        "seconds": {"results": round(t1 - t0, 1), "study": round(t2 - t1, 1)},
    }
    if source_date_epoch() is not None:  # reproducible: no wall-clock times in the files
        inputs.pop("seconds")
    files = write_outputs(tables, figures, out, inputs) if write else []
    return StudyOutput(tables, figures, files, inputs)


def _run_match_study(study, definition: StudyDefinition, out, rules: Rules, write: bool) -> StudyOutput:
    """A study that plays matches or bids deals of its own (its declaration
    needs no ``deals``): no results dataset; the definition's seed seeds its
    games, ``deals`` is unused."""
    module = study.load()
    t0 = time.time()
    params = dict(definition.params)
    params.setdefault("seed", definition.seed)
    tables = module.run(None, rules, **params)
    figures = module.plot(tables)
    info = tables.meta(next(iter(tables))).run
    inputs = {
        "study": definition.study,
        "definition": definition.source,
        "description": definition.description,
        "params": params,
        "seed": params["seed"],
        "n": int(info.get("n", 0)),
        "unit": study.unit,  # what its n counts (declared: the call frequencies bid deals)
        "results": None,
        "rules": rules.to_dict(),
        "version": __version__,
        "seconds": {"results": 0.0, "study": round(time.time() - t0, 1)},
    }
    if source_date_epoch() is not None:  # reproducible: no wall-clock times in the files
        inputs.pop("seconds")
    files = write_outputs(tables, figures, out, inputs) if write else []
    return StudyOutput(tables, figures, files, inputs)


def _too_long(e: ValueError) -> str:
    """The reason of a ValueError from a parser, said shortly."""
    text = str(e)
    return "a number has more than 4300 digits" if "digits" in text else text[:100]


__all__ = ["StudyDefinition", "load_definition", "definition_from_dict", "definition_for", "run_study",
           "write_outputs", "to_markdown", "parse_param", "read_toml", "check_params", "definition_text",
           "write_definitions", "parameters_text", "ANALYSES_DIR"]
