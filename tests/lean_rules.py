#!/usr/bin/env python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Random rule files made from a capture's packets, for the lean parse's check.

    tests/lean_rules.py PARSE.jsonl SEED COUNT DIR

PARSE.jsonl: `dynpf -j parse CAPTURE` (the native parse, a line a packet).
Writes DIR/lean-SEED-K.rules, K = 1..COUNT: each file 1 to 3 rules, each
rule made from one packet of the capture, picked at random: some of its own
fields as pins (its addresses, the protocol its stack has for the rules,
its ports, its TCP flags, its TTL; now and then on its inner stack), and
one or two of the tests whose parts of a packet the data path leaves
unparsed when no loaded rule needs them (TCP options and their values,
extension headers and their options, SRv6 TLVs, Geneve options, tunnel
values), present or missing. `dynpf replay --rules ... --check-native`
then runs each file as a pass: every packet again with the parse the
rules allow (the lean parse, the TCP option gate) must be decided as with
the full parse, and as the native reference decides.

Few rules a file and pins of real packets (a shape of packet, its layers
in order, picked first, so that the rare shapes count as much as the
common ones): a gate or skip that misreads a packet's field shows only
when no other rule keeps that part parsed for it. Half the time a rule on
a TCP packet tests an option its own area holds, there or missing. The
seed makes a run repeatable (tests/run.sh takes a fixed one).
"""
import ipaddress
import json
import random
import sys

# Tests that read what the lean parse may leave unparsed.
LEAN = [
    "tcp option mss", "tcp option mss missing", "tcp option ts", "tcp option ts missing",
    "tcp option sack-perm", "tcp option sack-perm missing", "tcp option wscale",
    "tcp option wscale missing", "tcp option sack", "tcp option eol", "tcp option nop missing",
    "tcp option 254", "tcp option 30 missing", "tcp mss 1-1460", "tcp mss 1400-1500",
    "tcp wscale 0-7", "tcp option mss data 0:2 0x05b4", "tcp option ts data 0:1 0x00/0x80",
    "ip option rr", "ip option ra missing", "ip6 exthdr hopopts", "ip6 exthdr routing missing",
    "ip6 exthdr ah", "ip6 exthdr fragment", "ip6 hbh option ra", "ip6 dst option padn",
    "srh tlv pad1", "srh tlv hmac missing", "geneve option 0x0102:0x80",
    "geneve option 0xff01:0x17 missing", "vni 0-100", "srh segleft 0-3", "gtpu teid 0-1000",
    "gre key 0-10",
]
ACTIONS = ["drop", "count", "pass", "mark 7"]
FLAGS = "fin,syn,rst,psh,ack,urg,ece,cwr".split(",")


def stack_proto(st):
    """The protocol a stack has for the rules: IPv4's header's, IPv6's
    upper-layer header's (past its extension headers but ESP)."""
    if "ipv4" in st:
        return st["ipv4"]["proto"]
    if "ipv6" in st:
        v6 = st["ipv6"]
        proto = v6.get("next_header")
        for e in v6.get("ext", []):
            if e.get("proto") == "esp":
                break
            proto = e.get("next_header", proto)
        return proto
    return None


def pins(rnd, st):
    """Some of stack st's own fields, as matches."""
    out = []
    fam = "ip" if "ipv4" in st else "ip6" if "ipv6" in st else None
    l3 = st.get("ipv4") or st.get("ipv6")
    if fam and l3:
        if rnd.random() < 0.5:
            plen = rnd.choice([32, 24, 16]) if fam == "ip" else rnd.choice([128, 64, 32])
            net = ipaddress.ip_network("%s/%d" % (l3["src"], plen), strict=False)
            out.append("%s saddr %s" % (fam, net))
        if rnd.random() < 0.3:
            out.append("%s daddr %s" % (fam, l3["dst"]))
        if rnd.random() < 0.2:
            out.append(fam)
        ttl = l3.get("ttl", l3.get("hop_limit"))
        if rnd.random() < 0.15 and ttl is not None:
            out.append("ttl %d" % ttl)
    l4 = "tcp" if "tcp" in st else "udp" if "udp" in st else None
    r = rnd.random()
    proto = stack_proto(st)
    if r < 0.35 and proto is not None:
        out.append("proto %d" % proto)
    elif r < 0.7 and l4:
        side = rnd.choice(["sport", "dport"])
        out.append("%s %s %d" % (l4, side, st[l4][side]))
        if l4 == "tcp" and rnd.random() < 0.4:
            fl = [f for i, f in enumerate(FLAGS) if st["tcp"]["flags"] >> i & 1]
            if fl:
                out.append("tcp flags %s" % ",".join(fl))
    return out


TCPOPT = {"eol": "0", "nop": "1", "mss": "2", "wscale": "3", "sack-perm": "4", "sack": "5",
          "ts": "8"}


def test_key(t):
    """What a rule may test once: a type of a family (a TCP option by its
    number), or a value."""
    w = t.split()
    for k in ("option", "exthdr", "tlv"):
        if k in w:
            i = w.index(k) + 1
            if w[:2] == ["tcp", "option"]:
                w[i] = TCPOPT.get(w[i], w[i])
            return " ".join(w[:i + 1])
    return " ".join(w[:2])


def rule(rnd, i, pkt):
    parts = []
    st = pkt
    if "inner" in pkt and rnd.random() < 0.3:
        parts.append("inner")
        st = pkt["inner"]
    parts += pins(rnd, st)
    tests = [rnd.choice(LEAN)]
    # Half the time, a test of what the packet's own TCP header carries:
    # an option of its area, there or missing (a walk left out flips it).
    kinds = [o["kind"] for o in st.get("tcp", {}).get("options", []) if o["kind"] > 1]
    if kinds and rnd.random() < 0.5:
        tests = ["tcp option %d%s" % (rnd.choice(kinds), rnd.choice(["", " missing"]))]
    if rnd.random() < 0.3:
        t = rnd.choice(LEAN)
        if test_key(t) != test_key(tests[0]):
            tests.append(t)
    parts += tests
    return "id %d prio %d %s %s" % (i, rnd.randint(1, 50), " ".join(parts), rnd.choice(ACTIONS))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.split("\n\n")[1])
    path, seed, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    pkts = []
    with open(path) as f:
        for line in f:
            try:
                p = json.loads(line)
            except ValueError:
                continue
            if "pkt" in p and ("ipv4" in p or "ipv6" in p):
                pkts.append(p)
    if not pkts:
        sys.exit("%s: no packet with an IP header" % path)
    # A shape (the packet's layers, in order) picked first, then one of its
    # packets: the rare shapes are tried as often as the common ones.
    shapes = {}
    for p in pkts:
        shapes.setdefault(tuple(lay["proto"] for lay in p.get("layers", [])), []).append(p)
    keys = sorted(shapes)
    rnd = random.Random(seed)
    for k in range(1, count + 1):
        with open("%s/lean-%d-%d.rules" % (out, seed, k), "w") as f:
            for i in range(1, rnd.choice([1, 1, 2, 3]) + 1):
                f.write(rule(rnd, i, rnd.choice(shapes[rnd.choice(keys)])) + "\n")


if __name__ == "__main__":
    main()
