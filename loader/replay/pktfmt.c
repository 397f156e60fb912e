// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* struct dynpf_pkt -> the JSON packet record (docs/json-output.md) and text. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "replay/pktfmt.h"

static const char *const err_names[] = { DYNPF_ERRORS(DYNPF_NAME_ROW) };

static const char *const proto_names[] = { DYNPF_PROTOS(DYNPF_NAME_ROW) };

static const char *const tlv_family_names[] = { DYNPF_TLV_FAMILIES(DYNPF_NAME_ROW) };

static const struct dynpf_proto_tab *protos;

void dynpf_pktfmt_protos(const struct dynpf_proto_tab *tab)
{
	protos = tab;
}

const char *dynpf_decl_name(unsigned int id)
{
	static char buf[16];

	if (protos && id < DYNPF_MAX_PROTOS && protos->key[id])
		return protos->d[id].name;
	snprintf(buf, sizeof(buf), "proto%u", id);
	return buf;
}

const char *dynpf_err_name(unsigned int err)
{
	static char buf[16];
	const char *s = DYNPF_NAME_OF(err_names, err, NULL);

	return s ?: (snprintf(buf, sizeof(buf), "e%u", err), buf);
}

const char *dynpf_proto_name(unsigned int proto)
{
	static char buf[16];
	const char *s = DYNPF_NAME_OF(proto_names, proto, NULL);

	return s ?: (snprintf(buf, sizeof(buf), "p%u", proto), buf);
}

const char *dynpf_hook_name(unsigned int hook)
{
	switch (hook) {
	case DYNPF_HOOK_NATIVE:
		return "native";
	case DYNPF_HOOK_XDP:
		return "xdp";
	case DYNPF_HOOK_XDP_FRAGS:
		return "xdp-frags";
	case DYNPF_HOOK_TC_INGRESS:
		return "tc";
	case DYNPF_HOOK_TC_EGRESS:
		return "tc-egress";
	}
	return "unknown";
}

#define add(o, k, v) json_object_object_add(o, k, v)
#define jint(v) json_object_new_int64((int64_t)(v))
#define jbool(v) json_object_new_boolean(!!(v))
#define jstr(v) json_object_new_string(v)

static json_object *jmac(const __u8 *m)
{
	char s[18];

	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	return jstr(s);
}

static json_object *jaddr(int af, const __u8 *a)
{
	char s[INET6_ADDRSTRLEN];

	inet_ntop(af, a, s, sizeof(s));
	return jstr(s);
}

static const struct dynpf_layer *find_layer(const struct dynpf_pkt *p, unsigned int proto,
					    unsigned int stack)
{
	for (unsigned int i = 0; i < p->nlayers && i < DYNPF_MAX_LAYERS; i++)
		if (p->layers[i].proto == proto && p->layers[i].stack == stack)
			return &p->layers[i];
	return NULL;
}

static int layer_index(const struct dynpf_pkt *p, const struct dynpf_layer *l)
{
	return (int)(l - p->layers);
}

/* The TLVs of family that the header at layer carries, in order. */
static json_object *tlv_json(const struct dynpf_pkt *p, unsigned int family, int layer,
			     const char *type_key)
{
	const struct dynpf_tlv_list *l = &p->tlv[family];
	json_object *a = json_object_new_array();

	for (unsigned int i = 0; i < l->n && i < DYNPF_MAX_TLVS; i++) {
		const struct dynpf_tlv *t = &l->ent[i];
		json_object *to;

		if (t->layer != layer)
			continue;
		to = json_object_new_object();
		add(to, type_key, jint(t->type));
		add(to, "len", jint(t->len));
		add(to, "off", jint(t->off));
		json_object_array_add(a, to);
	}
	return a;
}

