"""What a report is: its sections of blocks, its inputs, the defaults of its size, its date, its error.

The other modules of :mod:`kaiser_sim.report` build (:mod:`~kaiser_sim.report.build`,
:mod:`~kaiser_sim.report.sections`), render (:mod:`~kaiser_sim.report.markdown`,
:mod:`~kaiser_sim.report.pdf`) and write (:mod:`~kaiser_sim.report.make`) the
:class:`Report` defined here.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path

from .. import config
from ..runs.output_dir import source_date_epoch
from ..studies import StudyError
from ..studies.blocks import Chart, Table

#: default size of ``kaiser-sim report`` (chosen to finish well within 10
#: minutes on a 2-core machine; see benchmarks/results/edition.md)
DEFAULT_DEALS = 4000
#: deals re-solved by the studies that re-solve deals (a ``max_resolve``
#: parameter: the 5H and 3S) in the report (their own default is larger)
DEFAULT_MAX_RESOLVE = 1000
#: deals the opt-in play studies (``PLAY_STUDIES``) play out with PIMC players
#: (the first ones of the report's deals; about 2-4 minutes on 2 cores at K = 20)
DEFAULT_PLAY_DEALS = 1000
#: the hand advisor's deals for each worked hand: a few hundred in a small report, more in a large one,
#: a few in a tiny one (under 1,000 deals: the tests' reports)
WORKED_DEALS_TINY, WORKED_DEALS_SMALL, WORKED_DEALS_LARGE = 40, 300, 2000


def default_worked_deals(deals: int) -> int:
    """The advisor's deals a worked hand gets in a report of ``deals`` deals
    (its cost: a few seconds a hand at 300 deals on two cores)."""
    if deals < 1000:
        return WORKED_DEALS_TINY
    return WORKED_DEALS_LARGE if deals >= 100_000 else WORKED_DEALS_SMALL


#: where the edition of the report lives in the repository (``make sample``, ``report --edition``);
#: a preview (``make report``, any run without ``--edition``) points to it on its first page
EDITION_PATH = "reports/sample/report.pdf"
#: fewer deals leave the studies' breakdowns empty
MIN_DEALS = config.REPORT_MIN_DEALS


class ReportError(StudyError):
    """Bad report input: an unknown study, too few deals (results that cannot
    be read are the run layer's errors, raised as they are)."""


@dataclass
class Section:
    key: str
    title: str
    blocks: list = field(default_factory=list)  # Text, Table, Chart (kaiser_sim.studies.blocks)
    one_page: bool = False  # the PDF fits it on one page (the largest type that fits)


@dataclass
class Report:
    title: str
    inputs: dict
    sections: list
    outputs: dict  # study -> StudyOutput
    out: Path

    def tables(self) -> list[Table]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Table)]

    def charts(self) -> list[Chart]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Chart)]


def report_date() -> _dt.datetime:
    """``SOURCE_DATE_EPOCH`` if set (reproducible builds), else now (UTC)."""
    epoch = source_date_epoch()
    if epoch is not None:
        return _dt.datetime.fromtimestamp(epoch, tz=_dt.timezone.utc)
    return _dt.datetime.now(tz=_dt.timezone.utc).replace(microsecond=0)


__all__ = ["Section", "Report", "ReportError", "report_date", "default_worked_deals", "DEFAULT_DEALS", "DEFAULT_MAX_RESOLVE",
           "DEFAULT_PLAY_DEALS", "EDITION_PATH", "MIN_DEALS"]
