"""The results dataset of ``kaiser-sim simulate``: schema, metadata, parts, loading.

A results dataset is a directory of Parquet files, one part per chunk of
deals, readable by any Parquet tool (pyarrow, pandas, Dask, DuckDB)::

    PATH/_common_metadata         schema + run metadata, written before any part
    PATH/part-000000.parquet      chunk 0: deals [0, C)
    PATH/part-000001.parquet      chunk 1: deals [C, 2C)   ...

Chunk ``i`` holds deals ``i*C .. min((i+1)*C, N) - 1``, one row per deal, in
deal order.  A part is written to a hidden temporary name (``.part-...tmp``,
ignored by Parquet readers) and renamed when complete, so a directory never
holds half a part.  A hidden lock file (``.kaiser_sim.lock``) keeps two runs
from writing the same directory.

Columns
-------
``deal``             int64   deal index in the run (deal ``i`` depends only on the seed, the
                             rules' deck and hand size, the fixed cards and ``i``)
``dealer``           int8    dealer seat, ``deal % 4`` (0 N, 1 E, 2 S, 3 W): the deal rotates
                             clockwise as at the table
``hand_N`` .. ``hand_W``  uint64  the four hands as bitboards (layout in :mod:`kaiser_sim.cards`;
                             :func:`deal_texts` turns them into ``N:...`` notation)
``pts_<L>_<S>``      int8    double-dummy raw points of leader ``L``'s side (``--mode points``
                             or ``both``): ``L`` in N E S W, ``S`` in S H D C NT (NT = no trump),
                             e.g. ``pts_E_NT`` = East leads (declares) in no trump.  -2..12
``trk_<L>_<S>``      int8    the same in plain tricks (``--mode tricks`` or ``both``), 0..8
``play_declarer``    int8    (``--play K`` runs only) the seat that declares the deal's played
                             contract (0..3), ``play_strain`` its strain (0..3 trump S H D C, 4 NT),
``play_dd``          int8    the contract's double-dummy points (the declaring side's), and
``play_pts``         int8    the declaring side's points when the deal is played out by four
                             PIMC players (:mod:`kaiser_sim.game.play`, K layouts a turn); the
                             contract design is in the metadata (``play``)

The leader is the declarer (in Kaiser the declarer leads).  The values are
those of ``kaiser-sim solve`` under the run's rules
(:func:`kaiser_sim.game.dd_table`): with a kitty rule the
hands are as dealt (7 cards each with the 4-card kitty, from the 34-card
deck with the 2-card kitty; the kitty is the rest of the deck,
:func:`kaiser_sim.deal.kitty_of`) and each value is for the declarer
taking the kitty and discarding best; rules with low no trump add a sixth
strain ``LNT`` (4 more columns a mode, e.g. ``pts_N_LNT``).

Metadata
--------
Under the key ``kaiser_sim`` of the Parquet schema metadata (in
``_common_metadata`` and in every part), a JSON object: ``seed``, ``deals``,
``chunk_size``, ``chunks``, ``mode``, ``strains``, ``rules`` (:meth:`Rules.to_dict`),
``fixed`` (cards given to seats in every deal, hand notation), ``hand_size``,
``deck``, ``dealer``, ``columns`` and ``version`` (the package version that
started the run), and for a ``--play`` run ``play``: ``{"samples": K,
"players": "pimc", "contracts": ...}``.  Each part also carries ``kaiser_sim.part``:
``{"chunk": i, "first": i*C, "count": n}``.  Under rules with the
weak-hand redeal the run metadata has ``redeal``: ``{"rule": weak_redeal,
"method": ...}`` and each part whose deals took redeals has ``redeals`` (how
many) in its ``kaiser_sim.part``; :func:`redeal_count` sums them.  Runs made
before the redeal was applied have no ``redeal`` and were dealt without it.
:func:`read_metadata` returns the run object, checked field by field
(:func:`validate_metadata`): metadata edited or damaged is a
:class:`ResultsError` naming the field.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import KaiserSimError
from .. import config
from ..cards import STRAINS, Seat, Strain, format_deal

if TYPE_CHECKING:
    import pandas as pd

#: seat letters (leaders, hand columns) and strain suffixes, in array order
SEAT_KEYS = tuple(s.name for s in Seat)  # N E S W
STRAIN_SUFFIXES = tuple(s.label for s in STRAINS)  # S H D C NT
#: the sixth strain, low (reversed-rank) no trump, under rules that play it
LOW_NT_SUFFIX = Strain.L.label  # LNT
#: column prefix of each solver mode
MODE_PREFIX = {"points": "pts", "tricks": "trk"}
#: ``--mode`` values and the solver modes each one stores
RUN_MODES = {"points": ("points",), "tricks": ("tricks",), "both": ("points", "tricks")}

HAND_COLUMNS = tuple(f"hand_{s}" for s in SEAT_KEYS)
FORMAT_NAME = "kaiser-sim results"
FORMAT_VERSION = 1
META_KEY = b"kaiser_sim"
PART_KEY = b"kaiser_sim.part"
COMMON_METADATA = "_common_metadata"
LOCK_FILE = ".kaiser_sim.lock"
DEALER_RULE = "deal % 4 (0=N, 1=E, 2=S, 3=W)"
_PART_RE = re.compile(r"^part-(\d+)\.parquet$")
_TEMP_RE = re.compile(r"^\.(part-\d+\.parquet|_common_metadata)\.tmp(-\d+)?$")


class ResultsError(KaiserSimError):
    """A path that is not a (complete, valid) results dataset; the message
    names the path or part and the problem."""


# --- columns --------------------------------------------------------------------------


def value_column(mode: str, leader, strain) -> str:
    """Column name of one table entry: ``value_column("points", "E", "N")`` is
    ``"pts_E_NT"``.  ``leader`` a Seat, 0..3 or a letter; ``strain`` a
    Strain, 0..5 or any spelling :meth:`Strain.parse` reads (``N``, ``NT``,
    ``L``, ``LNT``, ...); a ``ValueError`` names the choices otherwise."""
    seat = SEAT_KEYS[int(leader)] if not isinstance(leader, str) else Seat[leader.upper()].name
    suffix = (Strain.parse(strain) if isinstance(strain, str) else Strain(int(strain))).label
    return f"{MODE_PREFIX[mode]}_{seat}_{suffix}"


def value_columns(mode: str, strains=STRAIN_SUFFIXES) -> list[str]:
    """The columns of one solver mode, leader-major (the ``dd_table`` order):
    20, or 24 with low no trump in ``strains``."""
    return [f"{MODE_PREFIX[mode]}_{leader}_{strain}" for leader in SEAT_KEYS for strain in strains]


#: the columns of a ``--play`` run's played contract (module doc), after the value columns
PLAY_COLUMNS = ("play_declarer", "play_strain", "play_dd", "play_pts")


def columns_for(run_mode: str, strains=STRAIN_SUFFIXES, play: bool = False) -> list[str]:
    """Every column of a dataset written with ``--mode run_mode`` (and
    ``--play``), in order."""
    cols = ["deal", "dealer", *HAND_COLUMNS]
    for mode in RUN_MODES[run_mode]:
        cols += value_columns(mode, strains)
    return cols + (list(PLAY_COLUMNS) if play else [])


def schema_for(run_mode: str, strains=STRAIN_SUFFIXES, metadata: dict | None = None, play: bool = False) -> pa.Schema:
    """The Arrow schema of a dataset (with its run metadata, if given)."""
    fields = [pa.field("deal", pa.int64()), pa.field("dealer", pa.int8())]
    fields += [pa.field(c, pa.uint64()) for c in HAND_COLUMNS]
    for mode in RUN_MODES[run_mode]:
        fields += [pa.field(c, pa.int8()) for c in value_columns(mode, strains)]
    if play:
        fields += [pa.field(c, pa.int8()) for c in PLAY_COLUMNS]
    meta = None if metadata is None else {META_KEY: _dump(metadata)}
    return pa.schema(fields, metadata=meta)


def schema_of(meta: dict, with_metadata: bool = False) -> pa.Schema:
    """The schema of the run ``meta`` describes."""
    return schema_for(meta["mode"], tuple(meta.get("strains", STRAIN_SUFFIXES)), meta if with_metadata else None,
                      play=bool(meta.get("play")))


def chunk_table(metadata: dict, chunk: int, arrays: dict) -> pa.Table:
    """One part as an Arrow table.

    ``arrays`` (from :func:`kaiser_sim.runs.chunks.compute_chunk`): ``deal``
    (n,) int64, ``hands`` (n, 4) uint64 and one (n, 4, 5) int8 table per
    solver mode of the run.
    """
    deal = np.asarray(arrays["deal"], dtype=np.int64)
    cols = {"deal": deal, "dealer": (deal % 4).astype(np.int8)}
    hands = arrays["hands"]
    for seat, name in enumerate(HAND_COLUMNS):
        cols[name] = np.ascontiguousarray(hands[:, seat])
    strains = tuple(metadata.get("strains", STRAIN_SUFFIXES))
    for mode in RUN_MODES[metadata["mode"]]:
        flat = np.asarray(arrays[mode], dtype=np.int8).reshape(len(deal), 4 * len(strains))
        for k, name in enumerate(value_columns(mode, strains)):
            cols[name] = np.ascontiguousarray(flat[:, k])
    if metadata.get("play"):
        for name in PLAY_COLUMNS:
            cols[name] = np.asarray(arrays[name], dtype=np.int8)
    part = {"chunk": int(chunk), "first": int(deal[0]) if len(deal) else 0, "count": int(len(deal))}
    if metadata.get("redeal") and int(arrays.get("redeals", 0)):  # written only when some deal was redealt
        part["redeals"] = int(arrays.get("redeals", 0))
    schema = schema_of(metadata).with_metadata(
        {META_KEY: _dump(metadata), PART_KEY: _dump(part)}
    )
    return pa.Table.from_arrays([pa.array(cols[f.name], type=f.type) for f in schema], schema=schema)


# --- metadata ------------------------------------------------------------------------------


def _dump(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def _load_meta(schema_meta, key=META_KEY):
    """The JSON value stored under ``key`` (None if absent).  ValueError,
    naming the key, if it is too large, not UTF-8 or not JSON."""
    if not schema_meta or key not in schema_meta:
        return None
    raw, name = schema_meta[key], key.decode()
    if len(raw) > config.RESULTS_MAX_METADATA_BYTES:
        raise ValueError(f"its {name} metadata is {len(raw):,} bytes, more than any run writes "
                         f"(at most {config.RESULTS_MAX_METADATA_BYTES:,})")
    try:
        return json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    except UnicodeDecodeError:
        raise ValueError(f"its {name} metadata is not UTF-8 text") from None
    except RecursionError:
        raise ValueError(f"its {name} metadata is nested too deeply") from None
    except ValueError as e:  # JSONDecodeError, an integer of too many digits
        raise ValueError(f"its {name} metadata is not valid JSON ({e})") from None


def same_run(a: dict, b: dict) -> bool:
    """Do two run metadata describe the same rows?  (The package version that
    wrote them may differ: the rows do not depend on it.)"""
    strip = lambda m: {k: v for k, v in m.items() if k != "version"}  # noqa: E731
    return strip(a) == strip(b)


def _shown(value, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a message names a bad value, never prints a huge one)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value, limit: int) -> bool:
    """A short, printable string (it is printed, and may become part of a file name)."""
    return isinstance(value, str) and len(value) <= limit and value.isprintable()


def validate_metadata(meta, where: str = "run metadata") -> dict:
    """Check run metadata read from a file: every field the package reads
    (the module doc), its type, its range and its agreement with the other
    fields.  Returns ``meta`` unchanged; :class:`ResultsError` names
    ``where`` and the first bad field.

    Every reader goes through here (:func:`read_metadata`), so a dataset
    whose metadata was edited or damaged is refused with a message instead
    of crashing a command, exhausting memory (``chunks`` is bounded) or
    choosing where output goes (``seed`` is a plain integer, the rules
    label short and printable).
    """
    from ..rules import Rules, RulesError

    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise ResultsError(f"{where} is not kaiser-sim run metadata")
    version = meta.get("format_version")
    if not _is_int(version) or version != FORMAT_VERSION:
        raise ResultsError(f"{where}: results format {_shown(version)} is not supported "
                           f"(this version reads format {FORMAT_VERSION})")

    def field_(name, ok, what):
        if name not in meta:
            raise ResultsError(f"{where}: the run metadata has no '{name}' field")
        value = meta[name]
        if not ok(value):
            raise ResultsError(f"{where}: run metadata '{name}' must be {what} (got {_shown(value)})")
        return value

    def in_range(low, high):
        return lambda v: _is_int(v) and low <= v <= high

    field_("seed", in_range(0, config.MAX_SEED), f"an integer from 0 to {config.MAX_SEED}")
    deals = field_("deals", in_range(1, config.SIMULATE_MAX_DEALS),
                   f"an integer from 1 to {config.SIMULATE_MAX_DEALS:,}")
    size = field_("chunk_size", in_range(1, config.SIMULATE_MAX_CHUNK_SIZE),
                  f"an integer from 1 to {config.SIMULATE_MAX_CHUNK_SIZE:,}")
    chunks = -(-deals // size)
    if chunks > config.SIMULATE_MAX_CHUNKS:
        raise ResultsError(f"{where}: run metadata 'deals' {deals:,} in parts of {size:,} ('chunk_size') make "
                           f"{chunks:,} parts, more than {config.SIMULATE_MAX_CHUNKS:,}")
    field_("chunks", lambda v: _is_int(v) and v == chunks, f"{chunks} ({deals} deals in parts of {size})")
    mode = field_("mode", lambda v: isinstance(v, str) and v in RUN_MODES, "one of " + ", ".join(RUN_MODES))
    options = field_("rules", lambda v: isinstance(v, dict), "an object of rules options")
    label = options.get("label", "")
    if not _is_text(label, 200):
        raise ResultsError(f"{where}: run metadata 'rules' label must be at most 200 printable characters "
                           f"(got {_shown(label)})")
    try:
        rules = Rules.from_dict(options)
    except (RulesError, ValueError, TypeError, KeyError, AttributeError) as e:
        raise ResultsError(f"{where}: run metadata 'rules' cannot be used: {e}") from None
    strains = list(STRAIN_SUFFIXES) + ([LOW_NT_SUFFIX] if rules.low_nt != "off" else [])
    field_("strains", lambda v: v == strains, f"{strains} under its rules")
    field_("hand_size", lambda v: _is_int(v) and v == rules.hand_size, f"{rules.hand_size} under its rules")
    deck = 34 if rules.deck34 else 32
    field_("deck", lambda v: _is_int(v) and v == deck, f"{deck} under its rules")
    field_("dealer", lambda v: _is_text(v, 200), "a short text")
    field_("version", lambda v: _is_text(v, 100), "a version string")
    _check_fixed(meta.get("fixed", {}), rules, where)
    play = meta.get("play")
    if play:
        samples = play.get("samples") if isinstance(play, dict) else None
        limit = getattr(config, "PIMC_MAX_SAMPLES", 1000)
        if not _is_int(samples) or not 1 <= samples <= limit:
            raise ResultsError(f"{where}: run metadata 'play' must be an object whose 'samples' is an integer "
                               f"from 1 to {limit} (got {_shown(play)})")
        if "points" not in RUN_MODES[mode]:
            raise ResultsError(f"{where}: run metadata 'play' needs mode points or both (got {_shown(mode)})")
    redeal = meta.get("redeal")
    if redeal is not None:
        if rules.weak_redeal == "off":
            raise ResultsError(f"{where}: run metadata 'redeal' is given but its rules have weak_redeal=off")
        if not isinstance(redeal, dict) or redeal.get("rule") != rules.weak_redeal:
            raise ResultsError(f"{where}: run metadata 'redeal' must be an object whose 'rule' is its rules' "
                               f"weak_redeal {rules.weak_redeal!r} (got {_shown(redeal)})")
    columns = columns_for(mode, strains, play=bool(play))
    field_("columns", lambda v: v == columns, f"the {len(columns)} columns of mode {mode}")
    return meta


def _check_fixed(fixed, rules, where: str) -> None:
    """The ``fixed`` field: ``{seat: hand}``, each hand readable, in the deck,
    at most a hand's cards, no card given twice."""
    from ..cards import NotationError, parse_hand, popcount

    if not isinstance(fixed, dict):
        raise ResultsError(f"{where}: run metadata 'fixed' must be an object of seat: hand (got {_shown(fixed)})")
    seen = 0
    for seat, text in fixed.items():
        if seat not in SEAT_KEYS or not isinstance(text, str):
            raise ResultsError(f"{where}: run metadata 'fixed' must map seats N E S W to hands "
                               f"(got {_shown(seat)}: {_shown(text)})")
        try:
            mask = int(parse_hand(text, deck34=rules.deck34, who=f"{seat}'s fixed cards"))
        except NotationError as e:
            raise ResultsError(f"{where}: run metadata 'fixed': {e}") from None
        if popcount(mask) > rules.hand_size:
            raise ResultsError(f"{where}: run metadata 'fixed': {seat} is fixed {popcount(mask)} cards, "
                               f"a hand has {rules.hand_size}")
        if mask & seen:
            raise ResultsError(f"{where}: run metadata 'fixed': a card of {seat}={_shown(text)} is fixed twice")
        seen |= mask


