"""Values under the rules: the door from (deals, rules, measure) to double-dummy values.

Everything above this package asks for values here, with the rules given
explicitly (``kaiser_sim.rules.STANDARD`` for the standard game); these
functions pick the solver's entry point (:func:`dd_table`,
:func:`dd_strains`, :func:`dd_contracts`, :func:`solve` for the plain
questions; :func:`contract_values`, :func:`strain_values`,
:func:`side_tables` with the kitty taken up and cover 3 scored).  The
solver (:mod:`kaiser_sim.dd.api`) knows one game: a higher bit wins, the
5H and 3S are given as bits.  The variants are reductions to that game, so
the solver itself is untouched:

- **Low no trump** (rules ``low_nt``, P1): the ranks of every suit are
  reversed with :func:`kaiser_sim.cards.reverse_ranks` (the 5H and 3S stay
  lowest if ``low_specials_lowest``) and the solver gets the special cards'
  new bits.  In strain arguments below, :data:`LOW_NT` (5) means low NT.
- **Kitty** (rules ``kitty``; K1: 7 cards each + 4, K2: 34 cards, 8 each
  + 2).  The kitty is dealt face down and the declarer sees it only after
  winning the bid; then the declarer takes it up and discards as many
  cards.  Double dummy, the declarer picks the discard that maximises the
  declaring side's points (tricks in tricks mode):
  ``value = max over legal discards of solve(hands after the discard)``.
  K2 never discards the 5H or 3S; K1 may (``kitty_discard_specials``).
  A discarded 5H or 3S counts for nobody (the sources are silent), or for
  the declaring side with ``kitty_discard_points="declarer"``.  Among
  discards of equal value the one leaving the defenders fewest points is
  returned (it differs only when a special card can be discarded, in K1).

Discards are enumerated once per class of equivalent discards: cards of the
declarer that are adjacent among the cards in play (no other player's card
between them, neither the 5H nor the 3S) are interchangeable, so only how
many of each such run are thrown matters.  Candidates are then tested with
null-window searches (:func:`kaiser_sim.dd.can_reach`) against the best
value so far, and solved exactly only when they beat it.
"""

from __future__ import annotations

import numpy as np

from ..cards import (
    ALL_STRAIN_KEYS,
    FIVE_HEARTS_BIT,
    LOW_NO_TRUMP,
    NO_TRUMP,
    SUIT_BITS,
    THREE_SPADES_BIT,
    Seat,
    format_hand,
    popcount,
    reverse_ranks,
    special_bits_after_reverse,
)
from ..auction import seat_of
from ..deal import kitty_of
from ..dd import api
from ..rules import Rules

#: Strain number for low (reversed-rank) no trump in this module's strain
#: arguments and in the 6th column of :func:`dd_table`.
LOW_NT = LOW_NO_TRUMP  # 5


# --- low no trump ------------------------------------------------------------------------


def play_view(hands, rules: Rules, low: bool):
    """``(hands, five, three)`` as the solver must see them: relabelled for
    a low contract (ranks reversed), with the special cards' bits."""
    if not low:
        return np.asarray(hands, dtype=np.uint64), FIVE_HEARTS_BIT, THREE_SPADES_BIT
    f, t = special_bits_after_reverse(rules.low_specials_lowest)
    return reverse_ranks(hands, rules.low_specials_lowest), f, t


def _split_strain(strain: int) -> tuple[int, bool]:
    s = int(strain)
    if not 0 <= s <= LOW_NT:
        raise ValueError(f"strain {strain} is not 0..5 (S H D C N, 5 = low NT)")
    return (NO_TRUMP, True) if s == LOW_NT else (s, False)


