"""Bidding policies played against each other: ``kaiser-sim match``
(library: ``kaiser_sim.strategy.match``, ``kaiser_sim.strategy.policies``)."""

from __future__ import annotations

import click

from .. import config
from .common import not_empty, output_dir, seed_option
from .rules_options import rules_options
from .types import POLICY




@click.command()
@click.option("--policy", "-a", "policy_a", required=True, type=POLICY, help="Policy A (the one measured).")
@click.option("--vs", "-b", "policy_b", required=True, type=POLICY, help="Policy B, the opponents.")
@click.option("--matches", "-n", type=click.IntRange(1, config.MATCH_MAX_COUNT), default=config.MATCH_DEFAULT_COUNT,
              show_default=True, help="Matches to play (in duplicate: pairs on the same cards, A on each side "
              f"once; at most {config.MATCH_MAX_COUNT:,}).")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Duplicate: each deal sequence (the same dealers and table-play draws) played twice with the "
                   "partnerships swapped, the pair of matches the independent unit (its score: A's wins in both "
                   "seatings / 2), so the cards' luck cancels. --no-duplicate: every match its own cards.")
@seed_option
@click.option("--play", type=click.Choice(["table", "dd"], case_sensitive=False), default="table", show_default=True,
              help="What the policies' make-probabilities expect: table play (the double-dummy make model "
                   "through the table-play model: about a bid lower) or dd (double dummy). How the contracts are "
                   "scored is --engine. Every preset and option has a table-play model (kaiser_sim/data/table_play_model*.json).")
@click.option("--engine", type=click.Choice(["table", "dd"], case_sensitive=False), default=None,
              help="How each contract is scored: table (the declaring side's points drawn from the table-play "
                   "model given the contract's double-dummy points, so bidders are judged by table play) or dd "
                   "(the double-dummy points).  [default: table (every preset has a table-play model), else dd "
                   "with a note when the model cannot be read]")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True,
              help="What to print: a readable table, one CSV summary row, or a JSON document.")
@click.option("--out", "-o", type=click.Path(file_okay=False),
              help="Also write summary.csv, summary.json, matches.csv and hands.csv into this directory.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@rules_options
def match(policy_a, policy_b, matches, duplicate, seed, play, engine, fmt, out, quiet, rules):
    """Play whole matches of policy A against policy B; A's win rate.

    Each hand is dealt (redealt when a hand is weak, under rules with the
    weak-hand redeal), bid by the two policies (each seat sees only its
    own hand and the public auction and scores), played in the contract
    (--engine: table play drawn from the table-play model, or double
    dummy) and scored by the rules, until a side wins.  The policies bid
    expecting table play (--play table, the default) or double dummy
    (--play dd); the output records both.  Printed: A's win rate with its
    95% interval and its edge over 50%, hands per match, the score
    margin, how each side went out (bidding or defending) and skunks.
    The matches are played duplicate (--duplicate, the default: each deal
    sequence twice, partnerships swapped; intervals clustered by pair) or
    each on its own cards (--no-duplicate); the output says which.  Policies: ev, cautious,
    aggressive, score-aware, rank-squared, trump-heuristic, and listening
    (each call's net value given the calls heard, from a simulated table;
    score-aware from 45 on) (docs/power-user.md: Matches).  Every preset works: a kitty (the declarer takes it and
    discards best, double dummy; slower), low no trump (its own bid),
    cover 3 (approximate), the solo Kaiser (no policy bids 12NT); the
    output notes what the policies' make model does not know of the
    rules.  Passing cards (pass_cards) is not modelled: exit 2.

    \b
    Examples:
        kaiser-sim match --policy score-aware --vs ev --matches 2000 --seed 1
        kaiser-sim match -a ev -b rank-squared --rule target=32 --rule bid_out=25 --format json
        kaiser-sim match -a ev -b cautious --rules low-nt --matches 200
    """
    from ..strategy.match import play_matches
    from ..runs.progress import make_progress

    not_empty(out=out)
    if out:
        output_dir(out, f"--out {out}")
    result = play_matches(policy_a, policy_b, matches, seed, rules, play=play.lower(),
                          engine="auto" if engine is None else engine.lower(), progress=make_progress(quiet),
                          duplicate=duplicate)
    if result.play.get("play_note"):
        click.echo(f"warning: {result.play['play_note']}", err=True)
    if result.play.get("engine_note"):  # table play asked for, or the default falling back to dd
        click.echo(f"{'warning' if engine else 'note'}: {result.play['engine_note']}", err=True)
    if out:
        from ..runs.output_dir import removed_on_failure, staged

        with removed_on_failure(out), staged(out, "the match tables") as stage:
            result.write(stage)
    if fmt == "json":
        click.echo(result.to_json())
    elif fmt == "csv":
        click.echo(result.summary_frame().to_csv(index=False), nl=False)
    else:
        click.echo(result.to_text())
