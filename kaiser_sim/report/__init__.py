"""The printed report: every study on one shared results set, as PDF and Markdown.

:func:`build_report` runs the chosen studies on one results frame (simulated
once, or read with ``--from``) and builds the content once, as a list of
:class:`Section` objects holding text, tables and charts.  The report knows
no study by name: each study module (:mod:`kaiser_sim.studies`) carries its
title, question, method and the section it contributes (``section(tables)``,
built from the blocks of :mod:`kaiser_sim.studies.blocks`), and those that
have lines for the cheat sheet a ``cheat_sheet(tables)``; the studies come in
the registry's order.  Two renderers
turn that list into files: :func:`render_markdown` (``report.md``, charts
linked as SVG, tables as Markdown) and :func:`render_pdf` (``report.pdf``,
typeset with reportlab's platypus, the charts drawn from their SVG as
vector graphics, A4 with a 7.0 x 9.5 in content box so that it prints on
Letter too; a bookmark per section, a contents list that links).  :func:`write_report` writes
both, each study's own outputs (CSV, Markdown, PNG, SVG, ``study.json``
under ``DIR/<study>/``), the report tables as CSV (``DIR/tables/``) and
``report.json`` with the inputs.

Report tables are the study tables cut down for reading: every estimate is
printed with its 95% interval as ``62.1 [58.3, 66.0]``.  They are written as
CSV exactly as printed; the full numeric tables are the study CSVs.

The modules, lowest first (each imports only those before it):

- :mod:`~kaiser_sim.report.content`: :class:`Report` and :class:`Section`,
  the defaults of the report's size, its date, :class:`ReportError`;
- :mod:`~kaiser_sim.report.sections`: the words: each study's section, the
  cheat sheet, the glossary, the title page, the appendix;
- :mod:`~kaiser_sim.report.build`: the studies run and their sections
  assembled (:func:`build_report`, :func:`parse_studies`);
- :mod:`~kaiser_sim.report.markdown`: ``report.md``;
- :mod:`~kaiser_sim.report.pdf_blocks`: the PDF's fonts, styles, tables and
  charts (the page geometry);
- :mod:`~kaiser_sim.report.pdf`: ``report.pdf``: pages, bookmarks, contents;
- :mod:`~kaiser_sim.report.make`: ``kaiser-sim report`` end to end
  (:func:`make_report`) and the files written (:func:`write_report`).

The names below are the package's public ones, importable from
``kaiser_sim.report`` as before it was a folder.
"""

from __future__ import annotations

# every public name the module had before it was a folder: the defining modules' names, re-exported
from ..studies.blocks import Chart, Table, Text, ci, count, frame, num, pct, signed_ci  # noqa: F401
from .build import build_report, parse_studies
from .content import (DEFAULT_DEALS, DEFAULT_MAX_RESOLVE, DEFAULT_PLAY_DEALS, EDITION_PATH,  # noqa: F401
                      MIN_DEALS, Report, ReportError, Section, report_date)
from .make import make_report, write_report
from .markdown import render_markdown
from .pdf import render_pdf
from .pdf_blocks import BOX_H, BOX_W, CHART_DPI, LEFT, PAGE_H, PAGE_W, TOP  # noqa: F401
from .sections import (GLOSSARY_TITLE, appendix_section, cheat_sheet, edition_words, glossary_section,  # noqa: F401
                       made_by, study_section, table_play_blocks, title_section)

__all__ = ["make_report", "build_report", "write_report", "render_markdown", "render_pdf", "cheat_sheet",
           "parse_studies", "ReportError", "Report", "Section", "Table", "Chart", "Text",
           "DEFAULT_DEALS", "DEFAULT_MAX_RESOLVE", "MIN_DEALS", "EDITION_PATH"]
