"""The make-probability model of the bidding policies: what a player can
expect its side to take, from its own 8 cards only (no peeking).

A policy at the table sees one hand.  This model turns that hand into a
probability distribution of the side's double-dummy raw points (-2..12)
when this seat declares (leads) in a given strain, learnt from a
simulation dataset (``kaiser-sim simulate``: the columns ``pts_<seat>_<strain>``
and the hands):

1. a linear "Kaiser count" per strain kind (``trump``: one of the four
   suits is trump; ``nt``: no trump) on the features of
   :func:`kaiser_sim.hands.features` (A K Q J T in trump and
   in side suits, trump length, the 5H, the 3S; for NT the "trump" is the
   longest suit), fitted by least squares: the predicted mean points;
2. the hands are cut into equal-count bins of that prediction
   (quantiles), and in each bin the empirical distribution of the actual
   raw points is kept.  ``P(points = r | hand)`` is the distribution of the
   hand's bin.

The fitted table ships as package data (``kaiser_sim/data/make_model.csv``,
the counts per kind and bin, and ``make_model.json``, the coefficients,
the bin edges, the straight-line fits of the heuristic counts and the
provenance: dataset seed, deals, rules, package version).  Rebuild it with
:func:`build_make_model` or (``--out DIR`` instead of ``--replace-shipped``
to write a copy elsewhere)::

    kaiser-sim simulate --deals 20000 --seed 1 --out runs/model
    kaiser-sim make-model runs/model --replace-shipped

Caveats: the deals of the dataset are random, so the model knows nothing
of the auction (a partner who bid is not a random partner); double dummy
is not table play; the bins pool hands of similar predicted strength.

Example
-------
>>> from kaiser_sim.strategy.make_model import load_make_model
>>> m = load_make_model()
>>> from kaiser_sim.cards import parse_hand
>>> d = m.dist([int(parse_hand("AKQJ.5.A.A"))], trump=0)   # spades trump
>>> round(float(d[0] @ m.raw_values), 1) > 8
True
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..errors import KaiserSimError
from .. import __version__

if TYPE_CHECKING:
    from ..runs.results import RunResults

#: the values a side's raw points can take, in the columns of a distribution
RAW_VALUES = np.arange(-2, 13)
DATA_DIR = Path(__file__).resolve().parents[1] / "data"
MODEL_CSV = DATA_DIR / "make_model.csv"
MODEL_JSON = DATA_DIR / "make_model.json"
KINDS = ("trump", "nt")
#: equal-count bins of the predicted points, per kind
DEFAULT_BINS = {"trump": 60, "nt": 40}
#: heuristic counts of other Kaiser programs, fitted as straight lines on the dataset
HEURISTICS = ("rank-squared", "trump-heuristic")


class MakeModelError(KaiserSimError):
    """A model file that cannot be read, or a dataset that cannot build one."""


@dataclass(frozen=True, eq=False)  # hashed by identity: a cache key of the win table
class MakeModel:
    """Distribution of the declaring side's raw points from the declarer's hand.

    coef : ``{kind: (n_features,) array}`` of the linear count.
    edges : ``{kind: (bins-1,) array}`` inner edges of the prediction bins.
    probs : ``{kind: (bins, 15) array}`` P(raw = r) per bin, r = -2..12.
    lines : ``{heuristic: (slope, intercept)}`` straight-line fit of the
        heuristic counts to the points in the trump named by rule.
    meta : provenance (dataset seed, deals, rules, version, how built).
    """

    coef: dict
    edges: dict
    probs: dict
    lines: dict
    meta: dict

    raw_values = RAW_VALUES

    def predict(self, hands, trump, kind: str = "trump") -> np.ndarray:
        """The linear count: predicted mean points of each hand's side, the
        same to the last bit for a hand whatever the batch (:func:`linear_count`)."""
        from ..hands import features

        hands = np.asarray(hands, dtype=np.uint64).reshape(-1)
        trump = np.broadcast_to(np.asarray(trump, dtype=np.int64), hands.shape)
        return linear_count(features(hands, trump), self.coef[kind])

    def dist(self, hands, trump=None, kind: str | None = None) -> np.ndarray:
        """``(n, 15)`` P(the side takes r raw points), r = -2..12, for each
        hand declaring in suit ``trump`` (0..3), or in no trump with
        ``trump=None`` (``kind`` follows; the NT count's "trump" is the
        longest suit, :func:`kaiser_sim.hands.trump_by_rule`)."""
        kind = kind or ("nt" if trump is None else "trump")
        return self.probs[kind][self.bin_index(hands, trump, kind)]

    def bin_index(self, hands, trump=None, kind: str | None = None) -> np.ndarray:
        """``(n,)`` the prediction bin of each hand (the row of ``probs[kind]``
        that :meth:`dist` returns; arguments as there)."""
        from ..hands import trump_by_rule

        hands = np.asarray(hands, dtype=np.uint64).reshape(-1)
        kind = kind or ("nt" if trump is None else "trump")
        if kind == "nt":
            trump = trump_by_rule(hands, "longest-strength")
        return prediction_bins(self.edges[kind], self.predict(hands, trump, kind))


#: a prediction this close below a bin's edge is on the edge (the bin above), as it is exactly
EDGE_TOLERANCE = 1e-9


def linear_count(X, coef) -> np.ndarray:
    """``X @ coef`` summed feature by feature in a fixed order: each hand's
    value is the same to the last bit whatever the batch it is in.  A matrix
    product's rounding depends on the batch's size (its kernel's blocking),
    and the features take few values, so many hands sit exactly on a bin's
    edge: a last-bit difference moved a hand between bins, and its call with
    it, by how many hands were asked at once."""
    X = np.asarray(X, dtype=np.float64)
    out = np.zeros(X.shape[0])
    for j, c in enumerate(np.asarray(coef, dtype=np.float64)):
        out += X[:, j] * c
    return out


def prediction_bins(edges, pred) -> np.ndarray:
    """The bin of each prediction: above the edges it reaches, a prediction
    within :data:`EDGE_TOLERANCE` of an edge counting as on it (rounding
    never moves a hand to the bin below)."""
    return np.searchsorted(edges, np.asarray(pred) + EDGE_TOLERANCE, side="right")


def _heuristic_values(hands, trump):
    from ..hands import heuristic, rank_squared

    return {"rank-squared": rank_squared(hands), "trump-heuristic": heuristic(hands, trump)}


def heuristic_value(name: str, hands, trump) -> np.ndarray:
    """The heuristic count ``name`` (:data:`HEURISTICS`) of each hand."""
    return _heuristic_values(np.asarray(hands, dtype=np.uint64).reshape(-1), trump)[name]


def build_make_model(run_results: RunResults, bins: dict | None = None, source: str = "") -> MakeModel:
    """Fit the model on a run's results (:func:`kaiser_sim.runs.results.load_run`,
    points mode, standard deck): every seat of every deal as declarer, in
    each of the four suits (kind ``trump``) and in no trump (kind ``nt``).
    The model's provenance records the run's seed and rules (its run metadata)."""
    from ..hands import features, trump_by_rule
    from ..runs.results import dd_array, hands_array

    results = run_results.frame
    bins = dict(DEFAULT_BINS, **(bins or {}))
    if len(results) < 100:
        raise MakeModelError(f"{len(results)} deals are too few to fit a make model (at least 100)")
    hands = hands_array(results).reshape(-1)  # (4n,) seat-major within a deal
    pts = dd_array(results, "points")[:, :, :5].astype(np.int64).reshape(-1, 5)
    coef, edges, probs = {}, {}, {}
    for kind in KINDS:
        if kind == "trump":
            h = np.repeat(hands, 4)
            t = np.tile(np.arange(4), hands.size)
            y = pts[:, :4].reshape(-1)
        else:
            h, t, y = hands, trump_by_rule(hands, "longest-strength"), pts[:, 4]
        X = features(h, t)
        c, *_ = np.linalg.lstsq(X, y.astype(np.float64), rcond=None)
        pred = linear_count(X, c)
        k = int(bins[kind])
        e = np.quantile(pred, np.arange(1, k) / k)
        which = prediction_bins(e, pred)
        counts = np.zeros((k, RAW_VALUES.size))
        np.add.at(counts, (which, y.astype(np.int64) - RAW_VALUES[0]), 1)
        coef[kind], edges[kind], probs[kind] = c, e, counts
    # every seat as declarer, trump named by the default rule (the studies' declarer frame)
    trump = trump_by_rule(hands)
    y = pts[np.arange(hands.size), trump].astype(np.float64)
    lines = {}
    for name, v in _heuristic_values(hands, trump).items():
        slope, intercept = np.polyfit(v, y, 1)
        lines[name] = (float(slope), float(intercept))
    meta = run_results.metadata
    prov = {"source": source, "seed": meta.get("seed"), "deals": int(len(results)),
            "rules": (meta.get("rules") or {}).get("label", "standard") if isinstance(meta.get("rules"), dict)
            else "standard", "version": __version__, "built_by": "kaiser_sim.strategy.make_model.build_make_model",
            "declarer_hands": int(hands.size), "bins": bins}
    return MakeModel(coef, edges, {k: v / v.sum(axis=1, keepdims=True) for k, v in probs.items()}, lines,
                     dict(prov, counts=probs))


#: how messages name the two files (the command line gives its option names)
OUTPUT_LABELS = ("the make model's counts table", "the make model's coefficients")


def check_outputs(csv_path=MODEL_CSV, json_path=MODEL_JSON, labels=OUTPUT_LABELS) -> None:
    """:class:`MakeModelError` unless both files can be written (their
    directories created; an existing one is a regular file, never a device
    or a directory; not inside a results dataset) and they are two
    different files.  Leaves nothing behind.  ``labels`` name the two files
    in the messages (the command line's option names)."""
    from ..runs.results import check_output

    for label, path in zip(labels, (csv_path, json_path)):
        if not str(path).strip():
            raise MakeModelError(f"{label}: the file name is empty")
        try:
            check_output(path, file=True)
        except OSError as e:
            raise MakeModelError(f"{label} {path}: cannot write there ({e.strerror or e})") from None
    if os.path.realpath(csv_path) == os.path.realpath(json_path):
        raise MakeModelError(f"{labels[0]} {csv_path} and {labels[1]} {json_path} are the same file: "
                             "give two file names")


def save_make_model(model: MakeModel, csv_path=MODEL_CSV, json_path=MODEL_JSON) -> None:
    """Write the counts table (CSV) and coefficients + provenance (JSON),
    both or neither: each goes to a hidden file beside it, and the two are
    renamed into place only when both are written.  An existing file of
    either name must be a regular file (a device, a FIFO or a directory is
    refused, never replaced); the two must differ.  A failure raises
    :class:`~kaiser_sim.runs.output_dir.OutputError` and leaves no new file (nor
    a directory made for one) behind."""
    from ..hands import FEATURES
    from ..runs.output_dir import OutputError, removed_on_failure, write_files_atomic

    counts = model.meta["counts"]
    rows = []
    for kind in KINDS:
        e = np.concatenate([[-np.inf], model.edges[kind], [np.inf]])
        for b, c in enumerate(counts[kind]):
            rows.append({"kind": kind, "bin": b, "pred_lo": e[b], "pred_hi": e[b + 1], "n": int(c.sum()),
                         **{f"r{r}": int(x) for r, x in zip(RAW_VALUES, c)}})
    table = pd.DataFrame(rows)
    prov = {k: v for k, v in model.meta.items() if k != "counts"}
    doc = {"what": "make-probability model of kaiser_sim.strategy.make_model (counts in make_model.csv)",
           "provenance": prov, "features": list(FEATURES),
           "coef": {k: [float(x) for x in model.coef[k]] for k in KINDS},
           "heuristic_lines": {k: list(v) for k, v in model.lines.items()}}
    text = json.dumps(doc, indent=2) + "\n"
    csv_path, json_path = Path(csv_path), Path(json_path)
    if os.path.realpath(csv_path) == os.path.realpath(json_path):
        raise MakeModelError(f"the make model's counts table and coefficients would both be {csv_path}")
    with removed_on_failure(csv_path.parent, json_path.parent):
        try:
            for p in (csv_path, json_path):
                p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise OutputError(f"cannot write the make model in {p.parent}: {e.strerror or e}") from None
        write_files_atomic({csv_path: lambda tmp: table.to_csv(tmp, index=False),
                            json_path: lambda tmp: tmp.write_text(text, encoding="utf-8")})


def read_make_model(csv_path=MODEL_CSV, json_path=MODEL_JSON) -> MakeModel:
    """Read a model written by :func:`save_make_model`."""
    try:
        doc = json.loads(Path(json_path).read_text(encoding="utf-8"))
        table = pd.read_csv(csv_path)
    except (OSError, ValueError) as e:
        raise MakeModelError(f"cannot read the make model ({csv_path}, {json_path}): {e}") from None
    from ..hands import FEATURES

    if doc.get("features") != list(FEATURES):
        raise MakeModelError(f"{json_path} was fitted on other hand features than kaiser_sim.hands'; "
                             "rebuild it (kaiser-sim make-model RESULTS)")
    cols = [f"r{r}" for r in RAW_VALUES]
    coef, edges, probs = {}, {}, {}
    for kind in KINDS:
        t = table[table["kind"] == kind].sort_values("bin")
        c = t[cols].to_numpy(dtype=np.float64)
        coef[kind] = np.asarray(doc["coef"][kind], dtype=np.float64)
        edges[kind] = t["pred_lo"].to_numpy(dtype=np.float64)[1:]
        probs[kind] = c / c.sum(axis=1, keepdims=True)
    lines = {k: tuple(v) for k, v in doc["heuristic_lines"].items()}
    return MakeModel(coef, edges, probs, lines, doc["provenance"])


@functools.lru_cache(maxsize=1)
def load_make_model() -> MakeModel:
    """The shipped model (``kaiser_sim/data/make_model.*``), read once."""
    return read_make_model()


def rebuild(results_path, csv_path=None, json_path=None, labels=OUTPUT_LABELS) -> str:
    """Fit the model on the results dataset at ``results_path`` and write it
    (default: over the shipped files; the command line writes them only
    with ``--replace-shipped``); the line ``kaiser-sim make-model``
    prints.  The outputs are checked first (:func:`check_outputs`, its
    messages naming them by ``labels``)."""
    from ..runs.results import load_run

    csv_path = MODEL_CSV if csv_path is None else csv_path
    json_path = MODEL_JSON if json_path is None else json_path
    check_outputs(csv_path, json_path, labels)  # before the fit
    run_results = load_run(results_path)
    n, seed = len(run_results.frame), run_results.seed
    src = f"kaiser-sim simulate --deals {n} --seed {seed} --rules standard"
    model = build_make_model(run_results, source=src)
    save_make_model(model, csv_path, json_path)
    return f"make model from {n:,} deals (seed {seed}) -> {csv_path}, {json_path}"
