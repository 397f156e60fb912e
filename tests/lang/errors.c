// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_rules: every error with its FILE:LINE:COLUMN; hostile input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

/* Every error class, with its exact FILE:LINE:COLUMN. */
void test_errors(void)
{
	/* Syntax: what was expected, after what, what came. */
	fails("foo drop", "t.rules:1:1: expected a match or an action, got 'foo'");
	fails("# x\n\n  tcp dport 70000 drop\n",
	      "t.rules:3:13: expected a port or range (0-65535) after 'dport', got '70000'");
	fails("tcp dport 80-22 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '80-22' (the low end is above the high end)");
	fails("tcp dport -1 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '-1'");
	fails("tcp dport 1- drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '1-'");
	fails("tcp dport",
	      "t.rules:1:10: expected a port or range (0-65535) after 'dport', got end of line");
	fails("tcp drop",
	      "t.rules:1:5: expected sport, dport, flags, option, mss or wscale after 'tcp', got 'drop'");
	fails("udp flags syn drop",
	      "t.rules:1:5: expected sport or dport after 'udp', got 'flags'");
	fails("ether foo drop",
	      "t.rules:1:7: expected saddr, daddr or type after 'ether', got 'foo'");
	fails("ether saddr 02:00:00:00:00:001 drop",
	      "t.rules:1:13: expected a MAC address (02:00:00:00:00:01) after 'saddr', got '02:00:00:00:00:001'");
	fails("ether type 0x10000 drop",
	      "t.rules:1:12: expected an ethertype (ip ip6 arp mpls or 0-0xffff) after 'type', got '0x10000'");
	fails("vlan 5 drop", "t.rules:1:6: expected id after 'vlan', got '5'");
	/* Byte tests. */
	fails("tcp option 253 data 0:0 1 drop",
	      "t.rules:1:21: expected OFF:LEN (LEN 1-16, OFF+LEN at most 38) after 'data', got '0:0' (a test compares 1 to 16 bytes)");
	fails("tcp option 253 data 37:2 1 drop",
	      "t.rules:1:21: expected OFF:LEN (LEN 1-16, OFF+LEN at most 38) after 'data', got '37:2' (no TLV of this family has data that long)");
	fails("geneve option 1:2 data 0 1 drop",
	      "t.rules:1:24: expected OFF:LEN (LEN 1-16, OFF+LEN at most 124) after 'data', got '0'");
	fails("tcp option 253 data 0:2 0x10000 drop",
	      "t.rules:1:25: expected a value of 2 bytes (NUM or 0x hex)[/MASK] after '0:2', got '0x10000'");
	fails("tcp option 253 data 0:1 256 drop",
	      "t.rules:1:25: expected a value of 1 byte (NUM or 0x hex)[/MASK] after '0:1', got '256'");
	fails("tcp option 253 data 0:2 1/2 drop",
	      "t.rules:1:25: expected a value of 2 bytes (NUM or 0x hex)[/MASK] after '0:2', got '1/2' (a value bit outside the mask never matches)");
	fails("tcp option 253 data 0:2 0/0 drop",
	      "t.rules:1:25: expected a value of 2 bytes (NUM or 0x hex)[/MASK] after '0:2', got '0/0' (a mask of no bits tests nothing)");
	fails("tcp option 253 data 0:2 drop",
	      "t.rules:1:25: expected a value of 2 bytes (NUM or 0x hex)[/MASK] after '0:2', got 'drop'");
	fails("@l3 1 17 0 drop", "t.rules:1:7: expected a length (1-16) after '1', got '17'");
	fails("@l4 x 1 0 drop", "t.rules:1:5: expected an offset (0-65535) after '@l4', got 'x'");
	fails("@l4 65535 1 0 drop",
	      "t.rules:1:11: expected a length (1-16) after '65535', got '1' (the bytes end past offset 65535)");
	fails("@payload 0 1", "t.rules:1:13: expected a value after '1', got end of line");
	fails("@l3 0 1 1 inner tcp dport 1 drop",
	      "t.rules:1:11: 'inner' after '@l3' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	fails("gtpu ext 0 data 0:1 1 drop",
	      "t.rules:1:10: expected a GTP-U extension header type (1-255) after 'ext', got '0'");
	fails("gtpu ext 5 0:1 1 drop", "t.rules:1:12: expected 'data' after '5', got '0:1'");
	fails("gtpu foo drop", "t.rules:1:6: expected teid or ext after 'gtpu', got 'foo'");
	fails("@l3 0 1 1 @l3 0 1 1 @l3 0 1 1 @l3 0 1 1 @l3 0 1 1 drop",
	      "t.rules:1:41: too many byte tests: '@l3' would be the 5th, a rule holds at most 4");
	fails("vlan id 4096 drop",
	      "t.rules:1:9: expected a VLAN id (0-4095) after 'id', got '4096'");
	fails("dscp 64 drop", "t.rules:1:6: expected a DSCP (0-63) after 'dscp', got '64'");
	fails("ttl 256 drop",
	      "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '256'");
	fails("proto 256 drop",
	      "t.rules:1:7: expected a protocol (tcp udp icmp icmpv6 gre esp ah sctp ipip ipv6 or 0-255) after 'proto', got '256'");
	fails("frag some drop",
	      "t.rules:1:6: expected none, any, first or later after 'frag', got 'some'");
	fails("error bad drop",
	      "t.rules:1:7: expected a parse error name (ok truncated bad_len depth bad_version tlv_len tlv_count bad_hdr) after 'error', got 'bad'");
	fails("ip saddr 10.0.0.256 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.256'");
	fails("ip saddr 10.0.0.0/33 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.0/33' (a prefix length is 0-32)");
	fails("ip saddr 10.0.0.0/ drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.0/'");
	fails("ip saddr ::1 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '::1'");
	fails("ip6 daddr ::/129 drop",
	      "t.rules:1:11: expected an IPv6 address or prefix after 'daddr', got '::/129' (a prefix length is 0-128)");
	/* Host bits, as nft. */
	fails("ip saddr 198.18.0.1/15 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '198.18.0.1/15' (host bits set: the prefix is 198.18.0.0/15)");
	fails("ip6 saddr 2001:db8::1/64 drop",
	      "t.rules:1:11: expected an IPv6 address or prefix after 'saddr', got '2001:db8::1/64' (host bits set: the prefix is 2001:db8::/64)");
	fails("ip daddr 10.0.0.1/0 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'daddr', got '10.0.0.1/0' (host bits set: the prefix is 0.0.0.0/0)");
	fails("tcp flags syn,ack/syn drop",
	      "t.rules:1:11: expected TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after 'flags', got 'syn,ack/syn' (a flag outside the mask never matches)");
	fails("tcp flags 0 drop",
	      "t.rules:1:11: expected TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after 'flags', got '0' (a mask of no flags tests nothing)");
	fails("tcp flags syn,,ack drop",
	      "t.rules:1:11: expected TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after 'flags', got 'syn,,ack'");
	fails("tcp flags syn / drop",
	      "t.rules:1:17: expected a mask of TCP flags (fin,syn,rst,psh,ack,urg,ece,cwr or 0-255) after '/', got 'drop'");
	fails("tcp option sackok drop",
	      "t.rules:1:12: expected a TCP option (eol nop mss wscale sack-perm sack ts mptcp or 0-255) after 'option', got 'sackok'");
	fails("ip option 256 drop",
	      "t.rules:1:11: expected an IPv4 option (eol nop rr ts ra or 0-255) after 'option', got '256'");
	fails("ip6 exthdr 17 drop",
	      "t.rules:1:12: expected an extension header (hopopts routing fragment dstopts ah esp, or 0 43 44 60 51 50) after 'exthdr', got '17'");
	fails("ip6 hbh opt drop", "t.rules:1:9: expected option after 'hbh', got 'opt'");
	fails("srh tlv 256 drop",
	      "t.rules:1:9: expected an SRH TLV (pad1 padn hmac or 0-255) after 'tlv', got '256'");
	fails("srh foo drop", "t.rules:1:5: expected tlv or segleft after 'srh', got 'foo'");
	fails("geneve option 0x102 drop",
	      "t.rules:1:15: expected a Geneve option CLASS:TYPE (0-0xffff:0-0xff) after 'option', got '0x102'");
	fails("geneve option 1:256 drop",
	      "t.rules:1:15: expected a Geneve option CLASS:TYPE (0-0xffff:0-0xff) after 'option', got '1:256'");
	fails("vni 16777216 drop",
	      "t.rules:1:5: expected a VNI or range (0-16777215) after 'vni', got '16777216'");
	fails("mpls label 1048576 drop",
	      "t.rules:1:12: expected an MPLS label or range (0-1048575) after 'label', got '1048576'");
	fails("gtpu teid 4294967296 drop",
	      "t.rules:1:11: expected a TEID or range (0-4294967295) after 'teid', got '4294967296'");
	fails("gre id 1 drop", "t.rules:1:5: expected key after 'gre', got 'id'");
	fails("tcp wscale 256 drop",
	      "t.rules:1:12: expected a window scale or range (0-255) after 'wscale', got '256'");
	fails("srh segleft 3-1 drop",
	      "t.rules:1:13: expected a segments-left value or range (0-255) after 'segleft', got '3-1' (the low end is above the high end)");
	fails("iif no-such-if0 drop",
	      "t.rules:1:5: expected an interface name or index after 'iif', got 'no-such-if0' (no such interface)");
	fails("iif 0 drop",
	      "t.rules:1:5: expected an interface name or index after 'iif', got '0' (interface indexes start at 1)");
	/* id and prio. */
	fails("id 0 drop", "t.rules:1:4: expected a rule id (1-131071) after 'id', got '0'");
	fails("id 131072 drop",
	      "t.rules:1:4: expected a rule id (1-131071) after 'id', got '131072'");
	fails("prio 4294967296 drop",
	      "t.rules:1:6: expected a priority (0-4294967295) after 'prio', got '4294967296'");
	fails("prio 1 id 2 drop",
	      "t.rules:1:8: expected a match or an action after '1', got 'id' ('id', then 'prio', come first)");
	fails("tcp dport 1 prio 2 drop",
	      "t.rules:1:13: expected a match or an action after '1', got 'prio' ('id', then 'prio', come first)");
	/* Actions: missing, arguments, words after. */
	fails("tcp dport 22",
	      "t.rules:1:13: expected a match or an action after '22', got end of line (a rule ends with its action)");
	fails("id 3 prio 4   # no action",
	      "t.rules:1:12: expected a match or an action after '4', got end of line (a rule ends with its action)");
	fails("drop tcp dport 22",
	      "t.rules:1:6: expected the end of the rule after 'drop', got 'tcp' (the action comes last)");
	fails("drop drop",
	      "t.rules:1:6: expected the end of the rule after 'drop', got 'drop' (the action comes last)");
	fails("sample 64 rate 5/s count",
	      "t.rules:1:20: expected the end of the rule after '5/s', got 'count' (the action comes last)");
	fails("redirect",
	      "t.rules:1:9: expected an interface name or index after 'redirect', got end of line");
	fails("mark -1", "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '-1'");
	fails("sample 0",
	      "t.rules:1:8: expected a sample length (1-256 bytes) after 'sample', got '0'");
	fails("sample 257",
	      "t.rules:1:8: expected a sample length (1-256 bytes) after 'sample', got '257'");
	fails("sample 1 rate 5",
	      "t.rules:1:15: expected a rate (NUM/s, 1 or more) after 'rate', got '5'");
	fails("sample 1 rate 0/s",
	      "t.rules:1:15: expected a rate (NUM/s, 1 or more) after 'rate', got '0/s'");
	fails("limit 0/s",
	      "t.rules:1:7: expected a rate (NUM/s, 1 or more) after 'limit', got '0/s'");
	fails("limit /s",
	      "t.rules:1:7: expected a rate (NUM/s, 1 or more) after 'limit', got '/s'");
	fails("limit 5/s burst 0",
	      "t.rules:1:17: expected a burst (packets, 1 or more) after 'burst', got '0'");
	/* Conflicts. */
	fails("ip saddr 10.0.0.1 ip6 daddr ::1 drop",
	      "t.rules:1:19: family conflict: 'ip6 daddr' matches IPv6, 'ip saddr' at column 1 matches IPv4");
	fails("ip6 ip drop",
	      "t.rules:1:5: family conflict: 'ip' matches IPv4, 'ip6' at column 1 matches IPv6");
	fails("ether type ip6 ip saddr 10.0.0.1 drop",
	      "t.rules:1:16: family conflict: 'ip saddr' matches IPv4, 'ether type' at column 1 matches IPv6");
	fails("ip6 ether type ip drop",
	      "t.rules:1:5: family conflict: 'ether type' matches IPv4, 'ip6' at column 1 matches IPv6");
	fails("tcp dport 22 udp sport 53 drop",
	      "t.rules:1:14: protocol conflict: 'udp sport' matches udp, 'tcp dport' at column 1 matches tcp");
	fails("proto udp tcp flags syn drop",
	      "t.rules:1:11: protocol conflict: 'tcp flags' matches tcp, 'proto' at column 1 matches udp");
	fails("udp dport 53 proto icmp drop",
	      "t.rules:1:14: protocol conflict: 'proto' matches icmp, 'udp dport' at column 1 matches udp");
	fails("proto sctp th dport 1 drop",
	      "t.rules:1:12: protocol conflict: 'th dport' at column 12 needs tcp or udp, 'proto' at column 1 matches sctp");
	fails("th sport 1 proto 132 drop",
	      "t.rules:1:12: protocol conflict: 'th sport' at column 1 needs tcp or udp, 'proto' at column 12 matches sctp");
	fails("frag later tcp dport 1 drop",
	      "t.rules:1:12: conflict: 'frag later' at column 1 has no L4 header, 'tcp dport' at column 12 needs one");
	fails("tcp flags syn frag later drop",
	      "t.rules:1:15: conflict: 'frag later' at column 15 has no L4 header, 'tcp flags' at column 1 needs one");
	/* A field twice. */
	fails("ttl 1 ttl 2 drop", "t.rules:1:7: duplicate match: 'ttl' is already at column 1");
	fails("ttl 1 hoplimit 2 drop",
	      "t.rules:1:7: duplicate match: 'hoplimit' tests the same field as 'ttl' at column 1");
	fails("tcp dport 1 th dport 2 drop",
	      "t.rules:1:13: duplicate match: 'th dport' tests the same field as 'tcp dport' at column 1");
	fails("ip saddr 1.1.1.1 ip saddr 2.2.2.2 drop",
	      "t.rules:1:18: duplicate match: 'ip saddr' is already at column 1");
	fails("ip ip drop", "t.rules:1:4: duplicate match: 'ip' is already at column 1");
	fails("proto 6 proto 6 drop",
	      "t.rules:1:9: duplicate match: 'proto' is already at column 1");
	fails("iif 1 iif 1 drop", "t.rules:1:7: duplicate match: 'iif' is already at column 1");
	fails("vni 1 vni 2 drop", "t.rules:1:7: duplicate match: 'vni' is already at column 1");
	fails("tcp option mss tcp option mss missing drop",
	      "t.rules:1:16: duplicate match: this 'tcp option' is already tested at column 1");
	fails("ip6 exthdr 43 ip6 exthdr routing drop",
	      "t.rules:1:15: duplicate match: this 'ip6 exthdr' is already tested at column 1");
	/* Too many tests. */
	fails("tcp option 1 tcp option 2 ip option 3 srh tlv 4 geneve option 5:6 drop",
	      "t.rules:1:49: too many TLV tests: 'geneve option' would be the 5th, a rule holds at most 4");
	fails("tcp mss 1 tcp wscale 2 vni 3 gre key 4 mpls label 5 drop",
	      "t.rules:1:40: too many value tests: 'mpls label' would be the 5th, a rule holds at most 4");
	/* inner. */
	fails("inner tcp dport 1 inner drop",
	      "t.rules:1:19: duplicate match: 'inner' is already at column 1");
	fails("tcp dport 1 inner udp sport 2 drop",
	      "t.rules:1:13: 'inner' after 'tcp dport' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	fails("ip6 exthdr routing inner drop",
	      "t.rules:1:20: 'inner' after 'ip6 exthdr' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	fails("tcp mss 1 inner drop",
	      "t.rules:1:11: 'inner' after 'tcp mss' at column 1: a rule's header matches all refer to one stack, so they all come after 'inner'");
	/* Rule ids in a file. */
	fails("id 1 drop\n\nid 1 pass\n",
	      "t.rules:3:4: duplicate rule id 1: the rule on line 1 has it");
	fails("drop\nid 1 pass\n", "t.rules:2:4: duplicate rule id 1: the rule on line 1 has it");
	/* Settings. */
	fails("set default-action reject",
	      "t.rules:1:20: expected pass or drop after 'default-action', got 'reject'");
	fails("set pass-arp-nd yes",
	      "t.rules:1:17: expected on or off after 'pass-arp-nd', got 'yes'");
	fails("set frob on",
	      "t.rules:1:5: expected default-action or pass-arp-nd after 'set', got 'frob'");
	fails("set",
	      "t.rules:1:4: expected default-action or pass-arp-nd after 'set', got end of line");
	fails("set pass-arp-nd on off",
	      "t.rules:1:20: expected the end of the line after 'on', got 'off'");
	fails("set pass-arp-nd on\nset pass-arp-nd off",
	      "t.rules:2:1: duplicate setting: 'pass-arp-nd' is already set on line 1");
	fails("drop set default-action drop",
	      "t.rules:1:6: expected the end of the rule after 'drop', got 'set' (the action comes last)");
	/* The first error stops the file. */
	fails("drop\nfoo\nbar\n", "t.rules:2:1: expected a match or an action, got 'foo'");
}

