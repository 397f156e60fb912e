// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_rules: every match keyword into its fields; TLV and value tests. */
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "lang.h"

void test_matches(void)
{
	static const __u8 mac1[6] = { 2, 0, 0, 0, 0, 1 }, mac2[6] = { 0xaa, 0xbb, 0xc, 0, 0, 0xff };
	static const __u8 net15[16] = { 198, 18 }, host[16] = { 10, 1, 2, 3 };
	static const __u8 db8[16] = { 0x20, 0x01, 0x0d, 0xb8 }, one[16] = { [15] = 1 };
	static const struct {
		const char *word;
		__u8 proto;
	} protos[] = {
		{ "tcp", 6 },  { "udp", 17 },  { "icmp", 1 },   { "icmpv6", 58 },
		{ "gre", 47 }, { "esp", 50 },  { "ah", 51 },    { "sctp", 132 },
		{ "ipip", 4 }, { "ipv6", 41 }, { "0x84", 132 }, { "253", 253 },
	};
	static const struct {
		const char *word;
		__u8 frag;
	} frags[] = {
		{ "none", DYNPF_MF_NOT },
		{ "any", DYNPF_MF_ANY },
		{ "first", DYNPF_MF_FIRST },
		{ "later", DYNPF_MF_NONFIRST },
	};
	static const char *const errs[] = { "ok",          "truncated", "bad_len",   "depth",
					    "bad_version", "tlv_len",   "tlv_count", "bad_hdr" };
	struct dynpf_rule r;
	char text[128];

	if (!rule("iif lo", "iif lo drop", &r)) {
		CHECK_EQ("iif lo", r.m.fields, DYNPF_M_IFINDEX);
		CHECK_EQ("iif lo", r.m.ifindex, if_nametoindex("lo"));
	}
	if (!rule("iif NUM", "iif 4000 drop", &r))
		CHECK_EQ("iif NUM", r.m.ifindex, 4000);
	if (!rule("ether saddr", "ether saddr 02:00:00:00:00:01 drop", &r)) {
		CHECK_EQ("ether saddr", r.m.fields, DYNPF_M_ETH_SRC);
		CHECK("ether saddr", !memcmp(r.m.eth_src, mac1, 6), "address");
	}
	if (!rule("ether daddr", "ether daddr AA:bb:c:0:00:ff drop", &r)) {
		CHECK_EQ("ether daddr", r.m.fields, DYNPF_M_ETH_DST);
		CHECK("ether daddr", !memcmp(r.m.eth_dst, mac2, 6), "address");
	}
	if (!rule("ether type ip", "ether type ip drop", &r)) {
		CHECK_EQ("ether type ip", r.m.fields, DYNPF_M_ETHERTYPE);
		CHECK_EQ("ether type ip", r.m.ethertype, 0x0800);
	}
	if (!rule("ether type ip6", "ether type ip6 drop", &r))
		CHECK_EQ("ether type ip6", r.m.ethertype, 0x86dd);
	if (!rule("ether type arp", "ether type arp drop", &r))
		CHECK_EQ("ether type arp", r.m.ethertype, 0x0806);
	if (!rule("ether type mpls", "ether type mpls drop", &r))
		CHECK_EQ("ether type mpls", r.m.ethertype, 0x8847);
	if (!rule("ether type NUM", "ether type 0x88cc drop", &r))
		CHECK_EQ("ether type NUM", r.m.ethertype, 0x88cc);
	if (!rule("vlan id", "vlan id 4095 drop", &r)) {
		CHECK_EQ("vlan id", r.m.fields, DYNPF_M_VLAN);
		CHECK_EQ("vlan id", r.m.vlan, 4095);
	}
	if (!rule("ip", "ip drop", &r)) {
		CHECK_EQ("ip", r.m.fields, DYNPF_M_FAMILY);
		CHECK_EQ("ip", r.m.family, 4);
	}
	if (!rule("ip6", "ip6 drop", &r)) {
		CHECK_EQ("ip6", r.m.fields, DYNPF_M_FAMILY);
		CHECK_EQ("ip6", r.m.family, 6);
	}
	if (!rule("ip saddr", "ip saddr 198.18.0.0/15 drop", &r)) {
		CHECK_EQ("ip saddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_SRC);
		CHECK_EQ("ip saddr", r.m.family, 4);
		CHECK_EQ("ip saddr", r.m.src_plen, 15);
		CHECK("ip saddr", !memcmp(r.m.src, net15, 16), "address");
	}
	if (!rule("ip daddr", "ip daddr 10.1.2.3 drop", &r)) {
		CHECK_EQ("ip daddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_DST);
		CHECK_EQ("ip daddr", r.m.dst_plen, 32);
		CHECK("ip daddr", !memcmp(r.m.dst, host, 16), "address");
	}
	if (!rule("ip saddr /0", "ip saddr 0.0.0.0/0 drop", &r))
		CHECK_EQ("ip saddr /0", r.m.src_plen, 0);
	if (!rule("ip6 saddr", "ip6 saddr 2001:db8::/32 drop", &r)) {
		CHECK_EQ("ip6 saddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_SRC);
		CHECK_EQ("ip6 saddr", r.m.family, 6);
		CHECK_EQ("ip6 saddr", r.m.src_plen, 32);
		CHECK("ip6 saddr", !memcmp(r.m.src, db8, 16), "address");
	}
	if (!rule("ip6 daddr", "ip6 daddr ::1 drop", &r)) {
		CHECK_EQ("ip6 daddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_DST);
		CHECK_EQ("ip6 daddr", r.m.dst_plen, 128);
		CHECK("ip6 daddr", !memcmp(r.m.dst, one, 16), "address");
	}
	if (!rule("ip saddr and daddr", "ip ip saddr 10.0.0.0/8 ip daddr 10.1.2.3 drop", &r))
		CHECK_EQ("ip saddr and daddr", r.m.fields,
			 DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST);
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		snprintf(text, sizeof(text), "proto %s drop", protos[i].word);
		if (!rule(text, text, &r)) {
			CHECK_EQ(text, r.m.fields, DYNPF_M_PROTO);
			CHECK_EQ(text, r.m.proto, protos[i].proto);
		}
	}
	for (size_t i = 0; i < sizeof(frags) / sizeof(frags[0]); i++) {
		snprintf(text, sizeof(text), "frag %s drop", frags[i].word);
		if (!rule(text, text, &r)) {
			CHECK_EQ(text, r.m.fields, DYNPF_M_FRAG);
			CHECK_EQ(text, r.m.frag, frags[i].frag);
		}
	}
	if (!rule("ttl", "ttl 64 drop", &r)) {
		CHECK_EQ("ttl", r.m.fields, DYNPF_M_TTL);
		CHECK_EQ("ttl", r.m.ttl_lo, 64);
		CHECK_EQ("ttl", r.m.ttl_hi, 64);
	}
	if (!rule("ttl range", "ttl 0-255 drop", &r)) {
		CHECK_EQ("ttl range", r.m.ttl_lo, 0);
		CHECK_EQ("ttl range", r.m.ttl_hi, 255);
	}
	if (!rule("hoplimit", "hoplimit 1-0x10 drop", &r)) {
		CHECK_EQ("hoplimit", r.m.fields, DYNPF_M_TTL);
		CHECK_EQ("hoplimit", r.m.ttl_lo, 1);
		CHECK_EQ("hoplimit", r.m.ttl_hi, 16);
	}
	if (!rule("dscp", "dscp 63 drop", &r)) {
		CHECK_EQ("dscp", r.m.fields, DYNPF_M_DSCP);
		CHECK_EQ("dscp", r.m.dscp, 63);
	}
	if (!rule("tcp sport", "tcp sport 1024-65535 drop", &r)) {
		CHECK_EQ("tcp sport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_SPORT);
		CHECK_EQ("tcp sport", r.m.proto, 6);
		CHECK_EQ("tcp sport", r.m.sport_lo, 1024);
		CHECK_EQ("tcp sport", r.m.sport_hi, 65535);
	}
	if (!rule("tcp dport", "tcp dport 22 drop", &r)) {
		CHECK_EQ("tcp dport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_DPORT);
		CHECK_EQ("tcp dport", r.m.proto, 6);
		CHECK_EQ("tcp dport", r.m.dport_lo, 22);
		CHECK_EQ("tcp dport", r.m.dport_hi, 22);
	}
	if (!rule("udp sport", "udp sport 0 drop", &r)) {
		CHECK_EQ("udp sport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_SPORT);
		CHECK_EQ("udp sport", r.m.proto, 17);
	}
	if (!rule("udp dport", "udp dport 53 drop", &r)) {
		CHECK_EQ("udp dport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_DPORT);
		CHECK_EQ("udp dport", r.m.proto, 17);
		CHECK_EQ("udp dport", r.m.dport_lo, 53);
	}
	if (!rule("th ports", "th sport 1 th dport 2-3 drop", &r)) {
		CHECK_EQ("th ports", r.m.fields, DYNPF_M_SPORT | DYNPF_M_DPORT);
		CHECK_EQ("th ports", r.m.proto, 0);
		CHECK_EQ("th ports", r.m.dport_hi, 3);
	}
	if (!rule("tcp flags", "tcp flags syn drop", &r)) {
		CHECK_EQ("tcp flags", r.m.fields, DYNPF_M_PROTO | DYNPF_M_TCP_FLAGS);
		CHECK_EQ("tcp flags", r.m.proto, 6);
		CHECK_EQ("tcp flags", r.m.tcp_flags, 0x02);
		CHECK_EQ("tcp flags", r.m.tcp_flags_mask, 0x02);
	}
	if (!rule("tcp flags mask", "tcp flags syn/syn,ack drop", &r)) {
		CHECK_EQ("tcp flags mask", r.m.tcp_flags, 0x02);
		CHECK_EQ("tcp flags mask", r.m.tcp_flags_mask, 0x12);
	}
	if (!rule("tcp flags all", "tcp flags fin,syn,rst,psh,ack,urg,ece,cwr drop", &r))
		CHECK_EQ("tcp flags all", r.m.tcp_flags, 0xff);
	if (!rule("tcp flags / apart", "tcp flags syn / syn,ack drop", &r))
		CHECK_EQ("tcp flags / apart", r.m.tcp_flags_mask, 0x12);
	if (!rule("tcp flags /mask", "tcp flags 0 /syn,rst drop", &r)) {
		CHECK_EQ("tcp flags /mask", r.m.tcp_flags, 0);
		CHECK_EQ("tcp flags /mask", r.m.tcp_flags_mask, 0x06);
	}
	if (!rule("tcp flags NUM", "tcp flags 0x12/0xff drop", &r)) {
		CHECK_EQ("tcp flags NUM", r.m.tcp_flags, 0x12);
		CHECK_EQ("tcp flags NUM", r.m.tcp_flags_mask, 0xff);
	}
	for (unsigned int i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		snprintf(text, sizeof(text), "error %s drop", errs[i]);
		if (!rule(text, text, &r)) {
			CHECK_EQ(text, r.m.fields, DYNPF_M_ERROR);
			CHECK_EQ(text, r.m.error, i);
		}
	}
	if (!rule("inner", "inner tcp dport 80 drop", &r)) {
		CHECK_EQ("inner", r.m.stack, 1);
		CHECK_EQ("inner", r.m.fields, DYNPF_M_PROTO | DYNPF_M_DPORT);
	}
	if (!rule("no match", "drop", &r)) {
		CHECK_EQ("no match", r.m.fields, 0);
		CHECK_EQ("no match", r.m.stack, 0);
	}
}

void test_tlvs_and_values(void)
{
	static const struct {
		const char *text;
		__u8 family;
		__u32 type;
		__u8 neg;
	} tlvs[] = {
		{ "tcp option eol", DYNPF_TLV_TCP_OPT, 0 },
		{ "tcp option nop", DYNPF_TLV_TCP_OPT, 1 },
		{ "tcp option mss", DYNPF_TLV_TCP_OPT, 2 },
		{ "tcp option wscale", DYNPF_TLV_TCP_OPT, 3 },
		{ "tcp option sack-perm", DYNPF_TLV_TCP_OPT, 4 },
		{ "tcp option sack", DYNPF_TLV_TCP_OPT, 5 },
		{ "tcp option ts missing", DYNPF_TLV_TCP_OPT, 8, 1 },
		{ "tcp option mptcp", DYNPF_TLV_TCP_OPT, 30 },
		{ "tcp option 254", DYNPF_TLV_TCP_OPT, 254 },
		{ "ip option eol", DYNPF_TLV_IPV4_OPT, 0 },
		{ "ip option nop", DYNPF_TLV_IPV4_OPT, 1 },
		{ "ip option rr", DYNPF_TLV_IPV4_OPT, 7 },
		{ "ip option ts", DYNPF_TLV_IPV4_OPT, 68 },
		{ "ip option ra missing", DYNPF_TLV_IPV4_OPT, 148, 1 },
		{ "ip option 0x86", DYNPF_TLV_IPV4_OPT, 0x86 },
		{ "ip6 exthdr hopopts", DYNPF_TT_EXT, 0 },
		{ "ip6 exthdr routing", DYNPF_TT_EXT, 43 },
		{ "ip6 exthdr fragment", DYNPF_TT_EXT, 44 },
		{ "ip6 exthdr dstopts", DYNPF_TT_EXT, 60 },
		{ "ip6 exthdr ah", DYNPF_TT_EXT, 51 },
		{ "ip6 exthdr esp missing", DYNPF_TT_EXT, 50, 1 },
		{ "ip6 exthdr 43", DYNPF_TT_EXT, 43 },
		{ "ip6 hbh option pad1", DYNPF_TLV_IPV6_HBH, 0 },
		{ "ip6 hbh option padn", DYNPF_TLV_IPV6_HBH, 1 },
		{ "ip6 hbh option ra", DYNPF_TLV_IPV6_HBH, 5 },
		{ "ip6 hbh option jumbo", DYNPF_TLV_IPV6_HBH, 0xc2 },
		{ "ip6 dst option pad1", DYNPF_TLV_IPV6_DST, 0 },
		{ "ip6 dst option padn", DYNPF_TLV_IPV6_DST, 1 },
		{ "ip6 dst option ra", DYNPF_TLV_IPV6_DST, 5 },
		{ "ip6 dst option jumbo missing", DYNPF_TLV_IPV6_DST, 0xc2, 1 },
		{ "ip6 dst option 0x1e", DYNPF_TLV_IPV6_DST, 0x1e },
		{ "srh tlv pad1", DYNPF_TLV_SRH_TLV, 0 },
		{ "srh tlv padn", DYNPF_TLV_SRH_TLV, 4 },
		{ "srh tlv hmac", DYNPF_TLV_SRH_TLV, 5 },
		{ "srh tlv 7 missing", DYNPF_TLV_SRH_TLV, 7, 1 },
		{ "geneve option 0x0102:0x80", DYNPF_TLV_GENEVE_OPT, 0x010280 },
		{ "geneve option 65535:255 missing", DYNPF_TLV_GENEVE_OPT, 0xffffff, 1 },
		{ "geneve option 0:0", DYNPF_TLV_GENEVE_OPT, 0 },
	};
	static const struct {
		const char *text;
		__u8 field;
		__u32 lo, hi;
	} vals[] = {
		{ "tcp mss 536-1460", DYNPF_V_MSS, 536, 1460 },
		{ "tcp mss 65535", DYNPF_V_MSS, 65535, 65535 },
		{ "tcp wscale 14", DYNPF_V_WSCALE, 14, 14 },
		{ "vni 0xffffff", DYNPF_V_VNI, 0xffffff, 0xffffff },
		{ "srh segleft 0-3", DYNPF_V_SEGLEFT, 0, 3 },
		{ "gtpu teid 0-4294967295", DYNPF_V_TEID, 0, 0xffffffff },
		{ "mpls label 1048575", DYNPF_V_MPLS_LABEL, 0xfffff, 0xfffff },
		{ "gre key 0x10-0x20", DYNPF_V_GRE_KEY, 16, 32 },
	};
	struct dynpf_rule r;
	char text[128];

	for (size_t i = 0; i < sizeof(tlvs) / sizeof(tlvs[0]); i++) {
		snprintf(text, sizeof(text), "%s drop", tlvs[i].text);
		if (rule(text, text, &r))
			continue;
		CHECK_EQ(text, r.m.fields, 0);
		CHECK_EQ(text, r.m.ntlv, 1);
		CHECK_EQ(text, r.m.tlv[0].family, tlvs[i].family);
		CHECK_EQ(text, r.m.tlv[0].type, tlvs[i].type);
		CHECK_EQ(text, r.m.tlv[0].neg, tlvs[i].neg);
	}
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		snprintf(text, sizeof(text), "%s drop", vals[i].text);
		if (rule(text, text, &r))
			continue;
		CHECK_EQ(text, r.m.fields, 0);
		CHECK_EQ(text, r.m.nval, 1);
		CHECK_EQ(text, r.m.val[0].field, vals[i].field);
		CHECK_EQ(text, r.m.val[0].lo, vals[i].lo);
		CHECK_EQ(text, r.m.val[0].hi, vals[i].hi);
	}
	/* Kept in the docs' order, whatever the order they were given in. */
	if (!rule("tlv order", "geneve option 1:2 srh tlv hmac ip option rr tcp option sack drop",
		  &r)) {
		CHECK_EQ("tlv order", r.m.ntlv, 4);
		CHECK_EQ("tlv order", r.m.tlv[0].family, DYNPF_TLV_TCP_OPT);
		CHECK_EQ("tlv order", r.m.tlv[1].family, DYNPF_TLV_IPV4_OPT);
		CHECK_EQ("tlv order", r.m.tlv[2].family, DYNPF_TLV_SRH_TLV);
		CHECK_EQ("tlv order", r.m.tlv[3].family, DYNPF_TLV_GENEVE_OPT);
	}
	if (!rule("tlv order by type", "tcp option ts tcp option mss missing tcp option 3 drop",
		  &r)) {
		CHECK_EQ("tlv order by type", r.m.tlv[0].type, 2);
		CHECK_EQ("tlv order by type", r.m.tlv[0].neg, 1);
		CHECK_EQ("tlv order by type", r.m.tlv[1].type, 3);
		CHECK_EQ("tlv order by type", r.m.tlv[2].type, 8);
	}
	if (!rule("val order", "gre key 1 vni 2 tcp wscale 3 tcp mss 4 drop", &r)) {
		CHECK_EQ("val order", r.m.nval, 4);
		CHECK_EQ("val order", r.m.val[0].field, DYNPF_V_MSS);
		CHECK_EQ("val order", r.m.val[1].field, DYNPF_V_WSCALE);
		CHECK_EQ("val order", r.m.val[2].field, DYNPF_V_VNI);
		CHECK_EQ("val order", r.m.val[3].field, DYNPF_V_GRE_KEY);
	}
	/* Tunnel values and TLV tests are about the packet: before `inner` too. */
	if (!rule("vni before inner", "vni 5 tcp option mss error ok iif 1 inner udp dport 53 drop",
		  &r)) {
		CHECK_EQ("vni before inner", r.m.stack, 1);
		CHECK_EQ("vni before inner", r.m.nval, 1);
		CHECK_EQ("vni before inner", r.m.ntlv, 1);
	}
}