static json_object *eth_json(const struct dynpf_l2 *l2)
{
	json_object *o = json_object_new_object(), *vl = json_object_new_array();

	add(o, "dst", jmac(l2->dst));
	add(o, "src", jmac(l2->src));
	add(o, "ethertype", jint(l2->ethertype));
	for (unsigned int i = 0; i < l2->nvlan && i < DYNPF_MAX_VLANS; i++) {
		json_object *v = json_object_new_object();

		add(v, "tpid", jint(l2->vlan_tpid[i]));
		add(v, "vid", jint(l2->vlan_tci[i] & 0xfff));
		add(v, "pcp", jint(l2->vlan_tci[i] >> 13));
		add(v, "dei", jint((l2->vlan_tci[i] >> 12) & 1));
		/* Only where it is so: taken off the bytes, given in the skb. */
		if (!i && (l2->flags & DYNPF_L2_VLAN_OFFLOAD))
			add(v, "offloaded", json_object_new_boolean(1));
		json_object_array_add(vl, v);
	}
	add(o, "vlans", vl);
	return o;
}

static json_object *arp_json(const struct dynpf_arp *a)
{
	json_object *o = json_object_new_object();

	add(o, "htype", jint(a->htype));
	add(o, "ptype", jint(a->ptype));
	add(o, "hlen", jint(a->hlen));
	add(o, "plen", jint(a->plen));
	add(o, "op", jint(a->op));
	if (a->htype == 1 && a->ptype == 0x0800 && a->hlen == 6 && a->plen == 4) {
		add(o, "sha", jmac(a->sha));
		add(o, "spa", jaddr(AF_INET, a->spa));
		add(o, "tha", jmac(a->tha));
		add(o, "tpa", jaddr(AF_INET, a->tpa));
	}
	return o;
}

static json_object *ext_json(const struct dynpf_pkt *p, const struct dynpf_ext *e);

/* The stack's extension headers in chain order: IPv6's, and AH/ESP behind IPv4. */
static json_object *chain_json(const struct dynpf_pkt *p, const struct dynpf_stack *st)
{
	json_object *ext = json_object_new_array();

	for (unsigned int i = 0; i < st->ip6.n && i < DYNPF_MAX_EXT; i++)
		json_object_array_add(ext, ext_json(p, &st->ip6.ext[i]));
	return ext;
}

static json_object *ipv4_json(const struct dynpf_pkt *p, const struct dynpf_stack *st, int layer)
{
	const struct dynpf_l3 *l3 = &st->l3;
	const struct dynpf_ipv4opt *io = &st->ip4opt;
	json_object *o = json_object_new_object();

	add(o, "src", jaddr(AF_INET, l3->saddr));
	add(o, "dst", jaddr(AF_INET, l3->daddr));
	add(o, "proto", jint(l3->proto));
	add(o, "ttl", jint(l3->ttl));
	add(o, "tos", jint(l3->tos));
	add(o, "tot_len", jint(l3->tot_len));
	add(o, "id", jint(l3->id));
	add(o, "hdr_len", jint(l3->hdr_len));
	add(o, "df", jbool(l3->frag & DYNPF_FRAG_DF));
	add(o, "mf", jbool(l3->frag & DYNPF_FRAG_MF));
	add(o, "frag_off", jint(l3->frag_off));
	add(o, "nonfirst_frag", jbool(l3->frag & DYNPF_FRAG_NONFIRST));
	add(o, "options", tlv_json(p, DYNPF_TLV_IPV4_OPT, layer, "type"));
	add(o, "ext", chain_json(p, st));
	if (io->seen & DYNPF_IPOPT_RA)
		add(o, "ra", jint(io->ra));
	if (io->seen & DYNPF_IPOPT_TS) {
		add(o, "ts_ptr", jint(io->ts_ptr));
		add(o, "ts_oflw", jint(io->ts_oflw));
		add(o, "ts_flag", jint(io->ts_flag));
	}
	if (io->seen & DYNPF_IPOPT_RR) {
		add(o, "rr_ptr", jint(io->rr_ptr));
		add(o, "rr_count", jint(io->rr_count));
	}
	return o;
}

