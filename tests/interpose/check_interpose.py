#!/usr/bin/env python3
"""End-to-end checks of libanygpu_intercept.so and anygpu-trace (docs/interposition.md).

Each scenario runs a test program (driver_api_program.c, hip_api_program.c, or the real programs
of programs/: nvcc's CUDA Runtime program, hipcc's HIP program) under the interposer and compares what the interposer wrote (trace JSON, statistics, dumped images) with what the
program says it did and what the test driver counted. Exit 0: passed, 1: failed, 77: skipped.
"""
import argparse
import collections
import ctypes
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys

SKIP = 77
CUDA_ERROR_OUT_OF_MEMORY = 2  # cuda.h
HIP_ERROR_OUT_OF_MEMORY = 2  # hip_runtime_api.h


class CheckFailed(Exception):
    pass


class Skipped(Exception):
    pass


def need(value, reason):
    if not value:
        raise Skipped(reason)


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def run(args, command, environment=None, preload=False, expected_status=0, foreign=False):
    """`foreign`: the program is not built by this build (nvcc's, hipcc's), so not sanitized."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANYGPU_INTERCEPT")}
    env.update(environment or {})
    if args.asan:
        # The ASan runtime is loaded by the (ASan-built) program after the preloaded interposer.
        options = env.get("ASAN_OPTIONS", "")
        env["ASAN_OPTIONS"] = (options + ":" if options else "") + "verify_asan_link_order=0"
        if foreign:
            # Nothing loads the sanitizer runtimes before the sanitized interposer and test driver
            # but LD_PRELOAD (anygpu-trace keeps them ahead of the interposer); the program's own
            # allocations are not instrumented, so leaks are not looked for.
            env["LD_PRELOAD"] = args.sanitizer_runtimes
            env["ASAN_OPTIONS"] += ":detect_leaks=0"
    if preload:
        env["LD_PRELOAD"] = args.library
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=100)
    sys.stdout.write(done.stdout)
    sys.stdout.write("".join("  stderr: " + line + "\n" for line in done.stderr.splitlines()))
    check(expected_status is None or done.returncode == expected_status,
          f"{command[0]} exited with {done.returncode}, expected {expected_status}")
    return done


def traced(args, options, program_arguments, **kwargs):
    return run(args, [args.trace_tool] + options + ["--"] + program_arguments, **kwargs)


def load_trace(path):
    check(os.path.exists(path), f"no trace file {path}")
    with open(path) as file:
        try:
            document = json.load(file)
        except json.JSONDecodeError as error:
            raise CheckFailed(f"{path} is not valid JSON: {error}")
    events = document.get("traceEvents")
    check(isinstance(events, list), f"{path} has no traceEvents list")
    calls = [event for event in events if event.get("ph") == "X"]
    for event in calls:
        for key in ("name", "ts", "dur", "pid", "tid", "args"):
            check(key in event, f"{path}: event {event} lacks {key}")
        check("result_code" in event["args"] and "result" in event["args"],
              f"{path}: event {event} lacks its result")
    return calls


def names(events):
    return collections.Counter(event["name"] for event in events)


def parse_stats(text):
    """The statistics table: {function: (calls, errors, injected, bytes)} and the summary lines."""
    table = {}
    for line in text.splitlines():
        match = re.match(r"^((?:cu|hip)\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+(\d+)$", line)
        if match:
            table[match.group(1)] = tuple(int(match.group(i)) for i in range(2, 6))
    device = re.search(r"device memory: peak (\d+) bytes; never freed: (\d+) allocation\(s\), (\d+) bytes", text)
    check(device, "the statistics lack the device memory line")
    entry_points = re.search(r"(\d+) wrapped, (\d+) passed through", text)
    check(entry_points, "the statistics lack the entry points line")
    return table, tuple(int(x) for x in device.groups()), tuple(int(x) for x in entry_points.groups())


def read(path):
    check(os.path.exists(path), f"no file {path}")
    with open(path) as file:
        return file.read()


def results(output, pattern):
    """The integers a pattern's one group matches, line by line, in order."""
    return [int(match.group(1)) for match in re.finditer(pattern, output, re.MULTILINE)]