void test_hostile(void)
{
	static const char comments[] = "# a\n\n  \t # b\n#\n\n";
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	size_t n = 1 << 20, i;
	char *big = malloc(n + 64), **words;
	struct dynpf_rule r;

	/* Empty, only comments, no final newline, CRLF. */
	dynpf_ruleset_init(&rs);
	CHECK_EQ("empty file", dynpf_ruleset_parse(&rs, FILE_NAME, "", 0, &err), 0);
	CHECK_EQ("empty file", rs.n + rs.set_seen, 0);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_init(&rs);
	CHECK_EQ("only comments",
		 dynpf_ruleset_parse(&rs, FILE_NAME, comments, strlen(comments), &err), 0);
	CHECK_EQ("only comments", rs.n, 0);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_init(&rs);
	CHECK_EQ("no final newline, CRLF",
		 dynpf_ruleset_parse(&rs, FILE_NAME, "drop\r\npass", 10, &err), 0);
	CHECK_EQ("no final newline, CRLF", rs.n, 2);
	dynpf_ruleset_free(&rs);

	/* NUL bytes: part of a word, never a keyword, shown escaped. */
	fails_n("NUL in a word", "dr\0op", 5,
		"t.rules:1:1: expected a match or an action, got 'dr\\x00op'");
	fails_n("NUL after the action", "drop\0", 5,
		"t.rules:1:1: expected a match or an action, got 'drop\\x00'");
	fails_n("NUL in an address", "ip saddr 1.2.3.4\0 drop", 22,
		"t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '1.2.3.4\\x00'");
	fails_n("NUL in an interface", "iif lo\0 drop", 12,
		"t.rules:1:5: expected an interface name or index after 'iif', got 'lo\\x00' (no such interface)");
	dynpf_ruleset_init(&rs);
	CHECK_EQ("NUL in a comment", dynpf_ruleset_parse(&rs, FILE_NAME, "drop # \0\n", 9, &err),
		 0);
	dynpf_ruleset_free(&rs);
	/* Not UTF-8, control bytes. */
	fails("\xff\xfe drop", "t.rules:1:1: expected a match or an action, got '\\xff\\xfe'");
	fails("tcp dport \xc3\x28 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '\\xc3('");
	fails("drop\r\r\n", "t.rules:1:1: expected a match or an action, got 'drop\\x0d'");
	fails("drop\v", "t.rules:1:1: expected a match or an action, got 'drop\\x0b'");
	/* Numbers past every limit. */
	fails("tcp dport 99999999999999999999 drop",
	      "t.rules:1:11: expected a port or range (0-65535) after 'dport', got '99999999999999999999'");
	fails("id 99999999999999999999 drop",
	      "t.rules:1:4: expected a rule id (1-131071) after 'id', got '99999999999999999999'");
	fails("mark 99999999999999999999",
	      "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '99999999999999999999'");
	fails("mark 0x100000000",
	      "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '0x100000000'");
	fails("mark 4294967296",
	      "t.rules:1:6: expected a mark (0-4294967295) after 'mark', got '4294967296'");
	fails("limit 18446744073709551617/s",
	      "t.rules:1:7: expected a rate (NUM/s, 1 or more) after 'limit', got '18446744073709551617/s'");
	fails("ttl 0x drop", "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '0x'");
	fails("ttl +1 drop", "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '+1'");
	fails("ttl 1.0 drop",
	      "t.rules:1:5: expected a TTL or range (0-255) after 'ttl', got '1.0'");
	fails("ip saddr 10.0.0.0/0032 drop",
	      "t.rules:1:10: expected an IPv4 address or prefix after 'saddr', got '10.0.0.0/0032'");

	/* A 1 MiB word: the message shows its first 32 bytes. */
	memset(big, 'a', n);
	memcpy(big + n, " drop", 6);
	fails_n("1 MiB word", big, n + 5,
		"t.rules:1:1: expected a match or an action, got 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");
	/* A 1 MiB line of valid words: the first duplicate, far from the end. */
	for (i = 0; i + 6 <= n; i += 6)
		memcpy(big + i, "ttl 1 ", 6);
	memcpy(big + i, "drop", 5);
	fails_n("1 MiB line", big, i + 4,
		"t.rules:1:7: duplicate match: 'ttl' is already at column 1");
	/* A 1 MiB comment. */
	big[0] = '#';
	dynpf_ruleset_init(&rs);
	CHECK_EQ("1 MiB comment", dynpf_ruleset_parse(&rs, FILE_NAME, big, i + 4, &err), 0);
	dynpf_ruleset_free(&rs);
	/* 10000 words of a line, and of a command line. */
	for (i = 0; i < 10000; i++)
		memcpy(big + 4 * i, "tcp ", 4);
	fails_n("10000 words", big, 40000,
		"t.rules:1:5: expected sport, dport, flags, option, mss or wscale after 'tcp', got 'tcp'");
	words = calloc(10000, sizeof(*words));
	for (i = 0; i < 10000; i++)
		words[i] = i % 2 ? "1" : "mark";
	CHECK("10000 argv words",
	      dynpf_rule_parse_words(&r, 10000, words, NULL, &err) == -EINVAL &&
		      !strcmp(err.msg,
			      "<command line>:1:8: expected the end of the rule after '1', got 'mark' (the action comes last)"),
	      "%s", err.msg);
	free(words);
	/* Every id taken: the 131072nd rule has none left. */
	for (i = 0; i < DYNPF_MAX_RULES - 1; i++)
		memcpy(big + 5 * i, "drop\n", 5);
	dynpf_ruleset_init(&rs);
	CHECK_EQ("131071 rules", dynpf_ruleset_parse(&rs, FILE_NAME, big, 5 * i, &err), 0);
	CHECK_EQ("131071 rules", rs.n, DYNPF_MAX_RULES - 1);
	CHECK_EQ("131071 rules", rs.rules[rs.n - 1].id, DYNPF_MAX_RULES - 1);
	dynpf_ruleset_free(&rs);
	memcpy(big + 5 * i, "drop\n", 5);
	fails_n("no id left", big, 5 * (i + 1),
		"t.rules:131072:1: no free rule id: every id from 1 to 131071 is taken");
	free(big);
}
