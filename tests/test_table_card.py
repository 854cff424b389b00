"""The table card (issue 43, item 1): its whole-number count, its impossible cells, its net limits."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from kaiser_sim.cards import DECK_32, SUIT_BITS
from kaiser_sim.hands import STRENGTH_BUCKETS, kaiser_count, strength, suit_lengths, trump_by_rule
from kaiser_sim.studies.bidding_chart import COUNT_RANGE_BY_LENGTH, card_grid, possible_cell, table_card
from kaiser_sim.rules import STANDARD
from kaiser_sim.studies.common import StudyTables, TableMeta
from kaiser_sim.studies.common import CARD_COUNT, LENGTH_BUCKETS, card_band, card_count

RANKS = {8: "A", 7: "K", 6: "Q"}


def _random_hands(n: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bits = [b for b in range(64) if int(DECK_32) >> b & 1]
    return np.array([sum(1 << int(b) for b in rng.choice(bits, 8, replace=False)) for _ in range(n)],
                    dtype=np.uint64)


def _naive_card_count(hand: int, trump: int) -> int:
    """The card's count added up card by card, from the card's own words (trump A 4, K 2, Q 1; 2 a trump; side
    A 2, K 1; 5H 1; 3S 3)."""
    total = 0
    for b in range(64):
        if not hand >> b & 1:
            continue
        suit, rank = divmod(b, SUIT_BITS)
        if suit == trump:
            total += 2 + {8: 4, 7: 2, 6: 1}.get(rank, 0)
        else:
            total += {8: 2, 7: 1}.get(rank, 0)
        if (suit, rank) == (1, 0):  # the 5H: rank index 0 of hearts
            total += 1
        if (suit, rank) == (0, 0):  # the 3S
            total += 3
    return total


def test_the_cards_count_is_twice_the_kaiser_count_less_one_in_whole_numbers():
    hands = _random_hands(400)
    trump = trump_by_rule(hands)
    k = kaiser_count(hands, trump)
    for h, t, c in zip(hands, trump, k):
        assert card_count(c) == _naive_card_count(int(h), int(t)) == 2 * c - 1
    assert all(isinstance(v, int) for v in CARD_COUNT.values())


def test_card_bands_are_the_report_bands_in_whole_numbers():
    assert [card_band(b[0]) for b in STRENGTH_BUCKETS] == [
        "7 or less", "8-9", "10-11", "12-13", "14-15", "16-17", "18-19", "20 or more"]


def test_impossible_cells_by_hand():
    """Six trumps hold one of A K Q (the suit has 8 cards, 5 below the Q): at least 7 (½ + 6 + ½); four trumps
    are 4½ at least: so a count of 4 or less has at most 3 trumps."""
    assert COUNT_RANGE_BY_LENGTH[6][0] == 7.0 and COUNT_RANGE_BY_LENGTH[4][0] == 4.5
    impossible = {(s[0], lb[0]) for s in STRENGTH_BUCKETS for lb in LENGTH_BUCKETS if not possible_cell(s[0], lb[0])}
    assert impossible == {("<=4", "4"), ("<=4", "5"), ("<=4", "6+"), ("4.5-5", "5"), ("4.5-5", "6+"),
                          ("5.5-6", "6+")}


def test_every_cell_random_hands_reach_is_possible():
    hands = _random_hands(3000, seed=11)
    trump = trump_by_rule(hands)
    count = strength(hands, trump)
    length = suit_lengths(hands)[np.arange(hands.size), trump]
    for c, L in zip(count, length):
        band = next(b[0] for b in STRENGTH_BUCKETS if b[1] <= c <= b[2])
        lb = next(b[0] for b in LENGTH_BUCKETS if b[1] <= L <= b[2])
        assert possible_cell(band, lb)
        lo, hi = COUNT_RANGE_BY_LENGTH[int(L)]
        assert lo <= c <= hi


@pytest.mark.slow
def test_count_ranges_from_every_hand():
    """All C(32, 8) hands, enumerated suit by suit: the range of counts of each trump length."""
    deck = int(DECK_32)
    suits = [[b for b in range(64) if deck >> b & 1 and b // SUIT_BITS == s] for s in range(4)]
    subsets = [{k: np.array([sum(1 << b for b in c) for c in itertools.combinations(suits[s], k)], dtype=np.uint64)
                for k in range(9)} for s in range(4)]
    seen: dict[int, set] = {}
    for a, b, c in itertools.product(range(9), repeat=3):
        d = 8 - a - b - c
        if not 0 <= d <= 8:
            continue
        h = (subsets[0][a][:, None, None, None] | subsets[1][b][None, :, None, None]
             | subsets[2][c][None, None, :, None] | subsets[3][d][None, None, None, :]).ravel()
        t = trump_by_rule(h)
        L = suit_lengths(h)[np.arange(h.size), t]
        k = strength(h, t)
        for length in np.unique(L):
            seen.setdefault(int(length), set()).update(np.unique(k[L == length]).tolist())
    assert {L: (min(v), max(v)) for L, v in seen.items()} == COUNT_RANGE_BY_LENGTH


def _net(rows, **extra):
    """A study's tables holding only a net chart of ``rows``, with its metadata."""
    meta = TableMeta(note="n", extra={"measure": "table play (PIMC model)", "bidders": "ev", "deals": 100, **extra})
    return StudyTables({"net_chart": pd.DataFrame(rows)}, {"net_chart": meta})