# The calls `driver_api_program sequence` makes, by the symbol cuda.h maps them to.
SEQUENCE = {"cuInit": 1, "cuDeviceGet": 1, "cuDevicePrimaryCtxRetain": 1, "cuCtxSetCurrent": 1,
            "cuMemAlloc_v2": 4, "cuMemcpyHtoD_v2": 1, "cuMemcpyDtoD_v2": 1, "cuMemcpyDtoH_v2": 1,
            "cuMemFree_v2": 3}


def trace_and_stats(args):
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.driver_program, "sequence"])
    events = load_trace(trace)
    check(names(events) == collections.Counter(SEQUENCE),
          f"traced calls {dict(names(events))}, expected {SEQUENCE}")
    check(all(event["args"]["result"] == "CUDA_SUCCESS" for event in events), "a call failed")
    sizes = results(done.stdout, r"^cuMemAlloc \d+ bytes (\d+) result 0$")
    check(len(sizes) == 4, "the program did not allocate 4 times")
    traced_sizes = [event["args"]["bytes"] for event in events if event["name"] == "cuMemAlloc_v2"]
    check(traced_sizes == sizes, f"traced allocation sizes {traced_sizes}, the program's {sizes}")
    table, device, _ = parse_stats(read(stats))
    counts = {name: row[0] for name, row in table.items()}
    check(counts == SEQUENCE, f"statistics count {counts}, expected {SEQUENCE}")
    check(all(row[1] == 0 for row in table.values()), "the statistics count errors")
    leaked = results(done.stdout, r"^leaked bytes (\d+)$")
    check(device[1:] == (1, leaked[0]), f"never freed {device[1:]}, expected (1, {leaked[0]})")
    check(device[0] == sum(sizes), f"peak {device[0]}, expected {sum(sizes)} (all 4 live at once)")
    for name in ("cuMemcpyHtoD_v2", "cuMemcpyDtoD_v2", "cuMemcpyDtoH_v2"):
        copied = sum(event["args"]["bytes"] for event in events if event["name"] == name)
        check(copied > 0 and table[name][3] == copied,
              f"{name}: statistics say {table[name][3]} bytes, the trace {copied}")


def proc_address(args):
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.driver_program, "proc-address"])
    lines = re.findall(r"^cuGetProcAddress_v2 cuMemAlloc (\d+) result (-?\d+) status (-?\d+) alloc (-?\d+)$",
                       done.stdout, re.MULTILINE)
    check([line[0] for line in lines] == ["12000", "13000"], "the program did not ask twice")
    check(all(line[1:] == ("0", "0", "0") for line in lines), f"lookups or allocations failed: {lines}")
    events = load_trace(trace)
    lookups = [event["args"] for event in events if event["name"] == "cuGetProcAddress_v2"]
    check([(a["symbol"], a["cuda_version"], a["entry_point"]) for a in lookups] ==
          [("cuMemAlloc", 12000, "wrapped"), ("cuMemAlloc", 13000, "wrapped")],
          f"cuGetProcAddress_v2 events {lookups}")
    check(names(events)["cuMemAlloc_v2"] == 2, "the allocations through cuGetProcAddress were not traced")
    check(results(done.stdout, r"^driver cuMemAlloc_v2 calls (\d+)$") == [2],
          "the allocations did not reach the driver")
    table, _, entry_points = parse_stats(read(stats))
    check(table["cuMemAlloc_v2"][0] == 2, "the statistics miss the allocations")
    check(entry_points == (2, 0), f"entry points wrapped/passed through {entry_points}, expected (2, 0)")


