// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's requests: one handler a command (req_*), their dispatch
 * (handle_request), and the rule file loaded at a fresh start and on SIGHUP.
 * Each takes a parsed request (request.h) and gives the JSON reply.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ring.h"
#include "channel/ruleset.h"
#include "daemon/internal.h"
#include "daemon/request.h"
#include "dynpf.skel.h"
#include "lang/rules_lang.h"
#include "lib/log.h"
#include "lib/progs.h"
#include "lib/util.h"
#include "protocheck.h"

/* ---- rules ----------------------------------------------------------------- */

static int read_state(struct daemon *d, struct dynpf_state *st)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(bpf_map__fd(d->skel->maps.dynpf_state), &zero, st);
}

/* One transaction through the channel, timed and counted for the metrics. */
static int txn_apply(struct daemon *d, const struct dynpf_ruleset *rs, const char *name,
		     const struct dynpf_ruleset *old, char *err, size_t errlen, __u32 *gen)
{
	double t0 = dynpf_now();
	int r = dynpf_ruleset_apply(&d->ctrl, rs, name, old, err, errlen, gen);

	counts_txn(d, dynpf_now() - t0, r);
	return r;
}

static int rules_replace(struct daemon *d, const struct dynpf_ruleset *rs, const char *name,
			 char *err, size_t errlen, __u32 *gen)
{
	struct dynpf_ruleset old;
	int r;

	dynpf_ruleset_init(&old);
	r = dynpf_ruleset_read_view(&d->rv, &old);
	if (r) {
		snprintf(err, errlen, "cannot read the active rule set: %s", strerror(-r));
		dynpf_ruleset_free(&old);
		return r;
	}
	r = txn_apply(d, rs, name, &old, err, errlen, gen);
	dynpf_ruleset_free(&old);
	changes_rebuild(d); /* the ids and lifetimes of the set now in force */
	return r;
}

/*
 * The rule file's text (read by watch.c), in place of the active set, as
 * one transaction: at a fresh start, on SIGHUP, when it changed on disk
 * (why). A file that does not parse or that the classifier refuses changes
 * nothing; either way the result goes to the log and to the metrics, with
 * the error's FILE:LINE:COLUMN.
 */
int rules_load_text(struct daemon *d, const char *path, const char *text, size_t len,
		    const char *why)
{
	struct dynpf_ruleset rs;
	struct dynpf_rule_err rerr = {};
	struct dynpf_state st = {};
	unsigned long line = 0;
	char err[512] = "", kept[96] = "";
	size_t plen = strlen(path);
	__u32 gen = 0;
	int r;

	/* At a fresh start, a refusal stops the daemon: nothing is kept. */
	if (strcmp(why, "start") && !read_state(d, &st))
		snprintf(kept, sizeof(kept), " (%s): refused, the rule set of generation %llu kept",
			 why, (unsigned long long)st.gen);
	dynpf_ruleset_init(&rs);
	r = dynpf_ruleset_parse(&rs, path, text, len, &rerr);
	if (r) {
		p_err("%s%s", rerr.msg, kept);
		counts_reload(d, path, r, rerr.msg, rerr.line, rerr.col);
		dynpf_ruleset_free(&rs);
		return r;
	}
	r = rules_replace(d, &rs, path, err, sizeof(err), &gen);
	if (r) {
		/* "FILE:LINE: rule N refused by the classifier: ..." */
		if (!strncmp(err, path, plen) && err[plen] == ':')
			line = strtoul(err + plen + 1, NULL, 10);
		p_err("%s%s", err, kept);
	} else {
		pr_info("%s: %zu rules loaded (%s), generation %u\n", path, rs.n, why, gen);
	}
	counts_reload(d, path, r, err, line, 0);
	dynpf_ruleset_free(&rs);
	return r;
}

/* ---- requests ---------------------------------------------------------------- */

#define jadd(o, k, v) json_object_object_add(o, k, v)

static json_object *reply_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_object *reply_err(const char *fmt, ...)
{
	json_object *o = json_object_new_object();
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jadd(o, "ok", json_object_new_boolean(0));
	jadd(o, "error", json_object_new_string(msg));
	return o;
}

static json_object *reply_ok(void)
{
	json_object *o = json_object_new_object();

	jadd(o, "ok", json_object_new_boolean(1));
	return o;
}

