# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The captures eth_basic, vlan and tcp_options."""
import struct

from scapy.layers.dns import DNS, DNSQR, DNSRR
from scapy.layers.inet import ICMP, IP, IPerror, UDP, UDPerror
from scapy.layers.inet6 import IPv6ExtHdrHopByHop, RouterAlert
from scapy.layers.l2 import Dot3, LLC, STP
from scapy.packet import Raw

from .common import (ACK, BCAST, C4, C6, C6B, C6C, CWR, ECE, ETH_ARP, ETH_IPV4, ETH_IPV6, FIN, MAC,
                     PSH, R4, RST, S4, S6, S6B, SYN, Spec, TPID_AD, TPID_Q, URG, payload, rbytes,
                     rnd32, text_payload)
from .capture import Capture
from .l2 import arp, arp_raw, eth, eth_v4, eth_v6, tag
from .ipv4 import RA4, RR4, ipv4
from .ipv6 import PADN, RA6, hbh, ipv6
from .l4 import (EOL, LINUX_SYN, MSS, NOP, OPT, SACK, SACKP, TS, WS, icmp, icmp6_echo, icmp6_ns,
                 icmp_unreach, tcp, ts_opts, udp)


# ---------------------------------------------------------------------------
# eth_basic


def cap_eth_basic():
    c = Capture("eth_basic", "well-formed traffic of every protocol")
    cs, ss = rnd32(), rnd32()      # client / server ISN
    ct, st = rnd32(), rnd32()      # client / server TS clocks
    sp = 40122
    c.add("IPv4/TCP SYN, Linux options MSS SACK-perm TS NOP WS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c46, df=True),
          tcp(sp, 80, cs, 0, SYN, 64240, LINUX_SYN(ct)))
    c.add("IPv4/TCP SYN-ACK, MSS SACK-perm TS NOP WS",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 6, ident=0, df=True),
          tcp(80, sp, ss, cs + 1, SYN | ACK, 65160,
              [MSS(1460), SACKP, TS(st, ct), NOP, WS(7)]))
    c.add("IPv4/TCP ACK, NOP NOP TS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c47, df=True),
          tcp(sp, 80, cs + 1, ss + 1, ACK, 502, [NOP, NOP, TS(ct + 1, st)]))
    req = b"GET / HTTP/1.1\r\nHost: www.example.test\r\nAccept: */*\r\n\r\n"
    c.add("IPv4/TCP PSH-ACK with data, NOP NOP TS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c48, df=True),
          tcp(sp, 80, cs + 1, ss + 1, PSH | ACK, 502,
              [NOP, NOP, TS(ct + 1, st)]), payload(req))
    c.add("IPv4/TCP FIN-ACK, NOP NOP TS",
          eth_v4(), ipv4(C4, S4, 6, ident=0x1c49, df=True),
          tcp(sp, 80, cs + 1 + len(req), ss + 1, FIN | ACK, 502,
              [NOP, NOP, TS(ct + 5, st + 4)]))
    c.add("IPv4/TCP RST, no options, padded to 60",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 6, ident=0, df=True),
          tcp(80, sp, ss + 1, 0, RST, 0), pad_to=60)
    c.add("IPv4/TCP SYN with ECE+CWR (ECN setup)",
          eth_v4(), ipv4(C4, S4, 6, ident=0x2000, df=True, tos=0x00),
          tcp(sp + 1, 443, rnd32(), 0, SYN | ECE | CWR, 64240,
              LINUX_SYN(ct + 9)))
    c.add("IPv4/TCP URG-PSH-ACK, TOS 0xb8 (EF)",
          eth_v4(), ipv4(C4, S4, 6, ident=0x2001, tos=0xB8, ttl=255),
          tcp(sp + 2, 23, rnd32(), rnd32(), URG | PSH | ACK, 1024,
              urgptr=1), payload(b"\xff\xf4\xff\xfd\x06"))
    dnsq = DNS(id=0x4a21, rd=1, qd=DNSQR(qname="www.example.test", qtype="A"))
    c.add("IPv4/UDP DNS query",
          eth_v4(), ipv4(C4, R4, 17, ident=0x3e01), udp(53001, 53),
          Spec(None, len(bytes(dnsq)), dnsq))
    dnsr = DNS(id=0x4a21, qr=1, rd=1, ra=1,
               qd=DNSQR(qname="www.example.test", qtype="A"),
               an=DNSRR(rrname="www.example.test", type="A", ttl=300,
                        rdata="198.18.0.2"))
    c.add("IPv4/UDP DNS response",
          eth_v4(MAC[3], MAC[1]), ipv4(R4, C4, 17, ident=0x9b1f, ttl=63),
          udp(53, 53001), Spec(None, len(bytes(dnsr)), dnsr))
    ping = bytes(range(0x10, 0x10 + 48)) + struct.pack("!Q", 0x1122334455)
    c.add("IPv4/ICMP echo request",
          eth_v4(), ipv4(C4, S4, 1, ident=0x51a0, df=True),
          icmp(8, 0, 0x1234, 1, ping))
    c.add("IPv4/ICMP echo reply",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 1, ident=0x7f3e),
          icmp(0, 0, 0x1234, 1, ping))
    c.add("IPv4/ICMP destination unreachable (port), quoting IPv4/UDP",
          eth_v4(MAC[2], MAC[1]), ipv4(S4, C4, 1, ident=0x7f3f, tos=0xc0),
          icmp_unreach(3, IPerror(src=C4, dst=S4, id=0x3e02, ttl=64) /
                       UDPerror(sport=53002, dport=33434, len=20) /
                       Raw(load=b"\0" * 12)))
    c.add("IPv4/ICMP time exceeded, quoting IPv4/UDP",
          eth_v4(MAC[3], MAC[1]), ipv4(R4, C4, 1, ident=0x0001),
          Spec("icmp", 8, ICMP(type=11, code=0) /
               IPerror(src=C4, dst=S4, id=0x3e03, ttl=1) /
               UDPerror(sport=53003, dport=33435, len=8), "icmp",
               {"type": 11, "code": 0}))
    c.add("IPv4 with Router Alert option (IHL 6)/UDP",
          eth_v4(), ipv4(C4, S4, 17, ttl=1, ident=0x44, opts=[RA4(0)]),
          udp(5000, 5001), payload(text_payload(16)))
    c.add("IPv4 IHL 15 (Record Route)/TCP SYN with 40 bytes of options",
          eth_v4(), ipv4(C4, S4, 6, ident=0x45,
                         opts=[RR4(4, 9, [R4] * 9), EOL]),
          tcp(sp + 3, 80, rnd32(), 0, SYN, 64240,
              LINUX_SYN(ct + 20) + [OPT(34, 18, 0x5c), NOP, NOP]))
    c.add("IPv6/TCP SYN, MSS SACK-perm TS NOP WS, tclass and flow label",
          eth_v6(), ipv6(C6, S6, 6, tc=0x28, fl=0x5A3E1),
          tcp(41000, 443, rnd32(), 0, SYN, 64800,
              LINUX_SYN(ct + 30, mss=1440)))
    c.add("IPv6/TCP ACK with data",
          eth_v6(), ipv6(C6, S6, 6, fl=0x5A3E1),
          tcp(41000, 443, rnd32(), rnd32(), PSH | ACK, 507,
              [NOP, NOP, TS(ct + 31, st + 7)]), payload(rbytes(200)))
    dns6 = DNS(id=0x0b0b, rd=1, qd=DNSQR(qname="www.example.test",
                                         qtype="AAAA"))
    c.add("IPv6/UDP DNS AAAA query (RFC 5952: 2001:db8::1:0:0:1)",
          eth_v6(), ipv6(C6B, S6B, 17), udp(53004, 53),
          Spec(None, len(bytes(dns6)), dns6))
    data6 = bytes(range(56))
    c.add("IPv6/ICMPv6 echo request",
          eth_v6(), ipv6(C6, S6, 58), icmp6_echo(True, 0x0bad, 7, data6))
    c.add("IPv6/ICMPv6 echo reply",
          eth_v6(MAC[2], MAC[1]), ipv6(S6, C6, 58, hlim=64),
          icmp6_echo(False, 0x0bad, 7, data6))
    c.add("IPv6/ICMPv6 neighbor solicitation (unicast, NUD)",
          eth_v6(), ipv6(C6C, S6, 58, hlim=255),
          icmp6_ns(S6, MAC[1]))
    c.add("ARP request (broadcast)",
          eth(BCAST, MAC[1], ETH_ARP),
          arp(1, MAC[1], C4, "00:00:00:00:00:00", S4), pad_to=60)
    c.add("ARP reply",
          eth(MAC[1], MAC[2], ETH_ARP), arp(2, MAC[2], S4, MAC[1], C4),
          pad_to=60)
    c.add("ARP with htype 6 (not Ethernet: addresses not decoded)",
          eth(BCAST, MAC[4], ETH_ARP), arp_raw(6, ETH_IPV4, 6, 4, 1),
          pad_to=60)
    c.add("ARP with hlen 8 (layer len 8 + 2*(8+4) = 32)",
          eth(BCAST, MAC[4], ETH_ARP), arp_raw(1, ETH_IPV4, 8, 4, 1),
          pad_to=60)
    c.add("unknown ethertype 0x88b5 (local experimental): walk ends, ok",
          eth(MAC[2], MAC[1], 0x88B5), payload(text_payload(46)))
    llc = LLC(dsap=0x42, ssap=0x42, ctrl=3) / STP(rootmac=MAC[2],
                                                  bridgemac=MAC[2])
    c.add("802.3 length frame (type field 38 < 0x0600), LLC: walk ends, ok",
          Spec("eth", 14, Dot3(dst=MAC[2], src=MAC[1], len=38), "eth",
               {"dst": MAC[2], "src": MAC[1]}, nxt=38),
          Spec(None, 38, llc), pad_to=60)
    # ABI 2 walks the GRE header and the packet it carries (stack 1);
    # the bytes are those of ABI 1 (checked against scapy's build)
    gi = [ipv4("198.19.1.1", "198.19.1.2", 1), icmp(8, 0, 1, 1)]
    for s in gi:
        s.stack = 1
    assert bytes(gi[0].pkt / gi[1].pkt) == bytes(
        IP(src="198.19.1.1", dst="198.19.1.2", proto=1) /
        ICMP(type=8, id=1, seq=1))
    c.add("IPv4 protocol 47 (GRE) carrying IPv4/ICMP: gre, inner ipv4, "
          "inner icmp", eth_v4(), ipv4(C4, S4, 47, ident=0x66),
          Spec("gre", 4, Raw(load=b"\x00\x00\x08\x00"), "gre",
               {"flags": 0, "version": 0, "proto": ETH_IPV4,
                "checksum_present": False}), *gi)
    # ABI 2 parses the hop-by-hop header (scapy builds it: its UDP
    # checksum covers the chain, and the bytes are those of ABI 1)
    h = hbh(17, [RA6(0), PADN(2)])
    sh = IPv6ExtHdrHopByHop(nh=17, options=[RouterAlert()])
    assert bytes(sh) == bytes(h.pkt)
    h.pkt = sh
    c.add("IPv6 next header 0 (hop-by-hop, Router Alert)/UDP",
          eth_v6(), ipv6(C6, S6, 0, hlim=1, ext=True), h,
          udp(5000, 5001), payload(text_payload(8)))
    c.add("IPv6 next header 59 (no next header): walk ends after ipv6",
          eth_v6(), ipv6(C6, S6, 59), pad_to=60)
    c.add("short IPv4/UDP (tot_len 32) padded to 60: padding ignored",
          eth_v4(), ipv4(C4, S4, 17, ident=0x77), udp(6000, 6001),
          payload(b"ping"), pad_to=60)
    c.add("IPv4/TCP pure ACK (tot_len 40) padded to 60 with non-zero bytes",
          eth_v4(), ipv4(C4, S4, 6, ident=0x78, df=True),
          tcp(sp, 80, cs + 1, ss + 1, ACK, 502),
          trail=b"\xde\xad\xbe\xef\x01\x02")
    c.add("IPv4/ICMP echo (tot_len 28, no data) padded to 60",
          eth_v4(), ipv4(C4, S4, 1, ident=0x79), icmp(8, 0, 0x4242, 9),
          pad_to=60)
    return c


