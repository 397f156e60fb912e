// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The active rule set as `dynpf rules save` writes it (its declarations,
 * its settings, then every rule normalized, in id order), and what status
 * and the metrics say of it: its digest (SHA-256 of that text without the
 * time left of timed rules, so `dynpf rules save | sha256sum` gives it when
 * no rule is timed), its size, and the first rules by id. Read again only when
 * the generation changed: the daemon is the only producer, and a commit is
 * the only thing that changes the active set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <nettle/sha2.h>

#include "channel/ruleset.h"
#include "daemon/internal.h"
#include "dynpf.skel.h"
#include "lib/log.h"

void rs_view_free(struct rs_view *v)
{
	free(v->ids);
	free(v->acts);
	memset(v, 0, sizeof(*v));
}

/* The view of the active set, read again if its generation moved on. */
const struct rs_view *rs_view_get(struct daemon *d)
{
	struct rs_view *v = &d->view;
	struct dynpf_state st = {};
	struct dynpf_ruleset rs;
	struct sha256_ctx h;
	uint8_t sum[SHA256_DIGEST_SIZE];
	size_t len, n;
	__u32 zero = 0;
	char *text;
	int err;

	if (bpf_map_lookup_elem(bpf_map__fd(d->skel->maps.dynpf_state), &zero, &st))
		return v->valid ? v : NULL;
	if (v->valid && v->gen == st.gen)
		return v;
	dynpf_ruleset_init(&rs);
	err = dynpf_ruleset_read(d->skel, &rs);
	/* Without the time left of timed rules: a lifetime says when a rule goes,
	 * not what it does, and nodes that loaded the same set at different
	 * moments would differ by it. */
	text = err ? NULL : dynpf_ruleset_text(&rs, false, &len);
	n = rs.n < d->cfg.metrics_rules ? rs.n : d->cfg.metrics_rules;
	rs_view_free(v);
	v->ids = calloc(n ?: 1, sizeof(*v->ids));
	v->acts = calloc(n ?: 1, sizeof(*v->acts));
	if (!text || !v->ids || !v->acts) {
		pr_warn("cannot read the active rule set: %s\n", strerror(err ? -err : ENOMEM));
		free(text);
		rs_view_free(v);
		dynpf_ruleset_free(&rs);
		return NULL;
	}
	sha256_init(&h);
	sha256_update(&h, len, (const uint8_t *)text);
	sha256_digest(&h, sizeof(sum), sum);
	len = snprintf(v->digest, sizeof(v->digest), "sha256:");
	for (size_t i = 0; i < sizeof(sum); i++)
		len += snprintf(v->digest + len, sizeof(v->digest) - len, "%02x", sum[i]);
	/* dynpf_ruleset_read() gives the rules in id order. */
	for (size_t i = 0; i < n; i++) {
		v->ids[i] = rs.rules[i].id;
		v->acts[i] = rs.rules[i].action;
	}
	v->nids = n;
	v->nrules = rs.n;
	v->gen = st.gen;
	v->valid = true;
	free(text);
	dynpf_ruleset_free(&rs);
	return v;
}
