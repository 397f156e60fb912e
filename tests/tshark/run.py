# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Running the two tools on a capture: tshark's packets, dynpf's records."""
import json
import os
import shutil
import subprocess
import sys

from .jsonobj import Obj, get
from .policy import documented


# dynpf's side of two known differences: checksums are not verified, and a
# total length of 0 is not a TSO capture's.
documented("checksums")
documented("tso")
TSHARK_OPTS = [
    "-o", "tcp.analyze_sequence_numbers:FALSE",
    "-o", "tcp.relative_sequence_numbers:FALSE",
    "-o", "tcp.desegment_tcp_streams:FALSE",
    "-o", "ip.defragment:FALSE",
    "-o", "ipv6.defragment:FALSE",
    # Checksums are not compared; keep their (default off) validation off so
    # that a bad checksum is not an error-severity expert item.
    "-o", "ip.check_checksum:FALSE",
    "-o", "tcp.check_checksum:FALSE",
    "-o", "udp.check_checksum:FALSE",
    # A total length of 0 is a bad length (dynpf: bad_len), not a TSO capture.
    "-o", "ip.tso_support:FALSE",
    "-o", "ipv6.tso_support:FALSE",
]


def run_tshark(tshark, cap, extra_args):
    """tshark's packets as a list of top-level layer Obj."""
    cmd = [tshark, "-n", "-r", cap] + TSHARK_OPTS + extra_args + ["-T", "json"]
    # tshark copies bytes of text protocols into its JSON as they are, not
    # always valid UTF-8; none of the fields compared here is such a string.
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    if r.returncode != 0:
        raise RuntimeError("tshark failed on %s (exit %d): %s"
                           % (cap, r.returncode, r.stderr.strip()))
    text = r.stdout.strip()
    if not text:
        return []
    return [get(get(p, "_source"), "layers")
            for p in json.loads(text, object_pairs_hook=Obj)]


def run_dynpf(dynpf, cap):
    r = subprocess.run([dynpf, "parse", "-j", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    recs = {}
    for n, line in enumerate(r.stdout.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            o = json.loads(line)
        except ValueError as e:
            raise RuntimeError("%s: bad JSON on line %d of dynpf output: %s"
                               % (cap, n, e))
        if not isinstance(o, dict) or o.get("summary") or "pkt" not in o:
            continue
        if o.get("hook", "native") != "native":
            continue
        if o.get("status", "parsed") != "parsed":
            continue
        recs[o["pkt"]] = o
    if r.returncode != 0 and not recs:
        raise RuntimeError("%s parse -j %s failed (exit %d): %s"
                           % (dynpf, cap, r.returncode, r.stderr.strip()))
    return recs


def find_tools(tshark, dynpf):
    """tshark's path, or None after saying which of the two is missing."""
    path = shutil.which(tshark)
    if path is None:
        print("error: tshark not found (%s); install tshark" % tshark,
              file=sys.stderr)
        return None
    if not (os.path.isfile(dynpf) and os.access(dynpf, os.X_OK)):
        print("error: dynpf binary not found or not executable: %s "
              "(build it with make)" % dynpf, file=sys.stderr)
        return None
    return path
