"""The rule sheets' advice, tested against the studies of the same run.

The five published rule descriptions the rules digest is written from
(``docs/rules.md``, "Sources": named by language) give players advice beside
the rules.  :data:`ADVICE` holds each piece in this package's own words,
with the source it comes from (the repository needs no copy of the
sources); :func:`advice_rows` confronts each with the tables of the
report's studies (``outputs``: study key -> its tables) and gives a
one-word verdict computed from the 95% interval of the figure that answers
it:

- ``holds``: the interval lies wholly on the side the advice claims;
- ``refuted``: it lies wholly on the other side;
- ``depends``: the answer differs between the hands the advice covers
  (counts, aces, levels), each part settled;
- ``unsettled``: an interval reaches the line (a larger run may decide).

:func:`rules_of_thumb` gives the table card's box: at most five rules, each
with its figure from the same tables.  A piece of advice whose study is not
in the report is left out (a report of some studies tests what it can).

This module reads other studies' tables by their keys (it is the one place
that crosses studies); it runs no study itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .blocks import Table, Text, ci, frame, pct, signed_ci
from .common import StudyTables, TableMeta

VERDICTS = ("holds", "refuted", "depends", "unsettled")


@dataclass(frozen=True)
class Advice:
    key: str
    source: str  # the rule description it comes from (docs/rules.md, Sources)
    words: str  # the advice, in this package's words


#: the rule sheets' advice (docs/rules.md, "Sources"), in this package's words
ADVICE = (
    Advice("five-hearts-level", "Portuguese", "The 5♥ is worth a bid level: with it, bid one more than without."),
    Advice("five-hearts-sure", "Portuguese", "Holding the 5♥ all but guarantees your side its +5."),
    Advice("three-spades-partner", "Portuguese", "Get rid of the 3♠ early on a trick your partner is winning."),
    Advice("three-spades-opponents", "Spanish, Russian", "Get rid of the 3♠ on a trick the opponents win anyway."),
    Advice("seven-eight", "Russian", "Bid carefully: a hand has 10 points, so 7 or 8 is already a lot."),
    Advice("nt-aces", "Russian", "No trump only with aces: its score is doubled, failure included."),
    Advice("trump-longest", "Portuguese", "Name as trump your longest and strongest suit."),
    Advice("five-trumps-ace", "Portuguese", "Five trumps with the ace is a typical hand to bid 8."),
    Advice("dealer-privilege", "Spanish, Russian, Norwegian",
           "The dealer's privilege: the dealer may take the contract at the bid already made; use it."),
)


def verdict(lo: float, hi: float, line: float, claim_above: bool = True) -> str:
    """``holds`` / ``refuted`` / ``unsettled`` for a claim that a figure
    lies above (``claim_above``) or below ``line``, from its 95% interval."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "unsettled"
    above, below = lo > line, hi < line
    if above or below:
        return "holds" if above == claim_above else "refuted"
    return "unsettled"


def _table(outputs: dict, study: str, name: str):
    t = outputs.get(study, {})
    df = t.get(name) if hasattr(t, "get") else None
    return df if df is not None and len(df) else None


def _meta(outputs: dict, study: str, name: str) -> TableMeta:
    """The metadata of ``study``'s table ``name`` (:class:`TableMeta`; empty
    for tables given as a plain dict)."""
    t = outputs.get(study, {})
    return t.meta(name) if isinstance(t, StudyTables) and name in t else TableMeta()


def _row(df, **match):
    if df is None:
        return None
    sel = np.ones(len(df), dtype=bool)
    for k, v in match.items():
        if k not in df.columns:
            return None
        sel &= (df[k].astype(str) == str(v)).to_numpy()
    return df[sel].iloc[0] if sel.any() else None


def _five_hearts_level(o):
    r = _row(_table(o, "five-hearts", "counterfactual"), receiver="any other hand", role="you declare",
             strain="trump by rule")
    if r is None:
        return None
    tp = "tp_mean" in r and np.isfinite(r["tp_mean"])
    m, lo, hi = (r["tp_mean"], r["tp_lo"], r["tp_hi"]) if tp else (r["mean"], r["lo"], r["hi"])
    v = verdict(lo, hi, 1.0)
    return (f"Declaring, holding the 5♥ rather than the 8♥ is worth {signed_ci(m, lo, hi)} points "
            f"({'table play' if tp else 'double dummy'}): a bid level is a whole point.", v)


