// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Protocols declared at runtime: the check of a declaration
 * (dynpf_proto_check(), rules/protocheck.h), the one the drain runs: every
 * hostile declaration refused with the member it names, the built-in
 * families' encodings accepted, and every refusal's text there.
 */
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "protocheck.h"

#include "lang.h"
#include "lang/lang.h"
#include "../lib/acme.h"

/* d is refused, naming field. */
static void refused(const char *name, const struct dynpf_proto_desc *d, unsigned int field)
{
	__u16 f = 0;
	int e = dynpf_proto_check(d, &f);

	CHECK(name, e == -EINVAL && f == field, "check %d field %u (%s), want -EINVAL field %u", e,
	      f, dynpf_proto_why(f) ? dynpf_proto_why(f) : "?", field);
}

static void accepted(const char *name, const struct dynpf_proto_desc *d)
{
	__u16 f = 0;
	int e = dynpf_proto_check(d, &f);

	CHECK(name, !e, "check %d field %u: %s", e, f, dynpf_proto_why(f) ?: "?");
}

#define REFUSED(what, field, ...)                          \
	do {                                               \
		struct dynpf_proto_desc d_ = test_acme(1); \
		__VA_ARGS__;                               \
		refused(what, &d_, DYNPF_F_##field);       \
	} while (0)

#define ACCEPTED(what, ...)                                \
	do {                                               \
		struct dynpf_proto_desc d_ = test_acme(1); \
		__VA_ARGS__;                               \
		accepted(what, &d_);                       \
	} while (0)

void test_proto_check(void)
{
	ACCEPTED("acme");
	/* Names the language writes back: [a-z][a-z0-9_-]*, 1-15, NUL after. */
	ACCEPTED("name of 15", memcpy(d_.name, "a23456789012345", 16));
	REFUSED("name of 16", PROTO_NAME, memcpy(d_.name, "a234567890123456", 16));
	REFUSED("empty name", PROTO_NAME, memset(d_.name, 0, 16));
	REFUSED("name from a digit", PROTO_NAME, d_.name[0] = '1');
	REFUSED("uppercase name", PROTO_NAME, d_.name[1] = 'C');
	REFUSED("a blank in a name", PROTO_NAME, d_.name[2] = ' ');
	REFUSED("bytes after the NUL", PROTO_NAME, d_.name[9] = 'x');
	REFUSED("a word a rule starts with", PROTO_NAME, memcpy(d_.name, "tcp\0", 4));
	REFUSED("an action's name", PROTO_NAME, memcpy(d_.name, "drop", 4));
	ACCEPTED("a name that only starts like one", memcpy(d_.name, "tcpx", 4));
	REFUSED("id 8", PROTO_ID, d_.id = DYNPF_MAX_PROTOS);
	REFUSED("at 0", PROTO_AT, d_.at = 0);
	REFUSED("at 6", PROTO_AT, d_.at = DYNPF_PAT_MAX);
	/* What dynpf parses itself. */
	REFUSED("port 0", PROTO_PORT, d_.at_val = 0);
	REFUSED("udp geneve", PROTO_PORT, d_.at_val = 6081);
	REFUSED("udp vxlan", PROTO_PORT, d_.at_val = 4789);
	REFUSED("udp gtpu", PROTO_PORT, d_.at_val = 2152);
	ACCEPTED("tcp 6081", d_.at = DYNPF_PAT_TCP; d_.at_val = 6081);
	REFUSED("ip proto tcp", PROTO_IPPROTO, d_.at = DYNPF_PAT_IP; d_.at_val = 6);
	REFUSED("ip proto routing", PROTO_IPPROTO, d_.at = DYNPF_PAT_IP; d_.at_val = 43);
	REFUSED("ip proto 256", PROTO_IPPROTO, d_.at = DYNPF_PAT_IP; d_.at_val = 256);
	ACCEPTED("ip proto 253", d_.at = DYNPF_PAT_IP; d_.at_val = 253);
	ACCEPTED("ip proto sctp", d_.at = DYNPF_PAT_IP; d_.at_val = 132);
	REFUSED("ether type ipv6", PROTO_ETHERTYPE, d_.at = DYNPF_PAT_ETHER; d_.at_val = 0x86dd);
	REFUSED("ether type mpls", PROTO_ETHERTYPE, d_.at = DYNPF_PAT_ETHER; d_.at_val = 0x8847);
	REFUSED("ether type a length", PROTO_ETHERTYPE, d_.at = DYNPF_PAT_ETHER;
		d_.at_val = 0x05dc);
	ACCEPTED("ether type 0x88b5", d_.at = DYNPF_PAT_ETHER; d_.at_val = 0x88b5);
	REFUSED("area 6", PROTO_AREA, d_.at = DYNPF_PAT_AREA; d_.at_val = DYNPF_TLV_NFAM;
		d_.fixed = 0);
	ACCEPTED("area geneve", d_.at = DYNPF_PAT_AREA; d_.at_val = DYNPF_TLV_GENEVE_OPT;
		 d_.fixed = 0);
	REFUSED("area with a fixed part", PROTO_FIXED, d_.at = DYNPF_PAT_AREA; d_.at_val = 0);
	REFUSED("area with a header length", PROTO_HDR_F_SIZE, d_.at = DYNPF_PAT_AREA;
		d_.at_val = 0; d_.fixed = 0; d_.hdr_f = (struct dynpf_lenfield){ .size = 1 });
	REFUSED("pad", PROTO_PAD, d_.pad = 1);
	REFUSED("pad2", PROTO_PAD, d_.pad2 = 1);
	/* Offsets past any header: a fixed part past 512, a field past it. */
	REFUSED("fixed 513", PROTO_FIXED, d_.fixed = 513);
	ACCEPTED("fixed 512", d_.fixed = 512);
	REFUSED("a length field past the fixed part", PROTO_HDR_F_OFF,
		d_.hdr_f =
			(struct dynpf_lenfield){ .off = 7, .size = 2, .mask = 0xffff, .unit = 1 });
	REFUSED("a 5-byte field", PROTO_HDR_F_SIZE,
		d_.hdr_f = (struct dynpf_lenfield){ .size = 5, .mask = 1, .unit = 1 });
	REFUSED("no field, an adjustment", PROTO_HDR_F_SIZE, d_.hdr_f.adj = 8);
	ACCEPTED("geneve-like header length",
		 d_.hdr_f =
			 (struct dynpf_lenfield){ .size = 1, .mask = 0x3f, .unit = 4, .adj = 8 });
	REFUSED("a shift past the field", PROTO_HDR_F_SHIFT,
		d_.hdr_f = (struct dynpf_lenfield){ .size = 1, .shift = 8, .mask = 1, .unit = 1 });
	REFUSED("a mask past the shifted field", PROTO_HDR_F_MASK,
		d_.hdr_f =
			(struct dynpf_lenfield){ .size = 1, .shift = 4, .mask = 0x1f, .unit = 1 });
	REFUSED("a mask of no bits", PROTO_FIXED_F_MASK,
		d_.fixed_f = (struct dynpf_lenfield){ .size = 1, .mask = 0, .unit = 1 });
	REFUSED("units of 0", PROTO_FIXED_F_UNIT,
		d_.fixed_f = (struct dynpf_lenfield){ .size = 2, .mask = 0xffff });
	ACCEPTED("a 4-byte field, all of it",
		 d_.fixed_f = (struct dynpf_lenfield){
			 .off = 4, .size = 4, .mask = 0xffffffff, .unit = 1 });
	/* TLVs: what the walker cannot read. */
	REFUSED("type of 0 bytes", PROTO_TYPE_SIZE, d_.tlv.type_size = 0);
	REFUSED("type of 5 bytes", PROTO_TYPE_SIZE, d_.tlv.type_size = 5);
	REFUSED("type past 8 bytes", PROTO_TYPE_OFF, d_.tlv.flags = 0; d_.tlv.pad_type[0] = 0;
		d_.tlv.type_off = 6; d_.tlv.type_size = 3);
	REFUSED("a pad type with the type not first", PROTO_TYPE_OFF, d_.tlv.type_off = 2;
		d_.tlv.len.off = 0; d_.tlv.hdr_len = 3);
	REFUSED("length of 0 bytes", PROTO_LEN_SIZE, d_.tlv.len.size = 0);
	REFUSED("length on the type", PROTO_LEN_OFF, d_.tlv.len.off = 0);
	REFUSED("length past 8 bytes", PROTO_LEN_OFF, d_.tlv.len.off = 6; d_.tlv.len.size = 3);
	REFUSED("length of no units", PROTO_LEN_UNIT, d_.tlv.len.unit = 0);
	REFUSED("length of no bits", PROTO_LEN_MASK, d_.tlv.len.mask = 0);
	REFUSED("a header length that is not the fields'", PROTO_HDR_LEN, d_.tlv.hdr_len = 4);
	REFUSED("a header of 0 bytes", PROTO_HDR_LEN, d_.tlv.hdr_len = 0);
	REFUSED("unknown flags", PROTO_FLAGS, d_.tlv.flags |= 0x80);
	REFUSED("pad2 without pad1", PROTO_FLAGS, d_.tlv.flags = DYNPF_TLVE_PAD2);
	REFUSED("a pad type wider than the type", PROTO_PADS, d_.tlv.pad_type[0] = 256);
	REFUSED("two equal pad types", PROTO_PADS, d_.tlv.flags |= DYNPF_TLVE_PAD2;
		d_.tlv.pad_type[1] = 0);
	REFUSED("an unused pad type", PROTO_PADS, d_.tlv.pad_type[1] = 3);
	REFUSED("an end type that pads", PROTO_END, d_.tlv.flags |= DYNPF_TLVE_END);
	REFUSED("an unused end type", PROTO_END, d_.tlv.end_type = 1);
	ACCEPTED("an end type", d_.tlv.flags |= DYNPF_TLVE_END; d_.tlv.end_type = 0xff;
		 d_.tlv.pad_type[0] = 1);
	/* Diameter-like AVPs: code(4) flags(1) length(3), the length counting all. */
	ACCEPTED("u32 type, u24 length",
		 d_.tlv = (struct dynpf_tlv_enc){
			 .type_size = 4,
			 .hdr_len = 8,
			 .len = { .off = 5, .size = 3, .mask = 0xffffff, .unit = 1 } });
	/* Every refusal has its text. */
	for (unsigned int f = DYNPF_F_PROTO_NAME; f <= DYNPF_F_PROTO_PADS; f++)
		CHECK("why", dynpf_proto_why(f) && strlen(dynpf_proto_why(f)) > 10,
		      "field %u has no text", f);
	CHECK("why", !dynpf_proto_why(DYNPF_F_DATA), "match.data has a declaration's text");
}

/* A rule file's text parses; its normalized text is want, which parses back the same. */
static void file_is(const char *name, const char *text, const char *want)
{
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs, back;
	size_t len, len2;
	char *out, *out2;

	dynpf_ruleset_init(&rs);
	dynpf_ruleset_init(&back);
	if (dynpf_ruleset_parse(&rs, FILE_NAME, text, strlen(text), &err)) {
		CHECK(name, 0, "refused: %s", err.msg);
		dynpf_ruleset_free(&rs);
		return;
	}
	out = dynpf_ruleset_text(&rs, true, &len);
	CHECK(name, out && !strcmp(out, want), "normalized to\n%s want\n%s", out ? out : "", want);
	if (out && !dynpf_ruleset_parse(&back, FILE_NAME, out, len, &err)) {
		out2 = dynpf_ruleset_text(&back, true, &len2);
		CHECK(name, out2 && !strcmp(out, out2), "does not read back the same:\n%s", out2);
		CHECK(name, !memcmp(&rs.protos.d, &back.protos.d, sizeof(rs.protos.d)),
		      "the declarations read back differ");
		CHECK(name,
		      rs.n == back.n && !memcmp(rs.rules, back.rules, rs.n * sizeof(*rs.rules)),
		      "the rules read back differ");
		free(out2);
	} else {
		CHECK(name, 0, "does not parse back: %s", err.msg);
	}
	for (unsigned int i = 0; i < DYNPF_MAX_PROTOS; i++) {
		__u16 f;

		if (rs.protos.key[i])
			CHECK(name, !dynpf_proto_check(&rs.protos.d[i], &f),
			      "'%s' refused by the drain's check: field %u", rs.protos.d[i].name,
			      f);
	}
	for (size_t i = 0; i < rs.n; i++) {
		__u16 f;

		CHECK(name, !dynpf_rule_check(&rs.rules[i], &f), "rule %zu refused: field %u", i,
		      f);
	}
	free(out);
	dynpf_ruleset_free(&rs);
	dynpf_ruleset_free(&back);
}

#define ACME "protocol acme udp dport 7777 header 8 tlv type u8 length u8 includes-header pad 0\n"

/* Lines of `rules apply` (dynpf_change_parse): a declaration, a deletion by name. */
static void change_lines(const struct dynpf_proto_tab *protos)
{
	static const char add[] = "rule add protocol b ip proto 253 tlv type u8 length u8";
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "rule del protocol nosuch",
		  "a:7:19: expected a declared protocol's name after 'protocol', got 'nosuch' (no such protocol)" },
		{ "rule del protocol",
		  "a:7:18: expected a declared protocol's name after 'protocol', got end of line" },
		{ "rule del protocol acme 5",
		  "a:7:24: expected the end of the line after 'acme', got '5' (rule del takes one protocol)" },
		{ "rule add protocol acme udp dport 7778 tlv type u8 length u8",
		  "a:7:19: duplicate protocol 'acme': it is declared" },
		{ "rule del 0x",
		  "a:7:10: expected a rule id (1-131071) or 'protocol' after 'del', got '0x'" },
	};
	struct dynpf_rule_err err;
	struct dynpf_change c;

	CHECK_EQ("change: declaration",
		 dynpf_change_parse(&c, "a", 7, add, strlen(add), NULL, protos, &err), 0);
	CHECK_EQ("change: declaration", c.kind, DYNPF_CHANGE_PROTO_ADD);
	CHECK("change: declaration", c.proto.id == 1 && !strcmp(c.proto.name, "b"), "id %u name %s",
	      c.proto.id, c.proto.name);
	CHECK_EQ("change: deletion",
		 dynpf_change_parse(&c, "a", 7, "rule del protocol acme", 22, NULL, protos, &err),
		 0);
	CHECK("change: deletion",
	      c.kind == DYNPF_CHANGE_PROTO_DEL && c.proto.id == 0 && !strcmp(c.proto.name, "acme"),
	      "kind %d id %u", c.kind, c.proto.id);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int e = dynpf_change_parse(&c, "a", 7, bad[i].line, strlen(bad[i].line), NULL,
					   protos, &err);

		CHECK(bad[i].line, e == -EINVAL && !strcmp(err.msg, bad[i].err), "%d: %s", e,
		      e ? err.msg : "");
	}
}

