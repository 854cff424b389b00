"""Rebuilding the shipped models: ``kaiser-sim table-play-model`` (library:
``kaiser_sim.strategy.table_play_build``), ``kaiser-sim make-model`` (library:
``kaiser_sim.strategy.make_model``), ``kaiser-sim listening-table`` (library:
``kaiser_sim.strategy.listening``) and ``kaiser-sim population-model`` (library:
``kaiser_sim.strategy.population``)."""

from __future__ import annotations

import click

from .. import config
from .common import InputError, not_empty, output_dir, output_file
from .rules_options import rules_options


@click.command("table-play-model")
@click.option("--deals", "-n", type=click.IntRange(min=100, max=10_000_000), default=8000, show_default=True,
              help="Deals played out to fit the model (one contract a deal).")
@click.option("--holdout", type=click.IntRange(min=100, max=10_000_000), default=2000, show_default=True,
              help="Further deals (seed + 1) played out to check the fitted model on.")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 2), default=101, show_default=True,
              help="Seed of the fitting deals (the held-out deals use seed + 1).")
@click.option("--samples", "-k", type=click.IntRange(min=1, max=config.PIMC_MAX_SAMPLES), default=config.PIMC_SAMPLES,
              show_default=True, help="K: layouts a PIMC player samples at each turn.")
@click.option("--sensitivity", type=click.IntRange(min=0), default=400, show_default=True,
              help="Held-out deals replayed with 2K layouts and with double-dummy defenders / declarer.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), required=True,
              help="Model file to write (JSON); the shipped one is kaiser_sim/data/table_play_model.json.")
@click.option("--runs", type=click.Path(file_okay=False),
              help="Keep the two play runs here (fit/, holdout/; resumed if present). Default: a temporary directory.")
@click.option("--add", "add", type=click.Path(dir_okay=False),
              help="An earlier model file of the standard game (same K, fitted on another seed) whose played "
                   "contracts are pooled with this run's: the model is fitted on both, checked on this run's "
                   "held-out deals, which neither saw.")
@click.option("--workers", "-w", type=click.IntRange(min=1), help="Worker processes.  [default: all cores]")
@click.option("--bands", is_flag=True,
              help="Fit the model on the declaring hand's count band too: --deals and --holdout are dealt "
                   "deals (whole chunks of 1,500), about a third played (every strong hand, one in five of "
                   "the middle ones); --add's played contracts go to the pooled rows. No sensitivity table "
                   "(--add's is carried over).")
@click.option("--pseudo", type=click.FloatRange(min=0), default=40.0, show_default=True,
              help="With --bands: contracts' weight of the pooled row in each band's row (shrinkage).")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@rules_options
