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

The declaring hand: rows by count band
--------------------------------------
Two contracts of the same DD value play differently when the declaring
hands differ: a strong hand (high count, its winners in its own hand) is
easier to play than DD says, a weak one in no trump harder to defend.  The
model with bands (file format 2) also keeps, for each kind and each count
band of the declaring hand (:data:`BANDS`, the studies' count bands,
:data:`kaiser_sim.hands.STRENGTH_BUCKETS`: the count with the trump by the
default rule, in no trump too), ``P(table points | DD = v, kind, band)``:

1. the band's played contracts at DD value ``v`` (its joint counts),
   shrunk toward the pooled row of ``v`` *tilted* to the band: the pooled
   rows times ``exp(theta x points)``, renormalised, with the one ``theta``
   a band and kind that makes their expected points over the band's
   contracts its played points (:func:`tilt_of`: the maximum-likelihood
   tilt).  The row is (band counts + :data:`BAND_PSEUDO` x tilted pooled
   row) / (band contracts at ``v`` + :data:`BAND_PSEUDO`): a band with few
   contracts at ``v`` reads the pooled shape moved to its level, a well
   filled one its own rows (:func:`fit_band`);
2. made monotone as the pooled rows are.

The pooled rows are fitted on deals as dealt (their mix of hands), so a
caller without the hand (``band`` None or :data:`NO_BAND`) gets today's
hand-blind distribution.  Both come from joint counts only, so pooling two
sets of played deals (``--add``) is still adding their counts.  The band
rows are fitted on banded play runs
(:func:`kaiser_sim.strategy.table_play_build.play_band_chunk`), which play
every strong hand and a share of the common ones: given the declaring
hand nothing is biased (whether a deal is played depends on that hand and a
coin), and a plain random share of them (``natural``) goes to the pooled
rows and to the held-out rows of all bands.

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
For each deal and strain :func:`kaiser_sim.game.strain_bounds`
gives ``lo <= DD <= hi``: ``lo`` what the declarer takes from its sure
tricks whatever the other three (partner included) do, ``hi`` the most the
side can take if all four help it (all the points in play when the side
cannot lose a trick, else every trick but the one holding the 3S), except
that a declarer whose sure tricks are every trick claims them (``hi =
lo``: the side's 12 would need a defender to ruff in with the 3S, which
only costs the defenders).  The
model's distribution of the deal is clipped to them (:func:`restrict`): the
mass below ``lo`` is put at ``lo`` and the mass above ``hi`` at ``hi``.
Clipping, not renormalising: the model's spread is a shortfall (or excess)
from DD; where the cards forbid it, play ends at the nearest outcome the
cards allow, so the mass belongs at the bound.  It also keeps the model's
monotonicity (a clipped variable is a monotone function of it), works when
the model puts no mass inside the bounds at all, and when ``lo == hi``
gives that value for sure: a hand that takes every trick whatever anyone
does reads the same in table play as DD (``AKQJ.A.AK.A`` in no trump: 10,
where the model alone spread DD 10 over 7..12; in spades too, where the
strong band's rows put the model alone at 10.15).  The bounds are about the
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
unbiased estimate: about 95%; the mean alone in 61 of 64), the model alone
in 358, 69.9% (the mean in 43 of 64).  The other strains get the bounded
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
``kaiser-sim table-play-model`` rebuilds it (:func:`kaiser_sim.strategy.table_play_build.build_model`).

