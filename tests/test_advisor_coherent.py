"""The hand advisor's answer agrees with itself (issue 42): one set of figures, words made from the
numbers beside them, coherent probabilities; the weighted estimator behind every number; an expert
panel of hands whose right call nobody disputes.

The property test runs random hands, seats and auctions through ``advise`` with a small number of
deals (every rules preset at least once) and checks the JSON and the text line by line; it checks
what any answer must satisfy, whatever the deals say, so it can fail on any hand."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from kaiser_sim.auction import Bid, legal_calls
from kaiser_sim.cards import Seat, format_hand
from kaiser_sim.rules import PRESETS, get_preset
from kaiser_sim.stats import cluster_mean_ci, mean_ci, weighted_mean_ci, weighted_share_ci, wilson_interval
from kaiser_sim.strategy.advisor import advise, monotone_survival
from kaiser_sim.strategy.advisor.results import bid_label
from kaiser_sim.strategy.conditioned import AuctionTooRare

# --- the weighted estimator against plain references ------------------------------------------


def test_weights_all_one_are_the_plain_mean_and_interval():
    x = np.random.default_rng(1).normal(3.0, 2.0, size=(137, 4))
    plain, weighted = mean_ci(x, axis=0), weighted_mean_ci(x, np.ones(137), axis=0)
    for field in ("mean", "lo", "hi", "sd", "se"):
        np.testing.assert_allclose(getattr(weighted, field), getattr(plain, field), rtol=1e-12)
    assert weighted_mean_ci(x[:, 0]) == mean_ci(x[:, 0])  # None: mean_ci itself


def test_integer_weights_are_the_rows_repeated():
    """Weight k = the row k times over, the copies one cluster (the same deal)."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=60)
    k = rng.integers(1, 5, size=60)
    w = weighted_mean_ci(x, k.astype(float))
    rep = cluster_mean_ci(np.repeat(x, k), cluster=np.repeat(np.arange(60), k))
    assert w.mean == pytest.approx(rep.mean, rel=1e-12) and w.se == pytest.approx(rep.se, rel=1e-12)
    assert w.sd == pytest.approx(np.sqrt(np.sum(k * (x - w.mean) ** 2) / k.sum() * 60 / 59))
    # zero weight: the row is not there
    w0 = weighted_mean_ci(np.r_[x, 1e6], np.r_[k, 0].astype(float))
    assert (w0.mean, w0.se) == pytest.approx((w.mean, w.se), rel=1e-12)


def test_weighted_share_is_wilson_at_the_effective_size():
    flags = np.random.default_rng(3).random((90, 3)) < [0.1, 0.5, 0.97]
    p, lo, hi = weighted_share_ci(flags, None)
    lo_ref, hi_ref = wilson_interval(flags.sum(axis=0), 90)
    np.testing.assert_allclose(p, flags.mean(axis=0))
    np.testing.assert_allclose((lo, hi), (lo_ref, hi_ref))
    p1, lo1, hi1 = weighted_share_ci(flags, np.full(90, 2.5))  # equal weights of any size: the same
    np.testing.assert_allclose((p1, lo1, hi1), (p, lo_ref, hi_ref), rtol=1e-12)
    w = np.r_[np.full(45, 3.0), np.ones(45)]  # ess = (180)^2 / (45 * 9 + 45) = 72
    p2, lo2, _ = weighted_share_ci(flags[:, 1], w)
    assert p2 == pytest.approx((3 * flags[:45, 1].sum() + flags[45:, 1].sum()) / 180)
    assert lo2 == pytest.approx(wilson_interval(p2 * 72, 72)[0])


def _isotonic_down(y):
    """Naive non-increasing least-squares fit: f_i = min over j <= i of max over k >= i of mean(y[j..k])."""
    n = len(y)
    return np.array([min(max(np.mean(y[j:k + 1]) for k in range(i, n)) for j in range(i + 1)) for i in range(n)])


