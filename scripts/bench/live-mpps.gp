# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Plot (c) of scripts/bench-report.sh: packets per second on live traffic
# (the "live" object of `dynpf -j bench --live`), one bar per configuration.
#   gnuplot -c live-mpps.gp DATADIR OUT.png NOTE
# DATADIR/live.dat: "configuration" mpps rules (rules NaN when not given).
f = ARG1 . "/live.dat"
set terminal pngcairo size 1000, 600 font ",10" noenhanced
set output ARG2
set datafile missing NaN
set title "dynpf bench --live: packets per second by configuration\n(" . ARG3 . ")" font ",13"
set style data histograms
set style histogram clustered gap 0.6
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set ylabel "Mpps (million packets per second)"
set xlabel "configuration (hook, rules loaded)" offset 0, -0.8
set xtics nomirror
set key off
stats f using 0 nooutput
set xrange [-0.6 : STATS_records - 0.4]
plot f using 2:xtic(1) lc rgb "#d62728", \
     "" using 0:2:(sprintf("%.2f", $2)) with labels offset 0, 0.8 font ",10"
