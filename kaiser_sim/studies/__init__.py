"""The studies: the questions kaiser-sim exists to answer.

One study is one declaration in :data:`REGISTRY` (a :class:`Study`: its
name, its module, what it needs -- the run's deals, re-solves, PIMC play,
matches or auctions of its own --, its category, its place in the printed
report, the tables it writes and what its n counts), one module here and
one published definition file (``analyses/NAME.toml``, written from the
module's ``DEFINITION`` and ``PARAMETERS``: ``make analyses``).  The runner,
the report and the command line read the declaration, never the module's
signature or attributes, to decide how a study is run.  The module provides:

- ``run(results, rules, **params) -> StudyTables``: pure pandas over a
  run's results (a :class:`kaiser_sim.runs.results.RunResults`, from
  ``load_run``: the results frame and, beside it, the run metadata its
  footers take the seed from); some studies re-solve a
  sample of its deals (``max_resolve``), and say so with their own n.  Every
  estimate carries its n and a 95% interval (Wilson for proportions, normal
  standard error for means, bootstrap over deals where stated; rows that
  share a deal are clustered by deal, :mod:`kaiser_sim.stats`).  The result
  (:class:`kaiser_sim.studies.common.StudyTables`) is a dict of its tables
  (name -> DataFrame) that also holds each table's note, footer and run
  info (``tables.meta(name)``, a :class:`~kaiser_sim.studies.common.TableMeta`);
  no metadata rides on a frame.
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

and, for the studies of the printed report (declared ``report="default"``
or ``"named"``):

- ``TITLE``, ``QUESTION``, ``METHOD``: its section's title, the question it
  answers and how (plain text);
- ``section(tables) -> (blocks, meaning, chart_names)``: its section of the
  report, as blocks of :mod:`kaiser_sim.studies.blocks` (tables as
  printed), sentences on what the numbers mean and the charts to show;
- a study of the report that plays games of its own (it needs no
  ``deals``) gets no results; ``report_params(deals) -> dict`` (declared
  ``report_params=True``) gives the parameters the report runs it with for
  a report of ``deals`` deals (a shorter run than its default);
- as declared: ``cheat_sheet(tables) -> list[block]`` (its lines on the
  report's one-page cheat sheet, placed by the declaration's number),
  ``table_card(tables)`` (the table card's grid) and
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
>>> from kaiser_sim.runs.results import load_run
>>> study = get_study("lead")                               # doctest: +SKIP
>>> tables = study.run(load_run("runs/s1"), rules)          # doctest: +SKIP
>>> figures = study.plot(tables)                            # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..errors import KaiserSimError

#: what a study can need (:attr:`Study.needs`), in words
NEEDS: dict[str, str] = {
    "deals": "a results dataset: the run's deals, solved (read with --from, or simulated for it)",
    "re-solves": "re-solves a sample of the run's deals (max_resolve; it says so with its own n)",
    "play": "plays the run's deals out with PIMC players (max_deals: the first ones)",
    "matches": "plays whole matches of its own (no results dataset; the seed seeds them)",
    "auctions": "bids fresh deals of its own (no results dataset; the seed seeds them)",
}
#: a study's category (:attr:`Study.category`, from what it needs), in words
CATEGORIES: dict[str, str] = {
    "deals": "reads the run's deals",
    "play": "plays the run's deals out (PIMC)",
    "matches": "plays whole matches",
    "auctions": "bids deals of its own",
}
#: a study's place in the printed report (:attr:`Study.report`), in words
REPORT_PLACES: dict[str | None, str] = {
    "default": "in the printed report",
    "named": "in the report only when named",
    None: "not in the report",
}


@dataclass(frozen=True)
class Study:
    """One study's declaration: what the runner, the report and the command
    line read of it, without importing its module (which loads numpy and
    pandas).

    ``needs`` (keys of :data:`NEEDS`) decide its :attr:`category` and how it
    is run: a study that needs ``deals`` gets the run's results, one that
    plays ``matches`` or bids ``auctions`` of its own gets none and is
    seeded by the definition's seed; ``re-solves`` takes the report's
    ``max_resolve``, ``play`` its ``max_deals``.  ``report``: its place in
    the printed report (a key of :data:`REPORT_PLACES`).  ``outputs``: the
    tables it may write (``NAME.csv``, ``NAME.md``), in no order.
    ``unit``: what its n counts (for a study of its own games, also the
    parameter that sets how many).  ``report_params``: its module's
    ``report_params(deals)`` gives the report's shorter run.  ``sample_note``
    / ``cheat_sheet``: its module says which deals a part used
    (``sample_note(tables)``) / has lines for the cheat sheet
    (``cheat_sheet(tables)``, in the order of ``cheat_sheet``, a number) /
    makes the table card's grid (``table_card(tables)``).
    Its parameters are its module's ``PARAMETERS`` (:attr:`parameters`)."""

    key: str
    module: str
    summary: str
    needs: tuple[str, ...]
    report: str | None
    outputs: tuple[str, ...]
    unit: str = "deals"
    report_params: bool = False
    sample_note: bool = False
    cheat_sheet: int | None = None
    table_card: bool = False

    def __post_init__(self):
        unknown = set(self.needs) - set(NEEDS)
        if unknown or self.report not in REPORT_PLACES:
            raise ValueError(f"study {self.key}: unknown needs {sorted(unknown)} or report place {self.report!r}")
        if ("deals" in self.needs) == bool({"matches", "auctions"} & set(self.needs)):
            raise ValueError(f"study {self.key}: reads the run's deals or plays games of its own, one of the two")

    @property
    def category(self) -> str:
        """Of :data:`CATEGORIES`: what it works on, from what it needs."""
        return next((c for c in ("matches", "auctions", "play") if c in self.needs), "deals")

    @property
    def uses_results(self) -> bool:
        """Does it read the run's results dataset (else it plays games of its own)?"""
        return "deals" in self.needs

    def load(self):
        """Its module (``run``, ``plot``, ``DEFINITION``, ``PARAMETERS``; a
        study of the report also ``TITLE``, ``QUESTION``, ``METHOD``,
        ``section``)."""
        return importlib.import_module(f"{__name__}.{self.module}")

    @property
    def parameters(self):
        """Its declared parameters (:class:`~kaiser_sim.studies.params.Param`, its module's ``PARAMETERS``)."""
        return self.load().PARAMETERS