def test_monotone_survival_is_the_isotonic_fit():
    rng = np.random.default_rng(4)
    for _ in range(50):
        p = np.sort(rng.random(7))[::-1] + rng.normal(0, 0.05, 7)
        p = np.clip(p, 0, 1)
        q, lo, hi = monotone_survival(p, np.clip(p - 0.05, 0, 1), np.clip(p + 0.05, 0, 1))  # as p_interval gives
        ref = np.clip(_isotonic_down(p), 0, 1)
        np.testing.assert_allclose(q, ref, atol=1e-12)
        assert (np.diff(q) <= 1e-12).all() and (np.diff(lo) <= 1e-12).all() and (np.diff(hi) <= 1e-12).all()
        assert (lo <= q + 1e-12).all() and (q <= hi + 1e-12).all() and lo.min() >= 0 and hi.max() <= 1
    same = np.array([0.9, 0.5, 0.5, 0.1])
    assert monotone_survival(same, same - 0.1, same + 0.1)[0] is not None
    np.testing.assert_array_equal(monotone_survival(same, same - 0.1, same + 0.1)[0], same)


# --- what every answer must satisfy ---------------------------------------------------------------

TOL = 1e-3  # the JSON's numbers are rounded to 4 digits


def _measure(doc):
    return "table" if doc["play"]["used"] == "table" else "dd"


