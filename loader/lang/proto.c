// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Protocols declared at runtime (docs/rules.md, "Protocols declared at
 * runtime"): a `protocol` line to struct dynpf_proto_desc and back, and the
 * matches on a declared protocol's TLVs (`acme option 5 ...`). What a
 * declaration may say is dynpf_proto_check()'s (rules/protocheck.h), the
 * check the drain runs: its refusal is reported here in its own words, at
 * the word that gave the member it names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lang/lang.h"
#include "protocheck.h"

/* The option areas a protocol may be declared in, by DYNPF_TLV_*. */
static const struct name_val areas[] = {
	{ "tcp-options", DYNPF_TLV_TCP_OPT },
	{ "ip-options", DYNPF_TLV_IPV4_OPT },
	{ "hbh-options", DYNPF_TLV_IPV6_HBH },
	{ "dst-options", DYNPF_TLV_IPV6_DST },
	{ "srh-tlvs", DYNPF_TLV_SRH_TLV },
	{ "geneve-options", DYNPF_TLV_GENEVE_OPT },
	{ NULL, 0 },
};

static const struct name_val sizes[] = {
	{ "u8", 1 }, { "u16", 2 }, { "u24", 3 }, { "u32", 4 }, { NULL, 0 },
};

#define AREA_WHAT "tcp-options, ip-options, hbh-options, dst-options, srh-tlvs or geneve-options"
#define SIZE_WHAT "a field size (u8 u16 u24 u32)"

/* Where each part of the declaration was written: the column of its refusal. */
struct pcols {
	size_t name, at, val, header, hfield, length, type, tlen, tadj, pad, end;
	size_t f_at[3], f_shift[3], f_mask[3], f_units[3];
};

enum {
	LF_FIXED,
	LF_HDR,
	LF_TLV
};

/* The next word, a number of at most max. */
static int need_num(struct rp *p, const char *what, __u32 max, __u32 *out)
{
	int e;

	if ((e = rp_need(p, what)))
		return e;
	if (!word_num(&p->cur, max, out))
		return rp_expected(p, what);
	return 0;
}

/*
 * SIZE [at OFF] [shift N] [mask M] [units U] [adjust A] (adj: whether
 * adjust may be given; the TLV length reads its own), the size the current
 * word. The mask defaults to every bit of the shifted field.
 */
static int lenfield(struct rp *p, struct dynpf_lenfield *f, int which, struct pcols *pc, bool adj)
{
	const struct name_val *sz = nv_lookup(sizes, &p->cur);
	bool mask = false;
	__u32 v;
	int e;

	if (!sz)
		return rp_expected(p, SIZE_WHAT);
	*f = (struct dynpf_lenfield){ .size = sz->val, .unit = 1 };
	for (;;) {
		struct word w = rp_peek(p);

		if (word_eq(&w, "at") && !pc->f_at[which]) {
			rp_next(p);
			pc->f_at[which] = p->cur.col;
			if ((e = need_num(p, "an offset (0-65535)", 0xffff, &v)))
				return e;
			f->off = v;
		} else if (word_eq(&w, "shift") && !pc->f_shift[which]) {
			rp_next(p);
			pc->f_shift[which] = p->cur.col;
			if ((e = need_num(p, "a shift (0-255)", 0xff, &v)))
				return e;
			f->shift = v;
		} else if (word_eq(&w, "mask") && !mask) {
			rp_next(p);
			pc->f_mask[which] = p->cur.col;
			if ((e = need_num(p, "a mask (0-0xffffffff)", 0xffffffff, &f->mask)))
				return e;
			mask = true;
		} else if (word_eq(&w, "units") && !pc->f_units[which]) {
			rp_next(p);
			pc->f_units[which] = p->cur.col;
			if ((e = need_num(p, "units (0-65535)", 0xffff, &v)))
				return e;
			f->unit = v;
		} else if (adj && word_eq(&w, "adjust")) {
			rp_next(p);
			if ((e = need_num(p, "an adjustment (0-65535)", 0xffff, &v)))
				return e;
			f->adj = v;
			adj = false;
		} else {
			break;
		}
	}
	if (!mask)
		f->mask = f->shift < f->size * 8 ? dynpf_lf_max(f->size, f->shift) : 0;
	return 0;
}

