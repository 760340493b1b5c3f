#!/usr/bin/env python3
"""tests/include_cycles.py: prints every cycle among the kit's modules (a module is a .c/.h pair, and A depends on B
when A.c or A.h includes B.h) and every include that points up or across the grader's layers, and exits 1 when there
is one; with a file argument, reads the include lines from it instead of the tree (for the tests that show a cycle
and a wrong direction are caught); with --matrix, prints how many includes each folder makes into each other one."""
import glob
import os
import re
import sys


def edges_of_tree():
    """(module, included module) pairs of grader/ and common/."""
    for path in glob.glob("grader/**/*.[ch]", recursive=True) + glob.glob("common/*.[ch]"):
        with open(path, encoding="utf-8") as source:
            for name in re.findall(r'#include "([^"]+)\.h"', source.read()):
                target = "grader/" + name if os.path.exists("grader/" + name + ".h") else "common/" + name
                yield os.path.splitext(path)[0], target


# The grader's layers, top first (the design's target layout): a folder includes only folders in the
# layers below its own (common/ is the bottom). The wire describes the lab catalogue's buffers, so labs sits below it.
LAYERS = [("main",), ("commands",), ("cli",), ("pipeline",), ("report",), ("judge",), ("sandbox", "wire"), ("labs",),
          ("common",)]
# The confined runner stands beside the judge: it includes only these, and nothing includes it.
RUNNER_MAY_INCLUDE = {"wire", "labs", "common"}


def layer_of(module):
    """The folder naming module's layer ("main" for grader/main, "common" for common/x), or None outside them."""
    parts = module.split("/")
    if parts[0] == "common":
        return "common"
    return parts[1] if len(parts) > 2 else parts[-1] if parts[0] == "grader" else None


def rank(folder):
    return next((i for i, layer in enumerate(LAYERS) if folder in layer), None)


def against_layers(edges):
    """The edges that point up or across the layers, or to or from a folder outside them, in order."""
    found = set()
    for a, b in edges:
        la, lb = layer_of(a), layer_of(b)
        if la == lb or la is None or lb is None:
            continue
        if la != "runner" and rank(la) is None or lb != "runner" and rank(lb) is None:
            wrong = True  # a folder outside the layers: name it in LAYERS (or move its files) first
        elif la == "runner":
            wrong = lb not in RUNNER_MAY_INCLUDE
        elif lb == "runner":
            wrong = True
        else:
            wrong = rank(lb) <= rank(la)
        if wrong:
            found.add(a + " -> " + b)
    return sorted(found)


def edges_of_file(path):
    """Pairs written one per line as 'module -> module'."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if "->" in line:
                a, b = (part.strip() for part in line.split("->"))
                yield a, b


def cycles(edges):
    graph = {}
    for a, b in edges:
        if a != b:
            graph.setdefault(a, set()).add(b)
    found, state = [], {}

    def visit(node, path):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt])
            elif not state.get(nxt):
                visit(nxt, path)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if not state.get(node):
            visit(node, [])
    return found


def matrix(edges):
    """Prints how many includes each folder makes into each other folder, one 'folder -> folder count' a line."""
    counts = {}
    for a, b in edges:
        la, lb = layer_of(a), layer_of(b)
        if la != lb and la and lb:
            counts[la, lb] = counts.get((la, lb), 0) + 1
    for (la, lb), count in sorted(counts.items()):
        print("%-9s -> %-9s %d" % (la, lb, count))


if sys.argv[1:] == ["--matrix"]:
    matrix(edges_of_tree())
    sys.exit(0)
edges = list(edges_of_file(sys.argv[1]) if len(sys.argv) > 1 else edges_of_tree())
found = cycles(edges)
for cycle in found:
    print("include cycle: " + " -> ".join(cycle))
wrong = against_layers(edges)
for edge in wrong:
    print("include against the layers: " + edge)
sys.exit(1 if found or wrong else 0)