def check_answer(a) -> None:
    """Items 1-3 of issue 42 on one answer, its JSON and its text."""
    doc = json.loads(a.to_json())
    text = a.to_text()
    m = _measure(doc)
    rec = doc["recommendation"]
    calls = doc["calls"]
    basis = rec["basis"]
    # 1. one set of figures: the recommended call is the top of the calls table, or a declared tie with it
    worth = {c["call"]: c[basis][m]["mean"] for c in calls}
    top = max(worth.values())
    chosen = rec["call"]
    assert worth[chosen] == pytest.approx(rec["value"][m]["mean"], abs=TOL)
    label_of = {c["call"]: bid_label(c["call"], c["strain"]) for c in calls}
    top_calls = [c for c, v in worth.items() if v >= top - TOL]
    over = re.search(r"makes wherever (.+?) does and shuts out more", doc["verdict"])
    assert bool(over) == ("makes wherever " in rec["reason"])
    assert not over or f"makes wherever {over.group(1)} does and shuts out more (" in rec["reason"]
    if worth[chosen] < top - TOL:
        assert rec["tie"], (chosen, worth)
        assert rec["versus"] in [label_of[c] for c in top_calls], (rec["versus"], top_calls)
        # only the pass default, or a higher bid of the top call's strain that scores as much as it whenever it
        # stands (the tie-break of two bids of one strain), may leave the top row
        assert chosen == "pass" or (over and over.group(1) in [label_of[c] for c in top_calls]), (chosen, worth)
    if over:
        low_call = next(c for c in calls if label_of[c["call"]] == over.group(1))
        low = low_call["call"]
        assert chosen != "pass" and Bid.parse(chosen).level > Bid.parse(low).level
        assert low_call["strain"] == rec["strain"]
        # scoring as much as the lower bid on every deal when it stands: under Kaiser scoring both always make
        bids = {b["bid"]: b for b in doc["bids"]}
        for b in (chosen, low):
            for meas in ("table", "dd"):
                if bids[b]["make"][meas] is not None:
                    assert bids[b]["make"][meas]["p"] == pytest.approx(1.0, abs=TOL), (b, meas)
        # not clearly worth less than the lower bid: the tie declared with it
        versus = next(c["call"] for c in calls if label_of[c["call"]] == rec["versus"])
        assert rec["tie"] and abs(worth[versus] - worth[low]) < TOL and rec["difference"][m]["hi"] >= -TOL
    # a tie exactly when the printed interval of the difference reaches 0
    if rec["difference"] is not None:
        d = rec["difference"][m]
        assert rec["tie"] == (d["lo"] <= 0 + TOL * (abs(d["lo"]) < TOL)), rec
        assert rec["clear"] == (not rec["tie"])
    # every figure on the same deals
    n = doc["deals"]
    assert doc["trump"]["n_report"] == n and rec["value"][m]["n"] == n
    # 2. words from the values beside them
    assert doc["verdict"].startswith("Verdict: ")
    said = bid_label(chosen, rec["strain"]) if chosen != "pass" else "pass"
    assert re.search(r"^Verdict: (bid|match|pass)[ :]?", doc["verdict"])
    if chosen != "pass":
        assert f" {said} (" in doc["verdict"], (said, doc["verdict"])
        assert f"Recommended: {said} (" in text
    else:
        assert doc["verdict"].startswith("Verdict: pass") and "Recommended: pass (" in text
    if "the highest" in rec["reason"]:
        assert worth[chosen] >= top - TOL
    mark = [line for line in text.splitlines() if re.match(r"^\S.* \*\s", line)]
    assert len(mark) <= 1 and (not mark or mark[0].startswith(label_of[chosen] + " *"))
    if "better than " in rec["reason"]:
        other = re.search(r"better than (.+?), the next best, by ([+-][\d.]+)", rec["reason"])
        if other:
            assert float(other.group(2)) > 0
            assert worth[chosen] >= max(v for c, v in worth.items() if label_of[c] == other.group(1)) - TOL
    if "pass" in worth and rec["limit"] is not None and rec["limit"] != chosen:
        assert worth[rec["limit"]] >= worth["pass"] - TOL  # a limit is never worth less than passing
        assert "Worth bidding up to" in text
    elif rec["forced"]:
        assert "Worth bidding up to" not in text
    pre = "pre-emptive" in doc["verdict"]
    assert pre == ("A pre-emptive call:" in text)
    # pre-emptive exactly when the bid, left to stand, loses (net below 0) and nets less than passing (net with net)
    stands = None if chosen == "pass" else next(b for b in doc["bids"] if b["bid"] == chosen)["stands"][m]
    should = (chosen != "pass" and not rec["forced"] and basis == "net" and "pass" in worth
              and stands < min(0.0, worth["pass"]))
    if stands is None or abs(stands - min(0.0, worth.get("pass", 0.0))) > TOL:
        assert pre == should, (chosen, stands, worth.get("pass"))
    if pre:
        said_stands = float(re.search(r"Left to stand it nets ([+-][\d.]+)", text).group(1))
        assert said_stands == pytest.approx(stands, abs=0.006)
    if chosen != "pass" and not rec["forced"] and basis == "net" and "pass" in worth:
        bids = {b["bid"]: b for b in doc["bids"]}
        assert bids[chosen]["legal"]
    if doc["match"] is not None:
        decision = doc["match"]["decision"]
        assert decision == ("match" if chosen == doc["match"]["bid"] else "pass" if chosen == "pass" else "overcall")
        assert f"As dealer facing {doc['match']['bid']}: {decision} (" in text
    if rec["fresh"] is not None and len(calls) > 1:
        assert "Expected on fresh deals: " in text
    # why a good hand passes: the opponents' share of the declaring after the pass, the calls table's own
    after = rec["after_pass"]
    pass_row = next((c for c in calls if c["call"] == "pass"), None)
    should_say = (chosen == "pass" and rec["tie"] and basis == "net" and not rec["forced"]
                  and rec["value"][m]["mean"] > 0 and pass_row["declares"]["opponents"] > 0)
    assert (after is not None) == should_say, (chosen, rec["tie"], after)
    if after is not None:
        assert after["opponents_declare"] == pytest.approx(pass_row["declares"]["opponents"], abs=1e-3)
        share = f"{100 * after['opponents_declare']:.0f}%"
        assert f"why passing holds its own: after it the opponents declare {share} of the deals" in rec["reason"]
        theirs = after["net_when_they_declare"]
        assert f"on those your side nets {theirs['mean']:+.2f}" in rec["reason"]
        assert ("their contracts cost them" in rec["reason"]) == (theirs["lo"] > 0)
    # 3. coherent probabilities: P(at least b) never rises with b, per strain and in the bid table
    for key, s in doc["strains"].items():
        for meas in ("table", "dd"):
            ps = [s["make"][str(b)][meas] for b in sorted(map(int, s["make"]))]
            if ps[0] is None:
                continue
            p = [x["p"] for x in ps]
            assert all(x >= y - 1e-9 for x, y in zip(p, p[1:])), (key, meas, p)
            assert all(x["lo"] - 1e-9 <= x["p"] <= x["hi"] + 1e-9 for x in ps)
    by_strain: dict = {}
    for b in doc["bids"]:
        by_strain.setdefault(b["strain"], []).append(b)
    for key, bs in by_strain.items():
        for meas in ("table", "dd"):
            if bs[0]["make"][meas] is None:
                continue
            p = [b["make"][meas]["p"] for b in bs]
            assert all(x >= y - 1e-9 for x, y in zip(p, p[1:])), (key, meas, p)
    # the bid table's chances are the per-strain table's (the same deals)
    for b in doc["bids"]:
        level = int(re.match(r"\d+", b["bid"]).group())
        if b["strain"] in doc["strains"] and str(level) in doc["strains"][b["strain"]]["make"]:
            for meas in ("table", "dd"):
                x = b["make"][meas]
                if x is not None:
                    assert x["p"] == pytest.approx(doc["strains"][b["strain"]]["make"][str(level)][meas]["p"],
                                                   abs=TOL)
    # the trump is the top of the per-strain means in the measure named
    t = doc["trump"]
    means = {k: s["points"][m]["mean"] for k, s in doc["strains"].items() if k in "SHDC" or
             (k == "N" and a.rules.plain_bid_nt)}
    assert means[t["strain"]] >= max(means.values()) - TOL, (t, means)
    if t["difference"] is not None:
        d = t["difference"][m]
        assert t["tie"] == (d["lo"] <= 0) and d["mean"] >= -TOL
        assert means[t["strain"]] - means[t["runner_up"]] == pytest.approx(d["mean"], abs=2 * TOL)
    trump_line = next(line for line in text.splitlines() if line.startswith("Trump:"))
    assert ("a tie" in trump_line) == t["tie"]
    assert " ahead by " not in trump_line  # the trump never trails the runner-up it is printed beside


