"""The listening policy and its table (kaiser_sim.strategy.listening, ListeningPolicy).

The table's cells are checked against a direct computation in plain Python
(one hand at a time: the policies' one-call form, the auction by hand, the
scalar scorer), the policy's lookup against a direct argmax over the table,
and its calls for legality on many random auctions; the iteration must end
and report its rounds; a match with it is reproducible by seed; the command
line takes its name."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from kaiser_sim.auction import Bid, legal_calls, make_contract
from kaiser_sim.cli import main
from kaiser_sim.strategy.listening import build_tables, round_sums, solve, table_of, Seats
from kaiser_sim.strategy.match import play_matches
from kaiser_sim.strategy.policies import (ACTIONS, PASS, POLICIES, BidView, EVPolicy, ListeningPolicy, auction_limits,
                                 hand_values, ladder_arrays, listen_features, listening_note, read_listening_tables,
                                 read_population)
from kaiser_sim.rules import Rules
from kaiser_sim.scoring import score_hand

STANDARD = Rules.preset("standard")
N_DEALS, SEED = 120, 77


@pytest.fixture(scope="module")
def solved():
    return solve(N_DEALS, SEED)


@pytest.fixture(scope="module")
def round_one(solved):
    """Round 1's table in double dummy: every other seat bids as ev."""
    deals, points = solved
    seats = Seats.of(deals, STANDARD, "dd")
    dealers = np.arange(N_DEALS) % 4
    sums = round_sums(None, seats, points, dealers, STANDARD)
    return table_of(*sums, 1, STANDARD, "dd", min_cell=1, margin=0.0)


def _action_call(action: str, calls: list, k: int, rules: Rules):
    """The call ``action`` names after ``calls`` (Bid objects / None), by
    walking the ladder; the string "illegal" where it is not legal."""
    lad = ladder_arrays(rules)
    bids = [c for c in calls if c is not None]
    top = max((lad.rank(b) for b in bids), default=-1)
    if action == "pass":
        return None if not (k == 3 and top < 0 and rules.forced_dealer_bid) else "illegal"
    if action == "match":
        return lad.bids[top] if k == 3 and top >= 0 and rules.dealer_match else "illegal"
    nt = "NT" in action
    step = 1 if "+1" in action else 0
    above = [b for i, b in enumerate(lad.bids) if i > top and b.nt == nt and not b.low and lad.playable[i]]
    return above[step] if len(above) > step else "illegal"


def _direct_net(deal, points, dealer, calls, k, call, ev, rules):
    """The net value to the caller of making ``call`` as call ``k``, one
    call at a time: later seats by ``ev.call``, the contract by hand, the
    scalar scorer."""
    lad = ladder_arrays(rules)
    calls = list(calls[:k]) + [call]
    for j in range(k + 1, 4):
        seat = (dealer + 1 + j) % 4
        calls.append(ev.call(int(deal[seat]), calls, seat, dealer, rules=rules))
    best, who = -1, -1
    for j, c in enumerate(calls):
        if c is not None and lad.rank(c) >= best:
            best, who = lad.rank(c), (dealer + 1 + j) % 4
    if best < 0:
        return 0.0
    bid = lad.bids[best]
    if bid.nt:
        strain = 4
    else:
        _, trump, _, _ = hand_values(np.array([deal[who]], dtype=np.uint64), rules, play="dd")
        strain = int(trump[0, best])
    raw = int(points[who, strain])
    res = score_hand(rules, make_contract(rules, bid, who, strain if strain < 4 else None), raw, (0, 0))
    side = (dealer + 1 + k) % 2
    return float(res.delta[side] - res.delta[1 - side])


