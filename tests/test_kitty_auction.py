"""The auction's tables under a kitty and low no trump (issue 44): the auction
study's call chart, the heard chart and the bidding chart's net chart (each
call against passing) are computed under ``kitty-4``, ``kitty-34`` and
``low-nt``, with numbers that mean what they mean in the standard game.

- Under a kitty a run's points are the declaring side's with the kitty taken
  up and discarded best, every seat declaring (checked here against a direct
  solve).  With ``kitty-34`` the 5H and 3S may not be discarded, so the other
  side takes the rest of the total; with ``kitty-4`` (K1) the declarer may
  throw them away to nobody, and the defenders' points are solved through
  the door as the contracts are played out
  (:class:`kaiser_sim.studies.common.SolvedOther`).
- Under low no trump a low NT bid is played low: the run's low-NT column
  (:func:`kaiser_sim.studies.common.run_points` with ``low_nt``).

On a small run of each preset every table is computed (the code before this
change left them empty: "not computed") and its figures are recomputed by a
plain per-hand loop, as ``tests/test_cover3_auction.py`` does for cover 3:
the rest of the auction called one hand at a time by a bidding model whose
calls replay exactly (:class:`ByCount`, here also bidding low NT), the
contract's two sides' points from a direct solve of that (deal, declarer,
strain) through the door (:func:`kaiser_sim.game.contract_values`), the hand
scored by :func:`kaiser_sim.scoring.score_hand`.  Double dummy (the
table-play model turned off).  Each preset's checks also show the figure
could not come out by the old arithmetic: under ``kitty-4`` some figure
differs with the defenders at the rest of the total, under ``low-nt`` some
with the low NT contracts played high.  The standard game's three tables are
``tests/test_cover3_auction.py``'s (equal to the floats of commit 7eef499).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from kaiser_sim.auction import Contract, call_text
from kaiser_sim.deal import kitty_of
from kaiser_sim.game import LOW_NT, contract_values
from kaiser_sim.hands import STRENGTH_BUCKETS, aces, strength
from kaiser_sim.rules import get_preset
from kaiser_sim.runs.results import load_run
from kaiser_sim.scoring import score_hand
from kaiser_sim.strategy.call_worth import rules_words
from kaiser_sim.strategy.capabilities import refusal
from kaiser_sim.strategy.policies import ACTIONS, PASS, BidView, Policy, ladder_arrays, position_calls
from kaiser_sim.studies.common import bucket, hands_array, run_points

PRESETS = ("kitty-4", "kitty-34", "low-nt")
#: deals a run: a kitty-4 deal is about twenty slow solves (a Python loop over discards)
DEALS = {"kitty-4": 36, "kitty-34": 60, "low-nt": 160}
SEED = 4


class ByCount(Policy):
    """A bidding model replayed exactly hand by hand (integer rules of the hand): a bid by the Kaiser count
    alone (the cheapest level from 5.5, one more from 7, 8.5, 10), in NT with two aces or more from 7, in low NT
    (where the rules play it) with no ace from 5.5; passing when that is not above the bid so far (the dealer
    matching, or forced, at the cheapest legal bid); trump by rule (the default)."""

    name = "by-count"

    def bid(self, view):
        from kaiser_sim.strategy.policies import auction_limits

        lad = ladder_arrays(view.rules)
        count = strength(view.hands)
        base = view.rules.min_bid
        level = np.select([count >= 10, count >= 8.5, count >= 7, count >= 5.5], [base + 3, base + 2, base + 1, base],
                          0)
        n_aces = aces(view.hands)
        nt = (n_aces >= 2) & (count >= 7)
        low = (n_aces == 0) & (view.rules.low_nt == "bid")
        rank_of = {(int(lad.levels[r]), bool(lad.nt[r]), bool(lad.low[r])): r for r in range(len(lad))}
        want = np.array([rank_of.get((int(lv), bool(t or lo), bool(lo)), PASS) if lv else PASS
                         for lv, t, lo in zip(level, nt, low)])
        highest, min_rank, can_pass = auction_limits(view.calls, view.rules)
        fallback = np.where(can_pass, PASS, min_rank)
        return np.where((want != PASS) & (want >= min_rank), want, fallback).astype(np.int16)


POLICY = ByCount()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each preset's small run (simulated lazily, once)."""
    from kaiser_sim.runs.simulate import simulate

    made = {}

    def get(name):
        if name not in made:
            path = tmp_path_factory.mktemp("kca") / name
            simulate(path, DEALS[name], SEED, mode="points", rules=get_preset(name), workers=1)
            made[name] = load_run(path)
        return made[name]

    return get


