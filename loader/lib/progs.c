// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loading the packet programs and running packets through BPF_PROG_TEST_RUN. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "dynpf_lazy_tc.skel.h"
#include "lib/log.h"
#include "lib/progs.h"

/* The effective capabilities, as a 64-bit set (1 << CAP_*). */
static int effective_caps(uint64_t *caps)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &h, c))
		return -errno;
	*caps = (uint64_t)c[1].effective << 32 | c[0].effective;
	return 0;
}

bool dynpf_has_cap(int cap)
{
	uint64_t caps = 0;

	return !effective_caps(&caps) && (caps & (1ull << cap));
}

int dynpf_check_caps(const char *sys_admin)
{
	/* Each is also granted by CAP_SYS_ADMIN, the kernel's older word. */
	static const struct {
		int cap;
		const char *name;
	} need[] = { { CAP_BPF, "CAP_BPF" },
		     { CAP_PERFMON, "CAP_PERFMON" },
		     { CAP_NET_ADMIN, "CAP_NET_ADMIN" } };
	char lack[96] = "";
	uint64_t caps = 0;
	int err = effective_caps(&caps);

	if (err) {
		p_err("cannot read this process's capabilities: %s", strerror(-err));
		return err;
	}
	if (!(caps & (1ull << CAP_SYS_ADMIN))) {
		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!(caps & (1ull << need[i].cap)))
				snprintf(lack + strlen(lack), sizeof(lack) - strlen(lack), "%s%s",
					 lack[0] ? ", " : "", need[i].name);
		if (sys_admin)
			snprintf(lack + strlen(lack), sizeof(lack) - strlen(lack),
				 "%sCAP_SYS_ADMIN", lack[0] ? ", " : "");
	}
	if (!lack[0])
		return 0;
	p_err("this command loads and attaches BPF programs: it needs root, or the "
	      "capabilities CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN%s%s%s; it lacks %s (systemd: "
	      "AmbientCapabilities=CAP_BPF CAP_PERFMON CAP_NET_ADMIN%s)",
	      sys_admin ? " and CAP_SYS_ADMIN (" : "", sys_admin ? sys_admin : "",
	      sys_admin ? ")" : "", lack, sys_admin ? " CAP_SYS_ADMIN" : "");
	return -EPERM;
}

int dynpf_probe_kernel(void)
{
	static const char *const kfuncs[] = { "bpf_dynptr_from_xdp", "bpf_dynptr_from_skb",
					      "bpf_dynptr_slice", "bpf_dynptr_clone" };
	struct btf *btf;
	int err = 0;

	err = dynpf_check_caps(NULL);
	if (err)
		return err;
	/* One error line of ours, not libbpf's as well (it comes back at -vv). */
	libbpf_print_fn_t prev = libbpf_set_print(NULL);

	btf = btf__load_vmlinux_btf();
	libbpf_set_print(prev);
	if (!btf) {
		err = -errno;
		p_err("kernel BTF not found (/sys/kernel/btf/vmlinux): dynpf needs a kernel built "
		      "with CONFIG_DEBUG_INFO_BTF=y");
		return err;
	}
	for (size_t i = 0; i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++) {
		if (btf__find_by_name_kind(btf, kfuncs[i], BTF_KIND_FUNC) < 0) {
			p_err("kernel lacks the %s kfunc: dynpf needs Linux 6.4 or newer with "
			      "skb/xdp dynptrs",
			      kfuncs[i]);
			err = -EOPNOTSUPP;
			break;
		}
	}
	btf__free(btf);
	return err;
}

static int on_trace(void *ctx, void *data, size_t size)
{
	struct dynpf_progs *pr = ctx;

	if (pr->on_rec) {
		pr->nrec++;
		pr->on_rec(pr->on_rec_ctx, data, size);
		return 0;
	}
	if (size < sizeof(struct dynpf_pkt))
		return 0;
	memcpy(pr->last, data, sizeof(struct dynpf_pkt));
	if (size >= sizeof(struct dynpf_trace_rec))
		memcpy(pr->last_v, &((const struct dynpf_trace_rec *)data)->v,
		       sizeof(struct dynpf_verdict));
	else
		memset(pr->last_v, 0, sizeof(struct dynpf_verdict));
	pr->nrec++;
	return 0;
}

