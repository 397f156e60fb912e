# shellcheck shell=bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What the daemon's end-to-end tests share (sourced): the counters and the
# ok / ko / check lines, and bpffs mounted if it is not (unmounted by
# lib_cleanup), the test bed and its traffic. CHECK_LOG: where check()
# keeps a command's output.
pass=0
fail=0
skip=0
mounted_bpffs=0

ok() { echo "ok    $1"; pass=$((pass + 1)); }
ko() {
	echo "FAIL  $1"
	[ -n "${2:-}" ] && sed 's/^/      | /' "$2" | tail -15
	fail=$((fail + 1))
}
sk() { echo "skip  $1 ($2)"; skip=$((skip + 1)); } # NAME WHY
check() { # NAME COMMAND...: ok if it succeeds
	local name=$1
	shift
	if "$@" >"$CHECK_LOG" 2>&1; then ok "$name"; else ko "$name" "$CHECK_LOG"; fi
}
lib_mount_bpffs() {
	if ! mount | grep -q ' /sys/fs/bpf type bpf'; then
		mount -t bpf bpf /sys/fs/bpf && mounted_bpffs=1
	fi
}
lib_cleanup() {
	[ "$mounted_bpffs" = 1 ] && umount /sys/fs/bpf 2>/dev/null
}
# lib_testbed: the caller's cleanup() on exit (and on INT, TERM), bpffs
# mounted, and the namespace $NS holding the veth pair va - vb with
# 198.18.0.1/24 on va and 198.18.0.2/24 on vb, links left down.
lib_testbed() {
	trap cleanup EXIT
	trap 'exit 1' INT TERM
	lib_mount_bpffs
	ip netns add "$NS"
	ip -n "$NS" link add va type veth peer name vb
	ip -n "$NS" addr add 198.18.0.1/24 dev va
	ip -n "$NS" addr add 198.18.0.2/24 dev vb
}
# start_daemon CONF: dynpf daemon in the background ($dpid), logging to
# $OUT/daemon.log; 0 once it answers on $SOCK (at most 30 s: the sanitizer
# build under load starts slowly), 1 if it exits or does not answer.
start_daemon() {
	"$DYNPF" daemon --config "$1" >>"$OUT/daemon.log" 2>&1 &
	dpid=$!
	for _ in $(seq 300); do
		[ -S "$SOCK" ] && "$DYNPF" status >/dev/null 2>&1 && return 0
		kill -0 "$dpid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# stop_daemon: SIGTERM to $dpid and its exit status in $rc, $dpid emptied.
stop_daemon() {
	kill -TERM "$dpid"
	wait "$dpid"
	# shellcheck disable=SC2034 # the caller's
	rc=$?
	dpid=
}
# lib_send COUNT PROTO DPORT: COUNT TCP SYNs (PROTO tcp) or UDP datagrams
# to DPORT from va to vb, raw frames (scapy), 54 or 42 bytes each.
lib_send() {
	ip netns exec "$NS" /usr/bin/python3 - "$1" "$2" "$3" <<'EOF' >/dev/null 2>&1
import sys
from scapy.all import Ether, IP, TCP, UDP, sendp
from scapy.config import conf
conf.verb = 0
n, proto, dport = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
l4 = TCP(sport=40000, dport=dport, flags="S") if proto == "tcp" else UDP(sport=40000, dport=dport)
pkt = Ether(dst="02:00:00:00:00:02") / IP(src="198.18.0.1", dst="198.18.0.2") / l4
sendp([pkt] * n, iface="va")
EOF
}
# lib_udp_listen FILE: a listener on vb's address, port 9, writing into FILE
# how many datagrams got through; in the background, its pid in $lpid.
lib_udp_listen() {
	ip netns exec "$NS" /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("198.18.0.2", 9))
s.settimeout(0.2)
n = 0
open(sys.argv[1], "w").write("0\n")
while True:
    try:
        s.recv(2048)
        n += 1
        open(sys.argv[1], "w").write("%d\n" % n)
    except socket.timeout:
        pass
' "$1" &
	# shellcheck disable=SC2034 # the caller's, for its cleanup
	lpid=$!
}
# lib_udp_flood: UDP to vb's address, port 9, from va, as fast as scapy
# sends; in the background, its pid in $spid.
lib_udp_flood() {
	ip netns exec "$NS" /usr/bin/python3 -c '
from scapy.all import Ether, IP, UDP
from scapy.config import conf
conf.verb = 0
p = bytes(Ether(dst="ff:ff:ff:ff:ff:ff") / IP(src="198.18.0.1", dst="198.18.0.2") /
          UDP(sport=40000, dport=9))
s = conf.L2socket(iface="va")
while True:
    s.send(p)
' 2>/dev/null &
	# shellcheck disable=SC2034 # the caller's, for its cleanup
	spid=$!
}
# lib_udp_stop: the flood stopped, then (what was in flight received) the
# listener.
lib_udp_stop() {
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=
	sleep 0.3
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	lpid=
}
# lib_rx: the frames vb received.
lib_rx() { ip -n "$NS" -s link show vb | awk '/RX:/ { getline; print $2; exit }'; }
