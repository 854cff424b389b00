"""Scoring: tricks, raw points, one hand, the end of the match.

Every worked example of docs/rules.md §8 and of the source documents is a test
here; then a table per scoring variant; then properties (hypothesis): the
vectorised scorer agrees with the scalar one, and the two sides' raw points
add up to the deal's total.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kaiser_sim.auction import Bid, Contract, make_contract
from kaiser_sim.cards import FIVE_HEARTS, THREE_SPADES, Seat, Strain
from kaiser_sim.deal import deal_batch, kitty_of
from kaiser_sim.rules import OPTIONS, Rules, RulesError, get_preset
from kaiser_sim.scoring import (
    HandResult,
    raw_points,
    score_hand,
    score_hands,
    trick_points,
    trick_winner,
)

STD = get_preset("standard")


def contract(bid: str, seat: str = "N", rules: Rules = STD) -> Contract:
    return make_contract(rules, bid, seat)


# --- docs/rules.md §8 and the sources' worked examples -----------------------------------------


def test_example_trick_with_the_five():
    # Diamonds trump, A leads AH, B 8H, C 5H, D KH: A wins; the trick is worth 1 + 5 = 6
    # (docs/rules.md §8, French source §06)
    trick = ["AH", "8H", "5H", "KH"]
    assert trick_winner(trick, leader=Seat.N, strain=Strain.D) == Seat.N
    assert trick_points(trick) == 6


def test_example_five_tricks_and_both_specials_fail_a_bid_of_8():
    # A/C: 5 tricks + 5H - 3S = 7; bid 8 fails: -8; B/D's 3 plain tricks are worth 3
    ac = raw_points(STD, 5, True, True)
    bd = raw_points(STD, 3, False, False)
    assert (ac, bd) == (7, 3)
    res = score_hand(STD, contract("8", "N"), ac, (0, 0))
    assert not res.made
    assert res.delta == (-8, 3)  # B/D under the defensive threshold score their 3


def test_example_seven_tricks_with_the_five_is_twelve():
    # 7 tricks with the 5H and without the 3S = 12; the last trick, with the 3S, is -2
    assert raw_points(STD, 7, True, False) == 12
    assert raw_points(STD, 1, False, True) == -2
    assert trick_points(["3S", "8C", "9C", "TC"]) == -2


def test_example_bid_7_made_with_ten():
    # Bid 7 in trump, 5 tricks + 5H, no 3S = 10 >= 7: the side adds 10 (Norwegian source)
    raw = raw_points(STD, 5, True, False)
    assert raw == 10
    res = score_hand(STD, contract("7", "E"), raw, (12, 20))
    assert res.made and res.delta == (0, 10) and res.scores == (12, 30)


def test_example_bid_8_spades_made_with_eleven():
    # Spanish / Russian sources: players 1 and 4 (one side) bid 8 spades.
    # AS led, everyone follows: 1 point; the 5H taken with the AH: 1 + 5 = 6;
    # the opponents win a trick with the 3S: 1 - 3 = -2 for them; the side ends
    # with 11 points: made, +11
    assert trick_points(["AS", "9S", "8S", "JS"]) == 1
    assert trick_points(["5H", "8H", "9H", "AH"]) == 6
    assert trick_points(["3S", "8D", "9D", "TD"]) == -2
    res = score_hand(STD, contract("8", "N"), 11, (0, 0))
    assert res.made and res.delta == (11, -1)


def test_example_sources_total_is_ten_per_hand():
    # "8 tricks, plus 5 minus 3": ten points a hand (Spanish, Russian FAQ)
    assert raw_points(STD, 8, True, True) == 10
    assert STD.raw_total == 10


def test_example_kaiser_made_is_worth_24():
    # Portuguese source: 12 no trump made is worth 24 (double the 12 taken)
    res = score_hand(STD, contract("12NT"), 12, (0, 0))
    assert res.made and res.delta[0] == 24
    assert res.winner is None  # no outright win in the standard game (French source)


def test_example_nt_failed_loses_double_the_bid():
    # Norwegian source and most others: a failed NT loses double the bid
    res = score_hand(STD, contract("8NT"), 7, (0, 0))
    assert res.delta == (-16, 3)


def test_example_defenders_at_45_add_nothing_positive_but_lose_negative():
    # Spanish / Russian / French sources: from 45 the defenders cannot add positive points;
    # negative points always count
    res = score_hand(STD, contract("7"), 8, (10, 45))
    assert res.delta == (8, 0)
    res = score_hand(STD, contract("7"), 12, (10, 45))
    assert res.delta == (12, -2)


def test_example_both_reach_52_the_declarer_wins():
    # every source: both sides over 52 on one hand -> the declaring side wins
    r = get_preset("no-45")
    res = score_hand(r, contract("6", "E", r), 6, (48, 50))  # E-W declare
    assert res.scores == (52, 56) and res.winner == 1 and res.reason == "target"


def test_example_skunk():
    res = score_hand(STD, contract("8"), 10, (44, 0))
    assert res.scores == (54, 0) and res.winner == 0 and res.skunk


def test_example_negative_totals_allowed():
    res = score_hand(STD, contract("9"), 5, (3, 0))
    assert res.scores == (-6, 5) and res.winner is None


# --- table-driven: every scoring variant --------------------------------------------------

# (bid, declarer raw) -> declarer's delta for each (nt_scoring, made_scores)
VARIANT_CASES = {
    ("7", 9): {"raw": 9, "bid": 7},  # made
    ("8", 7): {"raw": -8, "bid": -8},  # failed
    ("7NT", 9): {("double", "raw"): 18, ("double-made", "raw"): 18, ("single", "raw"): 9,
                 ("double", "bid"): 14, ("double-made", "bid"): 14, ("single", "bid"): 7},  # NT made
    ("8NT", 7): {"double": -16, "double-made": -8, "single": -8},  # NT failed
    ("12NT", 12): {("double", "raw"): 24, ("double-made", "raw"): 24, ("single", "raw"): 12,
                   ("double", "bid"): 24, ("double-made", "bid"): 24, ("single", "bid"): 12},
    ("6", -2): {"raw": -6, "bid": -6},
}


@pytest.mark.parametrize("nt_scoring", ["double", "double-made", "single"])
@pytest.mark.parametrize("made_scores", ["raw", "bid"])
@pytest.mark.parametrize("case", list(VARIANT_CASES))
def test_scoring_variants_declarer(nt_scoring, made_scores, case):
    r = STD.replace(nt_scoring=nt_scoring, made_scores=made_scores)
    table = VARIANT_CASES[case]
    want = table.get((nt_scoring, made_scores), table.get(made_scores, table.get(nt_scoring)))
    bid, raw = case
    res = score_hand(r, contract(bid, "S", r), raw, (0, 0))
    assert res.delta[0] == want
    assert res.delta[1] == 10 - raw  # defenders: raw points, never doubled
    assert res.made == (raw >= Bid.parse(bid).level)


@pytest.mark.parametrize(
    "bid_out, before, raw, want",
    [
        (45, 44, 3, 3),
        (45, 45, 3, 0),
        (45, 44, -2, -2),
        (45, 45, -2, -2),
        (45, 50, 0, 0),
        (None, 45, 3, 3),
        (None, 50, 4, 4),
        ("auto", 45, 3, 3),  # auto = 52 - 6 = 46
        ("auto", 46, 3, 0),
        (40, 40, 2, 0),
    ],
)
@pytest.mark.parametrize("nt", [False, True])
def test_defenders_and_the_bid_out_rule(bid_out, before, raw, want, nt):
    r = STD.replace(bid_out=bid_out)
    res = score_hand(r, contract("7NT" if nt else "7", "N", r), 10 - raw, (0, before))
    assert res.delta[1] == want


@pytest.mark.parametrize(
    "tie_rule, before, raw, scores, winner",
    [
        ("declarer", (50, 50), 6, (56, 54), 0),
        ("higher", (50, 50), 6, (56, 54), 0),
        ("declarer", (46, 51), 6, (52, 55), 0),
        ("higher", (46, 51), 6, (52, 55), 1),
        ("higher", (47, 50), 6, (53, 54), 1),
        ("higher", (48, 50), 6, (54, 54), 0),  # equal totals: declarer
    ],
)
def test_both_sides_cross_the_target_on_one_hand(tie_rule, before, raw, scores, winner):
    r = get_preset("no-45").replace(tie_rule=tie_rule)
    res = score_hand(r, contract("6", "N", r), raw, before)
    assert res.scores == scores and res.winner == winner and res.reason == "target"


def test_with_the_45_rule_defenders_cannot_go_out():
    res = score_hand(STD, contract("6"), 6, (10, 48))
    assert res.scores == (16, 48) and res.winner is None


def test_defenders_can_go_out_without_the_45_rule():
    r = get_preset("no-45")
    res = score_hand(r, contract("8", "N", r), 7, (10, 49))
    assert res.scores == (2, 52) and res.winner == 1


def test_only_bidders_win():
    r = get_preset("no-45").replace(only_bidders_win=True)
    res = score_hand(r, contract("8", "N", r), 7, (10, 49))
    assert res.scores == (2, 52) and res.winner is None
    # a side over the target must still make a bid to win
    res = score_hand(r, contract("6", "E", r), 5, (10, 55))
    assert res.winner is None
    res = score_hand(r, contract("6", "E", r), 6, (10, 55))
    assert res.winner == 1


def test_short_game_target_32():
    r = get_preset("short")
    res = score_hand(r, contract("7", "N", r), 8, (25, 0))
    assert res.winner == 0 and res.target == 32
    res = score_hand(r, contract("7", "N", r), 8, (10, 25))
    assert res.delta == (8, 0)  # bid-out at 25 in the short game


@pytest.mark.parametrize("made, winner", [(True, 0), (False, None)])
def test_kaiser_outright_team(made, winner):
    r = STD.replace(kaiser_outright="team")
    res = score_hand(r, contract("12NT", "S", r), 12 if made else 10, (0, 30))
    assert res.winner == winner
    assert res.reason == ("kaiser" if made else None)


@pytest.mark.parametrize("made, winner", [(True, 0), (False, 1)])
def test_kaiser_outright_solo(made, winner):
    r = STD.replace(kaiser_outright="solo")
    res = score_hand(r, contract("12NT", "N", r), 12 if made else 11, (0, 0))
    assert (res.winner, res.reason) == (winner, "kaiser")
    # other bids are unaffected
    assert score_hand(r, contract("11NT", "N", r), 12, (0, 0)).winner is None


def test_target_raised_after_a_made_nt():
    r = STD.replace(target_after_nt=62)
    res = score_hand(r, contract("8NT", "N", r), 9, (40, 0))
    assert res.scores == (58, 1) and res.winner is None and res.target == 62
    res2 = score_hand(r, contract("7", "N", r), 7, res.scores, target=res.target)
    assert res2.scores == (65, 4) and res2.winner == 0 and res2.target == 62
    # a failed NT does not raise it
    assert score_hand(r, contract("8NT", "N", r), 7, (40, 0)).target == 52
    # without NT the target stays
    assert score_hand(r, contract("8", "N", r), 12, (45, 0)).winner == 0


def test_lose_at():
    r = STD.replace(lose_at=-52)
    res = score_hand(r, contract("8NT", "N", r), 7, (-40, 0))
    assert res.scores == (-56, 3) and (res.winner, res.reason) == (1, "lose_at")
    assert score_hand(STD, contract("8NT", "N"), 7, (-40, 0)).winner is None


def test_failed_bid_pot():
    r = STD.replace(failed_bid_pot=2)
    assert score_hand(r, contract("8", "N", r), 7, (0, 0)).pot == 2
    assert score_hand(r, contract("8", "N", r), 8, (0, 0)).pot == 0


@pytest.mark.parametrize(
    "tricks, five, three, want",
    [
        (1, False, True, -3),  # "1 trick with the 3S equals -3"
        (2, False, True, -3),  # "2 tricks with the 3S equals -3"
        (3, False, True, 0),  # "3 tricks with the 3S equals 0"
        (2, True, False, 2),  # the 5H needs 3 tricks to count
        (3, True, False, 8),
        (4, True, True, 6),
        (0, False, False, 0),
        (8, True, True, 10),
    ],
)
def test_cover3_raw_points(tricks, five, three, want):
    assert raw_points(STD.replace(cover3=True), tricks, five, three) == want


def test_raw_points_vectorised():
    t = np.array([0, 1, 5, 7, 8])
    f = np.array([False, False, True, True, True])
    s = np.array([False, True, True, False, True])
    assert list(raw_points(STD, t, f, s)) == [0, -2, 7, 12, 10]


# --- property: vectorised == scalar ---------------------------------------------------------

_CHOICES = {o.name: o.choices for o in OPTIONS if o.kind == "choice"}


@st.composite
def scoring_rules(draw):
    changes = {
        "nt_scoring": draw(st.sampled_from(_CHOICES["nt_scoring"])),
        "made_scores": draw(st.sampled_from(_CHOICES["made_scores"])),
        "tie_rule": draw(st.sampled_from(_CHOICES["tie_rule"])),
        "kaiser_outright": draw(st.sampled_from(_CHOICES["kaiser_outright"])),
        "only_bidders_win": draw(st.booleans()),
        "kitty": draw(st.sampled_from(_CHOICES["kitty"])),
        "target": draw(st.sampled_from([32, 52, 62])),
        "failed_bid_pot": draw(st.integers(0, 3)),
    }
    changes["bid_out"] = draw(st.sampled_from([None, "auto", 20, 25, 45]))
    changes["target_after_nt"] = draw(st.sampled_from([None, 70]))
    changes["lose_at"] = draw(st.sampled_from([None, -52, -10]))
    changes["min_bid"] = draw(st.integers(5, 8))
    try:
        return Rules(**changes)
    except RulesError:
        assume(False)


hands_strategy = st.lists(
    st.tuples(
        st.integers(5, 12),  # level
        st.booleans(),  # nt
        st.integers(0, 3),  # declarer seat
        st.integers(-3, 12),  # declarer raw
        st.one_of(st.none(), st.integers(-3, 12)),  # defender raw
        st.integers(-60, 70),  # N-S before
        st.integers(-60, 70),  # E-W before
        st.sampled_from([None, 32, 52, 62, 70]),  # current target
    ),
    min_size=1,
    max_size=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=scoring_rules(), hands=hands_strategy)
def test_vectorised_scorer_agrees_with_scalar(rules, hands):
    scalar = []
    for level, nt, seat, raw, draw_, ns, ew, tgt in hands:
        c = Contract(Bid(level, nt), seat)
        scalar.append(score_hand(rules, c, raw, (ns, ew), defender_raw=draw_, target=tgt))
    cols = list(zip(*hands))
    draw_col = [rules.raw_total - raw if d is None else d for d, raw in zip(cols[4], cols[3])]
    tgt_col = [rules.target if t is None else t for t in cols[7]]
    vec = score_hands(
        rules,
        np.array(cols[0]),
        np.array(cols[1]),
        np.array(cols[2]),
        np.array(cols[3]),
        np.stack([cols[5], cols[6]], axis=1),
        defender_raw=np.array(draw_col),
        target=np.array(tgt_col),
    )
    assert len(vec) == len(scalar)
    for i, s in enumerate(scalar):
        assert vec[i] == s, (i, hands[i])


def test_vectorised_scorer_broadcasts_scalars():
    res = score_hands(STD, 8, False, 0, np.array([7, 8, 11]), (44, 46))
    assert res.scores.tolist() == [[36, 46], [52, 46], [55, 45]]  # E-W at 46: only the -1 counts
    assert res.winner.tolist() == [-1, 0, 0]
    assert isinstance(res[1], HandResult) and res[1].reason == "target"


# --- property: the two sides' raw points add to the deal's total ------------------------------


def _split_outcomes(ntricks):
    """Every (tricks of side A, who took the 5H, who took the 3S) that play can give."""
    for t in range(ntricks + 1):
        for five in (0, 1):
            for three in (0, 1):
                # a side without a trick captures nothing
                if (five == 0 and t == 0) or (five == 1 and t == ntricks):
                    continue
                if (three == 0 and t == 0) or (three == 1 and t == ntricks):
                    continue
                yield t, five == 0, three == 0


@pytest.mark.parametrize("name", ["standard", "kitty-4", "kitty-34"])
def test_raw_points_add_to_the_total_for_every_outcome(name):
    r = get_preset(name)
    seen = set()
    for t, a_five, a_three in _split_outcomes(r.tricks):
        a = raw_points(r, t, a_five, a_three)
        b = raw_points(r, r.tricks - t, not a_five, not a_three)
        assert a + b == r.raw_total
        seen.add(a)
    assert min(seen) == -2 and max(seen) == r.raw_total + 2  # -2..12 in the standard game


def _bits(mask):
    return [c for c in range(64) if mask >> c & 1]


def random_kitty_exchange(hands, kitty, declarer, rules, rng):
    """The declarer takes up the kitty and discards as many cards at random
    (never the 5H or 3S unless the rules allow it)."""
    hands = [int(h) for h in hands]
    k = bin(int(kitty)).count("1")
    hand = hands[declarer] | int(kitty)
    allowed = [c for c in _bits(hand) if rules.may_discard_specials or c not in (FIVE_HEARTS, THREE_SPADES)]
    for c in rng.sample(allowed, k):
        hand ^= 1 << c
    hands[declarer] = hand
    return hands


def random_playout(hands, leader, strain, rng):
    """Play a deal out at random (legal cards only): each side's tricks, 5H, 3S
    and the sum of its trick points."""
    hands = [int(h) for h in hands]
    tricks, five, three, pts = [0, 0], [False, False], [False, False], [0, 0]
    for _ in range(bin(hands[0]).count("1")):
        played = []
        for i in range(4):
            seat = (leader + i) % 4
            h = hands[seat]
            if played:
                h = (h & (0xFFFF << (16 * (played[0] >> 4)))) or h
            c = rng.choice(_bits(h))
            hands[seat] ^= 1 << c
            played.append(c)
        w = trick_winner(played, leader, strain)
        side = w & 1
        tricks[side] += 1
        five[side] |= FIVE_HEARTS in played
        three[side] |= THREE_SPADES in played
        pts[side] += trick_points(played)
        leader = w
    return tricks, five, three, pts


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(["standard", "kitty-4", "kitty-34"]),
    index=st.integers(0, 10_000),
    leader=st.integers(0, 3),
    strain=st.integers(0, 4),
    play_seed=st.integers(0, 2**32 - 1),
)
def test_raw_points_of_played_deals_add_to_the_total(preset, index, leader, strain, play_seed):
    r = get_preset(preset)
    rng = random.Random(play_seed)
    hands = deal_batch(1, 7, start=index, hand_size=r.hand_size, deck34=r.deck34)[0]
    if r.kitty != "none":
        hands = random_kitty_exchange(hands, kitty_of(hands[None, :], r.deck34)[0], leader, r, rng)
    tricks, five, three, pts = random_playout(hands, leader, strain, rng)
    raw = [raw_points(r, tricks[s], five[s], three[s]) for s in (0, 1)]
    assert raw == pts  # per-trick and per-side counting agree
    # K1 may discard a special card: it is out of play and counts for nobody
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    total = r.tricks + 5 * (in_play >> FIVE_HEARTS & 1) - 3 * (in_play >> THREE_SPADES & 1)
    assert sum(raw) == total
    if preset != "kitty-4":
        assert total == 10
    assert all(-2 <= x <= 12 for x in raw)
    # cover 3 can only take points away
    c3 = r.replace(cover3=True)
    assert sum(raw_points(c3, tricks[s], five[s], three[s]) for s in (0, 1)) <= total


def test_hand_results_to_frame():
    res = score_hands(STD, 8, False, 0, np.array([7, 8, 11]), (44, 46))
    df = res.to_frame()
    assert list(df["ns"]) == [36, 52, 55] and list(df["winner"]) == [-1, 0, 0]
    assert df["reason"].isna().tolist() == [True, False, False]
