#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Frames in and out of libFuzzer corpora (one file per input).

  fuzz_corpus.py frames DIR CAPTURE...  every frame of the captures, a file each
  fuzz_corpus.py pcap OUT.pcap DIR...   every file of the dirs, a frame each
                                         (Ethernet), in name order; a line per
                                         frame on stdout: "N FILE"
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests'))
from pcapfile import read_pcap, write_pcap  # noqa: E402


def frames(out, caps):
    os.makedirs(out, exist_ok=True)
    n = 0
    for c in caps:
        base = os.path.basename(c).rsplit('.', 1)[0]
        for i, fr in enumerate(read_pcap(c), 1):
            with open(os.path.join(out, f'{base}-{i}'), 'wb') as f:
                f.write(fr)
            n += 1
    print(f'{n} frames from {len(caps)} captures in {out}')


def pcap(out, dirs):
    files = sorted(os.path.join(d, n) for d in dirs if os.path.isdir(d) for n in os.listdir(d))

    def frames():
        n = 0
        for p in files:
            with open(p, 'rb') as g:
                fr = g.read(65535)
            if not fr:
                continue  # a capture cannot hold an empty frame
            n += 1
            print(n, p)
            yield fr
    write_pcap(out, frames())


if __name__ == '__main__':
    if len(sys.argv) < 4 or sys.argv[1] not in ('frames', 'pcap'):
        sys.exit(__doc__)
    (frames if sys.argv[1] == 'frames' else pcap)(sys.argv[2], sys.argv[3:])