static json_object *req_status(struct daemon *d, const struct dynpf_req *req)
{
	json_object *o = reply_ok(), *ifs = json_object_new_array();
	json_object *waiting = json_object_new_array();
	const struct rs_view *v = rs_view_get(d);
	struct dynpf_state st = {};

	(void)req;
	read_state(d, &st);
	jadd(o, "pid", json_object_new_int(getpid()));
	jadd(o, "pin_dir", json_object_new_string(d->cfg.pin_dir));
	jadd(o, "generation", json_object_new_int64(st.gen));
	jadd(o, "rules", json_object_new_int64(st.nrules));
	jadd(o, "tuples", json_object_new_int64(st.ntuples));
	if (v && v->gen == st.gen)
		jadd(o, "digest", json_object_new_string(v->digest));
	jadd(o, "adopted", json_object_new_boolean(d->adopted));
	changes_status(d, o);
	for (int i = 0; i < d->natt; i++) {
		json_object *a = json_object_new_object();

		jadd(a, "name", json_object_new_string(d->att[i].cfg.name));
		jadd(a, "ifindex", json_object_new_int(d->att[i].ifindex));
		jadd(a, "hook", json_object_new_string(dynpf_attach_hook_name(d->att[i].cfg.hook)));
		jadd(a, "attach", json_object_new_string(d->att[i].how));
		json_object_array_add(ifs, a);
	}
	jadd(o, "interfaces", ifs);
	for (int i = 0; i < d->cfg.nifaces; i++) {
		json_object *w;

		if (!iface_waiting(d, i))
			continue;
		w = json_object_new_object();
		jadd(w, "name", json_object_new_string(d->cfg.ifaces[i].name));
		jadd(w, "hook",
		     json_object_new_string(dynpf_attach_hook_name(d->cfg.ifaces[i].hook)));
		json_object_array_add(waiting, w);
	}
	jadd(o, "waiting", waiting);
	return o;
}

static json_object *req_rules_load(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_rule_err rerr;
	struct dynpf_ruleset rs;
	const char *nm = req->name;
	char err[512];
	json_object *o;
	__u32 gen = 0;

	dynpf_ruleset_init(&rs);
	if (dynpf_ruleset_parse(&rs, nm, req->text, req->text_len, &rerr)) {
		dynpf_ruleset_free(&rs);
		return reply_err("%s", rerr.msg);
	}
	if (rules_replace(d, &rs, nm, err, sizeof(err), &gen)) {
		dynpf_ruleset_free(&rs);
		return reply_err("%s", err);
	}
	o = reply_ok();
	jadd(o, "rules", json_object_new_int64(rs.n));
	jadd(o, "generation", json_object_new_int64(gen));
	dynpf_ruleset_free(&rs);
	pr_info("%s: %lld rules loaded by a client, generation %u\n", nm,
		(long long)json_object_get_int64(json_object_object_get(o, "rules")), gen);
	return o;
}

/* The active rule set as a rule file: settings, then the rules. */
static json_object *req_rules_save(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_ruleset rs;
	json_object *o;
	size_t len;
	char *text;
	int r;

	(void)req;
	dynpf_ruleset_init(&rs);
	r = dynpf_ruleset_read_view(&d->rv, &rs);
	if (r) {
		dynpf_ruleset_free(&rs);
		return reply_err("cannot read the active rule set: %s", strerror(-r));
	}
	text = dynpf_ruleset_text(&rs, true, &len);
	if (!text) {
		dynpf_ruleset_free(&rs);
		return reply_err("out of memory");
	}
	o = reply_ok();
	jadd(o, "text", json_object_new_string_len(text, len));
	jadd(o, "rules", json_object_new_int64(rs.n));
	free(text);
	dynpf_ruleset_free(&rs);
	return o;
}

static const char *const stats_hook_names[] = { "native", "xdp", "xdp-frags", "tc-ingress",
						"tc-egress" };
static const char *const stats_act_names[DYNPF_STATS_ACTS] = { "none", "pass", "drop", "redirect" };

