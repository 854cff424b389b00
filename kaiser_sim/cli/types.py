"""click parameter types for the library's vocabulary: seats, strains, hands,
deals and bids.

Each type reads its value with the library's one reader (``Seat.parse``,
``Strain.parse``, ``parse_hand`` and ``parse_deal`` of :mod:`kaiser_sim.cards`,
``Bid.parse`` of :mod:`kaiser_sim.auction`); a value the reader refuses is
click's usage error (exit status 2) with the reader's message.  Those modules
import numpy and numba, so they are imported inside ``convert``, never for
``--help``.  Hands and deals are read under the command's rules
(:func:`~kaiser_sim.cli.rules_options.rules_of`: the 34-card deck has the 7S
and 7H, a kitty game deals 7 cards a hand).

- ``SEAT``: ``N``, ``e``, ``South``, ``west`` -> a ``cards.Seat``;
- ``STRAIN``: ``S``, ``♥``, ``diamonds``, ``N``, ``NT``, ``no trump``, ``L``,
  ``LNT`` -> a ``cards.Strain`` (``StrainType(low=False)`` refuses low no
  trump);
- ``HAND``: ``AK93.5.AK.8``, ``AS KS 5H``, ``A♠ K♠ ...`` -> the ``uint64`` mask;
- ``DEAL``: ``N:<north> <east> <south> <west>`` -> the ``(4,)`` uint64 hands
  by seat;
- ``BID``: ``8``, ``8NT``, ``8NT-low``, ``pass`` -> an ``auction.Bid`` (None
  for pass);
- ``SEAT_HAND``: ``N=AKQ.5.-.-``, ``s=AS KS`` (``--fix``) -> ``(Seat, mask)``.

A hand written as a list of cards may come as several words (``kaiser-sim
hand AS KS 9S ...``): :func:`joined` reads an argument of several words as
one value.
"""

from __future__ import annotations

import click

from .rules_options import rules_of

#: the keys the metavars show (``Seat`` and ``Strain`` names; tests/test_cli.py checks them)
SEAT_KEYS = ("N", "E", "S", "W")
#: every strain's key, with low no trump's L: kaiser_sim.cards.ALL_STRAIN_KEYS written out (cards imports numba,
#: which the command line's startup must not; tests/test_cli.py keeps the two equal)
ALL_STRAIN_KEYS = ("S", "H", "D", "C", "N", "L")


def _complete(keys, incomplete: str):
    from click.shell_completion import CompletionItem

    return [CompletionItem(k) for k in keys if k.startswith(incomplete.upper())]


