// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: parity. Before a shape is timed, it runs once through the
 * direct parser and through dynpf, and their results (struct dynpf_pkt, in
 * per-CPU scratch maps) are compared field by field: the direct parser must
 * do the same work, or the ratio means nothing. A difference is reported,
 * not hidden.
 */
#include <errno.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/bench.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"

/* This CPU's struct dynpf_pkt in a per-CPU scratch map. */
static int read_scratch(struct bench_ctx *b, const struct bpf_map *map, struct dynpf_pkt *out)
{
	uint32_t zero = 0;

	if (bpf_map__lookup_elem(map, &zero, sizeof(zero), b->percpu,
				 (size_t)b->ncpus * sizeof(*out), 0))
		return -errno;
	memcpy(out, (char *)b->percpu + (size_t)b->cpu * sizeof(*out), sizeof(*out));
	return 0;
}

/* Does the parse d list a layer of one of the protocols in stack st? */
static bool has_layer(const struct dynpf_pkt *d, unsigned int st, uint16_t p1, uint16_t p2)
{
	for (unsigned int i = 0; i < d->nlayers && i < DYNPF_MAX_LAYERS; i++)
		if (d->layers[i].stack == st &&
		    (d->layers[i].proto == p1 || d->layers[i].proto == p2))
			return true;
	return false;
}

/*
 * The first field where two parse results differ, or NULL. a is direct's, d
 * is dynpf's. Per stack, the parts the layers say were written: L2, L3, L4
 * (stack 0: always), the IPv6 extension chain (its used entries) and the
 * tunnel header; then every TLV list and the layers. Not compared:
 * st[].arp, st[].ip4opt, st[].mpls (no bench shape has them).
 */
static const char *pkt_diff(const struct dynpf_pkt *a, const struct dynpf_pkt *d)
{
	static const char *const names[DYNPF_MAX_STACKS][5] = {
		{ "st[0].l2", "st[0].l3", "st[0].l4", "st[0].ip6", "st[0].tun" },
		{ "st[1].l2", "st[1].l3", "st[1].l4", "st[1].ip6", "st[1].tun" },
	};
#define CMP(f)                                          \
	do {                                            \
		if (memcmp(&a->f, &d->f, sizeof(a->f))) \
			return #f;                      \
	} while (0)
	CMP(abi);
	CMP(hook);
	CMP(nlayers);
	CMP(pkt_len);
	CMP(ifindex);
	CMP(err);
	CMP(err_layer);
	CMP(err_proto);
	CMP(err_off);
	CMP(nstacks);
	CMP(l4_payload_off);
	for (unsigned int s = 0; s < d->nstacks && s < DYNPF_MAX_STACKS; s++) {
		const struct dynpf_stack *x = &a->st[s], *y = &d->st[s];

		if ((!s || has_layer(d, s, DYNPF_P_ETH, DYNPF_P_ETH)) &&
		    memcmp(&x->l2, &y->l2, sizeof(x->l2)))
			return names[s][0];
		if ((!s || has_layer(d, s, DYNPF_P_IPV4, DYNPF_P_IPV6)) &&
		    memcmp(&x->l3, &y->l3, sizeof(x->l3)))
			return names[s][1];
		if ((!s || has_layer(d, s, DYNPF_P_TCP, DYNPF_P_UDP)) &&
		    memcmp(&x->l4, &y->l4, sizeof(x->l4)))
			return names[s][2];
		if (has_layer(d, s, DYNPF_P_IPV6, DYNPF_P_IPV6) &&
		    (x->ip6.n != y->ip6.n || x->ip6.flags != y->ip6.flags ||
		     x->ip6.seen != y->ip6.seen ||
		     memcmp(x->ip6.ext, y->ip6.ext,
			    (y->ip6.n < DYNPF_MAX_EXT ? y->ip6.n : DYNPF_MAX_EXT) *
				    sizeof(y->ip6.ext[0]))))
			return names[s][3];
		if (has_layer(d, s, DYNPF_P_VXLAN, DYNPF_P_GENEVE) &&
		    memcmp(&x->tun, &y->tun, sizeof(x->tun)))
			return names[s][4];
	}
	for (int f = 0; f < DYNPF_TLV_NFAM; f++) {
		CMP(tlv[f].seen);
		CMP(tlv[f].count);
		CMP(tlv[f].overflow);
		CMP(tlv[f].n);
		if (memcmp(a->tlv[f].ent, d->tlv[f].ent, a->tlv[f].n * sizeof(a->tlv[f].ent[0])))
			return "tlv";
	}
#undef CMP
	if (memcmp(a->layers, d->layers, a->nlayers * sizeof(a->layers[0])))
		return "layers";
	return NULL;
}

/*
 * Run once through dynpf and read what it parsed (error, TLVs walked); where
 * direct does the same work, run it too and compare the two parses.
 */
int bench_check_parity(struct bench_ctx *b, size_t h, const uint8_t *pkt, uint32_t len,
		       struct bench_result *res)
{
	static struct dynpf_pkt direct, dynpf;
	uint32_t ns;
	int err;

	if (!res->no_direct) {
		err = bench_run_want(b->fd[h][V_DIRECT], pkt, len, 1, bench_hooks[h].retval, &ns);
		if (err)
			return err;
	}
	err = bench_run_want(b->fd[h][V_DYNPF], pkt, len, 1, bench_hooks[h].retval, &ns);
	if (err)
		return err;
	if (b->cpu < 0)
		return 0; /* not pinned: cannot tell which CPU's slot to read */
	err = read_scratch(b, b->dynpf->maps.dynpf_scratch, &dynpf);
	if (!err && !res->no_direct)
		err = read_scratch(b, b->ref->maps.bench_scratch, &direct);
	if (err) {
		p_err("bench: cannot read a parse result: %s", strerror(-err));
		return err;
	}
	/* An empty slot would compare equal to an empty slot: make sure. */
	if (dynpf.abi != DYNPF_ABI_VERSION || !dynpf.nlayers)
		res->mismatch = "(no dynpf result on this CPU)";
	else if (!res->no_direct)
		res->mismatch = pkt_diff(&direct, &dynpf);
	res->err = dynpf.err;
	res->ntlv = 0;
	for (int f = 0; f < DYNPF_TLV_NALL; f++)
		res->ntlv += dynpf.tlv[f].count;
	pr_debug("bench: %s: %u layers, %u TLVs, err %u\n", bench_hooks[h].name, dynpf.nlayers,
		 res->ntlv, dynpf.err);
	return 0;
}