int dynpf_size_rule_maps(struct dynpf_bpf *skel, uint32_t max_rules)
{
	/* Map sizes must not be 0: a table for id 0 alone holds no rule. */
	uint32_t ids = max_rules ? max_rules : 1;
	uint32_t ops = max_rules ? (max_rules < 64 ? 64 : max_rules) : 1;
	uint32_t buckets = 64; /* a power of 2, twice the rules */
	int err = 0;

	while (buckets < 2 * ids)
		buckets *= 2;

	if (max_rules > DYNPF_MAX_RULES)
		return -E2BIG;
	skel->rodata->dynpf_cfg_max_rules = max_rules;
	skel->rodata->dynpf_cfg_max_ops = ops;
	skel->rodata->dynpf_cfg_buckets = buckets;
	/* The entry pool and its free stack and limbo ring: twice the ids. */
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_rules, 2 * ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_free, 2 * ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_limbo, 2 * ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_idx, ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_ids, ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_rule_stats, ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_buckets, ids);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_ops, ops);
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_heads, buckets);
	/* The field filters: 8 MB, of use only with rules. */
	err = err
		      ?: bpf_map__set_max_entries(skel->maps.dynpf_fsel,
						  max_rules ? DYNPF_FS_ENTRIES : 1);
	/* Their counts: at most 4 fields of each entry of the pool (a bound;
	 * the map holds the counts in use, not its size). */
	err = err ?: bpf_map__set_max_entries(skel->maps.dynpf_fs_cnt, 8 * ids);
	return err;
}

int dynpf_reuse_maps(struct bpf_object *obj, const struct bpf_object *from)
{
	struct bpf_map *m, *src;
	int err;

	bpf_object__for_each_map(m, obj) {
		if (bpf_map__is_internal(m))
			continue;
		src = bpf_object__find_map_by_name(from, bpf_map__name(m));
		if (!src)
			return -ENOENT;
		err = bpf_map__reuse_fd(m, bpf_map__fd(src));
		if (err)
			return err;
	}
	return 0;
}

/* The offset and size of the .rodata variable named name, from BTF; -1 if none. */
static long rodata_var(const struct btf *btf, const char *name, __u32 *size)
{
	int id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;

	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (__u16 i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), name)) {
			*size = vs->size;
			return vs->offset;
		}
	}
	return -1;
}

/* The .rodata map of obj, or NULL. */
static struct bpf_map *rodata_map(const struct bpf_object *obj)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj)
		if (bpf_map__is_internal(m) && strstr(bpf_map__name(m), ".rodata"))
			return m;
	return NULL;
}

int dynpf_set_rodata_u8(struct bpf_object *obj, const char *name, __u8 val)
{
	struct bpf_map *ro = rodata_map(obj);
	size_t ro_sz = 0;
	__u32 size = 0;
	char *v = NULL;
	long off;

	off = rodata_var(bpf_object__btf(obj), name, &size);
	if (ro)
		v = bpf_map__initial_value(ro, &ro_sz);
	if (!v || off < 0 || size != 1 || (size_t)off >= ro_sz)
		return -ENOENT;
	v[off] = (char)val;
	return 0;
}

int dynpf_copy_rodata(struct bpf_object *obj, const struct bpf_object *from)
{
	const struct btf *btf = bpf_object__btf(obj), *fbtf = bpf_object__btf(from);
	struct bpf_map *m = rodata_map(obj), *fm = rodata_map(from);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	size_t sz, fsz;
	const char *src;
	char *dst;
	int id;

	if (!m || !fm || !btf || !fbtf)
		return -ENOENT;
	dst = bpf_map__initial_value(m, &sz);
	src = bpf_map__initial_value(fm, &fsz);
	id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	if (!dst || !src || id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (__u16 i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);
		__u32 fsize = 0;
		long foff = rodata_var(fbtf, btf__name_by_offset(btf, v->name_off), &fsize);

		if (foff >= 0 && fsize == vs->size && vs->offset + vs->size <= sz &&
		    (size_t)foff + fsize <= fsz)
			memcpy(dst + vs->offset, src + foff, vs->size);
	}
	return 0;
}

/*
 * Before obj's load (a lazy build's): skel's settings (by name: the objects
 * lay them out apart), and every map skel's programs use (the rule set,
 * the counters, the trace). what names obj's programs in errors.
 */