/* The column of the word that gave the member a refusal names. */
static size_t refused_col(const struct pcols *pc, unsigned int field)
{
	switch (field) {
	case DYNPF_F_PROTO_NAME:
	case DYNPF_F_PROTO_ID:
		return pc->name;
	case DYNPF_F_PROTO_AT:
		return pc->at;
	case DYNPF_F_PROTO_PORT:
	case DYNPF_F_PROTO_IPPROTO:
	case DYNPF_F_PROTO_ETHERTYPE:
	case DYNPF_F_PROTO_AREA:
		return pc->val;
	case DYNPF_F_PROTO_FIXED:
	case DYNPF_F_PROTO_FIXED_F_SIZE:
		return pc->header ? pc->header : pc->at;
	case DYNPF_F_PROTO_FIXED_F_OFF:
		return pc->f_at[LF_FIXED] ? pc->f_at[LF_FIXED] : pc->hfield;
	case DYNPF_F_PROTO_FIXED_F_SHIFT:
		return pc->f_shift[LF_FIXED];
	case DYNPF_F_PROTO_FIXED_F_MASK:
		return pc->f_mask[LF_FIXED] ? pc->f_mask[LF_FIXED] : pc->hfield;
	case DYNPF_F_PROTO_FIXED_F_UNIT:
		return pc->f_units[LF_FIXED];
	case DYNPF_F_PROTO_HDR_F_SIZE:
		return pc->length ? pc->length : pc->at;
	case DYNPF_F_PROTO_HDR_F_OFF:
		return pc->f_at[LF_HDR] ? pc->f_at[LF_HDR] : pc->length;
	case DYNPF_F_PROTO_HDR_F_SHIFT:
		return pc->f_shift[LF_HDR];
	case DYNPF_F_PROTO_HDR_F_MASK:
		return pc->f_mask[LF_HDR] ? pc->f_mask[LF_HDR] : pc->length;
	case DYNPF_F_PROTO_HDR_F_UNIT:
		return pc->f_units[LF_HDR];
	case DYNPF_F_PROTO_LEN_SIZE:
	case DYNPF_F_PROTO_HDR_LEN:
		return pc->tlen;
	case DYNPF_F_PROTO_LEN_OFF:
		return pc->f_at[LF_TLV] ? pc->f_at[LF_TLV] : pc->tlen;
	case DYNPF_F_PROTO_LEN_SHIFT:
		return pc->f_shift[LF_TLV];
	case DYNPF_F_PROTO_LEN_MASK:
		return pc->f_mask[LF_TLV] ? pc->f_mask[LF_TLV] : pc->tlen;
	case DYNPF_F_PROTO_LEN_UNIT:
		return pc->f_units[LF_TLV];
	case DYNPF_F_PROTO_TYPE_SIZE:
	case DYNPF_F_PROTO_TYPE_OFF:
		return pc->type;
	case DYNPF_F_PROTO_FLAGS:
	case DYNPF_F_PROTO_PADS:
		return pc->pad ? pc->pad : pc->end;
	case DYNPF_F_PROTO_END:
		return pc->end;
	}
	return 0;
}

int lang_proto_find(const struct dynpf_proto_tab *t, const struct word *w)
{
	for (int i = 0; t && w->p && i < DYNPF_MAX_PROTOS; i++)
		if (t->key[i] && w->len < DYNPF_PROTO_NAME_MAX &&
		    !strncmp(t->d[i].name, w->p, w->len) && !t->d[i].name[w->len])
			return i;
	return -1;
}

/* Is the name one a rule starts with (dynpf_proto_reserved(), the drain's too)? */
static bool reserved(const struct word *w)
{
	char name[DYNPF_PROTO_NAME_MAX] = {};

	if (w->len >= sizeof(name))
		return false;
	memcpy(name, w->p, w->len);
	return dynpf_proto_reserved(name);
}

const char *lang_reserved_missing(void)
{
	static char buf[DYNPF_PROTO_NAME_MAX];
	const struct name_val *v;

	for (v = lang_actions; v->name; v++) {
		snprintf(buf, sizeof(buf), "%s", v->name);
		memset(buf + strlen(buf), 0, sizeof(buf) - strlen(buf));
		if (!dynpf_proto_reserved(buf))
			return v->name;
	}
	return lang_match_word_missing(dynpf_proto_reserved);
}

