"""The 5H and the 3S: what a special card is worth (shared by studies 4 and 5).

Three views, on a sample of at most ``max_resolve`` deals of the results
(the first ones: the deals are independent, so that is a random sample;
with a kitty rule, deals whose card lies in the kitty are skipped); each
table reports its own n.

(a) **Paired counterfactual.**  On the same deal, the card is moved from the
    hand dealt it (the *holder*) to another hand in exchange for that hand's
    lowest card of the same suit (the special card is the lowest of its
    suit, so every suit length stays the same), and the deal is re-solved.
    The holder declares (is on lead), in the trump its rule names from its
    original hand and in no trump.  ``change`` = the holder's side's points
    after the move minus before.  A receiver holding no card of that suit
    cannot exchange without changing suit lengths: those (deal, receiver)
    pairs are left out and counted (``excluded``), so each receiver's
    rows are the deals where it holds the suit.  Receivers: the holder's
    partner, left-hand opponent (LHO) and right-hand opponent (RHO).
(b) **Capture** and (c) **bonus switched off.**  The solver returns values,
    not play records, so who *takes* the card is not observed.  The same
    deal is solved with the card's bonus switched off (``five=0`` /
    ``three=0``); for any fixed line of play the two scores differ by the
    card's value exactly when the holder's side takes it, so for the
    holder's side ``worth = points - points with the card counting 0`` lies
    between 0 and the card's value (+5 for the 5H, -3 for the 3S): the
    marginal worth of the card under optimal play by both sides.  ``worth =
    value`` means the holder's side takes the card whatever the defence
    (reported as "captured"), ``worth = 0`` that it cannot profit from it
    ("not captured"); values in between mean the card is traded against
    tricks and the literal capture is not identified.  Every leader and
    strain of the sample deal is used (20 solves a deal), grouped by the
    holder's role (declarer = on lead, declarer's partner, defender), the
    strain and the holder's length in the card's suit.

The 20 rows of one deal are not independent: intervals over pooled rows are
approximate (normal for means, Wilson for shares).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import solver
from ..cards import FIVE_HEARTS, THREE_SPADES
from .common import (DEFAULT_TRUMP_RULE, NT, hands_array, levels_of, mean_row, new_figure, points_array,
                     proportion_row, run_info, suit_bits, suit_lengths, tag, trump_by_rule)

#: card -> (name, suit, value of its bonus, solver keyword switching it off)
CARDS = {
    FIVE_HEARTS: ("5H", 1, 5, "five"),
    THREE_SPADES: ("3S", 0, -3, "three"),
}
RECEIVERS = {"self": 0, "LHO": 1, "partner": 2, "RHO": 3}
DEFAULT_RECEIVERS = ("partner", "LHO", "RHO")
DEFAULT_MAX_RESOLVE = 2000
#: the holder seen from the leader: (holder - leader) % 4
_ROLE = {0: "declarer", 1: "defender (declarer's LHO)", 2: "declarer's partner", 3: "defender (declarer's RHO)"}


def holder_of(deals, card: int) -> np.ndarray:
    """Seat (0..3) holding ``card`` in each deal (-1 if nobody)."""
    bit = np.uint64(1) << np.uint64(card)
    has = (np.asarray(deals, dtype=np.uint64) & bit) != 0
    return np.where(has.any(axis=1), has.argmax(axis=1), -1)


def move_card(deals, card: int, to_seat) -> tuple[np.ndarray, np.ndarray]:
    """Move ``card`` to ``to_seat`` in exchange for that seat's lowest card
    of the same suit.

    Returns ``(new_deals, ok)``: ``ok`` is False where the receiver has no
    card of the suit (that deal is returned unchanged).  Moving the card to
    its own holder changes nothing.
    """
    deals = np.array(deals, dtype=np.uint64, copy=True)
    m = deals.shape[0]
    to = np.broadcast_to(np.asarray(to_seat, dtype=np.int64), (m,))
    holder = holder_of(deals, card)
    suit = card >> 4
    rows = np.arange(m)
    recv = deals[rows, to]
    bits = suit_bits(recv, suit)
    same = to == holder
    ok = same | (bits != 0)
    low = bits & -bits  # lowest card of the suit (rank bit)
    low_card = np.uint64(suit * 16) + np.log2(np.maximum(low, 1)).astype(np.uint64)
    low_bit = np.uint64(1) << low_card
    card_bit = np.uint64(1) << np.uint64(card)
    act = ok & ~same
    r = rows[act]
    deals[r, holder[act]] = (deals[r, holder[act]] & ~card_bit) | low_bit[act]
    deals[r, to[act]] = (deals[r, to[act]] & ~low_bit[act]) | card_bit
    return deals, ok


def sample_of(results, card: int, max_resolve: int):
    """The first ``max_resolve`` deals in which ``card`` is dealt to a hand
    (with a kitty rule it may lie in the kitty: those deals are skipped)."""
    dealt = holder_of(hands_array(results), card) >= 0
    return results[dealt].iloc[:max_resolve]


def _level(pts, levels):
    """Highest bid level made (min level - 1 when none)."""
    lv = np.asarray(levels)
    made = pts[:, None] >= lv[None, :]
    return np.where(made.any(axis=1), lv[np.maximum(made.sum(axis=1) - 1, 0)], lv[0] - 1)


def counterfactual(results, rules, card: int, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
                   trump_rule: str = DEFAULT_TRUMP_RULE, solve=None):
    """View (a): ``(summary, make_change, swings)`` DataFrames (module doc).
    ``solve`` is the points solver (default ``solver.dd_table``)."""
    solve = solve or solver.dd_table
    sample = sample_of(results, card, max_resolve)
    deals = hands_array(sample)
    pts = points_array(sample)
    holder = holder_of(deals, card)
    rows = np.arange(len(sample))
    trump = trump_by_rule(deals[rows, holder], trump_rule)
    levels = levels_of(rules)
    summary, make, swings = [], [], []
    for recv in receivers:
        off = RECEIVERS[recv]
        new, ok = move_card(deals, card, (holder + off) % 4)
        idx = rows[ok]
        new_pts = solve(new[idx]).astype(np.int64)  # also for 'self': a check of the pipeline
        h = holder[idx]
        for view, s_before, s_after in (
            ("trump by rule", pts[idx, h, trump[idx]], new_pts[np.arange(idx.size), h, trump[idx]]),
            ("NT", pts[idx, h, NT], new_pts[np.arange(idx.size), h, NT]),
            ("best strain in hindsight", pts[idx, h].max(axis=1), new_pts[np.arange(idx.size), h].max(axis=1)),
        ):
            change = s_after - s_before
            lv = _level(s_after, levels) - _level(s_before, levels)
            summary.append({"receiver": recv, "strain": view, **mean_row(change),
                            "excluded": int((~ok).sum()), "mean_before": s_before.mean(),
                            "mean_after": s_after.mean(), "level_change": lv.mean(),
                            "level_lo": mean_row(lv)["lo"], "level_hi": mean_row(lv)["hi"]})
            vals, counts = np.unique(change, return_counts=True)
            swings += [{"receiver": recv, "strain": view, "change": int(v), "count": int(c), "share": c / change.size}
                       for v, c in zip(vals, counts)]
            if view != "best strain in hindsight":
                for b in levels:
                    dm = mean_row((s_after >= b).astype(float) - (s_before >= b).astype(float))
                    make.append({"receiver": recv, "strain": view, "bid": b, "p_before": (s_before >= b).mean(),
                                 "p_after": (s_after >= b).mean(), "change": dm["mean"], "lo": dm["lo"],
                                 "hi": dm["hi"], "n": dm["n"]})
    return pd.DataFrame(summary), pd.DataFrame(make), pd.DataFrame(swings)


def worth_records(results, rules, card: int, max_resolve: int = DEFAULT_MAX_RESOLVE, solve=None) -> pd.DataFrame:
    """Views (b), (c): one row per (sample deal, leader, strain) with the
    holder's side's ``worth`` of the card (module doc)."""
    name, suit, value, key = CARDS[card]
    solve = solve or solver.dd_table
    sample = sample_of(results, card, max_resolve)
    deals = hands_array(sample)
    pts = points_array(sample)
    off = solve(deals, **{key: np.uint64(0)}).astype(np.int64)
    w_leader = pts - off  # (m, 4, 5): for the leader's side
    holder = holder_of(deals, card)
    m = len(sample)
    leader = np.arange(4)[None, :, None]
    rel = (holder[:, None, None] - leader) % 4  # holder seen from the leader
    same = rel % 2 == 0
    worth = np.where(same, w_leader, value - w_leader)
    hlen = suit_lengths(deals[np.arange(m), holder])[:, suit]
    strain = np.broadcast_to(np.arange(5)[None, None, :], (m, 4, 5))
    trumps = {0: "spades", 1: "hearts"}[suit]
    kind = np.where(strain == NT, "NT", np.where(strain == suit, f"{trumps} trump", "other suit trump"))
    return pd.DataFrame({
        "deal": np.repeat(sample["deal"].to_numpy(), 20),
        "role": np.vectorize(_ROLE.get)(np.broadcast_to(rel, (m, 4, 5))).ravel(),
        "strain_kind": kind.ravel(),
        "holder_len": np.broadcast_to(hlen[:, None, None], (m, 4, 5)).ravel(),
        "worth": worth.ravel(),
    })


def worth_table(rec: pd.DataFrame, card: int, by) -> pd.DataFrame:
    value = CARDS[card][2]
    rows = []
    for key, g in rec.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        w = g["worth"].to_numpy()
        cap = proportion_row((w == value).sum(), w.size)
        nocap = proportion_row((w == 0).sum(), w.size)
        rows.append({**dict(zip(by, key)), **mean_row(w), "captured": cap["p"], "captured_lo": cap["lo"],
                     "captured_hi": cap["hi"], "not_captured": nocap["p"], "not_captured_lo": nocap["lo"],
                     "not_captured_hi": nocap["hi"], "partial": ((w != 0) & (w != value)).mean()})
    return pd.DataFrame(rows)


def run_card(results, rules, card: int, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
             trump_rule: str = DEFAULT_TRUMP_RULE) -> dict[str, pd.DataFrame]:
    name, suit, value, key = CARDS[card]
    receivers = tuple(receivers)
    summary, make, swings = counterfactual(results, rules, card, receivers, max_resolve, trump_rule)
    rec = worth_records(results, rules, card, max_resolve)
    by_role = worth_table(rec, card, ["role", "strain_kind"])
    by_len = worth_table(rec, card, ["strain_kind", "holder_len"])
    overall = worth_table(rec.assign(all="all"), card, ["all"]).drop(columns="all")
    dist = (rec.groupby(["role", "worth"]).size().rename("count").reset_index())
    dist["share"] = dist["count"] / dist.groupby("role")["count"].transform("sum")
    sign = "gets" if value > 0 else "pays"
    summary.attrs["note"] = (f"(a) {name} moved from its holder to the receiver in exchange for the receiver's lowest "
                             f"{'heart' if suit == 1 else 'spade'}; change = holder's side's DD points after - before, "
                             "holder on lead; receivers without the suit excluded (count in 'excluded'); "
                             "level_change = change in the highest bid level made")
    overall.attrs["note"] = (f"(c) worth = holder's side's points - points with the {name} counting 0 "
                             f"(0..{value}); mean = how many of its {value} points the holder's side {sign}; "
                             f"captured = share with worth {value}; all leaders and strains of the sample deals")
    by_role.attrs["note"] = f"(b) capture of the {name} by the holder's role and the strain (see overall)"
    by_len.attrs["note"] = f"(b) capture of the {name} by the holder's length in its suit and the strain"
    tables = {"counterfactual": summary, "counterfactual_make": make, "counterfactual_swing": swings,
              "worth_overall": overall, "worth_by_role": by_role, "worth_by_length": by_len,
              "worth_distribution": dist}
    info = run_info(results, rules)
    tag(tables, info, f"re-solved sample: first {len(sample_of(results, card, max_resolve)):,} deals")
    return tables


def plot_card(tables, name: str) -> dict:
    figs = {}
    sw = tables["counterfactual_swing"]
    foot = tables["counterfactual"].attrs.get("footer", "")
    g = sw[sw["strain"] == "trump by rule"]
    fig, ax = new_figure(f"The {name} moved to another hand: swing in the holder's side's points",
                         "change in points (after - before), holder declares, trump by rule",
                         "share of deals, %", foot)
    recvs = list(dict.fromkeys(g["receiver"]))
    width = 0.8 / max(len(recvs), 1)
    for i, r in enumerate(recvs):
        gi = g[g["receiver"] == r]
        ax.bar(gi["change"] + (i - (len(recvs) - 1) / 2) * width, 100 * gi["share"], width=width,
               label=f"to {r}")
    ax.legend(fontsize=9)
    figs["swing"] = fig

    summ = tables["counterfactual"]
    fig, ax = new_figure(f"Mean change when the {name} is moved (95% intervals)", "receiver",
                         "mean change in the holder's side's points", foot)
    views = list(dict.fromkeys(summ["strain"]))
    for i, v in enumerate(views):
        s = summ[summ["strain"] == v]
        x = np.arange(len(s)) + (i - (len(views) - 1) / 2) * 0.25
        ax.errorbar(x, s["mean"], yerr=[s["mean"] - s["lo"], s["hi"] - s["mean"]], fmt="o", capsize=4, label=v)
    ax.set_xticks(range(len(recvs)), recvs)
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.legend(fontsize=9)
    figs["mean_change"] = fig

    dist = tables["worth_distribution"]
    fig, ax = new_figure(f"Worth of the {name} to the side dealt it (bonus switched off)",
                         f"points - points with the {name} counting 0", "share of (deal, leader, strain), %",
                         tables["worth_overall"].attrs.get("footer", foot))
    roles = list(dict.fromkeys(dist["role"]))
    width = 0.8 / max(len(roles), 1)
    for i, r in enumerate(roles):
        d = dist[dist["role"] == r]
        ax.bar(d["worth"] + (i - (len(roles) - 1) / 2) * width, 100 * d["share"], width=width, label=f"holder is {r}")
    ax.legend(fontsize=8)
    figs["worth_distribution"] = fig
    return figs
