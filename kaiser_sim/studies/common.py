"""Shared pieces of the studies: hand features, the trump rules, the strength
measure, per-declarer frames, interval tables and chart footers.

The declarer
------------
In Kaiser the declarer leads, so "declarer" is the seat on lead and every
deal gives four declarer hands, one per seat (:func:`declarer_frame`: one
row per deal and seat).  The four rows of a deal are not independent (they
share the deal): every interval over such rows is clustered by deal
(:func:`mean_row`, :func:`share_row`, :func:`make_rows` with
``cluster=d["deal"]``; :mod:`kaiser_sim.stats`).  "Makes b" means the
declaring side's double-dummy points >= b.

The strength measure
--------------------
:func:`strength` is the *Kaiser count* of the declarer's own hand: the best
predictor of the declaring side's points found by the hand-eval study,
rounded to half points so a player can count it at the table
(:data:`KAISER_COUNT`): in the trump suit (named by the trump rule) A 2,
K 1, Q 1/2; in side suits A 1, K 1/2; 1 a trump; 5H 1/2; 3S 1 1/2; plus
1/2.  The constants come from hand-eval on 100,000 deals (seed 1, deals
0-99,999, standard rules, trump longest-strength: :data:`KAISER_COUNT_FIT`);
rerun that study to refit them for other rules.  On deals independent of
that fit (the held-out fifth of 20,000 deals of seed 2) it explains
R^2 0.177 [0.166, 0.186] of the declaring side's points in the trump by
rule, against 0.065 for the plain high-card count and 0.184 for the
unrounded fitted count.

What the count means, as measured (hand-eval's ``count_calibration`` on
20,000 deals of seed 2, 80,000 declarer hands, 95% intervals clustered by
deal): on average the declaring side takes about the count + 1/3 points
in the trump by rule (mean count 6.74, mean points 7.07; points - count
+0.34 [0.32, 0.35]).  The count understates middling hands by 0.3 to 0.45
points (counts 4.5 to 9), is about right at 4 or less (+0.03
[-0.09, 0.15]) and at 9.5-10 (-0.10 [-0.18, -0.02]), and overstates
strong hands: from 10.5 up the side takes 0.70 [0.57, 0.83] points less
than the count (963 hands).  Read it as a ranking of hands roughly in
points, not as a promise of points.

The plain high-card count (A4 K3 Q2 J1) stays available as :func:`hcp` and
the ``hcp`` column of :func:`declarer_frame`.  The Kaiser count is the
strength axis of the bid-odds, bidding-chart and dd-bias studies.

Trump rules
-----------
The declarer names trump from its own hand (:func:`trump_by_rule`):

- ``longest``: the longest suit; ties to the first in S H D C order;
- ``strongest``: the suit with the most high-card points (A4 K3 Q2 J1);
  ties to the longer, then S H D C order;
- ``longest-strength`` (the default, "longest suit, ties by strength"): the
  longest suit; ties to the one with more high-card points, then S H D C.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import FIVE_HEARTS, THREE_SPADES
from ..results import HAND_COLUMNS, SEAT_KEYS, STRAIN_SUFFIXES, value_column
from ..stats import cluster_diff_ci, cluster_mean_ci, cluster_proportion_ci, wilson_interval

#: suit / strain keys in array order (NT = no trump, strain index 4)
SUITS = ("S", "H", "D", "C")
STRAINS = STRAIN_SUFFIXES  # S H D C NT
NT = 4
#: rank indices inside a suit (see kaiser_sim.cards)
RANK_A, RANK_K, RANK_Q, RANK_J, RANK_T = 8, 7, 6, 5, 4
#: plain high-card count A4 K3 Q2 J1
HCP_VALUES = {RANK_A: 4, RANK_K: 3, RANK_Q: 2, RANK_J: 1}
TRUMP_RULES = ("longest", "strongest", "longest-strength")
DEFAULT_TRUMP_RULE = "longest-strength"
#: the printable Kaiser count (module doc): points per feature of the hand,
#: relative to the trump suit named from it; "constant" is added once
KAISER_COUNT = {"trump A": 2.0, "trump K": 1.0, "trump Q": 0.5, "side A": 1.0, "side K": 0.5,
                "per trump": 1.0, "5H": 0.5, "3S": 1.5, "constant": 0.5}
#: where :data:`KAISER_COUNT` was fitted (module doc): hand-eval on deals
#: ``first .. first+deals-1`` of ``seed`` (8-card hands from the 32-card deck, no
#: fixed cards), ``rules`` and ``trump_rule``; a study scoring the count keeps
#: off these deals (hand-eval's ``scored_on``)
KAISER_COUNT_FIT = {"seed": 1, "first": 0, "deals": 100_000, "rules": "standard", "trump_rule": "longest-strength",
                    "hand_size": 8, "deck34": False}
STRENGTH_NAME = "Kaiser count (trump A 2 K 1 Q 1/2, side A 1 K 1/2, 1 a trump, 5H 1/2, 3S 1 1/2, +1/2)"
#: short name of the strength axis for table headers
STRENGTH_SHORT = "count"
#: strength buckets: (label, lowest, highest) of the Kaiser count (steps of 1/2)
STRENGTH_BUCKETS = (("<=4", 0, 4.0), ("4.5-5", 4.5, 5.0), ("5.5-6", 5.5, 6.0), ("6.5-7", 6.5, 7.0),
                    ("7.5-8", 7.5, 8.0), ("8.5-9", 8.5, 9.0), ("9.5-10", 9.5, 10.0), ("10.5+", 10.5, 99.0))
#: trump length buckets (the longest suit of 8 cards has at least 2)
LENGTH_BUCKETS = (("2", 0, 2), ("3", 3, 3), ("4", 4, 4), ("5", 5, 5), ("6+", 6, 99))
_M16 = np.uint64(0xFFFF)


# --- hand features ------------------------------------------------------------------------


def suit_bits(hands, suit: int) -> np.ndarray:
    """The 16 bits of ``suit`` of each hand (int64), rank index = bit."""
    h = np.asarray(hands, dtype=np.uint64)
    return ((h >> np.uint64(16 * suit)) & _M16).astype(np.int64)


def suit_lengths(hands) -> np.ndarray:
    """``(..., 4)`` int64 suit lengths S H D C of each hand."""
    return np.stack([np.bitwise_count(suit_bits(hands, s)).astype(np.int64) for s in range(4)], axis=-1)


def rank_held(hands, suit: int, rank: int) -> np.ndarray:
    """1 where the hand holds ``rank`` (index 0..8) of ``suit``, else 0."""
    return (suit_bits(hands, suit) >> rank) & 1


def suit_hcp(hands) -> np.ndarray:
    """``(..., 4)`` high-card points A4 K3 Q2 J1 in each suit."""
    out = []
    for s in range(4):
        b = suit_bits(hands, s)
        out.append(sum(v * ((b >> r) & 1) for r, v in HCP_VALUES.items()))
    return np.stack(out, axis=-1).astype(np.int64)


def hcp(hands) -> np.ndarray:
    """Plain high-card count A4 K3 Q2 J1 of each hand."""
    return suit_hcp(hands).sum(axis=-1)


def has_card(hands, card: int) -> np.ndarray:
    """True where the hand holds ``card`` (a card number of kaiser_sim.cards)."""
    return (np.asarray(hands, dtype=np.uint64) >> np.uint64(card)) & np.uint64(1) == np.uint64(1)


def aces(hands) -> np.ndarray:
    return sum(rank_held(hands, s, RANK_A) for s in range(4))


def kaiser_count(hands, trump) -> np.ndarray:
    """The printable Kaiser count (:data:`KAISER_COUNT`, module doc) of each
    hand with ``trump`` (0..3, one per hand) as its trump suit; float64,
    multiples of 1/2."""
    h = np.asarray(hands, dtype=np.uint64)
    t = np.asarray(trump, dtype=np.int64)
    k = KAISER_COUNT
    in_trump = lambda rank: np.choose(t, [rank_held(h, s, rank) for s in range(4)])  # noqa: E731
    all_suits = lambda rank: sum(rank_held(h, s, rank) for s in range(4))  # noqa: E731
    ta, tk = in_trump(RANK_A), in_trump(RANK_K)
    length = np.choose(t, [np.bitwise_count(suit_bits(h, s)).astype(np.int64) for s in range(4)])
    return (k["trump A"] * ta + k["trump K"] * tk + k["trump Q"] * in_trump(RANK_Q)
            + k["side A"] * (all_suits(RANK_A) - ta) + k["side K"] * (all_suits(RANK_K) - tk)
            + k["per trump"] * length + k["5H"] * has_card(h, FIVE_HEARTS) + k["3S"] * has_card(h, THREE_SPADES)
            + k["constant"]).astype(np.float64)


def strength(hands, trump=None) -> np.ndarray:
    """The shared strength measure of the studies: the Kaiser count with
    ``trump`` (default: the suit the default trump rule names from each
    hand; module doc).  One function, so the axis changes in one place."""
    if trump is None:
        trump = trump_by_rule(hands)
    return kaiser_count(hands, trump)


def trump_by_rule(hands, rule: str = DEFAULT_TRUMP_RULE) -> np.ndarray:
    """Trump suit (0..3) the declarer names from its own hand by ``rule``
    (one of :data:`TRUMP_RULES`, module doc)."""
    length = suit_lengths(hands)
    points = suit_hcp(hands)
    if rule == "longest":
        key = length
    elif rule == "strongest":
        key = points * 100 + length
    elif rule == "longest-strength":
        key = length * 100 + points
    else:
        raise ValueError(f"unknown trump rule '{rule}' (use {', '.join(TRUMP_RULES)})")
    return np.argmax(key, axis=-1)  # first maximum: S H D C order on full ties


def bucket(values, buckets) -> pd.Categorical:
    """Label each value with its ``(label, lo, hi)`` bucket (ordered categorical)."""
    v = np.asarray(values)
    labels = np.empty(v.shape, dtype=object)
    for label, lo, hi in buckets:
        labels[(v >= lo) & (v <= hi)] = label
    return pd.Categorical(labels, categories=[b[0] for b in buckets], ordered=True)


# --- the per-declarer frame ------------------------------------------------------------------


def points_array(results) -> np.ndarray:
    """``(n, 4, 5)`` int64 DD points (leader x strain) of a results frame."""
    cols = [value_column("points", L, s) for L in range(4) for s in range(5)]
    return results[cols].to_numpy(dtype=np.int64).reshape(len(results), 4, 5)


def hands_array(results) -> np.ndarray:
    return results[list(HAND_COLUMNS)].to_numpy(dtype=np.uint64)


def declarer_frame(results, trump_rule: str = DEFAULT_TRUMP_RULE) -> pd.DataFrame:
    """One row per (deal, seat): the seat as declarer (on lead).

    Columns: ``deal``, ``seat`` (0..3), ``len_S..len_C``, ``hcp_S..hcp_C``,
    ``hcp`` (the plain high-card count), ``strength`` (:func:`strength`, with
    the trump named by ``trump_rule``), ``aces``, ``has5h``, ``has3s``,
    ``pts_S..pts_NT`` (the declaring side's DD points with this seat on
    lead), ``trump`` (0..3 by ``trump_rule``), ``trump_len``, ``trump_pts``,
    ``best_suit``, ``best_suit_pts``, ``nt_pts``, ``best_pts`` (best of the
    five strains in hindsight), ``strength_bucket``, ``length_bucket``,
    ``hand`` (the declarer's bitboard).
    """
    hands = hands_array(results)  # (n, 4)
    pts = points_array(results)  # (n, 4, 5)
    n = len(results)
    flat_h = hands.reshape(-1)
    flat_p = pts.reshape(-1, 5)
    length = suit_lengths(flat_h)
    shcp = suit_hcp(flat_h)
    trump = trump_by_rule(flat_h, trump_rule)
    idx = np.arange(4 * n)
    best_suit = np.argmax(flat_p[:, :4], axis=1)
    df = pd.DataFrame({
        "deal": np.repeat(results["deal"].to_numpy(dtype=np.int64), 4),
        "seat": np.tile(np.arange(4, dtype=np.int64), n),
    })
    for s, key in enumerate(SUITS):
        df[f"len_{key}"] = length[:, s]
    for s, key in enumerate(SUITS):
        df[f"hcp_{key}"] = shcp[:, s]
    df["hcp"] = shcp.sum(axis=1)
    df["strength"] = strength(flat_h, trump)
    df["aces"] = aces(flat_h)
    df["has5h"] = has_card(flat_h, FIVE_HEARTS)
    df["has3s"] = has_card(flat_h, THREE_SPADES)
    for s, key in enumerate(STRAINS):
        df[f"pts_{key}"] = flat_p[:, s]
    df["trump"] = trump
    df["trump_len"] = length[idx, trump]
    df["trump_pts"] = flat_p[idx, trump]
    df["best_suit"] = best_suit
    df["best_suit_pts"] = flat_p[idx, best_suit]
    df["nt_pts"] = flat_p[:, NT]
    df["best_pts"] = flat_p.max(axis=1)
    df["strength_bucket"] = bucket(df["strength"], STRENGTH_BUCKETS)
    df["length_bucket"] = bucket(df["trump_len"], LENGTH_BUCKETS)
    df["hand"] = flat_h
    return df


# --- estimates with their uncertainty --------------------------------------------------------


def proportion_row(k, n) -> dict:
    """``{k, n, p, lo, hi}`` with the Wilson 95% interval, for ``n``
    independent rows (one per deal or per match); rows that share a deal
    take :func:`share_row`."""
    k, n = int(k), int(n)
    lo, hi = wilson_interval(k, n) if n else (np.nan, np.nan)
    return {"k": k, "n": n, "p": k / n if n else np.nan, "lo": lo, "hi": hi}


def share_row(flags, cluster=None) -> dict:
    """``{k, n, p, lo, hi}``: the share of true ``flags`` with its 95%
    interval clustered by ``cluster`` (the deal of each row; None: rows
    independent).  :func:`kaiser_sim.stats.cluster_proportion_ci`."""
    s = cluster_proportion_ci(flags, cluster)
    return {"k": s.k, "n": s.n, "p": s.p, "lo": s.lo, "hi": s.hi}


def mean_row(x, cluster=None) -> dict:
    """``{n, mean, lo, hi, sd}``: the mean with its 95% interval, clustered
    by ``cluster`` (the deal of each row; None: rows independent).
    :func:`kaiser_sim.stats.cluster_mean_ci`."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return {"n": 0, "mean": np.nan, "lo": np.nan, "hi": np.nan, "sd": np.nan}
    m = cluster_mean_ci(x, cluster)
    return {"n": int(x.size), "mean": m.mean, "lo": m.lo, "hi": m.hi, "sd": m.sd}


def diff_row(x, in_a, in_b, cluster=None) -> dict:
    """``{n_a, n_b, mean_a, mean_b, diff, lo, hi}``: the difference of the
    means of ``x`` over two groups of rows, with its 95% interval clustered
    by ``cluster`` (:func:`kaiser_sim.stats.cluster_diff_ci`)."""
    x = np.asarray(x, dtype=np.float64)
    in_a, in_b = np.asarray(in_a, dtype=bool), np.asarray(in_b, dtype=bool)
    if not in_a.any() or not in_b.any():
        return {"n_a": int(in_a.sum()), "n_b": int(in_b.sum()), "mean_a": np.nan, "mean_b": np.nan,
                "diff": np.nan, "lo": np.nan, "hi": np.nan}
    d = cluster_diff_ci(x, in_a, in_b, cluster)
    return {"n_a": int(in_a.sum()), "n_b": int(in_b.sum()), "mean_a": float(x[in_a].mean()),
            "mean_b": float(x[in_b].mean()), "diff": d.mean, "lo": d.lo, "hi": d.hi}


def rows_frame(rows: list[dict], columns) -> pd.DataFrame:
    """``pd.DataFrame(rows)``, or an empty frame with ``columns`` when every
    row was left out (a tiny run whose cells all fall under ``min_cell``), so
    tables and charts keep their shape."""
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=list(columns))


