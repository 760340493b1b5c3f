#!/usr/bin/env python3
"""docs/numbers.py [--write] FILE...: the measured figures quoted in the kit's documents, from docs/results.

A figure taken from the benchmark tables is written between markers,

    <!--n DEVICE LAB FIELD FORMAT-->3,368<!--/n-->

where DEVICE is h200, h100 or pocl (the bench-*.csv of that device), LAB is a lab of the table (lab1, lab2, ...),
FIELD is ms (the kernel's time), baseline_ms (its baseline's, timed beside it), rate (GB/s or GFLOP/s), peak (the
copy bandwidth or FMA probe measured in the same run, in the rate's unit), tflops,
percent (of the copy bandwidth or FMA peak), speedup (over the lab's baseline), baseline_rate, threshold (the
profile's, 0 when it has none), clblast (the percentage of CLBlast's SGEMM), further_percent or further_speedup (the lab's going-further kernel: its share of the peak, its speedup over
the solution), low and high (the 95% interval of the speedup, in runs that kept it), and FORMAT a Python format
specification (",.0f", ".2f"). Without --write it
checks that every marked figure is what the data give and exits 1 naming each that is not (make check); with
--write it rewrites them (make docs). A whole table is marked the same way,

    <!--table DEVICE-->
    | lab | kernel | ... |
    <!--/table-->

and holds the table of docs/results/bench-DEVICE.md (the file ./grade --bench writes beside the CSV).
"""
import csv
import os
import re
import sys

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
DEVICES = {
    "h200": "bench-nvidia-h200.csv",
    "h100": "bench-nvidia-h100-80gb-hbm3.csv",
    "pocl": "bench-pthread-haswell-amd-epyc.csv",
}
MARKER = re.compile(r"<!--n (\w+) (lab\d+) (\w+) ([^ ]*?)-->(.*?)<!--/n-->")
TABLE = re.compile(r"<!--table (\w+)-->\n(.*?)<!--/table-->", re.S)


def bench_table(device):
    """The table lines of a device's bench-*.md, with a newline after each."""
    with open(os.path.join(RESULTS, DEVICES[device].replace(".csv", ".md")), encoding="utf-8") as text:
        return "".join(line for line in text if line.startswith("|"))


def fill_tables(text, where, problems, stale):
    """text with every marked table as the data give it; notes each that differed."""
    def fill(match):
        try:
            table = bench_table(match.group(1))
        except (KeyError, OSError) as error:
            problems.append("%s: cannot fill the table of %s: %s" % (where, match.group(1), error))
            return match.group(0)
        if table != match.group(2):
            stale.append("%s: the table of %s differs from docs/results" % (where, match.group(1)))
        return "<!--table %s-->\n%s<!--/table-->" % (match.group(1), table)
    return TABLE.sub(fill, text)


def load(device):
    """The rows of a device's benchmark table, by lab."""
    with open(os.path.join(RESULTS, DEVICES[device]), newline="") as table:
        return {row["lab"]: row for row in csv.DictReader(table)}


def figure(rows, lab, field):
    """One field of a lab's row, as a number."""
    row = rows[lab]
    ms, clblast_ms, further_ms = float(row["ms"]), float(row.get("clblast_ms") or 0), float(row.get("further_ms") or 0)
    further = ms / further_ms if further_ms > 0 else float("nan")
    values = {
        "ms": ms,
        "baseline_ms": float(row["baseline_ms"]),
        "rate": float(row["rate"]),
        "peak": float(row["peak"]),
        "tflops": float(row["rate"]) / 1000.0,
        "percent": 100.0 * float(row["fraction"]),
        "speedup": float(row["speedup"]),
        "baseline_rate": float(row["rate"]) / float(row["speedup"]) if float(row["speedup"]) > 0 else float("nan"),
        "threshold": float(row["threshold"]),
        "clblast": 100.0 * clblast_ms / ms if clblast_ms > 0 and ms > 0 else float("nan"),
        "further_percent": 100.0 * float(row["fraction"]) * further,
        "further_speedup": further,
        "low": float(row.get("low") or "nan"),
        "high": float(row.get("high") or "nan"),
    }
    return values[field]


def render(match, tables, where, problems):
    """The marker with the figure the data give; notes a marker that cannot be filled."""
    device, lab, field, spec, _ = match.groups()
    try:
        if device not in tables:
            tables[device] = load(device)
        text = format(figure(tables[device], lab, field), spec)
    except (KeyError, ValueError, OSError) as error:
        problems.append("%s: cannot fill %s %s %s: %s" % (where, device, lab, field, error))
        return match.group(0)
    return "<!--n %s %s %s %s-->%s<!--/n-->" % (device, lab, field, spec, text)


def main(argv):
    write = "--write" in argv
    files = [a for a in argv if a != "--write"]
    if not files:
        sys.exit("usage: docs/numbers.py [--write] FILE...")
    tables, problems, stale = {}, [], []
    for path in files:
        with open(path, encoding="utf-8") as source:
            text = source.read()
        lines = text.split("\n")
        for number, line in enumerate(lines, 1):
            for match in MARKER.finditer(line):
                filled = render(match, tables, "%s:%d" % (path, number), problems)
                if filled != match.group(0):
                    stale.append("%s:%d: %s says %s, the data %s" % (path, number, " ".join(match.groups()[:3]),
                                                                    match.group(5), MARKER.match(filled).group(5)))
        tabled = fill_tables(text, path, problems, stale)
        if write:
            updated = MARKER.sub(lambda m: render(m, tables, path, problems), tabled)
            if updated != text:
                with open(path, "w", encoding="utf-8") as target:
                    target.write(updated)
    for line in problems + ([] if write else stale):
        print(line, file=sys.stderr)
    if problems or (stale and not write):
        sys.exit(1)


main(sys.argv[1:])