def _random_auction(rng, rules, seat: int, dealer: int) -> str | None:
    """Random legal calls from the dealer's left up to ``seat`` (mostly passes), or None when ``seat``
    speaks first."""
    calls: list = []
    for _ in range((seat - dealer - 1) % 4):
        legal = legal_calls(rules, dealer, calls)
        if None in legal and rng.random() < 0.6:
            calls.append(None)
        else:
            bids = [c for c in legal if c is not None][:4]  # the low bids: common enough to condition on
            calls.append(bids[rng.integers(len(bids))])
    if not calls:
        return None
    return " ".join("pass" if c is None else str(c) for c in calls)


CASES = [(preset, i) for i, preset in enumerate(PRESETS)] + [("standard", 100 + i) for i in range(6)]


@pytest.mark.parametrize("preset,case", CASES, ids=[f"{p}-{i}" for p, i in CASES])
def test_every_answer_agrees_with_itself(preset, case):
    """Random hand, seat, dealer and auction (one case with a match score: the calls on the chance of
    winning); a small run; items 1-3 of issue 42 checked."""
    from kaiser_sim.deal import deal_batch

    rng = np.random.default_rng([42, case])
    rules = get_preset(preset)
    seat = int(rng.integers(4))
    dealer = int(rng.integers(4))
    kitty = rules.kitty != "none"
    deal = deal_batch(1, 1000 + case, hand_size=7 if rules.kitty == "k1" else 8, deck34=rules.kitty == "k2")[0]
    hand = format_hand(int(deal[seat]))
    auction = _random_auction(rng, rules, seat, dealer) if case % 2 == 0 or case >= 100 else None
    kwargs = dict(seat=Seat(seat).name, n=24 if kitty else 200, seed=case, rules=rules,
                  check=0 if kitty else (8 if case % 3 == 0 else 0), specials=case % 4 == 0 and not kitty,
                  max_candidates=200_000, scores="40-35" if case == 105 else None)
    try:
        if auction is not None:
            a = advise(hand, auction=auction, **kwargs)
        else:
            a = advise(hand, dealer=Seat(dealer).name, **kwargs)
    except AuctionTooRare:
        a = advise(hand, dealer=Seat(dealer).name, **kwargs)  # the calls drawn were too rare: no auction
    check_answer(a)


