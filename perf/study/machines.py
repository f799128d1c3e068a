"""What each platform can do per second, per hardware resource: the numerators of the
architectural bounds. docs/study.md derives every figure; a platform or resource missing here has
no bound (its architectural efficiency is reported as unknown, never guessed).

Demands may also name a function (`rsqrt`, `exp`, `fp64_rsqrt`, `fp64_exp`): each platform says
what one costs in its own resources (`expansions`), since a GPU has a special-function unit where
a CPU runs a sequence of vector instructions."""
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
# addresses, measured on an H200 at 1.98 GHz: 2,146 G/s over 132 SMs); MUFU: 16 (4 quarter-SM
# units of 4 lanes; rsqrtf measured 4,117 G/s); issue: 4 schedulers x 1 warp instruction x 32
# lanes; FP32: 128 lanes x 2 flops (FFMA); FP64: 64 lanes (34 TFLOP/s on the H100/H200 SXM
# specifications without tensor cores: 64 x 2 x 132 x 1.98 GHz).
HOPPER_PER_SM_CLOCK = {
    "smem_atomics": (8.2, "8.2 shared-memory atomics per SM per clock (measured, H200)"),
    "special_functions": (16.0, "16 MUFU operations per SM per clock (measured 4,117 G/s rsqrtf on an H200)"),
    "instructions": (128.0, "4 schedulers x 32 lanes = 128 thread-instructions per SM per clock"),
    "fp32_flops": (256.0, "128 FP32 lanes x 2 (FFMA) = 256 flops per SM per clock"),
    "fp64_instructions": (64.0, "64 FP64 lanes = 64 FP64 thread-instructions per SM per clock"),
    "fp64_flops": (128.0, "64 FP64 lanes x 2 (DFMA) = 128 flops per SM per clock"),
}
HBM_BYTES_PER_S = {  # vendor specifications (SXM parts)
    "H200": (4.8e12, "HBM3e 4.8 TB/s (NVIDIA H200 SXM specification)"),
    "H100": (3.35e12, "HBM3 3.35 TB/s (NVIDIA H100 SXM specification)"),
}
# PCIe Gen5 x16 to the host, each direction (the SXM specifications' 128 GB/s is both together).
HOST_LINK = (64e9, "PCIe Gen5 x16: 64 GB/s each way (NVIDIA H100/H200 SXM specification: 128 GB/s)")
# What one function costs on Hopper, from the SASS of kernels/coulomb/cuda (cuobjdump -sass):
# rsqrt.approx.ftz.f32 and ex2.approx.ftz.f32 are one MUFU instruction each (the factor log2(e)
# folded into the argument's coefficients); a double 1/sqrt is MUFU.RSQ64H and 5 FP64 instructions
# (DMUL, DFMA, DFMA, DMUL, DFMA: a third-order correction); a double exp 15 (round and
# Cody-Waite reduction in 4, a degree-11 polynomial in 11 DFMA; the scale is an integer add).
HOPPER_EXPANSIONS = {
    "rsqrt": {"special_functions": 1.0, "instructions": 1.0},
    "exp": {"special_functions": 1.0, "instructions": 1.0},
    "fp64_rsqrt": {"fp64_instructions": 5.0},
    "fp64_exp": {"fp64_instructions": 15.0},
}

# AMD Zen 3 (EPYC family 25) and Zen 5 (family 26) per core and clock, AVX2 (the build targets
# x86-64-v3: 8 FP32 lanes). Histogram increments: a load of the bin, a load and a store of the
# counter: Zen 3 issues 3 memory operations per clock, Zen 5 4. Lane-instructions: 4 FP pipes x 8
# FP32 lanes. FP32: 2 FMA pipes x 8 lanes x 2 flops.
ZEN3_PER_CORE_CLOCK = {
    "smem_atomics": (1.0, "1 private-histogram increment per core per clock (3 memory operations: "
                          "bin load, counter load and store; Zen 3 issues 3 per clock)"),
    "instructions": (32.0, "4 FP pipes x 8 FP32 lanes = 32 lane-instructions per core per clock"),
    "fp32_flops": (32.0, "2 FMA pipes x 8 FP32 lanes x 2 = 32 flops per core per clock"),
}
ZEN5_PER_CORE_CLOCK = dict(ZEN3_PER_CORE_CLOCK, smem_atomics=(
    4.0 / 3.0, "4/3 private-histogram increments per core per clock (3 memory operations each; "
               "Zen 5 issues 4 per clock)"))
