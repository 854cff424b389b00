"""The hand advisor: what one Kaiser hand is worth, bid by bid and strain by strain.

A player gives the 8 cards they hold and their seat.  :func:`advise` deals
the other 24 cards at random ``n`` times (:func:`advisor_deals`, the same
deals as ``deal_batch(n, seed, fixed={seat: hand})``), solves every deal
double dummy in all five strains with this hand on lead (in Kaiser the
declarer leads, so this seat declares and its side is the declaring side),
and turns the ``(n, 5)`` values into two measures side by side:

- **table play** (``play="table"``, the default): what the declaring side
  takes when nobody sees the other hands, from the table-play model
  (:mod:`kaiser_sim.strategy.table_play`: each deal's DD value ``v`` gives a
  distribution of table points; a deal's make probability of bid ``b`` is
  ``model.make_prob(v, nt, [b])``, its expected hand score
  ``model.expected_score(v, nt, score of the bid)``; an estimate is the mean
  of these per-deal values over the deals, with its iid 95% interval; each
  deal's distribution kept within the deal's bounds and the trump and NT
  corrected by PIMC play of some of the deals:
  :class:`~kaiser_sim.strategy.table_play.HandTablePlay`, :func:`played_check`);
- **double dummy** (DD): the solver's values themselves.

The choices (trump, call, limit, matching) are made on table play and the
DD values are shown beside every table-play number.  ``play="dd"`` makes
them on DD and leaves table play out (the advisor as it was, for
comparison).  Every rules set has its table-play model: the one built
for its game (a kitty, low no trump, cover 3: :func:`~kaiser_sim.strategy.table_play.model_for`),
its own PIMC play under those rules correcting it; only a model given by
the caller that was fitted on other rules, or cannot be read, makes the
advisor fall back to DD, saying why (:class:`PlayInfo`).  The numbers:

- per strain: P(the declaring side takes at least b points) for every bid
  level b (table play: mean of the per-deal probabilities, mean +- 1.96
  standard errors; DD: Wilson 95% intervals); the mean and spread of its
  points;
- one trump for the hand (:class:`TrumpChoice`): every plain bid is played
  in it, every NT bid in no trump (the declarer names trump without seeing
  the other hands, and names one suit whatever the level);
- per bid of the rules' ladder: the expected hand score (made: the raw
  points, NT doubled per ``nt_scoring``; failed: minus the bid, NT doubled
  per the rules; :func:`kaiser_sim.scoring.score_hands`) in that strain,
  and in every strain the bid may be played in (``by_strain``);
- the recommended call among the legal ones (:func:`auction_context`: the
  dealer, a bid already made, the forced dealer bid), the highest bid still
  worth making, and for a dealer facing ``current_bid`` whether to match;
- the 5H and 3S: where they are dealt, and what each is worth to the
  declaring side double dummy (:class:`Specials`, method below).

Rules variants
--------------
Every preset and option is advised on (:func:`rules_notes` writes how into
the notes): with a kitty the hand is the hand as dealt (7 cards, or 8 from
the 34-card deck), the other hands *and* the kitty are dealt at random and
each value is the declarer's after taking the kitty and discarding best
(:func:`kaiser_sim.game.kitty_dd_value`; slow, so :data:`KITTY_DEALS`
deals by default); low no trump is a sixth column ``L`` and its bids are
played in it (with ``low_nt="choice"`` every NT bid is played in N or L,
:func:`choose_nt`); cover 3 is approximated from a second solve in tricks
(:func:`kaiser_sim.game.cover3_points`); under the weak-hand redeal the
other hands are never weak (and a weak hand is told it may demand a
redeal); under the solo Kaiser 12NT is left out; passing cards is not
modelled (a note).  Table play applies under every rules set: each game
that plays differently (a kitty, low no trump, cover 3) has its own model
(:func:`kaiser_sim.strategy.table_play.model_for`), and the hand's own PIMC play is
under the rules.

One set of figures
------------------
Every number printed for the trump, the bids and the calls is on the same
``n`` deals as the choices made from them, so the choices agree with the
tables line by line:

- **Trump**: the candidate suit (S H D C; no trump too with
  ``plain_bid_nt``) with the highest mean points of the declaring side in
  the measure the advice uses (table play: each deal's expected table
  points, the hand's own play included; DD: its DD points; exact ties: S H
  D C N order), i.e. the top of the per-strain means printed beside it.
- **Call**: the legal call with the highest mean worth, the top of the
  calls table, except that pass is the default: when the 95% interval of
  the paired difference best bid - pass reaches 0, the call is pass.  One
  tie-break: a higher bid of the top bid's strain that scores as much as
  it whenever it stands, on every deal in both measures, and is worth not
  clearly less (and still clearly more than passing), is recommended
  instead, a declared tie with it (:class:`~.analysis.Standing`,
  :attr:`Recommendation.over`: "makes wherever 8NT does and shuts out
  more").
- **Ties**: a call is a tie with another when the 95% interval of their
  paired difference reaches 0 (:attr:`Recommendation.ties`;
  :attr:`Recommendation.tie` is exactly ``difference.lo <= 0``, with
  ``versus`` the best-ranked tied call, else the next best); the trump
  likewise with the next suit.
- **The winner's curse**: the best of several noisy means flatters itself.
  It is measured apart, never by moving the choice: the call chosen on the
  even deals is scored on the odd ones and the other way round
  (:attr:`Recommendation.fresh`, printed "expected on fresh deals").
- **Coherent probabilities**: P(at least b) never rises with b; the
  table-play chances corrected by the hand's own play are made monotone by
  isotonic regression (:func:`~.measures.monotone_survival`).
- **Weights**: every mean, share and interval goes through one weighted
  estimator (:func:`~.measures.estimate`, :func:`kaiser_sim.stats.weighted_mean_ci`):
  the importance weights of conditioned deals plug in (``ConditionedDeals.weights``;
  None: every deal weight 1, the plain mean and interval), with the
  effective sample size printed beside the acceptance.

The old fields of the selection (``chosen_on``, ``n_select``,
``reported_on``, ``n_report``) stay in the results and the JSON, now
"all" and ``n``.

Everything is a pure function of (hand, seat, dealer, n, seed, rules,
current bid); :class:`HandAdvice` carries the results as DataFrames and
dataclasses, prints them (:meth:`HandAdvice.to_text`), serialises them
(:meth:`HandAdvice.to_dict`, schema :data:`SCHEMA`, documented in
docs/reference/schemas.md) and draws them (:func:`plot_make_probability`).

The 5H and 3S
-------------
The solver returns values, not the play, so who *captures* the special
cards is not known; "points minus tricks" mixes two different optimal
lines and is not used.  Instead, on the strain of the recommendation (the
trump when it is to pass) and the odd deals (rows 1, 3, 5, ...: two more
solves a deal, so on half of them):

- ``worth_5h`` = DD points - DD points with the 5H counting 0.  Every line
  of play scores exactly 5 more with the 5H counted when the declaring
  side captures it and the same otherwise, so the difference lies in 0..5:
  5 means the declaring side gets the 5H against any defence, 0 that it
  cannot (or need not give anything for it).
- ``cost_3s`` = DD points with the 3S counting 0 - DD points; 0..3, 3 means
  the declaring side cannot avoid taking the 3S.

Example
-------
>>> from kaiser_sim.strategy.advisor import advise
>>> a = advise("AKQJ.A.AK.A", seat="N", n=50, seed=1)   # doctest: +SKIP
>>> print(a.to_text())                                    # doctest: +SKIP

The package's modules, one per stage: :mod:`~kaiser_sim.strategy.advisor.inputs` (the
hand, the rules and the auction, read and checked; the deals),
:mod:`~kaiser_sim.strategy.advisor.measures` (the solver call; double dummy and table
play), :mod:`~kaiser_sim.strategy.advisor.analysis` (:func:`advise`: from the deals to
the advice), :mod:`~kaiser_sim.strategy.advisor.results` (:class:`HandAdvice` and its
parts, their JSON and text) and :mod:`~kaiser_sim.strategy.advisor.plot` (the chart).
The names below are the advisor's public entry points.
"""

