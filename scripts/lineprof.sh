#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Where dynpf_xdp spends its time, by source line (docs/bpf-notes.md, "A line
# profile of the JITed program"): a daemon of this build in a network
# namespace of its own (on a veth pair, no traffic), RULES loaded through it,
# one frame run through its dynpf_xdp by `bpftool prog run` again and again
# on one CPU while `perf record` samples that CPU; each sample's address is
# mapped to its source line through the program's line info
# (scripts/lineinfo.c, built on first use). Mind the skid: the cost of a
# call's return lands on the lines after the call.
#
# Usage: scripts/lineprof.sh [-r RULES] [-f FRAME] [-s SECONDS] [-n TOP] [-c CPU]
#   -r RULES    a rule file (default: no rule)
#   -f FRAME    a file holding one frame's bytes (default: the bench's syn,
#               74 bytes: eth/IPv4/TCP SYN with Linux's options)
#   -s SECONDS  of sampling (default 6)
#   -n TOP      lines listed (default 40)
#   -c CPU      the CPU the frame runs on (default 1)
# Needs root, perf (Debian: linux-perf), bpftool, python3 and a C compiler
# with libbpf-dev.
# Everything it makes is removed on exit.
set -u
TOP_DIR=$(cd "$(dirname "$0")/.." && pwd)
DYNPF=$TOP_DIR/build/dynpf
RULES=
FRAME=
SECS=6
TOP=40
CPU=1
while getopts "r:f:s:n:c:h" o; do
	case $o in
	r) RULES=$(readlink -f "$OPTARG") ;;
	f) FRAME=$(readlink -f "$OPTARG") ;;
	s) SECS=$OPTARG ;;
	n) TOP=$OPTARG ;;
	c) CPU=$OPTARG ;;
	h)
		sed -n '13,22p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		sed -n '13,22p' "$0" | sed 's/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
done
die() {
	echo "lineprof: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "needs root"
for t in perf bpftool python3 cc; do
	command -v "$t" >/dev/null || die "$t is not installed"
done
[ -x "$DYNPF" ] || die "$DYNPF: not built (make)"
[ -z "$RULES" ] || [ -r "$RULES" ] || die "-r $RULES: cannot read the rule file"
[ -z "$FRAME" ] || [ -r "$FRAME" ] || die "-f $FRAME: cannot read the frame"

TMP=$(mktemp -d /tmp/dynpf-lineprof.XXXXXX)
NS=dynpf-lp-$$
PIN=/sys/fs/bpf/dynpf-lp-$$
XDPDIR_BEFORE=$([ -d /sys/fs/bpf/xdp ] && echo yes)
dpid=
rpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$PIN" "$TMP"
	# libxdp's directory, when it made it for this run and it is empty.
	[ -z "$XDPDIR_BEFORE" ] && rmdir /sys/fs/bpf/xdp 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

LINEINFO=$TOP_DIR/build/lineinfo
if [ ! -x "$LINEINFO" ] || [ "$TOP_DIR/scripts/lineinfo.c" -nt "$LINEINFO" ]; then
	mkdir -p "$TOP_DIR/build"
	cc -O2 -Wall -o "$LINEINFO" "$TOP_DIR/scripts/lineinfo.c" -lbpf ||
		die "cannot build $LINEINFO"
fi
if [ -z "$FRAME" ]; then
	FRAME=$TMP/syn.bin
	python3 - "$FRAME" <<'EOF'
import struct, sys
# The bench's syn (loader/bench/shapes.c): 198.18.0.1 -> 198.19.0.1, port 40000 -> 80.
eth = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1]) + b'\x08\x00'
opts = bytes([2, 4, 5, 0xb4, 4, 2, 8, 10, 0, 1, 0xe2, 0x40, 0, 0, 0, 0, 1, 3, 3, 7])
tcp = struct.pack('!HHIIBBHHH', 40000, 80, 0x01020304, 0, 10 << 4, 0x02, 64240, 0, 0) + opts
ip = bytearray(struct.pack('!BBHHHBBHII', 0x45, 0, 20 + len(tcp), 1, 0x4000, 64, 6, 0,
                           0xc6120001, 0xc6130001))