# ---------------------------------------------------------------------------
# vlan


def cap_vlan():
    c = Capture("vlan", "802.1Q / 802.1ad tag stacks")
    a, b = MAC[0x11], MAC[0x12]

    def frame(desc, tagl, inner_type, *rest, **kw):
        """tagl: [(tpid, vid[, pcp, dei])], outermost first."""
        specs = [eth(b, a, tagl[0][0] if tagl else inner_type)]
        for i, t in enumerate(tagl):
            nxt = tagl[i + 1][0] if i + 1 < len(tagl) else inner_type
            specs.append(tag(t[0], t[1], nxt, *t[2:]))
        c.add(desc, *specs, *rest, **kw)

    v4tcp = [ipv4(C4, S4, 6, ident=0x100, df=True),
             tcp(40200, 80, rnd32(), 0, SYN, 64240, LINUX_SYN(rnd32()))]
    frame("802.1Q vid 100 / IPv4/TCP SYN", [(TPID_Q, 100)], ETH_IPV4, *v4tcp)
    frame("QinQ: 802.1ad vid 10 + 802.1Q vid 200 / IPv4/UDP",
          [(TPID_AD, 10), (TPID_Q, 200)], ETH_IPV4,
          ipv4(C4, S4, 17, ident=0x101), udp(7000, 7001),
          payload(text_payload(20)))
    frame("3 tags: 802.1ad, 802.1Q, 802.1Q / IPv4/ICMP echo",
          [(TPID_AD, 11), (TPID_Q, 201), (TPID_Q, 301)], ETH_IPV4,
          ipv4(C4, S4, 1, ident=0x102), icmp(8, 0, 0x77, 1, b"abcdefgh"))
    frame("4 tags (the limit): 802.1ad x2, 802.1Q x2 / IPv6/UDP",
          [(TPID_AD, 12), (TPID_AD, 13), (TPID_Q, 202), (TPID_Q, 302)],
          ETH_IPV6, ipv6(C6, S6, 17), udp(7002, 7003),
          payload(text_payload(10)))
    frame("4 tags 802.1Q / IPv4/TCP SYN",
          [(TPID_Q, 1), (TPID_Q, 2), (TPID_Q, 3), (TPID_Q, 4)], ETH_IPV4,
          *v4tcp)
    frame("5 tags (all 802.1Q): depth error at the 5th tag",
          [(TPID_Q, 1), (TPID_Q, 2), (TPID_Q, 3), (TPID_Q, 4), (TPID_Q, 5)],
          ETH_IPV4, ipv4(C4, S4, 17, ident=0x103), udp(7004, 7005),
          payload(text_payload(8)), err=("depth", 5))
    frame("5 tags, the 5th is 802.1ad: depth error, error_proto qinq",
          [(TPID_AD, 1), (TPID_Q, 2), (TPID_Q, 3), (TPID_Q, 4),
           (TPID_AD, 5)], ETH_IPV4, ipv4(C4, S4, 17, ident=0x104),
          udp(7006, 7007), payload(text_payload(8)), err=("depth", 5))
    frame("802.1Q PCP 7 DEI 1 vid 4094 / IPv4/UDP",
          [(TPID_Q, 4094, 7, 1)], ETH_IPV4, ipv4(C4, S4, 17, ident=0x105),
          udp(7008, 7009), payload(text_payload(12)))
    frame("priority tag: 802.1Q vid 0 PCP 5 / IPv4/TCP SYN",
          [(TPID_Q, 0, 5, 0)], ETH_IPV4, *v4tcp)
    frame("QinQ with PCP/DEI on both tags (outer 3/1 vid 1, inner 6/0 "
          "vid 4095)", [(TPID_AD, 1, 3, 1), (TPID_Q, 4095, 6, 0)], ETH_IPV4,
          ipv4(C4, S4, 6, ident=0x106),
          tcp(40201, 22, rnd32(), rnd32(), ACK, 1000, ts_opts()))
    frame("802.1Q vid 300 / ARP request", [(TPID_Q, 300)], ETH_ARP,
          arp(1, a, C4, "00:00:00:00:00:00", S4), pad_to=64)
    frame("QinQ / ARP reply", [(TPID_AD, 20), (TPID_Q, 300)], ETH_ARP,
          arp(2, a, C4, b, S4), pad_to=64)
    frame("802.1Q vid 600 / IPv6/ICMPv6 echo request", [(TPID_Q, 600)],
          ETH_IPV6, ipv6(C6, S6, 58), icmp6_echo(True, 9, 1, b"x" * 32))
    frame("802.1Q vid 601 / IPv6/TCP SYN", [(TPID_Q, 601, 2, 0)], ETH_IPV6,
          ipv6(C6, S6, 6, fl=0xFFFFF, tc=0xFF),
          tcp(40202, 443, rnd32(), 0, SYN, 64800, LINUX_SYN(rnd32(), 1440)))
    frame("802.1Q then 802.1ad (unusual order) / IPv4/UDP",
          [(TPID_Q, 5), (TPID_AD, 6)], ETH_IPV4,
          ipv4(C4, S4, 17, ident=0x107), udp(7010, 7011),
          payload(text_payload(8)))
    frame("802.1Q carrying unknown ethertype 0x88b5: walk ends after vlan",
          [(TPID_Q, 700)], 0x88B5, payload(text_payload(42)))
    frame("802.1Q carrying an 802.3 length (0x002e): walk ends after vlan",
          [(TPID_Q, 701)], 0x002E,
          Spec(None, 46, LLC(dsap=0xaa, ssap=0xaa, ctrl=3) /
               Raw(load=text_payload(43))))
    c.add("TPID 0x9100 (old QinQ) is not a tag: unknown ethertype, ends",
          eth(b, a, 0x9100), payload(struct.pack("!HH", 30, ETH_IPV4)),
          payload(bytes(IP(src=C4, dst=S4, proto=17) /
                        UDP(sport=1, dport=2))), pad_to=60)
    return c


