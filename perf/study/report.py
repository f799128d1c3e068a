"""The study's Markdown report."""
import os

from . import metrics, plots, scale


def _rate(value, unit):
    div, prefix = plots.scale_for([value])
    return f"{value / div:.3g} {plots.unit_label(unit, prefix)}"


def _pct(x):
    return "n/a" if x is None else f"{100 * x:.1f} %"


def _machine(run):
    c = run.context
    parts = [f"{c.get('cpu_model', '?')}, {c.get('host_threads', c.get('num_cpus', '?'))} threads, "
             f"{c.get('mhz_per_cpu', '?')} MHz"]
    if "cpu_family_model" in c:
        parts[0] += f" (family/model {c['cpu_family_model']})"
    gpus = [v for k, v in sorted(c.items()) if k.startswith("gpu") and k[3:].isdigit()]
    parts += gpus
    if "cuda_driver_api" in c:
        parts.append(f"CUDA driver API {c['cuda_driver_api']}, runtime {c.get('cuda_runtime', '?')}")
    return "; ".join(parts)


def _load(run):
    load, cpus = run.context.get("load_avg"), run.context.get("num_cpus")
    if not load or not cpus:
        return "?"
    return f"{load[0]:.1f} / {cpus}" + (" (busy)" if load[0] > cpus else "")


def _build(run):
    c = run.context
    return (f"kmol {c.get('kmol_version', '?')}, Kokkos {c.get('kokkos_version', '?')} "
            f"({c.get('kokkos_backends', '?')}), compiler {c.get('compiler', '?')}")


def _runs_section(runs, results, out_dir):
    lines = ["## Runs", "",
             "Load: the 1-minute load average when the run began, against the machine's CPUs; where it "
             "exceeds them, other work shared the machine and the run's CPU rates are understated.", "",
             "| file | date (UTC) | platforms measured | machine | load | build | command |",
             "|---|---|---|---|---|---|---|"]
    for run in runs:
        platforms = sorted({r.platform for r in results if r.run is run})
        rel = os.path.relpath(run.path, out_dir)
        command = run.command.replace("|", "\\|")
        lines.append(f"| [{os.path.basename(run.path)}]({rel}) | {run.date} | {', '.join(platforms) or '-'} | "
                     f"{_machine(run)} | {_load(run)} | {_build(run)} | `{command}` |")
    return lines


def _summary_section(kernels, summaries, files):
    lines = ["## Pennycook metric per kernel", "",
             "PP over the platforms H on which the kernel ran, the harmonic mean of the efficiencies of "
             "every case on every platform (0 when a path does not run somewhere). *Portable* is the "
             "Kokkos implementation (`kokkos`, or the kernel's other portable one) with the best "
             "application PP in each case; *best-of* takes the fastest implementation on each "
             "platform, so its application efficiency is 1 wherever the kernel runs. Architectural PP "
             "covers the cases whose hardware bound is known.", "",
             "| kernel | platforms H | portable path | PP app. (portable) | PP app. (best-of) | "
             "PP arch. (portable) | PP arch. (best-of) |",
             "|---|---|---|---|---|---|---|"]
    for kernel, cases in sorted(kernels.items()):
        platforms = metrics.platforms_of(cases)
        portable = sorted({metrics.portable_impl(c, platforms) or "none" for c in cases})
        app, arch = summaries[kernel]["app"], summaries[kernel]["arch"]
        if arch is None:
            arch_cells = ["n/a (bound unknown)"] * 2
        else:
            used, total = arch["cases"]
            notes = ([] if used == total else [f"{used} of {total} cases"]) + \
                ([f"bounds unknown on {', '.join(arch['unknown'])} left out"] if arch["unknown"] else [])
            scope = f" ({'; '.join(notes)})" if notes else ""
            arch_cells = [f"{arch['portable']:.3f}{scope}", f"{arch[metrics.BEST_OF]:.3f}{scope}"]
        lines.append(f"| {kernel} | {'; '.join(platforms)} | {', '.join(portable)} | {app['portable']:.3f} | "
                     f"{app[metrics.BEST_OF]:.3f} | {arch_cells[0]} | {arch_cells[1]} |")
    if "pennycook" in files:
        lines += ["", f"![Pennycook metric per kernel]({files['pennycook']})"]
    return lines


