#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The Debian package, end to end, on this machine: `make deb` (once),
# lintian, the package's files and conffiles, dpkg -i (the unit installed,
# not enabled, not started), the installed daemon on a veth in a namespace
# it creates (through systemctl where systemd is PID 1, directly where it
# is not: said as a skip), `dynpf status`, an upgrade under the running
# daemon keeping an edited configuration and the filtering, dpkg -r keeping
# the configuration and detaching, dpkg --purge leaving nothing.
#
#   namespace dynpf-deb-PID:  va 198.18.0.1/24 <--veth--> vb 198.18.0.2/24
#                                                         tc-ingress: dynpf
#                                                         (tcx link, pinned)
#
# The daemon runs in the host's namespace ("netns" in its configuration:
# no test interface is made there), so the package's removal, which
# detaches what dynpf left in the host's namespace, is tested on a tcx link:
# unpinning it detaches it. Everything made is removed on exit, also on
# failure; a machine where dynpf is installed, or whose default pins or
# socket are in use, is not touched (skipped, saying why).
#
# Usage: tests/deb_test.sh DYNPF OUTDIR
#        -> ends with "deb_test: N passed, N failed, N skipped"
set -u
cd "$(dirname "$0")/.." || exit 2
DYNPF=$(readlink -f "$1")
mkdir -p "$2"
OUT=$(readlink -f "$2")
BUILD=${BUILD:-build}
NS=dynpf-deb-$$
PIN=/sys/fs/bpf/dynpf # the package's defaults: what is tested
SOCK=/run/dynpf/dynpf.sock
CONF=/etc/dynpf/dynpf.conf
RULES=/etc/dynpf/rules.txt
CHECK_LOG=$OUT/deb-check.log
. tests/lib.sh
dpid=
installed=0
mine=0
files=()

