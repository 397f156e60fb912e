# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""The pieces of pcap-tests/gen.py: header builders and the captures."""
