# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""A capture compared: each packet, each stack of it, its layer chain and
its error."""
from .chain import expected_chain
from .fields import (
    FIELDS, compare_arp, compare_eth, compare_geneve, compare_gre, compare_gtpu, compare_icmp,
    compare_mpls, compare_tcp, compare_udp, compare_vxlan)
from .ipfields import compare_ipv4, compare_ipv4_ext, compare_ipv6, compare_ipv6_ext
from .jsonobj import dget, get, to_int
from .layers import TLayers
from .policy import check_error, known
from .protos import EXT_NAMES, TSHARK_START, TUNNELS
from .report import Cmp
from .run import run_dynpf, run_tshark


def error_stack(rec, layers, names, stacks):
    """The stack holding dynpf's failing header."""
    el = rec.get("error_layer")
    if el is not None and el < len(layers):
        return stacks[el]
    if not layers:
        return 0
    ep = rec.get("error_proto")
    if ep in TSHARK_START.values() and \
            names[-1] in TUNNELS + ("ipv4", "ipv6") + tuple(EXT_NAMES):
        # The header after a tunnel header (or after an IP header: IP in
        # IP) starts the next stack.
        return stacks[-1] + 1
    return stacks[-1]


def compare_packet(c, rec, tlayers):
    tl = TLayers(tlayers)
    c.prefix = ""
    if tl.frame is not None:
        c.check("len", dget(rec, "len"), to_int(get(tl.frame, "frame.len")))
    layers = rec.get("layers") or []
    names = [dget(x, "proto") for x in layers]
    stacks = [dget(x, "stack") or 0 for x in layers]
    err = rec.get("error", "ok")
    err_stack = error_stack(rec, layers, names, stacks) \
        if err != "ok" else None
    for s in range(max(stacks) + 1 if stacks else 1):
        d = rec if s == 0 else dget(rec, "inner")
        c.prefix = "inner." if s else ""
        idx = [i for i in range(len(layers)) if stacks[i] == s]
        compare_stack(c, rec, d if isinstance(d, dict) else {},
                      tl.stack(s), [layers[i] for i in idx],
                      [names[i] for i in idx], idx,
                      err if err_stack == s else "ok")
    c.prefix = ""

    ours = [o for st in tl.stacks for o in st.objs()]
    anybad = any(tl.is_bad(o) for o in ours)
    if err == "ok":
        exp = expected_chain(tl)
        if exp is None or anybad:
            c.skip("layers", "tshark flags the packet or the chain is "
                   "not derivable")
        else:
            c.check("layers", ",".join(("inner." if s else "") + n
                                       for n, s in zip(names, stacks)),
                    ",".join(exp))
    elif err in ("depth", "tlv_count"):
        known(c, "limits")
    elif err_stack is not None:
        c.prefix = "inner." if err_stack else ""
        st = tl.stack(err_stack)
        d = rec if err_stack == 0 else dget(rec, "inner")
        idx = [i for i in range(len(layers)) if stacks[i] == err_stack]
        check_error(c, rec, st, d if isinstance(d, dict) else {},
                    [layers[i] for i in idx], [names[i] for i in idx], idx)
        c.prefix = ""


def compare_stack(c, rec, d, st, slayers, names, idx, err):
    """The fields of one stack's layers (d: its dynpf objects, st: tshark's
    TStack or None, err: dynpf's error if it is in this stack)."""
    err_layer = rec.get("error_layer")
    err_proto = rec.get("error_proto")
    # err_layer as an index of this stack's layers
    lerr = None
    if err != "ok" and err_layer is not None:
        lerr = idx.index(err_layer) if err_layer in idx else len(names)

    # Which dynpf layer objects may be compared, and where tshark has them.
    ntags = None
    if err != "ok" and err_proto in ("vlan", "qinq"):
        ntags = sum(1 for n in names if n in ("vlan", "qinq"))
    for i, name in enumerate(names):
        if name in ("vlan", "qinq"):
            continue
        dd = d.get(name)
        if not isinstance(dd, dict):
            continue
        t = st.layer(name) if st is not None else None
        nfields = len([k for k in FIELDS.get(name, []) if k in dd]) or 1
        if t is None:
            c.skip(name, "tshark has no %s header here" % name, n=nfields)
            continue
        if st.is_bad(t) or (name == "mpls" and st.is_bad_any(st.mpls)):
            c.skip(name, "tshark flags its %s layer" % name, n=nfields)
            continue
        if name == "eth":
            compare_eth(c, dd, st, ntags)
        elif name == "arp":
            compare_arp(c, dd, t)
        elif name == "ipv4":
            compare_ipv4(c, dd, t)
            compare_ipv4_ext(c, dd, st)
            # With options, the layer is IHL * 4 bytes long.
            c.check("layers[%d].len" % idx[i], dget(slayers[i], "len"),
                    to_int(get(t, "ip.hdr_len")))
        elif name == "ipv6":
            compare_ipv6(c, dd, t)
            # The extension header holding dynpf's error, by its index
            # among them: a tlv_len (err_k), or the end of its walk at
            # the TLV limit (count_k).
            ext_k = None
            if err_proto in EXT_NAMES and lerr is not None:
                ext_k = sum(1 for n in names[:lerr] if n in EXT_NAMES)
            err_k = ext_k if err == "tlv_len" else None
            count_k = ext_k if err == "tlv_count" else None
            stopped_at = None
            if err not in ("ok", "depth", "tlv_count") and \
                    err_proto in EXT_NAMES and \
                    (lerr is None or lerr >= len(names)):
                stopped_at = err_proto
            compare_ipv6_ext(c, dd, st, err_k, rec.get("tlv_overflow"),
                             stopped_at, count_k=count_k)
        elif name == "tcp":
            # With a tlv_len error, dynpf's option list holds the options
            # before the bad one, and tshark's list stops at it as well.
            compare_tcp(c, dd, t, partial=(err != "ok" and lerr == i),
                        opts_bad=id(t) in st.opts_bad)
        elif name == "udp":
            compare_udp(c, dd, t)
        elif name in ("icmp", "icmpv6"):
            compare_icmp(c, name, dd, t)
        elif name == "mpls":
            compare_mpls(c, dd, st)
        elif name == "gre":
            compare_gre(c, dd, t)
        elif name == "vxlan":
            compare_vxlan(c, dd, t)
        elif name == "geneve":
            compare_geneve(c, dd, t, partial=(err != "ok" and lerr == i))
        elif name == "gtpu":
            compare_gtpu(c, dd, t)


def compare_capture(dynpf, tshark, cap, verbose, extra_args=()):
    recs = run_dynpf(dynpf, cap)
    tpkts = run_tshark(tshark, cap, list(extra_args))
    c = Cmp(cap, verbose)
    for n, tl in enumerate(tpkts, 1):
        c.pkt = n
        rec = recs.get(n)
        if rec is None:
            c.check("record", None, "frame %d" % n)
            continue
        compare_packet(c, rec, tl)
    extra = sorted(k for k in recs if not 1 <= k <= len(tpkts))
    if extra:
        c.pkt = extra[0]
        c.check("packets", len(recs), len(tpkts))
    print("%s: %d packets, %d fields compared, %d mismatches, %d skipped"
          % (cap, len(tpkts), c.compared, c.mismatches, c.skipped))
    return c.mismatches