Every game
----------
Rules that change the play have their own models, fitted the same way on
their own play (:func:`~kaiser_sim.strategy.table_play_build.build_variant_model`, ``kaiser-sim table-play-model
--rules PRESET``; :data:`VARIANT_MODELS`: ``table_play_model_<game>.json``
for the two kitties, low no trump and cover 3): a kitty taken up and
discarded by a PIMC declarer who sees only its own cards
(:func:`kaiser_sim.game.pimc_discard`; held-out files also compare that
discard with double dummy's best, :func:`~kaiser_sim.strategy.table_play_build.discard_check`), low no trump on
every other NT deal (pooled into the NT rows), cover 3 scored on the played
line against the contract's cover-3 DD value.  :func:`load_model` with
``rules`` picks the model of the rules' game (:func:`play_key`), or the
nearest where none is built (:func:`model_file` says which).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..cards import Strain
from ..hands import STRENGTH_BUCKETS
from ..errors import KaiserSimError
from .. import config
from ..rules import STANDARD, Rules

#: the declaring side's raw points (standard game): the values of the model's axes
POINTS = np.arange(-2, 13)


def point_index(dd) -> np.ndarray:
    """Each DD value's position in :data:`POINTS`; a value beyond -2..12 (a
    cover-3 side with the 3S and under 3 tricks: -3) reads as the nearest end."""
    return np.clip(np.asarray(dd, dtype=np.int64), POINTS[0], POINTS[-1]) - POINTS[0]


def point_shares(dd) -> np.ndarray:
    """``(15,)``: the share of the DD values ``dd`` at each value of
    :data:`POINTS` (read as :func:`point_index` reads them).  A group's mean
    of any per-hand function of the DD points is these shares times the
    function's table over :data:`POINTS` (no pass over the hands)."""
    index = point_index(dd).ravel()
    return np.bincount(index, minlength=POINTS.size) / max(index.size, 1)
KINDS = ("trump", "NT")
#: fewest contracts behind one DD value's distribution before neighbours are pooled
MIN_ROWS = 150
DATA_DIR = Path(__file__).resolve().parents[1] / "data"
MODEL_FILE = DATA_DIR / "table_play_model.json"
#: the rules options that change the play; the model holds only where they match
PLAY_RULES = ("hand_size", "deck34", "kitty", "low_nt", "cover3")
#: the declaring hand's count bands the model is conditioned on: :data:`kaiser_sim.hands.STRENGTH_BUCKETS`
#: (the count with the trump named by the default rule; in no trump too), by index 0..7
BANDS = tuple(label for label, _, _ in STRENGTH_BUCKETS)
#: a band index meaning "the hand is not known": the pooled (DD-only) distribution
NO_BAND = -1
#: the number of (band, DD value) keys (:func:`band_key`)
KEYS = 8 * 15
#: pseudo-count of the shrinkage of a band's row toward the pooled row of the same DD value (module doc,
#: "The declaring hand"): a row with ``n`` contracts of its band is (``n`` band rows + BAND_PSEUDO x the
#: pooled row) / (n + BAND_PSEUDO); chosen on the fitting deals by held-out likelihood (docs/author.md)
BAND_PSEUDO = 40.0
#: fewest of a band's contracts behind one DD value's row before its neighbours' shifts are pooled in
#: (:func:`fit_band`; 0: none)
BAND_ROWS = 0


def band_index(strength) -> np.ndarray:
    """The band (index into :data:`BANDS`) of each count ``strength``
    (:func:`kaiser_sim.hands.strength`; halves as the count gives them)."""
    s = np.asarray(strength, dtype=np.float64)
    lows = np.array([lo for _, lo, _ in STRENGTH_BUCKETS[1:]])
    return np.searchsorted(lows, s, side="right").astype(np.int64)


def band_key(dd, band=None) -> np.ndarray:
    """One key per contract over (band, DD value): ``band x 15 + the DD
    value's place in POINTS`` (0 .. :data:`KEYS` - 1; ``band`` None or
    :data:`NO_BAND` reads as band 0, for models and callers without bands
    a table over the keys repeats the pooled rows).  A study whose values
    depend only on (band, DD value) computes them once per key
    (:func:`key_parts`) and looks them up."""
    column = point_index(dd)
    b = np.zeros_like(column) if band is None else np.maximum(np.asarray(band, dtype=np.int64), 0)
    return b * len(POINTS) + column


def key_parts(key=None) -> tuple[np.ndarray, np.ndarray]:
    """``(dd, band)`` of each :func:`band_key` (default: every key, 0 .. KEYS - 1, in order)."""
    k = np.arange(len(BANDS) * len(POINTS)) if key is None else np.asarray(key, dtype=np.int64)
    return POINTS[k % len(POINTS)], k // len(POINTS)


def declarer_band(hands, strain) -> np.ndarray:
    """The band of each declaring hand (``hands``: bitboards) declaring in
    ``strain`` (0..3 trump, 4/5 no trump): its count with that trump, in
    no trump with the trump the default rule names (as the model was fitted)."""
    from ..hands import strength, trump_by_rule

    h = np.asarray(hands, dtype=np.uint64)
    st = np.broadcast_to(np.asarray(strain, dtype=np.int64), h.shape)
    return band_index(strength(h, np.where(st >= 4, trump_by_rule(h), st)))


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
    return _monotone(prob, counts + 1.0), counts


def _monotone(prob, w) -> np.ndarray:
    """``prob`` (15, 15) rows made monotone (module doc, step 2), each DD row weighted by ``w``."""
    k = len(POINTS)
    # monotone: survival P(t >= b | v) non-decreasing in v (weights: the contracts behind each row) ...
    surv = prob[:, ::-1].cumsum(axis=1)[:, ::-1]  # surv[i, j] = P(t >= POINTS[j] | v_i)
    for j in range(k):
        surv[:, j] = _pava(surv[:, j], w)
    # ... and non-increasing in b (a minimum of non-decreasing functions of v stays non-decreasing)
    surv = np.minimum.accumulate(surv, axis=1)
    surv[:, 0] = 1.0
    prob = surv - np.append(surv[:, 1:], np.zeros((k, 1)), axis=1)
    return np.clip(prob, 0.0, 1.0)


def tilt(rows, theta: float) -> np.ndarray:
    """``rows`` (..., 15) over :data:`POINTS` exponentially tilted by
    ``theta``: each row times ``exp(theta x points)``, renormalised (theta >
    0 moves the mass up, every row by the same factor of odds a point)."""
    w = np.asarray(rows, dtype=np.float64) * np.exp(theta * (POINTS - POINTS.mean()))
    return w / np.maximum(w.sum(axis=-1, keepdims=True), 1e-300)


def tilt_of(joint, pooled) -> float:
    """The tilt (:func:`tilt`) of the ``pooled`` rows whose expected points,
    summed over the contracts of ``joint`` (15, 15) at their DD values,
    equal their played points (the maximum-likelihood tilt: one number a
    band and kind); 0 without contracts."""
    joint = np.asarray(joint, dtype=np.float64)
    n = joint.sum(axis=1)
    total = n.sum()
    if total == 0:
        return 0.0
    want = (joint * POINTS).sum() / total
    lo, hi = -4.0, 4.0
    for _ in range(60):  # the fitted mean rises with theta: bisection
        mid = (lo + hi) / 2
        if (n @ (tilt(pooled, mid) @ POINTS)) / total < want:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fit_band(joint, pooled, pseudo: float = BAND_PSEUDO, min_rows: int = 0) -> np.ndarray:
    """``(15, 15)``: one band's rows of one kind from its (15, 15) joint
    counts of (DD points, played points), each DD row shrunk toward the
    pooled row ``pooled[i]`` with ``pseudo`` contracts' weight, then made
    monotone as the pooled rows are (weights: the band's contracts + pseudo).
    ``min_rows`` > 0: a DD value with fewer of the band's contracts takes
    its neighbours' shifts too, as the pooled rows do (:func:`fit_kind`),
    before the shrinkage."""
    joint = np.asarray(joint, dtype=np.float64)
    pooled = tilt(pooled, tilt_of(joint, pooled))
    if min_rows > 0 and joint.sum() > 0:
        k = len(POINTS)
        rows = joint.sum(axis=1)
        acc = np.zeros((k, k))
        for v in range(k):
            h = 0
            while rows[max(v - h, 0):v + h + 1].sum() < min(min_rows, rows.sum()):
                h += 1
            for i in range(max(v - h, 0), min(v + h + 1, k)):
                # row i's contracts, each shifted by (table - DD) and applied at v (ends clipped)
                target = np.clip(np.arange(k) - i + v, 0, k - 1)
                np.add.at(acc[v], target, joint[i])
        joint = acc
    n = joint.sum(axis=1)
    raw = (joint + pseudo * pooled) / (n + pseudo)[:, None] if pseudo > 0 else np.where(
        n[:, None] > 0, joint / np.maximum(n, 1)[:, None], pooled)
    return _monotone(raw, n + pseudo + 1.0)


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
    #: (2, 8, 15, 15): ``P(table = POINTS[j] | DD = POINTS[i], kind, band)`` of each declaring-hand band
    #: (:data:`BANDS`); None: a model of DD value and kind only (format 1, the variant games)
    band_prob: np.ndarray | None = None
    #: (2, 8, 15, 15) counts of (DD points, played points) by band the band rows were fitted on
    band_joint: np.ndarray | None = None
    #: the shrinkage pseudo-count the band rows were fitted with (:data:`BAND_PSEUDO`)
    pseudo: float = BAND_PSEUDO

    @property
    def banded(self) -> bool:
        """Does the model know the declaring hand's band (else every band reads the pooled rows)?"""
        return self.band_prob is not None

    @classmethod
    def fit_joint(cls, joint, band_joint=None, provenance=None, min_rows: int = MIN_ROWS,
                  pseudo: float = BAND_PSEUDO, band_rows: int | None = None) -> TablePlayModel:
        """The model fitted on joint counts alone: the pooled rows of each
        kind from ``joint`` (2, 15, 15) (:func:`fit_counts`), and with
        ``band_joint`` (2, 8, 15, 15) each band's rows shrunk toward them
        (:func:`fit_band`).  Counts in, model out: pooling two sets of
        played deals is adding their counts."""
        joint = np.asarray(joint, dtype=np.int64)
        probs, counts = [], []
        for kind in range(2):
            if not joint[kind].any():
                raise TablePlayError(f"no {KINDS[kind]} contracts to fit")
            p, c = fit_counts(joint[kind], min_rows)
            probs.append(p)
            counts.append(c)
        prob = np.stack(probs)
        band_prob = None
        band_rows = int((provenance or {}).get("band_rows", BAND_ROWS)) if band_rows is None else int(band_rows)
        if band_joint is not None:
            band_joint = np.asarray(band_joint, dtype=np.int64)
            band_prob = np.stack([np.stack([fit_band(band_joint[kind, b], prob[kind], pseudo, band_rows)
                                            for b in range(len(BANDS))]) for kind in range(2)])
        return cls(prob, np.stack(counts), dict(provenance or {}), joint=joint, band_prob=band_prob,
                   band_joint=band_joint, pseudo=float(pseudo))

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

            def draw(j):
                t = int(j.sum())
                return j if t == 0 else rng.multinomial(t, (j / t).ravel()).reshape(j.shape)

            out = []
            for _ in range(n):
                joint = np.stack([draw(self.joint[kind]) for kind in range(2)])
                band = None
                if self.band_joint is not None:  # each band's contracts resampled within the band (its total kept)
                    band = np.stack([np.stack([draw(self.band_joint[kind, b]) for b in range(len(BANDS))])
                                     for kind in range(2)])
                r = TablePlayModel.fit_joint(joint, band, self.provenance, min_rows, self.pseudo)
                r.counts, r.joint, r.band_joint = self.counts, None, None
                out.append(r)
            cache[key] = out
        return cache[key]

    # --- applying it ---------------------------------------------------------------------
    def _table(self) -> np.ndarray:
        """(2, 9, 15, 15): the band rows (:data:`BANDS` order) and, last, the pooled rows
        (read for :data:`NO_BAND`, and for every band when the model has none)."""
        t = self.__dict__.get("_band_table")
        if t is None:
            bands = self.band_prob if self.band_prob is not None else np.repeat(
                self.prob[:, None], len(BANDS), axis=1)
            t = np.concatenate([bands, self.prob[:, None]], axis=1)
            self.__dict__["_band_table"] = t
        return t

    @staticmethod
    def _keys(dd, nt, band=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(kind, band, column)`` of each DD value: its row's keys into
        :meth:`_table` (``band`` None or :data:`NO_BAND`: the pooled rows)."""
        column = point_index(dd)
        b = np.full(column.shape, len(BANDS)) if band is None else np.asarray(band, dtype=np.int64)
        b = np.where(b == NO_BAND, len(BANDS), b)
        if ((b < 0) | (b > len(BANDS))).any():
            raise TablePlayError(f"a band is an index 0..{len(BANDS) - 1} into BANDS (or NO_BAND)")
        shape = np.broadcast_shapes(column.shape, b.shape, np.shape(nt))
        kind = np.broadcast_to(np.asarray(nt, dtype=bool), shape).astype(np.int64)
        return kind, np.broadcast_to(b, shape), np.broadcast_to(column, shape)

    def _rows(self, dd, nt, band=None) -> np.ndarray:
        return self._table()[self._keys(dd, nt, band)]

    def dist(self, dd, nt, band=None) -> np.ndarray:
        """``(..., 15)`` distribution of the table points for each DD value
        (``nt``: no trump, scalar or one per value; ``band``: the declaring
        hand's band, :func:`declarer_band`, scalar or one per value; None or
        :data:`NO_BAND`: not known, the pooled rows)."""
        return self._rows(dd, nt, band)

    def make_prob(self, dd, nt, levels, band=None) -> np.ndarray:
        """``(..., len(levels))``: P(table points >= b) for each bid ``b``."""
        lv = np.asarray(levels, dtype=np.int64)
        # the (2 kinds, 9 bands, 15 DD values, bids) table first, then one lookup per hand: the same sums as
        # per hand, without a (hands, bids, 15) array (4 million hands in the edition)
        table = (self._table()[..., None, :] * (POINTS >= lv[:, None])).sum(axis=-1)
        return table[self._keys(dd, nt, band)]

    def expected(self, dd, nt, band=None) -> np.ndarray:
        """Expected table points for each DD value."""
        return self._rows(dd, nt, band) @ POINTS.astype(np.float64)

    def expected_score(self, dd, nt, score, band=None) -> np.ndarray:
        """Expected value of ``score`` (a function of raw points, vectorised,
        or a (15,) array over :data:`POINTS`) of the table points."""
        s = np.asarray(score(POINTS) if callable(score) else score, dtype=np.float64)
        return self._rows(dd, nt, band) @ s

    def matrix(self, nt: bool, band=None) -> np.ndarray:
        """The (15, 15) DD -> table matrix of one kind (and band; None: the
        pooled one): a distribution of DD points (over :data:`POINTS`) times
        it is the table-play distribution."""
        b = len(BANDS) if band is None or int(band) == NO_BAND else int(band)
        return self._table()[int(bool(nt)), b]

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
                             f"kaiser-sim table-play-model --rules {rules_args(rules)} --out FILE")

    def applies_to(self, rules) -> bool:
        try:
            self.check_rules(rules)
        except TablePlayError:
            return False
        return True

    def describe(self) -> str:
        p = self.provenance
        return (f"table-play model: {p.get('deals', '?'):,} deals played by PIMC players (K = {p.get('samples')}), "
                f"{seeds_text(p)}, rules {p.get('rules_label')}, kaiser-sim {p.get('version')}"
                + (", by the declaring hand's count band" if self.banded else ""))

    # --- files ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        d = {"format": "kaiser-sim table-play model", "format_version": 1, "points": POINTS.tolist(),
             "kinds": list(KINDS), "prob": np.round(self.prob, 6).tolist(), "counts": self.counts.tolist(),
             "joint": None if self.joint is None else self.joint.tolist(),
             "provenance": self.provenance, "validation": self.validation}
        if self.band_prob is not None:  # format 2: the band rows too (a format-1 reader would not know them)
            d.update(format_version=2, bands=list(BANDS), band_pseudo=self.pseudo,
                     band_prob=np.round(self.band_prob, 6).tolist(),
                     band_joint=None if self.band_joint is None else self.band_joint.tolist())
        return d

    def save(self, path) -> None:
        """Write the model to ``path`` (JSON) whole or not at all: into a
        hidden file beside it, renamed over it.  An existing ``path`` must be
        a regular file: a device (/dev/null), a FIFO or a directory is
        refused, never replaced.  A failure raises
        :class:`~kaiser_sim.runs.output_dir.OutputError` (an :class:`OSError`
        naming ``path``) and leaves nothing behind (no hidden file, no
        directory made for it)."""
        from ..runs.output_dir import OutputError, removed_on_failure, write_file_atomic

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
        version = d.get("format_version", 1)
        if version not in (1, 2):
            raise TablePlayError(f"table-play model: format {version!r} is not one this version can read "
                                 "(1 or 2); a newer version wrote it")
        band_prob = band_joint = None
        pseudo = BAND_PSEUDO
        if version == 2:  # (format 1: a model of DD value and kind only; every band reads its pooled rows)
            if list(d.get("bands", [])) != list(BANDS):
                raise TablePlayError("table-play model: its count bands are not this kaiser-sim's")
            band_prob = np.asarray(d["band_prob"], dtype=np.float64)
            shape = (2, len(BANDS), len(POINTS), len(POINTS))
            if band_prob.shape != shape:
                raise TablePlayError("table-play model: wrong shapes")
            if not np.allclose(band_prob.sum(axis=3), 1.0, atol=1e-4) or (band_prob < 0).any():
                raise TablePlayError("table-play model: band rows are not distributions")
            band_prob = band_prob / band_prob.sum(axis=3, keepdims=True)
            if d.get("band_joint") is not None:
                band_joint = np.asarray(d["band_joint"], dtype=np.int64)
                if band_joint.shape != shape or (band_joint < 0).any():
                    raise TablePlayError("table-play model: wrong band joint counts")
            pseudo = float(d.get("band_pseudo", BAND_PSEUDO))
        return cls(prob / prob.sum(axis=2, keepdims=True), counts, dict(d.get("provenance", {})),
                   dict(d.get("validation", {})), joint, band_prob, band_joint, pseudo)

    @classmethod
    def load(cls, path) -> TablePlayModel:
        try:
            text = Path(path).read_text(encoding="utf-8")
            return cls.from_dict(json.loads(text))
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            if isinstance(e, TablePlayError):
                raise
            raise TablePlayError(f"cannot read the table-play model {path}: {e}") from None


@functools.lru_cache(maxsize=8)
def _load_cached(path: str) -> TablePlayModel:
    return TablePlayModel.load(path)


def model_file(rules: Rules = STANDARD) -> tuple[Path, str]:
    """``(file, note)``: the shipped model for ``rules`` (default standard).
    The model built for the same game (:func:`play_key`: the kitty, low no
    trump played or not, cover 3) if one is shipped; else the nearest, by
    the kitty first (the deal's shape), then low no trump, then cover 3,
    and ``note`` says what it was built for (a transfer: its held-out
    checks are for that game)."""
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
    key = play_key(rules)
    shipped = [(MODEL_FILE, play_key(Rules.preset("standard")), "standard")]
    for name, (preset, overrides) in VARIANT_MODELS.items():
        r = Rules.preset(preset).with_overrides(list(overrides))
        shipped.append((DATA_DIR / name, play_key(r), r.label))
    return max(shipped, key=lambda m: (m[1][0] == key[0], m[1][1] == key[1], m[1][2] == key[2]))


def _shipped_key(rules) -> tuple:
    return _shipped(rules)[1]


def load_model(path=None, rules: Rules = STANDARD) -> TablePlayModel:
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
    (S H D C N); ``bands`` (k,): the hand's count band declaring in each
    column (:func:`hand_bands`; None: the model's pooled rows); ``lo``, ``hi`` (n, k): their bounds
    (:func:`kaiser_sim.game.strain_bounds`; default the widest,
    -2..12, i.e. the model alone).  Every method gives one value *per deal*
    (``rows``: the deals, default all; ``s``: the strain column) whose mean
    over any of the advisor's deal sets (all, the even rows, the odd rows)
    is the estimate: the model's per-deal value, plus on the played deals
    the weighted residual (played - model) (:meth:`with_play`).  An iid
    interval over these per-deal values is clustered by deal.
    """

    def __init__(self, model: TablePlayModel, values, lo=None, hi=None, rules: Rules = STANDARD, kitties=None,
                 bands=None):
        self.model = model
        #: (k,) the hand's band (:func:`declarer_band`) in each strain column; None: not known (pooled rows)
        self.bands = None if bands is None else np.asarray(bands, dtype=np.int64)
        #: the rules its deals are played under (:meth:`with_play`) and their kitties
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
            band = None if self.bands is None else int(self.bands[s])
            self._dist[s] = restrict(self.model.dist(self.values[:, s], nt, band), self.lo[:, s], self.hi[:, s])
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
        ``samples`` layouts a turn (:func:`kaiser_sim.game.play_deals`,
        ``seat`` declaring and leading) in each strain column of
        ``strains``.  A played deal's per-deal values get the residual
        (played - model) with weight (deals of its parity) / (played deals
        of its parity), so the mean over all deals, over the even or over
        the odd rows is the model's mean plus the mean residual of the
        played deals there: the control-variate estimate, unbiased for
        this hand whatever the model's error.  The declarer's opening lead
        (the same hand in every deal) is decided once for each
        :data:`~kaiser_sim.config.TABLE_PLAY_CHECK_LEAD_GROUP` played deals
        (``lead_group`` of :func:`kaiser_sim.game.play_deals`)."""
        n = self.values.shape[0]
        deals = np.asarray(deals, dtype=np.uint64)
        if deals.shape[0] != n:
            raise TablePlayError("one deal per row of the values")
        out = HandTablePlay(self.model, self.values, self.lo, self.hi, self.rules, self.kitties, self.bands)
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
        names = out._play(deals, sub, seat, dict.fromkeys(int(x) for x in strains), samples, seed)
        out.check = {"deals": int(len(sub)), "samples": int(samples), "seed": int(seed), "strains": names}
        return out

    def _play(self, deals, sub, seat: int, strains, samples: int, seed: int) -> list:
        """Play the deals ``sub`` out by PIMC players in each strain column of
        ``strains`` (``seat`` declaring), into :attr:`played`; the strains' names."""
        from ..game import play_deals

        names = []
        for s in strains:
            res = play_deals(deals[sub], np.full(len(sub), int(seat)), np.full(len(sub), s), samples=int(samples),
                             seed=int(seed), rules=self.rules,
                             kitties=None if self.kitties is None else np.asarray(self.kitties)[sub],
                             lead_group=config.TABLE_PLAY_CHECK_LEAD_GROUP)
            self.played[sub, s] = res.declarer_points
            names.append(_STRAIN_NAMES[s])
        return names


    def played_columns(self) -> set:
        """The strain columns some deal of which was played (:meth:`with_play`)."""
        return {int(c) for c in np.flatnonzero((self.played != NOT_PLAYED).any(axis=0))}

    def also_play(self, deals, seat: int, strains, samples: int = config.TABLE_PLAY_CHECK_SAMPLES,
                  seed: int = 0) -> HandTablePlay:
        """This table play with the deals :meth:`with_play` played also
        played in the strain columns ``strains`` not yet played (the same
        deals, weights, PIMC players and ``seed``): a strain the advisor
        comes to compare with the played ones gets the same correction.
        Itself when every column asked for is played or nothing was."""
        sub = np.flatnonzero(self.weight > 0)
        todo = [int(x) for x in dict.fromkeys(int(x) for x in strains) if int(x) not in self.played_columns()]
        if not len(sub) or not todo or not self.check:
            return self
        out = HandTablePlay(self.model, self.values, self.lo, self.hi, self.rules, self.kitties, self.bands)
        out.played, out.weight = self.played.copy(), self.weight.copy()
        names = out._play(np.asarray(deals, dtype=np.uint64), sub, seat, todo, samples, seed)
        out.check = {**self.check, "strains": list(self.check["strains"]) + names}
        return out


_NT_COLUMN = 4
_STRAIN_NAMES = ("S", "H", "D", "C", "NT", "low NT")


def hand_bands(hand, columns: int = 5) -> np.ndarray:
    """``(columns,)``: the band of one declaring ``hand`` (a bitboard) in
    each strain column S H D C NT (low NT): :func:`declarer_band`."""
    return declarer_band(np.full(columns, int(hand), dtype=np.uint64), np.arange(columns))


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


# --- the shipped models of the other games (a kitty, low no trump, cover 3) -------------------------

#: the shipped models of the games whose play differs from the standard one: file name -> the rules it is
#: built for (a preset, plus overrides)
VARIANT_MODELS = {
    "table_play_model_kitty-34.json": ("kitty-34", ()),
    "table_play_model_kitty-4.json": ("kitty-4", ()),
    "table_play_model_low-nt.json": ("low-nt", ()),
    "table_play_model_cover3.json": ("standard", ("cover3=true",)),
}


def play_key(rules) -> tuple:
    """What of the rules changes how a deal is played and scored for the
    model: the kitty (the deal's shape and the discard), whether low no
    trump is played, cover 3."""
    return (rules.kitty, rules.low_nt != "off", bool(rules.cover3))


def fit_seeds(provenance: dict) -> list[int]:
    """The seeds of the deals a model was fitted on (one, or several for a
    model built with ``kaiser-sim table-play-model --add``)."""
    return [int(s) for s in provenance.get("fit_seeds", [provenance.get("seed")]) if s is not None]


def seeds_text(provenance: dict) -> str:
    """``seed 101`` or ``seeds 101 and 103``: the fitting deals' seeds in words."""
    seeds = fit_seeds(provenance) or ["?"]
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    return "seeds " + ", ".join(map(str, seeds[:-1])) + f" and {seeds[-1]}"


def forget_loaded() -> None:
    """Forget the models :func:`load_model` has read (after a model file is rewritten)."""
    _load_cached.cache_clear()


def rules_args(rules) -> str:
    """``PRESET --rule k=v ...`` naming ``rules`` from the nearest preset."""
    from ..rules import PRESETS, format_value

    best = min(PRESETS, key=lambda p: len(PRESETS[p][0].differences(rules)))
    diff = PRESETS[best][0].differences(rules)
    return best + "".join(f" --rule {k}={format_value(v[1])}" for k, v in diff.items())


__all__ = ["POINTS", "KINDS", "MIN_ROWS", "BANDS", "NO_BAND", "BAND_PSEUDO", "band_index", "declarer_band",
           "fit_band", "tilt", "tilt_of", "BAND_ROWS", "hand_bands", "band_key", "key_parts", "KEYS", "TablePlayError", "TablePlayModel", "HandTablePlay", "hand_play",
           "restrict", "NOT_PLAYED", "fit_kind", "fit_counts", "joint_counts", "model_se", "load_model", "play_key",
           "VARIANT_MODELS", "model_file", "model_for", "forget_loaded", "fit_seeds", "seeds_text", "rules_args", "PLAY_RULES"]