@pytest.fixture
def double_dummy(monkeypatch):
    """The studies valued double dummy (no table-play model): the figures below are plain sums of DD scores."""
    import kaiser_sim.studies.bidding_chart as bidding_chart
    import kaiser_sim.studies.common as common

    off = lambda rules: (None, "off in this test")  # noqa: E731
    monkeypatch.setattr(common, "table_play_model", off)
    monkeypatch.setattr(bidding_chart, "table_play_model", off)


class Direct:
    """A direct solve of single contracts of a run's deals through the door, one at a time (memoized):
    ``(declaring side, defenders)``."""

    def __init__(self, frame, rules):
        self.rules = rules
        self.deals = hands_array(frame)
        self.kitties = kitty_of(self.deals, deck34=rules.deck34) if rules.kitty != "none" else None

    @functools.lru_cache(maxsize=None)
    def __call__(self, i: int, who: int, strain: int) -> tuple[int, int]:
        kit = None if self.kitties is None else self.kitties[i:i + 1]
        a, b = contract_values(self.deals[i:i + 1], kit, np.array([who]), np.array([strain]), self.rules)
        return int(a[0]), int(b[0])


def played_out(rules, direct, deal, dealer: int, before, k: int, rank: int, i: int) -> tuple[float, float, float]:
    """One hand by hand: ``rank`` made as call ``k`` after ``before``; the later seats call by the model one by
    one, the highest bid plays (the dealer's match takes it) in the model's strain (NT for NT, low NT for a
    low NT bid); its two sides' points from the direct solve.  ``(net, net with the defenders at the rest of
    the total, net with a low NT contract played high)``."""
    lad = ladder_arrays(rules)
    calls = list(before[:k]) + [rank]

    def view(seat):
        return BidView(np.array([deal[seat]], dtype=np.uint64), np.array([calls], dtype=np.int16), np.array([seat]),
                       np.array([dealer]), np.zeros((1, 2), dtype=np.int64), np.array([rules.target]), rules)

    for j in range(k + 1, 4):
        calls.append(int(POLICY.bid(view((dealer + 1 + j) % 4))[0]))
    best, who = PASS, -1
    for j, c in enumerate(calls):
        if c != PASS and c >= best:
            best, who = c, (dealer + 1 + j) % 4
    if best == PASS:
        return 0.0, 0.0, 0.0
    strain = (LOW_NT if lad.low[best] else 4) if lad.nt[best] else int(POLICY.trump(view(who), np.array([best]))[0])
    caller = (dealer + 1 + k) % 4

    def net(decl, dfd):
        res = score_hand(rules, Contract(lad.bids[best], who), decl, defender_raw=dfd)
        return float(res.delta[caller & 1] - res.delta[1 - (caller & 1)])

    decl, dfd = direct(i, who, strain)
    high = direct(i, who, 4) if strain == LOW_NT else (decl, dfd)
    return net(decl, dfd), net(decl, rules.raw_total - decl), net(*high)


def _bid(frame, rules):
    from kaiser_sim.studies.auction import bid_deals

    hands = hands_array(frame)
    dealers = frame["dealer"].to_numpy().astype(np.int64)
    return hands, dealers, bid_deals(hands, dealers, rules, POLICY)


def _differs(name, both) -> bool:
    """Does this figure tell the new scoring from the old arithmetic (kitty-4: the defenders at the rest of
    the total; low-nt: low NT played high)?"""
    col = {"kitty-4": 1, "low-nt": 2}.get(name)
    return col is not None and not np.isclose(both[:, 0].mean(), both[:, col].mean())


@pytest.mark.parametrize("name", PRESETS)
def test_the_runs_points_are_the_doors(runs, name):
    """The run's points are the declaring side's with every seat declaring (under a kitty, the kitty taken up
    and discarded best; under low NT with the low NT column), equal to the door's direct solve; under kitty-4
    the defenders' need not be the rest of the total (a special card discarded to nobody), and the accessor
    the tables read gives the door's there."""
    from kaiser_sim.studies.common import playout_sides

    rules = get_preset(name)
    frame = runs(name).frame.iloc[:6]
    direct = Direct(frame, rules)
    lead, other = playout_sides(frame, rules)
    strains = 6 if name == "low-nt" else 5
    assert lead.shape == (6, 4, strains)
    got = np.array([[[direct(i, s, t) for t in range(strains)] for s in range(4)] for i in range(6)])
    assert np.array_equal(lead, got[..., 0])
    if name == "kitty-4":
        assert np.array_equal(other[np.arange(6)[:, None, None], np.arange(4)[None, :, None],
                                    np.arange(5)[None, None, :]], got[..., 1])
        assert (got[..., 0] + got[..., 1] != rules.raw_total).any()
    else:
        assert other is None and np.array_equal(got[..., 1], rules.raw_total - got[..., 0])


