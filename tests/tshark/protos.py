# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""Headers as dynpf and tshark name them, and the limits of docs/parsing.md."""


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
# behind IPv4: AH and ESP only (as behind IPv6, in the same chain)
IPV4_EXT = {51: "ah", 50: "esp"}
EXT_NAMES = set(IPV6_EXT.values())
# tshark's next header field of each extension header (esp has none)
EXT_NXT = {"hopopts": "ipv6.hopopts.nxt", "dstopts": "ipv6.dstopts.nxt",
           "routing": "ipv6.routing.nxt", "fragment": "ipv6.fraghdr.nxt",
           "ah": "ah.next_header"}
MAX_EXT = 8
MAX_STACKS = 2   # DYNPF_MAX_STACKS

# ICMP types whose 8-byte header tshark dissects in full
ICMP_8_BYTES = {0, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
