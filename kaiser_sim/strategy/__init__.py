"""Hands and models: what a player can expect from a hand, and how it bids.

- :mod:`~kaiser_sim.strategy.measure`: table play or double dummy under
  the rules, and why (:func:`~kaiser_sim.strategy.measure.measure_for`),
  read by every caller below and by the studies;
- :mod:`~kaiser_sim.strategy.capabilities`: which rule variants each
  command and feature supports, and why not otherwise (the one table every
  such check reads);
- :mod:`~kaiser_sim.strategy.table_play`: the table-play model (double-dummy
  points to points at a real table): loading the shipped models, its
  replicates and standard error, one hand's bounded and played view
  (:class:`~kaiser_sim.strategy.table_play.HandTablePlay`);
- :mod:`~kaiser_sim.strategy.table_play_build`: the table-play model fitted
  from played deals and checked on held-out ones (``kaiser-sim
  table-play-model``);
- :mod:`~kaiser_sim.strategy.make_model`: the bidding policies'
  make-probability model, from one hand's own cards (``kaiser-sim make-model``);
- :mod:`~kaiser_sim.strategy.policies`: the bidding policies;
- :mod:`~kaiser_sim.strategy.listening`: the listening policy's table
  (``kaiser-sim listening-table``);
- :mod:`~kaiser_sim.strategy.conditioned`: deals conditioned on the calls
  heard;
- :mod:`~kaiser_sim.strategy.call_worth`: each legal call's worth, the
  auction played out;
- :mod:`~kaiser_sim.strategy.match`: whole matches between two policies
  (``kaiser-sim match``);
- :mod:`~kaiser_sim.strategy.advisor`: the hand advisor (``kaiser-sim hand``).

Nothing is imported here: ``import kaiser_sim.strategy`` loads neither numpy
nor numba.
"""
