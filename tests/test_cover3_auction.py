"""The auction's tables under cover 3 (issue 44): the auction study's call
chart, the heard chart and the bidding chart's net chart (each call against
passing) are computed under cover 3, each side scored from its tricks.

Under cover 3 a side under 3 tricks scores its tricks (or -3 with the 3S),
so the two sides' points need not add to 10: ``playout_net`` reads both
(:func:`kaiser_sim.studies.common.run_points`).  On a small solved cover-3
run each table is computed, and figures of each are recomputed by a plain
per-hand loop: the rest of the auction called one hand at a time by the same
bidding model (:class:`ByCount`, whose calls replay exactly), the contract's
two sides' points from a direct solve of every (deal, leader, strain)
through the door (:func:`kaiser_sim.game.contract_values`, cover 3 scored),
the hand scored by :func:`kaiser_sim.scoring.score_hand`.  The
figures are double dummy (the table-play model turned off): table play
models the declaring side alone.  Each cover-3 test checks that the figure
differs from what the defenders' points as "10 less the declaring side's"
would give, so it cannot pass by scoring the old way.

The standard game is unchanged: ``other_points`` given as the rest of the
total changes no bit of ``playout_net``, and the three tables of a small
standard run equal the numbers the code before this change gave (recorded
below from commit 7eef499).
"""

from __future__ import annotations

import numpy as np
import pytest

from kaiser_sim import config
from kaiser_sim.auction import Contract, call_text
from kaiser_sim.game import contract_values
from kaiser_sim.hands import STRENGTH_BUCKETS, strength
from kaiser_sim.rules import get_preset
from kaiser_sim.runs.results import load_run
from kaiser_sim.scoring import score_hand
from kaiser_sim.strategy.call_worth import cover3_words, playout_net
from kaiser_sim.strategy.capabilities import refusal
from kaiser_sim.strategy.policies import ACTIONS, PASS, BidView, Policy, get_policy, ladder_arrays, position_calls
from kaiser_sim.studies.common import bucket, hands_array, points_array, run_points

STANDARD = get_preset("standard")
COVER3 = STANDARD.with_overrides(["cover3=true"])
N = 240
SEED = 5


def _run(tmp_path_factory, rules, name):
    from kaiser_sim.runs.simulate import simulate

    path = tmp_path_factory.mktemp("c3a") / name
    simulate(path, N, SEED, mode="points", rules=rules, workers=1)
    return load_run(path)


@pytest.fixture(scope="module")
def cover3_run(tmp_path_factory):
    return _run(tmp_path_factory, COVER3, "cover3")


@pytest.fixture(scope="module")
def standard_run(tmp_path_factory):
    return _run(tmp_path_factory, STANDARD, "standard")


@pytest.fixture(scope="module")
def direct(cover3_run):
    """``(declaring side, defenders)`` (n, 4, 5) of the cover-3 run's deals: every declarer and strain solved
    through the door one contract at a time (cover 3 scored), not read from the run."""
    deals = hands_array(cover3_run.frame)
    n = deals.shape[0]
    decl, dfd = contract_values(deals[np.repeat(np.arange(n), 20)], None, np.tile(np.repeat(np.arange(4), 5), n),
                                np.tile(np.arange(5), 4 * n), COVER3)
    return decl.reshape(n, 4, 5), dfd.reshape(n, 4, 5)


@pytest.fixture
def double_dummy(monkeypatch):
    """The studies valued double dummy (no table-play model): the figures below are plain sums of DD scores."""
    import kaiser_sim.studies.bidding_chart as bidding_chart
    import kaiser_sim.studies.common as common

    off = lambda rules: (None, "off in this test")  # noqa: E731
    monkeypatch.setattr(common, "table_play_model", off)
    monkeypatch.setattr(bidding_chart, "table_play_model", off)


LAD = ladder_arrays(COVER3)