def proc_address_matching(args):
    """Each answer of cuGetProcAddress_v2 is wrapped exactly when it is an export the interposer
    wraps, with that export's signature; v1 cuMemAlloc and an internal entry point pass through."""
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats],
                  [args.driver_program, "matching", args.proc_address_driver])
    lookups = re.findall(r"^lookup (\w+) (\d+) (\d+) result (-?\d+) call (-?\d+)$", done.stdout, re.MULTILINE)
    check(len(lookups) == 6 and all(line[3:] == ("0", "0") for line in lookups),
          f"lookups or calls through them failed: {lookups}")
    events = load_trace(trace)
    handed = [(e["args"]["symbol"], e["args"]["cuda_version"], e["args"]["flags"], e["args"]["entry_point"])
              for e in events if e["name"] == "cuGetProcAddress_v2"]
    # The last one is asked through the cuGetProcAddress wrapper handed out by the one before.
    expected = [("cuMemAlloc", 3000, 0, "passed through"), ("cuMemAlloc", 12000, 0, "wrapped"),
                ("cuMemcpyAsync", 12000, 2, "wrapped"), ("cuMemcpyAsync", 12000, 0, "wrapped"),
                ("cuStreamQuery", 12000, 0, "passed through"), ("cuGetProcAddress", 12000, 0, "wrapped"),
                ("cuMemAlloc", 12000, 0, "wrapped")]
    check(handed == expected, f"entry points handed out {handed}, expected {expected}")
    calls = names(events)
    # The wrappers called are those of the exports the driver chose: _v2 for cuMemAlloc at 12000,
    # _ptsz with the per-thread flag; nothing for the v1 function or the internal entry point.
    check(calls["cuMemAlloc_v2"] == 1 and calls["cuMemcpyAsync_ptsz"] == 1 and
          calls["cuMemcpyAsync"] == 1 and calls["cuStreamQuery"] == 0 and calls["cuGetProcAddress_v2"] == 7,
          f"traced calls {dict(calls)}")
    _, _, entry_points = parse_stats(read(stats))
    check(entry_points == (5, 2), f"entry points wrapped/passed through {entry_points}, expected (5, 2)")


def allocation_results(output):
    return results(output, r"^cuMemAlloc \d+ bytes \d+ result (-?\d+)$")


def fault_nth(args):
    stats = os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--fault", "cuMemAlloc:nth=3:error=CUDA_ERROR_OUT_OF_MEMORY",
                         "--stats=" + stats], [args.driver_program, "sequence"])
    check(allocation_results(done.stdout) == [0, 0, CUDA_ERROR_OUT_OF_MEMORY, 0],
          f"allocation results {allocation_results(done.stdout)}: only the 3rd should fail")
    table, _, _ = parse_stats(read(stats))
    check(table["cuMemAlloc_v2"][:3] == (4, 1, 1), f"cuMemAlloc_v2 statistics {table['cuMemAlloc_v2']}")
    # The error as a number, the first call; the versioned name selects only that version.
    done = traced(args, ["--fault", "cuMemAlloc_v2:nth=1:error=700"], [args.driver_program, "sequence"])
    check(allocation_results(done.stdout) == [700, 0, 0, 0],
          f"allocation results {allocation_results(done.stdout)}: only the 1st should fail")


def fault_before_after(args):
    def driver_counts(options):
        done = traced(args, options, [args.driver_program, "sequence"])
        calls = results(done.stdout, r"^driver cuMemAlloc_v2 calls (\d+)$")
        live = results(done.stdout, r"^driver live objects (\d+)$")
        check(len(calls) == 1 and len(live) == 1, "the program did not report the driver's counts")
        return allocation_results(done.stdout), calls[0], live[0]

    plain = driver_counts(["--stats=" + os.path.join(args.work_dir, "plain.txt")])
    before = driver_counts(["--fault", "cuMemAlloc:nth=3:error=2:when=before"])
    after = driver_counts(["--fault", "cuMemAlloc:nth=3:error=2:when=after"])
    check(plain[0] == [0, 0, 0, 0], "allocations failed without a fault")
    for name, run_counts in (("before", before), ("after", after)):
        check(run_counts[0] == [0, 0, 2, 0], f"when={name}: results {run_counts[0]}")
    check(before[1] == plain[1] - 1, f"when=before: the driver saw {before[1]} calls, expected {plain[1] - 1}")
    check(after[1] == plain[1], f"when=after: the driver saw {after[1]} calls, expected {plain[1]}")
    check(before[2] == plain[2], "when=before changed what the driver holds")
    check(after[2] == plain[2] + 1, "when=after: the driver should hold the allocation the program never got")


