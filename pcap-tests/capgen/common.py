# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Constants, random filler, header specs and the helpers every family uses."""
import ipaddress
import random
import struct

from scapy.packet import Raw


SEED = 0x64796E70  # "dynp"
TS0 = 1700000000  # capture timestamps: TS0 + (packet index) ms


# ---------------------------------------------------------------------------
# Addresses

MAC = ["02:00:00:00:00:%02x" % i for i in range(256)]
BCAST = "ff:ff:ff:ff:ff:ff"
C4, S4, R4 = "198.18.0.1", "198.18.0.2", "198.19.0.1"  # client, server, router
C6, S6 = "2001:db8::1", "2001:db8::2"
# IPv6 addresses whose RFC 5952 text needs care (json: the compressed form)
C6B = "2001:db8:0:0:1:0:0:1"   # -> 2001:db8::1:0:0:1 (first longest run)
S6B = "2001:db8:0:1:1:1:1:1"   # -> 2001:db8:0:1:1:1:1:1 (one 0 not compressed)
C6C = "2001:DB8:AB:CD::EF"     # -> 2001:db8:ab:cd::ef (lower case)

ETH_IPV4, ETH_ARP, ETH_IPV6 = 0x0800, 0x0806, 0x86DD
TPID_Q, TPID_AD = 0x8100, 0x88A8
L4_PROTOS = ("tcp", "udp", "icmp", "icmpv6")

# TCP flag bits
FIN, SYN, RST, PSH, ACK, URG, ECE, CWR = 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80

AUTO = object()  # a length field scapy computes; the expectation follows it


def v6text(a):
    return str(ipaddress.IPv6Address(a))  # RFC 5952 form


def rnd32():
    return random.getrandbits(32)


def rbytes(n):
    return bytes(random.getrandbits(8) for _ in range(n))


def text_payload(n):
    """n bytes of printable filler (deterministic)."""
    s = b"dynpf-test-payload-"
    return (s * (n // len(s) + 1))[:n]


# ---------------------------------------------------------------------------
# Header specs. A frame is a list of specs; each spec is one header (proto
# set: it becomes a layer if the walk reaches it) or opaque bytes (proto None:
# the walk never looks at them). Every spec carries the scapy object that
# produces its bytes and the fields its json object must show.


class Spec:
    def __init__(self, proto, hlen, pkt, key=None, fields=None, **kw):
        self.proto = proto      # layer name, or None for payload bytes
        self.hlen = hlen        # header bytes (layer len)
        self.pkt = pkt          # scapy packet producing the bytes
        self.key = key          # record key of the json object, if any
        self.fields = dict(fields or {})
        self.nxt = kw.get("nxt")        # eth/tag: ethertype that follows
        self.tag = kw.get("tag")        # tag: dict for eth.vlans
        self.opts = kw.get("opts")      # tcp: [(kind, len, rel_off)]
        self.bad_off = kw.get("bad_off")  # rel. offset of a bad option
        self.ext = kw.get("ext")        # ipv6: give the ABI-2 chain fields
        self.stack = kw.get("stack", 0)  # 0 outermost, 1 inside a tunnel
        # a header that fails with its error_off inside it (MPLS depth,
        # GTP-U extensions): offset relative to the header, layer not kept
        self.fail_off = kw.get("fail_off")


def as_raw(spec, data):
    """spec with its bytes replaced by data (e.g. the first bytes of a
    datagram built whole, so a first fragment carries its real checksum)."""
    assert len(data) == spec.hlen
    s = Spec(spec.proto, spec.hlen, Raw(load=data), spec.key, spec.fields,
             nxt=spec.nxt, tag=spec.tag, opts=spec.opts, ext=spec.ext,
             stack=spec.stack, fail_off=spec.fail_off)
    s.bad_off = spec.bad_off
    return s


def payload(data):
    return Spec(None, len(data), Raw(load=data))


def raw_hdr(proto, data):
    """Bytes that the walk will take as header `proto` (malformed ones)."""
    return Spec(proto, len(data), Raw(load=data))


# IPv6 extension headers: their layer names, next header values, the TLV
# family each one's options count in, and the walk's limits
EXT_PROTOS = ("hopopts", "routing", "fragment", "dstopts", "ah", "esp")
EXT_NH = {"hopopts": 0, "routing": 43, "fragment": 44, "dstopts": 60,
          "ah": 51, "esp": 50}
EXT_FAMILY = {"hopopts": "hopopts_opt", "dstopts": "dstopts_opt",
              "routing": "srh_tlv"}
MAX_EXT = 8
MAX_TLVS = 40


def option_area(opts, bad=None, pad=b"", eol=True, base=0):
    """An option area (TCP, IPv4, IPv6 options, SRH TLVs): the well-formed
    options opts (one bytes object each), then one malformed option bad
    (tlv_len), then pad (bytes after the walk's end, still in the area).

    Gives the area's bytes; [(type, len, rel_off)] of the options the walk
    records, offsets relative to the area (EOL and NOP, or Pad1 when eol is
    False, are 1 byte; EOL ends the walk); and the offset of bad (base +
    its offset in the area), None without one.
    """
    rel, walked = 0, []
    for i, o in enumerate(opts):
        if o[0] == 0 or (eol and o[0] == 1):
            assert len(o) == 1
            walked.append((o[0], 1, rel))
        else:
            assert len(o) >= 2 and o[1] + (0 if eol else 2) == len(o), o
            walked.append((o[0], len(o), rel))
        if eol and o[0] == 0:
            assert i == len(opts) - 1 and bad is None, "EOL ends the walk"
        rel += len(o)
    area = b"".join(opts) + (bad or b"") + pad
    return area, walked, None if bad is None else base + rel


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def offsets(specs):
    """The offset of each spec in the bytes of the list."""
    offs, off = [], 0
    for s in specs:
        offs.append(off)
        off += s.hlen
    return offs


def shift_err(err, k):
    """err, an (error, index of the failing spec) or None, with the index
    moved by k (the specs a frame builder puts in front)."""
    return None if err is None else (err[0], err[1] + k)


def cut_at(specs, cut):
    """specs cut after `cut` bytes: the headers before the cut whole, then
    the bytes of the header the cut falls in (the same proto and stack);
    and the index of that header."""
    offs, data = offsets(specs), blob(specs)
    j = max(i for i in range(len(specs)) if offs[i] <= cut)
    part = raw_hdr(specs[j].proto, data[offs[j]:cut])
    part.stack = specs[j].stack
    return specs[:j] + [part], j


def blob(specs):
    """The bytes of a list of specs."""
    if not specs:
        return b""
    chain = specs[0].pkt
    for s in specs[1:]:
        chain = chain / s.pkt
    return bytes(chain)