# Zen 5 measured on the 2-core development host by perf/cpu_capacities.sh (medians): the clock a
# core runs at (a chain of dependent integer adds; the JSON's 2,596 MHz is the nominal clock), the
# rate of 8-lane vrsqrtps + one Newton step (5 instructions; inputs independent, one core), and a
# copy with 2 threads (16 bytes an element, as STREAM counts).
ZEN5_CLOCK_HZ = 3.40e9
ZEN5_RSQRT_PER_CORE_S = 17.4e9
ZEN5_DRAM_BYTES_PER_S = 56.7e9
# Intel Golden Cove and its successors (Xeon Sapphire Rapids and later) per core and clock, AVX2:
# 256-bit vector operations issue on ports 0, 1 and 5, FMAs on ports 0 and 1, loads on 3 ports and
# stores on 2 (Intel's optimization reference manual, Golden Cove microarchitecture). Histogram
# increments: two loads (the bin, the counter) and a store, so the 3 load ports allow 1.5 a clock.
GOLDEN_COVE_PER_CORE_CLOCK = {
    "smem_atomics": (1.5, "1.5 private-histogram increments per core per clock (2 loads and a "
                          "store each; Golden Cove has 3 load ports)"),
    "instructions": (24.0, "3 vector ports x 8 FP32 lanes = 24 lane-instructions per core per clock"),
    "fp32_flops": (32.0, "2 FMA ports x 8 FP32 lanes x 2 = 32 flops per core per clock"),
}
# Measured on the 2-core development host of the Intel kind by perf/cpu_capacities.sh, the largest
# of its medians kept (a bound is an upper limit; docs/study.md): 2.0 ymm FMAs a clock, as the two
# FMA ports allow.
GOLDEN_COVE_CLOCK_HZ = 4.12e9
GOLDEN_COVE_RSQRT_PER_CORE_S = 15.7e9
GOLDEN_COVE_DRAM_BYTES_PER_S = 20.3e9
# What one function costs in AVX2 code (Zen and Intel cores alike), in FP32 lane-instructions: rsqrt is vrsqrtps + one Newton
# step (5, also counted against the measured special-function rate); a float exp a rounding, a
# reduction, a degree-6 polynomial and the exponent's assembly (12); a double occupies two FP32
# lanes, so FP64 counts double: a double 1/sqrt is a float seed (vcvtpd2ps, vrsqrtps, vcvtps2pd),
# a Newton and a third-order step (12 double lane-instructions), a double exp 18 (15 as on Hopper
# and 3 for the exponent).
AVX2_EXPANSIONS = {
    "rsqrt": {"special_functions": 1.0, "instructions": 5.0},
    "exp": {"instructions": 12.0},
    "fp64_rsqrt": {"instructions": 24.0},
    "fp64_exp": {"instructions": 36.0},
    "fp64_instructions": {"instructions": 2.0},
    "fp64_flops": {"fp32_flops": 2.0},
}


def _amd_family_model(context):
    family_model = context.get("cpu_family_model")
    if family_model is None or not context.get("cpu_model", "").startswith("AMD"):
        return None, None
    family, _, model = family_model.partition("/")
    return (int(family), int(model)) if family.isdigit() and model.isdigit() else (None, None)


def is_zen3(context):
    """AMD family 25 (19h) models 0-15, 32-47, 64-95 are Zen 3. Files written before perf/main.cpp
    recorded the family come from this project's development machines (EPYC 25/1)."""
    if context.get("cpu_family_model") is None:
        return context.get("cpu_model") == "AMD EPYC"
    family, model = _amd_family_model(context)
    return family == 25 and (model in range(0, 16) or model in range(32, 48) or model in range(64, 96))


def is_zen5(context):
    """AMD family 26 (1Ah) models 0-79 and 96-127 are Zen 5 (2 = EPYC 9005, the development host)."""
    family, model = _amd_family_model(context)
    return family == 26 and (model in range(0, 80) or model in range(96, 128))


