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

#: seed of ``kaiser-sim deal``, ``solve``, ``simulate``, ``hand``, ``match`` and
#: ``play`` when ``--seed`` is not given: fixed, so the same command always gives
#: the same deals
DEFAULT_SEED = 0

#: seed of the studies and of ``kaiser-sim report`` when neither ``--seed`` nor a
#: study definition gives one (the published runs use seed 1, so that seed 0's
#: deals, the default elsewhere, stay independent of them)
STUDY_SEED = 1

#: deals generated and written per chunk by ``kaiser-sim deal`` (bounds memory)
DEAL_PRINT_CHUNK = 10_000

#: ``kaiser-sim solve --input`` shows a progress bar (on stderr, and only when
#: stderr is a terminal) for more deals than this
PROGRESS_MIN_DEALS = 1000

#: deals per chunk (= per Parquet part) of ``kaiser-sim simulate``: a part is the
#: unit of work, of progress and of what a killed run loses
SIMULATE_CHUNK_SIZE = 1000
#: a run not given ``--chunk-size`` makes at least this many chunks per worker
#: (smaller chunks, down to ``SIMULATE_MIN_AUTO_CHUNK_SIZE`` deals) so that its
#: progress moves within the first seconds: a 4,000-deal run on 2 cores gets
#: parts of 250 (about 2 s each) instead of 4 parts of 1,000
SIMULATE_CHUNKS_PER_WORKER = 8
SIMULATE_MIN_AUTO_CHUNK_SIZE = 100

#: chunks handed out ahead per worker (bounds memory: results waiting to be
#: written are at most ``workers * SIMULATE_CHUNKS_AHEAD`` chunks)
SIMULATE_CHUNKS_AHEAD = 2

#: the scheduler loop of ``kaiser-sim simulate`` wakes when a chunk completes, and
#: at least this often (seconds) in between, so that the progress bar refreshes
SIMULATE_TICK_SECONDS = 0.25

#: compression of the Parquet parts
PARQUET_COMPRESSION = "zstd"

#: progress on a terminal: redraw the bar at most this often (seconds)
PROGRESS_BAR_SECONDS = 0.5

#: progress not on a terminal: one plain line this often (seconds)
PROGRESS_LINE_SECONDS = 30.0
#: ... and the first one this soon, so that a log shows the run moving
PROGRESS_FIRST_LINE_SECONDS = 5.0

#: seconds to wait for a Dask scheduler given by ``--scheduler ADDRESS``
DASK_CONNECT_TIMEOUT = "20s"

#: random deals of the other hands that ``kaiser-sim hand`` solves by default
HAND_ADVISOR_DEALS = 2000
#: ... and with a kitty, where each deal is a search over the declarer's discards
HAND_ADVISOR_KITTY_DEALS = 500
#: the advisor's table play: deals of its own that it plays out with PIMC players (in the
#: chosen trump and in no trump) to correct the table-play model for the hand in front of
#: it (``kaiser_sim.strategy.table_play.HandTablePlay``; ``kaiser-sim hand --play-check``; 0: the
#: model alone), and the layouts those players sample a turn (the model's K)
TABLE_PLAY_CHECK_DEALS = 48

#: matches played by ``kaiser-sim match`` when ``--matches`` is not given
MATCH_DEFAULT_COUNT = 1000

#: the match engine stops a match still unfinished after this many hands
#: (it is reported as unfinished; no match of the tests comes near it)
MATCH_MAX_HANDS = 1000

#: layouts a PIMC player samples at each turn (``kaiser-sim play``, the dd-bias study,
#: ``simulate --play``, the table-play model)
PIMC_SAMPLES = 20
#: layouts a turn of the advisor's own PIMC play (``TABLE_PLAY_CHECK_DEALS``)
TABLE_PLAY_CHECK_SAMPLES = PIMC_SAMPLES
#: played deals of the advisor's own play that share one opening lead (the declarer holds the
#: same hand in each, so it knows the same at that turn; ``kaiser_sim.dd.pimc.play_views``'s
#: ``lead_group``).  Measured (issue 46; hand AQ98.K5.A.T, 48 deals, S and NT): 4 cut the
#: check's nodes 27% (39.4M -> 28.8M) with no rise in the NT mean's spread over play seeds
#: (0.32 -> 0.30 points, 34 seeds); 48 (one lead a strain) cut 34% but that spread rose to
#: 0.43 (one draw of the lead moved the mean by 1.2; docs/solver.md §6).  1: every deal its own
TABLE_PLAY_CHECK_LEAD_GROUP = 4
#: layouts a PIMC declarer samples to choose its kitty discard (at most the play's K;
#: every candidate discard is solved on each: fewer than a turn's K keeps it affordable)
PIMC_DISCARD_SAMPLES = 10
#: the most layouts a turn ``simulate --play`` accepts (the cost grows with K)
PIMC_MAX_SAMPLES = 1000
#: deals per part of a ``simulate --play`` run when ``--chunk-size`` is not given: playing
#: costs about 10x solving, so smaller parts keep the progress moving
PLAY_CHUNK_SIZE = 100

