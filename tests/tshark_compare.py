#!/usr/bin/python3
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Differential test: dynpf's native parse of a capture against tshark's.

Usage: tshark_compare.py --dynpf DYNPF [--verbose] CAPTURE.pcap [...]

For every capture this runs `DYNPF parse -j CAPTURE` (JSON lines, see
docs/json-output.md) and `tshark -r CAPTURE -T json` with reassembly,
relative sequence numbers and sequence analysis turned off, then compares,
packet by packet, the header fields both tools decode:

  frame   len (frame.len)
  eth     src, dst, ethertype after the VLAN tags, and per tag tpid, vid,
          pcp, dei (outermost first)
  arp     htype, ptype, hlen, plen, op; sha, tha, spa, tpa (Ethernet/IPv4)
  ipv4    src, dst, proto, ttl, tos, tot_len, id, hdr_len, df, mf,
          frag_off (8-byte units), nonfirst_frag
  ipv6    src, dst, next_header, hop_limit, tclass, flow_label, payload_len;
          per extension header (ext[i], in chain order): proto, next_header
          (not esp), len; hopopts/dstopts options (type/len list, len =
          tshark's data length + 2, Pad1 1), ra, jumbo, unknown_actions;
          routing routing_type, segments_left, and for SRH last_entry,
          srh_flags, tag (tshark 4.0 does not dissect SRH TLVs); fragment
          frag_off (8-byte units in both), m, id; ah/esp spi; ext_flags
          hbh_not_first and repeated, nonfirst_frag, from tshark's chain
  ipv4    (options) options (type/len list, EOL and NOP len 1, unknown
          types from tshark's "Unknown (0xNN) (N bytes)" text), ra, ts_ptr,
          ts_oflw, ts_flag, rr_ptr, rr_count (number of ip.rec_rt when the
          pointer is on an address boundary); the ipv4 layer len = IHL * 4
  tcp     sport, dport, seq, ack (raw), window, hdr_len, flags (low byte),
          options (kind/len list in order, NOP and EOL have len 1), mss,
          wscale, sack_perm, ts_val, ts_ecr, sack blocks
  udp     sport, dport, ulen
  icmp,   type, code; id and seq for echo request/reply
  icmpv6
  mpls    labels (label, tc, s, ttl per entry; tshark: one layer each)
  gre     flags word, version, proto, checksum_present, key (version 1:
          payload length << 16 | call ID), seq
  vxlan   flags (tshark's vxlan.flags >> 8), vni
  geneve  version, opt_len, oam, critical, proto, vni, options (class,
          type, len list; up to a bad option)
  gtpu    flags, version, msg_type, teid, seq (tshark shows it with S
          only), ext (the non-zero next-extension types in order)
  inner   the packet a tunnel (vxlan, geneve, gre, gtpu, IP in IP) carries:
          all of the above for dynpf's stack 1 (fields named inner.*),
          matched to the layers tshark shows after the tunnel header
  layers  the proto chain dynpf should have walked (inner layers as
          inner.NAME; a third stack as depth:NAME), derived from the header
          values tshark shows and the rules of docs/parsing.md (only when
          dynpf reports `ok` and tshark flags nothing)
  error   when dynpf reports a parse error (other than the by-design limits
          `depth` and `tlv_count`), tshark must flag that header too:
          malformed/short/unreassembled, an Error-severity expert item, or
          one of AGREE_EXPERTS (e.g. tcp.option.len.invalid for tlv_len)
  record  every frame tshark reads has a dynpf record

A field is compared only where dynpf parsed its layer (the layer is in
`layers`) and tshark has the same header at the same position of the layer
chain (tshark's top-level JSON layers aligned with frame.protocols; only
the first eth, VLAN tags, L3 and L4 are used, so encapsulated or quoted
headers are never compared). After a dynpf option error (tlv_len) the
options before the bad one are compared, as tshark's list stops there too.
Skipped, and counted as such: fields of a header tshark flags (a top-level
`_ws.malformed`/`_ws.short`/`_ws.unreassembled` blames the last protocol
tshark entered; an Error expert item or nested malformed item inside the
layer), fields tshark does not show, TCP options when tshark's option
sub-dissector (e.g. MPTCP) threw, the ethertype after a bad VLAN tag.

IPv6 extension headers are subtrees of tshark's ipv6 layer (ah as a nested
protocol, esp a layer of its own); they are matched to dynpf's by position
and flagged on their own. For IPv4 options, tshark's "too-short"/"goes past
end"/"length byte past end" items with length missing, 0 or 1 or past the
area agree with dynpf's tlv_len; tshark's own per-type minimum lengths end
its list without dynpf error (skipped). An options-header option running
past its header is shown by tshark without complaint: its list running past
the header length agrees with tlv_len. An AH length below 1 is not checked
by tshark. Options after one tshark steps over by its own rule (an
invalid length for the type; a CALIPSO option whose compartment length
disagrees with its length) are skipped. With a source route, ipv4 dst is
tshark's ip.cur_rt.

tshark representation handled here: tshark 4.0 shows ip.frag_offset in
8-byte units (like dynpf); tcp.flags has 12 bits (dynpf: the low byte); EOL
and NOP have no tcp.option_len (len 1); every zero byte after EOL is shown
as another EOL (the walk ends at the first); sack.dsack_le/re repeat the
first SACK block; MPTCP options are an `mptcp` subtree; two stacked 802.1ad
tags are one `ieee8021ad` layer with svid and cvid; TPID 0x9100 is taken for
a VLAN tag by tshark, not by dynpf; duplicate JSON keys are kept in order.
ip/ipv6 TSO support is off so that a total length of 0 is an error.

Output: `CAPTURE: pkt N: field: dynpf=X tshark=Y` per mismatch, then
`CAPTURE: N packets, M fields compared, K mismatches, S skipped`.
Exit status: 0 no mismatch, 1 some mismatch, 2 tshark or dynpf missing or
failing.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

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


SEV_ERROR = 0x00800000  # PI_ERROR in _ws.expert.severity

# Top-level items that tshark appends after the layer it stopped in.
STOP_MARKS = ("_ws.malformed", "_ws.short", "_ws.unreassembled")

# Expert items (any severity) by which tshark says a header is invalid in
# the way dynpf reports as a parse error.
AGREE_EXPERTS = {
    "ipv6.plen_exceeds_framing",   # payload length past the frame
    "tcp.option.len.invalid",      # option length 0/1/missing/overrunning
    "ip.bogus_ip_length",
    "ip.bogus_header_length",
    "ip.bogus_ip_version",
    "tcp.short_segment",
    "udp.length.bad",
    "udp.length.bad_zero",
    "geneve.version.unknown",       # bad_version
    "geneve.option.length.invalid",  # an option past the option area
}

# Subtrees whose expert items say nothing about the header's fixed part:
# TCP option problems are checked through the option list itself (tshark
# rates non-zero bytes after EOL an Error; dynpf ignores them by design).
NOT_FLAGGING = {"tcp.options_tree"}
# IPv6 extension headers are subtrees of the ipv6 layer (ah too, as a nested
# protocol; esp is a layer of its own): each is compared, and flagged, as a
# header of its own, so a bad option does not hide the fixed IPv6 header.
NOT_FLAGGING |= {"ipv6.hopopts", "ipv6.routing", "ipv6.fraghdr",
                 "ipv6.dstopts"}

TSHARK_L3 = {"arp": "arp", "ip": "ipv4", "ipv6": "ipv6"}
TSHARK_L4 = {"tcp": "tcp", "udp": "udp", "icmp": "icmp", "icmpv6": "icmpv6"}
# tshark layer of a tunnel header carried by UDP -> dynpf layer name
TSHARK_UDP_TUN = {"vxlan": "vxlan", "geneve": "geneve", "gtp": "gtpu"}
# UDP destination port -> dynpf's tunnel header (docs/parsing.md)
UDP_TUN_PORT = {4789: "vxlan", 6081: "geneve", 2152: "gtpu"}
TUNNELS = ("gre", "vxlan", "geneve", "gtpu")
MPLS_TYPES = (0x8847, 0x8848)
MAX_MPLS = 8
MAX_GTPU_EXT = 4
# GRE/Geneve protocol -> the header starting the inner stack
TUN_PROTO = {0x6558: "eth", 0x0800: "ipv4", 0x86dd: "ipv6", 0x8847: "mpls",
             0x8848: "mpls"}
IP_IN_IP = {4: "ipv4", 41: "ipv6"}
# tshark layer name -> the dynpf layer a stack may start with
TSHARK_START = {"eth": "eth", "ip": "ipv4", "ipv6": "ipv6", "mpls": "mpls"}
TAG_TPID = {0x8100: "vlan", 0x88a8: "qinq"}
MAX_TAGS = 4
ETHERTYPE_L3 = {0x0806: "arp", 0x0800: "ipv4", 0x86dd: "ipv6"}
IPV4_L4 = {6: "tcp", 17: "udp", 1: "icmp"}
IPV6_L4 = {6: "tcp", 17: "udp", 58: "icmpv6"}
# tshark key of an IPv6 extension header -> dynpf layer name
TSHARK_EXT = {"ipv6.hopopts": "hopopts", "ipv6.routing": "routing",
              "ipv6.fraghdr": "fragment", "ipv6.dstopts": "dstopts",
              "ah": "ah", "esp": "esp"}
IPV6_EXT = {0: "hopopts", 43: "routing", 44: "fragment", 60: "dstopts",
            51: "ah", 50: "esp"}
EXT_NAMES = set(IPV6_EXT.values())
# tshark's next header field of each extension header (esp has none)
EXT_NXT = {"hopopts": "ipv6.hopopts.nxt", "dstopts": "ipv6.dstopts.nxt",
           "routing": "ipv6.routing.nxt", "fragment": "ipv6.fraghdr.nxt",
           "ah": "ah.next_header"}
MAX_EXT = 8
MAX_STACKS = 2   # DYNPF_MAX_STACKS
IPV6_NO_NEXT = 59
# ICMP types whose 8-byte header tshark dissects in full
ICMP_8_BYTES = {0, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
ABSENT = "<absent>"


class Obj:
    """A JSON object that keeps every key, duplicates included, in order."""
    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs

    def __repr__(self):
        return "Obj(%r)" % (self.pairs,)


def is_proto_key(key):
    """A key naming a nested protocol layer (e.g. `ip` inside `icmp`)."""
    return re.fullmatch(r"[a-z0-9_]+", key) is not None


def find_all(obj, key, out=None):
    """Values of `key` in document order, searching subtrees of obj but not
    nested protocol layers."""
    if out is None:
        out = []
    if isinstance(obj, list):
        for v in obj:
            find_all(v, key, out)
        return out
    if not isinstance(obj, Obj):
        return out
    for k, v in obj.pairs:
        if k == key:
            out.append(v)
        if isinstance(v, (Obj, list)) and not is_proto_key(k):
            find_all(v, key, out)
    return out


def get(obj, key):
    """First value of `key`: a direct child first, else the first one found
    in the subtrees; None when missing."""
    if isinstance(obj, Obj):
        for k, v in obj.pairs:
            if k == key:
                return v
    vals = find_all(obj, key)
    return vals[0] if vals else None


def has_key(obj, key):
    """True when `key` occurs anywhere in obj, nested protocols included."""
    if isinstance(obj, list):
        return any(has_key(v, key) for v in obj)
    if not isinstance(obj, Obj):
        return False
    return any(k == key or has_key(v, key) for k, v in obj.pairs)


def flagged(obj):
    """True when a layer holds a malformed item or an Error expert item."""
    if isinstance(obj, list):
        return any(flagged(v) for v in obj)
    if not isinstance(obj, Obj):
        return False
    for k, v in obj.pairs:
        if k in STOP_MARKS:
            return True
        if k in NOT_FLAGGING:
            continue
        if k == "_ws.expert.severity":
            try:
                if int(v, 0) >= SEV_ERROR:
                    return True
            except (TypeError, ValueError):
                pass
        if isinstance(v, (Obj, list)) and not is_proto_key(k):
            if flagged(v):
                return True
    return False


def to_int(s):
    if s is None:
        return None
    if isinstance(s, list):
        s = s[0]
    if isinstance(s, int):
        return s
    s = str(s).strip()
    try:
        if s.lower().startswith("0x"):
            return int(s, 16)
        return int(s, 10)
    except ValueError:
        return None


def to_bool(s):
    v = to_int(s)
    return None if v is None else bool(v)


def to_str(s):
    if isinstance(s, list):
        s = s[0]
    return None if s is None else str(s)


# ---------------------------------------------------------------- tshark


def ext_children(obj):
    """[(tshark key, Obj)]: the IPv6 extension headers tshark shows inside
    an ipv6 layer, in order."""
    if not isinstance(obj, Obj):
        return []
    return [(k, v) for k, v in obj.pairs
            if k in TSHARK_EXT and isinstance(v, Obj)]


# tshark's texts for an IPv4 option whose length byte is unusable: these
# end its option list (and dynpf's walk, with tlv_len).
IPV4_OPT_BAD = re.compile(r"^(.*) \((with too-short option length = (\d+) "
                          r"bytes?|option length = \d+ bytes says option "
                          r"goes past end of options|length byte past end "
                          r"of options)\)$")
IPV4_OPT_UNKNOWN = re.compile(r"^Unknown \(0x([0-9a-fA-F]+)\) "
                              r"\((\d+) bytes?\)$")


def ipv4_options_tree(t):
    if not isinstance(t, Obj):
        return None
    for k, v in t.pairs:
        if k.startswith("Options: (") and isinstance(v, Obj):
            return v
    return None


def tshark_ipv4_options(t):
    """([(type, len, tree Obj or None)], stop) in wire order from tshark's
    IPv4 option area, or (None, None) when tshark shows none. stop is None
    when the list is complete, else the length tshark rejected the option
    after the list with (-1: missing or past the area)."""
    tree = ipv4_options_tree(t)
    if tree is None:
        return None, None
    opts = []
    for k, v in tree.pairs:
        m = IPV4_OPT_BAD.match(k)
        if m and has_key(v, "ip.opt.len.invalid"):
            return opts, (int(m.group(3)) if m.group(3) else -1)
        m = IPV4_OPT_UNKNOWN.match(k)
        if m:
            # Unknown types are a text item naming type and length.
            opts.append((int(m.group(1), 16), int(m.group(2)), None))
            continue
        if not isinstance(v, Obj):
            continue
        typ = to_int(get(v, "ip.opt.type"))
        if typ is None:
            continue
        ln = to_int(get(v, "ip.opt.len"))
        if ln is None and typ in (0, 1):
            ln = 1   # EOL and NOP have no length byte
        opts.append((typ, ln, v))
    return opts, None


def ipv4_option_errors(t):
    """True when tshark rejects an IPv4 option length as dynpf does
    (tlv_len): missing, 0, 1, or past the option area. A length tshark finds
    too short for the option type (e.g. 2 for Record Route) is not one."""
    opts, stop = tshark_ipv4_options(t)
    return stop is not None and stop < 2


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


class TLayers:
    """tshark's layer chain for one packet, mapped onto dynpf's positions."""

    def __init__(self, layers):
        self.frame = None
        self.eth = None
        self.tags = []       # (tshark name, Obj)
        self.l3 = None       # (dynpf name, Obj)
        self.l4 = None
        self.ext = []        # IPv6 extension headers: (dynpf name, Obj)
        self.bad = set()     # ids of flagged layer Obj
        self.complains = set()  # ids of layer Obj with an AGREE_EXPERTS item
        self.opts_bad = set()   # ids of tcp Obj whose option walk threw
        jseq = []
        trailers = []   # layers after the exception: Ethernet trailers
        stopped = False
        for k, v in layers.pairs:
            if k == "frame":
                self.frame = v
            elif k in STOP_MARKS:
                stopped = True
            elif stopped and not k.startswith("_ws"):
                trailers.append(k)
            elif not k.startswith("_ws"):
                jseq.append((k, v))
        # tshark leaves a layer it entered but could not add a field to
        # (e.g. 4 bytes of ICMP) out of the JSON; frame.protocols still
        # names it. Align the two, standing in an empty Obj for those.
        protos = [x for x in (to_str(get(self.frame, "frame.protocols"))
                              or "").split(":") if x and x != "ethertype"]
        # The JSON names GTP' "gtpprime", frame.protocols "gtp". A layer
        # frame.protocols does not name at all is a heuristic dissector's
        # leftover (e.g. "cups" on UDP port 631, which then hands on to
        # vxlan by the destination port): not a header of the packet.
        # A trailer dissector (vssmonitoring, ...) runs after the exception
        # that ended the packet: it is not the header that threw.
        for k in trailers:
            if k in protos:
                del protos[len(protos) - 1 - protos[::-1].index(k)]
        jseq = [("gtp" if k == "gtpprime" else k, v) for k, v in jseq]
        jseq = [(k, v) for k, v in jseq if k in protos]
        # A protocol dissected inside a layer (an MPTCP option in tcp, the
        # quoted header in icmp) is part of that layer.
        seq = []
        j = 0
        last = None      # (layer Obj, where) of the last protocol entered
        nested_ext = 0   # extension headers of the ipv6 layer entered
        for x in protos:
            if j < len(jseq) and jseq[j][0] == x:
                seq.append(jseq[j])
                j += 1
                # frame.protocols names MPLS once for all label entries;
                # the JSON has a layer per entry.
                while x == "mpls" and j < len(jseq) and jseq[j][0] == x:
                    seq.append(jseq[j])
                    j += 1
                last = (seq[-1][1], "layer")
                nested_ext = 0
            elif (seq and seq[-1][0] == "ipv6" and x in TSHARK_EXT
                  and nested_ext < len(ext_children(seq[-1][1]))
                  and ext_children(seq[-1][1])[nested_ext][0] == x):
                # An extension header inside the ipv6 layer: a header of
                # its own for the exception that may end the dissection.
                last = (ext_children(seq[-1][1])[nested_ext][1], "layer")
                nested_ext += 1
            elif seq and has_key(seq[-1][1], x):
                opts = get(seq[-1][1], "tcp.options_tree")
                last = (seq[-1][1], "options" if has_key(opts, x)
                        else "layer")
            elif seq and seq[-1][0] == x and not seq[-1][1].pairs and \
                    j >= len(jseq):
                # A header tshark could not add a field to cannot hold
                # another of its kind: frame.protocols names some twice
                # (arp:arp for a truncated ARP packet).
                pass
            else:
                seq.append((x, Obj([])))
                last = (seq[-1][1], "layer")
        seq += jseq[j:]
        # tshark's ip dissector hands a header of version 6 to ipv6 (the
        # ip layer then is empty or absent from the JSON): one header.
        merged = []
        for k, v in seq:
            if k == "ipv6" and merged and merged[-1][0] == "ip" and \
                    (not merged[-1][1].pairs or
                     to_int(get(merged[-1][1], "ip.version")) == 6):
                ip = merged[-1][1]
                merged[-1] = ("ip", Obj(ip.pairs + v.pairs))
                if last is not None and (last[0] is v or last[0] is ip):
                    last = (merged[-1][1], last[1])
                continue
            merged.append((k, v))
        seq = merged
        if j < len(jseq) or last is None:
            last = (seq[-1][1], "layer") if seq else None
        for k, v in seq + [e for k, v in seq if k == "ipv6"
                           for e in ext_children(v)]:
            if flagged(v):
                self.bad.add(id(v))
            if any(find_all(v, e) for e in AGREE_EXPERTS):
                self.complains.add(id(v))
            if k == "ip" and ipv4_option_errors(v):
                self.complains.add(id(v))
        self.stop_obj = last[0] if stopped and last is not None else None
        if stopped and last is not None:
            # The exception that ended the dissection (malformed, short
            # frame, fragment boundary) came from the last protocol entered.
            if last[1] == "options":
                self.opts_bad.add(id(last[0]))
            else:
                self.bad.add(id(last[0]))
        self.stacks = []
        if seq and seq[0][0] == "eth":
            self._walk(seq, 0)
        st = self.stacks[0] if self.stacks else TStack(self)
        # Stack 0 is what the rest of the script calls the packet's layers.
        self.eth, self.tags, self.l3, self.l4, self.ext = \
            st.eth, st.tags, st.l3, st.l4, st.ext

    def _walk(self, seq, i):
        """One stack of tshark's layers from seq[i]: link (eth and tags),
        MPLS labels, L3 (with IPv6 extension headers), L4, tunnel header;
        the packet a tunnel carries is the next stack."""
        st = TStack(self)
        self.stacks.append(st)
        if i < len(seq) and seq[i][0] == "eth":
            st.eth = seq[i][1]
            i += 1
            while i < len(seq) and seq[i][0] in ("vlan", "ieee8021ad"):
                st.tags.append(seq[i])
                i += 1
        while i < len(seq) and seq[i][0] == "mpls":
            st.mpls.append(seq[i][1])
            i += 1
        if i < len(seq):
            st.after_mpls = seq[i]
        if i < len(seq) and seq[i][0] in TSHARK_L3:
            st.l3 = (TSHARK_L3[seq[i][0]], seq[i][1])
            i += 1
            if st.l3[0] == "ipv6":
                st.ext = [(TSHARK_EXT[k], v)
                          for k, v in ext_children(st.l3[1])]
                while i < len(seq) and seq[i][0] in TSHARK_EXT:
                    st.ext.append((TSHARK_EXT[seq[i][0]], seq[i][1]))
                    i += 1
            if i < len(seq) and seq[i][0] in TSHARK_L4:
                st.l4 = (TSHARK_L4[seq[i][0]], seq[i][1])
                i += 1
        if i >= len(seq):
            return
        k = seq[i][0]
        if st.l4 is not None and st.l4[0] == "udp" and k in TSHARK_UDP_TUN:
            st.tunnel = (TSHARK_UDP_TUN[k], seq[i][1])
            i += 1
        elif st.l3 is not None and st.l3[0] != "arp" and st.l4 is None \
                and k == "gre":
            st.tunnel = ("gre", seq[i][1])
            i += 1
        elif st.l3 is not None and st.l3[0] != "arp" and st.l4 is None \
                and k in ("ip", "ipv6"):
            st.ipip = True
        else:
            return
        if i < len(seq):
            st.next = seq[i]
            if seq[i][0] in ("eth", "ip", "ipv6", "mpls"):
                self._walk(seq, i)

    def stack(self, s):
        return self.stacks[s] if s < len(self.stacks) else None


    def is_bad(self, obj):
        return obj is not None and id(obj) in self.bad

    def agrees_bad(self, obj):
        return obj is not None and (id(obj) in self.bad
                                    or id(obj) in self.complains)

    def tag_list(self):
        """[(tpid, vid, pcp, dei, Obj)] as dynpf would see them, and the
        ethertype after them (the first non-tag type)."""
        et = to_int(get(self.eth, "eth.type"))
        if et is None:
            et = to_int(get(self.eth, "eth.len"))
        tags = []
        for name, obj in self.tags:
            if et not in TAG_TPID:
                break      # e.g. 0x9100, which tshark takes as a tag
            if name == "ieee8021ad":
                pcps = find_all(obj, "ieee8021ad.priority")
                deis = find_all(obj, "ieee8021ad.dei")
                nxt = get(obj, "ieee8021ah.etype")
                if nxt is None:
                    nxt = get(obj, "ieee8021ad.etype")
                cvid = get(obj, "ieee8021ad.cvid")
                if cvid is not None and len(pcps) == 2 and len(deis) == 2:
                    # An 802.1ad tag right inside an 802.1ad tag: tshark
                    # shows both in one layer, as S-VID and C-VID.
                    tags.append((et, to_int(get(obj, "ieee8021ad.svid")),
                                 to_int(pcps[0]), to_int(deis[0]), obj))
                    tags.append((0x88a8, to_int(cvid), to_int(pcps[1]),
                                 to_int(deis[1]), obj))
                    et = to_int(nxt)
                    continue
                vid = get(obj, "ieee8021ad.id")
                if vid is None:
                    vid = get(obj, "ieee8021ad.svid")
                pcp = pcps[0] if pcps else None
                dei = deis[0] if deis else None
            else:
                vid = get(obj, "vlan.id")
                pcp = get(obj, "vlan.priority")
                dei = get(obj, "vlan.dei")
                if dei is None:
                    dei = get(obj, "vlan.cfi")
                nxt = get(obj, "vlan.etype")
                if nxt is None:
                    nxt = get(obj, "vlan.len")
            tags.append((et, to_int(vid), to_int(pcp), to_int(dei), obj))
            et = to_int(nxt)
        return tags, et


class TStack:
    """tshark's layers of one stack (the packet, or the one a tunnel
    carries), mapped onto dynpf's positions."""

    def __init__(self, top):
        self.top = top
        self.eth = None
        self.tags = []       # (tshark name, Obj)
        self.mpls = []       # one Obj per label entry
        self.after_mpls = None  # (tshark name, Obj) after the link layers
        self.l3 = None       # (dynpf name, Obj)
        self.l4 = None
        self.ext = []        # IPv6 extension headers: (dynpf name, Obj)
        self.tunnel = None   # (dynpf name, Obj)
        self.ipip = False    # an IP header follows the L3 header directly
        self.next = None     # (tshark name, Obj) after the tunnel header

    @property
    def opts_bad(self):
        return self.top.opts_bad

    @property
    def stop_obj(self):
        return self.top.stop_obj

    def layer(self, name):
        """The tshark Obj dissecting dynpf layer `name`, or None."""
        if name == "eth":
            return self.eth
        if name == "mpls":
            return self.mpls[0] if self.mpls else None
        for lay in (self.l3, self.l4, self.tunnel):
            if lay is not None and lay[0] == name:
                return lay[1]
        return None

    def objs(self):
        """Every tshark layer Obj of this stack."""
        return [o for o in [self.eth] + [o for _, o in self.tags] +
                self.mpls + [x[1] for x in (self.l3, self.l4, self.tunnel)
                             if x is not None] + [o for _, o in self.ext]
                if o is not None]

    def ext_at(self, k, name):
        """tshark's k-th IPv6 extension header if it is a `name`, or None."""
        if k < len(self.ext) and self.ext[k][0] == name:
            return self.ext[k][1]
        return None

    def is_bad(self, obj):
        return self.top.is_bad(obj)

    def agrees_bad(self, obj):
        return self.top.agrees_bad(obj)

    def is_bad_any(self, objs):
        return any(self.is_bad(o) for o in objs)

    def tag_list(self):
        return TLayers.tag_list(self)


# ---------------------------------------------------------------- compare


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


def dget(d, key):
    v = d.get(key) if isinstance(d, dict) else None
    return v


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
GTPU_FIELDS = ["flags", "version", "msg_type", "teid", "seq", "ext"]
FIELDS = {"mpls": MPLS_FIELDS, "gre": GRE_FIELDS, "vxlan": VXLAN_FIELDS,
          "geneve": GENEVE_FIELDS, "gtpu": GTPU_FIELDS,
          "eth": ETH_FIELDS, "arp": ARP_FIELDS, "ipv4": IPV4_FIELDS,
          "ipv6": IPV6_FIELDS, "tcp": TCP_FIELDS + TCP_OPT_FIELDS,
          "udp": UDP_FIELDS, "icmp": ICMP_FIELDS, "icmpv6": ICMP_FIELDS}


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


def compare_ipv4(c, d, t):
    tos = get(t, "ip.dsfield")
    if tos is None:
        tos = get(t, "ip.tos")
    fo = to_int(get(t, "ip.frag_offset"))
    vals = {
        "src": to_str(get(t, "ip.src")),
        # With a source route option tshark shows the final destination
        # as ip.dst and the header's as ip.cur_rt.
        "dst": to_str(get(t, "ip.cur_rt") or get(t, "ip.dst")),
        "proto": to_int(get(t, "ip.proto")),
        "ttl": to_int(get(t, "ip.ttl")),
        "tos": to_int(tos),
        "tot_len": to_int(get(t, "ip.len")),
        "id": to_int(get(t, "ip.id")),
        "hdr_len": to_int(get(t, "ip.hdr_len")),
        "df": to_bool(get(t, "ip.flags.df")),
        "mf": to_bool(get(t, "ip.flags.mf")),
        # tshark 4.0 shows ip.frag_offset in 8-byte units, like dynpf.
        "frag_off": fo,
        "nonfirst_frag": None if fo is None else fo != 0,
    }
    compare_plain(c, "ipv4", d, vals)
    opts, stop = tshark_ipv4_options(t)
    if opts is None:
        if (vals["hdr_len"] or 20) > 20:
            c.skip("ipv4.options", "tshark shows no option area")
        return
    dopts = [[dget(o, "type"), dget(o, "len")]
             for o in dget(d, "options") or []]
    topts = [[k, ln] for k, ln, _ in opts]
    if stop is not None and stop >= 2:
        # tshark's own minimum length for the type ends its list; dynpf
        # walks on (any length >= 2 is valid for it).
        c.skip("ipv4.options", "tshark stops at a length too short for "
               "the option type")
        dopts = dopts[:len(topts)]
    c.check("ipv4.options", dopts, topts)

    def decoded(typ, good_len):
        return [v for k, ln, v in opts
                if k == typ and v is not None and good_len(ln)]

    ra = [to_int(get(v, "ip.opt.ra")) for v in decoded(148, lambda n: n == 4)]
    ts = decoded(68, lambda n: n is not None and n >= 4)
    rr = decoded(7, lambda n: n is not None and n >= 3)
    rrc = []
    for v in rr:
        ptr = to_int(get(v, "ip.opt.ptr"))
        if ptr is not None and ptr >= 4 and ptr % 4 == 0:
            # tshark lists the recorded addresses unless the pointer is
            # before the first or inside one (dynpf counts (ptr - 4) / 4).
            rrc.append(len(find_all(v, "ip.rec_rt")))
        elif dget(d, "rr_count") is not None:
            c.skip("ipv4.rr_count", "tshark lists no addresses for pointer "
                   "%s" % ptr)
            rrc = None
            break
    partial = stop is not None
    for key, tvals in (
            ("ra", ra),
            ("ts_ptr", [to_int(get(v, "ip.opt.ptr")) for v in ts]),
            ("ts_oflw", [to_int(get(v, "ip.opt.overflow")) for v in ts]),
            ("ts_flag", [to_int(get(v, "ip.opt.flag")) for v in ts]),
            ("rr_ptr", [to_int(get(v, "ip.opt.ptr")) for v in rr]),
            ("rr_count", rrc)):
        if tvals is not None:
            opt_one(c, d, key, tvals, partial, "ipv4")


def compare_ipv6(c, d, t):
    vals = {
        "src": to_str(get(t, "ipv6.src")),
        "dst": to_str(get(t, "ipv6.dst")),
        "next_header": to_int(get(t, "ipv6.nxt")),
        "hop_limit": to_int(get(t, "ipv6.hlim")),
        "tclass": to_int(get(t, "ipv6.tclass")),
        "flow_label": to_int(get(t, "ipv6.flow")),
        "payload_len": to_int(get(t, "ipv6.plen")),
    }
    compare_plain(c, "ipv6", d, vals)


def tshark_ipv6_options(t):
    """[(type, len)] of a hop-by-hop/destination options header in wire
    order; len as dynpf counts it (data length + 2, Pad1 1). Stops at an
    option tshark could not read the length of."""
    opts = []
    for k, v in t.pairs:
        if k != "ipv6.opt" or not isinstance(v, Obj):
            continue
        typ = to_int(get(v, "ipv6.opt.type"))
        ln = to_int(get(v, "ipv6.opt.length"))
        if typ is None or (ln is None and typ != 0):
            break
        opts.append((typ, 1 if typ == 0 else ln + 2, v))
    return opts


def calipso_misread(typ, ln, v):
    """True for a CALIPSO option (RFC 5570, type 7) whose compartment
    length disagrees with its option length: tshark 4.0 reads the bitmap by
    the compartment length and goes on from there, past the option."""
    if typ != 7 or v is None:
        return False
    n = to_int(get(v, "ipv6.opt.calipso.cmpt.length"))
    return n is not None and 2 + 8 + 4 * n != ln


def options_overrun(t, name):
    """True when tshark's option list for an options header runs past the
    header (tshark 4.0 shows such an option without a complaint)."""
    hl = to_int(get(t, "ipv6.%s.len_oct" % name))
    return hl is not None and \
        sum(ln for _, ln, _ in tshark_ipv6_options(t)) > hl - 2


def ext_len(name, t):
    """The header length tshark gives for an extension header, or None."""
    if name in ("hopopts", "dstopts", "routing"):
        return to_int(get(t, "ipv6.%s.len_oct" % name))
    if name == "fragment":
        return 8
    if name == "ah":
        n = to_int(get(t, "ah.length"))
        return None if n is None else (n + 2) * 4
    return None   # esp: dynpf counts SPI and sequence (8)


def compare_ipv6_ext(c, d, tl, err_k, overflow, stopped_at=None):
    """dynpf's ipv6.ext list against tshark's extension headers; err_k is
    the index of the header holding dynpf's tlv_len error, or None;
    overflow is the record's tlv_overflow; stopped_at the extension header
    dynpf stopped in with an error (not in its list), or None."""
    dext = dget(d, "ext")
    if not isinstance(dext, list):
        return
    for k, de in enumerate(dext):
        name = dget(de, "proto")
        f = "ipv6.ext[%d]." % k
        if k >= len(tl.ext):
            c.skip(f[:-1], "tshark has no extension header here")
            continue
        if not c.check(f + "proto", name, tl.ext[k][0]):
            continue
        t = tl.ext[k][1]
        partial = k == err_k
        if tl.is_bad(t) and not partial:
            c.skip(f[:-1], "tshark flags this %s header" % name)
            continue
        nxt = EXT_NXT.get(name)
        vals = {}
        if nxt is not None:
            vals["next_header"] = to_int(get(t, nxt))
        if name != "esp":
            vals["len"] = ext_len(name, t)
        if name in ("hopopts", "dstopts"):
            opts = tshark_ipv6_options(t)
            dopts = [[dget(o, "type"), dget(o, "len")]
                     for o in dget(de, "options") or []]
            topts = [[ty, ln] for ty, ln, _ in opts]
            if partial:
                # tshark shows the option dynpf rejected, or part of it.
                topts = topts[:len(dopts)]
            bad = [i for i, (ty, ln, v) in enumerate(opts)
                   if has_key(v, "ipv6.opt.invalid_len") or
                   calipso_misread(ty, ln, v)]
            if bad and len(dopts) > bad[0] + 1:
                # tshark steps over an option with a length it finds wrong
                # for the type (e.g. Router Alert) by the type's own size,
                # and over a CALIPSO option by its compartment length.
                c.skip(f + "options", "tshark misreads the options after "
                       "one with an invalid length")
                dopts, topts = dopts[:bad[0] + 1], topts[:bad[0] + 1]
            area = (vals["len"] or 0) - 2
            tsum = sum(ln for _, ln, _ in opts)
            if not partial and not bad and tsum != area:
                # Some tshark option dissectors (MPL, SMF_DPD, ...) read
                # their fixed fields past a shorter option length and go on
                # from there: tshark's list then does not tile the area.
                c.skip(f + "options", "tshark's options cover %d of the "
                       "%d-byte area" % (tsum, area))
                opts = dopts = topts = None
            fam = name + "_opt"
            if opts is not None and dget(overflow, fam) and \
                    len(dopts) < len(topts):
                c.skip(f + "options", "dynpf keeps %d %s entries"
                       % (len(dopts), fam))
                topts = topts[:len(dopts)]
            if opts is not None and dopts != topts:
                # CALIPSO (7), SMF_DPD (8) and MPL (0x6d): tshark reads
                # their own length fields, past a shorter option length,
                # and goes on from there (seen with a dynpf tlv_len error
                # too, where the area check above does not apply).
                k = next((i for i, (a, b) in enumerate(zip(dopts, topts))
                          if a != b), min(len(dopts), len(topts)))
                odd = [ty for ty, _ in dopts[:k] if ty in (7, 8, 0x6d)]
                if odd:
                    c.skip(f + "options", "tshark reads option type %d by "
                           "its own fields" % odd[-1])
                    dopts, topts = dopts[:k], topts[:k]
            if opts is not None:
                c.check(f + "options", dopts, topts)
            for key, typ, good, tk in (("ra", 5, 4, "ipv6.opt.router_alert"),
                                       ("jumbo", 0xC2, 6, "ipv6.opt.jumbo")):
                if opts is None:
                    break
                tv = [to_int(get(v, tk)) for ty, ln, v in opts
                      if ty == typ and ln == good]
                opt_one(c, de, key, tv, partial, f[:-1])
            if not partial and opts is not None:
                c.check(f + "unknown_actions", dget(de, "unknown_actions"),
                        sorted(set(ty >> 6 for ty, _, _ in opts
                                   if ty not in (0, 1, 5, 0xC2))))
        elif name == "routing":
            rt = to_int(get(t, "ipv6.routing.type"))
            vals["routing_type"] = rt
            vals["segments_left"] = to_int(get(t, "ipv6.routing.segleft"))
            if rt == 4:
                tag = to_str(get(t, "ipv6.routing.srh.tag"))
                vals["last_entry"] = to_int(get(t, "ipv6.routing.srh.last_entry"))
                vals["srh_flags"] = to_int(get(t, "ipv6.routing.srh.flags"))
                vals["tag"] = None if tag is None else \
                    int(tag.replace(":", "") or "0", 16)
                if dget(de, "tlvs"):
                    c.skip(f + "tlvs", "tshark 4.0 does not dissect SRH TLVs")
        elif name == "fragment":
            # tshark 4.0 shows ipv6.fraghdr.offset in 8-byte units.
            vals["frag_off"] = to_int(get(t, "ipv6.fraghdr.offset"))
            vals["m"] = to_bool(get(t, "ipv6.fraghdr.more"))
            vals["id"] = to_int(get(t, "ipv6.fraghdr.ident"))
        elif name in ("ah", "esp"):
            vals["spi"] = to_int(get(t, name + ".spi"))
        compare_plain(c, f[:-1], de, vals)
    # Chain-wide flags, from the headers dynpf walked as tshark shows them.
    names = [n for n, _ in tl.ext[:len(dext)]]
    if len(names) < len(dext) or any(tl.is_bad(o) for _, o in
                                      tl.ext[:len(dext)]):
        return
    if stopped_at is not None:
        # dynpf counts the header it stopped in (named by the next header
        # field before it) in the flags, as tshark names it.
        if dext:
            nxt = to_int(get(tl.ext[len(dext) - 1][1],
                             EXT_NXT.get(tl.ext[len(dext) - 1][0], "")))
        else:
            nxt = to_int(get(tl.l3[1], "ipv6.nxt"))
        if nxt in IPV6_EXT:
            names.append(IPV6_EXT[nxt])
    fl = dget(d, "ext_flags") or {}
    c.check("ipv6.ext_flags.hbh_not_first", dget(fl, "hbh_not_first"),
            "hopopts" in names[1:])
    c.check("ipv6.ext_flags.repeated", dget(fl, "repeated"),
            any(names.count(n) > (2 if n == "dstopts" else 1)
                for n in set(names)))
    fo = [to_int(get(o, "ipv6.fraghdr.offset")) for n, o in
          tl.ext[:len(dext)] if n == "fragment"]
    if None not in fo:
        c.check("ipv6.nonfirst_frag", dget(d, "nonfirst_frag"),
                any(x != 0 for x in fo))


def compare_plain(c, name, d, vals):
    for k, tv in vals.items():
        if tv is None:
            c.skip("%s.%s" % (name, k), "tshark does not show it")
        else:
            c.check("%s.%s" % (name, k), dget(d, k), tv)


def tshark_tcp_options(t):
    """[(kind, len, tree Obj)] in wire order from tcp.options_tree, or None
    when tshark shows no option area."""
    tree = get(t, "tcp.options_tree")
    if tree is None:
        return None
    opts = []
    for k, v in tree.pairs:
        # Each option is a subtree (`tcp.options.mss_tree`, or a protocol
        # such as `mptcp`) holding tcp.option_kind. Options tshark finds
        # invalid are a text item with only an expert note (and end the
        # list, like dynpf's walk).
        if not isinstance(v, Obj):
            continue
        kind = to_int(get(v, "tcp.option_kind"))
        if kind is None:
            continue
        ln = to_int(get(v, "tcp.option_len"))
        if ln is None and kind in (0, 1):
            ln = 1   # EOL and NOP have no length byte
        opts.append((kind, ln, v))
        if kind == 0:
            # tshark shows every padding byte after EOL as one more EOL;
            # the walk (dynpf's and RFC 9293's) ends at the first.
            break
    return opts


def compare_tcp(c, d, t, partial=False, opts_bad=False):
    vals = {
        "sport": to_int(get(t, "tcp.srcport")),
        "dport": to_int(get(t, "tcp.dstport")),
        "seq": to_int(get(t, "tcp.seq_raw")),
        "ack": to_int(get(t, "tcp.ack_raw")),
        "window": to_int(get(t, "tcp.window_size_value")),
        "hdr_len": to_int(get(t, "tcp.hdr_len")),
    }
    fl = to_int(get(t, "tcp.flags"))
    # tcp.flags holds 12 bits (reserved, AE/NS); dynpf's is the CWR..FIN byte.
    vals["flags"] = None if fl is None else fl & 0xff
    compare_plain(c, "tcp", d, vals)
    if opts_bad:
        n = sum(1 for k in TCP_OPT_FIELDS if k in d)
        c.skip("tcp.options", "tshark's option dissection threw", n=n)
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


def opt_one(c, d, key, tvals, partial, name="tcp"):
    """A decoded option: absent on both sides, or equal. With the option
    repeated, dynpf's value must be one of tshark's. After an option error
    (partial), a value dynpf did not decode is not held against it."""
    dv = dget(d, key)
    if not tvals and dv is None:
        return
    if partial and dv is None:
        c.skip(name + "." + key, "not decoded by dynpf after an option "
               "error")
        return
    if len(tvals) > 1:
        if dv in tvals:
            c.skip(name + "." + key, "option repeated; dynpf's value is "
                   "one of tshark's")
            return
        c.check(name + "." + key, dv, tvals)
        return
    c.check(name + "." + key, dv, tvals[0] if tvals else None)


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
    else:
        nxt = to_int(get(t, "ipv6.nxt"))
        k = 0
        while nxt in IPV6_EXT:
            # The extension headers, in tshark's order; esp and a
            # non-first fragment end the walk, next header 59 as well.
            name = IPV6_EXT[nxt]
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
        l4map = IPV6_L4
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
        if gre_bad_bits(fv):
            return False     # bad_hdr
        if ver != 0:
            return True
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


def gtpu_ext(t):
    """The GTP-U extension header types tshark walked, in order."""
    out = []
    for v in find_all(t, "gtp.ext_hdr.next"):
        v = to_int(v)
        if not v:
            break
        out.append(v)
    return out


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


def tshark_geneve_options(t):
    """[(class, type, len)] of the Geneve options tshark shows, and whether
    it found one past the option area."""
    opts = []
    bad = False
    tree = get(t, "geneve.options_tree")
    if tree is None:
        return opts, bad
    for k, v in tree.pairs:
        if k != "geneve.option_tree" or not isinstance(v, Obj):
            continue
        if has_key(v, "geneve.option.length.invalid"):
            bad = True
            break
        opts.append([to_int(get(v, "geneve.option.class")),
                     to_int(get(v, "geneve.option.type")),
                     to_int(get(v, "geneve.option.length"))])
    if has_key(t, "geneve.option.length.invalid"):
        bad = True
    return opts, bad


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
        "teid": to_int(get(t, "gtp.teid"))})
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
    elif err not in ("depth", "tlv_count") and err_stack is not None:
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
            # With options, the layer is IHL * 4 bytes long.
            c.check("layers[%d].len" % idx[i], dget(slayers[i], "len"),
                    to_int(get(t, "ip.hdr_len")))
        elif name == "ipv6":
            compare_ipv6(c, dd, t)
            err_k = None
            if err == "tlv_len" and err_proto in EXT_NAMES and \
                    lerr is not None:
                err_k = sum(1 for n in names[:lerr] if n in EXT_NAMES)
            stopped_at = None
            if err not in ("ok", "depth", "tlv_count") and \
                    err_proto in EXT_NAMES and \
                    (lerr is None or lerr >= len(names)):
                stopped_at = err_proto
            compare_ipv6_ext(c, dd, st, err_k, rec.get("tlv_overflow"),
                             stopped_at)
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


# ---------------------------------------------------------------- main


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


def main(argv):
    ap = argparse.ArgumentParser(
        description="Compare dynpf's parse of captures with tshark's.")
    ap.add_argument("--dynpf", required=True, help="path to the dynpf binary")
    ap.add_argument("--tshark", default="tshark", help="tshark to run")
    ap.add_argument("--tshark-opt", action="append", default=[],
                    metavar="ARG", help="extra tshark argument (repeatable), "
                    "e.g. --tshark-opt=--disable-protocol=dns")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print every compared or skipped field")
    ap.add_argument("captures", nargs="+", metavar="CAPTURE.pcap")
    a = ap.parse_args(argv)

    tshark = shutil.which(a.tshark)
    if tshark is None:
        print("error: tshark not found (%s); install tshark" % a.tshark,
              file=sys.stderr)
        return 2
    if not (os.path.isfile(a.dynpf) and os.access(a.dynpf, os.X_OK)):
        print("error: dynpf binary not found or not executable: %s "
              "(build it with make)" % a.dynpf, file=sys.stderr)
        return 2
    for cap in a.captures:
        if not os.path.isfile(cap):
            print("error: no such capture: %s" % cap, file=sys.stderr)
            return 2
    total = 0
    for cap in a.captures:
        try:
            total += compare_capture(a.dynpf, tshark, cap, a.verbose,
                                     a.tshark_opt)
        except (RuntimeError, OSError) as e:
            print("error: %s" % e, file=sys.stderr)
            return 2
        sys.stdout.flush()
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
