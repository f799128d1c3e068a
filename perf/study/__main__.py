"""perf/study: the performance-portability study in one command (docs/study.md).

  /usr/bin/python3 perf/study --bench build/openmp/perf/kmol_bench --out perf/report gpu.json
runs kmol_bench here, keeps its JSON, and writes the report from it and the other machines' JSON;
without --bench it only writes the report from the JSON files given.
"""
import argparse
import datetime
import os
import shlex
import socket
import subprocess
import sys

if __package__ in (None, ""):  # run as `python3 perf/study`: import the package by its name
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "study"

from study import report, results, scale  # noqa: E402


def run_benchmarks(bench, extra, json_path):
    env = dict(os.environ)
    env.setdefault("OMP_PROC_BIND", "spread")
    env.setdefault("OMP_PLACES", "threads")
    os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
    tmp = json_path + ".tmp"
    command = [bench, f"--benchmark_out={tmp}", "--benchmark_out_format=json"] + extra
    print("study: running", " ".join(shlex.quote(c) for c in command), file=sys.stderr)
    status = subprocess.run(command, env=env).returncode
    if status != 0:
        sys.exit(f"study: {bench} failed with status {status}")
    os.replace(tmp, json_path)


def main(argv):
    p = argparse.ArgumentParser(prog="perf/study", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("json", nargs="*", help="Google Benchmark JSON files of kmol_bench (any machines)")
    p.add_argument("--out", required=True, help="report directory (README.md and PNG plots)")
    p.add_argument("--bench", help="kmol_bench to run on this machine first")
    p.add_argument("--bench-arg", action="append", default=[],
                   help="argument passed to kmol_bench (repeatable), e.g. --bench-arg=--benchmark_min_time=1")
    p.add_argument("--scale", action="append", default=[],
                   help="scale.json of perf/scale_curve.sh (repeatable): the scale curve section")
    p.add_argument("--save-json", help="where --bench's JSON goes (default perf/results/DATE-HOST.json)")
    args = p.parse_args(argv)

    paths = list(args.json)
    if args.bench:
        today = datetime.datetime.utcnow().strftime("%Y-%m-%d")
        default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results",
                               f"{today}-{socket.gethostname()}.json")
        saved = os.path.normpath(args.save_json or default)
        run_benchmarks(args.bench, args.bench_arg, saved)
        paths.insert(0, saved)
    missing = [x for x in paths if not os.path.exists(x)]
    if not paths or missing:
        sys.exit(f"study: no JSON to report on{': missing ' + ', '.join(missing) if missing else ''}")

    runs, found, skipped = results.load(paths)
    if not found:
        sys.exit("study: no benchmark in the JSON follows the convention of docs/study.md")
    os.makedirs(args.out, exist_ok=True)
    command = "/usr/bin/python3 perf/study " + " ".join(shlex.quote(a) for a in argv)
    path, summaries = report.write(args.out, runs, found, skipped, command,
                                   scale.load(args.scale))
    for kernel, s in sorted(summaries.items()):
        app = s["app"]
        print(f"study: {kernel}: PP app. portable {app['portable']:.3f}, best-of {app['best-of']:.3f}",
              file=sys.stderr)
    print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
