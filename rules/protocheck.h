/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The check of a protocol declaration (include/dynpf/proto.h), one for the
 * drain (a PROTO_ADD message, bpf/drain.bpf.c) and for user space (the
 * rule language, the fuzzer): 0, or -EINVAL with *field naming the first
 * member that is wrong (a DYNPF_F_PROTO_*, the ack's field).
 * dynpf_proto_why() says what that member must be: the one text both
 * sides print after "field NAME: ".
 *
 * What it refuses: names the language cannot write back, ids past the
 * limit, bindings to what dynpf parses itself, fields that are not there
 * to read (a length field past the bytes read before it, of no bits, no
 * units), TLV headers longer than the walker reads (8 bytes), pad and end
 * types that do not fit or that collide. What it leaves to the walk: a
 * length whose value is 0 or short. The walker never steps less than a
 * TLV's header (at least one byte), so no declaration can make it loop;
 * such a TLV ends the walk with tlv_len.
 */
#ifndef DYNPF_RULES_PROTOCHECK_H
#define DYNPF_RULES_PROTOCHECK_H

#include "common.h"
#include "dynpf/ctrl.h"

#ifndef EINVAL
#define EINVAL 22
#endif

/* X(field, why): what each member of a declaration must be. */
#define DYNPF_PROTO_WHY(X)                                                                         \
	X(PROTO_NAME, "a name is 1 to 15 characters, a lowercase letter then lowercase letters, "  \
		      "digits, '-' or '_', NUL bytes after it, and not a word a rule starts "      \
		      "with (tcp, ip, drop, ...)")                                                 \
	X(PROTO_ID, "ids are 0 to 7: at most 8 protocols are declared at once")                    \
	X(PROTO_AT, "a protocol is behind a UDP or TCP destination port, an IP protocol or an "    \
		    "ethertype, or in a built-in TLV family's option areas")                       \
	X(PROTO_PORT, "a port is 1 to 65535, and not one of the UDP tunnels dynpf parses (4789 "   \
		      "vxlan, 6081 geneve, 2152 gtpu)")                                            \
	X(PROTO_IPPROTO, "an IP protocol is 0 to 255, and not one dynpf parses (0 1 4 6 17 41 43 " \
			 "44 47 50 51 58 59 60)")                                                  \
	X(PROTO_ETHERTYPE, "an ethertype is 0x0600 to 0xffff, and not one dynpf parses (0x0800 "   \
			   "0x0806 0x86dd 0x8100 0x88a8 0x8847 0x8848)")                           \
	X(PROTO_AREA, "an option area is that of a built-in TLV family (0 tcp-options to 5 "       \
		      "geneve-options)")                                                           \
	X(PROTO_FIXED, "a fixed part is at most 512 bytes; a protocol in an option area has no "   \
		       "header (0)")                                                               \
	X(PROTO_PAD, "padding is 0")                                                               \
	X(PROTO_FIXED_F_SIZE,                                                                      \
	  "a header's length field is 1 to 4 bytes, or none (0, and its other "                    \
	  "members 0); a protocol in an option area has none")                                     \
	X(PROTO_FIXED_F_OFF, "a header's length field lies in its fixed part (off + size <= "      \
			     "fixed): the bytes read before the field is known")                   \
	X(PROTO_FIXED_F_SHIFT, "a shift is less than the field's bits")                            \
	X(PROTO_FIXED_F_MASK, "a mask has bits, and none past the shifted field")                  \
	X(PROTO_FIXED_F_UNIT, "units are 1 or more: 0 would measure nothing")                      \
	X(PROTO_HDR_F_SIZE, "a header's length field is 1 to 4 bytes, or none (0, and its other "  \
			    "members 0); a protocol in an option area has none")                   \
	X(PROTO_HDR_F_OFF,                                                                         \
	  "a header's length field lies in its fixed part (off + size <= fixed): "                 \
	  "the bytes read before the field is known")                                              \
	X(PROTO_HDR_F_SHIFT, "a shift is less than the field's bits")                              \
	X(PROTO_HDR_F_MASK, "a mask has bits, and none past the shifted field")                    \
	X(PROTO_HDR_F_UNIT, "units are 1 or more: 0 would measure nothing")                        \
	X(PROTO_LEN_SIZE, "a TLV's length field is 1 to 4 bytes")                                  \
	X(PROTO_LEN_OFF,                                                                           \
	  "a TLV's length field lies in its first 8 bytes, apart from its type field")             \
	X(PROTO_LEN_SHIFT, "a shift is less than the field's bits")                                \
	X(PROTO_LEN_MASK, "a mask has bits, and none past the shifted field")                      \
	X(PROTO_LEN_UNIT, "units are 1 or more: 0 would measure nothing")                          \
	X(PROTO_TYPE_SIZE, "a TLV's type field is 1 to 4 bytes")                                   \
	X(PROTO_TYPE_OFF,                                                                          \
	  "a TLV's type field lies in its first 8 bytes, at its start when pad or "                \
	  "end types are given (they are TLVs of only their type)")                                \
	X(PROTO_HDR_LEN, "a TLV's header ends where the later of its type and length fields ends") \
	X(PROTO_FLAGS, "the flags are an end type and one or two pad types (the first before the " \
		       "second)")                                                                  \
	X(PROTO_END,                                                                               \
	  "an end type fits the type field and is not a pad type; 0 when none is given")           \
	X(PROTO_PADS,                                                                              \
	  "a pad type fits the type field, two pad types differ, and one not given is 0")

/* The first field of each length field's five: size, off, shift, mask, unit. */
#define DYNPF_LF_SIZE 0
#define DYNPF_LF_OFF 1
#define DYNPF_LF_SHIFT 2
#define DYNPF_LF_MASK 3
#define DYNPF_LF_UNIT 4

/* The largest value of a field of size bytes shifted right by shift (shift < 8 * size). */
dynpf_inline __u32 dynpf_lf_max(__u32 size, __u32 shift)
{
	__u32 bits = size * 8 - shift;

	return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

/*
 * A length field that must lie in the first room bytes (none_ok: it may be
 * absent). base: its DYNPF_F_*_SIZE; the others follow it.
 */
dynpf_inline int dynpf_lf_check(const struct dynpf_lenfield *f, __u32 room, __u16 base, int none_ok,
				__u16 *field)
{
	*field = base + DYNPF_LF_SIZE;
	if (!f->size)
		return none_ok && !f->off && !f->shift && !f->mask && !f->unit && !f->adj ? 0
											  : -EINVAL;
	if (f->size > 4)
		return -EINVAL;
	*field = base + DYNPF_LF_OFF;
	if ((__u32)f->off + f->size > room)
		return -EINVAL;
	*field = base + DYNPF_LF_SHIFT;
	if (f->shift >= f->size * 8)
		return -EINVAL;
	*field = base + DYNPF_LF_MASK;
	if (!f->mask || (f->mask & ~dynpf_lf_max(f->size, f->shift)))
		return -EINVAL;
	*field = base + DYNPF_LF_UNIT;
	if (!f->unit)
		return -EINVAL;
	*field = DYNPF_F_NONE;
	return 0;
}

/*
 * The words a rule can start with (docs/rules.md: id, prio, set, a match
 * keyword's first word, an action): no protocol is named so, or the rule
 * language could not write its rules back. tests/lang/protos.c holds the
 * list to the language's own tables (lang_reserved_missing()).
 */
struct dynpf_word16 {
	char s[DYNPF_PROTO_NAME_MAX];
};

static const struct dynpf_word16 dynpf_proto_reserved_words[] = {
	{ "id" },    { "prio" },     { "set" },    { "protocol" }, { "inner" },    { "iif" },
	{ "ether" }, { "vlan" },     { "ip" },     { "ip6" },      { "proto" },    { "frag" },
	{ "ttl" },   { "hoplimit" }, { "dscp" },   { "tcp" },      { "udp" },      { "th" },
	{ "error" }, { "srh" },      { "geneve" }, { "vni" },      { "gtpu" },     { "mpls" },
	{ "gre" },   { "pass" },     { "accept" }, { "drop" },     { "redirect" }, { "count" },
	{ "mark" },  { "sample" },   { "limit" },
};

#define DYNPF_PROTO_NRESERVED \
	(sizeof(dynpf_proto_reserved_words) / sizeof(dynpf_proto_reserved_words[0]))

/* Is name (16 bytes, NUL-padded) one of them? Compared 8 bytes at a time. */
dynpf_inline int dynpf_proto_reserved(const char *name)
{
	__u64 a0, a1, b0, b1;
	__u32 i;

	__builtin_memcpy(&a0, name, 8);
	__builtin_memcpy(&a1, name + 8, 8);
	for (i = 0; i < DYNPF_PROTO_NRESERVED; i++) {
		__builtin_memcpy(&b0, dynpf_proto_reserved_words[i].s, 8);
		__builtin_memcpy(&b1, dynpf_proto_reserved_words[i].s + 8, 8);
		if (a0 == b0 && a1 == b1)
			return 1;
	}
	return 0;
}

/* Does a declaration bind to something dynpf parses itself? */
dynpf_inline int dynpf_proto_builtin(__u32 at, __u32 v)
{
	/* 0 1 4 6 17 41 43 44 47 50 51 58 59 60: parsed, or IPv6's "no next header" */
	const __u64 ipprotos = 1ull << 0 | 1ull << 1 | 1ull << 4 | 1ull << 6 | 1ull << 17 |
			       1ull << 41 | 1ull << 43 | 1ull << 44 | 1ull << 47 | 1ull << 50 |
			       1ull << 51 | 1ull << 58 | 1ull << 59 | 1ull << 60;

	switch (at) {
	case DYNPF_PAT_UDP:
		return v == 4789 || v == 6081 || v == 2152;
	case DYNPF_PAT_IP:
		return v < 64 && ((ipprotos >> v) & 1);
	case DYNPF_PAT_ETHER:
		return v == 0x0800 || v == 0x0806 || v == 0x86dd || v == 0x8100 || v == 0x88a8 ||
		       v == 0x8847 || v == 0x8848;
	}
	return 0;
}

/* The TLV encoding (also the built-in families', parsers/tlvstep.h). */
dynpf_inline int dynpf_tlv_enc_check(const struct dynpf_tlv_enc *e, __u16 *field)
{
	__u32 tend = (__u32)e->type_off + e->type_size, lend, tmax;
	int err;

	*field = DYNPF_F_PROTO_TYPE_SIZE;
	if (e->type_size < 1 || e->type_size > 4)
		return -EINVAL;
	*field = DYNPF_F_PROTO_TYPE_OFF;
	if (tend > DYNPF_TLV_HDR_MAX || (e->type_off && (e->flags & DYNPF_TLVE_ALL)))
		return -EINVAL;
	err = dynpf_lf_check(&e->len, DYNPF_TLV_HDR_MAX, DYNPF_F_PROTO_LEN_SIZE, 0, field);
	if (err)
		return err;
	lend = (__u32)e->len.off + e->len.size;
	*field = DYNPF_F_PROTO_LEN_OFF;
	if (e->len.off < tend && lend > e->type_off)
		return -EINVAL;
	*field = DYNPF_F_PROTO_HDR_LEN;
	if (e->hdr_len != (tend > lend ? tend : lend))
		return -EINVAL;
	*field = DYNPF_F_PROTO_FLAGS;
	if ((e->flags & ~DYNPF_TLVE_ALL) ||
	    ((e->flags & DYNPF_TLVE_PAD2) && !(e->flags & DYNPF_TLVE_PAD1)))
		return -EINVAL;
	tmax = dynpf_lf_max(e->type_size, 0);
	*field = DYNPF_F_PROTO_PADS;
	if ((e->flags & DYNPF_TLVE_PAD1) ? e->pad_type[0] > tmax : e->pad_type[0] != 0)
		return -EINVAL;
	if ((e->flags & DYNPF_TLVE_PAD2) ? e->pad_type[1] > tmax || e->pad_type[1] == e->pad_type[0]
					 : e->pad_type[1] != 0)
		return -EINVAL;
	*field = DYNPF_F_PROTO_END;
	if (!(e->flags & DYNPF_TLVE_END))
		return e->end_type ? -EINVAL : (*field = DYNPF_F_NONE, 0);
	if (e->end_type > tmax || ((e->flags & DYNPF_TLVE_PAD1) && e->end_type == e->pad_type[0]) ||
	    ((e->flags & DYNPF_TLVE_PAD2) && e->end_type == e->pad_type[1]))
		return -EINVAL;
	*field = DYNPF_F_NONE;
	return 0;
}

/* Is this a declaration the walker can hold? 0, or -EINVAL with *field. */
dynpf_inline int dynpf_proto_check(const struct dynpf_proto_desc *d, __u16 *field)
{
	__u32 i, end = 0;
	int err;

	*field = DYNPF_F_PROTO_NAME;
	for (i = 0; i < DYNPF_PROTO_NAME_MAX; i++) {
		char ch = d->name[i];

		if (end) {
			if (ch)
				return -EINVAL;
			continue;
		}
		if (!ch) {
			if (!i)
				return -EINVAL;
			end = 1;
		} else if (!((ch >= 'a' && ch <= 'z') ||
			     (i && ((ch >= '0' && ch <= '9') || ch == '-' || ch == '_')))) {
			return -EINVAL;
		}
	}
	if (!end || dynpf_proto_reserved(d->name)) /* no NUL: 16 characters */
		return -EINVAL;
	*field = DYNPF_F_PROTO_ID;
	if (d->id >= DYNPF_MAX_PROTOS)
		return -EINVAL;
	switch (d->at) {
	case DYNPF_PAT_UDP:
	case DYNPF_PAT_TCP:
		*field = DYNPF_F_PROTO_PORT;
		if (!d->at_val || dynpf_proto_builtin(d->at, d->at_val))
			return -EINVAL;
		break;
	case DYNPF_PAT_IP:
		*field = DYNPF_F_PROTO_IPPROTO;
		if (d->at_val > 0xff || dynpf_proto_builtin(d->at, d->at_val))
			return -EINVAL;
		break;
	case DYNPF_PAT_ETHER:
		*field = DYNPF_F_PROTO_ETHERTYPE;
		if (d->at_val < 0x0600 || dynpf_proto_builtin(d->at, d->at_val))
			return -EINVAL;
		break;
	case DYNPF_PAT_AREA:
		*field = DYNPF_F_PROTO_AREA;
		if (d->at_val >= DYNPF_TLV_NFAM)
			return -EINVAL;
		break;
	default:
		*field = DYNPF_F_PROTO_AT;
		return -EINVAL;
	}
	*field = DYNPF_F_PROTO_PAD;
	if (d->pad || d->pad2)
		return -EINVAL;
	*field = DYNPF_F_PROTO_FIXED;
	if (d->fixed > DYNPF_PROTO_FIXED_MAX || (d->at == DYNPF_PAT_AREA && d->fixed))
		return -EINVAL;
	/* An option area's protocol has no header: no length field (room 0). */
	if (d->at == DYNPF_PAT_AREA && d->fixed_f.size)
		return *field = DYNPF_F_PROTO_FIXED_F_SIZE, -EINVAL;
	if (d->at == DYNPF_PAT_AREA && d->hdr_f.size)
		return *field = DYNPF_F_PROTO_HDR_F_SIZE, -EINVAL;
	err = dynpf_lf_check(&d->fixed_f, d->fixed, DYNPF_F_PROTO_FIXED_F_SIZE, 1, field);
	if (!err)
		err = dynpf_lf_check(&d->hdr_f, d->fixed, DYNPF_F_PROTO_HDR_F_SIZE, 1, field);
	if (err)
		return err;
	return dynpf_tlv_enc_check(&d->tlv, field);
}

/* The binding kind (DYNPF_DECL_*) a checked declaration uses. */
dynpf_inline __u32 dynpf_proto_bit(const struct dynpf_proto_desc *d)
{
	switch (d->at) {
	case DYNPF_PAT_UDP:
		return DYNPF_DECL_UDP;
	case DYNPF_PAT_TCP:
		return DYNPF_DECL_TCP;
	case DYNPF_PAT_IP:
		return DYNPF_DECL_IP;
	case DYNPF_PAT_ETHER:
		return DYNPF_DECL_ETHER;
	case DYNPF_PAT_AREA:
		return DYNPF_DECL_AREA(d->at_val & 7);
	}
	return 0;
}

/* The table's count and bits, from its slots. */
dynpf_inline void dynpf_proto_tab_sum(struct dynpf_proto_tab *t)
{
	__u32 i;

	t->n = 0;
	t->bits = 0;
	for (i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (!t->key[i])
			continue;
		t->n++;
		t->bits |= dynpf_proto_bit(&t->d[i]);
	}
}

/* A checked declaration into its slot of t (its id's). */
dynpf_inline void dynpf_proto_tab_set(struct dynpf_proto_tab *t, const struct dynpf_proto_desc *d)
{
	__u32 id = d->id & (DYNPF_MAX_PROTOS - 1);

	t->d[id] = *d;
	t->key[id] = DYNPF_PROTO_KEY(d->at, d->at_val);
	dynpf_proto_tab_sum(t);
}

/* Slot id of t emptied. */
dynpf_inline void dynpf_proto_tab_unset(struct dynpf_proto_tab *t, __u32 id)
{
	id &= DYNPF_MAX_PROTOS - 1;
	__builtin_memset(&t->d[id], 0, sizeof(t->d[id]));
	t->key[id] = 0;
	dynpf_proto_tab_sum(t);
}

/* The family of a declared protocol's TLVs, and back. */
#define DYNPF_TLV_DECL(id) (DYNPF_TLV_NFAM + (id))
dynpf_inline int dynpf_tlv_is_decl(__u32 family)
{
	return family >= DYNPF_TLV_NFAM && family < DYNPF_TLV_NALL;
}

#if !defined(__bpf__)
/* What the member a DYNPF_F_PROTO_* names must be; NULL for other fields. */
static inline const char *dynpf_proto_why(unsigned int field)
{
	switch (field) {
#define DYNPF_X_WHY(f, why) \
	case DYNPF_F_##f:   \
		return why;
		DYNPF_PROTO_WHY(DYNPF_X_WHY)
#undef DYNPF_X_WHY
	}
	return NULL;
}
#endif

#endif /* DYNPF_RULES_PROTOCHECK_H */
