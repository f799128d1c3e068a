"""The scale curve (perf/scale_curve.sh's scale.json): cost per atom of the O(N) paths against the
number of atoms, steady state and one shot, per machine; a figure and a table for the report."""
import json
import os

from . import plots

PATHS = ["cells_histogram", "cutoff_potential", "cutoff_potential_kokkos", "density", "md_neighbour"]
UNITS = {"md_neighbour": "ns per atom-step"}


def load(paths):
    """[(label, file, document)] for each scale.json, the label naming its machine."""
    curves = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        machine = doc["gpu"].split(",")[0] if doc.get("device") == "gpu" else doc.get("cpu", "cpu")
        commit = f", {doc['commit']}" if doc.get("commit") else ""
        curves.append((f"{machine} ({doc['device']}{commit})", path, doc))
    return curves


def _num(value, spec):
    return "n/a" if value is None else format(value, spec)


def flatness(rows, key, smallest=1_000_000):
    """Largest / smallest cost per item over the sizes from `smallest` atoms up."""
    values = [r[key] for r in rows if r["n"] >= smallest and r.get(key)]
    return max(values) / min(values) if values else None


def figure(curves, path):
    plt = plots.plt
    fig, axes = plt.subplots(1, len(PATHS), figsize=(4.6 * len(PATHS), 4.0), squeeze=False)
    for ax, name in zip(axes[0], PATHS):
        for c, (label, _, doc) in enumerate(curves):
            rows = sorted((r for r in doc["rows"] if r["path"] == name), key=lambda r: r["n"])
            if not rows:
                continue
            colour = plots.COLOURS[c % len(plots.COLOURS)]
            for key, style, what in (("steady_ns_per_item", "o-", "steady state"),
                                     ("oneshot_ns_per_item", "s--", "one shot (printed compute time)"),
                                     ("command_ns_per_item", ":", "whole command")):
                points = [(r["n"], r[key]) for r in rows if r.get(key)]
                if points:
                    ax.plot(*zip(*points), style, color=colour, label=f"{label}: {what}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("atoms")
        ax.set_ylabel(UNITS.get(name, "ns per atom"))
        ax.set_title(name.replace("_", " "), fontsize=10)
        ax.grid(alpha=0.3, which="both")
    axes[0][0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def section(curves, out_dir):
    """The report's lines, after writing the figure."""
    if not curves:
        return []
    figure(curves, os.path.join(out_dir, "scale.png"))
    lines = ["## Scale curve", "",
             "Cost per atom (per atom-step for MD) of the O(N) paths as the system grows, from "
             "`perf/scale_curve.sh` (docs/study.md): steady state (the call repeated in one "
             "process), one shot (the compute time the `kmol` command prints: conversion, allocations, "
             "copies, first launches and downloads included) and the whole command (process start to exit: input "
             "generation, runtime start-up and output included).", "", "![scale](scale.png)", ""]
    for label, path, doc in curves:
        rel = os.path.relpath(path, out_dir)
        lines += [f"### {label}", "", f"From [{os.path.basename(path)}]({rel}), commit {doc.get('commit') or '?'}."
                  + (f" {doc['note']}." if doc.get("note") else ""), "",
                  "| path | atoms | steady (ns) | one shot (ns) | one shot / steady | whole command (s) | "
                  "peak memory (MiB) |",
                  "|---|---|---|---|---|---|---|"]
        for name in PATHS:
            rows = sorted((r for r in doc["rows"] if r["path"] == name), key=lambda r: r["n"])
            for r in rows:
                steady, once = r.get("steady_ns_per_item"), r.get("oneshot_ns_per_item")
                ratio = f"{once / steady:.2f}" if steady and once else "n/a"
                whole, peak = r.get("command_seconds"), r.get("peak_memory_mib")
                lines.append(f"| {name} | {r['n']:,} | {_num(steady, '.3g')} | {_num(once, '.3g')} | "
                             f"{ratio} | {_num(whole, '.2f')} | {_num(peak, ',')} |")
        lines += [""]
        for name in PATHS:
            rows = [r for r in doc["rows"] if r["path"] == name]
            s, o = flatness(rows, "steady_ns_per_item"), flatness(rows, "oneshot_ns_per_item")
            if s is not None and o is not None:
                lines.append(f"- {name}: largest / smallest cost per item from 1 M atoms up: "
                             f"steady {s:.2f}, one shot {o:.2f}")
        lines += [""]
    return lines
