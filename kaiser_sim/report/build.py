"""Building a report: the chosen studies run on one results frame, their sections assembled in order.

:func:`build_report` runs the chosen studies on one results frame (simulated
once, or read with ``--from``) and builds the content once, as a list of
:class:`~kaiser_sim.report.content.Section` objects holding text, tables and
charts; the studies come in the registry's order.
"""

from __future__ import annotations

import time
from pathlib import Path

from .. import __version__
from ..runs.services import StudyData
from ..studies import REGISTRY, STUDIES, study as declared
from ..studies.runner import definition_for, run_study
from .content import (DEFAULT_MAX_RESOLVE, DEFAULT_PLAY_DEALS, MIN_DEALS, Report, ReportError, default_worked_deals,
                      report_date)
from .sections import (advice_section, appendix_section, cheat_sheet, cheat_sheet_more, glossary_section, heard_section,
                       study_section, title_section, worked_hands_section)


def parse_studies(text) -> list[str]:
    """``"a,b"`` -> study keys in the report's order; :class:`ReportError` on an unknown name.

    The default is every study of ``STUDIES`` (declared ``report="default"``);
    those declared ``report="named"`` (the play studies) join only when named."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return list(STUDIES)
    names = [t.strip().lower().replace("_", "-") for t in (text.split(",") if isinstance(text, str) else text)]
    names = [n for n in names if n]
    known = list(STUDIES) + [s.key for s in REGISTRY if s.report == "named"]
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise ReportError(f"unknown study {', '.join(repr(b) for b in bad) or '(none given)'}; "
                          f"studies: {', '.join(known)}")
    return [k for k in known if k in names]



def build_report(data: StudyData, out, studies=None, max_resolve: int = DEFAULT_MAX_RESOLVE, log=None,
                 seconds_results: float = 0.0, rules_preset: str = "standard", edition: bool = False,
                 worked_deals: int | None = None) -> Report:
    """Run ``studies`` (default all) on ``data`` (the results, the rules they
    are scored under, where they come from) and build the report's content.

    Each study writes its own outputs into ``out/<study>/``; ``log`` (a
    callable taking a line) reports progress.  ``edition``: the report is
    the edition (:data:`EDITION_PATH`); otherwise its title page says it is
    a preview and where the edition is.  ``worked_deals``: the hand advisor's
    deals for each worked hand (default :func:`default_worked_deals`).
    """
    log = log or (lambda line: None)
    keys = parse_studies(studies)
    results = data.results
    if len(results) < MIN_DEALS:
        raise ReportError(f"the report needs at least {MIN_DEALS} deals; the results hold {len(results)}")
    out = Path(out)
    outputs, seconds = {}, {"results": round(seconds_results, 1)}
    for i, key in enumerate(keys, 1):
        t0 = time.time()
        log(f"study {i}/{len(keys)}: {key} ...")
        d, study = definition_for(key), declared(key)
        if "re-solves" in study.needs:
            d.params["max_resolve"] = int(max_resolve)
        if "play" in study.needs:
            d.params["max_deals"] = min(len(results), DEFAULT_PLAY_DEALS)
        if study.report_params:  # the report's shorter run, sized by its deals
            d.params.update(study.load().report_params(len(results)))
        if study.uses_results:
            outputs[key] = run_study(d, out / key, results=data.run, rules=data.rules)
        else:  # a study that plays games of its own: no results
            outputs[key] = run_study(d, out / key, rules=data.rules)
        seconds[key] = round(time.time() - t0, 1)
        log(f"study {i}/{len(keys)}: {key} done in {seconds[key]:.0f}s")
    date = report_date()
    inputs = {"schema": "kaiser-sim/report/1", "version": __version__, "date": date.strftime("%Y-%m-%d %H:%M UTC"),
              "deals": int(len(results)), "seed": data.seed, "rules": data.rules.to_dict(),
              "rules_preset": rules_preset, "studies": keys, "max_resolve": int(max_resolve),
              "results": data.source, "edition": bool(edition),
              "params": {k: o.inputs["params"] for k, o in outputs.items()}, "seconds": seconds}
    cheat = cheat_sheet(outputs)  # the table card; None when no study of the report has lines for it
    more = cheat_sheet_more(outputs) if cheat is not None and cheat.key == "table-card" else None
    sections = [title_section(inputs, keys)] + [s for s in (cheat, more) if s is not None]
    sections.append(glossary_section(inputs))
    log("worked hands: the advisor on each example hand ...")
    wd = int(worked_deals) if worked_deals is not None else default_worked_deals(len(results))
    inputs["worked_deals"] = wd
    worked = worked_hands_section(outputs, data, wd)
    log("advice by the level heard: the auctions players ask about ...")
    sections += [s for s in (worked, advice_section(outputs), heard_section(outputs, data)) if s is not None]
    sections += [study_section(k, outputs[k]) for k in keys]
    sections.append(appendix_section(inputs, data.rules))
    return Report("What the cards are worth in Kaiser", inputs, sections, outputs, out)


__all__ = ["parse_studies", "build_report"]
