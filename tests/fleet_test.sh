#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The daemon in a fleet, for real: its Prometheus metrics scraped live after
# traffic (promtool check metrics, and the values the traffic implies), the
# rule set's digest in status and metrics, the rule file reloaded when a
# kubelet swaps its ConfigMap volume (a bad one refused, the old set kept;
# a swap under traffic classifies no packet by a half set), interfaces that
# appear after the start or come back after being deleted, and the Grafana
# dashboard's queries against a live scrape. Everything it creates is
# removed on exit, also on failure.
#
#   network namespace $NS (the daemon works in it)
#   +----------------------------------------------------------------+
#   |  va 198.18.0.1/24 <--- veth ---> vb 198.18.0.2/24              |
#   |  (scapy sends)                   dynpf: xdp, tc-ingress         |
#   |  vx <--- veth ---> vy            made after the start; dynpf:   |
#   |                                  xdp-generic on vx              |
#   |  lo 127.0.0.1: the metrics, http://127.0.0.1:9477/metrics       |
#   +----------------------------------------------------------------+
#   $CM, a ConfigMap volume as the kubelet writes it:
#       rules -> ..data/rules,  ..data -> ..2026_..._.NNN/ (swapped by rename)
#
# Usage: tests/fleet_test.sh DYNPF OUTDIR
#        -> ends with "fleet_test: N passed, N failed, N skipped"
set -u
DYNPF=$(readlink -f "$1")
mkdir -p "$2"
OUT=$(readlink -f "$2")/fleet
rm -rf "$OUT"
mkdir -p "$OUT"
NS=dynpf-fl-$$
PIN=/sys/fs/bpf/dynpf-fl-$$
SOCK=$OUT/fl.sock
CM=$OUT/cm
PORT=9477
export DYNPF_SOCKET=$SOCK
CHECK_LOG=$OUT/fl.log
. "$(dirname "$0")/lib.sh"
dpid=
spid=
lpid=

cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	[ -n "$dpid" ] && kill -9 "$dpid" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$PIN"
	lib_cleanup
}

# want NAME GOT WANT: ok if they are equal.
want() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		echo "got '$2', want '$3'" >"$CHECK_LOG"
		ko "$1" "$CHECK_LOG"
	fi
}
# until_true SECONDS COMMAND...: COMMAND succeeds within SECONDS.
until_true() {
	local n=$(($1 * 10))
	shift
	for _ in $(seq "$n"); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# ---- the configuration: a bad metrics_listen or metrics_rules is refused ------
for bad in '"127.0.0.1"' '"127.0.0.1:0"' '"[::1:9477"' '"198.18.0.999:9477"'; do
	printf '{\n "metrics_listen": %s\n}\n' "$bad" >"$OUT/bad.conf"
	"$DYNPF" daemon --check-config --config "$OUT/bad.conf" >"$CHECK_LOG" 2>&1
	if [ $? = 2 ] && grep -q "bad.conf:2: metrics_listen: '" "$CHECK_LOG"; then
		ok "config: metrics_listen $bad refused, naming file:line:key"
	else ko "config: metrics_listen $bad refused, naming file:line:key" "$CHECK_LOG"; fi
done
printf '{\n "metrics_rules": -1\n}\n' >"$OUT/bad.conf"
check "config: metrics_rules -1 refused" sh -c \
	'"$1" daemon --check-config --config "$2" 2>&1 | grep -q "bad.conf:2: metrics_rules: -1 is out of range"' \
	sh "$DYNPF" "$OUT/bad.conf"

lib_testbed
ip -n "$NS" link set lo up
ip -n "$NS" link set va up
ip -n "$NS" link set vb up

# cm_swap FILE: what the kubelet does when the ConfigMap changes (its
# AtomicWriter): the new files in a new timestamped directory, a symlink
# ..data_tmp to it renamed over ..data, the user-visible symlink made if
# missing, the old directory removed.
cm_swap() {
	local old ts
	old=$(readlink "$CM/..data" 2>/dev/null)
	ts=$(mktemp -d "$CM/..$(date -u +%Y_%m_%d_%H_%M_%S).XXXXXXXXX")
	cp "$1" "$ts/rules"
	ln -s "$(basename "$ts")" "$CM/..data_tmp"
	mv -T "$CM/..data_tmp" "$CM/..data"
	[ -L "$CM/rules" ] || ln -s ..data/rules "$CM/rules"
	[ -n "$old" ] && rm -rf "${CM:?}/$old"
}
mkdir -p "$CM"
# The rule files, as `rules save` writes them (settings, then rules by id).
printf 'id 1 prio 10 tcp dport 22 drop\nid 2 prio 20 udp dport 53 count\n' >"$OUT/a.rules"
printf 'id 1 prio 10 tcp dport 22 drop\nid 2 prio 20 udp dport 53 count\nid 3 prio 5 udp dport 7 drop\n' \
	>"$OUT/b.rules"
printf 'id 1 prio 10 tcp dport 22 drop\nid 2 prio 20 udp dport 99999 count\n' >"$OUT/bad.rules"
cm_swap "$OUT/a.rules"

cat >"$OUT/fl.conf" <<EOF
{
	"pin_dir": "$PIN", "socket": "$SOCK", "rules": "$CM/rules", "max_rules": 4096,
	"netns": "$NS", "detach_on_exit": true, "metrics_listen": "127.0.0.1:$PORT",
	"interfaces": [ { "name": "vb", "hook": "xdp" }, { "name": "vb", "hook": "tc-ingress" },
			{ "name": "vx", "hook": "xdp-generic" } ]
}
EOF
send() { lib_send "$@"; }
# scrape FILE: the metrics, from inside the namespace.
scrape() {
	ip netns exec "$NS" /usr/bin/python3 -c '
import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
		"http://127.0.0.1:$PORT/metrics" >"$1" 2>"$CHECK_LOG"
}
# value FILE SERIES: one series' value ("none" if it is not there).
value() {
	awk -v s="$2" '$1 == s { v = $2 } END { print (v == "" ? "none" : v) }' "$1"
}
status_field() { # FIELD: of dynpf -j status
	"$DYNPF" -j status | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin).get(sys.argv[1]))' "$1"
}
generation() { status_field generation; }

