#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# How often the verifier walked each source line of one BPF program, and with
# a second build, where it walked more (docs/bpf-notes.md, "256 bytes, not
# 128"): the program alone is loaded with the verifier's log at level 2 and
# its source-line notes are counted (scripts/vlines.c, built on first use).
# When a change takes a program's instruction count up, compare the two
# builds' objects: the lines at the top are where the states multiplied.
#
# Usage: scripts/verifier-lines.sh [-n TOP] OBJ PROG [OBJ2]
#   e.g. scripts/verifier-lines.sh .output/dynpf.bpf.o dynpf_xdp /tmp/old/.output/dynpf.bpf.o
# Needs root (it loads the program), a C compiler and libbpf-dev. A program
# of 800k instructions writes a log of about 700 MB: the buffer is 1 GB.
set -u
TOP_DIR=$(cd "$(dirname "$0")/.." && pwd)
VLINES=$TOP_DIR/build/vlines
if [ ! -x "$VLINES" ] || [ "$TOP_DIR/scripts/vlines.c" -nt "$VLINES" ]; then
	mkdir -p "$TOP_DIR/build"
	cc -O2 -Wall -Wextra -o "$VLINES" "$TOP_DIR/scripts/vlines.c" -lbpf ||
		{ echo "verifier-lines: cannot build $VLINES" >&2; exit 1; }
fi
exec "$VLINES" "$@"