/* {"packets", "bytes", "actions": {..}, "errors": {..}} of one set of counters. */
static json_object *stats_json(const struct dynpf_stats *s, bool detail)
{
	json_object *o = json_object_new_object(), *errs = json_object_new_object();

	jadd(o, "packets", json_object_new_int64(s->packets));
	jadd(o, "bytes", json_object_new_int64(s->bytes));
	if (detail) {
		json_object *acts = json_object_new_object();

		for (int k = 1; k < DYNPF_STATS_ACTS; k++) {
			json_object *a = json_object_new_object();

			jadd(a, "packets", json_object_new_int64(s->act[k]));
			jadd(a, "bytes", json_object_new_int64(s->act_bytes[k]));
			jadd(acts, stats_act_names[k], a);
		}
		jadd(o, "actions", acts);
	}
	for (int k = 1; k < DYNPF_STATS_ERR_SLOTS && k < 8; k++) {
		if (!s->err[k])
			continue;
		if (detail) {
			json_object *e = json_object_new_object();

			jadd(e, "packets", json_object_new_int64(s->err[k]));
			jadd(e, "bytes", json_object_new_int64(s->err_bytes[k]));
			jadd(errs, dynpf_match_error_name(k) ?: "?", e);
		} else {
			jadd(errs, dynpf_match_error_name(k) ?: "?",
			     json_object_new_int64(s->err[k]));
		}
	}
	jadd(o, "errors", errs);
	return o;
}

static json_object *req_stats(struct daemon *d, const struct dynpf_req *req)
{
	int ncpu = libbpf_num_possible_cpus(), sfd = bpf_map__fd(d->skel->maps.dynpf_stats);
	json_object *o = reply_ok(), *hooks = json_object_new_object();
	json_object *ifs = json_object_new_array();
	json_object *rules = json_object_new_array();
	struct dynpf_rule_stats *rsv = calloc(ncpu, sizeof(*rsv));
	struct dynpf_ruleset rs;

	(void)req;
	if (!rsv) {
		json_object_put(o);
		json_object_put(ifs);
		json_object_put(hooks);
		json_object_put(rules);
		return reply_err("out of memory");
	}
	/* Per hook, every interface. */
	for (int h = 1; h < DYNPF_HOOK_MAX; h++) {
		struct dynpf_stats s = {};
		int err = 0;

		for (uint32_t slot = 0; slot < DYNPF_IF_SLOTS && !err; slot++)
			err = dynpf_stats_read(sfd, slot, h, &s);
		if (!err)
			jadd(hooks, stats_hook_names[h], stats_json(&s, false));
	}
	jadd(o, "hooks", hooks);
	/* Per attachment: its interface's slot and its hook. */
	for (int i = 0; i < d->natt; i++) {
		const struct attachment *a = &d->att[i];
		int h = attachment_stats_hook(a);
		struct dynpf_stats s = {};
		json_object *io;

		if (dynpf_stats_read(sfd, a->slot, h, &s))
			continue;
		io = stats_json(&s, true);
		jadd(io, "name", json_object_new_string(a->cfg.name));
		jadd(io, "ifindex", json_object_new_int(a->ifindex));
		jadd(io, "hook", json_object_new_string(dynpf_attach_hook_name(a->cfg.hook)));
		if (!a->slot)
			jadd(io, "shared", json_object_new_boolean(1));
		json_object_array_add(ifs, io);
	}
	jadd(o, "interfaces", ifs);
	dynpf_ruleset_init(&rs);
	if (!dynpf_ruleset_read_view(&d->rv, &rs)) {
		int fd = bpf_map__fd(d->skel->maps.dynpf_rule_stats);

		for (size_t i = 0; i < rs.n; i++) {
			json_object *r = json_object_new_object();
			char text[DYNPF_RULE_TEXT_MAX];
			uint64_t pk = 0, by = 0;
			__u32 id = rs.rules[i].id;

			if (!bpf_map_lookup_elem(fd, &id, rsv))
				for (int c = 0; c < ncpu; c++) {
					pk += rsv[c].packets;
					by += rsv[c].bytes;
				}
			dynpf_rule_format(&rs.rules[i], text, sizeof(text));
			jadd(r, "id", json_object_new_int64(id));
			jadd(r, "packets", json_object_new_int64(pk));
			jadd(r, "bytes", json_object_new_int64(by));
			jadd(r, "rule", json_object_new_string(text));
			json_object_array_add(rules, r);
		}
	}
	jadd(o, "rules", rules);
	dynpf_ruleset_free(&rs);
	free(rsv);
	return o;
}

