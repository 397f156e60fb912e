# shellcheck shell=bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What the daemon's end-to-end tests share (sourced): the counters and the
# ok / ko / check lines, and bpffs mounted if it is not (unmounted by
# lib_cleanup). CHECK_LOG: where check() keeps a command's output.
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