def bad_fault_spec(args):
    done = run(args, [args.driver_program, "sequence"], preload=True, environment={
        "ANYGPU_INTERCEPT": "fault,bogus",
        "ANYGPU_INTERCEPT_FAULT": "cuMemAlloc:nth=zero;cuNope:nth=1;cuMemAlloc:nth=2:error=2;"
                                  "cuMemAlloc:when=later;cuMemAlloc:error=hipErrorOutOfMemory"})
    for expected in ("unknown mode 'bogus'", "spec 'cuMemAlloc:nth=zero'", "spec 'cuNope:nth=1'",
                     "spec 'cuMemAlloc:when=later'", "spec 'cuMemAlloc:error=hipErrorOutOfMemory'"):
        check(expected in done.stderr, f"no message about {expected}")
    check(done.stderr.count("anygpu-intercept: bad ANYGPU_INTERCEPT_FAULT") == 4,
          "each bad spec should be reported once")
    check(allocation_results(done.stdout) == [0, 2, 0, 0], "the good spec should still apply")


def threads(args):
    """Many threads at once: every call counted and traced, each on its own thread id."""
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.driver_program, "threads"])
    match = re.search(r"^threads (\d+) rounds (\d+) failures 0$", done.stdout, re.MULTILINE)
    check(match, "the threads' calls failed")
    thread_count, rounds = int(match.group(1)), int(match.group(2))
    events = load_trace(trace)
    calls = names(events)
    check(calls["cuMemAlloc_v2"] == thread_count * rounds and calls["cuMemFree_v2"] == thread_count * rounds,
          f"traced calls {dict(calls)}")
    allocating = {event["tid"] for event in events if event["name"] == "cuMemAlloc_v2"}
    check(len(allocating) == thread_count, f"allocations traced on {len(allocating)} threads")
    table, device, _ = parse_stats(read(stats))
    check(table["cuMemAlloc_v2"][0] == thread_count * rounds and
          table["cuMemFree_v2"][0] == thread_count * rounds, f"statistics {table}")
    check(device[1:] == (0, 0), f"never freed {device[1:]}, expected none")


def fork(args):
    pattern = os.path.join(args.work_dir, "trace.%p.json")
    done = traced(args, ["--trace", pattern], [args.driver_program, "fork"])
    pids = {}
    for who, pid, result in re.findall(r"^(child|parent) pid (\d+) cuMemAlloc result (-?\d+)$",
                                       done.stdout, re.MULTILINE):
        check(result == "0", f"the {who}'s allocation failed")
        pids[who] = int(pid)
    check(set(pids) == {"child", "parent"} and pids["child"] != pids["parent"], "no two processes")
    files = sorted(glob.glob(os.path.join(args.work_dir, "trace.*.json")))
    check(len(files) == 2, f"trace files {files}, expected one per process")
    for who, pid in pids.items():
        events = load_trace(pattern.replace("%p", str(pid)))
        check(all(event["pid"] == pid for event in events), f"the {who}'s trace holds other pids")
        calls = names(events)
        check(calls["cuMemAlloc_v2"] == 1 and calls["cuMemFree_v2"] == 1,
              f"the {who}'s trace: {dict(calls)}")
        # The child starts with a fresh buffer: the setup calls made before fork are the parent's.
        check(calls["cuInit"] == (1 if who == "parent" else 0), f"the {who}'s trace: {dict(calls)}")


def hip(args):
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--fault", "hipMalloc:nth=2:error=hipErrorOutOfMemory", "--trace", trace,
                         "--stats=" + stats], [args.hip_program])
    allocations = results(done.stdout, r"^hipMalloc \d+ result (-?\d+)$")
    check(allocations == [0, HIP_ERROR_OUT_OF_MEMORY, 0], f"hipMalloc results {allocations}")
    check(re.search(r"^hipGetProcAddress hipMalloc result 0 status 0 alloc 0$", done.stdout, re.MULTILINE),
          "hipMalloc through hipGetProcAddress failed")
    events = load_trace(trace)
    calls = names(events)
    check(calls["hipMalloc"] == 4 and calls["hipFree"] == 3, f"traced calls {dict(calls)}")
    injected = [event for event in events if event["args"].get("injected")]
    check(len(injected) == 1 and injected[0]["args"]["result"] == "hipErrorOutOfMemory",
          f"injected events {injected}")
    lookup = [event["args"] for event in events if event["name"] == "hipGetProcAddress"]
    check(len(lookup) == 1 and lookup[0]["entry_point"] == "wrapped", f"hipGetProcAddress events {lookup}")
    table, device, _ = parse_stats(read(stats))
    check(table["hipMalloc"][:3] == (4, 1, 1) and table["hipFree"][0] == 3, f"statistics {table}")
    check(device[1] == 0, "every successful hipMalloc was freed")


