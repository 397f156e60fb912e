#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `make run`: dynpf's main job, shown on the committed captures. The same
# parser source runs natively and as the xdp, xdp.frags and tc programs
# (BPF_PROG_TEST_RUN); every BPF parse is checked against the native one.
set -eu
cd "$(dirname "$0")/.."
DYNPF=${DYNPF:-build/dynpf}

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

if [ "$(id -u)" != 0 ]; then
	echo "make run loads BPF programs: run it as root (sudo make run)" >&2
	exit 1
fi
echo "dynpf: packet parsing on BPF dynptrs, one source for XDP and TC"
step "$DYNPF" replay pcap-tests/eth_basic.pcap --hook all --check-native \
	--expect pcap-tests/eth_basic.expect.jsonl
step "$DYNPF" replay pcap-tests/malformed.pcap --hook xdp --check-native
printf '\n\033[1m$ %s\033[0m\n' "$DYNPF replay pcap-tests/ipv6_ext.pcap --hook tc --check-native | head -16"
"$DYNPF" replay pcap-tests/ipv6_ext.pcap --hook tc --check-native | head -16
printf '\n\033[1m$ %s\033[0m\n' "$DYNPF replay pcap-tests/tunnels.pcap --hook xdp --check-native | head -16"
"$DYNPF" replay pcap-tests/tunnels.pcap --hook xdp --check-native | head -16
printf '\n\033[1m$ %s\033[0m\n' "$DYNPF replay pcap-tests/jumbo.pcap --hook xdp-frags | head -12"
"$DYNPF" replay pcap-tests/jumbo.pcap --hook xdp-frags --check-native | head -12
printf '\n\033[1m$ %s\033[0m\n' "$DYNPF -j replay pcap-tests/tcp_options.pcap --hook tc | head -1"
"$DYNPF" -j replay pcap-tests/tcp_options.pcap --hook tc | head -1 | python3 -m json.tool
