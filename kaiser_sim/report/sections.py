"""The report's words: each study's section, the cheat sheet, the glossary, the title page, the appendix.

The report knows no study by name: each study module (:mod:`kaiser_sim.studies`)
carries its title, question, method and the section it contributes
(``section(tables)``, built from the blocks of :mod:`kaiser_sim.studies.blocks`),
and those that have lines for the cheat sheet a ``cheat_sheet(tables)``.
"""

from __future__ import annotations

from ..studies import REGISTRY, get_study, study as declared
from ..studies.blocks import Chart, Table, Text, ci, count, frame, num, pct
from .content import EDITION_PATH, Section

# --- study sections ---------------------------------------------------------------------------


def study_section(key: str, output) -> Section:
    """One study's section: its question, method, what the numbers mean,
    charts and tables (the study module's ``TITLE``, ``QUESTION``, ``METHOD``
    and ``section(tables)``)."""
    study = get_study(key)
    blocks, meaning, charts = study.section(output.tables)
    sec = Section(key, study.TITLE)
    sec.blocks.append(Text(study.QUESTION, "heading"))
    sec.blocks.append(Text("Method. " + study.METHOD))
    if meaning:
        sec.blocks.append(Text("What the numbers mean. " + " ".join(meaning)))
    # the deals the study read (a play study: the first ones of the run); a study whose parts use fewer
    # (the 5H and 3S re-solve only the first deals) says which in its sample_note
    n = max([output.inputs['n']] + [int(output.tables.meta(t).run.get("n", 0)) for t in output.tables])
    resolved = study.sample_note(output.tables) if declared(key).sample_note else ""
    unit = output.inputs.get("unit", "deals")  # a study that plays matches counts matches
    cluster = "deal" if unit == "deals" else "card set (the matches and hands played on the same cards)"
    sec.blocks.append(Text(f"n = {n:,} {unit}, seed {output.inputs['seed']};{resolved} every estimate is "
                           f"followed by its 95% interval in square brackets, clustered by {cluster}.", "note"))
    for name in charts:
        if name in output.figures:
            sec.blocks.append(Chart(f"{key}/{name}", name.replace("_", " ")))
    sec.blocks += blocks
    sec.blocks.append(Text(f"All tables of this study, with every column: {key}/*.csv.", "note"))
    return sec


# --- the cheat sheet --------------------------------------------------------------------------


def cheat_sheet(outputs: dict) -> Section | None:
    """The table card: one page to take to the table, in type of 8 pt or more
    (the grid and the count 10 pt): the count in whole numbers, the grid of
    how high to open (the study that has one: ``table_card(tables)``) and a
    box of at most five rules of thumb, each with its figure from this run's
    tables (:func:`kaiser_sim.studies.advice.rules_of_thumb`).  Without a
    grid, the first page of the other studies' cheat-sheet lines; None when
    no study contributes any."""
    from ..studies.advice import rules_of_thumb

    card = [b for key, o in outputs.items() if declared(key).table_card for b in get_study(key).table_card(o.tables)]
    if not card:
        return cheat_sheet_more(outputs, title="Cheat sheet: at the table")
    thumbs = rules_of_thumb({k: o.tables for k, o in outputs.items()})
    if thumbs:
        card.append(Text("Rules of thumb", "heading"))
        card.append(Text("\n".join(f"{i}. {t}" for i, t in enumerate(thumbs, 1)), "box"))
    card.append(Text("From random deals of this run; brackets: 95% intervals. Table play: players who see only their "
                     "own hand; double dummy: every card seen. More on the next page; the words are defined in "
                     f"{GLOSSARY_TITLE}.", "note"))
    return Section("table-card", "Cheat sheet: at the table", card, one_page=True)