# ---- start: vx is missing, and waited for ------------------------------------
check "the daemon starts, with vx configured and not there" start_daemon "$OUT/fl.conf"
check "the log says vx is waited for" grep -q "vx: no such interface (config $OUT/fl.conf): attached at xdp-generic when it appears" "$OUT/daemon.log"
check "status says vx is waiting, vb attached twice" sh -c \
	'"$1" status | grep -Eq "^  vx +xdp-generic +waiting" && [ "$("$1" status | grep -Ec "^  vb +(xdp|tc-ingress) +(xdp|tcx)")" = 2 ]' \
	sh "$DYNPF"

# ---- metrics after traffic ---------------------------------------------------
send 5 tcp 22
send 3 udp 53
M=$OUT/m1.txt
check "a live scrape" scrape "$M"
check "promtool check metrics: no problem" sh -c 'promtool check metrics <"$1"' sh "$M"
want "xdp drops on vb: the 5 SYNs" \
	"$(value "$M" 'dynpf_packets_total{interface="vb",hook="xdp",action="drop"}')" 5
want "and their bytes (5 x 54)" \
	"$(value "$M" 'dynpf_bytes_total{interface="vb",hook="xdp",action="drop"}')" 270
check "xdp passes the 3 datagrams, tc-ingress sees them and drops nothing" sh -c '
x=$(awk "\$1 == \"dynpf_packets_total{interface=\\\"vb\\\",hook=\\\"xdp\\\",action=\\\"pass\\\"}\" { print \$2 }" "$1")
t=$(awk "\$1 == \"dynpf_packets_total{interface=\\\"vb\\\",hook=\\\"tc-ingress\\\",action=\\\"pass\\\"}\" { print \$2 }" "$1")
d=$(awk "\$1 == \"dynpf_packets_total{interface=\\\"vb\\\",hook=\\\"tc-ingress\\\",action=\\\"drop\\\"}\" { print \$2 }" "$1")
echo "xdp pass $x, tc pass $t, tc drop $d"; [ "$x" -ge 3 ] && [ "$t" -ge 3 ] && [ "$d" = 0 ]' sh "$M"
want "the drop rule's counter" "$(value "$M" 'dynpf_rule_packets_total{id="1",action="drop"}')" 5
want "the count rule's counter (both hooks)" \
	"$(value "$M" 'dynpf_rule_packets_total{id="2",action="count"}')" 6
