#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Faults and refusals of `dynpf daemon`, for real, in a network namespace it
# creates (198.18.0.0/15): a bad configuration or rule file, missing
# capabilities, a kernel without BTF, a pin directory off bpffs, another XDP
# program in the way (each: one clear error, nothing half-attached), the modes
# of what it pins and of its socket, a quiet client and a stopped daemon
# (neither holds the other), an attached interface deleted, moved away or its
# peer's namespace removed under it, and kill -9 in the middle of loading
# 10,000 rules, at set delays and at exact points gdb holds it at (the rule
# set after restart is the old one or the new one, and traffic was filtered
# throughout). Everything it creates is removed on exit, also on failure.
#
# Usage: tests/faults_test.sh DYNPF BPF_OBJ_DIR OUTDIR
#        -> ends with "faults_test: N passed, N failed, N skipped"
set -u
DYNPF=$(readlink -f "$1")
OBJ=$(readlink -f "$2")
mkdir -p "$3"
OUT=$(readlink -f "$3")
NS=dynpf-ft-$$
PIN=/sys/fs/bpf/dynpf-ft-$$
FOREIGN=/sys/fs/bpf/dynpf-ft-foreign-$$
SOCK=$OUT/ft.sock
export DYNPF_SOCKET=$SOCK
CHECK_LOG=$OUT/ft.log
. "$(dirname "$0")/lib.sh"
dpid=
spid=
lpid=

# refused NAME TEXT COMMAND...: COMMAND fails, saying TEXT.
refused() {
	local name=$1 want=$2
	shift 2
	if "$@" >"$CHECK_LOG" 2>&1; then
		echo "exit 0, want a failure" >>"$CHECK_LOG"
		ko "$name" "$CHECK_LOG"
	elif ! grep -qF -- "$want" "$CHECK_LOG"; then
		echo "want: $want" >>"$CHECK_LOG"
		ko "$name" "$CHECK_LOG"
	else
		ok "$name"
	fi
}

cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	[ -n "${quiet:-}" ] && kill "$quiet" 2>/dev/null
	[ -n "${gpid:-}" ] && kill -9 "$gpid" 2>/dev/null
	[ -n "$dpid" ] && kill -9 "$dpid" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ip netns del "$NS-2" 2>/dev/null
	ip netns del "$NS-3" 2>/dev/null
	rm -rf "$PIN" "$PIN-b" "$FOREIGN" "$OUT/not-bpffs" "${PUB:-}"
	lib_cleanup
}

lib_testbed
ip -n "$NS" link add vc type veth peer name vd
ip -n "$NS" link add ve type veth peer name vf
# vg's peer lives in a namespace of its own, removed under the daemon below.
ip netns add "$NS-3"
ip -n "$NS" link add vg type veth peer name vh netns "$NS-3"
ip -n "$NS-3" link set dev vh up
ip -n "$NS" addr add 198.18.1.1/24 dev vc
ip -n "$NS" addr add 198.18.1.2/24 dev vd
for i in va vb vc vd ve vf vg; do ip -n "$NS" link set dev "$i" up; done

printf 'id 1 prio 10 udp dport 9 drop\nid 2 prio 20 udp dport 53 count\n' >"$OUT/ft-old.rules"
# The new set: the same drop first, then 9,999 rules the traffic misses.
python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("id 1 prio 10 udp dport 9 drop\n")
    for i in range(2, 10001):
        f.write(f"id {i} prio {100 + i} ip saddr 198.19.{i >> 8}.{i & 255} tcp dport {1000 + i % 5000} count\n")
' "$OUT/ft-new.rules"

