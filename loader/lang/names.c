// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The names of values in the rule language (docs/rules.md): ethertypes,
 * protocols, fragment states, TCP flags, TLV types, parse errors, actions
 * and settings; the TLV and value tests. The parser reads them, the printer
 * writes them, and the public dynpf_*_name() functions give them to JSON
 * and messages.
 */
#include "lang/lang.h"

const struct name_val lang_ethertypes[] = {
	{ "ip", 0x0800 }, { "ip6", 0x86dd }, { "arp", 0x0806 }, { "mpls", 0x8847 }, {},
};

const struct name_val lang_ipprotos[] = {
	{ "tcp", 6 },
	{ "udp", 17 },
	{ "icmp", 1 },
	{ "icmpv6", 58 },
	{ "gre", 47 },
	{ "esp", 50 },
	{ "ah", 51 },
	{ "sctp", 132 },
	{ "ipip", 4 },
	{ "ipv6", 41 },
	{},
};

const struct name_val lang_frags[] = {
	{ "none", DYNPF_MF_NOT },
	{ "any", DYNPF_MF_ANY },
	{ "first", DYNPF_MF_FIRST },
	{ "later", DYNPF_MF_NONFIRST },
	{},
};

/* In the order of the flags byte, lowest bit first: the printed order. */
const struct name_val lang_tcp_flags[] = {
	{ "fin", 0x01 }, { "syn", 0x02 }, { "rst", 0x04 },
	{ "psh", 0x08 }, { "ack", 0x10 }, { "urg", 0x20 },
	{ "ece", 0x40 }, { "cwr", 0x80 }, {},
};

static const struct name_val tcp_opts[] = {
	{ "eol", 0 },    { "nop", 1 },       { "mss", 2 },
	{ "wscale", 3 }, { "sack-perm", 4 }, { "sack", 5 },
	{ "ts", 8 },     { "mptcp", 30 },    {},
};

/* IPv4 option types: the whole type byte (copied, class, number). */
static const struct name_val ip_opts[] = {
	{ "eol", 0 }, { "nop", 1 }, { "rr", 7 }, { "ts", 68 }, { "ra", 148 }, {},
};

/* IPv6 extension headers by their protocol numbers (rules/match.h). */
static const struct name_val exthdrs[] = {
	{ "hopopts", 0 },
	{ "routing", 43 },
	{ "fragment", 44 },
	{ "dstopts", 60 },
	{ "ah", 51 },
	{ "esp", 50 },
	{},
};

static const struct name_val ip6_opts[] = {
	{ "pad1", 0 }, { "padn", 1 }, { "ra", 5 }, { "jumbo", 0xc2 }, {},
};

static const struct name_val srh_tlvs[] = {
	{ "pad1", 0 },
	{ "padn", 4 },
	{ "hmac", 5 },
	{},
};

const struct name_val lang_err_names[] = {
#define DYNPF_X(name, val, json, desc) { json, val },
	DYNPF_ERRORS(DYNPF_X)
#undef DYNPF_X
		{},
};

const struct name_val lang_actions[] = {
#define DYNPF_X(name, val, text, term) { text, val },
	DYNPF_ACTIONS(DYNPF_X)
#undef DYNPF_X
		{},
};

const struct name_val lang_settings[] = {
#define DYNPF_X(name, val, text) { text, val },
	DYNPF_SETTINGS(DYNPF_X)
#undef DYNPF_X
		{},
};

static const struct name_val vals[] = {
#define DYNPF_X(name, val, text) { text, val },
	DYNPF_VALS(DYNPF_X)
#undef DYNPF_X
		{},
};

const char *nv_name(const struct name_val *t, __u32 val)
{
	for (; t->name; t++)
		if (t->val == val)
			return t->name;
	return NULL;
}

const struct name_val *nv_lookup(const struct name_val *t, const struct word *w)
{
	for (; t->name; t++)
		if (word_eq(w, t->name))
			return t;
	return NULL;
}

const struct tlv_kind lang_tlv_kinds[] = {
	{ "tcp option", DYNPF_TLV_TCP_OPT, tcp_opts, false },
	{ "ip option", DYNPF_TLV_IPV4_OPT, ip_opts, false },
	{ "ip6 exthdr", DYNPF_TT_EXT, exthdrs, true },
	{ "ip6 hbh option", DYNPF_TLV_IPV6_HBH, ip6_opts, false },
	{ "ip6 dst option", DYNPF_TLV_IPV6_DST, ip6_opts, false },
	{ "srh tlv", DYNPF_TLV_SRH_TLV, srh_tlvs, false },
	{ "geneve option", DYNPF_TLV_GENEVE_OPT, NULL, false },
	{},
};

