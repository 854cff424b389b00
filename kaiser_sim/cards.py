"""Cards, seats, strains, the bitboard layout and the text notation.

Bitboard layout (the only place that knows it)
----------------------------------------------
A hand is one ``uint64``.  Suit ``s`` (S=0, H=1, D=2, C=3) owns the 16 bits
starting at ``16 * s``; inside a suit the bit index is the rank index, higher
bit = higher card::

    rank index  0    1  2  3  4  5  6  7  8
    card        low  7  8  9  T  J  Q  K  A      (low = 3 in spades, 5 in hearts)

The standard 32-card deck uses indices 1..8 in diamonds and clubs and 0, 2..8
in spades and hearts (the 3S and 5H *replace* the 7).  The 34-card kitty deck
(rules K2) adds the 7S and 7H at index 1.  Reversed ("low") ranks are a
relabelling of bits inside each suit (:func:`reverse_ranks`), so the solver
never needs to know about them.  ``Card`` values are the bit numbers, so
``1 << card`` is the card's bit.
"""

from __future__ import annotations

import re
from enum import IntEnum

import numpy as np
from numba import njit

from .errors import KaiserSimError


class Seat(IntEnum):
    """Seats clockwise; N-S and E-W are partners (``seat & 1`` is the side).

    Written ``N E S W`` (:attr:`name`) everywhere: notation, JSON keys,
    result columns; :meth:`parse` is the one reader, :attr:`noun` the word."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def noun(self) -> str:
        """``"North"`` .. ``"West"``."""
        return ("North", "East", "South", "West")[self]

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @classmethod
    def parse(cls, text) -> Seat:
        """``N``/``north`` (any case) .. ``W``; a :class:`NotationError` names
        the choices otherwise."""
        word = str(text).strip().upper()
        for seat in cls:
            if word in (seat.name, seat.noun.upper()):
                return seat
        raise NotationError(f"unknown seat '{text}' (use N, E, S or W)")


class Suit(IntEnum):
    S = 0
    H = 1
    D = 2
    C = 3


class Strain(IntEnum):
    """The four trump suits (same values as ``Suit``), no trump and low no
    trump (rules P1: no trump with every suit's ranks reversed; a strain of
    its own only where the rules have it).

    The one vocabulary of strains: :attr:`name` is the key (``S H D C N L``:
    input, JSON keys, arguments), :attr:`label` the printed heading and the
    result columns' suffix (``S H D C NT LNT``), :attr:`noun` the word
    (``spades`` .. ``low no trump``); :meth:`parse` reads any of them.  A
    table of the standard game has the five :data:`STRAINS`; the solver's
    strain argument is the value (``L`` = 5 means low no trump where the
    rules variants take it).
    """

    S = 0
    H = 1
    D = 2
    C = 3
    N = 4
    L = 5

    @property
    def label(self) -> str:
        return ("S", "H", "D", "C", "NT", "LNT")[self]

    @property
    def noun(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs", "no trump", "low no trump")[self]

    @property
    def is_suit(self) -> bool:
        return self < Strain.N

    @classmethod
    def parse(cls, text, *, low: bool = True) -> Strain:
        """A strain from its key, label, noun or suit symbol, any case: ``s``,
        ``♠``, ``spades``, ``N``, ``NT``, ``no trump``, ``L``, ``LNT``, ``low
        no trump``.  ``low=False`` refuses low no trump (a standard table).
        Raises :class:`NotationError` naming the choices."""
        word = " ".join(str(text).replace("-", " ").split()).upper()
        word = SUIT_SYMBOLS.get(word, word)
        for strain in cls if low else STRAINS:
            if word in (strain.name, strain.label, strain.noun.upper(), strain.noun.upper().replace(" ", "")):
                return strain
        names = "S, H, D, C, NT" + (" or LNT" if low else "")
        raise NotationError(f"unknown strain '{text}' (use {names})")


#: the strains of a standard table, in the solver's order: S H D C N
STRAINS = tuple(Strain)[:5]
#: the keys of the five strains of a standard table, in array order (the one definition: S H D C N)
STRAIN_KEYS = tuple(s.name for s in STRAINS)
#: the keys of every strain, with low no trump's L (rules ``low_nt``; the sixth column where the rules have it)
ALL_STRAIN_KEYS = tuple(s.name for s in Strain)
NO_TRUMP = int(Strain.N)
LOW_NO_TRUMP = int(Strain.L)
SUIT_BITS = 16
RANKS_PER_SUIT = 9  # rank indices 0..8
RANK_CHARS = "?789TJQKA"  # index 0 is suit dependent (3 or 5), see _low_char
_LOW_CHAR = {Suit.S: "3", Suit.H: "5"}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _make_card_enum():
    members = {}
    for suit in Suit:
        for rank in range(RANKS_PER_SUIT):
            if rank == 0:
                if suit not in _LOW_CHAR:
                    continue
                ch = _LOW_CHAR[suit]
            else:
                ch = RANK_CHARS[rank]
            members[f"{suit.name}{ch}"] = int(suit) * SUIT_BITS + rank
    return IntEnum("Card", members)


Card = _make_card_enum()
Card.__doc__ = "Every card of the 34-card deck; the value is the card's bit number."

FIVE_HEARTS = int(Card.H5)
THREE_SPADES = int(Card.S3)
FIVE_HEARTS_BIT = np.uint64(1 << FIVE_HEARTS)
THREE_SPADES_BIT = np.uint64(1 << THREE_SPADES)
SUIT_MASK = np.array([0xFFFF << (SUIT_BITS * s) for s in range(4)], dtype=np.uint64)

_KITTY_SEVENS = (int(Card.S7), int(Card.H7))
DECK_34 = np.uint64(sum(1 << int(c) for c in Card))
DECK_32 = np.uint64(int(DECK_34) & ~sum(1 << c for c in _KITTY_SEVENS))


def card_bit(card: int) -> np.uint64:
    return np.uint64(1 << int(card))


def card_suit(card: int) -> int:
    return int(card) >> 4


def card_rank(card: int) -> int:
    return int(card) & 15


def card_name(card: int) -> str:
    """``'AS'``, ``'5H'``: rank then suit, as used in messages."""
    suit, rank = card_suit(card), card_rank(card)
    ch = _LOW_CHAR[Suit(suit)] if rank == 0 else RANK_CHARS[rank]
    return ch + Suit(suit).name


def cards_of(mask) -> list[int]:
    """The cards of a bitboard, highest bit first (spades ace first... clubs low last)."""
    m = int(mask)
    out = []
    while m:
        b = m.bit_length() - 1
        out.append(b)
        m &= ~(1 << b)
    # highest bit first would list clubs first; order suits S H D C, ranks high to low
    out.sort(key=lambda c: (card_suit(c), -card_rank(c)))
    return out


def popcount(mask) -> int:
    return bin(int(mask)).count("1")


# --- jitted bit helpers shared by the kernels ---------------------------------


@njit(cache=True, inline="always")
def bit_count(x):
    """Number of set bits of a uint64 (SWAR popcount)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return bit_count((x & (~x + np.uint64(1))) - np.uint64(1))