def read_metadata(path) -> dict:
    """The run metadata of a results dataset (a dict; see the module doc)."""
    path = Path(path)
    common = path / COMMON_METADATA
    try:
        if not path.is_dir():
            raise ResultsError(f"{path} is not a results directory" + (" (it is a file)" if path.exists() else ""))
        if not common.is_file():
            raise ResultsError(f"{path} is not a kaiser-sim results directory: it has no {COMMON_METADATA}")
    except OSError as e:  # a name too long, a directory that cannot be searched
        raise ResultsError(f"{path} cannot be read: {e.strerror or e}") from None
    try:
        meta = _load_meta(pq.read_schema(common).metadata)
    except (OSError, pa.ArrowException, ValueError) as e:
        raise ResultsError(f"{common} cannot be read: {e}") from None
    return validate_metadata(meta, str(common))


def chunk_bounds(meta: dict, chunk: int) -> tuple[int, int]:
    """``(first deal, count)`` of chunk ``chunk``."""
    c, n = meta["chunk_size"], meta["deals"]
    first = chunk * c
    return first, max(0, min(c, n - first))


# --- files --------------------------------------------------------------------------------


def part_name(chunk: int) -> str:
    return f"part-{chunk:06d}.parquet"


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _atomic_write(final: Path, write) -> None:
    """Write through ``write(file_object)`` to a hidden temporary name, flush it
    to disk, then rename it to ``final``: readers (and a resumed run) see the
    whole file or nothing, even if the process is killed in between."""
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_common_metadata(path: Path, metadata: dict) -> None:
    """``_common_metadata``: the schema and the run metadata, no rows."""
    schema = schema_of(metadata, with_metadata=True)
    _atomic_write(path / COMMON_METADATA, lambda f: pq.write_metadata(schema, f))
    fsync_dir(path)


