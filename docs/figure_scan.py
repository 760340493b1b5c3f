"""Lab 11's diagram: Blelloch's up-sweep and down-sweep over one block, then the block sums scanned and added.

Every value drawn is computed by running the sweeps here on the block shown, as the lab's kernel does them."""
from svg import Svg


def up_sweep(values):
    """The block after each level of the up-sweep, with the (left, right) index pairs each level adds."""
    temp, levels, offset = list(values), [], 1
    while offset < len(temp):
        pairs = [(offset * (2 * k + 1) - 1, offset * (2 * k + 2) - 1) for k in range(len(temp) // (2 * offset))]
        for left, right in pairs:
            temp[right] += temp[left]
        levels.append((list(temp), pairs))
        offset *= 2
    return levels


def down_sweep(swept):
    """The block after the root is cleared and after each level of the down-sweep (swap the left into the right's
    place, add it on the right): the exclusive scan."""
    temp = list(swept)
    temp[-1] = 0
    levels, offset = [(list(temp), [])], len(temp) // 2
    while offset >= 1:
        pairs = [(offset * (2 * k + 1) - 1, offset * (2 * k + 2) - 1) for k in range(len(temp) // (2 * offset))]
        for left, right in pairs:
            temp[left], temp[right] = temp[right], temp[right] + temp[left]
        levels.append((list(temp), pairs))
        offset //= 2
    return levels


def additions(block):
    """The additions of the two sweeps over a block of that size: block - 1 each."""
    ups = sum(len(pairs) for _, pairs in up_sweep([0] * block))
    downs = sum(len(pairs) for _, pairs in down_sweep([0] * block))
    return ups + downs


def exclusive(values):
    sums, running = [], 0
    for v in values:
        sums.append(running)
        running += v
    return sums


def row(svg, y, values, label, fill="#dbe9f6", highlight=()):
    svg.text(20, y + 19, label, 11)
    for i, v in enumerate(values):
        svg.rect(250 + i * 52, y, 46, 28, "#fde2c8" if i in highlight else fill)
        svg.text(273 + i * 52, y + 19, str(v), 12, "middle")


def scan():
    """Lab 11: the sweeps over a block of 8 (a work-group of 4), then three blocks' sums scanned and added."""
    block = [3, 1, 7, 0, 4, 1, 6, 3]
    ups = up_sweep(block)
    downs = down_sweep(ups[-1][0])
    assert downs[-1][0] == exclusive(block) and additions(8) == 14 and additions(512) == 1022
    svg = Svg(760, 660, "Blelloch's up-sweep and down-sweep over a block, and the block sums")
    svg.text(20, 22, "one block of 8 in local memory (a work-group of 4): each level adds pairs, a barrier between "
             "levels", 12, weight="bold")
    y = 40
    row(svg, y, block, "loaded")
    for level, (values, pairs) in enumerate(ups):
        y += 40
        row(svg, y, values, "up-sweep, offset %d: %d add%s" % (1 << level, len(pairs), "s" if len(pairs) > 1 else ""),
            highlight=[right for _, right in pairs])
    for level, (values, pairs) in enumerate(downs):
        y += 40
        label = "root cleared (total %d)" % ups[-1][0][-1] if level == 0 else \
            "down-sweep, offset %d: %d add%s" % (len(block) >> level, len(pairs), "s" if len(pairs) > 1 else "")
        row(svg, y, values, label, "#e3f1dc", highlight=[i for pair in pairs for i in pair])
    svg.text(20, y + 50, "%d additions for 8 values: 2(B - 1) for a block of B (1022 for 512), about 2 per element;"
             % additions(8), 12)
    svg.text(20, y + 68, "Hillis-Steele's doubling adds at nearly every element at each of log2(B) levels", 12)
    blocks = [block, [2, 2, 5, 1, 0, 3, 4, 1], [1, 0, 2, 6, 3, 3, 1, 2]]
    totals = [sum(b) for b in blocks]
    offsets = exclusive(totals)
    y += 110
    svg.text(20, y, "three blocks: scan_blocks writes each block's total to sums, scan_sums scans them,", 12,
             weight="bold")
    svg.text(20, y + 16, "add_offsets adds sums[g] to every element of block g", 12, weight="bold")
    y += 16
    for g, total in enumerate(totals):
        svg.rect(250 + g * 120, y + 20, 100, 28, "#dbe9f6")
        svg.text(300 + g * 120, y + 39, "block %d: %d" % (g, total), 12, "middle")
        svg.rect(250 + g * 120, y + 80, 100, 28, "#e3f1dc")
        svg.text(300 + g * 120, y + 99, "offset %d" % offsets[g], 12, "middle")
        svg.line(300 + g * 120, y + 48, 300 + g * 120, y + 80, arrow=True)
    svg.text(20, y + 39, "sums (block totals)", 11)
    svg.text(20, y + 99, "sums after scan_sums", 11)
    last = [offsets[2] + s for s in exclusive(blocks[2])]
    svg.text(20, y + 140, "block 2 after add_offsets: %s" % " ".join(str(v) for v in last), 12)
    svg.text(20, y + 158, "(the exclusive scan of all 24 values, from element 16 on)", 12)
    assert last == exclusive(blocks[0] + blocks[1] + blocks[2])[16:]
    return svg