@njit(cache=True, inline="always")
def highest_bit_index(x):
    """Index of the highest set bit of a non-zero uint64."""
    n = 0
    if x >> np.uint64(32):
        n += 32
        x >>= np.uint64(32)
    if x >> np.uint64(16):
        n += 16
        x >>= np.uint64(16)
    if x >> np.uint64(8):
        n += 8
        x >>= np.uint64(8)
    if x >> np.uint64(4):
        n += 4
        x >>= np.uint64(4)
    if x >> np.uint64(2):
        n += 2
        x >>= np.uint64(2)
    if x >> np.uint64(1):
        n += 1
    return n


# --- reversed ranks (low no-trump) ---------------------------------------------


def reverse_ranks(hands: np.ndarray, specials_stay_lowest: bool = False) -> np.ndarray:
    """Relabel every card so that bit order is reversed inside each suit.

    Used for low no-trump (rules P1): after the relabelling, "higher bit wins"
    means "lower card wins".  With ``specials_stay_lowest`` the 5H and 3S keep
    losing to every card of their suit (one rule collection plays it so): they
    stay at bit 0 and the other cards are reversed above them.  Returns a new
    array; the special cards' new bits are given by :func:`special_bits_after_reverse`.
    """
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.zeros_like(hands)
    specials = (FIVE_HEARTS, THREE_SPADES)
    # every rank position of every suit, not only the named cards: a reversed
    # diamond 7 sits at position 7 and a reversed ace at 0, so a second
    # reversal must move positions that name no card
    for s in range(4):
        for r in range(RANKS_PER_SUIT):
            c = s * SUIT_BITS + r
            if specials_stay_lowest and c in specials:
                nr = 0
            elif specials_stay_lowest and s in (Suit.S, Suit.H):
                nr = 9 - r if r > 0 else 0  # ranks 1..8 onto 8..1, the special stays at 0
            else:
                nr = 8 - r
            has = (hands & np.uint64(1 << c)) != 0
            out[has] |= np.uint64(1 << (s * SUIT_BITS + nr))
    return out


