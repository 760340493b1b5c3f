#!/usr/bin/env python3
"""docs/charts.py [--write] [--results DIR]: a roofline and a matmul ladder per device, from the benchmark tables.

For every docs/results/bench-DEVICE.csv (what ./grade --bench --bench-out writes), draws every chart of it (the
grader writes the table, never a chart):

  bench-DEVICE.svg     a bar per lab: the fraction of the device's measured peak that its solution reaches;
  roofline-DEVICE.svg  the device's roof (the measured copy bandwidth times the arithmetic intensity, up to the
                       measured FMA peak) with each lab's solution (filled) and baseline (hollow) as a point, and
                       CLBlast's SGEMM where it was timed;
  ladder-DEVICE.svg    the matmul ladder in FLOP/s: lab 5's swapped mapping and naive kernel, lab 6's tiled kernel,
                       lab 8's register-blocked kernel and CLBlast;

and for every docs/results/timeline-NAME.csv (lab 12's pipeline, each command's profiled start and end) the chart
timeline-NAME.svg (docs/chart_timeline.py).

Without options it checks that the committed charts are what the data give (make check); with --write it writes
them (make bench, make docs). --results reads and writes DIR instead of docs/results.
"""
import csv
import glob
import math
import os
import sys

from svg import Svg
from chart_timeline import timeline

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")

# FLOPs per byte of a lab's minimum memory traffic (its inputs read once, its output written once), for a problem of
# size n: vadd 1 FLOP per 12 bytes, a dot product 2 per 8, a matmul 2n^3 over 3n^2 floats. The transpose does no
# arithmetic and has no point on a roofline; it is named under the chart with its bandwidth.
INTENSITY = {
    "lab1": lambda n: 1.0 / 12.0,
    "lab2": lambda n: 1.0 / 12.0,
    "lab3": lambda n: 2.0 / 8.0,
    "lab4": lambda n: 2.0 / 8.0,
    "lab5": lambda n: n / 6.0,
    "lab6": lambda n: n / 6.0,
    "lab8": lambda n: n / 6.0,
}
LEFT, TOP, WIDTH, HEIGHT = 80, 50, 560, 330


def load(path):
    """The rows of one benchmark table, by lab."""
    with open(path, newline="") as table:
        return {row["lab"]: row for row in csv.DictReader(table)}


def number(row, field):
    value = row.get(field) or "0"
    return float(value)


def gflops(row, lab, ms):
    """A kernel's GFLOP/s at the row's size: the rate of a matmul, bandwidth times intensity for the others."""
    rate = number(row, "rate") * number(row, "ms") / ms
    return rate if row["unit"] == "GFLOP/s" else rate * INTENSITY[lab](number(row, "size"))


def peaks(rows):
    """The measured copy bandwidth (GB/s) and FMA peak (GFLOP/s), each the largest the run measured."""
    bandwidth = max((number(r, "peak") for r in rows.values() if r["unit"] == "GB/s"), default=0.0)
    flops = max((number(r, "peak") for r in rows.values() if r["unit"] == "GFLOP/s"), default=0.0)
    return bandwidth, flops


def points(rows):
    """(lab, intensity, GFLOP/s, kind) for each solution, baseline and CLBlast run in the table."""
    found = []
    for lab, row in sorted(rows.items()):
        if lab not in INTENSITY or number(row, "ms") <= 0:
            continue
        intensity = INTENSITY[lab](number(row, "size"))
        found.append((lab, intensity, gflops(row, lab, number(row, "ms")), "solution"))
        if number(row, "baseline_ms") > 0:
            found.append((lab + " baseline", intensity, gflops(row, lab, number(row, "baseline_ms")), "baseline"))
        if number(row, "clblast_ms") > 0 and lab == "lab8":
            found.append(("CLBlast", intensity, gflops(row, lab, number(row, "clblast_ms")), "clblast"))
    return found


class LogAxes:
    """Maps (intensity, GFLOP/s) onto the plot area, both axes in powers of ten."""

    def __init__(self, x_range, y_range):
        self.x0, self.x1 = (math.log10(v) for v in x_range)
        self.y0, self.y1 = (math.log10(v) for v in y_range)

    def x(self, value):
        return LEFT + WIDTH * (math.log10(value) - self.x0) / (self.x1 - self.x0)

    def y(self, value):
        return TOP + HEIGHT * (1 - (math.log10(value) - self.y0) / (self.y1 - self.y0))


