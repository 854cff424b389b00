"""The probability of winning the match from a score, for the score-aware
policy and the match study.

Model (approximate, stated plainly):

- a hand is an *event*: a contract (a bid of the ladder) and the declaring
  side's raw points.  Their distribution is estimated once per rules set:
  ``PILOT_DEALS`` random deals (seed ``PILOT_SEED``, no solving) are bid by
  the ``ev`` policy on both sides (:func:`kaiser_sim.policies.run_auction`),
  and each contract contributes its declarer's distribution of raw points:
  the make model's (:mod:`kaiser_sim.make_model`, double dummy) composed
  with the table-play model under ``play="table"`` (the default), as is
  under ``play="dd"`` -- the same distribution the policies bid on
  (:func:`kaiser_sim.policies.hand_values`);
- either side declares with probability 1/2, whatever the score, and the
  events do not depend on the score (the policies in a real match do);
- the score after a hand follows :func:`kaiser_sim.scoring.score_hands`
  (the 45 rule, the target, ties, ``lose_at`` ...); the target is
  ``rules.target`` throughout (``target_after_nt`` is not modelled);
- scores below ``-target`` are treated as ``-target``.

``W(us, them)``, the chance that "us" wins from the start of a hand, solves
``W = sum_e p_e * value(e)`` (1 for a won match, 0 for a lost one, ``W`` of
the next score otherwise); it is found by value iteration.  From it,
:class:`WinTable` keeps what the policy needs: ``after_declare[state, bid,
r]`` (P(win) after we declare ``bid`` and take ``r - 2`` raw points) and
``after_pass[state]`` (P(win) after a hand the opponents declare).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .rules import Rules

PILOT_DEALS = 8000
PILOT_SEED = 20261129
TOLERANCE = 1e-7
MAX_ITERATIONS = 5000


@dataclass(frozen=True)
class WinTable:
    """Win probabilities over the score grid ``lo .. target-1`` for both
    sides (module doc).  ``W`` is ``(m, m)``: ``W[us - lo, them - lo]``."""

    lo: int
    target: int
    W: np.ndarray
    after_declare: np.ndarray  # (m*m, L, 15)
    after_pass: np.ndarray  # (m*m,)
    events: np.ndarray  # (L, 15) P(contract, raw) given a contract
    p_none: float
    iterations: int

    @property
    def m(self) -> int:
        return self.target - self.lo

    def index(self, us, them) -> np.ndarray:
        """Flat state index of scores (clipped to the grid)."""
        a = np.clip(np.asarray(us, dtype=np.int64), self.lo, self.target - 1) - self.lo
        b = np.clip(np.asarray(them, dtype=np.int64), self.lo, self.target - 1) - self.lo
        return a * self.m + b

    def win(self, us, them) -> np.ndarray:
        return self.W.reshape(-1)[self.index(us, them)]


def hand_events(rules: Rules, deals: int = PILOT_DEALS, seed: int = PILOT_SEED, model=None, play: str = "table"):
    """``(events, p_none)``: P(contract = bid i, declarer's raw = r - 2)
    given that there is a contract, ``(L, 15)``, and the share of hands
    thrown in, from ``ev`` bidding on random deals (module doc; ``play``:
    the policies' ``"table"`` or ``"dd"``)."""
    from .policies import EVPolicy, PASS, contracts_of, hand_values, ladder_arrays, low_nt_dist, nt_low, run_auction
    from .variants import deal_for_rules

    d = deal_for_rules(deals, seed, rules)[0]  # the rules' hand size and deck (the 8-card game: deal_batch)
    dealers = np.arange(deals) % 4
    scores = np.zeros((deals, 2), dtype=np.int64)
    targets = np.full(deals, rules.target)
    calls = run_auction(d, dealers, scores, targets, rules, [EVPolicy(model=model, play=play)],
                        np.zeros((deals, 2), dtype=np.int64))
    rank, who = contracts_of(calls, dealers)
    ok = rank != PASS
    lad = ladder_arrays(rules)
    rows = np.nonzero(ok)[0]
    hands = d[rows, who[rows]]
    _, trump, ds, dn = hand_values(hands, rules, model, play)
    r = rank[rows]
    i = np.arange(rows.size)
    nt = dn
    if rules.low_nt != "off":  # a low bid is played low; with low_nt=choice the declarer picks per hand
        dl = low_nt_dist(hands, rules, model, play)
        low = lad.low[r] | nt_low(hands, rules, model, play)
        nt = np.where(low[:, None], dl, dn)
    dist = np.where(lad.nt[r][:, None], nt, ds[trump[i, r], i])
    events = np.zeros((len(lad), dist.shape[1]))
    np.add.at(events, r, dist)
    total = events.sum()
    return (events / total if total else events), float(1.0 - ok.mean())


def _transitions(rules: Rules, lo: int, level: int, nt: bool, raw: int, declarer: int):
    """Over every state of the grid: (terminal, won by side 0, next index)."""
    from .scoring import score_hands

    t = rules.target
    m = t - lo
    a, b = np.divmod(np.arange(m * m), m)
    before = np.stack([a + lo, b + lo], axis=1)
    res = score_hands(rules, level, nt, declarer, np.full(m * m, raw), before, target=t)
    term = res.winner >= 0
    won = res.winner == 0
    after = np.clip(res.scores, lo, t - 1) - lo
    return term, won, after[:, 0] * m + after[:, 1]


def win_table(rules: Rules, model=None, play: str = "table") -> WinTable:
    """The :class:`WinTable` of ``rules`` (cached; about a second), with the
    hand outcomes the policies expect under ``play`` (module doc; table play
    falls back to DD where it does not apply,
    :func:`kaiser_sim.policies.play_used`)."""
    from .policies import play_used

    return _win_table(rules, model, play_used(rules, play))


@functools.lru_cache(maxsize=8)
def _win_table(rules: Rules, model, play: str) -> WinTable:
    from .make_model import RAW_VALUES
    from .policies import ladder_arrays

    lad = ladder_arrays(rules)
    events, p_none = hand_events(rules, model=model, play=play)
    lo, t = -rules.target, rules.target
    m = t - lo
    S = m * m
    const = np.zeros(S)
    nexts, weights = [], []
    if p_none > 0:  # a thrown-in hand leaves the score as it is
        nexts.append(np.arange(S))
        weights.append(np.full(S, p_none))
    trans = {}
    for side in (0, 1):
        for i, bid in enumerate(lad.bids):
            for j, raw in enumerate(RAW_VALUES):
                term, won, nxt = trans[side, i, j] = _transitions(rules, lo, bid.level, bid.nt, int(raw), side)
                p = events[i, j]
                if p <= 0:
                    continue
                w = 0.5 * (1 - p_none) * p
                const += w * (term & won)
                nexts.append(nxt)
                weights.append(np.where(term, 0.0, w))
    nxt = np.stack(nexts)
    wts = np.stack(weights)
    W = np.full(S, 0.5)
    it = 0
    for it in range(1, MAX_ITERATIONS + 1):
        new = const + (wts * W[nxt]).sum(axis=0)
        diff = np.abs(new - W).max()
        W = new
        if diff < TOLERANCE:
            break
    values = {}
    for side in (0, 1):
        fill = np.empty((S, len(lad), RAW_VALUES.size))
        for i in range(len(lad)):
            for j in range(RAW_VALUES.size):
                term, won, nx = trans[side, i, j]
                fill[:, i, j] = np.where(term, won.astype(float), W[nx])
        values[side] = fill
    after_pass = (values[1] * events[None, :, :]).sum(axis=(1, 2))
    return WinTable(lo, t, W.reshape(m, m), values[0], after_pass, events, p_none, it)


__all__ = ["WinTable", "win_table", "hand_events", "PILOT_DEALS", "PILOT_SEED"]
