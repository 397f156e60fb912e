# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Plot (a) of scripts/bench-report.sh: ns per packet of each shape, one panel
# per hook, bars for the empty program, the direct-access parser and dynpf.
#   gnuplot -c ns-per-shape.gp DATADIR OUT.png NOTE "HOOK..."
# DATADIR/shapes-HOOK.dat: "shape" empty_ns direct_ns dynpf_ns "note" (NaN: none).
datadir = ARG1
hooks = ARG4
n = words(hooks)
set terminal pngcairo size 1400, 340 * n + 110 font ",10" noenhanced
set output ARG2
set datafile missing NaN
set multiplot layout n, 1 title "dynpf bench: ns per packet by packet shape and hook\n(" . ARG3 . \
	")\nn/a: the test run cannot build that packet on that hook; no direct: the direct parser does not parse that shape" font ",13"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
# One y scale for every panel, so that the hooks compare, with room for the key.
ymax = 1
do for [i = 1:n] {
	do for [c = 2:4] {
		stats datadir . "/shapes-" . word(hooks, i) . ".dat" using c nooutput
		if (STATS_records > 0 && STATS_max > ymax) { ymax = STATS_max }
	}
}
set yrange [0 : ymax * 1.15]
set ylabel "ns per packet"
set xtics nomirror
set key top left horizontal
set lmargin 10
set rmargin 3
do for [i = 1:n] {
	h = word(hooks, i)
	f = datadir . "/shapes-" . h . ".dat"
	set title "hook: " . h
	stats f using 0 nooutput
	set xrange [-0.6 : STATS_records - 0.4]
	if (i == n) { set xlabel "packet shape (frame size)" offset 0, -0.6 }
	plot f using 2:xtic(1) title "empty program (test-run floor)" lc rgb "#9e9e9e", \
	     "" using 3 title "direct packet access (loader/bench/bench.bpf.c)" lc rgb "#1f77b4", \
	     "" using 4 title "dynpf" lc rgb "#d62728", \
	     "" using 0:(0):5 with labels rotate by 90 left offset 0, 0.5 font ",9" notitle
	unset key
}
unset multiplot
