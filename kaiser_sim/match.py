"""The match engine: whole matches of Kaiser between two bidding policies.

:func:`play_matches` plays ``n`` matches of policy A against policy B under
a rules set, all of them in lockstep: every unfinished match plays its next
hand in the same round, so a round is one deal call, four vectorised
bidding steps (:func:`kaiser_sim.policies.run_auction`), one double-dummy
solver call for all the contracts (:func:`kaiser_sim.solver.dd_contracts`,
the declarer on lead, in the contract's strain: the declaring side's raw
points) and one scoring call (:func:`kaiser_sim.scoring.score_hands`).

A hand: the deal passes clockwise; the auction follows the rules (one call
each from the dealer's left, the dealer's match, the forced dealer bid, the
NT order and minimum); the winner of a plain bid names trump by its policy;
the contract is played double dummy; the hand is scored with the rules (the
45 rule, NT doubling, the target and ties, ``lose_at``, a made Kaiser with
``kaiser_outright = team``).  With ``forced_dealer_bid = false`` a hand all
pass is thrown in and the deal moves on.

Design of the runs (fair and reproducible):

- matches come in pairs with the same cards: in match ``2k`` policy A sits
  N-S, in ``2k+1`` E-W, and hand ``h`` of both is deal ``k`` of round ``h``
  (``deal_batch`` with a seed derived from (seed, h)), so each policy holds
  the other's cards once (duplicate style); the first dealer is ``k % 4``;
- a match's hands depend only on (seed, match number, hand number): the
  results do not depend on how many matches run together.

What the bidders expect and how the hand is played are two things: the
policies' make-probabilities model table play by default (``play="table"``:
the double-dummy make model composed with the table-play model,
:mod:`kaiser_sim.policies`; ``play="dd"``: double dummy), but the engine
plays every contract double dummy whatever they expect.  The results record
the play each policy's make-probabilities used (``play_a``, ``play_b``; DD
where table play does not apply to the rules, with ``play_note`` saying
why).

Not modelled: the weak-hand redeal (deals are kept as they fall), passing
cards, kitties, low no trump, cover 3 and the solo Kaiser (refused with
:class:`MatchError`); the play of the contracts is double dummy, not table
play.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import __version__
from .config import MATCH_MAX_HANDS as MAX_HANDS
from .rules import Rules
from .stats import cluster_mean_ci, cluster_proportion_ci

OUTCOMES = ("bidding", "defending", "kaiser", "lose_at", "unfinished")


class MatchError(ValueError):
    """Rules the match engine does not model, or a bad number of matches."""


def check_rules(rules: Rules) -> None:
    """Refuse rules whose play the engine does not model (:class:`MatchError`)."""
    bad = []
    if rules.kitty != "none":
        bad.append(f"kitty={rules.kitty}")
    if rules.low_nt != "off":
        bad.append(f"low_nt={rules.low_nt}")
    if rules.cover3:
        bad.append("cover3=true")
    if rules.pass_cards:
        bad.append(f"pass_cards={rules.pass_cards}")
    if rules.kaiser_outright == "solo":
        bad.append("kaiser_outright=solo")
    if bad:
        raise MatchError(f"the match engine does not model {', '.join(bad)} yet")


def round_seed(seed: int, hand: int) -> int:
    """The ``deal_batch`` seed of round ``hand`` of a run with ``seed``."""
    s = np.random.SeedSequence([int(seed), int(hand), 0x4B41]).generate_state(1, dtype=np.uint64)[0]
    return int(s >> np.uint64(1))


@dataclass
class MatchResults:
    """What :func:`play_matches` played.

    matches : one row per match: ``match``, ``a_side`` (0 N-S, 1 E-W),
        ``first_dealer``, ``hands``, ``winner`` (side, -1 unfinished),
        ``a_won``, ``score_a``, ``score_b``, ``margin`` (A - B), ``outcome``
        (how the winner went out: bidding, defending, kaiser, lose_at,
        unfinished), ``skunk``.
    hands : one row per hand: ``match``, ``hand``, ``dealer``, ``call_1`` ..
        ``call_4`` (ladder ranks from the dealer's left, -1 pass),
        ``declarer`` (-1 thrown in), ``bid`` (text), ``level``, ``nt``,
        ``strain`` (0..3 suit, 4 NT), ``raw`` (declaring side), ``made``,
        ``ns_before``, ``ew_before``, ``ns``, ``ew``, ``target``, ``winner``.
    play : what the make-probabilities of the policies modelled (module doc):
        ``{"play_a", "play_b"}`` ("table", "dd", or None for a policy
        without make-probabilities), ``"requested"`` and ``"play_note"`` (why
        table play fell back to DD; "" if it did not).
    """

    policy_a: str
    policy_b: str
    seed: int
    rules: Rules
    matches: pd.DataFrame
    hands: pd.DataFrame
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    play: dict = field(default_factory=dict)

    def summary(self) -> dict:
        """Win rate of A (Wilson 95%), mean hands and margin (95%), how the
        winners went out, skunks.

        The two matches of a pair (``match // 2``) are played on the same
        cards (module doc), so they are not independent: every interval is
        clustered by pair (:mod:`kaiser_sim.stats`; with the sides swapped
        the pair's results tend to cancel, so the clustered interval of the
        margin is usually the narrower one, as duplicate play intends).
        One pair (n <= 2) gives no spread: the means' bounds are NaN."""
        m = self.matches
        n = len(m)
        k = int(m["a_won"].sum())
        pair = m["match"].to_numpy() // 2
        win = cluster_proportion_ci(m["a_won"].to_numpy(bool), pair)
        lo, hi = win.lo, win.hi
        hands = cluster_mean_ci(m["hands"].to_numpy(float), pair)
        margin = cluster_mean_ci(m["margin"].to_numpy(float), pair)
        out = {"policy_a": self.policy_a, "policy_b": self.policy_b, "matches": n, "a_wins": k,
               "a_win_rate": k / n, "a_win_lo": float(lo), "a_win_hi": float(hi),
               "hands_mean": hands.mean, "hands_lo": hands.lo, "hands_hi": hands.hi,
               "margin_mean": margin.mean, "margin_lo": margin.lo, "margin_hi": margin.hi}
        for who, won in (("a", m["a_won"]), ("b", ~m["a_won"] & (m["winner"] >= 0))):
            for o in OUTCOMES[:4]:
                out[f"{who}_out_{o}"] = int((won & (m["outcome"] == o)).sum())
            out[f"{who}_skunks"] = int((won & m["skunk"]).sum())
        out["unfinished"] = int((m["winner"] < 0).sum())
        out.update({"seed": self.seed, "rules": self.rules.label, "seconds": round(self.seconds, 2),
                    "version": __version__})
        out.update({k: self.play.get(k) for k in ("play_a", "play_b")})
        out["play_note"] = self.play.get("play_note", "")
        return out

    def summary_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.summary()])

    def to_json(self) -> str:
        """The summary and the rules as a JSON document."""
        return json.dumps({"summary": self.summary(), "rules": self.rules.to_dict()}, indent=2, default=str)

    def to_text(self) -> str:
        """The summary as a readable table (every estimate with its 95% interval)."""
        s = self.summary()
        a, b = s["policy_a"], s["policy_b"]
        w = max(len(a), len(b), 10)
        lines = [f"{a} vs {b}: {s['matches']:,} matches, seed {s['seed']}, rules {s['rules']} "
                 f"({s['seconds']:.1f}s)", "",
                 f"win rate of {a}: {100 * s['a_win_rate']:.1f}% [{100 * s['a_win_lo']:.1f}, "
                 f"{100 * s['a_win_hi']:.1f}] ({s['a_wins']:,} of {s['matches']:,})",
                 f"hands per match: {s['hands_mean']:.2f} [{s['hands_lo']:.2f}, {s['hands_hi']:.2f}]",
                 f"score margin ({a} - {b}): {s['margin_mean']:+.2f} [{s['margin_lo']:+.2f}, "
                 f"{s['margin_hi']:+.2f}]",
                 f"bidders expect: {_play_text(s['play_a'])} ({a}), {_play_text(s['play_b'])} ({b}); "
                 "contracts played double dummy", "",
                 f"{'side':<{w}}  {'wins':>6}  {'bidding':>8}  {'defending':>9}  {'kaiser':>6}  {'lose_at':>7}  "
                 f"{'skunks':>6}"]
        for who, name in (("a", a), ("b", b)):
            wins = sum(s[f"{who}_out_{o}"] for o in OUTCOMES[:4])
            lines.append(f"{name:<{w}}  {wins:>6,}  {s[f'{who}_out_bidding']:>8,}  {s[f'{who}_out_defending']:>9,}  "
                         f"{s[f'{who}_out_kaiser']:>6,}  {s[f'{who}_out_lose_at']:>7,}  {s[f'{who}_skunks']:>6,}")
        if s["unfinished"]:
            lines.append(f"unfinished after {MAX_HANDS} hands: {s['unfinished']}")
        if s["play_note"]:
            lines.append(f"warning: {s['play_note']}")
        lines.append("")
        lines.append("intervals: 95% (Wilson for the win rate, t for means), clustered by pair of matches on "
                     "the same cards; went out by bidding = the winner declared the last hand")
        return "\n".join(lines)

    def write(self, out) -> list[str]:
        """Write ``summary.csv``, ``summary.json``, ``matches.csv`` and
        ``hands.csv`` into the directory ``out``."""
        from pathlib import Path

        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        self.summary_frame().to_csv(out / "summary.csv", index=False)
        (out / "summary.json").write_text(self.to_json() + "\n", encoding="utf-8")
        self.matches.to_csv(out / "matches.csv", index=False)
        self.hands.to_csv(out / "hands.csv", index=False)
        return ["summary.csv", "summary.json", "matches.csv", "hands.csv"]


