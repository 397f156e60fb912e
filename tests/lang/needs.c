// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What a rule needs of the parse (dynpf_rule_needs(), rules/match.h): the
 * data path leaves the rest unparsed, so a rule must ask for every part
 * that can change whether it matches.
 */
#include "match.h"

#include "lang.h"

static void needs(const char *text, __u32 want)
{
	struct dynpf_rule r;

	if (!rule(text, text, &r))
		CHECK_EQ(text, dynpf_rule_needs(&r), want);
}

void test_needs(void)
{
	const __u32 tcp = DYNPF_NEED_TCP_OPT, in = DYNPF_NEED_INNER, tun = DYNPF_NEED_TUN_OPT;
	const __u32 list = DYNPF_NEED_TLV_LIST;

	/* Headers only: nothing beyond them. */
	needs("ip saddr 198.18.0.0/15 tcp dport 80 drop", 0);
	needs("tcp flags syn/syn,ack ttl 1-2 dscp 46 count", 0);
	needs("ip6 exthdr routing srh segleft 1-5 count", 0); /* the stack's own chain */
	needs("vni 1-1000 gtpu teid 1-9 mpls label 16-99 gre key 1-2 count", 0);
	needs("ether type arp vlan id 100 frag first pass", 0);
	/* TCP options, by their TLVs or their decoded values. */
	needs("tcp option mss count", tcp | in);
	needs("tcp option sack-perm missing drop", tcp | in);
	needs("tcp mss 1-535 drop", tcp);
	needs("tcp wscale 0-14 count", tcp);
	/* A TLV of any stack matches: the inner packet is parsed for it. */
	needs("ip option ra count", in);
	needs("ip6 hbh option ra count", in);
	needs("srh tlv hmac count", in);
	/* Types wider than 8 bits, and byte tests of a TLV: the TLVs listed. */
	needs("geneve option 0x0102:0x80 count", in | tun | list);
	needs("tcp option 253 data 0:2 0xf989 count", tcp | in | list);
	needs("ip option ra data 2:2 0 count", in | list);
	/* The inner stack. */
	needs("inner tcp dport 80 drop", in);
	needs("inner tcp option ts count", tcp | in);
	/* The parse error, and a sample's event: everything. */
	needs("error truncated count", DYNPF_NEED_FULL);
	needs("tcp dport 80 sample 64 rate 10/s", DYNPF_NEED_FULL);
}
