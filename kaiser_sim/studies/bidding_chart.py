"""Study 3, the bidding chart: what to bid, by strength and trump length.

For every declarer hand (each seat of each deal on lead), the declaring
side's hand score of every bid of the rules' ladder, under the rules'
scoring (:func:`kaiser_sim.scoring.score_hands`): made, the raw points
(NT doubled per ``nt_scoring``); failed, minus the bid (NT: minus twice the
bid with ``nt_scoring = double``).  A plain bid is played in the suit the
declarer names by ``trump_rule`` from its own hand; an NT bid in no trump.
Low-NT bids (``low_nt = "bid"``) are scored from the run's low no trump
values (``pts_*_LNT``) in the expected tables and may be the best bid; the
limits (``bid_up_to``, ``nt_up_to``) and the net chart are the plain and
high NT bids'.

Per cell (strength bucket x trump length): the mean score of each bid with
its 95% interval (table ``expected``), and the chart: the highest plain and
NT bid with a positive mean (``bid_up_to``, ``nt_up_to``), the bid with the
highest mean and the paired difference to the runner-up (is the choice
clear?).  Per bid: the strength at which it makes half the time and where
its expected score crosses zero, with the range where the 95% band
straddles the line.

Intervals: the four declarer hands of a deal are not independent, so every
interval is clustered by deal (:func:`~kaiser_sim.studies.common.mean_row`,
:func:`~kaiser_sim.studies.common.share_row`).

The limits on every hand of the cell: ``bid_up_to`` / ``nt_up_to`` (and
``limit_level``) is the highest plain / NT bid whose mean score is above 0,
``up_to_expected``... its score, ``bid_up_to_sure`` / ``nt_up_to_sure`` the
highest bid up to it whose 95% interval is above 0, and a limit is
``settled`` when its bid's interval is above 0 and the next bid's below
(``why``: :func:`unsettled_reason`).  Each is a test of one bid's sign,
not the largest of several means, so there is no winner's curse to avoid
and no reason to halve the hands (``n`` = the cell's hands, the same as
the ``expected`` table's).

The best bid on different deals: picking the best of many bids and
reporting its mean from the same hands overstates it (the winner's
curse).  ``best_bid`` and ``runner_up`` are therefore chosen on one half
of the deals and measured on the other (:func:`split_halves`: even deal
ids select, odd ones report; all four seats of a deal fall on the same
side): ``expected``/``lo``/``hi`` and ``p_make`` of ``best_bid``, its
``margin`` over the runner-up (a paired per-hand difference) and
``clear`` come from the reporting half (``n_report`` hands; ``n_select``
the hands of the choice).  A cell needs ``min_cell`` hands, and half of
that in each half, to appear.  The tables ``expected``, ``expected_by_strength`` and
``thresholds`` report every bid (no choice) and use all hands.

The net chart (``net_chart``, :func:`net_chart`; the table card's limits):
per cell, each bid's net value if declared (your side's hand score minus the
opponents' points; every seat of every deal) and, every seat of the first
``net_deals`` deals taken as the first to call, its worth against passing
with the rest of the auction played out by the ``bidders`` model.  The card's limit is the
highest bid whose net value if declared is positive; against passing
depends on how the other players bid, so it is printed beside it and not
put on the card.

Caveats (of every table but the net chart): the score counts only the declaring side's own score (what the
defenders take is not subtracted, and passing is not valued); double dummy
is not table play; the declarer's partner is a random hand.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .. import config
from ..auction import call_text, ladder
from ..strategy.policies import POLICIES
from .blocks import Table, Text, ci, count, frame, nt_scoring_words, num, scoring
from ..runs.results import RunResults
from .common import (bucket, definition, DEFAULT_TRUMP_RULE, MIN_CELL, TRUMP_RULE, LENGTH_BUCKETS, LENGTH_LEVELS, STRENGTH_BUCKETS, STRENGTH_LEVELS,
                     STRENGTH_NAME, declarer_frame, hand_score, legend, new_figure, ordered_colors, rows_frame,
                     run_info, share_row, StudyTables, TableMeta, table_play_model, tag, with_model_error)
from .params import Param
from .common import CHART_TYPE, card_band, mean_row as _mean_row

#: the fewest deals dealt to the cells (``top_up`` x the run's deals) worth dealing: below, none are
MIN_TOP_UP = 1_000


KEY = "bidding-chart"
TITLE = "The bidding chart: what to bid"
QUESTION = "What should I bid, by strength and trump length?"
METHOD = (
    "For every declarer hand and every bid of the ladder, the declaring side's hand score under the "
    "rules: made, the points taken (NT doubled); failed, minus the bid (NT: twice). Averaged per cell of "
    "strength x trump length. 'Up to' is the highest bid whose average score is still positive, on all the "
    "cell's hands (n); 'sure' means its 95% interval is above zero. To avoid flattering the winner, the best "
    "bid (the highest average of all the bids) is chosen on half the deals (even-numbered) and its score and "
    "interval are measured on the other half. The defenders' score is not subtracted.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = (
    TRUMP_RULE, MIN_CELL,
    Param("net_deals", int, 100_000, "the net chart (each bid against passing, net of the opponents, the rest of the "
          "auction played out by the bidding model) uses the first this many deals of the run, each seat of each "
          "deal as the first to call; the table card's limits use every deal.", low=0, high=10_000_000),
    Param("bidders", str, config.AUCTION_BIDDERS, "the bidding model the later seats call by in the net chart (a "
          "policy of kaiser-sim match).", choices=tuple(POLICIES)),
    Param("top_up", float, 0.1, "the table card's rarest cells get deals dealt to them (the cell's hand drawn from "
          "every hand of the cell, the other cards at random): this many deals in all, as a share of the run's "
          f"deals, raising the fewest-handed cells to one level (0, or fewer than {MIN_TOP_UP:,} deals in all: none; runs "
          "of 8-card hands of the 32-card deck with no kitty, low no trump, cover 3 or fixed cards).", low=0.0,
          high=10.0),
)
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/bidding-chart.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "What to bid by strength and trump length, under the preset's scoring",
                        params={"trump_rule": "longest-strength", "min_cell": 30, "net_deals": 100_000,
                                "bidders": config.AUCTION_BIDDERS, "top_up": 0.1})


def _bids(rules):
    """Every bid of the rules' ladder, low NT bids included."""
    return ladder(rules)


def points_column(bid) -> str:
    """The declarer frame's column a bid is played from: low NT, NT, or the
    trump named by rule."""
    return "lnt_pts" if bid.low else "nt_pts" if bid.nt else "trump_pts"


def scores_matrix(d: pd.DataFrame, rules) -> tuple[list[str], np.ndarray]:
    """``(bid texts, (rows, bids) scores)`` for every hand and bid."""
    bids = _bids(rules)
    cols = [hand_score(rules, b.level, b.nt, d[points_column(b)].to_numpy()) for b in bids]
    return [str(b) for b in bids], np.stack(cols, axis=1)


def crossing(x, y, target: float) -> float:
    """First x where y reaches ``target`` (linear interpolation; NaN if never)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    hit = np.nonzero(y >= target)[0]
    if hit.size == 0:
        return np.nan
    i = hit[0]
    if i == 0:
        return x[0]
    return x[i - 1] + (target - y[i - 1]) * (x[i] - x[i - 1]) / (y[i] - y[i - 1])


def split_halves(deal_ids) -> tuple[np.ndarray, np.ndarray]:
    """``(select, report)`` boolean masks of rows by deal id: even deals
    select, odd deals report.  Deterministic, and every row of a deal falls
    on the same side, so the two halves share no deal (module doc)."""
    deal = np.asarray(deal_ids, dtype=np.int64)
    select = deal % 2 == 0
    return select, ~select


def _bid_tables(rules, model) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, makes)``, each (keys, bids): the table-play expected
    hand score and P(make) of every bid for each (count band, double-dummy
    points value) key of its strain (:func:`kaiser_sim.strategy.table_play.band_key`)."""
    from ..strategy.table_play import KEYS, POINTS, key_parts

    bids = _bids(rules)
    sc, made = np.empty((KEYS, len(bids))), np.empty((KEYS, len(bids)))
    grid_dd, grid_band = key_parts()
    for j, b in enumerate(bids):
        dist = model.dist(grid_dd, b.nt, grid_band)
        sc[:, j] = dist @ hand_score(rules, b.level, b.nt, POINTS).astype(np.float64)
        made[:, j] = dist[:, POINTS >= b.level].sum(axis=1)
    return sc, made