class ByCount(Policy):
    """A bidding model made to be replayed hand by hand: a bid by the Kaiser count alone (6 from 5.5, 7 from 7,
    8 from 8.5, 9 from 10; NT with two aces or more from 7), passing when it is not above the bid so far (the dealer
    matching, or forced to bid, at the cheapest legal bid); trump by rule (the default).  The population model's
    calls hang on floating sums that can round apart between a batch and one row (its make model's bins), so a
    per-hand replay of its auctions is not exact; this one's calls are integer rules of the hand."""

    name = "by-count"

    def bid(self, view):
        from kaiser_sim.hands import aces
        from kaiser_sim.strategy.policies import auction_limits

        count = strength(view.hands)
        level = np.select([count >= 10, count >= 8.5, count >= 7, count >= 5.5], [9, 8, 7, 6], 0)
        nt = (aces(view.hands) >= 2) & (count >= 7)
        rank_of = {(int(LAD.levels[r]), bool(LAD.nt[r])): r for r in range(len(LAD)) if not LAD.low[r]}
        want = np.array([rank_of.get((int(lv), bool(t)), PASS) if lv else PASS for lv, t in zip(level, nt)])
        highest, min_rank, can_pass = auction_limits(view.calls, view.rules)
        fallback = np.where(can_pass, PASS, min_rank)
        return np.where((want != PASS) & (want >= min_rank), want, fallback).astype(np.int16)


POLICY = ByCount()
POPULATION = get_policy(config.AUCTION_BIDDERS)  # the edition's bidders: the standard game's tables below


def played_out(deal, dealer: int, before, k: int, rank: int, direct_pts, i: int) -> tuple[float, float]:
    """One hand by hand: ``rank`` made as call ``k`` after ``before``; the later seats call by the bidding model
    one by one, the highest bid plays (the dealer's match takes it) in the model's strain (NT for NT); its two
    sides' points from the direct solve.  ``(net, net with the defenders at 10 less the declaring side's)``."""
    calls = list(before[:k]) + [rank]
    for j in range(k + 1, 4):
        seat = (dealer + 1 + j) % 4
        view = BidView(np.array([deal[seat]], dtype=np.uint64), np.array([calls], dtype=np.int16), np.array([seat]),
                       np.array([dealer]), np.zeros((1, 2), dtype=np.int64), np.array([COVER3.target]), COVER3)
        calls.append(int(POLICY.bid(view)[0]))
    best, who = PASS, -1
    for j, c in enumerate(calls):
        if c != PASS and c >= best:
            best, who = c, (dealer + 1 + j) % 4
    if best == PASS:
        return 0.0, 0.0
    if LAD.nt[best]:
        strain = 4
    else:
        view = BidView(np.array([deal[who]], dtype=np.uint64), np.array([calls], dtype=np.int16), np.array([who]),
                       np.array([dealer]), np.zeros((1, 2), dtype=np.int64), np.array([COVER3.target]), COVER3)
        strain = int(POLICY.trump(view, np.array([best]))[0])
    decl, dfd = int(direct_pts[0][i, who, strain]), int(direct_pts[1][i, who, strain])
    caller = (dealer + 1 + k) % 4
    out = []
    for defenders in (dfd, COVER3.raw_total - decl):
        res = score_hand(COVER3, Contract(LAD.bids[best], who), decl, defender_raw=defenders)
        out.append(float(res.delta[caller & 1] - res.delta[1 - (caller & 1)]))
    return out[0], out[1]


def _bid(frame, policy=POLICY, rules=COVER3):
    from kaiser_sim.studies.auction import bid_deals

    hands = hands_array(frame)
    dealers = frame["dealer"].to_numpy().astype(np.int64) if "dealer" in frame else np.arange(len(frame)) % 4
    return hands, dealers, bid_deals(hands, dealers, rules, policy)


def test_the_direct_solve_has_sides_that_do_not_add_to_ten(cover3_run, direct):
    """The run's accessor gives the door's values, and cover 3 bites on these deals (else the tests below could
    not tell the two scorings apart)."""
    lead, other = run_points(cover3_run.frame, COVER3)
    assert np.array_equal(lead, direct[0]) and np.array_equal(other, direct[1])
    assert (direct[0] + direct[1] != COVER3.raw_total).any()


