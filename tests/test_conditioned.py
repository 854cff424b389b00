"""Advice that hears the auction: deals consistent with the calls
(kaiser_sim.strategy.conditioned), each call's worth net of the opponents
(kaiser_sim.strategy.call_worth) and ``kaiser-sim hand --auction``.

The references here are plain loops written apart from the library's
vectorised code: one candidate deal at a time, each speaker asked through
the one-hand ``Policy.call``, and a call's worth scored by hand from the
rules' words (made: the raw points; failed: minus the bid; the defenders
score their raw points).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from kaiser_sim import config
from kaiser_sim.strategy.advisor import AdvisorInputError, advise, read_hand
from kaiser_sim.auction import Bid
from kaiser_sim.strategy.call_worth import call_values
from kaiser_sim.cli import main
from kaiser_sim.strategy.conditioned import (
    AuctionInputError,
    AuctionTooRare,
    conditioned_deals,
    heard_auction,
    parse_calls,
)
from kaiser_sim.dd import dd_contracts, dd_strains
from kaiser_sim.deal import deal_for_rules
from kaiser_sim.strategy.policies import PASS, POLICIES, Policy, get_policy
from kaiser_sim.rules import PRESETS, Rules

STANDARD = Rules.preset("standard")
HAND = "AQ98.K5.A.T"
SOUTH = 2


def cli(*args):
    return CliRunner().invoke(main, ["hand", *[str(a) for a in args]])


def plain_loop(hand: int, seat: int, calls, n: int, seed: int, rules: Rules, policy, scores=(0, 0)):
    """(kept deals, candidates tried): candidate i is deal i of the advisor's
    stream, dealt alone; each speaker is asked through ``Policy.call``."""
    dealer = (seat - len(calls) - 1) % 4
    others = [s for s in range(4) if s != seat]
    kept, i = [], 0
    while len(kept) < n:
        d = deal_for_rules(1, seed, rules, start=i, fixed={seat: hand}, redeal_weak=True, seats=others)[0][0]
        i += 1
        ok = True
        for j, call in enumerate(calls):
            s = (dealer + 1 + j) % 4
            mine = (s & 1) == (seat & 1)
            said = policy.call(int(d[s]), calls[:j], seat=s, dealer=dealer,
                               scores=scores if mine else scores[::-1], rules=rules)
            if said != call:
                ok = False
                break
        if ok:
            kept.append(d)
    return np.array(kept, dtype=np.uint64), i


@pytest.mark.parametrize("calls", [("6", "7", None), ("6",), (None, "6NT")])
def test_the_deals_are_those_of_a_plain_loop(calls):
    """The same deals, in the same order, as asking each speaker deal by deal,
    and the same count of candidates; whatever the block size."""
    calls = tuple(None if c is None else Bid.parse(c) for c in calls)
    hand = read_hand(HAND, STANDARD)
    seat = (SOUTH + 0) % 4
    policy = get_policy("ev")
    ref, tried = plain_loop(hand, seat, calls, 12, 5, STANDARD, policy)
    for block in (7, 1000):
        cd = conditioned_deals(hand, seat, calls, 12, 5, STANDARD, "ev", min_deals=1, block=block, method="reject")
        assert np.array_equal(cd.deals, ref) and cd.candidates == tried
        assert cd.acceptance == pytest.approx(12 / tried)
    steps = cd.steps
    assert all(12 <= s.kept <= s.tried <= tried for s in steps)
    assert all(sum(s.instead.values()) == s.tried - s.kept for s in steps)


def test_the_advice_is_computed_on_the_conditioned_deals():
    """The advisor's per-strain DD odds with --auction are those of the
    plain loop's deals solved here; its JSON says how they were dealt."""
    hand = read_hand(HAND, STANDARD)
    calls = (Bid(6), Bid(7), None)
    ref, tried = plain_loop(hand, SOUTH, calls, 40, 3, STANDARD, get_policy(config.AUCTION_BIDDERS))
    v = np.asarray(dd_strains(ref, SOUTH, "points")).astype(int)
    r = cli(HAND, "--seat", "S", "--auction", "6 7 pass", "-n", 40, "--seed", 3, "--format", "json",
            "--no-specials", "--conditioning", "reject")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["deals"] == 40 and d["dealer"] == "S" and d["current_bid"] == "7"
    au = d["auction"]
    assert au["calls"] == ["6", "7", "pass"] and au["heard"] and au["bidders"] == config.AUCTION_BIDDERS
    assert (au["deals"], au["candidates"]) == (40, tried) and au["acceptance"] == pytest.approx(40 / tried, abs=1e-6)
    for s, key in enumerate("SHDCN"):
        for b in range(6, 13):
            assert d["strains"][key]["make"][str(b)]["dd"]["p"] == pytest.approx((v[:, s] >= b).mean(), abs=1e-4)
        assert d["strains"][key]["points"]["dd"]["mean"] == pytest.approx(v[:, s].mean(), abs=1e-4)
    # what the calls told: partner bid 7, so partner's count is above a random hand's
    told = au["told"]
    assert set(told) == {"W", "N", "E"} and told["N"]["call"] == "7"
    assert told["N"]["count"] > told["N"]["count_unconditioned"]
    text = cli(HAND, "--seat", "S", "--auction", "6 7 pass", "-n", 40, "--seed", 3, "--no-specials",
               "--conditioning", "reject").stdout
    first = text.splitlines()[0]
    assert first.startswith("Verdict: ") and "having heard W 6, N (partner) 7, E pass" in first
    assert "What the calls told" in text and f"under the {config.AUCTION_BIDDERS} bidding model" in text


