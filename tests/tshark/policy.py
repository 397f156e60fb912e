# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Where dynpf reports a parse error: does tshark flag the same header?
The documented differences between the two are skipped, each saying why."""
from .chain import gre_bad_bits
from .jsonobj import dget, get, has_key, to_int
from .options import options_overrun
from .protos import EXT_NAMES, ICMP_8_BYTES


def cut_by_ip_length(rec, d, slayers):
    """True when dynpf's L4 header was cut by the IP total/payload length
    while the frame itself still had the bytes (Ethernet padding)."""
    off = rec.get("error_off")
    if rec.get("error_proto") not in ("tcp", "udp", "icmp", "icmpv6") and \
            rec.get("error_proto") not in EXT_NAMES or off is None:
        return False
    ip = [x for x in slayers if dget(x, "proto") in ("ipv4", "ipv6")]
    if not ip:
        return False
    ip4, ip6 = dget(d, "ipv4"), dget(d, "ipv6")
    if dget(ip[-1], "proto") == "ipv4" and isinstance(ip4, dict):
        end = ip[-1]["off"] + ip4.get("tot_len", 0)
    elif isinstance(ip6, dict):
        end = ip[-1]["off"] + 40 + ip6.get("payload_len", 0)
    else:
        return False
    return end < rec.get("len", 0)


def check_error(c, rec, st, d, slayers, names, idx):
    """dynpf found an error in this stack: does tshark agree that this
    header is bad?"""
    err = rec.get("error")
    err_layer = rec.get("error_layer")
    err_proto = rec.get("error_proto")
    lerr = None
    if err_layer is not None:
        lerr = idx.index(err_layer) if err_layer in idx else len(names)
    t = None
    if st is None:
        pass
    elif err_proto == "eth":
        t = st.eth
    elif err_proto in ("vlan", "qinq"):
        k = sum(1 for n in names if n in ("vlan", "qinq"))
        tags, _ = st.tag_list()
        if k < len(tags):
            t = tags[k][4]
        elif st.tags and st.tags[-1][0] == "ieee8021ad":
            t = st.tags[-1][1]   # may hold a (truncated) inner C-tag
    elif err_proto in EXT_NAMES:
        # The k-th extension header: kept in layers with an option
        # error, else the one after the last layer.
        n = lerr if lerr is not None else len(names)
        k = sum(1 for x in names[:n] if x in EXT_NAMES)
        t = st.ext_at(k, err_proto)
        if t is None and st.l3 is not None and st.l3[0] == "ipv6" and \
                k >= len(st.ext):
            # tshark threw before it could add the header's subtree:
            # the header it was in when it stopped takes the blame.
            t = st.l3[1]
            if st.stop_obj is not None and any(
                    st.stop_obj is o for _, o in st.ext):
                t = st.stop_obj
    elif err_proto == "mpls":
        # tshark shows each label entry as a layer of its own.
        bad = [o for o in st.mpls if st.agrees_bad(o)]
        t = bad[0] if bad else (st.mpls[-1] if st.mpls else None)
    else:
        t = st.layer(err_proto)
        if err_proto == "gtpu" and st.next is not None and \
                st.next[0] == "gtpv2" and st.agrees_bad(st.next[1]):
            t = st.next[1]   # tshark hands version 2 to its GTPv2 dissector
    if t is None:
        c.skip("error", "tshark has no %s header here" % err_proto)
    elif err == "tlv_len" and err_proto == "routing" and \
            not st.agrees_bad(t):
        c.skip("error", "tshark 4.0 does not dissect SRH TLVs")
    elif err == "bad_len" and err_proto == "ah" and \
            not st.agrees_bad(t) and (to_int(get(t, "ah.length"))
                                      or 0) < 1:
        c.skip("error", "tshark does not check the AH length against "
               "its 12 fixed bytes")
    elif err == "tlv_len" and id(t) in st.opts_bad:
        c.skip("error", "tshark's option dissection threw")
    elif st.agrees_bad(t) or (err == "tlv_len" and
                              err_proto in ("hopopts", "dstopts") and
                              options_overrun(t, err_proto)):
        c.check("error", "%s at %s" % (err, err_proto),
                "%s at %s" % (err, err_proto))
    elif err == "bad_hdr" and err_proto == "vxlan" and \
            to_int(get(t, "vxlan.flag_i")) == 0:
        c.skip("error", "tshark does not check the VXLAN I flag")
    elif err == "bad_hdr" and err_proto == "gre" and \
            gre_bad_bits(to_int(get(t, "gre.flags_and_version"))):
        c.skip("error", "tshark does not reject GRE routing or reserved "
               "bits")
    elif err == "bad_version" and err_proto == "ipv4" and \
            (to_int(get(t, "ip.version")) == 6 or has_key(t, "ipv6.version")):
        c.skip("error", "tshark dissects a version 6 header announced as "
               "IPv4 as IPv6")
    elif err in ("bad_version", "truncated") and err_proto == "gtpu" and \
            (to_int(get(t, "gtp.flags")) or 0) & 0xf0 != 0x30:
        c.skip("error", "tshark dissects other GTP versions and GTP' "
               "(PT 0, 6-byte header) as valid")
    elif err == "truncated" and err_proto == "gtpu" and \
            (to_int(get(t, "gtp.flags")) or 0) & 0x07 in (0x02,):
        c.skip("error", "with only S set, tshark reads the sequence number "
               "but not the N-PDU and next-type bytes dynpf needs")
    elif err == "truncated" and cut_by_ip_length(rec, d, slayers):
        # dynpf ends the datagram at the IP length (what follows is
        # link padding); tshark reads on into the padding.
        c.skip("error", "%s header cut by the IP length, not the frame"
               % err_proto)
    elif err == "truncated" and err_proto == "icmp" and \
            to_int(get(t, "icmp.type")) not in ICMP_8_BYTES:
        # dynpf needs the 8-byte header; for a type it does not know
        # tshark reads type, code and checksum only.
        c.skip("error", "tshark reads 4 bytes of an unknown ICMP type")
    else:
        c.check("error", "%s at %s" % (err, err_proto),
                "ok (%s not flagged)" % err_proto)
