"""Advice by the level heard: what to call after a given auction, by the table card's count.

The call chart of the auction study pools every level heard ("after
partner's bid"); players ask about the levels: partner opened 6, or 7; the
dealer after ``6 pass 7``; the dealer forced to bid after three passes.
Here every deal of the run is bid once around by the bidding model
(``bidders``, default :data:`kaiser_sim.config.AUCTION_BIDDERS`, as in the
hand advisor and the auction study), and the seats that heard exactly one of
:data:`HEARD` are kept: the deals then hold the other hands as the model's
calls make them likely (the conditioning is the auction itself, no
sampling).  Each kept hand's actions (:data:`kaiser_sim.strategy.policies.ACTIONS`
that are legal there) are valued by their net value (your side's hand
score minus the opponents', the rest of the auction played out by the model:
:func:`kaiser_sim.strategy.call_worth.playout_net`, table play where the
table-play model holds, else double dummy; both sides' points are the
run's, under cover 3 each side scored from its tricks, a low NT bid played
in the run's low no trump, and under a kitty whose 5H or 3S may be discarded
to nobody the defenders' points of the contracts played solved through the
door, :func:`kaiser_sim.studies.common.playout_sides`).  By the card's
count band, the best call is chosen on the even deals and its net value
reported on the odd ones (the winner's curse), with the runner-up and the
paired difference; ``settled`` when that difference's 95% interval lies
above 0.

Not a study of the registry: the report calls :func:`heard_chart` on its
run's results and prints :func:`heard_blocks`.  Its cost: one auction a deal
(vectorised) and a play-out of each legal action of the kept hands only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import config
from .blocks import Table, Text, ci, count, frame
from .common import TableMeta

TITLE = "What to call after the level you heard"

#: the auctions players ask about: (what you heard, your position 1..4 from the dealer's left, the calls before
#: yours from the dealer's left)
HEARD = (
    ("partner opened 6", 3, ("6", "pass")),
    ("partner opened 7", 3, ("7", "pass")),
    ("dealer after 6 pass 7", 4, ("6", "pass", "7")),
    ("dealer after three passes", 4, ("pass", "pass", "pass")),
)

COLUMNS = ["heard", "position", "count", "n", "n_choose", "best", "best_net", "best_lo", "best_hi", "runner_up",
           "runner_net", "diff", "diff_lo", "diff_hi", "settled", "measure", "bidders"]


def _call_names(rules) -> np.ndarray:
    from ..auction import call_text
    from ..strategy.policies import ladder_arrays

    lad = ladder_arrays(rules)
    return np.array(["pass"] + [call_text(b) for b in lad.bids], dtype=object)


def heard_chart(results, rules, bidders: str = config.AUCTION_BIDDERS, min_cell: int = 30
                ) -> tuple[pd.DataFrame, TableMeta]:
    """One row per (auction heard, card-count band) with at least ``min_cell``
    hands on each half of the deals: the best call (chosen on the even deals)
    and its net value on the odd ones with its 95% interval, the runner-up
    and the paired difference (module doc).  An empty frame (its note saying
    why) when no hand heard any of
    :data:`HEARD`.  With the chart, its metadata: its note and (``extra``)
    ``n_deals`` (the deals bid), ``heard_n`` (the deals on which each
    auction was heard, rows or not), the ``bidders`` model and the
    ``measure``."""
    from ..hands import STRENGTH_BUCKETS, strength
    from ..strategy.call_worth import playout_net, rules_words
    from ..strategy.capabilities import refusal
    from ..strategy.policies import ACTIONS, get_policy, position_calls
    from .auction import best_on_halves, bid_deals, blocks
    from .common import card_band
    from .common import bucket, hands_array, playout_sides, table_play_model

    why = refusal("call-chart", rules)
    if why:
        return pd.DataFrame(columns=COLUMNS), TableMeta(note=why)
    policy = get_policy(bidders)
    model, _ = table_play_model(rules)
    measure = "table play" if model is not None else "double dummy"
    hands = hands_array(results)
    n = hands.shape[0]
    dealers = results["dealer"].to_numpy().astype(np.int64) if "dealer" in results else np.arange(n) % 4
    calls = bid_deals(hands, dealers, rules, policy)
    names = _call_names(rules)
    text = names[calls.astype(np.int64) + 1]
    deal_ids = results["deal"].to_numpy() if "deal" in results else np.arange(n)
    even = deal_ids % 2 == 0
    pts = other = None
    rows, heard_n = [], {}
    for heard, position, before in HEARD:
        k = position - 1
        sel = np.all(text[:, :k] == np.array(before, dtype=object)[None, :], axis=1) if len(before) == k else None
        heard_n[heard] = int(sel.sum()) if sel is not None else 0
        if sel is None or not sel.any():
            continue
        idx = np.nonzero(sel)[0]
        acts = position_calls(calls[idx], k, rules)
        legal = [j for j in range(len(ACTIONS)) if (acts[:, j] != -2).all()]
        if not legal:
            continue
        if pts is None:  # both sides' points (other None: the rest of the total, playout_net's default)
            pts, other = playout_sides(results, rules)
        net = np.full((idx.size, len(ACTIONS)), np.nan)
        for j in legal:
            for b in blocks(idx.size):  # the model's temporaries grow with the rows: a million-deal run in blocks
                rb = idx[b]
                net[b, j], _ = playout_net(hands[rb], dealers[rb], calls[rb], k, acts[b, j], rules, policy, pts[rb],
                                           model, None if other is None else other[rb])
        seat = (dealers[idx] + 1 + k) % 4
        band = np.asarray(bucket(strength(hands[idx, seat]), STRENGTH_BUCKETS), dtype=object)
        for label, *_ in STRENGTH_BUCKETS:
            cell = band == label
            choose, report = cell & even[idx], cell & ~even[idx]
            if choose.sum() < min_cell or report.sum() < min_cell:
                continue
            order, m, d = best_on_halves(net, legal, choose, report)
            best = order[0]
            row = {"heard": heard, "position": position, "count": card_band(label), "n": int(report.sum()),
                   "n_choose": int(choose.sum()), "best": _action_words(ACTIONS[best], names, acts[0, best]),
                   "best_net": m["mean"], "best_lo": m["lo"], "best_hi": m["hi"], "runner_up": None,
                   "runner_net": np.nan, "diff": np.nan, "diff_lo": np.nan, "diff_hi": np.nan, "settled": True,
                   "measure": measure, "bidders": policy.name}
            if d is not None:
                second = order[1]
                row.update(runner_up=_action_words(ACTIONS[second], names, acts[0, second]),
                           runner_net=float(net[report, second].mean()), diff=d["mean"], diff_lo=d["lo"],
                           diff_hi=d["hi"], settled=bool(d["lo"] > 0))
            rows.append(row)
    out = pd.DataFrame(rows, columns=COLUMNS)
    note = (f"every deal bid once by the {policy.name} model; the hands that heard exactly these calls; "
            f"net value in {measure}: your side's hand score minus the opponents', the rest of the "
            "auction played out by the model; best chosen on the even deals, reported on the odd ones "
            f"(n); settled: best minus next best above 0 (95%){rules_words(rules, model is not None)}")
    return out, TableMeta(note=note, extra={"n_deals": int(n), "heard_n": heard_n, "bidders": policy.name,
                                            "measure": measure})


def _action_words(action: str, names, rank) -> str:
    """An action as the call it is in its auction: ``pass``, ``7``, ``7NT``,
    ``take it at 7`` (the dealer's match)."""
    if action == "pass":
        return "pass"
    call = str(names[int(rank) + 1])
    return f"take it at {call}" if action == "match" else call


def heard_blocks(chart: pd.DataFrame | None, meta: TableMeta | None = None) -> list:
    """The report's blocks: a grid (count band x auction heard, the best
    call, '?' when not settled) and the table of the figures behind it
    (``chart, meta``: :func:`heard_chart`'s)."""
    from .common import proportion_row
    from .blocks import pct

    meta = meta or TableMeta()
    heard_n = meta.extra.get("heard_n", {})
    if chart is None or not (len(chart) or any(heard_n.values())):
        return []
    measure = str(meta.extra.get("measure", "table play"))
    bidders = str(meta.extra.get("bidders", config.AUCTION_BIDDERS))
    deals = int(meta.extra.get("n_deals", 0))
    heard_order = [h for h, *_ in HEARD]
    grid = {}
    for _, r in chart.iterrows():
        grid.setdefault(r["count"], {"card count": r["count"]})[r["heard"]] = r["best"] + ("" if r["settled"] else " ?")
    from ..hands import STRENGTH_BUCKETS
    from .common import card_band

    order = {card_band(b[0]): i for i, b in enumerate(STRENGTH_BUCKETS)}
    bands = sorted(dict.fromkeys(chart["count"]), key=lambda b: -order.get(b, -1))  # the card's order: high first
    g = (frame([grid[b] for b in bands]).reindex(columns=["card count", *heard_order]).fillna("·") if bands
         else pd.DataFrame(columns=["card count", *heard_order]))
    often = []
    for h in heard_order:
        p = proportion_row(heard_n.get(h, 0), deals) if deals else None
        often.append({"you heard": h, "deals": count(heard_n.get(h, 0)),
                      "share of deals %": pct(p["p"], p["lo"], p["hi"], 1) if p else "-"})
    rows = [{"you heard": r["heard"], "card count": r["count"], "n": count(r["n"]), "best call": r["best"],
             "its net": ci(r["best_net"], r["best_lo"], r["best_hi"], 2),
             "next best": r["runner_up"] or "-",
             "best minus next": ci(r["diff"], r["diff_lo"], r["diff_hi"], 2) if r["runner_up"] else "-"}
            for _, r in chart.iterrows()]
    blocks = [
        Text("Which call pays after the auctions players ask about: partner opened 6 or 7 (you call third, after "
             "your right-hand opponent passed), the dealer after 6 pass 7, and the dealer after three passes (who "
             f"must bid where the rules force the dealer). The other seats bid as the {bidders} bidding model does, "
             "and the deals are those where it called exactly that auction, so the other hands are what such calls "
             f"make likely. Net values in {measure} (your side's hand score minus the opponents'); the count is the "
             "table card's."),
        Table("heard-how-often", f"How often the {bidders} model calls each of these auctions",
              frame(often), f"of this run's {deals:,} deals, one auction a deal; Wilson 95% intervals"),
        Table("heard-grid", f"The best call by the auction heard and your card count ({measure})", g,
              "'?': the best call does not beat the next best by a settled margin (95%); '·': too few hands heard "
              "that auction with that count in this run"),
    ]
    if rows:
        blocks.append(Table("heard-figures", "The figures behind it: net value of the best call and of the next best "
                            f"({measure})", frame(rows), meta.note))
    return blocks


__all__ = ["TITLE", "HEARD", "heard_chart", "heard_blocks"]
