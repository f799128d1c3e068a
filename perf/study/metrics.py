"""Application and architectural efficiency, and the Pennycook performance-portability metric
(Pennycook, Sewall and Lee, 2016): for an application a solving problem p on the platforms H,
PP = |H| / sum over i in H of 1 / e_i(a, p) if a runs on every platform of H, else 0."""
import math
from collections import defaultdict
from dataclasses import dataclass, field

from . import demands as demand_table
from . import machines

BEST_OF = "best-of"


def harmonic_mean(values):
    """Harmonic mean; 0 if a value is 0 (or missing: None), as the Pennycook metric requires."""
    values = list(values)
    if not values or any(v is None or v <= 0 for v in values):
        return 0.0
    return len(values) / sum(1.0 / v for v in values)


def pennycook(efficiency_by_platform, platforms):
    """PP over `platforms`; a platform missing from the mapping is unsupported (PP = 0)."""
    return harmonic_mean(efficiency_by_platform.get(p) for p in platforms)


@dataclass
class Bound:
    rate: float      # items per second the hardware allows at most
    resource: str    # the resource that limits it
    how: str


def demands_on(result):
    """What one item of the result needs of the platform's resources: the benchmark's counters (or
    the table for files without them), with each function replaced by what it costs there."""
    need = dict(demand_table.defaults(result.kernel, result.case, result.size))
    need.update(result.demands)
    costs = machines.expansions(result.backend, result.run.context)
    out = {}
    for resource, amount in need.items():
        for r, per in costs.get(resource, {resource: 1.0}).items():
            out[r] = out.get(r, 0.0) + amount * per
    return out


def architectural_bound(result):
    """The smallest capacity / demand over the resources both the platform and the result know."""
    caps = machines.capacities(result.platform, result.backend, result.run.context)
    need = demands_on(result)
    best = None
    for resource, amount in need.items():
        if resource in caps and amount > 0:
            bound = caps[resource].per_second / amount
            if best is None or bound < best.rate:
                best = Bound(bound, resource, f"{caps[resource].how}; {amount:.4g} per item")
    return best


@dataclass
class Cell:
    """One implementation of one case on one platform."""
    result: object
    app: float            # rate / best rate of the case on the platform
    arch: float = None    # rate / architectural bound (None: no bound known)
    bound: Bound = None


@dataclass
class Case:
    kernel: str
    case: tuple
    cells: dict = field(default_factory=dict)  # (impl, platform) -> Cell; impl may be BEST_OF

    def impls(self):
        return sorted({i for i, _ in self.cells if i != BEST_OF}, key=_impl_order)

    def portable_impls(self):
        return [i for i in self.impls() if any(c.result.portable for (j, _), c in self.cells.items() if j == i)]

    def efficiencies(self, impl, kind):
        return {p: getattr(c, kind) for (i, p), c in self.cells.items() if i == impl}


def _impl_order(impl):
    return (impl == BEST_OF, impl)


def _representative(results):
    """Of one case on one platform, the results of the size most implementations ran (then the
    largest), so that efficiencies compare implementations on the same problem."""
    by_size = defaultdict(list)
    for r in results:
        by_size[r.size].append(r)
    size = max(by_size, key=lambda s: (len(by_size[s]), float(s) if s.replace(".", "").isdigit() else 0))
    return by_size[size]


def _cell(result, best_rate):
    cell = Cell(result, result.rate / best_rate, bound=architectural_bound(result))
    if cell.bound is not None:
        cell.arch = result.rate / cell.bound.rate
    return cell


def cases_of(results):
    """Kernel -> list of Case, with application and architectural efficiencies filled in."""
    grouped = defaultdict(lambda: defaultdict(list))
    for r in results:
        if not r.is_sweep:
            grouped[(r.kernel, r.case)][r.platform].append(r)
    kernels = defaultdict(list)
    for (kernel, case), by_platform in sorted(grouped.items()):
        c = Case(kernel, case)
        for platform, rs in by_platform.items():
            rs = _representative(rs)
            best = max(rs, key=lambda r: r.rate)
            for r in rs:
                c.cells[(r.impl, platform)] = _cell(r, best.rate)
            c.cells[(BEST_OF, platform)] = _cell(best, best.rate)
        kernels[kernel].append(c)
    return kernels


def platforms_of(cases):
    """Platforms on which a kernel ran anything: the set H of its Pennycook metric."""
    return sorted({p for c in cases for (_, p) in c.cells})


def portable_impl(case, platforms):
    """The portable implementation with the highest application PP in this case (None if none ran)."""
    candidates = case.portable_impls()
    if not candidates:
        return None
    return max(candidates, key=lambda i: (pennycook(case.efficiencies(i, "app"), platforms), i == "kokkos"))


def kernel_summary(cases, kind):
    """PP of a kernel over its cases and platforms (the harmonic mean of every case's efficiency
    on every platform, 0 where the path does not run) for the portable path and best-of.
    An architectural efficiency whose bound is unknown is left out (unknown is not unsupported):
    'cases' says how many cases contributed, 'unknown' on which platforms bounds were missing.
    None when nothing is known."""
    platforms = platforms_of(cases)
    out = {"cases": (0, len(cases)), "unknown": set()}
    for path in ("portable", BEST_OF):
        values, used = [], 0
        for c in cases:
            impl = portable_impl(c, platforms) if path == "portable" else BEST_OF
            eff = c.efficiencies(impl, kind) if impl else {}
            unknown = {p for p, v in eff.items() if v is None}
            out["unknown"] |= unknown
            if eff and len(unknown) == len(eff):
                continue  # nothing known about this case
            values += [eff.get(p, 0.0) for p in platforms if p not in unknown]
            used += 1
        if used == 0:
            return None
        out[path] = harmonic_mean(values)
        out["cases"] = (max(out["cases"][0], used), len(cases))
    out["unknown"] = sorted(out["unknown"])
    return out


@dataclass
class Sweep:
    kernel: str
    backend: str
    impl: str
    case: tuple
    platform: str
    default: object = None                       # the tuner's own choice
    points: list = field(default_factory=list)   # forced launches

    @property
    def best(self):
        return max(self.points, key=lambda r: r.rate) if self.points else None

    @property
    def gap(self):
        """How much faster the sweep's best is than the tuner's choice (0.05: 5 %)."""
        if self.default is None or self.best is None:
            return None
        return self.best.rate / self.default.rate - 1.0


def sweeps_of(results):
    found = {}
    for r in results:
        if not r.is_sweep:
            continue
        key = (r.kernel, r.backend, r.impl, r.case, r.platform)
        s = found.setdefault(key, Sweep(*key))
        if r.tuner_default:
            s.default = r
        else:
            s.points.append(r)
    return [found[k] for k in sorted(found)]


def fmt_fraction(x):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"
