"""Output directories that are checked before the work and never left half written.

The commands that write files (``study``, ``report``, ``match --out``,
``hand --plot``) follow three rules:

1. Before any work, :func:`probe` checks that the output directory can be
   created and written, and leaves nothing behind (a directory it had to
   create for the check is removed again).
2. The files go into a hidden staging directory inside the output directory
   (:func:`staged`) and are moved into place only when all of them are
   written; a failure (a full disk, say) removes the staging directory.
3. :func:`removed_on_failure` removes the directories a command created if
   it fails, so a refused or failed command leaves no empty directory.  An
   interrupted run (Ctrl-C) keeps what it simulated: that can be resumed.

A failed write raises :class:`OutputError`, an :class:`OSError` whose message
names the path and the problem.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: prefix of the hidden staging directories (``OUT/.partial-XXXX``)
STAGING_PREFIX = ".partial-"


class OutputError(OSError):
    """Writing an output failed; what had been written was removed.  ``str()``
    is the whole message (path and problem)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "cannot write the output"


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def missing_top(path) -> Path | None:
    """The outermost directory of ``path`` (itself or a parent) that does not
    exist yet: what creating ``path`` would create.  None if it exists."""
    p = Path(os.path.abspath(path))
    top = None
    while not os.path.lexists(p):
        top = p
        if p.parent == p:
            break
        p = p.parent
    return top


def probe(path, file_name: str | None = None) -> None:
    """Raise :class:`OSError` unless the directory ``path`` exists (or can be
    created) and a file can be written in it -- the file ``file_name`` when
    given (a name too long for the file system is refused; an existing one
    must be a regular file).  Leaves nothing behind."""
    p = Path(os.path.abspath(path))
    if os.path.lexists(p) and not p.is_dir():
        raise NotADirectoryError(20, "is a file, not a directory", str(p))
    missing = []
    q = p
    while not os.path.lexists(q):
        missing.append(q)
        q = q.parent
    if not q.is_dir():
        raise NotADirectoryError(20, f"{q} is a file, not a directory", str(p))
    made = []
    try:
        for d in reversed(missing):
            d.mkdir()
            made.append(d)
        if file_name is not None and os.path.lexists(p / file_name):
            check_replaceable(p / file_name)
            with open(p / file_name, "ab"):  # opened to append, nothing written: may it be written?
                pass
        elif file_name is not None:
            fd = os.open(p / file_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.close(fd)
            os.unlink(p / file_name)
        else:
            fd, name = tempfile.mkstemp(prefix=".kaiser-sim-write-test-", dir=p)
            os.close(fd)
            os.unlink(name)
    finally:
        for d in reversed(made):
            try:
                d.rmdir()
            except OSError:
                pass


def probe_file(path) -> None:
    """Raise :class:`OSError` unless the file ``path`` can be written (its
    directory created if missing); an existing ``path`` must be a regular
    file.  Leaves nothing behind."""
    p = Path(os.path.abspath(path))
    if not p.name or str(path).endswith(os.sep):
        raise IsADirectoryError(21, "names a directory, not a file", str(path))
    probe(p.parent, p.name)


def check_replaceable(path) -> None:
    """Raise :class:`OSError` if ``path`` exists and is not a regular file
    (a directory, a device such as /dev/null, a FIFO, a socket): writing a
    file by renaming over it would replace the device itself."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "is a directory", str(path))
    if not stat.S_ISREG(mode):
        raise OSError(22, "is not a regular file (a device, a FIFO or a socket)", str(path))


@contextmanager
def removed_on_failure(*paths) -> Iterator[None]:
    """Remove those of ``paths`` (and the parents created with them) that do
    not exist now, if the block raises an :class:`Exception`.  A
    :class:`KeyboardInterrupt` keeps them (a simulation can be resumed)."""
    tops = [t for t in (missing_top(p) for p in paths) if t is not None]
    try:
        yield
    except Exception:
        for t in tops:
            shutil.rmtree(t, ignore_errors=True)
        raise


def _merge(src: Path, dst: Path) -> None:
    """Move every file under ``src`` to the same place under ``dst`` (files
    there are replaced, others kept)."""
    for root, _dirs, files in os.walk(src):
        rel = Path(root).relative_to(src)
        target = dst / rel
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            os.replace(Path(root) / f, target / f)


@contextmanager
def staged(out, what: str = "the output") -> Iterator[Path]:
    """Create ``out`` and a hidden staging directory in it; yield the staging
    directory.  When the block ends normally its files move into ``out``
    (same relative paths; existing files of those names are replaced); if it
    raises, the staging directory is removed.  An :class:`OSError` (a full
    disk, no permission) becomes :class:`OutputError` naming ``out``."""
    out = Path(out)
    stage = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
        yield stage
        _merge(stage, out)
    except OutputError:
        raise
    except OSError as e:
        where = f" ({e.filename})" if getattr(e, "filename", None) else ""
        raise OutputError(f"cannot write {what} in {out}: {_reason(e)}{where}; nothing was written") from None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)


def write_files_atomic(writes) -> None:
    """Write several files whole, all or none: ``writes`` maps each path to
    a ``write(tmp)`` called on a hidden file beside it (a short name, so a
    name near the file system's limit still fits); when every one is
    written, each is renamed to its path.  An existing path must be a
    regular file (a device such as /dev/null, a FIFO or a directory is
    refused, never replaced).  On failure the hidden files and the new
    files already renamed are removed, and :class:`OutputError` names the
    path (and any older file already replaced: a rename cannot be undone)."""
    temps: dict[Path, Path] = {}
    placed: list[tuple[Path, bool]] = []  # renamed into place; did a file of that name exist?
    path = None
    try:
        for path, write in writes.items():
            path = Path(path)
            check_replaceable(path)
            tmp = path.parent / f".kaiser-sim-{os.getpid()}-{len(temps)}.tmp"
            temps[path] = tmp
            write(tmp)
        for path, tmp in temps.items():
            check_replaceable(path)  # again: it may have been replaced meanwhile
            existed = os.path.lexists(path)
            os.replace(tmp, path)
            placed.append((path, existed))
    except OSError as e:
        for done, existed in placed:
            if not existed:
                os.unlink(done)
        replaced = [str(done) for done, existed in placed if existed]
        raise OutputError(f"cannot write {path}: {_reason(e)}"
                          + (f"; {', '.join(replaced)} was replaced already" if replaced else "")) from None
    finally:
        for tmp in temps.values():
            if os.path.lexists(tmp):
                os.unlink(tmp)


def write_file_atomic(path, write) -> None:
    """Call ``write(tmp)`` on a hidden file beside ``path`` and rename it to
    ``path`` (:func:`write_files_atomic` of one file); on failure the hidden
    file is removed and :class:`OutputError` names ``path``."""
    write_files_atomic({path: write})


__all__ = ["OutputError", "probe", "probe_file", "check_replaceable", "missing_top", "removed_on_failure", "staged",
           "write_file_atomic", "write_files_atomic",
           "STAGING_PREFIX"]


def source_date_epoch() -> int | None:
    """``SOURCE_DATE_EPOCH`` (seconds since 1970, the reproducible-builds
    convention) when set to a whole number, else None.  When it is set, the
    written outputs are byte-reproducible: the date is this one, and the
    files record no wall-clock times (the progress lines still show them)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return int(epoch) if epoch.isdigit() else None
