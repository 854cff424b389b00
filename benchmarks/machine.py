"""What machine a benchmark ran on: shared by the scripts in ``benchmarks/``
(each is run as ``python benchmarks/NAME.py``, so this folder is on the path)."""

from __future__ import annotations

import platform


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (or what platform knows)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def physical_cores() -> int | None:
    """Distinct (physical id, core id) pairs in /proc/cpuinfo."""
    try:
        cores, phys = set(), "0"
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, val = line.partition(":")
                key = key.strip()
                if key == "physical id":
                    phys = val.strip()
                elif key == "core id":
                    cores.add((phys, val.strip()))
        return len(cores) or None
    except OSError:
        return None


def loadavg() -> str:
    """The 1, 5 and 15 minute load averages, as text."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "n/a"


def _cpuinfo_field(name: str) -> str | None:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, val = line.partition(":")
                if key.strip() == name:
                    return val.strip()
    except OSError:
        pass
    return None


def cpu_flags() -> dict[str, bool]:
    """The instruction-set flags that matter to the solver's speed: BMI2
    (pext / pdep), AVX2 and AVX-512F (what LLVM may vectorise with)."""
    flags = set((_cpuinfo_field("flags") or "").split())
    return {"BMI2": "bmi2" in flags, "AVX2": "avx2" in flags, "AVX-512": "avx512f" in flags}


def cpu_summary() -> str:
    """One line naming the CPU for a benchmark result: its model, vendor
    family/model, LLVM's name for it (what numba compiles for), the flags of
    :func:`cpu_flags` and whether the solver uses ``pext`` / ``pdep`` as
    instructions (fast) or avoids them (microcoded on AMD before Zen 3)."""
    from kaiser_sim.dd import bits

    fam, mod = _cpuinfo_field("cpu family"), _cpuinfo_field("model")
    vendor = _cpuinfo_field("vendor_id") or "?"
    flags = ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in cpu_flags().items())
    pext = "fast, used" if bits.FAST_PEXT else ("microcoded, avoided" if bits.HAS_BMI2 else "absent")
    return (f"{cpu_model()} ({vendor} family {fam} model {mod}; LLVM target {bits._cpu_name()}); "
            f"{flags}; pext/pdep {pext}")
