"""The measure: table play or double dummy under the given rules, and why.

Every caller that scores a hand, a call or a contract (the advisor, the
policies, the match engine, the studies) asks :func:`measure_for` once and
reads its :class:`Measure`: the table-play model when it holds for the
rules, else double dummy with the reason.
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