def test_the_call_chart_under_cover3_by_hand(cover3_run, direct, double_dummy):
    """The call chart is computed under cover 3; every action of the opener (position 1, the later seats
    calling by the model) and of the dealer facing a bid (position 4), cell by cell, is the mean of a plain
    per-hand play-out on the cell's odd deals."""
    from kaiser_sim.studies.auction import _situations, call_chart

    frame = cover3_run.frame
    hands, dealers, calls = _bid(frame)
    count_ = strength(hands.reshape(-1)).reshape(N, 4)
    chart, meta = call_chart(frame, COVER3, POLICY, calls, dealers, count_, 1)
    assert len(chart) and not refusal("call-chart", COVER3)
    assert meta.note.endswith(cover3_words(COVER3, False)) and "cover 3" in meta.note
    _, before = _situations(calls, COVER3)
    odd = frame["deal"].to_numpy() % 2 == 1
    checked, differs = 0, False
    for position, situation, heard in ((1, "opens", before[:, 0] < 0), (4, "dealer facing a bid", before[:, 3] >= 0)):
        k = position - 1
        rows = chart[(chart["position"] == position) & (chart["situation"] == situation)]
        assert len(rows)
        acts = position_calls(calls, k, COVER3)
        seat = (dealers + 1 + k) % 4
        band = np.asarray(bucket(count_[np.arange(N), seat], STRENGTH_BUCKETS), dtype=object)
        for _, row in rows.iterrows():
            compared = [j for j, a in enumerate(ACTIONS) if not np.isnan(row[f"net {a}"])]
            cell = np.flatnonzero(heard & odd & (band == row["count"]) & (acts[:, compared] != -2).all(axis=1))
            assert len(cell) == row["n"]
            for j in compared:
                both = np.array([played_out(hands[i], dealers[i], calls[i], k, acts[i, j], direct, i) for i in cell])
                assert row[f"net {ACTIONS[j]}"] == pytest.approx(both[:, 0].mean(), rel=1e-12, abs=1e-12)
                differs |= not np.isclose(both[:, 0].mean(), both[:, 1].mean())
                checked += 1
    assert checked and differs


def test_the_heard_chart_under_cover3_by_hand(cover3_run, direct, double_dummy):
    """The heard chart is computed under cover 3; after "6 pass" (partner opened 6, you third) and after three
    passes (the dealer), each row's best and runner-up are the means of a plain per-hand play-out on the odd
    deals of its count band."""
    from kaiser_sim.studies.common import card_band
    from kaiser_sim.studies.heard import HEARD, heard_chart

    frame = cover3_run.frame
    chart, meta = heard_chart(frame, COVER3, bidders=POLICY, min_cell=1)
    assert len(chart) and "cover 3" in meta.note
    hands, dealers, calls = _bid(frame)
    names = ["pass"] + [call_text(b) for b in LAD.bids]
    words = np.array(names, dtype=object)[calls.astype(np.int64) + 1]
    odd = frame["deal"].to_numpy() % 2 == 1
    checked, differs = 0, False
    for heard, position, before in HEARD:
        k = position - 1
        kept = (words[:, :k] == np.array(before, dtype=object)).all(axis=1)
        seat = (dealers + 1 + k) % 4
        band = np.array([card_band(b) for b in bucket(strength(hands[np.arange(N), seat]), STRENGTH_BUCKETS)],
                        dtype=object)
        for _, row in chart[chart["heard"] == heard].iterrows():
            cell = np.flatnonzero(kept & odd & (band == row["count"]))
            assert len(cell) == row["n"]
            for col, which in (("best_net", "best"), ("runner_net", "runner_up")):
                if not isinstance(row[which], str) or row[which].startswith("take it"):
                    continue
                rank = PASS if row[which] == "pass" else names.index(row[which]) - 1
                both = np.array([played_out(hands[i], dealers[i], calls[i], k, rank, direct, i) for i in cell])
                assert row[col] == pytest.approx(both[:, 0].mean(), rel=1e-12, abs=1e-12)
                differs |= not np.isclose(both[:, 0].mean(), both[:, 1].mean())
                checked += 1
    assert checked and differs


