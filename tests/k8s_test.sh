#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The DaemonSet's pod without its container (docs/kubernetes.md): the
# ConfigMaps of configs/kubernetes/ laid out as the kubelet lays them out
# (tests/k8s_check.py --emit: ..data and its symlinks), the image's
# entrypoint run with exactly the capabilities the DaemonSet adds, in a
# network namespace standing for the node's (hostNetwork); the node's
# interface from the key iface.NODE. The configuration is the deployed one
# but for its pin directory and socket, the test's own.
#
#   namespace dynpf-k8s-PID (the node):  va 198.18.0.1/24 <--veth--> vb 198.18.0.2/24
#                                                                    xdp: dynpf
#
# Checks: a bad interface name refused, naming the key; a missing interface
# waited for (the daemon attaches it when it appears); the pod ready (`dynpf status`: the interface, the rule
# file of the ConfigMap) with the effective capabilities it was given; the
# next pod adopting and replacing the program in place; a pod without
# CAP_SYS_ADMIN not coming up, the filter left in place; with a TC hook
# alone, the pod up without CAP_SYS_ADMIN. Everything made is removed on
# exit, also on failure.
#
# Usage: tests/k8s_test.sh DYNPF OUTDIR
#        -> ends with "k8s_test: N passed, N failed, N skipped"
set -u
cd "$(dirname "$0")/.." || exit 2
DYNPF=$(readlink -f "$1")
mkdir -p "$2"
OUT=$(readlink -f "$2")
NS=dynpf-k8s-$$
PIN=/sys/fs/bpf/dynpf-k8s-$$
PUB=$(mktemp -d /tmp/dynpf-k8s.XXXXXX)
SOCK=$PUB/dynpf.sock
export DYNPF_SOCKET=$SOCK
ROOT=$OUT/k8s-pod # the pod's file system, what the test lays out of it
CHECK_LOG=$OUT/k8s.log
. tests/lib.sh
dpid=

cleanup() {
	[ -n "$dpid" ] && { kill -9 "$dpid" && wait "$dpid"; } 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	[ -e "$PIN" ] && "$DYNPF" detach --all --pin-dir "$PIN" >/dev/null 2>&1
	rm -rf "$PIN" "$PUB"
	lib_cleanup
}

for c in nsenter setpriv; do
	command -v "$c" >/dev/null || {
		sk "the pod" "$c not found"
		echo "k8s_test: 0 passed, 0 failed, 1 skipped"
		exit 0
	}
done
lib_testbed
ip -n "$NS" link set va up
ip -n "$NS" link set vb up

rm -rf "$ROOT" && mkdir -p "$ROOT"
check "the ConfigMaps laid out as the kubelet does (tests/k8s_check.py --emit)" \
	python3 tests/k8s_check.py --emit "$ROOT"
# MOUNT_CONFIG, MOUNT_RULES, MOUNT_RUN_CONFIG...: the mount paths.
# shellcheck source=/dev/null # written just above
. "$ROOT/env"
CAPS=$(cat "$ROOT/caps")
CONFIG_DIR=$ROOT$MOUNT_CONFIG
# A key added to the ConfigMap, as the kubelet writes it: in ..data's
# directory, a symlink beside the others.
add_key() { # KEY VALUE
	echo "$2" >"$CONFIG_DIR/..data/$1"
	ln -sfn "..data/$1" "$CONFIG_DIR/$1"
}
add_key iface.node-a vb
add_key iface.node-bad 'vb/../x'
# The test's own pins and socket; the rule file where the pod sees it here.
sed -i -e "s|\"/sys/fs/bpf/dynpf\"|\"$PIN\"|" -e "s|\"/run/dynpf/dynpf.sock\"|\"$SOCK\"|" \
	-e "s|\"$MOUNT_RULES/|\"$ROOT$MOUNT_RULES/|" "$CONFIG_DIR/..data/dynpf.conf"
mkdir -p "$PUB/bin" && ln -s "$DYNPF" "$PUB/bin/dynpf"

