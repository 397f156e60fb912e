#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The report of `dynpf -j bench`: a readable summary and PNG plots (gnuplot).
#   scripts/bench-report.sh BENCH.json [OUTDIR]    (OUTDIR: BENCH.json's directory)
# prints the summary (also written to OUTDIR/summary.txt) and renders, from
# the JSON alone, each plot it has data for:
#   OUTDIR/ns-per-shape.png  ns per packet of each shape and hook: empty,
#                            direct access, dynpf ("results")
#   OUTDIR/ns-vs-rules.png   ns per packet against the rules loaded, per
#                            packet and hook ("rules.classify")
#   OUTDIR/live-mpps.png     Mpps per configuration ("live", from --live)
# A plot without data is skipped with a message on stderr ("bench-report:
# ..."), and an old PNG of that name in OUTDIR is removed. `make bench` runs
# it on build/bench/bench.json. Exit 1 when the JSON cannot be read or a plot
# fails, 2 on bad usage. Needs python3 and gnuplot (scripts/deps.sh).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
	echo "usage: $0 BENCH.json [OUTDIR]" >&2
	exit 2
fi
json=$1
outdir=${2:-$(dirname "$json")}
command -v gnuplot >/dev/null || { echo "bench-report: gnuplot not found (make deps)" >&2; exit 1; }

mkdir -p "$outdir"
data=$(mktemp -d /tmp/dynpf-bench-report.XXXXXX)
trap 'rm -rf "$data"' EXIT

# Its messages (the plots without data) after the summary, beside the plots'.
if ! python3 "$HERE/bench_data.py" "$json" "$data" >"$data/summary.txt" 2>"$data/messages"; then
	cat "$data/messages" >&2
	exit 1
fi
cp "$data/summary.txt" "$outdir/summary.txt"
(cat "$data/summary.txt" && echo) || :	# a subshell: | head still renders the plots
cat "$data/messages" >&2

note=$(cat "$data/note.txt")
rc=0
# plot NAME DATAFILE GNUPLOT-ARGS...: renders OUTDIR/NAME.png when DATAFILE exists.
plot() {
	local name=$1 need=$2 png=$outdir/$1.png
	shift 2
	if [ ! -f "$data/$need" ]; then
		rm -f "$png"
		return
	fi
	if gnuplot -c "$HERE/bench/$name.gp" "$data" "$png.tmp" "$@" 2>"$data/$name.err" &&
		[ -s "$png.tmp" ]; then
		mv "$png.tmp" "$png"
		echo "bench-report: wrote $png" >&2
		cat "$data/$name.err" >&2
	else
		rm -f "$png.tmp"
		echo "bench-report: $name.png failed:" >&2
		cat "$data/$name.err" >&2
		rc=1
	fi
}
plot ns-per-shape hooks.txt "$note" "$(tr '\n' ' ' 2>/dev/null <"$data/hooks.txt")"
plot ns-vs-rules classify.dat "$note"
plot live-mpps live.dat "$(cat "$data/live-note.txt" 2>/dev/null)"
exit $rc