/* {"name", "hook", "frags"}: attach one more (not written to the config). */
static json_object *req_attach(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_iface_cfg cfg = { .hook = req->hook, .frags = req->frags };
	struct attachment *a;
	json_object *o;
	char msg[512];
	int err;

	if (d->natt == DYNPF_MAX_IFACES)
		return reply_err("attach: %d attachments already", DYNPF_MAX_IFACES);
	a = &d->att[d->natt];
	snprintf(cfg.name, sizeof(cfg.name), "%s", req->name);
	attachment_init(a, &cfg);
	for (int i = 0; i < d->natt; i++)
		if (!strcmp(d->att[i].cfg.name, a->cfg.name) &&
		    (d->att[i].cfg.hook == a->cfg.hook ||
		     (d->att[i].cfg.hook <= DYNPF_ATTACH_XDP_GENERIC &&
		      a->cfg.hook <= DYNPF_ATTACH_XDP_GENERIC)))
			return reply_err("%s: already attached at %s", a->cfg.name,
					 dynpf_attach_hook_name(d->att[i].cfg.hook));
	a->ifindex = if_nametoindex(a->cfg.name);
	if (!a->ifindex)
		return reply_err("%s: no such interface", a->cfg.name);
	/* The attach functions report through p_err: their words go to the client. */
	dynpf_log_capture(msg, sizeof(msg));
	err = attach_one(d, a);
	dynpf_log_capture(NULL, 0);
	if (err) {
		ifslot_put(d, a->ifindex);
		return reply_err("%s", msg[0] ? msg : strerror(-err));
	}
	/* The configuration's, if it names it: kept attached from now on. */
	for (int i = 0; i < d->cfg.nifaces; i++)
		if (!strcmp(d->cfg.ifaces[i].name, a->cfg.name) &&
		    d->cfg.ifaces[i].hook == a->cfg.hook && (!d->want[i] || iface_waiting(d, i))) {
			a->cfg_idx = i;
			d->want[i] = true;
			break;
		}
	d->natt++;
	pr_info("%s: attached at %s (%s) by a client\n", a->cfg.name,
		dynpf_attach_hook_name(a->cfg.hook), a->how);
	o = reply_ok();
	jadd(o, "attach", json_object_new_string(a->how));
	return o;
}

/* {"name", "hook" (optional: all of the interface's)}: detach. */
static json_object *req_detach(struct daemon *d, const struct dynpf_req *req)
{
	enum dynpf_attach_hook h = req->hook;
	bool any_hook = !req->has_hook;
	json_object *o;
	int n = 0;

	for (int i = 0; i < d->natt;) {
		struct attachment *a = &d->att[i];

		if (strcmp(a->cfg.name, req->name) || (!any_hook && a->cfg.hook != h)) {
			i++;
			continue;
		}
		/* A configured one stays detached, also if it comes back. */
		if (a->cfg_idx >= 0)
			d->want[a->cfg_idx] = false;
		detach_one(d, a);
		attachment_drop(d, i);
		n++;
	}
	if (!n)
		return reply_err("%s: not attached%s%s", req->name, any_hook ? "" : " at ",
				 any_hook ? "" : dynpf_attach_hook_name(h));
	o = reply_ok();
	jadd(o, "detached", json_object_new_int(n));
	return o;
}

/* The handler of each command (request.h). */
static json_object *(*const handlers[])(struct daemon *d, const struct dynpf_req *req) = {
	[DYNPF_REQ_STATUS] = req_status,           [DYNPF_REQ_RULES_LOAD] = req_rules_load,
	[DYNPF_REQ_RULES_SAVE] = req_rules_save,   [DYNPF_REQ_RULE_ADD] = req_rule_add,
	[DYNPF_REQ_RULE_DEL] = req_rule_del,       [DYNPF_REQ_STATS] = req_stats,
	[DYNPF_REQ_ATTACH] = req_attach,           [DYNPF_REQ_DETACH] = req_detach,
	[DYNPF_REQ_RULES_APPLY] = req_rules_apply,
};

json_object *handle_request(struct daemon *d, const char *line, size_t len)
{
	struct dynpf_req req;
	json_object *rep = NULL;
	char err[256];

	if (dynpf_req_parse(line, len, &req, err, sizeof(err)))
		return reply_err("%s", err);
	if ((size_t)req.cmd < sizeof(handlers) / sizeof(handlers[0]) && handlers[req.cmd])
		rep = handlers[req.cmd](d, &req);
	dynpf_req_free(&req);
	return rep ? rep : reply_err("internal error: no reply");
}