def table_play_model(deals, holdout, seed, samples, sensitivity, out, runs, add, workers, bands, pseudo, quiet,
                     rules):
    """Build the table-play model: what double-dummy points become at a table.

    Plays --deals deals out with four PIMC players (simulate --play), fits
    P(table points | double-dummy points, trump or no trump), checks it on
    --holdout further deals and measures its sensitivity to K and to the
    players; writes the model with its provenance and checks to --out.
    The defaults take about 8 minutes on 2 quiet cores.  --add pools the
    played contracts of an earlier model with this run's (another seed): a
    model fitted on 40,000 deals of seed 101 plus 40,000 of seed 103 is the
    model fitted on all 80,000 at once.  The shipped model is built so, in
    two runs of --deals 40000 --holdout 10000 (about 40 minutes each);
    `make table-play-model` rebuilds it (--out kaiser_sim/data/table_play_model.json).

    --rules / --rule that change the play (a kitty, low no trump, cover 3)
    build that game's model: the deals dealt and played under the rules (a
    PIMC declarer takes the kitty and discards; low NT on every other NT
    deal), fitted and checked on held-out deals (with a kitty also the
    PIMC discard against double dummy's best), without --runs (the deals
    are played in this process) or the sensitivity table.  The shipped
    ones (kaiser_sim/data/table_play_model_<game>.json) used --deals 2000
    --holdout 500; each file's provenance gives its rebuild command.

    \b
    Examples:
        kaiser-sim table-play-model --out runs/table_play_model.json
        kaiser-sim table-play-model --rules low-nt --deals 2000 --holdout 500 --out runs/low-nt.json
    """
    from ..runs.progress import make_progress
    from ..strategy.capabilities import check
    from ..strategy.table_play_build import build_model  # checks --add before any deal is played

    from ..rules import Rules
    from ..strategy.table_play import play_key

    variant = play_key(rules) != play_key(Rules.preset("standard"))
    if bands:
        from ..strategy.table_play_build import BAND_CHUNK, build_band_model

        if variant:
            raise InputError("--bands builds the standard game's model only: leave out --bands or the "
                             "--rules / --rule")
        for name, v in (("--deals", deals), ("--holdout", holdout)):
            if v % BAND_CHUNK:
                raise InputError(f"{name} with --bands is a whole number of chunks of {BAND_CHUNK:,} dealt deals "
                                 f"(got {v:,})")
        not_empty(out=out, runs=runs, add=add)
        output_file(out, f"--out {out}")
        if runs is not None:
            output_dir(runs, f"--runs {runs}")
        model = build_band_model(out, deals, holdout, seed, samples, runs, add, pseudo, make_progress(quiet))
        if not quiet:
            click.echo(validation_text(model), err=True)
            click.echo(f"{model.describe()} -> {out}", err=True)
        return
    if runs is not None:
        check("table-play-model --runs", rules, InputError)
    if sensitivity > holdout and not variant:
        raise InputError("--sensitivity deals are taken from the held-out deals: at most --holdout")
    if variant and add is not None:
        raise InputError("--add pools played contracts of the standard game only: leave --add out, or the "
                         "--rules / --rule")
    not_empty(out=out, runs=runs, add=add)
    # the outputs, named by their options, before any deal is played (build_model checks them again,
    # and the runs already in --runs)
    output_file(out, f"--out {out}")
    if runs is not None:
        output_dir(runs, f"--runs {runs}")  # may hold the runs fit/ and holdout/, not be inside one
    model = build_model(out, deals, holdout, seed, samples, sensitivity, runs, workers, make_progress(quiet),
                        rules=rules if variant else None, add=add)
    # an OSError now (a full disk) is a failed output: the group names it (exit 1); nothing half written
    if not quiet:
        click.echo(validation_text(model), err=True)
        click.echo(f"{model.describe()} -> {out}", err=True)


def validation_text(model) -> str:
    """The model's held-out checks as a table (band, strain, bid: played [95%], predicted, the model's own
    standard error, inside the played interval, agreeing within both errors)."""
    from ..strategy.table_play_build import validation_summary

    rows = model.validation.get("heldout", [])
    lines = [f"{'band':>7} {'kind':>5} {'bid':>11} {'n':>6} {'played':>7} {'95% interval':>16} {'predicted':>9} "
             f"{'model se':>8} {'pooled':>7}  inside  agrees"]
    for r in rows:
        pct = r["bid"] != "mean points"
        f = (lambda x: f"{100 * x:.1f}%") if pct else (lambda x: f"{x:.2f}")
        se = r.get("model_se")
        lines.append(f"{r['count_band']:>7} {r['kind']:>5} {str(r['bid']):>11} {r['n']:>6} {f(r['observed']):>7} "
                     f"{'[' + f(r['lo']) + ', ' + f(r['hi']) + ']':>16} {f(r['predicted']):>9} "
                     f"{'-' if se is None else f(se):>8} {f(r.get('pooled', r['predicted'])):>7}  "
                     f"{'yes' if r['inside'] else 'NO':>6}  {'yes' if r.get('agrees', r['inside']) else 'NO':>6}")
    s = validation_summary(rows)
    lines.append(f"held-out checks inside their 95% intervals: {s['inside']} of {s['checks']} "
                 f"({100 * s['inside'] / max(s['checks'], 1):.1f}%); agreeing within the held-out play's and the "
                 f"model's own error (95%): {s['agree']} ({100 * s['agree'] / max(s['checks'], 1):.1f}%); band means "
                 f"inside: {s['band_means_inside']} of {s['band_means']}, agreeing: {s['band_means_agree']}; the "
                 f"pooled rows (no hand) inside: {s['pooled_inside']} of {s['checks']}")
    return "\n".join(lines)


