"""Lab 12's timeline chart: each pipeline command of the solution's host program (two uploads, a kernel and a
download per chunk) as a bar on its queue's lane, placed by the start and end its profiling event gave.

The data are docs/results/timeline-*.csv (columns device, size, chunk, command, queue, start_us, end_us, bytes; the
times from the first upload's start), what the solution's schedule measured on a device; nothing here is made up."""
import csv

from svg import Svg

LANES = ("upload", "compute", "download")
LEFT, TOP, LANE_HEIGHT, LANE_GAP, PLOT_WIDTH = 90, 58, 34, 14, 780
# Two slots (buffer sets) in turn: chunk i uses slot i % 2, drawn in one of two shades of its stage's colour.
COLOURS = {"upload": ("#4c78a8", "#9ecae9"), "compute": ("#e45756", "#ff9d98"), "download": ("#54a24b", "#a6d96a")}


def load(path):
    """The rows of one timeline, times in microseconds as numbers."""
    with open(path, newline="") as table:
        rows = list(csv.DictReader(table))
    for row in rows:
        row["chunk"] = int(row["chunk"])
        row["start_us"], row["end_us"] = float(row["start_us"]), float(row["end_us"])
    return rows


def busy_us(rows, lane):
    """The time a lane's commands took, added up."""
    return sum(r["end_us"] - r["start_us"] for r in rows if r["queue"] == lane)


def tick_step(span_ms):
    """A round step for about 5 to 10 ticks over span_ms."""
    step = 1e-3
    while span_ms / step > 10:
        for factor in (2, 2.5, 2):
            step *= factor
            if span_ms / step <= 10:
                break
    return step


def draw_axis(svg, span_us, scale, bottom):
    """The time axis under the lanes, in ms."""
    svg.line(LEFT, bottom, LEFT + PLOT_WIDTH, bottom)
    step = tick_step(span_us / 1e3)
    tick = 0.0
    while tick * 1e3 <= span_us * 1.0001:
        x = LEFT + tick * 1e3 * scale
        svg.line(x, bottom, x, bottom + 5)
        svg.text(x, bottom + 18, ("%g" % round(tick, 6)), size=11, anchor="middle")
        tick += step
    svg.text(LEFT + PLOT_WIDTH / 2, bottom + 34, "time since the first upload started (ms)", size=12, anchor="middle")


def draw_bars(svg, rows, scale):
    """One bar per command on its lane, labelled with its chunk where it is wide enough."""
    for row in rows:
        lane = LANES.index(row["queue"])
        y = TOP + lane * (LANE_HEIGHT + LANE_GAP)
        x, width = LEFT + row["start_us"] * scale, max((row["end_us"] - row["start_us"]) * scale, 0.8)
        svg.rect(x, y, width, LANE_HEIGHT, fill=COLOURS[row["queue"]][row["chunk"] % 2], stroke="#fff", width=0.5)
        label = "%s%d" % ({"upload a": "a", "upload b": "b"}.get(row["command"], ""), row["chunk"])
        if width >= 7.0 * len(label):
            svg.text(x + width / 2, y + LANE_HEIGHT / 2 + 4, label, size=10, anchor="middle")


def timeline(path):
    """The chart of one timeline file."""
    rows = load(path)
    device, size = rows[0]["device"], int(rows[0]["size"])
    span = max(r["end_us"] for r in rows)
    scale = PLOT_WIDTH / span
    bottom = TOP + len(LANES) * (LANE_HEIGHT + LANE_GAP) - LANE_GAP + 8
    svg = Svg(LEFT + PLOT_WIDTH + 30, bottom + 92, "Lab 12's pipeline on %s: each command on its queue" % device)
    chunks = 1 + max(r["chunk"] for r in rows)
    svg.text(LEFT, 22, "Lab 12's pipeline on %s: %s elements in %d chunks" % (device, "{:,}".format(size), chunks),
             size=14, weight="bold")
    svg.text(LEFT, 42, "three in-order queues, two slots (light and dark); each bar is one command, from its profiling "
             "event's start to its end; a, b: the uploads of a and b", size=11)
    for k, lane in enumerate(LANES):
        y = TOP + k * (LANE_HEIGHT + LANE_GAP) + LANE_HEIGHT / 2 + 4
        svg.text(LEFT - 8, y, lane, size=12, anchor="end")
    draw_bars(svg, rows, scale)
    draw_axis(svg, span, scale, bottom)
    busy = {lane: busy_us(rows, lane) for lane in LANES}
    transfers = busy["upload"] + busy["download"]
    svg.text(LEFT, bottom + 58, "pipeline %.3f ms; each queue busy: uploads %.3f ms, kernels %.3f ms, downloads %.3f ms"
             % (span / 1e3, busy["upload"] / 1e3, busy["compute"] / 1e3, busy["download"] / 1e3), size=11)
    svg.text(LEFT, bottom + 76, "the pipeline takes %.2fx its busiest queue's time, %.2fx the transfers' time added "
             "up (%.3f ms: uploads and downloads overlap each other too)"
             % (span / max(busy.values()), span / max(transfers, busy["compute"]), transfers / 1e3), size=11)
    return svg