def test_no_calls_heard_gives_the_advisors_own_deals():
    hand = read_hand(HAND, STANDARD)
    from kaiser_sim.strategy.advisor import advisor_deals

    for method in ("weights", "reject"):
        cd = conditioned_deals(hand, SOUTH, (), 30, 9, STANDARD, method=method)
        assert np.array_equal(cd.deals, advisor_deals(hand, SOUTH, 30, 9, STANDARD)) and cd.candidates == 30
        assert cd.ess == 30 and (cd.weights is None or (cd.weights == 1).all())
    assert parse_calls("none") == () and parse_calls(" 6, pass 7NT-low ") == (Bid(6), None, Bid(7, True, True))


def test_illegal_auctions_are_refused_with_the_rule():
    for calls, words in (("6 6", "only the dealer may match"), ("7 6", "does not beat 7"),
                         ("6 pass 7 8", "3 at most"), ("5", "bids run from 6"), ("6 x", "cannot read the bid"),
                         ("6NT-low", "low no trump is not a bid")):
        with pytest.raises(AuctionInputError, match=words):
            heard_auction(STANDARD, SOUTH, calls)
    with pytest.raises(AuctionInputError, match="disagrees with --auction"):
        heard_auction(STANDARD, SOUTH, "6 pass", dealer=0)
    assert heard_auction(STANDARD, SOUTH, "6 pass", dealer=3) == (3, (Bid(6), None))
    for args, words in (((), "--auction is empty"), (("--dealer", "N"), "disagrees"),
                        (("--current-bid", "8"), "not both")):
        r = cli(HAND, "--seat", "S", "--auction", "" if not args or args[0] != "--dealer" and args[0] !=
                "--current-bid" else "6 7 pass", *args, "-n", 10)
        assert r.exit_code == 2 and words in r.stderr and "Traceback" not in r.output, r.output
    r = cli(HAND, "--seat", "S", "--auction", "6 pass 7", "--score", "60-0", "-n", 10)
    assert r.exit_code == 2 and "outside -52..51" in r.stderr


def test_too_rare_calls_are_refused_naming_the_rarest_call():
    """Under ev, after two passes the third seat always bids with these
    cards: a third pass is too rare to deal by rejection, and the message says so."""
    r = cli(HAND, "--seat", "S", "--auction", "pass pass pass", "--bidders", "ev", "--max-candidates", 20000, "-n", 50,
            "--conditioning", "reject")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "too rare under the ev bidding model" in r.stderr and "the rarest is E's pass after pass pass" in r.stderr
    assert "--max-candidates" in r.stderr and "--conditioning weights" in r.stderr
    hand = read_hand(HAND, STANDARD)
    with pytest.raises(AuctionTooRare):
        conditioned_deals(hand, SOUTH, "pass pass pass", 50, 0, STANDARD, max_candidates=5000, method="reject")


def test_short_of_deals_goes_on_with_what_it_has_and_says_so():
    hand = read_hand(HAND, STANDARD)
    cd = conditioned_deals(hand, SOUTH, "6 7 pass", 100, 0, STANDARD, max_candidates=600, min_deals=20,
                           method="reject")
    assert cd.short and 20 <= cd.kept < 100 and cd.candidates == 600
    # a cap between the candidates the 200th and the 300th kept deals need (they depend on the bidding
    # model, which reads the table-play model): the advisor then keeps from 200 to 299 deals
    need = [conditioned_deals(hand, SOUTH, "6 7 pass", k, 0, STANDARD, config.AUCTION_BIDDERS, method="reject").candidates
            for k in (200, 300)]
    assert need[0] < need[1]
    a = advise(HAND, seat="S", auction="6 7 pass", n=300, max_candidates=(need[0] + need[1]) // 2, specials=False,
               conditioning="reject")
    assert a.heard.short and 200 <= a.n == a.heard.kept < 300
    assert f"Only {a.n:,} of the 300 deals asked for" in a.to_text()


class Scripted(Policy):
    """A bidding model that makes the calls it is given, whatever the hand,
    and names hearts as trump."""

    name = "scripted"

    def __init__(self, script):
        self.script = script  # call number -> rank

    def bid(self, view):
        k = view.calls.shape[1]
        return np.full(len(view), self.script.get(k, PASS), dtype=np.int16)

    def trump(self, view, rank):
        return np.full(len(view), 1)