# --- the expert panel -------------------------------------------------------------------------------

NEEDS_POPULATION = pytest.mark.xfail(strict=False, reason="needs the population bidding model (issue 41)")


def _call_of(a) -> str:
    return a.recommendation.call


def _level(call: str) -> int:
    return 0 if call == "pass" else Bid.parse(call).level


#: (id, hand, options of advise, what the call must satisfy, why).  ``dealer`` = ``seat`` without calls is
#: the forced dealer (the others passed); ``current_bid`` a dealer facing that bid (the deals not conditioned)
PANEL = [
    ("cannot-lose-first", "AKQJ.A.AK.A", {}, lambda c: _level(c) >= 10,
     "every trick (10 points with the 5H and the 3S): the highest level it surely makes, 10NT"),
    ("cannot-lose-forced-dealer", "AKQJ.A.AK.A", {"seat": "S", "dealer": "S"}, lambda c: _level(c) >= 10,
     "the forced dealer with every trick bids the level it surely makes"),
    ("cannot-lose-over-6", "AKQJ.A.AK.A", {"seat": "E", "auction": "6"}, lambda c: _level(c) >= 9,
     "overcall a 6 with every trick"),
    ("cannot-lose-dealer-facing-8", "AKQJ.A.AK.A", {"seat": "S", "dealer": "S", "current_bid": "8"},
     lambda c: _level(c) >= 10, "the last to speak, with every trick: 10NT, sure"),
    ("cannot-lose-lets-11-fail", "AKQJ.A.AK.A", {"seat": "S", "dealer": "S", "current_bid": "11"},
     lambda c: c == "pass", "an 11 against a hand that takes every trick fails: let it"),
    ("forced-dealer-nothing", "T9.-.987.987", {"seat": "S", "dealer": "S"}, lambda c: c != "pass",
     "the forced dealer must bid, however bad the hand"),
    ("forced-dealer-nothing-bids-the-minimum", "T9.-.987.987", {"seat": "S", "dealer": "S"}, lambda c: c == "6",
     "forced with nothing: the cheapest bid, 6 in a suit (6NT fails twice as dear)"),
    ("forced-dealer-weak", "98.J9.T8.98", {"seat": "S", "dealer": "S"}, lambda c: c != "pass",
     "the forced dealer must bid"),
    ("forced-dealer-strong", "AK93.5.AK.8", {"seat": "S", "dealer": "S"}, lambda c: c != "pass",
     "the forced dealer bids"),
    ("nothing-dealer-facing-6", "T9.-.987.987", {"seat": "S", "dealer": "S", "current_bid": "6"},
     lambda c: c == "pass", "the last to speak, with nothing: let the 6 stand"),
    ("weak-dealer-facing-7", "98.J9.T8.98", {"seat": "S", "dealer": "S", "current_bid": "7"},
     lambda c: c == "pass", "the last to speak, with nothing: let the 7 stand"),
    ("strong-dealer-takes-6", "AKQJ.A.AK.A", {"seat": "S", "auction": "6 pass pass"}, lambda c: c != "pass",
     "a dealer facing a 6 with every trick takes it"),
    ("solid-hearts-dealer-facing-7", "A.AKQJT98.-.-", {"seat": "S", "dealer": "S", "current_bid": "7"},
     lambda c: _level(c) >= 7 and c != "pass", "a dealer facing a 7 it surely makes matches or overcalls"),
    ("solid-hearts-first", "A.AKQJT98.-.-", {}, lambda c: _level(c) >= 9, "seven top hearts and an ace: bid high"),
    ("four-aces-first", "A.A9.AK.AQ9", {}, lambda c: c != "pass", "four aces and two kings open"),
    ("nothing-first", "T9.-.987.987", {}, lambda c: _level(c) <= 7, "no jump with nothing"),
    ("nothing-first-2", "98.J9.T8.98", {}, lambda c: _level(c) <= 7, "no jump with nothing"),
    ("nothing-second", "T9.-.987.987", {"seat": "E", "auction": "6"}, lambda c: _level(c) <= 7,
     "no jump to 8 or 9 over a 6 with nothing"),
    ("nothing-over-6", "98.J9.T8.98", {"seat": "E", "auction": "6"}, lambda c: _level(c) <= 7,
     "no jump to 8 or 9 over a 6 with nothing"),
    ("nothing-passes-first", "T9.-.987.987", {}, lambda c: c == "pass", "a hand with nothing passes"),
    ("nothing-passes-over-6", "98.J9.T8.98", {"seat": "E", "auction": "6"}, lambda c: c == "pass",
     "a hand with nothing passes after an opponent's 6"),
]