static json_object *ext_json(const struct dynpf_pkt *p, const struct dynpf_ext *e)
{
	json_object *o = json_object_new_object();

	add(o, "proto", jstr(dynpf_proto_name(e->proto)));
	add(o, "off", jint(e->off));
	add(o, "len", jint(e->len));
	add(o, "next_header", jint(e->nexthdr));
	switch (e->proto) {
	case DYNPF_P_HOPOPTS:
	case DYNPF_P_DSTOPTS: {
		json_object *ua = json_object_new_array();

		add(o, "options",
		    tlv_json(p,
			     e->proto == DYNPF_P_HOPOPTS ? DYNPF_TLV_IPV6_HBH : DYNPF_TLV_IPV6_DST,
			     e->layer, "type"));
		if (e->flags & DYNPF_EXTF_RA)
			add(o, "ra", jint(e->ra));
		if (e->flags & DYNPF_EXTF_JUMBO)
			add(o, "jumbo", jint(e->jumbo));
		for (int act = 0; act < 4; act++)
			if (e->unknown_act & (1 << act))
				json_object_array_add(ua, jint(act));
		add(o, "unknown_actions", ua);
		break;
	}
	case DYNPF_P_ROUTING:
		add(o, "routing_type", jint(e->rt_type));
		add(o, "segments_left", jint(e->segleft));
		if (e->flags & DYNPF_EXTF_SRH) {
			add(o, "last_entry", jint(e->last_entry));
			add(o, "srh_flags", jint(e->srh_flags));
			add(o, "tag", jint(e->srh_tag));
			add(o, "tlvs", tlv_json(p, DYNPF_TLV_SRH_TLV, e->layer, "type"));
			if (e->flags & DYNPF_EXTF_HMAC) {
				add(o, "hmac_key_id", jint(e->id));
				add(o, "hmac_d", jbool(e->flags & DYNPF_EXTF_HMAC_D));
			}
		}
		break;
	case DYNPF_P_FRAGMENT:
		add(o, "frag_off", jint(e->frag_off));
		add(o, "m", jbool(e->flags & DYNPF_EXTF_FRAG_M));
		add(o, "id", jint(e->id));
		break;
	case DYNPF_P_AH:
	case DYNPF_P_ESP:
		add(o, "spi", jint(e->id));
		break;
	}
	return o;
}

static json_object *ipv6_json(const struct dynpf_pkt *p, const struct dynpf_stack *st)
{
	const struct dynpf_l3 *l3 = &st->l3;
	json_object *o = json_object_new_object(), *fl;

	add(o, "src", jaddr(AF_INET6, l3->saddr));
	add(o, "dst", jaddr(AF_INET6, l3->daddr));
	add(o, "next_header", jint(l3->proto));
	add(o, "hop_limit", jint(l3->ttl));
	add(o, "tclass", jint(l3->tos));
	add(o, "flow_label", jint(l3->flow_label));
	add(o, "payload_len", jint(l3->tot_len));
	add(o, "ext", chain_json(p, st));
	fl = json_object_new_object();
	add(fl, "hbh_not_first", jbool(st->ip6.flags & DYNPF_EXT_HBH_NOT_FIRST));
	add(fl, "repeated", jbool(st->ip6.flags & DYNPF_EXT_REPEATED));
	add(o, "ext_flags", fl);
	add(o, "nonfirst_frag", jbool(l3->frag & DYNPF_FRAG_NONFIRST));
	return o;
}

static json_object *tcp_json(const struct dynpf_pkt *p, const struct dynpf_l4 *l4, int layer)
{
	static const char letters[] = "CEUAPRSF";
	json_object *o = json_object_new_object(), *opts;
	char names[9];
	int n = 0;

	add(o, "sport", jint(l4->sport));
	add(o, "dport", jint(l4->dport));
	add(o, "seq", jint(l4->seq));
	add(o, "ack", jint(l4->ack));
	add(o, "window", jint(l4->window));
	add(o, "hdr_len", jint(l4->hdr_len));
	add(o, "flags", jint(l4->flags));
	for (int b = 0; b < 8; b++)
		if (l4->flags & (0x80 >> b))
			names[n++] = letters[b];
	names[n] = 0;
	add(o, "flag_names", jstr(names));
	opts = tlv_json(p, DYNPF_TLV_TCP_OPT, layer, "kind");
	add(o, "options", opts);
	if (l4->opts & DYNPF_TCPO_MSS)
		add(o, "mss", jint(l4->mss));
	if (l4->opts & DYNPF_TCPO_WSCALE)
		add(o, "wscale", jint(l4->wscale));
	if (l4->opts & DYNPF_TCPO_SACK_PERM)
		add(o, "sack_perm", jbool(1));
	if (l4->opts & DYNPF_TCPO_TS) {
		add(o, "ts_val", jint(l4->ts_val));
		add(o, "ts_ecr", jint(l4->ts_ecr));
	}
	if (l4->opts & DYNPF_TCPO_SACK) {
		json_object *sa = json_object_new_array();

		for (unsigned int i = 0; i < l4->nsack && i < DYNPF_MAX_SACK; i++) {
			json_object *e = json_object_new_array();

			json_object_array_add(e, jint(l4->sack[i][0]));
			json_object_array_add(e, jint(l4->sack[i][1]));
			json_object_array_add(sa, e);
		}
		add(o, "sack", sa);
	}
	return o;
}