static int on_skel(struct bpf_object *obj, struct dynpf_bpf *skel, const char *what)
{
	int err = dynpf_copy_rodata(obj, skel->obj);

	err = err ?: dynpf_reuse_maps(obj, skel->obj);
	if (err)
		p_err("cannot put the %s programs on the maps and settings of the others: %s", what,
		      strerror(-err));
	return err;
}

static int lazy_xdp_open(struct dynpf_bpf *skel, unsigned int hooks, struct dynpf_lazy *l)
{
	struct dynpf_lazy_bpf *x = dynpf_lazy_bpf__open();
	int err;

	if (!x) {
		err = -errno;
		p_err("cannot open the XDP programs' object: %s", strerror(-err));
		return err;
	}
	l->xdp = x;
	bpf_program__set_autoload(x->progs.dynpf_xdp, hooks & 1u << DYNPF_HOOK_XDP);
	bpf_program__set_autoload(x->progs.dynpf_xdp_frags, hooks & 1u << DYNPF_HOOK_XDP_FRAGS);
	err = on_skel(x->obj, skel, "XDP");
	if (err)
		return err;
	err = dynpf_lazy_bpf__load(x);
	if (err)
		p_err("cannot load the XDP programs (%s): run with -vv to see the verifier log",
		      strerror(-err));
	return err;
}

static int lazy_tc_open(struct dynpf_bpf *skel, unsigned int hooks, unsigned int flags,
			struct dynpf_lazy *l)
{
	struct dynpf_lazy_tc_bpf *t = dynpf_lazy_tc_bpf__open();
	int err;

	if (!t) {
		err = -errno;
		p_err("cannot open the TC programs' object: %s", strerror(-err));
		return err;
	}
	l->tc = t;
	bpf_program__set_autoload(t->progs.dynpf_tc_ingress, hooks & 1u << DYNPF_HOOK_TC_INGRESS);
	bpf_program__set_autoload(t->progs.dynpf_tc_egress, hooks & 1u << DYNPF_HOOK_TC_EGRESS);
	if (flags & DYNPF_LAZY_TCX) {
		bpf_program__set_expected_attach_type(t->progs.dynpf_tc_ingress, BPF_TCX_INGRESS);
		bpf_program__set_expected_attach_type(t->progs.dynpf_tc_egress, BPF_TCX_EGRESS);
	}
	err = on_skel(t->obj, skel, "TC");
	if (err)
		return err;
	err = dynpf_lazy_tc_bpf__load(t);
	if (err)
		p_err("cannot load the TC programs (%s): run with -vv to see the verifier log",
		      strerror(-err));
	return err;
}

#define DYNPF_XDP_HOOKS (1u << DYNPF_HOOK_XDP | 1u << DYNPF_HOOK_XDP_FRAGS)
#define DYNPF_TC_HOOKS (1u << DYNPF_HOOK_TC_INGRESS | 1u << DYNPF_HOOK_TC_EGRESS)

int dynpf_lazy_open(struct dynpf_bpf *skel, unsigned int hooks, unsigned int flags,
		    struct dynpf_lazy *out)
{
	int err = 0;

	memset(out, 0, sizeof(*out));
	hooks = hooks ?: DYNPF_XDP_HOOKS | DYNPF_TC_HOOKS;
	if (hooks & DYNPF_XDP_HOOKS)
		err = lazy_xdp_open(skel, hooks, out);
	if (!err && (hooks & DYNPF_TC_HOOKS))
		err = lazy_tc_open(skel, hooks, flags, out);
	if (err)
		dynpf_lazy_close(out);
	return err;
}

void dynpf_lazy_close(struct dynpf_lazy *l)
{
	dynpf_lazy_bpf__destroy(l->xdp);
	dynpf_lazy_tc_bpf__destroy(l->tc);
	l->xdp = NULL;
	l->tc = NULL;
}

struct bpf_program *dynpf_lazy_prog(const struct dynpf_lazy *l, int hook)
{
	switch (hook) {
	case DYNPF_HOOK_XDP:
		return l->xdp ? l->xdp->progs.dynpf_xdp : NULL;
	case DYNPF_HOOK_XDP_FRAGS:
		return l->xdp ? l->xdp->progs.dynpf_xdp_frags : NULL;
	case DYNPF_HOOK_TC_INGRESS:
		return l->tc ? l->tc->progs.dynpf_tc_ingress : NULL;
	case DYNPF_HOOK_TC_EGRESS:
		return l->tc ? l->tc->progs.dynpf_tc_egress : NULL;
	}
	return NULL;
}