#: columns of :func:`make_rows` after its labels
MAKE_COLUMNS = ("bid", "k", "n", "p", "lo", "hi")


def make_rows(values, levels, cluster=None, **labels) -> list[dict]:
    """One row per bid level b: P(values >= b) with its Wilson interval,
    clustered by ``cluster`` (the deal of each row; :func:`share_row`)."""
    v = np.asarray(values)
    return [{**labels, "bid": int(b), **share_row(v >= b, cluster)} for b in levels]


def levels_of(rules) -> list[int]:
    """Bid levels of the rules, min bid .. 12."""
    from ..rules import MAX_BID

    return list(range(rules.min_bid, MAX_BID + 1))


def hand_score(rules, level: int, nt: bool, raw) -> np.ndarray:
    """The declaring side's hand score for a bid of ``level`` (NT or not)
    given its raw points (:func:`kaiser_sim.scoring.score_hands`; the 45
    rule does not apply to the declarer)."""
    from ..scoring import score_hands

    raw = np.asarray(raw, dtype=np.int64)
    if raw.size == 0:
        return np.zeros(0, dtype=np.int64)
    return score_hands(rules, level, nt, 0, raw, (0, 0)).delta[:, 0]


# --- footers, metadata ----------------------------------------------------------------------


def run_info(results, rules) -> dict:
    """n, seed and rules label of a results frame (from its metadata)."""
    meta = results.attrs.get("kaiser_sim", {}) or {}
    return {"n": int(len(results)), "seed": meta.get("seed", "?"), "rules": getattr(rules, "label", str(rules))}