@pytest.mark.parametrize("name", PRESETS)
def test_the_call_chart_by_hand(runs, name, double_dummy):
    """The call chart is computed; every action of the opener (position 1) and of the dealer facing a bid
    (position 4), cell by cell, is the mean of a plain per-hand play-out on the cell's odd deals."""
    from kaiser_sim.studies.auction import _situations, call_chart

    rules = get_preset(name)
    frame = runs(name).frame
    n = len(frame)
    direct = Direct(frame, rules)
    hands, dealers, calls = _bid(frame, rules)
    count_ = strength(hands.reshape(-1)).reshape(n, 4)
    chart, meta = call_chart(frame, rules, POLICY, calls, dealers, count_, 1)
    assert len(chart) and not refusal("call-chart", rules)
    assert meta.note.endswith(rules_words(rules, False)) and ("nobody" in meta.note) == (name == "kitty-4")
    _, before = _situations(calls, rules)
    odd = frame["deal"].to_numpy() % 2 == 1
    checked, differs = 0, False
    for position, situation, heard in ((1, "opens", before[:, 0] < 0), (4, "dealer facing a bid", before[:, 3] >= 0)):
        k = position - 1
        rows = chart[(chart["position"] == position) & (chart["situation"] == situation)]
        acts = position_calls(calls, k, rules)
        seat = (dealers + 1 + k) % 4
        band = np.asarray(bucket(count_[np.arange(n), seat], STRENGTH_BUCKETS), dtype=object)
        for _, row in rows.iterrows():
            compared = [j for j, a in enumerate(ACTIONS) if not np.isnan(row[f"net {a}"])]
            cell = np.flatnonzero(heard & odd & (band == row["count"]) & (acts[:, compared] != -2).all(axis=1))
            assert len(cell) == row["n"]
            for j in compared:
                both = np.array([played_out(rules, direct, hands[i], dealers[i], calls[i], k, acts[i, j], i)
                                 for i in cell])
                assert row[f"net {ACTIONS[j]}"] == pytest.approx(both[:, 0].mean(), rel=1e-12, abs=1e-12)
                differs |= _differs(name, both)
                checked += 1
    assert checked and (differs or name == "kitty-34")


@pytest.mark.parametrize("name", PRESETS)
def test_the_heard_chart_by_hand(runs, name, double_dummy):
    """The heard chart is computed; each row's best and runner-up are the means of a plain per-hand play-out
    on the odd deals of its count band."""
    from kaiser_sim.studies.common import card_band
    from kaiser_sim.studies.heard import HEARD, heard_chart

    rules = get_preset(name)
    frame = runs(name).frame
    n = len(frame)
    direct = Direct(frame, rules)
    chart, meta = heard_chart(frame, rules, bidders=POLICY, min_cell=1)
    assert len(chart)
    hands, dealers, calls = _bid(frame, rules)
    lad = ladder_arrays(rules)
    names = ["pass"] + [call_text(b) for b in lad.bids]
    words = np.array(names, dtype=object)[calls.astype(np.int64) + 1]
    odd = frame["deal"].to_numpy() % 2 == 1
    checked = 0
    for heard, position, before in HEARD:
        k = position - 1
        kept = (words[:, :k] == np.array(before, dtype=object)).all(axis=1)
        seat = (dealers + 1 + k) % 4
        band = np.array([card_band(b) for b in bucket(strength(hands[np.arange(n), seat]), STRENGTH_BUCKETS)],
                        dtype=object)
        for _, row in chart[chart["heard"] == heard].iterrows():
            cell = np.flatnonzero(kept & odd & (band == row["count"]))
            assert len(cell) == row["n"]
            for col, which in (("best_net", "best"), ("runner_net", "runner_up")):
                if not isinstance(row[which], str):
                    continue
                call = row[which].removeprefix("take it at ")
                rank = PASS if call == "pass" else names.index(call) - 1
                both = np.array([played_out(rules, direct, hands[i], dealers[i], calls[i], k, rank, i)
                                 for i in cell])
                assert row[col] == pytest.approx(both[:, 0].mean(), rel=1e-12, abs=1e-12)
                checked += 1
    assert checked