want "no parse error" "$(value "$M" 'dynpf_parse_errors_total{interface="vb",hook="xdp",error="truncated"}')" 0
want "vx: attached 0 (waiting)" "$(value "$M" 'dynpf_attached{interface="vx",hook="xdp-generic"}')" 0
want "the start's load of the rule file, counted" "$(value "$M" 'dynpf_rules_reloads_total{result="ok"}')" 1
check "start time, program run time (0 unless bpf_stats), ring size" sh -c \
	'grep -q "^dynpf_daemon_start_time_seconds [0-9]" "$1" &&
	 grep -q "^dynpf_program_runs_total{program=\"dynpf_xdp\"} [0-9]" "$1" &&
	 grep -q "^dynpf_ctrl_ring_size_bytes [1-9]" "$1"' sh "$M"

# ---- the digest --------------------------------------------------------------
digest=$(status_field digest)
want "status -j: the digest is the SHA-256 of rules save" "$digest" \
	"sha256:$("$DYNPF" rules save | sha256sum | cut -d' ' -f1)"
want "the metrics carry the same digest and generation" \
	"$(value "$M" "dynpf_ruleset_info{digest=\"$digest\"}") $(value "$M" dynpf_ruleset_generation)" \
	"1 $(generation)"
check "status says the digest" sh -c '"$1" status | grep -qx "digest: $2"' sh "$DYNPF" "$digest"
# A timed rule: the digest leaves its time left out (nodes that loaded the same
# set at different moments agree), and stays the same while it runs down.
timed_digest() {
	"$DYNPF" rule add id 900 udp dport 9 drop timeout 600s >/dev/null || return 1
	local d1 d2 want
	d1=$(status_field digest)
	want="sha256:$("$DYNPF" rules save | sed 's/ timeout [0-9]*s$//' | sha256sum | cut -d' ' -f1)"
	"$DYNPF" rules save | grep -q '^id 900 .* timeout [0-9]*s$' || { echo "no timeout saved"; return 1; }
	sleep 1.1
	"$DYNPF" rule add id 901 udp dport 10 drop timeout 600s >/dev/null &&
		"$DYNPF" rule del 901 >/dev/null || return 1
	d2=$(status_field digest)
	"$DYNPF" rule del 900 >/dev/null || return 1
	[ "$d1" = "$want" ] && [ "$d1" = "$d2" ] && [ "$d1" != "$digest" ] ||
		{ echo "digest $d1, then $d2; want $want (not $digest)"; return 1; }
}
check "a timed rule's time left is not in the digest" timed_digest

# ---- the kubelet swaps the ConfigMap ------------------------------------------
g0=$(generation)
cm_swap "$OUT/b.rules"
check "a kubelet swap reloads the rule file" until_true 5 sh -c \
	'"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/b.rules"
want "in one transaction" "$(generation)" $((g0 + 1))
check "the log says so" grep -q "$CM/rules: 3 rules loaded (changed on disk), generation $((g0 + 1))" \
	"$OUT/daemon.log"
cm_swap "$OUT/bad.rules"
check "a bad file: refused, with its file:line:col in the log" until_true 5 grep -q \
	"$CM/rules:2:24: expected a port or range (0-65535) after 'dport', got '99999' (changed on disk): refused, the rule set of generation $((g0 + 1)) kept" \
	"$OUT/daemon.log"
check "the old set kept" sh -c '"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/b.rules"
M=$OUT/m2.txt
scrape "$M"
want "the metrics: the last reload refused, where" \
	"$(value "$M" dynpf_rules_last_reload_success) $(grep -c "^dynpf_rules_last_reload_error_info{file=\"$CM/rules\",line=\"2\",column=\"24\",error=\"" "$M")" \
	"0 1"
want "one refusal, two loads counted" \
	"$(value "$M" 'dynpf_rules_reloads_total{result="refused"}') $(value "$M" 'dynpf_rules_reloads_total{result="ok"}')" \
	"1 2"