def play_matches(policy_a, policy_b, n: int, seed: int = 0, rules: Rules | None = None, *, play: str = "table",
                 threads=None, progress=None, max_hands: int = MAX_HANDS) -> MatchResults:
    """Play ``n`` matches of ``policy_a`` against ``policy_b`` (names or
    :class:`~kaiser_sim.policies.Policy`), module doc.  ``play``: what the
    make-probabilities of policies given by name model, ``"table"`` (table
    play, the default) or ``"dd"`` (double dummy); a Policy keeps its own.
    The contracts are played double dummy either way.  ``threads``: solver
    threads (default all); ``progress``: a :class:`kaiser_sim.progress.Progress`
    counting finished matches."""
    import time

    from .deal import deal_batch
    from .policies import PASS, BidView, PolicyError, check_play, contracts_of, get_policy, ladder_arrays, play_note, \
        run_auction
    from .progress import Progress
    from .scoring import score_hands
    from .solver import dd_contracts

    rules = rules or Rules.preset("standard")
    check_rules(rules)
    if n < 1:
        raise MatchError("at least one match")
    try:
        play = check_play(play)
    except PolicyError as e:
        raise MatchError(str(e)) from None
    pa, pb = get_policy(policy_a, play), get_policy(policy_b, play)
    policies = [pa, pb]
    notes = {play_note(rules, p.play) for p in policies if p.play is not None} - {""}
    play_info = {"requested": play, "play_a": pa.effective_play(rules), "play_b": pb.effective_play(rules),
                 "play_note": "; ".join(sorted(notes))}
    progress = progress or Progress()
    progress.start(n, unit="matches")
    t0 = time.perf_counter()
    lad = ladder_arrays(rules)
    ids = np.arange(n)
    pair = ids // 2
    a_side = ids % 2
    side_policy = np.stack([a_side, 1 - a_side], axis=1)  # policy index of N-S, E-W: A = 0
    dealer = pair % 4
    first_dealer = dealer.copy()
    scores = np.zeros((n, 2), dtype=np.int64)
    target = np.full(n, rules.target, dtype=np.int64)
    winner = np.full(n, -1, dtype=np.int64)
    outcome = np.full(n, OUTCOMES.index("unfinished"), dtype=np.int64)
    skunk = np.zeros(n, dtype=bool)
    played = np.zeros(n, dtype=np.int64)
    active = ids.copy()
    log = []
    h = 0
    solver_s = 0.0
    while active.size and h < max_hands:
        prs = pair[active]
        lo_p = int(prs.min())
        deals = deal_batch(int(prs.max()) - lo_p + 1, round_seed(seed, h), start=lo_p)[prs - lo_p]
        dl = dealer[active]
        before = scores[active].copy()
        tgt = target[active].copy()
        calls = run_auction(deals, dl, before, tgt, rules, policies, side_policy[active])
        rank, declarer = contracts_of(calls, dl)
        has = rank != PASS
        rows = np.nonzero(has)[0]
        r = rank[rows]
        strain = np.full(active.size, -1, dtype=np.int64)
        strain[rows] = np.where(lad.nt[r], 4, -1)
        plain = rows[~lad.nt[r]]
        if plain.size:
            dside = declarer[plain] & 1
            pol = side_policy[active[plain], dside]
            for p in np.unique(pol):
                sel = plain[pol == p]
                s = declarer[sel] & 1
                view = BidView(deals[sel, declarer[sel]], calls[sel].copy(), declarer[sel], dl[sel],
                               np.stack([before[sel, s], before[sel, 1 - s]], axis=1), tgt[sel], rules)
                strain[sel] = np.asarray(policies[p].trump(view, rank[sel]), dtype=np.int64)
        raw = np.zeros(active.size, dtype=np.int64)
        if rows.size:
            ts = time.perf_counter()
            raw[rows] = dd_contracts(deals[rows], declarer[rows], strain[rows], threads=threads)
            solver_s += time.perf_counter() - ts
        after = before.copy()
        won_now = np.full(active.size, -1, dtype=np.int64)
        made = np.zeros(active.size, dtype=bool)
        if rows.size:
            res = score_hands(rules, lad.levels[r], lad.nt[r], declarer[rows], raw[rows], before[rows],
                              target=tgt[rows])
            after[rows] = res.scores
            won_now[rows] = res.winner
            made[rows] = res.made
            g = active[rows]
            target[g] = res.target
            fin = res.winner >= 0
            gi = g[fin]
            winner[gi] = res.winner[fin]
            skunk[gi] = res.skunk[fin]
            code = np.where(res.reason[fin] == 2, OUTCOMES.index("kaiser"),
                            np.where(res.reason[fin] == 3, OUTCOMES.index("lose_at"),
                                     np.where(res.winner[fin] == (declarer[rows][fin] & 1),
                                              OUTCOMES.index("bidding"), OUTCOMES.index("defending"))))
            outcome[gi] = code
        log.append((active.copy(), np.full(active.size, h), dl.copy(), calls, declarer, rank, strain, raw, made,
                    before, after, tgt, won_now))
        scores[active] = after
        played[active] += 1
        dealer[active] = (dl + 1) % 4
        done = won_now >= 0
        if done.any():
            progress.advance(int(done.sum()))
        active = active[~done]
        h += 1
    progress.finish(f"{n:,} matches, {int(played.sum()):,} hands")
    hands = _hands_frame(log, lad)
    a_won = (winner >= 0) & (winner == a_side)
    sa = scores[ids, a_side]
    sb = scores[ids, 1 - a_side]
    matches = pd.DataFrame({"match": ids, "a_side": a_side, "first_dealer": first_dealer, "hands": played,
                            "winner": winner, "a_won": a_won, "score_a": sa, "score_b": sb, "margin": sa - sb,
                            "outcome": [OUTCOMES[o] for o in outcome], "skunk": skunk})
    return MatchResults(pa.name, pb.name, int(seed), rules, matches, hands, time.perf_counter() - t0,
                        {"solver_seconds": solver_s, "rounds": h}, play_info)


