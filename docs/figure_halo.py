"""Lab 9's diagram for docs/figures.py: the halo tiles of a convolution over its image, drawn from a simulation of
the solution's loads."""
from svg import Svg


def halo_span(group, tile, radius, size):
    """The image rows (or columns) that a work-group's halo tile covers inside an image of size: its block widened
    by radius on both sides, clipped to the image (the solution stores zero outside and loads nothing there)."""
    first, last = group * tile - radius, (group + 1) * tile + radius
    return max(first, 0), min(last, size)


def halo_loads_per_output(height, width, tile, radius):
    """Global loads per output of lab 9's solution: every work-group loads the part of its halo tile inside the
    image once, and the image has height x width outputs."""
    loads = 0
    for gy in range((height + tile - 1) // tile):
        y0, y1 = halo_span(gy, tile, radius, height)
        for gx in range((width + tile - 1) // tile):
            x0, x1 = halo_span(gx, tile, radius, width)
            loads += (y1 - y0) * (x1 - x0)
    return loads / (height * width)


def halo():
    """Lab 9's halo tiles drawn small, H x W = 64 x 48 with TILE 16 and R 2 (the technique case is 128 x 72 with TILE 64):
    the work-groups' blocks, two halo tiles (one at the image's corner, clipped, one inside), and the filter over one
    output."""
    height, width, tile, radius = 64, 48, 16, 2
    cell, left, top = 5, 20, 40
    svg = Svg(760, 400, "Lab 9: halo tiles over the image, and the filter over one output")
    svg.text(10, 20, "an H x W = %d x %d image, TILE = %d, R = %d: each work-group loads its (TILE + 2R)^2 halo tile once" %
             (height, width, tile, radius), 12, weight="bold")
    svg.rect(left, top, width * cell, height * cell, "#f4f4f4", "#333", 1.2)
    for k in range(1, width // tile):
        svg.line(left + k * tile * cell, top, left + k * tile * cell, top + height * cell, "#999", 0.8)
    for k in range(1, height // tile):
        svg.line(left, top + k * tile * cell, left + width * cell, top + k * tile * cell, "#999", 0.8)
    for gx, gy, fill in ((0, 0, "#f4a261"), (1, 2, "#8ecae6")):
        x0, x1 = halo_span(gx, tile, radius, width)
        y0, y1 = halo_span(gy, tile, radius, height)
        svg.rect(left + x0 * cell, top + y0 * cell, (x1 - x0) * cell, (y1 - y0) * cell, fill, "#333", 1)
        svg.rect(left + gx * tile * cell, top + gy * tile * cell, tile * cell, tile * cell, "none", "#000", 1.6)
    ox, oy = tile + 5, 2 * tile + 7   # one output of the inner work-group, and its (2R + 1)^2 taps
    svg.rect(left + (ox - radius) * cell, top + (oy - radius) * cell, (2 * radius + 1) * cell,
             (2 * radius + 1) * cell, "#2a9d8f", "#000", 1)
    svg.rect(left + ox * cell, top + oy * cell, cell, cell, "#000", "none")
    per_output = halo_loads_per_output(height, width, tile, radius)
    notes = [
        "bold squares: a work-group's TILE x TILE outputs",
        "orange: the halo tile of work-group (0, 0), clipped at",
        "the image's corner (zero stored outside, nothing loaded)",
        "blue: the halo tile of work-group (1, 2), %d x %d" % (tile + 2 * radius, tile + 2 * radius),
        "green: the %d x %d filter over one output (black);" % (2 * radius + 1, 2 * radius + 1),
        "its taps are read from local memory, the filter",
        "from __constant (one word per tap, broadcast)",
        "",
        "global loads per output:",
        "naive: (2R + 1)^2 = %d, plus %d for the filter" % ((2 * radius + 1) ** 2, (2 * radius + 1) ** 2),
        "halo tile: at most (TILE + 2R)^2 / TILE^2 = %.2f" % ((tile + 2 * radius) ** 2 / tile ** 2),
        "on this image: %.2f (edge halos fall outside)" % per_output,
    ]
    for i, note in enumerate(notes):
        svg.text(300, 56 + i * 19, note, 12)
    return svg