def test_table_cells_match_a_direct_computation(solved, round_one):
    """Every cell of the first two positions of round 1, recomputed deal by
    deal in plain Python, has the table's mean and count."""
    deals, points = solved
    ev = EVPolicy(play="dd")
    direct: dict = {}
    for d in range(N_DEALS):
        dealer = d % 4
        calls = []
        for k in range(2):
            seat = (dealer + 1 + k) % 4
            bids = [(j, c) for j, c in enumerate(calls) if c is not None]
            top = max((ladder_arrays(STANDARD).rank(c) for _, c in bids), default=-1)
            holder = 0
            if top >= 0:
                at = max(j for j, c in bids if ladder_arrays(STANDARD).rank(c) == top)
                holder = 1 if at == k - 2 else 2
            f = int(listen_features(np.array([deals[d, seat]], dtype=np.uint64), STANDARD, play="dd")[0])
            for a, name in enumerate(ACTIONS):
                call = _action_call(name, calls, k, STANDARD)
                if call == "illegal":
                    continue
                net = _direct_net(deals[d], points[d], dealer, calls, k, call, ev, STANDARD)
                direct.setdefault((k, holder, top + 1, f, a), []).append(net)
            calls.append(ev.call(int(deals[d, seat]), calls, seat, dealer, rules=STANDARD))
    for key, nets in direct.items():
        assert round_one.n[key] == len(nets), key
        assert round_one.mean[key] == pytest.approx(np.mean(nets), abs=1e-4), key
    # and no cell of these positions the direct computation did not reach
    assert int(round_one.n[:2].sum()) == sum(len(v) for v in direct.values())


def test_policy_reads_the_table_as_a_direct_argmax(round_one):
    """On random hands and auctions, the policy's call is the legal action
    with the highest mean where it beats ev's call (margin 0), else ev's."""
    rng = np.random.default_rng(5)
    from kaiser_sim.deal import deal_batch

    hands = deal_batch(60, 9)[:, 0]
    pol = ListeningPolicy(table=round_one, play="dd", endgame=None)
    ev = EVPolicy(play="dd")
    lad = ladder_arrays(STANDARD)
    checked = 0
    for i, h in enumerate(hands):
        dealer = int(rng.integers(4))
        k = int(rng.integers(4))
        calls = []
        for _ in range(k):
            opts = legal_calls(STANDARD, dealer, calls)
            calls.append(opts[int(rng.integers(min(len(opts), 4)))])
        seat = (dealer + 1 + k) % 4
        got = pol.call(int(h), calls, seat, dealer, rules=STANDARD)
        ev_call = ev.call(int(h), calls, seat, dealer, rules=STANDARD)
        bids = [(j, c) for j, c in enumerate(calls) if c is not None]
        top = max((lad.rank(c) for _, c in bids), default=-1)
        holder = 0
        if top >= 0:
            at = max(j for j, c in bids if lad.rank(c) == top)
            holder = 1 if at == k - 2 else 2
        f = int(listen_features(np.array([h], dtype=np.uint64), STANDARD, play="dd")[0])
        options = {}
        for a, name in enumerate(ACTIONS):
            c = _action_call(name, calls, k, STANDARD)
            if c != "illegal":
                options[a] = c
        cell = (k, holder, top + 1, f)
        if not options or any(round_one.n[cell + (a,)] < 1 for a in options):
            assert got == ev_call
            continue
        best = max(options, key=lambda a: (round_one.mean[cell + (a,)], -a))
        ev_a = [a for a, c in options.items() if c == ev_call]
        if ev_a and not round_one.mean[cell + (best,)] > round_one.mean[cell + (ev_a[0],)]:
            assert got == ev_call
        else:
            assert got == options[best]
        checked += 1
    assert checked >= 10


def test_iteration_ends_and_reports_its_rounds(solved):
    deals, points = solved
    tables = build_tables(STANDARD, N_DEALS, SEED, plays=("dd",), max_rounds=3, points=points, start="ev")
    t = tables["dd"]
    rounds = t.info["rounds"]
    assert 2 <= len(rounds) <= 4 and rounds[0]["policy"] == "ev" and t.info["start"] == {"policy": "ev"}
    assert isinstance(t.info["converged"], bool)
    if not t.info["converged"]:
        assert len(rounds) == 4
    for r in rounds:
        sh = np.asarray(r["shares"])
        assert sh.shape == (4, len(ladder_arrays(STANDARD)) + 1)
        assert np.allclose(sh.sum(axis=1), 1.0)
    for prev, r in zip(rounds, rounds[1:]):  # change: the largest move of a share from the round before
        assert r["change"] == pytest.approx(np.abs(np.subtract(r["shares"], prev["shares"])).max(), abs=1e-4)
    assert t.info["converged"] == (rounds[-1]["change"] < t.info["tolerance"])


