// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Expected-results files and the field-by-field comparison. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/expect.h"
#include "lib/log.h"

int dynpf_expect_load(const char *path, struct dynpf_expect *e)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, err = 0;
	FILE *f;

	memset(e, 0, sizeof(*e));
	f = fopen(path, "r");
	if (!f) {
		err = -errno;
		p_err("%s: %s", path, strerror(errno));
		return err;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		enum json_tokener_error jerr;
		json_object *o, *pk;
		int64_t n;

		lineno++;
		if (len == 0 || line[0] == '\n' || line[0] == '#')
			continue;
		o = json_tokener_parse_verbose(line, &jerr);
		if (!o || !json_object_is_type(o, json_type_object)) {
			p_err("%s:%d: not a JSON object (%s)", path, lineno,
			      o ? "wrong type" : json_tokener_error_desc(jerr));
			json_object_put(o);
			err = -EINVAL;
			break;
		}
		if (!json_object_object_get_ex(o, "pkt", &pk) ||
		    !json_object_is_type(pk, json_type_int) ||
		    (n = json_object_get_int64(pk)) < 1 || n > 10000000) {
			p_err("%s:%d: field \"pkt\" must be a packet number >= 1", path, lineno);
			json_object_put(o);
			err = -EINVAL;
			break;
		}
		if ((size_t)n >= e->n) {
			size_t want = (size_t)n + 1 > e->n * 2 ? (size_t)n + 1 : e->n * 2;
			json_object **nb = realloc(e->by_pkt, want * sizeof(*nb));

			if (!nb) {
				json_object_put(o);
				err = -ENOMEM;
				break;
			}
			memset(nb + e->n, 0, (want - e->n) * sizeof(*nb));
			e->by_pkt = nb;
			e->n = want;
		}
		if (e->by_pkt[n]) {
			p_err("%s:%d: packet %lld is already described on an earlier line", path,
			      lineno, (long long)n);
			json_object_put(o);
			err = -EINVAL;
			break;
		}
		json_object_object_del(o, "pkt");
		e->by_pkt[n] = o;
	}
	free(line);
	fclose(f);
	if (err)
		dynpf_expect_free(e);
	return err;
}

void dynpf_expect_free(struct dynpf_expect *e)
{
	for (size_t i = 0; i < e->n; i++)
		json_object_put(e->by_pkt[i]);
	free(e->by_pkt);
	memset(e, 0, sizeof(*e));
}

static int diff_rec(json_object *want, json_object *got, char *path, size_t plen, int strict,
		    dynpf_diff_fn fn, void *ctx)
{
	size_t cur = strlen(path);
	int n = 0;

	if (json_object_is_type(want, json_type_object) &&
	    json_object_is_type(got, json_type_object)) {
		json_object_object_foreach(want, k, wv) {
			json_object *gv = NULL;

			snprintf(path + cur, plen - cur, "%s%s", cur ? "." : "", k);
			if (!json_object_object_get_ex(got, k, &gv)) {
				fn(ctx, path, wv, NULL);
				n++;
			} else {
				n += diff_rec(wv, gv, path, plen, strict, fn, ctx);
			}
			path[cur] = 0;
		}
		if (strict) {
			json_object_object_foreach(got, k2, gv2) {
				if (json_object_object_get_ex(want, k2, NULL))
					continue;
				snprintf(path + cur, plen - cur, "%s%s", cur ? "." : "", k2);
				fn(ctx, path, NULL, gv2);
				n++;
				path[cur] = 0;
			}
		}
		return n;
	}
	if (json_object_is_type(want, json_type_array) &&
	    json_object_is_type(got, json_type_array) &&
	    json_object_array_length(want) == json_object_array_length(got)) {
		for (size_t i = 0; i < json_object_array_length(want); i++) {
			snprintf(path + cur, plen - cur, "[%zu]", i);
			n += diff_rec(json_object_array_get_idx(want, i),
				      json_object_array_get_idx(got, i), path, plen, strict, fn,
				      ctx);
			path[cur] = 0;
		}
		return n;
	}
	if (json_object_equal(want, got))
		return 0;
	fn(ctx, path, want, got);
	return 1;
}

int dynpf_json_diff(json_object *want, json_object *got, int strict, dynpf_diff_fn fn, void *ctx)
{
	char path[512] = "";

	return diff_rec(want, got, path, sizeof(path), strict, fn, ctx);
}