@pytest.mark.parametrize("name", PRESETS)
def test_the_net_chart_by_hand(runs, name, double_dummy):
    """The bidding chart's net chart is computed: each cell's net value of passing first (every seat of every
    deal the first to call, the later seats by the model) and the card's net if it declares its limit (its
    side's hand score minus the opponents' points) are plain per-hand means from the direct solve."""
    from kaiser_sim.studies.bidding_chart import net_chart
    from kaiser_sim.studies.common import declarer_frame, hand_score

    rules = get_preset(name)
    frame = runs(name).frame
    n = len(frame)
    direct = Direct(frame, rules)
    net, meta = net_chart(frame, rules, min_cell=1, net_deals=n, bidders=POLICY)
    assert len(net) and (net["limit"] != "").any()
    d = declarer_frame(frame, rules)
    hands = hands_array(frame)
    deal_i = np.repeat(np.arange(n), 4)
    seat = d["seat"].to_numpy()
    trump = d["trump"].to_numpy()
    none = np.full(4, PASS)
    checked, differs = 0, False
    for _, row in net.iterrows():
        cell = np.flatnonzero((d["strength_bucket"].astype(str) == row["strength"]).to_numpy()
                              & (d["length_bucket"].astype(str) == row["trump_len"]).to_numpy())
        assert len(cell) == row["n"] == row["declare_n"]
        both = np.array([played_out(rules, direct, hands[deal_i[r]], (seat[r] + 3) % 4, none, 0, PASS, deal_i[r])
                         for r in cell])
        assert row["net_pass"] == pytest.approx(both[:, 0].mean(), rel=1e-12, abs=1e-12)
        differs |= _differs(name, both)
        if row["declare_limit"] != "pass":
            lv, nt = int(row["declare_limit"].replace("NT", "")), row["declare_limit"].endswith("NT")
            s = np.where(nt, 4, trump[cell])
            sides = np.array([direct(int(deal_i[r]), int(seat[r]), int(t)) for r, t in zip(cell, s)])
            assert row["declare_net"] == pytest.approx(
                (hand_score(rules, lv, nt, sides[:, 0]) - sides[:, 1]).mean(), rel=1e-12)
            differs |= name == "kitty-4" and bool((sides.sum(axis=1) != rules.raw_total).any())
        checked += 1
    assert checked and (differs or name == "kitty-34")


def test_low_nt_is_played_and_the_standard_game_reads_as_before(runs):
    """The low-nt run's play-outs do play low NT contracts (the tests above then exercise the sixth strain),
    and in the standard game the tables read the same arrays as before: the declaring side's five strains and
    no other side's (the rest of the total, playout_net's default)."""
    from kaiser_sim.studies.common import playout_sides, results_run
    from kaiser_sim.strategy.call_worth import playout_net

    rules = get_preset("low-nt")
    frame = runs("low-nt").frame
    hands, dealers, calls = _bid(frame, rules)
    lad = ladder_arrays(rules)
    pts, other = playout_sides(frame, rules)
    top = calls.max(axis=1)
    assert other is None and lad.low[top[top >= 0]].any()
    playout_net(hands, dealers, calls, 3, calls[:, 3], rules, POLICY, pts)
    with pytest.raises(ValueError, match="low NT column"):
        playout_net(hands, dealers, calls, 3, calls[:, 3], rules, POLICY, pts[:, :, :5])
    standard = get_preset("standard")
    deals = hands[:8]
    points = np.arange(8 * 20).reshape(8, 4, 5) % 11
    lead, other = playout_sides(results_run(deals, points=points).frame, standard)
    assert other is None and np.array_equal(lead, run_points(results_run(deals, points=points).frame, standard)[0])


def test_kitty4_solves_are_shared_between_the_tables_of_one_run(runs):
    """The defenders' points solved for one table are not solved again for the next on the same run (the
    report's call chart, heard chart and net chart), and a different set of deals starts afresh."""
    from kaiser_sim.studies.common import playout_sides

    rules = get_preset("kitty-4")
    frame = runs("kitty-4").frame.iloc[:10]
    first = playout_sides(frame, rules)[1]
    before = first.solved
    got = first[np.arange(10), np.zeros(10, dtype=np.int64), np.full(10, 4)]
    assert first.solved > before
    again = playout_sides(frame, rules)[1]
    assert again.solved == first.solved
    assert np.array_equal(again[np.arange(10), np.zeros(10, dtype=np.int64), np.full(10, 4)], got)
    assert again.solved == first.solved
    assert playout_sides(frame.iloc[:5], rules)[1].solved == 0