#: the panel cases whose right call needs the later seats to bid like people (the population model): under
#: ev the later seats overcall everything, so a jump or a bid on nothing can be worth more than passing
#: (nothing-first, nothing-first-2, nothing-over-6 and nothing-passes-first pass under ev with these deals)
POPULATION: set = set()  # none left: the population is the default (issue 41)

#: panel cases the default population gets wrong today, each with why (strict: a fix makes them fail, so the
#: mark is lifted with it)
POPULATION_FLAWS: dict = {}  # none left: solid-hearts-first bids high since the third seat leaves its partner's 9NT+ alone


def test_four_aces_open_and_are_no_pre_empt():
    """Issue 42: the pre-emptive warning fired on the four-ace hand (it compared the side's own score with
    a net score); a bid that pays if left to stand is no pre-empt."""
    # under the population (the default) the hand opens; under ev's later seats, which bid over almost
    # anything, passing nets as much since the table-play model knows the hand's count band
    a = advise("A.A9.AK.AQ9", n=200, seed=7, check=0, specials=False)
    check_answer(a)
    stands = a.bids.set_index("bid").loc[a.recommendation.call, "table_stands"]
    assert a.recommendation.call != "pass" and stands > 0 and "pre-emptive" not in a.to_text()


@pytest.mark.parametrize(
    "name,hand,opts,ok,why",
    [pytest.param(*p, id=p[0], marks=([NEEDS_POPULATION] if p[0] in POPULATION else [])
                  + ([pytest.mark.xfail(strict=True, reason=POPULATION_FLAWS[p[0]])] if p[0] in POPULATION_FLAWS
                     else [])) for p in PANEL],
)
def test_expert_panel(name, hand, opts, ok, why):
    opts = dict(opts)
    a = advise(hand, n=200, seed=7, check=0, specials=False, max_candidates=400_000, **opts)
    check_answer(a)
    assert ok(_call_of(a)), f"{name}: {why}; got {_call_of(a)} ({a.verdict})"


# --- importance weights plug in ---------------------------------------------------------------------


class _Weighted:
    """A ConditionedDeals with importance weights (the interface wt-soft adds): every attribute of the
    real one, plus ``weights`` and ``ess``."""

    def __init__(self, cd, weights):
        self._cd, self.weights = cd, weights
        self.ess = float(weights.sum() ** 2 / (weights ** 2).sum())

    def __getattr__(self, name):
        return getattr(self._cd, name)


def _numbers(doc):
    """Every number of the JSON but the auction's (the effective size is new there)."""
    out = {k: v for k, v in doc.items() if k not in ("auction", "version")}
    return json.dumps(out, sort_keys=True)


@pytest.fixture(scope="module")
def heard():
    # rejection: the real deals carry no weights, so the wrapper's weights are the only ones
    kw = dict(seat="E", auction="6", n=60, seed=5, check=0, specials=True, conditioning="reject")
    return kw, advise("AK93.5.AK.8", **kw)