# --- kitty discards -----------------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def discard_classes(hand: int, in_play: int, k: int, forbidden: int = 0, special: int = 0) -> list[int]:
    """One discard (a mask of ``k`` cards of ``hand``) per class of equivalent
    discards.

    ``hand`` is the declarer's hand with the kitty taken up, ``in_play`` every
    card still in play (all four hands), ``forbidden`` cards that may not be
    discarded, ``special`` the 5H/3S bits (never equivalent to a neighbour).
    A run is a maximal set of the declarer's cards adjacent among the cards
    in play in one suit; discarding any j cards of a run leaves the same
    position up to relative ranks, so the lowest j stand for all.
    """
    hand, in_play = int(hand), int(in_play)
    runs: list[list[int]] = []
    for s in range(4):
        cur: list[int] = []
        for c in _bits(in_play & (0xFFFF << (SUIT_BITS * s))):  # ascending
            bit = 1 << c
            mine = hand & bit and not forbidden & bit
            if mine and not special & bit:
                cur.append(c)
                continue
            if cur:
                runs.append(cur)
                cur = []
            if mine:
                runs.append([c])  # a special card stands alone
        if cur:
            runs.append(cur)
    out: list[int] = []

    def rec(i: int, left: int, mask: int):
        if left == 0:
            out.append(mask)
            return
        if i == len(runs):
            return
        room = sum(len(r) for r in runs[i:])
        if room < left:
            return
        run = runs[i]
        for j in range(min(left, len(run)), -1, -1):
            m = mask
            for c in run[:j]:
                m |= 1 << c
            rec(i + 1, left - j, m)

    rec(0, k, 0)
    return out


def _upper_bound(in_play: int, ntricks: int, five: int, three: int, mode: str) -> int:
    """Most the declaring side could take: every trick, the 5H, and one trick
    fewer than all if the 3S is out (taking it costs 3)."""
    if mode == "tricks":
        return ntricks
    return ntricks + (5 if in_play & five else 0) - (1 if in_play & three else 0)


