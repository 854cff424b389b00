"""Study 4, the 5H: what is being dealt it worth to your side?  (a) a paired
like-for-like swap with another hand's lowest heart when it is the 8 (the
next heart up: only the special status moves) and a re-solve; (b) the same observed on every deal, with against without; (c) how
much of its +5 the side dealt it keeps (the bonus switched off).  Method and
caveats: :mod:`kaiser_sim.studies.specials`."""

from __future__ import annotations

from ..cards import FIVE_HEARTS
from .common import DEFAULT_TRUMP_RULE
from .specials import DEFAULT_MAX_RESOLVE, DEFAULT_RECEIVERS, plot_card, run_card


def run(results, rules, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
        trump_rule: str = DEFAULT_TRUMP_RULE):
    return run_card(results, rules, FIVE_HEARTS, receivers, max_resolve, trump_rule)


def plot(tables):
    return plot_card(tables, "5H")
