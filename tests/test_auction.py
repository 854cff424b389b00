"""The bid ladder and auction legality, per preset."""

from __future__ import annotations

import pytest

from kaiser_sim.auction import (
    AuctionError,
    Bid,
    Contract,
    auction_result,
    bid_rank,
    bidder,
    check_auction,
    is_legal,
    ladder,
    legal_calls,
    make_contract,
    strain_choices,
)
from kaiser_sim.cards import Seat, Strain
from kaiser_sim.rules import PRESETS, Rules, get_preset

STD = get_preset("standard")


def names(bids):
    return ["pass" if b is None else str(b) for b in bids]


# --- bids ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, bid",
    [
        ("7", Bid(7)),
        ("7NT", Bid(7, True)),
        ("7nt", Bid(7, True)),
        ("7N", Bid(7, True)),
        ("7 no", Bid(7, True)),
        ("12 no trump", Bid(12, True)),
        ("7NT-low", Bid(7, True, True)),
        ("7ntl", Bid(7, True, True)),
        ("7 low", Bid(7, True, True)),
        ("pass", None),
        ("P", None),
        ("-", None),
    ],
)
def test_parse_bids(text, bid):
    assert Bid.parse(text) == bid


def test_bad_bid_text_and_low_suit_bid():
    with pytest.raises(AuctionError, match="cannot read the bid 'seven'"):
        Bid.parse("seven")
    with pytest.raises(AuctionError, match="only a no-trump bid can be low"):
        Bid(7, False, True)


def test_bid_text_round_trip_and_kaiser():
    for r in PRESETS.values():
        for b in ladder(r[0]):
            assert Bid.parse(str(b)) == b
    assert Bid(12, True).is_kaiser and not Bid(12).is_kaiser


# --- ladders ------------------------------------------------------------------------


def test_standard_ladder():
    assert names(ladder(STD)) == [
        "6", "6NT", "7", "7NT", "8", "8NT", "9", "9NT", "10", "10NT", "11", "11NT", "12", "12NT"
    ]  # fmt: skip


def test_tournament_ladder_has_nt_from_7():
    lad = names(ladder(get_preset("tournament")))
    assert lad[:4] == ["6", "7", "7NT", "8"] and "6NT" not in lad and lad[-1] == "12NT"


def test_nt_above_suits_ladder():
    lad = names(ladder(STD.replace(nt_order="above-suits")))
    assert lad == ["6", "7", "8", "9", "10", "11", "12", "6NT", "7NT", "8NT", "9NT", "10NT", "11NT", "12NT"]
    lad = names(ladder(STD.replace(nt_order="above-suits", nt_min=8)))
    assert lad[6:] == ["12", "8NT", "9NT", "10NT", "11NT", "12NT"]


def test_low_nt_as_its_own_bid_sits_above_high_nt():
    lad = names(ladder(get_preset("low-nt")))
    assert lad[:6] == ["6", "6NT", "6NT-low", "7", "7NT", "7NT-low"] and lad[-1] == "12NT-low"
    assert "6NT-low" not in names(ladder(STD.replace(low_nt="choice")))


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_ladder_starts_at_min_bid_and_ends_with_the_kaiser(name):
    r = get_preset(name)
    lad = ladder(r)
    assert lad[0] == Bid(r.min_bid)
    assert lad[-1].is_kaiser
    assert min(b.level for b in lad if b.nt) == r.nt_min_bid
    assert len(set(lad)) == len(lad)
    assert [bid_rank(r, b) for b in lad] == list(range(len(lad)))


def test_kitty_34_ladder_starts_at_7():
    assert names(ladder(get_preset("kitty-34")))[:3] == ["7", "7NT", "8"]


def test_bid_rank_refuses_bids_off_the_ladder():
    with pytest.raises(AuctionError, match="6NT is not a bid"):
        bid_rank(get_preset("tournament"), Bid(6, True))
    with pytest.raises(AuctionError):
        bid_rank(STD, Bid(13))


# --- legality -------------------------------------------------------------------------


def test_bidder_order_starts_left_of_dealer():
    assert [bidder(Seat.W, i) for i in range(4)] == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert [bidder(Seat.N, i) for i in range(4)] == [Seat.E, Seat.S, Seat.W, Seat.N]


def test_first_caller_may_pass_or_bid_anything():
    calls = legal_calls(STD, "W", [])
    assert calls[0] is None and calls[1:] == ladder(STD)


def test_non_dealer_must_beat_the_highest_bid():
    assert names(legal_calls(STD, "W", ["7"])[:3]) == ["pass", "7NT", "8"]
    assert not is_legal(STD, "W", ["7"], "7")
    assert not is_legal(STD, "W", ["7", "pass"], "6NT")
    assert is_legal(STD, "W", ["7", "pass"], "7NT")


def test_dealer_may_match_the_highest_bid():
    # W deals: N, E, S speak, then W
    assert names(legal_calls(STD, "W", ["7", "8", "pass"])[:3]) == ["pass", "8", "8NT"]
    assert auction_result(STD, "W", ["7", "8", "pass", "8"]) == Contract(Bid(8), Seat.W)
    # a match of an NT bid plays NT
    c = auction_result(STD, "W", ["7", "8NT", "pass", "8NT"])
    assert c.declarer == Seat.W and c.bid == Bid(8, True) and c.strain == Strain.N