def draw_grid(svg, axes):
    for power in range(round(axes.x0), round(axes.x1) + 1):
        x = axes.x(10.0 ** power)
        svg.line(x, TOP, x, TOP + HEIGHT, stroke="#ddd")
        svg.text(x, TOP + HEIGHT + 16, "%g" % 10.0 ** power, size=11, anchor="middle")
    for power in range(round(axes.y0), round(axes.y1) + 1):
        y = axes.y(10.0 ** power)
        svg.line(LEFT, y, LEFT + WIDTH, y, stroke="#ddd")
        svg.text(LEFT - 6, y + 4, "%g" % 10.0 ** power, size=11, anchor="end")
    svg.rect(LEFT, TOP, WIDTH, HEIGHT)
    svg.text(LEFT + WIDTH / 2, TOP + HEIGHT + 34, "arithmetic intensity: FLOPs per byte of the problem's minimum "
             "memory traffic", size=12, anchor="middle")
    svg.text(LEFT - 6, TOP - 8, "GFLOP/s", size=12, anchor="end")


def label_points(svg, axes, found):
    """Each point with its name; names at one intensity are spread apart so that they stay legible."""
    styles = {"solution": ("#2b6cb0", "#2b6cb0"), "baseline": ("white", "#2b6cb0"), "clblast": ("#d9822b", "#d9822b")}
    by_x = {}
    for lab, intensity, rate, kind in found:
        fill, stroke = styles[kind]
        svg.circle(axes.x(intensity), axes.y(rate), 4.5, fill=fill, stroke=stroke, width=1.5)
        by_x.setdefault(intensity, []).append((axes.y(rate), lab))
    for intensity, names in by_x.items():
        last = -1e9
        for y, lab in sorted(names):
            y = max(y + 4, last + 13)
            svg.text(axes.x(intensity) + (-8 if intensity > 10 else 8), y, lab, size=11,
                     anchor="end" if intensity > 10 else "start")
            last = y


def roofline(device, rows):
    bandwidth, flops = peaks(rows)
    found = points(rows)
    lowest = min([rate for _, _, rate, _ in found] + [flops / 1000.0])
    axes = LogAxes((10.0 ** -2, 10.0 ** 3), (10.0 ** math.floor(math.log10(lowest)), 10.0 ** math.ceil(
        math.log10(flops * 1.01))))
    svg = Svg(LEFT + WIDTH + 20, TOP + HEIGHT + 90, "roofline of " + device)
    svg.text(10, 24, "Roofline of %s: the labs' solutions (filled) and baselines (hollow)" % device, size=14)
    draw_grid(svg, axes)
    ridge = flops / bandwidth
    roof = [(axes.x(10.0 ** axes.x0), axes.y(bandwidth * 10.0 ** axes.x0)), (axes.x(ridge), axes.y(flops)),
            (axes.x(10.0 ** axes.x1), axes.y(flops))]
    svg.polyline(roof, stroke="#c53030", width=2)
    svg.text(axes.x(ridge) + 6, axes.y(flops) - 6, "FMA peak %.0f GFLOP/s" % flops, size=11, fill="#c53030")
    svg.text(axes.x(0.02) + 4, axes.y(bandwidth * 0.02) - 8, "copy %.0f GB/s" % bandwidth, size=11, fill="#c53030")
    label_points(svg, axes, found)
    note = "lab7 (a transpose) does no arithmetic: "
    if "lab7" in rows:
        note += "%.0f GB/s, %.0f%% of the copy bandwidth" % (number(rows["lab7"], "rate"),
                                                           100 * number(rows["lab7"], "fraction"))
    svg.text(LEFT, TOP + HEIGHT + 56, note, size=11, fill="#555")
    svg.text(LEFT, TOP + HEIGHT + 72, "CLBlast's SGEMM (orange) at the size of lab 8, where it was installed",
             size=11, fill="#555")
    return svg


def ladder_steps(rows):
    """(name, GFLOP/s) for each rung the table holds, slowest first."""
    steps = []
    if "lab5" in rows and number(rows["lab5"], "baseline_ms") > 0:
        steps.append(("swapped mapping (lab 5's baseline)", gflops(rows["lab5"], "lab5",
                                                                   number(rows["lab5"], "baseline_ms"))))
    for lab, name in (("lab5", "naive, coalesced (lab 5)"), ("lab6", "tiled in local memory (lab 6)"),
                      ("lab8", "register-blocked (lab 8)")):
        if lab in rows:
            steps.append((name, gflops(rows[lab], lab, number(rows[lab], "ms"))))
    if "lab8" in rows and number(rows["lab8"], "clblast_ms") > 0:
        steps.append(("CLBlast SGEMM", gflops(rows["lab8"], "lab8", number(rows["lab8"], "clblast_ms"))))
    return steps


