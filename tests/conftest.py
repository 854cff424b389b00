"""Shared fixtures: seeded random endgames and the rules' worked examples.

``tests/`` is on ``sys.path`` while testing (pytest's default rootdir
import), so test modules import the helper modules ``naive`` and ``dds_ref``
directly.
"""

from __future__ import annotations

import numpy as np
import pytest
from dispositions import restore, set_defaults

from kaiser_sim.cards import DECK_32, cards_of, parse_deal, popcount
from kaiser_sim.deal import deal_batch

DECK_CARDS = np.array(cards_of(DECK_32), dtype=np.int64)


def random_endgame(rng: np.random.Generator, k: int) -> np.ndarray:
    """``k`` cards to each of the 4 hands from the 32-card deck, drawn with
    ``rng``: a (4,) uint64 position at a trick boundary."""
    drawn = rng.permutation(DECK_CARDS)[: 4 * k]
    hands = np.zeros(4, dtype=np.uint64)
    for seat in range(4):
        for c in drawn[seat * k : (seat + 1) * k]:
            hands[seat] |= np.uint64(1 << int(c))
    return hands


def random_endgames(n: int, sizes, seed: int) -> np.ndarray:
    """``(n, 4)`` uint64: ``n`` endgames, the ``i``-th with ``sizes[i % len(sizes)]``
    cards a hand, from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    sizes = list(sizes)
    return np.array([random_endgame(rng, sizes[i % len(sizes)]) for i in range(n)], dtype=np.uint64).reshape(n, 4)


@pytest.fixture(scope="session")
def make_endgames():
    """Factory ``make_endgames(n, sizes, seed) -> (n, 4) uint64`` (see :func:`random_endgames`)."""
    return random_endgames


@pytest.fixture(scope="session")
def make_deals():
    """Factory ``make_deals(n, seed) -> (n, 4) uint64`` full 8-card deals (``deal_batch``)."""
    return lambda n, seed: deal_batch(n, seed)


@pytest.fixture
def default_signals():
    """SIGINT raising KeyboardInterrupt, SIGTERM and SIGHUP at their defaults
    during the test, whatever the suite was started with (a background job,
    ``nohup``); the dispositions found are restored after it."""
    previous = set_defaults()
    yield
    restore(previous)


# --- docs/rules.md §8 worked examples as positions --------------------------------
#
# Each entry: a deal, the leader and strain, and the hand-checked values:
# ``points`` / ``tricks`` for the leader's side, ``other_points`` for the other
# side at the same position (the two add to the points in play).  In the full
# deals South holds only diamonds and West only clubs: they never win a trick
# (their suit is never led, none of it is trump), so each deal is a duel
# between North and East that can be checked by hand.

S, H, D, C, NT = 0, 1, 2, 3, 4
N, E = 0, 1
_SOUTH_DIAMONDS = "-.-.AKQJT987.-"
_WEST_CLUBS = "-.-.-.AKQJT987"

RULES_EXAMPLES = [
    dict(
        id="one-trick-AH-8H-5H-KH",
        # "Diamonds trump, A leads AH, B 8H, C 5H, D KH: A wins; the trick is
        # worth 1 + 5 = 6."  A one-card endgame with exactly that trick.
        deal="N:-.A.-.- -.8.-.- -.5.-.- -.K.-.-",
        leader=N, strain=D, points=6, tricks=1, other_points=0,
    ),
    dict(
        id="5-tricks-both-specials-7-vs-3",
        # "Side A/C takes 5 tricks and both special cards: 5 + 5 - 3 = 7; B/D's
        # 3 plain tricks are worth 3."  Hearts trump.  N's five top trumps win
        # five tricks and E's 985 of hearts fall under them (the 5H to N-S);
        # E's AKQ of spades beat N's T98.  E must get rid of the 3S, and can do
        # so safely only under N's 4th and 5th trumps (void in hearts by then):
        # N-S capture it.  E-W: exactly their 3 spade tricks.
        deal="N:T98.AKQJT.-.- AKQJ3.985.-.- " + _SOUTH_DIAMONDS + " " + _WEST_CLUBS,
        leader=N, strain=H, points=7, tricks=5, other_points=3,
    ),
    dict(
        id="7-tricks-5H-12-vs-3S-minus-2",
        # "7 tricks with the 5H and without the 3S = 12; the last trick, holding
        # the 3S, is worth -2 to the other side."  Hearts trump.  E's only heart
        # is the 5H and falls under N's first heart; N's lone 3S loses to E's
        # spades whenever it is played; every other trick N wins with a trump.
        deal="N:3.AKQJT98.-.- AKQJT98.5.-.- " + _SOUTH_DIAMONDS + " " + _WEST_CLUBS,
        leader=N, strain=H, points=12, tricks=7, other_points=-2,
    ),
    dict(
        id="5-tricks-5H-no-3S-10",
        # "5 tricks + 5H, no 3S = 10."  Hearts trump.  N's five top trumps win
        # five tricks and catch E's 985 of hearts; N's 983 of spades lose to E's
        # AKQJT, so the 3S goes to E-W: 3 - 3 = 0 for them.
        deal="N:983.AKQJT.-.- AKQJT.985.-.- " + _SOUTH_DIAMONDS + " " + _WEST_CLUBS,
        leader=N, strain=H, points=10, tricks=5, other_points=0,
    ),
    dict(
        id="spades-11-points",
        # "Bid 8 spades: partners end with 11 points" (6 tricks + 5H; the other
        # side 2 tricks with the 3S: -1).  Spades trump.  N leads the 3S at
        # once: E must follow with the 8 or 9 and win it (-2 for E-W); E's AH
        # always takes a trick; N's top trumps take the rest, and E's 5H falls
        # to one of them.  In tricks mode N draws E's two trumps first and the
        # 3S becomes a winner: 7 tricks.
        deal="N:AKQJT3.KQ.-.- 98.AJT985.-.- " + _SOUTH_DIAMONDS + " " + _WEST_CLUBS,
        leader=N, strain=S, points=11, tricks=7, other_points=-1,
    ),
    dict(
        id="two-tricks-last-holds-3S-minus-2",
        # The trick holding the 3S is worth 1 - 3 = -2 to the side that takes it:
        # N wins the AH trick, E must win N's 3S with the AS.
        deal="N:3.A.-.- A.K.-.- -.-.87.- -.-.-.87",
        leader=N, strain=NT, points=1, tricks=1, other_points=-2,
    ),
    dict(
        id="captured-not-dealt-5H",
        # The bonus goes to the side that captures the 5H, not to the one dealt it.
        deal="N:-.A.-.- -.5.-.- -.-.7.- -.-.-.7",
        leader=N, strain=NT, points=6, tricks=1, other_points=0,
    ),
    dict(
        id="captured-not-dealt-3S",
        # ... and the penalty to the side that captures the 3S.
        deal="N:3.-.-.- A.-.-.- -.-.7.- -.-.-.7",
        leader=N, strain=NT, points=0, tricks=0, other_points=-2,
    ),
    dict(
        id="forced-to-win-own-3S",
        # The side holding the 3S cannot always shed it (docs/solver.md pitfall 6):
        # nobody else has a spade, so N wins it whenever it is played: 2 - 3.
        deal="N:3.-.A.- -.-.K8.- -.-.Q9.- -.-.J7.-",
        leader=N, strain=NT, points=-1, tricks=2, other_points=0,
    ),
    dict(
        id="east-leads",
        # The same trick as the first example, led by East (E-W are the leader's
        # side): N's ace still wins it, so E-W get nothing of the 6 points.
        deal="E:-.8.-.- -.5.-.- -.K.-.- -.A.-.-",
        leader=E, strain=D, points=0, tricks=0, other_points=6,
    ),
]


def _example_params(examples, full_deal_marks=()):
    return [
        pytest.param(ex, id=ex["id"], marks=full_deal_marks if popcount(parse_deal(ex["deal"])[0]) == 8 else ())
        for ex in examples
    ]


def _with_hands(ex):
    return dict(ex, hands=parse_deal(ex["deal"]))


@pytest.fixture(params=_example_params(RULES_EXAMPLES))
def rules_example(request):
    """One worked example: a dict as in ``RULES_EXAMPLES`` plus ``hands``."""
    return _with_hands(request.param)


@pytest.fixture(params=_example_params(RULES_EXAMPLES, full_deal_marks=pytest.mark.slow))
def rules_example_naive(request):
    """As ``rules_example``, but the full 8-card deals are marked slow: South's
    and West's eight interchangeable discards make them a minute or more each
    for the naive solver (which does not merge equivalent cards)."""
    return _with_hands(request.param)