conf() { # PIN_DIR IFACES_JSON
	cat >"$OUT/ft.conf" <<-END
	{
		"pin_dir": "$1", "socket": "$SOCK", "rules": "$OUT/ft-old.rules",
		"max_rules": 16384, "netns": "$NS", "detach_on_exit": true,
		"interfaces": [ $2 ]
	}
	END
}
start() { start_daemon "$OUT/ft.conf"; }
stop9() {
	kill -9 "$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=
	rm -f "$SOCK"
}
# Nothing of dynpf on the namespace's interfaces, no pins, no socket.
nothing_left() {
	! ip -n "$NS" link show | grep -q 'prog/xdp' &&
		! ip netns exec "$NS" bpftool net show 2>/dev/null | grep -qi dynpf &&
		[ ! -e "$PIN" ] && [ ! -e "$SOCK" ]
}
IFACES='{ "name": "vb", "hook": "xdp" }, { "name": "vd", "hook": "xdp-generic" },
	{ "name": "vd", "hook": "tc-ingress" }, { "name": "vf", "hook": "tc-ingress" },
	{ "name": "vg", "hook": "xdp-generic" }'

# ---- refusals before anything is attached ----------------------------------
conf "$PIN" "$IFACES"
if command -v setpriv >/dev/null; then
	refused "without CAP_BPF and CAP_PERFMON: refused, naming them" \
		"it lacks CAP_BPF, CAP_PERFMON" \
		setpriv --bounding-set=-bpf,-perfmon,-sys_admin "$DYNPF" daemon --config "$OUT/ft.conf"
	check "and nothing left" nothing_left
	refused "with a netns but without CAP_SYS_ADMIN: refused, naming it" \
		"it lacks CAP_SYS_ADMIN" \
		setpriv --bounding-set=-sys_admin "$DYNPF" daemon --config "$OUT/ft.conf"
	# In the namespace already (no "netns" key): XDP alone asks for
	# CAP_SYS_ADMIN (libxdp reads the program's BTF by id; without it
	# libxdp 1.3 crashes), before anything is loaded.
	sed 's/"netns": "[^"]*", //' "$OUT/ft.conf" >"$OUT/ft-xdp.conf"
	refused "XDP without CAP_SYS_ADMIN: refused, saying why" \
		"CAP_SYS_ADMIN (for XDP: libxdp reads the programs' BTF by id)" \
		ip netns exec "$NS" setpriv --bounding-set=-sys_admin "$DYNPF" daemon \
		--config "$OUT/ft-xdp.conf"
	check "and nothing left" nothing_left
else
	sk "capabilities" "setpriv not found"
fi
# A kernel without BTF (so without the dynptr kfuncs dynpf checks for
# there), shown to the daemon through a private mount namespace.
if command -v unshare >/dev/null; then
	conf "$PIN" "$IFACES"
	refused "a kernel without BTF: refused, naming what is missing" \
		"kernel BTF not found (/sys/kernel/btf/vmlinux)" \
		unshare -m sh -c 'mount --bind /dev/null /sys/kernel/btf/vmlinux && exec "$@"' sh \
		"$DYNPF" daemon --config "$OUT/ft.conf"
	check "and nothing left" nothing_left
else
	sk "a kernel without BTF" "unshare not found"
fi
# A configured rule file that does not parse: a fresh start is refused,
# naming the file and line, and unpins and detaches what it had done.
printf 'id 1 prio 10 udp dport 9 drop\nid 2 prio 20 udp dport 99999 count\n' >"$OUT/ft-bad.rules"
conf "$PIN" "$IFACES"
sed -i "s|$OUT/ft-old.rules|$OUT/ft-bad.rules|" "$OUT/ft.conf"
refused "a bad rule file: refused, naming file and line" "$OUT/ft-bad.rules:2:" \
	"$DYNPF" daemon --config "$OUT/ft.conf"
check "and nothing left" nothing_left
# A bad configuration, given to a real start (not --check-config).
conf "$PIN" "$IFACES"
sed -i 's/"max_rules"/"max_rulez"/' "$OUT/ft.conf"
refused "a bad configuration: refused, naming file, line and key" \
	"$OUT/ft.conf:3: max_rulez: unknown setting" "$DYNPF" daemon --config "$OUT/ft.conf"
check "and nothing left" nothing_left
mkdir -p "$OUT/not-bpffs"
conf "$OUT/not-bpffs/dynpf" "$IFACES"
refused "pin_dir off bpffs: refused, saying how to mount one" "mount -t bpf bpf" \
	"$DYNPF" daemon --config "$OUT/ft.conf"
