"""The auction study: how often each call sequence happens, and what each
call says about the caller's hand.

Every deal of the run is bid once around by a named bidding model (a match
policy, ``bidders``; default as in the hand advisor,
:data:`kaiser_sim.config.AUCTION_BIDDERS`), every seat with its own hand and
the calls before it (:func:`kaiser_sim.strategy.policies.run_auction`; the scores
0-0, the rules' target).  Each deal is dealt by the run's dealer of that
deal (its ``dealer`` column: deal ``i`` by seat ``i % 4``), so each seat
deals a quarter of the deals.  No solving: the study reads only the
hands of the results dataset.

Tables
------
- ``sequences``: each call sequence, from the dealer's left (``6 pass 7
  pass``), its count and share of the auctions with a Wilson 95% interval
  (one auction a deal: independent rows); the most frequent ones that
  together cover ``top_share`` of the auctions, the rest pooled as
  ``other``;
- ``positions``: by seat position (1 = the dealer's left .. 4 = the
  dealer), how often it passes, bids and bids NT;
- ``calls``: what each call says.  A call is read in its *situation*:
  ``opens`` (no bid before it), ``after partner's bid`` (partner holds the
  highest bid), ``after an opponent's bid``; the dealer facing a bid
  ``matches``, ``overcalls`` or ``passes``.  For each (position, situation,
  call) with at least ``min_cell`` hands: the caller's mean Kaiser count
  (:func:`kaiser_sim.hands.strength`), its longest suit, P(it holds the 5H),
  P(it holds the 3S), each with a 95% interval, against the same numbers
  for every hand of the run (a hand in a vacuum).  Rows are one hand of one
  deal each (a deal appears once in a cell): independent.

What the calls say is the model's: real players who bid otherwise say
other things.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import KaiserSimError
from .. import config
from ..auction import call_text
from .blocks import Table, Text, ci, count, frame, num
from ..strategy.policies import POLICIES
from ..runs.results import RunResults
from .common import CHART_TYPE, MIN_CELL, STRENGTH_BUCKETS, chart_footer, definition, hands_array, legend, mean_row, new_figure, proportion_row, run_info, share_row, StudyTables, TableMeta, tag
from .params import Param

KEY = "auction"
TITLE = "What the calls tell"
QUESTION = "How often does each auction happen, and what does each call say about the caller's hand?"
METHOD = ("Every deal is bid once around by a bidding model (each seat its own hand and the calls before it); "
          "each call is read in its situation (opening, after partner's bid, after an opponent's bid, the dealer "
          "facing a bid) by the caller's mean Kaiser count, longest suit and special cards, against any hand.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (
    Param("bidders", str, config.AUCTION_BIDDERS, "the bidding model every seat bids by (a policy of kaiser-sim "
          "match).", choices=tuple(POLICIES)),
    Param("top_share", float, 0.8, "the sequences table lists the most frequent auctions that together cover this "
          "share of them, the rest pooled as other.", low=0, high=1, above_low=True),
    MIN_CELL,
)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/auction.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "How often each auction happens, and what each call says",
                        params={"bidders": config.AUCTION_BIDDERS, "top_share": 0.8, "min_cell": 30})

SITUATIONS = ("opens", "after partner's bid", "after an opponent's bid", "dealer matches", "dealer overcalls",
              "dealer passes a bid")


class AuctionStudyError(KaiserSimError):
    """A parameter the auction study cannot use."""


#: rows a bidding model sees at once: its temporaries grow with the rows (a value for every bid and
#: table-play outcome of each hand), so a million deals are bid in blocks of this many
BLOCK_ROWS = 100_000
#: the call chart compares the calls legal on at least this share of a cell's hands (on the hands where all of
#: them are legal): the soft bidding model now and then makes a bid so high that a cheap call is illegal
COMPARED_SHARE = 0.99


def blocks(n: int, size: int | None = None) -> list[slice]:
    """``n`` rows as consecutive slices of at most ``size`` (default
    :data:`BLOCK_ROWS`; the results do not depend on it)."""
    size = int(size or BLOCK_ROWS)
    return [slice(s, min(s + size, n)) for s in range(0, n, size)]


def bid_deals(hands: np.ndarray, dealers: np.ndarray, rules, policy) -> np.ndarray:
    """Every deal bid once around the table by ``policy`` at 0-0 (the
    auction study's and the report's "heard" auctions): ``(n, 4)`` calls,
    in blocks of :data:`BLOCK_ROWS`."""
    from ..strategy.policies import run_auction

    zeros = lambda m: np.zeros((m, 2), dtype=np.int64)  # noqa: E731  (scores and match state: 0-0)
    return np.concatenate([run_auction(hands[b], dealers[b], zeros(b.stop - b.start),
                                       np.full(b.stop - b.start, rules.target), rules, [policy],
                                       zeros(b.stop - b.start)) for b in blocks(hands.shape[0])]
                          or [np.zeros((0, 4), dtype=np.int16)])


def best_on_halves(net: np.ndarray, legal, choose: np.ndarray, report: np.ndarray) -> tuple[list, dict, dict | None]:
    """The winner's curse kept out: the actions ``legal`` (columns of
    ``net``) ranked by their mean on the rows ``choose``, then the best one's
    net on the rows ``report`` (:func:`mean_row`) and its paired difference
    with the runner-up there (None with one action).  Returns ``(order,
    best's row, difference's row)``."""
    order = sorted(legal, key=lambda j: -net[choose, j].mean())
    best = mean_row(net[report, order[0]])
    diff = mean_row(net[report, order[0]] - net[report, order[1]]) if len(order) > 1 else None
    return order, best, diff


def _situations(calls: np.ndarray, rules) -> tuple[np.ndarray, np.ndarray]:
    """``(situation index, highest rank before)`` of each call, (n, 4)."""
    n = calls.shape[0]
    situation = np.zeros((n, 4), dtype=np.int64)
    top = np.full(n, -1, dtype=np.int64)
    holder = np.full(n, -1, dtype=np.int64)  # position of the highest bid so far
    before = np.full((n, 4), -1, dtype=np.int64)
    for k in range(4):
        c = calls[:, k].astype(np.int64)
        before[:, k] = top
        partner = holder == k - 2
        sit = np.where(top < 0, 0, np.where(partner, 1, 2))
        if k == 3:
            facing = top >= 0
            sit = np.where(facing & (c == top), 3, np.where(facing & (c > top), 4, np.where(facing, 5, sit)))
        situation[:, k] = sit
        take = (c >= 0) & (c >= top)
        holder = np.where(take, k, holder)
        top = np.where(take, c, top)
    return situation, before


def run(run_results: RunResults, rules, bidders: str = config.AUCTION_BIDDERS, top_share: float = 0.8,
        min_cell: int = 30) -> StudyTables:
    from ..cards import FIVE_HEARTS, THREE_SPADES
    from ..hands import has_card, strength, suit_lengths
    from ..strategy.policies import PASS, POLICIES, get_policy, ladder_arrays

    if str(bidders) not in POLICIES:
        raise AuctionStudyError(f"unknown bidders '{bidders}'; models: {', '.join(POLICIES)}")
    if not 0 < float(top_share) <= 1:
        raise AuctionStudyError(f"top_share must be above 0 and at most 1, not {top_share}")
    policy = get_policy(bidders)
    results = run_results.frame
    hands = hands_array(results)
    n = hands.shape[0]
    dealers = (results["dealer"].to_numpy().astype(np.int64) if "dealer" in results
               else np.arange(n) % 4)  # the run's dealer of each deal (deal index mod 4)
    calls = bid_deals(hands, dealers, rules, policy)
    lad = ladder_arrays(rules)
    names = np.array(["pass"] + [call_text(b) for b in lad.bids], dtype=object)
    text = names[calls.astype(np.int64) + 1]  # (n, 4)
    seqs = pd.Series([" ".join(r) for r in text])
    counts = seqs.value_counts()
    rows, covered = [], 0
    for seq, k in counts.items():
        if covered >= top_share * n:
            break
        rows.append({"sequence": seq, **proportion_row(k, n)})
        covered += k
    if covered < n:
        rows.append({"sequence": f"other ({len(counts) - len(rows)} sequences)", **proportion_row(n - covered, n)})
    sequences = pd.DataFrame(rows)
    sequences_note = (f"one auction a deal, bid by the {policy.name} model; calls from the dealer's left, "
                      "the dealer last; Wilson 95% intervals")
    pos_rows = []
    for k in range(4):
        c = calls[:, k]
        nt = np.where(c >= 0, lad.nt[np.clip(c, 0, None)], False)
        pos_rows.append({"position": k + 1, "n": n, "pass": (c == PASS).mean(), "bid": ((c >= 0) & ~nt).mean(),
                         "bid NT": nt.mean()})
    positions = pd.DataFrame(pos_rows)
    situation, _ = _situations(calls, rules)
    lengths = suit_lengths(hands.reshape(-1)).reshape(n, 4, 4).max(axis=-1)
    count_ = strength(hands.reshape(-1)).reshape(n, 4)
    five = has_card(hands, FIVE_HEARTS)
    three = has_card(hands, THREE_SPADES)
    seat_of = (dealers[:, None] + 1 + np.arange(4)[None, :]) % 4  # the seat making each call
    rows_idx = np.arange(n)[:, None]
    feats = {"count": count_[rows_idx, seat_of], "length": lengths[rows_idx, seat_of].astype(float),
             "5H": five[rows_idx, seat_of].astype(float), "3S": three[rows_idx, seat_of].astype(float)}
    every = {k: mean_row(v.reshape(-1), np.repeat(np.arange(n), 4)) for k, v in
             (("count", count_), ("length", lengths.astype(float)), ("5H", five.astype(float)),
              ("3S", three.astype(float)))}
    crow = [{"position": "any", "situation": "any hand", "call": "-", "n": 4 * n,
             **{f"{k}_{f}": every[k][f] for k in every for f in ("mean", "lo", "hi")}}]
    for k in range(4):
        for si, sname in enumerate(SITUATIONS):
            in_sit = situation[:, k] == si
            if not in_sit.any():
                continue
            for call in pd.unique(text[in_sit, k]):
                sel = in_sit & (text[:, k] == call)
                if sel.sum() < min_cell:
                    continue
                row = {"position": str(k + 1), "situation": sname, "call": call, "n": int(sel.sum())}
                for f, v in feats.items():
                    if f in ("5H", "3S"):  # a share: Wilson
                        m = share_row(v[sel, k] > 0)
                        m = {"mean": m["p"], "lo": m["lo"], "hi": m["hi"]}
                    else:
                        m = mean_row(v[sel, k])
                    row.update({f"{f}_mean": m["mean"], f"{f}_lo": m["lo"], f"{f}_hi": m["hi"]})
                crow.append(row)
    calls_df = pd.DataFrame(crow)
    calls_note = ("the caller's mean Kaiser count, longest suit and special cards by what it called "
                  f"and when (the {policy.name} model); cells under {min_cell} hands left out; the first "
                  "row is every hand of the run; 95% intervals (one hand a deal in a cell)")
    tables = StudyTables()
    tables.add("sequences", sequences, TableMeta(note=sequences_note, extra={"bidders": policy.name}))
    tables.add("positions", positions)
    tables.add("calls", calls_df, TableMeta(note=calls_note))
    tables.add("call_chart", *call_chart(results, rules, policy, calls, dealers, count_, min_cell))
    tag(tables, run_info(run_results, rules), f"bidding model {policy.name}")
    measure = tables.meta("call_chart").extra.get("measure")
    for name in tables:  # only the call chart reads the solved values
        meta = tables.meta(name)
        if name != "call_chart":
            meta.footer = meta.footer.replace("; double dummy;", "; no solving (hands only);")
        elif measure:
            meta.footer = meta.footer.replace("; double dummy;", f"; {measure};")
    return tables


#: the situations of the call chart: what the caller heard before its call
CHART_SITUATIONS = ("opens", "after partner's bid", "after an opponent's bid", "dealer facing a bid")


def call_chart(results, rules, policy, calls, dealers, count_, min_cell: int) -> tuple[pd.DataFrame, TableMeta]:
    """The bidding chart by what was heard: for each situation
    (:data:`CHART_SITUATIONS`) and Kaiser-count band, the net value of each
    action of :data:`kaiser_sim.strategy.call_worth.ACTIONS` (the caller's side's hand
    score minus the opponents', the rest of the auction played out by the
    model: :func:`kaiser_sim.strategy.call_worth.playout_net`, table play where the
    model holds, else double dummy), from the results' double-dummy values
    of every leader and strain, both sides' (:func:`kaiser_sim.studies.common.playout_sides`:
    no solving but under a kitty whose 5H or 3S may be discarded to nobody,
    where the defenders' points of the contracts played are solved; under
    cover 3 each side scored from its tricks; under a kitty the declarer
    takes it up and discards best, under low no trump a low NT bid is played
    low, as in the results).  The best action is chosen on
    the even deals and reported on the odd ones (the winner's curse): its
    net value there, the runner-up's, their paired difference, and
    ``settled`` when that difference's 95% interval lies above 0 (never
    with one action alone).  The actions legal on at least
    :data:`COMPARED_SHARE` of a cell's hands are compared, on the hands
    where all of them are legal (``n``: those of the reporting half); a cell
    needs ``min_cell`` such hands on each half.  With the chart, its metadata: its
    note and (``extra``) the ``measure`` and the ``bidders`` model."""
    from ..strategy.call_worth import ACTIONS, playout_net, position_calls, rules_words
    from ..strategy.capabilities import refusal
    from .common import STRENGTH_BUCKETS, bucket, playout_sides, table_play_model

    cols = ["position", "situation", "count", "n", "best", "best_net", "best_lo", "best_hi", "runner_up", "runner_net",
            "diff", "diff_lo", "diff_hi", "settled"] + [f"net {a}" for a in ACTIONS]
    why = refusal("call-chart", rules)
    if why:
        return pd.DataFrame(columns=cols), TableMeta(note=why)
    model, _ = table_play_model(rules)
    # both sides' points (None: the other side's are the rest of the total, playout_net's default)
    pts, other = playout_sides(results, rules)
    hands = hands_array(results)
    n = hands.shape[0]
    deal_ids = results["deal"].to_numpy() if "deal" in results else np.arange(n)
    even = deal_ids % 2 == 0
    situation, before = _situations(calls, rules)
    out = []
    for k in range(4):
        acts = position_calls(calls, k, rules)
        ok = acts != -2
        r, a = np.nonzero(ok)
        net = np.full(acts.shape, np.nan)
        for b in blocks(r.size):
            rb, ab = r[b], a[b]
            net[rb, ab], _ = playout_net(hands[rb], dealers[rb], calls[rb], k, acts[rb, ab], rules, policy, pts[rb],
                                         model, None if other is None else other[rb])
        seat = (dealers + 1 + k) % 4
        band = bucket(count_[np.arange(n), seat], STRENGTH_BUCKETS)
        sit = np.where(before[:, k] < 0, 0, np.minimum(situation[:, k], 2))
        if k == 3:
            sit = np.where(before[:, k] >= 0, 3, 0)
        for si, sname in enumerate(CHART_SITUATIONS):
            for label, *_ in STRENGTH_BUCKETS:
                cell = (sit == si) & (np.asarray(band) == label)
                if (cell & even).sum() < min_cell or (cell & ~even).sum() < min_cell:
                    continue
                # the calls compared: those legal on nearly every hand of the cell, each on the hands where all
                # of them are legal (a soft bidding model makes every call now and then, so a few hands heard a
                # bid so high that a cheap bid is illegal: "legal on every hand" would leave pass alone)
                legal = [j for j in range(len(ACTIONS)) if ok[cell, j].mean() >= COMPARED_SHARE]
                if not legal:
                    continue
                cell = cell & ok[:, legal].all(axis=1)
                if (cell & even).sum() < min_cell or (cell & ~even).sum() < min_cell:
                    continue
                rep = cell & ~even
                order, m, d = best_on_halves(net, legal, cell & even, rep)
                row = {"position": k + 1, "situation": sname, "count": label, "n": int(rep.sum()),
                       "best": ACTIONS[order[0]], "best_net": m["mean"], "best_lo": m["lo"], "best_hi": m["hi"],
                       "runner_up": None, "runner_net": np.nan, "diff": np.nan, "diff_lo": np.nan, "diff_hi": np.nan,
                       "settled": False}  # one call alone compared settles nothing
                if d is not None:
                    row.update(runner_up=ACTIONS[order[1]], runner_net=net[rep, order[1]].mean(), diff=d["mean"],
                               diff_lo=d["lo"], diff_hi=d["hi"], settled=bool(d["lo"] > 0))
                for j, name in enumerate(ACTIONS):
                    row[f"net {name}"] = net[rep, j].mean() if j in legal else np.nan
                out.append(row)
    chart = pd.DataFrame(out, columns=cols)
    measure = "table play (PIMC model)" if model is not None else "double dummy"
    note = (f"net value = the caller's side's hand score minus the opponents', the rest of the auction "
            f"played out by the {policy.name} model ({measure}); best chosen on the even deals, "
            "reported on the odd ones; settled: best minus runner-up above 0 (95%); pass, the cheapest "
            "plain and NT bids, one step above each, and the dealer's match, each compared where legal on at "
            f"least {COMPARED_SHARE:.0%} of a cell's hands, on the hands where all the compared calls are legal "
            f"(n){rules_words(rules, model is not None)}")
    return chart, TableMeta(note=note, extra={"measure": measure, "bidders": policy.name})


def plot(tables) -> dict:
    c = tables["calls"]
    foot = tables.meta("calls").footer
    figs = {}
    fig, ax = new_figure("What a call says: the caller's mean Kaiser count (positions pooled)", "call",
                         "mean Kaiser count of the caller's hand", chart_footer(foot, intervals=False))
    base = c[c["situation"] == "any hand"]
    if len(base):
        ax.axhline(base["count_mean"].iloc[0], color="0.5", linewidth=0.8, linestyle="--", label="any hand")
    order = {}
    for sname in SITUATIONS:
        g = c[(c["situation"] == sname)]
        if not len(g):
            continue
        g = g.groupby("call", sort=False).apply(
            lambda x: pd.Series({"mean": np.average(x["count_mean"], weights=x["n"])}), include_groups=False)
        xs = [order.setdefault(call, len(order)) for call in g.index]
        ax.plot(xs, g["mean"], marker="o", linestyle="none", label=sname)
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(list(order), rotation=45, fontsize=CHART_TYPE)
    legend(ax)
    figs["auction_call_count"] = fig
    s = tables["sequences"]
    fig, ax = new_figure("How often each auction happens", "share of auctions, %", "call sequence (dealer last)",
                         tables.meta("sequences").footer)
    top = s.iloc[::-1]
    ax.barh(range(len(top)), 100 * top["p"], xerr=[100 * (top["p"] - top["lo"]), 100 * (top["hi"] - top["p"])],
            capsize=2)
    ax.set_yticks(range(len(top)))
    ax.set_yticklabels(top["sequence"], fontsize=CHART_TYPE)
    fig.subplots_adjust(left=0.27)  # room for the sequences
    figs["auction_sequences"] = fig
    return figs


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    s, c = tables["sequences"], tables["calls"]
    srows = [{"calls (dealer last)": r["sequence"], "auctions": count(r["k"]), "share %": ci(r["p"], r["lo"], r["hi"],
                                                                                            1, 100)}
             for _, r in s.iterrows()]
    crows = [{"position": r["position"], "situation": r["situation"], "call": r["call"], "n": count(r["n"]),
              "count": ci(r["count_mean"], r["count_lo"], r["count_hi"], 2),
              "longest suit": num(r["length_mean"], 2), "5H %": num(100 * r["5H_mean"], 1),
              "3S %": num(100 * r["3S_mean"], 1)} for _, r in c.iterrows()]
    blocks = [Table(f"{KEY}-sequences", "How often each auction happens", frame(srows),
                    tables.meta("sequences").note),
              Table(f"{KEY}-calls", "What each call says about the caller's hand", frame(crows),
                    tables.meta("calls").note)]
    ch = tables.get("call_chart")
    if ch is not None and len(ch):
        from .common import card_band

        grid, columns = {}, {}
        for _, r in ch.iterrows():
            pos = int(r["position"])
            column = f"{('1st', '2nd', '3rd', '4th')[pos - 1]}, {r['situation']}"
            columns[column] = (pos, CHART_SITUATIONS.index(r["situation"]))  # seat order, then what was heard
            # rows by the table card's whole-number count (the one a player adds up), the report's count beside it
            grid.setdefault(r["count"], {"card count": card_band(r["count"]),
                                         "(report)": r["count"].replace(".5", "½")})[column] = (
                f"{r['best']}{'' if r['settled'] else ' ?'}")
        order = ["card count", "(report)", *sorted(columns, key=columns.get)]
        blocks.append(Table(f"{KEY}-call-chart", "What to call, by what you heard and your card count (net of the "
                            "opponents)",
                            frame(list(grid.values())).reindex(columns=order).fillna("-"),
                            tables.meta("call_chart").note))
    return blocks, meaning(tables), ["auction_sequences", "auction_call_count"]


def meaning(tables) -> list[str]:
    """What the numbers mean, in sentences for the report."""
    s, c = tables["sequences"], tables["calls"]
    out = []
    if len(s):
        r = s.iloc[0]
        model = tables.meta("sequences").extra.get("bidders", "bidding")  # the model that bid the auctions (was always printed 'ev')
        out.append(f"Under the {model} model the most frequent auction is '{r['sequence']}' "
                   f"(dealer last), {ci(r['p'], r['lo'], r['hi'], 1, 100)}% of deals.")
    base = c[c["situation"] == "any hand"]
    first = c[(c["position"] == "1") & (c["situation"] == "opens")]
    if len(base) and len(first):
        # at the digits of the calls table, so each figure is the table's
        words = ", ".join(f"{r['call']} {ci(r['count_mean'], r['count_lo'], r['count_hi'], 2)}"
                          for _, r in first.iterrows())
        b = base.iloc[0]
        out.append(f"The first call shows the caller's count (any hand: {ci(b['count_mean'], b['count_lo'], b['count_hi'], 2)}): "
                   f"{words}.")
    ch = tables.get("call_chart")
    if ch is not None and len(ch):
        dealer = ch[(ch["situation"] == "dealer facing a bid") & ch["settled"].astype(bool)]
        passes = dealer[dealer["best"] == "pass"]
        if len(passes):
            out.append(f"As the dealer facing a bid, passing is worth more than matching or overcalling, net of the "
                       f"opponents, in {len(passes)} of the {int((ch['situation'] == 'dealer facing a bid').sum())} "
                       "count bands charted (settled): the bidder's side often fails.")
        settled = int(ch["settled"].astype(bool).sum())
        out.append(f"{settled} of the {len(ch)} cells of the call chart are settled at this run's size.")
    return out


#: the cheat sheet's words for the chart's actions
_ACTION_WORDS = {"pass": "pass", "plain": "bid (cheapest plain)", "NT": "bid NT (cheapest)",
                 "plain +1": "jump a plain level", "NT +1": "jump an NT level", "match": "match"}


def cheat_sheet(tables) -> list:
    """The cheat sheet's lines on the auction: for each position and what
    it heard, the best call by count band on net value, settled bands only
    (an unsettled band is noise at this run's size, and says so)."""
    ch = tables.get("call_chart")
    if ch is None or not len(ch):
        return []
    meta = tables.meta("call_chart")
    order = {label: i for i, (label, *_) in enumerate(STRENGTH_BUCKETS)}
    lines = [Text("After the calls you heard (net of the opponents)", "heading")]
    for (pos, sit), g in ch.groupby(["position", "situation"], sort=True):
        g = g.sort_values("count", key=lambda c: c.map(order))
        runs = []  # consecutive settled bands with the same best call
        for _, r in g[g["settled"].astype(bool)].iterrows():
            if runs and runs[-1][0] == r["best"] and order[r["count"]] == order[runs[-1][2]] + 1:
                runs[-1][2] = r["count"]
            else:
                runs.append([r["best"], r["count"], r["count"]])
        words = "; ".join(f"count {a}: {_ACTION_WORDS[b]}" if a == c else f"count {a} to {c}: {_ACTION_WORDS[b]}"
                          for b, a, c in runs)
        open_ = int((~g["settled"].astype(bool)).sum())
        if open_:
            words += ("; " if words else "") + f"{open_} count band{'s' if open_ > 1 else ''} not settled"
        lines.append(Text(f"{('1st', '2nd', '3rd', '4th (dealer)')[int(pos) - 1]} seat, {sit}: {words}.", "bullet"))
    lines.append(Text("Net value: your side's hand score minus the opponents', the rest of the auction bid by the "
                      f"{meta.extra.get('bidders', 'ev')} model, measured in {meta.extra.get('measure', 'table play')}; "
                      "a band is shown when its best call beat the next best on a separate half of the deals (95%); "
                      "the others need a larger run.", "note"))
    return lines


__all__ = ["KEY", "TITLE", "QUESTION", "METHOD", "DEFINITION", "PARAMETERS", "SITUATIONS", "CHART_SITUATIONS", "run",
           "plot", "section", "meaning", "cheat_sheet", "call_chart"]
