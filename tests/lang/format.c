// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_rules: rules as text: normalized, a whole file and back, snprintf's contract. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

void test_normalized(void)
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
	/* Byte tests: in the order given, after the value tests; values as
	 * 0x and two digits a byte, the mask when it is not all ones. */
	normalized("@l4 2 2 53 tcp option 253 data 0:2 0xF989/0xffff tcp dport 1 drop",
		   "id 1 prio 1 tcp dport 1 @l4 2 2 0x0035 tcp option 253 data 0:2 0xf989 drop");
	normalized("geneve option 258:128 data 0:4 1/0x0000ffff drop",
		   "id 1 prio 1 geneve option 0x0102:0x80 data 0:4 0x00000001/0x0000ffff drop");
	normalized("gtpu ext 133 data 1:2 0x000000000000000000001 drop",
		   "id 1 prio 1 gtpu ext 0x85 data 1:2 0x0001 drop");
	normalized("inner @payload 0 8 18446744073709551615 drop",
		   "id 1 prio 1 inner @payload 0 8 0xffffffffffffffff drop");
}

/* A rule file with every keyword: parse, format, parse again. */
void test_roundtrip_file(void)
{
	static const char text[] =
		"set default-action drop\n"
		"set pass-arp-nd on\n"
		"iif lo ether saddr 02:00:00:00:00:01 ether daddr 02:00:00:00:00:02 ether type ip "
		"vlan id 10 ip saddr 198.18.0.0/15 ip daddr 10.0.0.1 frag none ttl 1-64 dscp 46 "
		"tcp sport 1024-65535 tcp dport 22 tcp flags syn/syn,ack error ok "
		"tcp option mss ip option ra missing tcp mss 536-1460 tcp wscale 7 "
		"tcp option 253 data 0:2 0xf989 @l4 13 1 0x02/0x12 drop\n"
		"id 100 prio 5 ip6 saddr 2001:db8::/32 ip6 daddr ::1 hoplimit 255 udp dport 53 accept\n"
		"ip6 exthdr routing ip6 hbh option jumbo ip6 dst option padn srh tlv hmac missing "
		"srh segleft 0-3 count\n"
		"ether type 0x88cc proto icmpv6 frag later mark 0xff\n"
		"ip6 frag first proto 58 sample 64\n"
		"geneve option 0x0102:0x80 vni 100 gtpu teid 5 mpls label 16 gre key 1-2 "
		"geneve option 0x0102:0x80 data 4:4 0x00000001/0x0000ffff gtpu ext 0x85 data 0:1 5 "
		"ip6 hbh option 0x31 data 2:16 0xffffffffffffffffffffffffffffffff sample 256 rate 10/s\n"
		"inner @l3 0 1 0x45 @payload 65519 16 0 srh tlv hmac data 2:4 7 "
		"ip6 dst option 7 data 0:1 1 drop\nip option 130 data 0:1 1 pass\n"
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
		CHECK("roundtrip file", 0, "%s", err.msg);
		goto out;
	}
	CHECK_EQ("roundtrip file", rs.n, 13);
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
		CHECK("roundtrip file", 0, "normalized text: %s", err.msg);
		goto out;
	}
	CHECK_EQ("roundtrip file", rs2.n, rs.n);
	CHECK("roundtrip file",
	      rs.n == rs2.n && !memcmp(rs.rules, rs2.rules, rs.n * sizeof(*rs.rules)),
	      "the rules differ");
	CHECK("roundtrip file",
	      rs.set_seen == rs2.set_seen && !memcmp(rs.set, rs2.set, sizeof(rs.set)),
	      "the settings differ");
	for (size_t i = 0; i < rs.n && i < rs2.n; i++) {
		dynpf_rule_format(&rs.rules[i], a, sizeof(a));
		dynpf_rule_format(&rs2.rules[i], b, sizeof(b));
		CHECK("roundtrip file", !strcmp(a, b), "'%s' then '%s'", a, b);
	}
	/* The first rule has every field but the family's other half. */
	/* The first rule tests every field of the match. */
	CHECK_EQ("every field", rs.rules[0].m.fields, DYNPF_M_ALL);
out:
	free(out);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_free(&rs2);
}

/* format() obeys snprintf's contract. */
void test_format_buffer(void)
{
	struct dynpf_rule r;
	char small[8], big[DYNPF_RULE_TEXT_MAX];
	int n;

	if (rule("format buffer", "ip6 saddr 2001:db8:1:2:3:4:5:6 sample 1", &r))
		return;
	n = dynpf_rule_format(&r, big, sizeof(big));
	CHECK_EQ("format length", n, strlen(big));
	memset(small, 'x', sizeof(small));
	CHECK_EQ("format truncated", dynpf_rule_format(&r, small, sizeof(small)), n);
	CHECK("format truncated", !memcmp(small, "id 1 pr", 8), "'%.8s'", small);
	CHECK_EQ("format no buffer", dynpf_rule_format(&r, NULL, 0), n);
}
