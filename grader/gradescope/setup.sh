#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: the kit's packages (./setup), the
# user that submitted code runs as, and the grader built once, so that each submission only grades.
set -euo pipefail
cd "$(dirname "$0")"
./setup
make grader
