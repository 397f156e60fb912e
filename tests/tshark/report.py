# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The report: every field compared or skipped, the mismatches printed."""
import json


ABSENT = "<absent>"


class Cmp:
    def __init__(self, cap, verbose):
        self.cap = cap
        self.verbose = verbose
        self.compared = 0
        self.mismatches = 0
        self.skipped = 0
        self.pkt = 0
        self.prefix = ""   # "inner." while comparing the inner stack

    def check(self, field, dv, tv):
        field = self.prefix + field
        self.compared += 1
        ok = dv == tv
        if not ok:
            self.mismatches += 1
            print("%s: pkt %d: %s: dynpf=%s tshark=%s"
                  % (self.cap, self.pkt, field, fmt(dv), fmt(tv)))
        elif self.verbose:
            print("%s: pkt %d: %s: %s (ok)"
                  % (self.cap, self.pkt, field, fmt(dv)))
        return ok

    def skip(self, field, why, n=1):
        field = self.prefix + field
        self.skipped += n
        if self.verbose:
            print("%s: pkt %d: %s: skipped (%s)"
                  % (self.cap, self.pkt, field, why))


def fmt(v):
    if v is None:
        return ABSENT
    if isinstance(v, str):
        return v
    return json.dumps(v, separators=(",", ":"))