def test_the_net_chart_under_cover3_by_hand(cover3_run, direct, double_dummy):
    """The bidding chart's net chart is computed under cover 3: each played-out cell's net value of passing first
    (every seat of every deal the first to call, the later seats by the model) and the card's net if it declares
    its limit (its side's hand score minus the opponents' points) are plain per-hand means from the direct
    solve."""
    from kaiser_sim.studies.bidding_chart import net_chart
    from kaiser_sim.studies.common import declarer_frame, hand_score

    frame = cover3_run.frame
    net, meta = net_chart(frame, COVER3, min_cell=1, net_deals=N, bidders=POLICY)
    assert len(net) and (net["limit"] != "").any() and "cover 3" in meta.note
    d = declarer_frame(frame, COVER3)
    hands = hands_array(frame)
    deal_i = np.repeat(np.arange(N), 4)
    seat = d["seat"].to_numpy()
    trump = d["trump"].to_numpy()
    none = np.full(4, PASS)
    checked, differs = 0, False
    for _, row in net.iterrows():
        cell = np.flatnonzero((d["strength_bucket"].astype(str) == row["strength"]).to_numpy()
                              & (d["length_bucket"].astype(str) == row["trump_len"]).to_numpy())
        assert len(cell) == row["n"] == row["declare_n"]
        both = np.array([played_out(hands[deal_i[r]], (seat[r] + 3) % 4, none, 0, PASS, direct, deal_i[r])
                         for r in cell])
        assert row["net_pass"] == pytest.approx(both[:, 0].mean(), rel=1e-12, abs=1e-12)
        differs |= not np.isclose(both[:, 0].mean(), both[:, 1].mean())
        if row["declare_limit"] != "pass":
            lv, nt = int(row["declare_limit"].replace("NT", "")), row["declare_limit"].endswith("NT")
            s = np.where(nt, 4, trump[cell])
            decl, dfd = direct[0][deal_i[cell], seat[cell], s], direct[1][deal_i[cell], seat[cell], s]
            assert row["declare_net"] == pytest.approx((hand_score(COVER3, lv, nt, decl) - dfd).mean(), rel=1e-12)
            differs |= bool((dfd + decl != COVER3.raw_total).any())
        checked += 1
    assert checked and differs


# --- the standard game: unchanged --------------------------------------------------------------------------


def test_other_points_as_the_rest_of_the_total_change_no_bit(standard_run):
    """Without cover 3 the defenders' points given as the rest of the total (what the studies would pass) give
    playout_net's values bit for bit, double dummy and in table play (the defenders then take ``10 - t``)."""
    from kaiser_sim.studies.common import table_play_model

    frame = standard_run.frame
    hands, dealers, calls = _bid(frame, POPULATION, STANDARD)
    pts = points_array(frame, STANDARD)
    model, _ = table_play_model(STANDARD)
    assert model is not None
    for k in (0, 2, 3):
        acts = position_calls(calls, k, STANDARD)
        for j in range(acts.shape[1]):
            ok = acts[:, j] != -2
            for m in (None, model):
                a = playout_net(hands[ok], dealers[ok], calls[ok], k, acts[ok, j], STANDARD, POPULATION, pts[ok], m)
                b = playout_net(hands[ok], dealers[ok], calls[ok], k, acts[ok, j], STANDARD, POPULATION, pts[ok], m,
                                STANDARD.raw_total - pts[ok])
                assert a[0].tobytes() == b[0].tobytes() and np.array_equal(a[1], b[1])


#: sums of the three tables' columns on the standard run (N deals, seed SEED), from the code before cover 3
#: was computed (commit 7eef499), in table play: exact floats (float.hex)
STANDARD_SUMS = {
    "call_chart": ["-0x1.3c5ab48f9ad14p+5", "-0x1.6dff0ec5b00c5p+6", "-0x1.5a1245fbe2fc8p+7", "-0x1.444c13e68fa42p+7",
                   "-0x1.1e07b6215dab3p+8", "-0x1.315b38ea6fe44p+4", 49],
    "heard": ["-0x1.067884362b94bp+5", "-0x1.5a18cd2f42b06p+5", "-0x1.64e084cc3bcc2p+5", 13],
    "net": ["-0x1.e1d77c8aa97a6p+4", "0x1.dc0a49501cd0cp+4", "0x1.fa5f66328d7f8p+4", "0x1.89ca50fbf449ap+5", 30]}