def write_part(path: Path, table: pa.Table) -> Path:
    """Write one part atomically; returns its path."""
    part = _load_meta(table.schema.metadata, PART_KEY)
    final = Path(path) / part_name(part["chunk"])
    _atomic_write(final, lambda f: pq.write_table(table, f, compression=config.PARQUET_COMPRESSION))
    return final


def is_dataset_file(name: str) -> bool:
    """Is ``name`` one of the files a results directory may hold?"""
    return (name in (COMMON_METADATA, LOCK_FILE) or _PART_RE.match(name) is not None
            or _TEMP_RE.match(name) is not None)


def is_part_file(name: str) -> bool:
    return _PART_RE.match(name) is not None


def is_temp_file(name: str) -> bool:
    return _TEMP_RE.match(name) is not None


def holds_dataset(path) -> bool:
    """Does the directory ``path`` hold a results dataset (its metadata or a
    part)?  False for a path that cannot be read."""
    try:
        return any(n == COMMON_METADATA or is_part_file(n) for n in os.listdir(path))
    except OSError:
        return False


def enclosing_dataset(path) -> Path | None:
    """The results dataset that ``path`` is or lies inside (the nearest of
    ``path`` and its parents holding one), or None.  Other commands' outputs
    must not go there: a run holding foreign files cannot be resumed."""
    p = Path(os.path.abspath(path))
    for d in (p, *p.parents):
        if holds_dataset(d):
            return d
    return None