struct bpf_object *dynpf_lazy_obj(const struct dynpf_lazy *l, int tc)
{
	if (tc)
		return l->tc ? l->tc->obj : NULL;
	return l->xdp ? l->xdp->obj : NULL;
}

void dynpf_skel_maps_only(struct dynpf_bpf *skel)
{
	bpf_program__set_autoload(skel->progs.dynpf_xdp, false);
	bpf_program__set_autoload(skel->progs.dynpf_xdp_frags, false);
	bpf_program__set_autoload(skel->progs.dynpf_tc_ingress, false);
	bpf_program__set_autoload(skel->progs.dynpf_tc_egress, false);
}

struct bpf_program *dynpf_progs_prog(struct dynpf_progs *pr, int hook)
{
	return dynpf_lazy_prog(&pr->lazy, hook);
}

int dynpf_progs_open(struct dynpf_progs *pr, enum dynpf_trace trace,
		     const struct dynpf_parse_cfg *cfg, uint32_t max_rules)
{
	return dynpf_progs_open_hooks(pr, trace, cfg, max_rules, 0);
}

int dynpf_progs_open_hooks(struct dynpf_progs *pr, enum dynpf_trace trace,
			   const struct dynpf_parse_cfg *cfg, uint32_t max_rules,
			   unsigned int hooks)
{
	static struct dynpf_verdict last_v;
	static struct dynpf_pkt last;
	int err;

	memset(pr, 0, sizeof(*pr));
	pr->last = &last;
	pr->last_v = &last_v;
	pr->skel = dynpf_bpf__open();
	if (!pr->skel) {
		err = -errno;
		p_err("cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	pr->skel->rodata->dynpf_trace_on = trace != DYNPF_TRACE_OFF;
	/* A test run's record is consumed right after the run: waking a reader
	 * (an IPI from the submit) was 10% of a replay's time. */
	pr->skel->rodata->dynpf_trace_nowake = trace == DYNPF_TRACE_TEST_RUN;
	dynpf_skel_maps_only(pr->skel);
	/* No rule capacity, no rules: the drain, which only the control
	 * channel runs, is not loaded (0.45 s of verification, 2.1 s before
	 * dynpf_rule_needs_g()). */
	if (!max_rules)
		bpf_program__set_autoload(pr->skel->progs.dynpf_drain, false);
	err = dynpf_size_rule_maps(pr->skel, max_rules);
	if (err) {
		p_err("cannot size the rule tables for %u rules: %s", max_rules, strerror(-err));
		goto fail;
	}
	if (cfg) {
		pr->skel->rodata->dynpf_cfg_max_ext = cfg->max_ext;
		pr->skel->rodata->dynpf_cfg_max_stacks = cfg->max_stacks;
	}
	err = dynpf_bpf__load(pr->skel);
	if (err) {
		p_err("cannot load the BPF programs (%s): run with -vv to see the verifier log",
		      strerror(-err));
		goto fail;
	}
	err = dynpf_lazy_open(pr->skel, hooks, 0, &pr->lazy);
	if (err)
		goto fail;
	pr->rb = ring_buffer__new(bpf_map__fd(pr->skel->maps.dynpf_trace), on_trace, pr, NULL);
	if (!pr->rb) {
		err = -errno;
		p_err("cannot open the trace ring buffer: %s", strerror(-err));
		goto fail;
	}
	return 0;
fail:
	dynpf_progs_close(pr);
	return err;
}

int dynpf_progs_open_lean(struct dynpf_progs *lean, struct dynpf_progs *of, unsigned int hooks)
{
	struct bpf_map *m, *src;
	int err;

	memset(lean, 0, sizeof(*lean));
	lean->skel = dynpf_bpf__open();
	if (!lean->skel) {
		err = -errno;
		p_err("cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	/* of's settings and rule set; trace off. */
	*lean->skel->rodata = *of->skel->rodata;
	lean->skel->rodata->dynpf_trace_on = 0;
	lean->skel->rodata->dynpf_trace_nowake = 0;
	dynpf_skel_maps_only(lean->skel);
	/* of's drain keeps the rule set these programs read. */
	bpf_program__set_autoload(lean->skel->progs.dynpf_drain, false);
	bpf_object__for_each_map(m, lean->skel->obj) {
		/* Its own counters, verdicts and scratch: of's count the walk. */
		if (bpf_map__is_internal(m) || m == lean->skel->maps.dynpf_stats ||
		    m == lean->skel->maps.dynpf_rule_stats ||
		    m == lean->skel->maps.dynpf_verdicts || m == lean->skel->maps.dynpf_ifslots ||
		    m == lean->skel->maps.dynpf_trace)
			continue;
		src = bpf_object__find_map_by_name(of->skel->obj, bpf_map__name(m));
		err = src ? bpf_map__reuse_fd(m, bpf_map__fd(src)) : -ENOENT;
		if (err) {
			p_err("cannot share the map %s: %s", bpf_map__name(m), strerror(-err));
			goto fail;
		}
	}
	err = dynpf_bpf__load(lean->skel);
	if (err) {
		p_err("cannot load the BPF programs (%s): run with -vv to see the verifier log",
		      strerror(-err));
		goto fail;
	}
	/* Its packet programs on its maps (of's rule set, its own counters). */
	err = dynpf_lazy_open(lean->skel, hooks, 0, &lean->lazy);
	if (err)
		goto fail;
	return 0;
fail:
	dynpf_progs_close(lean);
	return err;
}

enum dynpf_run_result dynpf_progs_verdict(struct dynpf_progs *pr, int hook, const void *data,
					  uint32_t len, struct dynpf_verdict *v)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = data, .data_size_in = len, .repeat = 1);
	int fd = bpf_map__fd(pr->skel->maps.dynpf_verdicts), ncpus = libbpf_num_possible_cpus();
	/* A per-CPU value is laid out every 8 bytes. */
	size_t stride = (sizeof(struct dynpf_verdict) + 7) & ~(size_t)7;
	struct bpf_program *prog = dynpf_progs_prog(pr, hook);
	uint32_t zero = 0;
	int err, found = -1;
	char *all;

	if (!prog || ncpus <= 0)
		return DYNPF_RUN_ERROR;
	all = calloc(ncpus, stride);
	if (!all)
		return DYNPF_RUN_ERROR;
	/* Which CPU ran it: the one whose verdict is no longer all zeros. */
	err = bpf_map_update_elem(fd, &zero, all, 0);
	err = err ?: bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	err = err ?: bpf_map_lookup_elem(fd, &zero, all);
	for (int c = 0; !err && c < ncpus && found < 0; c++)
		if (((const struct dynpf_verdict *)(all + c * stride))->action)
			found = c;
	if (found >= 0)
		memcpy(v, all + found * stride, sizeof(*v));
	free(all);
	return found >= 0 ? DYNPF_RUN_OK : DYNPF_RUN_ERROR;
}

void dynpf_progs_close(struct dynpf_progs *pr)
{
	ring_buffer__free(pr->rb);
	dynpf_lazy_close(&pr->lazy);
	dynpf_bpf__destroy(pr->skel);
	pr->rb = NULL;
	pr->skel = NULL;
}

static bool is_ip_ethertype(const uint8_t *d, uint32_t len)
{
	uint16_t et = len >= 14 ? (uint16_t)(d[12] << 8 | d[13]) : 0;

	return et == 0x0800 || et == 0x86dd;
}

enum dynpf_run_result dynpf_progs_run(struct dynpf_progs *pr, int hook, const void *data,
				      uint32_t len, struct dynpf_pkt *out, char *reason,
				      size_t reason_len)
{
	struct bpf_program *prog = dynpf_progs_prog(pr, hook);
	bool tc = hook == DYNPF_HOOK_TC_INGRESS || hook == DYNPF_HOOK_TC_EGRESS;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = data, .data_size_in = len, .repeat = 1);
	struct xdp_md xctx = {};
	int err;

	if (!prog) {
		snprintf(reason, reason_len, "no program for hook %d", hook);
		return DYNPF_RUN_ERROR;
	}
	/* Limits of BPF_PROG_TEST_RUN, not of dynpf: say so, do not fail. */
	if (len < 14) {
		snprintf(reason, reason_len,
			 "BPF_PROG_TEST_RUN needs at least 14 bytes (an Ethernet header)");
		return DYNPF_RUN_SKIPPED;
	}
	if (hook == DYNPF_HOOK_XDP && len > DYNPF_XDP_TEST_LINEAR_MAX) {
		snprintf(reason, reason_len,
			 "xdp test-run buffs are linear, at most %d bytes: see xdp-frags",
			 DYNPF_XDP_TEST_LINEAR_MAX);
		return DYNPF_RUN_SKIPPED;
	}
	if (hook == DYNPF_HOOK_XDP_FRAGS &&
	    len > (pr->xdp_linear ?: DYNPF_XDP_TEST_LINEAR_MAX) + 4096 * DYNPF_XDP_TEST_FRAGS_MAX) {
		snprintf(reason, reason_len,
			 "an xdp.frags test run takes at most %d fragments of 4096 bytes after "
			 "its %u-byte linear part",
			 DYNPF_XDP_TEST_FRAGS_MAX, pr->xdp_linear ?: DYNPF_XDP_TEST_LINEAR_MAX);
		return DYNPF_RUN_SKIPPED;
	}
	if (hook == DYNPF_HOOK_XDP_FRAGS && pr->xdp_linear && pr->xdp_linear < len) {
		/* The kernel takes the linear size from the context's data_end. */
		xctx.data_end = pr->xdp_linear;
		opts.ctx_in = &xctx;
		opts.ctx_size_in = sizeof(xctx);
	}
	pr->nrec = 0;
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err) {
		err = -errno;
		if (tc && err == -EINVAL && len > 3000) {
			snprintf(reason, reason_len,
				 "tc test-run builds linear skbs of at most about 3.7 KB");
			return DYNPF_RUN_SKIPPED;
		}
		/*
		 * The skb test-run also refuses an IPv4/IPv6 ethertype whose IP
		 * header is cut short (seen on 6.18); a NIC would deliver it.
		 */
		if (tc && err == -EINVAL && is_ip_ethertype(data, len)) {
			snprintf(reason, reason_len,
				 "tc test-run refuses frames whose IP header is truncated");
			return DYNPF_RUN_SKIPPED;
		}
		snprintf(reason, reason_len, "BPF_PROG_TEST_RUN on %s failed: %s",
			 bpf_program__name(prog), strerror(-err));
		return DYNPF_RUN_ERROR;
	}
	ring_buffer__consume(pr->rb);
	if (pr->nrec != 1) {
		snprintf(reason, reason_len,
			 "expected one trace record from %s, got %d (trace ring full?)",
			 bpf_program__name(prog), pr->nrec);
		return DYNPF_RUN_ERROR;
	}
	memcpy(out, pr->last, sizeof(*out));
	return DYNPF_RUN_OK;
}