# ---------------------------------------------------------------------------
# tcp_options


def cap_tcp_options():
    c = Capture("tcp_options", "TCP option areas")
    n = [0]

    def pkt(desc, opts, pad=b"", data=b"", flags=ACK, v6=False, bad=None,
            doff=None, err=None):
        n[0] += 1
        t = tcp(42000 + n[0], 9, rnd32(), rnd32(), flags, 2000, opts, pad,
                bad=bad, doff=doff)
        ip = ipv6(C6, S6, 6) if v6 else ipv4(C4, S4, 6, ident=n[0], df=True)
        specs = [eth_v6() if v6 else eth_v4(), ip, t]
        if data:
            specs.append(payload(data))
        c.add(desc, *specs, err=err)

    t1, t2 = rnd32(), rnd32()
    s0 = rnd32()
    blk = [(s0 + 1000 * i + 500, s0 + 1000 * i + 900) for i in range(4)]
    pkt("full 40-byte area, 10 options: NOP NOP MSS SACK-perm NOP NOP TS "
        "NOP NOP SACK(2)",
        [NOP, NOP, MSS(1460), SACKP, NOP, NOP, TS(t1, t2), NOP, NOP,
         SACK(*blk[:2])])
    pkt("full 40-byte area, every decoded kind: MSS WS SACK-perm TS "
        "SACK(2) NOP NOP NOP",
        [MSS(8960), WS(14), SACKP, TS(t1, t2), SACK(*blk[:2]), NOP, NOP,
         NOP], flags=SYN)
    pkt("40 NOPs (40 TLVs: the walker's limit)", [NOP] * 40)
    pkt("39 NOPs then EOL", [NOP] * 39 + [EOL])
    for k in range(1, 5):
        if k < 4:
            o = [NOP, NOP, TS(t1 + k, t2), NOP, NOP, SACK(*blk[:k])]
        else:
            o = [NOP, NOP, SACK(*blk)]
        pkt("SACK with %d block%s" % (k, "s" if k > 1 else ""), o)
    pkt("NOP NOP SACK(3 blocks) then 8 NOPs",
        [NOP, NOP, SACK(*blk[:3])] + [NOP] * 8)
    pkt("MSS NOP WS EOL + 3 zero padding bytes (walk stops at EOL)",
        [MSS(1400), NOP, WS(2), EOL], pad=b"\0" * 3, flags=SYN)
    pkt("MSS EOL then garbage that would be a bad option (kind 5 len 0x20):"
        " walk stops at EOL",
        [MSS(1400), EOL], pad=b"\x05\x20\x01", flags=SYN)
    pkt("EOL first, 39 garbage bytes after it", [EOL],
        pad=bytes([8, 0xff]) + rbytes(37))
    pkt("scapy-style: MSS then EOL EOL EOL EOL (only the first EOL walked)",
        [MSS(536), EOL], pad=b"\0\0\0", flags=SYN)
    pkt("unknown kind 30 (MPTCP) len 12",
        [OPT(30, 12, 0x31), NOP, NOP, NOP, NOP], data=text_payload(20))
    pkt("unknown kind 34 (TFO cookie) len 10 in a Linux TFO SYN",
        [MSS(1460), SACKP, TS(t1, 0), NOP, WS(7), OPT(34, 10, 0x5c), NOP,
         NOP], flags=SYN, data=text_payload(30))
    pkt("unknown kind 254 (experimental, ExID) len 6",
        [bytes([254, 6, 0xf9, 0x89, 0xaa, 0xbb]), NOP, NOP])
    pkt("mixed unknown kinds 30/34/254/28/29 plus NOPs",
        [OPT(30, 12, 0x31), OPT(34, 10, 0x34), OPT(254, 6, 0xfe),
         OPT(28, 4, 0x1c), NOP, NOP, OPT(29, 6, 0x1d)])
    pkt("unknown kind with len 2 (empty value), kind 100 len 2", [
        OPT(100, 2), NOP, NOP])
    pkt("MSS with len 6 (recorded, not decoded), then WS 3 (decoded)",
        [OPT(2, 6, 0x05), WS(9), NOP, NOP, NOP], flags=SYN)
    pkt("WS with len 4 (not decoded), MSS ok", [OPT(3, 4, 0x07), MSS(1200)],
        flags=SYN)
    pkt("SACK-perm with len 3 (not decoded), TS ok",
        [OPT(4, 3), NOP, NOP, NOP, TS(t1, t2)], flags=SYN)
    pkt("TS with len 8 (not decoded), SACK-perm ok",
        [OPT(8, 8, 0x08), SACKP, NOP, NOP], flags=SYN)
    pkt("SACK with len 12 (not 2+8n: not decoded)",
        [NOP, NOP, OPT(5, 12, 0x55), NOP, NOP])
    pkt("SACK with len 2 (no blocks: not decoded)", [OPT(5, 2), NOP, NOP])
    pkt("MSS 65535, WS 14, TS 0xffffffff/0xffffffff",
        [MSS(65535), NOP, WS(14), NOP, NOP, TS(0xFFFFFFFF, 0xFFFFFFFF)],
        flags=SYN)
    pkt("MSS 0, WS 0, TS 0/0", [MSS(0), NOP, WS(0), NOP, NOP, TS(0, 0)],
        flags=SYN)
    pkt("data offset 5 with a payload that looks like options (none)",
        [], data=MSS(1460) + SACKP + TS(1, 2) + NOP + WS(7))
    pkt("option ends exactly at the end of the area, payload follows",
        [NOP, NOP, TS(t1, t2)], data=b"\x02\x04\x05\xb4" * 4)
    pkt("IPv6/TCP SYN, full 40-byte area (Linux SYN + TFO cookie + NOPs)",
        [MSS(1440), SACKP, TS(t1, 0), NOP, WS(7), OPT(34, 18, 0x5c),
         NOP, NOP], flags=SYN, v6=True)
    pkt("IPv6/TCP, SACK 4 blocks", [NOP, NOP, SACK(*blk)], v6=True,
        data=rbytes(100))
    # Last, so that the frames before it stay as they were.
    pkt("experimental kind 253 len 8 (RFC 6994: ExID 0xf989, 4 data bytes)",
        [bytes([253, 8, 0xf9, 0x89, 0x12, 0x34, 0x56, 0x78])],
        data=text_payload(12))
    return c
