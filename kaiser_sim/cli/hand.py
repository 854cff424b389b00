"""The hand advisor: ``kaiser-sim hand`` (library: ``kaiser_sim.strategy.advisor``)."""

from __future__ import annotations

import os

import click

from .. import config
from .common import InputError, OutputFailed, not_empty, output_file, seed_option
from .rules_options import rules_options
from .types import BID, HAND, POLICY, SEAT, joined


@click.command()
@click.argument("hand_mask", metavar="HAND", nargs=-1, required=True, callback=joined(HAND))
@click.option("--seat", type=SEAT, default="N", show_default=True,
              help="Your seat.  It leads, i.e. declares: the values are for its side.")
@click.option("--dealer", type=SEAT,
              help="The dealer; decides only the legal calls (matching, the forced bid).  "
              "[default: the seat on your right, so you speak first]")
@click.option("--deals", "-n", type=click.IntRange(config.HAND_MIN_DEALS, config.HAND_MAX_DEALS), default=None,
              help=f"Random deals of the other cards to solve (at most {config.HAND_MAX_DEALS:,}).  [default: "
              f"{config.HAND_ADVISOR_DEALS:,}; {config.HAND_ADVISOR_KITTY_DEALS:,} with a kitty, where each deal is a search over the discards: "
              "about 30 ms a deal with kitty-4, 15 ms with kitty-34, against 2 ms without]")
@seed_option
@click.option("--auction", metavar="CALLS",
              help="The calls you heard, from the dealer's left up to your turn: '6 pass 7' (pass, 6, 6NT, "
              "7NT-low, ...; 'none' when you speak first).  The dealer follows from --seat and the number of "
              "calls.  The other cards are then dealt consistently with the calls (each seat that spoke would "
              "have made its call under the --bidders model), and every number is on those deals.")
@click.option("--bidders", type=POLICY, default=config.AUCTION_BIDDERS, show_default=True,
              help="The bidding model of the other players, a match policy (" + ", ".join(config.POLICY_NAMES)
              + ").  It decides which deals fit --auction and how the "
              "rest of the auction goes after each of your calls.  Default ev: the plainest competent bidder "
              "(each call the one with the highest expected score), and the model the win chances are built on.")
@click.option("--score", metavar="US-THEM",
              help="The match score before this hand, yours first (30-12; the target comes from the rules): "
              "the call is then chosen on the chance of winning the match, and each call's is printed.")
@click.option("--max-candidates", type=click.IntRange(1, config.AUCTION_MAX_CANDIDATES_LIMIT), default=None,
              help="With --auction: the most candidate deals tried before giving up on rare calls.  [default: "
              f"{config.AUCTION_MAX_CANDIDATES:,}]")
@click.option("--conditioning", type=click.Choice(["weights", "reject"], case_sensitive=False),
              default=config.AUCTION_CONDITIONING, show_default=True,
              help="With --auction: weights: every candidate deal weighted by the --bidders model's probability "
              "of the calls (every legal auction gets an answer); reject: only the deals on which the model makes "
              "every call (refuses calls the model almost never makes).")
@click.option("--current-bid", type=BID, help="The highest bid so far (8, 8NT), without the calls: only calls "
              "after it are considered, the deals are not conditioned on it (use --auction for that).")
@click.option("--play", type=click.Choice(["table", "dd"], case_sensitive=False), default="table",
              show_default=True, help="table: choose the trump, the call and the limit on table play, what your side takes when "
              "nobody sees the other hands (the table-play model of PIMC players; docs/player.md), with "
              "the double-dummy numbers beside them; dd: everything double dummy (all four hands seen), for "
              "comparison.  Every preset and option has a table-play model (a kitty, low no trump, cover 3 their own).")
@click.option("--play-check", type=click.IntRange(0, 10_000), default=config.TABLE_PLAY_CHECK_DEALS,
              show_default=True, help="Table play: deals of this hand that PIMC players play out (K = "
              f"{config.TABLE_PLAY_CHECK_SAMPLES}) in the chosen trump and in no trump (and in a suit that then comes "
              "out on top), to correct the model for this hand (its error is in the intervals); 0: the model alone.  About 25 deals a second on two cores.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table: the report; json: one object, schema kaiser-sim/hand-advice/3 (docs/player.md).")
@click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also draw make probability by bid for each strain to FILE (.png, .svg or .pdf).")
@click.option("--specials/--no-specials", default=True, show_default=True,
              help="Measure the 5H and 3S: where they are dealt, their double-dummy worth (two more solves of every other deal).")