def _five_hearts_sure(o):
    r = _row(_table(o, "five-hearts", "worth_overall"))
    if r is None:
        return None
    v = verdict(r["all_of_it_lo"], r["all_of_it_hi"], 0.9)
    return (f"With best play by both sides, the side dealt the 5♥ keeps all 5 of its points on "
            f"{pct(r['all_of_it'], r['all_of_it_lo'], r['all_of_it_hi'])}% of deals and "
            f"{ci(r['mean'], r['lo'], r['hi'])} of them on average (double dummy); 'all but guarantees' would be "
            "9 deals in 10.", v)


def _three_spades_kept(o):
    return _row(_table(o, "three-spades", "worth_overall"))


def _three_spades_partner(o):
    r = _three_spades_kept(o)
    if r is None:
        return None
    # the advice hands your side the whole -3 every time; good play costs the side dealt it |mean| < 3
    v = verdict(-r["hi"], -r["lo"], 3.0)  # the advice is right only if good play cannot pay less than 3
    return (f"A trick your partner wins is your side's: the advice gives your side the −3 every time. With best "
            f"play the side dealt the 3♠ pays {ci(-r['mean'], -r['hi'], -r['lo'])} of its 3 points on average and "
            f"ends with it on {pct(r['all_of_it'], r['all_of_it_lo'], r['all_of_it_hi'])}% of deals (double "
            "dummy).", v)


def _three_spades_opponents(o):
    r = _three_spades_kept(o)
    if r is None:
        return None
    v = verdict(r["none_of_it_lo"], r["none_of_it_hi"], 0.5)
    return (f"With best play the side dealt the 3♠ passes it to the opponents on "
            f"{pct(r['none_of_it'], r['none_of_it_lo'], r['none_of_it_hi'])}% of deals (double dummy): usually it "
            "can.", v)


def _seven_eight(o):
    mk = _table(o, "bid-odds", "make")
    if mk is None:
        return None
    methods = [m for m in ("trump by rule, table play", "trump by rule") if (mk["method"] == m).any()]
    if not methods:
        return None
    meth = methods[0]
    r7, r8 = _row(mk, method=meth, bid=7), _row(mk, method=meth, bid=8)
    if r7 is None or r8 is None:
        return None
    v = verdict(r8["lo"], r8["hi"], 0.5, claim_above=False)
    measure = "table play" if "table play" in meth else "double dummy"
    return (f"A hand as declarer, trump its longest suit, makes 7 on {pct(r7['p'], r7['lo'], r7['hi'])}% and 8 on "
            f"{pct(r8['p'], r8['lo'], r8['hi'])}% of deals ({measure}): 8 fails more often than it makes.", v)


def _nt_aces(o):
    t = _table(o, "trump-and-nt", "nt_vs_trump_table_play")
    tp = t is not None
    t = t if tp else _table(o, "trump-and-nt", "nt_vs_trump")
    if t is None:
        return None
    t = t[t["aces"].astype(str) != "all"]
    aces = t["aces"].astype(str).str.extract(r"(\d)")[0].astype(float)
    few = t[aces <= 1]
    many = t[aces >= 3]
    few_loses = bool(len(few)) and bool((few["hi"] < 0).all())
    many_wins = bool(len(many)) and bool((many["lo"] > 0).any())
    r8 = _row(t, level=8, aces="3 aces")
    r0 = _row(t, level=8, aces="0 aces")
    v = "holds" if few_loses and many_wins else ("refuted" if (few["lo"] > 0).any() else "unsettled")
    at8 = (f" At 8, NT minus a plain bid: {signed_ci(r0['nt_minus_trump'], r0['lo'], r0['hi'], 1)} points with no "
           f"ace, {signed_ci(r8['nt_minus_trump'], r8['lo'], r8['hi'], 1)} with 3"
           if r0 is not None and r8 is not None else "")
    return (f"With 0 or 1 ace an NT bid scores less than a plain bid at {'every' if few_loses else 'not every'} "
            f"level; with 3 or 4 it scores more at {int((many['lo'] > 0).sum())} of {len(many)} (ace count, level) "
            f"pairs.{at8} ({'table play' if tp else 'double dummy'}).", v)


