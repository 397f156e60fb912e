#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Byte tests against tshark: does each rule count the packets a display
filter meaning the same thing selects?

Usage: tshark_bytes.py --dynpf DYNPF [--verbose] CAPTURE.pcap [...]

The pairs of a rule and a filter are tshark/bytes.py's PAIRS: TLV data of
every family (`tcp option 254 data 0:2 0xf989` and
`tcp.options.experimental[0:1,2:2] == fe:f9:89`), raw bytes from a layer
(`@l3 0 1 0x45` and the frame's first IP layer's `ip#1[0:1] == 45`), inner
ones. The captures are joined into one file, run once through
`dynpf replay --rules` (every pair's rule as `count`, so that the verdict's
`matched` lists each rule that holds; xdp-frags, and the native reference
must agree) and once through tshark (a Lua listener per filter). For each
pair the frames the rule counts must be the frames the filter selects,
except where dynpf and tshark parse differently (a key of
tshark/policy.py's DIFFERENCES, printed with the count of frames it
skipped; --verbose: which frames); and each must count some frames and miss
some, or the pair could not fail.

Output: a line per pair (counted, selected, agreeing, skipped by key), and
`CAPTURE:pkt N: RULE: rule counts it, filter does not` per difference.
Exit status: 0 none, 1 some difference, 2 tshark or dynpf missing or
failing.
"""
import argparse
import os
import sys
import tempfile

import pcapfile
from tshark.bytes import compare
from tshark.run import find_tools


def main(argv):
    ap = argparse.ArgumentParser(
        description="Byte tests against tshark's display filters.")
    ap.add_argument("--dynpf", required=True, help="path to the dynpf binary")
    ap.add_argument("--tshark", default="tshark", help="tshark to run")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="list the frames each difference skipped")
    ap.add_argument("captures", nargs="+", metavar="CAPTURE.pcap")
    a = ap.parse_args(argv)
    tshark = find_tools(a.tshark, a.dynpf)
    if tshark is None:
        return 2
    names = []
    frames = []
    for cap in a.captures:
        if not os.path.isfile(cap):
            print("error: no such capture: %s" % cap, file=sys.stderr)
            return 2
        for n, f in enumerate(pcapfile.read_pcap(cap), 1):
            names.append("%s:pkt %d" % (cap, n))
            frames.append(f)
    fd, joined = tempfile.mkstemp(suffix=".pcap")
    os.close(fd)
    try:
        pcapfile.write_pcap(joined, frames)
        bad = compare(a.dynpf, tshark, joined, names, verbose=a.verbose)
    except (RuntimeError, OSError, ValueError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    finally:
        os.unlink(joined)
    print("%d frames of %d captures, %d differences"
          % (len(frames), len(a.captures), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