def dd_keys(d: pd.DataFrame, rules) -> np.ndarray:
    """(rows, bids) int8: each hand's double-dummy points in each bid's strain
    with its count band, as a key (:func:`kaiser_sim.strategy.table_play.band_key`)."""
    from ..strategy.table_play import band_index, band_key

    band = band_index(d["strength"].to_numpy())
    keys = {}
    for b in _bids(rules):
        col = points_column(b)
        if col not in keys:
            keys[col] = band_key(d[col].to_numpy(dtype=np.int64), band).astype(np.int8)
    return np.stack([keys[points_column(b)] for b in _bids(rules)], axis=1)


def table_play_scores(d: pd.DataFrame, rules, model) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, make probabilities)``, each (rows, bids): the table-play
    expected hand score and P(make) of every bid for every hand, from its DD
    points through the table-play model (:mod:`kaiser_sim.strategy.table_play`)."""
    keys = dd_keys(d, rules).astype(np.int64)
    sc, made = _bid_tables(rules, model)
    cols = np.arange(keys.shape[1])[None, :]
    return sc[keys, cols], made[keys, cols]


class ModelReplicates:
    """The table-play model's bootstrap replicates (its own error) for the
    chart, held as tables over DD points rather than one value per hand: a
    hand's table-play value depends only on its DD points, so each
    replicate's mean over a group of hands is the group's histogram of DD
    points times the replicate's table.  Memory: (B, 15, bids), whatever
    the number of hands (one array per hand and replicate took 4 GB at
    50,000 deals)."""

    def __init__(self, d: pd.DataFrame, rules, model):
        reps = model.replicates()
        tabs = [_bid_tables(rules, r) for r in reps]
        self.scores = np.stack([t[0] for t in tabs]) if tabs else None  # (B, V, bids)
        self.makes = np.stack([t[1] for t in tabs]) if tabs else None
        self.keys = dd_keys(d, rules)

    def __bool__(self) -> bool:
        return self.scores is not None and self.scores.shape[0] > 1

    def means(self, rows, col: int, minus: int | None = None, of: str = "sc") -> np.ndarray:
        """(B,): each replicate's mean over ``rows`` of bid ``col``'s score
        (``of="sc"``) or P(make) (``"made"``), less bid ``minus``'s score."""
        rows = np.asarray(rows)
        tab = self.scores if of == "sc" else self.makes
        V = tab.shape[1]

        def share(c):
            k = self.keys[rows, c].astype(np.int64)
            return np.bincount(k, minlength=V) / max(k.size, 1)

        m = tab[:, :, col] @ share(col)
        if minus is not None:
            m = m - self.scores[:, :, minus] @ share(minus)
        return m


def run(run_results: RunResults, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30, net_deals: int = 100_000,
        bidders: str = config.AUCTION_BIDDERS, top_up: float = 0.1) -> StudyTables:
    results = run_results.frame
    d = declarer_frame(results, rules, trump_rule)
    names, sc = scores_matrix(d, rules)
    bids = _bids(rules)
    levels = np.array([b.level for b in bids])
    is_nt = np.array([b.nt for b in bids])
    low = np.array([b.low for b in bids])
    raw = np.stack([d[points_column(b)].to_numpy() for b in bids], axis=1)
    made = raw >= levels[None, :]
    tables = _chart_tables(d, names, sc, made, is_nt, levels, min_cell, trump_rule, low=low)
    model, why = table_play_model(rules)
    if model is not None:
        sc_tp, made_tp = table_play_scores(d, rules, model)
        reps = ModelReplicates(d, rules, model) or None
        played = _chart_tables(d, names, sc_tp, made_tp, is_nt, levels, min_cell, trump_rule, reps, low=low)
        for key, df in played.items():
            tables.add(f"{key}_table_play", df, TableMeta(
                note="TABLE PLAY (the table-play model applied to each hand's DD points): " + played.meta(key).note))
    tables.add("net_chart", *net_chart(results, rules, trump_rule, min_cell, net_deals, bidders, declarers=d,
                                       top_up=top_up, run=run_results.metadata))
    info = run_info(run_results, rules)
    tag(tables, info, f"trump rule {trump_rule}; score of the declaring side only")
    net = tables.meta("net_chart")
    net.footer = net.footer.replace("score of the declaring side only",
                                    f"net of the opponents, later seats by the {bidders} model")
    for key in tables:
        meta = tables.meta(key)
        if key.endswith("_table_play"):
            meta.footer = meta.footer.replace("double dummy", "table play (PIMC model)")
        meta.extra["table_play"] = why or model.describe()
        meta.extra["scoring"] = scoring(rules)  # the report states the NT scoring beside its NT advice
        # the card's impossible cells are those of 8-card hands from the 32-card deck (COUNT_RANGE_BY_LENGTH)
        meta.extra["standard_deck"] = bool(rules.hand_size == 8 and not rules.deck34)
    return tables


# --- the net chart: each bid against passing, net of the opponents ----------------------------

#: the smallest and largest Kaiser count of a hand whose trump suit (by the default rule) has each
#: length (every count between them, in steps of 1/2, occurs, except 12.5 at length 8): from all
#: C(32, 8) = 10,518,300 hands of the 32-card deck (a test enumerates them again)
COUNT_RANGE_BY_LENGTH = {2: (2.5, 11.0), 3: (3.5, 12.0), 4: (4.5, 13.0), 5: (5.5, 13.5), 6: (7.0, 13.5),
                         7: (9.0, 13.5), 8: (12.0, 13.5)}


def possible_cell(strength_label: str, length_label: str) -> bool:
    """Whether any 8-card hand of the 32-card deck falls in the cell (count
    band of :data:`STRENGTH_BUCKETS` x trump length of :data:`LENGTH_BUCKETS`,
    trump by the default rule): a cell that no hand can reach is impossible,
    not short of hands (:data:`COUNT_RANGE_BY_LENGTH`)."""
    band = {b[0]: b[1:] for b in STRENGTH_BUCKETS}[strength_label]
    lengths = {b[0]: b[1:] for b in LENGTH_BUCKETS}[length_label]
    for length, (lo, hi) in COUNT_RANGE_BY_LENGTH.items():
        if lengths[0] <= length <= lengths[1] and lo <= band[1] and hi >= band[0]:
            return True
    return False


def _stand_net(d: pd.DataFrame, rules, model, level: int, nt: bool) -> np.ndarray:
    """Each hand's net value if it declares ``level`` (NT or in its trump by
    rule) and the bid stands: its side's hand score minus the opponents'
    points (the rest of the hand's total, ``rules.raw_total``, less the side's;
    not doubled in NT), in table
    play (the model's distribution for the hand's count band) where the
    model holds, else double dummy.  Under cover 3, or a kitty whose 5H or 3S
    may be discarded to nobody, the opponents' points are
    their own (``d``'s ``opp_trump_pts`` / ``opp_nt_pts``: :func:`_with_opponents`),
    less, in table play, what the declaring side's play gains on its
    double-dummy value (:func:`kaiser_sim.strategy.call_worth.playout_net`)."""
    from ..strategy.table_play import POINTS, band_index

    raw = d["nt_pts" if nt else "trump_pts"].to_numpy(dtype=np.int64)
    if "opp_nt_pts" in d:  # cover 3 or a special discarded to nobody: the sides' points need not add to the total
        opp = d["opp_nt_pts" if nt else "opp_trump_pts"].to_numpy(dtype=np.int64)
        if model is None:
            return (hand_score(rules, level, nt, raw) - opp).astype(np.float64)
        gain = model.dist(raw, nt, band_index(d["strength"].to_numpy())) @ (
            hand_score(rules, level, nt, POINTS).astype(np.float64) + POINTS)
        return gain - (opp + raw)
    if model is None:
        return (hand_score(rules, level, nt, raw) - (rules.raw_total - raw)).astype(np.float64)
    value = hand_score(rules, level, nt, POINTS).astype(np.float64) - (rules.raw_total - POINTS)
    return model.dist(raw, nt, band_index(d["strength"].to_numpy())) @ value


