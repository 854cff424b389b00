"""Runs and results: the Monte Carlo runs, the datasets they write, and the files every command writes.

- :mod:`~kaiser_sim.runs.simulate`: a run end to end (``kaiser-sim
  simulate``), the layer's entry point :func:`~kaiser_sim.runs.simulate.simulate`;
  its jobs: :mod:`~kaiser_sim.runs.spec` (the run spec, checked, and the
  contracts of play runs), :mod:`~kaiser_sim.runs.chunks` (one chunk dealt
  and solved: the workers' unit of work), :mod:`~kaiser_sim.runs.executors`
  (this process, local worker processes, Dask) and
  :mod:`~kaiser_sim.runs.locking` (the output directory's lock, stopping on
  signals);
- :mod:`~kaiser_sim.runs.results`: the Parquet results dataset (its format,
  ``load_results``, checks of an output directory);
- :mod:`~kaiser_sim.runs.services`: a results dataset checked, loaded or
  simulated for the studies and the report;
- :mod:`~kaiser_sim.runs.progress`: progress output of long runs;
- :mod:`~kaiser_sim.runs.deal_io`: deals read from and written to text;
- :mod:`~kaiser_sim.runs.output_dir`: the output directories of every
  command that writes files, checked before the work and never left half
  written;
- :mod:`~kaiser_sim.runs.figures`: matplotlib figures saved byte for byte
  the same (the studies' charts, the hand advisor's plot).

Nothing is imported here: ``import kaiser_sim.runs`` loads neither numpy
nor pyarrow.
"""
