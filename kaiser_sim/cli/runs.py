"""Runs of many deals and what is made of them: ``simulate`` (the results
dataset), ``info`` (what a dataset holds), ``study`` (one study's tables and
charts) and ``report`` (the printed report).

Library: ``runs.simulate``, ``runs.results``, ``studies`` (``studies.runner``), ``report``.
"""

from __future__ import annotations

import json
import os

import click

from .. import config
from ..studies import REGISTRY, all_study_names
from .common import InputError, given, not_empty, seed_option
from .rules_options import rules_options
from .types import SEAT_HAND


@click.command()
@click.option("--deals", "-n", type=click.IntRange(min=1),
              help=f"Number of deals (1 to {config.SIMULATE_MAX_DEALS:,}; not needed with --resume).")
@seed_option
@click.option("--out", "-o", required=True, type=click.Path(), help="Results directory (a Parquet dataset, one part a chunk).")
@rules_options(default="standard; with --resume, the run's")
@click.option("--mode", type=click.Choice(["points", "tricks", "both"]), default="both", show_default=True,
              help="Tables to store: points (pts_* columns), tricks (trk_*) or both (solved together: the tricks "
                   "values bound the points search, about 1.2x the cost of points alone).")
@click.option("--workers", "-w", type=click.IntRange(min=1),
              help=f"Worker processes, one core each (with --scheduler local: Dask workers; at most "
              f"{config.SIMULATE_MAX_WORKERS_PER_CORE} a core).  [default: all cores]")
@click.option("--chunk-size", type=click.IntRange(min=1),
              help=f"Deals per chunk (one Parquet part each; at most {config.SIMULATE_MAX_CHUNK_SIZE:,}, "
              f"and at most {config.SIMULATE_MAX_CHUNKS:,} parts).  [default: {config.SIMULATE_CHUNK_SIZE:,}; "
              f"fewer for a small run, at least {config.SIMULATE_CHUNKS_PER_WORKER} parts a worker, so that the "
              f"progress moves early; {config.PLAY_CHUNK_SIZE} with --play]")
@click.option("--fix", multiple=True, type=SEAT_HAND,
              help="Give SEAT these cards in every deal (repeatable), e.g. --fix N=AKQ.5.-.- or --fix 'S=AS KS'.")
@click.option("--play", "samples", type=click.IntRange(min=1, max=config.PIMC_MAX_SAMPLES), metavar="K",
              help="Also play each deal's contract out with four PIMC players sampling K layouts a turn "
                   "(20 is the usual K): the table-play data of the table-play model. About 10x slower.")