def test_without_dealer_match_the_dealer_must_beat_it():
    r = STD.replace(dealer_match=False)
    assert names(legal_calls(r, "W", ["7", "8", "pass"])[:2]) == ["pass", "8NT"]
    with pytest.raises(AuctionError, match="the dealer may not match"):
        check_auction(r, "W", ["7", "8", "pass", "8"])


def test_only_the_dealer_may_match():
    with pytest.raises(AuctionError, match=r"call 2 by W \(7\) is illegal: only the dealer may match 7"):
        check_auction(STD, "E", ["7", "7"])


def test_forced_dealer_bid():
    calls = legal_calls(STD, "N", ["pass", "pass", "pass"])
    assert None not in calls and calls == ladder(STD)
    with pytest.raises(AuctionError, match="the dealer must bid at least 6"):
        check_auction(STD, "N", ["pass"] * 4)
    assert auction_result(STD, "N", ["pass", "pass", "pass", "6"]) == Contract(Bid(6), Seat.N)


def test_without_forced_bid_the_hand_is_thrown_in():
    r = STD.replace(forced_dealer_bid=False)
    assert legal_calls(r, "N", ["pass"] * 3)[0] is None
    assert auction_result(r, "N", ["pass"] * 4) is None


def test_nt_minimum_in_tournaments():
    t = get_preset("tournament")
    assert not is_legal(t, "S", [], "6NT")
    assert is_legal(t, "S", [], "7NT")
    with pytest.raises(AuctionError, match="no-trump bids start at 7"):
        check_auction(t, "S", ["6NT"])
    # the dealer forced to bid may bid NT, but only from 7
    forced = legal_calls(t, "S", ["pass"] * 3)
    assert Bid(6) in forced and Bid(6, True) not in forced and Bid(7, True) in forced


def test_nt_above_suits_auction():
    r = STD.replace(nt_order="above-suits")
    assert is_legal(r, "S", ["12"], "6NT")
    assert not is_legal(r, "S", ["6NT"], "12")
    assert auction_result(r, "S", ["12", "6NT", "pass", "pass"]).bid == Bid(6, True)


def test_low_nt_bid_auction():
    r = get_preset("low-nt")
    assert is_legal(r, "S", ["7NT"], "7NT-low")
    assert not is_legal(r, "S", ["7NT-low"], "7NT")
    c = auction_result(r, "S", ["7NT", "7NT-low", "pass", "pass"])
    assert c.bid == Bid(7, True, True) and c.low and c.declarer == Seat.N  # W, N, E, S
    with pytest.raises(AuctionError, match="low no trump is not a bid"):
        check_auction(STD, "S", ["7NT-low"])


def test_kaiser_is_the_top_bid():
    assert legal_calls(STD, "S", ["12NT"]) == [None]
    assert names(legal_calls(STD, "S", ["12NT", "pass", "pass"])) == ["pass", "12NT"]  # dealer may match


def test_min_bid_variants():
    for m in (5, 7, 8):
        r = STD.replace(min_bid=m)
        assert not is_legal(r, "S", [], str(m - 1))
        assert is_legal(r, "S", [], str(m))


def test_auction_must_be_complete_and_not_too_long():
    with pytest.raises(AuctionError, match="not over"):
        auction_result(STD, "N", ["7"])
    with pytest.raises(AuctionError, match="4 calls at most"):
        check_auction(STD, "N", ["7", "8", "9", "10", "11"])
    assert legal_calls(STD, "N", ["7", "8", "9", "10"]) == []


def test_highest_bid_wins_the_contract():
    c = auction_result(STD, "N", ["7", "pass", "9", "pass"])  # E, S, W, N
    assert c == Contract(Bid(9), Seat.W)
    assert str(c) == "9 by W"


# --- naming the strain ------------------------------------------------------------------


def test_strain_choices():
    assert strain_choices(STD, Bid(8)) == [(0, False), (1, False), (2, False), (3, False)]
    assert (4, False) in strain_choices(STD.replace(plain_bid_nt=True), Bid(8))
    assert strain_choices(STD, Bid(8, True)) == [(4, False)]
    assert strain_choices(STD.replace(low_nt="choice"), Bid(8, True)) == [(4, False), (4, True)]
    assert strain_choices(get_preset("low-nt"), Bid(8, True, True)) == [(4, True)]


def test_make_contract_checks_the_strain():
    c = make_contract(STD, "8", "N", Strain.S)
    assert (c.side, c.strain, c.low) == (0, Strain.S, False)
    assert make_contract(STD, "8NT", "E").strain == Strain.N
    with pytest.raises(AuctionError, match="cannot play N"):
        make_contract(STD, "8", "N", Strain.N)
    with pytest.raises(AuctionError, match="cannot play low N"):
        make_contract(STD, "8NT", "N", Strain.N, low=True)
    with pytest.raises(AuctionError, match="unknown seat"):
        make_contract(STD, "8", "X")


def test_all_presets_accept_a_simple_auction():
    for name, (r, _) in PRESETS.items():
        first = ladder(r)[0]
        c = auction_result(r, "N", [first, "pass", "pass", "pass"])
        assert c.declarer == Seat.E and c.bid == first, name
        assert isinstance(r, Rules)
