"""Tunables in one place (sizes, chunking, thread counts)."""

import os

#: log2 of the number of entries in each transposition table (one per block of
#: deals being solved, so at most one per thread at a time).  2**16 entries x
#: 56 bytes = 3.5 MiB (fixed: memory is bounded).  At least 5 (16-entry buckets).
TT_LOG2_ENTRIES = int(os.environ.get("KAISER_SIM_TT_LOG2", "16"))

#: ``dd_table`` splits its deals into up to this many blocks per thread, handed
#: out dynamically so that no thread idles while another finishes
DD_BLOCKS_PER_THREAD = 8

#: ...but a block holds at least this many deals (its transposition table
#: carries over from deal to deal and must have time to pay for itself)
DD_MIN_BLOCK = 16

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

#: deals per chunk (= per Parquet part) of ``kaiser-sim simulate``: a part is the
#: unit of work, of progress and of what a killed run loses
SIMULATE_CHUNK_SIZE = 1000

#: chunks handed out ahead per worker (bounds memory: results waiting to be
#: written are at most ``workers * SIMULATE_CHUNKS_AHEAD`` chunks)
SIMULATE_CHUNKS_AHEAD = 2

#: seconds between checks of running chunks (lets the progress bar refresh)
SIMULATE_POLL_SECONDS = 0.25

#: compression of the Parquet parts
PARQUET_COMPRESSION = "zstd"

#: progress on a terminal: redraw the bar at most this often (seconds)
PROGRESS_BAR_SECONDS = 0.5

#: progress not on a terminal: one plain line this often (seconds)
PROGRESS_LINE_SECONDS = 30.0

#: seconds to wait for a Dask scheduler given by ``--scheduler ADDRESS``
DASK_CONNECT_TIMEOUT = "20s"

#: random deals of the other hands that ``kaiser-sim hand`` solves by default
HAND_ADVISOR_DEALS = 2000

#: matches played by ``kaiser-sim match`` when ``--matches`` is not given
MATCH_DEFAULT_COUNT = 1000

#: the match engine stops a match still unfinished after this many hands
#: (it is reported as unfinished; no match of the tests comes near it)
MATCH_MAX_HANDS = 1000

#: layouts a PIMC player samples at each turn (``kaiser-sim play``, the dd-bias study)
PIMC_SAMPLES = 20
