"""What the studies and the report ask of the runs: a results dataset checked and loaded, or simulated for them.

A study (:mod:`kaiser_sim.studies.runner`) and the report
(:mod:`kaiser_sim.report`) work on a results frame with points values: read
from a dataset (``--from``) or simulated into ``OUT/results``.  The services
here check a dataset before it is loaded (:func:`check_results_path`: a
``--mode tricks`` run is refused before its rows are read), read the rules
recorded with it (:func:`results_rules`), load or simulate it
(:func:`obtain_results`) and check the output directory before any work
(:func:`check_output_dir`).  What the report's studies and sections then
read is one :class:`StudyData`: the results with the rules they are scored
under, given once.

Their refusals are :class:`RunServiceError`, or the run layer's own errors
raised as they are (:class:`~kaiser_sim.runs.results.ResultsError`,
:class:`~kaiser_sim.runs.spec.SimulateError`): every one a
:class:`~kaiser_sim.errors.KaiserSimError` whose message is the whole of it
(no ``kaiser-sim simulate`` hint: a command that simulates for itself has
its own options).  The studies and the report let them pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import KaiserSimError
from ..rules import STANDARD, Rules, RulesError

if TYPE_CHECKING:
    import pandas as pd

    from .results import RunResults

#: what a results dataset without points values lacks
POINTS_NEEDED = "the studies need points (simulate --mode points or both)"


class RunServiceError(KaiserSimError):
    """Results the studies or the report cannot use (a dataset that cannot be
    read or holds no points values, rules recorded with it that cannot be
    read, a simulation that cannot run), or an output directory that cannot
    be written; the message says why."""


@dataclass(frozen=True)
class StudyData:
    """What the studies of one report read: the run (a results frame with
    points values and its run metadata), the rules every study scores it
    under (those it was dealt under, or others of the same hand size and
    deck) and where it comes from, in words for the report (a path, or why
    the deals were not kept)."""

    run: RunResults
    rules: Rules
    source: str

    @property
    def results(self) -> pd.DataFrame:
        """The results frame (one row a deal)."""
        return self.run.frame

    @property
    def seed(self):
        """The seed the results were dealt with (None when they record none)."""
        return self.run.seed


def check_results_path(from_path) -> dict:
    """The run metadata of the results dataset ``from_path``, read without
    loading it; :class:`~kaiser_sim.runs.results.ResultsError` if it is not a
    readable results dataset, :class:`RunServiceError` if it holds no points
    values (a ``--mode tricks`` run)."""
    from .results import read_metadata

    meta = read_metadata(from_path)
    if meta.get("mode") == "tricks":
        raise RunServiceError(f"{from_path}: this dataset has tricks values only; {POINTS_NEEDED}")
    return meta


def check_points(results: pd.DataFrame, source) -> None:
    """:class:`RunServiceError` unless the results frame holds the points columns."""
    if "pts_N_S" not in results.columns:
        what = "tricks values only" if "trk_N_S" in results.columns else "no points columns"
        raise RunServiceError(f"{source or 'the results'}: this dataset has {what}; {POINTS_NEEDED}")


def results_rules(meta: dict, source) -> Rules | None:
    """The rules recorded with a results dataset (None if none are);
    :class:`RunServiceError` if they cannot be read."""
    if not meta.get("rules"):
        return None
    try:
        return Rules.from_dict(meta["rules"])
    except RulesError as e:
        raise RunServiceError(f"{source or 'the results'}: the rules recorded with them cannot be read: {e}") from None


def obtain_results(from_path=None, deals: int | None = None, seed: int | None = None, rules: Rules = STANDARD,
                   out=None, progress=None, workers: int | None = None, force: bool = False) -> RunResults:
    """The results and their run metadata: ``load_run(from_path)``, or a new points-mode run
    (under cover 3 points and tricks: ``--mode both``, the tricks that score it)
    of ``deals`` deals (seed, rules) simulated into ``out/results`` (resumed
    if a run with the same inputs is already there; started over if
    ``force``, the command's ``--force``).  A dataset without points values
    (``--mode tricks``) is refused before it is loaded.  A refusal is a
    :class:`RunServiceError`, or the run layer's
    :class:`~kaiser_sim.runs.results.ResultsError` /
    :class:`~kaiser_sim.runs.spec.SimulateError` as it is (with ``--force``
    named when a run already there is the one refused)."""
    from .results import ResultsError, load_run
    from .simulate import simulate
    from .spec import ResumeMismatch, SimulateError

    if from_path is not None:
        check_results_path(from_path)
        results = load_run(from_path)
        check_points(results.frame, from_path)
        return results
    path = Path(out) / "results"
    existing = (path / "_common_metadata").is_file()
    try:
        # cover 3 scores each side from its tricks: its runs store them too (the ladder solves both at ~1.2x)
        simulate(path, deals, seed, mode="both" if rules.cover3 else "points", rules=rules, resume=existing and not force,
                 force=existing and force, progress=progress, workers=workers)
        return load_run(path)
    except ResumeMismatch as e:
        raise RunServiceError(f"{path} holds a run with other options: " + "; ".join(e.clashes)
                              + ". Give --force to simulate it again with these, or another --out") from None
    except (SimulateError, ResultsError) as e:
        if not existing:
            raise
        raise RunServiceError(f"{e} (give --force to simulate {path} again)") from None


def check_output_dir(out) -> None:
    """:class:`RunServiceError` unless the output directory ``out`` can be
    created and written and is not a results dataset or inside one (checked
    before any work; nothing is left behind)."""
    from .results import check_output

    try:
        check_output(out)
    except OSError as e:
        raise RunServiceError(f"--out {out}: cannot write there ({e.strerror or e})") from None


__all__ = ["StudyData", "RunServiceError", "check_results_path", "check_points", "results_rules", "obtain_results",
           "check_output_dir", "POINTS_NEEDED"]