s = sum(struct.unpack('!10H', bytes(ip)))
s = (s >> 16) + (s & 0xffff)
struct.pack_into('!H', ip, 10, ~(s + (s >> 16)) & 0xffff)
open(sys.argv[1], 'wb').write(eth + bytes(ip) + tcp)
EOF
fi

ip netns add "$NS" || die "cannot make network namespace $NS"
ip -n "$NS" link add lp0 type veth peer name lp1 && ip -n "$NS" link set lp0 up &&
	ip -n "$NS" link set lp1 up || die "cannot make the veth pair"
if [ -n "$RULES" ]; then cp "$RULES" "$TMP/rules"; else : >"$TMP/rules"; fi
cat >"$TMP/conf" <<EOF
{ "pin_dir": "$PIN", "socket": "$TMP/sock", "rules": "$TMP/rules", "rules_watch": false,
  "detach_on_exit": true, "interfaces": [ { "name": "lp0" } ] }
EOF
nsenter --net="/run/netns/$NS" "$DYNPF" daemon --config "$TMP/conf" >"$TMP/daemon.log" 2>&1 &
dpid=$!
for _ in $(seq 300); do
	grep -q "ready" "$TMP/daemon.log" && break
	kill -0 "$dpid" 2>/dev/null || die "the daemon did not start: $(tail -3 "$TMP/daemon.log")"
	sleep 0.1
done
grep -q "ready" "$TMP/daemon.log" || die "the daemon did not get ready"
# The daemon's dynpf_xdp: the one that uses its pinned dynpf_state (libxdp
# may have put a dispatcher in front of it on lp0).
id=$(python3 - "$PIN/dynpf_state" <<'EOF'
import json, subprocess, sys
state = json.loads(subprocess.check_output(['bpftool', '-j', 'map', 'show', 'pinned', sys.argv[1]]))['id']
for p in json.loads(subprocess.check_output(['bpftool', '-j', 'prog', 'show'])):
    if p.get('name') == 'dynpf_xdp' and state in p.get('map_ids', []):
        print(p['id'])
EOF
)
[ -n "$id" ] || die "the daemon's dynpf_xdp was not found"
taskset -c "$CPU" bpftool prog run id "$id" data_in "$FRAME" repeat 1000000 >"$TMP/run" 2>&1 ||
	die "bpftool prog run: $(cat "$TMP/run")"
echo "dynpf_xdp (id $id), $(wc -c <"$FRAME") bytes: $(grep -o 'duration.*' "$TMP/run")"
taskset -c "$CPU" bpftool prog run id "$id" data_in "$FRAME" repeat 2000000000 >/dev/null 2>&1 &
rpid=$!
sleep 0.5
perf record -q -C "$CPU" -F 20000 -o "$TMP/perf.data" -- sleep "$SECS" >/dev/null 2>&1 ||
	die "perf record failed"
kill "$rpid" 2>/dev/null
wait "$rpid" 2>/dev/null
rpid=
perf script -i "$TMP/perf.data" -F ip,sym 2>/dev/null >"$TMP/samples"
total=$(wc -l <"$TMP/samples")
awk '/bpf_prog_/ { print $1 }' "$TMP/samples" | "$LINEINFO" "$id" >"$TMP/lines" ||
	die "cannot map the addresses"
echo "$total samples on CPU $CPU, $(wc -l <"$TMP/lines") in the program's code; by file:"
awk -F: '{ n[$1]++ } END { for (f in n) printf "%8d  %s\n", n[f], f }' "$TMP/lines" | sort -rn
echo "the $TOP busiest lines:"
sort "$TMP/lines" | uniq -c | sort -rn | head -n "$TOP" | while read -r n fl; do
	f=${fl%%:*}
	l=${fl##*:}
	src=$(find "$TOP_DIR/bpf" "$TOP_DIR/parsers" "$TOP_DIR/rules" "$TOP_DIR/include" \
		-name "$f" 2>/dev/null | head -1)
	text=
	[ -n "$src" ] && [ "$l" -gt 0 ] 2>/dev/null && text=$(sed -n "${l}p" "$src" | cut -c1-80)
	printf "%8d  %-18s %s\n" "$n" "$fl" "$text"
done
