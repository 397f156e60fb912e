#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Install (or check) dynpf's dependencies: Debian 12 packages only, with
# libbpf, bpftool and linux-libc-dev from bookworm-backports. Idempotent.
#   scripts/deps.sh check     exit 0 when everything is there
#   scripts/deps.sh install   install what is missing
set -euo pipefail

BOOKWORM_PKGS=(make gcc pkg-config clang-19 llvm-19 libxdp-dev libpcap-dev libjson-c-dev
	libelf-dev zlib1g-dev libclang-rt-19-dev valgrind gdb iproute2 tshark python3 python3-scapy xdp-tools gnuplot-nox nftables ethtool
	pandoc groff-base # make man, and the doc test that renders the pages
	clang-format-19 shellcheck flake8 # make format, make lint
	debhelper dpkg-dev lintian # make deb, and the package test
	python3-yaml # the Kubernetes manifests' test
	libmicrohttpd-dev nettle-dev) # the daemon's metrics server; SHA-256 of rule sets
# Without what they recommend: prometheus is here for its promtool (the
# metrics' test), not for its node exporter and collectors.
BARE_PKGS=(prometheus)
BACKPORTS_PKGS=(libbpf-dev libbpf1 bpftool linux-libc-dev)
# Minimum versions that matter: libbpf 1.4 (tcx links), bpftool 7.5 (kfuncs in vmlinux.h).
declare -A MIN_VERSION=([libbpf-dev]="1:1.4" [bpftool]="7.5" [linux-libc-dev]="6.12")

installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null |
		awk '$3 == "installed" { print $4 }'
}

missing() {
	local p v
	for p in "${BOOKWORM_PKGS[@]}" "${BACKPORTS_PKGS[@]}" "${BARE_PKGS[@]}"; do
		v=$(installed_version "$p")
		if [ -z "$v" ]; then
			echo "$p"
		elif [ -n "${MIN_VERSION[$p]:-}" ] &&
			dpkg --compare-versions "$v" lt "${MIN_VERSION[$p]}"; then
			echo "$p"
		fi
	done
}

add_backports() {
	if grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return
	fi
	echo "deps: adding Debian's bookworm-backports suite"
	cat > /etc/apt/sources.list.d/bookworm-backports.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

case "${1:-install}" in
check)
	m=$(missing)
	if [ -n "$m" ]; then
		echo "deps: missing: ${m//$'\n'/ }"
		exit 1
	fi
	echo "deps: all present"
	;;
install)
	m=$(missing)
	if [ -z "$m" ]; then
		echo "deps: all present"
		exit 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing ${m//$'\n'/ }; run 'sudo make deps'" >&2
		exit 1
	fi
	add_backports
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q -t bookworm-backports "${BACKPORTS_PKGS[@]}"
	apt-get install -y -q "${BOOKWORM_PKGS[@]}"
	apt-get install -y -q --no-install-recommends "${BARE_PKGS[@]}"
	m=$(missing)
	if [ -n "$m" ]; then
		echo "deps: still missing after install: ${m//$'\n'/ }" >&2
		exit 1
	fi
	echo "deps: installed"
	;;
*)
	echo "usage: $0 check|install" >&2
	exit 2
	;;
esac
