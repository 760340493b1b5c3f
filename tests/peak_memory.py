#!/usr/bin/env python3
# tests/peak_memory.py CMD...: runs CMD and samples the summed PSS (proportional set size: a page shared by two
# processes counts half in each, as a container's memory limit counts it once) of its process tree every 50 ms;
# prints the peak in MB and the largest processes at that moment, and exits with CMD's status. A measurement,
# not a test: e.g. AUTOGRADER=$PWD/build/gs python3 tests/peak_memory.py build/gs/source/run_autograder
import subprocess
import sys
import time


def pss_kb(pid):
    """The process's PSS in kB, or 0 when it is gone or unreadable."""
    try:
        with open("/proc/%d/smaps_rollup" % pid) as rollup:
            return next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
    except (OSError, StopIteration, ValueError):
        return 0


def tree_pss(root):
    """The summed PSS of root and its descendants, and the six largest (kB, name)."""
    table = subprocess.run(["ps", "-e", "-o", "pid=,ppid=,comm="], capture_output=True, text=True).stdout
    children, names = {}, {}
    for line in table.splitlines():
        fields = line.split(None, 2)
        if len(fields) == 3:
            pid, ppid = int(fields[0]), int(fields[1])
            children.setdefault(ppid, []).append(pid)
            names[pid] = fields[2]
    parts, todo = [], [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        parts.append((pss_kb(pid), names.get(pid, "?")))
    return sum(kb for kb, _ in parts), sorted(parts, reverse=True)[:6]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tests/peak_memory.py COMMAND [ARGUMENTS...]")
    command = subprocess.Popen(sys.argv[1:])
    peak, largest = 0, []
    while command.poll() is None:
        total, parts = tree_pss(command.pid)
        if total > peak:
            peak, largest = total, parts
        time.sleep(0.05)
    print("peak PSS of the process tree: %.0f MB; largest then: %s" %
          (peak / 1024.0, ", ".join("%s %.0f MB" % (name, kb / 1024.0) for kb, name in largest if kb)))
    sys.exit(command.returncode)


main()