def kitty_dd_value(hands, kitty, declarer, strain, rules: Rules, mode: str = "points", *,
                   return_discard: bool = False, count_five: bool = True, count_three: bool = True):
    """Double-dummy value for the declaring side when the declarer takes up
    the kitty and discards as many cards, choosing the best discard.

    Parameters
    ----------
    hands : (4,) uint64, equal lengths (a trick boundary; full deals or
        endgames).
    kitty : uint64 mask of the kitty cards (disjoint from the hands).
    declarer : seat taking the kitty and leading the first trick.
    strain : 0..3 trump suit, 4 no trump, :data:`LOW_NT` low no trump.
    rules : gives ``kitty_discard_specials``, ``kitty_discard_points`` and,
        for low NT, ``low_specials_lowest``.
    mode : ``"points"`` or ``"tricks"``.
    return_discard : also return the chosen discard (a card mask, in the
        normal card layout).
    count_five, count_three : False: the 5H (3S) counts 0 points, as
        ``five=0`` (``three=0``) does for :func:`kaiser_sim.dd.dd_table`; the
        card is still the 5H (3S) for what may be discarded.

    Returns
    -------
    value, or ``(value, discard)``.  With ``kitty_discard_points="declarer"``
    the value includes the discarded special cards' points.
    """
    hands = np.asarray(hands, dtype=np.uint64).copy()
    decl = seat_of(declarer)
    kit = int(kitty)
    k = popcount(kit)
    union = int(hands[0] | hands[1] | hands[2] | hands[3])
    if kit & union:
        raise ValueError("the kitty shares a card with a hand")
    if k == 0:
        raise ValueError("the kitty is empty")
    trump, low = _split_strain(strain)
    view = hands.copy()
    view[decl] |= np.uint64(kit)
    view, five, three = play_view(view, rules, low)
    special = int(five) | int(three)  # the cards themselves (what may be discarded, never equivalent)
    forbidden = 0 if rules.may_discard_specials else special
    # the cards that count: a card switched off counts for nobody, wherever it ends
    five, three = (int(five) if count_five else 0), (int(three) if count_three else 0)
    hand = int(view[decl])
    in_play = int(view[0] | view[1] | view[2] | view[3])
    cands = discard_classes(hand, in_play, k, forbidden=forbidden, special=special)
    if not cands:
        raise ValueError("no legal discard (too many cards the declarer may not discard)")
    cands.sort(key=lambda m: sum(c & 15 for c in _bits(m)))  # throw low cards first

    ntricks = popcount(hands[(decl + 1) % 4])
    counts = mode == "points" and rules.kitty_discard_points == "declarer"

    def offset(d: int) -> int:
        if not counts:
            return 0
        return (5 if d & five else 0) - (3 if d & three else 0)

    def position(d: int) -> np.ndarray:
        h = view.copy()
        h[decl] = np.uint64(hand & ~d)
        return h

    def total(d: int) -> int:  # both sides' points still to play for after discard d
        if mode == "tricks":
            return ntricks
        rest = in_play & ~d
        return ntricks + (5 if rest & five else 0) - (3 if rest & three else 0)

    kw = {"five": np.uint64(five), "three": np.uint64(three)}
    # best = (declaring side's value, defenders' points, discard); a tie on
    # the value goes to the discard leaving the defenders fewer points (it
    # matters only when a special card is discarded, in K1)
    d0 = cands[0]
    v0 = api.solve(position(d0), decl, trump, mode, **kw)
    best, best_def, best_d = v0 + offset(d0), total(d0) - v0, d0
    for d in cands[1:]:
        off = offset(d)
        ub = _upper_bound(in_play & ~d, ntricks, five, three, mode) + off
        if ub < best:
            continue
        pos = position(d)
        if ub > best and api.can_reach(pos, decl, trump, best + 1 - off, mode, **kw):
            v = api.solve(pos, decl, trump, mode, **kw)
            best, best_def, best_d = v + off, total(d) - v, d
            continue
        # now this discard's value is at most best: can it tie with fewer
        # points for the defenders?
        if total(d) - (best - off) < best_def and api.can_reach(pos, decl, trump, best - off, mode, **kw):
            best_def, best_d = total(d) - (best - off), d
    if not return_discard:
        return int(best)
    discard = best_d
    if low:  # back to the normal layout (the relabelling is its own inverse)
        discard = int(reverse_ranks(np.array([discard], dtype=np.uint64), rules.low_specials_lowest)[0])
    return int(best), discard


def kitty_dd_values(deals, kitties, declarer, strain, rules: Rules, mode: str = "points") -> np.ndarray:
    """:func:`kitty_dd_value` for many deals: ``(n,)`` int array.

    ``declarer`` and ``strain`` are scalars or ``(n,)`` arrays.  A Python
    loop over deals, each a handful of solver calls (see the module doc).
    """
    deals = np.asarray(deals, dtype=np.uint64)
    n = deals.shape[0]
    kit = np.broadcast_to(np.asarray(kitties, dtype=np.uint64), (n,))
    dec = np.broadcast_to(np.asarray(declarer, dtype=np.int64), (n,))
    st = np.broadcast_to(np.asarray(strain, dtype=np.int64), (n,))
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = kitty_dd_value(deals[i], kit[i], int(dec[i]), int(st[i]), rules, mode)
    return out


# --- one entry point per question ------------------------------------------------------------


def dd_value(hands, declarer, strain, rules: Rules, mode: str = "points", kitty=None) -> int:
    """Double-dummy value for the declaring side under ``rules``: with a kitty
    (``kitty`` given, rules with a kitty) the best discard is chosen; low NT
    (strain :data:`LOW_NT`) is solved on reversed ranks."""
    if rules.kitty != "none":
        if kitty is None:
            raise ValueError(f"rules kitty={rules.kitty}: give the kitty")
        return kitty_dd_value(hands, kitty, declarer, strain, rules, mode)
    trump, low = _split_strain(strain)
    h, five, three = play_view(hands, rules, low)
    return api.solve(h, seat_of(declarer), trump, mode, five=five, three=three)