def dump(args):
    dump_dir, expected_dir = os.path.join(args.work_dir, "dump"), os.path.join(args.work_dir, "expected")
    os.makedirs(expected_dir)
    done = traced(args, ["--dump", dump_dir], [args.driver_program, "modules", expected_dir])
    saved = sorted(os.listdir(dump_dir)) if os.path.isdir(dump_dir) else []
    check(len(saved) == 3, f"dumped {saved}, expected 3 images")
    for name in saved:
        match = re.match(r"^(\d+)-(\d+)-cuModuleLoadDataEx\.(\w+)$", name)
        check(match, f"dump file name {name}")
        expected = os.path.join(expected_dir, f"expected-{match.group(2)}.{match.group(3)}")
        check(os.path.exists(expected), f"{name}: no image {expected} was loaded as number "
              f"{match.group(2)} with that format")
        with open(os.path.join(dump_dir, name), "rb") as a, open(expected, "rb") as b:
            check(a.read() == b.read(), f"{name} differs from the image loaded")


# The calls `driver_api_program crash HOW` makes before it crashes.
CRASH_CALLS = {"cuInit": 1, "cuDeviceGet": 1, "cuDevicePrimaryCtxRetain": 1, "cuCtxSetCurrent": 1,
               "cuMemAlloc_v2": 2}


def signal_markers(path):
    with open(path) as file:
        return [e["name"] for e in json.load(file)["traceEvents"] if e.get("cat") == "signal"]


def crash(args):
    """A program that crashes leaves a closed trace holding its calls and a mark of the signal, and
    the statistics so far; it still ends with its own signal, through its own handler where it set
    one after the interposer's. A handler that recovers gets a trace that goes on."""
    # A sanitizer would take SIGSEGV itself, report and exit: the program's signal is what is
    # tested (ASan in the asan preset; TSan, should the scenario run in the tsan build).
    environment = {"TSAN_OPTIONS": "handle_segv=0:handle_abort=0"}
    if args.asan:
        environment["ASAN_OPTIONS"] = "handle_segv=0:handle_abort=0"
    for how, number in (("segv", signal.SIGSEGV), ("abort", signal.SIGABRT),
                        ("handled", signal.SIGSEGV)):
        trace = os.path.join(args.work_dir, how + ".json")
        stats = os.path.join(args.work_dir, how + ".txt")
        done = traced(args, ["--trace", trace, "--stats=" + stats], [args.driver_program, "crash", how],
                      environment=environment, expected_status=-number)
        check(names(load_trace(trace)) == collections.Counter(CRASH_CALLS),
              f"{how}: traced calls {dict(names(load_trace(trace)))}, expected {CRASH_CALLS}")
        check(signal_markers(trace) == [number.name], f"{how}: signal events {signal_markers(trace)}")
        text = read(stats)
        check(f"so far, at signal {number.name}" in text, f"{how}: the statistics do not say the signal")
        table, device, _ = parse_stats(text)
        counts = {name: row[0] for name, row in table.items()}
        check(counts == CRASH_CALLS, f"{how}: statistics count {counts}, expected {CRASH_CALLS}")
        check(device[1:] == (2, 3072), f"{how}: never freed {device[1:]}, expected (2, 3072)")
        if how == "handled":
            check("application handler ran" in done.stdout, "the program's own handler did not run")
    trace, stats = os.path.join(args.work_dir, "recover.json"), os.path.join(args.work_dir, "recover.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.driver_program, "crash", "recover"],
                  environment=environment)
    check("after recovery cuMemAlloc result 0" in done.stdout, "the program did not recover")
    check(names(load_trace(trace))["cuMemAlloc_v2"] == 3, "the trace stopped at the recovered signal")
    check(signal_markers(trace) == ["SIGSEGV"], f"recover: signal events {signal_markers(trace)}")
    table, _, _ = parse_stats(read(stats))
    check(table["cuMemAlloc_v2"][0] == 3 and "so far" not in read(stats),
          "recover: the statistics are not those of the normal exit")


