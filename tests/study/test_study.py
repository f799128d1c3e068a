"""perf/study on two small fixture files (a 2-core Zen 3 and an H200): the metric arithmetic and
the report end to end. Run by ctest as study.report with Debian's /usr/bin/python3."""
import glob
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "perf"))

import json  # noqa: E402
import math  # noqa: E402

from study import demands, machines, metrics, results, scale  # noqa: E402

FIXTURES = sorted(glob.glob(os.path.join(ROOT, "tests", "study", "fixtures", "*.json")))
CPU, GPU = "AMD EPYC (2 threads)", "NVIDIA H200"
H200_ATOMICS = 8.2 * 132 * 1.98e9  # shared-memory atomics per second
ZEN3_INCREMENTS = 1.0 * 2 * 2.0e9  # 1 per core per clock, 2 cores at 2,000 MHz (the fixture)


def harmonic(*xs):
    return len(xs) / sum(1 / x for x in xs)


class MetricArithmetic(unittest.TestCase):
    def test_harmonic_mean(self):
        self.assertAlmostEqual(metrics.harmonic_mean([0.5, 1.0]), 2 / 3)
        self.assertAlmostEqual(metrics.harmonic_mean([0.25, 0.25, 0.25]), 0.25)
        self.assertEqual(metrics.harmonic_mean([0.5, 0.0]), 0.0)
        self.assertEqual(metrics.harmonic_mean([]), 0.0)

    def test_unsupported_platform_gives_zero(self):
        self.assertEqual(metrics.pennycook({"cpu": 0.9}, ["cpu", "gpu"]), 0.0)
        self.assertAlmostEqual(metrics.pennycook({"cpu": 0.9, "gpu": 0.3}, ["cpu", "gpu"]), harmonic(0.9, 0.3))


class FixtureStudy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs, cls.results, cls.skipped = results.load(FIXTURES)
        cls.kernels = metrics.cases_of(cls.results)

    def case(self, kernel, name):
        return next(c for c in self.kernels[kernel] if c.case == (name,))

    def test_names_outside_the_convention_are_left_out_with_the_reason(self):
        self.assertEqual([s[0] for s in self.skipped], ["not_a_convention_name"])

    def test_platforms_come_from_the_context(self):
        self.assertEqual(metrics.platforms_of(self.kernels["demo"]), [CPU, GPU])

    def test_application_efficiency_is_rate_over_best_at_the_common_size(self):
        a = self.case("demo", "a")
        # The n:50 run (one implementation only, 5e9) is not the case's representative size.
        self.assertAlmostEqual(a.cells[("kokkos", CPU)].app, 0.5)
        self.assertAlmostEqual(a.cells[("host", CPU)].app, 1.0)
        self.assertAlmostEqual(a.cells[("kokkos", GPU)].app, 0.5)
        self.assertEqual(a.cells[(metrics.BEST_OF, GPU)].result.impl, "cuda")

    def test_pennycook_of_the_portable_and_best_of_paths(self):
        platforms = [CPU, GPU]
        a, b = self.case("demo", "a"), self.case("demo", "b")
        self.assertAlmostEqual(metrics.pennycook(a.efficiencies("kokkos", "app"), platforms), 0.5)
        self.assertAlmostEqual(metrics.pennycook(a.efficiencies(metrics.BEST_OF, "app"), platforms), 1.0)
        # kokkos did not run case b on the GPU: unsupported there, so 0.
        self.assertEqual(metrics.pennycook(b.efficiencies("kokkos", "app"), platforms), 0.0)
        summary = metrics.kernel_summary(self.kernels["demo"], "app")
        self.assertEqual((summary["portable"], summary["best-of"], summary["cases"]), (0.0, 1.0, (2, 2)))

    def test_architectural_efficiency_uses_the_smallest_bound(self):
        a = self.case("demo", "a")
        self.assertAlmostEqual(a.cells[("kokkos", CPU)].arch, 1e9 / ZEN3_INCREMENTS)
        self.assertAlmostEqual(a.cells[("cuda", GPU)].arch, 8e11 / H200_ATOMICS)
        self.assertEqual(a.cells[("cuda", GPU)].bound.resource, "smem_atomics")
        arch = a.efficiencies("kokkos", "arch")
        self.assertAlmostEqual(metrics.pennycook(arch, [CPU, GPU]), harmonic(0.25, 4e11 / H200_ATOMICS))
        # Case b has no demand counters: no bound, so the kernel's architectural PP covers case a.
        self.assertIsNone(self.case("demo", "b").cells[("kokkos", CPU)].arch)
        summary = metrics.kernel_summary(self.kernels["demo"], "arch")
        self.assertEqual(summary["cases"], (1, 2))
        self.assertAlmostEqual(summary["portable"], harmonic(0.25, 4e11 / H200_ATOMICS))
        self.assertAlmostEqual(summary["best-of"], harmonic(0.5, 8e11 / H200_ATOMICS))
        self.assertEqual(summary["unknown"], [CPU, GPU])
        self.assertIsNone(metrics.kernel_summary(self.kernels["repeated"], "arch"))

    def test_repetitions_reduce_to_their_median(self):
        c = self.case("repeated", "c")
        self.assertAlmostEqual(c.cells[("kokkos", CPU)].result.rate, 2e9)

    def test_sweep_gap_against_the_tuner(self):
        (sweep,) = metrics.sweeps_of(self.results)
        self.assertEqual(sweep.case, ("a",))
        self.assertEqual(sweep.best.knobs, {"block": 128.0})
        self.assertAlmostEqual(sweep.gap, 0.2)
        # Sweep points stay out of the efficiency tables.
        self.assertNotIn("500", {c.result.size for c in self.case("demo", "a").cells.values()})