def cover3_points(points, tricks):
    """A side's raw points under cover 3 (rules ``cover3``) from its raw
    points in the standard count (tricks + 5H - 3S) and its tricks: a side
    with 3 tricks or more keeps its points; one with fewer scores its
    tricks, or -3 if it took the 3S (:func:`kaiser_sim.scoring.raw_points`).
    Whether it took the 3S is read from ``points - tricks`` (-3: the 3S; 2:
    the 5H and the 3S; when the two do not come from one line of play, a
    negative difference counts as the 3S).  Arrays or scalars."""
    p = np.asarray(points, dtype=np.int64)
    t = np.asarray(tricks, dtype=np.int64)
    d = p - t
    took_3s = (d == 2) | (d < 0)
    out = np.where(t >= 3, p, np.where(took_3s, -3, t))
    return int(out) if out.ndim == 0 else out


def contract_values(deals, kitties, declarer, strain, rules: Rules, *, threads=None, guess=None):
    """Double-dummy raw points of single contracts under ``rules``:
    ``(declaring side, defenders)``, two ``(n,)`` int64 arrays.

    Row ``i``: deal ``deals[i]`` (kitty ``kitties[i]``, ignored without a
    kitty rule) declared by ``declarer[i]`` (who leads) in ``strain[i]``
    (0..3 trump, 4 no trump, :data:`LOW_NT` low no trump).

    - Without a kitty: :func:`kaiser_sim.dd.dd_contracts` (parallel), on
      rank-reversed deals for low NT.  The defenders take
      ``rules.raw_total`` minus the declaring side's points.
    - With a kitty: :func:`kitty_dd_value` (the declarer takes the kitty and
      discards best; a Python loop).  A 5H or 3S discarded counts for
      nobody (the defenders' points are what is left in play minus the
      declaring side's), or for the declaring side with
      ``kitty_discard_points="declarer"``.
    - ``guess``: (n,) the declaring side's points each row is likely near
      (the same deal and strain with another seat on lead), where the
      search starts without a kitty (:func:`kaiser_sim.dd.dd_contracts`);
      it moves the node count only, never a value.
    - Cover 3 (``rules.cover3``): the solver plays for the standard count;
      a second solve in tricks gives each side's tricks (the declaring side
      its double-dummy tricks, the defenders the rest) and
      :func:`cover3_points` scores both sides.  An approximation: the
      points and the tricks come from two optimal lines that may differ;
      exact for a side that takes 3 tricks on both.
    """
    deals = np.asarray(deals, dtype=np.uint64)
    n = deals.shape[0]
    dec = np.broadcast_to(np.asarray(declarer, dtype=np.int64), (n,)).copy()
    st = np.broadcast_to(np.asarray(strain, dtype=np.int64), (n,)).copy()
    if n and (st.min() < 0 or st.max() > LOW_NT or (st.max() == LOW_NT and rules.low_nt == "off")):
        raise ValueError("strains must be 0..4, or 5 (low NT) under rules that play it")
    decl = np.zeros(n, dtype=np.int64)
    total = np.full(n, rules.raw_total, dtype=np.int64)
    ntricks = rules.tricks
    trk = None
    if rules.kitty == "none":
        out = {mode: np.zeros(n, dtype=np.int64) for mode in (("points", "tricks") if rules.cover3 else ("points",))}
        for mode, values in out.items():  # the points; under cover 3 also the tricks
            for low in (False, True):
                sel = np.flatnonzero((st == LOW_NT) == low)
                if sel.size:
                    h, five, three = play_view(deals[sel], rules, low)
                    kw = {"five": five, "three": three} if mode == "points" else {}
                    if mode == "points" and guess is not None:
                        kw["guess"] = np.broadcast_to(np.asarray(guess, dtype=np.int64), (n,))[sel]
                    values[sel] = api.dd_contracts(h, dec[sel], np.where(st[sel] == LOW_NT, NO_TRUMP, st[sel]),
                                                   mode, threads=threads, **kw)
        decl, trk = out["points"], out.get("tricks")
    else:
        kit = np.broadcast_to(np.asarray(kitties, dtype=np.uint64), (n,))
        counts = rules.kitty_discard_points == "declarer"
        five, three = int(FIVE_HEARTS_BIT), int(THREE_SPADES_BIT)
        if rules.cover3:
            trk = np.zeros(n, dtype=np.int64)
        for i in range(n):
            v, d = kitty_dd_value(deals[i], kit[i], int(dec[i]), int(st[i]), rules, "points", return_discard=True)
            gone = (5 if d & five else 0) - (3 if d & three else 0)  # the discarded specials' points
            total[i] = ntricks + 2 - gone
            decl[i] = v
            if counts:  # the discarded specials are already in v: the defenders get the rest of the play
                total[i] += gone
            if trk is not None:
                trk[i] = kitty_dd_value(deals[i], kit[i], int(dec[i]), int(st[i]), rules, "tricks")
    defenders = total - decl
    if trk is not None:
        decl, defenders = cover3_points(decl, trk), cover3_points(defenders, ntricks - trk)
    return decl, defenders


