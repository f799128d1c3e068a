# Sourced by the whole-command benchmarks after their arguments: they work in a scratch directory
# (removed on exit), with OpenMP threads spread over the cores, and $machine names the cores and
# the GPU for their reports.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) || gpu=""
if [[ -n $gpu ]]; then machine+=", $gpu"; fi
