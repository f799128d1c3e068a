"""Google Benchmark JSON from any number of machines, read under the convention of docs/study.md."""
import json
import os
import re
import statistics
from dataclasses import dataclass, field

BACKENDS = ("Serial", "OpenMP", "Cuda", "host")  # host: CPU code outside Kokkos (a reference)
# Where a benchmark reports several rates, the one in the field's unit, by this preference.
RATE_PREFERENCE = ("atom_steps", "atom_evals", "pairs", "numbers", "bytes")
IGNORED_SEGMENTS = re.compile(r"^(real_time|process_time|manual_time|min_time:.*|min_warmup_time:.*|"
                              r"repeats:.*|iterations:.*|threads:.*)$")
RATE_SUFFIX = "_per_s"
DEMAND_SUFFIX = "_per_item"
KNOB_PREFIX = "knob_"
# Results written before suites had the `portable` counter: these implementations are Kokkos code.
PORTABLE_BY_NAME = ("kokkos", "cells")


@dataclass
class Run:
    """A machine's JSON file: where it came from and what it ran on."""
    path: str
    context: dict
    command: str

    @property
    def date(self):
        return self.context.get("date", "unknown")


@dataclass
class Result:
    """One benchmark of the convention: a rate of one implementation of one case on one platform."""
    name: str
    kernel: str
    backend: str
    impl: str
    case: tuple          # segments compared across platforms (no size, no knobs)
    size: str            # the n: segment, or ""
    platform: str
    rate: float
    unit: str            # what the rate counts, e.g. "pairs"
    demands: dict        # resource -> amount per counted item
    knobs: dict          # knob -> value (tuning sweeps)
    tuner_default: bool
    portable: bool       # code written once with Kokkos for every backend
    label: str
    run: Run = field(repr=False)

    @property
    def is_sweep(self):
        return bool(self.knobs) or self.tuner_default


def _rate_rank(counter):
    unit = counter[:-len(RATE_SUFFIX)]
    return (RATE_PREFERENCE.index(unit) if unit in RATE_PREFERENCE else len(RATE_PREFERENCE), counter)


def platform_of(backend, context):
    """The hardware a backend ran on: the GPU model for Cuda, the CPU model and threads otherwise
    (code outside Kokkos, `host`, runs on the same CPU as OpenMP)."""
    if backend == "Cuda":
        gpu = context.get("gpu0", "unknown GPU")
        return gpu.split(",")[0].strip()
    threads = 1 if backend == "Serial" else context.get("host_threads", context.get("num_cpus", "?"))
    return f"{context.get('cpu_model', 'unknown CPU')} ({threads} threads)"


def command_from_readme(path):
    """The command a results README lists for this file (a Markdown table row naming it), if any."""
    readme = os.path.join(os.path.dirname(os.path.abspath(path)), "README.md")
    if not os.path.exists(readme):
        return None
    name = os.path.basename(path)
    with open(readme) as f:
        for line in f:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if len(cells) >= 3 and name in cells[0]:
                return cells[-1].strip("`").replace("\\|", "|")
    return None


def parse_name(name):
    """(kernel, backend, impl, case segments) or None when the name does not follow the convention.
    The kernel is everything before the backend segment (`coulomb/direct_water/Cuda/cuda/single`
    is kernel `coulomb/direct_water`)."""
    parts = [p for p in name.split("/") if not IGNORED_SEGMENTS.match(p)]
    at = next((k for k in range(1, len(parts) - 1) if parts[k] in BACKENDS), None)
    if at is None:
        return None
    return "/".join(parts[:at]), parts[at], parts[at + 1], parts[at + 2:]


def _value(counter):
    return float(counter["value"]) if isinstance(counter, dict) else float(counter)


# Suites of the same binaries that measure kmol's machinery rather than a kernel: the worker
# pool's empty-unit latency and its multi-GPU scaling (docs/multi_gpu.md reports both).
NOT_KERNELS = {"worker_pool_empty_unit": "the worker pool's latency", "pair_histogram_gpus": "multi-GPU scaling"}


def _result(bench, run):
    parsed = parse_name(bench.get("run_name", bench["name"]))
    if parsed is None:
        return None, "name is not <kernel>/<backend>/<impl>/<case>"
    kernel, backend, impl, segments = parsed
    if kernel in NOT_KERNELS:
        return None, f"not a kernel: {NOT_KERNELS[kernel]} (docs/multi_gpu.md)"
    rates = sorted((k for k in bench if k.endswith(RATE_SUFFIX)), key=_rate_rank)
    if not rates:
        return None, f"has no *{RATE_SUFFIX} counter"
    knobs = {k[len(KNOB_PREFIX):]: _value(bench[k]) for k in bench if k.startswith(KNOB_PREFIX)}
    tuner_default = _value(bench.get("tuner_default", 0)) == 1
    size = ""
    case = []
    for s in segments:
        key = s.split(":", 1)[0]
        if key == "n":
            size = s[2:]
        elif key in knobs or (tuner_default and s == "tuner"):
            continue
        else:
            case.append(s)
    demands = {k[:-len(DEMAND_SUFFIX)]: _value(bench[k]) for k in bench if k.endswith(DEMAND_SUFFIX)}
    portable = _value(bench["portable"]) == 1 if "portable" in bench else impl in PORTABLE_BY_NAME or \
        impl.startswith("kokkos_")
    return Result(name=bench["name"], kernel=kernel, backend=backend, impl=impl, case=tuple(case),
                  size=size, platform=platform_of(backend, run.context), rate=_value(bench[rates[0]]),
                  unit=rates[0][:-len(RATE_SUFFIX)], demands=demands, knobs=knobs,
                  tuner_default=tuner_default, portable=portable, label=bench.get("label", ""), run=run), None


def load(paths):
    """Results of every file, one per benchmark and platform (the median of repetitions, or of
    the same benchmark in several files of one platform), and the benchmarks left out with why."""
    runs, skipped, found = [], [], {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = data.get("context", {})
        run = Run(path=path, context=context,
                  command=context.get("command") or command_from_readme(path) or "not recorded")
        runs.append(run)
        benches = data.get("benchmarks", [])
        # Where Google Benchmark aggregated repetitions, its median stands for them.
        medians = {b["run_name"] for b in benches if b.get("aggregate_name") == "median"}
        for b in benches:
            if b.get("error_occurred"):
                skipped.append((b["name"], path, "failed: " + b.get("error_message", "")))
                continue
            aggregate = b.get("aggregate_name")
            if aggregate not in (None, "median") or (aggregate is None and b.get("run_name") in medians):
                continue
            result, why = _result(b, run)
            if result is None:
                skipped.append((b["name"], path, why))
                continue
            found.setdefault((result.platform, result.name.replace("_median", "")), []).append(result)
    results = []
    for same in found.values():
        middle = sorted(same, key=lambda r: r.rate)[(len(same) - 1) // 2]
        middle.rate = statistics.median(r.rate for r in same)
        results.append(middle)
    return runs, results, skipped