def cheat_sheet_more(outputs: dict, title: str = "Cheat sheet, continued") -> Section | None:
    """The cheat sheet's lines that do not fit the table card: each study's
    ``cheat_sheet(tables)``, in the order its declaration gives
    (:attr:`kaiser_sim.studies.Study.cheat_sheet`); None when none
    contributes any."""
    order = [s.key for s in sorted((s for s in REGISTRY if s.cheat_sheet is not None), key=lambda s: s.cheat_sheet)]
    blocks = [b for key in order if key in outputs for b in get_study(key).cheat_sheet(outputs[key].tables)]
    if not blocks:
        return None
    alone = title.startswith("Cheat sheet: at")  # no table card: these lines are the cheat sheet, on one page
    sec = Section("cheat-sheet" if alone else "cheat-sheet-more", title, blocks, one_page=alone)
    sec.blocks.append(Text("From random deals; each heading or line names its measure: table play (players who see "
                           "only their own hand) or double dummy (all cards visible, best play; about a bid higher). "
                           "Brackets: 95% intervals. The words are defined in the next section, "
                           f"{GLOSSARY_TITLE}.", "note"))
    return sec


def worked_hands_section(outputs: dict, data, deals: int) -> Section | None:
    """Worked hands (:mod:`kaiser_sim.studies.worked_hands`): each example
    hand with its count, its cell of the table card and the hand advisor's
    verdict under ``data.rules`` (``deals`` of the advisor's deals a hand,
    seeded by the results' seed, 1 when they record none); None without the
    study that makes the card's cells (a ``net_chart`` table)."""
    from ..studies.worked_hands import TITLE, worked_blocks, worked_rows

    # the table card's cells: the study whose tables hold the net chart (the report names no study)
    net = next((o.tables["net_chart"] for o in outputs.values() if "net_chart" in o.tables), None)
    if net is None or deals <= 0:
        return None
    seed = data.seed if isinstance(data.seed, int) else 1
    blocks = worked_blocks(worked_rows(net, data.rules, deals, seed), deals)
    return Section("worked-hands", TITLE, blocks) if blocks else None


def advice_section(outputs: dict) -> Section | None:
    """The rule sheets' advice, tested (:mod:`kaiser_sim.studies.advice`);
    None when no study of the report answers any of it."""
    from ..studies.advice import ADVICE_TITLE, advice_blocks

    blocks = advice_blocks({k: o.tables for k, o in outputs.items()})
    return Section("advice", ADVICE_TITLE, blocks) if blocks else None


def heard_section(outputs: dict, data) -> Section | None:
    """What to call after the level heard (:mod:`kaiser_sim.studies.heard`)
    on ``data``'s results under its rules: the auctions players ask about,
    by the card's count; None without the
    study whose call chart it details (a ``call_chart`` table) or when no
    hand of the run heard any of them often enough."""
    from ..studies.heard import TITLE, heard_blocks, heard_chart

    if not any("call_chart" in o.tables for o in outputs.values()):
        return None
    blocks = heard_blocks(*heard_chart(data.results, data.rules))
    return Section("heard", TITLE, blocks) if blocks else None


GLOSSARY_TITLE = "Words used in this report"

#: what the report writes beside the PDF (the appendix)
FILES_WORDS = ("report.md (the same content in Markdown), tables/*.csv (every table as printed), <study>/ (each "
               "study's full tables as CSV and Markdown, charts as PNG and SVG), report.json (the inputs).")