static json_object *udp_json(const struct dynpf_l4 *l4)
{
	json_object *o = json_object_new_object();

	add(o, "sport", jint(l4->sport));
	add(o, "dport", jint(l4->dport));
	add(o, "ulen", jint(l4->ulen));
	return o;
}

static json_object *icmp_json(const struct dynpf_l4 *l4, int v6)
{
	json_object *o = json_object_new_object();
	int echo = v6 ? (l4->icmp_type == 128 || l4->icmp_type == 129)
		      : (l4->icmp_type == 8 || l4->icmp_type == 0);

	add(o, "type", jint(l4->icmp_type));
	add(o, "code", jint(l4->icmp_code));
	if (echo) {
		add(o, "id", jint(l4->sport));
		add(o, "seq", jint(l4->dport));
	}
	return o;
}

static json_object *mpls_json(const struct dynpf_mpls *m)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (unsigned int i = 0; i < m->n && i < DYNPF_MAX_MPLS; i++) {
		json_object *e = json_object_new_object();

		add(e, "label", jint(m->lse[i] >> 12));
		add(e, "tc", jint((m->lse[i] >> 9) & 7));
		add(e, "s", jint((m->lse[i] >> 8) & 1));
		add(e, "ttl", jint(m->lse[i] & 0xff));
		json_object_array_add(a, e);
	}
	add(o, "labels", a);
	return o;
}

static json_object *tun_json(const struct dynpf_pkt *p, const struct dynpf_tun *t, int layer)
{
	json_object *o = json_object_new_object();

	switch (t->proto) {
	case DYNPF_P_GRE:
		add(o, "flags", jint(t->flags));
		add(o, "version", jint(t->flags & 7));
		add(o, "proto", jint(t->inner));
		add(o, "checksum_present", jbool(t->flags & 0x8000));
		if (t->flags & 0x2000)
			add(o, "key", jint(t->key));
		if (t->flags & 0x1000)
			add(o, "seq", jint(t->seq));
		break;
	case DYNPF_P_VXLAN:
		add(o, "flags", jint(t->flags));
		add(o, "vni", jint(t->vni));
		break;
	case DYNPF_P_GENEVE: {
		const struct dynpf_tlv_list *l = &p->tlv[DYNPF_TLV_GENEVE_OPT];
		json_object *opts = json_object_new_array();

		add(o, "version", jint(t->flags >> 14));
		add(o, "opt_len", jint(t->opt_len));
		add(o, "oam", jbool(t->flags & 0x80));
		add(o, "critical", jbool(t->flags & 0x40));
		add(o, "proto", jint(t->inner));
		add(o, "vni", jint(t->vni));
		for (unsigned int i = 0; i < l->n && i < DYNPF_MAX_TLVS; i++) {
			json_object *e;

			if (l->ent[i].layer != layer)
				continue;
			e = json_object_new_object();
			add(e, "class", jint(l->ent[i].type >> 8));
			add(e, "type", jint(l->ent[i].type & 0xff));
			add(e, "len", jint(l->ent[i].len));
			add(e, "off", jint(l->ent[i].off));
			json_object_array_add(opts, e);
		}
		add(o, "options", opts);
		break;
	}
	case DYNPF_P_GTPU: {
		json_object *ext = json_object_new_array();

		add(o, "flags", jint(t->flags));
		add(o, "version", jint(t->flags >> 5));
		add(o, "msg_type", jint(t->msg_type));
		add(o, "teid", jint(t->key));
		add(o, "length", jint(t->len));
		if (t->flags & 0x07)
			add(o, "seq", jint(t->seq));
		for (unsigned int i = 0; i < t->n_ext && i < DYNPF_MAX_GTP_EXT; i++)
			json_object_array_add(ext, jint(t->ext_type[i]));
		add(o, "ext", ext);
		break;
	}
	}
	return o;
}

