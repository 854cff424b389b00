"""Study 4, the 5H: what is being dealt it worth to your side?  (a) a paired
like-for-like swap with another hand's lowest heart when it is the 8 (the
next heart up: only the special status moves) and a re-solve; (b) the same observed on every deal, with against without; (c) how
much of its +5 the side dealt it keeps (the bonus switched off).  Method and
caveats: :mod:`kaiser_sim.studies.specials`."""

from __future__ import annotations

from ..cards import FIVE_HEARTS
from ..runs.results import RunResults
from .common import definition, DEFAULT_TRUMP_RULE
from .specials import (CARD_PARAMETERS, DEFAULT_MAX_RESOLVE, DEFAULT_RECEIVERS, cheat_sheet_card, plot_card, run_card,
                       sample_note, section_card)

KEY = "five-hearts"
TITLE = "The 5♥: what holding it is worth"
QUESTION = "What is being dealt the 5♥ worth to your side?"
METHOD = (
    "Three questions, each on its own rows. (a) What being dealt the 5♥ is worth to your side: on a sample "
    "of deals solved again, the 5♥ is swapped like for like with the lowest heart of your partner, your "
    "left-hand opponent (LHO) or your right-hand opponent (RHO) when that heart is the 8♥, the next heart "
    "up: no card ranks between the two, so only the 5♥'s special status moves (swaps for a 9 or higher "
    "would also hand you a better card: they are reported apart). The declarer names trump again after the "
    "swap. Worth = "
    "your side's points as dealt minus after the swap, when you declare (you lead), when your partner "
    "declares, and when you defend. 'Any other hand' pools the three: the 5♥ is equally likely to be in "
    "each when it is not in yours. (b) The same, observed on every deal without any swap: your side's "
    "average points when you hold the 5♥ minus when another hand does. (c) How much of the 5♥'s own 5 "
    "points your side keeps: the deal solved with the 5♥ counting 0; 5 = your side takes it whatever "
    "the others do, 0 = the other side takes it.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = CARD_PARAMETERS
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/five-hearts.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "The 5H: worth of being dealt it (like-for-like swap, observed), "
                        "and how much of its +5 its side keeps",
                        params={"receivers": ["partner", "LHO", "RHO"],
                                "max_resolve": 10_000,
                                "trump_rule": "longest-strength"})


def run(run_results: RunResults, rules, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
        trump_rule: str = DEFAULT_TRUMP_RULE):
    return run_card(run_results, rules, FIVE_HEARTS, receivers, max_resolve, trump_rule)


def plot(tables):
    return plot_card(tables, "5H")


# --- the report -------------------------------------------------------------------------------


def section(tables):
    """This study's section of the printed report (:func:`~kaiser_sim.studies.specials.section_card`)."""
    return section_card(tables, KEY, "5♥", 5)


def cheat_sheet(tables) -> list:
    """This study's lines on the cheat sheet (:func:`~kaiser_sim.studies.specials.cheat_sheet_card`)."""
    return cheat_sheet_card(tables, "5♥", 5)


__all__ = ["run", "plot", "section", "cheat_sheet", "sample_note", "KEY", "TITLE", "QUESTION", "METHOD", "DEFINITION",
           "PARAMETERS"]
