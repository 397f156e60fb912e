#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Write every prefix (--min-len, at least 14 bytes, up to the whole frame) of every packet of the
given captures into one pcap: the input of the truncation differential test
(BPF and native must agree on every cut, and neither may read out of bounds).
Frames longer than --max-len are cut only up to --max-len bytes."""
import argparse

from pcapfile import read_pcap, write_pcap


def tool(doc, options, frames):
    """The command line of this tool and mutate.py: the integer options
    [(name, default)], then OUT CAPTURE...; frames(args, inputs) makes the
    frames to write of the captures' frames."""
    ap = argparse.ArgumentParser(description=doc)
    for name, default in options:
        ap.add_argument(name, type=int, default=default)
    ap.add_argument('out')
    ap.add_argument('captures', nargs='+')
    a = ap.parse_args()
    inputs = (frame for cap in a.captures for frame in read_pcap(cap))
    n = write_pcap(a.out, frames(a, inputs))
    print(f'{a.out}: {n} packets')


def cuts(a, inputs):
    for frame in inputs:
        for cut in range(max(14, a.min_len), min(len(frame), a.max_len) + 1):
            yield frame[:cut]


def main():
    tool(__doc__, [('--min-len', 14), ('--max-len', 300)], cuts)


if __name__ == '__main__':
    main()
