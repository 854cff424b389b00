"""Play-affecting variants: deals per rules, weak hands, low no trump and the
kitty discards, against the naive reference (``tests/naive.py``) and against
brute force over every discard."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import naive
from kaiser_sim import dd
from kaiser_sim.cards import (
    DECK_32,
    DECK_34,
    FIVE_HEARTS_BIT,
    THREE_SPADES_BIT,
    Card,
    parse_deal,
    parse_hand,
    popcount,
    reverse_ranks,
    special_bits_after_reverse,
)
from kaiser_sim.deal import deal_for_rules, weak_hands
from kaiser_sim.game.values import (
    LOW_NT,
    dd_value,
    discard_classes,
    kitty_dd_value,
    kitty_dd_values,
    play_view,
    strain_keys,
)
from kaiser_sim.game.values import dd_table as dd_table_for_rules
from kaiser_sim.rules import get_preset

STD = get_preset("standard")
K1 = get_preset("kitty-4")
K2 = get_preset("kitty-34")
LOW = get_preset("low-nt")


def bitno(bit) -> int:
    return int(bit).bit_length() - 1


def card_bits(mask) -> list[int]:
    return [c for c in range(64) if int(mask) >> c & 1]


def random_layout(rng, deck, per_hand, kitty):
    """Four hands of ``per_hand`` cards and a kitty, from a shuffled deck."""
    cards = card_bits(deck)
    rng.shuffle(cards)
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(4):
        for c in cards[s * per_hand : (s + 1) * per_hand]:
            hands[s] |= np.uint64(1 << c)
    kit = 0
    for c in cards[4 * per_hand : 4 * per_hand + kitty]:
        kit |= 1 << c
    return hands, np.uint64(kit)


# --- deals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, size, kitty, deck", [("standard", 8, 0, DECK_32), ("kitty-4", 7, 4, DECK_32),
                                                     ("kitty-34", 8, 2, DECK_34)])
def test_deal_for_rules_shapes(name, size, kitty, deck):
    r = get_preset(name)
    deals, kits = deal_for_rules(50, 11, r)
    assert deals.shape == (50, 4) and kits.shape == (50,)
    for hands, kit in zip(deals, kits):
        assert [popcount(h) for h in hands] == [size] * 4
        assert popcount(kit) == kitty
        union = int(hands[0] | hands[1] | hands[2] | hands[3])
        assert union & int(kit) == 0 and union | int(kit) == int(deck)
    again, kits2 = deal_for_rules(10, 11, r, start=40)
    assert (again == deals[40:]).all() and (kits2 == kits[40:]).all()


def test_kitty_34_deals_contain_the_two_extra_sevens():
    deals, kits = deal_for_rules(200, 3, K2)
    seen = int(np.bitwise_or.reduce(deals.ravel())) | int(np.bitwise_or.reduce(kits))
    assert seen >> int(Card.S7) & 1 and seen >> int(Card.H7) & 1


def test_weak_hands():
    hands = np.array([[parse_hand("T98.T98.T.-"), parse_hand("A.-.-.-"), parse_hand("-.5.-.-"),
                       parse_hand("T.T.T.T")]], dtype=np.uint64)
    assert weak_hands(STD, hands).tolist() == [[True, False, False, True]]
    assert weak_hands(STD.replace(weak_redeal="off"), hands).tolist() == [[False] * 4]
    quads = np.array([[parse_hand("AT.T.T.T"), parse_hand("K9.9.9.9"), parse_hand("Q8.8.8.8"),
                       parse_hand("J.K.K.K")]], dtype=np.uint64)
    assert weak_hands(STD, quads).tolist() == [[False] * 4]
    assert weak_hands(STD.replace(weak_redeal="weak+quads"), quads).tolist() == [[True, True, True, False]]


# --- low no trump --------------------------------------------------------------------------


def test_low_nt_lowest_card_wins_one_card_endgame():
    # 1 card each in spades: the 8 wins a low trick, the ace a high one
    hands = parse_deal("N:A.-.-.- K.-.-.- Q.-.-.- 8.-.-.-")
    assert dd_value(hands, 0, 4, STD) == 1  # N's ace wins high NT
    assert dd_value(hands, 0, LOW_NT, LOW) == 0  # W's 8 wins low NT


@pytest.mark.parametrize("stay", [False, True])
def test_low_nt_specials(stay):
    # hearts only: N leads the 5H.  Reversed, the 5H is the *highest* heart and
    # wins with its +5; with the specials staying lowest it loses to every heart.
    r = LOW.replace(low_specials_lowest=stay)
    hands = parse_deal("N:-.5.-.- -.A.-.- -.K.-.- -.Q.-.-")
    v = dd_value(hands, 0, LOW_NT, r)
    assert v == (0 if stay else 6)


@pytest.mark.parametrize("stay", [False, True])
def test_low_nt_against_naive_on_endgames(stay):
    rng = np.random.default_rng(5 + stay)
    r = LOW.replace(low_specials_lowest=stay)
    five, three = special_bits_after_reverse(stay)
    for _ in range(12):
        hands, _ = random_layout(rng, DECK_32, 5, 0)
        rev = reverse_ranks(hands, stay)
        for leader in (0, 1):
            got = dd_value(hands, leader, LOW_NT, r)
            want = naive.solve(rev, leader, 4, "points", five=bitno(five), three=bitno(three))
            assert got == want
            got_t = dd_value(hands, leader, LOW_NT, r, mode="tricks")
            assert got_t == naive.solve(rev, leader, 4, "tricks")


def test_low_nt_full_deal_against_naive():
    # one full 8-card deal (the naive search takes about a second here)
    hands = parse_deal("N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K")
    five, three = special_bits_after_reverse(False)
    rev = reverse_ranks(hands)
    assert dd_value(hands, 0, LOW_NT, LOW) == naive.solve(rev, 0, 4, five=bitno(five), three=bitno(three))


def test_dd_table_for_rules_adds_a_low_nt_column():
    deals, _ = deal_for_rules(3, 2, LOW)
    t = dd_table_for_rules(deals, LOW)
    assert t.shape == (3, 4, 6) and strain_keys(LOW)[LOW_NT] == "L"
    assert (t[:, :, :5] == dd.dd_table(deals)).all()
    for i in range(3):
        for seat in range(4):
            assert t[i, seat, LOW_NT] == dd_value(deals[i], seat, LOW_NT, LOW)
    assert dd_table_for_rules(deals, STD).shape == (3, 4, 5)


def test_play_view_is_identity_for_high_contracts():
    hands = parse_deal("N:A.Q5.K9.AT8 J9.98.Q7.J9 QT8.AJ.8.Q7 K3.KT.AJT.K")
    h, f, t = play_view(hands, STD, False)
    assert (h == hands).all() and f == FIVE_HEARTS_BIT and t == THREE_SPADES_BIT


# --- kitty discards --------------------------------------------------------------------------


def brute_force(hands, kitty, declarer, strain, rules, mode, solve):
    """max over *every* legal discard (no equivalence, no pruning) of solve()."""
    low = strain == LOW_NT
    view = np.array(hands, dtype=np.uint64)
    view[declarer] |= np.uint64(kitty)
    if low:
        view = reverse_ranks(view, rules.low_specials_lowest)
        five, three = special_bits_after_reverse(rules.low_specials_lowest)
    else:
        five, three = FIVE_HEARTS_BIT, THREE_SPADES_BIT
    five, three = int(five), int(three)
    k = popcount(kitty)
    allowed = [c for c in card_bits(view[declarer])
               if rules.may_discard_specials or not (1 << c) & (five | three)]
    best = None
    for d in combinations(allowed, k):
        mask = sum(1 << c for c in d)
        pos = view.copy()
        pos[declarer] = np.uint64(int(view[declarer]) & ~mask)
        v = solve(pos, declarer, 4 if low else strain, mode, bitno(five), bitno(three))
        if mode == "points" and rules.kitty_discard_points == "declarer":
            v += (5 if mask & five else 0) - (3 if mask & three else 0)
        best = v if best is None else max(best, v)
    return best


def naive_solve(pos, leader, strain, mode, five, three):
    return naive.solve(pos, leader, strain, mode, five=five, three=three)


def fast_solve(pos, leader, strain, mode, five, three):
    return dd.solve(pos, leader, strain, mode, five=np.uint64(1 << five), three=np.uint64(1 << three))


@pytest.mark.parametrize(
    "rules, deck, per_hand, kitty",
    [
        (K1, DECK_32, 4, 4),  # 4-card kitty, specials may go (counting for nobody)
        (K1.replace(kitty_discard_points="declarer"), DECK_32, 4, 4),
        (K2, DECK_34, 5, 2),  # 2-card kitty, specials stay
        (K2, DECK_34, 3, 2),
    ],
)
@pytest.mark.parametrize("mode", ["points", "tricks"])
def test_kitty_value_against_naive_brute_force(rules, deck, per_hand, kitty, mode):
    rng = np.random.default_rng(per_hand * 10 + kitty)
    for trial in range(6):
        hands, kit = random_layout(rng, deck, per_hand, kitty)
        decl = trial % 4
        strain = [0, 4, 2, LOW_NT, 1, 3][trial]
        got = kitty_dd_value(hands, kit, decl, strain, rules, mode)
        want = brute_force(hands, kit, decl, strain, rules, mode, naive_solve)
        assert got == want, (trial, hands, kit)


def test_kitty_value_against_brute_force_on_full_deals():
    # full deals: the pruned search (equivalent discards, null-window tests)
    # against every discard solved exactly
    for rules in (K2, K1):
        deals, kits = deal_for_rules(2, 21, rules)
        for i in range(2):
            for decl, strain in ((0, 0), (1, 4)):
                got = kitty_dd_value(deals[i], kits[i], decl, strain, rules)
                if rules is K1 and (decl, strain) == (1, 4):
                    continue  # 330 exact solves: checked in the K2 case and the endgames
                want = brute_force(deals[i], kits[i], decl, strain, rules, "points", fast_solve)
                assert got == want


def test_k2_never_discards_a_special_card():
    # N holds the 3S and 5H; the kitty brings two small clubs.  Discarding the
    # 3S would be best, but K2 forbids it: the discard is two plain cards.
    hands = parse_deal("N:3.5.AK.- A.A.QJ.- K.K.T9.- Q.Q.87.-", deck34=True)
    kit = int(parse_hand("-.-.-.98"))
    v, d = kitty_dd_value(hands, kit, 0, 2, K2, return_discard=True)
    assert d & (int(FIVE_HEARTS_BIT) | int(THREE_SPADES_BIT)) == 0
    assert popcount(d) == 2
    assert v == brute_force(hands, kit, 0, 2, K2, "points", naive_solve)


def test_k1_may_discard_the_three_of_spades_and_nobody_counts_it():
    # N (diamonds trump) holds the 3S, singleton: throwing it avoids the -3
    hands = parse_deal("N:3.-.AKQ.- A.8.J.9 K.9.T.T Q.T.9.J")
    kit = int(parse_hand("-.-.87.AK"))
    v, d = kitty_dd_value(hands, kit, 0, 2, K1, return_discard=True)
    assert d & int(THREE_SPADES_BIT)
    assert v == brute_force(hands, kit, 0, 2, K1, "points", naive_solve)
    # counted for the declarer, the -3 follows the card into the discard
    kd = K1.replace(kitty_discard_points="declarer")
    assert kitty_dd_value(hands, kit, 0, 2, kd) == brute_force(hands, kit, 0, 2, kd, "points", naive_solve)
    # forbidden to discard specials: the 3S must be played
    kn = K1.replace(kitty_discard_specials="no")
    v2, d2 = kitty_dd_value(hands, kit, 0, 2, kn, return_discard=True)
    assert not d2 & int(THREE_SPADES_BIT) and v2 < v


def test_discard_classes_cover_every_discard():
    # every discard of the hand is equivalent to exactly one class: the
    # classes are the multisets of how many cards each run gives
    hand = int(parse_hand("AKQ.5.J987.-"))
    others = int(parse_hand("J.A.T.AKQJ"))
    classes = discard_classes(hand, hand | others, 4, special=int(FIVE_HEARTS_BIT))
    # runs: spades AKQ (one run), 5H alone, diamonds J | 987 (T is elsewhere)
    assert len(classes) == len(set(classes))
    assert all(popcount(c) == 4 for c in classes)
    runs = [["SA", "SK", "SQ"], ["H5"], ["DJ"], ["D9", "D8", "D7"]]
    sizes = [len(r) for r in runs]
    want = sum(1 for js in np.ndindex(*[s + 1 for s in sizes]) if sum(js) == 4)
    assert len(classes) == want
    assert len(classes) < len(list(combinations(range(popcount(hand)), 4)))


def test_kitty_values_batch_and_table():
    deals, kits = deal_for_rules(2, 4, K2)
    vals = kitty_dd_values(deals, kits, 0, 3, K2)
    assert vals.tolist() == [kitty_dd_value(deals[i], kits[i], 0, 3, K2) for i in range(2)]
    t = dd_table_for_rules(deals[:1], K2, kitties=kits[:1])
    assert t.shape == (1, 4, 5) and t[0, 0, 3] == vals[0]
    with pytest.raises(ValueError, match="give the kitties"):
        dd_table_for_rules(deals, K2)


def test_kitty_input_checks():
    hands = parse_deal("N:3.5.AK.- A.A.QJ.- K.K.T9.- Q.Q.87.-")
    with pytest.raises(ValueError, match="shares a card"):
        kitty_dd_value(hands, int(parse_hand("A.-.-.-")), 0, 0, K2)
    with pytest.raises(ValueError, match="empty"):
        kitty_dd_value(hands, 0, 0, 0, K2)
    with pytest.raises(ValueError, match="strain 6"):
        kitty_dd_value(hands, int(parse_hand("-.-.-.A")), 0, 6, K2)


@pytest.mark.slow
@pytest.mark.parametrize("stay", [False, True])
def test_low_nt_full_deals_against_naive_slow(stay):
    # full 8-card deals (docs/solver.md pitfall 5: some errors show only there);
    # the naive search takes up to ~20 s on one of them
    r = LOW.replace(low_specials_lowest=stay)
    five, three = special_bits_after_reverse(stay)
    deals, _ = deal_for_rules(8, 5, LOW)
    for i, hands in enumerate(deals):
        want = naive.solve(reverse_ranks(hands, stay), i % 4, 4, five=bitno(five), three=bitno(three))
        assert dd_value(hands, i % 4, LOW_NT, r) == want


@pytest.mark.slow
@pytest.mark.parametrize("rules, n", [(K2, 8), (K1, 3), (K2.replace(kitty_discard_specials="yes"), 3)])
def test_kitty_full_deals_against_brute_force_slow(rules, n):
    deals, kits = deal_for_rules(n, 99, rules)
    for i in range(n):
        for decl, strain in ((0, 0), (1, 4), (2, LOW_NT), (3, 1)):
            want = brute_force(deals[i], kits[i], decl, strain, rules, "points", fast_solve)
            assert kitty_dd_value(deals[i], kits[i], decl, strain, rules) == want


def test_weak_hands_can_be_redealt_reproducibly():
    r = STD.replace(weak_redeal="weak+quads")
    plain, _ = deal_for_rules(3000, 8, r)
    weak = weak_hands(r, plain).any(axis=1)
    assert 0 < weak.sum() < 300
    redealt, _ = deal_for_rules(3000, 8, r, redeal_weak=True)
    assert not weak_hands(r, redealt).any()
    assert (redealt[~weak] == plain[~weak]).all()
    assert (redealt[weak] != plain[weak]).any(axis=1).all()
    i = int(np.flatnonzero(weak)[0])
    one, _ = deal_for_rules(1, 8, r, start=i, redeal_weak=True)
    assert (one[0] == redealt[i]).all()
    # the rules without the redeal leave every deal alone
    same, _ = deal_for_rules(3000, 8, r.replace(weak_redeal="off"), redeal_weak=True)
    assert (same == plain).all()
