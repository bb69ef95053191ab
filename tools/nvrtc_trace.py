#!/usr/bin/env python3
# flamejit — where an NVRTC compile's time went, from its -fdevice-time-trace.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tools/nvrtc_trace.py TRACE.json...
#
# NVRTC given -fdevice-time-trace=NAME (FLAMEJIT_NVRTC_OPTIONS for flamejit's
# own compiles) writes a Chrome trace of each compile to NAME, one JSON object
# after another when a process compiles several times. Printed for each
# compile: the front end, NVVM (linking the module with libdevice, the
# optimizer and within it its second phase, the part --split-compile may
# spread over threads a function at a time, and code generation) and ptxas
# (parsing, then each entry function compiled with what it calls), in
# milliseconds; and the functions NVVM spent longest on. Under
# --split-compile NVRTC traces no second phase of its own and ptxas's units
# overlap: the totals stand, the parts are rough.
import json
import sys

PHASES = [
    ("front end", "CUDA C++ Front-End"),
    ("NVVM", "LibNVVM"),
    ("  module linker", "NVVM Module Linker"),
    ("  optimizer", "NVVM Optimizer"),
    ("    second phase", "Phase II"),
    ("  code generation", "NVVM CodeGen"),
    ("ptxas", "Total PTXAS Time"),
    ("  parsing and set-up", "PTX parsing and setup time"),
]


def compiles(text):
    """The JSON objects of a trace file, one per compile."""
    decoder, at, out = json.JSONDecoder(), 0, []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return out
        obj, at = decoder.raw_decode(text, at)
        out.append(obj)


def summary(obj):
    events = [e for e in obj.get("traceEvents", []) if e.get("ph") == "X"]
    total = {}
    for e in events:
        total[e["name"]] = total.get(e["name"], 0.0) + e.get("dur", 0) / 1000.0
    lines = [f"| {label} | {total.get(name, 0.0):.1f} |" for label, name in PHASES]
    # ptxas's units: each entry function with the functions it calls.
    units = [e.get("dur", 0) / 1000.0 for e in events if e["name"] == "Optimizing compilation unit"]
    lines.append("|   units (entries with their callees) | " + ", ".join(f"{u:.1f}" for u in units) + " |")
    span = max((e["ts"] + e.get("dur", 0) for e in events), default=0) / 1000.0
    lines.append(f"| whole compile (first event to last) | {span:.1f} |")
    per_function = {}
    for e in events:
        if e["name"] == "OptFunction":
            f = str(e.get("args", {}).get("detail", "?"))
            per_function[f] = per_function.get(f, 0.0) + e.get("dur", 0) / 1000.0
    slowest = sorted(per_function.items(), key=lambda kv: -kv[1])[:5]
    return lines, slowest


def main(paths):
    if not paths:
        print("usage: nvrtc_trace.py TRACE.json...", file=sys.stderr)
        return 2
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                objs = compiles(f.read())
        except (OSError, ValueError) as err:
            print(f"nvrtc_trace: {path}: {err}", file=sys.stderr)
            return 2
        for i, obj in enumerate(objs):
            lines, slowest = summary(obj)
            print(f"\n### {path}, compile {i + 1} of {len(objs)}\n")
            print("| phase | ms |\n| --- | --- |")
            print("\n".join(lines))
            print("\nNVVM's slowest functions (ms): " +
                  ", ".join(f"{name} {ms:.1f}" for name, ms in slowest))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