void test_proto_lang(void)
{
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;

	/* The example, then a rule on it: "units 1" is the default. */
	file_is("acme",
		"protocol acme udp dport 7777 header 8 tlv type u8 length u8 units 1 includes-header pad 0\n"
		"acme option 5 data 0:2 0x0102 drop\n",
		ACME "id 1 prio 1 acme option 5 data 0:2 0x0102 drop\n");
	/* Every binding, length fields, types up to 32 bits, pads and an end. */
	file_is("bindings",
		"protocol g2 udp dport 6082 header 8 length u8 mask 0x3f units 4 adjust 8 "
		"tlv type u24 length u8 mask 0x1f units 4\n"
		"protocol t1 tcp dport 9000 header u16 at 2 units 4 min 8 tlv type u16 length u16 pad 0,1 end 255\n"
		"protocol p1 ip proto 253 header 4 tlv type u8 at 1 length u8 at 0 adjust 3\n"
		"protocol e1 ether type 0x88b5 header 0 tlv type u32 length u24 at 5 includes-header\n"
		"protocol o1 in hbh-options tlv type u8 length u8 pad 0\n"
		"set default-action drop\n"
		"g2 option 0x010280 missing t1 option 7 e1 option 0xffffffff count\n"
		"o1 option 0x31 data 2:4 1 drop\n",
		"protocol g2 udp dport 6082 header 8 length u8 mask 0x3f units 4 adjust 8 "
		"tlv type u24 length u8 mask 0x1f units 4\n"
		"protocol t1 tcp dport 9000 header u16 at 2 units 4 min 8 tlv type u16 length u16 pad 0,1 end 255\n"
		"protocol p1 ip proto 253 header 4 tlv type u8 at 1 length u8 at 0 adjust 3\n"
		"protocol e1 ether type 0x88b5 header 0 tlv type u32 length u24 at 5 includes-header\n"
		"protocol o1 in hbh-options tlv type u8 length u8 pad 0\n"
		"set default-action drop\n"
		"id 1 prio 1 g2 option 66176 missing t1 option 7 e1 option 4294967295 count\n"
		"id 2 prio 2 o1 option 49 data 2:4 0x00000001 drop\n");
	/* A wrong declaration: the validator's words, at the word that gave the member. */
	fails(ACME "protocol b udp dport 7778 header 8 tlv type u8 length u8 units 0 drop\n",
	      "t.rules:2:66: expected includes-header, adjust, pad, end or the end of the line after '0', got 'drop' (each once, the TLVs come last)");
	fails("protocol b udp dport 7778 header 8 tlv type u8 length u8 units 0\n",
	      "t.rules:1:58: protocol 'b': field proto.tlv.len.unit: units are 1 or more: 0 would measure nothing");
	fails("protocol b udp dport 6081 header 8 tlv type u8 length u8\n",
	      "t.rules:1:22: protocol 'b': field proto.at_val: a port is 1 to 65535, and not one of the UDP tunnels dynpf parses (4789 vxlan, 6081 geneve, 2152 gtpu)");
	fails("protocol b ip proto 6 tlv type u8 length u8\n",
	      "t.rules:1:21: protocol 'b': field proto.at_val: an IP protocol is 0 to 255, and not one dynpf parses (0 1 4 6 17 41 43 44 47 50 51 58 59 60)");
	fails("protocol b udp dport 7778 header 600 tlv type u8 length u8\n",
	      "t.rules:1:27: protocol 'b': field proto.fixed: a fixed part is at most 512 bytes; a protocol in an option area has no header (0)");
	fails("protocol b udp dport 7778 header 8 length u8 at 8 tlv type u8 length u8\n",
	      "t.rules:1:46: protocol 'b': field proto.hdr_f.off: a header's length field lies in its fixed part (off + size <= fixed): the bytes read before the field is known");
	fails("protocol b udp dport 7778 header 8 tlv type u32 length u32 at 6\n",
	      "t.rules:1:60: protocol 'b': field proto.tlv.len.off: a TLV's length field lies in its first 8 bytes, apart from its type field");
	fails("protocol b udp dport 7778 header 8 tlv type u8 length u8 mask 0x100\n",
	      "t.rules:1:58: protocol 'b': field proto.tlv.len.mask: a mask has bits, and none past the shifted field");
	fails("protocol b udp dport 7778 header 8 tlv type u8 length u8 pad 256\n",
	      "t.rules:1:58: protocol 'b': field proto.tlv.pad_type: a pad type fits the type field, two pad types differ, and one not given is 0");
	fails("protocol b udp dport 7778 header 8 tlv type u8 at 1 length u8 at 0 pad 0\n",
	      "t.rules:1:40: protocol 'b': field proto.tlv.type_off: a TLV's type field lies in its first 8 bytes, at its start when pad or end types are given (they are TLVs of only their type)");
	fails("protocol b in tcp-options header 4 tlv type u8 length u8\n",
	      "t.rules:1:27: protocol 'b': field proto.fixed: a fixed part is at most 512 bytes; a protocol in an option area has no header (0)");
	/* Names, bindings, how many. */
	fails("protocol tcp udp dport 7778 tlv type u8 length u8\n",
	      "t.rules:1:10: expected a protocol name after 'protocol', got 'tcp' (a word of the rule language)");
	fails("protocol drop udp dport 7778 tlv type u8 length u8\n",
	      "t.rules:1:10: expected a protocol name after 'protocol', got 'drop' (a word of the rule language)");
	fails("protocol abcdefghijklmnop udp dport 7778 tlv type u8 length u8\n",
	      "t.rules:1:10: expected a protocol name after 'protocol', got 'abcdefghijklmnop' (at most 15 characters)");
	fails("protocol Acme udp dport 7778 tlv type u8 length u8\n",
	      "t.rules:1:10: protocol 'Acme': field proto.name: a name is 1 to 15 characters, a lowercase letter then lowercase letters, digits, '-' or '_', NUL bytes after it, and not a word a rule starts with (tcp, ip, drop, ...)");
	/* The drain refuses what the language does: the words a rule starts with. */
	CHECK("reserved words", !lang_reserved_missing(),
	      "'%s' starts rules, not refused as a name", lang_reserved_missing());
	fails(ACME "protocol acme udp dport 7778 tlv type u8 length u8\n",
	      "t.rules:2:10: duplicate protocol 'acme': declared on line 1");
	fails(ACME "protocol b udp dport 7777 tlv type u8 length u8\n",
	      "t.rules:2:12: conflict: protocol 'acme' is declared there already");
	fails("protocol a0 ip proto 150 tlv type u8 length u8\nprotocol a1 ip proto 151 tlv type u8 length u8\n"
	      "protocol a2 ip proto 152 tlv type u8 length u8\nprotocol a3 ip proto 153 tlv type u8 length u8\n"
	      "protocol a4 ip proto 154 tlv type u8 length u8\nprotocol a5 ip proto 155 tlv type u8 length u8\n"
	      "protocol a6 ip proto 156 tlv type u8 length u8\nprotocol a7 ip proto 157 tlv type u8 length u8\n"
	      "protocol a8 ip proto 158 tlv type u8 length u8\n",
	      "t.rules:9:10: too many protocols: at most 8 are declared at once");
	fails("protocol b udp port 1 tlv type u8 length u8\n",
	      "t.rules:1:16: expected 'dport' after 'udp', got 'port'");
	fails("protocol b in tcp tlv type u8 length u8\n",
	      "t.rules:1:15: expected tcp-options, ip-options, hbh-options, dst-options, srh-tlvs or geneve-options after 'in', got 'tcp'");
	fails("protocol b udp dport 7778 tlv length u8\n",
	      "t.rules:1:31: expected 'type' after 'tlv', got 'length'");
	fails("protocol b udp dport 7778 tlv type u9 length u8\n",
	      "t.rules:1:36: expected a field size (u8 u16 u24 u32) after 'type', got 'u9'");
	/* Rules: a name declared before, a type that fits its field. */
	fails("acme option 5 drop\n" ACME,
	      "t.rules:1:1: expected a match or an action, got 'acme'");
	fails(ACME "acme option 256 drop\n",
	      "t.rules:2:13: expected a acme TLV type (0-255) after 'option', got '256'");
	fails(ACME "acme 5 drop\n", "t.rules:2:6: expected 'option' after 'acme', got '5'");
	fails(ACME "acme option 5 acme option 5 missing drop\n",
	      "t.rules:2:15: duplicate match: this 'acme option' is already tested at column 1");
	fails(ACME "acme option 5 data 0:17 1 drop\n",
	      "t.rules:2:20: expected OFF:LEN (LEN 1-16, OFF+LEN at most 2048) after 'data', got '0:17' (a test compares 1 to 16 bytes)");
	/* From words: the next free id, the active set's names and bindings taken. */
	dynpf_ruleset_init(&rs);
	if (!dynpf_ruleset_parse(&rs, FILE_NAME, ACME, strlen(ACME), &err)) {
		char *w1[] = { "protocol", "b",    "ip", "proto",  "253",
			       "tlv",      "type", "u8", "length", "u8" };
		char *w2[] = { "protocol", "c",    "udp", "dport",  "7777",
			       "tlv",      "type", "u8",  "length", "u8" };
		char *w3[] = { "acme", "option", "5", "count" };
		struct dynpf_proto_desc d;
		struct dynpf_rule r;

		CHECK_EQ("words: the next id",
			 dynpf_proto_parse_words(&d, 10, w1, &rs.protos, &err), 0);
		CHECK_EQ("words: the next id", d.id, 1);
		CHECK_EQ("words: a binding taken",
			 dynpf_proto_parse_words(&d, 10, w2, &rs.protos, &err), -EINVAL);
		CHECK("words: a binding taken",
		      !strcmp(err.msg,
			      "<command line>:1:12: conflict: protocol 'acme' is declared there already"),
		      "%s", err.msg);
		CHECK_EQ("words: a rule on acme",
			 dynpf_rule_parse_words_p(&r, 4, w3, NULL, &rs.protos, &err), 0);
		CHECK_EQ("words: a rule on acme", r.m.tlv[0].family, DYNPF_TLV_NFAM);
		CHECK_EQ("words: acme unknown", dynpf_rule_parse_words(&r, 4, w3, NULL, &err),
			 -EINVAL);
		change_lines(&rs.protos);
	}
	dynpf_ruleset_free(&rs);
}
