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
from ..runs.results import RunResults
from .common import definition, DEFAULT_TRUMP_RULE
from .specials import (CARD_PARAMETERS, DEFAULT_MAX_RESOLVE, DEFAULT_RECEIVERS, cheat_sheet_card, plot_card, run_card,
                       sample_note, section_card)

KEY = "three-spades"
TITLE = "The 3♠: what holding it is worth"
QUESTION = "What is being dealt the 3♠ worth to your side, and who ends up with its −3?"
METHOD = (
    "The same three questions as for the 5♥. (a) The 3♠ swapped like for like with another hand's lowest "
    "spade when that spade is the 8♠, the next one up; the deal solved again: worth = your side's points as "
    "dealt minus after the swap; positive means holding the 3♠ is an asset. (b) Observed on every deal: your side's average "
    "points with the 3♠ in your hand minus in another hand. (c) How much of the 3♠'s own −3 ends with "
    "your side (the deal solved with the 3♠ counting 0): −3 = your side is stuck with it whatever it "
    "does, 0 = it always gets rid of it. (c) is not the card's worth: the holder decides when and where "
    "the 3♠ falls, which (a) and (b) measure.")
#: the parameters of run(), declared (kaiser_sim.studies.params)
PARAMETERS = CARD_PARAMETERS
#: the default definition (deals, seed, rules, parameters), which ``kaiser-sim study NAME`` runs;
#: analyses/three-spades.toml is written from it and PARAMETERS (make analyses; a test keeps them equal)
DEFINITION = definition(KEY, "The 3S: worth of being dealt it (like-for-like swap, observed), "
                        "and how much of its -3 its side keeps",
                        params={"receivers": ["partner", "LHO", "RHO"],
                                "max_resolve": 10_000,
                                "trump_rule": "longest-strength"})


def run(run_results: RunResults, rules, receivers=DEFAULT_RECEIVERS, max_resolve: int = DEFAULT_MAX_RESOLVE,
        trump_rule: str = DEFAULT_TRUMP_RULE):
    return run_card(run_results, rules, THREE_SPADES, receivers, max_resolve, trump_rule)


def plot(tables):
    return plot_card(tables, "3S")


# --- the report -------------------------------------------------------------------------------


def section(tables):
    """This study's section of the printed report (:func:`~kaiser_sim.studies.specials.section_card`)."""
    return section_card(tables, KEY, "3♠", -3)


def cheat_sheet(tables) -> list:
    """This study's lines on the cheat sheet (:func:`~kaiser_sim.studies.specials.cheat_sheet_card`)."""
    return cheat_sheet_card(tables, "3♠", -3)


__all__ = ["run", "plot", "section", "cheat_sheet", "sample_note", "KEY", "TITLE", "QUESTION", "METHOD", "DEFINITION",
           "PARAMETERS"]
