"""Card model and notation: layout, parse/format round trips, bad input."""

import numpy as np
import pytest

import kaiser_sim.cards
from hypothesis import given, settings
from hypothesis import strategies as st

from kaiser_sim.cards import (
    DECK_32,
    DECK_34,
    FIVE_HEARTS,
    STRAINS,
    THREE_SPADES,
    Card,
    NotationError,
    Seat,
    Strain,
    Suit,
    bit_count,
    card_name,
    cards_of,
    format_deal,
    format_hand,
    highest_bit_index,
    lowest_bit_index,
    parse_deal,
    parse_hand,
    popcount,
    reverse_ranks,
    special_bits_after_reverse,
)

ALL32 = cards_of(DECK_32)


def test_deck_contents():
    assert popcount(DECK_32) == 32 and popcount(DECK_34) == 34
    names = sorted(card_name(c) for c in ALL32)
    for suit in "SHDC":
        ranks = {n[:-1] for n in names if n.endswith(suit)}
        low = {"S": "3", "H": "5", "D": "7", "C": "7"}[suit]
        assert ranks == {"A", "K", "Q", "J", "T", "9", "8", low}
    assert int(DECK_34) & ~int(DECK_32) == (1 << Card.S7) | (1 << Card.H7)


def test_strain_and_seat_vocabulary_read_every_spelling_and_print_one():
    assert [s.name for s in Strain] == ["S", "H", "D", "C", "N", "L"] and int(Strain.L) == 5
    assert [s.label for s in STRAINS] == ["S", "H", "D", "C", "NT"] and Strain.L.label == "LNT"
    for strain in Strain:
        for spelling in (strain.name, strain.label, strain.noun, strain.noun.upper(), strain.label.lower()):
            assert Strain.parse(spelling) is strain
    assert Strain.parse("♥") is Strain.H and Strain.parse(" no-trump ") is Strain.N and Strain.parse("notrump") is Strain.N
    for bad in ("", "X", "NTlo", "7", "SS"):
        with pytest.raises(NotationError, match="unknown strain"):
            Strain.parse(bad)
    with pytest.raises(NotationError, match="S, H, D, C, NT\\)"):
        Strain.parse("L", low=False)
    for seat in Seat:
        assert Seat.parse(seat.name.lower()) is seat and Seat.parse(seat.noun) is seat
        assert seat.partner.partner is seat and (seat.partner - seat) % 4 == 2
    with pytest.raises(NotationError, match="unknown seat"):
        Seat.parse("X")


def test_the_vocabulary_is_spelled_only_in_cards():
    """Strain and seat words are printed from :mod:`kaiser_sim.cards` only:
    no other module spells them as string constants (``NT`` excepted, the
    label used as a table's row name)."""
    import ast
    from pathlib import Path

    words = {s.label for s in Strain} | {s.noun for s in Strain} | {s.noun for s in Seat} | {"NTlo"}
    words -= {s.name for s in Strain} | {"NT"}
    found = []
    for path in sorted(Path(kaiser_sim.cards.__file__).parent.rglob("*.py")):
        if path.name == "cards.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in words:
                found.append(f"{path.name}:{node.lineno} {node.value!r}")
    assert not found


def test_enum_values_are_the_encoding():
    assert [int(s) for s in Seat] == [0, 1, 2, 3]
    assert [int(s) for s in Suit] == [0, 1, 2, 3]
    assert int(Strain.N) == 4 and int(Strain.S) == int(Suit.S)
    assert FIVE_HEARTS == 16 * Suit.H + 0 and THREE_SPADES == 16 * Suit.S + 0
    # rank order inside a suit is bit order: A > K > ... > 8 > low card
    for suit in Suit:
        order = [f"{suit.name}{r}" for r in "AKQJT98"]
        vals = [int(Card[n]) for n in order]
        assert vals == sorted(vals, reverse=True)
        low = {Suit.S: "S3", Suit.H: "H5", Suit.D: "D7", Suit.C: "C7"}[suit]
        assert int(Card[low]) < vals[-1]


@settings(deadline=None)  # the first example compiles the helpers
@given(st.integers(min_value=1, max_value=(1 << 64) - 1))
def test_bit_helpers_match_python(x):
    u = np.uint64(x)
    assert bit_count(u) == bin(x).count("1")
    assert lowest_bit_index(u) == (x & -x).bit_length() - 1
    assert highest_bit_index(u) == x.bit_length() - 1


def test_bit_helpers_pure_python_reference():
    # the same helpers without the JIT (py_func) agree with the jitted ones
    for x in [1, 2, 3, 0x8000000000000000, 0x0123456789ABCDEF, (1 << 64) - 1]:
        u = np.uint64(x)
        with np.errstate(over="ignore"):  # the SWAR multiply wraps by design
            assert bit_count.py_func(u) == bit_count(u)
        assert highest_bit_index.py_func(u) == highest_bit_index(u)
        assert lowest_bit_index.py_func(u) == lowest_bit_index(u)


@st.composite
def deals(draw, min_cards=1):
    k = draw(st.integers(min_value=min_cards, max_value=8))
    perm = draw(st.permutations(ALL32))
    hands = np.zeros(4, dtype=np.uint64)
    for i in range(4 * k):
        hands[i % 4] |= np.uint64(1 << perm[i])
    return hands


@given(deals(), st.sampled_from(list(Seat)))
def test_deal_round_trip(hands, first):
    text = format_deal(hands, first=first)
    assert text.startswith(f"{first.name}:")
    assert np.array_equal(parse_deal(text), hands)


