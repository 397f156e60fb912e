# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The layer chain dynpf should walk, derived from the header values
tshark shows and the rules of docs/parsing.md."""
from .jsonobj import get, to_int, to_str
from .options import gtpu_ext
from .protos import (
    ETHERTYPE_L3, EXT_NXT, IPV4_EXT, IPV4_L4, IPV6_EXT, IPV6_L4, IP_IN_IP, MAX_EXT, MAX_GTPU_EXT,
    MAX_MPLS, MAX_STACKS, MAX_TAGS, MPLS_TYPES, TAG_TPID, TUN_PROTO, UDP_TUN_PORT)


def first_nibble(lay):
    """The first nibble of the header tshark shows as lay (name, Obj), as
    far as its fields tell, or None."""
    if lay is None:
        return None
    k, o = lay
    if k == "ip":
        v = to_int(get(o, "ip.version"))
        return 4 if v is None else v
    if k == "ipv6":
        v = to_int(get(o, "ipv6.version"))
        return 6 if v is None else v
    if k == "data":
        b = to_str(get(o, "data.data"))
        if b:
            return int(b[0], 16)
    if k == "pwethcw":
        return 0     # a pseudowire control word starts with nibble 0
    return None


def expected_chain(tl):
    """The layer chain docs/parsing.md gives for the header values tshark
    shows (layers of the inner stack as `inner.NAME`, a header that would
    start a third stack as `depth:NAME`), or None when they are not enough
    to tell."""
    chain = []
    if not stack_chain(tl, 0, "eth", chain):
        return None
    return chain


def stack_chain(tl, s, start, chain):
    """Append stack s of the chain, starting with header `start`; False
    when tshark's values do not tell (or dynpf must stop with an error)."""
    if s >= MAX_STACKS:
        chain.append("depth:" + start)
        return True
    st = tl.stack(s)
    if st is None:
        return False
    pre = "inner." if s else ""
    if start == "eth":
        if st.eth is None:
            return False
        chain.append(pre + "eth")
        tags, et = st.tag_list()
        if len(tags) > MAX_TAGS:
            return False
        chain += [pre + TAG_TPID[tg[0]] for tg in tags]
        if et in MPLS_TYPES:
            start = "mpls"
        else:
            start = ETHERTYPE_L3.get(et)
            if start is None:
                return True
    if start == "mpls":
        n = 0
        for o in st.mpls:
            n += 1
            if to_int(get(o, "mpls.bottom")):
                break
        else:
            return False     # no bottom of stack shown
        if n > MAX_MPLS:
            return False     # depth
        chain.append(pre + "mpls")
        if n < len(st.mpls):
            return False     # tshark reads more labels: cannot tell
        if st.after_mpls is None:
            return False
        nib = first_nibble(st.after_mpls)
        if nib is None:
            return False
        start = {4: "ipv4", 6: "ipv6"}.get(nib)
        if start is None:
            return True
    if st.l3 is None or st.l3[0] != start:
        return False
    chain.append(pre + start)
    t = st.l3[1]
    if start == "arp":
        return True
    if start == "ipv4":
        fo = to_int(get(t, "ip.frag_offset"))
        nxt = to_int(get(t, "ip.proto"))
        if fo is None or nxt is None:
            return False
        if fo != 0:
            return True
        l4map = IPV4_L4
        exts = IPV4_EXT
    else:
        nxt = to_int(get(t, "ipv6.nxt"))
        l4map = IPV6_L4
        exts = IPV6_EXT
    k = 0
    while nxt in exts:
        # The extension headers, in tshark's order (behind IPv4: AH
        # and ESP); esp and a non-first fragment end the walk, next
        # header 59 as well.
        name = exts[nxt]
        x = st.ext_at(k, name)
        if x is None or k >= MAX_EXT:
            return False
        chain.append(pre + name)
        k += 1
        if name == "esp":
            return True
        if name == "fragment":
            fo = to_int(get(x, "ipv6.fraghdr.offset"))
            if fo is None:
                return False
            if fo != 0:
                return True
        nxt = to_int(get(x, EXT_NXT[name]))
    if nxt is None:
        return False
    if nxt in l4map:
        chain.append(pre + l4map[nxt])
        if l4map[nxt] != "udp":
            return True
        if st.l4 is None or st.l4[0] != "udp":
            return False
        tun = UDP_TUN_PORT.get(to_int(get(st.l4[1], "udp.dstport")))
        if tun is None:
            return True
        if st.tunnel is None or st.tunnel[0] != tun:
            return False     # tshark took the port for another protocol
        chain.append(pre + tun)
        return tunnel_chain(tl, s, st, chain)
    if nxt == 47:
        if st.tunnel is None or st.tunnel[0] != "gre":
            return False
        chain.append(pre + "gre")
        return tunnel_chain(tl, s, st, chain)
    if nxt in IP_IN_IP:
        if not st.ipip and s + 1 < MAX_STACKS:
            return False
        return stack_chain(tl, s + 1, IP_IN_IP[nxt], chain)
    return True


def tunnel_chain(tl, s, st, chain):
    """After the tunnel header of stack s: the inner stack's chain."""
    name, t = st.tunnel
    if name == "vxlan":
        fl = to_int(get(t, "vxlan.flags"))
        if fl is None or not (fl >> 8) & 0x08:
            return False     # bad_hdr
        return stack_chain(tl, s + 1, "eth", chain)
    if name == "geneve":
        if to_int(get(t, "geneve.version")) != 0:
            return False     # bad_version
        inner = TUN_PROTO.get(to_int(get(t, "geneve.proto_type")))
        return True if inner is None else \
            stack_chain(tl, s + 1, inner, chain)
    if name == "gre":
        fv = to_int(get(t, "gre.flags_and_version"))
        if fv is None:
            return False
        ver = fv & 7
        if ver > 1:
            return False     # bad_version
        if gre_bad_bits(fv):
            return False     # bad_hdr
        if ver == 1:
            return True      # PPTP: the payload is not parsed
        inner = TUN_PROTO.get(to_int(get(t, "gre.proto")))
        return True if inner is None else \
            stack_chain(tl, s + 1, inner, chain)
    if name == "gtpu":
        fl = to_int(get(t, "gtp.flags"))
        if fl is None or fl >> 5 != 1 or not fl & 0x10:
            return False     # bad_version
        if len(gtpu_ext(t)) > MAX_GTPU_EXT:
            return False     # depth
        if to_int(get(t, "gtp.message")) != 255:
            return True
        nib = first_nibble(st.next)
        if nib is None:
            return False
        inner = {4: "ipv4", 6: "ipv6"}.get(nib)
        return True if inner is None else \
            stack_chain(tl, s + 1, inner, chain)
    return False


def gre_bad_bits(fv):
    """True when the GRE flags word has bit R or a reserved bit set (0x0ff8;
    version 1 may set its acknowledgment bit 0x0080): dynpf's bad_hdr."""
    if fv is None:
        return False
    return bool(fv & 0x4000 or fv & (0x0f78 if fv & 7 == 1 else 0x0ff8))
