"""Study definitions (TOML), running a study, and writing its outputs.

Every study carries its default definition in its module (``DEFINITION``, a
dict with the keys of a definition file), so an installed package runs each
study with the same definitions as the checkout; ``analyses/NAME.toml`` in
the source tree holds the same definitions as files, for users to read and
copy (a test keeps the two equal).  A definition file::

    study = "bid-odds"          # a name of kaiser_sim.studies.STUDIES
    deals = 100000              # deals to simulate when no results are given
    seed = 1
    rules = "standard"          # a preset (kaiser-sim rules)
    rule = []                   # overrides, "key=value"
    [params]                    # keyword arguments of the study's run()
    trump_rule = "longest-strength"

:func:`run_study` reads an existing results dataset or simulates one, runs
the study and writes into the output directory: every table as
``NAME.csv`` and ``NAME.md``, every chart as ``NAME.png`` and ``NAME.svg``,
and ``study.json`` (study, parameters, seed, n, rules, package version,
the results used, the files written).
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import time
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__, config
from ..runs.output_dir import removed_on_failure, source_date_epoch, staged
from ..rules import Rules, RulesError, get_preset
from ..runs.services import (RunServiceError, check_output_dir, check_points, check_results_path, obtain_results,
                             results_rules)
from . import STUDIES, StudyError, get_study
from .common import save_figure

#: the checkout's ``analyses/`` (the published definitions as files); absent in
#: an installed package and never needed: :func:`definition_for` reads the
#: definitions from the study modules
ANALYSES_DIR = Path(__file__).resolve().parents[2] / "analyses"
DEFAULT_DEALS = 10_000
#: the seed of a study definition that names none (one home: kaiser_sim.config)
DEFAULT_SEED = config.STUDY_SEED
_KEYS = {"study", "deals", "seed", "rules", "rule", "params", "description"}


@dataclass
class StudyDefinition:
    """What to run: the study, how many deals, seed, rules and parameters."""

    study: str
    deals: int = DEFAULT_DEALS
    seed: int = DEFAULT_SEED
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


def _short(value, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters, for messages."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else f"{text[:width - 15]}... ({len(text):,} chars)"


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
        return StudyError(f"{path}: {key} must be {want}, got {_short(data[key])}")

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
                        seed=data.get("seed", DEFAULT_SEED), rules=data.get("rules", "standard"),
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
    ``analyses/NAME.toml``), else the runner's defaults."""
    text = str(name_or_file)
    try:
        is_file = Path(text).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL byte
        is_file = False
    if text.endswith(".toml") or is_file:
        return load_definition(text)
    module = get_study(text)
    key = text.strip().lower().replace("_", "-")
    default = getattr(module, "DEFINITION", None)
    if default is None:
        return StudyDefinition(study=key)
    return definition_from_dict(copy.deepcopy(default), f"{module.__name__}.DEFINITION")


def parse_param(text: str) -> tuple[str, object]:
    """``key=value`` with a TOML value (``3``, ``true``, ``"x"``; bare words are strings)."""
    if "=" not in text:
        raise StudyError(f"--param {text}: write KEY=VALUE")
    key, value = (t.strip() for t in text.split("=", 1))
    if not key:
        raise StudyError(f"--param {_short(text)}: no KEY before the =")
    try:
        doc = tomllib.loads(f"v = {value}")
        parsed = doc["v"] if len(doc) == 1 else value
    except (tomllib.TOMLDecodeError, RecursionError):
        parsed = value
    except ValueError:  # a number beyond Python's 4300-digit limit
        raise StudyError(f"--param {key}: value {_short(value)} is out of range") from None
    return key, parsed


#: smallest allowed value of the studies' whole-number parameters (by name)
PARAM_MIN = {"min_cell": 1, "max_resolve": 1, "n_boot": 0, "holdout_every": 2, "samples": 1, "max_deals": 1,
             "nt_every": 0, "matches": 1, "hands": 1, "grid_step": 1, "rules_matches": 1, "seed": 0,
             "holdout_deals": 0, "holdout_seed": 0}