def launcher_refuses_bad_options(args):
    bad = [["--fault", "cuMemAlloc:nth=0", "--", args.driver_program],
           ["--fault", "notAFunction", "--", args.driver_program],
           ["--fault", "cuMemAlloc:error=NOT_AN_ERROR", "--", args.driver_program],
           ["--fault", "cuMemAlloc:nth=1:p=0.5", "--", args.driver_program],
           ["--fault", "hipMalloc:p=2", "--", args.driver_program],
           ["--bogus", "--", args.driver_program],
           ["--trace"],
           ["--trace", "--", args.driver_program],
           ["--stats=", "--", args.driver_program],
           ["--library", "/nonexistent/libanygpu_intercept.so", "--", args.driver_program],
           []]
    for options in bad:
        done = run(args, [args.trace_tool] + options, expected_status=2)
        check(done.stderr.startswith("anygpu-trace: "), f"no message for {options}")
    # Each refused with a message that says what is wrong.
    not_elf = os.path.join(args.work_dir, "not-elf.so")
    with open(not_elf, "w") as file:
        file.write("not a library\n")
    truncated = os.path.join(args.work_dir, "truncated.so")
    with open(args.library, "rb") as source, open(truncated, "wb") as file:
        file.write(source.read(20))
    named = [(["--fault", "cuMemAlloc:nth=1:nth=2"], "nth= is given twice"),
             (["--fault", "cuMemAlloc:p=0.5:error=2:p=0.1"], "p= is given twice"),
             (["--fault", "cuMemAlloc:seed=7"], "seed without p"),
             (["--fault", "cuMemAlloc:error=-2"], "error must be a positive number"),
             (["--fault", "hipMalloc:error=-1:when=after"], "error must be a positive number"),
             (["--library", not_elf], "not an ELF file"),
             (["--library", truncated], "not an ELF file"),
             (["--library", args.work_dir], "not a regular file"),
             (["--library", args.driver_program], "not a shared object")]
    for options, message in named:
        done = run(args, [args.trace_tool] + options + ["--", args.driver_program], expected_status=2)
        check(done.stderr.startswith("anygpu-trace: ") and message in done.stderr,
              f"{options}: no message saying '{message}'")
    run(args, [args.trace_tool, "--", "/nonexistent/program"], expected_status=127)
    run(args, [args.trace_tool, "--help"])
    run(args, [args.trace_tool, "--stats=" + os.path.join(args.work_dir, "s.txt"), "--",
               args.driver_program, "sequence"])


def launch_kernel_names(args):
    """Launches carry the kernel's name, grid and block: a module's function, and a library's
    kernel passed as the function (how the CUDA Runtime launches)."""
    need(args.ptx and os.path.exists(args.ptx), f"no test PTX ({args.ptx or 'none'}: clang-19 missing)")
    trace = os.path.join(args.work_dir, "trace.json")
    done = traced(args, ["--trace", trace], [args.driver_program, "launch", args.ptx],
                  environment={"ANYGPU_CUDA_TEST_KERNELS": args.test_kernels})
    for how in ("module", "library"):
        check(re.search(rf"^{how} saxpy result 0 launch 0 right$", done.stdout, re.MULTILINE),
              f"the {how} launch did not compute saxpy")
    launches = [event["args"] for event in load_trace(trace) if event["name"] == "cuLaunchKernel"]
    seen = [(a.get("kernel"), a.get("grid"), a.get("block"), a["result"]) for a in launches]
    expected = [("saxpy", [1, 1, 1], [256, 1, 1], "CUDA_SUCCESS"),
                ("saxpy", [2, 1, 1], [128, 1, 1], "CUDA_SUCCESS")]
    check(seen == expected, f"traced launches {seen}, expected {expected}")


# ---- real programs: nvcc's CUDA Runtime program and hipcc's HIP program (programs/) ----------

def runtime_lookups(events):
    return [event["args"] for event in events if event["name"] == "cuGetProcAddress_v2"]


