"""Writing a report: ``kaiser-sim report`` end to end, and the files of a built report.

:func:`make_report` obtains the results once (read, or simulated), builds the
report (:func:`~kaiser_sim.report.build.build_report`) and writes it
(:func:`write_report`): ``report.md``, ``report.pdf``, each study's own
outputs (CSV, Markdown, PNG, SVG, ``study.json`` under ``DIR/<study>/``), the
report tables as CSV (``DIR/tables/``) and ``report.json`` with the inputs.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

from ..runs.output_dir import source_date_epoch
from ..rules import Rules
from .build import build_report, parse_studies
from ..config import STUDY_SEED
from .content import DEFAULT_DEALS, DEFAULT_MAX_RESOLVE, MIN_DEALS, Report, ReportError
from .markdown import render_markdown
from .pdf import render_pdf


def write_report(report: Report) -> dict:
    """Write report.md, report.pdf, tables/*.csv and report.json into ``report.out``."""
    out = report.out
    (out / "tables").mkdir(parents=True, exist_ok=True)
    files = []
    for t in report.tables():
        t.df.to_csv(out / "tables" / f"{t.name}.csv", index=False)
        files.append(f"tables/{t.name}.csv")
    (out / "report.md").write_text(render_markdown(report), encoding="utf-8")
    pages = render_pdf(report, out / "report.pdf")
    files += ["report.md", "report.pdf", "report.json"]
    for key, o in report.outputs.items():
        files += [f"{key}/{f}" for f in o.files]
    doc = dict(report.inputs, pages=pages, files=files)
    _write_doc(out / "report.json", doc)
    return doc


def _write_doc(path: Path, doc: dict) -> None:
    """report.json: ``doc``, without its wall-clock times when the output is
    to be reproducible (``SOURCE_DATE_EPOCH`` set)."""
    if source_date_epoch() is not None:
        doc = {k: v for k, v in doc.items() if k != "seconds"}
    path.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")


def make_report(out=None, deals: int = DEFAULT_DEALS, seed: int = STUDY_SEED, rules: Rules | None = None,
                rules_preset: str = "standard", studies=None, from_path=None,
                max_resolve: int = DEFAULT_MAX_RESOLVE, workers: int | None = None, progress=None,
                log=None, force: bool = False, keep_results: bool = True,
                edition: bool = False) -> tuple[Report, dict]:
    """``kaiser-sim report`` end to end: obtain results once (read ``from_path`` or
    simulate ``deals`` with ``seed`` into ``out/results``, over again if
    ``force``), run the studies, write everything.  Returns the report and
    the ``report.json`` document.  Without ``keep_results`` the deals
    simulated into ``out/results`` are removed at the end, and the report
    says so where it would name them (``report --no-keep-results``; what
    ``make sample`` does for the committed sample).  ``edition``: the title
    page calls the report the edition (``report --edition``); without it, a
    preview that names where the edition is (:data:`EDITION_PATH`).

    ``out`` defaults to ``reports/<rules>-<deals>-<seed>``.  ``rules``:
    ``None`` is "not given" (``--rules`` left out), not the standard game:
    the rules recorded with ``from_path``'s results, else the preset
    ``rules_preset``.

    Everything is checked before any work: the studies, the deal count, that
    ``from_path`` is a results dataset with points values, that ``out`` can be
    written.  The files are written into a hidden directory in ``out`` and
    moved into place at the end; a run that fails leaves nothing it created
    (:mod:`kaiser_sim.runs.output_dir`).

    Refusals are :class:`~kaiser_sim.errors.KaiserSimError`: the report's own
    (:class:`ReportError`: the studies, the deal count) and those of the run
    services, raised as they are (:class:`~kaiser_sim.runs.services.RunServiceError`
    and the run layer's ``ResultsError`` / ``SimulateError``: results that
    cannot be read or simulated, an ``out`` that cannot be written).
    """
    from .. import config
    from ..runs.output_dir import removed_on_failure, staged
    from ..rules import get_preset
    from ..runs.services import StudyData, check_output_dir, check_results_path, obtain_results, results_rules

    keys = parse_studies(studies)
    if from_path is None and deals < MIN_DEALS:
        raise ReportError(f"--deals {deals}: the report needs at least {MIN_DEALS} deals")
    if from_path is None and deals > config.STUDY_MAX_DEALS:
        raise ReportError(f"--deals {deals}: the report takes at most {config.STUDY_MAX_DEALS:,} deals")
    log = log or (lambda line: None)
    t0 = time.time()
    if from_path is not None:
        meta = check_results_path(from_path)  # readable, with points values: before anything is loaded
        if rules is None:
            rules = results_rules(meta, from_path) or get_preset(rules_preset)
        deals, seed = meta.get("deals", "x"), meta.get("seed", "x")
        if isinstance(deals, int) and deals < MIN_DEALS:
            raise ReportError(f"the report needs at least {MIN_DEALS} deals; {from_path} holds {deals}")
        source = str(from_path)
    else:
        rules = rules or get_preset(rules_preset)
    if out is None:
        label = re.sub(r"[^A-Za-z0-9_.=-]+", "_", rules.label).strip("_")[:80] or "rules"
        out = Path("reports") / f"{label}-{deals}-{seed}"
    out = Path(out)
    check_output_dir(out)
    with removed_on_failure(out, out / "results"):
        if from_path is not None:
            results = obtain_results(from_path)
        else:
            log(f"simulating {deals:,} deals (seed {seed}, rules {rules.label}) into {out / 'results'}")
            results = obtain_results(None, deals, seed, rules, out, progress, workers, force)
    with removed_on_failure(out):  # a failure from here on keeps the deals simulated into out/results
        if from_path is None:
            source = str(out / "results") if keep_results else (
                f"not kept (--no-keep-results); kaiser-sim simulate --deals {deals} --seed {seed} --mode points "
                "with these rules makes the same deals again")
        data = StudyData(results, rules, source)  # the rules given once: every study and section reads them here
        t1 = time.time()
        with staged(out, "the report") as stage:
            report = build_report(data, stage, keys, max_resolve, log, t1 - t0, rules_preset, edition)
            log("writing report.pdf and report.md ...")
            doc = write_report(report)
            doc["seconds"]["total"] = round(time.time() - t0, 1)
            doc["out"] = str(out)
            _write_doc(stage / "report.json", doc)
        report.out = out
        if from_path is None and not keep_results:
            shutil.rmtree(out / "results")
    return report, doc


__all__ = ["make_report", "write_report"]