def test_against_the_population_one_round_its_best_response(solved):
    """From the population (the default start) the others do not move: one
    round, its table the sums of round_sums with the population bidding."""
    from kaiser_sim.strategy.listening import start_policy

    deals, points = solved
    t = build_tables(STANDARD, N_DEALS, SEED, plays=("dd",), max_rounds=5, points=points)["dd"]
    rounds = t.info["rounds"]
    assert t.info["start"]["policy"] == "population" and t.info["converged"] is True
    assert [r["round"] for r in rounds] == [0, 1] and rounds[1]["others"] == "population"
    pop, _ = start_policy("population", STANDARD, "dd")
    sums = round_sums(pop, Seats.of(deals, STANDARD, "dd"), points, np.arange(N_DEALS) % 4, STANDARD)
    ref = table_of(*sums, 1, STANDARD, "dd")
    assert np.array_equal(t.n, ref.n) and np.allclose(t.mean, ref.mean)


def test_shipped_table_applies_to_standard_only():
    tables = read_listening_tables()
    assert set(tables) == {"table", "dd"}
    assert all(t.applies_to(STANDARD) for t in tables.values())
    assert tables["table"].applies_to(Rules.preset("short"))  # the match's end (target 32) is not in the table
    assert listening_note(STANDARD) == ""
    kitty = Rules.preset("kitty-4")
    assert not tables["table"].applies_to(kitty) and "bids as ev" in listening_note(kitty)
    # the table-play table went through the whole shipped table-play model (contract_net reads each
    # declarer's count band): rebuild it, make listening-table, after the model is rebuilt; the DD table
    # through none
    from kaiser_sim.strategy.table_play import fit_seeds, load_model

    prov = load_model(rules=STANDARD).provenance
    expected = {"deals": prov["deals"], "fit_seeds": fit_seeds(prov)}
    assert tables["table"].info["table_model"] == expected
    assert "table_model" not in tables["dd"].info


def test_never_an_illegal_call():
    """Random hands, auctions, dealers and scores (the endgame included):
    every call is legal (run_auction would also refuse it)."""
    from kaiser_sim.deal import deal_batch

    rng = np.random.default_rng(11)
    pol = POLICIES["listening"][0]("table")
    n = 400
    hands = deal_batch(n, 3)[:, 1]
    for k in range(4):
        calls = np.full((n, k), PASS, dtype=np.int16)
        dealers = rng.integers(0, 4, n)
        for j in range(k):  # random legal prefixes
            _, lo, can_pass = auction_limits(calls[:, :j], STANDARD)
            bid = rng.random(n) < 0.5
            rank = np.minimum(lo + rng.integers(0, 3, n), len(ladder_arrays(STANDARD)) - 1)
            calls[:, j] = np.where(bid | ~can_pass, rank, PASS)
            calls[:, j] = np.where((calls[:, j] >= 0) & (calls[:, j] < lo), PASS, calls[:, j])
        scores = rng.integers(-20, 52, (n, 2))
        view = BidView(hands, calls, (dealers + 1 + k) % 4, dealers, scores, np.full(n, 52), STANDARD)
        got = pol.bid(view).astype(np.int64)
        _, lo, can_pass = auction_limits(calls, STANDARD)
        ok = np.where(got == PASS, can_pass, (got >= lo) & (got < len(ladder_arrays(STANDARD))))
        assert ok.all(), (k, np.flatnonzero(~ok)[:5])


def test_match_is_reproducible_by_seed():
    a = play_matches("listening", "score-aware", 4, seed=8)
    b = play_matches("listening", "score-aware", 4, seed=8)
    assert a.matches.equals(b.matches) and a.hands.equals(b.hands)
    assert a.policy_a == "listening"


