# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Field by field, dynpf's headers against tshark's: Ethernet, ARP, TCP,
UDP, ICMP, MPLS and the tunnels (IPv4 and IPv6: ipfields.py)."""
from .jsonobj import dget, get, to_bool, to_int, to_str
from .options import gtpu_ext, tshark_geneve_options, tshark_tcp_options
from .policy import known


ETH_FIELDS = ["dst", "src", "ethertype", "vlans"]
ARP_FIELDS = ["htype", "ptype", "hlen", "plen", "op", "sha", "spa", "tha",
              "tpa"]
IPV4_FIELDS = ["src", "dst", "proto", "ttl", "tos", "tot_len", "id",
               "hdr_len", "df", "mf", "frag_off", "nonfirst_frag"]
IPV6_FIELDS = ["src", "dst", "next_header", "hop_limit", "tclass",
               "flow_label", "payload_len"]
TCP_FIELDS = ["sport", "dport", "seq", "ack", "window", "hdr_len", "flags"]
TCP_OPT_FIELDS = ["options", "mss", "wscale", "sack_perm", "ts_val",
                  "ts_ecr", "sack"]
UDP_FIELDS = ["sport", "dport", "ulen"]
ICMP_FIELDS = ["type", "code", "id", "seq"]
MPLS_FIELDS = ["labels"]
GRE_FIELDS = ["flags", "version", "proto", "checksum_present", "key", "seq"]
VXLAN_FIELDS = ["flags", "vni"]
GENEVE_FIELDS = ["version", "opt_len", "oam", "critical", "proto", "vni",
                 "options"]
GTPU_FIELDS = ["flags", "version", "msg_type", "teid", "length", "seq", "ext"]
FIELDS = {"mpls": MPLS_FIELDS, "gre": GRE_FIELDS, "vxlan": VXLAN_FIELDS,
          "geneve": GENEVE_FIELDS, "gtpu": GTPU_FIELDS,
          "eth": ETH_FIELDS, "arp": ARP_FIELDS, "ipv4": IPV4_FIELDS,
          "ipv6": IPV6_FIELDS, "tcp": TCP_FIELDS + TCP_OPT_FIELDS,
          "udp": UDP_FIELDS, "icmp": ICMP_FIELDS, "icmpv6": ICMP_FIELDS}


def values(t, conv, fields):
    """{key: conv(tshark's value)} of [(dynpf key, tshark field)], in order."""
    return {k: conv(get(t, f)) for k, f in fields}


def compare_plain(c, name, d, vals):
    for k, tv in vals.items():
        if tv is None:
            c.skip("%s.%s" % (name, k), "tshark does not show it")
        else:
            c.check("%s.%s" % (name, k), dget(d, k), tv)


def opt_one(c, d, key, tvals, partial, name="tcp"):
    """A decoded option: absent on both sides, or equal. With the option
    repeated, dynpf's value must be one of tshark's. After an option error
    (partial), a value dynpf did not decode is not held against it."""
    dv = dget(d, key)
    if not tvals and dv is None:
        return
    if partial and dv is None:
        known(c, "no_decode_after_tlv_len", name + "." + key)
        return
    if len(tvals) > 1:
        if dv in tvals:
            # dynpf's value is one of tshark's
            known(c, "option_repeated", name + "." + key)
            return
        c.check(name + "." + key, dv, tvals)
        return
    c.check(name + "." + key, dv, tvals[0] if tvals else None)


def compare_eth(c, d, tl, ntags):
    t = tl.eth
    c.check("eth.dst", dget(d, "dst"), to_str(get(t, "eth.dst")))
    c.check("eth.src", dget(d, "src"), to_str(get(t, "eth.src")))
    tags, et = tl.tag_list()
    if ntags is not None:
        # dynpf stopped at a bad (truncated, or 5th) tag: the ethertype is
        # not known, the tags before it are.
        c.skip("eth.ethertype", "dynpf error in a VLAN tag")
        tags = tags[:ntags]
    if any(tl.is_bad(tg[4]) for tg in tags):
        c.skip("eth.ethertype", "tshark flags a VLAN tag")
        c.skip("eth.vlans", "tshark flags a VLAN tag")
        return
    if ntags is None and et is None and (dget(d, "ethertype") or 0) < 0x600:
        # 802.3 frame: tshark may drop eth.len when the length is bogus.
        c.skip("eth.ethertype", "802.3 length field tshark does not show")
    elif ntags is None:
        c.check("eth.ethertype", dget(d, "ethertype"), et)
    dv = dget(d, "vlans")
    if not isinstance(dv, list):
        c.check("eth.vlans", dv, [{"tpid": tg[0], "vid": tg[1], "pcp": tg[2],
                                   "dei": tg[3]} for tg in tags])
        return
    if not c.check("eth.vlans.count", len(dv), len(tags)):
        return
    for i, (tg, dt) in enumerate(zip(tags, dv)):
        for j, k in enumerate(("tpid", "vid", "pcp", "dei")):
            c.check("eth.vlans[%d].%s" % (i, k), dget(dt, k), tg[j])


def compare_arp(c, d, t):
    htype = to_int(get(t, "arp.hw.type"))
    ptype = to_int(get(t, "arp.proto.type"))
    hlen = to_int(get(t, "arp.hw.size"))
    plen = to_int(get(t, "arp.proto.size"))
    c.check("arp.htype", dget(d, "htype"), htype)
    c.check("arp.ptype", dget(d, "ptype"), ptype)
    c.check("arp.hlen", dget(d, "hlen"), hlen)
    c.check("arp.plen", dget(d, "plen"), plen)
    c.check("arp.op", dget(d, "op"), to_int(get(t, "arp.opcode")))
    decoded = (htype, ptype, hlen, plen) == (1, 0x0800, 6, 4)
    for k, tk in (("sha", "arp.src.hw_mac"), ("spa", "arp.src.proto_ipv4"),
                  ("tha", "arp.dst.hw_mac"), ("tpa", "arp.dst.proto_ipv4")):
        tv = to_str(get(t, tk)) if decoded else None
        dv = dget(d, k)
        if decoded and tv is None:
            c.skip("arp." + k, "tshark does not show it")
        elif tv is not None or dv is not None:
            c.check("arp." + k, dv, tv)


def compare_tcp(c, d, t, partial=False, opts_bad=False):
    vals = values(t, to_int, [("sport", "tcp.srcport"), ("dport", "tcp.dstport"),
                              ("seq", "tcp.seq_raw"), ("ack", "tcp.ack_raw"),
                              ("window", "tcp.window_size_value"), ("hdr_len", "tcp.hdr_len")])
    fl = to_int(get(t, "tcp.flags"))
    # tcp.flags holds 12 bits (reserved, AE/NS); dynpf's is the CWR..FIN byte.
    vals["flags"] = None if fl is None else fl & 0xff
    compare_plain(c, "tcp", d, vals)
    if opts_bad:
        n = sum(1 for k in TCP_OPT_FIELDS if k in d)
        known(c, "option_threw", "tcp.options", n=n)
        return
    opts = tshark_tcp_options(t)
    if opts is None:
        opts = []
        hl = vals["hdr_len"]
        if hl is not None and hl > 20:
            c.skip("tcp.options", "tshark shows no option area")
            return
    dopts = dget(d, "options")
    if isinstance(dopts, list):
        dopts = [[dget(o, "kind"), dget(o, "len")] for o in dopts]
    c.check("tcp.options", dopts, [[k, ln] for k, ln, _ in opts])

    def decoded(kind, good_len):
        return [v for k, ln, v in opts if k == kind and good_len(ln)]

    mss = [to_int(get(v, "tcp.options.mss_val"))
           for v in decoded(2, lambda n: n == 4)]
    ws = [to_int(get(v, "tcp.options.wscale.shift"))
          for v in decoded(3, lambda n: n == 3)]
    sp = [True for _ in decoded(4, lambda n: n == 2)]
    ts = [(to_int(get(v, "tcp.options.timestamp.tsval")),
           to_int(get(v, "tcp.options.timestamp.tsecr")))
          for v in decoded(8, lambda n: n == 10)]
    sacks = []
    for v in decoded(5, lambda n: n is not None and n >= 10
                     and (n - 2) % 8 == 0 and (n - 2) // 8 <= 4):
        edges = []
        # sack.dsack_le/re repeat the first block when tshark takes it for
        # a D-SACK; the blocks on the wire are the sack_le/sack_re pairs.
        for k, x in v.pairs:
            if k in ("tcp.options.sack_le", "tcp.options.sack_re"):
                edges.append(to_int(x))
        sacks.append([[edges[i], edges[i + 1]]
                      for i in range(0, len(edges) - 1, 2)])
    for key, tvals in (("mss", mss), ("wscale", ws), ("sack_perm", sp),
                       ("ts_val", [x[0] for x in ts]),
                       ("ts_ecr", [x[1] for x in ts]), ("sack", sacks)):
        opt_one(c, d, key, tvals, partial)


def compare_udp(c, d, t):
    compare_plain(c, "udp", d, {
        "sport": to_int(get(t, "udp.srcport")),
        "dport": to_int(get(t, "udp.dstport")),
        "ulen": to_int(get(t, "udp.length")),
    })


def compare_icmp(c, name, d, t):
    typ = to_int(get(t, name + ".type"))
    vals = {"type": typ, "code": to_int(get(t, name + ".code"))}
    if name == "icmp":
        echo = typ in (0, 8)
        tid, tseq = get(t, "icmp.ident"), get(t, "icmp.seq")
    else:
        echo = typ in (128, 129)
        tid = get(t, "icmpv6.echo.identifier")
        tseq = get(t, "icmpv6.echo.sequence_number")
    compare_plain(c, name, d, vals)
    if echo:
        compare_plain(c, name, d, {"id": to_int(tid), "seq": to_int(tseq)})
    else:
        for k in ("id", "seq"):
            if k in d:
                c.check("%s.%s" % (name, k), d[k], None)


def compare_mpls(c, d, st):
    tl = []
    for o in st.mpls:
        tl.append({"label": to_int(get(o, "mpls.label")),
                   "tc": to_int(get(o, "mpls.exp")),
                   "s": to_int(get(o, "mpls.bottom")),
                   "ttl": to_int(get(o, "mpls.ttl"))})
        if tl[-1]["s"]:
            break
    dl = dget(d, "labels")
    if not isinstance(dl, list):
        c.check("mpls.labels", dl, tl)
        return
    if not c.check("mpls.labels.count", len(dl), len(tl)):
        return
    for i, (de, te) in enumerate(zip(dl, tl)):
        for k in ("label", "tc", "s", "ttl"):
            c.check("mpls.labels[%d].%s" % (i, k), dget(de, k), te[k])


def compare_gre(c, d, t):
    fv = to_int(get(t, "gre.flags_and_version"))
    ver = None if fv is None else fv & 7
    vals = {"flags": fv, "version": ver,
            "proto": to_int(get(t, "gre.proto")),
            "checksum_present": to_bool(get(t, "gre.flags.checksum"))}
    compare_plain(c, "gre", d, vals)
    if fv is None:
        return
    if fv & 0x2000:
        if ver == 1:
            # PPTP: payload length and call ID, shown apart by tshark.
            pl = to_int(get(t, "gre.key.payload_length"))
            cid = to_int(get(t, "gre.key.call_id"))
            key = None if pl is None or cid is None else pl << 16 | cid
        else:
            key = to_int(get(t, "gre.key"))
        compare_plain(c, "gre", d, {"key": key})
    else:
        c.check("gre.key", dget(d, "key"), None)
    if fv & 0x1000:
        compare_plain(c, "gre", d,
                      {"seq": to_int(get(t, "gre.sequence_number"))})
    else:
        c.check("gre.seq", dget(d, "seq"), None)


def compare_vxlan(c, d, t):
    fl = to_int(get(t, "vxlan.flags"))
    compare_plain(c, "vxlan", d, {
        # tshark's vxlan.flags is the first 16 bits; dynpf's the flag byte.
        "flags": None if fl is None else fl >> 8,
        "vni": to_int(get(t, "vxlan.vni"))})


def compare_geneve(c, d, t, partial):
    compare_plain(c, "geneve", d, {
        "version": to_int(get(t, "geneve.version")),
        "opt_len": to_int(get(t, "geneve.option.length")),
        "oam": to_bool(get(t, "geneve.flags.oam")),
        "critical": to_bool(get(t, "geneve.flags.critical")),
        "proto": to_int(get(t, "geneve.proto_type")),
        "vni": to_int(get(t, "geneve.vni"))})
    opts, bad = tshark_geneve_options(t)
    dopts = [[dget(o, "class"), dget(o, "type"), dget(o, "len")]
             for o in dget(d, "options") or []]
    if partial or bad:
        # The options before the bad one, on both sides.
        opts = opts[:len(dopts)]
    c.check("geneve.options", dopts, opts)


def compare_gtpu(c, d, t):
    fl = to_int(get(t, "gtp.flags"))
    compare_plain(c, "gtpu", d, {
        "flags": fl,
        "version": to_int(get(t, "gtp.flags.version")),
        "msg_type": to_int(get(t, "gtp.message")),
        "teid": to_int(get(t, "gtp.teid")),
        "length": to_int(get(t, "gtp.length"))})
    if fl is None:
        return
    if fl & 0x07:
        sq = to_int(get(t, "gtp.seq_number"))
        if sq is None and not fl & 0x02:
            c.skip("gtpu.seq", "tshark shows the sequence number only "
                   "with S set")
        else:
            compare_plain(c, "gtpu", d, {"seq": sq})
    else:
        c.check("gtpu.seq", dget(d, "seq"), None)
    c.check("gtpu.ext", dget(d, "ext"), gtpu_ext(t))