# pod NODE CAPS: the container's process: the node's network, only CAPS
# (setpriv's words), the entrypoint of the image. It execs, so that a pod in
# the background is its own process (the daemon in the end): call it in a
# subshell.
pod() {
	exec nsenter --net="/run/netns/$NS" env NODE_NAME="$1" DYNPF_CONFIG_DIR="$CONFIG_DIR" \
		DYNPF_RUN_CONFIG="$ROOT$MOUNT_RUN_CONFIG/dynpf.conf" PATH="$PUB/bin:$PATH" \
		setpriv --inh-caps=-all --bounding-set=-all,"$2" configs/kubernetes/entrypoint.sh
}
# pod_start NODE CAPS: in the background ($dpid: the entrypoint execs the
# daemon), 0 once it answers, 1 if it exits first or does not answer (30 s:
# the verifier alone takes several under load).
pod_start() {
	pod "$@" >>"$OUT/k8s-pod.log" 2>&1 &
	dpid=$!
	for _ in $(seq 300); do
		"$DYNPF" status >/dev/null 2>&1 && return 0
		kill -0 "$dpid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
pod_stop() {
	kill -TERM "$dpid" && wait "$dpid"
	local rc=$?
	dpid=
	return "$rc"
}
# refused NAME WANT NODE: the pod exits non-zero and says WANT.
refused() {
	local log=$OUT/k8s-refused.log
	(pod "$3" "$CAPS") >"$log" 2>&1
	local rc=$?
	if [ "$rc" != 0 ] && grep -qF -- "$2" "$log"; then ok "$1"; else
		echo "exit $rc; want: $2" >>"$log"
		ko "$1" "$log"
	fi
}
refused "a bad interface name in iface.NODE: refused, naming the key" \
	"iface.node-bad: 'vb/../x' is not an interface name" node-bad
# A node without a key of its own: iface.default (eth0), missing here. The
# pod comes up and waits for it (attached when it appears, docs/daemon.md);
# then the node is as before (nothing attached, the pins removed).
waits() {
	pod_start node-z "$CAPS" || { cat "$OUT/k8s-pod.log"; return 1; }
	"$DYNPF" status | grep -E '^  eth0 +xdp +waiting' &&
		grep -q "eth0: no such interface (config .*): attached at xdp when it appears" \
			"$OUT/k8s-pod.log" || return 1
	pod_stop && "$DYNPF" detach --all --pin-dir "$PIN"
}
check "a node without a key of its own: iface.default (eth0), missing here: waited for" waits

# The effective capabilities of PID, as setpriv's words (+bpf,...), sorted.
caps_of() {
	local hex
	hex=$(sed -n 's/^CapEff:\t//p' "/proc/$1/status")
	setpriv --list-caps >/dev/null 2>&1 || return 1
	for c in $(setpriv --list-caps); do
		local n
		n=$(sed -n "s/^#define CAP_${c^^}[[:space:]]\+\([0-9]\+\)\$/\1/p" \
			/usr/include/linux/capability.h)
		[ -n "$n" ] && (((0x$hex >> n) & 1)) && echo "+$c"
	done | sort | paste -sd,
}
pod_ready() {
	pod_start node-a "$CAPS" || { cat "$OUT/k8s-pod.log"; return 1; }
	local s got want
	got=$(caps_of "$dpid")
	want=$(tr , '\n' <<<"$CAPS" | sort | paste -sd,)
	[ "$got" = "$want" ] || { echo "effective capabilities $got, want $want"; return 1; }
	s=$("$DYNPF" --timeout 5 status) || return 1
	echo "$s"
	grep -qE '^  vb +xdp +xdp native' <<<"$s" && grep -q 'generation 1, 2 rules' <<<"$s"
}
check "the pod on node-a (iface.node-a: vb), with exactly the DaemonSet's capabilities \
($CAPS): ready, the ConfigMap's rules loaded" pod_ready
next_pod() {
	pod_stop || { echo "the pod's daemon did not exit 0 on SIGTERM"; return 1; }
	pod_start node-a "$CAPS" || { cat "$OUT/k8s-pod.log"; return 1; }
	local s
	s=$("$DYNPF" status) || return 1
	echo "$s"
	grep -q '(adopted at start)' <<<"$s" && grep -qE '^  vb +xdp +xdp native, replaced in place' <<<"$s"
}
check "the next pod (a rolling update): the rules adopted, the program replaced in place" next_pod
no_sys_admin() {
	pod_stop || return 1
	if pod_start node-a "${CAPS//,+sys_admin/}"; then
		echo "came up without CAP_SYS_ADMIN"
		return 1
	fi
	wait "$dpid"
	echo "exit $? without CAP_SYS_ADMIN"
	dpid=
	ip -n "$NS" link show vb | grep -q 'prog/xdp' || { echo "the filter is gone"; return 1; }
}
check "without CAP_SYS_ADMIN the pod does not come up (XDP), the filter stays" no_sys_admin
# dynpf-config with a TC hook instead (docs/kubernetes.md: then drop
# SYS_ADMIN), on a node where dynpf was removed.
tc_only() {
	"$DYNPF" detach --all --pin-dir "$PIN" || return 1
	sed -i 's/"hook": "xdp"/"hook": "tc-ingress"/' "$CONFIG_DIR/..data/dynpf.conf"
	pod_start node-a "${CAPS//,+sys_admin/}" || { tail "$OUT/k8s-pod.log"; return 1; }
	local s
	s=$("$DYNPF" status) || return 1
	echo "$s"
	grep -qE '^  vb +tc-ingress +tcx link' <<<"$s"
}
check "with a TC hook alone, the pod comes up without CAP_SYS_ADMIN" tc_only

echo "k8s_test: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
