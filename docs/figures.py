#!/usr/bin/env python3
"""docs/figures.py [--write | --claims GRADER_OUTPUT]: the handout's diagrams, docs/figures/*.svg.

Every number a diagram shows (work-item ids, transactions, bank numbers, loads per element) is computed here by
simulating the lab it illustrates, with the lab's own parameters, and drawn from that; the figures are not drawn by
hand. Without options the script checks that the committed SVG files are what it draws (make check); with --write
it writes them (make docs). With --claims it also checks the simulated counts against the counts the grader's
reference judge printed for the solutions (the output of ./grade --solutions all -v), so a figure cannot disagree
with what the grader measures.
"""
import csv
import os
import re
import sys

from svg import Svg
from figure_halo import halo, halo_loads_per_output
from figure_scan import scan

DOCS = os.path.dirname(os.path.abspath(__file__))
FIGURES = os.path.join(DOCS, "figures")
LINE_BYTES = 128        # the handout's transaction model
WARP = 32
BANKS = 32
GROUP = 16              # the labs' 16x16 work-groups


# ---- the simulations the figures are drawn from ----

def warp_of_group(group_x, group_y, warp=0):
    """The (local x, local y) of the work-items of one warp: consecutive linear local ids, x fastest."""
    first = warp * WARP
    return [((first + i) % group_x, (first + i) // group_x) for i in range(WARP)]


def lines_touched(addresses):
    """How many 128-byte lines a warp's float accesses touch (the handout's transactions per request)."""
    return len({4 * a // LINE_BYTES for a in addresses})


def matmul_write_transactions(coalesced, n=2048):
    """Transactions for warp 0's writes of C (n columns) in lab 5, coalesced (x = column) or swapped (x = row)."""
    cells = [(y, x) if coalesced else (x, y) for x, y in warp_of_group(GROUP, GROUP)]
    return lines_touched(row * n + col for row, col in cells)


def bank_ways(words):
    """The passes one warp access to local memory takes: the most distinct words that share a bank."""
    per_bank = {}
    for w in set(words):
        per_bank.setdefault(w % BANKS, set()).add(w)
    return max(len(v) for v in per_bank.values())


def transpose_bank_passes(tile, padded):
    """Warp 0's passes storing tile[ly][lx] and loading tile[lx][ly] in lab 7 (tile x tile work-groups)."""
    width = tile + 1 if padded else tile
    warp = warp_of_group(tile, tile)
    store = bank_ways(ly * width + lx for lx, ly in warp)
    load = bank_ways(lx * width + ly for lx, ly in warp)
    return store, load


def tree_local_stores(local_size):
    """Stores to scratch by one work-group in lab 4: one per work-item, then one per active work-item per step."""
    stores, stride = local_size, local_size // 2
    while stride >= 1:
        stores, stride = stores + stride, stride // 2
    return stores


def tiled_loads_per_element(k, tile):
    """Global loads per element of C in lab 6: each work-item loads one element of A and one of B per tile step."""
    steps = -(-k // tile)
    return 2.0 * steps


def copy_bandwidth(device_csv):
    """The lowest and highest copy bandwidth in GB/s measured in a benchmark's rows (a probe beside each
    bandwidth lab: one probe alone is a single measurement)."""
    with open(os.path.join(DOCS, "results", device_csv), newline="") as table:
        peaks = [float(row["peak"]) for row in csv.DictReader(table) if row["unit"] == "GB/s"]
    if not peaks:
        raise ValueError("no bandwidth row in " + device_csv)
    return min(peaks), max(peaks)


# ---- the figures ----

def ndrange():
    """1-D and 2-D NDRanges with their group and local ids."""
    svg = Svg(760, 330, "NDRange: global, group and local ids")
    svg.text(10, 20, "1-D: global size 16, local size 4", 14, weight="bold")
    for i in range(16):
        x = 10 + i * 44
        group = i // 4
        svg.rect(x, 30, 40, 50, ["#dbe9f6", "#fde2c8", "#d9f0d3", "#eadcf2"][group])
        svg.text(x + 20, 48, "g %d" % i, 11, "middle")
        svg.text(x + 20, 63, "l %d" % (i % 4), 11, "middle", fill="#555")
        svg.text(x + 20, 76, "grp %d" % group, 9, "middle", fill="#555")
    svg.text(10, 100, "get_global_id(0) = get_group_id(0) * get_local_size(0) + get_local_id(0)", 12)
    svg.text(10, 130, "2-D: global size 8 x 4, local size 4 x 2 (dimension 0 across, dimension 1 down)", 14,
             weight="bold")
    colours = ["#dbe9f6", "#fde2c8", "#d9f0d3", "#eadcf2"]
    for gy in range(4):
        for gx in range(8):
            group = (gy // 2) * 2 + gx // 4
            x, y = 10 + gx * 62, 140 + gy * 42
            svg.rect(x, y, 58, 38, colours[group])
            svg.text(x + 29, y + 16, "(%d,%d)" % (gx, gy), 11, "middle")
            svg.text(x + 29, y + 31, "l (%d,%d)" % (gx % 4, gy % 2), 10, "middle", fill="#555")
    for group in range(4):
        svg.text(530, 160 + group * 22, "group (%d,%d)" % (group % 2, group // 2), 12, fill="#000")
        svg.rect(510, 150 + group * 22, 14, 12, colours[group])
    svg.text(10, 320, "top: get_global_id(0), get_global_id(1); below: get_local_id(0), get_local_id(1)", 11,
             fill="#555")
    return svg


def mappings():
    """Lab 5's two thread mappings over C, with the lines warp 0 writes."""
    good, bad = matmul_write_transactions(True), matmul_write_transactions(False)
    svg = Svg(760, 350, "Two thread mappings of a 16x16 work-group over C")
    for panel, coalesced, count in ((0, True, good), (1, False, bad)):
        left = 20 + panel * 380
        cell = 14
        svg.text(left, 20, ("dimension 0 = column (coalesced)" if coalesced else
                            "dimension 0 = row (swapped)"), 13, weight="bold")
        warp = {((y, x) if coalesced else (x, y)) for x, y in warp_of_group(GROUP, GROUP)}
        for r in range(GROUP):
            for c in range(GROUP):
                fill = "#f4a261" if (r, c) in warp else "#f1f1f1"
                svg.rect(left + c * cell, 34 + r * cell, cell, cell, fill, "#bbb", 0.5)
        svg.text(left, 34 + GROUP * cell + 18, "a 16 x 16 block of C; warp 0 (32 work-items) in orange", 11)
        svg.text(left, 34 + GROUP * cell + 36, "warp 0 is %s" % ("16 columns x 2 rows" if coalesced else
                                                                 "2 columns x 16 rows"), 11)
        svg.text(left, 34 + GROUP * cell + 54, "its writes of C touch %d 128-byte lines" % count, 12,
                 weight="bold")
        svg.text(left, 34 + GROUP * cell + 72, "(%d transactions per warp request)" % count, 11, fill="#555")
    return svg


def reduction():
    """Lab 4's tree over a work-group of 8."""
    svg = Svg(640, 320, "Tree reduction in local memory, local size 8")
    values = ["s%d" % i for i in range(8)]
    y, stride, level = 40, 4, 0
    svg.text(10, 20, "scratch[lid] after the first barrier; each step adds scratch[lid + stride] when lid < stride",
             12)
    boxes = {i: (40 + i * 70, y) for i in range(8)}
    for i, name in enumerate(values):
        svg.rect(boxes[i][0], y, 56, 26, "#dbe9f6")
        svg.text(boxes[i][0] + 28, y + 17, name, 11, "middle")
    while stride >= 1:
        level += 1
        y_next = 40 + level * 60
        for lid in range(stride):
            x = 40 + lid * 70
            svg.line(boxes[lid][0] + 28, y + 26, x + 28, y_next, arrow=True)
            svg.line(boxes[lid + stride][0] + 28, y + 26, x + 28, y_next, "#888", arrow=True)
            svg.rect(x, y_next, 56, 26, "#fde2c8")
            svg.text(x + 28, y_next + 17, "lid %d" % lid, 11, "middle")
        svg.text(620, y_next + 17, "stride %d, barrier" % stride, 11, "end", fill="#555")
        y, stride = y_next, stride // 2
    svg.text(40, y + 50, "work-item 0 writes scratch[0] to partial[get_group_id(0)]: one store per work-group",
             12, weight="bold")
    svg.text(40, y + 72, "stores to scratch per work-group: %d for local size 8, %d for 64" %
             (tree_local_stores(8), tree_local_stores(64)), 12)
    return svg


def tiled():
    """Lab 6: the tiles of A and B moving along K for one tile of C, with zero-filled edges."""
    m, n, k, tile = 40, 40, 40, 16
    steps = -(-k // tile)
    scale = 4
    svg = Svg(760, 420, "Tiled matmul: tiles along K, zero-filled edges")
    ax, ay, bx, by = 20, 220, 240, 10
    cx, cy = bx, ay
    svg.rect(ax, ay, k * scale, m * scale, "#f7f7f7")
    svg.rect(bx, by, n * scale, k * scale, "#f7f7f7")
    svg.rect(cx, cy, n * scale, m * scale, "#f7f7f7")
    svg.text(ax, ay - 6, "A (M x K = %d x %d)" % (m, k), 11)
    svg.text(bx - 6, by + 12, "B (K x N = %d x %d)" % (k, n), 11, "end")
    svg.text(cx + 4, cy + 14, "C (M x N = %d x %d)" % (m, n), 11)
    row0 = col0 = 2 * tile   # the last tile of C, which hangs over the matrix
    colours = ["#a8dadc", "#f4a261", "#e9c46a"]
    for t in range(steps):
        kx = t * tile
        # The whole tile, red where it hangs over the matrix (loaded as zeros), coloured where it holds data.
        svg.rect(ax + kx * scale, ay + row0 * scale, tile * scale, tile * scale, "#fbe3e3", "#c00", 1)
        svg.rect(bx + col0 * scale, by + kx * scale, tile * scale, tile * scale, "#fbe3e3", "#c00", 1)
        svg.rect(ax + kx * scale, ay + row0 * scale, min(tile, k - kx) * scale, (m - row0) * scale, colours[t])
        svg.rect(bx + col0 * scale, by + kx * scale, (n - col0) * scale, min(tile, k - kx) * scale, colours[t])
        svg.text(ax + kx * scale + 3, ay + row0 * scale - 3, "t=%d" % t, 10)
        svg.text(bx + col0 * scale + tile * scale + 4, by + kx * scale + 12, "t=%d" % t, 10)
    svg.rect(cx + col0 * scale, cy + row0 * scale, tile * scale, tile * scale, "#fbe3e3", "#c00", 1)
    svg.rect(cx + col0 * scale, cy + row0 * scale, (n - col0) * scale, (m - row0) * scale, "#264653")
    notes = [
        "TILE = %d, M = N = K = %d" % (tile, m),
        "",
        "dark: the last tile of C, computed by one",
        "16 x 16 work-group; it hangs over the edge",
        "of C (red), where work-items load zeros",
        "and write nothing.",
        "",
        "Along K the tiles of A move right and the",
        "tiles of B move down: %d steps, the last" % steps,
        "hanging over K (red: zeros, which add",
        "nothing). Two barriers per step.",
        "",
        "global loads per element of C:",
        "2 per step = 2K / TILE (rounded up)",
        "naive: 2K; K = 32, TILE 16: %g against %d" % (tiled_loads_per_element(32, tile), 2 * 32),
    ]
    for i, note in enumerate(notes):
        svg.text(460, 30 + i * 18, note, 12)
    return svg


def transpose():
    """Lab 7: bank numbers of a padded 16-wide tile, and the cells one warp reads back."""
    tile, width = GROUP, GROUP + 1
    store, load = transpose_bank_passes(tile, True)
    plain_store, plain_load = transpose_bank_passes(tile, False)
    svg = Svg(760, 470, "Transpose through a padded tile: bank numbers")
    cell = 22
    svg.text(10, 20, "tile[16][17]: the bank of each word, (r * 17 + c) mod 32; column 16 is padding", 12,
             weight="bold")
    read = {(lx, ly) for lx, ly in warp_of_group(tile, tile)}   # tile[lx][ly]: row lx, column ly
    banks_read = [(r * width + c) % BANKS for r, c in read]
    shared = {b for b in banks_read if banks_read.count(b) > 1}
    for r in range(tile):
        for c in range(width):
            bank = (r * width + c) % BANKS
            fill = "#eeeeee" if c == tile else "white"
            if (r, c) in read:
                fill = "#e76f51" if bank in shared else "#f4a261"
            svg.rect(10 + c * cell, 30 + r * cell, cell, cell, fill, "#999", 0.5)
            svg.text(10 + c * cell + cell / 2, 30 + r * cell + 15, str(bank), 9, "middle")
    x = 10 + width * cell + 20
    notes = [
        "1. read in[row][col] into tile[ly][lx]",
        "   (warp 0: rows 0-1, 16 columns each)",
        "2. barrier",
        "3. read tile[lx][ly] (orange: warp 0 reads",
        "   columns 0 and 1, rows 0-15) and write it",
        "   to out[col][row] of the mirrored block",
        "",
        "passes per warp access (16x16 work-groups):",
        "padded (17 wide): store %d, load %d" % (store, load),
        "unpadded (16 wide): store %d, load %d" % (plain_store, plain_load),
        "average: padded %.1f, unpadded %.1f" % ((store + load) / 2, (plain_store + plain_load) / 2),
        "",
        "red: the bank the two columns share",
    ]
    for i, note in enumerate(notes):
        svg.text(x, 44 + i * 18, note, 11)
    return svg


def memory():
    """The memory hierarchy of an NVIDIA H100 with sizes and approximate latencies."""
    low, high = copy_bandwidth("bench-nvidia-h100-80gb-hbm3.csv")
    levels = [
        ("registers (__private)", "64K x 32-bit per SM (256 KB), up to 255 per work-item", "about 1 cycle"),
        ("local memory (__local) / L1", "256 KB per SM, up to 228 KB as local; 48 KB per work-group in OpenCL",
         "about 30 cycles"),
        ("L2 cache", "50 MB, shared by all 132 SMs", "about 200-300 cycles"),
        ("global memory (__global, HBM3)", "80 GB; copy measured at %s-%s GB/s" % (format(low, ",.0f"), format(high, ",.0f")),
         "about 500-800 cycles"),
    ]
    svg = Svg(760, 300, "Memory hierarchy of an NVIDIA H100 SXM")
    svg.text(10, 20, "NVIDIA H100 SXM: sizes from NVIDIA's documentation, latencies approximate (microbenchmarks)",
             12, weight="bold")
    for i, (name, size, latency) in enumerate(levels):
        y = 36 + i * 62
        inset = 120 - i * 40
        svg.rect(10 + inset, y, 740 - 2 * inset, 50, ["#e9f5db", "#cfe1b9", "#b5c99a", "#97a97c"][i])
        svg.text(380, y + 20, name, 13, "middle", "bold")
        svg.text(380, y + 38, "%s; %s" % (size, latency), 11, "middle")
    svg.text(10, 292, "__constant: at most 64 KB, read through an 8 KB constant cache per SM; fast when a warp reads one "
             "address", 11, fill="#555")
    return svg


def register_outputs(tx, ty, tile, wpt):
    """The (row, col) of C, within its work-group's block, that work-item (tx, ty) of lab 8's solution computes:
    rows ty, ty + SIDE, ..., columns tx, tx + SIDE, ..., SIDE = TILE / WPT apart."""
    side = tile // wpt
    return [(ty + i * side, tx + j * side) for i in range(wpt) for j in range(wpt)]


def register_global_loads_per_element(k, tile):
    """Global loads per element of C in lab 8: each step of TK along K stages TILE x TK elements of A and of B for
    the work-group's TILE x TILE outputs, 2 TK / TILE per output, so 2K / TILE in all."""
    return 2.0 * k / tile


def register_loads_per_fma(wpt):
    """Local loads per multiply-add in lab 8: per step of K a work-item loads WPT values of A and WPT of B and does
    WPT x WPT multiply-adds."""
    return 2.0 * wpt / (wpt * wpt)


def register_block():
    """Lab 8's register blocking: a work-group's TILE x TILE block of C, and the outputs one work-item keeps."""
    tile, wpt = 64, 4
    side = tile // wpt
    mine = set(register_outputs(2, 1, tile, wpt))
    svg = Svg(760, 310, "Register blocking: WPT x WPT outputs of C per work-item")
    cell = 4
    svg.text(10, 20, "TILE = %d, WPT = %d: a %d x %d work-group computes a %d x %d block of C" %
             (tile, wpt, side, side, tile, tile), 12, weight="bold")
    for r in range(wpt):
        for c in range(wpt):
            svg.rect(10 + c * side * cell, 30 + r * side * cell, side * cell, side * cell,
                     "#e4e4e4" if (r + c) % 2 else "#f1f1f1", "none")
    for r, c in sorted(mine):
        svg.rect(10 + c * cell, 30 + r * cell, cell, cell, "#f4a261", "none")
    for k in range(wpt + 1):   # the WPT x WPT sub-blocks, each covered once by the whole work-group
        svg.line(10 + k * side * cell, 30, 10 + k * side * cell, 30 + tile * cell, "#555", 0.8)
        svg.line(10, 30 + k * side * cell, 10 + tile * cell, 30 + k * side * cell, "#555", 0.8)
    notes = [
        "orange: the %d outputs of work-item (2, 1), held in" % (wpt * wpt),
        "%d private accumulators (registers): rows 1 + %d i," % (wpt * wpt, side),
        "columns 2 + %d j, so neighbouring work-items hold" % side,
        "neighbouring outputs in every %d x %d square" % (side, side),
        "",
        "per step of K, from the strips of A and B in local memory,",
        "a work-item loads %d values of A and %d of B" % (wpt, wpt),
        "and does %d multiply-adds:" % (wpt * wpt),
        "local loads per multiply-add = 2 / WPT = %.2f" % register_loads_per_fma(wpt),
        "(lab 6, one output per work-item: 2)",
        "",
        "global loads per element of C = 2K / TILE",
        "(TILE = %d: %d times fewer than the naive kernel)" % (tile, tile),
    ]
    for i, note in enumerate(notes):
        svg.text(300, 46 + i * 19, note, 12)
    return svg


def privatised_merges(values, nbins, groups, local):
    """Lab 10: each work-group's local counts over a grid-stride share of values, and the global atomics of the
    merge (one per non-empty bin per work-group)."""
    counts = [[0] * nbins for _ in range(groups)]
    for i, v in enumerate(values):
        counts[(i % (groups * local)) // local][v] += 1
    return counts, sum(1 for group in counts for c in group if c)


def histogram():
    """Lab 10: privatised bins in local memory, counted with local atomics and merged with one global atomic each."""
    values = [2, 2, 0, 2, 2, 3, 2, 1, 2, 2, 2, 0, 2, 2, 1, 2]  # skewed: most in bin 2
    nbins, groups, local = 4, 2, 2
    counts, merges = privatised_merges(values, nbins, groups, local)
    colours = ["#dbe9f6", "#fde2c8"]
    svg = Svg(760, 380, "Privatised histogram bins and the merge, 2 work-groups of 2")
    svg.text(10, 20, "data (16 values in 4 bins), grid-stride over 2 work-groups of 2 work-items: element i goes to "
             "work-group (i mod 4) / 2", 12)
    for i, v in enumerate(values):
        group = (i % (groups * local)) // local
        svg.rect(20 + i * 42, 34, 36, 26, colours[group])
        svg.text(38 + i * 42, 52, str(v), 12, "middle")
        svg.text(38 + i * 42, 74, str(i), 9, "middle", fill="#777")
    top, left = 140, [40, 420]
    svg.text(20, 100, "each work-group: zero its local_bins, barrier, atomic_inc(&local_bins[v]) per element, barrier, "
             "then merge", 12)
    for g in range(groups):
        svg.text(left[g], top - 10, "work-group %d: local_bins" % g, 11, weight="bold")
        for v in range(nbins):
            svg.rect(left[g] + v * 70, top, 60, 30, colours[g])
            svg.text(left[g] + v * 70 + 30, top + 19, "%d: %d" % (v, counts[g][v]), 12, "middle")
    bottom = 260
    svg.text(220, bottom + 48, "bins in global memory (zeroed by the host)", 11, weight="bold")
    for v in range(nbins):
        x = 220 + v * 70
        svg.rect(x, bottom, 60, 30, "#e3f1dc")
        svg.text(x + 30, bottom + 19, "%d: %d" % (v, sum(counts[g][v] for g in range(groups))), 12, "middle")
        for g in range(groups):
            if counts[g][v]:
                svg.line(left[g] + v * 70 + 30, top + 30, x + 30, bottom, arrow=True)
    svg.text(20, 340, "merge, atomic_add(&bins[v], local_bins[v]) per non-empty bin: %d global atomics (one per element: %d)" % (merges, len(values)), 12, weight="bold")
    svg.text(20, 362, "the %d values in bin 2 meet in local memory, where contention stays inside a work-group"
             % values.count(2), 12)
    return svg


DRAWINGS = {
    "ndrange.svg": ndrange,
    "mappings.svg": mappings,
    "reduction.svg": reduction,
    "tiled-matmul.svg": tiled,
    "transpose-banks.svg": transpose,
    "memory-hierarchy.svg": memory,
    "register-block.svg": register_block,
    "conv-halo.svg": halo,
    "histogram.svg": histogram,
    "scan.svg": scan,
}


def claims_hold(grader_output, problems):
    """Notes each simulated count that differs from what the grader's reference judge counted."""
    expected = [
        ("lab4 local stores", r"local memory: (\d+) stores", 16 * tree_local_stores(64)),
        ("lab5 writes", r"writes (\d+\.\d)", matmul_write_transactions(True)),
        ("lab6 global loads", r"global loads: (\d+\.\d+) per output element", tiled_loads_per_element(32, 16)),
        ("lab7 bank passes", r"local memory: (\d+\.\d) bank passes", sum(transpose_bank_passes(GROUP, True)) / 2),
        ("lab8 local loads", r"local memory: (\d+\.\d+) loads per multiply-add", register_loads_per_fma(4)),
        ("lab8 global loads", r"global loads: (\d+\.\d+) per output element", register_global_loads_per_element(32, 64)),
        # Lab 9's technique case (128 x 72, TILE 64, R 2): the solution loads its halo rows as float4 where it can, one
        # load for four floats, so the count lies between a quarter of the halo's floats per output and all of them.
        ("lab9 global loads", r"global loads: (\d+\.\d+) per output",
         (round(halo_loads_per_output(128, 72, 64, 2) / 4, 2), round(halo_loads_per_output(128, 72, 64, 2), 2))),
        # 16384 uniform values in 64 bins over 8 work-groups: 32 a bin a group on average, so none is empty.
        ("lab10 global atomics", r"global atomics: (\d+) for", 8 * 64),
    ]
    for name, pattern, simulated in expected:
        lab = name.split()[0]
        section = re.search(r"^%s: .*?^  %s score" % (lab, lab), grader_output, re.S | re.M)
        found = re.search(pattern, section.group(0)) if section else None
        low, high = simulated if isinstance(simulated, tuple) else (simulated, simulated)
        if not found or not low - 1e-9 <= float(found.group(1)) <= high + 1e-9:  # counts, so exact (or a range)
            problems.append("docs/figures: %s drawn as %s, the grader counts %s" %
                            (name, simulated, found.group(1) if found else "nothing"))


def main(argv):
    problems = []
    # The facts the handout states; the drawings show them, so they are checked before anything is drawn.
    assert matmul_write_transactions(True) == 2 and matmul_write_transactions(False) == 16
    assert transpose_bank_passes(16, False)[1] == 8 and transpose_bank_passes(16, True)[1] == 2
    assert transpose_bank_passes(32, True)[1] == 1 and transpose_bank_passes(8, True)[1] == 2
    for name, draw in DRAWINGS.items():
        path = os.path.join(FIGURES, name)
        drawn = draw().render()
        if "--write" in argv:
            os.makedirs(FIGURES, exist_ok=True)
            with open(path, "w", encoding="utf-8") as target:
                target.write(drawn)
        elif not os.path.exists(path) or open(path, encoding="utf-8").read() != drawn:
            problems.append("docs/figures/%s differs from what docs/figures.py draws (make docs)" % name)
    if "--claims" in argv:
        with open(argv[argv.index("--claims") + 1], encoding="utf-8") as output:
            claims_hold(output.read(), problems)
    for line in problems:
        print(line, file=sys.stderr)
    sys.exit(1 if problems else 0)


main(sys.argv[1:])
