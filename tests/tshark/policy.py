# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Where dynpf reports a parse error: does tshark flag the same header?
And the known differences between the two (DIFFERENCES): where dynpf
knowingly reports something else than tshark 4.0, the comparison skips the
field or the error under the difference's key, never silently."""
from .chain import gre_bad_bits
from .jsonobj import dget, get, has_key, to_int
from .options import options_overrun
from .protos import EXT_NAMES, ICMP_8_BYTES, TUNNELS


# Every known difference, by key. docs/parsing.md ("Where dynpf and tshark
# differ") has one line for each key, saying why; tests/check_docs.py
# checks that the two lists are the same and that every key is used here.
DIFFERENCES = {
    # dynpf's limits
    "limits": "dynpf's limits (tags, MPLS entries, extension headers, "
              "GTP-U extensions, stacks, TLVs kept): depth and tlv_count are "
              "by design",
    # dynpf's policy on option lengths
    "ipv4_option_min_len": "tshark ends its IPv4 option list at a length too "
                           "short for the type; dynpf walks any length >= 2",
    "ip6_option_type_len": "tshark steps over an IPv6 option with a length "
                           "wrong for its type by the type's own size",
    "ip6_option_own_fields": "tshark reads CALIPSO, SMF_DPD and MPL options "
                             "by their own length fields",
    "ip6_option_overrun": "an IPv6 option past its header: tshark lists it "
                          "without a complaint",
    "option_repeated": "a decoded option repeated: dynpf keeps one value",
    "no_decode_after_tlv_len": "after tlv_len dynpf decodes no option",
    "rr_pointer": "Record Route pointer off an address boundary: tshark "
                  "lists no address",
    "tcp_after_eol": "bytes after TCP EOL: dynpf ignores them, tshark rates "
                     "non-zero ones an error",
    "option_threw": "tshark's option sub-dissector threw",
    # RFC checks tshark does not make
    "ah_len_short": "AH shorter than its 12 fixed bytes: tshark does not "
                    "check",
    "vxlan_i_flag": "VXLAN I flag clear: tshark does not check",
    "gre_reserved_bits": "GRE R or reserved bits: tshark does not check",
    "gre_version": "GRE versions 2-7: tshark does not check",
    "gtp_versions": "GTP versions other than 1 and GTP' (PT 0): tshark "
                    "dissects them",
    "gtpu_length_short": "GTP-U Length too short for the optional fields: "
                         "tshark does not check",
    "gtpu_length_past": "GTP-U Length past the datagram: tshark does not "
                        "check",
    "ip_length_cut": "a header cut by the IP length, not the frame: tshark "
                     "reads on into the link padding",
    # what tshark reads differently
    "no_header": "tshark shows no such header there",
    "empty_udp_payload": "UDP length 8 on a tunnel port: tshark dissects no "
                         "tunnel header",
    "tunnel_port_other": "a UDP datagram to a tunnel's port from a lower port "
                         "tshark gives another protocol (it tries the lower "
                         "port first): it dissects no tunnel",
    "ipv4_version_6": "version 6 under the IPv4 ethertype: tshark dissects "
                      "it as IPv6",
    "gtpu_s_only": "GTP-U with only S: tshark reads the sequence number "
                   "alone",
    "icmp_unknown_type": "ICMP of a type tshark does not know: it reads 4 "
                         "bytes",
    "srh_tlvs": "tshark 4.0 does not dissect SRH TLVs",
    "ip6_opt_header": "an IPv6 option type in both a hop-by-hop and a "
                      "destination options header: a display filter cannot "
                      "tie tshark's ipv6.opt to its header",
    "option_len_for_type": "an option of a length wrong for its type: dynpf "
                           "tests its bytes by its length, tshark decodes "
                           "no value from it",
    "stops_at_error": "dynpf stops at a header it finds bad: no byte test "
                      "holds on what follows; tshark dissects on",
    "gre_payload": "a GRE payload dynpf does not parse (version 1, other "
                   "protocols): its walk ends; tshark dissects it",
    "tshark_no_tap": "tshark runs no tap on the frame (an exception in an "
                     "ICMP error's quoted packet): its filters say nothing",
    "tshark_threw": "tshark threw (Malformed Packet): nothing after the "
                    "point where it stopped",
    "tpid_9100": "TPID 0x9100: a tag to tshark, an unknown ethertype to "
                 "dynpf",
    "checksums": "checksums are not verified (tshark's checks are off)",
    "tso": "IPv4/IPv6 total length 0 is bad_len (tshark's TSO support is "
           "off)",
}


def known(c, key, field="error", n=1):
    """Skip field (n fields) for the known difference key."""
    c.skip(field, "%s: %s" % (key, DIFFERENCES[key]), n=n)


