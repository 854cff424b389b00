"""The measure: table play or double dummy under the given rules, and why.

Every caller that scores a hand, a call or a contract (the advisor, the
policies, the match engine, the studies) asks :func:`measure_for` once and
reads its :class:`Measure`: the table-play model when it holds for the
rules, else double dummy with the reason.

The table-play model knows the declaring hand's count band as well as the
contract's double-dummy value and strain kind
(:mod:`kaiser_sim.strategy.table_play`, "The declaring hand"): a caller
that has the declaring hand passes its band
(:func:`~kaiser_sim.strategy.table_play.declarer_band`, or
:func:`~kaiser_sim.strategy.table_play.band_index` of the count a study
already has) to ``dist`` / ``make_prob`` / ``expected`` /
``expected_score`` / ``matrix``; ``band=None`` reads the pooled rows (the
hand-blind distribution, fitted on the deals as dealt), and so does a
model without bands (a format-1 file, the variant games' models).

Who passes the band: the bid-odds, bidding-chart (its tables, its model
replicates and its net chart) and trump-and-NT studies (the count of the
row's hand), the hand advisor (:class:`~kaiser_sim.strategy.table_play.HandTablePlay`
with the advised hand's band in each strain; the other seats' contracts in
its call values with their declarer's), the auction study and the net
chart through :func:`~kaiser_sim.strategy.call_worth.playout_net`, the
match engine (:func:`~kaiser_sim.strategy.match.table_points`), and the
listening and population fits' contract values
(:func:`~kaiser_sim.strategy.listening.contract_net`, the declarer's band:
valued on the pooled rows, the population underrated a strong hand's 7NT,
and the advisor's best response gained most there).  Who reads the pooled
rows, having no declaring hand to pass, or deliberately: the bidding
policies' make-probabilities
(:func:`~kaiser_sim.strategy.policies.compose_play`: a distribution of DD
points predicted from the bidder's hand times the kind's matrix, ``ev``'s
and the listening features' values), and the 5♥/3♠
counterfactual views (:func:`~kaiser_sim.studies.specials.table_play_side`:
tables over DD values alone, the card moved changing the hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

# through the module, not its names: the model is looked up at each call (a test may put another in its place)
from . import table_play

if TYPE_CHECKING:
    from .table_play import TablePlayModel

#: the two measures, by the names every option and parameter takes: table play (the table-play model) or
#: double dummy.  The advisor's choices (advisor.PLAY_CHOICES), the policies' plays (policies.PLAYS) and the
#: match engines (match.ENGINES, with "auto") are this one vocabulary.
MEASURES = ("table", "dd")


@dataclass(frozen=True)
class Measure:
    """The one answer to "table play or double dummy under these rules, and
    why" (:func:`measure_for`), which the advisor, the policies, the match
    engine and the studies all read.  ``requested``: what the caller asked
    for (``"table"`` or ``"dd"``); ``used``: what it gets; ``table_model``: the
    table-play model (None with double dummy); ``reason``: why double dummy
    although table play was asked for ("" otherwise); ``note``: which game's
    model stands in for the rules' own when none is shipped for them ("")."""

    requested: str
    used: str
    table_model: "TablePlayModel | None" = None
    reason: str = ""
    note: str = ""

    @property
    def table(self) -> bool:
        return self.used == "table"


def measure_for(rules, requested: str = "table", table_model=None) -> Measure:
    """The measure under ``rules``: double dummy when ``requested`` is
    ``"dd"``; else table play with ``table_model`` (default the one shipped for
    the rules' game, :func:`~kaiser_sim.strategy.table_play.model_file`), or double dummy with the reason
    when that model cannot be read or was fitted on other rules.  Never
    raises for a model that does not hold."""
    if str(requested) == "dd":
        return Measure("dd", "dd")
    note = ""
    try:
        if table_model is None:
            path, note = table_play.model_file(rules)
            table_model = table_play.load_model(path)
        table_model.check_rules(rules)
    except table_play.TablePlayError as e:
        return Measure("table", "dd", None, str(e))
    return Measure("table", "table", table_model, "", note)


__all__ = ["MEASURES", "Measure", "measure_for"]
