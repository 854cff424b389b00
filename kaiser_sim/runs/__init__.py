"""Runs and results: the Monte Carlo runs and the datasets they write.

- :mod:`~kaiser_sim.runs.results`: the Parquet results dataset (its format,
  ``load_results``, checks of an output directory);
- :mod:`~kaiser_sim.runs.progress`: progress output of long runs;
- :mod:`~kaiser_sim.runs.deal_io`: deals read from and written to text.

Nothing is imported here: ``import kaiser_sim.runs`` loads neither numpy
nor pyarrow.
"""