def _with_opponents(d: pd.DataFrame, results, rules, other=None) -> pd.DataFrame:
    """Under cover 3, or a kitty whose 5H or 3S may be discarded to nobody,
    ``d`` (:func:`~kaiser_sim.studies.common.declarer_frame` of ``results``:
    a row per deal and seat) with the opponents' double-dummy points when the
    seat declares its trump (``opp_trump_pts``) and NT (``opp_nt_pts``): each
    side scored from its tricks under cover 3, the declarer's best discard
    solved where it may throw a special card away (``other``: the other
    side's ``(n, 4, S)`` of :func:`~kaiser_sim.studies.common.playout_sides`,
    read here when None); else ``d`` as it is (the opponents take the rest of
    the total)."""
    from .common import discards_to_nobody, playout_sides

    if not (rules.cover3 or discards_to_nobody(rules)):
        return d
    other = playout_sides(results, rules)[1] if other is None else other
    i = np.arange(len(d))  # rows (deal, seat), deal-major
    return d.assign(opp_trump_pts=other[i // 4, i % 4, d["trump"].to_numpy(dtype=np.int64)],
                    opp_nt_pts=other[i // 4, i % 4, np.full(len(d), 4)])


def _card_limit(own: list, names: list, lad, ranks) -> dict:
    """The ``declare_*`` columns of a cell from ``own`` (``[None, mean row of
    each bid's net if declared, ...]``): the highest bid above 0 and the next
    one's, settled when the first lies above 0 and the second below."""
    up = [j for j in range(1, len(names)) if own[j]["mean"] > 0]
    dl = up[-1] if up else 0
    dn = dl + 1 if dl + 1 < len(names) else None
    dfail = ([(own[dl], own[dl])] if dl and not own[dl]["lo"] > 0 else []) + (
        [(own[dn], own[dn])] if dn is not None and not own[dn]["hi"] < 0 else [])
    nan = float("nan")
    return {"declare_limit": names[dl], "declare_level": int(lad.levels[ranks[dl - 1]]) if dl else 0,
            "declare_settled": not dfail, "declare_why": unsettled_reason(dfail),
            "declare_net": own[dl]["mean"] if dl else nan, "declare_lo": own[dl]["lo"] if dl else nan,
            "declare_hi": own[dl]["hi"] if dl else nan,
            "declare_next": names[dn] if dn is not None else "",
            "declare_next_net": own[dn]["mean"] if dn is not None else nan,
            "declare_next_lo": own[dn]["lo"] if dn is not None else nan,
            "declare_next_hi": own[dn]["hi"] if dn is not None else nan}


def water_level(counts: dict, budget: int) -> dict:
    """How many hands to add to each cell (``counts``: cell -> hands it has)
    so that ``budget`` hands in all raise the fewest-handed cells to one
    common level (the cells already above it get none): ``{cell: added}``,
    the added summing to ``budget`` (ties broken by the cells' order)."""
    budget = int(budget)
    if budget <= 0 or not counts:
        return {cell: 0 for cell in counts}
    keys = list(counts)
    have = np.array([int(counts[c]) for c in keys], dtype=np.int64)
    order = np.argsort(have, kind="stable")
    filled = 0
    for j in range(len(order)):  # the level reaches cell j's count, or stops below it
        cost = int(have[order[j]]) * j - int(have[order[:j]].sum()) if j else 0
        if cost > budget:
            break
        filled = j + 1
    low = have[order[:filled]]
    level = (budget + int(low.sum())) // filled
    added = np.zeros(len(keys), dtype=np.int64)
    added[order[:filled]] = np.maximum(level - low, 0)
    rest = budget - int(added.sum())
    for j in order[:filled]:  # the remainder, one a cell, to the first cells at the level
        if rest <= 0:
            break
        if have[j] + added[j] == level:
            added[j] += 1
            rest -= 1
    return {c: int(a) for c, a in zip(keys, added)}


@functools.lru_cache(maxsize=2)
def hands_by_cell(trump_rule: str = DEFAULT_TRUMP_RULE) -> dict:
    """Every 8-card hand of the 32-card deck (:func:`kaiser_sim.hands.every_hand`)
    by the chart's cell: ``{(count band, trump length): hands}``, the band
    and length labels of :data:`STRENGTH_BUCKETS` and :data:`LENGTH_BUCKETS`
    with the trump ``trump_rule`` names (as :func:`declarer_frame` labels a
    hand).  About 20 s and 1 GB the first time in a process."""
    from ..hands import every_hand, suit_lengths, trump_by_rule, strength

    hands = every_hand()
    cell = np.empty(hands.size, dtype=np.int16)
    step = 1_000_000
    for a in range(0, hands.size, step):
        h = hands[a:a + step]
        trump = trump_by_rule(h, trump_rule)
        band = bucket(strength(h, trump), STRENGTH_BUCKETS).codes.astype(np.int16)
        length = bucket(suit_lengths(h)[np.arange(h.size), trump], LENGTH_BUCKETS).codes.astype(np.int16)
        cell[a:a + step] = band * len(LENGTH_BUCKETS) + length
    order = np.argsort(cell, kind="stable")
    bounds = np.searchsorted(cell[order], np.arange(len(STRENGTH_BUCKETS) * len(LENGTH_BUCKETS) + 1))
    return {(sb[0], lb[0]): hands[order[bounds[i * len(LENGTH_BUCKETS) + j]:bounds[i * len(LENGTH_BUCKETS) + j + 1]]]
            for i, sb in enumerate(STRENGTH_BUCKETS) for j, lb in enumerate(LENGTH_BUCKETS)}


def top_up_refusal(rules, run: dict | None) -> str:
    """Why a run's cells cannot be topped up with deals dealt to them ('' when
    they can): the deals must be the plain game's 8-card hands of the
    32-card deck (no kitty, low no trump or cover 3, whose run values are not
    the solver's plain points) from a run that records its seed and fixed no
    cards."""
    if rules.kitty != "none" or rules.hand_size != 8 or rules.deck34 or rules.low_nt != "off" or rules.cover3:
        return f"rules {rules.label}: no deals dealt to the cells (only the plain deal and play)"
    if not run or run.get("seed") is None:
        return "the run records no seed: no deals dealt to the cells"
    if run.get("fixed"):
        return "the run fixes cards: no deals dealt to the cells"
    return ""


def topped_up_frame(wanted: dict, rules, trump_rule: str, seed: int, redeal_weak: bool) -> pd.DataFrame:
    """The hands dealt to the cells: for each cell of ``wanted`` (``{cell:
    hands}``), that many deals whose N hand is drawn uniformly from the cell's
    hands (:func:`hands_by_cell`, :func:`kaiser_sim.deal.deals_with_hands`,
    the weak-hand redeal as the run's), N declaring on lead in its trump by
    ``trump_rule`` and in no trump, solved through the door
    (:func:`kaiser_sim.game.dd_contracts`).  One row a deal with the
    columns the card's limits read: ``deal`` (negative: -1, -2, ...; one
    cluster each, apart from the run's deals), ``strength``, ``trump_len``,
    ``trump_pts``, ``nt_pts``, ``strength_bucket``, ``length_bucket``."""
    from ..deal import deals_with_hands
    from ..game import dd_contracts
    from ..hands import strength, suit_lengths, trump_by_rule

    cells = [c for c in wanted if wanted[c] > 0]
    if not cells:
        return pd.DataFrame(columns=["deal", "strength", "trump_len", "trump_pts", "nt_pts", "strength_bucket",
                                     "length_bucket"])
    pools = hands_by_cell(trump_rule)
    keys = [(sb[0], lb[0]) for sb in STRENGTH_BUCKETS for lb in LENGTH_BUCKETS]
    deals = np.concatenate([
        deals_with_hands(pools[c], wanted[c], int(np.random.SeedSequence([int(seed), 0x746F70, keys.index(c)])
                                                  .generate_state(1, dtype=np.uint64)[0] >> 1), rules, redeal_weak)
        for c in cells])
    hand = deals[:, 0]
    trump = trump_by_rule(hand, trump_rule)
    m = len(deals)
    values = dd_contracts(np.concatenate([deals, deals]), np.zeros(2 * m, dtype=np.int64),
                          np.concatenate([trump, np.full(m, 4)]).astype(np.int64), rules, "points")
    out = pd.DataFrame({"deal": -1 - np.arange(m, dtype=np.int64), "strength": strength(hand, trump),
                        "trump_len": suit_lengths(hand)[np.arange(m), trump],
                        "trump_pts": values[:m].astype(np.int64), "nt_pts": values[m:].astype(np.int64)})
    out["strength_bucket"] = bucket(out["strength"], STRENGTH_BUCKETS)
    out["length_bucket"] = bucket(out["trump_len"], LENGTH_BUCKETS)
    return out


def net_chart(results, rules, trump_rule: str = DEFAULT_TRUMP_RULE, min_cell: int = 30, net_deals: int = 100_000,
              bidders: str = config.AUCTION_BIDDERS, declarers: pd.DataFrame | None = None,
              top_up: float = 0.0, run: dict | None = None) -> tuple[pd.DataFrame, TableMeta]:
    """Each bid against passing, net of the opponents, by cell (count band x
    trump length): the table card's limits, and the table's metadata (its
    note; ``extra``: the ``measure``, the ``bidders`` model, the ``deals``
    played out and the ``declare_deals`` the card's limits read).

    Every seat of the first ``net_deals`` deals is taken in turn as the
    first to call (nothing heard; its right-hand neighbour deals).  Each
    call -- pass, and every bid of the ladder but low NT -- is valued by
    playing the rest of the auction out
    (:func:`kaiser_sim.strategy.call_worth.playout_net`: the later seats call
    by the ``bidders`` model, the highest bid plays, in table play where the
    model holds): the caller's side's hand score minus the opponents'.  A
    bid's worth is its paired difference to passing on the same deals
    (clustered by deal: the four seats of a deal share it).  Its worth *left
    to stand* is its net value if the hand's side declares it (your side's
    hand score minus the opponents' points, the hand's total less yours),
    minus passing's: a bid that beats passing only because the later seats
    bid over it and fail (a pre-empt against the model) is not one a player
    can count on.  ``limit``: the highest bid of the ladder whose worth is
    above 0 both ways (``pass`` if none); ``settled`` when both its
    intervals lie above 0 and one of the next bid's below (``why``:
    :func:`unsettled_reason`; the table-play model's own error is not added
    here).

    The card's limit (``declare_*``) needs no auction played out, so it is
    read from every deal of the run (``declare_n`` hands), not only the
    first ``net_deals``: the card's cells settle on ten times the hands in
    the million-deal edition.  A cell is a row when it has ``min_cell``
    hands in the whole run; its columns against passing are empty (``limit``
    ``""``) when the first ``net_deals`` deals give it fewer.  ``declarers``:
    ``declarer_frame(results, rules, trump_rule)`` when the caller has it.

    Under cover 3 both sides' points are the run's, each side scored from its
    tricks (:func:`~kaiser_sim.studies.common.run_points`): the play-outs read
    the opponents' own points (:func:`~kaiser_sim.strategy.call_worth.playout_net`)
    and so does a bid left to stand (:func:`_stand_net`); the note says how
    table play treats the defenders there.  So they do under a kitty whose
    5H or 3S may be discarded to nobody, the opponents' points solved through
    the door as they are read (:func:`~kaiser_sim.studies.common.playout_sides`:
    the play-outs' contracts, and each hand's trump and NT over the whole run
    for the card; slow).  Under low no trump the later seats' low NT bids are
    played low (the run's low no trump values)."""
    from ..strategy.call_worth import playout_net, rules_words
    from ..strategy.capabilities import refusal
    from ..strategy.policies import PASS, get_policy, ladder_arrays
    from .auction import blocks
    from .common import discards_to_nobody, hands_array, playout_sides, run_points

    cols = ["strength", "trump_len", "n", "deals", "declare_n", "declare_deals", "limit", "limit_level", "settled",
            "why", "worth", "worth_lo", "worth_hi", "next", "next_worth", "next_lo", "next_hi", "net_pass", "net_pass_lo", "net_pass_hi",
            "net_limit", "stand_worth", "stand_lo", "stand_hi", "next_stand", "next_stand_lo", "next_stand_hi",
            "declare_limit", "declare_level", "declare_settled", "declare_why", "declare_net", "declare_lo",
            "declare_hi", "declare_next", "declare_next_net", "declare_next_lo", "declare_next_hi", "declare_dealt"]
    why = refusal("call-chart", rules)
    k = min(int(net_deals), len(results))
    if why or k == 0:
        return pd.DataFrame(columns=cols), TableMeta(note=why or "net chart not computed (net_deals = 0)",
                                                     extra={"deals": 0})
    sub = results.iloc[:k]
    policy = get_policy(bidders)
    model, _ = table_play_model(rules)
    # both sides' points (other None: the rest of the total, playout_net's default); where a kitty's special card
    # may be discarded to nobody the other side's are solved as read, the solves shared with the card's cells
    other_all = playout_sides(results, rules)[1] if discards_to_nobody(rules) else None
    lead, other = playout_sides(sub, rules) if other_all is None else (run_points(sub, rules, low_nt=True)[0],
                                                                       other_all[np.arange(k)])
    d = _with_opponents(declarer_frame(sub, rules, trump_rule), sub, rules, other)
    hands = np.repeat(hands_array(sub), 4, axis=0)
    pts = np.repeat(lead, 4, axis=0)
    other = None if other is None else other[np.repeat(np.arange(k), 4)]  # rows (deal, seat) as the hands
    seat = d["seat"].to_numpy(dtype=np.int64)
    dealers = (seat + 3) % 4  # each seat the first to call
    m = len(d)
    lad = ladder_arrays(rules)
    ranks = [r for r in range(len(lad)) if not lad.low[r] and lad.playable[r]]
    names = ["pass"] + [call_text(lad.bids[r]) for r in ranks]
    calls = np.full((m, 4), PASS, dtype=np.int16)
    net = np.empty((m, len(names)))
    for j, r in enumerate([PASS] + ranks):
        for b in blocks(m):
            net[b, j], _ = playout_net(hands[b], dealers[b], calls[b], 0, np.full(b.stop - b.start, r), rules, policy,
                                       pts[b], model, None if other is None else other[b])
    stand = np.full((m, len(names)), np.nan)
    for j, r in enumerate(ranks, 1):
        stand[:, j] = _stand_net(d, rules, model, int(lad.levels[r]), bool(lad.nt[r]))
    full = d if k == len(results) else declarers if declarers is not None else declarer_frame(results, rules, trump_rule)
    full = full if full is d else _with_opponents(full, results, rules, other_all)
    # the rarest cells topped up with deals dealt to them (the same distribution as the run's hands of the cell:
    # pooled with them, each deal its own cluster)
    no_top_up = top_up_refusal(rules, run) if top_up > 0 else "no deals dealt to the cells (top_up = 0)"
    have = full.groupby(["strength_bucket", "length_bucket"], observed=True).size()
    budget = 0 if no_top_up else int(round(top_up * len(results)))
    if 0 < budget < MIN_TOP_UP:  # a few hands a cell settle nothing, and the cells' hands cost 20 s to sort
        no_top_up, budget = f"{budget:,} deals to deal to the cells, fewer than {MIN_TOP_UP:,}: none dealt", 0
    # the cells some hand reaches with this trump rule (read from the hands themselves)
    pools = hands_by_cell(trump_rule) if budget else {}
    wanted = water_level({c: int(have.get(c, 0)) for c, pool in pools.items() if pool.size}, budget)
    extra = topped_up_frame(wanted, rules, trump_rule, int(run["seed"]) if budget else 0,
                            bool(budget and run.get("redeal")))
    card = full if extra.empty else pd.concat([full[extra.columns], extra], ignore_index=True)
    full_deal = card["deal"].to_numpy()
    full_cells = card.groupby(["strength_bucket", "length_bucket"], observed=True).indices
    full_cells = {key: idx for key, idx in full_cells.items() if len(idx) >= min_cell}
    dealt = extra.groupby(["strength_bucket", "length_bucket"], observed=True).size()
    # the card's net if declared, cell by cell over every deal of the run (a column at a time: 4 million
    # hands in the edition)
    own_by_cell = {key: [None] for key in full_cells}
    for j, r in enumerate(ranks, 1):
        column = (stand[:, j] if card is d else
                  _stand_net(card, rules, model, int(lad.levels[r]), bool(lad.nt[r])))
        for key, idx in full_cells.items():
            own_by_cell[key].append(_mean_row(column[idx], full_deal[idx]))
    deal = d["deal"].to_numpy()
    sub_cells = d.groupby(["strength_bucket", "length_bucket"], observed=True).indices
    rows = []
    for (sb, lb), full_idx in full_cells.items():
        own = own_by_cell[(sb, lb)]
        card = _card_limit(own, names, lad, ranks)
        card["declare_dealt"] = int(dealt.get((sb, lb), 0))
        idx = sub_cells.get((sb, lb), ())
        if len(idx) < min_cell:  # the card's cell only: too few of the first net_deals deals to play it out
            rows.append({"strength": sb, "trump_len": lb, "n": len(idx),
                         "deals": int(np.unique(deal[idx]).size) if len(idx) else 0,
                         "declare_n": len(full_idx), "declare_deals": int(np.unique(full_deal[full_idx]).size),
                         "limit": "", "limit_level": 0, "settled": False, "why": "", **card})
            continue
        worth = [None] + [_mean_row(net[idx, j] - net[idx, 0], deal[idx]) for j in range(1, len(names))]
        stands = [None] + [_mean_row(stand[idx, j] - net[idx, 0], deal[idx]) for j in range(1, len(names))]
        # a bid counts when it beats passing both with the auction played out and left to stand: a bid worth
        # more only because the later seats bid over it and fail (a pre-empt against the model) does not
        pays = [j for j in range(1, len(names)) if worth[j]["mean"] > 0 and stands[j]["mean"] > 0]
        lim = pays[-1] if pays else 0
        w = worth[lim] if lim else {"mean": 0.0, "lo": 0.0, "hi": 0.0}
        nxt = lim + 1 if lim + 1 < len(names) else None
        nw = worth[nxt] if nxt is not None else {"mean": np.nan, "lo": np.nan, "hi": np.nan}
        ns = stands[nxt] if nxt is not None else nw
        failing = [(x, x) for x in ((w, stands[lim]) if lim else ()) if not x["lo"] > 0]
        if nxt is not None and not (nw["hi"] < 0 or ns["hi"] < 0):  # the next bid up must lose one way
            failing += [(x, x) for x in (nw, ns) if not x["hi"] < 0]
        pass_row = _mean_row(net[idx, 0], deal[idx])
        rows.append({"strength": sb, "trump_len": lb, "n": len(idx), "deals": int(np.unique(deal[idx]).size),
                     "declare_n": len(full_idx), "declare_deals": int(np.unique(full_deal[full_idx]).size),
                     "limit": names[lim], "limit_level": int(lad.levels[ranks[lim - 1]]) if lim else 0,
                     "settled": not failing, "why": unsettled_reason(failing), "worth": w["mean"],
                     "worth_lo": w["lo"], "worth_hi": w["hi"], "next": names[nxt] if nxt is not None else "",
                     "next_worth": nw["mean"], "next_lo": nw["lo"], "next_hi": nw["hi"],
                     "net_pass": pass_row["mean"], "net_pass_lo": pass_row["lo"], "net_pass_hi": pass_row["hi"],
                     "net_limit": float(net[idx, lim].mean()),
                     "stand_worth": stands[lim]["mean"] if lim else 0.0,
                     "stand_lo": stands[lim]["lo"] if lim else 0.0, "stand_hi": stands[lim]["hi"] if lim else 0.0,
                     "next_stand": ns["mean"], "next_stand_lo": ns["lo"], "next_stand_hi": ns["hi"],
                     **card})
    out = rows_frame(rows, cols)
    measure = "table play (PIMC model)" if model is not None else "double dummy"
    note = (f"first to call, nothing heard (every seat of the first {k:,} deals in turn); worth of a bid = "
            "its net value minus passing's on the same deals, net value = your side's hand score minus "
            f"the opponents', the later seats calling by the {policy.name} model ({measure}); left to "
            "stand: the bid's net value if you declare it, minus passing's; limit: the highest bid worth "
            "more than passing both ways; settled: both its intervals above 0 and one of the next "
            "bid's below; intervals clustered by deal (the table-play model's own error not added)"
            f"{rules_words(rules, model is not None)}")
    return out, TableMeta(note=note, extra={"measure": measure, "bidders": policy.name, "deals": k,
                                            "declare_deals": len(results), "dealt_deals": len(extra),
                                            "top_up": no_top_up or f"{len(extra):,} deals dealt to the cells"})


#: the edition's size (``make sample``): a smaller run's cheat sheet points to it for its unsettled cells
EDITION_DEALS = 2_000_000

#: a bid whose expected score is within this of 0 (points) sits on the boundary: no run settles it
BOUNDARY = 0.05


def unsettled_reason(failing) -> str:
    """Why a limit is not settled, from its failing judgements ``[(row,
    deals_only_row), ...]`` (each a bid whose 95% interval should lie above or
    below 0 and reaches it; ``row`` may include the table-play model's own
    error, ``deals_only_row`` does not): ``""`` (settled: nothing fails);
    ``"boundary"`` when a failing bid's expected score is within
    :data:`BOUNDARY` of 0 (more deals would not settle it); ``"model"`` when
    every failing interval is decided by the deals alone and reaches 0 only
    with the table-play model's error added (a model fitted on more played
    deals would settle it); ``"few hands"`` otherwise (a larger run would)."""
    if not failing:
        return ""
    if any(abs(row["mean"]) <= BOUNDARY for row, _ in failing):
        return "boundary"
    if all(d["lo"] > 0 or d["hi"] < 0 for _, d in failing):
        return "model"
    return "few hands"


def _chart_tables(d, names, sc, made, is_nt, levels, min_cell, trump_rule, reps=None, low=None) -> StudyTables:
    """The chart, expected, expected_by_strength and thresholds tables of
    one measure: ``sc`` (rows, bids) hand scores and ``made`` (rows, bids)
    make indicators (DD) or probabilities (table play).  ``reps``: for table
    play, the model's bootstrap replicates (:class:`ModelReplicates`): every
    interval then adds the model's own error.  ``low`` (bids,): the low NT
    bids, in every table and candidates for the best bid, but not for the
    plain and NT limits."""
    low = np.zeros(len(names), dtype=bool) if low is None else np.asarray(low, dtype=bool)
    deal = d["deal"].to_numpy()

    def mean_row(values, cluster, col=None, rows=None, minus=None, of="sc"):
        # the clustered mean of per-hand values; with replicates, widened by the model's error
        r = _mean_row(values, cluster)
        if reps is None or col is None:
            return r
        return with_model_error(r, float(reps.means(rows, col, minus, of).std(ddof=1)), cluster)

    def _p_row(values, cluster, col=None, rows=None):
        v = np.asarray(values)
        if v.dtype == bool:
            return share_row(v, cluster)
        m = mean_row(v, cluster, col, rows, of="made")
        return {"p": m["mean"], "lo": m["lo"], "hi": m["hi"]}
    selecting, reporting = split_halves(deal)
    half_min = max(1, (min_cell + 1) // 2)

    expected, chart = [], []
    for (sb, lb), idx in d.groupby(["strength_bucket", "length_bucket"], observed=True).indices.items():
        n = len(idx)
        if n < min_cell:
            continue
        # every bid of the cell, on all its rows (no selection); the chart's limits use the same rows
        cell_rows = {}
        for j, name in enumerate(names):
            m = cell_rows[j] = mean_row(sc[idx, j], deal[idx], j, idx)
            p = _p_row(made[idx, j], deal[idx], j, idx)
            expected.append({"strength": sb, "trump_len": lb, "bid": name, "n": n, "expected": m["mean"],
                        "lo": m["lo"], "hi": m["hi"], "p_make": p["p"], "p_lo": p["lo"], "p_hi": p["hi"]})
        # the chart.  The limits test each bid's sign on its own (is its mean above or below 0?), which
        # picks no maximum and so has no winner's curse: they use every hand of the cell.  The best bid is
        # the largest of many means: chosen on the selecting half, measured on the other.
        sel, rep = idx[selecting[idx]], idx[reporting[idx]]
        if len(sel) < half_min or len(rep) < half_min:
            continue
        means = sc[sel].mean(axis=0)
        order = np.argsort(-means, kind="stable")
        best, second = order[0], order[1]
        diff = mean_row(sc[rep, best] - sc[rep, second], deal[rep], best, rep, minus=second)
        m = mean_row(sc[rep, best], deal[rep], best, rep)
        limits = {}
        for nt in (False, True):
            cand = [j for j in range(len(names)) if is_nt[j] == nt and not low[j]]
            pos = [j for j in cand if cell_rows[j]["mean"] > 0]
            up_to = pos[-1] if pos else None
            # 'sure': the highest bid up to the limit whose 95% interval is above 0
            sure = [j for j in cand if up_to is not None and levels[j] <= levels[up_to] and cell_rows[j]["lo"] > 0]
            up = cell_rows[up_to] if up_to is not None else {"mean": np.nan, "lo": np.nan, "hi": np.nan}
            # settled: the limit pays (its interval above 0) and the next bid up loses (interval below 0);
            # for 'pass', the lowest bid loses
            above = [j for j in cand if up_to is None or levels[j] > levels[up_to]]
            pays = up_to is None or up["lo"] > 0
            nxt = cell_rows[above[0]] if above else None
            loses = nxt is None or nxt["hi"] < 0
            # why a limit is not settled: each failing judgement, with its interval from the deals alone
            failing = ([(up, _mean_row(sc[idx, up_to], deal[idx]))] if not pays else []) + \
                ([(nxt, _mean_row(sc[idx, above[0]], deal[idx]))] if not loses else [])
            limits[nt] = (names[up_to] if pos else "pass", names[sure[-1]] if sure else "pass",
                          int(levels[up_to]) if pos else 0, up, bool(pays and loses), unsettled_reason(failing))
        chart.append({"strength": sb, "trump_len": lb, "n": n, "n_select": len(sel), "n_report": len(rep),
                      "bid_up_to": limits[False][0], "bid_up_to_sure": limits[False][1], "limit_level": limits[False][2],
                      "up_to_expected": limits[False][3]["mean"], "up_to_lo": limits[False][3]["lo"],
                      "up_to_hi": limits[False][3]["hi"],
                      "nt_up_to": limits[True][0], "nt_up_to_sure": limits[True][1],
                      "settled": limits[False][4], "nt_settled": limits[True][4],
                      "why": limits[False][5], "nt_why": limits[True][5],
                      "best_bid": names[best], "expected": m["mean"],
                      "lo": m["lo"], "hi": m["hi"], "p_make": float(np.mean(made[rep, best])),
                      "runner_up": names[second], "margin": diff["mean"], "margin_lo": diff["lo"],
                      "margin_hi": diff["hi"], "clear": bool(diff["lo"] > 0)})
    expected = rows_frame(expected, ["strength", "trump_len", "bid", "n", "expected", "lo", "hi", "p_make", "p_lo",
                                "p_hi"])
    chart = rows_frame(chart, ["strength", "trump_len", "n", "n_select", "n_report", "bid_up_to", "bid_up_to_sure",
                               "limit_level", "up_to_expected", "up_to_lo", "up_to_hi", "nt_up_to", "nt_up_to_sure",
                               "settled", "nt_settled", "why", "nt_why",
                               "best_bid", "expected", "lo", "hi", "p_make", "runner_up", "margin", "margin_lo",
                               "margin_hi", "clear"])
    by_strength = []
    for sb, idx in d.groupby("strength_bucket", observed=True).indices.items():
        if len(idx) < min_cell:
            continue
        for j, name in enumerate(names):
            by_strength.append({"strength": sb, "bid": name, **mean_row(sc[idx, j], deal[idx], j, idx)})
    by_strength = rows_frame(by_strength, ["strength", "bid", "n", "mean", "lo", "hi", "sd"])

    # thresholds along the strength axis (steps of 1/2), all trump lengths together
    thr = []
    strength = d["strength"].to_numpy()
    xs = [x for x in np.unique(strength) if (strength == x).sum() >= min_cell]
    for j, name in enumerate(names):
        if low[j]:  # low NT pays with weak hands: no count is "needed" for it (its rows are in expected_by_strength)
            continue
        p, plo, phi, e, elo, ehi = [], [], [], [], [], []
        for x in xs:
            at = strength == x
            at_rows = np.nonzero(at)[0]
            share = _p_row(made[at, j], deal[at], j, at_rows)
            p.append(share["p"]), plo.append(share["lo"]), phi.append(share["hi"])
            m = mean_row(sc[at, j], deal[at], j, at_rows)
            e.append(m["mean"]), elo.append(m["lo"]), ehi.append(m["hi"])
        thr.append({"bid": name, "strength_50pct": crossing(xs, p, 0.5),
                    "strength_50pct_from": crossing(xs, phi, 0.5), "strength_50pct_to": crossing(xs, plo, 0.5),
                    "strength_break_even": crossing(xs, e, 0.0),
                    "break_even_from": crossing(xs, ehi, 0.0), "break_even_to": crossing(xs, elo, 0.0)})
    thresholds = rows_frame(thr, ["bid", "strength_50pct", "strength_50pct_from", "strength_50pct_to",
                                  "strength_break_even", "break_even_from", "break_even_to"])
    tables = StudyTables({"chart": chart, "expected": expected, "expected_by_strength": by_strength,
                          "thresholds": thresholds})
    tables.meta("chart").note = (
        f"bid_up_to / nt_up_to = the highest plain / NT bid whose expected hand score is positive "
        f"('_sure': its 95% interval is above 0; 'pass': none); trump by {trump_rule}; strength = "
        f"{STRENGTH_NAME}.  best_bid = highest mean score: a made bid scores the raw points "
        "whatever the level, so the lowest bid that is allowed is always at least as good, and the "
        "useful answer in a contested auction is how high to go (bid_up_to).  clear = the 95% "
        "interval of best_bid's margin over the runner-up excludes 0.  The limits (bid_up_to, nt_up_to, "
        "limit_level, up_to_expected, the '_sure' judgements, settled) use all the cell's hands "
        "(n): each tests one bid's sign, so no winner's curse.  The best bid is the largest of "
        "many means, so it is chosen on one half and measured on the other (no winner's curse): "
        "best_bid and runner_up are chosen on the even-numbered deals (n_select hands); "
        "expected, lo, hi, p_make, margin and clear come from the odd-numbered deals (n_report "
        "hands).  Intervals clustered by deal")
    if low.any():
        tables.meta("chart").note += (
            "; low NT bids (-low) are played in low no trump: candidates for best_bid, not for the limits")
    tables.meta("expected").note = "every bid of each cell on all its hands; 95% intervals clustered by deal"
    tables.meta("thresholds").note = (
        f"strength ({STRENGTH_NAME}) at which the bid makes 50% of the time / its "
        "expected score crosses 0, interpolated between count values (steps of 1/2); "
        "from/to: where the upper / lower 95% band (clustered by deal) crosses (NaN: never "
        "within the data); all hands" + ("; low NT bids are left out: they pay with weak hands, not strong ones "
                                        "(expected_by_strength has them)" if low.any() else ""))
    tables.meta("expected_by_strength").note = (
        "expected hand score of every bid by strength, all trump lengths; "
        "clustered by deal")
    return tables


#: the mark after an unsettled limit, by :func:`unsettled_reason`
UNSETTLED_MARKS = {"": "", "few hands": "?", "boundary": "≈", "model": "*"}
UNSETTLED_WORDS = ("? = not settled for want of hands: the 95% intervals do not show that bid paying and the "
                   "next one up losing, so a larger run may move it by a level; "
                   "≈ = on the boundary: a bid involved scores within ±0.05 points of 0 on average, so no run "
                   "settles it (either level is as good); * = settled by the deals but not by the table-play "
                   "model's own error (a model fitted on more played deals would settle it)")


def limit_mark(row, nt: bool = False) -> str:
    """The mark of a chart row's plain (or NT) limit: '' when settled, else
    by :data:`UNSETTLED_MARKS` (a chart without reasons: '?')."""
    if bool(row["nt_settled" if nt else "settled"]):
        return ""
    return UNSETTLED_MARKS.get(str(row.get("nt_why" if nt else "why", "few hands") or "few hands"), "?")


def settled_share(chart) -> tuple[int, int]:
    """``(settled, limits)``: the chart's settled limits, plain and NT, of its filled cells."""
    if chart is None or len(chart) == 0:
        return 0, 0
    return int(chart["settled"].astype(bool).sum() + chart["nt_settled"].astype(bool).sum()), 2 * len(chart)


def _grid_figure(chart, footer: str, title: str, measure: str):
    """The chart as a grid of cells (count band x trump length), each cell
    coloured by its highest plain bid (one colour a level) and labelled
    with its plain and NT limits; vector patches (no image); ``footer``: the
    chart table's."""
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib import colormaps

    foot = (footer + f". Cell: highest plain bid and highest NT bid whose expected hand score "
            f"(declaring side, {measure}) is positive, on the cell's n hands; ?, ≈, * = "
            "not settled (see the cheat sheet)")
    rows = list(STRENGTH_LEVELS)
    cols = list(LENGTH_LEVELS)
    grid = np.full((len(rows), len(cols)), np.nan)
    fig, ax = new_figure(title, "length of the trump suit (longest suit)", "Kaiser count (see the note)", foot,
                         figsize=(8, 6), intervals=False)
    ax.grid(False)
    levels = np.arange(5, 13)  # 5 = pass, 6..12 the bids
    cmap = ListedColormap(colormaps["YlGn"](np.linspace(0.08, 0.92, len(levels))))
    norm = BoundaryNorm(np.append(levels, 13) - 0.5, cmap.N)
    for _, r in chart.iterrows():
        i, j = rows.index(str(r["strength"])), cols.index(str(r["trump_len"]))
        grid[i, j] = r["limit_level"]
        plain = ("pass" if r["bid_up_to"] == "pass" else f"up to {r['bid_up_to']}")
        plain += f" {limit_mark(r)}".rstrip()
        nt = f"NT: {r['nt_up_to']} {limit_mark(r, True)}".rstrip()
        ax.text(j, i, f"{plain}\n{nt}\nn={r['n']:,}", ha="center",
                va="center", fontsize=8, color="white" if r["limit_level"] >= 10 else "black")
    mesh = ax.pcolormesh(np.arange(len(cols) + 1) - 0.5, np.arange(len(rows) + 1) - 0.5,
                         np.ma.masked_invalid(grid), cmap=cmap, norm=norm, edgecolors="white", linewidth=1.5)
    ax.set_xlim(-0.5, len(cols) - 0.5)
    ax.set_ylim(-0.5, len(rows) - 0.5)
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    bar = fig.colorbar(mesh, ax=ax, ticks=levels, label="highest plain bid with positive expected score (5 = pass)")
    bar.solids.set_rasterized(False)
    return fig


def plot(tables) -> dict:
    chart = tables["chart"]
    foot = tables.meta("chart").footer
    figs = {}
    if "chart_table_play" in tables:
        figs["what_to_bid"] = _grid_figure(tables["chart_table_play"], tables.meta("chart_table_play").footer,
                                           "What to bid at the table: the highest bid with "
                                           "a positive expected score", "table play")
        figs["what_to_bid_dd"] = _grid_figure(chart, foot, "What to bid, double dummy (the upper reference)",
                                              "double dummy")
    else:
        figs["what_to_bid"] = _grid_figure(chart, foot, "What to bid: the highest bid with a positive expected score",
                                           "double dummy")

    tp = "expected_by_strength_table_play" in tables
    ex_name = "expected_by_strength_table_play" if tp else "expected_by_strength"
    ex = tables[ex_name]
    fig, ax = new_figure(f"Expected hand score by bid and strength ({'table play' if tp else 'double dummy'})", "bid",
                         "expected score of the declaring side (points)", tables.meta(ex_name).footer)
    order = list(dict.fromkeys(ex["bid"]))
    colors = ordered_colors(STRENGTH_LEVELS)
    rank = {lv: i for i, lv in enumerate(STRENGTH_LEVELS)}
    groups = sorted(ex.groupby("strength", observed=True), key=lambda kv: -rank.get(str(kv[0]), -1))
    for sb, g in groups:  # strongest first, as the lines lie from top to bottom
        g = g.set_index("bid").reindex(order)
        line, = ax.plot(range(len(order)), g["mean"], marker="o", markersize=3, label=str(sb), color=colors.get(str(sb)))
        ax.fill_between(range(len(order)), g["lo"], g["hi"], color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_xticks(range(len(order)), order, rotation=60, fontsize=CHART_TYPE)
    ax.axhline(0, color="0.5", linewidth=0.8)
    legend(ax, title="Kaiser count")
    figs["expected_by_bid"] = fig
    return figs


# --- the report -------------------------------------------------------------------------------


def _nt_words(meta: TableMeta) -> str:
    """``"; NT scoring under these rules: ..."`` (the NT limits depend on it; ``meta``: a chart table's)."""
    words = nt_scoring_words(meta.extra.get("scoring"))
    return f"; {words.rstrip('.')}" if words else ""


def _chart_rows(ch) -> pd.DataFrame:
    rows = []
    for _, r in ch.iterrows():
        # no bid pays (plain and NT limits both 'pass'): the best bid is to pass, whatever
        # the least-losing bid scored (the study's CSV keeps it as best_bid)
        passes = r["bid_up_to"] == "pass" and r["nt_up_to"] == "pass"
        rows.append({"count": str(r["strength"]), "trumps": str(r["trump_len"]), "n": count(r["n"]),
                     "bid up to": r["bid_up_to"], "sure up to": r["bid_up_to_sure"], "NT up to": r["nt_up_to"],
                     "best bid": "pass" if passes else r["best_bid"], "its n": count(r["n_report"]),
                     "its score": "-" if passes else ci(r["expected"], r["lo"], r["hi"], 2),
                     "P(make) %": "-" if passes else num(100 * r["p_make"], 0)})
    return frame(rows)


def section(tables) -> tuple[list, list[str], list[str]]:
    """This study's report section, as :mod:`~kaiser_sim.studies.blocks` describes."""
    t, key = tables, KEY
    tp = "chart_table_play" in t
    ch_name = "chart_table_play" if tp else "chart"
    ch = t[ch_name]
    th = t["thresholds_table_play" if tp else "thresholds"]
    trows = [{"bid": r["bid"], "count for 50% makes": ci(r["strength_50pct"], r["strength_50pct_from"], r["strength_50pct_to"], 1),
              "count for break-even": ci(r["strength_break_even"], r["break_even_from"], r["break_even_to"], 1)}
             for _, r in th.iterrows()]
    blocks = [Table(f"{key}-chart", "How high to bid, by strength and trump length" + (" (table play)" if tp else ""),
                    _chart_rows(ch),
                    "bid/NT up to: highest bid with a positive expected score on the cell's n hands; sure: the highest "
                    "bid up to it whose 95% interval is above 0; best bid: highest expected score on the "
                    "even-numbered deals, with its score, interval and P(make) measured on the odd-numbered deals "
                    "(its n: their hands), so that choosing the best of many does not flatter it; pass: no bid, "
                    "plain or NT, has a positive expected score"
                    + ("; table play: each hand's double-dummy points through the table-play model (appendix)"
                       if tp else "") + _nt_words(t.meta(ch_name))),
              Table(f"{key}-thresholds", "Strength needed for each bid (all trump lengths)" + (", table play" if tp else ""),
                    frame(trows),
                    "interpolated between counts (steps of ½); in brackets where the 95% band crosses; - never in the data")]
    net = t.get("net_chart")
    if net is not None and len(net):
        net_meta = t.meta("net_chart")
        blocks.insert(0, Table(f"{key}-net-chart", "The table card's limits, net of the opponents: each bid if you "
                               "declare it, and against passing (first to call)", net_rows(net),
                               "card: up to: the highest bid whose net value if declared (your side's score minus "
                               "the opponents' points) is positive, with that net and the next bid's; "
                               f"{net_meta.note}; n: the card's hands (every seat of every deal, "
                               f"{net_meta.extra.get('declare_deals', 0):,} deals, four a deal{top_up_words(net_meta)}); "
                               "n played out: the "
                               f"hands against passing (every seat of the first {net_meta.extra.get('deals', 0):,} "
                               "deals; · where fewer than the cell's minimum); worth over pass: the bid's net "
                               "value minus passing's, paired on the same deals" + _nt_words(t.meta("chart"))))
    if tp:
        blocks.append(Table(f"{key}-chart-dd", "How high to bid, double dummy (the upper reference)",
                            _chart_rows(t["chart"]), "the same chart with every card visible and best play"
                            + _nt_words(t.meta("chart"))))
    text = ["A made bid scores the points taken whatever the level, so the cheapest allowed bid is always at "
            "least as good as a higher one: the chart answers how high you can go when the auction pushes "
            "you. Bid up to the level shown; beyond it the average hand loses points."]
    if tp:
        text.append("The chart is in table play (players who see only their own hand); the double-dummy chart, "
                    "with every card visible, is the upper reference and reads about a bid higher.")
    return blocks, text, ["what_to_bid", "what_to_bid_dd", "expected_by_bid"]


#: the words of the table card's count (its whole numbers, :data:`CARD_COUNT`)
CARD_COUNT_WORDS = ("trump A 4, K 2, Q 1; each trump 2; side-suit A 2, K 1; 5♥ 1; 3♠ 3 (trump: your longest suit; "
                    "of two as long, the one with more high cards)")


def net_mark(row, prefix: str = "declare_") -> str:
    """The mark of a net chart row's card limit (``prefix="declare_"``) or its
    limit against passing (``prefix=""``): '' when settled, else by
    :data:`UNSETTLED_MARKS`."""
    if bool(row[f"{prefix}settled"]):
        return ""
    return UNSETTLED_MARKS.get(str(row.get(f"{prefix}why") or "few hands"), "?")


def card_limit(row) -> str:
    """A net chart row's limit on the table card, with its mark."""
    return f"{row['declare_limit']}{net_mark(row)}"


def card_grid(tables):
    """``(grid, name, net)``: the table card's grid as printed (a row per
    count band in the card's whole numbers, a column per trump length), the
    name of the chart it is read from and whether that is the net chart
    (each bid against passing, net of the opponents) or, where the run has
    none, the declaring side's score alone."""
    net = tables.get("net_chart")
    use_net = net is not None and len(net) > 0
    name = "net_chart" if use_net else "chart_table_play" if "chart_table_play" in tables else "chart"
    ch = tables[name]
    cells = {(str(r["strength"]), str(r["trump_len"])): r for _, r in ch.iterrows()}
    standard = bool(tables.meta(name).extra.get("standard_deck", True))  # another deck or hand size: no cell called impossible
    rows = []
    for label, _, _ in reversed(STRENGTH_BUCKETS):
        row = {"count": card_band(label), "(report)": label.replace(".5", "½")}
        for lb, _, _ in LENGTH_BUCKETS:
            r = cells.get((label, lb))
            if standard and not possible_cell(label, lb):
                cell = "impossible"
            elif r is None:
                cell = "·"
            elif use_net:
                cell = card_limit(r)
            else:
                cell = f"{r['bid_up_to']}{limit_mark(r)}"
            row[f"{lb} trumps"] = cell
        rows.append(row)
    return frame(rows), name, use_net


def table_card(tables) -> list:
    """The table card's grid: how high to open, by the card's whole-number
    count and trump length; one limit a cell, judged against passing net of
    the opponents (the net chart), impossible cells marked."""
    grid, name, use_net = card_grid(tables)
    ch = tables[name]
    measure = tables.meta(name).extra.get("measure", "table play" if "chart_table_play" in tables else "double dummy")
    measure = "table play" if "table play" in str(measure) else "double dummy"
    if use_net:
        settled = int(ch["declare_settled"].astype(bool).sum())
        limits = len(ch)
        what = (f"Cell: the highest bid whose net value, if you declare it, is positive: your side's score for the "
                f"hand minus the opponents' points ({measure}). Judged against passing instead, the answer depends "
                "on how the other players bid: the bidding-chart section gives it against a bidding model. ")
    else:
        settled, limits = int(ch["settled"].astype(bool).sum()), len(ch)
        what = (f"Cell: the highest plain bid whose average score for the declaring side is positive ({measure}); "
                "the net of the opponents needs the net chart, which this run lacks. ")
    return [Text("Count your hand: " + CARD_COUNT_WORDS, "box"),
            Text(f"How high to bid ({measure}, net of the opponents)" if use_net else
                 f"How high to bid ({measure}, your side's score only)", "heading"),
            Table("cheat-what-to-bid", "", grid, size=12, note=
                  what + "8NT: up to 8 no trump; pass: no bid nets more than 0; impossible: no hand has that count with "
                  "that many trumps; ·: too few hands in this run; ? not settled for want of hands, ≈ on the "
                  f"boundary (next page). Settled: {settled}/{limits} limits. "
                  + (nt_scoring_words(tables.meta("chart").extra.get("scoring")) + " " if "chart" in tables else "")
                  + "(report): the Kaiser count of the other pages (the card's count = 2 × it − 1).")]


def cheat_sheet(tables) -> list:
    """The cheat sheet's lines after the table card: how the card's grid is
    made and read (its settled share, the marks), and the declaring side's
    own limits beside it."""
    bt = tables
    tp = "chart_table_play" in bt
    ch_name = "chart_table_play" if tp else "chart"
    ch = bt[ch_name]
    net = bt.get("net_chart")
    settled, limits = settled_share(ch)
    share = f"{100 * settled / limits:.0f}%" if limits else "none filled"
    words = []
    if net is not None and len(net):
        ns = int(net["declare_settled"].astype(bool).sum())
        words.append(f"The table card's limits come from the net chart of the bidding-chart section: for each cell, "
                     f"the highest bid whose net value if you declare it (your side's score minus the opponents' "
                     f"points) is positive; settled when its 95% interval lies above 0 and the next bid's below "
                     f"(settled: {ns}/{len(net)} cells). Against passing, the net chart plays the rest of the auction "
                     f"out with the {bt.meta('net_chart').extra.get('bidders', 'ev')} bidding model; that model overcalls whenever its "
                     "own bid pays, which makes both pre-empts and passing look better than against careful "
                     "players, so the card does not rest on it.")
    words.append(f"The bidding chart also gives, for the declaring side's own score (the opponents' not subtracted), "
                 f"the highest plain and NT bid whose average score is positive: settled {settled}/{limits} limits "
                 f"({share}). " + UNSETTLED_WORDS
                 + (" (the edition, reports/sample/, is made from two million deals: make sample). "
                    if bt.meta(ch_name).run.get("n", 0) < EDITION_DEALS else ". ")
                 + "The card's count is the report's Kaiser count (trump A 2 K 1 Q ½, side A 1 K ½, 1 a trump, 5♥ ½, "
                 "3♠ 1½, +½) doubled, less 1: the same hands in whole numbers.")
    return [Text("The table card's grid, read", "heading")] + [Text(w, "note") for w in words]


def card_hands(row) -> str:
    """A net chart row's hands behind the card's limit as printed: the run's,
    plus ``+ k`` the hands of the deals dealt to the cell."""
    dealt = int(row.get("declare_dealt", 0) or 0)
    if not dealt:
        return count(row["declare_n"])
    return f"{count(int(row['declare_n']) - dealt)} + {count(dealt)}"


def top_up_words(meta) -> str:
    """The note's words on the deals dealt to the rarest cells ('' when none were)."""
    dealt = int(meta.extra.get("dealt_deals", 0) or 0)
    if not dealt:
        return ""
    return ("; a + b: the run's a hands and b more from deals dealt to the rarest cells, raising them to one "
            "level (the cell's hand drawn from every hand of the cell, the other cards dealt at random, weak hands "
            "redealt as in the run: the same cell as the run's hands, one deal a hand; only the card's columns "
            "read them)")


def net_rows(net) -> pd.DataFrame:
    """The net chart as printed: a row per cell (every column: the study's net_chart.csv)."""
    rows = []
    for _, r in net.iterrows():
        played = bool(r["limit"])  # the first net_deals deals give the cell enough hands to play the auction out
        rows.append({"count": card_band(str(r["strength"])), "(report)": str(r["strength"]),
                     "trumps": str(r["trump_len"]), "n": card_hands(r), "card: up to": card_limit(r),
                     "its net if declared": "-" if r["declare_limit"] == "pass" else ci(
                         r["declare_net"], r["declare_lo"], r["declare_hi"], 2),
                     "the next bid's": ci(r["declare_next_net"], r["declare_next_lo"], r["declare_next_hi"], 2),
                     "n played out": count(r["n"]),
                     "vs passing: up to": f"{r['limit']}{net_mark(r, '')}" if played else "·",
                     "its worth over pass": "-" if r["limit"] in ("pass", "") else ci(r["worth"], r["worth_lo"],
                                                                                      r["worth_hi"], 2)})
    return frame(rows)
