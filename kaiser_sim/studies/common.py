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

Hand features
-------------
Suit lengths, high-card points, the trump rules and the Kaiser count (the
studies' strength axis) live in :mod:`kaiser_sim.hands`, below the studies,
so that runs, models and policies use them too; they are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import config
from ..cards import FIVE_HEARTS, THREE_SPADES
from ..runs.figures import save_figure  # noqa: F401  (re-exported: the studies save with it)
from ..hands import (DEFAULT_TRUMP_RULE, HCP_VALUES, KAISER_COUNT, KAISER_COUNT_FIT, RANK_A, RANK_J, RANK_K,  # noqa: F401
                     RANK_Q, RANK_T, STRENGTH_BUCKETS, TRUMP_RULES, aces, has_card, hcp, kaiser_count, rank_held, strength, suit_bits,
                     suit_hcp, suit_lengths, trump_by_rule)
from ..runs.results import HAND_COLUMNS, SEAT_KEYS, STRAIN_SUFFIXES, RunResults, value_column
from ..stats import cluster_diff_ci, cluster_mean_ci, cluster_proportion_ci, wilson_interval
from .params import Param

#: suit / strain keys in array order (NT = no trump, strain index 4)
SUITS = ("S", "H", "D", "C")
STRAINS = STRAIN_SUFFIXES  # S H D C NT
NT = 4
STRENGTH_NAME = "Kaiser count (trump A 2 K 1 Q 1/2, side A 1 K 1/2, 1 a trump, 5H 1/2, 3S 1 1/2, +1/2)"
#: short name of the strength axis for table headers
STRENGTH_SHORT = "count"
#: trump length buckets (the longest suit of 8 cards has at least 2)
LENGTH_BUCKETS = (("2", 0, 2), ("3", 3, 3), ("4", 4, 4), ("5", 5, 5), ("6+", 6, 99))
#: the labels of the count bands and trump lengths, weakest / shortest first (chart colours)
STRENGTH_LEVELS = tuple(b[0] for b in STRENGTH_BUCKETS)
LENGTH_LEVELS = tuple(b[0] for b in LENGTH_BUCKETS)


def definition(key: str, description: str, params: dict, *, deals: int | None = 100_000, seed: int = config.STUDY_SEED,
               rules: str = "standard") -> dict:
    """A study's default definition, in the shape of ``analyses/NAME.toml``
    (which a test keeps equal to it): the study, what it answers, its deals
    (``None`` for a study that makes no results dataset), seed, rules preset,
    no single-rule overrides, and its parameters."""
    out = {"study": key, "description": description}
    if deals is not None:
        out["deals"] = deals
    return {**out, "seed": seed, "rules": rules, "rule": [], "params": dict(params)}


#: the parameters several studies share (each study lists its own in ``PARAMETERS``, :mod:`.params`)
TRUMP_RULE = Param("trump_rule", str, DEFAULT_TRUMP_RULE, "how the declarer names trump from its own hand "
                   "(kaiser_sim.hands.trump_by_rule).", choices=tuple(TRUMP_RULES))
MIN_CELL = Param("min_cell", int, 30, "cells of the breakdowns with fewer hands than this are left out.",
                 low=1, high=config.STUDY_MAX_DEALS)


def bucket(values, buckets) -> pd.Categorical:
    """Label each value with its ``(label, lo, hi)`` bucket (ordered categorical)."""
    v = np.asarray(values)
    labels = np.empty(v.shape, dtype=object)
    for label, lo, hi in buckets:
        labels[(v >= lo) & (v <= hi)] = label
    return pd.Categorical(labels, categories=[b[0] for b in buckets], ordered=True)


# --- the per-declarer frame ------------------------------------------------------------------


def _table(results, mode: str, strains: int = 5) -> np.ndarray:
    cols = [value_column(mode, L, s) for L in range(4) for s in range(strains)]
    return results[cols].to_numpy(dtype=np.int64).reshape(len(results), 4, strains)


def run_points(results, rules, *, low_nt: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(leader's side, other side)``: two ``(n, 4, 5)`` int64 arrays, the
    double-dummy points each side scores under ``rules`` with each leader
    (= declarer) N E S W in each strain S H D C NT, on the deals of a
    results frame.  The one way a study reads a run's values.  ``low_nt``
    and rules that play low no trump: ``(n, 4, 6)``, low NT the sixth strain
    (:data:`kaiser_sim.game.LOW_NT`; a run simulated under such rules stores
    it, ``pts_N_LNT`` ...).

    A run's ``pts_`` columns hold the leader's side's points in the standard
    count (tricks + 5H - 3S; :func:`kaiser_sim.game.dd_table`), and the
    other side takes ``rules.raw_total`` minus them (with a 4-card kitty
    that may discard the 5H or 3S to nobody that is an approximation:
    :func:`kaiser_sim.studies.specials.sides_from_run`).  Under cover 3
    (``rules.cover3``) each side is scored from its tricks
    (:func:`kaiser_sim.game.cover3_points`: the leader's side its
    double-dummy tricks, the other side the rest), exactly as
    :func:`kaiser_sim.game.contract_values` scores a contract: the tricks
    are the run's ``trk_`` columns (a run simulated under cover 3 stores
    them), else solved here through the door
    (:func:`kaiser_sim.game.dd_table` in tricks: exact, slower).  Without
    cover 3 the run's columns are returned as they are."""
    if not hasattr(rules, "cover3"):
        raise TypeError(f"rules must be a kaiser_sim.rules.Rules, not {type(rules).__name__}")
    strains = 6 if low_nt and rules.low_nt != "off" else 5
    lead = _table(results, "points", strains)
    other = rules.raw_total - lead
    if not rules.cover3:
        return lead, other
    from ..deal import kitty_of
    from ..game import cover3_points, dd_table

    if value_column("tricks", 0, 0) in results:
        tricks = _table(results, "tricks", strains)
    else:  # a --mode points run: the tricks solved again (the kitty taken up and discarded best, as the points)
        deals = hands_array(results)
        kitties = kitty_of(deals, deck34=rules.deck34) if rules.kitty != "none" else None
        tricks = np.asarray(dd_table(deals, rules, "tricks", kitties=kitties), dtype=np.int64)[:, :, :strains]
    return (np.asarray(cover3_points(lead, tricks), dtype=np.int64),
            np.asarray(cover3_points(other, rules.tricks - tricks), dtype=np.int64))


def playout_sides(results, rules):
    """``(points, other)``: both sides' double-dummy points on a results
    frame's deals as :func:`kaiser_sim.strategy.call_worth.playout_net`
    reads them (every leader = declarer and strain, with low NT when the
    rules play it: :func:`run_points` with ``low_nt``).  ``other`` is None
    where the other side takes the rest of ``rules.raw_total`` (playout_net's
    default: the plain game, low NT, a kitty whose 5H and 3S cannot be
    discarded to nobody); the other side's array under cover 3; and where the
    declarer may discard the 5H or 3S with the kitty to nobody (K1: the run
    stores the declaring side's points only) a :class:`SolvedOther`, read
    like the array, that solves the contracts it is asked for through the
    door."""
    lead, other = run_points(results, rules, low_nt=True)
    if discards_to_nobody(rules):
        return lead, SolvedOther.of(hands_array(results), rules, other)
    return lead, (other if rules.cover3 else None)


def discards_to_nobody(rules) -> bool:
    """May the declarer discard the 5H or 3S with the kitty so that it counts
    for nobody (then the sides' points need not add to ``rules.raw_total``)?"""
    return rules.kitty != "none" and rules.may_discard_specials and rules.kitty_discard_points != "declarer"


class SolvedOther:
    """The other side's double-dummy points ``(n, 4, S)`` of a run's deals
    under a kitty whose 5H or 3S the declarer may discard to nobody, read
    like an array: ``[rows, declarer, strain]`` gives the entries,
    ``[rows]`` a view of those rows (the same entries, shared).

    A run stores the declaring side's points only; the other side takes the
    rest of the total unless the best discard threw a special card away.  An
    entry whose declarer holds the 5H or 3S once it takes up the kitty is
    therefore solved through the door the first time it is read
    (:func:`kaiser_sim.game.contract_values`: the declarer's best discard,
    a tie going to the one that leaves the defenders fewer points); every
    other entry is ``other`` (:func:`run_points`'), exact there.  A Python
    loop of solves: slow (the notes of the tables that read it say so), so
    :meth:`of` shares the solves of one run's deals between the tables that
    read them (the auction study's call chart, the heard chart and the net
    chart of one report: 45% fewer solves on a 1,000-deal kitty-4 run)."""

    #: the last run's solves: ``(rules, digest of the deals and the run's other side) -> state`` (one entry: one
    #: run at a time)
    _memo: dict = {}

    @classmethod
    def of(cls, deals, rules, other) -> SolvedOther:
        """A :class:`SolvedOther` of ``deals`` under ``rules``, sharing the
        entries already solved on the same deals, rules and ``other`` (the
        last ones asked for) instead of solving them again: a contract's
        value is a function of the deal and the rules alone."""
        import hashlib

        deals = np.ascontiguousarray(deals, dtype=np.uint64)
        other = np.ascontiguousarray(other, dtype=np.int64)
        key = (rules, hashlib.blake2b(deals.tobytes() + other.tobytes(), digest_size=16).digest())
        state = cls._memo.get(key)
        if state is None:
            cls._memo.clear()
            state = cls._memo[key] = cls(deals, rules, other)._state
        return cls(None, None, None, None, state)

    def __init__(self, deals, rules, other, rows=None, _state=None):
        from ..deal import kitty_of

        if _state is None:
            deals = np.asarray(deals, dtype=np.uint64)
            kitties = kitty_of(deals, deck34=rules.deck34)
            specials = np.uint64((1 << FIVE_HEARTS) | (1 << THREE_SPADES))
            holds = ((deals | kitties[:, None]) & specials) != 0  # (n, 4): the declarer may discard a special
            values = np.array(other, dtype=np.int64)
            _state = {"deals": deals, "kitties": kitties, "rules": rules, "values": values,
                      "todo": np.repeat(holds[:, :, None], values.shape[2], axis=2), "solved": 0}
        self._state = _state
        self._rows = np.arange(_state["values"].shape[0]) if rows is None else np.asarray(rows)

    @property
    def solved(self) -> int:
        """How many contracts were solved so far (all views together)."""
        return self._state["solved"]

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            return SolvedOther(None, None, None, self._rows[key], self._state)
        from ..game import contract_values

        rows, declarer, strain = key
        st = self._state
        g = np.broadcast_to(self._rows[rows], np.broadcast(self._rows[rows], declarer, strain).shape)
        declarer, strain = np.broadcast_arrays(declarer, strain, g)[:2]
        need = st["todo"][g, declarer, strain]
        if need.any():
            cell = np.unique(np.stack([g[need], declarer[need], strain[need]]), axis=1)
            _, dfd = contract_values(st["deals"][cell[0]], st["kitties"][cell[0]], cell[1], cell[2], st["rules"])
            st["values"][cell[0], cell[1], cell[2]] = dfd
            st["todo"][cell[0], cell[1], cell[2]] = False
            st["solved"] += cell.shape[1]
        return st["values"][g, declarer, strain]


def points_array(results, rules) -> np.ndarray:
    """``(n, 4, 5)`` int64 DD points (leader x strain) of the leader's side of
    a results frame, as that side scores them under ``rules`` (:func:`run_points`)."""
    return run_points(results, rules)[0]


def hands_array(results) -> np.ndarray:
    return results[list(HAND_COLUMNS)].to_numpy(dtype=np.uint64)


def declarer_frame(results, rules, trump_rule: str = DEFAULT_TRUMP_RULE) -> pd.DataFrame:
    """One row per (deal, seat): the seat as declarer (on lead); the points
    as the declaring side scores them under ``rules`` (:func:`points_array`).

    Columns: ``deal``, ``seat`` (0..3), ``len_S..len_C``, ``hcp_S..hcp_C``,
    ``hcp`` (the plain high-card count), ``strength`` (:func:`strength`, with
    the trump named by ``trump_rule``), ``aces``, ``has5h``, ``has3s``,
    ``pts_S..pts_NT`` (the declaring side's DD points with this seat on
    lead), ``trump`` (0..3 by ``trump_rule``), ``trump_len``, ``trump_pts``,
    ``best_suit``, ``best_suit_pts``, ``nt_pts``, ``best_pts`` (best of the
    five strains in hindsight), ``strength_bucket``, ``length_bucket``,
    ``hand`` (the declarer's bitboard); under rules that play low no trump
    also ``lnt_pts`` (the declaring side's low NT points, :func:`run_points`
    with ``low_nt``).
    """
    hands = hands_array(results)  # (n, 4)
    # (n, 4, 5): the declaring side's points (points_array); low NT's the sixth strain, read in the same pass
    every = run_points(results, rules, low_nt=True)[0]
    pts = every[:, :, :5]
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
    if rules.low_nt != "off":
        df["lnt_pts"] = every[:, :, 5].reshape(-1)
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


# --- table play ------------------------------------------------------------------------------


def table_play_model(rules):
    """``(model, None)``: the table-play model shipped for ``rules``
    (:func:`kaiser_sim.strategy.table_play.load_model`: the one built for their game,
    a kitty, low no trump or cover 3 included), else ``(None, why)`` (the
    model file cannot be read)."""
    from ..strategy.measure import measure_for

    measure = measure_for(rules)
    if not measure.table:
        return None, f"no table-play estimates: {measure.reason}"
    return measure.table_model, None


def with_model_error(row: dict, se_model: float, cluster) -> dict:
    """``row`` (:func:`mean_row`'s, clustered by ``cluster``) with the
    table-play model's own standard error ``se_model`` added to the deals'
    in quadrature: ``se = sqrt(se_deals^2 + se_model^2)``, the same t
    quantile (:func:`kaiser_sim.strategy.table_play.model_se`)."""
    from ..stats import Z95, t_quantile

    if not np.isfinite(row.get("mean", np.nan)) or not np.isfinite(se_model):
        return row
    g = int(np.unique(np.asarray(cluster)).size) if cluster is not None else int(row["n"])
    q = t_quantile(Z95, g - 1) if cluster is not None else Z95
    se_deals = (row["hi"] - row["mean"]) / q if np.isfinite(row["hi"]) else 0.0
    se = float(np.hypot(se_deals, se_model))
    return {**row, "lo": row["mean"] - q * se, "hi": row["mean"] + q * se}


def replicate_means(values, groups) -> np.ndarray:
    """``values`` (B, rows) of B model replicates; the standard deviation over
    the replicates of the mean over each group of rows (``groups``: a list
    of row index arrays) — the model's standard error of each group's mean."""
    v = np.asarray(values, dtype=np.float64)
    return np.array([v[:, g].mean(axis=1).std(ddof=1) if len(g) else np.nan for g in groups])


# --- footers, metadata ----------------------------------------------------------------------


def run_info(run_results: RunResults, rules) -> dict:
    """n, seed and rules label of a run's results (the seed from its run metadata)."""
    return {"n": int(len(run_results.frame)), "seed": run_results.metadata.get("seed", "?"),
            "rules": getattr(rules, "label", str(rules))}


def footer(info: dict, extra: str = "") -> str:
    text = f"n={info['n']:,} deals, seed={info['seed']}, rules={info['rules']}"
    if extra:
        text += f"; {extra}"
    return text + "; double dummy; 95% intervals, clustered by deal"


@dataclass
class TableMeta:
    """What a study says of one of its tables beyond its cells: ``note`` (the
    sentence printed above it: what its rows and columns are), ``footer``
    (n, seed, rules and the measure: printed under it and on its charts),
    ``run`` (:func:`run_info`'s n, seed and rules, with what the study adds:
    the deals a part used) and ``extra``, the study's own keys (the measure
    and bidding model of a call chart, the NT scoring, ...), which the
    study's ``plot``, ``section`` and ``cheat_sheet`` (and
    :mod:`~kaiser_sim.studies.advice`) read back."""

    note: str = ""
    footer: str = ""
    run: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


class StudyTables(dict):
    """What a study's ``run`` returns: its tables (a ``dict``, table name ->
    DataFrame, so ``tables["make"]`` reads a table) and each table's
    :class:`TableMeta` (``tables.meta("make").note``).  The metadata lives
    here, not on the frames: pandas copies or drops a frame's own metadata
    as it is worked on, and it is not part of the data."""

    def __init__(self, tables=(), meta: dict | None = None):
        super().__init__(tables)
        self._meta: dict[str, TableMeta] = dict(getattr(tables, "_meta", {}))
        self._meta.update(meta or {})

    def meta(self, name: str) -> TableMeta:
        """Table ``name``'s metadata (an empty record, kept, for a table that
        has none yet); :class:`KeyError` for a table it does not hold."""
        if name not in self:
            raise KeyError(name)
        return self._meta.setdefault(name, TableMeta())

    def add(self, name: str, table: pd.DataFrame, meta: TableMeta | None = None) -> None:
        """Hold ``table`` as ``name``, with its metadata ``meta`` (default: none yet)."""
        self[name] = table
        self._meta[name] = meta if meta is not None else TableMeta()


def tag(tables: dict, info: dict, extra: str = "") -> StudyTables:
    """``tables`` as :class:`StudyTables`, every table's metadata given the
    run info (``run``) and its footer (:func:`footer` with ``extra``)."""
    tables = tables if isinstance(tables, StudyTables) else StudyTables(tables)
    for name in tables:
        meta = tables.meta(name)
        meta.run = dict(info)
        meta.footer = footer(info, extra)
    return tables


#: the chart footer's type (pt in the figure; a chart is printed at 7/8 of its size: 9.5 prints at 8.3) and grey
FOOTER_SIZE, FOOTER_COLOR = 9.5, "0.2"
#: the smallest type of a chart's labels, ticks and legend (pt in the figure: 8.3 pt in print, at 7/8)
CHART_TYPE = 9.5
#: the measures a chart footer can name (:func:`chart_footer`), longest first
MEASURES = ("table play (PIMC model) and double dummy", "table play (PIMC model)", "double dummy")
#: the colours of ordered categories (count bands, trump lengths, aces): one sequential map, the
#: same level always the same colour (:func:`ordered_colors`); the light end of viridis is cut
#: off so that every level shows on white
ORDERED_CMAP, ORDERED_RANGE = "viridis", (0.0, 0.85)


def chart_footer(foot: str, measure: str | None = None, intervals: bool = True) -> str:
    """A table footer (:func:`footer`) made a chart's: ``measure`` (one of
    :data:`MEASURES`, or any words) replaces the measure the footer names,
    and a chart that draws no intervals says so instead of claiming them."""
    if measure:
        for m in MEASURES:
            if f"; {m};" in foot:
                foot = foot.replace(f"; {m};", f"; {measure};", 1)
                break
    if not intervals:
        foot = foot.replace("; 95% intervals, clustered by deal", "; no intervals drawn")
    return foot


def ordered_colors(levels, present=None) -> dict:
    """``{level: colour}`` for the ordered ``levels`` (all of them, e.g. every
    count band of :data:`STRENGTH_BUCKETS`), evenly along one sequential
    map, so a level has the same colour on every chart whichever levels a
    chart shows (``present``, default all)."""
    from matplotlib import colormaps

    cmap = colormaps[ORDERED_CMAP]
    levels = [str(v) for v in levels]
    lo, hi = ORDERED_RANGE
    n = max(len(levels) - 1, 1)
    colors = {lv: cmap(lo + (hi - lo) * i / n) for i, lv in enumerate(levels)}
    return colors if present is None else {str(v): colors[str(v)] for v in present if str(v) in colors}


def integer_axis(axis) -> None:
    """Ticks on whole numbers only (bids, aces, points changes)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _wrap_measured(text: str, width_pt: float, size: float) -> list[str]:
    """``text`` broken into lines no wider than ``width_pt`` points at
    ``size`` pt in matplotlib's default font (measured, not estimated)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    prop, measure = FontProperties(size=size), TextToPath()

    def width(s):
        return measure.get_text_width_height_descent(s, prop, ismath=False)[0]

    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and width(trial) > width_pt:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


def new_figure(title: str, xlabel: str, ylabel: str, foot: str, figsize=(8, 5), measure: str | None = None,
               intervals: bool = True):
    """``fig, ax`` titled and labelled, with the footer; legible at half A4.

    The footer (``foot``, a table's :attr:`TableMeta.footer`: n, seed, rules, the
    measure) goes through :func:`chart_footer` with ``measure`` and
    ``intervals``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize)
    ax.set_title(title, fontsize=12)
    ax.set_xlabel(xlabel, fontsize=10)
    ax.set_ylabel(ylabel, fontsize=10)
    ax.tick_params(labelsize=CHART_TYPE)  # 8 pt or more in print
    ax.grid(alpha=0.3)
    # the footer wraps to the figure's width, measured in the font it is set in
    lines = _wrap_measured(chart_footer(foot, measure, intervals), 72 * figsize[0] * 0.97, FOOTER_SIZE)
    fig.text(0.01, 0.01, "\n".join(lines), fontsize=FOOTER_SIZE, color=FOOTER_COLOR)
    fig._ks_footer_in = 0.08 + len(lines) * FOOTER_SIZE * 1.25 / 72  # inches the footer takes at the bottom
    fig.subplots_adjust(bottom=bottom_margin(fig))
    return fig, ax


def bottom_margin(fig, below_axes: float = 0.62) -> float:
    """The ``subplots_adjust(bottom=...)`` that leaves ``below_axes`` inches
    under the axes for tick labels and the axis label (more for rotated
    tick labels) above the footer of :func:`new_figure`."""
    return (below_axes + getattr(fig, "_ks_footer_in", 0.0)) / fig.get_figheight()


def legend(ax, fontsize: float = CHART_TYPE, title: str | None = None, **kwargs) -> None:
    """The legend beside the axes (never over the data: the axes narrow to
    make room), or, when the chart has no data to label (a run too small
    for any of its cells), a note saying so.  ``ncol`` is ignored: one
    column beside the plot."""
    kwargs.pop("ncol", None)
    if not ax.get_legend_handles_labels()[0]:
        ax.text(0.5, 0.5, "too few hands for this chart", transform=ax.transAxes, ha="center", va="center",
                fontsize=11, color="0.4")
        return
    fig = ax.figure
    leg = ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=fontsize,
                    title=title, title_fontsize=fontsize, frameon=False, **kwargs)
    leg._legend_box.align = "left"
    width = leg.get_window_extent(fig.canvas.get_renderer()).width / fig.bbox.width
    pos = fig.subplotpars
    fig.subplots_adjust(right=min(pos.right, 0.98 - width - 0.02 * (pos.right - pos.left)))


def seat_name(seat: int) -> str:
    return SEAT_KEYS[int(seat)]


def results_frame(deals, points=None, first: int = 0) -> pd.DataFrame:
    """A results frame (the ``load_results`` schema, points columns) built
    from a deals array, solving it unless ``points`` ((n, 4, 5)) is given.
    For tests and small runs."""
    from ..game import dd_table
    from ..rules import STANDARD

    deals = np.asarray(deals, dtype=np.uint64)
    pts = dd_table(deals, STANDARD) if points is None else np.asarray(points)
    n = deals.shape[0]
    df = pd.DataFrame({"deal": np.arange(first, first + n, dtype=np.int64),
                       "dealer": (np.arange(first, first + n) % 4).astype(np.int8)})
    for s, col in enumerate(HAND_COLUMNS):
        df[col] = deals[:, s]
    for L in range(4):
        for s in range(5):
            df[value_column("points", L, s)] = pts[:, L, s].astype(np.int8)
    return df


def results_run(deals, points=None, seed=None, first: int = 0) -> RunResults:
    """:func:`results_frame` as the results of a run (what a study reads),
    its run metadata recording the seed.  For tests and small runs."""
    df = results_frame(deals, points, first)
    return RunResults(df, {"seed": seed, "deals": len(df), "mode": "points"})


#: the table card's count: twice the Kaiser count less 1, so that every card adds a whole number
#: (trump A 4, K 2, Q 1; side A 2, K 1; 2 a trump; 5H 1; 3S 3) and the constant goes
CARD_COUNT = {"trump A": 4, "trump K": 2, "trump Q": 1, "side A": 2, "side K": 1, "per trump": 2, "5H": 1, "3S": 3}


def card_count(count: float) -> int:
    """The table card's whole-number count of a hand of Kaiser count ``count``: 2 x count - 1."""
    return int(round(2 * count - 1))


def card_band(strength_label: str) -> str:
    """A count band (:data:`STRENGTH_BUCKETS`) in the card's whole numbers: ``6.5-7`` -> ``12-13``."""
    lo, hi = {b[0]: b[1:] for b in STRENGTH_BUCKETS}[strength_label]
    if lo <= 0:
        return f"{card_count(hi)} or less"
    if hi >= 99:
        return f"{card_count(lo)} or more"
    return f"{card_count(lo)}-{card_count(hi)}"