def runtime_on_stub(args):
    """The nvcc-built program on the toolkit's stub libcuda: cudart finds cuGetProcAddress_v2 with
    dlsym (the interposer's), and what it calls is traced with the stub's refusal."""
    need(args.runtime_program, "runtime_program not built: no nvcc (CUDA toolkit) on this machine")
    need(args.stub_dir, "no stub libcuda in the CUDA toolkit")
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.runtime_program],
                  environment={"LD_LIBRARY_PATH": args.stub_dir}, expected_status=1, foreign=True)
    check("cudaErrorStubLibrary" in done.stdout, "the program did not report the stub library")
    events = load_trace(trace)
    check(runtime_lookups(events), "no cuGetProcAddress_v2 call was traced")
    check(names(events)["cuDriverGetVersion"] >= 1, f"traced calls {dict(names(events))}")
    check(all(event["args"]["result"] == "CUDA_ERROR_STUB_LIBRARY" for event in events),
          "a call did not get the stub's CUDA_ERROR_STUB_LIBRARY")
    table, _, _ = parse_stats(read(stats))
    check(table["cuGetProcAddress_v2"][:2] == (len(runtime_lookups(events)),) * 2,
          f"cuGetProcAddress_v2 statistics {table['cuGetProcAddress_v2']}")


def runtime_on_test_driver(args):
    """The nvcc-built program on the CUDA test driver (as CUDA 13.0): cudart's ~440 lookups through
    cuGetProcAddress are traced, each entry point the interposer wraps is handed out wrapped, and the
    calls cudart then makes through them are traced. cudart stops at its first call: the test driver
    has none of NVIDIA's private cuGetExportTable tables (tests/drivers/cuda/README.md)."""
    need(args.runtime_program, "runtime_program not built: no nvcc (CUDA toolkit) on this machine")
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    environment = {"LD_LIBRARY_PATH": args.cuda_driver_dir, "ANYGPU_CUDA_TEST_DRIVER_VERSION": "13000",
                   "ANYGPU_CUDA_TEST_KERNELS": args.runtime_kernels}
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.runtime_program],
                  environment=environment, expected_status=1, foreign=True)
    check("cudaMalloc" in done.stdout, "the program did not report its first call's failure")
    events = load_trace(trace)
    lookups = runtime_lookups(events)
    check(len(lookups) >= 100, f"only {len(lookups)} cuGetProcAddress_v2 calls traced")
    wrapped = {a["symbol"] for a in lookups if a.get("entry_point") == "wrapped"}
    expected = {"cuInit", "cuDriverGetVersion", "cuMemAlloc", "cuMemcpyHtoD", "cuLaunchKernel",
                "cuLibraryLoadData", "cuLibraryGetKernel", "cuGetProcAddress"}
    check(expected <= wrapped, f"not handed out wrapped: {sorted(expected - wrapped)}")
    # cuInit and cuDriverGetVersion reach the program only through cuGetProcAddress; both ran.
    first_lookup = {}
    for event in events:
        if event["name"] == "cuGetProcAddress_v2":
            first_lookup.setdefault(event["args"]["symbol"], event["ts"])
    for name in ("cuInit", "cuDriverGetVersion"):
        calls = [event for event in events if event["name"] == name]
        check(len(calls) == 1 and calls[0]["args"]["result"] == "CUDA_SUCCESS",
              f"{name}: traced {len(calls)} call(s)")
        check(first_lookup.get(name, float("inf")) <= calls[0]["ts"],
              f"{name} ran before cudart looked it up")
    _, _, entry_points = parse_stats(read(stats))
    check(entry_points[0] == sum(1 for a in lookups if a.get("entry_point") == "wrapped"),
          f"statistics say {entry_points[0]} wrapped entry points")


