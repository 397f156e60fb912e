# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The capture malformed: one packet for each way a header can fail."""
import struct

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from .common import (ACK, BCAST, C4, C6, ETH_ARP, ETH_IPV4, MAC, S4, S6, SYN, Spec, TPID_AD,
                     TPID_Q, payload, raw_hdr, rbytes, rnd32)
from .capture import Capture
from .l2 import arp, eth, eth_v4, eth_v6, tag
from .ipv4 import ipv4, ipv4_raw
from .ipv6 import ipv6
from .l4 import LINUX_SYN, MSS, NOP, SACKP, TS, icmp, icmp6_echo, l4_bytes, tcp, udp


# ---------------------------------------------------------------------------
# malformed


def cap_malformed():
    c = Capture("malformed", "malformed and truncated headers")
    full_v4udp = [eth_v4(), ipv4(C4, S4, 17, ident=0x500), udp(45000, 9),
                  payload(rbytes(32))]
    # runts
    for n in (1, 6, 13):
        c.add("runt frame of %d bytes: truncated at eth" % n,
              raw_hdr("eth", bytes.fromhex("020000000002020000000001"
                                           "0800")[:n]),
              err=("truncated", 0))
    c.add("14-byte frame, ethertype IPv4 and nothing after: truncated ipv4",
          eth_v4(), raw_hdr("ipv4", b""), err=("truncated", 1))
    # vlan tag truncated
    c.add("802.1Q tag truncated (2 of 4 bytes)",
          eth(MAC[2], MAC[1], TPID_Q), tag(TPID_Q, 5, ETH_IPV4),
          *full_v4udp[1:], cut=16, err=("truncated", 1))
    c.add("QinQ: inner 802.1Q tag truncated (3 of 4 bytes)",
          eth(MAC[2], MAC[1], TPID_AD), tag(TPID_AD, 5, TPID_Q),
          tag(TPID_Q, 6, ETH_IPV4), *full_v4udp[1:], cut=21,
          err=("truncated", 2))
    # ipv4 / ipv6 fixed header truncated
    c.add("IPv4 header truncated (19 bytes)", *full_v4udp, cut=14 + 19,
          err=("truncated", 1))
    c.add("IPv4 header truncated (1 byte)", *full_v4udp, cut=15,
          err=("truncated", 1))
    v6udp = [eth_v6(), ipv6(C6, S6, 17), udp(45001, 9), payload(rbytes(16))]
    c.add("IPv6 header truncated (39 bytes)", *v6udp, cut=14 + 39,
          err=("truncated", 1))
    # ARP truncated
    arpf = [eth(BCAST, MAC[1], ETH_ARP),
            arp(1, MAC[1], C4, "00:00:00:00:00:00", S4)]
    c.add("ARP fixed part truncated (7 bytes)", *arpf, cut=14 + 7,
          err=("truncated", 1))
    c.add("ARP Ethernet/IPv4 addresses truncated (27 of 28 bytes)", *arpf,
          cut=14 + 27, err=("truncated", 1))
    c.add("ARP hlen 16 plen 16 (needs 72 bytes), frame has 46",
          eth(BCAST, MAC[1], ETH_ARP),
          raw_hdr("arp", struct.pack("!HHBBH", 1, ETH_IPV4, 16, 16, 1)),
          pad_to=60, err=("truncated", 1))

    # L4 truncated: IP lengths consistent, L4 header short
    def short_l4(desc, ip, l4, n, pad_to=None, v6=False):
        b = l4_bytes(ip, l4)[:n]
        ip2 = (ipv6(C6, S6, ip.fields["next_header"]) if v6 else
               ipv4(C4, S4, ip.fields["proto"], ident=ip.fields["id"]))
        c.add(desc, eth_v6() if v6 else eth_v4(), ip2, raw_hdr(l4.proto, b),
              pad_to=pad_to, err=("truncated", 2))

    ip6 = ipv4(C4, S4, 6, ident=0x501)
    t = tcp(45002, 80, rnd32(), 0, SYN, 64240, LINUX_SYN(rnd32()))
    short_l4("TCP header truncated (19 bytes, frame ends)", ip6, t, 19)
    short_l4("TCP header truncated (10 bytes) hidden by Ethernet padding "
             "(frame 60)", ip6, t, 10, pad_to=60)
    ip17 = ipv4(C4, S4, 17, ident=0x502)
    short_l4("UDP header truncated (7 bytes)", ip17, udp(45003, 9), 7)
    short_l4("UDP header truncated (4 bytes) hidden by padding", ip17,
             udp(45003, 9), 4, pad_to=60)
    ip1 = ipv4(C4, S4, 1, ident=0x503)
    short_l4("ICMP header truncated (7 bytes)", ip1, icmp(8, 0, 1, 1), 7)
    short_l4("ICMP header truncated (4 bytes) hidden by padding", ip1,
             icmp(8, 0, 1, 1), 4, pad_to=60)
    ip58 = ipv6(C6, S6, 58)
    short_l4("ICMPv6 header truncated (4 bytes)", ip58,
             icmp6_echo(True, 1, 1), 4, v6=True)
    ip6t = ipv6(C6, S6, 6)
    short_l4("IPv6/TCP header truncated (12 bytes), 20 bytes of trailer "
             "after payload_len", ip6t, t, 12, v6=True, pad_to=14 + 40 + 32)

    # IPv4 length fields
    tcpb = l4_bytes(ip6, t)
    for ihl in range(0, 5):
        c.add("IPv4 IHL %d (< 5): bad_len" % ihl, eth_v4(),
              ipv4_raw(C4, S4, 6, 20 + len(tcpb), ihl=ihl),
              payload(tcpb), err=("bad_len", 1))
    c.add("IPv4 IHL 6 but total length 20 (< IHL*4): bad_len", eth_v4(),
          ipv4_raw(C4, S4, 17, 20, ihl=6, opts=b"\x94\x04\x00\x00"),
          payload(rbytes(30)), err=("bad_len", 1))
    c.add("IPv4 IHL 15 but total length 56 (< 60): bad_len", eth_v4(),
          ipv4_raw(C4, S4, 17, 56, ihl=15, opts=b"\x01" * 40),
          payload(rbytes(30)), err=("bad_len", 1))
    c.add("IPv4 total length 0 (IHL 5): bad_len", eth_v4(),
          ipv4_raw(C4, S4, 6, 0), payload(tcpb), err=("bad_len", 1))
    c.add("IPv4 IHL 15, total length 60, frame has 40 bytes of IP: "
          "truncated", eth_v4(),
          ipv4_raw(C4, S4, 17, 60, ihl=15, opts=b"\x01" * 20),
          err=("truncated", 1))
    c.add("IPv4 total length one past the frame: truncated", eth_v4(),
          ipv4(C4, S4, 17, ident=0x504, tot_len=20 + 8 + 32 + 1),
          udp(45004, 9), payload(rbytes(32)), err=("truncated", 1))
    c.add("IPv4 total length 1500, frame of 60: truncated", eth_v4(),
          ipv4(C4, S4, 17, ident=0x505, tot_len=1500), udp(45005, 9),
          payload(rbytes(8)), pad_to=60, err=("truncated", 1))
    # version mismatch
    c.add("ethertype IPv4 carrying an IPv6 packet (version 6): bad_version",
          eth_v4(), Spec("ipv4", 40, IPv6(src=C6, dst=S6, nh=17) /
                         UDP(sport=45006, dport=9) / Raw(load=rbytes(20))),
          err=("bad_version", 1))
    c.add("ethertype IPv6 carrying an IPv4/UDP packet (version 4, 60 "
          "bytes): bad_version", eth_v6(),
          Spec("ipv6", 40, IP(src=C4, dst=S4, proto=17) /
               UDP(sport=45007, dport=9) / Raw(load=rbytes(32))),
          err=("bad_version", 1))
    c.add("ethertype IPv4, version 0: bad_version", eth_v4(),
          ipv4_raw(C4, S4, 6, 40, ver=0), payload(tcpb[:20]),
          err=("bad_version", 1))
    c.add("ethertype IPv4, version 15: bad_version", eth_v4(),
          ipv4_raw(C4, S4, 6, 40, ver=15), payload(tcpb[:20]),
          err=("bad_version", 1))
    c.add("ethertype IPv6, version 0 (40 zero bytes + 8): bad_version",
          eth_v6(), raw_hdr("ipv6", b"\0" * 48), err=("bad_version", 1))

    # TCP data offset
    def tcp_doff(desc, doff, data=b"", err="bad_len", pad_to=None):
        c.add(desc, eth_v4(), ipv4(C4, S4, 6, ident=0x510 + doff),
              tcp(45010 + doff, 80, rnd32(), rnd32(), ACK, 500, doff=doff),
              payload(data) if data else payload(b""), pad_to=pad_to,
              err=(err, 2))

    for d in range(0, 5):
        tcp_doff("TCP data offset %d (< 5): bad_len" % d, d, rbytes(24))
    tcp_doff("TCP data offset 15, 20 bytes of TCP + 10 of data: truncated",
             15, rbytes(10), "truncated")
    tcp_doff("TCP data offset 6, 20 bytes of TCP + 3: truncated (one short)",
             6, rbytes(3), "truncated")
    tcp_doff("TCP data offset 6, TCP ends at tot_len, padding would cover "
             "it: truncated", 6, b"", "truncated", pad_to=60)

    # TCP option errors: tcp is a layer, error_off is the option's offset
    def bad_opt(desc, opts, bad, pad=b"", data=b""):
        t = tcp(45020, 9, rnd32(), rnd32(), ACK, 1000, opts, pad, bad=bad)
        specs = [eth_v4(), ipv4(C4, S4, 6, ident=0x520), t]
        if data:
            specs.append(payload(data))
        c.add(desc, *specs, err=("tlv_len", 2))

    bad_opt("option length 0 (kind 8) after MSS", [MSS(1460)],
            b"\x08\x00", pad=b"\0" * 6 + b"\x01\x01\x01\x01")
    bad_opt("option length 0 as the first option (kind 30)", [],
            b"\x1e\x00", pad=b"\x01\x01")
    bad_opt("option length 1 (kind 3) after NOP NOP", [NOP, NOP],
            b"\x03\x01", pad=b"\x07\x00\x00\x00")
    bad_opt("unknown kind 200 with length 1", [NOP], b"\xc8\x01",
            pad=b"\x00")
    bad_opt("option overruns the area by 6 (SACK len 10 with 4 bytes left),"
            " data follows", [NOP, NOP, TS(1, 2)], b"\x05\x0a\x00\x00",
            data=rbytes(20))
    bad_opt("option overruns the area by 1 (TS len 10 with 9 left)",
            [NOP, NOP, NOP], b"\x08\x0a" + b"\x00" * 7, data=rbytes(20))
    bad_opt("option length 255 (first option)", [], b"\x05\xff\x00\x00",
            data=rbytes(300))
    bad_opt("area ends after a kind byte (kind 2, no length byte)",
            [NOP, NOP, NOP], b"\x02", data=b"\x04\x05\xb4" + rbytes(10))
    bad_opt("area ends after a kind byte, full options before it",
            [MSS(1460), SACKP, TS(5, 6), NOP, NOP, NOP], b"\x08")
    # UDP length
    c.add("UDP length 0: bad_len", eth_v4(), ipv4(C4, S4, 17, ident=0x530),
          udp(45030, 9, ulen=0), payload(rbytes(20)), err=("bad_len", 2))
    c.add("UDP length 7: bad_len", eth_v4(), ipv4(C4, S4, 17, ident=0x531),
          udp(45031, 9, ulen=7), payload(rbytes(20)), err=("bad_len", 2))
    c.add("UDP length one past the IP payload: truncated", eth_v4(),
          ipv4(C4, S4, 17, ident=0x532), udp(45032, 9, ulen=8 + 20 + 1),
          payload(rbytes(20)), err=("truncated", 2))
    c.add("UDP length past the IP payload but inside Ethernet padding: "
          "truncated", eth_v4(), ipv4(C4, S4, 17, ident=0x533),
          udp(45033, 9, ulen=12), payload(b"abc"), pad_to=60,
          err=("truncated", 2))
    c.add("IPv6/UDP length one past payload_len: truncated", eth_v6(),
          ipv6(C6, S6, 17), udp(45034, 9, ulen=8 + 20 + 1),
          payload(rbytes(20)), err=("truncated", 2))
    c.add("UDP length 8 with 20 more bytes in the IP payload: ok", eth_v4(),
          ipv4(C4, S4, 17, ident=0x534), udp(45035, 9, ulen=8),
          payload(rbytes(20)))
    # IPv6 payload length
    c.add("IPv6 payload length one past the frame: truncated", eth_v6(),
          ipv6(C6, S6, 17, plen=8 + 24 + 1), udp(45036, 9),
          payload(rbytes(24)), err=("truncated", 1))
    c.add("IPv6 payload length 1000, frame of 94: truncated", eth_v6(),
          ipv6(C6, S6, 6, plen=1000),
          tcp(45037, 80, rnd32(), 0, SYN, 1000, LINUX_SYN(5)),
          err=("truncated", 1))
    c.add("IPv6 payload length shorter than the frame (trailer ignored): ok",
          eth_v6(), ipv6(C6, S6, 17), udp(45038, 9), payload(rbytes(12)),
          trail=rbytes(30))
    return c