def check_output(path, file: bool = False) -> None:
    """Raise :class:`OSError` (its ``strerror`` says why) unless the output
    ``path`` can be written -- a directory (:func:`kaiser_sim.runs.output_dir.probe`)
    or, with ``file``, a file (:func:`~kaiser_sim.runs.output_dir.probe_file`) --
    and does not lie in a results dataset: a run holding other files could
    no longer be resumed.  Leaves nothing behind."""
    from .output_dir import probe, probe_file

    if file:
        probe_file(path)
    else:
        probe(path)
    run = enclosing_dataset(Path(os.path.abspath(path)).parent if file else path)
    if run is not None:
        raise FileExistsError(17, f"{run} holds simulation results, which must stay resumable: write elsewhere",
                              str(path))


def part_files(path) -> dict[int, Path]:
    """``{chunk: file}`` of the parts in ``path`` (whatever their content)."""
    out = {}
    for entry in os.scandir(path):
        m = _PART_RE.match(entry.name)
        if m:
            out[int(m.group(1))] = Path(entry.path)
    return dict(sorted(out.items()))


def check_part(file: Path, meta: dict, chunk: int, deep: bool = True) -> str | None:
    """Why ``file`` is not a valid part ``chunk`` of the run ``meta`` (None if it is).

    Checks the footer, the run metadata, the chunk number, the row count and
    the schema; ``deep`` also reads the rows and checks the deal indices.
    """
    if chunk >= meta["chunks"]:
        return f"chunk {chunk} is outside this run ({meta['chunks']} chunks)"
    try:
        if not file.is_file():  # a directory, a FIFO (reading it would wait forever)
            return "is not a regular file"
        pf = pq.ParquetFile(file)
        schema = pf.schema_arrow
        run = _load_meta(schema.metadata)
        part = _load_meta(schema.metadata, PART_KEY)
        if run is None or part is None:
            return "not a kaiser-sim part (no kaiser_sim metadata)"
        if not isinstance(run, dict) or not isinstance(part, dict):
            return "not a kaiser-sim part (its kaiser_sim metadata is not a JSON object)"
        if not same_run(run, meta):
            diff = sorted(k for k in set(run) | set(meta) if k != "version" and run.get(k) != meta.get(k))
            text = ", ".join(diff)
            return "belongs to another run (differs in " + (text if len(text) <= 200 else text[:197] + "...") + ")"
        first, count = chunk_bounds(meta, chunk)
        expected = {"chunk": chunk, "first": first, "count": count}
        if meta.get("redeal") and "redeals" in part:
            redeals = part["redeals"]
            if not _is_int(redeals) or redeals < 1:
                return f"its metadata's number of redeals is not a positive integer (got {_shown(redeals)})"
            expected["redeals"] = redeals
        if part != expected:
            return (f"its metadata says chunk {_shown(part.get('chunk'))}, first deal {_shown(part.get('first'))}, "
                    f"{_shown(part.get('count'))} deals")
        if pf.metadata.num_rows != count:
            return f"has {pf.metadata.num_rows} rows, chunk {chunk} has {count} deals"
        if not schema.remove_metadata().equals(schema_of(meta)):
            return "its columns are not those of this run"
        if deep:  # every page decodes, and the rows are the chunk's deals
            deal = pf.read().column("deal").to_numpy()
            if not np.array_equal(deal, np.arange(first, first + count, dtype=np.int64)):
                return "its deal indices are not those of the chunk"
    except (OSError, pa.ArrowException, ValueError, KeyError, TypeError, RecursionError) as e:
        return f"cannot be read ({e})"
    return None


