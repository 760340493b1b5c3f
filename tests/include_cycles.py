#!/usr/bin/env python3
"""tests/include_cycles.py: prints every cycle among the kit's modules (a module is a .c/.h pair, and A depends on B
when A.c or A.h includes B.h) and exits 1 when there is one; with a file argument, reads the include lines from it
instead of the tree (for the test that shows a cycle is caught)."""
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


found = cycles(edges_of_file(sys.argv[1]) if len(sys.argv) > 1 else edges_of_tree())
for cycle in found:
    print("include cycle: " + " -> ".join(cycle))
sys.exit(1 if found else 0)