int dynpf_stats_read(int map_fd, uint32_t slot, int hook, struct dynpf_stats *out)
{
	int ncpu = libbpf_num_possible_cpus(), err = 0;
	__u32 key = dynpf_stats_key(slot, hook);
	struct dynpf_stats *v;

	if (ncpu < 0)
		return ncpu;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(map_fd, &key, v)) {
		err = -errno;
		goto out;
	}
	/*
	 * packets, bytes and err[0] are not counted by the programs
	 * (bpf/dynpf.bpf.c, dynpf_count()): every packet has one action, and
	 * those not in a parse error parsed.
	 */
	for (int c = 0; c < ncpu; c++) {
		out->trace_lost += v[c].trace_lost;
		out->no_dynptr += v[c].no_dynptr;
		for (int a = 0; a < DYNPF_STATS_ACTS; a++) {
			out->act[a] += v[c].act[a];
			out->act_bytes[a] += v[c].act_bytes[a];
			out->packets += v[c].act[a];
			out->bytes += v[c].act_bytes[a];
			out->err[0] += v[c].act[a];
			out->err_bytes[0] += v[c].act_bytes[a];
		}
		for (int e = 1; e < DYNPF_STATS_ERR_SLOTS; e++) {
			out->err[e] += v[c].err[e];
			out->err_bytes[e] += v[c].err_bytes[e];
			out->err[0] -= v[c].err[e];
			out->err_bytes[0] -= v[c].err_bytes[e];
		}
	}
out:
	free(v);
	return err;
}

int dynpf_progs_read_stats(struct dynpf_progs *pr, int hook, struct dynpf_stats *out)
{
	int fd = bpf_map__fd(pr->skel->maps.dynpf_stats), err = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t slot = 0; slot < DYNPF_IF_SLOTS && !err; slot++)
		err = dynpf_stats_read(fd, slot, hook, out);
	return err;
}