@dataclass
class DatasetState:
    """What a results directory holds: run metadata, the valid parts, the
    bad ones (``(file, reason)``) and leftover temporary files."""

    path: Path
    metadata: dict
    parts: dict[int, Path] = field(default_factory=dict)
    bad: list[tuple[Path, str]] = field(default_factory=list)
    temp: list[Path] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(chunk_bounds(self.metadata, c)[1] for c in self.parts)

    @property
    def missing(self) -> list[int]:
        return [c for c in range(self.metadata["chunks"]) if c not in self.parts]

    @property
    def complete(self) -> bool:
        return not self.missing and not self.bad


def scan(path, deep: bool = False) -> DatasetState:
    """Read a results directory's metadata and check every part
    (:func:`check_part`; ``deep`` reads the rows too)."""
    path = Path(path)
    meta = read_metadata(path)
    state = DatasetState(path, meta)
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
        parts = part_files(path)
    except OSError as e:
        raise ResultsError(f"{path} cannot be read: {e.strerror or e}") from None
    for entry in entries:
        if is_temp_file(entry.name):
            state.temp.append(Path(entry.path))
    for chunk, file in parts.items():
        why = check_part(file, meta, chunk, deep=deep)
        if why is None:
            state.parts[chunk] = file
        else:
            state.bad.append((file, why))
    return state