/*
 * The declared protocols' TLVs (families DYNPF_TLV_NFAM...), by protocol
 * name: {"acme": [{"type", "len", "off", "layer"}]}; NULL when none.
 */
static json_object *decl_json(const struct dynpf_pkt *p)
{
	json_object *o = NULL;

	for (unsigned int f = DYNPF_TLV_NFAM; f < DYNPF_TLV_NALL; f++) {
		const struct dynpf_tlv_list *l = &p->tlv[f];
		json_object *a;

		if (!(p->tlv_fams & (1u << f)))
			continue;
		a = json_object_new_array();
		for (unsigned int i = 0; i < l->n && i < DYNPF_MAX_TLVS; i++) {
			json_object *to = json_object_new_object();

			add(to, "type", jint(l->ent[i].type));
			add(to, "len", jint(l->ent[i].len));
			add(to, "off", jint(l->ent[i].off));
			add(to, "layer", jint(l->ent[i].layer));
			json_object_array_add(a, to);
		}
		if (!o)
			o = json_object_new_object();
		add(o, dynpf_decl_name(f - DYNPF_TLV_NFAM), a);
	}
	return o;
}

/* The per-protocol objects of stack s, added to o. */
static void stack_json(json_object *o, const struct dynpf_pkt *p, unsigned int s)
{
	const struct dynpf_stack *st = &p->st[s];
	static const struct {
		int proto;
		const char *name;
	} tuns[] = { { DYNPF_P_GRE, "gre" },
		     { DYNPF_P_VXLAN, "vxlan" },
		     { DYNPF_P_GENEVE, "geneve" },
		     { DYNPF_P_GTPU, "gtpu" } };
	const struct dynpf_layer *l;

	if (find_layer(p, DYNPF_P_ETH, s))
		add(o, "eth", eth_json(&st->l2));
	if (find_layer(p, DYNPF_P_MPLS, s))
		add(o, "mpls", mpls_json(&st->mpls));
	if (find_layer(p, DYNPF_P_ARP, s))
		add(o, "arp", arp_json(&st->arp));
	if ((l = find_layer(p, DYNPF_P_IPV4, s)))
		add(o, "ipv4", ipv4_json(p, st, layer_index(p, l)));
	if (find_layer(p, DYNPF_P_IPV6, s))
		add(o, "ipv6", ipv6_json(p, st));
	if ((l = find_layer(p, DYNPF_P_TCP, s)))
		add(o, "tcp", tcp_json(p, &st->l4, layer_index(p, l)));
	if (find_layer(p, DYNPF_P_UDP, s))
		add(o, "udp", udp_json(&st->l4));
	if (find_layer(p, DYNPF_P_ICMP, s))
		add(o, "icmp", icmp_json(&st->l4, 0));
	if (find_layer(p, DYNPF_P_ICMPV6, s))
		add(o, "icmpv6", icmp_json(&st->l4, 1));
	for (size_t i = 0; i < sizeof(tuns) / sizeof(tuns[0]); i++)
		if ((l = find_layer(p, tuns[i].proto, s)) && st->tun.proto == tuns[i].proto)
			add(o, tuns[i].name, tun_json(p, &st->tun, layer_index(p, l)));
}

