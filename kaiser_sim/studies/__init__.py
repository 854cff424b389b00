"""The studies: the questions kaiser-sim exists to answer.

One study is one module here (registered below) and one published
definition file (``analyses/NAME.toml``, written from the module's
``DEFINITION`` and ``PARAMETERS``: ``make analyses``).  The module provides:

- ``run(results, rules, **params) -> dict[str, DataFrame]``: pure pandas over
  a results frame (``kaiser_sim.load_results``); some studies re-solve a
  sample of its deals (``max_resolve``), and say so with their own n.  Every
  estimate carries its n and a 95% interval (Wilson for proportions, normal
  standard error for means, bootstrap over deals where stated; rows that
  share a deal are clustered by deal, :mod:`kaiser_sim.stats`).
- ``plot(tables) -> dict[str, Figure]``: charts drawn from those tables
  only, each titled, labelled and with a footer giving n, seed and rules.
- ``KEY`` (its name here) and ``DEFINITION``: its default definition (the
  keys of a definition file: ``study``, ``description``, ``deals``,
  ``seed``, ``rules``, ``rule``, ``params``), which ``kaiser-sim study NAME``
  runs wherever the package is installed;
- ``PARAMETERS``: the declaration of ``run``'s parameters (a
  :class:`kaiser_sim.studies.params.Param` each: kind, limits or choices,
  default, meaning), through which the runner checks any parameters given
  and ``kaiser-sim study --list`` shows them.

and, for the studies of the printed report (``STUDIES``, ``PLAY_STUDIES``):

- ``TITLE``, ``QUESTION``, ``METHOD``: its section's title, the question it
  answers and how (plain text);
- ``section(tables) -> (blocks, meaning, chart_names)``: its section of the
  report, as blocks of :mod:`kaiser_sim.studies.blocks` (tables as
  printed), sentences on what the numbers mean and the charts to show;
- a study of the report that plays matches (``USES_RESULTS = False``) gets
  no results; ``report_params(deals) -> dict`` (optional) gives the
  parameters the report runs it with for a report of ``deals`` deals (a
  shorter run than its default);
- optionally ``cheat_sheet(tables) -> list[block]`` (its lines on the
  report's one-page cheat sheet, placed by ``CHEAT_SHEET_ORDER``) and
  ``sample_note(tables) -> str`` (when it uses only part of the deals).

The report (:mod:`kaiser_sim.report`) renders these and knows no study by
name; the studies never import it.

``kaiser_sim.studies.runner`` builds study definitions (from the modules or
a TOML file), obtains results (reads a dataset or simulates one) and writes
every table as CSV and Markdown, every chart as PNG and SVG, and
``study.json``.

Example
-------
>>> from kaiser_sim.studies import get_study
>>> study = get_study("lead")                               # doctest: +SKIP
>>> tables = study.run(kaiser_sim.load_results("runs/s1"), rules)  # doctest: +SKIP
>>> figures = study.plot(tables)                            # doctest: +SKIP
"""

from __future__ import annotations

import importlib

from ..errors import KaiserSimError

#: study name -> (module, one-line summary); the printed report's studies, in its order
STUDIES: dict[str, tuple[str, str]] = {
    "bid-odds": ("bid_odds", "P(makes b) for b = 6..12: trump by rule, best strain in hindsight, NT"),
    "hand-eval": ("hand_eval", "which hand count predicts the declaring side's points best"),
    "bidding-chart": ("bidding_chart", "expected hand score of each bid by strength and trump length"),
    "auction": ("auction", "how often each auction happens, what each call says, what to call after the calls heard"),
    "five-hearts": ("five_hearts", "what being dealt the 5H is worth to your side: like-for-like swap, observed, points kept"),
    "three-spades": ("three_spades", "what being dealt the 3S is worth to your side: like-for-like swap, observed, points kept"),
    "trump-and-nt": ("trump_and_nt", "rules for naming trump, and when no trump beats the best trump"),
    "lead": ("lead", "the value of being on lead"),
    "listening": ("listening", "the listening policy against every other over whole matches: win rates, by seat and score"),
    "call-frequencies": ("call_frequencies", "the bidding model's call frequencies by position and count band, beside "
                         "the rule documents"),
}

#: studies that play whole matches instead of reading a results dataset
#: (``USES_RESULTS = False`` in the module); not part of the printed report
MATCH_STUDIES: dict[str, tuple[str, str]] = {
    "match": ("match", "bidding policies over whole matches; how the score should change the bid"),
}


#: studies that play the deals out (PIMC players, :mod:`kaiser_sim.game.play`) on a
#: results dataset; too slow for the printed report's default run, so not in it
PLAY_STUDIES: dict[str, tuple[str, str]] = {
    "dd-bias": ("dd_bias", "how far PIMC play (players see only their own hand) is from double dummy"),
}


class StudyError(KaiserSimError):
    """An unknown study, a bad definition file or bad parameters."""


def study_names() -> list[str]:
    return list(STUDIES)


def get_study(name: str):
    """The module of study ``name`` (with ``run`` and ``plot``)."""
    key = name.strip().lower().replace("_", "-")
    known = {**STUDIES, **MATCH_STUDIES, **PLAY_STUDIES}
    if key not in known:
        raise StudyError(f"unknown study '{name}'; studies: {', '.join(known)}")
    return importlib.import_module(f"{__name__}.{known[key][0]}")


#: what every study module provides (module doc)
STUDY_ATTRIBUTES = ("KEY", "DEFINITION", "PARAMETERS", "run", "plot")
#: what a study of the printed report provides besides (module doc)
REPORT_ATTRIBUTES = ("TITLE", "QUESTION", "METHOD", "section")


__all__ = ["STUDIES", "MATCH_STUDIES", "PLAY_STUDIES", "STUDY_ATTRIBUTES", "REPORT_ATTRIBUTES", "StudyError",
           "get_study", "study_names"]