/* pad NUM[,NUM] */
static int pads(struct rp *p, struct dynpf_tlv_enc *t)
{
	const char *comma;
	__u32 a, b;
	int e;

	if ((e = rp_need(p, "a pad type, or two (NUM[,NUM])")))
		return e;
	comma = memchr(p->cur.p, ',', p->cur.len);
	if (!lang_num(p->cur.p, comma ? (size_t)(comma - p->cur.p) : p->cur.len, 0xffffffff, &a) ||
	    (comma && !lang_num(comma + 1, p->cur.len - (comma + 1 - p->cur.p), 0xffffffff, &b)))
		return rp_expected(p, "a pad type, or two (NUM[,NUM])");
	t->flags |= DYNPF_TLVE_PAD1;
	t->pad_type[0] = a;
	if (comma) {
		t->flags |= DYNPF_TLVE_PAD2;
		t->pad_type[1] = b;
	}
	return 0;
}

/* type SIZE [at OFF] length FIELD [includes-header] [pad ...] [end NUM]: cur is "type". */
static int tlv_enc(struct rp *p, struct dynpf_tlv_enc *t, struct pcols *pc)
{
	const struct name_val *sz;
	bool incl = false, adj;
	__u32 v, tend, lend;
	int e;

	pc->type = p->cur.col;
	if ((e = rp_need(p, SIZE_WHAT)))
		return e;
	if (!(sz = nv_lookup(sizes, &p->cur)))
		return rp_expected(p, SIZE_WHAT);
	t->type_size = sz->val;
	rp_next(p);
	if (rp_is(p, "at")) {
		if ((e = need_num(p, "an offset (0-255)", 0xff, &v)))
			return e;
		t->type_off = v;
		rp_next(p);
	}
	if (!rp_is(p, "length"))
		return rp_expected(p, t->type_off ? "'length'" : "at or length");
	pc->tlen = p->cur.col;
	if ((e = rp_need(p, SIZE_WHAT)) || (e = lenfield(p, &t->len, LF_TLV, pc, false)))
		return e;
	/* Without `at`, the length field follows the type field. */
	if (!pc->f_at[LF_TLV])
		t->len.off = t->type_off + t->type_size;
	tend = t->type_off + t->type_size;
	lend = t->len.off + t->len.size;
	t->hdr_len = tend > lend ? tend : lend;
	/* Whether the length counts the TLV's header: not, unless said. */
	adj = false;
	t->len.adj = t->hdr_len;
	for (rp_next(p); p->cur.p; rp_next(p)) {
		if (rp_is(p, "includes-header") && !incl && !adj) {
			incl = true;
			t->len.adj = 0;
		} else if (rp_is(p, "adjust") && !incl && !adj) {
			pc->tadj = p->cur.col;
			if ((e = need_num(p, "an adjustment (0-65535)", 0xffff, &v)))
				return e;
			t->len.adj = v;
			adj = true;
		} else if (rp_is(p, "pad") && !pc->pad) {
			pc->pad = p->cur.col;
			if ((e = pads(p, t)))
				return e;
		} else if (rp_is(p, "end") && !pc->end) {
			pc->end = p->cur.col;
			if ((e = need_num(p, "an end type (NUM)", 0xffffffff, &t->end_type)))
				return e;
			t->flags |= DYNPF_TLVE_END;
		} else {
			return rp_expected_why(
				p, "includes-header, adjust, pad, end or the end of the line",
				"each once, the TLVs come last");
		}
	}
	return 0;
}

/* The id a declaration gets: the lowest not in t; -1 when all 8 are taken. */
static int free_id(const struct dynpf_proto_tab *t)
{
	for (int i = 0; i < DYNPF_MAX_PROTOS; i++)
		if (!t || !t->key[i])
			return i;
	return -1;
}

