# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Ethernet, VLAN tags and ARP headers."""
import struct

from scapy.layers.l2 import ARP, Dot1Q, Ether
from scapy.packet import Raw

from .common import ETH_IPV4, ETH_IPV6, MAC, Spec, TPID_AD, TPID_Q


def eth(dst, src, etype):
    return Spec("eth", 14, Ether(dst=dst, src=src, type=etype), "eth",
                {"dst": dst, "src": src}, nxt=etype)


def tag(tpid, vid, nxt, pcp=0, dei=0):
    """One VLAN tag; tpid is the ethertype of the header before it."""
    proto = {TPID_Q: "vlan", TPID_AD: "qinq"}[tpid]
    return Spec(proto, 4, Dot1Q(prio=pcp, id=dei, vlan=vid, type=nxt),
                nxt=nxt, tag={"tpid": tpid, "vid": vid, "pcp": pcp,
                              "dei": dei})


def arp(op, sha, spa, tha, tpa):
    return Spec("arp", 28, ARP(hwtype=1, ptype=ETH_IPV4, hwlen=6, plen=4,
                               op=op, hwsrc=sha, psrc=spa, hwdst=tha,
                               pdst=tpa), "arp",
                {"htype": 1, "ptype": ETH_IPV4, "hlen": 6, "plen": 4,
                 "op": op, "sha": sha, "tha": tha, "spa": spa, "tpa": tpa})


def arp_raw(htype, ptype, hlen, plen, op, fill=0x11):
    """An ARP whose addresses are not decoded (not Ethernet/IPv4)."""
    data = struct.pack("!HHBBH", htype, ptype, hlen, plen, op)
    data += bytes([fill]) * (2 * (hlen + plen))
    return Spec("arp", len(data), Raw(load=data), "arp",
                {"htype": htype, "ptype": ptype, "hlen": hlen, "plen": plen,
                 "op": op})


def eth_v4(a=MAC[1], b=MAC[2]):
    return eth(b, a, ETH_IPV4)


def eth_v6(a=MAC[1], b=MAC[2]):
    return eth(b, a, ETH_IPV6)
