#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Hostile frames for the differential test: every packet of the given
captures mutated --count times (random bytes overwritten in the first 128
bytes, where the headers are, and random truncation), with a fixed seed so a
failure is reproducible. BPF and native must agree on every one of them."""
import random

from truncate import tool


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


def mutations(a, inputs):
    rng = random.Random(a.seed)
    for frame in inputs:
        if len(frame) < 14:
            continue
        for _ in range(a.count):
            yield mutate(rng, frame)


def main():
    tool(__doc__, [('--count', 20), ('--seed', 20261203)], mutations)


if __name__ == '__main__':
    main()
