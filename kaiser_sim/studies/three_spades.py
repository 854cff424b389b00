"""Study 5, the 3S: what does it cost, and who ends up with it?  The same
three views as the 5H study (:mod:`kaiser_sim.studies.specials`): moving it
to another hand in exchange for that hand's lowest spade, and solving with
the penalty switched off (worth -3..0 for the side dealt it; -3 = that side
cannot avoid taking it, 0 = it gets rid of it)."""

from __future__ import annotations

from ..cards import THREE_SPADES
from .common import DEFAULT_TRUMP_RULE
from .specials import DEFAULT_MAX_RESOLVE, DEFAULT_RECEIVERS, plot_card, run_card


def run(results, rules, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
        trump_rule: str = DEFAULT_TRUMP_RULE):
    return run_card(results, rules, THREE_SPADES, receivers, max_resolve, trump_rule)


def plot(tables):
    return plot_card(tables, "3S")