def strain_values(deals, kitties, leader: int, rules: Rules, mode: str = "points", *, threads=None) -> np.ndarray:
    """``(n, k)`` double-dummy values of every strain of :func:`strain_keys`
    (S H D C N, and L with low NT) with ``leader`` on lead (declaring), for
    the leader's side: :func:`kaiser_sim.dd.dd_strains` without a
    kitty (plus a rank-reversed solve for L), :func:`kitty_dd_value` per
    deal and strain with one (slow: a Python loop).  Cover 3 is not applied
    here (see :func:`cover3_points`)."""
    deals = np.asarray(deals, dtype=np.uint64)
    keys = strain_keys(rules)
    n = deals.shape[0]
    if rules.kitty == "none":
        base = np.asarray(api.dd_strains(deals, int(leader), mode, threads=threads), dtype=np.int8)
        if len(keys) == 5:
            return base
        rev, five, three = play_view(deals, rules, True)
        kw = {"five": five, "three": three} if mode == "points" else {}
        low = np.asarray(api.dd_strains(rev, int(leader), mode, threads=threads, **kw))[:, NO_TRUMP]
        return np.concatenate([base, low[:, None].astype(np.int8)], axis=1)
    kit = np.broadcast_to(np.asarray(kitties, dtype=np.uint64), (n,))
    out = np.empty((n, len(keys)), dtype=np.int8)
    for i in range(n):
        for s in range(len(keys)):
            out[i, s] = kitty_dd_value(deals[i], kit[i], int(leader), s, rules, mode)
    return out