def footer(info: dict, extra: str = "") -> str:
    text = f"n={info['n']:,} deals, seed={info['seed']}, rules={info['rules']}"
    if extra:
        text += f"; {extra}"
    return text + "; double dummy; 95% intervals, clustered by deal"


def tag(tables: dict, info: dict, extra: str = "") -> dict:
    """Attach the run info and a chart footer to every table (``attrs``)."""
    for df in tables.values():
        df.attrs["run"] = dict(info)
        df.attrs["footer"] = footer(info, extra)
    return tables


def new_figure(title: str, xlabel: str, ylabel: str, foot: str, figsize=(8, 5)):
    """``fig, ax`` titled and labelled, with the footer; legible at half A4."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize)
    ax.set_title(title, fontsize=12)
    ax.set_xlabel(xlabel, fontsize=10)
    ax.set_ylabel(ylabel, fontsize=10)
    ax.grid(alpha=0.3)
    fig.text(0.01, 0.01, foot, fontsize=7, color="0.35")
    fig.subplots_adjust(bottom=0.16)
    return fig, ax


def save_figure(fig, path, fmt: str) -> None:
    """``fig.savefig`` at 150 dpi, byte for byte the same for the same
    figure: an SVG gets no date and fixed element ids."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "kaiser-sim"}):
        fig.savefig(path, format=fmt, dpi=150, metadata={"Date": None} if fmt in ("svg", "pdf") else None)


