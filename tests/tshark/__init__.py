# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""dynpf's parse of a capture against tshark's (tests/tshark_compare.py
says what is compared and how). The modules, in the order data flows:

  run.py       running tshark and `dynpf parse -j` on a capture
  jsonobj.py   tshark's JSON: objects keeping duplicate keys, lookups, values
  protos.py    headers as dynpf and tshark name them, docs/parsing.md's limits
  layers.py    tshark's layers mapped onto dynpf's stacks; what tshark flags
  options.py   the option lists tshark shows (IPv4, IPv6, TCP, Geneve, GTP-U)
  fields.py    field comparisons: Ethernet, ARP, TCP, UDP, ICMP, MPLS, tunnels
  ipfields.py  field comparisons: IPv4 with its options, AH and ESP, IPv6 and its
               extension headers
  chain.py     the layer chain dynpf should walk, from tshark's values
  policy.py    the known differences between the two (DIFFERENCES, each
               with its line in docs/parsing.md) and dynpf's parse errors
               against tshark's flags
  compare.py   a capture, packet by packet and stack by stack
  report.py    each field compared or skipped; the mismatches printed
  bytes.py     byte tests against display filters (tests/tshark_bytes.py):
               pairs of a rule and a filter, the packets each selects
"""
