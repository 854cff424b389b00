"""Study 4, the 5H: what is it worth?  (a) paired counterfactual (move it to
partner, LHO or RHO in exchange for their lowest heart, re-solve), (b) how
often the side dealt it captures it, (c) its worth with the bonus switched
off.  Method and caveats: :mod:`kaiser_sim.studies.specials`."""

from __future__ import annotations

from ..cards import FIVE_HEARTS
from .common import DEFAULT_TRUMP_RULE
from .specials import DEFAULT_MAX_RESOLVE, DEFAULT_RECEIVERS, plot_card, run_card


def run(results, rules, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
        trump_rule: str = DEFAULT_TRUMP_RULE):
    return run_card(results, rules, FIVE_HEARTS, receivers, max_resolve, trump_rule)


def plot(tables):
    return plot_card(tables, "5H")
