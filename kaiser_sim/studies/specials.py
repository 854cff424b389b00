"""The 5H and the 3S: what a special card is worth (shared by studies 4 and 5).

Three questions, in this order, each with its own n.  "Your side" is the
side of the seat dealt the card (the *holder*); a *receiver* is another
seat: the holder's partner, left-hand opponent (LHO) or right-hand opponent
(RHO).  Every view is split by the holder's side's role in the contract:
*you declare* (the holder is on lead: in Kaiser the declarer leads),
*partner declares*, or *you defend* (either opponent on lead), and by the
strain: the declarer's trump by rule (named from the declarer's own hand)
or no trump.

(a) **What being dealt the card is worth to your side: a paired swap.**
    On a re-solved sample of deals (the first ``max_resolve`` deals in which
    the card is dealt to a hand), the card is swapped *like for like* with
    the receiver's lowest card of the same suit when that card is the next
    one up (the lowest ordinary card of the suit in play: the 8 in the
    standard deck).  No card in play ranks between the two, so every card
    still beats and loses to the same others: between partners nothing
    but the special status moves, between opponents only a trick where the
    two meet can change.  Every suit length stays.  The deal is solved
    again, the declarer's trump is named again by the rule from the
    declarer's hand after the swap, and ``worth = your side's points as
    dealt - your side's points after the swap``: positive means the card
    is an asset where it was dealt.  Swaps for a higher card (a 9 or 10:
    ``SPOT``; a J or higher: ``HONOUR``) would also move trick-taking
    strength to the holder (measured: the worth against partner moves by
    about a point between an 8 and a 9 given back): they are reported apart,
    and receivers with no card of the suit (no swap keeps the lengths) are
    counted as ``no_suit``.  ``any other hand`` pools the three receivers
    (the card is equally likely to be in each when it is not in yours).
(b) **The same, observed.**  On every deal of the results, no re-solve:
    your side's mean points when your seat holds the card against when the
    receiver holds it, same role and strain.  Deals are random, so this is
    a fair comparison of averages, but not paired, and the rest of the hand
    differs with who holds the card.
(c) **How much of its +5 / -3 the holder's side keeps.**  The sample deal
    is solved with the card's bonus switched off (``five=0`` /
    ``three=0``); for any fixed line of play the two scores differ by the
    card's value exactly when the holder's side takes it, so ``kept =
    points - points with the card counting 0`` lies between 0 and the card's
    value (+5 for the 5H, -3 for the 3S): the share of the card's own points
    that ends with the holder's side under best play.  ``kept = value``:
    the holder's side takes the card whatever the other side does
    (``all_of_it``); 0: the other side takes it (``none_of_it``).  All 20
    (leader, strain) solves of each sample deal, by the holder's role.

(c) is not the card's worth: being dealt the 3S costs its side about 1 of
its 3 points in (c), yet in (a) and (b) holding it is an *asset* (the holder
decides where it lands, and the trick-taking of the rest of the deal moves
with it).  The report prints (a) first.

All intervals are 95% and clustered by deal (:mod:`kaiser_sim.stats`): the
rows of one deal (its leaders, strains and receivers) are not independent.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .. import config
from ..deal import kitty_of
from ..game import side_tables  # the rules-aware solve: every re-solve of these studies goes through it
from ..cards import FIVE_HEARTS, THREE_SPADES, Strain
from ..strategy.table_play import POINTS as DD_POINTS, point_index, point_shares  # the DD points values the table-play model maps
from .blocks import Table, Text, ci, count, frame, num, ok, pct, signed_ci
from ..runs.results import RunResults
from .common import (DEFAULT_TRUMP_RULE, NT, RANK_T, TRUMP_RULE, diff_row, footer, hands_array, integer_axis, legend, levels_of,
                     mean_row, new_figure, playout_sides, run_info, run_points, share_row, StudyTables, suit_bits, suit_lengths,
                     table_play_model, TableMeta, trump_by_rule, with_model_error)
from .params import Param

#: card -> (name, suit, value of its bonus, solver keyword switching it off)
CARDS = {
    FIVE_HEARTS: ("5H", 1, 5, "five"),
    THREE_SPADES: ("3S", 0, -3, "three"),
}
#: receiver -> its seat seen from the holder (clockwise offset)
RECEIVERS = {"self": 0, "LHO": 1, "partner": 2, "RHO": 3}
DEFAULT_RECEIVERS = ("partner", "LHO", "RHO")
#: the three receivers pooled: the card in some other hand
ANY_OTHER = "any other hand"
DEFAULT_MAX_RESOLVE = 2000
#: the parameters of the 5H and 3S studies' run() (their PARAMETERS, kaiser_sim.studies.params)
CARD_PARAMETERS = (
    Param("receivers", list, DEFAULT_RECEIVERS, "the hands the card is swapped with in view (a): your partner, "
          "your left-hand opponent, your right-hand opponent.", choices=DEFAULT_RECEIVERS),
    Param("max_resolve", int, DEFAULT_MAX_RESOLVE, "deals solved again for view (a): the first this many of the "
          "results in which the card is dealt (up to 3 swaps and 1 solve without its bonus each; 10,000 take "
          "about 4.5 minutes on two quiet cores).", low=1, high=config.STUDY_MAX_DEALS),
    TRUMP_RULE,
)
#: what a swap gives back (module doc): the next card up, a higher spot card, an honour
LIKE = "like for like"
SPOT = "for a higher spot card"
HONOUR = "for an honour"
#: highest rank index (kaiser_sim.cards) of a spot card: the 10
SPOT_MAX_RANK = RANK_T
#: the holder's side's role, from the holder seen from the leader ((holder - leader) % 4)
ROLES = ("you declare", "partner declares", "you defend")
_ROLE_OF = np.array([0, 2, 1, 2])  # holder == leader: you declare; +2: partner declares; +-1: you defend
#: the holder seen from the leader, for view (c)
_SEAT_ROLE = {0: "declarer", 1: "defender (declarer's LHO)", 2: "declarer's partner", 3: "defender (declarer's RHO)"}
STRAIN_VIEWS = ("trump by rule", "NT")


def holder_of(deals, card: int) -> np.ndarray:
    """Seat (0..3) holding ``card`` in each deal (-1 if nobody)."""
    bit = np.uint64(1) << np.uint64(card)
    has = (np.asarray(deals, dtype=np.uint64) & bit) != 0
    return np.where(has.any(axis=1), has.argmax(axis=1), -1)


def lowest_rank(hands, suit: int) -> np.ndarray:
    """Rank index (kaiser_sim.cards) of each hand's lowest card of ``suit``;
    -1 where the hand has none."""
    bits = suit_bits(hands, suit)
    low = bits & -bits
    return np.where(bits != 0, np.log2(np.maximum(low, 1)).astype(np.int64), -1)


def move_card(deals, card: int, to_seat) -> tuple[np.ndarray, np.ndarray]:
    """Move ``card`` to ``to_seat`` in exchange for that seat's lowest card
    of the same suit.

    Returns ``(new_deals, ok)``: ``ok`` is False where the receiver has no
    card of the suit (that deal is returned unchanged).  Moving the card to
    its own holder changes nothing.  Whether the card given back is a spot
    card (a like-for-like swap) is :func:`swap_kind`'s business.
    """
    deals = np.array(deals, dtype=np.uint64, copy=True)
    m = deals.shape[0]
    to = np.broadcast_to(np.asarray(to_seat, dtype=np.int64), (m,))
    holder = holder_of(deals, card)
    suit = card >> 4
    rows = np.arange(m)
    recv = deals[rows, to]
    same = to == holder
    low = lowest_rank(recv, suit)
    ok = same | (low >= 0)
    low_bit = np.uint64(1) << (np.uint64(suit * 16) + np.maximum(low, 0).astype(np.uint64))
    card_bit = np.uint64(1) << np.uint64(card)
    act = ok & ~same
    r = rows[act]
    deals[r, holder[act]] = (deals[r, holder[act]] & ~card_bit) | low_bit[act]
    deals[r, to[act]] = (deals[r, to[act]] & ~low_bit[act]) | card_bit
    return deals, ok


def swap_kind(deals, card: int, to_seat, kitties=None) -> np.ndarray:
    """For each deal, what a swap of ``card`` with ``to_seat``'s lowest
    card of its suit gives back: ``LIKE`` (the lowest ordinary card of the
    suit among the four hands and the kitty, next up from the special card),
    ``SPOT`` (a higher card, 10 or lower), ``HONOUR`` (J or higher) or
    ``"no suit"`` (the receiver has none).  ``kitties``: the kitty of each
    deal under a kitty rule (its cards are in play once the declarer takes
    it up: a 7 in the kitty sits between the 5H and an 8)."""
    deals = np.asarray(deals, dtype=np.uint64)
    suit = card >> 4
    to = np.broadcast_to(np.asarray(to_seat, dtype=np.int64), (deals.shape[0],))
    low = lowest_rank(deals[np.arange(deals.shape[0]), to], suit)
    in_play = np.bitwise_or.reduce(deals, axis=1) & ~(np.uint64(1) << np.uint64(card))
    if kitties is not None:
        in_play = in_play | np.asarray(kitties, dtype=np.uint64)
    next_up = lowest_rank(in_play, suit)  # the special card is the lowest of its suit: the next card up
    return np.where(low < 0, "no suit", np.where(low == next_up, LIKE, np.where(low <= SPOT_MAX_RANK, SPOT, HONOUR)))


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


def side_points(deals, lead, other, seat, trump_rule: str) -> dict[str, np.ndarray]:
    """``{strain view: (m, 4) points of seat's side with leader L on lead}``
    for each deal: the leader names trump by ``trump_rule`` from its own
    hand (:data:`STRAIN_VIEWS`).  ``lead`` and ``other`` are the (m, 4, 5)
    points of the leader's side and of the other side of ``deals``
    (:func:`~kaiser_sim.game.side_tables`); ``seat`` one seat per deal."""
    m = deals.shape[0]
    rows = np.arange(m)[:, None]
    leaders = np.arange(4)[None, :]
    trump = trump_by_rule(deals, trump_rule)  # (m, 4): each leader's trump from its own hand
    same_side = ((np.asarray(seat)[:, None] - leaders) % 2) == 0
    out = {}
    for view, strain in (("trump by rule", trump), ("NT", np.full((m, 4), NT))):
        out[view] = np.where(same_side, lead[rows, leaders, strain], other[rows, leaders, strain])
    return out


def declaring_points(deals, lead, trump_rule: str) -> dict[str, np.ndarray]:
    """``{strain view: (m, 4) the leader's side's points}`` (the declaring
    side's, for the table-play model)."""
    m = deals.shape[0]
    rows = np.arange(m)[:, None]
    leaders = np.arange(4)[None, :]
    trump = trump_by_rule(deals, trump_rule)
    return {"trump by rule": lead[rows, leaders, trump], "NT": lead[rows, leaders, np.full((m, 4), NT)]}


def sides_from_run(rules) -> bool:
    """Can both sides' points be read from the run's values
    (:func:`~kaiser_sim.studies.common.run_points`: the leader's side's,
    the other side's from them; under cover 3 each scored from its
    tricks)?  Not when the declarer may discard the 5H or 3S with the kitty
    to nobody (K1): then the other side's points are not the total minus
    the leader's, and both sides are solved again
    (:func:`kaiser_sim.game.side_tables`)."""
    return rules.kitty == "none" or not rules.may_discard_specials or rules.kitty_discard_points == "declarer"


def kitties_of(deals, rules):
    """Each deal's kitty under ``rules`` (None without a kitty rule): the
    rest of the deck (:func:`kaiser_sim.deal.kitty_of`)."""
    return None if rules.kitty == "none" else kitty_of(deals, deck34=rules.deck34)


def table_play_side(model, side_dd, declaring, nt: bool, total: int, declarer_dd=None) -> np.ndarray:
    """Your side's expected table-play points from its DD points
    ``side_dd``: the table-play model (:mod:`kaiser_sim.strategy.table_play`) is for
    the declaring side, so a defending side gets ``total`` minus the
    declaring side's expectation.  ``declarer_dd`` (the declaring side's DD
    points, row by row): a defending side gets its own DD points less what
    the declaring side's play gains on its DD value instead -- the same in
    the plain game, where the two sides add to ``total``, and the rule where
    they need not (cover 3, a special card discarded to nobody:
    :func:`split_sides`)."""
    x = np.asarray(side_dd, dtype=np.int64)
    declaring = np.asarray(declaring, dtype=bool)
    if declarer_dd is not None:
        d = np.where(declaring, x, np.asarray(declarer_dd, dtype=np.int64))
        e = model.expected(d, nt)
        return np.where(declaring, e, x + d - e)
    lead = np.where(declaring, x, total - x)
    e = model.expected(lead, nt)
    return np.where(declaring, e, total - e)


def split_sides(rules) -> bool:
    """May the two sides' DD points not add to ``rules.raw_total`` (cover 3;
    a kitty, whose discarded 5H or 3S may count for nobody)?  Then the
    table-play views give a defending side its own DD points less the
    declaring side's table gain (:func:`table_play_side`'s ``declarer_dd``);
    otherwise the plain game's arithmetic, unchanged to the bit."""
    return bool(rules.cover3) or rules.kitty != "none"


def counterfactual(results, rules, card: int, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
                   trump_rule: str = DEFAULT_TRUMP_RULE):
    """View (a): ``(summary, make_change, swings, records)`` DataFrames
    (module doc).  ``records`` has one row per (deal, receiver, leader,
    strain view) of the swaps made.  Both sides of each worth come from the
    same rules: the swapped deals are solved through the rules-aware solve
    (:func:`~kaiser_sim.game.side_tables`: with a kitty, the declarer takes it up and discards
    best), the deals as dealt are the run's values (solved the same way),
    solved again only when the other side's points cannot be read from them
    (:func:`sides_from_run`)."""
    sample = sample_of(results, card, max_resolve)
    deals = hands_array(sample)
    kitties = kitties_of(deals, rules)
    ids = sample["deal"].to_numpy(dtype=np.int64)
    m = len(sample)
    holder = holder_of(deals, card)
    total = rules.raw_total
    if sides_from_run(rules):
        lead_other = run_points(sample, rules)
    else:
        lead_other = side_tables(deals, rules, kitties)
    before = side_points(deals, *lead_other, holder, trump_rule)
    decl_before = declaring_points(deals, lead_other[0], trump_rule)
    role = _ROLE_OF[(holder[:, None] - np.arange(4)[None, :]) % 4]  # (m, 4)
    parts, no_suit = [], {}
    for recv in receivers:
        to = (holder + RECEIVERS[recv]) % 4
        kind = swap_kind(deals, card, to, kitties) if recv != "self" else np.full(m, LIKE)
        no_suit[recv] = int((kind == "no suit").sum())
        idx = np.nonzero(kind != "no suit")[0]
        if idx.size == 0:
            continue
        new, _ = move_card(deals[idx], card, to[idx])
        # also for 'self': a check of the pipeline; a swap between hands leaves the kitty as it was
        new_lead, new_other = side_tables(new, rules, None if kitties is None else kitties[idx])
        after = side_points(new, new_lead, new_other, holder[idx], trump_rule)
        decl_after = declaring_points(new, new_lead, trump_rule)
        for view in STRAIN_VIEWS:
            parts.append(pd.DataFrame({
                "deal": np.repeat(ids[idx], 4), "receiver": recv, "swap": np.repeat(kind[idx], 4),
                "role": np.array(ROLES)[role[idx]].ravel(), "leader": np.tile(np.arange(4), idx.size),
                "strain": view, "with_card": before[view][idx].ravel(), "without_card": after[view].ravel(),
                "decl_with": decl_before[view][idx].ravel(), "decl_without": decl_after[view].ravel()}))
    cols = ["deal", "receiver", "swap", "role", "leader", "strain", "with_card", "without_card", "decl_with",
            "decl_without"]
    rec = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=cols)
    rec["worth"] = rec["with_card"].astype(np.int64) - rec["without_card"].astype(np.int64)
    model, _ = table_play_model(rules)
    if model is not None and len(rec):
        declaring = rec["role"].to_numpy() != "you defend"
        nt = rec["strain"].to_numpy() == "NT"
        split = split_sides(rules)

        def tp_worth(m):
            # the model maps the declaring side's DD points; the defenders get the rest of the total (where the
            # sides need not add to it: their own DD points less the declaring side's table gain)
            tp = {}
            for col in ("with", "without"):
                dp = rec[f"decl_{col}"].to_numpy(dtype=np.int64)
                tp[col] = np.where(nt, table_play_side(m, dp, np.ones_like(declaring), True, total),
                                   table_play_side(m, dp, np.ones_like(declaring), False, total))
                if split:
                    own = rec["with_card" if col == "with" else "without_card"].to_numpy(dtype=np.int64)
                    tp[col] = np.where(declaring, tp[col], own + dp - tp[col])
                else:
                    tp[col] = np.where(declaring, tp[col], total - tp[col])
            return tp["with"] - tp["without"]

        rec["tp_worth"] = tp_worth(model)
        # the same under the model's bootstrap replicates: its own error (kaiser_sim.strategy.table_play.model_se),
        # held as tables over (NT, declaring, DD points): a record's worth is its table value with the card
        # minus without, so a group's mean under each replicate is a difference of histograms times the
        # table (no array per record and replicate)
        tp_reps = _RecordReplicates(model, rec, declaring, nt, total) if model.replicates() else None
    else:
        tp_reps = None
    levels = levels_of(rules)
    summary, make, swings = [], [], []
    pooled = rec.assign(receiver=ANY_OTHER) if len(receivers) > 1 else rec.iloc[:0]
    for (recv, swap, role_name, view), g in pd.concat([rec, pooled]).groupby(
            ["receiver", "swap", "role", "strain"], sort=False):
        cl = g["deal"].to_numpy()
        w, a, b = (g[c].to_numpy(dtype=np.int64) for c in ("worth", "with_card", "without_card"))
        lv = _level(a, levels) - _level(b, levels)
        lvr = mean_row(lv, cl)
        tpr = mean_row(g["tp_worth"].to_numpy(), cl) if "tp_worth" in g else {"mean": np.nan, "lo": np.nan,
                                                                              "hi": np.nan}
        if tp_reps is not None and "tp_worth" in g:
            tpr = with_model_error(tpr, float(tp_reps.means(g.index.to_numpy()).std(ddof=1)), cl)
        summary.append({"receiver": recv, "swap": swap, "role": role_name, "strain": view, **mean_row(w, cl),
                        "deals": int(np.unique(cl).size), "no_suit": no_suit.get(recv, sum(no_suit.values())),
                        "mean_with": a.mean(), "mean_without": b.mean(), "level_change": lvr["mean"],
                        "level_lo": lvr["lo"], "level_hi": lvr["hi"], "tp_mean": tpr["mean"], "tp_lo": tpr["lo"],
                        "tp_hi": tpr["hi"]})
        if swap == LIKE and role_name == "you declare":
            vals, counts = np.unique(w, return_counts=True)
            swings += [{"receiver": recv, "strain": view, "worth": int(v), "count": int(c), "share": c / w.size}
                       for v, c in zip(vals, counts)]
            for bid in levels:
                dm = mean_row((a >= bid).astype(float) - (b >= bid).astype(float), cl)
                make.append({"receiver": recv, "strain": view, "bid": bid, "p_with": (a >= bid).mean(),
                             "p_without": (b >= bid).mean(), "change": dm["mean"], "lo": dm["lo"],
                             "hi": dm["hi"], "n": dm["n"]})
    summary = pd.DataFrame(summary, columns=["receiver", "swap", "role", "strain", "n", "mean", "lo", "hi", "sd",
                                             "deals", "no_suit", "mean_with", "mean_without", "level_change",
                                             "level_lo", "level_hi", "tp_mean", "tp_lo", "tp_hi"])
    order = {k: i for i, k in enumerate([*receivers, ANY_OTHER, LIKE, SPOT, HONOUR, *ROLES, *STRAIN_VIEWS])}
    if len(summary):
        summary = summary.sort_values(["swap", "role", "strain", "receiver"], key=lambda c: c.map(order),
                                      kind="stable").reset_index(drop=True)
    return (summary, pd.DataFrame(make, columns=["receiver", "strain", "bid", "p_with", "p_without", "change", "lo",
                                                 "hi", "n"]),
            pd.DataFrame(swings, columns=["receiver", "strain", "worth", "count", "share"]), rec)


class _RecordReplicates:
    """The table-play model's replicates for view (a)'s records: tables
    ``(B, 2 NT, 2 declaring, DD points)`` and each record's keys into them
    with and without the card."""

    def __init__(self, model, rec: pd.DataFrame, declaring, nt, total: int):
        V = DD_POINTS.size
        tabs = np.empty((len(model.replicates()), 2, 2, V))
        for b, r in enumerate(model.replicates()):
            for k in (0, 1):
                for decl in (0, 1):
                    e = table_play_side(r, DD_POINTS, np.full(V, True), bool(k), total)  # the declaring side's
                    tabs[b, k, decl] = e if decl else total - e
        self.tabs = tabs.reshape(tabs.shape[0], -1)
        # keyed by the declaring side's DD points (your side's need not be in DD_POINTS' range when a special
        # card is discarded to nobody; under cover 3 the declaring side's -3 reads as -2, as in the model)
        base = (np.asarray(nt, dtype=np.int64) * 2 + np.asarray(declaring, dtype=np.int64)) * V
        self.with_key = base + point_index(rec["decl_with"].to_numpy(dtype=np.int64))
        self.without_key = base + point_index(rec["decl_without"].to_numpy(dtype=np.int64))

    def means(self, rows) -> np.ndarray:
        """(B,): each replicate's mean worth over the records ``rows`` (positions; the group's
        pooled copies carry their original positions)."""
        rows = np.asarray(rows, dtype=np.int64)
        size = self.tabs.shape[1]
        h = (np.bincount(self.with_key[rows], minlength=size) - np.bincount(self.without_key[rows], minlength=size))
        return self.tabs @ h / max(rows.size, 1)


def observed(results, rules, card: int, receivers=DEFAULT_RECEIVERS,
             trump_rule: str = DEFAULT_TRUMP_RULE) -> pd.DataFrame:
    """View (b): on every deal of ``results`` (no re-solve), for each seat
    as "you", your side's mean points when you hold the card minus when the
    receiver does, by role and strain view; clustered by deal."""
    deals = hands_array(results)
    pts, pts_other = run_points(results, rules)
    if not sides_from_run(rules):  # a special discarded to nobody: the other side solved where it can be (exact)
        pts_other = playout_sides(results, rules)[1]
    ids = results["deal"].to_numpy(dtype=np.int64)
    m = len(results)
    holder = holder_of(deals, card)
    total = rules.raw_total
    model, _ = table_play_model(rules)
    rows = []
    you = np.repeat(np.arange(4)[None, :], m, axis=0)  # (m, 4): each seat as "you"
    # each seat's side's points with each leader on lead, both strain views (solved once, not per view)
    # the other side's points from the leader's (run_points: the total minus them, under cover 3 each side
    # scored from its tricks): the run's results hold the leader's side's only; under a 4-card kitty whose 5H
    # or 3S may be discarded to nobody, solved through the door where the declarer holds one (SolvedOther)
    by_seat = [side_points(deals, pts, pts_other, you[:, y], trump_rule) for y in range(4)]
    split = split_sides(rules)
    for view in STRAIN_VIEWS:
        # (m, you, leader): your side's points with that leader on lead
        side = np.stack([by_seat[y][view] for y in range(4)], axis=1)
        # the other side's (where the two need not add to the total, the defenders' table points read the
        # declaring side's own: table_play_side's declarer_dd)
        them = np.stack([by_seat[(y + 1) % 4][view] for y in range(4)], axis=1) if split else None
        rel = (you[:, :, None] - np.arange(4)[None, None, :]) % 4
        role = _ROLE_OF[rel]
        held = (holder[:, None] - you) % 4  # the holder seen from you; holder -1 (kitty): no row uses it
        dealt = np.broadcast_to((holder >= 0)[:, None, None], side.shape)
        cl = np.broadcast_to(ids[:, None, None], side.shape)
        for r_i, role_name in enumerate(ROLES):
            sel = (role == r_i) & dealt
            x = side[sel]
            where = np.broadcast_to(held[:, :, None], side.shape)[sel]
            c = cl[sel]
            declaring = np.full(x.shape, role_name != "you defend")
            y = them[sel] if split and role_name == "you defend" else None  # the declaring side's DD points
            xt = (table_play_side(model, x, declaring, view == "NT", total, y) if model is not None else None)
            # the replicates' values as tables over the side's DD points (a hand's value depends only on
            # them, the role being fixed here): each replicate's mean over a group of hands is the group's
            # histogram of points times its table, whatever the number of deals; where the defenders read the
            # declaring side's points, over those (their own add a constant a hand, the same in every replicate)
            values = DD_POINTS
            rep_tabs = (np.stack([table_play_side(r, values, np.full(values.shape, role_name != "you defend"
                                                                     or y is not None),
                                                  view == "NT", total) for r in model.replicates()])
                        if model is not None and model.replicates() else None)
            keyed = x if y is None else y
            for recv in [*receivers, ANY_OTHER]:
                other = (where != 0) if recv == ANY_OTHER else (where == RECEIVERS[recv])
                if recv == "self":
                    continue
                d = diff_row(x, where == 0, other, c)
                t = diff_row(xt, where == 0, other, c) if xt is not None else {"diff": np.nan, "lo": np.nan,
                                                                               "hi": np.nan}
                if rep_tabs is not None and other.any() and (where == 0).any():
                    se_m = float(np.std(rep_tabs @ (point_shares(keyed[where == 0]) - point_shares(keyed[other])),
                                        ddof=1))
                    wide = with_model_error({"n": d["n_a"] + d["n_b"], "mean": t["diff"], "lo": t["lo"],
                                             "hi": t["hi"]}, se_m, c)
                    t = {**t, "lo": wide["lo"], "hi": wide["hi"]}
                rows.append({"receiver": recv, "role": role_name, "strain": view, "n_with": d["n_a"],
                             "n_without": d["n_b"], "mean_with": d["mean_a"], "mean_without": d["mean_b"],
                             "mean": d["diff"], "lo": d["lo"], "hi": d["hi"], "deals": int(np.unique(c).size),
                             "tp_mean": t["diff"], "tp_lo": t["lo"], "tp_hi": t["hi"]})
    out = pd.DataFrame(rows)
    if len(out):  # roles in their order, then the strain
        out = out.sort_values("role", key=lambda c: c.map({r: i for i, r in enumerate(ROLES)}),
                              kind="stable").reset_index(drop=True)
    return out


def worth_records(results, rules, card: int, max_resolve: int = DEFAULT_MAX_RESOLVE) -> pd.DataFrame:
    """View (c): one row per (sample deal, leader, strain) with ``worth``,
    the points of the card's own value the holder's side keeps (module doc).
    Both solves go through the rules-aware solve (:func:`~kaiser_sim.game.side_tables`): with a
    kitty, the declarer takes it up and discards best in each."""
    name, suit, value, key = CARDS[card]
    sample = sample_of(results, card, max_resolve)
    deals = hands_array(sample)
    kitties = kitties_of(deals, rules)
    if sides_from_run(rules):
        lead, other = run_points(sample, rules)
    else:
        lead, other = side_tables(deals, rules, kitties)
    off_lead, off_other = side_tables(deals, rules, kitties, **{f"count_{key}": False})
    holder = holder_of(deals, card)
    m = len(sample)
    leader = np.arange(4)[None, :, None]
    rel = (holder[:, None, None] - leader) % 4  # holder seen from the leader
    same = rel % 2 == 0
    worth = np.where(same, lead - off_lead, other - off_other)  # the holder's side's points with - without
    hlen = suit_lengths(deals[np.arange(m), holder])[:, suit]
    strain = np.broadcast_to(np.arange(5)[None, None, :], (m, 4, 5))
    trumps = Strain(suit).noun
    kind = np.where(strain == NT, "NT", np.where(strain == suit, f"{trumps} trump", "other suit trump"))
    return pd.DataFrame({
        "deal": np.repeat(sample["deal"].to_numpy(), 20),
        "role": np.vectorize(_SEAT_ROLE.get)(np.broadcast_to(rel, (m, 4, 5))).ravel(),
        "strain_kind": kind.ravel(),
        "holder_len": np.broadcast_to(hlen[:, None, None], (m, 4, 5)).ravel(),
        "worth": worth.ravel(),
    })


def worth_table(rec: pd.DataFrame, card: int, by) -> pd.DataFrame:
    """View (c) by the columns ``by``: mean kept points, and the shares
    keeping all of the card's value and none of it (clustered by deal)."""
    value = CARDS[card][2]
    rows = []
    for key, g in rec.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        w = g["worth"].to_numpy()
        cl = g["deal"].to_numpy()
        allv = share_row(w == value, cl)
        none = share_row(w == 0, cl)
        rows.append({**dict(zip(by, key)), **mean_row(w, cl), "deals": int(np.unique(cl).size),
                     "all_of_it": allv["p"], "all_of_it_lo": allv["lo"], "all_of_it_hi": allv["hi"],
                     "none_of_it": none["p"], "none_of_it_lo": none["lo"], "none_of_it_hi": none["hi"],
                     "partly": ((w != 0) & (w != value)).mean()})
    return pd.DataFrame(rows)


def _tag(tables: StudyTables, names, info: dict, n: int, what: str) -> None:
    """Run info and a footer naming the n the estimates of tables ``names`` used."""
    part = {**info, "n": n}
    for name in names:
        meta = tables.meta(name)
        meta.run = dict(part)
        meta.footer = footer(part, what)


def run_card(run_results: RunResults, rules, card: int, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
             trump_rule: str = DEFAULT_TRUMP_RULE) -> StudyTables:
    results = run_results.frame
    name, suit, value, key = CARDS[card]
    receivers = tuple(receivers)
    summary, make, swings, _ = counterfactual(results, rules, card, receivers, max_resolve, trump_rule)
    obs = observed(results, rules, card, receivers, trump_rule)
    rec = worth_records(results, rules, card, max_resolve)
    by_role = worth_table(rec, card, ["role", "strain_kind"])
    by_len = worth_table(rec, card, ["strain_kind", "holder_len"])
    overall = worth_table(rec.assign(all="all"), card, ["all"]).drop(columns="all")
    naming, naming_meta = naming_table(rec, card)
    dist = (rec.groupby(["role", "worth"]).size().rename("count").reset_index())
    dist["share"] = dist["count"] / dist.groupby("role")["count"].transform("sum")
    suit_name = "heart" if suit == 1 else "spade"
    tables = StudyTables({"counterfactual": summary, "observed": obs, "counterfactual_make": make,
                          "counterfactual_swing": swings, "worth_overall": overall, "worth_by_role": by_role,
                          "worth_by_length": by_len, "worth_distribution": dist})
    tables.add("declaring_share", naming, naming_meta)
    tables.meta("counterfactual").note = (
        f"(a) worth of being dealt the {name} = your side's DD points as dealt - after swapping the {name} with the "
        f"receiver's lowest {suit_name} (like for like: the next card up, the lowest ordinary {suit_name} in play; "
        "for a higher spot card: a 9 or 10; for an honour: J or higher; the last two are reported apart); "
        "trump named again by rule from the declarer's hand after the swap; n = (deal, leader) rows, deals = "
        f"re-solved deals; no_suit = deals where the receiver has no {suit_name} (no swap); 95% intervals "
        "clustered by deal")
    tables.meta("observed").note = (
        f"(b) observed on every deal, no swap: your side's mean DD points when you hold the {name} "
        "minus when the receiver holds it; 95% intervals clustered by deal"
        + ("; cover 3 scored: each side's points from its tricks" if rules.cover3 else "")
        + ("" if sides_from_run(rules) else "; the run holds the declaring side's points only: where the "
           "declarer may discard the 5H or 3S to nobody (it holds one after taking up the kitty) the defenders' "
           "points are solved again (with the declarer's best discard), elsewhere the rest of the total"))
    tables.meta("worth_overall").note = (
        f"(c) kept = the holder's side's points - points with the {name} counting 0 "
        f"(0..{value}): how many of the card's own {value} points end with the side dealt it; "
        f"all_of_it = share with {value}; all leaders and strains of the re-solved deals")
    tables.meta("worth_by_role").note = f"(c) the {name}'s own points kept by the holder's side, by the holder's role and the strain"
    tables.meta("worth_by_length").note = f"(c) the {name}'s own points kept, by the holder's length in its suit and the strain"
    info = run_info(run_results, rules)
    m = len(sample_of(results, card, max_resolve))
    _tag(tables, [name for name in tables if name != "observed"], info, m, "re-solved sample")
    _tag(tables, ["observed"], info, len(results), "every deal, no re-solve")
    return tables


def naming_table(rec: pd.DataFrame, card: int) -> tuple[pd.DataFrame, TableMeta]:
    """View (c) when the declaring side was not dealt the card (a defender
    holds it): the points of the card's own value that end with the
    declaring side, by the strain played (the card's suit as trump, another
    suit, NT), and the card's suit as trump minus another suit (clustered by
    deal).  For the 3S: what naming spades costs a side without it.  The
    card's own points of one trick end with one side or the other, so the
    declaring side's share is the value minus the defenders' (a card a
    declarer discards to a kitty aside).  With the table, its metadata (its note)."""
    value = CARDS[card][2]
    d = rec[rec["role"].str.startswith("defender")]
    share = value - d["worth"].to_numpy(dtype=np.float64)
    cl = d["deal"].to_numpy()
    kinds = list(dict.fromkeys(sorted(d["strain_kind"].unique(), key=lambda k: (k == "NT", k.startswith("other")))))
    rows = []
    for kind in kinds:
        sel = (d["strain_kind"] == kind).to_numpy()
        rows.append({"strain": kind, **mean_row(share[sel], cl[sel]), "deals": int(np.unique(cl[sel]).size)})
    own = next((k for k in kinds if k not in ("NT", "other suit trump")), None)
    if own is not None and "other suit trump" in kinds:
        dr = diff_row(share, (d["strain_kind"] == own).to_numpy(), (d["strain_kind"] == "other suit trump").to_numpy(),
                      cl)
        rows.append({"strain": f"{own} minus other suit trump", "n": dr["n_a"] + dr["n_b"], "mean": dr["diff"],
                     "lo": dr["lo"], "hi": dr["hi"], "deals": int(np.unique(cl).size)})
    note = (f"a defender holds the {CARDS[card][0]}: the points of its {value:+d} that end with the declaring side, "
            "double dummy, every leader and strain of the re-solved deals")
    return pd.DataFrame(rows), TableMeta(note=note)


def plot_card(tables, name: str) -> dict:
    name = name.replace("5H", "5♥").replace("3S", "3♠")
    figs = {}
    summ = tables["counterfactual"]
    foot = tables.meta("counterfactual").footer
    # each chart's n is the deals it plots: the like-for-like swaps (a receiver without an 8 of the suit has none)
    head = summ[(summ["swap"] == LIKE) & (summ["strain"] == "trump by rule") & (summ["role"] == "you declare")]
    per = [f"{int(r['deals']):,} ({r['receiver']})" for _, r in head.iterrows() if r["receiver"] != ANY_OTHER]
    if per:
        foot = re.sub(r"n=[\d,]+ deals", "n=" + ", ".join(per) + " deals swapped like for like", foot, count=1)
    sw = tables["counterfactual_swing"]
    g = sw[(sw["strain"] == "trump by rule") & (sw["receiver"] != ANY_OTHER)]
    fig, ax = new_figure(f"Holding the {name} rather than another hand: the change for your side",
                         "your side's points as dealt minus after the like-for-like swap (you declare, trump by rule)",
                         "share of deals, %", foot, intervals=False)
    recvs = list(dict.fromkeys(g["receiver"]))
    width = 0.8 / max(len(recvs), 1)
    for i, r in enumerate(recvs):
        gi = g[g["receiver"] == r]
        ax.bar(gi["worth"] + (i - (len(recvs) - 1) / 2) * width, 100 * gi["share"], width=width,
               label=f"instead in {r}'s hand")
    integer_axis(ax.xaxis)
    legend(ax)
    figs["swing"] = fig

    s = summ[(summ["swap"] == LIKE) & (summ["strain"] == "trump by rule")]
    fig, ax = new_figure(f"What being dealt the {name} is worth to your side (95% intervals)",
                         "the card would otherwise be in the hand of", "points for your side (as dealt - swapped)",
                         foot)
    recv_order = list(dict.fromkeys(s["receiver"]))
    for i, role_name in enumerate(ROLES):
        r = s[s["role"] == role_name].set_index("receiver").reindex(recv_order)
        x = np.arange(len(recv_order)) + (i - 1) * 0.22
        ax.errorbar(x, r["mean"], yerr=[r["mean"] - r["lo"], r["hi"] - r["mean"]], fmt="o", capsize=4,
                    label=role_name)
    ax.set_xticks(range(len(recv_order)), recv_order)
    ax.axhline(0, color="0.5", linewidth=0.8)
    legend(ax, title="trump by rule")
    figs["mean_change"] = fig

    dist = tables["worth_distribution"]
    value = 5 if name == "5♥" else -3
    fig, ax = new_figure(f"How many of the {name}'s own {value} points the side dealt it keeps",
                         f"points - points with the {name} counting 0", "share of (deal, leader, strain), %",
                         tables.meta("worth_overall").footer, intervals=False)
    roles = list(dict.fromkeys(dist["role"]))
    width = 0.8 / max(len(roles), 1)
    for i, r in enumerate(roles):
        d = dist[dist["role"] == r]
        ax.bar(d["worth"] + (i - (len(roles) - 1) / 2) * width, 100 * d["share"], width=width, label=f"holder is {r}")
    integer_axis(ax.xaxis)
    legend(ax)
    figs["worth_distribution"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


_RECEIVER_WORDS = {"partner": "partner", "LHO": "left-hand opponent", "RHO": "right-hand opponent"}


def _by_receiver(df, roles=None, prefix: str = "") -> pd.DataFrame:
    """Rows role and strain, one column per receiver: ``x [lo, hi]`` (of the
    columns ``{prefix}mean``, ``{prefix}lo``, ``{prefix}hi``)."""
    out = []
    for (role, strain), g in df.groupby(["role", "strain"], sort=False):
        if roles is not None and role not in roles:
            continue
        row = {"your side": role, "strain": strain}
        for _, r in g.iterrows():
            lo, hi = r[f"{prefix}lo"], r[f"{prefix}hi"]
            same_side = role == "you defend" and r["receiver"] == "partner" and abs(hi - lo) < 1e-9
            row[f"vs {r['receiver']}"] = "0 (the same)" if same_side else ci(r[f"{prefix}mean"], lo, hi, 2)
        row["deals"] = count(g["deals"].max())
        out.append(row)
    return frame(out)


def _by_swap(df) -> pd.DataFrame:
    """The 'you declare' rows of the swaps for a higher card, one row per
    kind of card given back and strain."""
    out = []
    for (swap, strain), g in df[df["role"] == "you declare"].groupby(["swap", "strain"], sort=False):
        row = {"swapped": swap.replace("for a higher spot card", "for a 9 or 10"), "strain": strain}
        for _, r in g.iterrows():
            row[f"vs {r['receiver']}"] = ci(r["mean"], r["lo"], r["hi"], 2)
        row["deals"] = count(g["deals"].max())
        out.append(row)
    return frame(out)


def section_card(tables, key: str, name: str, value: int) -> tuple[list, list[str], list[str]]:
    """The report section of the study of one card (``name`` as printed, ``value``
    its points): ``(blocks, what the numbers mean, chart names)``, as a study's
    ``section`` (:mod:`kaiser_sim.studies.blocks`)."""
    t = tables
    cf = t["counterfactual"]
    like, other = cf[cf["swap"] == LIKE], cf[cf["swap"] != LIKE]
    obs = t["observed"]
    no_suit = {r["receiver"]: int(r["no_suit"]) for _, r in like.iterrows()}
    blocks = [Table(f"{key}-worth-swap", f"(a) What being dealt the {name} is worth to your side: points as dealt "
                    "minus after a like-for-like swap", _by_receiver(like),
                    f"vs X: the {name} swapped with X's lowest card of its suit when it is the next card up (the 8); "
                    "deals: re-solved deals "
                    f"behind the row; deals where X has no card of the suit are left out "
                    f"({', '.join(f'{k} {v:,}' for k, v in no_suit.items() if k != ANY_OTHER)})"),
              Table(f"{key}-worth-swap-honour", "(a) The same, swaps for a higher card (you declare)",
                    _by_swap(other),
                    "the card given back is a 9 or 10 (spot) or a J or higher (honour): these also hand the holder a "
                    "better card, so they mix the card's worth with that card's: not the headline"),
              Table(f"{key}-worth-observed", f"(b) Observed on every deal: your side's points with the {name} in "
                    "your hand minus in another hand", _by_receiver(obs),
                    "no swap, all deals of the run; vs partner when you defend: the two defenders are pooled, so the "
                    "difference is 0 by construction")]
    tp = "tp_mean" in like and like["tp_mean"].notna().any()
    if tp:
        blocks.insert(1, Table(f"{key}-worth-swap-table-play", f"(a) in table play: what being dealt the {name} is "
                               "worth to your side at the table", _by_receiver(like, prefix="tp_"),
                               "the same swaps, each side's double-dummy points taken through the table-play model "
                               "(appendix): what players who see only their own hand take"))
    ov = t["worth_overall"]
    sign_word = "takes it" if value > 0 else "is stuck with it"
    rows = [{"n (deal, leader, strain)": count(r["n"]), "deals": count(r["deals"]),
             f"points of its {value:+d} kept": ci(r["mean"], r["lo"], r["hi"], 2),
             f"your side {sign_word} whatever happens %": pct(r["all_of_it"], r["all_of_it_lo"], r["all_of_it_hi"]),
             "the other side does %": pct(r["none_of_it"], r["none_of_it_lo"], r["none_of_it_hi"]),
             "depends on the play %": num(100 * r["partly"], 1)} for _, r in ov.iterrows()]
    role = t["worth_by_role"]
    rrows = [{"holder": r["role"], "strain": r["strain_kind"], "n": count(r["n"]),
              f"of its {value:+d} kept": ci(r["mean"], r["lo"], r["hi"], 2),
              f"{sign_word} %": pct(r["all_of_it"], r["all_of_it_lo"], r["all_of_it_hi"])} for _, r in role.iterrows()]
    blocks += [Table(f"{key}-kept", f"(c) How much of the {name}'s own {value:+d} points your side keeps", frame(rows),
                     "the deal solved again with the card counting 0; all leaders and strains of the re-solved deals "
                     "(20 a deal); 'depends on the play': the card is traded against tricks"),
               Table(f"{key}-kept-by-role", f"(c) The {name}'s own points kept, by the holder's role and the strain",
                     frame(rrows))]
    bl = t.get("worth_by_length")
    if bl is not None and len(bl):
        grid = {}
        for _, r in bl.iterrows():
            suit_word = (Strain.H if value > 0 else Strain.S).noun
            cell = grid.setdefault(int(r["holder_len"]), {f"holder's {suit_word}": str(int(r["holder_len"]))})
            cell[f"{r['strain_kind']}"] = ci(r["mean"], r["lo"], r["hi"], 2) if r["deals"] >= 30 else "·"
        blocks.append(Table(f"{key}-kept-by-length", f"(c) The {name}'s own {value:+d} points kept by its side, by "
                            "the holder's length in its suit and the trump (double dummy)",
                            frame([grid[k] for k in sorted(grid)]).fillna("·"),
                            "mean points of the card's own value that end with the holder's side, all leaders of the "
                            "re-solved deals; '·': fewer than 30 deals"))
    ds = t.get("declaring_share")
    if ds is not None and len(ds):
        drows = [{"strain played": r["strain"], "n": count(r["n"]), "deals": count(r["deals"]),
                  f"points of its {value:+d} the declaring side takes": ci(r["mean"], r["lo"], r["hi"], 2)}
                 for _, r in ds.iterrows()]
        what = "naming spades costs a side without the 3♠" if value < 0 else "the declaring side takes of a 5♥ it lacks"
        blocks.append(Table(f"{key}-declaring-share", f"(c) When a defender holds the {name}: what {what} "
                            "(double dummy)", frame(drows), t.meta("declaring_share").note))
    text = []
    head = like[(like["role"] == "you declare") & (like["strain"] == "trump by rule")]
    if len(head):
        any_r = head[head["receiver"] == ANY_OTHER]
        r = any_r.iloc[0] if len(any_r) else head.iloc[0]
        others = [x for _, x in head.iterrows() if x["receiver"] != ANY_OTHER]
        text.append(f"(a) Being dealt the {name} is worth {ci(r['mean'], r['lo'], r['hi'], 2)} points to your side "
                    f"when you declare with trump by rule (double dummy), against the card being in another hand; "
                    f"in your hand rather than {receiver_words(others, name, 2)}.")
        if "tp_mean" in r and ok(r["tp_mean"]):
            text.append(f"At the table (table play) it is worth {ci(r['tp_mean'], r['tp_lo'], r['tp_hi'], 2)}.")
        dfd = like[(like["role"] == "you defend") & (like["strain"] == "trump by rule") & (like["receiver"] == ANY_OTHER)]
        if len(dfd):
            x = dfd.iloc[0]
            text.append(f"When you defend it is worth {ci(x['mean'], x['lo'], x['hi'], 2)}.")
    ob = obs[(obs["role"] == "you declare") & (obs["strain"] == "trump by rule") & (obs["receiver"] == ANY_OTHER)]
    if len(ob):
        x = ob.iloc[0]
        text.append(f"(b) Observed without a swap, the declaring side takes {ci(x['mean'], x['lo'], x['hi'], 2)} "
                    f"points more when the declarer holds the {name} than when another hand does.")
    if len(ov):
        r = ov.iloc[0]
        text.append(f"(c) {kept_words(r, name, value, 2)} Your side {sign_word} whatever happens "
                    f"{pct(r['all_of_it'], r['all_of_it_lo'], r['all_of_it_hi'])}% of the time. This is not the "
                    "card's worth: (a) is.")
    return blocks, text, ["mean_change", "swing", "worth_distribution"]


def cheat_sheet_card(tables, name: str, value: int) -> list:
    """The cheat sheet's lines on one card (``name`` as printed, ``value`` its
    points): what holding it is worth, and who takes it in the end."""
    t = tables
    cf = t["counterfactual"]
    like = cf[(cf["swap"] == LIKE) & (cf["strain"] == "trump by rule")]
    if not len(like):
        return []
    blocks = [Text(f"The {name}", "heading")]
    words = []
    for role, label in (("you declare", "when you declare"), ("you defend", "when you defend")):
        g = like[(like["role"] == role) & (like["receiver"] == ANY_OTHER)]
        if len(g):
            r = g.iloc[0]
            words.append(f"{signed_ci(r['mean'], r['lo'], r['hi'], 2)} {label}")
    if words:
        blocks.append(Text(f"Holding the {name} is worth {' and '.join(words)} to your side, in points a "
                           "hand, against it being in another hand (double dummy).", "bullet"))
    g = like[(like["role"] == "you declare") & (like["receiver"] == ANY_OTHER)]
    if len(g) and "tp_mean" in g and ok(g.iloc[0]["tp_mean"]):
        r = g.iloc[0]
        blocks.append(Text(f"At the table (table play): {signed_ci(r['tp_mean'], r['tp_lo'], r['tp_hi'], 2)} "
                           "when you declare.", "bullet"))
    g = like[like["role"] == "you declare"]
    rows = [r for _, r in g.iterrows() if r["receiver"] != ANY_OTHER]
    if rows:
        blocks.append(Text(f"When you declare, the {name} in your hand rather than {receiver_words(rows, name, 2)}.",
                           "bullet"))
    ov = t["worth_overall"]
    if len(ov):
        blocks.append(Text(kept_words(ov.iloc[0], name, value, 2), "bullet"))
    return blocks


def receiver_words(rows, name: str, digits: int = 1) -> str:
    """``"in your partner's: −0.6 [...] (a minus: ...); in your left-hand
    opponent's: ..."``: the worth of the card in your hand rather than in
    each other hand, a minus put in words (your side does better with the
    card in that hand than in yours)."""
    parts = []
    for r in rows:
        who = _RECEIVER_WORDS.get(r["receiver"], r["receiver"])
        text = f"in your {who}'s: {signed_ci(r['mean'], r['lo'], r['hi'], digits)}"
        if ok(r["hi"]) and r["hi"] < 0:
            text += f" (a minus: your side does better with the {name} in your {who}'s hand than in yours)"
        elif ok(r["lo"]) and r["lo"] <= 0 <= r["hi"]:
            text += " (no clear difference)"
        parts.append(text)
    return "; ".join(parts)


def kept_words(r, name: str, value: int, digits: int = 1) -> str:
    """Part (c) in a player's words: how much of the card's own points the
    side dealt it ends up with, and as how often it takes the card's trick."""
    share = r["mean"] / value if value else np.nan
    often = f", as if it took the {name}'s trick on {100 * share:.0f}% of deals" if ok(share) else ""
    if value > 0:
        return (f"Who wins it in the end: dealt the {name}, your side keeps {ci(r['mean'], r['lo'], r['hi'], digits)} "
                f"of its {value} points on average{often}; the rest goes to the other side.")
    return (f"Who is stuck with it in the end: dealt the {name}, your side pays "
            f"{ci(-r['mean'], -r['hi'], -r['lo'], digits)} of its {-value} points on average{often}; the rest it "
            "passes to the other side.")


def sample_note(tables) -> str:
    """The report's note on the sample: (a) and (c) re-solve only the first
    deals of the run, (b) uses all of them."""
    m = tables.meta("counterfactual").run.get("n")
    n = tables.meta("observed").run.get("n")
    if m is None:
        return ""
    return f" (a) and (c) re-solve the first {m:,} of them" + (f", (b) uses all {n:,};" if n is not None else ";")