def test_the_worth_of_a_call_worked_by_hand():
    """South deals after W 6, N pass, E 7 (a scripted model: nobody bids after
    South).  Passing lets East play 7 in hearts: E-W score their raw points
    r if r >= 7, else -7; N-S score 10 - r.  Bidding 8 in spades (South's
    trump) makes South declare: N-S score s if s >= 8 else -8, E-W 10 - s.
    Both double dummy, solved here with the plain solver call."""
    rules = STANDARD
    deals, _ = deal_for_rules(6, 21, rules)
    calls = (Bid(6), None, Bid(7))
    values = np.asarray(dd_strains(deals, SOUTH, "points")).astype(int)
    cv = call_values(deals, np.zeros(6, np.uint64), SOUTH, SOUTH, calls, rules, Scripted({}), trump=0,
                     nt_strain=4, values=values, table_model=None)
    assert cv.calls[0] == "pass" and cv.play == "dd"
    r = np.asarray(dd_contracts(deals, np.full(6, 1), np.full(6, 1), "points")).astype(int)  # E in hearts
    ew = np.where(r >= 7, r, -7)
    assert np.array_equal(cv.net[cv.index("pass")], (10 - r) - ew)
    assert (cv.declarer[cv.index("pass")] == 1).all() and (cv.strain[cv.index("pass")] == 1).all()
    s = values[:, 0]  # South in spades
    ns = np.where(s >= 8, s, -8)
    assert np.array_equal(cv.net[cv.index("8")], ns - (10 - s))
    s_nt = values[:, 4]
    assert np.array_equal(cv.net[cv.index("8NT")], np.where(s_nt >= 8, 2 * s_nt, -16) - (10 - s_nt))
    assert "7" in cv.calls  # the dealer may match


def test_a_thrown_in_hand_is_worth_nothing():
    rules = STANDARD.replace(forced_dealer_bid=False)
    deals, _ = deal_for_rules(4, 2, rules)
    values = np.asarray(dd_strains(deals, SOUTH, "points")).astype(int)
    cv = call_values(deals, np.zeros(4, np.uint64), SOUTH, SOUTH, (None, None, None), rules, Scripted({}), trump=0,
                     nt_strain=4, values=values, table_model=None, scores=(10, 20), win=True)
    i = cv.index("pass")
    assert (cv.net[i] == 0).all() and (cv.declarer[i] == -1).all()
    from kaiser_sim.strategy.policies import win_table

    assert cv.win[i] == pytest.approx(win_table(rules).win(10, 20))  # the score stays as it is


def test_win_chances_with_a_score():
    a = advise(HAND, seat="S", auction="6 7 pass", n=40, scores="40-30", specials=False)
    assert a.recommendation.basis == "win"
    c = a.calls.set_index("call")
    assert ((c["win"] >= 0) & (c["win"] <= 1)).all()
    assert c.loc[a.recommendation.call, "win"] == pytest.approx(c["win"].max()) or a.recommendation.tie is not None
    d = a.to_dict()
    assert d["auction"]["score"] == {"us": 40, "them": 30, "target": 52} and d["calls"][0]["win"]["table"]


def test_the_policies_named_in_help_are_the_policies():
    assert config.POLICY_NAMES == tuple(POLICIES)
    r = CliRunner().invoke(main, ["hand", "--help"])
    flat = "".join(r.output.split())  # click may wrap a name at its hyphen
    assert all(name in flat for name in config.POLICY_NAMES)
    assert f"{config.AUCTION_MIN_DEALS}" in " ".join(r.output.split())


HANDS = {"kitty-4": "AK93.5.AK.-", "kitty-34": "AK73.75.AK.-"}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_hears_the_auction(preset):
    rules = Rules.preset(preset)
    hand = HANDS.get(preset, "AK93.5.AK.8")
    n = 4 if rules.kitty != "none" else 10
    first = Bid(rules.min_bid)
    r = cli(hand, "--seat", "S", "--auction", f"{first} pass", "-n", n, "--seed", 1, "--rules", preset, "--format",
            "json", "--no-specials")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["deals"] == n and d["auction"]["calls"] == [str(first), "pass"] and d["dealer"] == "W"
    assert d["recommendation"]["call"] in d["legal_calls"] == [c["call"] for c in d["calls"]]
    # the kept deals: every speaker's call is the model's
    hand_mask = read_hand(hand, rules)
    cd = conditioned_deals(hand_mask, SOUTH, (first, None), n, 1, rules, method="reject")
    ev = get_policy("ev")
    for deal in cd.deals:
        assert ev.call(int(deal[0]), (), seat=0, dealer=3, rules=rules) == first  # N, on W's left
        assert ev.call(int(deal[1]), (first,), seat=1, dealer=3, rules=rules) is None  # E


def test_the_library_refuses_bad_input_before_any_work():
    with pytest.raises(AdvisorInputError, match="unknown bidding model"):
        advise(HAND, seat="S", auction="6", bidders="nobody")
    with pytest.raises(AdvisorInputError, match="cannot read the score"):
        advise(HAND, seat="S", auction="6", scores="forty")