def glossary_section(inputs: dict) -> Section:
    """The terms of the report, defined once, in the order a reader meets
    them (after the cheat sheet, before the studies)."""
    from ..studies.blocks import nt_scoring_words

    r = inputs.get("rules", {})
    nt = nt_scoring_words(r) or "NT scoring: as the rules say (see the title page)."
    made = "exactly the bid" if r.get("made_scores") == "bid" else "the points it took"
    terms = [
        ("Points", "each hand has 10 points to take: 1 for each of the 8 tricks, +5 for the trick that holds "
         "the 5♥ and −3 for the trick that holds the 3♠."),
        ("Declarer, declaring side", "the player who wins the auction names trump (or no trump) and leads to "
         "the first trick; the declaring side is the declarer and partner, the other two are the defenders. The "
         "studies take every seat of every deal in turn as the declarer, so a deal gives four declarer hands."),
        ("Partner, LHO, RHO", "your partner sits opposite you; your left-hand opponent (LHO) plays right after "
         "you, your right-hand opponent (RHO) right before you."),
        ("Bid, makes, hand score", f"a bid of b (from {r.get('min_bid', 6)} to 12) promises that the declaring "
         "side takes at least b points; it makes when it does. The hand score is what the declaring side scores "
         f"for the hand: {made} when the bid makes, minus the bid when it fails. A hand score leaves the "
         "defenders' points out; the table card and every net value count them (Net value, below)."),
        ("NT, no trump; strain", "a no-trump (NT) contract has no trump suit; a strain is a trump suit or no "
         f"trump. {nt}"),
        ("Trump by rule", "the trump suit the declarer names from its own hand alone, by a fixed rule. The rules "
         "compared: longest (the longest suit); strongest (the suit with the most high-card points, A 4 K 3 Q 2 "
         "J 1, ties by length); longest-strength (the longest suit, ties by high-card points: the rule of this "
         "report unless a table says otherwise). Suits still tied: the first of ♠ ♥ ♦ ♣."),
        ("Best in hindsight", "the strain chosen after seeing all four hands: an upper bound that no player can "
         "reach."),
        ("Kaiser count", "this report's measure of a hand's strength, counted with the trump named by rule: "
         "trump A 2, K 1, Q ½; side-suit A 1, K ½; 1 for each trump; 5♥ ½; 3♠ 1½; plus ½. It is fitted to "
         "the declaring side's points (see the hand evaluation section). A count band such as 6.5-7 groups the "
         "hands whose count lies in it; <=4: 4 or less; 10.5+: 10½ or more."),
        ("Double dummy (DD)", "the deal solved with all four hands visible and best play by both sides (an exact "
         "search). What the cards are worth, not what a table scores: the upper reference."),
        ("PIMC", "Perfect Information Monte Carlo: a computer player that sees only its own hand and the cards "
         "played. At each turn it deals the unseen cards many times, consistently with what it knows, solves "
         "each layout double dummy and plays the card that does best on average. K is the number of layouts it "
         "deals at each turn (the appendix gives the table-play model's)."),
        ("Table play", "what a table of players who see only their own hand takes: each hand's double-dummy "
         "points turned into the points four PIMC players take, by the table-play model (appendix). The "
         "headline numbers are in table play where the model holds for the rules; double dummy is shown "
         "beside them."),
        ("95% interval, clustered by deal", "the numbers in square brackets after an estimate: the range that "
         "covers the true value 95% of the time. The four declarer hands of a deal are not independent, so the "
         "intervals treat the deal as the unit. A difference counts only when its interval excludes 0."),
        ("Settled, ?, ≈, *", "in the what-to-bid chart and the cheat sheet, a limit is settled when, on all "
         "the cell's hands, the 95% intervals show that bid paying and the next one up losing. An "
         "unsettled limit says why: '?' too few hands (a larger run may move it by a level); '≈' a bid on the "
         "boundary, scoring within ±0.05 points of 0 (no run settles it: either level is as good); '*' settled "
         "by the deals but not by the table-play model's own error. '·': too few hands for the cell; "
         "'impossible': no hand can be in it; '-': no NT bid pays."),
        ("Table card, card count", "the first page of the cheat sheet. Its count is the Kaiser count in whole "
         "numbers: trump A 4, K 2, Q 1; 2 a trump; side A 2, K 1; 5♥ 1; 3♠ 3 (twice the Kaiser count less 1, so the "
         "report's band 6½–7 is the card's 12–13). Its cell is the highest bid to open with, first to call: the "
         "highest bid whose net value beats passing. 'impossible': no 8-card hand has that count with that "
         "many trumps."),
        ("Net value", "your side's score for the hand minus the opponents' (both sides' points as the rules score "
         "them): what a player chooses between, since the alternative to declaring is defending. Where the report "
         "says 'the declaring side's score' or 'hand score' alone, the opponents' points are not subtracted."),
        ("Bidding models", "the computer bidders that call for the other seats when a call is valued by playing "
         "the rest of the auction out, and that play the matches: ev bids as high as the bid with the best "
         "average score for its own hand (pass if none is positive); cautious bids only when that average is "
         "above +2 points, aggressive down to −2; score-aware bids to raise its chance of winning the match from "
         "the score; rank-squared and trump-heuristic bid from two hand counts used by existing Kaiser programs "
         "(the sum of the squared face values / 100; 3 a trump, trump A 4 and K 3, 5♥ 3, other aces 2, 3♠ −2); "
         "listening chooses, from a table built by simulation, the call with the best net value given the calls "
         "it heard."),
        ("Calls compared: plain, NT, plain +1, NT +1, match", "in the call chart: the cheapest plain bid "
         "allowed, the cheapest NT bid, each one step higher (a jump), and the dealer taking the bid at the same "
         "level (the dealer's privilege)."),
        ("Wilson interval", "the 95% interval used for a share (a percentage): unlike 'estimate ± 2 standard "
         "errors' it stays between 0% and 100% and is right for small shares."),
        ("Like-for-like swap", "in the 5♥ and 3♠ studies, the special card exchanged with the next card up of "
         "its suit (the 8) in another hand, so that only its special status moves; worth = your side's points "
         "as dealt minus after the swap."),
        ("Kept, traded, depends on the play", "in part (c) of the 5♥ and 3♠ studies: the deal is solved again "
         "with the card counting 0, and the difference is the part of the card's own +5 or −3 that its side "
         "keeps. 'Whatever happens': the side ends with the card in every line of best play; 'the other side "
         "does': it never does; 'depends on the play': the card is traded against tricks, so the side keeps "
         "only part of its value."),
        ("Rule codes, §", "codes such as R1, B2, P1, S4, G1, K2 and marks such as §4 refer to the rules digest "
         "of kaiser-sim (docs/rules.md), written from five published rule descriptions of the game: each code "
         "names a rule that tables play differently and is an option of the rules (kaiser-sim rules PRESET "
         "prints them; for example S4 is the 45 rule, option bid_out), each § a section of the digest. The "
         "rules label in the footer names the preset; standard is what the sources agree on."),
    ]
    sec = Section("glossary", GLOSSARY_TITLE)  # full-size type: it runs onto a second page rather than shrink
    sec.blocks += [Text(text, "term", term) for term, text in terms]
    return sec