def special_bits_after_reverse(specials_stay_lowest: bool = False) -> tuple[np.uint64, np.uint64]:
    """Bits of (5H, 3S) after :func:`reverse_ranks`."""
    if specials_stay_lowest:
        return FIVE_HEARTS_BIT, THREE_SPADES_BIT
    return np.uint64(1 << (SUIT_BITS * Suit.H + 8)), np.uint64(1 << (SUIT_BITS * Suit.S + 8))


# --- notation ------------------------------------------------------------------


class NotationError(KaiserSimError):
    """A deal or hand that cannot be read; the message names the problem."""


_RANK_OF_CHAR = {"A": 8, "K": 7, "Q": 6, "J": 5, "T": 4, "9": 3, "8": 2, "7": 1}
_SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


def _rank_index(ch: str, suit: int, where: str, deck34: bool) -> int:
    up = ch.upper()
    if up == "10":
        up = "T"
    if up in _RANK_OF_CHAR:
        r = _RANK_OF_CHAR[up]
        if r == 1 and suit in (Suit.S, Suit.H) and not deck34:
            low = _LOW_CHAR[Suit(suit)]
            raise NotationError(
                f"no 7 in {_SUIT_NAMES[Suit(suit)]} in the 32-card deck ({where}); its low card is the {low}"
            )
        return r
    if suit in _LOW_CHAR and up == _LOW_CHAR[Suit(suit)]:
        return 0
    raise NotationError(f"unknown rank '{ch}' in {where}'s {_SUIT_NAMES[Suit(suit)]}")


def _tokens(text: str) -> list[str]:
    return re.findall(r"10|.", text)


def _parse_dotted(text: str, who: str, deck34: bool) -> int:
    parts = text.split(".")
    if len(parts) != 4:
        raise NotationError(f"{who} has {len(parts)} suits, need 4 separated by dots (spades.hearts.diamonds.clubs)")
    mask = 0
    for suit, part in zip(Suit, parts):
        part = part.strip()
        if part == "-":
            continue
        for tok in _tokens(part):
            r = _rank_index(tok, suit, who, deck34)
            bit = 1 << (suit * SUIT_BITS + r)
            if mask & bit:
                raise NotationError(f"{card_name(suit * SUIT_BITS + r)} appears twice in {who}")
            mask |= bit
    return mask


_CARD_TOKEN = re.compile(r"^(10|[AKQJT98753])([SHDC♠♥♦♣])$|^([SHDC♠♥♦♣])(10|[AKQJT98753])$", re.IGNORECASE)


def _parse_card_list(text: str, who: str, deck34: bool) -> int:
    mask = 0
    for tok in text.replace(",", " ").split():
        m = _CARD_TOKEN.match(tok)
        if not m:
            raise NotationError(f"unknown card '{tok}' in {who} (write cards as AS, 10H, 5♥)")
        rank_ch, suit_ch = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        suit = Suit[SUIT_SYMBOLS.get(suit_ch, suit_ch.upper())]
        r = _rank_index(rank_ch, suit, who, deck34)
        c = suit * SUIT_BITS + r
        if mask & (1 << c):
            raise NotationError(f"{card_name(c)} appears twice in {who}")
        mask |= 1 << c
    return mask