int lang_proto(struct rp *p, struct dynpf_proto_desc *d, const struct dynpf_proto_tab *known,
	       const unsigned long *known_line)
{
	struct pcols pc = {};
	struct word w;
	__u32 v;
	__u16 field;
	int e, id;

	memset(d, 0, sizeof(*d));
	/* protocol NAME */
	if ((e = rp_need(p, "a protocol name")))
		return e;
	pc.name = p->cur.col;
	if (reserved(&p->cur))
		return rp_expected_why(p, "a protocol name", "a word of the rule language");
	if (p->cur.len >= DYNPF_PROTO_NAME_MAX)
		return rp_expected_why(p, "a protocol name", "at most 15 characters");
	memcpy(d->name, p->cur.p, p->cur.len);
	for (int i = 0; known && i < DYNPF_MAX_PROTOS; i++) {
		if (known->key[i] && !strncmp(known->d[i].name, d->name, DYNPF_PROTO_NAME_MAX)) {
			if (known_line && known_line[i])
				return rp_fail(p, pc.name,
					       "duplicate protocol '%s': declared on line %lu",
					       d->name, known_line[i]);
			return rp_fail(p, pc.name, "duplicate protocol '%s': it is declared",
				       d->name);
		}
	}
	id = free_id(known);
	if (id < 0)
		return rp_fail(p, pc.name, "too many protocols: at most %u are declared at once",
			       DYNPF_MAX_PROTOS);
	d->id = id;
	/* Where it is. */
	if ((e = rp_need(p, "udp, tcp, ip, ether or in")))
		return e;
	pc.at = p->cur.col;
	if (rp_is(p, "udp") || rp_is(p, "tcp")) {
		d->at = rp_is(p, "udp") ? DYNPF_PAT_UDP : DYNPF_PAT_TCP;
		if ((e = rp_need(p, "'dport'")))
			return e;
		if (!rp_is(p, "dport"))
			return rp_expected(p, "'dport'");
		pc.val = p->cur.col + p->cur.len + 1;
		if ((e = need_num(p, "a port (1-65535)", 0xffff, &v)))
			return e;
	} else if (rp_is(p, "ip")) {
		d->at = DYNPF_PAT_IP;
		if ((e = rp_need(p, "'proto'")))
			return e;
		if (!rp_is(p, "proto"))
			return rp_expected(p, "'proto'");
		pc.val = p->cur.col + p->cur.len + 1;
		if ((e = need_num(p, "an IP protocol (0-255)", 0xff, &v)))
			return e;
	} else if (rp_is(p, "ether")) {
		d->at = DYNPF_PAT_ETHER;
		if ((e = rp_need(p, "'type'")))
			return e;
		if (!rp_is(p, "type"))
			return rp_expected(p, "'type'");
		pc.val = p->cur.col + p->cur.len + 1;
		if ((e = need_num(p, "an ethertype (0x0600-0xffff)", 0xffff, &v)))
			return e;
	} else if (rp_is(p, "in")) {
		const struct name_val *a;

		d->at = DYNPF_PAT_AREA;
		if ((e = rp_need(p, AREA_WHAT)))
			return e;
		pc.val = p->cur.col;
		if (!(a = nv_lookup(areas, &p->cur)))
			return rp_expected(p, AREA_WHAT);
		v = a->val;
	} else {
		return rp_expected(p, "udp, tcp, ip, ether or in");
	}
	d->at_val = v;
	pc.val = p->cur.col;
	for (int i = 0; known && i < DYNPF_MAX_PROTOS; i++)
		if (known->key[i] && known->key[i] == DYNPF_PROTO_KEY(d->at, d->at_val))
			return rp_fail(p, pc.at,
				       "conflict: protocol '%s' is declared there already",
				       known->d[i].name);
	/* header NUM | FIELD [min NUM] [length FIELD] */
	rp_next(p);
	if (rp_is(p, "header")) {
		pc.header = p->cur.col;
		if ((e = rp_need(p, "a fixed part's bytes (NUM) or its length field (u8 ...)")))
			return e;
		if (word_num(&p->cur, 0xffff, &v)) {
			d->fixed = v;
		} else if (nv_lookup(sizes, &p->cur)) {
			pc.hfield = p->cur.col;
			if ((e = lenfield(p, &d->fixed_f, LF_FIXED, &pc, true)))
				return e;
			d->fixed = d->fixed_f.off + d->fixed_f.size;
			w = rp_peek(p);
			if (word_eq(&w, "min")) {
				rp_next(p);
				if ((e = need_num(p, "the fixed part's least bytes (NUM)", 0xffff,
						  &v)))
					return e;
				d->fixed = v;
			}
		} else {
			return rp_expected(
				p, "a fixed part's bytes (NUM) or its length field (u8 ...)");
		}
		rp_next(p);
		if (rp_is(p, "length")) {
			pc.length = p->cur.col;
			if ((e = rp_need(p, SIZE_WHAT)) ||
			    (e = lenfield(p, &d->hdr_f, LF_HDR, &pc, true)))
				return e;
			rp_next(p);
		}
	}
	if (!rp_is(p, "tlv"))
		return rp_expected(p, pc.header ? "length or tlv" : "header or tlv");
	if ((e = rp_need(p, "'type'")))
		return e;
	if (!rp_is(p, "type"))
		return rp_expected(p, "'type'");
	if ((e = tlv_enc(p, &d->tlv, &pc)))
		return e;
	if (dynpf_proto_check(d, &field))
		return rp_fail(p, refused_col(&pc, field) ?: pc.name, "protocol '%s': field %s: %s",
			       d->name, lang_field_name(field), dynpf_proto_why(field));
	return 0;
}