#: largest allowed value of the whole-number parameters that size the work (by name)
PARAM_MAX = {"n_boot": 10_000, "samples": 10_000, "matches": config.MATCH_MAX_COUNT,
             "rules_matches": config.MATCH_MAX_COUNT, "hands": config.HAND_MAX_DEALS,
             "holdout_deals": config.HAND_MAX_DEALS, "max_resolve": config.STUDY_MAX_DEALS,
             "max_deals": config.STUDY_MAX_DEALS, "min_cell": config.STUDY_MAX_DEALS,
             "holdout_every": config.STUDY_MAX_DEALS, "nt_every": config.STUDY_MAX_DEALS,
             "grid_step": config.RULES_MAX_TARGET, "seed": 2**64 - 1, "holdout_seed": 2**64 - 1}


def _param_choices() -> dict:
    from .common import TRUMP_RULES
    from .specials import DEFAULT_RECEIVERS

    from ..strategy.policies import POLICIES

    return {"trump_rule": tuple(TRUMP_RULES), "receivers": tuple(DEFAULT_RECEIVERS), "policies": tuple(POLICIES),
            "bidders": tuple(POLICIES)}


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def check_params(module, params: dict) -> None:
    """Refuse unknown parameters of ``module.run`` and values of the wrong
    kind (that of the default), out of range (:data:`PARAM_MIN`) or not
    among the choices (trump rules, receivers): :class:`StudyError`."""
    sig = inspect.signature(module.run)
    allowed = [p for p in list(sig.parameters)[2:]]
    bad = [k for k in params if k not in allowed]
    if bad:
        raise StudyError(f"unknown parameter(s) {', '.join(str(k)[:40] for k in bad)} for this study; "
                         f"parameters: {', '.join(allowed)}")
    choices = _param_choices()
    for key, value in params.items():
        default = sig.parameters[key].default
        if default is not inspect.Parameter.empty and default is not None:
            want = _kind(default)
            got = _kind(value)
            ok = got == want or (want == "a number" and got == "a whole number")
            if not ok:
                raise StudyError(f"parameter {key} must be {want} (default {default!r}), got {_short(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise StudyError(f"parameter {key} must be a finite number, got {value!r}")
        if key in PARAM_MIN:
            top = PARAM_MAX.get(key)
            if _kind(value) != "a whole number" or value < PARAM_MIN[key] or (top is not None and value > top):
                within = f"from {PARAM_MIN[key]} to {top:,}" if top is not None else f">= {PARAM_MIN[key]}"
                raise StudyError(f"parameter {key} must be a whole number {within}, got {_short(value)}")
        if key in choices:
            values = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else [value]
            wrong = [v for v in values if not isinstance(v, str) or v not in choices[key]]
            if wrong or not values:
                raise StudyError(f"parameter {key}: {', '.join(map(_short, wrong)) or 'empty'} not among "
                                 f"{', '.join(choices[key])}")


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
    the others are removed and :class:`kaiser_sim.output_dir.OutputError`
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
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
        note = df.attrs.get("note")
        text = f"# {name}\n\n" + (f"{note}\n\n" if note else "") + to_markdown(df)
        if df.attrs.get("footer"):
            text += f"\n_{df.attrs['footer']}_\n"
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
    tables: dict
    figures: dict
    files: list[str]
    inputs: dict


def run_study(definition: StudyDefinition, out, results: pd.DataFrame | None = None, from_path=None,
              rules: Rules | None = None, progress=None, workers: int | None = None,
              write: bool = True, force: bool = False) -> StudyOutput:
    """Run one study end to end: obtain results, ``run``, ``plot``, write.

    ``rules`` (for scoring) defaults to the rules recorded with the results,
    else the definition's; with ``results`` or ``from_path`` the deals come
    from there (their seed and n are recorded), else ``definition.deals``
    deals are simulated with ``definition.seed`` into ``out/results``.

    Everything is checked before any work (the definition, the parameters,
    the rules, that ``from_path`` holds points values, that ``out`` can be
    written); a run that fails leaves nothing it created behind (files
    written, directories made, deals simulated).  ``force``: deals already
    simulated into ``out/results`` are simulated again (``study --force``).
    """
    module = get_study(definition.study)
    check_params(module, definition.params)
    simulating = results is None and from_path is None
    if not getattr(module, "USES_RESULTS", True):
        if results is not None or from_path is not None:
            raise StudyError(f"study {definition.study} plays matches: it reads no results dataset (no --from)")
        rules = rules or definition.make_rules()
        if write:
            with _refused_as_study():
                check_output_dir(out)
        with removed_on_failure(out):
            return _run_match_study(module, definition, out, rules, write)
    t0 = time.time()
    source = str(from_path) if from_path is not None else ("a DataFrame given" if results is not None else None)
    with _refused_as_study():
        if results is not None:
            check_points(results, None)
            meta = results.attrs.get("kaiser_sim", {}) or {}
        elif from_path is not None:
            meta = check_results_path(from_path)
        else:
            meta = {}
        rules = rules or results_rules(meta, source) or definition.make_rules()
        if write or simulating:
            check_output_dir(out)
    with removed_on_failure(out, Path(out) / "results"):
        with _refused_as_study():
            if results is None and from_path is not None:
                results = obtain_results(from_path)
                meta = results.attrs.get("kaiser_sim", {}) or {}
            if results is None:
                results = obtain_results(None, definition.deals, definition.seed, rules, out, progress, workers, force)
                meta = results.attrs.get("kaiser_sim", {}) or {}
                source = str(Path(out) / "results")
            run_rules = results_rules(meta, source)
        if run_rules is not None and (run_rules.hand_size, run_rules.deck34) != (rules.hand_size, rules.deck34):
            raise StudyError(f"the results were dealt for rules '{run_rules.label}' (hand size {run_rules.hand_size}), "
                             f"not for '{rules.label}'")
        return _finish_study(module, definition, out, results, meta, source, rules, t0, write)


@contextmanager
def _refused_as_study():
    """A refusal of the run services (:class:`kaiser_sim.runs.services.RunServiceError`:
    results that cannot be read or simulated, an output directory that cannot
    be written) raised again as the study's :class:`StudyError`, same message."""
    try:
        yield
    except RunServiceError as e:
        raise StudyError(str(e)) from None


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
        "n": int(next(iter(tables.values())).attrs.get("run", {}).get("n", len(results))) if tables else int(len(results)),
        "results": source,
        "rules": rules.to_dict(),
        "version": __version__,
        "seconds": {"results": round(t1 - t0, 1), "study": round(t2 - t1, 1)},
    }
    if source_date_epoch() is not None:  # reproducible: no wall-clock times in the files
        inputs.pop("seconds")
    files = write_outputs(tables, figures, out, inputs) if write else []
    return StudyOutput(tables, figures, files, inputs)


def _run_match_study(module, definition: StudyDefinition, out, rules: Rules | None, write: bool) -> StudyOutput:
    """A study that plays matches (``USES_RESULTS = False``): no results
    dataset; the definition's seed seeds the matches, ``deals`` is unused."""
    t0 = time.time()
    params = dict(definition.params)
    params.setdefault("seed", definition.seed)
    tables = module.run(None, rules, **params)
    figures = module.plot(tables)
    info = next(iter(tables.values())).attrs.get("run", {})
    inputs = {
        "study": definition.study,
        "definition": definition.source,
        "description": definition.description,
        "params": params,
        "seed": params["seed"],
        "n": int(info.get("n", 0)),
        "unit": "matches",
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
           "write_outputs", "to_markdown", "parse_param", "read_toml", "ANALYSES_DIR"]
