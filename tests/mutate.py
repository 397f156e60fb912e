#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Hostile frames for the differential test: every packet of the given
captures mutated --count times (random bytes overwritten in the first 128
bytes, where the headers are, and random truncation), with a fixed seed so a
failure is reproducible. BPF and native must agree on every one of them."""
import argparse
import random
import struct

from truncate import read_pcap


def mutate(rng, frame):
    b = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(0, min(len(b), 128))
        # Favour values that matter to parsers: lengths, kinds, versions.
        b[i] = rng.choice([0, 1, 2, 3, 4, 5, 8, 0x40, 0x45, 0x4f, 0x60, 0x81, 0xff,
                           rng.randrange(256)])
    if rng.random() < 0.3:
        b = b[:rng.randint(14, len(b))]
    return bytes(b)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--count', type=int, default=20)
    ap.add_argument('--seed', type=int, default=20261203)
    ap.add_argument('out')
    ap.add_argument('captures', nargs='+')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n = 0
    with open(a.out, 'wb') as out:
        out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for cap in a.captures:
            for frame in read_pcap(cap):
                if len(frame) < 14:
                    continue
                for _ in range(a.count):
                    m = mutate(rng, frame)
                    out.write(struct.pack('<IIII', n // 1000000, n % 1000000, len(m), len(m)))
                    out.write(m)
                    n += 1
    print(f'{a.out}: {n} packets')


if __name__ == '__main__':
    main()
