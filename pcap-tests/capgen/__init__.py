# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The capture generator behind pcap-tests/gen.py.

common.py    constants, addresses, random filler, Spec (one header or
             payload of a frame) and the helpers every family uses
capture.py   Capture: a capture's frames, their expected records, and the
             writing of NAME.pcap and NAME.expect.jsonl
l2.py, ipv4.py, ipv6.py, l4.py, tunnels.py
             header builders, one module per family: each returns a Spec
             with the bytes and the fields its json object must show
cap_*.py     the captures, one function cap_NAME per NAME.pcap, grouped by
             family; gen.py lists them in writing order

Imports point one way: common.py imports no other module; capture.py and the
header builders import common.py (and tunnels.py, ipv6.py the builders of
the headers they wrap); only cap_*.py import capture.py, and nothing imports
a cap_*.py but gen.py.
"""