def _sums(run) -> dict:
    from kaiser_sim.studies.auction import call_chart
    from kaiser_sim.studies.bidding_chart import net_chart
    from kaiser_sim.studies.heard import heard_chart

    frame = run.frame
    hands, dealers, calls = _bid(frame, POPULATION, STANDARD)
    count_ = strength(hands.reshape(-1)).reshape(N, 4)
    chart, _ = call_chart(frame, STANDARD, POPULATION, calls, dealers, count_, 1)
    heard, _ = heard_chart(frame, STANDARD, min_cell=1)
    net, _ = net_chart(frame, STANDARD, min_cell=1, net_deals=N, run=run.metadata)
    out = {"call_chart": [float(chart[f"net {a}"].sum()).hex() for a in ACTIONS] + [len(chart)],
           "heard": [float(heard[c].sum()).hex() for c in ("best_net", "runner_net", "diff_lo")] + [len(heard)],
           "net": [float(net[c].sum()).hex() for c in ("net_pass", "worth", "stand_worth", "declare_net")]
           + [len(net)]}
    return out


def test_the_standard_games_tables_are_the_old_codes(standard_run):
    """The three tables of a small standard run (table play, as the edition) sum to the very floats the code
    before this change gave: the edition's numbers are untouched."""
    assert _sums(standard_run) == STANDARD_SUMS


def _exact_model():
    """A table-play model that plays every contract exactly as double dummy says."""
    from kaiser_sim.strategy.table_play import TablePlayModel

    eye = np.eye(15)
    return TablePlayModel(np.stack([eye, eye]), np.zeros((2, 15), dtype=np.int64), {})


def test_table_play_that_plays_double_dummy_gives_the_double_dummy_values_under_cover3(cover3_run):
    """Under cover 3 the two sides' points need not add to 10: a table-play model that takes exactly the
    double-dummy points must give back the double-dummy net, for every contract of the advisor's calls
    (call_values: other seats' contracts too) and of the play-outs (playout_net).  The defenders read as the
    rest of the total (the old rule) fails this on the deals where a side takes under 3 tricks."""
    from kaiser_sim.game import dd_strains
    from kaiser_sim.strategy.call_worth import call_values

    deals = hands_array(cover3_run.frame)[:120]
    south = 2
    values = np.asarray(dd_strains(deals, south, COVER3, "points"), dtype=np.int64)
    policy = get_policy(config.AUCTION_BIDDERS)
    for calls in ((), ("6",), ("7", "pass")):
        cv = call_values(deals, np.zeros(len(deals), np.uint64), south, (south - len(calls) - 1) % 4, calls, COVER3,
                         policy, trump=0, nt_strain=4, values=values, table_model=_exact_model())
        assert cv.play == "table"
        # the model's axis is -2..12: a cover-3 side holding the 3S and under 3 tricks (-3) reads as -2, so those
        # contracts are left out (a model limit, not the defenders' accounting)
        has = cv.declarer >= 0
        i, c = np.nonzero(has)
        decl, _ = contract_values(deals[c], None, cv.declarer[has], cv.strain[has], COVER3)
        inside = np.ones(cv.net.shape, dtype=bool)
        inside[i[decl < -2], c[decl < -2]] = False
        assert inside.mean() > 0.9
        assert np.allclose(cv.net[inside], cv.net_dd[inside]), calls
    lead, other = run_points(cover3_run.frame, COVER3)
    hands = hands_array(cover3_run.frame)
    m = len(hands)
    dealers = np.arange(m) % 4
    calls = np.full((m, 4), PASS, dtype=np.int16)
    lad = ladder_arrays(COVER3)
    for rank in (PASS, int(np.flatnonzero(~lad.low & lad.playable)[0])):
        exact, _ = playout_net(hands, dealers, calls, 0, np.full(m, rank), COVER3, policy, lead, _exact_model(), other)
        dd, _ = playout_net(hands, dealers, calls, 0, np.full(m, rank), COVER3, policy, lead, None, other)
        inside = (lead >= -2).all(axis=(1, 2))  # deals where no contract's side is below the model's axis
        assert inside.mean() > 0.3
        assert np.allclose(exact[inside], dd[inside])