def legend(ax, **kwargs) -> None:
    """``ax.legend(**kwargs)``, or, when the chart has no data to label (a
    run too small for any of its cells), a note saying so."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kwargs)
    else:
        ax.text(0.5, 0.5, "too few hands for this chart", transform=ax.transAxes, ha="center", va="center",
                fontsize=11, color="0.4")


def seat_name(seat: int) -> str:
    return SEAT_KEYS[int(seat)]


def results_frame(deals, points=None, seed=None, first: int = 0) -> pd.DataFrame:
    """A results frame (the ``load_results`` schema, points columns) built
    from a deals array, solving it unless ``points`` ((n, 4, 5)) is given;
    ``attrs["kaiser_sim"]`` records the seed.  For tests and small runs."""
    from ..solver import dd_table

    deals = np.asarray(deals, dtype=np.uint64)
    pts = dd_table(deals) if points is None else np.asarray(points)
    n = deals.shape[0]
    df = pd.DataFrame({"deal": np.arange(first, first + n, dtype=np.int64),
                       "dealer": (np.arange(first, first + n) % 4).astype(np.int8)})
    for s, col in enumerate(HAND_COLUMNS):
        df[col] = deals[:, s]
    for L in range(4):
        for s in range(5):
            df[value_column("points", L, s)] = pts[:, L, s].astype(np.int8)
    df.attrs["kaiser_sim"] = {"seed": seed, "deals": n, "mode": "points"}
    return df