# The study's committed run on each machine: the newest of its results files, which
# perf/results names by date first.
STUDY = [sorted(glob.glob(os.path.join(ROOT, "perf", "results", f"*-{m}-study-*.json")))[-1]
         for m in ("cpu-2core", "h200", "h100")]
ZEN5 = {"cpu_model": "AMD EPYC", "cpu_family_model": "26/2", "host_threads": "2", "mhz_per_cpu": 2596}
HOPPER = {"gpu0": "NVIDIA H200, cc 9.0, 132 SMs, 1980 MHz"}


def result_with(kernel, case, size, backend, context, demands=None):
    run = results.Run(path="", context=context, command="")
    platform = results.platform_of(backend, context)
    return results.Result(name="", kernel=kernel, backend=backend, impl="x", case=case, size=size,
                          platform=platform, rate=1.0, unit="items", demands=demands or {}, knobs={},
                          tuner_default=False, portable=True, label="", run=run)


class Bounds(unittest.TestCase):
    def test_zen5_runs_at_its_measured_clock_with_measured_memory(self):
        caps = machines.capacities("AMD EPYC (2 threads)", "OpenMP", ZEN5)
        self.assertAlmostEqual(caps["instructions"].per_second, 32 * 2 * machines.ZEN5_CLOCK_HZ)
        self.assertAlmostEqual(caps["dram_bytes"].per_second, machines.ZEN5_DRAM_BYTES_PER_S)
        self.assertNotIn("dram_bytes", machines.capacities("AMD EPYC (1 threads)", "Serial", ZEN5))

    def test_a_function_costs_what_the_platform_runs_for_it(self):
        gpu = metrics.demands_on(result_with("k", ("double",), "1", "Cuda", HOPPER, {"fp64_rsqrt": 2.0}))
        cpu = metrics.demands_on(result_with("k", ("double",), "1", "OpenMP", ZEN5, {"fp64_rsqrt": 2.0}))
        self.assertEqual(gpu, {"fp64_instructions": 10.0})
        self.assertEqual(cpu, {"instructions": 48.0})
        single = metrics.demands_on(result_with("k", ("single",), "1", "OpenMP", ZEN5, {"rsqrt": 1.0, "instructions": 5.0}))
        self.assertEqual(single, {"special_functions": 1.0, "instructions": 10.0})

    def test_cutoff_sphere_inside_the_cube_matches_the_closed_form(self):
        # Continuous cube: rho (V - 3 pi R^4 / (2 L) + 8 R^5 / (5 L^2) - R^6 / (6 L^3)); the lattice
        # (points 0.5 A apart, ends included) keeps slightly fewer neighbours near the faces.
        rho, r, length = 96600 / 1e6, 12.0, 100.0
        continuous = rho * (4 / 3 * math.pi * r ** 3 - 3 * math.pi * r ** 4 / (2 * length)
                            + 8 * r ** 5 / (5 * length ** 2) - r ** 6 / (6 * length ** 3))
        lattice = demands.atoms_within_cutoff(201)
        self.assertGreater(lattice, 0.98 * continuous)
        self.assertLess(lattice, continuous)
        # The middle planes lose only the x and y faces.
        self.assertGreater(demands.atoms_within_cutoff(8), lattice)

    def test_every_kernel_of_the_committed_study_has_a_bound_everywhere(self):
        _, found, _ = results.load(STUDY)
        cells = [(k, c.case, key) for k, cases in metrics.cases_of(found).items()
                 for c in cases for key, cell in c.cells.items() if cell.arch is None]
        self.assertEqual(cells, [])
        kernels = metrics.cases_of(found)
        self.assertGreaterEqual(len(kernels), 13)
        for cases in kernels.values():  # no rate above its bound
            for c in cases:
                for cell in c.cells.values():
                    self.assertLess(cell.arch, 1.0, (c.kernel, c.case, cell.result.platform, cell.result.impl))