def _kernel_section(kernel, cases, files):
    platforms = metrics.platforms_of(cases)
    lines = [f"## {kernel}", "", f"Platforms: {'; '.join(platforms)}.", "",
             "| case | implementation | platform | n | rate | app. eff. | arch. eff. | bound (limiting resource) |",
             "|---|---|---|---|---|---|---|---|"]
    for c in cases:
        for platform in platforms:
            for impl in c.impls():
                cell = c.cells.get((impl, platform))
                if cell is None:
                    continue
                r = cell.result
                bound = "-" if cell.bound is None else f"{_rate(cell.bound.rate, r.unit)} ({cell.bound.resource})"
                lines.append(f"| {plots.case_name(c.case)} | {impl} | {platform} | {r.size or '-'} | "
                             f"{_rate(r.rate, r.unit)} | {_pct(cell.app)} | {_pct(cell.arch)} | {bound} |")
    lines += ["", "Pennycook metric per case (efficiency on each platform: application / architectural):", "",
              "| case | path | " + " | ".join(platforms) + " | PP app. | PP arch. |",
              "|---|---|" + "---|" * len(platforms) + "---|---|"]
    for c in cases:
        for impl in c.impls() + [metrics.BEST_OF]:
            app, arch = c.efficiencies(impl, "app"), c.efficiencies(impl, "arch")
            per_platform = [f"{_pct(app[p])} / {_pct(arch[p])}" if p in app else "unsupported" for p in platforms]
            arch_known = all(arch.get(p) is not None for p in app)
            pp_arch = metrics.pennycook(arch, platforms) if arch_known else None
            lines.append(f"| {plots.case_name(c.case)} | {impl} | " + " | ".join(per_platform) +
                         f" | {metrics.pennycook(app, platforms):.3f} | {metrics.fmt_fraction(pp_arch)} |")
    lines += ["", f"![{kernel} rates]({files[('rates', kernel)]})", "",
              f"![{kernel} efficiencies]({files[('efficiency', kernel)]})", "",
              "Bounds used:", ""]
    seen = set()
    for c in cases:
        for (impl, platform), cell in sorted(c.cells.items()):
            if cell.bound is not None and (platform, cell.bound.how) not in seen:
                seen.add((platform, cell.bound.how))
                lines.append(f"- {platform}, {plots.case_name(c.case)}: {cell.bound.resource} — {cell.bound.how}")
    return lines


def _sweep_section(sweeps, files):
    if not sweeps:
        return []
    lines = ["## Tuning sweeps", "",
             "Launch parameters forced over a grid, against the tuner's own choice on the same problem "
             "in the same run. Gap: how much faster the sweep's best is (negative: the tuner beat "
             "every forced point).", "",
             "| kernel | impl | case | platform | n | tuner's choice | sweep's best | gap |",
             "|---|---|---|---|---|---|---|---|"]
    for s in sweeps:
        default = "not run" if s.default is None else f"{_rate(s.default.rate, s.default.unit)}: {s.default.label}"
        best = "-" if s.best is None else (f"{_rate(s.best.rate, s.best.unit)} at " +
                                           ", ".join(f"{k} {v:g}" for k, v in sorted(s.best.knobs.items())))
        gap = "n/a" if s.gap is None else f"{100 * s.gap:+.1f} %"
        size = (s.default or s.best).size
        lines.append(f"| {s.kernel} | {s.impl} | {plots.case_name(s.case)} | {s.platform} | {size} | "
                     f"{default} | {best} | {gap} |")
    for s in sweeps:
        if ("sweep", id(s)) in files:
            lines += ["", f"![sweep {plots.case_name(s.case)}]({files[('sweep', id(s))]})"]
    return lines


def _labels_section(results):
    lines = ["## Launches", "", "What each implementation reported choosing (the benchmark's label).", "",
             "| benchmark | platform | launch |", "|---|---|---|"]
    for r in sorted(results, key=lambda r: (r.kernel, r.platform, r.name)):
        if not r.is_sweep and r.label:
            lines.append(f"| `{r.name}` | {r.platform} | {r.label.replace('|', '/')} |")
    return lines


def write(out_dir, runs, results, skipped, command, curves=()):
    kernels = metrics.cases_of(results)
    summaries = {k: {"app": metrics.kernel_summary(c, "app"), "arch": metrics.kernel_summary(c, "arch")}
                 for k, c in kernels.items()}
    sweeps = metrics.sweeps_of(results)
    files = plots.write_all(kernels, summaries, sweeps, out_dir)
    lines = ["# kmol performance-portability study", "",
             f"Generated by `{command}` from the runs below; each run names its date and machine. Definitions, the benchmark "
             "convention and the derivation of every hardware bound: `docs/study.md`. Each suite "
             "defines its rate (pair histograms: copies to and from the device included).", ""]
    lines += _runs_section(runs, results, out_dir) + [""]
    lines += _summary_section(kernels, summaries, files) + [""]
    for kernel in sorted(kernels):
        lines += _kernel_section(kernel, kernels[kernel], files) + [""]
    lines += _sweep_section(sweeps, files) + [""]
    lines += scale.section(list(curves), out_dir)
    lines += _labels_section(results) + [""]
    if skipped:
        lines += ["## Left out", "", "Benchmarks that do not follow the convention of docs/study.md:", ""]
        lines += [f"- `{name}` ({os.path.basename(path)}): {why}" for name, path, why in skipped]
    path = os.path.join(out_dir, "README.md")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    os.replace(path + ".tmp", path)
    return path, summaries