def _play_text(play) -> str:
    return {"table": "table play", "dd": "double dummy", None: "n/a"}.get(play, str(play))


def _hands_frame(log, lad) -> pd.DataFrame:
    if not log:
        return pd.DataFrame()
    cols = list(zip(*log))
    cat = [np.concatenate(c) for c in cols]
    match, hand, dealer, calls, declarer, rank, strain, raw, made, before, after, target, won = cat
    has = rank >= 0
    rk = np.where(has, rank, 0)
    df = pd.DataFrame({"match": match, "hand": hand, "dealer": dealer})
    for k in range(4):
        df[f"call_{k + 1}"] = calls[:, k]
    bids = np.array([str(b) for b in lad.bids] + ["pass"], dtype=object)
    df["declarer"] = np.where(has, declarer, -1)
    df["bid"] = bids[np.where(has, rank, len(lad.bids))]
    df["level"] = np.where(has, lad.levels[rk], 0)
    df["nt"] = has & lad.nt[rk]
    df["strain"] = strain
    df["raw"] = raw
    df["made"] = made
    df["ns_before"], df["ew_before"] = before[:, 0], before[:, 1]
    df["ns"], df["ew"] = after[:, 0], after[:, 1]
    df["target"] = target
    df["winner"] = won
    return df.sort_values(["match", "hand"], kind="stable").reset_index(drop=True)


__all__ = ["play_matches", "MatchResults", "MatchError", "check_rules", "round_seed", "MAX_HANDS", "OUTCOMES"]
