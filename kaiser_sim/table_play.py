"""The table-play model: from double-dummy points to points at a real table.

Every value the solver gives is double dummy (DD): all four hands visible,
best play by both sides.  At a table nobody sees the other hands, and the
declaring side takes less.  This model turns a DD value into the
distribution of the points the declaring side takes when the deal is played
out by players who see only their own hand and the cards played: the PIMC
players of :mod:`kaiser_sim.dd.pimc` (each turn they deal the unseen cards
``K`` times consistently with what they know, score each of their cards
double dummy on every layout and play the best on average).

The model
---------
For each strain kind (``trump``: a suit is trump; ``NT``: no trump) and each
DD value ``v`` of the declaring side (-2..12), ``P(table points = t | DD =
v, kind)``, estimated from played contracts (``kaiser-sim simulate --play
K``: one contract a deal, the declarer rotating with the deal, trump by the
rule from the declarer's hand, no trump on every third deal):

1. the contracts with DD value ``v`` give the distribution of the shift
   ``t - v``; where fewer than :data:`MIN_ROWS` contracts have that value,
   the neighbouring values are pooled (``|DD - v| <= h``, the smallest ``h``
   that reaches :data:`MIN_ROWS`) and their shifts applied to ``v`` (points
   outside -2..12 are put at the nearest end);
2. monotone by construction: for every bid ``b``, ``P(t >= b | v)`` is made
   non-decreasing in ``v`` (weighted isotonic regression over ``v``), then
   non-increasing in ``b``; so more DD points never give fewer table points,
   in distribution and in expectation.

A DD study turns its rows into table-play estimates by averaging the
model's distribution over its rows' DD values
(:meth:`TablePlayModel.make_prob`, :meth:`TablePlayModel.expected`,
:meth:`TablePlayModel.dist`).  The model is itself an estimate from a
sample of played contracts, so the intervals of table-play estimates add
its error to the deals' sampling error: the model keeps the joint counts of
(DD points, played points) it was fitted on, and
:meth:`TablePlayModel.replicates` refits it on bootstrap resamples of them
(multinomial, per strain kind); the spread of an estimate over the
replicates is the model's standard error (:func:`model_se`).  Its held-out
check is in :attr:`validation`.

The model's features, and why these
-----------------------------------
The model knows a contract through two features only: its DD value ``v``
(the one number that sums up both sides' cards under best play: the
table's shortfall grows with what the declarer has to find) and its strain
kind (no trump plays differently: nothing stops a long suit, so the shift
from DD is larger).  Few features keep every row fitted on hundreds of
contracts (:data:`MIN_ROWS`) and monotone, and let every study apply it to
DD values it already has, without a hand in view.  The price is that for
one hand it can be far off: it knows neither which winners are sure nor
how hard the hand is to play.  Two additions make it fit the hand in front
of the player (the hand advisor, :class:`HandTablePlay`):

Bounds: never impossible, never above the cards
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
For each deal and strain :func:`kaiser_sim.dd.play_bounds.strain_bounds`
gives ``lo <= DD <= hi``: ``lo`` what the declarer takes from its sure
tricks whatever the other three (partner included) do, ``hi`` the most the
side can take if all four help it (all the points in play when the side
cannot lose a trick, else every trick but the one holding the 3S).  The
model's distribution of the deal is clipped to them (:func:`restrict`): the
mass below ``lo`` is put at ``lo`` and the mass above ``hi`` at ``hi``.
Clipping, not renormalising: the model's spread is a shortfall (or excess)
from DD; where the cards forbid it, play ends at the nearest outcome the
cards allow, so the mass belongs at the bound.  It also keeps the model's
monotonicity (a clipped variable is a monotone function of it), works when
the model puts no mass inside the bounds at all, and when ``lo == hi``
gives that value for sure: a hand that takes every trick whatever anyone
does reads the same in table play as DD (``AKQJ.A.AK.A`` in no trump: 10,
where the model alone spread DD 10 over 7..12).  The bounds are about the
cards: ``lo`` assumes the declarer cashes its sure tricks (drawing trumps
first), which a PIMC declarer nearly always does but is not forced to;
where it does not, the clipped model is too high for that deal, and in the
played strains the correction below takes it out.

The hand in front of you: its own play as a control variate
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Bounds fix the impossible, not the bias: a hand harder (or easier) to play
than its DD value says stays off.  So the advisor also plays a seeded
subsample of its own deals out with PIMC players at the model's K
(:meth:`HandTablePlay.with_play`; :data:`kaiser_sim.config.TABLE_PLAY_CHECK_DEALS`
deals, half from the even and half from the odd rows, in the chosen trump
and in no trump) and reports, for every table-play number ``E f(t)``
(mean points, P(make b), a bid's expected score), the control-variate
estimate: the model's mean over all deals + the mean over the played
deals of (``f(played)`` - the model's ``E f`` of that deal).  Its
expectation is the played value's whatever the model's error, so it is
unbiased for the hand; the model only removes the part of the deal-to-deal
spread it predicts.  It is computed as one value per deal (the model's
value, plus on a played deal the residual times (deals of its parity) /
(played deals of its parity)), so the advisor's means and iid intervals
over deals -- clustered by deal, one value a deal -- carry it unchanged
(variance: the model's spread over the deals / n + the residuals' / the
played deals).  The residuals' spread (about 2 points) makes the intervals
of the two played strains wider than the model's alone (at 48 deals about
+-0.45 to +-1.0 points in the mean and +-0.05 to +-0.16 in a make
probability, against +-0.1 and +-0.01 for the model alone): that is the
honest width.  ``benchmarks/results/table_play_panel.md`` checks it on 32
hands (sure winners, weak, long trumps, each special in or out, NT; 64
hand-strain pairs, 512 comparisons of the mean and of P(make b), b =
6..12) against direct play of 200 other deals of each hand: the advisor
agrees within the interval of the difference in 489 of them, 95.5% (an
unbiased estimate: about 95%; the mean alone in 62 of 64), the model alone
in 347, 67.8% (the mean in 35 of 64).  The other strains get the bounded
model only (no play: their numbers say less about the hand; ``play.check``
in the JSON names the played strains).  A
corrected make probability is not forced to fall with the bid (each
level's correction is its own estimate); a difference between levels
smaller than their intervals is noise.

What the model is not
---------------------
PIMC players cannot signal, do not draw inferences from how the others
play (only from the cards seen and the suits shown out of), and assume that
every unseen card is where double dummy would play it best once the
layout is drawn ("strategy fusion").  They are a model of competent play
without conventions, not of people; real tables with good signalling
partnerships may do better, weaker tables worse.  The model's sensitivity to
K and to the players is measured when it is built (:attr:`validation`).

The model ships as package data (``kaiser_sim/data/table_play_model.json``:
the probabilities, the counts behind them, the provenance: seed, deals, K,
rules, contract design, package version, and the validation tables).
``kaiser-sim table-play-model`` rebuilds it (:func:`build_model`).

Every game
----------
Rules that change the play have their own models, fitted the same way on
their own play (:func:`build_variant_model`, ``kaiser-sim table-play-model
--rules PRESET``; :data:`VARIANT_MODELS`: ``table_play_model_<game>.json``
for the two kitties, low no trump and cover 3): a kitty taken up and
discarded by a PIMC declarer who sees only its own cards
(:func:`kaiser_sim.dd.pimc.pimc_discard`; held-out files also compare that
discard with double dummy's best, :func:`discard_check`), low no trump on
every other NT deal (pooled into the NT rows), cover 3 scored on the played
line against the contract's cover-3 DD value.  :func:`load_model` with
``rules`` picks the model of the rules' game (:func:`play_key`), or the
nearest where none is built (:func:`model_file` says which).
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cards import Strain
from .errors import KaiserSimError
from . import __version__, config
from .runs.spec import CONTRACTS, NT_EVERY, play_contracts  # noqa: F401  (the play runs' contract design)

#: the declaring side's raw points (standard game): the values of the model's axes
POINTS = np.arange(-2, 13)
KINDS = ("trump", "NT")
#: fewest contracts behind one DD value's distribution before neighbours are pooled
MIN_ROWS = 150
DATA_DIR = Path(__file__).resolve().parent / "data"
MODEL_FILE = DATA_DIR / "table_play_model.json"
#: the rules options that change the play; the model holds only where they match
PLAY_RULES = ("hand_size", "deck34", "kitty", "low_nt", "cover3")


class TablePlayError(KaiserSimError):
    """The model cannot be applied (rules it was not fitted for) or built."""


def _pava(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted least-squares non-decreasing fit of ``y`` (pool adjacent violators)."""
    vals, wts, sizes = [], [], []
    for yi, wi in zip(y.tolist(), w.tolist()):
        vals.append(yi)
        wts.append(wi)
        sizes.append(1)
        while len(vals) > 1 and vals[-2] > vals[-1]:
            tw = wts[-2] + wts[-1]
            v = (vals[-2] * wts[-2] + vals[-1] * wts[-1]) / tw if tw > 0 else (vals[-2] + vals[-1]) / 2
            vals[-2:], wts[-2:], sizes[-2:] = [v], [tw], [sizes[-2] + sizes[-1]]
    return np.repeat(vals, sizes)


