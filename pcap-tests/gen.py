#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Generate the dynpf test captures and their expected results.

Usage: gen.py [--list] [OUTDIR]

Writes NAME.pcap (classic pcap, linktype Ethernet) and NAME.expect.jsonl for
every capture into OUTDIR (default: the folder of this script). With --list,
prints what every packet is meant to be (pcap, number, description) instead.

The expected values are derived from what this script builds (the header
fields it sets, the offsets it knows, and for a malformed packet the error
docs/parsing.md assigns to it), never from running dynpf. The record format
is the one of docs/json-output.md; every line holds a subset of the packet
record (fields left out are not compared).

Output is deterministic: a fixed seed per capture, fixed timestamps, no clock
input.
Addresses are from 198.18.0.0/15, 2001:db8::/32 and 02:00:00:00:00:xx.

This file is the entry point; the generator is the package capgen/ beside
it (README.md says which module holds what).
"""
import os
import sys

SYS_PY = "/usr/bin/python3"
try:
    import scapy  # noqa: F401  pylint: disable=unused-import
except ImportError:
    # `python3` on PATH may be an interpreter without scapy (pyenv); Debian's
    # python3-scapy lives with /usr/bin/python3.
    if os.path.exists(SYS_PY) and \
            os.path.realpath(sys.executable) != os.path.realpath(SYS_PY):
        os.execv(SYS_PY, [SYS_PY] + sys.argv)
    raise

import logging  # noqa: E402
import random  # noqa: E402

logging.getLogger("scapy").setLevel(logging.ERROR)

from capgen.common import SEED  # noqa: E402
from capgen.cap_basic import cap_eth_basic, cap_tcp_options, cap_vlan  # noqa: E402
from capgen.cap_ipv4 import cap_fragments, cap_ipv4_ext, cap_ipv4_options  # noqa: E402
from capgen.cap_malformed import cap_malformed  # noqa: E402
from capgen.cap_ipv6 import cap_ipv6_ext, cap_ipv6_ext_malformed, cap_jumbograms  # noqa: E402
from capgen.cap_jumbo import cap_jumbo, cap_jumbo_ext, cap_jumbo_tunnels  # noqa: E402
from capgen.cap_tunnels import cap_tunnels, cap_tunnels_malformed  # noqa: E402
from capgen.cap_lengths import cap_lengths  # noqa: E402
from capgen.cap_window import cap_window_edge  # noqa: E402

CAPTURES = [cap_eth_basic, cap_vlan, cap_tcp_options, cap_fragments,
            cap_malformed, cap_jumbo,
            cap_ipv4_options, cap_ipv6_ext, cap_ipv6_ext_malformed,
            cap_jumbo_ext, cap_tunnels, cap_tunnels_malformed,
            cap_jumbo_tunnels, cap_jumbograms, cap_lengths, cap_ipv4_ext,
            cap_window_edge]


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    outdir = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    caps = []
    for f in CAPTURES:
        # One seed per capture: adding a packet to one leaves the others'
        # bytes alone, so a change to one family diffs only its captures.
        random.seed("%d:%s" % (SEED, f.__name__))
        caps.append(f())
    if listing:
        for cp in caps:
            for desc, data, rec in cp.frames:
                print("%s.pcap %3d %5d %-11s %s" % (cp.name, rec["pkt"],
                                                    len(data), rec["error"],
                                                    desc))
        return 0
    os.makedirs(outdir, exist_ok=True)
    for cp in caps:
        cp.write(outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