#: upper limits of ``kaiser-sim simulate`` (and ``deal --count``), refused up
#: front: a run of more deals than this (about 40 days on two cores), parts
#: of more deals than this (a chunk's rows, ~100 bytes a deal, are held in
#: memory and copied while being written, a few chunks per worker), more
#: parts than this (a list of the chunks is kept, and a directory of a
#: million files is already unwieldy) and more local worker processes a
#: core than this (~260 MB each)
SIMULATE_MAX_DEALS = 10**9
SIMULATE_MAX_CHUNK_SIZE = 100_000
SIMULATE_MAX_CHUNKS = 1_000_000
SIMULATE_MAX_WORKERS_PER_CORE = 4

#: seeds are integers from 0 to this (the deal generator's key is 64 bits)
MAX_SEED = 2**64 - 1

#: run metadata (JSON in the Parquet schema metadata) larger than this is refused
RESULTS_MAX_METADATA_BYTES = 1 << 20

#: a worker process polls its parent this often (seconds) and ends when the
#: parent is gone (besides the kernel's parent-death signal on Linux)
WORKER_WATCHDOG_SECONDS = 1.0

# --- limits on what the commands accept (larger values are refused, exit 2) -----

#: the largest ``target`` (and ``target_after_nt``, ``bid_out``, ``failed_bid_pot``,
#: and ``-lose_at``) a rules value may have.  Tables play to 32, 52 or 62; the
#: score-aware bidding policy builds a table over every score pair up to the
#: target, about 0.8 GB and 5 s at 100.
RULES_MAX_TARGET = 100

#: the largest rules ``.json`` file and study definition ``.toml`` file read
#: (bytes; the real ones are under 2 KB)
MAX_DEFINITION_BYTES = 1_000_000

#: the most deals ``kaiser-sim hand --deals`` solves (about 2 hours on 2 cores)
HAND_MAX_DEALS = 1_000_000
#: the fewest: half the deals choose the trump, the other half measure it
#: (the advisor's own check, ``kaiser_sim.strategy.advisor``, refuses fewer)
HAND_MIN_DEALS = 2

#: the fewest deals the printed report takes (``kaiser-sim report --deals``)
REPORT_MIN_DEALS = 100

#: the most matches ``kaiser-sim match --matches`` plays
MATCH_MAX_COUNT = 1_000_000

#: the most deals ``kaiser-sim study`` and ``kaiser-sim report`` simulate
#: (the studies hold every deal of the results in memory)
STUDY_MAX_DEALS = 10_000_000

#: deals consistent with the calls heard (``kaiser-sim hand --auction``, :mod:`kaiser_sim.strategy.conditioned`):
#: the default bidding model of the other players: ``population``, the self-play population
#: (kaiser_sim.strategy.population: a probability for every legal call, so any auction heard has
#: deals; ``ev``, the plainest bidder, opens 96% of hands and stays selectable)
AUCTION_BIDDERS = "population"
#: the bidding policies' names, for ``--help`` without importing them (``kaiser_sim.strategy.policies.POLICIES``
#: has the same names in the same order; a test holds them equal)
POLICY_NAMES = ("ev", "cautious", "aggressive", "score-aware", "rank-squared", "trump-heuristic", "listening",
                "population")
#: candidates tried at most before giving up (about 25 s at the rejection's speed on 2 cores);
#: enough for 2,000 deals of calls that 1 deal in 1,000 is consistent with
AUCTION_MAX_CANDIDATES = 2_000_000
#: the most ``--max-candidates`` takes (memory: a few bytes a candidate)
AUCTION_MAX_CANDIDATES_LIMIT = 100_000_000
#: fewest kept deals to go on with when the candidates run out before the deals asked for
AUCTION_MIN_DEALS = 200
#: candidates dealt and asked at once (memory and speed, not results: the kept deals do not depend on it)
AUCTION_BLOCK = 65_536
#: how the deals are conditioned on the calls heard (:mod:`kaiser_sim.strategy.conditioned`): ``weights``
#: (every candidate weighted by the model's probability of the calls; every legal auction gets an
#: answer) or ``reject`` (only the candidates on which the model makes every call)
AUCTION_CONDITIONING = "weights"
#: under ``weights``, candidates are drawn until their effective sample size reaches this fraction
#: of the deals asked for (about the information of as many deals dealt by rejection)
AUCTION_ESS_FRACTION = 1.0