const struct tlv_kind *tlv_kind_of(__u32 family)
{
	for (const struct tlv_kind *k = lang_tlv_kinds; k->words; k++)
		if (k->family == family)
			return k;
	return NULL;
}

const struct val_kind lang_val_kinds[] = {
	{ DYNPF_V_MSS, "tcp mss" },     { DYNPF_V_WSCALE, "tcp wscale" },
	{ DYNPF_V_VNI, "vni" },         { DYNPF_V_SEGLEFT, "srh segleft" },
	{ DYNPF_V_TEID, "gtpu teid" },  { DYNPF_V_MPLS_LABEL, "mpls label" },
	{ DYNPF_V_GRE_KEY, "gre key" },
};
_Static_assert(ARRAY_SIZE(lang_val_kinds) == DYNPF_V_MAX - 1, "a val_kind per DYNPF_V_*");

const char *dynpf_action_name(unsigned int action)
{
	return nv_name(lang_actions, action);
}

const char *dynpf_setting_name(unsigned int key)
{
	return nv_name(lang_settings, key);
}

const char *dynpf_setting_value_name(unsigned int key, __u64 value)
{
	if (key == DYNPF_SET_DEFAULT_ACTION && (value == DYNPF_ACT_PASS || value == DYNPF_ACT_DROP))
		return dynpf_action_name(value);
	if (key == DYNPF_SET_PASS_ARP_ND && value <= 1)
		return value ? "on" : "off";
	return NULL;
}

const char *dynpf_val_name(unsigned int field)
{
	return nv_name(vals, field);
}

const char *dynpf_frag_name(unsigned int frag)
{
	return nv_name(lang_frags, frag);
}

const char *dynpf_match_error_name(unsigned int err)
{
	return nv_name(lang_err_names, err);
}

const char *dynpf_tlv_test_family_name(unsigned int family)
{
	static const char *const names[] = {
#define DYNPF_X(name, val, json) [val] = json,
		DYNPF_TLV_FAMILIES(DYNPF_X)
#undef DYNPF_X
	};

	if (family == DYNPF_TT_EXT)
		return "ip6_exthdr";
	return family < ARRAY_SIZE(names) ? names[family] : NULL;
}

const char *dynpf_data_where_name(unsigned int where)
{
	switch (where) {
	case DYNPF_DT_GTPU_EXT:
		return "gtpu_ext";
	case DYNPF_DT_L3:
		return "l3";
	case DYNPF_DT_L4:
		return "l4";
	case DYNPF_DT_PAYLOAD:
		return "payload";
	}
	return where == DYNPF_TT_EXT ? NULL : dynpf_tlv_test_family_name(where);
}

const char *dynpf_match_field_name(__u32 bit)
{
	static const struct name_val fields[] = {
		{ "ifindex", DYNPF_M_IFINDEX }, { "eth_src", DYNPF_M_ETH_SRC },
		{ "eth_dst", DYNPF_M_ETH_DST }, { "ethertype", DYNPF_M_ETHERTYPE },
		{ "vlan", DYNPF_M_VLAN },       { "src", DYNPF_M_SRC },
		{ "dst", DYNPF_M_DST },         { "proto", DYNPF_M_PROTO },
		{ "frag", DYNPF_M_FRAG },       { "ttl", DYNPF_M_TTL },
		{ "dscp", DYNPF_M_DSCP },       { "sport", DYNPF_M_SPORT },
		{ "dport", DYNPF_M_DPORT },     { "tcp_flags", DYNPF_M_TCP_FLAGS },
		{ "error", DYNPF_M_ERROR },     { "family", DYNPF_M_FAMILY },
		{ "data", DYNPF_M_DATA },       {},
	};

	return nv_name(fields, bit);
}

static const char *const field_names[] = {
#define DYNPF_X_NAME(n, v, t) [v] = t,
	DYNPF_FIELDS(DYNPF_X_NAME)
#undef DYNPF_X_NAME
};

const char *lang_field_name(unsigned int field)
{
	return field < ARRAY_SIZE(field_names) && field_names[field] ? field_names[field]
								     : "unknown";
}
