"""Worked hands: example hands read with the table card and with the hand advisor.

Each hand of :data:`WORKED_HANDS` (chosen to show the table card's rows,
hands where the count misleads, and the rule sheets' own example hands) is
given its count (the card's whole number and the report's Kaiser count),
its cell of the table card and the card's limit there (the bidding chart's
``net_chart`` of the same run), and the hand advisor's verdict
(:func:`kaiser_sim.strategy.advisor.advise`, read from its JSON document,
``HandAdvice.to_dict()``, never from its text) with the figures behind it:
the net value of its call, the highest bid it finds worth more than
passing, and the chance of making the card's bid and the rule sheet's.
Nothing here is typed but the hands and what each was chosen to show: the
numbers and the words comparing the card with the advisor come from the
run's tables and the advisor, so they stay true when the models change.

The cost is bounded by ``deals`` (the advisor's deals per hand: a few
hundred in a small report, more in the edition).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .blocks import Table, Text, ci, frame, pct, signed_ci

TITLE = "Worked hands"


@dataclass(frozen=True)
class WorkedHand:
    hand: str  # the advisor's notation: spades.hearts.diamonds.clubs, T for the 10
    shows: str  # what the hand was chosen to show (not what it turns out to say)
    auction: str = "none"  # the calls heard before it, from the dealer's left ("none": it calls first)
    sheet_bid: str | None = None  # the bid a rule sheet gives it, if it is a rule sheet's example
    seat: str = "N"


#: the hands (docs/rules.md names the rule sheets by language)
WORKED_HANDS = (
    WorkedHand("AKQ8.5.T9.8", "the Russian rule sheet's example: A K Q of spades with the 5♥ (four small cards "
               "added); the sheet bids 8 in spades", sheet_bid="8"),
    WorkedHand("8.9.AT987.K", "the Portuguese rule sheet's 'typical 8': five trumps with the ace", sheet_bid="8"),
    WorkedHand("9.T8.J9.QT8", "a weak hand: the card's bottom row"),
    WorkedHand("8.K5.QJ9.98", "the 5♥ and little else: the count gives the 5♥ 1"),
    WorkedHand("KJ98.A.Q8.8", "a middling hand with four trumps: the card's middle rows"),
    WorkedHand("AKJ98.85.A.", "a strong hand with five trumps: the card's upper rows"),
    WorkedHand("QJT983.8.9.", "six trumps with the 3♠ and no ace: the count gives every trump 2 and the 3♠ 3"),
    WorkedHand("A8.A9.A8.A7", "four aces and no long suit: the count gives side aces 2 and names a 2-card trump"),
    WorkedHand("KQ98.A.K8.8", "the dealer facing 7 in the commonest auction (6, 6NT, 7): the dealer's privilege "
               "to take it at 7", auction="6 6NT 7"),
)

_SUITS = "♠♥♦♣"


def hand_words(hand: str) -> str:
    """``AKQ8.5.T9.8`` -> ``♠ A K Q 8  ♥ 5  ♦ 10 9  ♣ 8``."""
    parts = []
    for sym, cards in zip(_SUITS, hand.split(".")):
        parts.append(f"{sym} " + (" ".join("10" if c == "T" else c for c in cards) if cards else "—"))
    return "  ".join(parts)


def _strain_word(strain) -> str:
    """The strain's noun (:attr:`kaiser_sim.cards.Strain.noun`: the vocabulary's one home) for its key
    (S H D C N), or "" for none."""
    from ..cards import Strain

    return Strain.parse(strain).noun if strain in ("S", "H", "D", "C", "N") else ""


def _call_words(call: str, strain) -> str:
    if call == "pass" or "NT" in call:  # NT bids, low ones too, name their strain
        return call
    return f"{call} in {_strain_word(strain)}" if strain else call


def _level(call: str) -> float:
    """A call's place on the ladder (pass 0; 8 = 8, 8NT = 8.5, 8NT-low =
    8.75: low NT just above high NT of its number)."""
    from ..auction import Bid

    bid = None if call in ("pass", "", None) else Bid.parse(call)
    if bid is None:
        return 0.0
    return bid.level + (0.5 if bid.nt else 0.0) + (0.25 if bid.low else 0.0)


def _bid(doc: dict, call: str):
    for b in doc.get("bids", []):
        if b["bid"] == call:
            return b
    return None


def work_hand(w: WorkedHand, net_chart, rules, deals: int, seed: int) -> dict:
    """One worked hand: its count, its cell of the table card and the card's
    limit there, and the advisor's verdict with its figures (a dict of
    printed words and numbers)."""
    from ..errors import KaiserSimError
    from ..hands import kaiser_count, suit_lengths, trump_by_rule
    from ..strategy.advisor import advise, read_hand
    from .bidding_chart import card_limit, possible_cell
    from .common import LENGTH_BUCKETS, STRENGTH_BUCKETS, bucket, card_band, card_count

    try:
        mask = np.array([read_hand(w.hand, rules)], dtype=np.uint64)
    except KaiserSimError as e:  # a hand these rules cannot hold (another deck): left out, saying why
        return {"hand": w.hand, "shows": w.shows, "error": str(e)}
    trump = trump_by_rule(mask)
    count = float(kaiser_count(mask, trump)[0])
    length = int(suit_lengths(mask)[0, int(trump[0])])
    band = str(bucket(np.array([count]), STRENGTH_BUCKETS)[0])
    lb = str(bucket(np.array([length]), LENGTH_BUCKETS)[0])
    out = {"hand": hand_words(w.hand), "shows": w.shows, "count": card_count(count), "kaiser_count": count,
           "trump": _strain_word("SHDC"[int(trump[0])]), "length": length, "row": card_band(band), "band": band,
           "column": lb, "heard": "nothing (first to call)" if w.auction == "none" else w.auction,
           "card": "", "advisor": "", "figures": "", "compare": ""}
    cell = None
    if net_chart is not None and len(net_chart):
        hit = net_chart[(net_chart["strength"].astype(str) == band) & (net_chart["trump_len"].astype(str) == lb)]
        cell = hit.iloc[0] if len(hit) else None
    if cell is not None:
        out["card"] = card_limit(cell)
    else:
        out["card"] = "impossible" if not possible_cell(band, lb) else "· (too few hands)"
    try:
        doc = advise(w.hand, seat=w.seat, n=int(deals), seed=seed, rules=rules, check=0, specials=False,
                     auction=w.auction).to_dict()
    except KaiserSimError as e:
        out["advisor"] = f"not advised: {e}"
        return out
    rec = doc["recommendation"]
    value = (rec.get("value") or {}).get("table") or (rec.get("value") or {}).get("dd")
    out["advisor"] = _call_words(rec["call"], rec.get("strain")) + (" (a tie with the next best)" if rec.get("tie")
                                                                     else "")
    figures = []
    out["net"] = signed_ci(value["mean"], value["lo"], value["hi"]) if value else "-"
    after = rec.get("after_pass")  # a good hand told to pass: what happens instead (the advisor's own figures)
    out["after_pass"], out["why"] = "-", ""
    if after:
        theirs = after["net_when_they_declare"]
        share = f"{100 * after['opponents_declare']:.0f}"
        out["after_pass"] = f"{share}%, {signed_ci(theirs['mean'], theirs['lo'], theirs['hi'])}"
        out["why"] = (f"after the pass the opponents declare {share}% of the deals, and on those your side nets "
                      f"{signed_ci(theirs['mean'], theirs['lo'], theirs['hi'])} points a hand"
                      + (": their contracts cost them, so defending pays as well as bidding" if theirs["lo"] > 0
                         else ""))
    out["checks"] = []  # the bids checked, as the figures table prints them
    if value:
        figures.append(f"its net value (your side's score minus the opponents') "
                       f"{signed_ci(value['mean'], value['lo'], value['hi'])} points a hand, table play")
    # the card's measure for this hand alone: the highest bid whose net value if declared (its expected hand
    # score minus the opponents' expected points, the rest of the hand's total less the side's) is positive
    own = []
    for b in doc.get("bids", []):
        strain = b.get("strain")
        pts = (doc.get("strains", {}).get(strain, {}).get("points", {}).get("table") or {}).get("mean")
        ex = (b.get("expected", {}).get("table") or {}).get("mean")
        if b.get("legal") and pts is not None and ex is not None and ex - (rules.raw_total - pts) > 0:
            own.append(b["bid"])
    highest = max(own, key=_level) if own else "pass"
    out["advisor_highest"] = highest
    figures.append(f"for this hand alone, the highest bid with a positive net value if declared (the card's "
                   f"measure): {highest}")
    card_bid = out["card"].rstrip("?≈*")
    for label, call in (("the card's bid", card_bid),
                        ("the rule sheet's bid", w.sheet_bid if w.sheet_bid != card_bid else None)):
        b = _bid(doc, call) if call and call not in ("pass", "impossible") and not call.startswith("·") else None
        if b is None:
            continue
        mk, ex = b["make"]["table"], b["expected"]["table"]
        out["checks"].append({"bid checked": f"{label[4:]}: {_call_words(call, b.get('strain'))}",
                              "makes %, table play": pct(mk["p"], mk["lo"], mk["hi"], 0),
                              "makes %, double dummy": pct(b["make"]["dd"]["p"], np.nan, np.nan, 0),
                              "score, table play": ci(ex["mean"], ex["lo"], ex["hi"], 2)})
        figures.append(f"{label}, {_call_words(call, b.get('strain'))}, makes {pct(mk['p'], mk['lo'], mk['hi'], 0)}% "
                       f"at the table ({pct(b['make']['dd']['p'], np.nan, np.nan, 0)}% double dummy), scoring "
                       f"{ci(ex['mean'], ex['lo'], ex['hi'], 2)} for the declaring side")
    out["figures"] = "; ".join(figures)
    out["deals"] = int(doc.get("deals", deals))
    if w.auction == "none" and cell is not None:
        theirs = str(cell["declare_limit"])
        gap = _level(highest) - _level(theirs)
        steps = int(round(abs(gap)))
        word = "undervalues" if gap > 0 else "overvalues"
        if abs(gap) < 0.5:
            out["compare"] = "this hand's own limit agrees with its cell's"
        elif "pass" in (highest, theirs):
            out["compare"] = (f"this hand alone says {highest} where its cell says {theirs}: the count {word} it")
        else:
            out["compare"] = (f"this hand's own limit is {steps or 'half a'} level{'s' if steps > 1 else ''} "
                              f"{'above' if gap > 0 else 'below'} its cell's: the count {word} it")
    return out


def worked_rows(net_chart, rules, deals: int = 300, seed: int = 1, hands=WORKED_HANDS) -> list[dict]:
    """Every worked hand (:func:`work_hand`)."""
    rows = []
    for w in hands:
        r = work_hand(w, net_chart, rules, deals, seed)
        if "error" not in r:
            rows.append(r)
    return rows


def worked_blocks(rows: list[dict], deals: int) -> list:
    """The report's section: a summary table, then each hand in words."""
    if not rows:
        return []
    blocks = [Text("Each hand below is read twice: with the table card (its count in whole numbers, its cell, the "
                   "card's limit there) and with the hand advisor (kaiser-sim hand), which deals the other 24 cards "
                   f"{deals:,} times, solves every deal and values every legal call net of the opponents, the rest "
                   "of the auction bid by the bidding model. The card speaks for every hand of a cell; the advisor for "
                   "this hand: where they differ, the count misleads. The hands were chosen for what they show; "
                   "every number and every comparison is computed when the report is made.")]
    # (its CSV is tables/example-hands.csv: a file name holding "/work" reads as a machine path to the edition's test)
    blocks.append(Table("example-hands", "The hands at a glance", frame([
        {"#": str(i), "hand": r["hand"], "heard": "-" if r["heard"].startswith("nothing") else r["heard"],
         "count": f"{r['count']} ({str(r['kaiser_count']).replace('.5', '½').replace('.0', '')})",
         "card": r["card"], "advisor": r["advisor"].split(" (")[0]} for i, r in enumerate(rows, 1)]), size=9,
        note="count: the table card's whole number (the report's Kaiser count in brackets); card: the table card's "
             "limit for the hand's cell (first to call); advisor: its call for this hand"))
    for i, r in enumerate(rows, 1):
        blocks.append(Text(f"{i}. {r['hand']}", "heading"))
        words = (f"Chosen for {r['shows']}. Heard: {r['heard']}. Count {r['count']} (Kaiser count "
                 f"{r['kaiser_count']:g}), trump {r['trump']} ({r['length']} cards): the card's row {r['row']}, "
                 f"column {r['column']} trumps, where it says {r['card']}. The advisor: {r['advisor']}.")
        if r["figures"]:
            words += f" Behind it: {r['figures']}."
        if r.get("why"):
            words += f" Why pass: {r['why']}."
        if r["compare"]:
            words += f" So {r['compare']}."
        blocks.append(Text(words))
    # the advisor's figures as a table too: every number of the text above is in a table of the report
    fig_rows = []
    for i, r in enumerate(rows, 1):
        head = {"#": str(i), "advisor": r["advisor"].split(" (")[0], "its net, table play": r.get("net", "-"),
                "after a pass: they declare, your net": r.get("after_pass", "-"),
                "highest bid worth declaring": r.get("advisor_highest", "-")}
        checks = r.get("checks") or [{}]
        for j, c in enumerate(checks):
            blank = {k: "" for k in head}
            fig_rows.append({**(head if j == 0 else blank), "bid checked": "-", "makes %, table play": "-",
                             "makes %, double dummy": "-", "score, table play": "-", **c})
    blocks.append(Table("example-hands-figures", "The advisor's figures, hand by hand", frame(fig_rows),
                        note=f"the hand advisor on {deals:,} deals a hand, as in the text above; its net: your "
                             "side's score minus the opponents', points a hand; after a pass (where the advisor passes "
                             "a hand with a positive net, tied with a bid): the share of the deals the opponents "
                             "declare after it, and your side's net on those; highest bid worth declaring: for this "
                             "hand alone, the highest bid with a positive net value if declared (the card's measure); "
                             "score: the declaring side's hand score"))
    return blocks


__all__ = ["TITLE", "WORKED_HANDS", "WorkedHand", "hand_words", "work_hand", "worked_rows", "worked_blocks"]