def parse_hand(text: str, deck34: bool = False, who: str = "the hand") -> np.uint64:
    """Read one hand: ``AKQ9.5.AK.7`` (S.H.D.C, ``-`` or empty for a void) or a
    card list ``AS KS 5H`` / ``A♠ K♠ 5♥``.  Raises :class:`NotationError`."""
    text = text.strip()
    if not text:
        raise NotationError(f"{who} is empty")
    if text == "-":
        return np.uint64(0)  # a hand with no cards (only valid where all are empty)
    if "." in text:
        return np.uint64(_parse_dotted(text, who, deck34))
    if " " in text or "," in text or _CARD_TOKEN.match(text):
        return np.uint64(_parse_card_list(text, who, deck34))
    # one word, neither suits with dots nor a card: name both ways of writing a hand
    raise NotationError(f"cannot read '{text}' ({who}): write suits S.H.D.C with dots (AKQ9.5.AK.7, - for a "
                        "void) or a list of cards (AS KS 5H)")


def format_hand(mask) -> str:
    """``AKQ9.5.AK.7``: suits S.H.D.C, ranks high to low, ``-`` for a void."""
    m = int(mask)
    parts = []
    for suit in Suit:
        bits = (m >> (suit * SUIT_BITS)) & 0xFFFF
        s = "".join(
            (_LOW_CHAR[suit] if r == 0 else RANK_CHARS[r]) for r in range(RANKS_PER_SUIT - 1, -1, -1) if bits >> r & 1
        )
        parts.append(s or "-")
    return ".".join(parts)


def parse_deal(text: str, deck34: bool = False, max_cards: int = 8) -> np.ndarray:
    """Read ``N:<north> <east> <south> <west>`` (hands clockwise from the named
    seat) into a ``(4,)`` uint64 array indexed by :class:`Seat`.

    Checks everything a deal must satisfy and raises :class:`NotationError`
    naming the first problem: a card twice (``5H appears twice: N and W``), an
    unknown rank, suit or seat, the wrong number of hands, more than
    ``max_cards`` cards in a hand, unequal hand lengths, an empty deal.
    """
    text = text.strip()
    if not text:
        raise NotationError("empty deal")
    if ":" in text:
        first, rest = text.split(":", 1)
        start = Seat.parse(first) if first.strip().upper() in Seat.__members__ else None
        if start is None:  # the notation takes the letter only
            raise NotationError(f"unknown seat '{first.strip().upper()}' (use N, E, S or W)")
    else:
        start, rest = Seat.N, text
    parts = rest.split()
    if len(parts) != 4:
        raise NotationError(f"a deal needs 4 hands, got {len(parts)}")
    hands = np.zeros(4, dtype=np.uint64)
    owner: dict[int, str] = {}
    for i, part in enumerate(parts):
        seat = Seat((start + i) % 4)
        mask = int(parse_hand(part, deck34=deck34, who=seat.name))
        for c in cards_of(mask):
            if c in owner:
                raise NotationError(f"{card_name(c)} appears twice: {owner[c]} and {seat.name}")
            owner[c] = seat.name
        hands[seat] = mask
    check_hands(hands, max_cards=max_cards)
    return hands


def check_hands(hands: np.ndarray, max_cards: int = 8) -> None:
    """Raise :class:`NotationError` unless the four hands are disjoint, equal
    in length, non-empty and at most ``max_cards`` each."""
    lengths = [popcount(h) for h in hands]
    for seat, n in zip(Seat, lengths):
        if n > max_cards:
            raise NotationError(f"{seat.name} has {n} cards (at most {max_cards})")
    if len(set(lengths)) != 1:
        detail = ", ".join(f"{s.name} {n}" for s, n in zip(Seat, lengths))
        raise NotationError(f"hands have unequal lengths: {detail}")
    if lengths[0] == 0:
        raise NotationError("empty deal")
    seen = 0
    for seat, h in zip(Seat, hands):
        clash = seen & int(h)
        if clash:
            c = cards_of(clash)[0]
            other = next(s.name for s, g in zip(Seat, hands) if s != seat and int(g) >> c & 1)
            raise NotationError(f"{card_name(c)} appears twice: {other} and {seat.name}")
        seen |= int(h)


def format_deal(hands, first: Seat = Seat.N) -> str:
    """``N:AKQ9.5.AK.7 ...``: the inverse of :func:`parse_deal`."""
    return f"{Seat(first).name}:" + " ".join(format_hand(hands[(first + i) % 4]) for i in range(4))
