"""Tunables in one place (sizes, chunking, thread counts)."""

import os

#: log2 of the number of entries in each thread's transposition table.
#: 2**16 entries x 24 bytes = 1.5 MiB per thread (fixed: memory is bounded).
TT_LOG2_ENTRIES = int(os.environ.get("KAISER_SIM_TT_LOG2", "16"))

#: deals solved per parallel batch in ``dd_table`` (bounds peak memory of the
#: per-batch scratch; results are written straight into the output array).
DD_TABLE_BATCH = 4096

#: default number of deals printed by ``kaiser-sim deal``
DEFAULT_DEAL_COUNT = 1

#: seed of ``kaiser-sim deal`` when ``--seed`` is not given: fixed, so the same
#: command always prints the same deals
DEFAULT_SEED = 0

#: deals generated and written per chunk by ``kaiser-sim deal`` (bounds memory)
DEAL_PRINT_CHUNK = 10_000

#: ``kaiser-sim solve --input`` shows a progress bar (on stderr, and only when
#: stderr is a terminal) for more deals than this
PROGRESS_MIN_DEALS = 1000