@click.command("make-model")
@click.argument("results_path", metavar="RESULTS", type=click.Path(file_okay=False))
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False),
              help="Directory to write make_model.csv and make_model.json into.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False),
              help="Counts table to write.  [default: OUT/make_model.csv]")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Coefficients and provenance to write.  [default: OUT/make_model.json]")
@click.option("--replace-shipped", is_flag=True,
              help="Write over the model the package ships (kaiser_sim/data/make_model.csv and .json), "
              "which the bidding policies read; instead of --out, --csv and --json.")
def make_model_command(results_path, out_dir, csv_path, json_path, replace_shipped):
    """Rebuild the make-probability model of the bidding policies.

    Fits, on a points-mode results dataset of the standard deck (kaiser-sim
    simulate --out RESULTS, at least 100 deals), a linear hand count per
    strain kind (trump, no trump) and the distribution of the declaring
    side's double-dummy points in equal-count bins of that count; writes the
    counts (CSV) and the coefficients with their provenance (JSON) into
    --out (or --csv and --json).  The shipped model was fitted on 20,000
    deals of seed 1; --replace-shipped writes over it.

    \b
    Example:
        kaiser-sim simulate --deals 20000 --seed 1 --out runs/model
        kaiser-sim make-model runs/model --out runs/model-fit
    """
    import os

    from ..strategy.make_model import MODEL_CSV, MODEL_JSON, rebuild

    not_empty(out=out_dir, csv=csv_path, json=json_path)
    if replace_shipped and (out_dir or csv_path or json_path):
        raise InputError("--replace-shipped writes the shipped files: give it without --out, --csv and --json")
    labels = ("--csv" if csv_path else "--out", "--json" if json_path else "--out")
    if replace_shipped:
        csv_path, json_path, labels = MODEL_CSV, MODEL_JSON, ("--replace-shipped",) * 2
    elif out_dir is not None:
        csv_path = csv_path or os.path.join(out_dir, "make_model.csv")
        json_path = json_path or os.path.join(out_dir, "make_model.json")
    if csv_path is None or json_path is None:
        raise InputError("give --out DIR (or both --csv FILE and --json FILE) for the model's files; "
                         "--replace-shipped writes over the model the package ships")
    try:  # (rebuild checks both outputs, named by their options, before it reads the results)
        line = rebuild(results_path, csv_path, json_path, labels=labels)
    except KeyError as e:  # a column missing (pandas): put into the family; MakeModelError, ResultsError pass
        raise InputError(f"{results_path}: not a points-mode results dataset (no column {e})") from None
    click.echo(line)


@click.command("listening-table")
@click.option("--deals", "-n", type=click.IntRange(min=100, max=1_000_000), default=16000, show_default=True,
              help="Random deals solved double dummy (every seat and strain) and bid over in each round.")
@click.option("--seed", type=click.IntRange(min=0, max=config.MAX_SEED), default=20261202, show_default=True,
              help="Seed of the deals.")
@click.option("--tolerance", type=click.FloatRange(min=0, max=1, min_open=True), default=0.02, show_default=True,
              help="Stop when no call's share in any position moves by this much from one round to the next.")
@click.option("--max-rounds", type=click.IntRange(min=1, max=100), default=20, show_default=True,
              help="Stop after this many rounds (converged or not; the output says which).")
@click.option("--out", "-o", type=click.Path(dir_okay=False), required=True,
              help="Table file to write (.npz); the shipped one is kaiser_sim/data/listening_table.npz.")
