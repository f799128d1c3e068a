"""PNG plots of the study: rates, efficiencies, the Pennycook metric and tuning sweeps."""
import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

from . import metrics  # noqa: E402

PREFIXES = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")]
COLOURS = plt.get_cmap("tab10").colors


def scale_for(rates):
    """(divisor, prefix) that puts the middle rate between 1 and 1000."""
    rates = sorted(r for r in rates if r > 0)
    middle = rates[len(rates) // 2] if rates else 1.0
    return next(((f, p) for f, p in PREFIXES if middle >= f), PREFIXES[-1])


def unit_label(unit, prefix):
    return f"{prefix} {unit.replace('_', ' ')}/s".strip()


def case_name(case):
    return "/".join(case) if case else "(one case)"


def _colour(impl, impls):
    return "0.35" if impl == metrics.BEST_OF else COLOURS[impls.index(impl) % len(COLOURS)]


def _legend(ax):
    """The implementations' legend, where the axes have bars."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, title="implementation", title_fontsize=8)


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _grouped_bars(ax, groups, impls, value_of):
    """One group of bars per (label, key) in `groups`, one bar per implementation present."""
    width = 0.8 / max(1, len(impls))
    for k, impl in enumerate(impls):
        xs, ys = [], []
        for g, (_, key) in enumerate(groups):
            v = value_of(impl, key)
            if v is not None:
                xs.append(g - 0.4 + width * (k + 0.5))
                ys.append(v)
        if xs:
            ax.bar(xs, ys, width, label=impl, color=_colour(impl, impls))
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([label for label, _ in groups], rotation=20, ha="right", fontsize=8)


def rates_figure(kernel, cases, path):
    platforms = metrics.platforms_of(cases)
    impls = sorted({i for c in cases for i in c.impls()}, key=metrics._impl_order)
    unit = next(iter(cases[0].cells.values())).result.unit
    fig, axes = plt.subplots(1, len(platforms), figsize=(5.5 * len(platforms), 4.2), squeeze=False)
    for ax, platform in zip(axes[0], platforms):
        here = [c for c in cases if any(p == platform for _, p in c.cells)]
        rates = [cell.result.rate for c in here for (i, p), cell in c.cells.items() if p == platform]
        div, prefix = scale_for(rates)
        groups = [(case_name(c.case), c) for c in here]
        _grouped_bars(ax, groups, impls,
                      lambda impl, c: c.cells[(impl, platform)].result.rate / div
                      if (impl, platform) in c.cells else None)
        ax.set_yscale("log")
        ax.set_ylabel(f"rate ({unit_label(unit, prefix)}, log scale)")
        ax.set_title(platform, fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
        _legend(ax)
    fig.suptitle(f"{kernel}: rate of each implementation (higher is better)")
    _save(fig, path)


def efficiency_figure(kernel, cases, path):
    platforms = metrics.platforms_of(cases)
    impls = sorted({i for c in cases for i in c.impls()}, key=metrics._impl_order)
    groups = [(f"{case_name(c.case)}\n{p}", (c, p)) for c in cases for p in platforms]
    fig, axes = plt.subplots(2, 1, figsize=(max(7.0, 1.1 * len(groups)), 7.5), squeeze=False)
    for ax, kind, title in ((axes[0][0], "app", "application efficiency (rate / best on the platform)"),
                            (axes[1][0], "arch", "architectural efficiency (rate / hardware bound)")):
        def value(impl, key, kind=kind):
            c, p = key
            cell = c.cells.get((impl, p))
            return getattr(cell, kind) if cell is not None else None
        _grouped_bars(ax, groups, impls, value)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("efficiency (fraction)")
        ax.set_title(title, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        _legend(ax)
    fig.suptitle(f"{kernel}: efficiencies (missing bar: not run, or no bound known)")
    _save(fig, path)


def pennycook_figure(summaries, path):
    """summaries: kernel -> {'app': {...}, 'arch': {... or None}} as metrics.kernel_summary gives."""
    kernels = sorted(summaries)
    bars = [("portable", "app", "portable, application"), (metrics.BEST_OF, "app", "best-of, application"),
            ("portable", "arch", "portable, architectural"), (metrics.BEST_OF, "arch", "best-of, architectural")]
    fig, ax = plt.subplots(figsize=(max(8.0, 1.8 * len(kernels) + 2.5), 4.2))
    width = 0.8 / len(bars)
    for k, (path_name, kind, label) in enumerate(bars):
        xs, ys = [], []
        for g, kernel in enumerate(kernels):
            values = summaries[kernel][kind]
            x = g - 0.4 + width * (k + 0.5)
            if values is None:
                ax.text(x, 0.01, "n/a", ha="center", va="bottom", rotation=90, fontsize=7)
            else:
                xs.append(x)
                ys.append(values[path_name])
        bars = ax.bar(xs, ys, width, label=label, color=COLOURS[k], hatch="//" if kind == "arch" else None)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(kernels, rotation=15, ha="right", fontsize=8)
    ax.set_xlim(-0.6, len(kernels) - 0.4)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("Pennycook PP (harmonic mean over platforms)")
    ax.set_title("Performance portability per kernel (0: a platform unsupported)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(fig, path)


def sweep_figure(sweep, path):
    points = sorted(sweep.points, key=lambda r: -r.rate)
    div, prefix = scale_for([r.rate for r in points])
    fig, ax = plt.subplots(figsize=(max(6.0, 0.3 * len(points) + 2), 6.5))
    labels = [" ".join(f"{k}={v:g}" for k, v in sorted(r.knobs.items())) for r in points]
    ax.bar(range(len(points)), [r.rate / div for r in points], color=COLOURS[0], label="forced launch")
    if sweep.default is not None:
        ax.axhline(sweep.default.rate / div, color=COLOURS[3], linestyle="--", label="tuner's choice")
    ax.set_xticks(range(len(points)))
    ax.set_xticklabels(labels, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel(f"rate ({unit_label(points[0].unit, prefix)})")
    ax.set_xlabel("forced launch parameters, sorted by rate")
    ax.set_title(f"{sweep.kernel} {sweep.impl} {case_name(sweep.case)} on {sweep.platform}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, path)


def safe_name(*parts):
    text = "-".join(parts)
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)


def write_all(kernels, summaries, sweeps, out_dir):
    """Writes every figure; returns {key: file name} for the report."""
    files = {}
    for kernel, cases in kernels.items():
        files[("rates", kernel)] = safe_name(kernel, "rates") + ".png"
        rates_figure(kernel, cases, os.path.join(out_dir, files[("rates", kernel)]))
        files[("efficiency", kernel)] = safe_name(kernel, "efficiency") + ".png"
        efficiency_figure(kernel, cases, os.path.join(out_dir, files[("efficiency", kernel)]))
    if summaries:
        files["pennycook"] = "pennycook.png"
        pennycook_figure(summaries, os.path.join(out_dir, files["pennycook"]))
    for s in sweeps:
        if s.points:
            name = safe_name(s.kernel, s.impl, *s.case, s.platform, "sweep") + ".png"
            files[("sweep", id(s))] = name
            sweep_figure(s, os.path.join(out_dir, name))
    return files
