#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `make run`: dynpf's main job in a few minutes, on a test bed it makes and
# removes (two network namespaces, a veth pair, 198.18.0.0/15):
#   1. the parser: committed captures through the xdp and tc programs
#      (BPF_PROG_TEST_RUN), each BPF parse checked against the native one;
#   2. a rule set tried on a capture offline (replay --rules);
#   3. the daemon attached to the veth (XDP and TC), traffic through it,
#      live counters, a rule added at runtime and the verdicts changing,
#      then everything detached.
set -eu
cd "$(dirname "$0")/.."
DYNPF=$(readlink -f "${DYNPF:-build/dynpf}")
NS=dynpf-demo-$$
WORK=$(mktemp -d /tmp/dynpf-demo.XXXXXX)
PIN=/sys/fs/bpf/dynpf-demo-$$
export DYNPF_SOCKET=$WORK/dynpf.sock
dpid=
mounted=0

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
step() { printf '\033[1m$ %s\033[0m\n' "$*"; "$@"; }

cleanup() {
	[ -n "$dpid" ] && kill -TERM "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	ip netns del "$NS" 2>/dev/null || :
	rm -rf "$WORK" "$PIN"
	[ "$mounted" = 1 ] && umount /sys/fs/bpf 2>/dev/null || :
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ "$(id -u)" != 0 ]; then
	echo "make run loads BPF programs: run it as root (sudo make run)" >&2
	exit 1
fi
echo "dynpf: packet parsing on BPF dynptrs, one source for XDP and TC"

say "1. The parser: every header and option, in XDP and TC, checked against the native build"
step "$DYNPF" replay pcap-tests/tcp_options.pcap --hook xdp --check-native | head -8
step "$DYNPF" replay pcap-tests/tunnels.pcap --hook tc --check-native | sed -n '1p;30,36p'

say "2. A rule set tried on a capture, before it is deployed"
cat >"$WORK/demo.rules" <<'EOF'
# demo.rules
tcp flags syn/syn,ack tcp option mss tcp mss 1-535 drop   # tiny MSS: drop
ip6 exthdr routing srh segleft 1-255 count
udp dport 53 count
EOF
cat "$WORK/demo.rules"
step "$DYNPF" replay pcap-tests/ipv6_ext.pcap --hook xdp --rules "$WORK/demo.rules" |
	sed -n '1,3p;/rule counters/,/^pcap/p'

say "3. The daemon on an interface: a test bed with a veth pair"
if ! mount | grep -q ' /sys/fs/bpf type bpf'; then
	mount -t bpf bpf /sys/fs/bpf && mounted=1
fi
ip netns add "$NS"
ip -n "$NS" link add va type veth peer name vb
ip -n "$NS" link set va up
ip -n "$NS" link set vb up
cat >"$WORK/dynpf.conf" <<EOF
{
	"pin_dir": "$PIN", "socket": "$DYNPF_SOCKET", "rules": "$WORK/demo.rules",
	"netns": "$NS", "detach_on_exit": true, "max_rules": 1024,
	"interfaces": [ { "name": "vb", "hook": "xdp" }, { "name": "vb", "hook": "tc-ingress" } ]
}
EOF
"$DYNPF" daemon --config "$WORK/dynpf.conf" 2>"$WORK/daemon.log" &
dpid=$!
# Up to 30 s, as the tests wait (tests/lib.sh): the verifier is slow under load.
for _ in $(seq 300); do
	"$DYNPF" status >/dev/null 2>&1 && break
	kill -0 "$dpid" 2>/dev/null || break
	sleep 0.1
done
step "$DYNPF" status

send() { # COUNT DPORT: TCP SYNs with MSS 500 from va to vb
	ip netns exec "$NS" /usr/bin/python3 - "$1" "$2" <<'EOF' 2>/dev/null
import sys
from scapy.all import Ether, IP, TCP, sendp
from scapy.config import conf
conf.verb = 0
p = (Ether(dst="02:00:00:00:00:02") / IP(src="198.18.0.1", dst="198.18.0.2") /
     TCP(sport=40000, dport=int(sys.argv[2]), flags="S", options=[("MSS", 500)]))
sendp([p] * int(sys.argv[1]), iface="va")
EOF
}
echo "sending 10 TCP SYNs with MSS 500 to port 80, and 5 to port 22"
send 10 80
send 5 22
step "$DYNPF" stats
step "$DYNPF" rule add prio 0 tcp dport 22 pass
echo "sending 5 more to port 22: rule 4 now passes them before the MSS rule"
send 5 22
step "$DYNPF" stats
step "$DYNPF" rules save

say "Stopping the daemon: everything detached and unpinned"
kill -TERM "$dpid"
wait "$dpid" 2>/dev/null || :
dpid=
sed -e 's/^<[0-9]>//' "$WORK/daemon.log" | grep -v '^lib' || :
step ip -n "$NS" link show vb
echo
echo "More: docs/cli.md (commands), docs/rules.md (rules), docs/daemon.md (the daemon),"
echo "make test (every test), make bench (numbers)."