class Report(unittest.TestCase):
    def test_report_and_plots_are_written(self):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, os.path.join(ROOT, "perf", "study"), "--out", out] + FIXTURES,
                           check=True, capture_output=True)
            with open(os.path.join(out, "README.md")) as f:
                text = f.read()
            self.assertIn("| demo | AMD EPYC (2 threads); NVIDIA H200 | kokkos | 0.000 | 1.000 |", text)
            self.assertIn("`kmol_bench --fixture gpu`", text)
            self.assertIn("+20.0 %", text)
            self.assertIn("`not_a_convention_name`", text)
            pngs = glob.glob(os.path.join(out, "*.png"))
            self.assertGreaterEqual(len(pngs), 5)
            for png in pngs:
                with open(png, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", png)
                self.assertIn(os.path.basename(png), text)


class ScaleCurve(unittest.TestCase):
    ROWS = [{"path": "cells_histogram", "n": n, "steady_ns_per_item": steady, "oneshot_ns_per_item": once,
             "command_ns_per_item": 3 * once, "command_seconds": 1.5, "peak_memory_mib": 700}
            for n, steady, once in ((1_000_000, 3.0, 27.0), (4_000_000, 3.3, 6.0), (100_000, 9.0, 90.0))]
    ROWS.append({"path": "density", "n": 100_000_000, "steady_ns_per_item": 45.0,
                 "oneshot_ns_per_item": None, "command_ns_per_item": None, "command_seconds": None,
                 "peak_memory_mib": None})

    def test_flatness_from_a_million_atoms_up(self):
        self.assertAlmostEqual(scale.flatness(self.ROWS[:3], "steady_ns_per_item"), 1.1)
        self.assertAlmostEqual(scale.flatness(self.ROWS[:3], "oneshot_ns_per_item"), 4.5)
        self.assertIsNone(scale.flatness(self.ROWS[3:], "oneshot_ns_per_item"))

    def test_section_with_missing_one_shot_runs(self):
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "scale.json")
            with open(path, "w") as f:
                json.dump({"device": "gpu", "gpu": "NVIDIA H200, 143771 MiB", "commit": "abc1234",
                           "rows": self.ROWS}, f)
            text = "\n".join(scale.section(scale.load([path]), out))
            self.assertIn("| cells_histogram | 1,000,000 | 3 | 27 | 9.00 | 1.50 | 700 |", text)
            self.assertIn("| density | 100,000,000 | 45 | n/a | n/a | n/a | n/a |", text)
            self.assertIn("steady 1.10, one shot 4.50", text)
            with open(os.path.join(out, "scale.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