from __future__ import annotations

from .inputs import (
    advisor_deals, AdvisorInputError, ALL_STRAIN_KEYS, auction_context, AuctionContext, AuctionInfo, check_rules,
    DEFAULT_DEALS, heard_context, KITTY_DEALS, PLAY_CHOICES, read_hand, STRAIN_KEYS, STRAIN_NAMES,
)
from .measures import (
    estimate, monotone_survival, PlayInfo, point_values, solve_strains, solver_compiles, table_play_for,
)
from .results import format_text, HandAdvice, MatchAdvice, Recommendation, SCHEMA, Specials, TrumpChoice
from .analysis import (
    advise, advisor_values, bid_table, check_scores, choose_call, choose_trump, DealScores, fresh_value, make_table,
    match_advice, points_table, Progress, recommend, report_rows, report_trump, selection_rows, specials_table,
    table_play_note, trump_candidates,
)
from .plot import plot_format, PLOT_FORMATS, plot_make_probability, save_plot

__all__ = [
    "SCHEMA",
    "STRAIN_KEYS",
    "AdvisorInputError",
    "AuctionContext",
    "HandAdvice",
    "MatchAdvice",
    "Recommendation",
    "DealScores",
    "PLAY_CHOICES",
    "PlayInfo",
    "Specials",
    "TrumpChoice",
    "advise",
    "match_advice",
    "advisor_deals",
    "auction_context",
    "bid_table",
    "check_rules",
    "choose_call",
    "choose_trump",
    "make_table",
    "plot_make_probability",
    "point_values",
    "points_table",
    "read_hand",
    "recommend",
    "report_rows",
    "report_trump",
    "save_plot",
    "selection_rows",
    "table_play_for",
    "table_play_note",
    "trump_candidates",
    "plot_format",
    "PLOT_FORMATS",
    "DEFAULT_DEALS",
    "KITTY_DEALS",
    "STRAIN_NAMES",
    "ALL_STRAIN_KEYS",
    "AuctionInfo",
    "heard_context",
    "advisor_values",
    "specials_table",
    "solve_strains",
    "format_text",
    "check_scores",
    "estimate",
    "fresh_value",
    "monotone_survival",
    "Progress",
    "solver_compiles",
]