def _trump_longest(o):
    t = _table(o, "trump-and-nt", "trump_rules")
    if t is None:
        return None
    rows = {str(r["rule"]): r for _, r in t.iterrows()}
    ls, lg, st = rows.get("longest-strength"), rows.get("longest"), rows.get("strongest")
    if ls is None or st is None:
        return None
    # the advice names the longest suit first and strength second: against the strongest suit alone
    v = verdict(st["loss_lo"] - ls["loss_hi"], st["loss_hi"] - ls["loss_lo"], 0.0) if ls["loss_hi"] < st["loss_lo"] \
        or st["loss_hi"] < ls["loss_lo"] else "unsettled"
    return (f"The longest suit, ties broken by high cards, gives away {ci(ls['loss'], ls['loss_lo'], ls['loss_hi'])} "
            f"points against the best trump in hindsight; the strongest suit {ci(st['loss'], st['loss_lo'], st['loss_hi'])}"
            + (f", the longest alone {ci(lg['loss'], lg['loss_lo'], lg['loss_hi'])}" if lg is not None else "")
            + " (double dummy).", v)


def _five_trumps_ace(o):
    ch = _table(o, "bidding-chart", "net_chart")
    if ch is None:
        return None
    # five trumps with the ace: a count of at least 7.5 (trump A 2 + 5 trumps + 1/2); the cells of 5 trumps
    cells = ch[(ch["trump_len"].astype(str) == "5")
               & ch["strength"].astype(str).isin(["7.5-8", "8.5-9", "9.5-10", "10.5+"])]
    if not len(cells):
        return None
    low = _row(cells, strength="7.5-8")
    parts = [f"count {r['strength']}: {r['declare_limit']}" for _, r in cells.iterrows()]
    at8 = [r["declare_level"] >= 8 for _, r in cells.iterrows()]
    settled = bool(cells["declare_settled"].astype(bool).all())
    v = ("holds" if all(at8) else "refuted" if not any(at8) else "depends") if settled else "unsettled"
    eight = ""
    if low is not None and low["declare_limit"] == "8":
        eight = f" (the least of these hands: 8 nets {signed_ci(low['declare_net'], low['declare_lo'], low['declare_hi'])}"
    elif low is not None and low["declare_next"] == "8":
        eight = (f" (the least of these hands: 8 nets "
                 f"{signed_ci(low['declare_next_net'], low['declare_next_lo'], low['declare_next_hi'])}")
    return (f"With five trumps and the ace (a count of 7½ or more, 14 or more on the table card) the card's limit "
            f"(the highest bid with a positive net value if declared, table play) is {'; '.join(parts)}"
            + (eight + " points if declared)" if eight else "") + ".", v)


def _dealer_privilege(o):
    ch = _table(o, "auction", "call_chart")
    if ch is None:
        return None
    rows = ch[ch["situation"].astype(str) == "dealer facing a bid"]
    if not len(rows) or "net match" not in rows.columns:
        return None
    better = [r for _, r in rows.iterrows() if r["best"] == "match" and r["settled"]]
    worse = [r for _, r in rows.iterrows() if r["best"] != "match" and r["settled"]]
    # judged on the bands the data decide (settled): all for matching, all against, or some each way
    v = ("depends" if better and worse else "holds" if better else "refuted" if worse else "unsettled")
    bidders = _meta(o, "auction", "call_chart").extra.get("bidders", "ev")
    return (f"Facing a bid, the dealer does better to match in {len(better)} and to pass in "
            f"{sum(1 for r in worse if r['best'] == 'pass')} of {len(rows)} count bands (the others not settled), "
            f"net of the opponents, the other seats bidding by the {bidders} model (table play).", v)


_JUDGES = {"five-hearts-level": _five_hearts_level, "five-hearts-sure": _five_hearts_sure,
           "three-spades-partner": _three_spades_partner, "three-spades-opponents": _three_spades_opponents,
           "seven-eight": _seven_eight, "nt-aces": _nt_aces, "trump-longest": _trump_longest,
           "five-trumps-ace": _five_trumps_ace, "dealer-privilege": _dealer_privilege}


def advice_rows(outputs: dict) -> list[dict]:
    """Each piece of :data:`ADVICE` the report's tables can answer:
    ``{"key", "advice", "source", "numbers", "verdict"}``.  ``outputs``:
    study key -> its tables (dict of DataFrames)."""
    rows = []
    for a in ADVICE:
        got = _JUDGES[a.key](outputs)
        if got is None:
            continue
        numbers, v = got
        rows.append({"key": a.key, "advice": a.words, "source": a.source, "numbers": numbers, "verdict": v})
    return rows