check "promtool check metrics: the error's labels too" sh -c 'promtool check metrics <"$1"' sh "$M"
cm_swap "$OUT/a.rules"
check "the first file again: loaded" until_true 5 sh -c \
	'"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/a.rules"
g1=$(generation)
cm_swap "$OUT/a.rules"
sleep 0.6
want "the same bytes swapped in again: not loaded again" "$(generation)" "$g1"

# ---- a swap under traffic: the old set or the new one, never half ------------
# Both sets drop UDP to port 9, each by a rule of its own id: a half set
# (the old rule deleted, the new one not yet added) would let it through.
# The new one has 2,000 more rules, so a swap takes a while.
printf 'id 1 prio 10 tcp dport 22 drop\nid 10 prio 10 udp dport 9 drop\n' >"$OUT/old.rules"
/usr/bin/python3 -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("id 1 prio 10 tcp dport 22 drop\n")
    f.write("id 11 prio 10 udp dport 9 drop\n")
    for i in range(100, 2100):
        f.write(f"id {i} prio {100 + i} ip saddr 198.19.{i >> 8}.{i & 255} tcp dport {1000 + i} count\n")
' "$OUT/new.rules"
cm_swap "$OUT/old.rules"
until_true 5 sh -c '"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/old.rules"
lib_udp_listen "$OUT/through"
lib_udp_flood
sleep 0.3
before=$(lib_rx)
g0=$(generation)
swaps=0
for f in new old new old new; do
	cm_swap "$OUT/$f.rules"
	until_true 10 sh -c '"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/$f.rules" &&
		swaps=$((swaps + 1))
done
after=$(lib_rx)
lib_udp_stop
want "five swaps under traffic, each one transaction" "$swaps $(generation)" "5 $((g0 + 5))"
check "traffic flowed meanwhile ($((after - before)) frames)" test $((after - before)) -gt 500
want "and none of it got through the drop rules (datagrams through)" "$(cat "$OUT/through")" 0

# ---- interfaces that appear, or come back -------------------------------------
ip -n "$NS" link add vx type veth peer name vy
check "vx appears: attached by itself" until_true 5 sh -c \
	'"$1" status | grep -Eq "^  vx +xdp-generic +xdp generic"' sh "$DYNPF"
check "the log says so" grep -q "vx: appeared (ifindex [0-9]*): attached at xdp-generic" "$OUT/daemon.log"
check "ip link shows its XDP program" sh -c 'ip -n "$1" link show vx | grep -q "prog/xdp"' sh "$NS"
ip -n "$NS" link del va
check "vb deleted (with its peer): waiting for it" until_true 5 sh -c \
	'[ "$("$1" status | grep -Ec "^  vb +(xdp|tc-ingress) +waiting")" = 2 ]' sh "$DYNPF"
ip -n "$NS" link add va type veth peer name vb
ip -n "$NS" addr add 198.18.0.1/24 dev va
ip -n "$NS" addr add 198.18.0.2/24 dev vb
ip -n "$NS" link set va up
ip -n "$NS" link set vb up
check "vb re-created: both hooks attached again by themselves" until_true 5 sh -c \
	'[ "$("$1" status | grep -Ec "^  vb +(xdp|tc-ingress) +(xdp|tcx)")" = 2 ]' sh "$DYNPF"
check "the log says so" sh -c '[ "$(grep -c "vb: appeared (ifindex [0-9]*): attached at" "$1")" = 2 ]' \
	sh "$OUT/daemon.log"
check "ip link and bpftool net show the programs on vb" sh -c \
	'ip -n "$1" link show vb | grep -q "prog/xdp" &&
	 ip netns exec "$1" bpftool net show dev vb | grep -q "tcx/ingress dynpf_tc_ingress"' sh "$NS"
send 4 tcp 22
M=$OUT/m3.txt
scrape "$M"
want "packets are filtered again: 4 SYNs dropped at xdp on the new vb" \
	"$(value "$M" 'dynpf_packets_total{interface="vb",hook="xdp",action="drop"}')" 4
