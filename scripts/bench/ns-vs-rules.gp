# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Plot (b) of scripts/bench-report.sh: ns per packet through dynpf_xdp and
# dynpf_tc_ingress against the number of rules loaded (log x), one line per
# packet and hook; dashed, the same with no rule loaded.
#   gnuplot -c ns-vs-rules.gp DATADIR OUT.png NOTE
# DATADIR/classify.dat: rules "packet hook"... (a header, then one row per
# rule count >= 1); classify-none.dat: the 0-rule figures, at the first and
# the last count.
f = ARG1 . "/classify.dat"
none = ARG1 . "/classify-none.dat"
set terminal pngcairo size 1100, 700 font ",10" noenhanced
set output ARG2
set datafile missing NaN
set title "dynpf bench: classification cost against the rule set size\n(" . ARG3 . \
	"; generated rules, only a catch-all matches)" font ",13"
set logscale x 10
set format x "%.0f"
set xlabel "rules loaded (log scale)"
set ylabel "ns per packet"
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.1, 0
set grid xtics ytics mxtics
set key outside right top vertical title "packet, hook" box
set border 3
set tics nomirror
plot for [c = 2:*] f using 1:c with linespoints lw 2 pt 7 ps 1.2 lc c - 1 title columnheader(c), \
     for [c = 2:*] none using 1:c with lines dt 2 lw 1.5 lc c - 1 notitle, \
     NaN with lines dt 2 lw 1.5 lc rgb "black" title "dashed: no rule loaded"