def documented(key):
    """The text of the known difference key, for a place that takes
    dynpf's side of it without skipping a field (a tshark option)."""
    return DIFFERENCES[key]


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
    if t is None and err == "truncated" and err_proto in TUNNELS and \
            st.l4 is not None and st.l4[0] == "udp" and \
            to_int(get(st.l4[1], "udp.length")) == 8:
        known(c, "empty_udp_payload")
    elif t is None:
        known(c, "no_header")
    elif err == "tlv_len" and err_proto == "routing" and \
            not st.agrees_bad(t):
        known(c, "srh_tlvs")
    elif err == "bad_len" and err_proto == "ah" and \
            not st.agrees_bad(t) and (to_int(get(t, "ah.length"))
                                      or 0) < 1:
        known(c, "ah_len_short")
    elif err == "tlv_len" and id(t) in st.opts_bad:
        known(c, "option_threw")
    elif st.agrees_bad(t):
        c.check("error", "%s at %s" % (err, err_proto),
                "%s at %s" % (err, err_proto))
    elif err == "tlv_len" and err_proto in ("hopopts", "dstopts") and \
            options_overrun(t, err_proto):
        known(c, "ip6_option_overrun")
    elif err == "tlv_len" and err_proto in ("hopopts", "dstopts") and \
            own_fields_before(d, err_proto):
        # tshark reads CALIPSO, SMF_DPD and MPL by their own length
        # fields and goes on from where they end, not where dynpf does.
        known(c, "ip6_option_own_fields")
    elif err == "bad_hdr" and err_proto == "vxlan" and \
            to_int(get(t, "vxlan.flag_i")) == 0:
        known(c, "vxlan_i_flag")
    elif err == "bad_hdr" and err_proto == "gre" and \
            gre_bad_bits(to_int(get(t, "gre.flags_and_version"))):
        known(c, "gre_reserved_bits")
    elif err == "bad_version" and err_proto == "gre" and \
            (to_int(get(t, "gre.flags_and_version")) or 0) & 7 > 1:
        known(c, "gre_version")
    elif err == "bad_version" and err_proto == "ipv4" and \
            (to_int(get(t, "ip.version")) == 6 or has_key(t, "ipv6.version")):
        known(c, "ipv4_version_6")
    elif err in ("bad_version", "truncated") and err_proto == "gtpu" and \
            (to_int(get(t, "gtp.flags")) or 0) & 0xf0 != 0x30:
        known(c, "gtp_versions")
    elif err == "bad_len" and err_proto == "gtpu" and \
            (to_int(get(t, "gtp.flags")) or 0) & 0x07 and \
            (to_int(get(t, "gtp.length")) or 0) < 4:
        known(c, "gtpu_length_short")
    elif err == "truncated" and err_proto == "gtpu" and \
            gtpu_length_past(t, st):
        known(c, "gtpu_length_past")
    elif err == "truncated" and err_proto == "gtpu" and \
            (to_int(get(t, "gtp.flags")) or 0) & 0x07 in (0x02,):
        known(c, "gtpu_s_only")
    elif err == "truncated" and cut_by_ip_length(rec, d, slayers):
        # dynpf ends the datagram at the IP length (what follows is
        # link padding); tshark reads on into the padding.
        known(c, "ip_length_cut")
    elif err == "truncated" and err_proto == "icmp" and \
            to_int(get(t, "icmp.type")) not in ICMP_8_BYTES:
        # dynpf needs the 8-byte header; for a type it does not know
        # tshark reads type, code and checksum only.
        known(c, "icmp_unknown_type")
    else:
        c.check("error", "%s at %s" % (err, err_proto),
                "ok (%s not flagged)" % err_proto)


def own_fields_before(d, name):
    """True when dynpf walked a CALIPSO (7), SMF_DPD (8) or MPL (0x6d)
    option of its options header name before the option it failed on:
    from there tshark steps by the option's own fields."""
    for e in dget(dget(d, "ipv6"), "ext") or []:
        if dget(e, "proto") == name and \
                any(dget(o, "type") in (7, 8, 0x6D)
                    for o in dget(e, "options") or []):
            return True
    return False


def gtpu_length_past(t, st):
    """True when the GTP-U Length tshark shows runs past the UDP datagram
    that carries the header (8 bytes of it, then Length bytes)."""
    glen = to_int(get(t, "gtp.length"))
    if glen is None or st.l4 is None or st.l4[0] != "udp":
        return False
    ulen = to_int(get(st.l4[1], "udp.length"))
    return ulen is not None and 8 + 8 + glen > ulen