def gpu_unavailable():
    """Why this machine's own NVIDIA driver cannot run a program on a GPU; "" when it can."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as error:
        return f"no NVIDIA driver on this machine ({error})"
    result = cuda.cuInit(0)
    if result != 0:
        return f"cuInit answered {result}: no usable NVIDIA GPU"
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value < 1:
        return "the NVIDIA driver reports no GPU"
    device, major = ctypes.c_int(0), ctypes.c_int(0)
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75  # cuda.h
    if (cuda.cuDeviceGet(ctypes.byref(device), 0) != 0 or
            cuda.cuDeviceGetAttribute(ctypes.byref(major),
                                      CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) != 0):
        return "the NVIDIA driver does not say GPU 0's compute capability"
    if major.value < 9:
        return f"GPU 0 is sm_{major.value}x; runtime_program is built for sm_90 only"
    return ""


def runtime_on_gpu(args):
    """The nvcc-built program on this machine's NVIDIA driver and GPU, under the interposer (run by
    tests/gpu/run-cuda.sh on a GPU; skipped elsewhere): it runs to the end with the right result,
    its allocations, copies, launch and frees are traced as succeeding, and the statistics count
    the one buffer of 256 bytes it never frees."""
    need(args.runtime_program, "runtime_program not built: no nvcc (CUDA toolkit) on this machine")
    reason = gpu_unavailable()
    need(not reason, reason)
    trace, stats = os.path.join(args.work_dir, "trace.json"), os.path.join(args.work_dir, "stats.txt")
    done = traced(args, ["--trace", trace, "--stats=" + stats], [args.runtime_program], foreign=True)
    check("OK" in done.stdout.split(), "the program did not print OK")
    events = load_trace(trace)
    succeeded = {event["name"] for event in events if event["args"]["result"] == "CUDA_SUCCESS"}
    for part in ("cuMemAlloc", "Memcpy", "cuLaunchKernel", "cuMemFree"):
        check(any(part in name for name in succeeded),
              f"no successful call with {part} in its name traced; traced {dict(names(events))}")
    _, device, _ = parse_stats(read(stats))
    check(device[1:] == (1, 256), f"never freed {device[1:]}, expected (1, 256)")


def hip_real_library(args):
    """The hipcc-built program against Debian's real libamdhip64 (no AMD GPU here): its call and
    the runtime's own answer are traced; a fault on it is what the program sees."""
    need(args.hipcc_program, "hip_program not built: no hipcc (Debian: apt-get install hipcc)")
    trace = os.path.join(args.work_dir, "trace.json")
    done = traced(args, ["--trace", trace], [args.hipcc_program], expected_status=None,
                  foreign=True)
    count = [event for event in load_trace(trace) if event["name"] == "hipGetDeviceCount"]
    check(len(count) == 1, f"{len(count)} hipGetDeviceCount calls traced")
    code = count[0]["args"]["result_code"]
    check(f"hipGetDeviceCount(&count): {code} " in done.stdout,
          f"the trace says {code}, the program printed {done.stdout!r}")
    done = traced(args, ["--fault", "hipGetDeviceCount:nth=1:error=hipErrorOutOfMemory"],
                  [args.hipcc_program], expected_status=2, foreign=True)
    check(f"hipGetDeviceCount(&count): {HIP_ERROR_OUT_OF_MEMORY} hipErrorOutOfMemory" in done.stdout,
          f"the injected error did not reach the program: {done.stdout!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    for option in ("--trace-tool", "--library", "--work-dir"):
        parser.add_argument(option, required=True)
    # The suite passes them all; tests/gpu/run-cuda.sh only what runtime_on_gpu needs.
    for option in ("--driver-program", "--hip-program", "--proc-address-driver",
                   "--runtime-program", "--runtime-kernels", "--stub-dir", "--cuda-driver-dir",
                   "--hipcc-program", "--ptx", "--test-kernels"):
        parser.add_argument(option, default="")  # empty: not built here
    parser.add_argument("--asan", action="store_true")
    parser.add_argument("--sanitizer-runtimes", default="")  # with --asan: LD_PRELOAD for foreign programs
    args = parser.parse_args()
    scenario = globals().get(args.scenario)
    if not callable(scenario):
        print(f"unknown scenario {args.scenario}")
        return 1
    shutil.rmtree(args.work_dir, ignore_errors=True)
    os.makedirs(args.work_dir)
    try:
        scenario(args)
    except CheckFailed as failure:
        print(f"FAILED: {failure}")
        return 1
    except Skipped as reason:
        print(f"SKIP: {reason}")
        return SKIP
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