def side_tables(deals, rules: Rules, kitties=None, *, count_five: bool = True, count_three: bool = True,
                threads=None) -> tuple[np.ndarray, np.ndarray]:
    """Both sides' double-dummy points under ``rules``, every leader and the
    five strains S H D C N: ``(leader's side, other side)``, two ``(n, 4, 5)``
    int64 arrays (axis 1 the leader = declarer N E S W, axis 2 the strain;
    high no trump only: no low NT column).

    The leader's side's points are :func:`dd_table`'s; the other
    side's are what is left: every trick and the special cards that count,
    minus a special card discarded with the kitty to nobody (K1), which is
    why a caller may not take ``rules.raw_total`` minus the first.  Cover 3
    (``rules.cover3``) is scored as in :func:`contract_values`: a second
    solve in tricks gives each side's tricks and :func:`cover3_points`
    scores both sides (a run's results hold the standard count; these are
    the points the sides score).  ``count_five`` / ``count_three``
    False: that card counts 0 (the solver's ``five=0`` / ``three=0``), for
    both sides.  ``kitties``: the kitty of each deal (needed with a kitty rule;
    :func:`kaiser_sim.deal.kitty_of` of the deals when None).
    """
    deals = np.asarray(deals, dtype=np.uint64)
    n = deals.shape[0]
    five_pts, three_pts = (5 if count_five else 0), (-3 if count_three else 0)
    if rules.kitty == "none":
        f = FIVE_HEARTS_BIT if count_five else np.uint64(0)
        t = THREE_SPADES_BIT if count_three else np.uint64(0)
        lead = (np.asarray(api.dd_table(deals, mode="points", threads=threads, five=f, three=t), dtype=np.int64)
                if n else np.zeros((0, 4, 5), dtype=np.int64))
        other = rules.tricks + five_pts + three_pts - lead
        if rules.cover3 and n:
            trk = np.asarray(api.dd_table(deals, mode="tricks", threads=threads), dtype=np.int64)
            lead, other = cover3_points(lead, trk), cover3_points(other, rules.tricks - trk)
        return lead, other
    kit = (kitty_of(deals, deck34=rules.deck34) if kitties is None
           else np.broadcast_to(np.asarray(kitties, dtype=np.uint64), (n,)))
    to_declarer = rules.kitty_discard_points == "declarer"
    five, three = int(FIVE_HEARTS_BIT), int(THREE_SPADES_BIT)
    lead = np.empty((n, 4, 5), dtype=np.int64)
    other = np.empty((n, 4, 5), dtype=np.int64)
    for i in range(n):
        for seat in range(4):
            for s in range(5):
                v, d = kitty_dd_value(deals[i], kit[i], seat, s, rules, "points", return_discard=True,
                                      count_five=count_five, count_three=count_three)
                gone = (five_pts if d & five else 0) + (three_pts if d & three else 0)  # discarded specials
                total = rules.tricks + five_pts + three_pts - (0 if to_declarer else gone)
                lead[i, seat, s] = v
                other[i, seat, s] = total - v
                if rules.cover3:
                    trk = kitty_dd_value(deals[i], kit[i], seat, s, rules, "tricks")
                    lead[i, seat, s] = cover3_points(v, trk)
                    other[i, seat, s] = cover3_points(total - v, rules.tricks - trk)
    return lead, other


def strain_keys(rules: Rules) -> tuple[str, ...]:
    """Column keys of :func:`dd_table`: S H D C N, plus L (low NT)
    when the rules play low no trump."""
    return ALL_STRAIN_KEYS if rules.low_nt != "off" else ALL_STRAIN_KEYS[:5]


def plain(rules: Rules) -> bool:
    """Do the rules leave the deal and the play alone (no kitty, no low no
    trump)?  Then every value is the standard kernels' (cover 3 changes only
    the score, :func:`cover3_points`)."""
    return rules.kitty == "none" and rules.low_nt == "off"


def _standard_only(rules: Rules, what: str) -> None:
    if rules.kitty != "none":
        raise ValueError(f"rules kitty={rules.kitty}: {what} is the standard deal's (use contract_values, "
                         "strain_values or side_tables)")