def edition_words(inputs: dict) -> str:
    """The title page's first words on what this report is: the edition
    (``inputs["edition"]``, ``report --edition``) or a preview, which says
    where the edition is."""
    if inputs.get("edition"):
        return (f"This is the edition of the report: {inputs['deals']:,} deals, the run the repository keeps "
                f"({EDITION_PATH}), made by make sample (below).")
    return (f"Preview: a quick run of {inputs['deals']:,} deals. Its numbers, and the limits marked "
            f"'?' most of all, can move in a larger run. The edition, from a far larger run, is {EDITION_PATH} "
            "in the kaiser-sim repository (make sample).")


def made_by(inputs: dict) -> str:
    """The edition's recipe in words (its title page): the two commands, the
    Dask option and where each step's time is (not on the page: a page that
    printed the time of its own making could not be remade byte for byte)."""
    rules = inputs.get("rules", {}).get("label", "standard")
    rules_opt = "" if rules == "standard" else f" --rules {rules}"
    return (f"Made by: kaiser-sim simulate --deals {inputs['deals']} --seed {inputs['seed']} --mode points{rules_opt} "
            "--out runs/sample (add --scheduler tcp://HOST:8786 to spread it over machines with Dask), then "
            f"kaiser-sim report --from runs/sample --out reports/sample --max-resolve {inputs['max_resolve']} "
            "--edition; how long each step took on two cores: benchmarks/results/edition.md")


