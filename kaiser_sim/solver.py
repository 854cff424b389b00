"""Exact double-dummy solver for Kaiser (points and tricks modes).

Public API (stable):

- ``solve(hands, leader, strain, mode="points") -> int``: exact value for the
  leader's side from a trick boundary (equal hand lengths 1..8).
- ``can_reach(hands, leader, strain, target, mode="points") -> bool``: can the
  leader's side get at least ``target``?  Cheaper than ``solve``.
- ``dd_table(deals, mode="points") -> (n, 4, 5) int8``: leader N E S W x strain
  S H D C N, value for the leader's side.

``hands`` is a (4,) uint64 array indexed by seat (see ``cards``).  Points mode:
tricks + 5 for the trick holding the 5H - 3 for the trick holding the 3S, only
counting special cards still in play.  Tricks mode: plain trick count.
"""

# IMPLEMENTATION IN PROGRESS — signatures above are fixed.