def test_the_grid_marks_impossible_cells_and_one_limit_each():
    net = _net([{"strength": "6.5-7", "trump_len": "4", "limit": "9", "settled": False, "why": "few hands",
                 "declare_limit": "8", "declare_settled": True, "declare_why": ""},
                {"strength": "<=4", "trump_len": "3", "limit": "7NT", "settled": True, "why": "",
                 "declare_limit": "pass", "declare_settled": False, "declare_why": "few hands"}])
    grid, _, use_net = card_grid(net)
    assert use_net
    row = grid.set_index("count")
    assert row.loc["12-13", "4 trumps"] == "8"
    assert row.loc["7 or less", "3 trumps"] == "pass?"
    assert row.loc["7 or less", "6+ trumps"] == "impossible"
    assert row.loc["7 or less", "2 trumps"] == "·"  # possible, and no hands here
    assert (grid == "impossible").to_numpy().sum() == 6
    blocks = table_card(net)
    assert blocks[0].style == "box" and "trump A 4" in blocks[0].text
    assert blocks[-1].size >= 10 and "Settled: 1/2 limits" in blocks[-1].note


# --- the net chart on a small solved run ------------------------------------------------------


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    import kaiser_sim
    from kaiser_sim.runs.simulate import simulate

    path = tmp_path_factory.mktemp("net") / "r"
    simulate(path, 150, 9, mode="points", workers=1)
    return kaiser_sim.load_results(path)


def test_the_cards_net_if_declared_by_hand(solved):
    """Each cell's card limit and its net value, against a plain per-hand sum: the declaring side's gain
    (kaiser_sim.scoring.declarer_gain) minus the opponents' points (10 less the side's), over the table-play
    model's distribution of the hand's points."""
    from kaiser_sim.rules import get_preset
    from kaiser_sim.scoring import declarer_gain
    from kaiser_sim.studies.bidding_chart import net_chart, net_rows
    from kaiser_sim.studies.common import declarer_frame, table_play_model
    from kaiser_sim.strategy.table_play import POINTS, band_index

    rules = get_preset("standard")
    net, meta = net_chart(solved, rules, min_cell=40, net_deals=60)  # the auction played out on 60 deals, the card on all
    assert len(net) and meta.extra["deals"] == 60 and meta.extra["declare_deals"] == len(solved) == 150
    first = declarer_frame(solved.iloc[:60], STANDARD)
    played = {(str(s), str(t)): n for (s, t), n in first.groupby(["strength_bucket", "length_bucket"], observed=True).size().items()}
    assert {r["limit"] == "" for _, r in net.iterrows()} == {True, False}  # cells of the card alone, and played out
    for _, r in net.iterrows():
        assert r["n"] == played.get((r["strength"], r["trump_len"]), 0)
        assert (r["limit"] == "") == (r["n"] < 40)
    printed = net_rows(net)  # a cell of the card alone prints its limit and "·" against passing
    alone = printed[(net["limit"] == "").to_numpy()]
    assert (alone["vs passing: up to"] == "·").all() and (alone["its worth over pass"] == "-").all()
    assert (printed["n"] == [f"{n:,}" for n in net["declare_n"]]).all()
    model, _ = table_play_model(rules)
    d = declarer_frame(solved, STANDARD)
    checked = 0
    for _, row in net.iterrows():
        hands = d[(d["strength_bucket"].astype(str) == row["strength"]) & (d["length_bucket"].astype(str) == row["trump_len"])]
        assert len(hands) == row["declare_n"]  # the card reads every deal of the run, not only the first 150

        def mean_net(level, nt):
            pts = hands["nt_pts" if nt else "trump_pts"].to_numpy()
            value = np.array([declarer_gain(rules, level, nt, int(p))[1] - (10 - int(p)) for p in POINTS], float)
            band = band_index(hands["strength"].to_numpy())  # the declaring hand's count band
            return float((model.dist(pts, nt, band) @ value).mean())

        ladder = [(lv, nt) for lv in range(6, 13) for nt in (False, True)]
        positive = [f"{lv}{'NT' if nt else ''}" for lv, nt in ladder if mean_net(lv, nt) > 0]
        assert row["declare_limit"] == (positive[-1] if positive else "pass")
        if positive:
            lv = row["declare_limit"]
            assert row["declare_net"] == pytest.approx(mean_net(int(lv.replace("NT", "")), lv.endswith("NT")))
            checked += 1
    assert checked


def test_no_cell_is_called_impossible_for_another_deck():
    """The impossible cells are those of 8 cards from the 32-card deck: a kitty game's card calls none so."""
    net = _net([{"strength": "6.5-7", "trump_len": "4", "limit": "9", "settled": True, "why": "",
                 "declare_limit": "8", "declare_settled": True, "declare_why": ""}], standard_deck=False)
    grid, _, _ = card_grid(net)
    assert not (grid == "impossible").to_numpy().any() and (grid == "·").to_numpy().sum() > 6