@rules_options
def hand(hand_mask, seat, dealer, deals, seed, auction, bidders, score, max_candidates, conditioning, current_bid, play, play_check,
         fmt, plot, specials, rules):
    """Advise on one hand: make odds, expected score of each bid, the call.

    HAND is your 8 cards, spades.hearts.diamonds.clubs (AK93.5.AK.8) or a
    list (AS KS 9S 3S 5H AD KD 8C, or A♠ K♠ ...).  The other cards are
    dealt at random --deals times and each deal is solved double dummy in
    every strain with your hand on lead; the table-play model turns each
    value into what players who see only their own hand take (--play).

    Every rules preset and option works (docs/power-user.md: rule variants): with a
    kitty HAND is the hand as dealt (7 cards with kitty-4, 8 from the
    34-card deck with kitty-34), the kitty is dealt at random and you take
    it and discard best; low no trump is its own column (LNT) and bid;
    cover 3 is approximate and the solo Kaiser's 12NT is left out (the
    notes say how); under the weak-hand redeal the other hands are never
    weak.  Every preset has its table-play model (a kitty, low no trump
    and cover 3 their own), the hand's own play under the rules.

    Every number is on the same deals as the choices: the trump is the top
    of the per-strain means, the call the top of the calls table (or pass
    when no bid is clearly worth more; a tie is said), and the call's worth
    on deals it did not see is printed apart (expected on fresh deals).  A
    run that must first compile the solver says so on stderr, and so does
    any step longer than 2 s.  Printed: first the verdict, one line; per strain the chance of taking
    at least each bid and the mean points; per bid the expected hand score
    if it becomes the contract (trump chosen once for the hand); each
    legal call's worth, pass included: the rest of the auction played out
    by the --bidders model, your side's score minus the opponents' (with
    --score, the chance of winning the match), and the recommended call;
    a dealer facing a bid is told whether to match; where the 5H and 3S
    are dealt and what they are worth (double dummy).

    With --auction the calls you heard condition the deals: a 6 on your
    left, partner's pass and a 7 on your right say a lot about the cards
    you cannot see.  Calls too rare under the model (fewer than 200 deals
    fit them within --max-candidates) are refused with the rarest call
    named; with 200 or more but fewer than --deals the advice goes on and
    says so.  Bad input (wrong card count, a card twice, an impossible
    bid or auction, a --dealer the calls contradict): exit 2.

    \b
    Examples:
        kaiser-sim hand AK93.5.AK.8
        kaiser-sim hand AQ98.K5.A.T --seat S --auction "6 pass 7"
        kaiser-sim hand AQ98.K5.A.T --seat S --auction "6 pass 7" --score 40-30
        kaiser-sim hand "AS KS 9S 3S 5H AD KD 8C" --seat S --dealer S --current-bid 8
        kaiser-sim hand AKQJ.A.AK.A --format json --plot runs/odds.png
        kaiser-sim hand AK93.5.AK.8 --play dd
        kaiser-sim hand AK93.5.AK.- --rules kitty-4
        kaiser-sim hand 98.5.T9.987 --rules low-nt
    """
    from ..strategy.advisor import advise, plot_format
    from ..strategy.advisor.measures import solver_compiles

    not_empty(plot=plot)
    if auction is not None and not auction.strip():
        raise InputError("--auction is empty: give the calls heard from the dealer's left ('6 pass 7'), "
                         "or 'none' when you speak first")
    if score is not None and not score.strip():
        raise InputError("--score is empty: give the score as US-THEM (30-12)")
    if plot:
        plot_format(plot)
        if os.path.isdir(plot):
            raise InputError(f"--plot {plot}: is a directory; give a file name")
        output_file(plot, f"--plot {plot}")
    def progress(line: str) -> None:  # stderr: stdout is the report (or the JSON)
        click.echo(line, err=True)

    if solver_compiles():
        progress("Compiling the solver once, about a minute (numba's cache is cold; later runs start at once) ...")
    advice = advise(hand_mask, seat=seat, dealer=dealer, n=deals, seed=seed, rules=rules,
                    current_bid=current_bid, specials=specials, play=play.lower(), check=play_check,
                    auction=auction, bidders=bidders, scores=score, max_candidates=max_candidates,
                    conditioning=conditioning.lower(), progress=progress)
    if plot:
        import matplotlib

        from ..runs.output_dir import OutputError, removed_on_failure, write_file_atomic

        matplotlib.use("Agg")  # a file, no window
        folder = os.path.dirname(os.path.abspath(plot))

        def draw(tmp):  # the format comes from --plot, not from the temporary name
            import matplotlib.pyplot as plt

            from ..strategy.advisor import plot_make_probability
            from ..studies.common import save_figure

            fig = plot_make_probability(advice)
            try:
                save_figure(fig, tmp, plot_format(plot))
            finally:
                plt.close(fig)

        try:
            with removed_on_failure(folder):
                os.makedirs(folder, exist_ok=True)
                write_file_atomic(plot, draw)
        except OutputError as e:
            raise OutputFailed(f"--plot {plot}: {e}") from None
        except OSError as e:
            raise OutputFailed(f"--plot {plot}: cannot write it ({e.strerror or e})") from None
    click.echo(advice.to_json() if fmt == "json" else advice.to_text())