def info(path) -> dict:
    """What ``kaiser-sim info`` shows: the run metadata plus ``rows``,
    ``parts``, ``missing_parts``, ``bad_parts`` (``{name: reason}``) and
    ``complete``.  Parts are checked from their footers (rows are not read)."""
    state = scan(path)
    out = {
        "path": str(path),
        "metadata": state.metadata,
        "rows": state.rows,
        "parts": len(state.parts),
        "missing_parts": len(state.missing),
        "bad_parts": {f.name: why for f, why in state.bad},
        "complete": state.complete,
    }
    if state.metadata.get("redeal"):
        out["redeals"] = redeal_count(state)
    return out


def redeal_count(state: DatasetState) -> int:
    """Deals redealt for a weak hand in the valid parts of a run with the
    weak-hand redeal (the sum of the parts' ``redeals``; 0 without it)."""
    if not state.metadata.get("redeal"):
        return 0
    total = 0
    for file in state.parts.values():
        part = _load_meta(pq.read_schema(file).metadata, PART_KEY)
        total += int(part.get("redeals", 0))
    return total


def info_text(d: dict) -> str:
    """:func:`info` as readable lines."""
    m = d["metadata"]
    rules = m["rules"]
    fixed = ", ".join(f"{k}={v}" for k, v in m.get("fixed", {}).items()) or "none"
    if d["complete"]:
        status = f"complete: {d['parts']} of {m['chunks']} parts"
    else:
        status = (f"INCOMPLETE: {d['parts']} of {m['chunks']} parts; finish with: "
                  f"kaiser-sim simulate --resume --out {d['path']}")
    cols = m["columns"]
    lines = [
        f"results   {d['path']}",
        f"status    {status}",
        f"rows      {d['rows']:,} of {m['deals']:,} deals",
        f"seed      {m['seed']}",
        f"chunks    {m['chunks']} parts of up to {m['chunk_size']:,} deals (part i: deals from i*{m['chunk_size']})",
        f"mode      {m['mode']}" + (f"; contracts played by PIMC players, K = {m['play']['samples']} layouts a turn"
                                   if isinstance(m.get("play"), dict) and "samples" in m["play"] else ""),
        f"rules     {rules.get('label', 'custom')} ({m['hand_size']} cards a hand, {m['deck']}-card deck)",
        f"fixed     {fixed}",
        f"dealer    {m['dealer']}",
        *([f"redeal    weak-hand redeal ({m['redeal']['rule']}): {d.get('redeals', 0):,} redeals behind the "
           f"{d['rows']:,} rows (a deal with a weak hand is replaced by the next acceptable one)"]
          if isinstance(m.get("redeal"), dict) else []),
        f"columns   {len(cols)}: {', '.join(cols[:6])}, {cols[6]} .. {cols[-1]}",
        f"version   kaiser-sim {m['version']}",
    ]
    for name, why in d["bad_parts"].items():
        lines.append(f"BAD PART  {name}: {why}")
    return "\n".join(lines)


