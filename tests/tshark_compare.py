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
          frag_off (8-byte units), nonfirst_frag; ext: per AH or ESP
          behind it (tshark's ah and esp layers after ip, in order) proto,
          next_header (not esp), len, spi
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
  gtpu    flags, version, msg_type, teid, length (gtp.length), seq
          (tshark shows it with S only), ext (the non-zero next-extension
          types in order)
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
          one of AGREE_EXPERTS (e.g. tcp.option.len.invalid for tlv_len;
          RFC 2675's jumbo experts for bad_hdr at hopopts, which count for
          the hop-by-hop header wherever tshark puts them)
  record  every frame tshark reads has a dynpf record

Where dynpf knowingly differs from tshark (its limits, its policy on bad
option lengths, RFC checks tshark does not make, what tshark reads
differently), the field or the error is skipped under the difference's key:
tshark/policy.py's DIFFERENCES, each with its line in docs/parsing.md
("Where dynpf and tshark differ"; tests/check_docs.py holds the two lists
together). --verbose prints the key of every such skip.

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

This script is the command line; the comparison is the package tshark/
beside it (tshark/__init__.py says which module does what).
"""
import argparse
import os
import sys

from tshark.compare import compare_capture
from tshark.run import find_tools


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

    tshark = find_tools(a.tshark, a.dynpf)
    if tshark is None:
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