def ladder(device, rows):
    steps = ladder_steps(rows)
    _, flops = peaks(rows)
    scale = 1000.0 if flops >= 1000 else 1.0
    unit = "TFLOP/s" if scale > 1 else "GFLOP/s"
    size = number(rows["lab8"] if "lab8" in rows else rows["lab5"], "size")
    bar_left, bar_width, row = 260, 380, 34
    clblast = any(name.startswith("CLBlast") for name, _ in steps)
    svg = Svg(bar_left + bar_width + 120, 70 + row * len(steps) + 40 + (18 if clblast else 0), "matmul ladder on " + device)
    svg.text(10, 24, "Matrix multiply, %d x %d x %d, on %s (%s)" % (size, size, size, device, unit), size=14)
    first = steps[0][1] if steps else 1.0
    for i, (name, rate) in enumerate(steps):
        y = 50 + row * i
        width = bar_width * min(rate / flops, 1.0)
        svg.text(10, y + 17, name, size=12)
        svg.rect(bar_left, y + 2, width, 22, fill="#d9822b" if name.startswith("CLBlast") else "#2b6cb0",
                 stroke="none")
        svg.text(bar_left + width + 6, y + 17, "%.1f (%.1fx)" % (rate / scale, rate / first), size=12)
    peak_x = bar_left + bar_width
    svg.line(peak_x, 44, peak_x, 50 + row * len(steps), stroke="#c53030", width=1.5)
    svg.text(peak_x, 50 + row * len(steps) + 16, "FMA peak %.1f" % (flops / scale), size=11, anchor="middle",
             fill="#c53030")
    svg.text(10, 50 + row * len(steps) + 34, "bars to scale with the measured FMA peak; (x): over the first rung",
             size=11, fill="#555")
    if clblast:
        svg.text(10, 50 + row * len(steps) + 52, "CLBlast: the fastest of 15 calls beside lab 8 in this run; it varies "
                 "from run to run far more than a kernel (tests/lab8_figures.sh)", size=11, fill="#555")
    return svg


class Bars:
    """The bench chart: a horizontal bar per lab, the fraction of the measured peak its solution reaches (blue: of
    the copy bandwidth, orange: of the FMA peak), written as the grader wrote it before the chart moved here."""

    LEFT, WIDTH, ROW, TOP = 190, 400, 34, 50

    def __init__(self, device, rows):
        self.device, self.rows = device, list(rows.values())

    def render(self):
        count, lines = len(self.rows), []
        lines.append('<svg xmlns="http://www.w3.org/2000/svg" width="680" height="%d" font-family="sans-serif" '
                     'font-size="13">' % (self.TOP + self.ROW * count + 30))
        lines.append('<rect width="100%" height="100%" fill="white"/>')
        lines.append('<text x="10" y="24" font-size="15">What the solutions reach on %s (%% of the measured peak)'
                     '</text>' % self.device)
        for i, row in enumerate(self.rows):
            y, fraction = self.TOP + self.ROW * i, number(row, "fraction")
            bar = self.WIDTH * min(fraction, 1.0)
            lines.append('<text x="10" y="%d">%s %s</text>' % (y + 17, row["lab"], row["kernel"]))
            lines.append('<rect x="%d" y="%d" width="%.0f" height="22" fill="%s"/>'
                         % (self.LEFT, y + 2, bar, "#2b6cb0" if row["unit"] == "GB/s" else "#d9822b"))
            lines.append('<text x="%.0f" y="%d">%.0f%% (%.0f %s)</text>'
                         % (self.LEFT + bar + 6, y + 17, 100.0 * fraction, number(row, "rate"), row["unit"]))
        lines.append('<text x="10" y="%d" fill="#555">blue: of the copy bandwidth; orange: of the FMA peak</text>'
                     % (self.TOP + self.ROW * count + 20))
        return "\n".join(lines) + "\n</svg>\n"


def main(argv):
    problems = []
    results = argv[argv.index("--results") + 1] if "--results" in argv else RESULTS
    for table in sorted(glob.glob(os.path.join(results, "bench-*.csv"))):
        device_file = os.path.basename(table)[len("bench-"):-len(".csv")]
        rows = load(table)
        device = next(iter(rows.values()))["device"] if rows else device_file
        for kind, draw in (("bench", Bars), ("roofline", roofline), ("ladder", ladder)):
            path = os.path.join(results, "%s-%s.svg" % (kind, device_file))
            drawn = draw(device, rows).render()
            if "--write" in argv:
                with open(path, "w", encoding="utf-8") as target:
                    target.write(drawn)
            elif not os.path.exists(path) or open(path, encoding="utf-8").read() != drawn:
                problems.append("%s differs from what docs/charts.py draws from %s (make docs)"
                                % (os.path.relpath(path), os.path.basename(table)))
    for table in sorted(glob.glob(os.path.join(results, "timeline-*.csv"))):
        path = table[:-len(".csv")] + ".svg"
        drawn = timeline(table).render()
        if "--write" in argv:
            with open(path, "w", encoding="utf-8") as target:
                target.write(drawn)
        elif not os.path.exists(path) or open(path, encoding="utf-8").read() != drawn:
            problems.append("%s differs from what docs/charts.py draws from %s (make docs)"
                            % (os.path.relpath(path), os.path.basename(table)))
    for line in problems:
        print(line, file=sys.stderr)
    sys.exit(1 if problems else 0)


main(sys.argv[1:])