check "and nothing left" sh -c '[ -z "$(ls -A "$1")" ] && ! ip -n "$2" link show | grep -q prog/xdp' \
	sh "$OUT/not-bpffs" "$NS"

# Another XDP program on vd, attached without libxdp (plain netlink): the
# daemon says which and how to remove it, and takes vb's XDP off again.
conf "$PIN" "$IFACES"
if bpftool prog loadall "$OBJ/bench.bpf.o" "$FOREIGN" >"$OUT/ft.log" 2>&1 &&
	nsenter --net="/run/netns/$NS" bpftool net attach xdpgeneric \
		pinned "$FOREIGN/bench_empty_xdp" dev vd >>"$OUT/ft.log" 2>&1; then
	refused "another XDP program on an interface: refused, naming it and the fix" \
		"another XDP program is attached" "$DYNPF" daemon --config "$OUT/ft.conf"
	check "nothing half-attached (vb has no XDP program, no pins, no socket)" sh -c \
		'! ip -n "$1" link show vb | grep -q prog/xdp && [ ! -e "$2" ] && [ ! -e "$3" ]' \
		sh "$NS" "$PIN" "$SOCK"
	check "the other program is still there" sh -c 'ip -n "$1" link show vd | grep -q prog/xdp' \
		sh "$NS"
	ip netns exec "$NS" bpftool net detach xdpgeneric dev vd
else
	ko "attach a foreign XDP program with bpftool" "$OUT/ft.log"
fi
rm -rf "$FOREIGN"

# ---- a running daemon --------------------------------------------------------
check "the daemon starts on vb and vd" start
check "pinned maps and links are 0600, the pin directory 0700" sh -c \
	'[ -n "$(find "$1" -mindepth 1 ! -type d)" ] &&
	 [ -z "$(find "$1" -mindepth 1 ! -type d ! -perm 0600)" ] &&
	 [ -z "$(find "$1" -type d ! -perm 0700)" ]' sh "$PIN"
check "the socket is 0600, root's" sh -c '[ "$(stat -c %a:%U "$1")" = 600:root ]' sh "$SOCK"

# A second daemon: refused before it touches anything, the first untouched.
"$DYNPF" daemon --config "$OUT/ft.conf" >"$OUT/ft-second.log" 2>&1
check "a second daemon on the same pin directory is refused" test $? -ne 0
check "naming the first one's pid" grep -q \
	"a dynpf daemon (pid $dpid) runs with the pin directory $PIN:" "$OUT/ft-second.log"
conf "$PIN-b" "$IFACES"
"$DYNPF" daemon --config "$OUT/ft.conf" >"$OUT/ft-third.log" 2>&1
check "one with a pin directory of its own but the same socket too" test $? -ne 0
check "saying another daemon listens on it" \
	grep -q "another dynpf daemon listens on $SOCK:" "$OUT/ft-third.log"
check "and nothing of it left" test ! -e "$PIN-b"
nsenter --net="/run/netns/$NS" "$DYNPF" detach --all --pin-dir "$PIN" >"$OUT/ft-detach.log" 2>&1
check "detach --all under a running daemon is refused" test $? -ne 0
check "naming it" grep -q "a dynpf daemon (pid $dpid) runs with the pin directory $PIN:" \
	"$OUT/ft-detach.log"
check "and vb keeps its XDP program" sh -c 'ip -n "$1" link show vb | grep -q prog/xdp' sh "$NS"
conf "$PIN" "$IFACES"
check "the first still serves, on its socket" \
	sh -c '"$1" -j status | grep -q "\"pid\":$2[,}]"' sh "$DYNPF" "$dpid"