class SeatType(click.ParamType):
    """A seat: ``N E S W`` or its noun (``north``), any case."""

    name = "seat"

    def get_metavar(self, param, ctx=None) -> str:
        return "[" + "|".join(SEAT_KEYS) + "]"

    def convert(self, value, param, ctx):
        from ..cards import NotationError, Seat

        if isinstance(value, Seat):
            return value
        try:
            return Seat.parse(value)
        except NotationError as e:
            self.fail(str(e), param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        return _complete(SEAT_KEYS, incomplete)


class StrainType(click.ParamType):
    """A strain: its key, label, noun or suit symbol, any case (``Strain.parse``);
    ``low=False`` refuses low no trump."""

    name = "strain"

    def __init__(self, low: bool = True):
        self.low = low

    def get_metavar(self, param, ctx=None) -> str:
        return "[" + "|".join(ALL_STRAIN_KEYS if self.low else ALL_STRAIN_KEYS[:5]) + "]"

    def convert(self, value, param, ctx):
        from ..cards import NotationError, Strain

        if isinstance(value, Strain):
            return value
        try:
            return Strain.parse(value, low=self.low)
        except NotationError as e:
            self.fail(str(e), param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        return _complete(ALL_STRAIN_KEYS if self.low else ALL_STRAIN_KEYS[:5], incomplete)


class HandType(click.ParamType):
    """One hand, S.H.D.C with dots or a list of cards (``parse_hand``), in the
    deck of the command's rules.  The number of cards is the command's to check."""

    name = "hand"

    def get_metavar(self, param, ctx=None) -> str:
        return "HAND"

    def convert(self, value, param, ctx):
        from ..cards import NotationError, parse_hand

        if not isinstance(value, str):
            return value
        try:
            return parse_hand(value, deck34=rules_of(ctx).deck34, who="the hand")
        except NotationError as e:
            self.fail(f"invalid hand: {e}", param, ctx)


class DealType(click.ParamType):
    """A deal, ``N:<north> <east> <south> <west>`` (``parse_deal``), in the deck
    and hand size of the command's rules: a ``(4,)`` uint64 array by seat."""

    name = "deal"

    def get_metavar(self, param, ctx=None) -> str:
        return "DEAL"

    def convert(self, value, param, ctx):
        from ..cards import NotationError, parse_deal

        if not isinstance(value, str):
            return value
        rules = rules_of(ctx)
        try:
            return parse_deal(value, deck34=rules.deck34, max_cards=rules.hand_size)
        except NotationError as e:
            self.fail(f"invalid deal: {e}", param, ctx)


class BidType(click.ParamType):
    """A bid, ``8``, ``8NT`` (``8N``, ``8 no trump``), ``8NT-low``, or ``pass``
    (None).  Whether the rules have that bid is the command's to check."""

    name = "bid"

    def get_metavar(self, param, ctx=None) -> str:
        return "BID"

    def convert(self, value, param, ctx):
        from ..auction import AuctionError, Bid

        if value is None or isinstance(value, Bid):
            return value
        if not str(value).strip():
            self.fail("is empty: give a bid (8, 8NT, 8NT-low) or pass", param, ctx)
        try:
            return Bid.parse(value)
        except AuctionError as e:
            self.fail(str(e), param, ctx)


class SeatHandType(click.ParamType):
    """``SEAT=HAND``: a seat (``Seat.parse``) and its cards (``parse_hand``, in
    the deck of the command's rules) -> ``(Seat, mask)``.  Whether the cards
    fit with the other seats' is the command's to check."""

    name = "seat=hand"

    def get_metavar(self, param, ctx=None) -> str:
        return "SEAT=HAND"

    def convert(self, value, param, ctx):
        from ..cards import NotationError, Seat, parse_hand

        if isinstance(value, tuple):
            return value
        seat_text, sep, hand = str(value).partition("=")
        if not sep:
            self.fail(f"{value!r}: give SEAT=HAND, e.g. N=AKQ.5.-.- or 'N=AS KS 5H'", param, ctx)
        try:
            seat = Seat.parse(seat_text)
            return seat, int(parse_hand(hand, deck34=rules_of(ctx).deck34, who=f"{seat.name}'s fixed cards"))
        except NotationError as e:
            self.fail(f"{value!r}: {e}", param, ctx)


SEAT = SeatType()
STRAIN = StrainType()
HAND = HandType()
DEAL = DealType()
BID = BidType()
SEAT_HAND = SeatHandType()


def joined(param_type: click.ParamType):
    """A callback for an argument of several words (``nargs=-1``): the words
    joined by spaces, read as one value of ``param_type``."""

    def callback(ctx, param, words):
        return param_type.convert(" ".join(words), param, ctx)

    return callback


class PolicyType(click.Choice):
    """A bidding policy's name (``kaiser_sim.strategy.policies.POLICIES``), read when a
    value is checked or completed, not for ``--help`` (the policies import
    numba)."""

    def __init__(self):
        super().__init__((), case_sensitive=False)

    @property
    def choices(self):
        from ..strategy.policies import POLICIES

        return tuple(POLICIES)

    @choices.setter
    def choices(self, value):  # click.Choice.__init__ sets it
        pass

    def get_metavar(self, *args, **kwargs) -> str:
        return "POLICY"


POLICY = PolicyType()


__all__ = ["SEAT", "STRAIN", "HAND", "DEAL", "BID", "SEAT_HAND", "POLICY", "SeatType", "StrainType", "HandType",
           "DealType", "BidType", "SeatHandType", "PolicyType", "joined"]