def is_intel_golden_cove(context):
    """An Intel Xeon with AMX: Sapphire Rapids and later, whose cores are Golden Cove or its
    successors with the same vector ports. Their hypervisors may report any model number (the
    development host of the Intel kind reads 6/167), so the AMX flag tells them."""
    return context.get("cpu_model", "").startswith("Intel") and context.get("cpu_amx") == "yes"


def expansions(backend, context):
    """Function -> {resource: amount} it costs on the platform (empty when unknown)."""
    if backend == "Cuda":
        return HOPPER_EXPANSIONS if _is_hopper(context) else {}
    if backend in ("OpenMP", "Serial", "host") and (
            is_zen3(context) or is_zen5(context) or is_intel_golden_cove(context)):
        return AVX2_EXPANSIONS
    return {}


def _is_hopper(context):
    return any(model in context.get("gpu0", "") for model in HBM_BYTES_PER_S)


def _cores(backend, context):
    return 1 if backend == "Serial" else int(context.get("host_threads", context.get("num_cpus", 1)))


def _measured_cpu(backend, context, per_core_clock, clock_hz, rsqrt_per_core_s, dram_bytes_per_s):
    """A development host's capacities: per-clock figures at its measured clock, its measured
    1/sqrt rate and, for its 2 cores together, its measured copy rate."""
    cores = _cores(backend, context)
    scale = f" x {cores} cores x {clock_hz / 1e9:.2f} GHz (measured clock)"
    caps = {r: Capacity(v * cores * clock_hz, how + scale) for r, (v, how) in per_core_clock.items()}
    caps["special_functions"] = Capacity(
        rsqrt_per_core_s * cores,
        f"vrsqrtps + 1 Newton step: {rsqrt_per_core_s / 1e9:.1f} G lanes/s per core (measured) x {cores} cores")
    if cores == 2:  # the 2-core host's memory share, measured with both cores copying
        caps["dram_bytes"] = Capacity(dram_bytes_per_s, "copy with 2 threads, "
                                      f"{dram_bytes_per_s / 1e9:.0f} GB/s (measured, perf/cpu_capacities.sh)")
    return caps


def capacities(platform, backend, context):
    """Resource -> Capacity for the platform a result ran on (empty when unknown)."""
    if backend == "Cuda":
        sms, hz = _gpu_sms_and_clock(context)
        if sms is None or not _is_hopper(context):
            return {}
        scale = f" x {sms} SMs x {hz / 1e9:.2f} GHz"
        caps = {r: Capacity(v * sms * hz, how + scale) for r, (v, how) in HOPPER_PER_SM_CLOCK.items()}
        for model, (bw, how) in HBM_BYTES_PER_S.items():
            if model in platform:
                caps["dram_bytes"] = Capacity(bw, how)
        caps["host_to_device_bytes"] = Capacity(*HOST_LINK)
        caps["device_to_host_bytes"] = Capacity(*HOST_LINK)
        return caps
    if backend not in ("OpenMP", "Serial", "host"):
        return {}
    if is_zen5(context):
        return _measured_cpu(backend, context, ZEN5_PER_CORE_CLOCK, ZEN5_CLOCK_HZ,
                             ZEN5_RSQRT_PER_CORE_S, ZEN5_DRAM_BYTES_PER_S)
    if is_intel_golden_cove(context):
        return _measured_cpu(backend, context, GOLDEN_COVE_PER_CORE_CLOCK, GOLDEN_COVE_CLOCK_HZ,
                             GOLDEN_COVE_RSQRT_PER_CORE_S, GOLDEN_COVE_DRAM_BYTES_PER_S)
    if is_zen3(context):
        cores = _cores(backend, context)
        hz = float(context.get("mhz_per_cpu", 0)) * 1e6
        if hz <= 0:
            return {}
        scale = f" x {cores} cores x {hz / 1e9:.2f} GHz"
        return {r: Capacity(v * cores * hz, how + scale) for r, (v, how) in ZEN3_PER_CORE_CLOCK.items()}
    return {}
