#!/usr/bin/env python3
"""Turns anygpu_cpu_pass_bench --csv output into a Markdown table and a PNG bar chart.

    scripts/cpu_pass_bench_report.py results.csv docs/cpu-barrier-pass-results.md \
        docs/images/cpu-barrier-pass.png

The CSV has one row per repetition (workload, variant, metric, repetition, value, threads, bytes).
The table shows each variant's median (min-max) over them and the pass's ratio to PoCL, fibers and
OpenMP; a second table shows the ported CUDA kernels (metric ms/run) with the pass's time over
OpenMP's and PoCL's, as issue 16 states its goal (above 1, the pass is slower), and for those
bound by memory (bytes > 0) their bandwidth as a share of the `copy` row's. The chart shows
medians with min-max error bars, one panel per workload. Needs matplotlib only for the chart (apt
python3-matplotlib); the tables are written without it.
"""
import math
import csv
import statistics
import sys
from collections import OrderedDict

VARIANTS = ["anygpu (pass)", "anygpu (fibers)", "PoCL", "OpenMP"]


def load(path):
    """{workload: {variant: {metric, median, min, max, samples}}} from the repetitions' rows."""
    rows = OrderedDict()
    threads = None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            entry = rows.setdefault(row["workload"], {}).setdefault(
                row["variant"], {"metric": row["metric"], "values": [],
                                 "bytes": float(row.get("bytes") or 0)})
            entry["values"].append(float(row["value"]))
            threads = row["threads"]
    for variants in rows.values():
        for entry in variants.values():
            values = entry.pop("values")
            entry.update(median=statistics.median(values), min=min(values), max=max(values),
                         samples=len(values))
    return rows, threads


def ratio(pass_row, other, lower_is_better):
    if not pass_row or not other:
        return "-"
    a, b = float(pass_row["median"]), float(other["median"])
    value = b / a if lower_is_better else a / b
    return f"{value:.2f}x"


def is_time(metric):
    return metric.startswith(("us", "ms"))


def time_ratio(pass_row, other):
    """The pass's time over the other's: above 1, the pass is slower."""
    if not pass_row or not other:
        return "-"
    return f"{float(pass_row['median']) / float(other['median']):.2f}x"


def milliseconds(value):
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def bandwidth(row, copy):
    """GB/s of a bandwidth-bound run (the least it reads and writes over its median time) and
    that as a share of the machine's copy bandwidth."""
    if not row or not row["bytes"]:
        return ["-", "-"]
    rate = row["bytes"] / (float(row["median"]) * 1e-3) / 1e9
    return [f"{rate:.3g}", f"{100 * rate / copy:.0f}%" if copy else "-"]


def ports_table(rows):
    """The ported CUDA kernels (timed in ms per run): medians, the pass's time ratios, and for
    the bandwidth-bound ones the pass's and OpenMP's bandwidth next to the copy bandwidth."""
    ports = {w: v for w, v in rows.items() if next(iter(v.values()))["metric"] == "ms/run"}
    if not ports:
        return ""
    copy_row = rows.get("copy", {}).get("OpenMP")
    copy = float(copy_row["median"]) if copy_row else 0.0
    order = ["anygpu (pass)", "anygpu (fibers)", "OpenMP", "PoCL"]
    lines = ["", "Ported CUDA kernels (tests/cuda_sources), median ms per run; pass / X is the "
             "pass's time over X's (above 1, the pass is slower). GB/s: the least memory a run "
             "reads and writes over its time, for the kernels bound by memory; % of copy: of the "
             "machine's copy bandwidth measured in the same run (`copy`, " +
             (f"{copy:.3g} GB/s" if copy else "not measured") + ").", "",
             "| kernel | " + " | ".join(order) + " | pass / OpenMP | pass / PoCL | pass GB/s | "
             "pass % of copy | OpenMP GB/s | OpenMP % of copy |",
             "|---|" + "---|" * (len(order) + 6)]
    for workload, variants in ports.items():
        cells = [milliseconds(float(variants[n]["median"])) if n in variants else "n/a"
                 for n in order]
        p = variants.get("anygpu (pass)")
        ratios = [time_ratio(p, variants.get(o)) for o in ("OpenMP", "PoCL")]
        rates = bandwidth(p, copy) + bandwidth(variants.get("OpenMP"), copy)
        lines.append(f"| {workload} | " + " | ".join(cells + ratios + rates) + " |")
    return "\n".join(lines) + "\n"


def table(rows, threads):
    samples = max(v["samples"] for w in rows.values() for v in w.values())
    lines = [f"Medians of {samples} randomly interleaved Google Benchmark repetitions (min-max), "
             f"{threads} threads per variant.",
             "Ratios: how many times better the pass is (for times, us or ms, lower is better).", "",
             "| workload | metric | " + " | ".join(VARIANTS) +
             " | pass / PoCL | pass / fibers | pass / OpenMP |",
             "|---|---|" + "---|" * (len(VARIANTS) + 3)]
    for workload, variants in rows.items():
        metric = next(iter(variants.values()))["metric"]
        lower = is_time(metric)
        cells = []
        for name in VARIANTS:
            r = variants.get(name)
            cells.append(f"{float(r['median']):.3g} ({float(r['min']):.3g}-{float(r['max']):.3g})"
                         if r else "n/a")
        p = variants.get("anygpu (pass)")
        lines.append(f"| {workload} | {metric} | " + " | ".join(cells) + " | " +
                     " | ".join(ratio(p, variants.get(o), lower)
                                for o in ("PoCL", "anygpu (fibers)", "OpenMP")) + " |")
    return "\n".join(lines) + "\n"


def chart(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    columns = min(len(rows), 8)
    lines = math.ceil(len(rows) / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(2.6 * columns, 3.4 * lines), squeeze=False)
    axes = axes.flatten()
    for ax in axes[len(rows):]:
        ax.set_visible(False)
    colors = ["#1f77b4", "#aec7e8", "#ff7f0e", "#2ca02c"]
    for ax, (workload, variants) in zip(axes, rows.items()):
        names = [n for n in VARIANTS if n in variants]
        medians = [float(variants[n]["median"]) for n in names]
        low = [m - float(variants[n]["min"]) for m, n in zip(medians, names)]
        high = [float(variants[n]["max"]) - m for m, n in zip(medians, names)]
        ax.bar(range(len(names)), medians, yerr=[low, high], capsize=3,
               color=[colors[VARIANTS.index(n)] for n in names])
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([n.replace("anygpu ", "") for n in names], rotation=40, ha="right",
                           fontsize=8)
        if max(medians) > 20 * min(medians):  # fibers far above the rest: keep the rest visible
            ax.set_yscale("log")
        ax.set_title(workload, fontsize=9)
        ax.set_ylabel(next(iter(variants.values()))["metric"], fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows, threads = load(sys.argv[1])
    with open(sys.argv[2], "w") as f:
        f.write(table(rows, threads) + ports_table(rows))
    if len(sys.argv) > 3:
        try:
            chart(rows, sys.argv[3])
        except ImportError:
            print("no matplotlib: table only (apt-get install python3-matplotlib)",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
