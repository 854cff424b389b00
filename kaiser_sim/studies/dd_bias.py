"""Study dd-bias: how far is real play from double dummy?

Every make-probability the other studies publish assumes double-dummy play:
all four players see all 32 cards.  Here each deal is also *played* by four
PIMC players (:mod:`kaiser_sim.dd.pimc`: each sees its own hand and the cards
played, samples ``samples`` layouts of the unseen cards consistent with what
it knows at every turn, and plays the card with the best average
double-dummy score), and the declaring side's points in that play are
compared with the deal's double-dummy value.

Contracts
---------
One contract a deal.  The declarer (who leads) rotates with the deal:
seat ``deal % 4``.  Trump is named from the declarer's own hand by the
bid-odds study's rule (``trump_rule``, default longest suit, ties by
strength, :func:`~kaiser_sim.studies.common.trump_by_rule`); every
``nt_every``-th deal (``deal % nt_every == nt_every - 1``) is played in no
trump instead, so that NT gets its own row (0: never).  The double-dummy
value is read from the results (the ``pts_<seat>_<strain>`` column), the
PIMC result is the declaring side's raw points at the end of the play.

Tables
------
- ``difference``: mean of (PIMC - DD) for the declaring side with its 95%
  interval, the spread, and how often PIMC does worse, the same or better;
  overall, by strain and by *bid level* -- the highest bid the contract
  makes double dummy (its DD points, "below min" when it makes none);
- ``distribution``: the share of each value of PIMC - DD;
- ``make``: P(declaring side's points >= b) for each bid b under DD and
  under PIMC play (Wilson 95%), and the paired difference (95% interval);
- ``corrected_bid_odds``: the same by declarer strength (the studies'
  strength measure, :func:`~kaiser_sim.studies.common.strength`, with the
  contract's trump), trump contracts only -- the bid-odds table
  corrected for play by players who cannot see the other hands;
- ``specials``: for the 5H and the 3S, the declaring side's mean points
  when it was dealt the card minus when the defenders were (the card's
  worth to its holder, as the five-hearts / three-spades studies ask),
  under DD and under PIMC, and how that worth changes (difference in
  differences, 95% interval) -- observational, not the paired
  counterfactual of the five-hearts study (which would need every deal
  played again with the card moved); also how often the side dealt the card
  captured it in the PIMC play and in one double-dummy line of play (four
  DD players, ties to the lowest card: any optimal line has the same
  points, not necessarily the same captures).

With ``mixed = true`` each deal is also played with a PIMC declaring side
against DD defenders and the converse (3x the play time): table
``decomposition`` splits the bias into the declaring side's own loss (never
positive: DD defenders hold it to at most the DD value) and the defenders'
gifts (never negative).

Caveats: PIMC is a model of a good player, not of people -- it cannot
signal, draw inferences from the others' choices, or plan to gather
information ("strategy fusion"), and it plays each deal without bidding
information.  Its result is a lower bound on expert play and DD an upper
bound in the defenders' sense; neither is exact.  n is the number of deals
played (one contract each; with ``max_deals`` the first deals of the run
only, and the footers say "n=... deals played, the first of the run's
..."); the seed of the play is the results' seed, and deal ``i`` of a run
always plays the same.

Intervals: every table has one row per deal (one contract a deal), and
each deal is in one group of a breakdown only (one strain, one bid level,
one strength band, holder or not of the card), so the rows behind every
interval are independent and the iid intervals (Wilson, normal) are the
right ones: nothing here pools rows that share a deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import config
from ..cards import FIVE_HEARTS, STRAINS, THREE_SPADES, Strain
from ..game import contract_values, play_deals
from ..rules import Rules
from .blocks import Table, ci, count, frame, num, pct
from ..runs.results import RunResults
from ..config import MAX_SEED
from .common import (definition, DEFAULT_TRUMP_RULE, MIN_CELL, NT, STRENGTH_BUCKETS, STRENGTH_NAME, TRUMP_RULE,
                     bucket, hands_array, levels_of, integer_axis, legend, mean_row, new_figure, points_array,
                     proportion_row, run_info, strength, StudyTables, TableMeta, trump_by_rule)
from .params import Param

KEY = "dd-bias"
TITLE = "Beyond double dummy: play without seeing the other hands"
QUESTION = "How far is real play, where no one sees the other hands, from double dummy?"
METHOD = (
    "Each deal gets one contract: the declarer rotates with the deal and names trump by the bid-odds rule "
    "(every 5th deal no trump). The deal is then played out by four PIMC players: at each turn a player "
    "deals the cards it cannot see 20 times, consistently with what it knows (its hand, the cards played, "
    "the suits others have shown out of), scores each of its cards double dummy on every layout and plays "
    "the best on average. The declaring side's points in that play are compared with the deal's double-"
    "dummy value. PIMC cannot signal or read the others' choices, so it is a model of good play, not of "
    "people.")

STRAIN_NAMES = tuple(s.label for s in STRAINS) + (Strain.L.label,)  # S H D C NT, and LNT (low no trump)
DEFAULT_NT_EVERY = 5

#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (
    Param("samples", int, config.PIMC_SAMPLES, "layouts of the unseen cards each PIMC player deals at every turn.",
          low=1, high=10_000),
    TRUMP_RULE,
    Param("nt_every", int, DEFAULT_NT_EVERY, "deals with deal % nt_every == nt_every - 1 are played in no trump "
          "(0: none).", low=0, high=config.STUDY_MAX_DEALS),
    Param("max_deals", int, None, "play only the first this many deals of the results.", low=1,
          high=config.STUDY_MAX_DEALS, unset="all of them"),
    MIN_CELL,
    Param("seed", int, None, "the seed of the play.", low=0, high=MAX_SEED, unset="the results' seed"),
    Param("mixed", bool, False, "also play each deal with a PIMC declaring side against double-dummy defenders and "
          "the converse (3x the play time): table decomposition."),
)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/dd-bias.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "PIMC play (players see only their own hand) against double dummy",
                        params={"samples": 20,
                                "trump_rule": "longest-strength",
                                "nt_every": 5,
                                "min_cell": 30}, deals=3_000)


def contracts(results, trump_rule: str = DEFAULT_TRUMP_RULE, nt_every: int = DEFAULT_NT_EVERY):
    """(declarer seat, strain) of every deal of ``results`` (module doc)."""
    idx = results["deal"].to_numpy(dtype=np.int64)
    hands = hands_array(results)
    dec = idx % 4
    strains = trump_by_rule(hands[np.arange(len(idx)), dec], trump_rule).astype(np.int64)
    if nt_every and nt_every > 0:
        strains = np.where(idx % nt_every == nt_every - 1, NT, strains)
    return dec, strains


def check_rules(rules) -> None:
    """Every rules set is played (:func:`kaiser_sim.game.play_deals`
    with the rules: a kitty taken up and discarded, low no trump, cover 3);
    kept so that callers checking first still work.  A value that is not a
    Rules is refused."""
    from . import StudyError

    if not hasattr(rules, "kitty"):
        raise StudyError(f"rules must be a kaiser_sim.rules.Rules, not {type(rules).__name__}")


def play_frame(results, rules: Rules, samples: int = config.PIMC_SAMPLES, trump_rule: str = DEFAULT_TRUMP_RULE,
               nt_every: int = DEFAULT_NT_EVERY, max_deals: int | None = None, seed: int = 0,
               dd_line: bool = True, mixed: bool = False) -> pd.DataFrame:
    """One row per deal: contract, DD value, PIMC result (and the DD line's
    captures; with ``mixed`` also the results of a PIMC declaring side
    against DD defenders and the converse).  ``max_deals`` keeps the first
    deals only.  ``rules``: the game played (the study's, as every study's) --
    with a kitty the declarer takes it up and discards (the DD value, from
    the results, is with the best discard; a special card in the kitty is
    the declarer's, one discarded is captured by nobody); with low no trump
    every other NT deal is played low (the results' LNT column); under
    cover 3 the DD value is :func:`kaiser_sim.game.contract_values`' (the
    run's values scored under cover 3, :func:`~kaiser_sim.studies.common.points_array`;
    a low NT contract solved) and the DD line need not realise it (that
    value is an approximation)."""
    from ..deal import kitty_of
    from ..runs.results import value_column

    if max_deals is not None:
        results = results.iloc[: int(max_deals)]
    deals = hands_array(results)
    n = len(results)
    idx = results["deal"].to_numpy(dtype=np.int64)
    dec, strains = contracts(results, trump_rule, nt_every)
    if rules.low_nt != "off" and nt_every and nt_every > 0:
        strains = np.where((strains == NT) & (idx % (2 * nt_every) == 2 * nt_every - 1), 5, strains)
    dd = points_array(results, rules)[np.arange(n), dec, np.minimum(strains, NT)]
    kitties = kitty_of(deals, deck34=rules.deck34) if rules.kitty != "none" else None
    low_rows = np.flatnonzero(strains == 5)
    if low_rows.size and rules.cover3:  # the run's values hold no low NT under cover 3: those contracts solved
        dd[low_rows] = contract_values(deals[low_rows], None if kitties is None else kitties[low_rows], dec[low_rows],
                                       strains[low_rows], rules)[0]
    elif low_rows.size:
        low_cols = [value_column("points", L, 5) for L in range(4)]
        low = results[low_cols].to_numpy(dtype=np.int64)
        dd = np.where(strains == 5, low[np.arange(n), dec], dd)
    play = {"rules": rules, "kitties": kitties}
    pim = _play_by_index(deals, dec, strains, idx, samples, int(seed), "pimc", **play)
    df = pd.DataFrame({"deal": idx, "declarer": dec, "strain": [STRAIN_NAMES[s] for s in strains],
                       "dd": dd, "pimc": pim.declarer_points})
    df["diff"] = df["pimc"] - df["dd"]
    own = deals[np.arange(n), dec]
    df["strength"] = strength(own, np.where(strains >= NT, trump_by_rule(own, trump_rule), strains))
    holders = {}
    for card, name in ((FIVE_HEARTS, "5h"), (THREE_SPADES, "3s")):
        bit = np.uint64(1) << np.uint64(card)
        dealt = (deals & bit) != 0
        # a special card in the kitty (or, on the 34-card deck, not dealt to a hand) is the declarer's
        holders[card] = np.where(dealt.any(axis=1), np.argmax(dealt, axis=1), dec)
        df[f"{name}_declaring"] = (holders[card] & 1) == (dec & 1)
        df[f"{name}_captured_pimc"] = _captured_by_holder(pim, card, holders[card])
    if mixed:
        for decl, dfn, col in (("pimc", "dd", "pimc_vs_dd_defence"), ("dd", "pimc", "dd_vs_pimc_defence")):
            r = _play_by_index(deals, dec, strains, idx, samples, int(seed), decl, dfn, **play)
            df[col] = r.declarer_points
    if dd_line:
        ddp = _play_by_index(deals, dec, strains, idx, 1, int(seed), "dd", **play)
        if not rules.cover3 and not np.array_equal(ddp.declarer_points, dd):
            raise AssertionError("double-dummy players did not realise the double-dummy value")
        for card, name in ((FIVE_HEARTS, "5h"), (THREE_SPADES, "3s")):
            df[f"{name}_captured_dd"] = _captured_by_holder(ddp, card, holders[card])
    return df


def _play_by_index(deals, dec, strains, idx, samples, seed, kind, defenders=None, *, rules, kitties=None):
    """``play_deals`` on deals whose run indices are ``idx`` (each deal's
    generator is seeded from its own index, so any subset plays the same)."""
    defenders = defenders or kind
    if len(idx) and np.array_equal(idx, np.arange(idx[0], idx[0] + len(idx))):
        return play_deals(deals, dec, strains, declarer=kind, defenders=defenders, samples=samples, seed=seed,
                          start=int(idx[0]), rules=rules, kitties=kitties)
    parts = [play_deals(deals[i:i + 1], dec[i:i + 1], strains[i:i + 1], declarer=kind, defenders=defenders,
                        samples=samples, seed=seed, start=int(idx[i]), rules=rules,
                        kitties=None if kitties is None else kitties[i:i + 1]) for i in range(len(idx))]
    first = parts[0]
    for name in ("plays", "trick_ns", "ns", "declarer_points", "discards", "declarer_tricks"):
        setattr(first, name, np.concatenate([getattr(p, name) for p in parts]))
    first.deals, first.declarers, first.strains = deals, dec, strains
    return first


def _captured_by_holder(r, card: int, holder) -> np.ndarray:
    """Did the side dealt ``card`` take the trick holding it?  (A trick N-S
    take is worth 1, 6, -2 or 4 to them, never 0: ``trick_ns == 0`` means
    E-W took it.)"""
    plays = r.plays.astype(np.int64)
    n = plays.shape[0]
    out = np.zeros(n, dtype=bool)
    for i in range(n):
        where = np.nonzero(plays[i] == card)[0]
        if not where.size:  # discarded with the kitty (or not in the deck): nobody captures it
            continue
        t = int(where[0]) // 4
        ns_took = r.trick_ns[i, t] != 0
        out[i] = (holder[i] & 1) == (0 if ns_took else 1)
    return out


def _difference_rows(df, group_col, label):
    rows = []
    groups = [("all", df)] if group_col is None else list(df.groupby(group_col, observed=True, sort=True))
    for key, g in groups:
        d = g["diff"].to_numpy()
        rows.append({"by": label, "group": str(key), **mean_row(d),
                     "dd_mean": g["dd"].mean(), "pimc_mean": g["pimc"].mean(),
                     "worse": float(np.mean(d < 0)), "same": float(np.mean(d == 0)), "better": float(np.mean(d > 0))})
    return rows


def run(run_results: RunResults, rules, samples: int = config.PIMC_SAMPLES, trump_rule: str = DEFAULT_TRUMP_RULE,
        nt_every: int = DEFAULT_NT_EVERY, max_deals: int | None = None, min_cell: int = 30,
        seed: int | None = None, mixed: bool = False) -> StudyTables:
    """Tables ``difference``, ``distribution``, ``make``, ``corrected_bid_odds``,
    ``specials`` and ``deals`` (one row per deal; module doc); with ``mixed``
    also ``decomposition`` (who loses what: module doc)."""
    results = run_results.frame
    check_rules(rules)
    seed = (run_results.seed or 0) if seed is None else seed  # the play's seed: the results' unless given
    df = play_frame(results, rules, samples, trump_rule, nt_every, max_deals, seed, mixed=mixed)
    levels = levels_of(rules)
    n = len(df)
    lo_bid = min(levels)
    df["bid_level"] = np.where(df["dd"] < lo_bid, f"below {lo_bid}", df["dd"].clip(upper=max(levels)).astype(str))
    order = [f"below {lo_bid}"] + [str(b) for b in levels]
    df["bid_level"] = pd.Categorical(df["bid_level"], categories=order, ordered=True)
    df["strain"] = pd.Categorical(df["strain"], categories=list(STRAIN_NAMES), ordered=True)

    diff = pd.DataFrame(_difference_rows(df, None, "all") + _difference_rows(df, "strain", "strain")
                        + _difference_rows(df, "bid_level", "bid level (DD points)"))
    diff = diff[diff["n"] > 0].reset_index(drop=True)

    counts = df["diff"].value_counts().sort_index()
    dist = pd.DataFrame({"pimc_minus_dd": counts.index.astype(int), "k": counts.to_numpy(),
                         "share": counts.to_numpy() / n})

    # one row a deal throughout (module doc): the iid intervals are exact, no clustering needed
    make_rows = []
    for b in levels:
        md = (df["dd"] >= b).to_numpy()
        mp = (df["pimc"] >= b).to_numpy()
        pd_ = proportion_row(md.sum(), n)
        pp = proportion_row(mp.sum(), n)
        delta = mean_row(mp.astype(float) - md.astype(float))
        make_rows.append({"bid": b, "n": n, "p_dd": pd_["p"], "dd_lo": pd_["lo"], "dd_hi": pd_["hi"],
                          "p_pimc": pp["p"], "pimc_lo": pp["lo"], "pimc_hi": pp["hi"],
                          "difference": delta["mean"], "diff_lo": delta["lo"], "diff_hi": delta["hi"],
                          "ratio": pp["p"] / pd_["p"] if pd_["p"] else np.nan})
    make = pd.DataFrame(make_rows)

    trump = df[~df["strain"].isin(["NT", Strain.L.label])].copy()
    trump["strength_bucket"] = bucket(trump["strength"], STRENGTH_BUCKETS)
    corr = []
    for key, g in trump.groupby("strength_bucket", observed=True):
        if len(g) < min_cell:
            continue
        for b in levels:
            pd_ = proportion_row((g["dd"] >= b).sum(), len(g))
            pp = proportion_row((g["pimc"] >= b).sum(), len(g))
            corr.append({"strength_bucket": str(key), "bid": b, "n": len(g), "p_dd": pd_["p"], "p_pimc": pp["p"],
                         "pimc_lo": pp["lo"], "pimc_hi": pp["hi"], "difference": pp["p"] - pd_["p"]})
    corrected = pd.DataFrame(corr)

    spec = []
    for name, label in (("5h", "5H"), ("3s", "3S")):
        hold = df[f"{name}_declaring"].to_numpy()
        row = {"card": label, "n_declaring": int(hold.sum()), "n_defending": int((~hold).sum())}
        for method in ("dd", "pimc"):
            a = df.loc[hold, method].to_numpy(dtype=float)
            c = df.loc[~hold, method].to_numpy(dtype=float)
            worth = a.mean() - c.mean() if a.size and c.size else np.nan
            # two disjoint groups of deals (one row each): independent, the Welch standard error is right
            se = np.sqrt(a.var(ddof=1) / a.size + c.var(ddof=1) / c.size) if a.size > 1 and c.size > 1 else np.nan
            row[f"worth_{method}"] = worth
            row[f"worth_{method}_lo"] = worth - 1.96 * se
            row[f"worth_{method}_hi"] = worth + 1.96 * se
        a = df.loc[hold, "diff"].to_numpy(dtype=float)
        c = df.loc[~hold, "diff"].to_numpy(dtype=float)
        did = a.mean() - c.mean() if a.size and c.size else np.nan
        se = np.sqrt(a.var(ddof=1) / a.size + c.var(ddof=1) / c.size) if a.size > 1 and c.size > 1 else np.nan
        row.update({"change": did, "change_lo": did - 1.96 * se, "change_hi": did + 1.96 * se})
        for method in ("pimc", "dd"):
            col = f"{name}_captured_{method}"
            if col in df:
                cap = proportion_row(df[col].sum(), n)
                row[f"holder_captures_{method}"] = cap["p"]
                row[f"holder_captures_{method}_lo"] = cap["lo"]
                row[f"holder_captures_{method}_hi"] = cap["hi"]
        spec.append(row)
    specials = pd.DataFrame(spec)

    decomposition = None
    if mixed:
        rows = []
        for col, label in (("pimc_vs_dd_defence", "PIMC declaring side vs DD defenders"),
                           ("dd_vs_pimc_defence", "DD declaring side vs PIMC defenders"),
                           ("pimc", "PIMC vs PIMC")):
            d = (df[col] - df["dd"]).to_numpy()
            rows.append({"play": label, **mean_row(d), "worse": float(np.mean(d < 0)),
                         "better": float(np.mean(d > 0))})
        decomposition = pd.DataFrame(rows)

    deals = df.drop(columns=["bid_level"]).copy()
    deals["strain"] = deals["strain"].astype(str)
    tables = StudyTables({"difference": diff, "distribution": dist, "make": make, "corrected_bid_odds": corrected,
                          "specials": specials, "deals": deals})
    if decomposition is not None:
        tables["decomposition"] = decomposition
    info = run_info(run_results.first(n), rules)
    k = int(samples)
    # n = the deals played (the estimates' n), not the run's size (max_deals plays the first ones only)
    of_run = f", the first of the run's {len(results):,}" if n < len(results) else ""
    foot = (f"n={n:,} deals played (one contract each{of_run}), seed={info['seed']}, rules={info['rules']}; "
            f"PIMC: 4 players, K={k} samples a turn, vs double dummy; bars/bands: 95% intervals "
            f"(one row a deal: independent)")
    notes = {
        "difference": "PIMC - DD = the declaring side's points when four PIMC players play the deal minus its "
                      "double-dummy value; bid level = the DD points of the contract (the highest bid it makes DD). "
                      "Grouping by the DD value selects on one of the two numbers compared: part of the trend across levels "
                      "is regression to the mean (a deal at DD 12 can only lose), not play.",
        "distribution": "Share of deals with each value of PIMC - DD (declaring side).",
        "make": "P(declaring side's points >= bid) under double-dummy values and under PIMC play; difference "
                "= paired (same deals), with its normal 95% interval; ratio = p_pimc / p_dd.",
        "corrected_bid_odds": f"Trump contracts (trump by rule {trump_rule}) by declarer strength ({STRENGTH_NAME}): "
                              "P(make) double dummy and in PIMC play.",
        "specials": "worth = declaring side's mean points when it was dealt the card minus when the defenders were "
                    "(observational: it also carries the rest of the hands that hold the card, so compare it only "
                    "between DD and PIMC, not with the five-hearts / three-spades counterfactuals); "
                    "change = PIMC worth - DD worth (difference in differences); holder_captures = share of deals "
                    "where the side dealt the card took it (DD: one double-dummy line, ties to the lowest card).",
        "deals": "One row per deal: contract, DD value, PIMC result.",
        "decomposition": "Declaring side's points minus the DD value when only one side plays PIMC: the "
                         "declaring side's own loss (<= 0 against DD defenders) and the defenders' gifts (>= 0).",
    }
    for key in tables:
        tables.add(key, tables[key], TableMeta(note=notes[key], footer=foot,
                                               run=dict(info, n=n, deals_in_run=int(len(results)))))
    return tables


def plot(tables) -> dict:
    figs = {}
    dist = tables["distribution"]
    foot = tables.meta("distribution").footer
    fig, ax = new_figure("PIMC play minus double dummy (declaring side)", "PIMC points - DD points",
                         "% of deals", foot.replace("bars/bands: 95% intervals", "no intervals drawn"))
    ax.bar(dist["pimc_minus_dd"], 100 * dist["share"], color="tab:blue", alpha=0.8)
    ax.axvline(0, color="0.3", linewidth=1)
    integer_axis(ax.xaxis)
    figs["difference_histogram"] = fig

    make = tables["make"]
    fig, ax = new_figure("Make probability by bid: double dummy vs PIMC play", "bid (points the declaring side "
                         "must take)", "P(make), % of deals", foot)
    for col, lo, hi, label in (("p_dd", "dd_lo", "dd_hi", "double dummy"),
                               ("p_pimc", "pimc_lo", "pimc_hi", "PIMC play (K samples)")):
        line, = ax.plot(make["bid"], 100 * make[col], marker="o", label=label)
        ax.fill_between(make["bid"], 100 * make[lo], 100 * make[hi], color=line.get_color(), alpha=0.18, linewidth=0)
    ax.set_ylim(-2, 102)
    integer_axis(ax.xaxis)
    legend(ax)
    figs["make_dd_vs_pimc"] = fig

    diff = tables["difference"]
    for by, name, title in (("bid level (DD points)", "difference_by_level", "by bid level (the contract's DD points)"),
                            ("strain", "difference_by_strain", "by strain")):
        g = diff[diff["by"] == by]
        fig, ax = new_figure(f"Mean PIMC - DD {title}", by, "mean points (PIMC - DD)", foot)
        x = np.arange(len(g))
        ax.errorbar(x, g["mean"], yerr=[g["mean"] - g["lo"], g["hi"] - g["mean"]], fmt="o", capsize=4)
        ax.set_xticks(x)
        ax.set_xticklabels(g["group"])
        ax.axhline(0, color="0.3", linewidth=1)
        figs[name] = fig

    spec = tables["specials"]
    fig, ax = new_figure("Worth of being dealt the 5H / 3S: double dummy vs PIMC play", "card",
                         "declaring side's mean points: dealt it - not", foot)
    x = np.arange(len(spec))
    for j, (method, label) in enumerate((("dd", "double dummy"), ("pimc", "PIMC play"))):
        m = spec[f"worth_{method}"]
        ax.bar(x + (j - 0.5) * 0.35, m, width=0.35, label=label,
               yerr=[m - spec[f"worth_{method}_lo"], spec[f"worth_{method}_hi"] - m], capsize=4)
    ax.set_xticks(x)
    ax.set_xticklabels(spec["card"])
    ax.axhline(0, color="0.3", linewidth=1)
    legend(ax)
    figs["specials_worth"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
    d = t["difference"]
    drows = [{"group": "all deals" if r["by"] == "all" else f"{'strain' if r['by'] == 'strain' else 'DD points'} "
              f"{r['group']}", "n": count(r["n"]), "PIMC - DD": ci(r["mean"], r["lo"], r["hi"], 2),
              "worse %": num(100 * r["worse"], 1), "same %": num(100 * r["same"], 1),
              "better %": num(100 * r["better"], 1)} for _, r in d.iterrows()]
    m = t["make"]
    mrows = [{"bid": str(int(r["bid"])), "double dummy %": pct(r["p_dd"], r["dd_lo"], r["dd_hi"]),
              "PIMC play %": pct(r["p_pimc"], r["pimc_lo"], r["pimc_hi"]),
              "change, % points": ci(r["difference"], r["diff_lo"], r["diff_hi"], 1, 100)} for _, r in m.iterrows()]
    sp = t["specials"]
    srows = [{"card": r["card"].replace("5H", "5♥").replace("3S", "3♠"),
              "worth, DD": ci(r["worth_dd"], r["worth_dd_lo"], r["worth_dd_hi"], 2),
              "worth, PIMC": ci(r["worth_pimc"], r["worth_pimc_lo"], r["worth_pimc_hi"], 2),
              "change": ci(r["change"], r["change_lo"], r["change_hi"], 2),
              "holder takes it, PIMC %": pct(r["holder_captures_pimc"], r["holder_captures_pimc_lo"],
                                             r["holder_captures_pimc_hi"]),
              "holder takes it, DD line %": pct(r.get("holder_captures_dd", np.nan),
                                                r.get("holder_captures_dd_lo", np.nan),
                                                r.get("holder_captures_dd_hi", np.nan))}
             for _, r in sp.iterrows()]
    blocks = [Table(f"{key}-difference", "PIMC play minus double dummy, declaring side's points", frame(drows),
                    "DD points = the contract's double-dummy value; grouping by it is partly regression to the mean"),
              Table(f"{key}-make", "Make probability: double dummy and PIMC play", frame(mrows),
                    "change: paired on the same deals"),
              Table(f"{key}-specials", "Worth of being dealt the 5♥ / 3♠ to the declaring side", frame(srows),
                    "worth: mean points dealt it minus not (observational); change: PIMC minus DD")]
    text = []
    n = int(d.iloc[0]["n"]) if len(d) else 0
    if len(d):
        r = d.iloc[0]
        text.append(f"Played by four PIMC players ({n:,} deals), the declaring side takes "
                    f"{ci(-r['mean'], -r['hi'], -r['lo'], 2)} points fewer than double dummy on average; it does "
                    f"worse in {num(100 * r['worse'], 0)}% of deals and better in {num(100 * r['better'], 0)}%.")
    for _, r in m.iterrows():
        if r["bid"] == 8:
            text.append(f"A bid of 8 makes {pct(r['p_dd'], r['dd_lo'], r['dd_hi'])}% of the time double dummy "
                        f"but {pct(r['p_pimc'], r['pimc_lo'], r['pimc_hi'])}% in PIMC play: the double-dummy "
                        "make-probabilities of the other sections are optimistic for the declarer.")
    return blocks, text, ["make_dd_vs_pimc", "difference_by_level", "difference_histogram"]