def title_section(inputs: dict, keys: list[str]) -> Section:
    sec = Section("title", "What the cards are worth in Kaiser")
    sec.blocks.append(Text("A Monte Carlo report by kaiser-sim", "heading"))
    sec.blocks.append(Text(edition_words(inputs), "callout"))
    sec.blocks.append(Text("The questions", "heading"))
    for k in keys:
        sec.blocks.append(Text(get_study(k).QUESTION, "bullet"))
    r = inputs["rules"]
    sec.blocks.append(Text("The run", "heading"))
    for line in (f"Rules: {r.get('label', '?')} (game to {r.get('target', '?')}, minimum bid {r.get('min_bid', '?')}, "
                 f"NT scoring {r.get('nt_scoring', '?')})",
                 f"Deals: {inputs['deals']:,}, each solved double dummy from every seat in every strain",
                 f"Seed: {inputs['seed']}",
                 f"Re-solved deals for the 5♥ and 3♠: up to {inputs['max_resolve']:,}",
                 made_by(inputs) if inputs.get("edition") else f"Results: {inputs['results']}",
                 f"kaiser-sim {inputs['version']}, {inputs['date']}"):
        sec.blocks.append(Text(line, "bullet"))
    return sec  # the list of files is the appendix's (FILES_WORDS): the title page stays one page with its contents


def table_play_blocks(rules) -> list:
    """The appendix's account of the table-play model: what it is, where it
    comes from, its held-out check and its sensitivity (stored with the
    model when it was built)."""
    from ..strategy.table_play import seeds_text
    from ..studies.common import table_play_model

    model, why = table_play_model(rules)
    blocks = [Text("Table play", "heading")]
    if model is None:
        blocks.append(Text(f"This report's numbers are double dummy only: {why}."))
        return blocks
    p = model.provenance
    blocks.append(Text(
        "Double dummy is not what a table scores. The headline numbers of this report are in table play: each "
        "hand's double-dummy points are turned into the distribution of points its side takes when the deal is "
        "played out by four PIMC players, who see only their own hand and the cards played. At each turn a PIMC "
        f"player deals the cards it cannot see {p.get('samples')} times, consistently with what it knows (its hand, "
        "the cards played, the suits others have shown out of), scores each of its cards double dummy on every "
        "layout and plays the best on average. The model gives, for trump and for no-trump contracts and each "
        "double-dummy value, the distribution of the played points; more double-dummy points never give fewer "
        "played points. It was fitted on "
        f"{p.get('deals', 0):,} deals played out under {p.get('rules_label')} rules ({seeds_text(p)}; "
        f"{p.get('contracts')}"
        + ("; the declarer takes up the kitty and, seeing only its own cards, discards the cards with the best "
           f"mean double-dummy value over {p.get('discard_samples')} sampled layouts of the other hands"
           if p.get("discard_samples") else "")
        + "); kaiser-sim "
        f"{p.get('version')}; rebuild: {p.get('rebuild', 'kaiser-sim table-play-model')}. Intervals of table-play "
        "estimates count both the sampling of this report's deals and the model's own error (the model refitted on "
        "bootstrap resamples of the contracts it was fitted on), added in quadrature."))
    blocks.append(Text(
        "What PIMC is not: it cannot signal or read signals, does not plan to gather information, and once it has "
        "drawn a layout plays as if it knew it (it may count on a finesse in one layout and a drop in another). It "
        "is a model of competent play without conventions, not of people: strong partnerships may take more, weak "
        "tables less. Double dummy, shown beside it, is the upper reference."))
    rows = model.validation.get("heldout", [])
    if rows:
        ho = p.get("holdout", {})
        inside = [r for r in rows if r["n"] >= 100]
        k = sum(r["inside"] for r in inside)
        by_bid = [{"contracts": r["kind"], "bid": str(r["bid"]), "n": count(r["n"]),
                   "played (% or points)": (pct(r["observed"], r["lo"], r["hi"]) if r["bid"] != "mean points"
                                            else ci(r["observed"], r["lo"], r["hi"], 2)),
                   "model": num(100 * r["predicted"], 1) if r["bid"] != "mean points" else num(r["predicted"], 2),
                   "double dummy": num(100 * r["dd"], 1) if r["bid"] != "mean points" else num(r["dd"], 2),
                   "inside": "yes" if r["inside"] else "NO"}
                  for r in rows if r["count_band"] == "all" and r["kind"] in ("trump", "NT")]
        blocks.append(Table("table-play-check", f"The model against {ho.get('deals', 0):,} further deals played out "
                            f"(seed {ho.get('seed')}), by bid", frame(by_bid),
                            "played: share of contracts made (mean points) in the held-out play, Wilson / normal 95%; "
                            "model: its prediction from the contracts' double-dummy points; inside: the prediction "
                            f"lies in the played interval. Over every check with n >= 100 (also by count band): {k} "
                            f"of {len(inside)} inside"))
    sens = model.validation.get("sensitivity", [])
    if sens:
        srows = [{"players": r["players"], "n": count(r["n"]), "mean points": num(r["mean_points"], 2),
                  "minus the model's players": ci(r["minus_model_players"], r["lo"], r["hi"], 2),
                  "makes 8 %": num(100 * r["make_8"], 1), "makes 10 %": num(100 * r["make_10"], 1)} for r in sens]
        blocks.append(Table("table-play-sensitivity", "How the played points depend on K and on the players "
                            "(the same held-out deals)", frame(srows),
                            "paired on the same deals and contracts; one contract a deal"))
    return blocks