ADVICE_TITLE = "The rule sheets' advice, tested"


def advice_blocks(outputs: dict) -> list:
    """The report's section on the rule sheets' advice: a table of each
    piece, what this run's numbers say and the verdict."""
    rows = advice_rows(outputs)
    if not rows:
        return []
    blocks = [Text("The published rule descriptions of Kaiser (docs/rules.md names them by language) give advice "
                   "beside the rules. Each piece below is put in our words with the description it comes from, "
                   "then answered by this run's tables (the section each figure comes from is named by its "
                   "measure). Verdict, from the 95% interval of the figure: holds (wholly on the advice's side), "
                   "refuted (wholly on the other), depends (true for some of the hands it covers and not others), "
                   "unsettled (the interval reaches the line).")]
    blocks.append(Table("advice-tested", "The verdicts at a glance", frame(
        [{"#": str(i), "advice": r["key"].replace("-", " "), "source": r["source"], "verdict": r["verdict"]}
         for i, r in enumerate(rows, 1)]), size=9, note="each piece of advice in full, with its numbers, below"))
    for i, r in enumerate(rows, 1):
        blocks.append(Text(f"{i}. {r['advice']} ({r['source']}): {r['verdict']}", "heading"))
        blocks.append(Text(f"The numbers: {r['numbers']} Verdict: {r['verdict']}."))
    return blocks


def rules_of_thumb(outputs: dict) -> list[str]:
    """At most five rules of thumb for the table card, each with its figure
    from this run's tables (none when the tables are not in the report)."""
    out = []
    got = {r["key"]: r for r in advice_rows(outputs)}
    fh = _row(_table(outputs, "five-hearts", "counterfactual"), receiver="any other hand", role="you declare",
              strain="trump by rule")
    if fh is not None:
        tp = "tp_mean" in fh and np.isfinite(fh["tp_mean"])
        m, lo, hi = (fh["tp_mean"], fh["tp_lo"], fh["tp_hi"]) if tp else (fh["mean"], fh["lo"], fh["hi"])
        out.append(f"The 5♥ is not a bid level: declaring, it is worth {signed_ci(m, lo, hi)} points "
                   f"({'table play' if tp else 'double dummy'}); the count gives it 1.")
    ts = _three_spades_kept(outputs)
    if ts is not None:
        out.append(f"Never play the 3♠ on partner's trick: throw it on the opponents'. With good play the side dealt "
                   f"it pays only {ci(-ts['mean'], -ts['hi'], -ts['lo'])} of its 3 points (double dummy).")
    nt = _table(outputs, "trump-and-nt", "nt_vs_trump_table_play")
    nt = nt if nt is not None else _table(outputs, "trump-and-nt", "nt_vs_trump")
    r0, r3 = _row(nt, level=8, aces="0 aces"), _row(nt, level=8, aces="3 aces")
    if r0 is not None and r3 is not None:
        out.append(f"No trump only with 3 or 4 aces: at 8, NT minus a plain bid is "
                   f"{signed_ci(r3['nt_minus_trump'], r3['lo'], r3['hi'], 1)} points with 3 aces, "
                   f"{signed_ci(r0['nt_minus_trump'], r0['lo'], r0['hi'], 1)} with none.")
    mk = _table(outputs, "bid-odds", "make")
    if "seven-eight" in got and mk is not None:
        meth = "trump by rule, table play" if (mk["method"] == "trump by rule, table play").any() else "trump by rule"
        r8 = _row(mk, method=meth, bid=8)
        out.append(f"8 is a lot: an average hand declaring makes it {pct(r8['p'], r8['lo'], r8['hi'])}% of the time "
                   f"({'table play' if 'table' in meth else 'double dummy'}).")
    ld = _row(_table(outputs, "lead", "summary"), strain="trump by rule")
    if ld is not None:
        out.append(f"Winning the bid wins the lead, worth {signed_ci(ld['mean'], ld['lo'], ld['hi'])} points to the "
                   "side on lead (double dummy).")
    return out[:5]


__all__ = ["ADVICE", "ADVICE_TITLE", "Advice", "VERDICTS", "advice_blocks", "advice_rows", "rules_of_thumb", "verdict"]