@pytest.mark.parametrize("scale", [1.0, 2.5])
def test_equal_importance_weights_give_the_unweighted_advice(heard, monkeypatch, scale):
    """Weights all equal (of any size) are rejection sampling: the same advice, number for number; the
    effective sample size is printed beside the acceptance and in the JSON."""
    import kaiser_sim.strategy.conditioned as conditioned

    kw, plain = heard
    real = conditioned.conditioned_deals
    monkeypatch.setattr(conditioned, "conditioned_deals",
                        lambda *a, **k: _Weighted(real(*a, **k), np.full(60, scale)))
    w = advise("AK93.5.AK.8", **kw)
    assert _numbers(w.to_dict()) == _numbers(plain.to_dict())
    assert w.to_dict()["auction"]["ess"] == pytest.approx(60) and plain.to_dict()["auction"]["ess"] == 60
    assert "effective sample size 60)" in w.to_text() and "effective sample size" not in plain.to_text()


def test_importance_weights_move_the_numbers_as_repeated_deals(heard, monkeypatch):
    """Integer weights: each mean is the mean over the deals repeated that many times."""
    import kaiser_sim.strategy.conditioned as conditioned

    kw, plain = heard
    k = np.random.default_rng(9).integers(1, 4, size=60).astype(float)
    real = conditioned.conditioned_deals
    monkeypatch.setattr(conditioned, "conditioned_deals", lambda *a, **kw_: _Weighted(real(*a, **kw_), k))
    w = advise("AK93.5.AK.8", **kw)
    v = plain.values.astype(float)
    np.testing.assert_allclose(w.points["mean"], (k[:, None] * v).sum(axis=0) / k.sum())
    assert w.to_dict()["auction"]["ess"] == pytest.approx(k.sum() ** 2 / (k ** 2).sum(), abs=0.01)
    check_answer(w)


# --- the tie-break of two bids of one strain (issue 42 follow-up) ------------------------------------


class _Calls:
    """The part of a CallValues the choice reads: the calls (ladder order, pass first) and their net values."""

    def __init__(self, calls, net):
        self.calls, self.net, self.play = tuple(calls), np.asarray(net, dtype=float), "table"

    def index(self, call):
        return self.calls.index(call)

    def values(self, basis="net", dd=False):
        return self.net


def _standing(calls, table, dd=None, strain=None):
    from kaiser_sim.strategy.advisor.analysis import Standing

    table = np.asarray(table, dtype=float)
    strain = strain or tuple(None if c == "pass" else ("N" if c.endswith("NT") else "H") for c in calls)
    return Standing(tuple(calls), strain, table, table.copy() if dd is None else np.asarray(dd, dtype=float))


CALLS = ("pass", "8NT", "9NT", "10NT")
N_DEALS = 400


def _nets(gap, noise=3.0, seed=0):
    """Net values per deal: pass 0, 8NT 15, 9NT and 10NT ``gap`` below 8NT on average, each with noise."""
    rng = np.random.default_rng(seed)
    base = np.array([0.0, 15.0, 15.0 - gap, 15.0 - gap])[:, None]
    return base + np.r_[np.zeros((1, N_DEALS)), rng.normal(0, noise, (3, N_DEALS))]


def _sure(n=N_DEALS):
    """Stand scores: every NT bid makes 20 on every deal."""
    return np.r_[np.full((1, n), np.nan), np.full((3, n), 20.0)]


def test_a_higher_bid_that_scores_as_much_whenever_it_stands_wins_a_tie():
    """8NT a hair ahead of 10NT (inside the noise); 10NT scores 20 on every deal wherever 8NT does: 10NT,
    a declared tie with 8NT."""
    from kaiser_sim.strategy.advisor.analysis import choose_on_values
    from kaiser_sim.stats import mean_ci

    cv = _Calls(CALLS, _nets(0.2))
    rows = np.arange(N_DEALS)
    d = mean_ci(cv.net[3] - cv.net[1])
    assert cv.net[1].mean() > cv.net[3].mean() and d.lo < 0 < d.hi  # the premise: 8NT a hair ahead, a tie
    assert choose_on_values(cv, "net", rows)[0] == 1  # without the rule: the top, 8NT
    best, other, clear = choose_on_values(cv, "net", rows, standing=_standing(CALLS, _sure()))
    assert (CALLS[best], CALLS[other], clear) == ("10NT", "8NT", False)