# An attached interface deleted under the daemon: logged, forgotten, the
# other interface still served.
# gone IFACE: true once the daemon's status no longer lists IFACE attached
# (10 s at most: a namespace is dismantled by a kernel worker, not at once);
# a configured one is listed as waiting for it to come back.
gone() {
	for _ in $(seq 100); do
		"$DYNPF" status 2>/dev/null | grep " $1 " | grep -qv "waiting:" || return 0
		sleep 0.1
	done
	return 1
}
ip -n "$NS" link del vc
check "a deleted interface leaves the status" gone vd
check "and the log says so" grep -q "vd: the interface is gone" "$OUT/daemon.log"
check "the daemon still serves: status lists vb" sh -c '"$1" status | grep -q " vb "' sh "$DYNPF"
check "and a rule can be added" "$DYNPF" rule add id 3 prio 30 udp dport 7 count
check "and deleted" "$DYNPF" rule del 3
check "no pinned tc link of vd left" sh -c '! ls "$1" | grep -q "link_vd"' sh "$PIN"
# One moved to another network namespace: gone from ours, the same.
ip netns add "$NS-2"
ip -n "$NS" link set dev vf netns "$NS-2"
check "an interface moved to another namespace leaves the status" gone vf
check "its pinned tc link too" sh -c '! ls "$1" | grep -q "link_vf"' sh "$PIN"
ip netns del "$NS-2"
# A namespace removed: vg's peer goes with it, and a veth without its peer
# is deleted too.
ip netns del "$NS-3"
check "an interface whose peer's namespace is removed leaves the status" gone vg
check "and the log says so" grep -q "vg: the interface is gone" "$OUT/daemon.log"
check "the daemon still serves: status lists vb" sh -c '"$1" status | grep -q " vb "' sh "$DYNPF"

# ---- a client that goes quiet, a daemon that stops ----------------------------
# A client that connects and sends nothing holds the daemon 5 s at most:
# then it is dropped, and the next client is served.
timeout 20 /usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(15)' "$SOCK" &
quiet=$!
sleep 0.5
t0=$(date +%s%N)
check "a quiet client does not lock the operator out" "$DYNPF" -t 20 status
check "who waits for it at most the daemon's 5 s" \
	sh -c '[ $((($(date +%s%N) - $1) / 1000000)) -lt 10000 ]' sh "$t0"
check "and the log says it was dropped" grep -q "no complete request in 5 s, dropped" \
	"$OUT/daemon.log"
kill "$quiet" 2>/dev/null
wait "$quiet" 2>/dev/null
# A daemon that is stopped (its own drain of the control ring with it):
# the CLI gives up after --timeout with a clear error, the request it gave
# up on is not carried out later, nothing before it is lost, the daemon
# goes on, and the next request works.
"$DYNPF" rules save >"$OUT/ft-before-stop.saved"
kill -STOP "$dpid"
t0=$(date +%s%N)
"$DYNPF" -t 1 rule add id 4 prio 40 udp dport 7 drop >"$OUT/ft-stopped.out" 2>&1
rc=$?
t1=$(date +%s%N)
kill -CONT "$dpid"
check "the CLI fails on a stopped daemon" test "$rc" -ne 0
check "after its --timeout (1 s), not much later" \
	sh -c '[ $((($2 - $1) / 1000000)) -ge 900 ] && [ $((($2 - $1) / 1000000)) -lt 5000 ]' \
	sh "$t0" "$t1"
check "saying the daemon did not answer within 1 s" \
	grep -q "did not answer within 1 s: is it stopped or stuck" "$OUT/ft-stopped.out"
check "the daemon goes on once continued" "$DYNPF" status
check "the request given up on was not carried out" \
	sh -c '"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/ft-before-stop.saved"
check "and the log says why" grep -q "hung up before its request was taken: not carried out" \
	"$OUT/daemon.log"
check "the next request works" "$DYNPF" rule add id 4 prio 40 udp dport 7 drop
check "and only it changed the rule set" sh -c \
	'"$1" rules save | grep -v "dport 7 drop" | cmp -s - "$2"' sh "$DYNPF" "$OUT/ft-before-stop.saved"
check "it is deleted again" "$DYNPF" rule del 4