# --- loading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunResults:
    """A results dataset as read: ``frame``, a pandas DataFrame (one row per
    deal, in deal order; the columns of the module doc), and ``metadata``,
    the run metadata recorded with it (the dict :func:`read_metadata`
    returns: ``seed``, ``deals``, ``rules``, ``fixed``, ``mode``, ...; empty
    for a frame made in memory that records none).  The metadata travels
    here, beside the frame, not on it: a DataFrame's ``attrs`` are copied or
    dropped by pandas operations and are not part of the data."""

    frame: pd.DataFrame
    metadata: dict = field(default_factory=dict)

    @property
    def seed(self):
        """The seed the deals were dealt with (None when the run records none)."""
        return self.metadata.get("seed")

    def first(self, n: int) -> RunResults:
        """The first ``n`` rows, with the same run metadata."""
        return RunResults(self.frame.iloc[: int(n)], self.metadata)


def load_run(path, columns=None, *, allow_incomplete: bool = False) -> RunResults:
    """Read a results dataset: its rows as a pandas DataFrame (one row per
    deal, in deal order) and its run metadata, a :class:`RunResults`.

    Parameters
    ----------
    path : the directory ``kaiser-sim simulate --out`` wrote.
    columns : list of column names to read (default: all); see the module
        doc, e.g. ``["deal", "pts_N_S", "pts_N_NT"]``.
    allow_incomplete : read an unfinished run (some parts missing) instead of
        raising :class:`ResultsError`.
    """
    state = scan(path)
    meta = state.metadata
    if state.bad:
        raise ResultsError("bad parts in " + str(path) + ": "
                           + "; ".join(f"{f.name}: {why}" for f, why in state.bad))
    if state.missing and not allow_incomplete:
        raise ResultsError(f"{path} is incomplete: {len(state.parts)} of {meta['chunks']} parts "
                           f"({state.rows:,} of {meta['deals']:,} deals); finish it with "
                           f"kaiser-sim simulate --resume --out {shlex.quote(str(path))}")
    schema = schema_of(meta)
    if columns is not None:
        columns = list(columns)
        unknown = [c for c in columns if c not in schema.names]
        if unknown:
            raise ResultsError(f"no column {', '.join(unknown)} in {path}; columns: {', '.join(schema.names)}")
    files = list(state.parts.values())
    if files:
        table = pa.concat_tables(pq.read_table(f, columns=columns).replace_schema_metadata(None) for f in files)
    else:
        table = schema.empty_table() if columns is None else schema.empty_table().select(columns)
    return RunResults(table.to_pandas(), meta)