def test_command_line_takes_the_name(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["match", "-a", "listening", "-b", "score-aware", "-n", "2", "-q", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert '"policy_a": "listening"' in r.output
    r = runner.invoke(main, ["match", "--help"])
    assert "listening" in r.output
    out = tmp_path / "t.npz"
    r = runner.invoke(main, ["listening-table", "--deals", "100", "--max-rounds", "2", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "round" in r.output and out.exists()
    assert set(read_listening_tables(out)) == {"table", "dd"}
    r = runner.invoke(main, ["listening-table", "--rules", "kitty-4", "--deals", "100", "--out", str(tmp_path / "k.npz")])
    assert r.exit_code == 2 and not (tmp_path / "k.npz").exists()


def test_bid_objects_round_trip():
    """The direct computation's action walk agrees with the ladder on a known case."""
    assert _action_call("plain", [Bid.parse("7")], 1, STANDARD) == Bid.parse("8")
    assert _action_call("NT +1", [], 0, STANDARD) == Bid.parse("7NT")
    assert _action_call("match", [Bid.parse("7"), None, None], 3, STANDARD) == Bid.parse("7")


def test_endgame_bids_as_score_aware():
    """From 7 below the target on (either side's score), its calls and
    trumps are score-aware's; below that it reads its table."""
    from kaiser_sim.deal import deal_batch
    from kaiser_sim.strategy.policies import ScoreAwarePolicy

    n = 200
    hands = deal_batch(n, 21)[:, 2]
    pol, sa = ListeningPolicy(), ScoreAwarePolicy()

    def view(scores):
        return BidView(hands, np.zeros((n, 0), dtype=np.int16), np.ones(n, dtype=np.int64),
                       np.zeros(n, dtype=np.int64), np.tile(scores, (n, 1)), np.full(n, 52), STANDARD)

    rank = np.zeros(n, dtype=np.int64)
    for scores in ((46, 10), (10, 45)):
        v = view(scores)
        assert pol.late(v).all()
        assert np.array_equal(pol.bid(v), sa.bid(v))
        assert np.array_equal(pol.trump(v, rank), sa.trump(v, rank))
    assert not pol.late(view((44, 44))).any()
    assert not ListeningPolicy(endgame=None).late(view((46, 10))).any()


def test_rounds_start_from_the_population_as_it_bids(solved):
    """Round 0's shares are the population's own auctions (run_auction, one
    policy at every seat: the reference), not ev's; ``ev`` on request."""
    from kaiser_sim.strategy.listening import call_shares, iterate, start_policy
    from kaiser_sim.strategy.policies import run_auction

    deals, points = solved
    seats = Seats.of(deals, STANDARD, "dd")
    dealers = np.arange(N_DEALS) % 4
    pop, record = start_policy("population", STANDARD, "dd")
    assert record["policy"] == "population" and record["deals"] == read_population()["dd"].info["deals"]
    assert start_policy("ev", STANDARD, "dd") == (None, {"policy": "ev"})
    _, rounds, _ = iterate(seats, points, dealers, STANDARD, "dd", max_rounds=1, start=pop)
    direct = run_auction(deals, dealers, np.zeros((N_DEALS, 2), dtype=np.int64), np.full(N_DEALS, 52), STANDARD,
                         [pop], np.zeros((N_DEALS, 2), dtype=np.int64))
    L = len(ladder_arrays(STANDARD))
    assert np.allclose(rounds[0]["shares"], call_shares(direct, L), atol=1e-5)
    assert rounds[0]["policy"] == "population" and rounds[1]["others"] == "population"


def _first_seat_opening(policy, n_deals=5000, seed=4141):
    """Fresh random hands at first seat (nothing heard), 0-0: whether the policy bids, and each hand's count."""
    from kaiser_sim.deal import deal_batch
    from kaiser_sim.hands import strength

    hands = deal_batch(n_deals, seed).reshape(-1)
    n = hands.size
    view = BidView(hands, np.zeros((n, 0), dtype=np.int16), np.ones(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                   np.zeros((n, 2), dtype=np.int64), np.full(n, 52), STANDARD)
    return policy.bid(view) != PASS, strength(hands)


def test_shipped_listening_opens_more_the_stronger_the_hand():
    """Issue 41: the shipped table-play table opened 99% of first-seat hands
    counting 4 or less and 13% of those counting 6.5-8.  By the Kaiser count
    (kaiser_sim.hands.strength, which the table never reads), on 20,000
    fresh hands: a hand with nothing passes, and the opening rate rises
    with the count."""
    opens, count = _first_seat_opening(ListeningPolicy(play="table"))
    bands = [count <= 5, (count > 5) & (count <= 7), (count > 7) & (count <= 9), count > 9]
    rates = [opens[b].mean() for b in bands]
    assert opens[count <= 4].mean() < 0.1, rates
    assert rates[0] < 0.25 and rates[3] > 0.9, rates
    assert rates[0] < rates[1] < rates[2] <= rates[3], rates


def test_shipped_table_cells_hold_the_readers_feature_bins():
    """The builder's cells and the reader's bins agree: the shipped table's
    first-seat cells with nothing heard (position 0, holder none, rank + 1 =
    0) hold, per feature bin, exactly the first seats of its own deals whose
    hands the reader (listen_features) puts in that bin."""
    from kaiser_sim.deal import deal_batch

    for play, t in read_listening_tables().items():
        deals = deal_batch(t.info["deals"], t.info["seed"])
        n = deals.shape[0]
        first = deals[np.arange(n), (np.arange(n) % 4 + 1) % 4]  # the build's dealers rotate: deal i, seat i % 4
        want = np.bincount(listen_features(first, STANDARD, play=play), minlength=t.mean.shape[3])
        assert np.array_equal(t.n[0, 0, 0, :, ACTIONS.index("pass")], want), play


def test_shipped_table_started_from_the_shipped_population():
    """The shipped table's rounds started from the population file shipped
    beside it (its bytes' digest): a rebuilt population needs the table
    rebuilt too (make listening-table), as its calls shape every cell."""
    import hashlib

    from kaiser_sim.strategy.policies import population_path

    digest = hashlib.sha256(population_path().read_bytes()).hexdigest()
    for play, t in read_listening_tables().items():
        assert t.info["start"]["policy"] == "population", play
        assert t.info["start"]["sha256"] == digest, f"{play}: rebuild the listening table (make listening-table)"


def test_contract_values_read_the_declarers_count_band(solved):
    """In table play the fits value a contract as the studies and the advisor
    do: over the table-play model's row for the declaring hand's count band
    (recomputed here deal by deal), not the hand-blind pooled rows, which
    rate a strong hand's no trump lower than strong hands make it."""
    from kaiser_sim.strategy.listening import contract_net, net_table
    from kaiser_sim.strategy.table_play import POINTS, declarer_band, load_model

    deals, points = solved
    seats = Seats.of(deals, STANDARD, "table")
    model = load_model(rules=STANDARD)
    lad = ladder_arrays(STANDARD)
    nets = net_table(STANDARD)
    dealers = np.arange(N_DEALS) % 4
    rank = lad.rank(Bid(7, nt=True))
    calls = np.full((N_DEALS, 4), PASS, dtype=np.int16)
    calls[:, 0] = rank  # the first to speak bids 7NT, the others pass
    rows = np.arange(N_DEALS)
    declarer = (dealers + 1) % 4
    caller = (declarer + 1) % 4  # an opponent's view: the sign flips
    got = contract_net(calls, rows, dealers, caller, seats, points, nets, STANDARD, model)
    bands, pooled = [], []
    for d in range(N_DEALS):
        w = int(declarer[d])
        dd = int(points[d, w, 4])
        band = int(declarer_band(np.array([deals[d, w]], dtype=np.uint64), 4)[0])
        dist = model.dist(np.array([dd]), True, np.array([band]))[0]
        assert got[d] == pytest.approx(-float(dist @ nets[rank]), abs=1e-9), d
        bands.append(band)
        pooled.append(-float(model.dist(np.array([dd]), True)[0] @ nets[rank]))
    assert len(set(bands)) > 3 and POINTS.size == nets.shape[1]
    # the band matters: the deals of strong declarers differ from the pooled reading
    strong = np.array(bands) >= 6
    assert strong.any() and np.abs(got[strong] - np.array(pooled)[strong]).max() > 0.05


def test_the_section_calls_the_shipped_table_a_best_response_not_converged():
    """The shipped table is one round against the population (the others fixed): the listening section says it
    is that model's best response, never that it 'converged' after its one round (its round moved a share by
    far more than the tolerance)."""
    import pandas as pd

    from kaiser_sim.studies.common import StudyTables
    from kaiser_sim.strategy.policies import get_policy
    from kaiser_sim.studies.listening import _rounds, meaning

    rounds, meta = _rounds(get_policy("listening", play="table"), STANDARD)
    assert len(rounds) == 2 and meta.extra["start"] == "population"
    assert rounds["change"].iloc[1] > meta.extra["tolerance"]
    empty = pd.DataFrame()
    tables = StudyTables({"win_rates": empty, "by_score": empty})
    tables.add("rounds", rounds, meta)
    said = " ".join(meaning(tables))
    assert "is the best response to the population bidding model" in said and "converged" not in said
