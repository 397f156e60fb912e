#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The DaemonSet's entrypoint (docs/kubernetes.md): the configuration
# template of the ConfigMap dynpf-config with this node's interface put in
# for @IFACE@, checked, then the daemon in its place (PID 1: it takes the
# kubelet's SIGTERM). The interface is the ConfigMap's key iface.NODE (NODE:
# the node's name, $NODE_NAME from the downward API), or iface.default.
#
# Environment: NODE_NAME; DYNPF_CONFIG_DIR, where dynpf-config is mounted
# (/etc/dynpf/config); DYNPF_RUN_CONFIG, the configuration it writes
# (/run/dynpf-pod/dynpf.conf).
set -eu
dir=${DYNPF_CONFIG_DIR:-/etc/dynpf/config}
out=${DYNPF_RUN_CONFIG:-/run/dynpf-pod/dynpf.conf}
node=${NODE_NAME:-}

die() {
	echo "dynpf-entrypoint: $*" >&2
	exit 2
}

key=iface.default
if [ -n "$node" ] && [ -f "$dir/iface.$node" ]; then
	key=iface.$node
fi
[ -f "$dir/$key" ] || die "$dir/$key: no such key in the ConfigMap dynpf-config" \
	"(the interface of node '${node:-?}': iface.NODE or iface.default)"
iface=$(tr -d ' \t\r\n' <"$dir/$key")
# An interface name: 1 to 15 characters, no '/', no blank, no quote.
case $iface in
'' | *[!A-Za-z0-9_.:@-]*)
	die "$dir/$key: '$iface' is not an interface name (1-15 of A-Z a-z 0-9 _ . : @ -)"
	;;
esac
[ "${#iface}" -le 15 ] || die "$dir/$key: '$iface' is longer than 15 characters"
grep -q '@IFACE@' "$dir/dynpf.conf" || die "$dir/dynpf.conf: no @IFACE@ to put '$iface' in"

mkdir -p "$(dirname "$out")"
sed "s/@IFACE@/$iface/g" "$dir/dynpf.conf" >"$out"
echo "dynpf-entrypoint: node ${node:-?}: interface $iface ($key)"
dynpf daemon --check-config --config "$out"
exec dynpf daemon --config "$out"