# ---- kill -9 in the middle of loading 10,000 rules ----------------------------
# (vd, vf and vg are gone: the restarts below are configured without them.)
conf "$PIN" '{ "name": "vb", "hook": "xdp" }'
"$DYNPF" rules save >"$OUT/ft-old.saved"
check "the new set loads" "$DYNPF" rules load "$OUT/ft-new.rules"
"$DYNPF" rules save >"$OUT/ft-new.saved"
check "and the old one back" "$DYNPF" rules load "$OUT/ft-old.rules"
check "the two sets differ" sh -c '! cmp -s "$1" "$2"' sh "$OUT/ft-old.saved" "$OUT/ft-new.saved"

# Traffic the whole time: UDP to port 9, which both sets drop at XDP; a
# listener on vb's address counts what gets through (must be none).
lib_udp_listen "$OUT/ft-through"
lib_udp_flood
before=$(lib_rx)
# gdb_kill FUNC N: kill -9 the daemon the N-th time it enters FUNC (gdb
# holds it there, so the kill lands exactly at that point); returns once gdb
# has attached and let it run again.
gdb_kill() {
	rm -f "$OUT/gdb.ready"
	gdb -p "$dpid" -batch -nx -q -ex 'set pagination off' -ex "break $1" \
		-ex "ignore 1 $(($2 - 1))" -ex "shell touch $OUT/gdb.ready" -ex continue \
		-ex kill >"$OUT/gdb.log" 2>&1 &
	gpid=$!
	for _ in $(seq 300); do
		[ -e "$OUT/gdb.ready" ] && return 0
		kill -0 "$gpid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# Each round kills the daemon while it loads the new set, then restarts it.
# At a time after the request (TIME), or exactly: as it is about to submit
# its N-th message to the control ring, reserved and written but not
# submitted (submit:N), or as it starts its N-th run of the drain
# (drain:N: the first one is the ring gone full mid-load).
rounds="0.005 0.02 0.05 0.1 0.2 0.4 submit:1 submit:2 submit:5000 drain:1 drain:2 drain:3 drain:4"
outcomes=
for how in $rounds; do
	case $how in
	submit:*) func=user_ring_buffer__submit ;;
	drain:*) func=bpf_prog_test_run_opts ;;
	*) func= ;;
	esac
	if [ -n "$func" ]; then
		gdb_kill "$func" "${how#*:}" || outcomes="$outcomes NO-GDB"
	fi
	"$DYNPF" rules load "$OUT/ft-new.rules" >/dev/null 2>&1 &
	cpid=$!
	if [ -n "$func" ]; then
		wait "$gpid" 2>/dev/null
		wait "$dpid" 2>/dev/null
		dpid=
		rm -f "$SOCK"
	else
		sleep "$how"
		stop9
	fi
	wait "$cpid" 2>/dev/null
	if ! start; then
		outcomes="$outcomes $how:NO-RESTART"
		continue
	fi
	"$DYNPF" rules save >"$OUT/ft-after.saved"
	if cmp -s "$OUT/ft-after.saved" "$OUT/ft-old.saved"; then
		outcomes="$outcomes $how:old"
	elif cmp -s "$OUT/ft-after.saved" "$OUT/ft-new.saved"; then
		outcomes="$outcomes $how:new"
		"$DYNPF" rules load "$OUT/ft-old.rules" >"$OUT/ft-reload.log" 2>&1 ||
			outcomes="$outcomes RELOAD-FAILED"
	else
		outcomes="$outcomes $how:MIXED"
		diff "$OUT/ft-old.saved" "$OUT/ft-after.saved" | head >"$OUT/ft-mixed.log"
	fi
done
after=$(lib_rx)
lib_udp_stop
through=$(cat "$OUT/ft-through" 2>/dev/null)
check "kill -9 mid-load, $(wc -w <<<"$rounds") times: the old set or the new one, never a mix, and the next load works ($outcomes )" \
	sh -c '! echo "$1" | grep -q "MIXED\|NO-RESTART\|FAILED\|NO-GDB"' sh "$outcomes"
# What a round killed as it was submitting left a busy record in the ring;
# what one killed as it started the drain left the messages it had sent.
check "each record killed before its submit was discarded by the next daemon" \
	test "$(grep -c "1 message a killed daemon reserved in the control ring and never finished: discarded" \
		"$OUT/daemon.log")" = "$(echo "$rounds" | grep -o submit: | wc -l)"