cleanup() {
	[ "$mine" = 1 ] || return 0 # give_up before anything was done
	[ -n "$dpid" ] && kill -9 "$dpid" 2>/dev/null
	[ -d /run/systemd/system ] && [ "$installed" = 1 ] && systemctl stop dynpf 2>/dev/null
	[ "$installed" = 1 ] && dpkg --purge dynpf >/dev/null 2>&1
	[ -e "$PIN" ] && "$DYNPF" detach --all --pin-dir "$PIN" >/dev/null 2>&1
	rmdir /run/dynpf 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	lib_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# deb_test: N passed... with one skip saying why, and nothing done.
give_up() {
	sk "the Debian package" "$1"
	echo "deb_test: $pass passed, $fail failed, $skip skipped"
	exit 0
}

[ "$(id -u)" = 0 ] || give_up "needs root (dpkg -i)"
for c in dpkg-buildpackage lintian dh; do
	command -v "$c" >/dev/null || give_up "$c not installed (make deps)"
done
if dpkg-query -W -f='${Status}' dynpf 2>/dev/null | grep -q 'installed$\|config-files$'; then
	give_up "a dynpf package is installed here: not touching it"
fi
for p in /usr/sbin/dynpf /etc/dynpf "$PIN" /run/dynpf; do
	[ -e "$p" ] && give_up "$p exists (not this package's): not touching it"
done
mine=1

# ---- the package ------------------------------------------------------------
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
DEB=$BUILD/deb/dynpf_${version}_$arch.deb
start=$(date +%s)
# Not the caller's jobserver: a make of its own.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory deb BUILD="$BUILD" \
	>"$OUT/deb-make.log" 2>&1 && [ -f "$DEB" ]; then
	ok "make deb: $DEB in $(($(date +%s) - start)) s"
else
	ko "make deb: $DEB" "$OUT/deb-make.log"
	give_up "no package built"
fi
check "debian/changelog's version is the binary's ($version)" \
	grep -qx "dynpf $version (.*" <("$DYNPF" --version)

# No error; the warnings and the rest shown in the log, each on its line.
lintian_clean() {
	lintian --info "$DEB" >"$OUT/lintian.log" 2>&1
	grep -E '^[EWIP]: ' "$OUT/lintian.log"
	! grep -q '^E: ' "$OUT/lintian.log"
}
check "lintian: no error ($DEB)" lintian_clean

want_files='/etc/dynpf/dynpf.conf
/etc/dynpf/rules.txt
/lib/systemd/system/dynpf.service
/usr/sbin/dynpf
/usr/share/bash-completion/completions/dynpf
/usr/share/doc/dynpf/README.Debian
/usr/share/doc/dynpf/changelog.gz
/usr/share/doc/dynpf/copyright
/usr/share/man/man5/dynpf.conf.5.gz
/usr/share/man/man7/dynpf-rules.7.gz
/usr/share/man/man8/dynpf.8.gz'
pkg_files() { dpkg-deb --fsys-tarfile "$DEB" | tar -t | sed -n 's|^\./\(.*[^/]\)$|/\1|p' | sort; }
same() { # WHAT GOT WANT
	[ "$2" = "$3" ] || { printf '%s:\n%s\nwanted:\n%s\n' "$1" "$2" "$3"; return 1; }
}
check "the package holds exactly the binary, the man pages, the unit, the completion, \
the example configuration and its docs" same files "$(pkg_files)" "$want_files"
mapfile -t files < <(pkg_files)
check "its conffiles: the configuration and the rule file" \
	same conffiles "$(dpkg-deb --ctrl-tarfile "$DEB" | tar -xO ./conffiles)" "$CONF
$RULES"
# Build-Depends: every library the Makefile links (-lX: the -dev package
# holding libX.so, or a package of Build-Depends depending on it, as
# libpcap-dev on libpcap0.8-dev), and the tools it runs.
build_deps() {
	local deps dep want=(clang-19 bpftool pandoc) l so p missing=
	deps=$(sed -n '/^Build-Depends:/,/^$/p' debian/control | sed 's/([^)]*)//g' | tr ',\n' '  ')
	for dep in $deps; do
		deps+=" $(dpkg-query -W -f='${Depends}' "$dep" 2>/dev/null | sed 's/([^)]*)//g' | tr -d ,)"
	done
	while read -r l; do
		so=$(find /usr/lib/ -name "lib${l#-l}.so" -print -quit)
		[ -n "$so" ] || { echo "$l: no lib${l#-l}.so here"; return 1; }
		want+=("$(dpkg -S "$so" | cut -d: -f1)")
	done < <(sed -n 's/^LDLIBS *+= *//p' Makefile | tr ' ' '\n' | grep '^-l')
	for p in "${want[@]}"; do
		[[ " $deps " == *" $p "* ]] || missing+=" $p"
	done
	echo "wanted: ${want[*]}"
	[ -z "$missing" ] || { echo "missing from debian/control's Build-Depends:$missing"; return 1; }
}
check "Build-Depends names every library the Makefile links, and clang-19, bpftool, pandoc" \
	build_deps

# ---- installed --------------------------------------------------------------
if dpkg -i "$DEB" >"$OUT/deb-install.log" 2>&1; then
	installed=1
	ok "dpkg -i $DEB"
else
	installed=1
	ko "dpkg -i $DEB" "$OUT/deb-install.log"
	give_up "not installed"
fi
check "dynpf on PATH is the package's, its man pages found" sh -c \
	'[ "$(command -v dynpf)" = /usr/sbin/dynpf ] && man -w dynpf dynpf.conf dynpf-rules'
check "the unit starts the installed binary on the installed configuration" \
	grep -qx 'ExecStart=/usr/sbin/dynpf daemon --config /etc/dynpf/dynpf.conf' \
	/lib/systemd/system/dynpf.service
not_enabled_nor_started() {
	local links
	links=$(find /etc/systemd/system -name dynpf.service 2>/dev/null)
	[ -z "$links" ] || { echo "enabled: $links"; return 1; }
	[ ! -e "$SOCK" ] || { echo "started: $SOCK"; return 1; }
	if [ -d /run/systemd/system ]; then
		! systemctl is-active -q dynpf || { echo "started"; return 1; }
	fi
}
check "the unit is neither enabled nor started" not_enabled_nor_started
check "the installed configuration and rule file are valid" sh -c \
	'dynpf daemon --check-config --config "$1" && dynpf rules check "$2"' sh "$CONF" "$RULES"
check "the installed completion offers the commands" bash -c \
	'. /usr/share/bash-completion/completions/dynpf; COMP_WORDS=(dynpf ""); COMP_CWORD=1; _dynpf
	[[ " ${COMPREPLY[*]} " == *" status "* ]]'

# ---- the installed daemon ---------------------------------------------------
# The installed configuration, edited as an administrator would: the test
# bed's interface (in its namespace) and a rule. Both are conffiles.
lib_mount_bpffs
ip netns add "$NS"
ip -n "$NS" link add va type veth peer name vb
ip -n "$NS" addr add 198.18.0.1/24 dev va
ip -n "$NS" addr add 198.18.0.2/24 dev vb
ip -n "$NS" link set va up
ip -n "$NS" link set vb up
# The "interfaces" list (objects without brackets: the first ']' ends it).
NS=$NS perl -0pi -e 's/"interfaces"\s*:\s*\[.*?\]/"netns": "$ENV{NS}",
	"interfaces": [ { "name": "vb", "hook": "tc-ingress" } ]/s' "$CONF"
echo 'id 7 tcp dport 22 drop' >>"$RULES"
check "the edited configuration is valid" dynpf daemon --check-config --config "$CONF"

# status_ok [ADOPTED]: the daemon answers with the edited configuration.
status_ok() {
	local s
	s=$(dynpf status) || return 1
	echo "$s"
	grep -q "pins in $PIN${1:+ (adopted at start)}$" <<<"$s" &&
		grep -q 'rule set: generation 1, 1 rules' <<<"$s" &&
		grep -qE '^  vb +tc-ingress +tcx link' <<<"$s"
}
# wait_status: the daemon answers (at most 30 s: the verifier alone takes
# several under load).
wait_status() {
	for _ in $(seq 300); do
		dynpf status >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
start_installed() { # how the installed daemon is started here
	if [ -d /run/systemd/system ]; then
		systemctl start dynpf && wait_status
	else
		/usr/sbin/dynpf daemon --config "$CONF" >>"$OUT/deb-daemon.log" 2>&1 &
		dpid=$!
		wait_status
	fi
}
stop_installed() {
	if [ -d /run/systemd/system ]; then
		systemctl stop dynpf
	else
		kill -TERM "$dpid" && wait "$dpid"
		local rc=$?
		dpid=
		return "$rc"
	fi
}
if [ -d /run/systemd/system ]; then
	how="systemctl start dynpf"
else
	sk "systemctl start dynpf" "systemd is not PID 1 here (PID 1 is $(ps -o comm= -p 1)): \
the installed daemon started directly, on the installed configuration"
	how="/usr/sbin/dynpf daemon --config $CONF"
fi
start_and_status() { start_installed && status_ok; }
check "$how: dynpf status shows the rule file and the interface" start_and_status
on_vb() { ip netns exec "$NS" bpftool net show dev vb | grep -q 'tcx/ingress dynpf_tc_ingress'; }
check "the interface's tc ingress runs dynpf" on_vb

# ---- upgrade, removal, purge ------------------------------------------------
# The same package as a newer version: dpkg -i upgrades under the running
# daemon, keeps the edited conffiles without asking (the package's did not
# change) and, on upgrade, detaches nothing.
upgrade() {
	local d=$OUT/deb-up
	rm -rf "$d" && dpkg-deb -R "$DEB" "$d" &&
		sed -i "s/^Version: .*/Version: $version+t1/" "$d/DEBIAN/control" &&
		dpkg-deb --root-owner-group -b "$d" "$OUT/dynpf-up.deb" >/dev/null || return 1
	dpkg -i "$OUT/dynpf-up.deb" </dev/null || return 1
	[ "$(dpkg-query -W -f='${Version}' dynpf)" = "$version+t1" ] &&
		grep -q "\"netns\": \"$NS\"" "$CONF" && grep -qx 'id 7 tcp dport 22 drop' "$RULES" ||
		{ echo "not upgraded, or the edited configuration lost"; return 1; }
	wait_status && status_ok "$([ -d /run/systemd/system ] && echo adopted)" && on_vb
}
check "an upgrade under the daemon: the edited configuration kept, filtering on" upgrade
stopped_filtering() { stop_installed && [ -e "$PIN" ] && on_vb; }
check "the daemon stopped: exit 0, the pins and the filter stay" stopped_filtering
removed() {
	dpkg -r dynpf </dev/null || return 1
	[ "$(dpkg-query -W -f='${Status}' dynpf)" = "deinstall ok config-files" ] &&
		[ ! -e /usr/sbin/dynpf ] || { echo "not removed"; return 1; }
	grep -q "\"netns\": \"$NS\"" "$CONF" && grep -qx 'id 7 tcp dport 22 drop' "$RULES" ||
		{ echo "the edited configuration is gone"; return 1; }
	[ ! -e "$PIN" ] && ! on_vb || { echo "dynpf is still pinned or attached"; return 1; }
}
check "dpkg -r: the edited configuration kept, dynpf detached and unpinned" removed
purged() {
	local f left=
	dpkg --purge dynpf </dev/null || return 1
	installed=0
	! dpkg-query -W dynpf 2>/dev/null || { echo "dpkg still knows dynpf"; return 1; }
	for f in "${files[@]}" /etc/dynpf /usr/share/doc/dynpf "$PIN" /run/dynpf; do
		[ ! -e "$f" ] || left+=" $f"
	done
	left+=$(find /etc/systemd /var/lib/systemd -name '*dynpf*' -printf ' %p' 2>/dev/null)
	[ -z "$left" ] || { echo "left behind:$left"; return 1; }
}
check "dpkg --purge: no file of the package, no /etc/dynpf, no pins, no socket" purged

echo "deb_test: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
