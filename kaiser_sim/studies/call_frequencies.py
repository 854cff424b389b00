"""What an expert can check: the bidding population's call frequencies, by
position and by count band, beside what the rule documents say players do.

Like the listening study this one reads no results dataset: it deals
``deals`` fresh random deals (``seed``; the dealer rotates; 0-0, so no
endgame) and bids them around with every seat playing the same policy
(:func:`kaiser_sim.strategy.policies.run_auction`), for each of
``policies`` (default the population, listening and ev, on the same deals).
No card is played: these are the calls alone.  :func:`call_counts` does the
counting; ``benchmarks/population.py`` prints the same counts (it imports
them from here).

Tables (every share with its n and Wilson 95% interval; one auction a deal,
so the seats of one position are independent rows):

- ``by_position``: per policy and position (1 = the dealer's left .. 4 =
  the dealer): the opening rate (of the seats that speak with no bid before
  them, the share that bid; the dealer's is 100%: it is forced), the
  overcall rate (of the seats facing a bid, the share that bid), the jump
  rate (of the bids, the share a level or more above the cheapest legal bid
  of its kind; an opening 7 is a jump) and the NT share (of the bids);
- ``auctions``: per policy: passed out to the dealer (the first three
  pass), the dealer facing a bid: its match rate (a bid at the highest
  bid's rank, the dealer's privilege) and its raise rate beyond it, the
  contract's mean level, the share of contracts at 8 or more, the share
  in NT;
- ``by_count``: per policy and count band (the Kaiser count,
  :func:`kaiser_sim.hands.strength`): the first seat's opening rate, and
  the overcall rate of the second and third seats facing an opponent's bid;
- ``documents``: what the rule documents say players do, each beside the
  number of the tables above that checks it, for the first policy;
- ``exploitability``: how much a player who sees its whole hand gains a
  hand by deviating from each policy, as published
  (:func:`kaiser_sim.strategy.exploitability.published_exploitability`:
  measured by ``benchmarks/exploitability.py``, not on this study's deals;
  the standard rules only, empty under others).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import config
from ..rules import Rules
from ..strategy.policies import POLICIES
from ..config import MAX_SEED
from .common import StudyTables, definition, proportion_row
from .params import Param

KEY = "call-frequencies"
TITLE = "How the bidding model bids"
QUESTION = ("How often does the bidding model the advice assumes open, jump, pass out, take the bid as dealer and "
            "bid no trump, by position and by hand count; and is that what the rule documents say players do?")
METHOD = ("Fresh random deals are bid around with every seat playing the same bidding policy (the population: a "
          "stochastic bidder fitted by self-play of both partners on solved deals; listening and ev beside it), "
          "the dealer rotating, at 0-0; no card is played. Each share is counted over the seats that could make the "
          "call, with its Wilson 95% interval, and set beside the rule documents' descriptions of play.")
DEFAULT_POLICIES = ("population", "listening", "ev")
PARAMETERS = (
    Param("deals", int, 20000, "fresh random deals bid around by each policy (20,000: every share of a position "
          "within about +-0.7 points).", low=100, high=config.MATCH_MAX_COUNT),
    Param("seed", int, config.STUDY_SEED, "seeds the deals (kaiser-sim study passes the definition's seed, which "
          "--seed sets).", low=0, high=MAX_SEED),
    Param("policies", list, DEFAULT_POLICIES, "the bidding policies counted, on the same deals; the first is the "
          "one set beside the rule documents.", choices=tuple(POLICIES)),
)
DEFINITION = definition(KEY, "The bidding model's call frequencies by position and count band, beside the rule "
                        "documents", params={"deals": 20000, "policies": list(DEFAULT_POLICIES)}, deals=None)
POSITIONS = ("1st (dealer's left)", "2nd", "3rd", "dealer")


def report_params(deals: int) -> dict:
    """The printed report's run for a report of ``deals`` deals: one
    auction a policy per 50 of its deals, between 2,000 and 20,000 (about a
    second a thousand)."""
    return {"deals": int(min(20000, max(2000, deals // 50)))}


def call_counts(policy, deals, rules) -> dict:
    """The self-play auctions of ``deals`` ((n, 4) uint64; dealer ``i % 4``;
    0-0) by ``policy`` (a name or a policy) at every seat, counted (module
    doc): ``{"n", "calls", "pos": [per position {"open", "over", "jump",
    "nt", "bands", "nt_by_aces"[, "match", "raise"]}], "passed_to_dealer",
    "level", "level8", "nt_contract"}``, each count a ``(k, n)`` pair;
    ``bands`` per :data:`kaiser_sim.hands.STRENGTH_BUCKETS` ``(label,
    opening (k, n), facing an opponent's bid (k, n))``."""
    from ..hands import STRENGTH_BUCKETS, aces, strength
    from ..strategy.policies import contracts_of, get_policy, ladder_arrays, run_auction

    deals = np.asarray(deals, dtype=np.uint64)
    n = deals.shape[0]
    dealers = np.arange(n) % 4
    calls = run_auction(deals, dealers, np.zeros((n, 2), dtype=np.int64), np.full(n, rules.target), rules,
                        [get_policy(policy)], np.zeros((n, 2), dtype=np.int64))
    lad = ladder_arrays(rules)
    L = len(lad)
    rows = np.arange(n)
    # the cheapest level of each kind (plain, NT) at or above each rank (L: none left)
    cheapest = np.array([[min((lad.levels[i] for i in range(lo, L) if lad.nt[i] == kind), default=99)
                          for kind in (False, True)] for lo in range(L + 1)])
    out = {"n": n, "calls": calls, "pos": []}
    high = np.full(n, -1)
    for k in range(4):
        c = calls[:, k].astype(np.int64)
        hands = deals[rows, (dealers + 1 + k) % 4]
        bid, none = c >= 0, high < 0
        r = np.maximum(c, 0)
        lowest = np.where(k == 3, np.maximum(high, 0), high + 1)  # the dealer may match the highest bid
        jump = bid & (lad.levels[r] > cheapest[np.minimum(lowest, L), lad.nt[r].astype(int)])
        nt = bid & lad.nt[r]
        d = {"open": (int((bid & none).sum()), int(none.sum())), "over": (int((bid & ~none).sum()), int((~none).sum())),
             "jump": (int(jump.sum()), int(bid.sum())), "nt": (int(nt.sum()), int(bid.sum()))}
        if k == 3:
            d["match"] = (int((bid & ~none & (c == high)).sum()), int((~none).sum()))
            d["raise"] = (int((bid & ~none & (c > high)).sum()), int((~none).sum()))
        # facing an opponent's bid: the highest bid so far made by position k-1 or k-3
        opp = np.zeros(n, dtype=bool)
        if k:
            best, at = np.full(n, -1), np.full(n, -1)
            for j in range(k):
                cj = calls[:, j].astype(np.int64)
                take = (cj >= 0) & (cj >= best)
                best, at = np.where(take, cj, best), np.where(take, j, at)
            opp = (best >= 0) & ((k - at) % 2 == 1)
        st = strength(hands)
        d["bands"] = [(label, (int((bid & none & inb).sum()), int((none & inb).sum())),
                       (int((bid & opp & inb).sum()), int((opp & inb).sum())))
                      for label, lo, hi in STRENGTH_BUCKETS for inb in [(st >= lo) & (st <= hi)]]
        held = aces(hands)
        d["nt_by_aces"] = [(int((nt & (held == x)).sum()), int((bid & (held == x)).sum())) for x in range(5)]
        out["pos"].append(d)
        high = np.where(bid, np.maximum(high, c), high)
    rank, _ = contracts_of(calls, dealers)
    has = rank >= 0
    out["passed_to_dealer"] = (int((calls[:, :3] < 0).all(axis=1).sum()), n)
    out["level"] = float(lad.levels[rank[has]].mean()) if has.any() else float("nan")
    out["level8"] = (int((lad.levels[rank[has]] >= 8).sum()), int(has.sum()))
    out["nt_contract"] = (int(lad.nt[rank[has]].sum()), int(has.sum()))
    return out


def _share(prefix: str, kn) -> dict:
    r = proportion_row(*kn)
    return {f"{prefix}": r["p"], f"{prefix}_lo": r["lo"], f"{prefix}_hi": r["hi"], f"{prefix}_n": r["n"]}


#: what the rule documents say players do (docs/rules sources: the Spanish sheet and the others),
#: and the number of this study that checks it: (claim, table, how to read it from the counts)
DOCUMENTS = (
    ("\"Apuesta con cuidado ... 7 u 8 ya es mucho\" (bid carefully; 7 or 8 is already a lot)",
     "contracts at 8 or more", lambda c: c["level8"]),
    ("a poor hand passes (\"errores típicos: apostar demasiado alto\")",
     "first seat, count 4.5-5: opens", lambda c: c["pos"][0]["bands"][1][1]),
    ("the first seat opens only a hand worth a bid",
     "first seat: opening rate", lambda c: c["pos"][0]["open"]),
    ("\"sin triunfo solo con ases\" (no trump only with aces)",
     "bids in NT without an ace", lambda c: tuple(np.sum([p["nt_by_aces"][0] for p in c["pos"]], axis=0))),
    ("\"sin triunfo solo con ases\"", "bids in NT with 3 or 4 aces",
     lambda c: tuple(np.sum([p["nt_by_aces"][x] for p in c["pos"] for x in (3, 4)], axis=0))),
    ("the dealer may take the highest bid at its level (its privilege), on a hand that can make it",
     "the dealer facing a bid: matches", lambda c: c["pos"][3]["match"]),
    ("the dealer must bid when the first three pass (so it is often passed round to it)",
     "passed round to the dealer", lambda c: c["passed_to_dealer"]),
    ("a player does not jump without values", "first seat: jumps (of its bids)", lambda c: c["pos"][0]["jump"]),
)


def run(results, rules, deals: int = 20000, seed: int = config.STUDY_SEED,
        policies=DEFAULT_POLICIES) -> StudyTables:
    """Bid the deals and build the tables (module doc).  ``results`` is not
    used (this study deals its own)."""
    from ..deal import deal_for_rules
    from ..hands import STRENGTH_BUCKETS
    from ..strategy.policies import population_note
    from . import StudyError

    policies = [policies] if isinstance(policies, str) else list(policies)
    bad = [p for p in policies if p not in POLICIES]
    if bad or not policies:
        raise StudyError(f"parameter policies must name policies of {', '.join(POLICIES)}; got {policies}")
    cards = deal_for_rules(int(deals), int(seed), rules)[0]  # the standard deck's deals: deal_batch's
    counts = {p: call_counts(p, cards, rules) for p in policies}
    pos_rows, auc_rows, band_rows = [], [], []
    for p, c in counts.items():
        for k, d in enumerate(c["pos"]):
            pos_rows.append({"policy": p, "position": POSITIONS[k], **_share("open", d["open"]),
                             **_share("over", d["over"]), **_share("jump", d["jump"]), **_share("nt", d["nt"])})
        d = c["pos"][3]
        auc_rows.append({"policy": p, **_share("passed", c["passed_to_dealer"]), **_share("match", d["match"]),
                         **_share("raise", d["raise"]), "level": c["level"], **_share("level8", c["level8"]),
                         **_share("nt", c["nt_contract"])})
        for b, (label, *_r) in enumerate(STRENGTH_BUCKETS):
            fac = tuple(sum(c["pos"][k]["bands"][b][2][i] for k in (1, 2)) for i in (0, 1))
            band_rows.append({"policy": p, "count": label, **_share("open", c["pos"][0]["bands"][b][1]),
                              **_share("over", fac)})
    first = counts[policies[0]]
    doc_rows = [{"policy": policies[0], "document": claim, "checked by": what, **_share("share", get(first))}
                for claim, what, get in DOCUMENTS]
    from ..strategy.exploitability import published_exploitability

    from ..strategy.policies import hand_rules

    standard = hand_rules(rules) == hand_rules(Rules.preset("standard"))
    expl = pd.DataFrame(published_exploitability() if standard else [],
                        columns=["policy", "gain", "lo", "hi", "situations", "measured", "code"])
    tables = StudyTables({"by_position": pd.DataFrame(pos_rows), "auctions": pd.DataFrame(auc_rows),
                          "by_count": pd.DataFrame(band_rows), "documents": pd.DataFrame(doc_rows),
                          "exploitability": expl})
    info = {"n": int(deals), "seed": int(seed), "rules": getattr(rules, "label", str(rules)), "policies": policies,
            "population_note": population_note(rules) if "population" in policies else ""}
    notes = {"by_position": "opening rate: of the seats with no bid before them (the dealer's 100%: forced); overcall "
                            "rate: of the seats facing a bid; jump and NT: of the bids",
             "auctions": "passed: the first three pass; match / raise: the dealer facing a bid takes it at its rank / "
                         "bids higher; level, 8+ and NT: of the contracts",
             "by_count": "the first seat's opening rate, and the 2nd and 3rd seats' overcall rate facing an "
                         "opponent's bid, by the Kaiser count of the hand",
             "documents": f"what the rule documents say players do, beside {policies[0]}'s share that checks it"}
    for name in tables:
        meta = tables.meta(name)
        meta.run = dict(info)
        meta.note = (f"{int(deals):,} fresh deals (seed {seed}), every seat bidding by the same policy, 0-0; "
                     + notes.get(name, "") + "; shares with their Wilson 95% interval and n")
        meta.footer = (f"n={int(deals):,} auctions a policy, seed={seed}, rules={info['rules']}; no solving "
                       "(hands only): the calls, no card played; 95% intervals (Wilson), one auction a deal")
    meta = tables.meta("exploitability")
    meta.note = ("measured apart, not on these deals (benchmarks/exploitability.py, recorded in "
                 "kaiser_sim/data/exploitability.json): the mean gain, in points a hand (your side's hand score "
                 "minus the opponents', table play, 0-0), of a player who sees its whole hand and knows the others "
                 "bid by the policy (the hand advisor), in situations the policy itself produces, its deviation "
                 "chosen on half of 300 deals consistent with the calls heard and valued on the other half; 95% "
                 "interval over the situations" if standard else
                 "measured under the standard rules only: no figure for these rules")
    meta.footer = "published measurement (standard rules); n = situations"
    return tables


def plot(tables) -> dict:
    from .common import legend, new_figure

    figs = {}
    b = tables["by_count"]
    fig, ax = new_figure("First seat's opening rate by the hand's count", "Kaiser count", "share that opens",
                         tables.meta("by_count").footer)
    for p, g in b.groupby("policy", sort=False):
        ok = g["open_n"] > 0
        x = np.flatnonzero(ok.to_numpy())
        g = g[ok]
        ax.errorbar(x, g["open"], yerr=[g["open"] - g["open_lo"], g["open_hi"] - g["open"]], marker="o", capsize=2,
                    label=p)
    labels = list(dict.fromkeys(b["count"]))
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    if len(b):
        legend(ax)
    figs["call_frequencies_opening"] = fig
    return figs


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section (:mod:`~kaiser_sim.studies.blocks`)."""
    from .blocks import Table, ci, count, frame

    def pc(r, key):
        return ci(r[key], r[f"{key}_lo"], r[f"{key}_hi"], 1, 100) if r[f"{key}_n"] else "-"

    bp, au, bc, dc = tables["by_position"], tables["auctions"], tables["by_count"], tables["documents"]
    prows = [{"policy": r["policy"], "position": r["position"],
              "opens %": "100 (forced)" if r["position"] == "dealer" else pc(r, "open"), "overcalls %": pc(r, "over"),
              "jumps % of bids": pc(r, "jump"), "NT % of bids": pc(r, "nt")} for _, r in bp.iterrows()]
    arows = [{"policy": r["policy"], "passed out to the dealer %": pc(r, "passed"),
              "dealer matches %": pc(r, "match"), "dealer bids higher %": pc(r, "raise"),
              "contract's level": f"{r['level']:.2f}", "8 or more %": pc(r, "level8"), "NT %": pc(r, "nt")}
             for _, r in au.iterrows()]
    crows = [{"policy": r["policy"], "count": r["count"], "1st seat opens %": pc(r, "open"),
              "1st seat hands": count(r["open_n"]), "overcalls an opponent %": pc(r, "over"),
              "hands facing an opponent": count(r["over_n"])} for _, r in bc.iterrows()]
    drows = [{"the documents say": r["document"], "checked by": r["checked by"], f"{r['policy']} %": pc(r, "share"),
              "n": count(r["share_n"])} for _, r in dc.iterrows()]
    erows = [{"policy": r["policy"], "a best response gains, points a hand": ci(r["gain"], r["lo"], r["hi"], 2),
              "situations": count(r["situations"]), "measured": f"{r['measured']} (code {r['code']})"}
             for _, r in tables["exploitability"].iterrows()]
    notes = {name: tables.meta(name).note for name in tables}
    blocks = [Table(f"{KEY}-by-position", "Calls by position", frame(prows), notes["by_position"]),
              Table(f"{KEY}-auctions", "The auctions: passed out, the dealer's privilege, the contracts", frame(arows),
                    notes["auctions"]),
              Table(f"{KEY}-by-count", "Calls by the hand's count", frame(crows), notes["by_count"]),
              Table(f"{KEY}-documents", "Beside what the rule documents say players do", frame(drows),
                    notes["documents"])]
    if erows:
        blocks.append(Table(f"{KEY}-exploitability", "How exploitable each bidding model is", frame(erows),
                            notes["exploitability"]))
    return blocks, meaning(tables), ["call_frequencies_opening"]


def meaning(tables) -> list[str]:
    """What the numbers mean, in sentences for the report."""
    from .blocks import ci

    bp, au = tables["by_position"], tables["auctions"]
    out = []
    note = tables.meta("by_position").run.get("population_note")
    if note:
        out.append(f"The bidding model: {note}.")
    for p in dict.fromkeys(bp["policy"]):
        f = bp[(bp["policy"] == p) & (bp["position"] == POSITIONS[0])].iloc[0]
        a = au[au["policy"] == p].iloc[0]
        out.append(f"{p}: the first seat opens {ci(f['open'], f['open_lo'], f['open_hi'], 1, 100)}% of hands; the "
                   f"dealer facing a bid matches {ci(a['match'], a['match_lo'], a['match_hi'], 1, 100)}%; "
                   f"{ci(a['level8'], a['level8_lo'], a['level8_hi'], 1, 100)}% of contracts are at 8 or more "
                   f"(mean level {a['level']:.2f}).")
    out.append("The rule documents describe players who pass a poor hand, rarely go past 7 or 8, keep no trump for "
               "hands with aces and use the dealer's privilege on a hand that can make the bid; the table beside "
               "them sets each of those beside the model's own share.")
    ex = tables["exploitability"] if "exploitability" in tables else None
    if ex is not None and len(ex):
        least = ex.iloc[0]
        others = "; ".join(f"{r['policy']} {ci(r['gain'], r['lo'], r['hi'], 2)}" for _, r in ex.iloc[1:].iterrows())
        out.append(f"How exploitable each model is (measured apart, last table): a player who sees its whole hand "
                   f"gains {ci(least['gain'], least['lo'], least['hi'], 2)} points a hand against {least['policy']}, "
                   f"the least of the models measured ({others}).")
    return out


__all__ = ["KEY", "TITLE", "QUESTION", "METHOD", "DEFINITION", "PARAMETERS", "report_params", "run",
           "plot", "section", "meaning", "call_counts", "DOCUMENTS"]
