// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The printer of the rule language: a struct dynpf_rule back to its
 * normalized text ("id N prio N", `inner`, the matches in the order of the
 * docs' table, the action), what `rules check` and `rules save` print and
 * what parses back to the same rule; and a setting line.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lang/lang.h"

struct out {
	char *buf;
	size_t len, pos;
	const struct dynpf_proto_tab *protos; /* the declared protocols' names */
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	bool room = o->pos < o->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += n;
}

/* A declared protocol's name, "proto<ID>" when it is not known. */
static void put_decl(struct out *o, __u32 family)
{
	__u32 id = family - DYNPF_TLV_NFAM;

	if (o->protos && id < DYNPF_MAX_PROTOS && o->protos->key[id])
		put(o, " %.15s option", o->protos->d[id].name);
	else
		put(o, " proto%u option", id);
}

/* An interface: its name when it has one that reads back as a name. */
static void put_if(struct out *o, __u32 ifindex)
{
	char name[IF_NAMESIZE];
	__u32 v;

	if (ifindex && if_indextoname(ifindex, name) &&
	    !lang_num(name, strlen(name), 0xffffffff, &v) && !strpbrk(name, " \t#"))
		put(o, " %s", name);
	else
		put(o, " %u", ifindex);
}

const char *dynpf_range_text(char *buf, __u32 lo, __u32 hi)
{
	if (lo == hi)
		snprintf(buf, DYNPF_RANGE_TEXT_MAX, "%u", lo);
	else
		snprintf(buf, DYNPF_RANGE_TEXT_MAX, "%u-%u", lo, hi);
	return buf;
}

static void put_range(struct out *o, __u32 lo, __u32 hi)
{
	char b[DYNPF_RANGE_TEXT_MAX];

	put(o, " %s", dynpf_range_text(b, lo, hi));
}

static void put_named(struct out *o, const struct name_val *t, __u32 v)
{
	const char *n = nv_name(t, v);

	if (n)
		put(o, " %s", n);
	else
		put(o, " %u", v);
}

static void put_flags(struct out *o, __u8 v)
{
	bool first = true;

	if (!v) {
		put(o, "0");
		return;
	}
	for (const struct name_val *f = lang_tcp_flags; f->name; f++) {
		if (!(v & f->val))
			continue;
		put(o, "%s%s", first ? "" : ",", f->name);
		first = false;
	}
}

static void put_prefix(struct out *o, const char *w, int fam, const __u8 *a, __u8 plen)
{
	char s[INET6_ADDRSTRLEN];

	if (!inet_ntop(fam == 4 ? AF_INET : AF_INET6, a, s, sizeof(s)))
		snprintf(s, sizeof(s), "?");
	put(o, " %s %s", w, s);
	if (plen != (fam == 4 ? 32 : 128))
		put(o, "/%u", plen);
}

const char *dynpf_data_hex(const __u8 *b, unsigned int len, char *buf)
{
	size_t n = 2;

	buf[0] = '0';
	buf[1] = 'x';
	for (unsigned int i = 0; i < len && i < DYNPF_DATA_MAX; i++, n += 2)
		snprintf(buf + n, 3, "%02x", b[i]);
	buf[n] = 0;
	return buf;
}

/* A TLV's type, as its presence test writes it. */
static void put_tlv_type(struct out *o, const struct tlv_kind *k, __u32 type)
{
	if (!k->types)
		put(o, " 0x%04x:0x%02x", type >> 8, type & 0xff);
	else
		put_named(o, k->types, type);
}

/* A byte test: its TLV and type, or its layer, then where and what. */
static void put_data(struct out *o, const struct dynpf_data_test *t)
{
	const struct tlv_kind *k = t->where < DYNPF_TLV_NFAM ? tlv_kind_of(t->where) : NULL;
	const char *raw = NULL;
	char hex[2 * DYNPF_DATA_MAX + 3];
	bool full = true;

	switch (t->where) {
	case DYNPF_DT_L3:
		raw = "@l3";
		break;
	case DYNPF_DT_L4:
		raw = "@l4";
		break;
	case DYNPF_DT_PAYLOAD:
		raw = "@payload";
		break;
	case DYNPF_DT_GTPU_EXT:
		put(o, " gtpu ext 0x%02x", t->type);
		break;
	default:
		if (k) {
			put(o, " %s", k->words);
			put_tlv_type(o, k, t->type);
		} else if (t->where >= DYNPF_TLV_NFAM && t->where < DYNPF_TLV_NALL) {
			put_decl(o, t->where);
			put(o, " %u", t->type);
		} else {
			put(o, " data%u %u", t->where, t->type);
		}
	}
	if (raw)
		put(o, " %s %u %u", raw, t->off, t->len);
	else
		put(o, " data %u:%u", t->off, t->len);
	put(o, " %s", dynpf_data_hex(t->val, t->len, hex));
	for (unsigned int i = 0; i < t->len && i < DYNPF_DATA_MAX; i++)
		full &= t->mask[i] == 0xff;
	if (!full)
		put(o, "/%s", dynpf_data_hex(t->mask, t->len, hex));
}

int dynpf_rule_format(const struct dynpf_rule *r, char *buf, size_t len)
{
	return dynpf_rule_format_p(r, NULL, buf, len);
}

int dynpf_rule_format_p(const struct dynpf_rule *r, const struct dynpf_proto_tab *protos, char *buf,
			size_t len)
{
	const struct dynpf_match *m = &r->m;
	struct out o = { buf, len, 0, protos };
	__u32 f = m->fields;
	const char *l4 = "th";

	if (len)
		buf[0] = 0;
	put(&o, "id %u prio %u", r->id, r->prio);
	if (m->stack)
		put(&o, " inner");
	if (f & DYNPF_M_IFINDEX) {
		put(&o, " iif");
		put_if(&o, m->ifindex);
	}
	if (f & DYNPF_M_ETH_SRC)
		put(&o, " ether saddr %02x:%02x:%02x:%02x:%02x:%02x", m->eth_src[0], m->eth_src[1],
		    m->eth_src[2], m->eth_src[3], m->eth_src[4], m->eth_src[5]);
	if (f & DYNPF_M_ETH_DST)
		put(&o, " ether daddr %02x:%02x:%02x:%02x:%02x:%02x", m->eth_dst[0], m->eth_dst[1],
		    m->eth_dst[2], m->eth_dst[3], m->eth_dst[4], m->eth_dst[5]);
	if (f & DYNPF_M_ETHERTYPE) {
		const char *n = nv_name(lang_ethertypes, m->ethertype);

		if (n)
			put(&o, " ether type %s", n);
		else
			put(&o, " ether type 0x%04x", m->ethertype);
	}
	if (f & DYNPF_M_VLAN)
		put(&o, " vlan id %u", m->vlan);
	if ((f & DYNPF_M_FAMILY) && !(f & (DYNPF_M_SRC | DYNPF_M_DST)))
		put(&o, " %s", m->family == 6 ? "ip6" : "ip");
	if (f & DYNPF_M_SRC)
		put_prefix(&o, m->family == 6 ? "ip6 saddr" : "ip saddr", m->family, m->src,
			   m->src_plen);
	if (f & DYNPF_M_DST)
		put_prefix(&o, m->family == 6 ? "ip6 daddr" : "ip daddr", m->family, m->dst,
			   m->dst_plen);
	/* tcp and udp ports and flags name the protocol themselves. */
	if (f & DYNPF_M_PROTO) {
		if (m->proto == 6 && (f & (DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS)))
			l4 = "tcp";
		else if (m->proto == 17 && (f & (DYNPF_M_SPORT | DYNPF_M_DPORT)))
			l4 = "udp";
		else {
			put(&o, " proto");
			put_named(&o, lang_ipprotos, m->proto);
		}
	}
	if (f & DYNPF_M_FRAG) {
		put(&o, " frag");
		put_named(&o, lang_frags, m->frag);
	}
	if (f & DYNPF_M_TTL) {
		put(&o, " ttl");
		put_range(&o, m->ttl_lo, m->ttl_hi);
	}
	if (f & DYNPF_M_DSCP)
		put(&o, " dscp %u", m->dscp);
	if (f & DYNPF_M_SPORT) {
		put(&o, " %s sport", l4);
		put_range(&o, m->sport_lo, m->sport_hi);
	}
	if (f & DYNPF_M_DPORT) {
		put(&o, " %s dport", l4);
		put_range(&o, m->dport_lo, m->dport_hi);
	}
	if (f & DYNPF_M_TCP_FLAGS) {
		put(&o, " tcp flags ");
		put_flags(&o, m->tcp_flags);
		if (m->tcp_flags != m->tcp_flags_mask) {
			put(&o, "/");
			put_flags(&o, m->tcp_flags_mask);
		}
	}
	if (f & DYNPF_M_ERROR) {
		put(&o, " error");
		put_named(&o, lang_err_names, m->error);
	}
	for (unsigned int i = 0; i < m->ntlv && i < DYNPF_MATCH_TLVS; i++) {
		const struct dynpf_tlv_test *t = &m->tlv[i];
		const struct tlv_kind *k = tlv_kind_of(t->family);

		if (t->family >= DYNPF_TLV_NFAM && t->family < DYNPF_TLV_NALL) {
			put_decl(&o, t->family);
			put(&o, " %u", t->type);
		} else if (!k) {
			put(&o, " tlv%u", t->family);
			put(&o, " %u", t->type);
		} else {
			put(&o, " %s", k->words);
			put_tlv_type(&o, k, t->type);
		}
		if (t->neg)
			put(&o, " missing");
	}
	for (unsigned int i = 0; i < m->nval && i < DYNPF_MATCH_VALS; i++) {
		const struct dynpf_val_test *t = &m->val[i];

		if (t->field >= 1 && t->field < DYNPF_V_MAX)
			put(&o, " %s", lang_val_kinds[t->field - 1].words);
		else
			put(&o, " val%u", t->field);
		put_range(&o, t->lo, t->hi);
	}
	for (unsigned int i = 0; i < m->ndata && i < DYNPF_MATCH_DATA; i++)
		put_data(&o, &m->data[i]);
	switch (r->action) {
	case DYNPF_ACT_REDIRECT:
		put(&o, " redirect");
		put_if(&o, r->arg);
		break;
	case DYNPF_ACT_MARK:
		put(&o, " mark %u", r->arg);
		break;
	case DYNPF_ACT_SAMPLE:
		put(&o, " sample %u rate %u/s", r->sample_len, r->sample_rate);
		break;
	case DYNPF_ACT_LIMIT:
		put(&o, " limit %u/s burst %u", r->arg, r->burst);
		break;
	default:
		if (dynpf_action_name(r->action))
			put(&o, " %s", dynpf_action_name(r->action));
		else
			put(&o, " action%u", r->action);
	}
	if (r->expires)
		put(&o, " timeout %llus",
		    (unsigned long long)dynpf_rule_timeout_left(r, dynpf_lang_now()));
	return (int)o.pos;
}

int dynpf_setting_format(unsigned int key, __u64 value, char *buf, size_t len)
{
	const char *k = dynpf_setting_name(key), *v = dynpf_setting_value_name(key, value);

	if (k && v)
		return snprintf(buf, len, "set %s %s", k, v);
	return snprintf(buf, len, "set %u %llu", key, (unsigned long long)value);
}