_SPECIAL_TABLES = ("counterfactual", "counterfactual_make", "counterfactual_swing", "declaring_share", "observed",
                   "worth_by_length", "worth_by_role", "worth_distribution", "worth_overall")

#: every study, declared; the printed report's own (``report="default"``) in its order
REGISTRY: tuple[Study, ...] = (
    Study("bid-odds", "bid_odds", "P(makes b) for b = 6..12: trump by rule, best strain in hindsight, NT",
          ("deals",), "default", ("by_five_hearts", "by_strength", "by_trump_length", "make")),
    Study("hand-eval", "hand_eval", "which hand count predicts the declaring side's points best",
          ("deals",), "default", ("comparison", "count_calibration", "kaiser_count"), sample_note=True),
    Study("bidding-chart", "bidding_chart", "expected hand score of each bid by strength and trump length",
          ("deals",), "default",
          ("chart", "chart_table_play", "expected", "expected_by_strength", "expected_by_strength_table_play",
           "expected_table_play", "net_chart", "thresholds", "thresholds_table_play"), cheat_sheet=10, table_card=True),
    Study("auction", "auction", "how often each auction happens, what each call says, what to call after the calls "
          "heard", ("deals",), "default", ("call_chart", "calls", "positions", "sequences"),
          cheat_sheet=25),  # after the what-to-bid grid
    Study("five-hearts", "five_hearts", "what being dealt the 5H is worth to your side: like-for-like swap, observed, "
          "points kept", ("deals", "re-solves"), "default", _SPECIAL_TABLES, sample_note=True, cheat_sheet=30),
    Study("three-spades", "three_spades", "what being dealt the 3S is worth to your side: like-for-like swap, "
          "observed, points kept", ("deals", "re-solves"), "default", _SPECIAL_TABLES, sample_note=True,
          cheat_sheet=40),
    Study("trump-and-nt", "trump_and_nt", "rules for naming trump, and when no trump beats the best trump",
          ("deals",), "default", ("nt_beats_trump", "nt_vs_trump", "nt_vs_trump_table_play", "trump_rules"),
          cheat_sheet=20),
    Study("lead", "lead", "the value of being on lead", ("deals",), "default",
          ("distribution", "make_change", "summary"), cheat_sheet=50),
    Study("listening", "listening", "the listening policy against every other over whole matches: win rates, by "
          "seat and score", ("matches",), "default", ("by_score", "by_seat", "rounds", "win_rates"),
          unit="matches", report_params=True),
    Study("call-frequencies", "call_frequencies", "the bidding model's call frequencies by position and count band, "
          "beside the rule documents", ("auctions",), "default", ("auctions", "by_count", "by_position", "documents", "exploitability"),
          report_params=True),
    Study("dd-bias", "dd_bias", "how far PIMC play (players see only their own hand) is from double dummy",
          ("deals", "play"), "named",
          ("corrected_bid_odds", "deals", "decomposition", "difference", "distribution", "make", "specials")),
    Study("match", "match", "bidding policies over whole matches; how the score should change the bid",
          ("matches",), None, ("bid_vs_state", "round_robin", "rules_effect", "standings", "win_by_state"),
          unit="matches"),
)
_BY_KEY = {s.key: s for s in REGISTRY}


