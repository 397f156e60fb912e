// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Unit tests of the rule language (loader/lang/rules_lang.c, docs/rules.md):
 * every match and action keyword into its struct fields, every error with
 * its FILE:LINE:COLUMN, the round trip text -> rule -> text -> rule, and
 * hostile input. Every rule parsed here is also formatted, parsed back and
 * compared byte for byte, and, when rules/match.h is there, must pass
 * dynpf_rule_check(), the validation of the control channel.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/rules_lang.h"

#if __has_include("../rules/match.h")
#include "../rules/match.h"
#define HAVE_RULE_CHECK 1
#endif

static int passed, failed;

static void check(const char *name, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return;
	}
	failed++;
	fprintf(stderr, "FAIL %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define EQ(name, got, want)                                                            \
	do {                                                                           \
		long long g_ = (long long)(got), w_ = (long long)(want);              \
		check(name, g_ == w_, "%s: got %lld, want %lld", #got, g_, w_);        \
	} while (0)

#define FILE_NAME "t.rules"

static struct dynpf_rule_ids no_ids;

/* format, parse back, compare: the struct and the text must not change. */
static void roundtrip(const char *name, const struct dynpf_rule *r)
{
	char a[DYNPF_RULE_TEXT_MAX], b[DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule_err err;
	struct dynpf_rule r2;
	char *words[1] = { a };
	int n;

	n = dynpf_rule_format(r, a, sizeof(a));
	check(name, n > 0 && (size_t)n < sizeof(a) && strlen(a) == (size_t)n,
	      "format returned %d for '%s'", n, a);
	if (dynpf_rule_parse_words(&r2, 1, words, &no_ids, &err)) {
		check(name, 0, "'%s' does not parse back: %s", a, err.msg);
		return;
	}
	dynpf_rule_format(&r2, b, sizeof(b));
	check(name, !memcmp(r, &r2, sizeof(r2)), "'%s' parses back to another rule", a);
	check(name, !strcmp(a, b), "'%s' formats back as '%s'", a, b);
#ifdef HAVE_RULE_CHECK
	{
		__u16 field;
		int e = dynpf_rule_check(r, &field);

		check(name, e == 0, "'%s': dynpf_rule_check %d, field %u", a, e, field);
	}
#endif
}

/* One line of a rule file, which must be a valid rule. */
static int rule(const char *name, const char *text, struct dynpf_rule *r)
{
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	int e;

	dynpf_ruleset_init(&rs);
	e = dynpf_ruleset_parse(&rs, FILE_NAME, text, strlen(text), &err);
	check(name, !e && rs.n == 1, "'%s': %s", text, e ? err.msg : "not one rule");
	if (e || rs.n != 1) {
		dynpf_ruleset_free(&rs);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	*r = rs.rules[0];
	dynpf_ruleset_free(&rs);
	roundtrip(name, r);
	return 0;
}

/* The normalized text of a one-rule line. */
static void normalized(const char *text, const char *want)
{
	char buf[DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule r;

	if (rule(text, text, &r))
		return;
	dynpf_rule_format(&r, buf, sizeof(buf));
	check(text, !strcmp(buf, want), "normalized to '%s', want '%s'", buf, want);
}

/* len bytes of file text, which must fail with exactly want. */
static void error_n(const char *name, const char *text, size_t len, const char *want)
{
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	int e;

	dynpf_ruleset_init(&rs);
	e = dynpf_ruleset_parse(&rs, FILE_NAME, text, len, &err);
	check(name, e == -EINVAL, "accepted, want the error %s", want);
	if (e == -EINVAL)
		check(name, !strcmp(err.msg, want), "error\n      %s\n want %s", err.msg, want);
	dynpf_ruleset_free(&rs);
}

static void error(const char *text, const char *want)
{
	error_n(text, text, strlen(text), want);
}

static void test_matches(void)
{
	static const __u8 mac1[6] = { 2, 0, 0, 0, 0, 1 }, mac2[6] = { 0xaa, 0xbb, 0xc, 0, 0, 0xff };
	static const __u8 net15[16] = { 198, 18 }, host[16] = { 10, 1, 2, 3 };
	static const __u8 db8[16] = { 0x20, 0x01, 0x0d, 0xb8 }, one[16] = { [15] = 1 };
	static const struct {
		const char *word;
		__u8 proto;
	} protos[] = {
		{ "tcp", 6 }, { "udp", 17 }, { "icmp", 1 }, { "icmpv6", 58 }, { "gre", 47 },
		{ "esp", 50 }, { "ah", 51 }, { "sctp", 132 }, { "ipip", 4 }, { "ipv6", 41 },
		{ "0x84", 132 }, { "253", 253 },
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
	static const char *const errs[] = { "ok", "truncated", "bad_len", "depth", "bad_version",
					    "tlv_len", "tlv_count", "bad_hdr" };
	struct dynpf_rule r;
	char text[128];

	if (!rule("iif lo", "iif lo drop", &r)) {
		EQ("iif lo", r.m.fields, DYNPF_M_IFINDEX);
		EQ("iif lo", r.m.ifindex, if_nametoindex("lo"));
	}
	if (!rule("iif NUM", "iif 4000 drop", &r))
		EQ("iif NUM", r.m.ifindex, 4000);
	if (!rule("ether saddr", "ether saddr 02:00:00:00:00:01 drop", &r)) {
		EQ("ether saddr", r.m.fields, DYNPF_M_ETH_SRC);
		check("ether saddr", !memcmp(r.m.eth_src, mac1, 6), "address");
	}
	if (!rule("ether daddr", "ether daddr AA:bb:c:0:00:ff drop", &r)) {
		EQ("ether daddr", r.m.fields, DYNPF_M_ETH_DST);
		check("ether daddr", !memcmp(r.m.eth_dst, mac2, 6), "address");
	}
	if (!rule("ether type ip", "ether type ip drop", &r)) {
		EQ("ether type ip", r.m.fields, DYNPF_M_ETHERTYPE);
		EQ("ether type ip", r.m.ethertype, 0x0800);
	}
	if (!rule("ether type ip6", "ether type ip6 drop", &r))
		EQ("ether type ip6", r.m.ethertype, 0x86dd);
	if (!rule("ether type arp", "ether type arp drop", &r))
		EQ("ether type arp", r.m.ethertype, 0x0806);
	if (!rule("ether type mpls", "ether type mpls drop", &r))
		EQ("ether type mpls", r.m.ethertype, 0x8847);
	if (!rule("ether type NUM", "ether type 0x88cc drop", &r))
		EQ("ether type NUM", r.m.ethertype, 0x88cc);
	if (!rule("vlan id", "vlan id 4095 drop", &r)) {
		EQ("vlan id", r.m.fields, DYNPF_M_VLAN);
		EQ("vlan id", r.m.vlan, 4095);
	}
	if (!rule("ip", "ip drop", &r)) {
		EQ("ip", r.m.fields, DYNPF_M_FAMILY);
		EQ("ip", r.m.family, 4);
	}
	if (!rule("ip6", "ip6 drop", &r)) {
		EQ("ip6", r.m.fields, DYNPF_M_FAMILY);
		EQ("ip6", r.m.family, 6);
	}
	if (!rule("ip saddr", "ip saddr 198.18.0.0/15 drop", &r)) {
		EQ("ip saddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_SRC);
		EQ("ip saddr", r.m.family, 4);
		EQ("ip saddr", r.m.src_plen, 15);
		check("ip saddr", !memcmp(r.m.src, net15, 16), "address");
	}
	if (!rule("ip daddr", "ip daddr 10.1.2.3 drop", &r)) {
		EQ("ip daddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_DST);
		EQ("ip daddr", r.m.dst_plen, 32);
		check("ip daddr", !memcmp(r.m.dst, host, 16), "address");
	}
	if (!rule("ip saddr /0", "ip saddr 0.0.0.0/0 drop", &r))
		EQ("ip saddr /0", r.m.src_plen, 0);
	if (!rule("ip6 saddr", "ip6 saddr 2001:db8::/32 drop", &r)) {
		EQ("ip6 saddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_SRC);
		EQ("ip6 saddr", r.m.family, 6);
		EQ("ip6 saddr", r.m.src_plen, 32);
		check("ip6 saddr", !memcmp(r.m.src, db8, 16), "address");
	}
	if (!rule("ip6 daddr", "ip6 daddr ::1 drop", &r)) {
		EQ("ip6 daddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_DST);
		EQ("ip6 daddr", r.m.dst_plen, 128);
		check("ip6 daddr", !memcmp(r.m.dst, one, 16), "address");
	}
	if (!rule("ip saddr and daddr", "ip ip saddr 10.0.0.0/8 ip daddr 10.1.2.3 drop", &r))
		EQ("ip saddr and daddr", r.m.fields, DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST);
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		snprintf(text, sizeof(text), "proto %s drop", protos[i].word);
		if (!rule(text, text, &r)) {
			EQ(text, r.m.fields, DYNPF_M_PROTO);
			EQ(text, r.m.proto, protos[i].proto);
		}
	}
	for (size_t i = 0; i < sizeof(frags) / sizeof(frags[0]); i++) {
		snprintf(text, sizeof(text), "frag %s drop", frags[i].word);
		if (!rule(text, text, &r)) {
			EQ(text, r.m.fields, DYNPF_M_FRAG);
			EQ(text, r.m.frag, frags[i].frag);
		}
	}
	if (!rule("ttl", "ttl 64 drop", &r)) {
		EQ("ttl", r.m.fields, DYNPF_M_TTL);
		EQ("ttl", r.m.ttl_lo, 64);
		EQ("ttl", r.m.ttl_hi, 64);
	}
	if (!rule("ttl range", "ttl 0-255 drop", &r)) {
		EQ("ttl range", r.m.ttl_lo, 0);
		EQ("ttl range", r.m.ttl_hi, 255);
	}
	if (!rule("hoplimit", "hoplimit 1-0x10 drop", &r)) {
		EQ("hoplimit", r.m.fields, DYNPF_M_TTL);
		EQ("hoplimit", r.m.ttl_lo, 1);
		EQ("hoplimit", r.m.ttl_hi, 16);
	}
	if (!rule("dscp", "dscp 63 drop", &r)) {
		EQ("dscp", r.m.fields, DYNPF_M_DSCP);
		EQ("dscp", r.m.dscp, 63);
	}
	if (!rule("tcp sport", "tcp sport 1024-65535 drop", &r)) {
		EQ("tcp sport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_SPORT);
		EQ("tcp sport", r.m.proto, 6);
		EQ("tcp sport", r.m.sport_lo, 1024);
		EQ("tcp sport", r.m.sport_hi, 65535);
	}
	if (!rule("tcp dport", "tcp dport 22 drop", &r)) {
		EQ("tcp dport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_DPORT);
		EQ("tcp dport", r.m.proto, 6);
		EQ("tcp dport", r.m.dport_lo, 22);
		EQ("tcp dport", r.m.dport_hi, 22);
	}
	if (!rule("udp sport", "udp sport 0 drop", &r)) {
		EQ("udp sport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_SPORT);
		EQ("udp sport", r.m.proto, 17);
	}
	if (!rule("udp dport", "udp dport 53 drop", &r)) {
		EQ("udp dport", r.m.fields, DYNPF_M_PROTO | DYNPF_M_DPORT);
		EQ("udp dport", r.m.proto, 17);
		EQ("udp dport", r.m.dport_lo, 53);
	}
	if (!rule("th ports", "th sport 1 th dport 2-3 drop", &r)) {
		EQ("th ports", r.m.fields, DYNPF_M_SPORT | DYNPF_M_DPORT);
		EQ("th ports", r.m.proto, 0);
		EQ("th ports", r.m.dport_hi, 3);
	}
	if (!rule("tcp flags", "tcp flags syn drop", &r)) {
		EQ("tcp flags", r.m.fields, DYNPF_M_PROTO | DYNPF_M_TCP_FLAGS);
		EQ("tcp flags", r.m.proto, 6);
		EQ("tcp flags", r.m.tcp_flags, 0x02);
		EQ("tcp flags", r.m.tcp_flags_mask, 0x02);
	}
	if (!rule("tcp flags mask", "tcp flags syn/syn,ack drop", &r)) {
		EQ("tcp flags mask", r.m.tcp_flags, 0x02);
		EQ("tcp flags mask", r.m.tcp_flags_mask, 0x12);
	}
	if (!rule("tcp flags all", "tcp flags fin,syn,rst,psh,ack,urg,ece,cwr drop", &r))
		EQ("tcp flags all", r.m.tcp_flags, 0xff);
	if (!rule("tcp flags / apart", "tcp flags syn / syn,ack drop", &r))
		EQ("tcp flags / apart", r.m.tcp_flags_mask, 0x12);
	if (!rule("tcp flags /mask", "tcp flags 0 /syn,rst drop", &r)) {
		EQ("tcp flags /mask", r.m.tcp_flags, 0);
		EQ("tcp flags /mask", r.m.tcp_flags_mask, 0x06);
	}
	if (!rule("tcp flags NUM", "tcp flags 0x12/0xff drop", &r)) {
		EQ("tcp flags NUM", r.m.tcp_flags, 0x12);
		EQ("tcp flags NUM", r.m.tcp_flags_mask, 0xff);
	}
	for (unsigned int i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		snprintf(text, sizeof(text), "error %s drop", errs[i]);
		if (!rule(text, text, &r)) {
			EQ(text, r.m.fields, DYNPF_M_ERROR);
			EQ(text, r.m.error, i);
		}
	}
	if (!rule("inner", "inner tcp dport 80 drop", &r)) {
		EQ("inner", r.m.stack, 1);
		EQ("inner", r.m.fields, DYNPF_M_PROTO | DYNPF_M_DPORT);
	}
	if (!rule("no match", "drop", &r)) {
		EQ("no match", r.m.fields, 0);
		EQ("no match", r.m.stack, 0);
	}
}

static void test_tlvs_and_values(void)
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
		EQ(text, r.m.fields, 0);
		EQ(text, r.m.ntlv, 1);
		EQ(text, r.m.tlv[0].family, tlvs[i].family);
		EQ(text, r.m.tlv[0].type, tlvs[i].type);
		EQ(text, r.m.tlv[0].neg, tlvs[i].neg);
	}
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		snprintf(text, sizeof(text), "%s drop", vals[i].text);
		if (rule(text, text, &r))
			continue;
		EQ(text, r.m.fields, 0);
		EQ(text, r.m.nval, 1);
		EQ(text, r.m.val[0].field, vals[i].field);
		EQ(text, r.m.val[0].lo, vals[i].lo);
		EQ(text, r.m.val[0].hi, vals[i].hi);
	}
	/* Kept in the docs' order, whatever the order they were given in. */
	if (!rule("tlv order", "geneve option 1:2 srh tlv hmac ip option rr tcp option sack drop",
		  &r)) {
		EQ("tlv order", r.m.ntlv, 4);
		EQ("tlv order", r.m.tlv[0].family, DYNPF_TLV_TCP_OPT);
		EQ("tlv order", r.m.tlv[1].family, DYNPF_TLV_IPV4_OPT);
		EQ("tlv order", r.m.tlv[2].family, DYNPF_TLV_SRH_TLV);
		EQ("tlv order", r.m.tlv[3].family, DYNPF_TLV_GENEVE_OPT);
	}
	if (!rule("tlv order by type", "tcp option ts tcp option mss missing tcp option 3 drop",
		  &r)) {
		EQ("tlv order by type", r.m.tlv[0].type, 2);
		EQ("tlv order by type", r.m.tlv[0].neg, 1);
		EQ("tlv order by type", r.m.tlv[1].type, 3);
		EQ("tlv order by type", r.m.tlv[2].type, 8);
	}
	if (!rule("val order", "gre key 1 vni 2 tcp wscale 3 tcp mss 4 drop", &r)) {
		EQ("val order", r.m.nval, 4);
		EQ("val order", r.m.val[0].field, DYNPF_V_MSS);
		EQ("val order", r.m.val[1].field, DYNPF_V_WSCALE);
		EQ("val order", r.m.val[2].field, DYNPF_V_VNI);
		EQ("val order", r.m.val[3].field, DYNPF_V_GRE_KEY);
	}
	/* Tunnel values and TLV tests are about the packet: before `inner` too. */
	if (!rule("vni before inner", "vni 5 tcp option mss error ok iif 1 inner udp dport 53 drop",
		  &r)) {
		EQ("vni before inner", r.m.stack, 1);
		EQ("vni before inner", r.m.nval, 1);
		EQ("vni before inner", r.m.ntlv, 1);
	}
}

static void test_actions(void)
{
	struct dynpf_rule r;

	if (!rule("pass", "pass", &r)) {
		EQ("pass", r.action, DYNPF_ACT_PASS);
		EQ("pass", r.arg, 0);
	}
	if (!rule("accept", "accept", &r))
		EQ("accept", r.action, DYNPF_ACT_PASS);
	if (!rule("drop", "drop", &r))
		EQ("drop", r.action, DYNPF_ACT_DROP);
	if (!rule("redirect lo", "redirect lo", &r)) {
		EQ("redirect lo", r.action, DYNPF_ACT_REDIRECT);
		EQ("redirect lo", r.arg, if_nametoindex("lo"));
	}
	if (!rule("redirect NUM", "redirect 4001", &r))
		EQ("redirect NUM", r.arg, 4001);
	if (!rule("count", "count", &r))
		EQ("count", r.action, DYNPF_ACT_COUNT);
	if (!rule("mark", "mark 0xffffffff", &r)) {
		EQ("mark", r.action, DYNPF_ACT_MARK);
		EQ("mark", r.arg, 0xffffffff);
	}
	if (!rule("mark 0", "mark 0", &r))
		EQ("mark 0", r.arg, 0);
	if (!rule("sample", "sample 128", &r)) {
		EQ("sample", r.action, DYNPF_ACT_SAMPLE);
		EQ("sample", r.sample_len, 128);
		EQ("sample", r.sample_rate, 100);
		EQ("sample", r.arg, 0);
	}
	if (!rule("sample rate", "sample 256 rate 1/s", &r)) {
		EQ("sample rate", r.sample_len, 256);
		EQ("sample rate", r.sample_rate, 1);
	}
	if (!rule("limit", "limit 1000/s", &r)) {
		EQ("limit", r.action, DYNPF_ACT_LIMIT);
		EQ("limit", r.arg, 1000);
		EQ("limit", r.burst, 1000);
	}
	if (!rule("limit burst", "limit 1/s burst 4294967295", &r)) {
		EQ("limit burst", r.arg, 1);
		EQ("limit burst", r.burst, 0xffffffff);
	}
}

static void test_ids_and_settings(void)
{
	static const char text[] =
		"# ids: explicit, then the lowest free one\n"
		"id 2 drop\n"
		"\n"
		"drop\n"
		"   drop   # the third\n"
		"prio 7 drop\n"
		"id 131071 prio 0 pass\n"
		"set default-action drop\n"
		"set pass-arp-nd off\n"
		"drop\n";
	static const __u32 ids[] = { 2, 1, 3, 4, 131071, 5 }, prios[] = { 2, 1, 3, 7, 0, 5 };
	static const unsigned long lines[] = { 2, 4, 5, 6, 7, 10 };
	static const char settings[] = "set default-action pass\nset pass-arp-nd on\n";
	struct dynpf_rule_ids taken = {};
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	struct dynpf_rule r;
	char *words[] = { "tcp", "dport 22", "drop" };
	char buf[64];

	dynpf_ruleset_init(&rs);
	if (dynpf_ruleset_parse(&rs, FILE_NAME, text, strlen(text), &err)) {
		check("ids", 0, "%s", err.msg);
	} else {
		EQ("ids", rs.n, 6);
		for (size_t i = 0; i < rs.n && i < 6; i++) {
			EQ("ids", rs.rules[i].id, ids[i]);
			EQ("prios", rs.rules[i].prio, prios[i]);
			EQ("lines", rs.lines[i], lines[i]);
		}
		EQ("settings", rs.set_seen,
		   1u << DYNPF_SET_DEFAULT_ACTION | 1u << DYNPF_SET_PASS_ARP_ND);
		EQ("default-action", rs.set[DYNPF_SET_DEFAULT_ACTION], DYNPF_ACT_DROP);
		EQ("pass-arp-nd", rs.set[DYNPF_SET_PASS_ARP_ND], 0);
		EQ("setting line", rs.set_line[DYNPF_SET_PASS_ARP_ND], 9);
	}
	dynpf_ruleset_free(&rs);

	dynpf_ruleset_init(&rs);
	if (!dynpf_ruleset_parse(&rs, FILE_NAME, settings, strlen(settings), &err)) {
		EQ("default-action pass", rs.set[DYNPF_SET_DEFAULT_ACTION], DYNPF_ACT_PASS);
		EQ("pass-arp-nd on", rs.set[DYNPF_SET_PASS_ARP_ND], 1);
		dynpf_setting_format(DYNPF_SET_PASS_ARP_ND, 1, buf, sizeof(buf));
		check("setting format", !strcmp(buf, "set pass-arp-nd on"), "%s", buf);
		dynpf_setting_format(DYNPF_SET_DEFAULT_ACTION, DYNPF_ACT_PASS, buf, sizeof(buf));
		check("setting format", !strcmp(buf, "set default-action pass"), "%s", buf);
	} else {
		check("settings", 0, "%s", err.msg);
	}
	dynpf_ruleset_free(&rs);

	/* Words: joined, re-split; the lowest id not taken; prio = id. */
	dynpf_rule_ids_set(&taken, 1);
	dynpf_rule_ids_set(&taken, 2);
	dynpf_rule_ids_set(&taken, 4);
	if (!dynpf_rule_parse_words(&r, 3, words, &taken, &err)) {
		EQ("words id", r.id, 3);
		EQ("words prio", r.prio, 3);
		EQ("words dport", r.m.dport_lo, 22);
	} else {
		check("words", 0, "%s", err.msg);
	}
	if (!dynpf_rule_parse_words(&r, 3, words, NULL, &err))
		EQ("words, nothing taken", r.id, 1);
	else
		check("words, nothing taken", 0, "%s", err.msg);
	words[2] = "dorp";
	check("words error", dynpf_rule_parse_words(&r, 3, words, NULL, &err) == -EINVAL &&
				     !strcmp(err.msg, "<command line>:1:14: expected a match or an action after '22', got 'dorp'"),
	      "%s", err.msg);
	EQ("words error column", err.col, 14);
	check("no words", dynpf_rule_parse_words(&r, 0, words, NULL, &err) == -EINVAL &&
				  !strcmp(err.msg, "<command line>:1:1: expected a rule, got end of line"),
	      "%s", err.msg);
}

static void test_normalized(void)
{
	normalized("drop", "id 1 prio 1 drop");
	normalized("accept", "id 1 prio 1 pass");
	normalized("id 5 prio 9 tcp dport 22 ip saddr 10.0.0.0/8 drop",
		   "id 5 prio 9 ip saddr 10.0.0.0/8 tcp dport 22 drop");
	/* A protocol the ports or flags name is not printed twice. */
	normalized("proto tcp th dport 1-2 pass", "id 1 prio 1 tcp dport 1-2 pass");
	normalized("proto 17 th sport 7 pass", "id 1 prio 1 udp sport 7 pass");
	normalized("proto 6 tcp flags syn/syn,ack pass", "id 1 prio 1 tcp flags syn/syn,ack pass");
	normalized("proto udp tcp option mss pass", "id 1 prio 1 proto udp tcp option mss pass");
	normalized("th dport 1 pass", "id 1 prio 1 th dport 1 pass");
	/* The family alone, or through an address. */
	normalized("ip6 ip6 saddr ::/0 pass", "id 1 prio 1 ip6 saddr ::/0 pass");
	normalized("ip6 pass", "id 1 prio 1 ip6 pass");
	normalized("ip6 daddr 2001:DB8:0:0::1 pass", "id 1 prio 1 ip6 daddr 2001:db8::1 pass");
	normalized("ether saddr a:b:c:d:e:f ether type 0x800 pass",
		   "id 1 prio 1 ether saddr 0a:0b:0c:0d:0e:0f ether type ip pass");
	normalized("ether type 0x1 pass", "id 1 prio 1 ether type 0x0001 pass");
	normalized("hoplimit 5-5 pass", "id 1 prio 1 ttl 5 pass");
	normalized("tcp flags ack,syn,0x1 pass", "id 1 prio 1 tcp flags fin,syn,ack pass");
	normalized("tcp flags 0/syn pass", "id 1 prio 1 tcp flags 0/syn pass");
	normalized("ip6 hbh option 0xc2 ip6 dst option 1 pass",
		   "id 1 prio 1 ip6 hbh option jumbo ip6 dst option padn pass");
	normalized("geneve option 258:128 pass", "id 1 prio 1 geneve option 0x0102:0x80 pass");
	normalized("ip6 exthdr 60 pass", "id 1 prio 1 ip6 exthdr dstopts pass");
	/* `inner` first: the header matches after it are the inner packet's. */
	normalized("vni 7 inner ip saddr 10.0.0.1 pass",
		   "id 1 prio 1 inner ip saddr 10.0.0.1 vni 7 pass");
	normalized("sample 64", "id 1 prio 1 sample 64 rate 100/s");
	normalized("limit 5/s", "id 1 prio 1 limit 5/s burst 5");
	normalized("mark 0x10", "id 1 prio 1 mark 16");
	normalized("redirect lo", "id 1 prio 1 redirect lo");
	normalized("iif 1 pass", "id 1 prio 1 iif lo pass");
	normalized("iif 4000 redirect 4000", "id 1 prio 1 iif 4000 redirect 4000");
	normalized("\tdrop\t# tabs\r", "id 1 prio 1 drop");
}

/* Every error class, with its exact FILE:LINE:COLUMN. */
static void test_errors(void)
{
	/* Syntax: what was expected, after what, what came. */
	error("foo drop", "t.rules:1:1: expected a match or an action, got 'foo'");
	error("# x\n\n  tcp dport 70000 drop\n",
	      "t.rules:3:13: expected a port or range (0-65535) after 'dport', got '70000'");
	error("tcp dport 80-22 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '80-22' (the low end is above the high end)");
	error("tcp dport -1 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '-1'");
	error("tcp dport 1- drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '1-'");
	error("tcp dport",
	      "t.rules:1:10: expected a port or range (0-65535) after 'dport', got end of line");
	error("tcp drop", "t.rules:1:5: expected sport, dport, flags, option, mss or wscale after 'tcp', got 'drop'");
	error("udp flags syn drop", "t.rules:1:5: expected sport or dport after 'udp', got 'flags'");
	error("ether foo drop", "t.rules:1:7: expected saddr, daddr or type after 'ether', got 'foo'");
	error("ether saddr 02:00:00:00:00:001 drop",
	      "t.rules:1:13: expected a MAC address (02:00:00:00:00:01) after 'saddr', got '02:00:00:00:00:001'");
	error("ether type 0x10000 drop",
	      "t.rules:1:12: expected an ethertype (ip ip6 arp mpls or 0-0xffff) after 'type', got '0x10000'");
	error("vlan 5 drop", "t.rules:1:6: expected id after 'vlan', got '5'");
	error("vlan id 4096 drop", "t.rules:1:9: expected a VLAN id (0-4095) after 'id', got '4096'");
	error("dscp 64 drop", "t.rules:1:6: expected a DSCP (0-63) after 'dscp', got '64'");
	error("ttl 256 drop", "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '256'");
	error("proto 256 drop",
	      "t.rules:1:7: expected a protocol (tcp udp icmp icmpv6 gre esp ah sctp ipip ipv6 or 0-255) after 'proto', got '256'");
	error("frag some drop", "t.rules:1:6: expected none, any, first or later after 'frag', got 'some'");
	error("error bad drop",
	      "t.rules:1:7: expected a parse error name (ok truncated bad_len depth bad_version tlv_len tlv_count bad_hdr) after 'error', got 'bad'");
	error("ip saddr 10.0.0.256 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.256'");
	error("ip saddr 10.0.0.0/33 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.0/33' (a prefix length is 0-32)");
	error("ip saddr 10.0.0.0/ drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.0/'");
	error("ip saddr ::1 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '::1'");
	error("ip6 daddr ::/129 drop",
	      "t.rules:1:11: expected an IPv6 address or prefix after 'daddr', got '::/129' (a prefix length is 0-128)");
	/* Host bits, as nft. */
	error("ip saddr 198.18.0.1/15 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '198.18.0.1/15' (host bits set: the prefix is 198.18.0.0/15)");
	error("ip6 saddr 2001:db8::1/64 drop",
	      "t.rules:1:11: expected an IPv6 address or prefix after 'saddr', got '2001:db8::1/64' (host bits set: the prefix is 2001:db8::/64)");
	error("ip daddr 10.0.0.1/0 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'daddr', got '10.0.0.1/0' (host bits set: the prefix is 0.0.0.0/0)");
	error("tcp flags syn,ack/syn drop",
	      "t.rules:1:11: expected TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after 'flags', got 'syn,ack/syn' (a flag outside the mask never matches)");
	error("tcp flags 0 drop",
	      "t.rules:1:11: expected TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after 'flags', got '0' (a mask of no flags tests nothing)");
	error("tcp flags syn,,ack drop",
	      "t.rules:1:11: expected TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after 'flags', got 'syn,,ack'");
	error("tcp flags syn / drop",
	      "t.rules:1:17: expected a mask of TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after '/', got 'drop'");
	error("tcp option sackok drop",
	      "t.rules:1:12: expected a TCP option (eol nop mss wscale sack-perm sack ts mptcp or 0-255) after 'option', got 'sackok'");
	error("ip option 256 drop",
	      "t.rules:1:11: expected an IPv4 option (eol nop rr ts ra or 0-255) after 'option', got '256'");
	error("ip6 exthdr 17 drop",
	      "t.rules:1:12: expected an extension header (hopopts routing fragment dstopts ah esp, or 0 43 44 60 51 50) after 'exthdr', got '17'");
	error("ip6 hbh opt drop", "t.rules:1:9: expected option after 'hbh', got 'opt'");
	error("srh tlv 256 drop",
	      "t.rules:1:9: expected an SRH TLV (pad1 padn hmac or 0-255) after 'tlv', got '256'");
	error("srh foo drop", "t.rules:1:5: expected tlv or segleft after 'srh', got 'foo'");
	error("geneve option 0x102 drop",
	      "t.rules:1:15: expected a Geneve option CLASS:TYPE (0-0xffff:0-0xff) after 'option', got '0x102'");
	error("geneve option 1:256 drop",
	      "t.rules:1:15: expected a Geneve option CLASS:TYPE (0-0xffff:0-0xff) after 'option', got '1:256'");
	error("vni 16777216 drop",
	      "t.rules:1:5: expected a VNI or range (0-16777215) after 'vni', got '16777216'");
	error("mpls label 1048576 drop",
	      "t.rules:1:12: expected an MPLS label or range (0-1048575) after 'label', got '1048576'");
	error("gtpu teid 4294967296 drop",
	      "t.rules:1:11: expected a TEID or range (0-4294967295) after 'teid', got '4294967296'");
	error("gre id 1 drop", "t.rules:1:5: expected key after 'gre', got 'id'");
	error("tcp wscale 256 drop",
	      "t.rules:1:12: expected a window scale or range (0-255) after 'wscale', got '256'");
	error("srh segleft 3-1 drop",
	      "t.rules:1:13: expected a segments-left value or range (0-255) after 'segleft', got '3-1' (the low end is above the high end)");
	error("iif no-such-if0 drop",
	      "t.rules:1:5: expected an interface name or index after 'iif', got 'no-such-if0' (no such interface)");
	error("iif 0 drop",
	      "t.rules:1:5: expected an interface name or index after 'iif', got '0' (interface indexes start at 1)");
	/* id and prio. */
	error("id 0 drop", "t.rules:1:4: expected a rule id (1-131071) after 'id', got '0'");
	error("id 131072 drop", "t.rules:1:4: expected a rule id (1-131071) after 'id', got '131072'");
	error("prio 4294967296 drop",
	      "t.rules:1:6: expected a priority (0-4294967295) after 'prio', got '4294967296'");
	error("prio 1 id 2 drop",
	      "t.rules:1:8: expected a match or an action after '1', got 'id' ('id', then 'prio', come first)");
	error("tcp dport 1 prio 2 drop",
	      "t.rules:1:13: expected a match or an action after '1', got 'prio' ('id', then 'prio', come first)");
	/* Actions: missing, arguments, words after. */
	error("tcp dport 22",
	      "t.rules:1:13: expected a match or an action after '22', got end of line (a rule ends with its action)");
	error("id 3 prio 4   # no action",
	      "t.rules:1:12: expected a match or an action after '4', got end of line (a rule ends with its action)");
	error("drop tcp dport 22",
	      "t.rules:1:6: expected the end of the rule after 'drop', got 'tcp' (the action comes last)");
	error("drop drop", "t.rules:1:6: expected the end of the rule after 'drop', got 'drop' (the action comes last)");
	error("sample 64 rate 5/s count",
	      "t.rules:1:20: expected the end of the rule after '5/s', got 'count' (the action comes last)");
	error("redirect", "t.rules:1:9: expected an interface name or index after 'redirect', got end of line");
	error("mark -1", "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '-1'");
	error("sample 0", "t.rules:1:8: expected a sample length (1-256 bytes) after 'sample', got '0'");
	error("sample 257", "t.rules:1:8: expected a sample length (1-256 bytes) after 'sample', got '257'");
	error("sample 1 rate 5", "t.rules:1:15: expected a rate (NUM/s, 1 or more) after 'rate', got '5'");
	error("sample 1 rate 0/s", "t.rules:1:15: expected a rate (NUM/s, 1 or more) after 'rate', got '0/s'");
	error("limit 0/s", "t.rules:1:7: expected a rate (NUM/s, 1 or more) after 'limit', got '0/s'");
	error("limit /s", "t.rules:1:7: expected a rate (NUM/s, 1 or more) after 'limit', got '/s'");
	error("limit 5/s burst 0",
	      "t.rules:1:17: expected a burst (packets, 1 or more) after 'burst', got '0'");
	/* Conflicts. */
	error("ip saddr 10.0.0.1 ip6 daddr ::1 drop",
	      "t.rules:1:19: family conflict: 'ip6 daddr' matches IPv6, 'ip saddr' at column 1 matches IPv4");
	error("ip6 ip drop",
	      "t.rules:1:5: family conflict: 'ip' matches IPv4, 'ip6' at column 1 matches IPv6");
	error("ether type ip6 ip saddr 10.0.0.1 drop",
	      "t.rules:1:16: family conflict: 'ip saddr' matches IPv4, 'ether type' at column 1 matches IPv6");
	error("ip6 ether type ip drop",
	      "t.rules:1:5: family conflict: 'ether type' matches IPv4, 'ip6' at column 1 matches IPv6");
	error("tcp dport 22 udp sport 53 drop",
	      "t.rules:1:14: protocol conflict: 'udp sport' matches udp, 'tcp dport' at column 1 matches tcp");
	error("proto udp tcp flags syn drop",
	      "t.rules:1:11: protocol conflict: 'tcp flags' matches tcp, 'proto' at column 1 matches udp");
	error("udp dport 53 proto icmp drop",
	      "t.rules:1:14: protocol conflict: 'proto' matches icmp, 'udp dport' at column 1 matches udp");
	error("proto sctp th dport 1 drop",
	      "t.rules:1:12: protocol conflict: 'th dport' at column 12 needs tcp or udp, 'proto' at column 1 matches sctp");
	error("th sport 1 proto 132 drop",
	      "t.rules:1:12: protocol conflict: 'th sport' at column 1 needs tcp or udp, 'proto' at column 12 matches sctp");
	error("frag later tcp dport 1 drop",
	      "t.rules:1:12: conflict: 'frag later' at column 1 has no L4 header, 'tcp dport' at column 12 needs one");
	error("tcp flags syn frag later drop",
	      "t.rules:1:15: conflict: 'frag later' at column 15 has no L4 header, 'tcp flags' at column 1 needs one");
	/* A field twice. */
	error("ttl 1 ttl 2 drop", "t.rules:1:7: duplicate match: 'ttl' is already at column 1");
	error("ttl 1 hoplimit 2 drop",
	      "t.rules:1:7: duplicate match: 'hoplimit' tests the same field as 'ttl' at column 1");
	error("tcp dport 1 th dport 2 drop",
	      "t.rules:1:13: duplicate match: 'th dport' tests the same field as 'tcp dport' at column 1");
	error("ip saddr 1.1.1.1 ip saddr 2.2.2.2 drop",
	      "t.rules:1:18: duplicate match: 'ip saddr' is already at column 1");
	error("ip ip drop", "t.rules:1:4: duplicate match: 'ip' is already at column 1");
	error("proto 6 proto 6 drop", "t.rules:1:9: duplicate match: 'proto' is already at column 1");
	error("iif 1 iif 1 drop", "t.rules:1:7: duplicate match: 'iif' is already at column 1");
	error("vni 1 vni 2 drop", "t.rules:1:7: duplicate match: 'vni' is already at column 1");
	error("tcp option mss tcp option mss missing drop",
	      "t.rules:1:16: duplicate match: this 'tcp option' is already tested at column 1");
	error("ip6 exthdr 43 ip6 exthdr routing drop",
	      "t.rules:1:15: duplicate match: this 'ip6 exthdr' is already tested at column 1");
	/* Too many tests. */
	error("tcp option 1 tcp option 2 ip option 3 srh tlv 4 geneve option 5:6 drop",
	      "t.rules:1:49: too many TLV tests: 'geneve option' would be the 5th, a rule holds at most 4");
	error("tcp mss 1 tcp wscale 2 vni 3 gre key 4 mpls label 5 drop",
	      "t.rules:1:40: too many value tests: 'mpls label' would be the 5th, a rule holds at most 4");
	/* inner. */
	error("inner tcp dport 1 inner drop", "t.rules:1:19: duplicate match: 'inner' is already at column 1");
	error("tcp dport 1 inner udp sport 2 drop",
	      "t.rules:1:13: 'inner' after 'tcp dport' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	error("ip6 exthdr routing inner drop",
	      "t.rules:1:20: 'inner' after 'ip6 exthdr' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	error("tcp mss 1 inner drop",
	      "t.rules:1:11: 'inner' after 'tcp mss' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	/* Rule ids in a file. */
	error("id 1 drop\n\nid 1 pass\n", "t.rules:3:4: duplicate rule id 1: the rule on line 1 has it");
	error("drop\nid 1 pass\n", "t.rules:2:4: duplicate rule id 1: the rule on line 1 has it");
	/* Settings. */
	error("set default-action reject",
	      "t.rules:1:20: expected pass or drop after 'default-action', got 'reject'");
	error("set pass-arp-nd yes", "t.rules:1:17: expected on or off after 'pass-arp-nd', got 'yes'");
	error("set frob on", "t.rules:1:5: expected default-action or pass-arp-nd after 'set', got 'frob'");
	error("set", "t.rules:1:4: expected default-action or pass-arp-nd after 'set', got end of line");
	error("set pass-arp-nd on off",
	      "t.rules:1:20: expected the end of the line after 'on', got 'off'");
	error("set pass-arp-nd on\nset pass-arp-nd off",
	      "t.rules:2:1: duplicate setting: 'pass-arp-nd' is already set on line 1");
	error("drop set default-action drop",
	      "t.rules:1:6: expected the end of the rule after 'drop', got 'set' (the action comes last)");
	/* The first error stops the file. */
	error("drop\nfoo\nbar\n", "t.rules:2:1: expected a match or an action, got 'foo'");
}

/* A rule file with every keyword: parse, format, parse again. */
static void test_roundtrip_file(void)
{
	static const char text[] =
		"set default-action drop\n"
		"set pass-arp-nd on\n"
		"iif lo ether saddr 02:00:00:00:00:01 ether daddr 02:00:00:00:00:02 ether type ip "
		"vlan id 10 ip saddr 198.18.0.0/15 ip daddr 10.0.0.1 frag none ttl 1-64 dscp 46 "
		"tcp sport 1024-65535 tcp dport 22 tcp flags syn/syn,ack error ok "
		"tcp option mss ip option ra missing tcp mss 536-1460 tcp wscale 7 drop\n"
		"id 100 prio 5 ip6 saddr 2001:db8::/32 ip6 daddr ::1 hoplimit 255 udp dport 53 accept\n"
		"ip6 exthdr routing ip6 hbh option jumbo ip6 dst option padn srh tlv hmac missing "
		"srh segleft 0-3 count\n"
		"ether type 0x88cc proto icmpv6 frag later mark 0xff\n"
		"ip6 frag first proto 58 sample 64\n"
		"geneve option 0x0102:0x80 vni 100 gtpu teid 5 mpls label 16 gre key 1-2 "
		"sample 256 rate 10/s\n"
		"inner ip th sport 1-2 th dport 3 limit 100/s\n"
		"error truncated frag any ether type arp limit 5/s burst 10\n"
		"prio 0 iif 4000 redirect lo\n"
		"ip proto 47 redirect 4000\n"
		"ether type mpls frag later pass\n";
	char a[DYNPF_RULE_TEXT_MAX], b[DYNPF_RULE_TEXT_MAX];
	struct dynpf_ruleset rs, rs2;
	struct dynpf_rule_err err;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	dynpf_ruleset_init(&rs);
	dynpf_ruleset_init(&rs2);
	if (dynpf_ruleset_parse(&rs, FILE_NAME, text, strlen(text), &err)) {
		check("roundtrip file", 0, "%s", err.msg);
		goto out;
	}
	EQ("roundtrip file", rs.n, 11);
	f = open_memstream(&out, &len);
	for (unsigned int k = 1; k < DYNPF_SET_MAX; k++) {
		dynpf_setting_format(k, rs.set[k], a, sizeof(a));
		fprintf(f, "%s\n", a);
	}
	for (size_t i = 0; i < rs.n; i++) {
		roundtrip("roundtrip file", &rs.rules[i]);
		dynpf_rule_format(&rs.rules[i], a, sizeof(a));
		fprintf(f, "%s\n", a);
	}
	fclose(f);
	if (dynpf_ruleset_parse(&rs2, FILE_NAME, out, len, &err)) {
		check("roundtrip file", 0, "normalized text: %s", err.msg);
		goto out;
	}
	EQ("roundtrip file", rs2.n, rs.n);
	check("roundtrip file", rs.n == rs2.n && !memcmp(rs.rules, rs2.rules, rs.n * sizeof(*rs.rules)),
	      "the rules differ");
	check("roundtrip file", rs.set_seen == rs2.set_seen && !memcmp(rs.set, rs2.set, sizeof(rs.set)),
	      "the settings differ");
	for (size_t i = 0; i < rs.n && i < rs2.n; i++) {
		dynpf_rule_format(&rs.rules[i], a, sizeof(a));
		dynpf_rule_format(&rs2.rules[i], b, sizeof(b));
		check("roundtrip file", !strcmp(a, b), "'%s' then '%s'", a, b);
	}
	/* The first rule has every field but the family's other half. */
	/* The first rule tests every field of the match. */
	EQ("every field", rs.rules[0].m.fields, DYNPF_M_ALL);
out:
	free(out);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_free(&rs2);
}

/* format() obeys snprintf's contract. */
static void test_format_buffer(void)
{
	struct dynpf_rule r;
	char small[8], big[DYNPF_RULE_TEXT_MAX];
	int n;

	if (rule("format buffer", "ip6 saddr 2001:db8:1:2:3:4:5:6 sample 1", &r))
		return;
	n = dynpf_rule_format(&r, big, sizeof(big));
	EQ("format length", n, strlen(big));
	memset(small, 'x', sizeof(small));
	EQ("format truncated", dynpf_rule_format(&r, small, sizeof(small)), n);
	check("format truncated", !memcmp(small, "id 1 pr", 8), "'%.8s'", small);
	EQ("format no buffer", dynpf_rule_format(&r, NULL, 0), n);
}

static void test_hostile(void)
{
	static const char comments[] = "# a\n\n  \t # b\n#\n\n";
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	size_t n = 1 << 20, i;
	char *big = malloc(n + 64), **words;
	struct dynpf_rule r;

	/* Empty, only comments, no final newline, CRLF. */
	dynpf_ruleset_init(&rs);
	EQ("empty file", dynpf_ruleset_parse(&rs, FILE_NAME, "", 0, &err), 0);
	EQ("empty file", rs.n + rs.set_seen, 0);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_init(&rs);
	EQ("only comments", dynpf_ruleset_parse(&rs, FILE_NAME, comments, strlen(comments), &err),
	   0);
	EQ("only comments", rs.n, 0);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_init(&rs);
	EQ("no final newline, CRLF", dynpf_ruleset_parse(&rs, FILE_NAME, "drop\r\npass", 10, &err),
	   0);
	EQ("no final newline, CRLF", rs.n, 2);
	dynpf_ruleset_free(&rs);

	/* NUL bytes: part of a word, never a keyword, shown escaped. */
	error_n("NUL in a word", "dr\0op", 5, "t.rules:1:1: expected a match or an action, got 'dr\\x00op'");
	error_n("NUL after the action", "drop\0", 5,
		"t.rules:1:1: expected a match or an action, got 'drop\\x00'");
	error_n("NUL in an address", "ip saddr 1.2.3.4\0 drop", 22,
		"t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '1.2.3.4\\x00'");
	error_n("NUL in an interface", "iif lo\0 drop", 12,
		"t.rules:1:5: expected an interface name or index after 'iif', got 'lo\\x00' (no such interface)");
	dynpf_ruleset_init(&rs);
	EQ("NUL in a comment", dynpf_ruleset_parse(&rs, FILE_NAME, "drop # \0\n", 9, &err), 0);
	dynpf_ruleset_free(&rs);
	/* Not UTF-8, control bytes. */
	error("\xff\xfe drop", "t.rules:1:1: expected a match or an action, got '\\xff\\xfe'");
	error("tcp dport \xc3\x28 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '\\xc3('");
	error("drop\r\r\n", "t.rules:1:1: expected a match or an action, got 'drop\\x0d'");
	error("drop\v", "t.rules:1:1: expected a match or an action, got 'drop\\x0b'");
	/* Numbers past every limit. */
	error("tcp dport 99999999999999999999 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '99999999999999999999'");
	error("id 99999999999999999999 drop",
	      "t.rules:1:4: expected a rule id (1-131071) after 'id', got '99999999999999999999'");
	error("mark 99999999999999999999",
	      "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '99999999999999999999'");
	error("mark 0x100000000", "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '0x100000000'");
	error("mark 4294967296", "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '4294967296'");
	error("limit 18446744073709551617/s",
	      "t.rules:1:7: expected a rate (NUM/s, 1 or more) after 'limit', got '18446744073709551617/s'");
	error("ttl 0x drop", "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '0x'");
	error("ttl +1 drop", "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '+1'");
	error("ttl 1.0 drop", "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '1.0'");
	error("ip saddr 10.0.0.0/0032 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.0/0032'");

	/* A 1 MiB word: the message shows its first 32 bytes. */
	memset(big, 'a', n);
	memcpy(big + n, " drop", 6);
	error_n("1 MiB word", big, n + 5,
		"t.rules:1:1: expected a match or an action, got 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");
	/* A 1 MiB line of valid words: the first duplicate, far from the end. */
	for (i = 0; i + 6 <= n; i += 6)
		memcpy(big + i, "ttl 1 ", 6);
	memcpy(big + i, "drop", 5);
	error_n("1 MiB line", big, i + 4, "t.rules:1:7: duplicate match: 'ttl' is already at column 1");
	/* A 1 MiB comment. */
	big[0] = '#';
	dynpf_ruleset_init(&rs);
	EQ("1 MiB comment", dynpf_ruleset_parse(&rs, FILE_NAME, big, i + 4, &err), 0);
	dynpf_ruleset_free(&rs);
	/* 10000 words of a line, and of a command line. */
	for (i = 0; i < 10000; i++)
		memcpy(big + 4 * i, "tcp ", 4);
	error_n("10000 words", big, 40000,
		"t.rules:1:5: expected sport, dport, flags, option, mss or wscale after 'tcp', got 'tcp'");
	words = calloc(10000, sizeof(*words));
	for (i = 0; i < 10000; i++)
		words[i] = i % 2 ? "1" : "mark";
	check("10000 argv words", dynpf_rule_parse_words(&r, 10000, words, NULL, &err) == -EINVAL &&
					  !strcmp(err.msg, "<command line>:1:8: expected the end of the rule after '1', got 'mark' (the action comes last)"),
	      "%s", err.msg);
	free(words);
	/* Every id taken: the 131072nd rule has none left. */
	for (i = 0; i < DYNPF_MAX_RULES - 1; i++)
		memcpy(big + 5 * i, "drop\n", 5);
	dynpf_ruleset_init(&rs);
	EQ("131071 rules", dynpf_ruleset_parse(&rs, FILE_NAME, big, 5 * i, &err), 0);
	EQ("131071 rules", rs.n, DYNPF_MAX_RULES - 1);
	EQ("131071 rules", rs.rules[rs.n - 1].id, DYNPF_MAX_RULES - 1);
	dynpf_ruleset_free(&rs);
	memcpy(big + 5 * i, "drop\n", 5);
	error_n("no id left", big, 5 * (i + 1),
		"t.rules:131072:1: no free rule id: every id from 1 to 131071 is taken");
	free(big);
}

int main(void)
{
	test_matches();
	test_tlvs_and_values();
	test_actions();
	test_ids_and_settings();
	test_normalized();
	test_errors();
	test_roundtrip_file();
	test_format_buffer();
	test_hostile();
#ifndef HAVE_RULE_CHECK
	printf("test_rules: rules/match.h not found: rules not checked with dynpf_rule_check\n");
#endif
	printf("test_rules: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
