"""Deals dealt to a cell of hands: the table card's rarest cells topped up (issue 43, item 7).

The card's limit of a cell is a mean over the hands of that cell (a count band x trump length).  A cell that
one deal in ten thousand reaches is filled by dealing deals to it: N's hand drawn from every hand of the cell,
the other cards at random.  These tests check the pieces against plain enumerations and sums, and the claim the
pooling rests on: the dealt hands are the run's hands of the cell (the same distribution).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from kaiser_sim.cards import DECK_32
from kaiser_sim.deal import deal_batch, deals_with_hands, weak_hands
from kaiser_sim.hands import every_hand, strength, suit_lengths, trump_by_rule
from kaiser_sim.rules import STANDARD, get_preset
from kaiser_sim.studies.bidding_chart import (card_hands, hands_by_cell, possible_cell, top_up_refusal,
                                              topped_up_frame, water_level)
from kaiser_sim.studies.common import LENGTH_BUCKETS, STRENGTH_BUCKETS, bucket


def test_water_level_raises_the_fewest_handed_cells_to_one_level():
    assert water_level({"a": 0, "b": 10, "c": 100}, 30) == {"a": 20, "b": 10, "c": 0}
    assert water_level({"a": 5, "b": 5}, 3) in ({"a": 2, "b": 1}, {"a": 1, "b": 2})
    assert water_level({"a": 5, "b": 50}, 0) == {"a": 0, "b": 0}
    rng = np.random.default_rng(3)
    for _ in range(200):
        counts = {i: int(c) for i, c in enumerate(rng.integers(0, 1000, size=rng.integers(1, 12)))}
        budget = int(rng.integers(0, 5000))
        added = water_level(counts, budget)
        assert sum(added.values()) == budget and min(added.values()) >= 0
        after = {c: counts[c] + added[c] for c in counts}
        raised = [after[c] for c in counts if added[c]]
        if raised:  # the raised cells end within one hand of each other, and no cell left alone is below them
            assert max(raised) - min(raised) <= 1
            assert all(counts[c] >= min(raised) for c in counts if not added[c])


def test_every_hand_is_every_8_card_hand_once():
    hands = every_hand()
    assert hands.size == math.comb(32, 8) == len(np.unique(hands))
    assert (np.bitwise_count(hands) == 8).all() and not (hands & ~DECK_32).any()


def test_the_cells_hold_their_hands_and_only_the_possible_cells_hold_any():
    pools = hands_by_cell()
    assert sum(p.size for p in pools.values()) == math.comb(32, 8)
    rng = np.random.default_rng(5)
    for (band, length), pool in pools.items():
        assert (pool.size > 0) == possible_cell(band, length), (band, length)
        if pool.size:
            h = pool[rng.integers(0, pool.size, size=min(pool.size, 500))]
            trump = trump_by_rule(h)
            assert (np.asarray(bucket(strength(h, trump), STRENGTH_BUCKETS)) == band).all()
            assert (np.asarray(bucket(suit_lengths(h)[np.arange(h.size), trump], LENGTH_BUCKETS)) == length).all()


def test_deals_with_hands_deal_the_rest_at_random_and_reproducibly():
    pool = deal_batch(7, 3)[:, 0]
    deals = deals_with_hands(pool, 14_000, 11, STANDARD, redeal_weak=True)
    assert deals.shape == (14_000, 4)
    assert (np.bitwise_count(deals) == 8).all() and ((deals[:, 0] | deals[:, 1] | deals[:, 2] | deals[:, 3]) == DECK_32).all()
    assert not (deals[:, 0] & (deals[:, 1] | deals[:, 2] | deals[:, 3])).any()
    assert np.isin(deals[:, 0], pool).all()
    _, n = np.unique(deals[:, 0], return_counts=True)
    assert n.size == 7 and abs(n - 2000).max() < 200  # uniform over the pool (sd about 38)
    assert not weak_hands(STANDARD, deals).any()
    assert (deals_with_hands(pool, 14_000, 11, STANDARD, redeal_weak=True) == deals).all()
    assert not (deals_with_hands(pool, 14_000, 12, STANDARD, redeal_weak=True) == deals).all()
    # each free card goes to E, S and W alike
    free = [c for c in range(64) if int(DECK_32) >> c & 1]
    h = deals[deals[:, 0] == pool[0]]
    for c in free:
        if not int(pool[0]) >> c & 1:
            share = [((h[:, s] >> np.uint64(c)) & np.uint64(1)).mean() for s in (1, 2, 3)]
            assert max(abs(x - 1 / 3) for x in share) < 0.06


def test_deals_with_hands_refuse_what_they_cannot_deal():
    pool = deal_batch(2, 3)[:, 0]
    for preset in ("kitty-4", "kitty-34"):
        with pytest.raises(ValueError, match="kitty"):
            deals_with_hands(pool, 3, 1, get_preset(preset))
    with pytest.raises(ValueError, match="empty"):
        deals_with_hands(pool[:0], 3, 1, STANDARD)
    with pytest.raises(ValueError, match="8 cards"):
        deals_with_hands(np.array([7], dtype=np.uint64), 3, 1, STANDARD)
    assert top_up_refusal(STANDARD.replace(cover3=True), {"seed": 1}) and top_up_refusal(get_preset("low-nt"), {"seed": 1})
    assert top_up_refusal(STANDARD, {"seed": 1, "fixed": {}}) == ""
    assert top_up_refusal(STANDARD, {"seed": 1, "fixed": {"N": "AS"}}) and top_up_refusal(STANDARD, {})


def test_dealt_hands_are_the_cells_hands_of_random_deals():
    """The pooling's premise: a common cell's hands of random deals and the hands dealt to it have the same
    distribution, so the same mean double-dummy points (here N declaring on lead, trump by rule and NT)."""
    from kaiser_sim.game import dd_contracts

    cell = ("6.5-7", "3")
    dealt = topped_up_frame({cell: 1500}, STANDARD, "longest-strength", 21, True)
    assert len(dealt) == 1500 and (dealt["deal"] < 0).all() and dealt["deal"].is_unique
    assert (dealt["strength_bucket"].astype(str) == cell[0]).all() and (dealt["length_bucket"].astype(str) == cell[1]).all()
    deals = deal_batch(20_000, 22)
    deals = deals[~weak_hands(STANDARD, deals).any(axis=1)]
    h = deals[:, 0]
    trump = trump_by_rule(h)
    keep = ((np.asarray(bucket(strength(h, trump), STRENGTH_BUCKETS)) == cell[0])
            & (np.asarray(bucket(suit_lengths(h)[np.arange(h.size), trump], LENGTH_BUCKETS)) == cell[1]))
    run, t = deals[keep][:1500], trump[keep][:1500]
    m = len(run)
    assert m > 1000
    pts = dd_contracts(np.concatenate([run, run]), np.zeros(2 * m, dtype=np.int64),
                       np.concatenate([t, np.full(m, 4)]), STANDARD, "points").astype(float)
    for col, ref in (("trump_pts", pts[:m]), ("nt_pts", pts[m:])):
        got = dealt[col].to_numpy(dtype=float)
        se = math.sqrt(got.var() / got.size + ref.var() / ref.size)
        assert abs(got.mean() - ref.mean()) < 4 * se, (col, got.mean(), ref.mean(), se)
    # and each dealt row's values are its deal's, solved again another way (all five strains of N on lead)
    from kaiser_sim.game import dd_strains
    again = topped_up_frame({cell: 40}, STANDARD, "longest-strength", 21, True)
    first = deals_with_hands(hands_by_cell()[cell], 40, _cell_seed(21, cell), STANDARD, True)
    table = dd_strains(first, 0, STANDARD, "points")
    tr = trump_by_rule(first[:, 0])
    assert (again["trump_pts"].to_numpy() == table[np.arange(40), tr]).all()
    assert (again["nt_pts"].to_numpy() == table[:, 4]).all()


def _cell_seed(seed, cell):
    keys = [(sb[0], lb[0]) for sb in STRENGTH_BUCKETS for lb in LENGTH_BUCKETS]
    return int(np.random.SeedSequence([int(seed), 0x746F70, keys.index(cell)]).generate_state(1, dtype=np.uint64)[0] >> 1)


def test_the_card_pools_the_dealt_hands_with_the_runs(tmp_path):
    """A run's net chart with its rarest cells topped up: each cell's net if declared is the plain mean over
    the run's hands of the cell and the dealt ones, the printed n says which are which, and a cell no deal
    of the run reached appears."""
    from kaiser_sim.runs.results import load_run
    from kaiser_sim.runs.simulate import simulate
    from kaiser_sim.studies.bidding_chart import _stand_net, net_chart, net_rows
    from kaiser_sim.studies.common import declarer_frame, table_play_model

    simulate(tmp_path / "r", 200, 9, mode="points", workers=1)
    rr = load_run(tmp_path / "r")
    net, meta = net_chart(rr.frame, STANDARD, min_cell=30, net_deals=40, top_up=10.0, run=rr.metadata)
    assert meta.extra["dealt_deals"] == 2000 and int(net["declare_dealt"].sum()) > 1500
    plain, _ = net_chart(rr.frame, STANDARD, min_cell=30, net_deals=40)
    assert int(plain["declare_dealt"].sum()) == 0 and len(net) > len(plain)
    cells = lambda t: set(zip(t["strength"].astype(str), t["trump_len"].astype(str)))  # noqa: E731
    assert cells(plain) < cells(net)  # cells no hand of the run reached (or too few) appear
    d = declarer_frame(rr.frame, STANDARD)
    keys = [(sb[0], lb[0]) for sb in STRENGTH_BUCKETS for lb in LENGTH_BUCKETS if possible_cell(sb[0], lb[0])]
    have = d.groupby(["strength_bucket", "length_bucket"], observed=True).size()
    wanted = water_level({c: int(have.get(c, 0)) for c in keys}, 2000)
    dealt = topped_up_frame(wanted, STANDARD, "longest-strength", 9, True)
    both = pd.concat([d[dealt.columns], dealt], ignore_index=True)
    model, _ = table_play_model(STANDARD)
    checked = 0
    for _, row in net.iterrows():
        cell = (str(row["strength"]), str(row["trump_len"]))
        in_cell = both[(both["strength_bucket"].astype(str) == cell[0]) & (both["length_bucket"].astype(str) == cell[1])]
        assert len(in_cell) == row["declare_n"] and row["declare_dealt"] == wanted[cell]
        if row["declare_limit"] != "pass":
            lv = row["declare_limit"]
            value = _stand_net(in_cell, STANDARD, model, int(lv.replace("NT", "")), lv.endswith("NT")).mean()
            assert row["declare_net"] == pytest.approx(value)
            checked += 1
    assert checked
    printed = net_rows(net)
    topped = net["declare_dealt"].to_numpy() > 0
    assert all(" + " in n for n in printed["n"][topped]) and not any(" + " in n for n in printed["n"][~topped])
    assert card_hands({"declare_n": 1234, "declare_dealt": 34}) == "1,200 + 34"


def test_another_trump_rule_tops_up_the_cells_its_hands_reach(tmp_path):
    """With trump by strength the cells are those the hands reach under that rule, read from the hands (here
    the same cells as the default rule's), and the card's rows are cells the rule's hands reach."""
    from kaiser_sim.runs.results import load_run
    from kaiser_sim.runs.simulate import simulate
    from kaiser_sim.studies.bidding_chart import net_chart

    simulate(tmp_path / "r", 120, 4, mode="points", workers=1)
    rr = load_run(tmp_path / "r")
    net, meta = net_chart(rr.frame, STANDARD, "strongest", min_cell=30, net_deals=20, top_up=10.0, run=rr.metadata)
    assert meta.extra["dealt_deals"] == 1200
    pools = hands_by_cell("strongest")
    assert {c for c, p in pools.items() if p.size} == {c for c in pools if possible_cell(*c)}
    for _, row in net.iterrows():
        assert pools[(str(row["strength"]), str(row["trump_len"]))].size