json_object *dynpf_pkt_to_json(const struct dynpf_pkt *p)
{
	json_object *o = json_object_new_object(), *layers = json_object_new_array(), *decl;
	const struct dynpf_layer *l;
	int has_l4 = 0;

	add(o, "len", jint(p->pkt_len));
	add(o, "status", jstr("parsed"));
	add(o, "error", jstr(dynpf_err_name(p->err)));
	if (p->err) {
		add(o, "error_layer", jint(p->err_layer));
		add(o, "error_proto", jstr(dynpf_proto_name(p->err_proto)));
		add(o, "error_off", jint(p->err_off));
	}
	for (unsigned int i = 0; i < p->nlayers && i < DYNPF_MAX_LAYERS; i++) {
		json_object *lo = json_object_new_object();

		l = &p->layers[i];
		add(lo, "proto", jstr(dynpf_proto_name(l->proto)));
		add(lo, "off", jint(l->off));
		add(lo, "len", jint(l->len));
		add(lo, "stack", jint(l->stack));
		if (l->proto == DYNPF_P_DECL)
			add(lo, "name", jstr(dynpf_decl_name(l->sub)));
		json_object_array_add(layers, lo);
		if (l->proto == DYNPF_P_TCP || l->proto == DYNPF_P_UDP ||
		    l->proto == DYNPF_P_ICMP || l->proto == DYNPF_P_ICMPV6)
			has_l4 = 1;
	}
	add(o, "layers", layers);
	if (has_l4)
		add(o, "payload_off", jint(p->l4_payload_off));
	stack_json(o, p, 0);
	if (p->nstacks > 1) {
		json_object *in = json_object_new_object();

		stack_json(in, p, 1);
		add(o, "inner", in);
	}
	if ((decl = decl_json(p)))
		add(o, "declared", decl);
	for (unsigned int f = 0; f < DYNPF_TLV_NALL; f++) {
		if (!p->tlv[f].overflow)
			continue;
		json_object *ov = json_object_object_get(o, "tlv_overflow");

		if (!ov) {
			ov = json_object_new_object();
			add(o, "tlv_overflow", ov);
		}
		add(ov,
		    f < DYNPF_TLV_NFAM ? tlv_family_names[f] : dynpf_decl_name(f - DYNPF_TLV_NFAM),
		    jbool(1));
	}
	return o;
}

static const char *sget(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : "";
}

static long long iget(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? (long long)json_object_get_int64(v) : 0;
}

static int is_ext(const char *proto)
{
	static const char *const ext[] = {
		"hopopts", "routing", "fragment", "dstopts", "ah", "esp"
	};

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcmp(proto, ext[i]))
			return 1;
	return 0;
}

/* " opts [k,k,...]": the types of a TLV list in o[key], in order. */
static void print_tlv_types(FILE *f, json_object *o, const char *key, const char *type_key)
{
	json_object *a, *t;
	size_t n;

	if (!json_object_object_get_ex(o, key, &a) || !(n = json_object_array_length(a)))
		return;
	fprintf(f, " opts [");
	for (size_t i = 0; i < n; i++) {
		t = json_object_array_get_idx(a, i);
		if (json_object_object_get_ex(t, "class", NULL))
			fprintf(f, "%s%llx:%llx", i ? "," : "", iget(t, "class"),
				iget(t, type_key));
		else
			fprintf(f, "%s%lld", i ? "," : "", iget(t, type_key));
	}
	fprintf(f, "]");
}