def appendix_section(inputs: dict, rules) -> Section:
    """The appendix: the method, how to reproduce the run, the files, and the
    table-play model the report reads under ``rules`` (its held-out check)."""
    sec = Section("appendix", "Appendix: method")
    paras = [
        ("Double dummy", "Every deal is solved with all four hands visible and best play by both sides (an exact "
         "alpha-beta search in Kaiser points: 1 a trick, +5 for the trick with the 5♥, −3 for the trick with the "
         "3♠). The declarer leads the first trick."),
        ("Its known bias", "Real players cannot see the other hands. Double dummy favours the side that benefits "
         "from perfect guessing: finesses always work and the defence always finds the killing lead, so the "
         "numbers are what the cards are worth, not what a table will score. Declarer's contracts tend to be "
         "overestimated with split honours and underestimated when the defence has to guess. Compare hands and "
         "bids with each other rather than reading a single number as a promise."),
        ("Sample sizes and intervals", f"{inputs['deals']:,} random deals (seed {inputs['seed']}), each giving four "
         "declarer hands. The rows of one deal (its four declarer hands; the twenty leader and strain solves of a "
         "re-solved deal) are not independent, so every interval treats the deal as the unit: means carry a "
         "cluster-robust 95% interval (the spread of deal totals), proportions a Wilson 95% interval at the "
         "effective sample size this gives; R² a bootstrap over the deals it is scored on (never those the "
         "Kaiser count was fitted on, seed 1's first 100,000; the section on evaluating a hand names the deals it "
         "scores on and their number). The package's tests check that these "
         "intervals cover a known truth 93-97% of the time. The 5♥ and 3♠ studies re-solve up to "
         f"{inputs['max_resolve']:,} deals and report their own n. Cells with fewer than 30 hands are left out "
         "(the bidding chart needs 15 in each half). "
         "A difference is called one only when its interval excludes zero."),
        ("Reproducing", f"kaiser-sim report --deals {inputs['deals']} --seed {inputs['seed']} --rules "
         f"{inputs['rules_preset']} --max-resolve {inputs['max_resolve']} (with the same --rule options, if any) "
         "gives the same numbers on any machine."
         + ("" if inputs.get("edition") else " For a larger run: kaiser-sim simulate --deals "
            f"{10 * int(inputs['deals'])} --out runs/big, then kaiser-sim report --from runs/big (the edition: "
            "make sample).")),
    ]
    paras.append(("Files", FILES_WORDS))
    for head, text in paras:
        sec.blocks.append(Text(head, "heading"))
        sec.blocks.append(Text(text))
    sec.blocks += table_play_blocks(rules)
    return sec



__all__ = ["study_section", "cheat_sheet", "cheat_sheet_more", "worked_hands_section", "advice_section", "heard_section", "GLOSSARY_TITLE", "glossary_section", "edition_words", "made_by",
           "title_section", "table_play_blocks", "appendix_section"]