@click.option("--quiet", "-q", is_flag=True, help="Only the rounds, no progress lines.")
@rules_options
def listening_table(deals, seed, tolerance, max_rounds, out, quiet, rules):
    """Build the listening policy's table: each call's net value given the calls heard.

    Solves --deals random deals double dummy; the other players bid like the
    shipped bidding population; the build tries every call of every position
    (pass, the cheapest plain and NT bids, one step above each, the dealer's
    match) with the rest of the auction bid by them, and averages each call's
    net value (the caller's side's hand score minus the opponents', at 0-0,
    in table play and in double dummy) by position, what was heard and the
    caller's hand: one round, the best response to the population.  Under
    rules the population has no fit for, the others start as ev and the
    rounds iterate (round r assumes round r-1's policy, reading the tables
    pooled over rounds 1..r) until the calls' frequencies stop moving
    (--tolerance) or --max-rounds.  Prints the rounds.  Standard deck
    without a kitty, low no trump or cover 3.  The shipped table took
    about 80 s on one core of 2 shared with other work (the solver
    70 s of them); `make listening-table` rebuilds it.

    \b
    Example:
        kaiser-sim listening-table --deals 2000 --out runs/listening_table.npz
    """
    from ..strategy.listening import build_tables, check_rules, rounds_text, save_tables

    not_empty(out=out)
    check_rules(rules)
    output_file(out, f"--out {out}")
    log = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    tables = build_tables(rules, deals, seed, tolerance=tolerance, max_rounds=max_rounds, log=log)
    size = save_tables(tables, out)
    for t in tables.values():
        click.echo(rounds_text(t))
        click.echo("")
    click.echo(f"{size:,} bytes -> {out}")


@click.command("population-model")
@click.option("--deals", "-n", type=click.IntRange(min=100, max=1_000_000), default=24000, show_default=True,
              help="Random deals solved double dummy (every seat and strain) and bid over in each round.")
@click.option("--seed", type=click.IntRange(min=0, max=config.MAX_SEED), default=20261203, show_default=True,
              help="Seed of the deals and of the self-play's draws.")
@click.option("--temperature", type=click.FloatRange(min=0.01, max=100), default=0.5, show_default=True,
              help="The self-play's temperature, in points of net value: the rounds' population calls a "
                   "softmax of its values at this temperature.")
@click.option("--play-temperature", type=click.FloatRange(min=0.01, max=100), default=0.3, show_default=True,
              help="The built population's own temperature: it calls a softmax of the fitted values at this "
                   "one (lower than --temperature: it explores in the rounds, wastes less at the table).")
@click.option("--tolerance", type=click.FloatRange(min=0, max=1, min_open=True), default=0.01, show_default=True,
              help="Stop when no call's share in any position moves by this much from one round to the next.")
@click.option("--max-rounds", type=click.IntRange(min=1, max=100), default=30, show_default=True,
              help="Stop after this many rounds (converged or not; the output says which).")
@click.option("--out", "-o", type=click.Path(dir_okay=False), required=True,
              help="Model file to write (.npz); the shipped one is kaiser_sim/data/population.npz.")
@click.option("--quiet", "-q", is_flag=True, help="Only the rounds, no progress lines.")
@rules_options
def population_model(deals, seed, temperature, play_temperature, tolerance, max_rounds, out, quiet, rules):
    """Build the bidding population: a stochastic bidder fitted by self-play.

    Solves --deals random deals double dummy, then iterates: round r bids
    every deal around by the current population (round 1: ev), tries every
    call of every position (pass, the cheapest plain and NT bids, one step
    above each, the dealer's match) with the later seats, partner included,
    bid by that population, and fits each call's net value (the caller's
    side's hand score minus the opponents', at 0-0, in table play and in
    double dummy) on the caller's hand features, per position and what was
    heard; the new population, a softmax of those values at --temperature,
    is a damped average with the one before.  The file's population calls
    at --play-temperature.  Stops when the calls'
    frequencies stop moving (--tolerance) or after --max-rounds, and prints
    the rounds.  Standard deck without a kitty, low no trump or cover 3.
    `make population-model` rebuilds the shipped file.

    \b
    Example:
        kaiser-sim population-model --deals 2000 --out runs/population.npz
    """
    from ..strategy.population import build_models, check_rules, rounds_text, save_models

    not_empty(out=out)
    check_rules(rules)
    output_file(out, f"--out {out}")
    log = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    models = build_models(rules, deals, seed, temperature=temperature, tolerance=tolerance, max_rounds=max_rounds,
                          log=log, play_temperature=play_temperature)
    size = save_models(models, out)
    for m in models.values():
        click.echo(rounds_text(m))
        click.echo("")
    click.echo(f"{size:,} bytes -> {out}")
