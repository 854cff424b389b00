"""Study 5, the 3S: what is being dealt it worth to your side, and who ends
up with its -3?  The same three views as the 5H study
(:mod:`kaiser_sim.studies.specials`): a like-for-like swap with another
hand's lowest spade when it is the 8 (the next spade up) and a re-solve; with against without on
every deal; and solving with the penalty switched off (kept -3..0 for the
side dealt it: -3 = it cannot avoid taking it, 0 = it gets rid of it).
Holding the 3S is an asset in (a) and (b): its holder decides where it
falls."""

from __future__ import annotations

from ..cards import THREE_SPADES
from .common import DEFAULT_TRUMP_RULE
from .specials import DEFAULT_MAX_RESOLVE, DEFAULT_RECEIVERS, plot_card, run_card


def run(results, rules, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
        trump_rule: str = DEFAULT_TRUMP_RULE):
    return run_card(results, rules, THREE_SPADES, receivers, max_resolve, trump_rule)


def plot(tables):
    return plot_card(tables, "3S")