def test_the_tie_break_never_overrides_a_clear_difference():
    """10NT clearly worth less than 8NT (the later seats take it out more often, say): 8NT stays."""
    from kaiser_sim.strategy.advisor.analysis import choose_on_values

    cv = _Calls(CALLS, _nets(3.0, noise=1.0))
    assert CALLS[choose_on_values(cv, "net", np.arange(N_DEALS), standing=_standing(CALLS, _sure()))[0]] == "8NT"


@pytest.mark.parametrize("where", ["table", "dd"])
def test_a_bid_that_may_fail_where_the_lower_makes_is_never_preferred(where):
    """One deal of 400 on which 10NT fails (table play, or double dummy only) and 8NT makes: no tie-break,
    however close the nets; nor from a suit bid to an NT bid (another strain)."""
    from kaiser_sim.strategy.advisor.analysis import Standing, choose_on_values

    cv = _Calls(CALLS, _nets(0.2))
    table, dd = _sure(), _sure()
    (table if where == "table" else dd)[3, 17] = -20.0
    st = _standing(CALLS, table, dd)
    rows = np.arange(N_DEALS)
    assert CALLS[choose_on_values(cv, "net", rows, standing=st)[0]] == "9NT"  # 9NT still makes everywhere
    dom = st.dominates(rows)
    assert dom[2, 1] and not dom[3, 1] and not dom[3, 2] and not dom[1, 2]
    assert st.dominates(np.delete(rows, 17))[3, 1]  # without that deal 10NT scores as much again
    # a failure of the lower bid: the higher one loses more there, so it never scores as much
    low_fails = _sure()
    low_fails[1:, 5] = [-16.0, -18.0, -20.0]
    assert not _standing(CALLS, low_fails).dominates(rows)[2:, 1].any()
    # another strain: 10 in hearts over 8NT is no tie-break, whatever the scores
    mixed = Standing(CALLS, (None, "N", "N", "H"), _sure(), _sure())
    assert not mixed.dominates(rows)[3, 1]


def test_the_tie_break_keeps_pass_the_default():
    """A bid not clearly worth more than passing stays pass, and the tie-break never moves to a bid that is
    not clearly worth more than passing."""
    from kaiser_sim.strategy.advisor.analysis import choose_on_values

    rng = np.random.default_rng(3)
    net = np.r_[np.zeros((1, N_DEALS)), 0.1 + rng.normal(0, 3, (3, N_DEALS))]
    assert CALLS[choose_on_values(_Calls(CALLS, net), "net", np.arange(N_DEALS),
                                  standing=_standing(CALLS, _sure()))[0]] == "pass"
    net = np.r_[np.zeros((1, N_DEALS)), np.full((1, N_DEALS), 2.0) + rng.normal(0, 1, N_DEALS),
                rng.normal(0.0, 30, (2, N_DEALS))]  # 8NT clearly above pass; 9NT and 10NT noise around 0
    assert CALLS[choose_on_values(_Calls(CALLS, net), "net", np.arange(N_DEALS),
                                  standing=_standing(CALLS, _sure()))[0]] == "8NT"


def test_every_trick_bids_10nt_saying_why():
    """The hand that takes every trick, first to speak, on deals where 8NT nets a hair more than 10NT
    (seed 0, the population's noise): 10NT, said so in the reason and the verdict; the answer coherent."""
    a = advise("AKQJ.A.AK.A", n=200, seed=0, check=0, specials=False)
    check_answer(a)
    rec = a.recommendation
    assert rec.call == "10NT"
    net = a.calls.set_index("call")["net"]
    if net.idxmax() != "10NT":  # the tie-break decided (it does at seed 0 with this code's population)
        assert rec.over == bid_label(net.idxmax(), "N") and rec.tie
        assert rec.reason.startswith(f"makes wherever {rec.over} does and shuts out more")
        assert f"Recommended: 10NT (makes wherever {rec.over} does" in a.to_text()
        assert f"makes wherever {rec.over} does and shuts out more" in a.verdict