def dd_table(deals, rules: Rules, mode: str = "points", *, kitties=None, threads: int | None = None,
             return_nodes: bool = False, return_stats: bool = False, five=None, three=None):
    """``(n, 4, k)`` int8 double-dummy table under ``rules``: axis 1 the
    declarer (= leader) N E S W, axis 2 the strains of :func:`strain_keys`
    (k = 5, or 6 with low NT as column :data:`LOW_NT`).

    Under rules that leave the play alone this is the solver's table
    (:func:`kaiser_sim.dd.api.dd_table`, parallel; ``mode="both"``, the
    node counts, the counters and ``five`` / ``three`` as there).  With low
    NT a second call on rank-reversed deals gives the low NT column.  With a
    kitty every cell is a :func:`kitty_dd_value` (slow: a Python loop) on
    the ``kitties`` given (one a deal: :func:`kaiser_sim.deal.kitty_of`).
    """
    deals = np.asarray(deals, dtype=np.uint64)
    if plain(rules):
        return api.dd_table(deals, mode=mode, threads=threads, return_nodes=return_nodes,
                            return_stats=return_stats, five=five, three=three)
    if return_nodes or return_stats or five is not None or three is not None or mode == "both":
        raise ValueError(f"rules {rules.label}: the table is solved per strain (no 'both', node counts, "
                         "counters or special-card bits)")
    keys = strain_keys(rules)
    n = deals.shape[0]
    if rules.kitty == "none":
        base = api.dd_table(deals, mode=mode, threads=threads)
        rev, f, t = play_view(deals, rules, True)
        low = api.dd_table(rev, mode=mode, five=f, three=t, threads=threads)[:, :, NO_TRUMP]
        return np.concatenate([base, low[:, :, None]], axis=2)
    if kitties is None:
        raise ValueError(f"rules kitty={rules.kitty}: give the kitties")
    kit = np.broadcast_to(np.asarray(kitties, dtype=np.uint64), (n,))
    out = np.empty((n, 4, len(keys)), dtype=np.int8)
    for i in range(n):
        for seat in Seat:
            for s in range(len(keys)):
                out[i, seat, s] = kitty_dd_value(deals[i], kit[i], int(seat), s, rules, mode)
    return out


def dd_strains(deals, leader, rules: Rules, mode: str = "points", *, kitties=None, threads: int | None = None,
               five=None, three=None) -> np.ndarray:
    """``(n, k)`` int8: every strain of :func:`strain_keys` with ``leader``
    on lead, for the leader's side (a quarter of :func:`dd_table`'s work).
    Rules that leave the play alone: :func:`kaiser_sim.dd.api.dd_strains`
    (``five`` / ``three`` as there); otherwise :func:`strain_values`."""
    if plain(rules):
        return api.dd_strains(deals, leader, mode, threads=threads, five=five, three=three)
    if five is not None or three is not None:
        raise ValueError(f"rules {rules.label}: no special-card bits (the rules place the cards)")
    deals = np.asarray(deals, dtype=np.uint64)
    if kitties is None and rules.kitty != "none":
        raise ValueError(f"rules kitty={rules.kitty}: give the kitties")
    return strain_values(deals, kitties, int(leader), rules, mode, threads=threads)


def dd_contracts(deals, leaders, strains, rules: Rules, mode: str = "points", *, threads: int | None = None,
                 five=None, three=None) -> np.ndarray:
    """``(n,)`` int8 exact values of single contracts on the hands as they
    lie (no kitty is taken up here: with a kitty give the hands after the
    discard, or use :func:`contract_values` for the best discard): row ``i``
    is ``deals[i]`` in ``strains[i]`` (0..4, :data:`LOW_NT` under rules that
    play it, solved on reversed ranks) with ``leaders[i]`` on lead.
    ``five`` / ``three``: the special cards' bits as the solver sees them
    (:func:`kaiser_sim.dd.api.dd_contracts`), for strains 0..4 only."""
    deals = np.asarray(deals, dtype=np.uint64)
    st = np.asarray(strains, dtype=np.int64).reshape(-1)
    if not (st == LOW_NT).any():
        return api.dd_contracts(deals, leaders, st, mode, threads=threads, five=five, three=three)
    if rules.low_nt == "off":
        raise ValueError("strain 5 (low NT) only under rules that play it")
    if five is not None or three is not None:
        raise ValueError("no special-card bits with low NT (the relabelling places them)")
    lead = np.broadcast_to(np.asarray(leaders, dtype=np.int64).reshape(-1), st.shape)
    out = np.zeros(st.shape[0], dtype=np.int8)
    for low in (False, True):
        sel = np.flatnonzero((st == LOW_NT) == low)
        if sel.size:
            h, f, t = play_view(deals[sel], rules, low)
            kw = {"five": f, "three": t} if mode == "points" else {}
            out[sel] = api.dd_contracts(h, lead[sel], np.where(low, NO_TRUMP, st[sel]), mode, threads=threads, **kw)
    return out