@click.option("--resume", is_flag=True, help="Finish the interrupted run in --out (with the options it was started with).")
@click.option("--force", is_flag=True, help="Replace the results already in --out.")
@click.option("--scheduler", metavar="ADDRESS", help="Run the chunks on a Dask cluster: tcp://HOST:PORT, or local.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@click.pass_context
def simulate(ctx, deals, seed, out, rules, mode, workers, chunk_size, fix, samples, resume, force, scheduler, quiet):
    """Deal and solve many deals double dummy, one stored row per deal.

    Writes a Parquet dataset to --out: per deal its index, dealer, four hands
    and the 20 leader x strain values (columns pts_N_S .. pts_W_NT, and with
    the default --mode both the tricks, trk_N_S .. trk_W_NT). The rows
    depend only on --seed, --rules, --fix and the deal index, never on
    --workers, --chunk-size or --scheduler. A killed run keeps its whole
    parts (SIGTERM stops it cleanly, exit status 143; its worker processes
    end with it however it ends); --resume finishes it. Read the results with
    kaiser_sim.load_results(PATH); kaiser-sim info PATH summarises them.

    Solving takes nearly all the time: about 225 deals a second a core with
    both tables, 280 with --mode points (the 2-core benchmark machine:
    100,000 deals in under 4 minutes, benchmarks/results/simulate.md);
    --mode tricks is about 2.5 times faster than points.

    Under rules with the weak-hand redeal (weak_redeal weak or weak+quads:
    standard) a deal with a weak hand is redealt, as if its player always
    demanded it; deal i stays a function of (seed, rules, i), the metadata
    records the rule and the parts the number of redeals (kaiser-sim info
    shows them).  With weak_redeal=off the deals are exactly as before.

    --play K also plays one contract a deal out with four PIMC players (each
    sees only its own hand and the cards played): the declarer rotates with
    the deal and names trump by rule, no trump on every third deal; columns
    play_declarer, play_strain, play_dd (its double-dummy points) and
    play_pts (the points the declaring side takes in play). About 25 deals a
    second a core at K = 20; parts of 100 deals unless --chunk-size.  Every
    preset plays: with a kitty the PIMC declarer takes it up and discards,
    with low no trump every other NT deal is played low (strain 5), under
    cover 3 play_dd is the contract's cover-3 value and play_pts the played
    line scored with cover 3.

    \b
    Examples:
        kaiser-sim simulate --deals 100000 --seed 1 --out runs/s1
        kaiser-sim simulate --resume --out runs/s1
        kaiser-sim simulate --deals 2000 --seed 7 --play 20 --out runs/played
        kaiser-sim simulate -n 1000000 --seed 2 --out runs/s2 --scheduler tcp://10.0.0.5:8786
    """
    from ..runs.progress import make_progress
    from ..runs.simulate import RunStopped, SimulateError, simulate as run

    def typed(name, value):  # with --resume, options left out come from the run being resumed
        return value if given(ctx, name) else None

    try:
        run(out, deals, typed("seed", seed), mode=typed("mode", mode), fixed=fix, chunk_size=typed("chunk_size", chunk_size),
            rules=rules if given(ctx, "rules_preset", "rule_overrides") else None, workers=workers,
            scheduler=scheduler, resume=resume, force=force, progress=make_progress(quiet), samples=samples)
    except SimulateError as e:
        raise InputError(f"{e}{e.hint}") from None
    except RunStopped as e:  # SIGTERM, SIGHUP: the parts written are kept
        click.echo(f"Error: {e}; the parts written are kept, finish with: kaiser-sim simulate --resume --out {out}",
                   err=True)
        ctx.exit(128 + e.signum)


@click.command()
@click.argument("path", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: readable lines; json: one object (metadata, rows, parts).")
def info(path, fmt):
    """Show what a simulate results directory holds: run metadata, rows, parts.

    \b
    Example:
        kaiser-sim info runs/s1
    """
    from ..runs.results import info as read_info, info_text

    d = read_info(path)
    click.echo(json.dumps(d, indent=2) if fmt == "json" else info_text(d))



def _doc_with(**fields):
    """Fill ``{field}`` in the command's docstring (before click reads it):
    lists in the help that come from the registries the checks use."""
    def fill(f):
        f.__doc__ = f.__doc__.format(**fields)
        return f
    return fill


@click.command()
@click.argument("study_name", metavar="NAME|FILE.toml", required=False)
@click.option("--from", "from_path", type=click.Path(file_okay=False),
              help="Read this results dataset (kaiser-sim simulate --out) instead of simulating.")
@click.option("--deals", "-n", type=click.IntRange(1, config.STUDY_MAX_DEALS),
              help=f"Deals to simulate (at most {config.STUDY_MAX_DEALS:,}; not with --from).  [default: the definition's]")
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the simulation (not with --from).  "
              "[default: the definition's]")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Output directory.  [default: reports/studies/NAME]")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Set a parameter of the study (repeatable), e.g. --param max_resolve=500.")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes when simulating.  [default: all cores]")
@click.option("--force", is_flag=True, help="Simulate again the deals a previous run left in OUT/results "
              "(they are resumed when the options agree, refused when not).")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@click.option("--list", "list_params", is_flag=True, help="List the parameters of study NAME (or FILE.toml), or "
              "of every study without NAME: what each takes (kind, limits or choices), its default and what it "
              "sets; then exit.")
@rules_options(default="with --from, the results' rules; else the definition's")
@click.pass_context
@_doc_with(names=", ".join(all_study_names()),
           own=", ".join(s.key for s in REGISTRY if not s.uses_results))
def study(ctx, study_name, from_path, deals, seed, out, params, workers, force, quiet, list_params, rules):
    """Run a study and write its tables (CSV, Markdown), charts (PNG, SVG) and study.json.

    NAME is a study ({names}) or a definition file FILE.toml (analyses/
    holds one per study).  The deals come from --from RESULTS or
    are simulated (into OUT/results) with the definition's deal count and
    seed, which --deals and --seed override.  --rules/--rule set the scoring
    rules (default: those of the results or the definition).  A study that
    plays matches or bids deals of its own ({own}) reads no deals: --seed
    seeds them and --from is refused.  --param KEY=VALUE sets one of the
    study's parameters; --list shows them.

    \b
    Examples:
        kaiser-sim study bid-odds --deals 2000 --seed 1 --out out/bid-odds
        kaiser-sim study analyses/five-hearts.toml --from runs/s1 --param max_resolve=500
        kaiser-sim study five-hearts --list
    """
    from pathlib import Path

    from ..runs.progress import make_progress
    from ..studies.runner import definition_for, parameters_text, parse_param, run_study

    from ..studies import CATEGORIES, study as declared

    if list_params:
        names = [study_name] if study_name is not None else all_study_names()
        click.echo("\n".join(parameters_text(definition_for(name)) for name in names), nl=False)
        return
    if study_name is None:  # NAME is optional only with --list
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "study_name"))
    not_empty(out=out, **{"from": from_path})
    definition = definition_for(study_name)
    declaration = declared(definition.study)
    if from_path is not None and declaration.uses_results and (deals is not None or seed is not None):
        raise InputError(f"{'--deals' if deals is not None else '--seed'} describes a new simulation; "
                         "with --from the results decide the deals and the seed")
    if not declaration.uses_results and deals is not None:
        unit = declaration.unit  # what its n counts, and the parameter that sets how many
        raise InputError(f"study {definition.study} {CATEGORIES[declaration.category]} and reads no results: "
                         f"--deals does not apply (set the number of {unit} with --param {unit}=N)")
    definition.params.update(dict(parse_param(p) for p in params))
    definition.deals = deals or definition.deals
    definition.seed = definition.seed if seed is None else seed
    out = Path(out or Path("reports") / "studies" / definition.study)
    result = run_study(definition, out, from_path=from_path, workers=workers, progress=make_progress(quiet),
                       rules=rules if given(ctx, "rules_preset", "rule_overrides") else None, force=force)
    click.echo(f"{definition.study}: n={result.inputs['n']:,} {result.inputs.get('unit', 'deals')}, "
               f"seed {result.inputs['seed']}, "
               f"{len(result.files)} files in {out}")


