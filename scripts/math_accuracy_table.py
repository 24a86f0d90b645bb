#!/usr/bin/env python3
"""Turns the "math accuracy:" lines a conformance run prints (MathAccuracyTest, float then double,
for one device) into the Markdown table docs/math.md shows, for the run's device.

    scripts/math_accuracy_table.py build/gpu-cuda/run-cuda-logs/conformance.log [DEVICE_SUFFIX]

DEVICE_SUFFIX picks the device's tests (the parameter name, "cuda0" by default)."""
import re
import sys

LINE = re.compile(r"^math accuracy: (\S+)\s+largest error (\S+)\s+ulp \(CUDA: (\S+) \+ 0\.5\)(.*)$")
RUN = re.compile(r"^\[ RUN +\] \S*MathAccuracyTest\.(Float|Double)FunctionsWithinCudaBounds/(\S+)")


def read(path, device):
    measured = {"Float": {}, "Double": {}}
    order = []
    section = None
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            run = RUN.match(line)
            if run:
                section = run.group(1) if run.group(2) == device else None
                continue
            found = LINE.match(line.rstrip("\n"))
            if not found or not section:
                continue
            name, ulps, bound, rest = found.groups()
            if section == "Float" and name.endswith("f"):
                name = name[:-1]  # acosf's row is acos's
            absolute = re.search(r"absolute (\S+) for \|x\| >= 8 \(CUDA: (\S+)\)", rest)
            cell = ulps + (f"; abs. {absolute.group(1)} for \\|x\\| ≥ 8" if absolute else "")
            bound_cell = bound + (f"; abs. {absolute.group(2)}" if absolute else "")
            measured[section][name] = (cell, bound_cell)
            if name not in order:
                order.append(name)
    return measured, order


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    device = sys.argv[2] if len(sys.argv) == 3 else "cuda0"
    measured, order = read(sys.argv[1], device)
    if not order:
        sys.exit(f"no 'math accuracy:' lines for {device} in {sys.argv[1]}")
    print("| function | float: largest error (ulp) | float: CUDA | double: largest error (ulp) "
          "| double: CUDA |")
    print("| --- | --- | --- | --- | --- |")
    for name in order:
        f = measured["Float"].get(name, ("-", "-"))
        d = measured["Double"].get(name, ("-", "-"))
        print(f"| `{name}` | {f[0]} | {f[1]} | {d[0]} | {d[1]} |")


if __name__ == "__main__":
    main()