def _view(**want) -> dict[str, tuple[str, str]]:
    return {s.key: (s.module, s.summary) for s in REGISTRY if all(getattr(s, k) == v for k, v in want.items())}


#: study name -> (module, one-line summary): the printed report's studies, in its order
STUDIES: dict[str, tuple[str, str]] = _view(report="default")
#: the studies that play whole matches (category ``matches``), in or out of the report
MATCH_STUDIES: dict[str, tuple[str, str]] = _view(category="matches")
#: the studies that play the run's deals out (PIMC players, :mod:`kaiser_sim.game.play`; category
#: ``play``); too slow for the printed report's default run: it has them only when named
PLAY_STUDIES: dict[str, tuple[str, str]] = _view(category="play")


class StudyError(KaiserSimError):
    """An unknown study, a bad definition file or bad parameters."""


def study_names() -> list[str]:
    """The printed report's studies, in its order."""
    return list(STUDIES)


def all_study_names() -> list[str]:
    """Every registered study: the printed report's, then those it has when named, then the others."""
    order = list(REPORT_PLACES)
    return [s.key for s in sorted(REGISTRY, key=lambda s: order.index(s.report))]


def study(name: str) -> Study:
    """The declaration of study ``name`` (``bid-odds``; ``bid_odds`` too); :class:`StudyError` if none."""
    key = name.strip().lower().replace("_", "-")
    if key not in _BY_KEY:
        raise StudyError(f"unknown study '{name}'; studies: {', '.join(all_study_names())}")
    return _BY_KEY[key]


def get_study(name: str):
    """The module of study ``name`` (with ``run`` and ``plot``)."""
    return study(name).load()


#: what every study module provides (module doc)
STUDY_ATTRIBUTES = ("KEY", "DEFINITION", "PARAMETERS", "run", "plot")
#: what a study of the printed report provides besides (module doc)
REPORT_ATTRIBUTES = ("TITLE", "QUESTION", "METHOD", "section")


__all__ = ["Study", "REGISTRY", "NEEDS", "CATEGORIES", "REPORT_PLACES", "STUDIES", "MATCH_STUDIES", "PLAY_STUDIES",
           "STUDY_ATTRIBUTES", "REPORT_ATTRIBUTES", "StudyError", "all_study_names", "get_study", "study",
           "study_names"]