"$DYNPF" detach vx >/dev/null 2>&1
ip -n "$NS" link set vx up
sleep 0.3
check "a configured interface a client detached stays detached" sh -c \
	'! "$1" status | grep -q "^  vx " && ! ip -n "$2" link show vx | grep -q prog/xdp' sh "$DYNPF" "$NS"

# ---- the Grafana dashboard: valid, and every metric it queries is scraped ----------
# (in one of this test's scrapes: the error's info metric is there only after a refusal)
check "configs/grafana/dynpf.json: a dashboard whose every query's metric is in a live scrape" \
	/usr/bin/python3 - "$(dirname "$0")/../configs/grafana/dynpf.json" "$OUT"/m*.txt <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d.get("schemaVersion"), int) and d.get("title") and d.get("uid"), "no schemaVersion/title/uid"
families = set()
for scrape in sys.argv[2:]:
    for line in open(scrape):
        m = re.match(r"# TYPE (\S+) (\S+)", line)
        if m:
            families.add(m.group(1))
            if m.group(2) == "histogram":
                families.update(m.group(1) + s for s in ("_bucket", "_sum", "_count"))
panels = [p for p in d["panels"] if p.get("type") != "row"]
assert len(panels) >= 4, "few panels"
used = set()
for p in panels:
    assert p.get("title") and p.get("targets"), p.get("title")
    for t in p["targets"]:
        names = set(re.findall(r"\bdynpf_[a-z0-9_]+", t["expr"]))
        assert names, (p["title"], t["expr"])
        used |= names
missing = sorted(used - families)
assert not missing, f"queried but not in the scrape: {missing}"
print(f"{len(panels)} panels, {len(used)} metrics, all scraped")
EOF

# ---- SIGTERM: nothing left -----------------------------------------------------
stop_daemon 2>/dev/null
check "SIGTERM (detach_on_exit): no program, no pin, no socket, no listener" sh -c \
	'! ip -n "$1" link show | grep -q prog/xdp && [ ! -e "$2" ] && [ ! -e "$3" ] &&
	 ! ip netns exec "$1" ss -ltn | grep -q ":$4 "' sh "$NS" "$PIN" "$SOCK" "$PORT"

# ---- the daemon under valgrind: scrapes, swaps, a bad file, an interface back ----
# No leak, no memory error (valgrind's exit status 9), its own exit status 0.
# Not in the sanitizer build: ASan checks it.
if ldd "$DYNPF" | grep -q libasan; then
	sk "valgrind: the daemon's metrics, watch and link events" "the sanitizer build: ASan checks it"
else
	cm_swap "$OUT/a.rules"
	valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
		--suppressions="$(dirname "$0")/valgrind.supp" -q \
		"$DYNPF" daemon --config "$OUT/fl.conf" >"$OUT/vg-daemon.log" 2>&1 &
	dpid=$!
	until_true 60 "$DYNPF" status
	{
		scrape "$OUT/vg1.txt"
		cm_swap "$OUT/b.rules"
		until_true 10 sh -c '"$1" rules save | cmp -s - "$2"' sh "$DYNPF" "$OUT/b.rules"
		cm_swap "$OUT/bad.rules"
		until_true 10 grep -q "(changed on disk): refused" "$OUT/vg-daemon.log"
		scrape "$OUT/vg2.txt"
		ip -n "$NS" link del va
		until_true 10 sh -c '"$1" status | grep -q "^  vb .*waiting"' sh "$DYNPF"
		ip -n "$NS" link add va type veth peer name vb
		until_true 10 sh -c '! "$1" status | grep -q "^  vb .*waiting"' sh "$DYNPF"
		"$DYNPF" status
		ip netns exec "$NS" /usr/bin/python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
          b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
while s.recv(4096): pass' "$PORT"
	} >"$OUT/vg-requests.log" 2>&1
	stop_daemon
	echo "exit $rc (want 0)" >>"$OUT/vg-daemon.log"
	if [ "$rc" = 0 ] && grep -q "^dynpf_ruleset_info" "$OUT/vg2.txt"; then
		ok "valgrind: the daemon's metrics, watch and link events, no leak, no error"
	else
		ko "valgrind: the daemon's metrics, watch and link events, no leak, no error" \
			"$OUT/vg-daemon.log"
	fi
fi

echo "fleet_test: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