def without_specials(deals, leaders, strains, values, *, threads: int | None = None, five=None,
                     three=None) -> tuple[np.ndarray, np.ndarray]:
    """``(no5, no3)``, each ``(n,)`` int8: the :func:`dd_contracts` rows
    (strains 0..4, the hands as they lie) valued with the 5H counted as an
    ordinary card, and with the 3S, given ``values``: the same rows' points
    with both (as :func:`dd_contracts` gives them; not a kitty's best
    discard nor a cover-3 score, which are other games).  Each search is
    bounded by the row's value, about half the nodes of two
    :func:`dd_contracts` calls (:func:`kaiser_sim.dd.api.without_specials`)."""
    return api.without_specials(deals, leaders, strains, values, threads=threads, five=five, three=three)


def solve(hands, leader, strain, rules: Rules, mode: str = "points", *, kitty=None, five=None, three=None) -> int:
    """Exact value for the leader's side of one position under ``rules``
    (:func:`dd_value`; ``five`` / ``three`` as :func:`kaiser_sim.dd.api.solve`
    under rules that leave the play alone, strains 0..4)."""
    if five is not None or three is not None:
        _standard_only(rules, "a solve with special-card bits")
        return api.solve(hands, leader, strain, mode, five=five, three=three)
    if rules.kitty == "none" and int(strain) != LOW_NT:
        return api.solve(hands, leader, strain, mode)
    return dd_value(hands, leader, strain, rules, mode, kitty=kitty)


def can_reach(hands, leader, strain, target: int, rules: Rules, mode: str = "points", *, five=None,
              three=None) -> bool:
    """Can the leader's side make at least ``target`` (one null-window search,
    :func:`kaiser_sim.dd.api.can_reach`)?  Rules without a kitty; strain
    :data:`LOW_NT` on reversed ranks."""
    _standard_only(rules, "can_reach")
    trump, low = _split_strain(strain)
    if low:
        h, f, t = play_view(hands, rules, True)
        return api.can_reach(h, leader, trump, target, mode, five=f, three=t)
    return api.can_reach(hands, leader, trump, target, mode, five=five, three=three)


def strain_bounds(deals, leader, rules: Rules, values=None):
    """Sound bounds on the five strains' values with ``leader`` on lead, the
    standard count (:func:`kaiser_sim.dd.play_bounds.strain_bounds`; with
    the deals' ``values`` a declarer whose sure cards are every trick, and
    whose value they are, claims them): for rules that leave the deal, the
    play and the count alone (no kitty, no low no trump, no cover 3)."""
    if not plain(rules) or rules.cover3:
        raise ValueError(f"rules {rules.label}: the play bounds know neither the kitty, low NT nor cover 3")
    from ..dd.play_bounds import strain_bounds as bounds

    return bounds(deals, int(leader), values=values)


def solver_kernels() -> tuple:
    """The solver's compiled kernels a values or play call runs (the table
    and contract kernels, the play bounds, the PIMC player), for a caller
    that asks whether numba's cache holds them."""
    from ..dd import pimc, play_bounds, search

    return (search.dd_table_kernel, search.dd_contracts_kernel, play_bounds._bounds_kernel, pimc._play_batch)


def format_kitty(kitty) -> str:
    """A kitty in hand notation (``-.5.-.A7``)."""
    return format_hand(kitty)


__all__ = [
    "LOW_NT",
    "ALL_STRAIN_KEYS",
    "cover3_points",
    "contract_values",
    "without_specials",
    "strain_values",
    "side_tables",
    "play_view",
    "discard_classes",
    "kitty_dd_value",
    "kitty_dd_values",
    "dd_value",
    "dd_table",
    "dd_strains",
    "dd_contracts",
    "solve",
    "can_reach",
    "plain",
    "strain_keys",
    "strain_bounds",
    "solver_kernels",
    "format_kitty",
]