def load_results(path, columns=None, *, allow_incomplete: bool = False) -> pd.DataFrame:
    """Read a results dataset into a pandas DataFrame, one row per deal, in
    deal order (the parameters are :func:`load_run`'s).  The run metadata
    (seed, rules, ...) is :func:`read_metadata`'s, or read with the rows by
    :func:`load_run`; the frame carries none."""
    return load_run(path, columns, allow_incomplete=allow_incomplete).frame


def dd_array(df, mode: str = "points") -> np.ndarray:
    """The ``(n, 4, 5)`` int8 table of a results frame, as ``dd_table`` returns
    it (``(n, 4, 6)`` when the frame has low no-trump columns)."""
    strains = STRAIN_SUFFIXES + ((LOW_NT_SUFFIX,) if value_column(mode, 0, LOW_NT_SUFFIX) in df else ())
    return df[value_columns(mode, strains)].to_numpy(dtype=np.int8).reshape(len(df), 4, len(strains))


def hands_array(df) -> np.ndarray:
    """The ``(n, 4)`` uint64 hands (N E S W) of a results frame."""
    return df[list(HAND_COLUMNS)].to_numpy(dtype=np.uint64)


def deal_texts(df) -> list[str]:
    """Each row's deal in ``N:...`` notation."""
    return [format_deal(h) for h in hands_array(df)]


__all__ = [
    "ResultsError",
    "holds_dataset",
    "enclosing_dataset",
    "check_output",
    "value_column",
    "value_columns",
    "columns_for",
    "schema_for",
    "schema_of",
    "read_metadata",
    "validate_metadata",
    "scan",
    "RunResults",
    "load_run",
    "load_results",
    "dd_array",
    "hands_array",
    "deal_texts",
]