def joint_counts(dd, table) -> np.ndarray:
    """(15, 15) counts of (DD points, played points) over :data:`POINTS`."""
    dd = np.asarray(dd, dtype=np.int64)
    table = np.asarray(table, dtype=np.int64)
    k = len(POINTS)
    if dd.size and (min(dd.min(), table.min()) < POINTS[0] or max(dd.max(), table.max()) > POINTS[-1]):
        raise TablePlayError(f"points outside {POINTS[0]}..{POINTS[-1]}")
    return np.bincount((dd - POINTS[0]) * k + (table - POINTS[0]), minlength=k * k).reshape(k, k)


def fit_counts(joint, min_rows: int = MIN_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fit_kind` from the (15, 15) joint counts of one kind."""
    joint = np.asarray(joint, dtype=np.int64)
    k = len(POINTS)
    i, j = np.nonzero(joint)
    reps = joint[i, j]
    return fit_kind(np.repeat(POINTS[i], reps), np.repeat(POINTS[j], reps), min_rows)


def fit_kind(dd, table, min_rows: int = MIN_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """``(prob (15, 15), counts (15,))`` of one strain kind (module doc):
    ``prob[i, j] = P(table = POINTS[j] | DD = POINTS[i])``."""
    dd = np.asarray(dd, dtype=np.int64)
    table = np.asarray(table, dtype=np.int64)
    if dd.size == 0:
        raise TablePlayError("no played contracts to fit")
    k = len(POINTS)
    counts = np.array([(dd == v).sum() for v in POINTS], dtype=np.int64)
    shift = table - dd
    prob = np.zeros((k, k))
    for i, v in enumerate(POINTS):
        h = 0
        while (np.abs(dd - v) <= h).sum() < min(min_rows, dd.size):
            h += 1
        t = np.clip(v + shift[np.abs(dd - v) <= h], POINTS[0], POINTS[-1])
        prob[i] = np.bincount(t - POINTS[0], minlength=k) / t.size
    # monotone: survival P(t >= b | v) non-decreasing in v (weights: the contracts behind each row) ...
    surv = prob[:, ::-1].cumsum(axis=1)[:, ::-1]  # surv[i, j] = P(t >= POINTS[j] | v_i)
    w = counts + 1.0
    for j in range(k):
        surv[:, j] = _pava(surv[:, j], w)
    # ... and non-increasing in b (a minimum of non-decreasing functions of v stays non-decreasing)
    surv = np.minimum.accumulate(surv, axis=1)
    surv[:, 0] = 1.0
    prob = surv - np.append(surv[:, 1:], np.zeros((k, 1)), axis=1)
    return np.clip(prob, 0.0, 1.0), counts


@dataclass
class TablePlayModel:
    """``prob[kind, i, j] = P(table points = POINTS[j] | DD points = POINTS[i],
    kind)``, kind 0 trump, 1 NT (module doc)."""

    prob: np.ndarray  # (2, 15, 15)
    counts: np.ndarray  # (2, 15): played contracts with each DD value
    provenance: dict
    validation: dict = field(default_factory=dict)
    #: (2, 15, 15) counts of (DD points, played points) the model was fitted on (None: not kept)
    joint: np.ndarray | None = None

    def replicates(self, n: int = 40, seed: int = 0) -> list[TablePlayModel]:
        """``n`` models refitted on bootstrap resamples of the fitting
        contracts (multinomial over :attr:`joint`, each kind's total kept),
        for the model's own error (:func:`model_se`); ``[]`` without joint
        counts."""
        if self.joint is None:
            return []
        key = (n, seed)
        cache = self.__dict__.setdefault("_replicates", {})
        if key not in cache:
            rng = np.random.default_rng(seed)
            min_rows = int(self.provenance.get("min_rows", MIN_ROWS))
            out = []
            for _ in range(n):
                probs = []
                for kind in range(2):
                    j = self.joint[kind]
                    draw = rng.multinomial(int(j.sum()), (j / j.sum()).ravel()).reshape(j.shape)
                    probs.append(fit_counts(draw, min_rows)[0])
                out.append(TablePlayModel(np.stack(probs), self.counts, self.provenance))
            cache[key] = out
        return cache[key]

    # --- applying it ---------------------------------------------------------------------
    def _rows(self, dd, nt) -> np.ndarray:
        # a value beyond -2..12 (a cover-3 side with the 3S and under 3 tricks: -3) reads as the nearest end
        dd = np.clip(np.asarray(dd, dtype=np.int64), POINTS[0], POINTS[-1])
        kind = np.broadcast_to(np.asarray(nt, dtype=bool), dd.shape).astype(np.int64)
        return self.prob[kind, dd - POINTS[0]]

    def dist(self, dd, nt) -> np.ndarray:
        """``(..., 15)`` distribution of the table points for each DD value
        (``nt``: no trump, scalar or one per value)."""
        return self._rows(dd, nt)

    def make_prob(self, dd, nt, levels) -> np.ndarray:
        """``(..., len(levels))``: P(table points >= b) for each bid ``b``."""
        lv = np.asarray(levels, dtype=np.int64)
        # the (2 kinds, 15 DD values, bids) table first, then one lookup per hand: the same sums as per
        # hand, without a (hands, bids, 15) array (4 million hands in the edition)
        table = (self.prob[:, :, None, :] * (POINTS[None, None, None, :] >= lv[None, None, :, None])).sum(axis=-1)
        dd = np.clip(np.asarray(dd, dtype=np.int64), POINTS[0], POINTS[-1])
        kind = np.broadcast_to(np.asarray(nt, dtype=bool), dd.shape).astype(np.int64)
        return table[kind, dd - POINTS[0]]

    def expected(self, dd, nt) -> np.ndarray:
        """Expected table points for each DD value."""
        return self._rows(dd, nt) @ POINTS.astype(np.float64)

    def expected_score(self, dd, nt, score) -> np.ndarray:
        """Expected value of ``score`` (a function of raw points, vectorised,
        or a (15,) array over :data:`POINTS`) of the table points."""
        s = np.asarray(score(POINTS) if callable(score) else score, dtype=np.float64)
        return self._rows(dd, nt) @ s

    def matrix(self, nt: bool) -> np.ndarray:
        """The (15, 15) DD -> table matrix of one kind: a distribution of DD
        points (over :data:`POINTS`) times it is the table-play distribution."""
        return self.prob[int(bool(nt))]

    def play_key(self) -> tuple:
        """:func:`play_key` of the rules the model was fitted on (its provenance)."""
        mine = self.provenance.get("rules", {})
        return (mine.get("kitty", "none"), mine.get("low_nt", "off") != "off", bool(mine.get("cover3", False)))

    def check_rules(self, rules) -> None:
        """Refuse rules whose play differs from the model's (:func:`play_key`:
        the kitty, low no trump, cover 3), unless this is the model shipped
        for them (:func:`model_file`: the nearest game's, where none is
        built for theirs): :class:`TablePlayError` names the differences
        and the model to use."""
        key = play_key(rules)
        mine = self.play_key()
        if key == mine or _shipped_key(rules) == mine:
            return
        names = ("kitty", "low_nt", "cover3")
        diff = [n for n, a, b in zip(names, key, mine) if a != b]
        raise TablePlayError(f"the table-play model was fitted on {self.provenance.get('rules_label', 'other')} "
                             f"rules; these rules change the play ({', '.join(diff)}): the model for them is "
                             f"{model_file(rules)[0].name} (load_model(rules=...)), or build one with "
                             f"kaiser-sim table-play-model --rules {_rules_args(rules)} --out FILE")

    def applies_to(self, rules) -> bool:
        try:
            self.check_rules(rules)
        except TablePlayError:
            return False
        return True

    def describe(self) -> str:
        p = self.provenance
        return (f"table-play model: {p.get('deals', '?'):,} deals played by PIMC players (K = {p.get('samples')}), "
                f"seed {p.get('seed')}, rules {p.get('rules_label')}, kaiser-sim {p.get('version')}")

    # --- files ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": "kaiser-sim table-play model", "format_version": 1, "points": POINTS.tolist(),
                "kinds": list(KINDS), "prob": np.round(self.prob, 6).tolist(), "counts": self.counts.tolist(),
                "joint": None if self.joint is None else self.joint.tolist(),
                "provenance": self.provenance, "validation": self.validation}

    def save(self, path) -> None:
        """Write the model to ``path`` (JSON) whole or not at all: into a
        hidden file beside it, renamed over it.  An existing ``path`` must be
        a regular file: a device (/dev/null), a FIFO or a directory is
        refused, never replaced.  A failure raises
        :class:`~kaiser_sim.output_dir.OutputError` (an :class:`OSError`
        naming ``path``) and leaves nothing behind (no hidden file, no
        directory made for it)."""
        from .output_dir import OutputError, removed_on_failure, write_file_atomic

        path = Path(path)
        text = json.dumps(self.to_dict(), indent=1, sort_keys=True) + "\n"
        with removed_on_failure(path.parent):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise OutputError(f"cannot write the table-play model {path}: {e.strerror or e}") from None
            write_file_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))

    @classmethod
    def from_dict(cls, d: dict) -> TablePlayModel:
        if not isinstance(d, dict) or d.get("format") != "kaiser-sim table-play model":
            raise TablePlayError("not a kaiser-sim table-play model")
        prob = np.asarray(d["prob"], dtype=np.float64)
        counts = np.asarray(d["counts"], dtype=np.int64)
        if prob.shape != (2, len(POINTS), len(POINTS)) or counts.shape != (2, len(POINTS)):
            raise TablePlayError("table-play model: wrong shapes")
        if not np.allclose(prob.sum(axis=2), 1.0, atol=1e-4) or (prob < 0).any():
            raise TablePlayError("table-play model: rows are not distributions")
        joint = d.get("joint")
        if joint is not None:
            joint = np.asarray(joint, dtype=np.int64)
            if joint.shape != prob.shape or (joint < 0).any() or (joint.sum(axis=2) != counts).any():
                raise TablePlayError("table-play model: joint counts do not match the counts")
        return cls(prob / prob.sum(axis=2, keepdims=True), counts, dict(d.get("provenance", {})),
                   dict(d.get("validation", {})), joint)

    @classmethod
    def load(cls, path) -> TablePlayModel:
        try:
            text = Path(path).read_text(encoding="utf-8")
            return cls.from_dict(json.loads(text))
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            if isinstance(e, TablePlayError):
                raise
            raise TablePlayError(f"cannot read the table-play model {path}: {e}") from None


def _rule_value(rules, key):
    v = getattr(rules, key)
    return v if isinstance(v, (bool, int, str)) else str(v)


@functools.lru_cache(maxsize=8)
def _load_cached(path: str) -> TablePlayModel:
    return TablePlayModel.load(path)


def model_file(rules=None) -> tuple[Path, str]:
    """``(file, note)``: the shipped model for ``rules`` (default standard).
    The model built for the same game (:func:`play_key`: the kitty, low no
    trump played or not, cover 3) if one is shipped; else the nearest, by
    the kitty first (the deal's shape), then low no trump, then cover 3,
    and ``note`` says what it was built for (a transfer: its held-out
    checks are for that game)."""
    if rules is None:
        return MODEL_FILE, ""
    best = _shipped(rules)
    key = play_key(rules)
    if best[1] == key:
        return best[0], ""
    what = ", ".join(n for n, a, b in zip(("the kitty", Strain.L.noun, "cover 3"), best[1], key) if a != b)
    return best[0], (f"no table-play model is shipped for this game; the {best[2]} model is used (its play differs "
                     f"in {what})")


@functools.lru_cache(maxsize=64)
def _shipped(rules) -> tuple:
    """``(file, play key, label)`` of the shipped model :func:`model_file` picks for ``rules``."""
    from .rules import Rules

    key = play_key(rules)
    shipped = [(MODEL_FILE, play_key(Rules.preset("standard")), "standard")]
    for name, (preset, overrides) in VARIANT_MODELS.items():
        r = Rules.preset(preset).with_overrides(list(overrides))
        shipped.append((DATA_DIR / name, play_key(r), r.label))
    return max(shipped, key=lambda m: (m[1][0] == key[0], m[1][1] == key[1], m[1][2] == key[2]))


def _shipped_key(rules) -> tuple:
    return _shipped(rules)[1]


def load_model(path=None, rules=None) -> TablePlayModel:
    """The shipped table-play model for ``rules`` (:func:`model_file`;
    default the standard game's), or the one at ``path``."""
    if path is None:
        path = model_file(rules)[0]
    return _load_cached(str(Path(path).resolve()))


def model_for(rules) -> tuple[TablePlayModel, str]:
    """``(model, note)``: :func:`load_model` for ``rules`` and
    :func:`model_file`'s note ("" when the model was built for this game)."""
    path, note = model_file(rules)
    return load_model(path), note


@dataclass(frozen=True)
class Measure:
    """The one answer to "table play or double dummy under these rules, and
    why" (:func:`measure_for`), which the advisor, the policies, the match
    engine and the studies all read.  ``requested``: what the caller asked
    for (``"table"`` or ``"dd"``); ``used``: what it gets; ``model``: the
    table-play model (None with double dummy); ``reason``: why double dummy
    although table play was asked for ("" otherwise); ``note``: which game's
    model stands in for the rules' own when none is shipped for them ("")."""

    requested: str
    used: str
    model: "TablePlayModel | None" = None
    reason: str = ""
    note: str = ""

    @property
    def table(self) -> bool:
        return self.used == "table"


def measure_for(rules, requested: str = "table", model=None) -> Measure:
    """The measure under ``rules``: double dummy when ``requested`` is
    ``"dd"``; else table play with ``model`` (default the one shipped for
    the rules' game, :func:`model_file`), or double dummy with the reason
    when that model cannot be read or was fitted on other rules.  Never
    raises for a model that does not hold."""
    if str(requested) == "dd":
        return Measure("dd", "dd")
    note = ""
    try:
        if model is None:
            path, note = model_file(rules)
            model = load_model(path)
        model.check_rules(rules)
    except TablePlayError as e:
        return Measure("table", "dd", None, str(e))
    return Measure("table", "table", model, "", note)


def fit_model(dd, table, nt, provenance: dict, min_rows: int = MIN_ROWS) -> TablePlayModel:
    """Fit both kinds from played contracts: ``dd``, ``table`` (the declaring
    side's DD and played points) and ``nt`` (no trump) per contract."""
    nt = np.asarray(nt, dtype=bool)
    dd, table = np.asarray(dd), np.asarray(table)
    probs, counts, joints = [], [], []
    for kind in (False, True):
        sel = nt == kind
        if not sel.any():
            raise TablePlayError(f"no {'NT' if kind else 'trump'} contracts to fit")
        p, c = fit_kind(dd[sel], table[sel], min_rows)
        probs.append(p)
        counts.append(c)
        joints.append(joint_counts(dd[sel], table[sel]))
    return TablePlayModel(np.stack(probs), np.stack(counts), dict(provenance), joint=np.stack(joints))


def model_se(model: TablePlayModel, estimate, n: int = 40) -> np.ndarray:
    """The table-play model's standard error of ``estimate(model)`` (a
    number or an array): its spread over :meth:`TablePlayModel.replicates`
    (0 when the model keeps no joint counts)."""
    reps = model.replicates(n)
    if not reps:
        return np.zeros_like(np.asarray(estimate(model), dtype=np.float64))
    vals = np.stack([np.asarray(estimate(r), dtype=np.float64) for r in reps])
    return vals.std(axis=0, ddof=1)


# --- one hand's deals: bounds and its own play ------------------------------------------------------

#: ``HandTablePlay.played`` of a (deal, strain) not played
NOT_PLAYED = -100


def restrict(dist, lo, hi) -> np.ndarray:
    """``dist`` (``(..., 15)`` over :data:`POINTS`) with the mass below
    ``lo`` moved to ``lo`` and the mass above ``hi`` moved to ``hi`` (the
    bounds broadcast against ``dist[..., 0]``): the model's distribution of
    a deal clipped to what the deal allows (module doc, "Bounds")."""
    d = np.array(dist, dtype=np.float64, copy=True)
    li = np.asarray(lo, dtype=np.int64)[..., None] - POINTS[0]
    hi_ = np.asarray(hi, dtype=np.int64)[..., None] - POINTS[0]
    idx = np.arange(len(POINTS))
    below = np.where(idx < li, d, 0.0).sum(axis=-1, keepdims=True)
    above = np.where(idx > hi_, d, 0.0).sum(axis=-1, keepdims=True)
    d = np.where((idx < li) | (idx > hi_), 0.0, d)
    d += np.where(idx == li, below, 0.0) + np.where(idx == hi_, above, 0.0)
    return d


class HandTablePlay:
    """Table play of one hand's deals (the hand advisor's): the model's
    distribution of each deal, clipped to the deal's bounds, corrected by
    PIMC play of a seeded subsample of the deals (module doc, "The hand in
    front of you").

    ``values`` (n, k): the DD points of each deal in each strain column
    (S H D C N); ``lo``, ``hi`` (n, k): their bounds
    (:func:`kaiser_sim.dd.play_bounds.strain_bounds`; default the widest,
    -2..12, i.e. the model alone).  Every method gives one value *per deal*
    (``rows``: the deals, default all; ``s``: the strain column) whose mean
    over any of the advisor's deal sets (all, the even rows, the odd rows)
    is the estimate: the model's per-deal value, plus on the played deals
    the weighted residual (played - model) (:meth:`with_play`).  An iid
    interval over these per-deal values is clustered by deal.
    """

    def __init__(self, model: TablePlayModel, values, lo=None, hi=None, rules=None, kitties=None):
        self.model = model
        #: the rules its deals are played under (:meth:`with_play`; None: standard) and their kitties
        self.rules = rules
        self.kitties = kitties
        self.values = np.asarray(values, dtype=np.int64)
        shape = self.values.shape
        self.lo = np.full(shape, POINTS[0], np.int64) if lo is None else np.asarray(lo, dtype=np.int64)
        self.hi = np.full(shape, POINTS[-1], np.int64) if hi is None else np.asarray(hi, dtype=np.int64)
        if self.lo.shape != shape or self.hi.shape != shape:
            raise TablePlayError("the bounds need the shape of the values")
        self.played = np.full(shape, NOT_PLAYED, np.int64)
        self.weight = np.zeros(shape[0], np.float64)
        self.check: dict | None = None
        self.provenance = model.provenance
        self._dist: dict = {}

    @property
    def bounded(self) -> bool:
        return bool((self.lo > POINTS[0]).any() or (self.hi < POINTS[-1]).any())

    def describe(self) -> str:
        text = self.model.describe()
        if self.bounded:
            text += "; each deal's points kept within what its cards allow (sure tricks)"
        if self.check:
            c = self.check
            text += (f"; corrected for this hand by PIMC play of {c['deals']} of its deals (K = {c['samples']}) "
                     f"in {' and '.join(c['strains'])}")
        return text

    def dist(self, s: int, rows=None) -> np.ndarray:
        """``(r, 15)``: the model's distribution of each deal in column
        ``s``, clipped to the deal's bounds."""
        if s not in self._dist:
            nt = s >= int(_NT_COLUMN)  # no trump, high or low (column L)
            self._dist[s] = restrict(self.model.dist(self.values[:, s], nt), self.lo[:, s], self.hi[:, s])
        d = self._dist[s]
        return d if rows is None else d[np.asarray(rows, dtype=np.int64)]

    def _corrected(self, s, rows, model_value, played_value):
        """``model_value`` (r, ...) plus, on the played deals, weight x
        (``played_value(t)`` - ``model_value``)."""
        r = np.arange(self.values.shape[0]) if rows is None else np.asarray(rows, dtype=np.int64)
        t = self.played[r, s]
        on = t != NOT_PLAYED
        if not on.any():
            return model_value
        out = np.array(model_value, dtype=np.float64, copy=True)
        pv = played_value(t[on])
        w = self.weight[r][on].reshape((-1,) + (1,) * (out.ndim - 1))
        out[on] = out[on] + w * (pv - out[on])
        return out

    def expected(self, s: int, rows=None) -> np.ndarray:
        """Per deal: the expected table points."""
        return self._corrected(s, rows, self.dist(s, rows) @ POINTS.astype(np.float64),
                               lambda t: t.astype(np.float64))

    def make_prob(self, s: int, levels, rows=None) -> np.ndarray:
        """Per deal ``(r, len(levels))``: P(table points >= b)."""
        lv = np.asarray(levels, dtype=np.int64)
        d = self.dist(s, rows)
        p = (d[:, None, :] * (POINTS[None, :] >= lv[:, None])).sum(axis=-1)
        return self._corrected(s, rows, p, lambda t: (t[:, None] >= lv[None, :]).astype(np.float64))

    def expected_score(self, s: int, score, rows=None) -> np.ndarray:
        """Per deal: the expected ``score`` (a (15,) array over
        :data:`POINTS`, or a vectorised function of the raw points)."""
        sc = np.asarray(score(POINTS) if callable(score) else score, dtype=np.float64)
        return self._corrected(s, rows, self.dist(s, rows) @ sc, lambda t: sc[t - POINTS[0]])

    def with_play(self, deals, seat: int, strains, n_play: int = config.TABLE_PLAY_CHECK_DEALS,
                  samples: int = config.TABLE_PLAY_CHECK_SAMPLES, seed: int = 0) -> HandTablePlay:
        """This table play corrected by direct play: ``n_play`` of the deals
        (half from the even rows, half from the odd, drawn with ``seed``;
        all when there are no more) are played out by PIMC players with
        ``samples`` layouts a turn (:func:`kaiser_sim.dd.pimc.play_deals`,
        ``seat`` declaring and leading) in each strain column of
        ``strains``.  A played deal's per-deal values get the residual
        (played - model) with weight (deals of its parity) / (played deals
        of its parity), so the mean over all deals, over the even or over
        the odd rows is the model's mean plus the mean residual of the
        played deals there: the control-variate estimate, unbiased for
        this hand whatever the model's error."""
        from .dd.pimc import play_deals

        n = self.values.shape[0]
        deals = np.asarray(deals, dtype=np.uint64)
        if deals.shape[0] != n:
            raise TablePlayError("one deal per row of the values")
        out = HandTablePlay(self.model, self.values, self.lo, self.hi, self.rules, self.kitties)
        n_play = int(n_play)
        if n_play <= 0 or n == 0:
            return out
        rng = np.random.default_rng([int(seed), 30])
        chosen = []
        for parity, m in ((0, (n_play + 1) // 2), (1, n_play // 2)):
            rows = np.arange(parity, n, 2)
            take = rows if m >= len(rows) else np.sort(rng.choice(rows, size=m, replace=False))
            if len(take):
                out.weight[take] = len(rows) / len(take)
            chosen.append(take)
        sub = np.sort(np.concatenate(chosen))
        names = []
        for s in dict.fromkeys(int(x) for x in strains):
            res = play_deals(deals[sub], np.full(len(sub), int(seat)), np.full(len(sub), s), samples=int(samples),
                             seed=int(seed), rules=self.rules,
                             kitties=None if self.kitties is None else np.asarray(self.kitties)[sub])
            out.played[sub, s] = res.declarer_points
            names.append(_STRAIN_NAMES[s])
        out.check = {"deals": int(len(sub)), "samples": int(samples), "seed": int(seed), "strains": names}
        return out


_NT_COLUMN = 4
_STRAIN_NAMES = ("S", "H", "D", "C", "NT", "low NT")


def hand_play(model, values) -> HandTablePlay:
    """``model`` as a :class:`HandTablePlay` of ``values``: itself when it
    is one (of values of this shape), else the model alone (no bounds, no
    play)."""
    v = np.asarray(values)
    if isinstance(model, HandTablePlay):
        if model.values.shape != v.shape:
            raise TablePlayError("the hand's table play was made for other values")
        return model
    return HandTablePlay(model, v)


# --- validation (run when the model is built; stored with it) -----------------------------------


def validation_tables(model: TablePlayModel, dd, table, nt, strength, levels) -> dict:
    """Predictions against played contracts the model was not fitted on: for
    each bid level and each strength band (trump and NT), the observed share
    making (Wilson 95%, one contract a deal) and the model's prediction;
    ``inside`` = the prediction lies in the observed interval.  Also the
    mean points."""
    from .hands import STRENGTH_BUCKETS
    from .stats import mean_ci, wilson_interval

    dd, table = np.asarray(dd), np.asarray(table)
    nt = np.asarray(nt, dtype=bool)
    strength = np.asarray(strength, dtype=np.float64)
    rows = []
    groups = [("all", "all", np.ones(dd.size, bool))]
    for kind in (False, True):
        groups.append(("NT" if kind else "trump", "all", nt == kind))
    for label, lo, hi in STRENGTH_BUCKETS:
        for kind in (False, True):
            groups.append(("NT" if kind else "trump", label, (nt == kind) & (strength >= lo) & (strength <= hi)))
    for kind, band, sel in groups:
        n = int(sel.sum())
        if n < 30:
            continue
        pred = model.make_prob(dd[sel], nt[sel], levels).mean(axis=0)
        for j, b in enumerate(levels):
            k = int((table[sel] >= b).sum())
            lo, hi = wilson_interval(k, n)
            rows.append({"kind": kind, "count_band": band, "bid": int(b), "n": n, "observed": k / n, "lo": lo,
                         "hi": hi, "predicted": float(pred[j]), "dd": float((dd[sel] >= b).mean()),
                         "inside": bool(lo <= pred[j] <= hi)})
        m = mean_ci(table[sel])
        rows.append({"kind": kind, "count_band": band, "bid": "mean points", "n": n, "observed": m.mean,
                     "lo": m.lo, "hi": m.hi, "predicted": float(model.expected(dd[sel], nt[sel]).mean()),
                     "dd": float(dd[sel].mean()), "inside": bool(m.lo <= model.expected(dd[sel], nt[sel]).mean() <= m.hi)})
    return {"heldout": rows}


# --- building the shipped model -------------------------------------------------------------------

#: defaults of :func:`build_model` (``kaiser-sim table-play-model``)
BUILD_DEALS = 8000
BUILD_HOLDOUT = 2000
BUILD_SEED = 101
BUILD_SENSITIVITY = 400


def _played(path):
    from .hands import strength, trump_by_rule
    from .runs.results import load_results

    df = load_results(path)
    hands = df[["hand_N", "hand_E", "hand_S", "hand_W"]].to_numpy(dtype=np.uint64)
    dec = df["play_declarer"].to_numpy(dtype=np.int64)
    strain = df["play_strain"].to_numpy(dtype=np.int64)
    own = hands[np.arange(len(df)), dec]
    trump = np.where(strain == 4, trump_by_rule(own), strain)
    return df, hands, dec, strain, strength(own, trump)


def sensitivity_table(hands, dec, strain, dd, table, deal_ids, seed: int, samples: int, levels=(8, 10)) -> list[dict]:
    """The played points' sensitivity to K and to the players, on the same
    deals: PIMC with 2K layouts, a PIMC declaring side against double-dummy
    defenders and the converse, each against the PIMC-at-K result (paired
    differences, one contract a deal: iid 95% intervals)."""
    from .dd.pimc import play_deals
    from .stats import mean_ci

    ids = np.asarray(deal_ids, dtype=np.int64)
    start = int(ids[0])
    if not np.array_equal(ids, np.arange(start, start + len(ids))):
        raise TablePlayError("sensitivity needs consecutive deals")
    rows = []
    base = np.asarray(table, dtype=np.float64)
    variants = [(f"PIMC, K = {2 * samples} (both sides)", dict(samples=2 * samples)),
                ("PIMC declarer vs DD defenders", dict(samples=samples, defenders="dd")),
                ("DD declarer vs PIMC defenders", dict(samples=samples, declarer="dd"))]
    rows.append({"players": f"PIMC, K = {samples} (the model's)", "n": len(ids), "mean_points": float(base.mean()),
                 "minus_model_players": 0.0, "lo": 0.0, "hi": 0.0,
                 **{f"make_{b}": float((base >= b).mean()) for b in levels}})
    for label, kw in variants:
        r = play_deals(hands, dec, strain, seed=seed, start=start, **kw).declarer_points.astype(np.float64)
        d = mean_ci(r - base)
        rows.append({"players": label, "n": len(ids), "mean_points": float(r.mean()), "minus_model_players": d.mean,
                     "lo": d.lo, "hi": d.hi, **{f"make_{b}": float((r >= b).mean()) for b in levels}})
    dd = np.asarray(dd, dtype=np.float64)
    d = mean_ci(dd - base)
    rows.append({"players": "double dummy (all four see every card)", "n": len(ids), "mean_points": float(dd.mean()),
                 "minus_model_players": d.mean, "lo": d.lo, "hi": d.hi,
                 **{f"make_{b}": float((dd >= b).mean()) for b in levels}})
    return rows


def _inside(path: Path, where: Path) -> bool:
    """Is ``path`` the same as ``where`` or inside it?"""
    return path == where or where in path.parents


def check_build_paths(out, runs=None, deals: int = BUILD_DEALS, holdout: int = BUILD_HOLDOUT, seed: int = BUILD_SEED,
                      samples: int = config.PIMC_SAMPLES, rules=None) -> None:
    """What :func:`build_model` checks before it plays a deal
    (:class:`TablePlayError`): the model file ``out`` can be written (its
    directory created; an existing one is a regular file, never a device
    or a directory; it is not inside a results dataset); the directory
    ``runs`` (if given) can be created and written and is not inside a
    results dataset; neither path is the other or lies inside the other's
    runs; and a play run already in ``runs/fit`` or ``runs/holdout`` can be
    resumed with these options.  Leaves nothing behind."""
    from .runs.results import check_output

    if not str(out).strip():
        raise TablePlayError("the model file name is empty")
    try:
        check_output(out, file=True)
    except OSError as e:
        raise TablePlayError(f"cannot write the table-play model {out}: {e.strerror or e}") from None
    if runs is None:
        return
    if not str(runs).strip():
        raise TablePlayError("the directory of the play runs is empty: give a path")
    try:
        check_output(runs)  # (it may hold the runs fit/ and holdout/, not lie in one)
    except OSError as e:
        raise TablePlayError(f"cannot keep the play runs in {runs}: {e.strerror or e}") from None
    o, r = Path(os.path.realpath(out)), Path(os.path.realpath(runs))
    if _inside(r, o):
        raise TablePlayError(f"the play runs {runs} would be inside the model file {out}")
    for name, n, s in (("fit", deals, seed), ("holdout", holdout, seed + 1)):
        if _inside(o, r / name):
            raise TablePlayError(f"the model file {out} would be in the play run {Path(runs) / name}")
        _check_play_run(Path(runs) / name, n, s, samples, rules)


def _check_play_run(path: Path, deals: int, seed: int, samples: int, rules) -> None:
    """Can :func:`build_model` start, or resume, a play run in ``path``?"""
    from .runs import results as res
    from .runs.spec import RunSpec

    try:
        if not path.exists():
            return
        if not path.is_dir():
            raise TablePlayError(f"{path} is a file; the play run goes there (a directory)")
        names = sorted(os.listdir(path))
    except OSError as e:
        raise TablePlayError(f"cannot use the play run {path}: {e.strerror or e}") from None
    foreign = [n for n in names if not res.is_dataset_file(n)]
    if foreign:
        raise TablePlayError(f"{path} holds files that are not kaiser-sim results ({', '.join(foreign[:5])}); "
                             "the play run goes there: give another --runs directory")
    if res.COMMON_METADATA not in names:
        if any(res.is_part_file(n) for n in names):
            raise TablePlayError(f"{path} holds results without their run metadata: it cannot be resumed")
        return
    try:
        spec = RunSpec.from_metadata(res.read_metadata(path))
    except (ValueError, KeyError, TypeError) as e:
        raise TablePlayError(f"cannot resume the play run {path}: {e}") from None
    clashes = [f"{what} {want} (the run has {have})" for what, want, have in
               (("deals", deals, spec.deals), ("seed", seed, spec.seed), ("samples", samples, spec.play))
               if want != have]
    if rules is not None and rules != spec.rules:
        clashes.append(f"rules {rules.label} (the run has {spec.rules.label})")
    if clashes:
        raise TablePlayError(f"cannot resume the play run {path} with other options: {'; '.join(clashes)}; "
                             "give the options it was started with, or another --runs directory")


def build_model(out=MODEL_FILE, deals: int = BUILD_DEALS, holdout: int = BUILD_HOLDOUT, seed: int = BUILD_SEED,
                samples: int = config.PIMC_SAMPLES, sensitivity: int = BUILD_SENSITIVITY, runs=None, workers=None,
                progress=None, rules=None) -> TablePlayModel:
    """Play ``deals`` deals of ``seed`` (``simulate --play samples``) and fit
    the model on them; play ``holdout`` deals of ``seed + 1`` and check it
    on them (:func:`validation_tables`); replay the first ``sensitivity``
    held-out deals with other K and players (:func:`sensitivity_table`);
    write it all to ``out``.  ``runs``: keep the two play runs in this
    directory (``runs/fit``, ``runs/holdout``; resumed if there), else a
    temporary one.  The paths are checked before any deal is played
    (:func:`check_build_paths`).  ``rules``: rules that change the play (a
    kitty, low no trump, cover 3) build that game's model instead
    (:func:`build_variant_model`; ``runs``, ``workers`` and ``sensitivity``
    do not apply there)."""
    import tempfile
    import time

    from .rules import Rules
    from .runs.simulate import simulate

    if rules is not None and play_key(rules) != play_key(Rules.preset("standard")):
        return build_variant_model(rules, out, deals, holdout, seed, samples, progress)

    for name, v, least in (("deals", deals, 100), ("holdout", holdout, 100), ("seed", seed, 0),
                           ("samples", samples, 1), ("sensitivity", sensitivity, 0)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < least:
            raise TablePlayError(f"{name} must be a whole number >= {least} (got {v!r})")
    if sensitivity > holdout:
        raise TablePlayError("sensitivity deals are taken from the held-out deals: at most --holdout")
    rules = Rules.preset("standard")
    check_build_paths(out, runs, deals, holdout, seed, samples, rules)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kaiser-sim-table-play-") as tmp:
        base = Path(runs) if runs is not None else Path(tmp)
        paths = {}
        for name, n, s in (("fit", deals, seed), ("holdout", holdout, seed + 1)):
            paths[name] = base / name
            exists = (paths[name] / "_common_metadata").exists()
            simulate(paths[name], n, s, rules=rules, play=samples, workers=workers, progress=progress,
                     resume=exists)
        df, hands, dec, strain, strength_fit = _played(paths["fit"])
        provenance = {"seed": int(seed), "deals": int(deals), "samples": int(samples), "players": "pimc",
                      "contracts": CONTRACTS, "rules": {k: _rule_value(rules, k) for k in PLAY_RULES},
                      "rules_label": rules.label, "version": __version__, "min_rows": MIN_ROWS,
                      "holdout": {"seed": int(seed) + 1, "deals": int(holdout)},
                      "rebuild": f"kaiser-sim table-play-model --deals {deals} --holdout {holdout} --seed {seed} "
                                 f"--samples {samples}"}
        model = fit_model(df["play_dd"].to_numpy(), df["play_pts"].to_numpy(), strain == 4, provenance)
        ho, h_hands, h_dec, h_strain, h_strength = _played(paths["holdout"])
        levels = list(range(rules.min_bid, 13))
        model.validation = validation_tables(model, ho["play_dd"].to_numpy(), ho["play_pts"].to_numpy(),
                                             h_strain == 4, h_strength, levels)
        if sensitivity:
            k = int(sensitivity)
            model.validation["sensitivity"] = sensitivity_table(
                h_hands[:k], h_dec[:k], h_strain[:k], ho["play_dd"].to_numpy()[:k], ho["play_pts"].to_numpy()[:k],
                ho["deal"].to_numpy()[:k], seed + 1, samples)
        model.provenance["seconds"] = round(time.perf_counter() - t0, 1)
        model.save(out)
    _load_cached.cache_clear()
    return model


# --- the models of the other games (a kitty, low no trump, cover 3) ---------------------------------

#: the shipped models of the games whose play differs from the standard one: file name -> the rules it is
#: built for (a preset, plus overrides)
VARIANT_MODELS = {
    "table_play_model_kitty-34.json": ("kitty-34", ()),
    "table_play_model_kitty-4.json": ("kitty-4", ()),
    "table_play_model_low-nt.json": ("low-nt", ()),
    "table_play_model_cover3.json": ("standard", ("cover3=true",)),
}
#: build sizes of the shipped variant models (fit deals, held-out deals), fitted to a busy 2-core machine
VARIANT_DEALS = 2000
VARIANT_HOLDOUT = 500


def play_key(rules) -> tuple:
    """What of the rules changes how a deal is played and scored for the
    model: the kitty (the deal's shape and the discard), whether low no
    trump is played, cover 3."""
    return (rules.kitty, rules.low_nt != "off", bool(rules.cover3))


def play_sample(rules, deals: int, seed: int, samples: int, start: int = 0, progress=None, block: int = 40) -> dict:
    """Deals ``start .. start+deals-1`` of ``seed`` under ``rules`` (weak
    hands redealt as the rules say), one contract a deal (:func:`play_contracts`
    with the rules: low no trump on every other NT deal where it is played),
    each solved double dummy under the rules
    (:func:`kaiser_sim.dd.rule_variants.contract_values`: the best discard
    with a kitty, cover 3 applied) and played out by four PIMC players with
    ``samples`` layouts a turn (:func:`kaiser_sim.dd.pimc.play_deals` with
    the rules: a PIMC declarer takes the kitty and discards).  Returns
    arrays: ``hands``, ``kitties``, ``declarer``, ``strain``, ``dd``,
    ``played`` (declaring side's raw points; a cover-3 -3 is counted as -2,
    the model's lowest: both fail every bid), ``discards``, ``strength``
    (the declarer's count with its trump)."""
    from .dd.pimc import play_deals
    from .dd.rule_variants import contract_values, deal_for_rules
    from .hands import strength, trump_by_rule

    hands, kitties = deal_for_rules(deals, seed, rules, start=start, redeal_weak=True)
    ids = np.arange(start, start + deals)
    dec, strain = play_contracts(hands, ids, rules)
    dd = np.zeros(deals, np.int64)
    played = np.zeros(deals, np.int64)
    discards = np.zeros(deals, np.uint64)
    if progress is not None:
        progress.start(deals)
    for a in range(0, deals, block):
        sl = slice(a, min(a + block, deals))
        dd[sl] = contract_values(hands[sl], kitties[sl], dec[sl], strain[sl], rules)[0]
        r = play_deals(hands[sl], dec[sl], strain[sl], samples=samples, seed=seed, start=start + a, rules=rules,
                       kitties=kitties[sl])
        played[sl] = r.declarer_points
        discards[sl] = r.discards
        if progress is not None:
            progress.advance(sl.stop - sl.start)
    if progress is not None:
        progress.finish()
    own = hands[np.arange(deals), dec]
    trump = np.where(strain >= 4, trump_by_rule(own), strain)
    return {"hands": hands, "kitties": kitties, "declarer": dec, "strain": strain,
            "dd": np.clip(dd, POINTS[0], POINTS[-1]), "played": np.clip(played, POINTS[0], POINTS[-1]),
            "discards": discards, "strength": strength(own, trump)}


def discard_check(sample: dict, rules) -> dict:
    """The PIMC declarer's kitty discard against double dummy's best, on
    played deals: the declaring side's double-dummy points after the PIMC
    discard (the real deal) and with the best discard
    (:func:`kaiser_sim.dd.rule_variants.kitty_dd_value`).  Cover 3 is not
    applied here (the discard is compared in the standard count)."""
    from .dd.api import dd_contracts
    from .dd.rule_variants import kitty_dd_value, play_view
    from .stats import mean_ci, wilson_interval

    hands, kit, dec, st, disc = (sample[k] for k in ("hands", "kitties", "declarer", "strain", "discards"))
    n = len(dec)
    from .cards import FIVE_HEARTS, THREE_SPADES
    from .dd.pimc import discard_candidates

    after = np.zeros(n, np.int64)
    best = np.zeros(n, np.int64)
    best_cand = np.zeros(n, np.int64)
    counts = rules.kitty_discard_points == "declarer"
    for i in range(n):
        h = hands[i].copy()
        d = int(dec[i])
        h[d] = (h[d] | kit[i]) & ~np.uint64(disc[i])
        low = int(st[i]) == 5
        v, five, three = play_view(h, rules, low)
        off = 0
        if counts:
            off = (5 if int(disc[i]) >> FIVE_HEARTS & 1 else 0) - (3 if int(disc[i]) >> THREE_SPADES & 1 else 0)
        after[i] = int(dd_contracts(v[None, :], [d], [4 if low else int(st[i])], "points", threads=1, five=five,
                                    three=three)[0]) + off
        best[i] = kitty_dd_value(hands[i], kit[i], d, int(st[i]), rules, "points")
        # the best of the PIMC declarer's own candidates on the real deal: what the restriction to them costs
        full = hands[i].copy()
        full[d] |= kit[i]
        fv, five, three = play_view(full, rules, low)
        cands = discard_candidates(int(fv[d]), bin(int(kit[i])).count("1"), int(five), int(three),
                                   rules.may_discard_specials)
        pos = np.repeat(fv[None, :], len(cands), axis=0)
        pos[:, d] = [int(fv[d]) & ~c for c in cands]
        vals = dd_contracts(pos, np.full(len(cands), d), np.full(len(cands), 4 if low else int(st[i])), "points",
                            threads=1, five=five, three=three).astype(np.int64)
        if counts:
            vals += np.array([(5 if c & int(five) else 0) - (3 if c & int(three) else 0) for c in cands])
        best_cand[i] = vals.max()
    loss = mean_ci(best - after)
    restricted = mean_ci(best - best_cand)
    same = int((best == after).sum())
    lo, hi = wilson_interval(same, n)
    return {"question": "double-dummy points the PIMC declarer's discard gives up against double dummy's best "
                        "discard (same deals, the real hands)",
            "n": n, "mean_loss": loss.mean, "lo": loss.lo, "hi": loss.hi, "share_as_good": same / n,
            "share_lo": lo, "share_hi": hi, "mean_dd_best": float(best.mean()), "mean_dd_pimc_discard":
            float(after.mean()), "discard_samples": config.PIMC_DISCARD_SAMPLES,
            "restriction_loss": {"question": "double-dummy points lost by considering only the PIMC declarer's "
                                             "candidate discards (the lowest cards of each suit), the best of them "
                                             "chosen double dummy", "mean": restricted.mean, "lo": restricted.lo,
                                 "hi": restricted.hi}}


def build_variant_model(rules, out, deals: int = VARIANT_DEALS, holdout: int = VARIANT_HOLDOUT, seed: int = BUILD_SEED,
                        samples: int = config.PIMC_SAMPLES, progress=None) -> TablePlayModel:
    """The model of a game whose play differs from the standard one (a
    kitty, low no trump, cover 3): fitted on ``deals`` deals of ``seed``
    played under ``rules`` (:func:`play_sample`), checked on ``holdout``
    deals of ``seed + 1`` (:func:`validation_tables`; with a kitty also the
    PIMC discard against double dummy's best, :func:`discard_check`);
    written to ``out`` with its provenance.  No sensitivity table (its cost
    is the model's twice over)."""
    import time

    for name, v, least in (("deals", deals, 100), ("holdout", holdout, 100), ("seed", seed, 0),
                           ("samples", samples, 1)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < least:
            raise TablePlayError(f"{name} must be a whole number >= {least} (got {v!r})")
    check_build_paths(out)
    t0 = time.perf_counter()
    fit = play_sample(rules, deals, seed, samples, progress=progress)
    from .rules import preset_of

    name = preset_of(rules)
    rule_args = f"--rules {name}" if name else "--rules " + _rules_args(rules)
    provenance = {"seed": int(seed), "deals": int(deals), "samples": int(samples), "players": "pimc",
                  "discard_samples": config.PIMC_DISCARD_SAMPLES if rules.kitty != "none" else None,
                  "contracts": _contracts_text(rules), "rules": {k: _rule_value(rules, k) for k in PLAY_RULES},
                  "rules_full": rules.to_dict(), "rules_label": rules.label, "version": __version__,
                  "min_rows": MIN_ROWS, "holdout": {"seed": int(seed) + 1, "deals": int(holdout)},
                  "rebuild": f"kaiser-sim table-play-model {rule_args} --deals {deals} --holdout {holdout} "
                             f"--seed {seed} --samples {samples}"}
    model = fit_model(fit["dd"], fit["played"], fit["strain"] >= 4, provenance)
    ho = play_sample(rules, holdout, seed + 1, samples, progress=progress)
    levels = list(range(rules.min_bid, 13))
    model.validation = validation_tables(model, ho["dd"], ho["played"], ho["strain"] >= 4, ho["strength"], levels)
    if rules.low_nt != "off":
        low = ho["strain"] == 5
        model.validation["low_nt"] = validation_tables(model, ho["dd"][low], ho["played"][low], np.ones(low.sum(), bool),
                                                       ho["strength"][low], levels)["heldout"]
    if rules.kitty != "none":
        model.validation["discard"] = discard_check(ho, rules)
    model.provenance["seconds"] = round(time.perf_counter() - t0, 1)
    model.save(out)
    _load_cached.cache_clear()
    return model


def _contracts_text(rules) -> str:
    from .runs.spec import contracts_text

    return contracts_text(rules)


def _rules_args(rules) -> str:
    """``PRESET --rule k=v ...`` naming ``rules`` from the nearest preset."""
    from .rules import PRESETS, format_value

    best = min(PRESETS, key=lambda p: len(PRESETS[p][0].differences(rules)))
    diff = PRESETS[best][0].differences(rules)
    return best + "".join(f" --rule {k}={format_value(v[1])}" for k, v in diff.items())


__all__ = ["POINTS", "KINDS", "MIN_ROWS", "CONTRACTS", "TablePlayError", "TablePlayModel", "HandTablePlay", "hand_play",
           "restrict", "NOT_PLAYED", "play_contracts", "fit_kind",
           "fit_model", "fit_counts", "joint_counts", "model_se", "load_model", "validation_tables",
           "sensitivity_table", "build_model", "check_build_paths", "build_variant_model", "play_sample", "play_key",
           "discard_check", "VARIANT_MODELS", "model_file", "model_for", "Measure", "measure_for"]
