// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer target: the native parsers over raw Ethernet frames.
 *
 * Beyond "no crash, no sanitizer report", every parse result must hold what
 * consumers rely on (parsers/README.md): layers in order and inside the
 * packet, TLV records inside the header that carries them, an error code
 * that exists, and the same result twice over (nothing read from stale
 * state). The JSON and text renderings run too. And every input again
 * with the built-in TLV families declared at runtime in their own areas
 * (tests/rules/builtin-decl.rules, read at start: $DYNPF_DECL_RULES, or
 * from the source tree): each declared walk finds its family's TLVs
 * (replay/declcheck.h). The BPF side of the same inputs: scripts/fuzz.sh
 * replays the corpus with `dynpf replay --check-native --check-decl`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/rules_lang.h"
#include "native.h"
#include "replay/declcheck.h"
#include "replay/pktfmt.h"

#define FUZZ_NAME "fuzz_parse"
#include "fuzz.h"

static struct dynpf_pkt a, b;
static struct dynpf_ruleset decl; /* the built-in families, declared */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("DYNPF_DECL_RULES");
	struct dynpf_rule_err err;

	(void)argc;
	(void)argv;
	dynpf_ruleset_init(&decl);
	if (dynpf_ruleset_load(&decl, path ? path : "tests/rules/builtin-decl.rules", &err)) {
		fprintf(stderr, "%s: %s (run from the source tree, or set DYNPF_DECL_RULES)\n",
			FUZZ_NAME, err.msg);
		exit(2);
	}
	return 0;
}

static void check_pkt(const struct dynpf_pkt *p, __u32 len)
{
	__u32 prev = 0;

	CHECK(p->pkt_len == len, "pkt_len %u, input %u", p->pkt_len, len);
	CHECK(p->nlayers <= DYNPF_MAX_LAYERS, "%u layers", p->nlayers);
	CHECK(p->err < DYNPF_E_MAX, "error %u", p->err);
	CHECK(p->nstacks >= 1 && p->nstacks <= DYNPF_MAX_STACKS, "%u stacks", p->nstacks);
	CHECK(p->l4_payload_off <= len, "l4 payload at %u of %u", p->l4_payload_off, len);
	if (p->err)
		CHECK(p->err_off <= len, "error offset %u of %u", p->err_off, len);
	for (__u32 i = 0; i < p->nlayers; i++) {
		const struct dynpf_layer *l = &p->layers[i];

		CHECK(l->proto > DYNPF_P_NONE && l->proto < DYNPF_P_MAX, "layer %u proto %u", i,
		      l->proto);
		CHECK(l->off >= prev, "layer %u at %u, before the previous end %u", i, l->off,
		      prev);
		CHECK((__u32)l->off + l->len <= len, "layer %u [%u, +%u) past %u", i, l->off,
		      l->len, len);
		CHECK(l->stack < p->nstacks, "layer %u stack %u of %u", i, l->stack, p->nstacks);
		prev = l->off + l->len;
	}
	for (__u32 f = 0; f < DYNPF_TLV_NALL; f++) {
		const struct dynpf_tlv_list *tl = &p->tlv[f];

		if (!(p->tlv_fams & (1u << f)))
			continue;
		CHECK(tl->n <= DYNPF_MAX_TLVS && tl->n <= tl->count, "family %u: %u of %u", f,
		      tl->n, tl->count);
		for (__u32 i = 0; i < tl->n; i++) {
			const struct dynpf_tlv *t = &tl->ent[i];

			CHECK(t->family == f, "family %u entry %u says %u", f, i, t->family);
			CHECK((__u32)t->off + t->len <= len, "TLV %u/%u [%u, +%u) past %u", f, i,
			      t->off, t->len, len);
			/* Its header is listed, unless it is the one that failed. */
			if (t->layer < p->nlayers) {
				const struct dynpf_layer *l = &p->layers[t->layer];

				CHECK(t->off >= l->off && t->off + t->len <= l->off + l->len,
				      "TLV %u/%u [%u, +%u) outside layer %u [%u, +%u)", f, i,
				      t->off, t->len, t->layer, l->off, l->len);
			} else {
				CHECK(p->err && t->layer == p->err_layer,
				      "TLV %u/%u of layer %u, %u listed", f, i, t->layer,
				      p->nlayers);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const __u8 *data, size_t size)
{
	json_object *o;

	if (size > 65535)
		return 0; /* offsets are 16 bits: no frame is longer */
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0xa5, sizeof(b));
	dynpf_parse_native(data, size, &a, NULL);
	check_pkt(&a, size);
	/* The same bytes after a different stale result: the same parse. */
	dynpf_parse_native(data, size, &b, NULL);
	o = dynpf_pkt_to_json(&a);
	CHECK(o, "no JSON");
	{
		json_object *o2 = dynpf_pkt_to_json(&b);

		CHECK(json_object_equal(o, o2), "two parses differ:\n%s\n%s",
		      json_object_to_json_string(o), json_object_to_json_string(o2));
		json_object_put(o2);
	}
	json_object_put(o);
	/* The built-in families declared: each finds its family's TLVs. */
	dynpf_parse_native_decl(data, size, 0, 0, &b, NULL, &decl.protos);
	check_pkt(&b, size);
	for (unsigned int i = 0; i < DYNPF_MAX_PROTOS; i++) {
		char why[256];

		CHECK(!dynpf_decl_diff(&b, &decl.protos, i, why, sizeof(why)), "protocol %s: %s",
		      decl.protos.d[i].name, why);
	}
	/* Frames with the outer VLAN tag offloaded (TC ingress). */
	if (size >= 4) {
		__u16 tci = (__u16)(data[0] << 8 | data[1]);

		dynpf_parse_native_offload(data + 2, size - 2, 0x8100, tci, &a, NULL);
		check_pkt(&a, size - 2);
	}
	return 0;
}
