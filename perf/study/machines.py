"""What each platform can do per second, per hardware resource: the numerators of the
architectural bounds. docs/study.md derives every figure; a platform or resource missing here has
no bound (its architectural efficiency is reported as unknown, never guessed)."""
import re
from dataclasses import dataclass


@dataclass
class Capacity:
    per_second: float
    how: str  # the derivation, quoted in the report


def _gpu_sms_and_clock(context):
    """SM count and clock (Hz) from perf/main.cpp's gpu0 line ('..., 132 SMs, 1980 MHz')."""
    text = context.get("gpu0", "")
    sms = re.search(r"(\d+) SMs", text)
    mhz = re.search(r"(\d+) MHz", text)
    return (int(sms.group(1)), float(mhz.group(1)) * 1e6) if sms and mhz else (None, None)


# Hopper (sm_90) per SM and clock. Shared-memory atomics: 8.2 (red.shared.add.u32 on distinct
# addresses, measured on an H200 at 1.98 GHz: 2,146 G/s over 132 SMs); MUFU.RSQ: 16 (4 quarter-SM
# units of 4 lanes; measured 4,117 G/s); issue: 4 schedulers x 1 warp instruction x 32 lanes;
# FP32: 128 lanes x 2 flops (FFMA).
HOPPER_PER_SM_CLOCK = {
    "smem_atomics": (8.2, "8.2 shared-memory atomics per SM per clock (measured, H200)"),
    "special_functions": (16.0, "16 MUFU.RSQ per SM per clock (measured 4,117 G/s on an H200)"),
    "instructions": (128.0, "4 schedulers x 32 lanes = 128 thread-instructions per SM per clock"),
    "fp32_flops": (256.0, "128 FP32 lanes x 2 (FFMA) = 256 flops per SM per clock"),
}
HBM_BYTES_PER_S = {  # vendor specifications (SXM parts)
    "H200": (4.8e12, "HBM3e 4.8 TB/s (NVIDIA H200 SXM specification)"),
    "H100": (3.35e12, "HBM3 3.35 TB/s (NVIDIA H100 SXM specification)"),
}

# AMD Zen 3 (EPYC family 25, model 1) per core and clock, AVX2 without AVX-512. Histogram
# increments: each is a load of the bin, a load and a store of the counter; Zen 3 issues 3 memory
# operations per clock, so 1 increment. Lane-instructions: 4 FP pipes x 8 FP32 lanes. FP32: 2 FMA
# pipes x 8 lanes x 2 flops.
ZEN3_PER_CORE_CLOCK = {
    "smem_atomics": (1.0, "1 private-histogram increment per core per clock (3 memory operations: "
                          "bin load, counter load and store; Zen 3 issues 3 per clock)"),
    "instructions": (32.0, "4 FP pipes x 8 FP32 lanes = 32 lane-instructions per core per clock"),
    "fp32_flops": (32.0, "2 FMA pipes x 8 FP32 lanes x 2 = 32 flops per core per clock"),
}


def is_zen3(context):
    """AMD family 25 (19h) models 0-15, 32-47, 64-95 are Zen 3. Files written before perf/main.cpp
    recorded the family come from this project's development machines (EPYC 25/1)."""
    family_model = context.get("cpu_family_model")
    if family_model is None:
        return context.get("cpu_model") == "AMD EPYC"
    family, _, model = family_model.partition("/")
    if not (context.get("cpu_model", "").startswith("AMD") and family == "25" and model.isdigit()):
        return False
    return int(model) in range(0, 16) or int(model) in range(32, 48) or int(model) in range(64, 96)


def capacities(platform, backend, context):
    """Resource -> Capacity for the platform a result ran on (empty when unknown)."""
    if backend == "Cuda":
        sms, hz = _gpu_sms_and_clock(context)
        if sms is None or "H100" not in platform and "H200" not in platform:
            return {}
        scale = f" x {sms} SMs x {hz / 1e9:.2f} GHz"
        caps = {r: Capacity(v * sms * hz, how + scale) for r, (v, how) in HOPPER_PER_SM_CLOCK.items()}
        for model, (bw, how) in HBM_BYTES_PER_S.items():
            if model in platform:
                caps["dram_bytes"] = Capacity(bw, how)
        return caps
    if is_zen3(context) and backend in ("OpenMP", "Serial"):
        cores = 1 if backend == "Serial" else int(context.get("host_threads", context.get("num_cpus", 1)))
        hz = float(context.get("mhz_per_cpu", 0)) * 1e6
        if hz <= 0:
            return {}
        scale = f" x {cores} cores x {hz / 1e9:.2f} GHz"
        caps = {r: Capacity(v * cores * hz, how + scale) for r, (v, how) in ZEN3_PER_CORE_CLOCK.items()}
        return caps
    return {}
