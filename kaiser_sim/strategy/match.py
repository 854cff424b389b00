"""The match engine: whole matches of Kaiser between two bidding policies.

:func:`play_matches` plays ``n`` matches of policy A against policy B under
a rules set, all of them in lockstep: every unfinished match plays its next
hand in the same round, so a round is one deal call, four vectorised
bidding steps (:func:`kaiser_sim.strategy.policies.run_auction`), one double-dummy
solver call for all the contracts (:func:`kaiser_sim.game.contract_values`,
the declarer on lead, in the contract's strain: the declaring side's raw
points) and one scoring call (:func:`kaiser_sim.scoring.score_hands`).

A hand: the deal passes clockwise; under rules with the weak-hand redeal
(``weak_redeal``) a deal with a weak hand is redealt, as if the player
always demanded it (:func:`kaiser_sim.deal.deal_for_rules`); the
auction follows the rules (one call each from the dealer's left, the
dealer's match, the forced dealer bid, the NT order and minimum, low no
trump as its own bid); the winner of a plain bid names trump by its
policy, and with ``low_nt = choice`` the winner of an NT bid chooses high
or low; the contract is scored (``engine``, below) and the hand with the
rules (the 45 rule, NT doubling, the target and ties, ``lose_at``, a made
Kaiser with ``kaiser_outright = team``).  With ``forced_dealer_bid =
false`` a hand all pass is thrown in and the deal moves on.

Variants (:func:`kaiser_sim.game.contract_values`): with a kitty the
declarer takes it up and discards best double dummy (the defenders' points
are what is left in play: a discarded 5H or 3S counts for nobody, or for
the declaring side with ``kitty_discard_points = declarer``); low no trump
is solved on rank-reversed deals; cover 3 scores each side from a second
solve in tricks (approximate: the two solves may follow different lines).
The table engine draws the declaring side's points from the model of the
rules' game (:func:`kaiser_sim.strategy.table_play.load_model` with the rules);
with a kitty or cover 3 the defenders then take their double-dummy points
plus what the declaring side lost to table play.
The policies' make-probabilities are the standard game's; what they do not
know of the rules is said in ``play["rules_note"]``
(:func:`kaiser_sim.strategy.policies.rules_note`; under the solo Kaiser no policy
bids 12NT).  Not modelled: passing cards (``pass_cards``: no policy passes
cards; refused with :class:`MatchError`).

Design of the runs (fair and reproducible):

- duplicate (the default, ``duplicate=True``): matches come in pairs with
  the same cards: in match ``2k`` policy A sits N-S, in ``2k+1`` E-W, and
  hand ``h`` of both is deal ``k`` of round ``h`` (a seed derived from
  (seed, h); redeals from it) with the same dealer (the first is
  ``k % 4``) and the same table-play draw, so each policy holds the
  other's cards once.  The pair is the independent unit: its score is A's
  result in both seatings, ``(won as N-S + won as E-W) / 2``, and every
  interval is clustered by pair.  Two copies of one deterministic policy
  (or a stochastic one, whose draws are a hash of the hand and the
  auction) play the two matches of a pair identically, mirrored: the pair
  scores exactly 1/2;
- not duplicate (``duplicate=False``): match ``i`` plays card set ``i``
  (hand ``h`` is deal ``i`` of round ``h``, the first dealer ``i % 4``), A
  still N-S in the even matches and E-W in the odd ones; the matches are
  independent, and so are the intervals' units.  The duplicate default is
  the engine as it was (the same matches, byte for byte);
- a match's hands depend only on (seed, match number, hand number): the
  results do not depend on how many matches run together.

The engine (``engine``): ``"dd"`` scores each contract with its
double-dummy points (the declarer on lead, in the contract's strain);
``"table"`` draws the declaring side's points from the table-play model
given those DD points (:meth:`kaiser_sim.strategy.table_play.TablePlayModel.dist`),
the defenders taking the rest, so bidders who expect table play are judged
by table play.  The draw of hand ``h`` of the pair of matches ``k`` is the
inverse CDF of that distribution at a uniform number fixed by (seed, k, h)
(:func:`table_uniform`): reproducible, independent of batching, and the
same number for both matches of a pair (common random numbers, as the
cards are).  ``"auto"`` (the default): table where the model holds for the
rules, else dd with ``engine_note`` saying why.  Every rules set has its
model (:func:`kaiser_sim.strategy.table_play.load_model` with the rules: the
kitties, low NT and cover 3 their own), so ``auto`` is table unless the
model cannot be read or one given was fitted on other rules.

What the bidders expect is a separate option (``play``): the policies'
make-probabilities model table play by default (``play="table"``: the
double-dummy make model composed with the table-play model,
:mod:`kaiser_sim.strategy.policies`; ``play="dd"``: double dummy).  The results
record both (``play_a``, ``play_b``, ``engine``; ``play_note`` and
``engine_note`` say why table play fell back to DD).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import KaiserSimError
from .. import __version__
from .. import config
from ..config import MATCH_MAX_HANDS as MAX_HANDS
from ..rules import STANDARD, Rules
from ..stats import cluster_mean_ci, cluster_proportion_ci
from .measure import MEASURES

OUTCOMES = ("bidding", "defending", "kaiser", "lose_at", "unfinished")


class MatchError(KaiserSimError):
    """Rules the match engine does not model, or a bad number of matches."""


#: how a contract is scored (module doc): one of the measures, or "auto": table where the table-play model holds
ENGINES = ("auto", *MEASURES)


def check_rules(rules: Rules) -> None:
    """Refuse rules whose play the engine cannot model (:class:`MatchError`
    saying which and why): passing cards (the capability table,
    :mod:`kaiser_sim.strategy.capabilities`)."""
    from .capabilities import check

    check("match", rules, MatchError)


def engine_for(engine: str, rules: Rules, table_model=None):
    """``(engine used, note, model or None)``: ``"table"`` where the table-play
    model holds for ``rules`` (asked for, or ``"auto"``), else ``"dd"``
    with the reason when table play was asked for or defaulted to."""
    key = str(engine).strip().lower()
    if key not in ENGINES:
        raise MatchError(f"unknown engine '{engine}'; engines: {', '.join(ENGINES)}")
    if key == "dd":
        return "dd", "", None
    from .measure import measure_for

    measure = measure_for(rules, "table", table_model)
    if not measure.table:
        return "dd", f"contracts scored double dummy: table play does not apply ({measure.reason})", None
    return "table", "", measure.table_model


def table_uniform(seed: int, pair, hand: int) -> np.ndarray:
    """The uniform numbers in (0, 1) of the table engine's draws for the
    pairs of matches ``pair`` at hand ``hand`` (module doc)."""
    pair = np.asarray(pair, dtype=np.int64).reshape(-1)
    out = np.empty(pair.size)
    for i, k in enumerate(pair):
        x = np.random.SeedSequence([int(seed), int(k), int(hand), 0x5441]).generate_state(1, dtype=np.uint64)[0]
        out[i] = (float(x >> np.uint64(11)) + 0.5) / 2.0 ** 53
    return out


def table_points(table_model, dd, nt, u, band=None) -> np.ndarray:
    """Table points drawn from ``table_model.dist(dd, nt, band)`` by the
    inverse CDF at ``u`` (arrays; ``band``: the declaring hand's count band,
    None: the model's pooled rows)."""
    from .table_play import POINTS

    dd = np.asarray(dd, dtype=np.int64)
    nt = np.asarray(nt, dtype=bool)
    band = None if band is None else np.broadcast_to(np.asarray(band, dtype=np.int64), dd.shape)
    out = np.empty(dd.size, dtype=np.int64)
    for kind in (False, True):
        sel = np.flatnonzero(nt == kind)
        if sel.size:
            cdf = np.cumsum(table_model.dist(dd[sel], kind, None if band is None else band[sel]), axis=1)
            j = (cdf < np.asarray(u)[sel, None] * cdf[:, -1:]).sum(axis=1)
            out[sel] = POINTS[np.minimum(j, len(POINTS) - 1)]
    return out


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
        ``strain`` (0..3 suit, 4 NT, 5 low NT), ``raw`` (declaring side's
        points as scored), ``made``, ``ns_before``, ``ew_before``, ``ns``,
        ``ew``, ``target``, ``winner``; with the table engine also ``dd``
        (the contract's DD points); where the defenders' points are not
        ``rules.raw_total - raw`` (a kitty, cover 3) also ``def_raw``.
    play : what the make-probabilities of the policies modelled (module doc):
        ``{"play_a", "play_b"}`` ("table", "dd", or None for a policy
        without make-probabilities), ``"requested"`` and ``"play_note"`` (why
        table play fell back to DD; "" if it did not); ``"engine"`` (how the
        contracts were scored: "table" or "dd"), ``"engine_requested"``,
        ``"engine_note"`` (why not table) and ``"rules_note"`` (what the
        policies do not know of the rules, :func:`kaiser_sim.strategy.policies.rules_note`).
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

    @property
    def duplicate(self) -> bool:
        """Whether the matches were played duplicate (module doc)."""
        return bool(self.play.get("duplicate", True))

    def units(self) -> np.ndarray:
        """(matches,) the independent unit of each match: its pair
        (``match // 2``) in duplicate, else the match itself."""
        ids = self.matches["match"].to_numpy()
        return ids // 2 if self.duplicate else ids

    def summary(self) -> dict:
        """Win rate of A (Wilson 95%), its edge over 1/2 (95%), mean hands
        and margin (95%), how the winners went out, skunks.

        In duplicate (module doc) the two matches of a pair (``match // 2``)
        are played on the same cards, so they are not independent: the pair
        is the unit, its score A's result in both seatings (the mean of its
        two ``a_won``), and every interval is clustered by pair
        (:mod:`kaiser_sim.stats`).  ``edge`` is the mean pair score - 1/2
        with a t interval over the pairs; ``pairs_both`` / ``pairs_split`` /
        ``pairs_none``: pairs A won twice, once, never (None when not
        duplicate); ``board_net`` (``_lo``, ``_hi``, over ``boards``): A's
        net a board in points (:meth:`_board_net`), the hands' measure of
        the same edge, less noisy than the matches' outcomes.  Not duplicate, each match is its own unit.  One unit
        gives no spread: the means' bounds are NaN."""
        m = self.matches
        n = len(m)
        k = int(m["a_won"].sum())
        unit = self.units()
        a_won = m["a_won"].to_numpy(bool)
        win = cluster_proportion_ci(a_won, unit)
        lo, hi = win.lo, win.hi
        edge = cluster_mean_ci(a_won.astype(float) - 0.5, unit)
        hands = cluster_mean_ci(m["hands"].to_numpy(float), unit)
        margin = cluster_mean_ci(m["margin"].to_numpy(float), unit)
        out = {"policy_a": self.policy_a, "policy_b": self.policy_b, "matches": n, "a_wins": k,
               "a_win_rate": k / n, "a_win_lo": float(lo), "a_win_hi": float(hi),
               "hands_mean": hands.mean, "hands_lo": hands.lo, "hands_hi": hands.hi,
               "margin_mean": margin.mean, "margin_lo": margin.lo, "margin_hi": margin.hi}
        for who, won in (("a", m["a_won"]), ("b", ~m["a_won"] & (m["winner"] >= 0))):
            for o in OUTCOMES[:4]:
                out[f"{who}_out_{o}"] = int((won & (m["outcome"] == o)).sum())
            out[f"{who}_skunks"] = int((won & m["skunk"]).sum())
        out["unfinished"] = int((m["winner"] < 0).sum())
        out.update({"duplicate": self.duplicate, "units": int(np.unique(unit).size), "edge": edge.mean,
                    "edge_lo": edge.lo, "edge_hi": edge.hi})
        out.update(self._board_net())
        if self.duplicate:
            wins = np.bincount(unit, weights=a_won, minlength=int(unit.max()) + 1)
            whole = np.bincount(unit, minlength=int(unit.max()) + 1) == 2  # an odd last match is half a pair
            out.update({"pairs_both": int((whole & (wins == 2)).sum()), "pairs_split": int((whole & (wins == 1)).sum()),
                        "pairs_none": int((whole & (wins == 0)).sum())})
        else:
            out.update({"pairs_both": None, "pairs_split": None, "pairs_none": None})
        out.update({"seed": self.seed, "rules": self.rules.label, "seconds": round(self.seconds, 2),
                    "version": __version__})
        out.update({k: self.play.get(k) for k in ("play_a", "play_b")})
        out["play_note"] = self.play.get("play_note", "")
        out["engine"] = self.play.get("engine", "dd")
        out["engine_note"] = self.play.get("engine_note", "")
        out["rules_note"] = self.play.get("rules_note", "")
        return out

    def _board_net(self) -> dict:
        """A's net a hand (its side's hand score minus the other's): in
        duplicate per board, a board being hand ``h`` of a pair played in
        both its matches, its score A's net in both seatings / 2 (the cards'
        luck cancels; boards one match did not reach are left out); not
        duplicate per hand.  95% t interval clustered by unit (pair or match)."""
        h = self.hands
        if not len(h):
            return {"boards": 0, "board_net": float("nan"), "board_net_lo": float("nan"),
                    "board_net_hi": float("nan")}
        a_side = self.matches.set_index("match")["a_side"].reindex(h["match"]).to_numpy()
        d_ns = (h["ns"] - h["ns_before"]).to_numpy(float)
        d_ew = (h["ew"] - h["ew_before"]).to_numpy(float)
        net = np.where(a_side == 0, d_ns - d_ew, d_ew - d_ns)
        match = h["match"].to_numpy()
        if self.duplicate:
            key = pd.DataFrame({"pair": match // 2, "hand": h["hand"].to_numpy(), "net": net})
            g = key.groupby(["pair", "hand"])["net"].agg(["sum", "size"]).reset_index()
            g = g[g["size"] == 2]
            x, unit = g["sum"].to_numpy(float) / 2, g["pair"].to_numpy()
        else:
            x, unit = net, match
        if not x.size:
            return {"boards": 0, "board_net": float("nan"), "board_net_lo": float("nan"),
                    "board_net_hi": float("nan")}
        m = cluster_mean_ci(x, unit)
        return {"boards": int(x.size), "board_net": m.mean, "board_net_lo": m.lo, "board_net_hi": m.hi}

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
                 f"edge of {a} (win rate - 50%): {100 * s['edge']:+.1f} points [{100 * s['edge_lo']:+.1f}, "
                 f"{100 * s['edge_hi']:+.1f}]",
                 f"score margin ({a} - {b}): {s['margin_mean']:+.2f} [{s['margin_lo']:+.2f}, "
                 f"{s['margin_hi']:+.2f}]",
                 _duplicate_text(s),
                 (f"net a board ({a}'s hand score - {b}'s, the mean of both seatings of a board both matches of "
                  f"its pair reached): {s['board_net']:+.2f} [{s['board_net_lo']:+.2f}, {s['board_net_hi']:+.2f}] over "
                  f"{s['boards']:,} boards" if s["duplicate"] else
                  f"net a hand ({a}'s hand score - {b}'s): {s['board_net']:+.2f} [{s['board_net_lo']:+.2f}, "
                  f"{s['board_net_hi']:+.2f}] over {s['boards']:,} hands"),
                 f"bidders expect: {_play_text(s['play_a'])} ({a}), {_play_text(s['play_b'])} ({b}); "
                 f"contracts scored in {_play_text(s['engine'])} (engine {s['engine']})", "",
                 f"{'side':<{w}}  {'wins':>6}  {'bidding':>8}  {'defending':>9}  {'kaiser':>6}  {'lose_at':>7}  "
                 f"{'skunks':>6}"]
        for who, name in (("a", a), ("b", b)):
            wins = sum(s[f"{who}_out_{o}"] for o in OUTCOMES[:4])
            lines.append(f"{name:<{w}}  {wins:>6,}  {s[f'{who}_out_bidding']:>8,}  {s[f'{who}_out_defending']:>9,}  "
                         f"{s[f'{who}_out_kaiser']:>6,}  {s[f'{who}_out_lose_at']:>7,}  {s[f'{who}_skunks']:>6,}")
        if s["unfinished"]:
            lines.append(f"unfinished after {MAX_HANDS} hands: {s['unfinished']}")
        for key in ("play_note", "engine_note", "rules_note"):
            if s[key]:
                lines.append(f"{'note' if key == 'rules_note' else 'warning'}: {s[key]}")
        lines.append("")
        lines.append("intervals: 95% (Wilson for the win rate, t for means), "
                     + ("clustered by pair of matches on the same cards (the pairs are the independent units)"
                        if s["duplicate"] else "over independent matches")
                     + "; went out by bidding = the winner declared the last hand")
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


def play_matches(policy_a, policy_b, n: int, seed: int = config.DEFAULT_SEED, rules: Rules = STANDARD, *, play: str = "table",
                 engine: str = "auto", threads=None, progress=None, max_hands: int = MAX_HANDS,
                 table_model=None, duplicate: bool = True) -> MatchResults:
    """Play ``n`` matches of ``policy_a`` against ``policy_b`` (names or
    :class:`~kaiser_sim.strategy.policies.Policy`), module doc.  ``play``: what the
    make-probabilities of policies given by name model, ``"table"`` (table
    play, the default) or ``"dd"`` (double dummy); a Policy keeps its own.
    ``engine``: how the contracts are scored, ``"auto"`` (table play where
    the model holds for the rules, else DD), ``"table"`` (falls back to DD
    with a note where it does not hold) or ``"dd"`` (:data:`ENGINES`);
    ``table_model``: the table-play model (default the shipped one).
    ``duplicate``: the two matches of each pair on the same cards, sides
    swapped (the default), or every match on its own cards (module doc).
    ``threads``: solver threads (default all); ``progress``: a
    :class:`kaiser_sim.runs.progress.Progress` counting finished matches.
    Refused: rules, an engine or ``n`` it cannot play (:class:`MatchError`),
    a ``play`` or a policy name the policies do not know (their
    :class:`~kaiser_sim.strategy.policies.PolicyError`, as it is)."""
    import time

    from .policies import PASS, BidView, check_play, contracts_of, get_policy, ladder_arrays, play_note, \
        rules_note, run_auction
    from ..runs.progress import Progress
    from ..scoring import score_hands
    from ..deal import deal_for_rules
    from ..game import LOW_NT, contract_values
    from .table_play import declarer_band

    check_rules(rules)
    used_engine, engine_note, table_model = engine_for(engine, rules, table_model)
    if n < 1:
        raise MatchError("at least one match")
    play = check_play(play)
    pa, pb = get_policy(policy_a, play), get_policy(policy_b, play)
    policies = [pa, pb]
    notes = {play_note(rules, p.play) for p in policies if p.play is not None} - {""}
    play_info = {"requested": play, "play_a": pa.effective_play(rules), "play_b": pb.effective_play(rules),
                 "play_note": "; ".join(sorted(notes)), "engine_requested": str(engine).strip().lower(),
                 "engine": used_engine, "engine_note": engine_note, "rules_note": rules_note(rules),
                 "duplicate": bool(duplicate)}
    redeal = rules.weak_redeal != "off"
    split = rules.kitty != "none" or rules.cover3  # the defenders' points are not raw_total - raw
    progress = progress or Progress()
    progress.start(n, unit="matches")
    t0 = time.perf_counter()
    lad = ladder_arrays(rules)
    ids = np.arange(n)
    # the card set of each match: shared by the two matches of a pair in duplicate, else its own
    pair = ids // 2 if duplicate else ids
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
        dealt, kits = deal_for_rules(int(prs.max()) - lo_p + 1, round_seed(seed, h), rules, start=lo_p,
                                     redeal_weak=redeal)
        deals, kitties = dealt[prs - lo_p], kits[prs - lo_p]
        dl = dealer[active]
        before = scores[active].copy()
        tgt = target[active].copy()
        calls = run_auction(deals, dl, before, tgt, rules, policies, side_policy[active])
        rank, declarer = contracts_of(calls, dl)
        has = rank != PASS
        rows = np.nonzero(has)[0]
        r = rank[rows]
        strain = np.full(active.size, -1, dtype=np.int64)
        strain[rows] = np.where(lad.low[r], LOW_NT, np.where(lad.nt[r], 4, -1))
        plain = rows[~lad.nt[r]]
        choice = rows[lad.nt[r] & ~lad.low[r]] if rules.low_nt == "choice" else rows[:0]
        if plain.size:
            dside = declarer[plain] & 1
            pol = side_policy[active[plain], dside]
            for p in np.unique(pol):
                sel = plain[pol == p]
                s = declarer[sel] & 1
                view = BidView(deals[sel, declarer[sel]], calls[sel].copy(), declarer[sel], dl[sel],
                               np.stack([before[sel, s], before[sel, 1 - s]], axis=1), tgt[sel], rules)
                strain[sel] = np.asarray(policies[p].trump(view, rank[sel]), dtype=np.int64)
        if choice.size:  # low_nt=choice: the declarer of an NT bid plays it high or low
            pol = side_policy[active[choice], declarer[choice] & 1]
            for p in np.unique(pol):
                sel = choice[pol == p]
                s = declarer[sel] & 1
                view = BidView(deals[sel, declarer[sel]], calls[sel].copy(), declarer[sel], dl[sel],
                               np.stack([before[sel, s], before[sel, 1 - s]], axis=1), tgt[sel], rules)
                low = np.asarray(policies[p].nt_low(view, rank[sel]), dtype=bool)
                strain[sel] = np.where(low, LOW_NT, 4)
        raw = np.zeros(active.size, dtype=np.int64)
        draw = np.zeros(active.size, dtype=np.int64)
        dd = np.zeros(active.size, dtype=np.int64)
        if rows.size:
            ts = time.perf_counter()
            dd[rows], draw[rows] = contract_values(deals[rows], kitties[rows], declarer[rows], strain[rows], rules,
                                                   threads=threads)
            solver_s += time.perf_counter() - ts
            raw[rows] = dd[rows]
            if used_engine == "table":
                u = table_uniform(seed, pair[active[rows]], h)
                # (5: low NT, an NT row); the declarer's count band with its own cards (before any kitty)
                band = declarer_band(deals[rows, declarer[rows]], strain[rows]) if table_model.banded else None
                raw[rows] = table_points(table_model, dd[rows], strain[rows] >= 4, u, band)
                # the defenders take what the declaring side loses to table play (with a kitty or cover 3
                # the two sides' points need not add to raw_total)
                draw[rows] = draw[rows] + dd[rows] - raw[rows] if split else rules.raw_total - raw[rows]
        after = before.copy()
        won_now = np.full(active.size, -1, dtype=np.int64)
        made = np.zeros(active.size, dtype=bool)
        if rows.size:
            res = score_hands(rules, lad.levels[r], lad.nt[r], declarer[rows], raw[rows], before[rows],
                              defender_raw=draw[rows], target=tgt[rows])
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
                    before, after, tgt, won_now, dd, draw))
        scores[active] = after
        played[active] += 1
        dealer[active] = (dl + 1) % 4
        done = won_now >= 0
        if done.any():
            progress.advance(int(done.sum()))
        active = active[~done]
        h += 1
    progress.finish(f"{n:,} matches, {int(played.sum()):,} hands")
    hands = _hands_frame(log, lad, dd=used_engine == "table", split=split)
    a_won = (winner >= 0) & (winner == a_side)
    sa = scores[ids, a_side]
    sb = scores[ids, 1 - a_side]
    matches = pd.DataFrame({"match": ids, "a_side": a_side, "first_dealer": first_dealer, "hands": played,
                            "winner": winner, "a_won": a_won, "score_a": sa, "score_b": sb, "margin": sa - sb,
                            "outcome": [OUTCOMES[o] for o in outcome], "skunk": skunk})
    return MatchResults(pa.name, pb.name, int(seed), rules, matches, hands, time.perf_counter() - t0,
                        {"solver_seconds": solver_s, "rounds": h}, play_info)


def _duplicate_text(s: dict) -> str:
    """The line of :meth:`MatchResults.to_text` saying how the matches were played."""
    if not s["duplicate"]:
        return (f"not duplicate: every match its own cards ({s['units']:,} independent matches; "
                "kaiser-sim match plays duplicate unless --no-duplicate)")
    return (f"duplicate: {s['units']:,} pairs of matches on the same cards, sides swapped (pair score = "
            f"{s['policy_a']}'s wins in both seatings / 2); pairs won by {s['policy_a']} in both seatings "
            f"{s['pairs_both']:,}, split {s['pairs_split']:,}, in neither {s['pairs_none']:,}")


def _play_text(play) -> str:
    return {"table": "table play", "dd": "double dummy", None: "n/a"}.get(play, str(play))


def _hands_frame(log, lad, dd: bool = False, split: bool = False) -> pd.DataFrame:
    if not log:
        return pd.DataFrame()
    cols = list(zip(*log))
    cat = [np.concatenate(c) for c in cols]
    match, hand, dealer, calls, declarer, rank, strain, raw, made, before, after, target, won, dd_pts, def_raw = cat
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
    if dd:
        df["dd"] = np.where(has, dd_pts, 0)
    if split:
        df["def_raw"] = np.where(has, def_raw, 0)
    df["made"] = made
    df["ns_before"], df["ew_before"] = before[:, 0], before[:, 1]
    df["ns"], df["ew"] = after[:, 0], after[:, 1]
    df["target"] = target
    df["winner"] = won
    return df.sort_values(["match", "hand"], kind="stable").reset_index(drop=True)


__all__ = ["play_matches", "MatchResults", "MatchError", "check_rules", "round_seed", "MAX_HANDS", "OUTCOMES",
           "ENGINES", "engine_for", "table_uniform", "table_points"]