@given(deals())
def test_hand_round_trip_dotted_and_list(hands):
    h = hands[0]
    assert parse_hand(format_hand(h)) == h
    as_list = " ".join(card_name(c) for c in cards_of(h))
    assert parse_hand(as_list) == h


def test_parse_forms():
    a = parse_hand("AK93.5.AKJ.87")
    assert parse_hand("AS KS 9S 3S 5H AD KD JD 8C 7C") == a
    assert parse_hand("A♠ K♠ 9♠ 3♠ 5♥ A♦ K♦ J♦ 8♣ 7♣") == a
    assert parse_hand("39KA.5.JKA.78") == a  # any order on input
    assert parse_hand("T9.-.-.-") == parse_hand("109..-.") == parse_hand("10S 9S")
    assert format_hand(a) == "AK93.5.AKJ.87"
    assert format_hand(parse_hand("-.A.-.-")) == "-.A.-.-"
    # lower case accepted
    assert parse_hand("ak93.5.akj.87") == a


def test_parse_deal_rotation_and_output_order():
    d = parse_deal("E:A.-.-.- K.-.-.- Q.-.-.- J.-.-.-")
    assert format_hand(d[Seat.E]) == "A.-.-.-"
    assert format_hand(d[Seat.N]) == "J.-.-.-"
    assert format_deal(d) == "N:J.-.-.- A.-.-.- K.-.-.- Q.-.-.-"


@pytest.mark.parametrize(
    "text, message",
    [
        ("N:A5.-.-.- -.-.-.K Q.-.-.- J.5.-.-", "unknown rank '5' in N's spades"),
        ("N:A.-.-.- A.-.-.- K.-.-.- Q.-.-.-", "AS appears twice: N and E"),
        ("N:A.5.-.- K.-.-.- Q.-.-.- J.5.-.-", "5H appears twice: N and W"),
        ("N:AKQJT983.5.-.- -.AKQJT98.-.- -.-.AKQJT98.- -.-.-.AKQJT98", "N has 9 cards (at most 8)"),
        ("N:AK.-.-.- Q.-.-.- J.-.-.- T.-.-.-", "hands have unequal lengths"),
        ("N:A.-.-.- K.-.-.- Q.-.-.-", "a deal needs 4 hands, got 3"),
        ("N:A.-.-.- K.-.-.- Q.-.-.- J.-.-.- T.-.-.-", "a deal needs 4 hands, got 5"),
        ("X:A.-.-.- K.-.-.- Q.-.-.- J.-.-.-", "unknown seat 'X'"),
        ("N:A.-.-.2 K.-.-.- Q.-.-.- J.-.-.-", "unknown rank '2' in N's clubs"),
        ("N:A.-.- K.-.-.- Q.-.-.- J.-.-.-", "N has 3 suits"),
        ("", "empty deal"),
        ("N:- - - -", "empty deal"),
        ("N:-.-.-.- -.-.-.- -.-.-.- -.-.-.-", "empty deal"),
        ("N:7.-.-.- K.-.-.- Q.-.-.- J.-.-.-", "no 7 in spades in the 32-card deck"),
        ("N:AA.-.-.- KQ.-.-.- JT.-.-.- 98.-.-.-", "AS appears twice in N"),
    ],
)
def test_bad_deals_are_named(text, message):
    with pytest.raises(NotationError) as e:
        parse_deal(text)
    assert message in str(e.value)


def test_bad_hands_are_named():
    with pytest.raises(NotationError, match="unknown card 'ZZ'"):
        parse_hand("AS ZZ")
    with pytest.raises(NotationError, match="5H appears twice"):
        parse_hand("5H AS 5H")
    with pytest.raises(NotationError, match="is empty"):
        parse_hand("  ")
    # one word that is neither dotted suits nor a card: both notations are named
    with pytest.raises(NotationError, match=r"cannot read 'ZZ' \(the hand\).*AKQ9\.5\.AK\.7.*AS KS 5H"):
        parse_hand("ZZ")
    with pytest.raises(NotationError, match="cannot read 'AKQ'"):
        parse_hand("AKQ")


def test_kitty_deck_sevens_only_when_asked():
    assert parse_hand("7.7.-.-", deck34=True) == (1 << Card.S7) | (1 << Card.H7)
    with pytest.raises(NotationError):
        parse_hand("7.-.-.-")


@given(deals(), st.booleans())
def test_reverse_ranks_is_an_involution_and_keeps_suits(hands, stay):
    rev = reverse_ranks(hands, specials_stay_lowest=stay)
    assert np.array_equal(reverse_ranks(rev, specials_stay_lowest=stay), hands)
    for h, r in zip(hands, rev):
        for suit in Suit:
            m = np.uint64(0xFFFF << (16 * suit))
            assert popcount(h & m) == popcount(r & m)


def test_reverse_ranks_order():
    # after reversal the 8 of diamonds outranks the ace, and the specials
    # move to the top unless they stay lowest
    rev = reverse_ranks(np.array([1 << Card.D8, 1 << Card.DA, 1 << Card.H5, 1 << Card.S3], dtype=np.uint64))
    assert int(rev[0]) > int(rev[1])
    five, three = special_bits_after_reverse(False)
    assert rev[2] == five and rev[3] == three
    rev2 = reverse_ranks(np.array([1 << Card.H5, 1 << Card.H8, 1 << Card.HA, 0], dtype=np.uint64), True)
    five2, _ = special_bits_after_reverse(True)
    assert rev2[0] == five2 and rev2[0] < rev2[2] < rev2[1]