/*
 * " u16 at 2 shift 4 mask 0xf units 4 adjust 8": a length field's words,
 * those that are not its defaults (at: at_def; adjust: 0, and only if adj).
 */
static int lenfield_text(const struct dynpf_lenfield *f, __u32 at_def, bool adj, char *buf,
			 size_t len)
{
	int n = 0;

#define PUT(...) (n += snprintf(buf + n, len > (size_t)n ? len - n : 0, __VA_ARGS__))
	PUT(" %s", nv_name(sizes, f->size) ?: "u?");
	if (f->off != at_def)
		PUT(" at %u", f->off);
	if (f->shift)
		PUT(" shift %u", f->shift);
	if (f->shift >= f->size * 8 || f->mask != dynpf_lf_max(f->size, f->shift))
		PUT(" mask 0x%x", f->mask);
	if (f->unit != 1)
		PUT(" units %u", f->unit);
	if (adj && f->adj)
		PUT(" adjust %u", f->adj);
	return n;
}

/* The rest of buf, after n bytes of it (snprintf's contract: n may pass len). */
#define REST(buf, n, len)                                      \
	((buf) + ((size_t)(n) < (len) ? (size_t)(n) : (len))), \
		((size_t)(n) < (len) ? (len) - (n) : 0)

int dynpf_proto_format(const struct dynpf_proto_desc *d, char *buf, size_t len)
{
	const struct dynpf_tlv_enc *t = &d->tlv;
	int n = 0;

	PUT("protocol %.15s", d->name);
	switch (d->at) {
	case DYNPF_PAT_UDP:
		PUT(" udp dport %u", d->at_val);
		break;
	case DYNPF_PAT_TCP:
		PUT(" tcp dport %u", d->at_val);
		break;
	case DYNPF_PAT_IP:
		PUT(" ip proto %u", d->at_val);
		break;
	case DYNPF_PAT_ETHER:
		PUT(" ether type 0x%04x", d->at_val);
		break;
	case DYNPF_PAT_AREA:
		PUT(" in %s", nv_name(areas, d->at_val) ?: "?");
		break;
	}
	if (d->fixed_f.size) {
		PUT(" header");
		n += lenfield_text(&d->fixed_f, 0, true, REST(buf, n, len));
		if (d->fixed != d->fixed_f.off + d->fixed_f.size)
			PUT(" min %u", d->fixed);
	} else if (d->at != DYNPF_PAT_AREA) {
		PUT(" header %u", d->fixed);
	}
	if (d->hdr_f.size) {
		PUT(" length");
		n += lenfield_text(&d->hdr_f, 0, true, REST(buf, n, len));
	}
	PUT(" tlv type %s", nv_name(sizes, t->type_size) ?: "u?");
	if (t->type_off)
		PUT(" at %u", t->type_off);
	PUT(" length");
	/* Its default place: right after the type. */
	n += lenfield_text(&t->len, t->type_off + t->type_size, false, REST(buf, n, len));
	if (t->len.adj == 0)
		PUT(" includes-header");
	else if (t->len.adj != t->hdr_len)
		PUT(" adjust %u", t->len.adj);
	if (t->flags & DYNPF_TLVE_PAD1) {
		PUT(" pad %u", t->pad_type[0]);
		if (t->flags & DYNPF_TLVE_PAD2)
			PUT(",%u", t->pad_type[1]);
	}
	if (t->flags & DYNPF_TLVE_END)
		PUT(" end %u", t->end_type);
#undef PUT
	return n;
}