check "the messages of each one killed at its drain were drained by the next" \
	test "$(grep -c "messages a killed daemon left in the control ring: drained" \
		"$OUT/daemon.log")" -ge "$(echo "$rounds" | grep -oE "submit:[0-9]{2,}|submit:[2-9]|drain:" | wc -l)"
check "traffic flowed meanwhile ($((after - before)) frames)" test $((after - before)) -gt 1000
check "and none of it got through the drop rule (${through:-?} datagrams)" test "${through:-x}" = 0

# ---- deny by default does not lock out neighbour discovery --------------------
# An ARP request to vb's address (from an address not local to the namespace:
# Linux ignores those): answered unless the operator said
# `set pass-arp-nd off`.
arp_answered() {
	ip netns exec "$NS" /usr/bin/python3 -c '
import sys
from scapy.all import ARP, Ether, srp1
from scapy.config import conf
conf.verb = 0
r = srp1(Ether(dst="ff:ff:ff:ff:ff:ff") / ARP(psrc="198.18.0.99", pdst="198.18.0.2"),
         iface="va", timeout=1)
sys.exit(0 if r is not None and r.haslayer(ARP) and r[ARP].op == 2 else 1)' 2>/dev/null
}
printf 'set default-action drop\n' >"$OUT/ft-deny.rules"
printf 'set default-action drop\nset pass-arp-nd off\n' >"$OUT/ft-deny-all.rules"
check "deny by default loads" "$DYNPF" rules load "$OUT/ft-deny.rules"
check "ARP is still answered" arp_answered
check "deny by default with pass-arp-nd off loads" "$DYNPF" rules load "$OUT/ft-deny-all.rules"
if arp_answered; then ko "then ARP is not answered"; else ok "then ARP is not answered"; fi
check "back to passing by default" "$DYNPF" rules load "$OUT/ft-old.rules"
check "ARP answered again" arp_answered

kill -TERM "$dpid" 2>/dev/null
wait "$dpid" 2>/dev/null
dpid=
check "SIGTERM (detach_on_exit): nothing left" nothing_left

# ---- the socket: root and socket_group only -----------------------------------
# The socket and a copy of the CLI where nobody can reach them.
PUB=$(mktemp -d /tmp/dynpf-ft.XXXXXX)
chmod 0755 "$PUB"
cp "$DYNPF" "$PUB/dynpf"
export DYNPF_SOCKET=$PUB/dynpf.sock
sed -i "s|\"socket\": \"$SOCK\"|\"socket\": \"$DYNPF_SOCKET\", \"socket_group\": \"nogroup\"|" \
	"$OUT/ft.conf"
SOCK=$DYNPF_SOCKET
if command -v setpriv >/dev/null && getent group nogroup >/dev/null; then
	check "start with socket_group nogroup" start
	check "the socket is 0660, root:nogroup" sh -c \
		'[ "$(stat -c %a:%U:%G "$1")" = 660:root:nogroup ]' sh "$SOCK"
	check "a member of the group (its primary group) is served" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$PUB/dynpf" status
	check "a member of the group (another of its groups) is served" \
		setpriv --reuid=65534 --regid=100 --groups=65534 "$PUB/dynpf" status
	refused "anyone else is refused by the socket's mode" "may use it" \
		setpriv --reuid=65534 --regid=100 --clear-groups "$PUB/dynpf" status
	# Opened up, the daemon's own check of the peer's credentials refuses too.
	chmod 0666 "$SOCK"
	refused "and by the daemon (SO_PEERCRED, SO_PEERGROUPS)" "only root and the socket_group" \
		setpriv --reuid=65534 --regid=100 --clear-groups "$PUB/dynpf" status
	chmod 0660 "$SOCK"
	kill -TERM "$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=
else
	sk "socket_group" "no setpriv or no group nogroup"
fi
rm -rf "$PUB"

echo "faults_test: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