/* Text is rendered from the JSON record: one source of truth per field. */
void dynpf_pkt_print_text(FILE *f, json_object *rec)
{
	json_object *layers, *o, *v;
	size_t n;

	if (!strcmp(sget(rec, "status"), "skipped")) {
		fprintf(f, "skipped: %s", sget(rec, "reason"));
		return;
	}
	if (!json_object_object_get_ex(rec, "layers", &layers))
		return;
	n = json_object_array_length(layers);
	for (size_t i = 0; i < n; i++) {
		const char *proto = sget(json_object_array_get_idx(layers, i), "proto");

		json_object *sc = rec; /* the object holding this layer's stack */
		json_object *lay = json_object_array_get_idx(layers, i);

		if (iget(lay, "stack") > 0 && !json_object_object_get_ex(rec, "inner", &sc))
			sc = rec;
		if (!strcmp(proto, "declared")) {
			/* By its name, with its TLVs' types. */
			json_object *d, *t = NULL;
			size_t k, nt, shown = 0;

			fprintf(f, "%s%s", i ? " " : "", sget(lay, "name"));
			if (json_object_object_get_ex(rec, "declared", &d))
				json_object_object_get_ex(d, sget(lay, "name"), &t);
			nt = t ? json_object_array_length(t) : 0;
			for (k = 0; k < nt; k++) {
				json_object *e = json_object_array_get_idx(t, k);

				if (iget(e, "layer") == (long long)i)
					fprintf(f, "%s%lld", shown++ ? "," : "(opts [",
						iget(e, "type"));
			}
			if (shown)
				fprintf(f, "])");
			continue;
		}
		fprintf(f, "%s%s", i ? " " : "", proto);
		if (!strcmp(proto, "vlan") || !strcmp(proto, "qinq")) {
			/* the i-th tag: count tags before it */
			size_t t = 0;

			for (size_t j = 0; j < i; j++) {
				const char *pj =
					sget(json_object_array_get_idx(layers, j), "proto");
				t += !strcmp(pj, "vlan") || !strcmp(pj, "qinq");
			}
			if (json_object_object_get_ex(sc, "eth", &o) &&
			    json_object_object_get_ex(o, "vlans", &v) &&
			    t < json_object_array_length(v))
				fprintf(f, "(%lld)", iget(json_object_array_get_idx(v, t), "vid"));
		} else if (is_ext(proto) && json_object_object_get_ex(sc, "ipv6", &o) &&
			   json_object_object_get_ex(o, "ext", &v)) {
			/* the how-many-th extension header of its stack this is */
			size_t k = 0;

			for (size_t j = 0; j < i; j++) {
				json_object *lj = json_object_array_get_idx(layers, j);

				k += is_ext(sget(lj, "proto")) &&
				     iget(lj, "stack") == iget(lay, "stack");
			}
			if (k < json_object_array_length(v)) {
				json_object *e = json_object_array_get_idx(v, k);

				fprintf(f, "(");
				if (!strcmp(proto, "routing"))
					fprintf(f, "type %lld left %lld", iget(e, "routing_type"),
						iget(e, "segments_left"));
				else if (!strcmp(proto, "fragment"))
					fprintf(f, "off %lld%s", iget(e, "frag_off"),
						json_object_object_get_ex(e, "m", &o) &&
								json_object_get_boolean(o)
							? " M"
							: "");
				else if (!strcmp(proto, "ah") || !strcmp(proto, "esp"))
					fprintf(f, "spi %lld", iget(e, "spi"));
				else
					fprintf(f, "len %lld", iget(e, "len"));
				print_tlv_types(f, e,
						!strcmp(proto, "routing") ? "tlvs" : "options",
						"type");
				fprintf(f, ")");
			}
		} else if (json_object_object_get_ex(sc, proto, &o)) {
			if (!strcmp(proto, "ipv4") || !strcmp(proto, "ipv6")) {
				fprintf(f, "(%s > %s%s", sget(o, "src"), sget(o, "dst"),
					!strcmp(proto, "ipv4") && iget(o, "frag_off") ? " frag"
										      : "");
				print_tlv_types(f, o, "options", "type");
				fprintf(f, ")");
			} else if (!strcmp(proto, "tcp")) {
				fprintf(f, "(%lld > %lld %s", iget(o, "sport"), iget(o, "dport"),
					sget(o, "flag_names"));
				print_tlv_types(f, o, "options", "kind");
				fprintf(f, ")");
			} else if (!strcmp(proto, "udp"))
				fprintf(f, "(%lld > %lld)", iget(o, "sport"), iget(o, "dport"));
			else if (!strcmp(proto, "icmp") || !strcmp(proto, "icmpv6"))
				fprintf(f, "(type %lld code %lld)", iget(o, "type"),
					iget(o, "code"));
			else if (!strcmp(proto, "arp"))
				fprintf(f, "(op %lld)", iget(o, "op"));
			else if (!strcmp(proto, "vxlan"))
				fprintf(f, "(vni %lld)", iget(o, "vni"));
			else if (!strcmp(proto, "geneve")) {
				fprintf(f, "(vni %lld", iget(o, "vni"));
				print_tlv_types(f, o, "options", "type");
				fprintf(f, ")");
			} else if (!strcmp(proto, "gtpu"))
				fprintf(f, "(teid %lld)", iget(o, "teid"));
		}
	}
	if (strcmp(sget(rec, "error"), "ok"))
		fprintf(f, "%s!%s at %s (layer %lld, offset %lld)", n ? "  " : "",
			sget(rec, "error"), sget(rec, "error_proto"), iget(rec, "error_layer"),
			iget(rec, "error_off"));
}