@click.command()
@click.option("--deals", "-n", type=click.IntRange(config.REPORT_MIN_DEALS, config.STUDY_MAX_DEALS), default=None,
              help=f"Deals to simulate (at most {config.STUDY_MAX_DEALS:,}; not with --from).  [default: 4000]")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Seed of the simulation.  [default: 1]")
@click.option("--studies", metavar="A,B,...", help="Studies to include, comma-separated; dd-bias (PIMC play of "
              "the first 1,000 deals) joins only when named.  [default: all but dd-bias]")
@click.option("--from", "from_path", type=click.Path(file_okay=False),
              help="Read this results dataset (kaiser-sim simulate --out) instead of simulating.")
@click.option("--out", "-o", type=click.Path(file_okay=False),
              help="Output directory.  [default: reports/<rules>-<deals>-<seed>]")
@click.option("--max-resolve", type=click.IntRange(1, config.STUDY_MAX_DEALS), default=None,
              help="Deals re-solved by the 5H and 3S studies.  [default: 1000]")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes when simulating.  [default: all cores]")
@click.option("--force", is_flag=True, help="Simulate again the deals a previous run left in OUT/results "
              "(they are resumed when the options agree, refused when not).")
@click.option("--keep-results/--no-keep-results", default=True, show_default=True,
              help="Keep the simulated deals in OUT/results (the report names them); without, they are removed "
              "at the end and the report says so.")
@click.option("--edition", is_flag=True, help="Print the report as the edition (what make sample writes into "
              "reports/sample/); without it the first page says the report is a preview and that the edition is "
              "reports/sample/report.pdf.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@rules_options(default="standard; with --from, the results' rules")
@click.pass_context
def report(ctx, deals, seed, studies, from_path, out, max_resolve, workers, force, keep_results, edition, quiet,
           rules):
    """Write the printed report: report.pdf, report.md, every table and chart.

    Deals are simulated once (or read with --from) and shared by every
    study.  --out gets report.pdf (A4/Letter), report.md (charts as SVG),
    tables/*.csv, one folder per study (CSV, PNG, SVG) and report.json.
    Unknown --studies or unreadable --from: exit 2.

    \b
    Examples:
        kaiser-sim report
        kaiser-sim report --deals 20000 --seed 2 --studies bid-odds,bidding-chart
        kaiser-sim report --from runs/big --out reports/big --edition
    """
    from ..runs.progress import make_progress
    from ..config import STUDY_SEED
    from ..report.content import DEFAULT_DEALS, DEFAULT_MAX_RESOLVE
    from ..report.make import make_report

    not_empty(out=out, **{"from": from_path})
    if from_path is not None and (deals is not None or seed is not None):
        raise InputError("--deals and --seed describe a new run; with --from the results decide them")
    if studies is not None and not studies.replace(",", "").strip():
        raise InputError("--studies is empty: name at least one study (leave the option out for all of them)")
    log = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    if out and os.path.exists(out) and not os.path.isdir(out):
        raise InputError(f"--out {out}: is a file; give a directory")
    preset = ctx.params.get("rules_preset") or "standard"
    _, doc = make_report(out, deals or DEFAULT_DEALS, STUDY_SEED if seed is None else seed,
                         rules if (from_path is None or given(ctx, "rules_preset", "rule_overrides")) else None,
                         preset, studies, from_path, max_resolve or DEFAULT_MAX_RESOLVE, workers,
                         make_progress(quiet), log, force=force, keep_results=keep_results, edition=edition)
    click.echo(f"report: {doc['pages']} pages, {doc['deals']:,} deals, seed {doc['seed']}, "
               f"{doc['seconds']['total']:.0f}s -> {doc['out']}")
