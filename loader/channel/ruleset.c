// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Rule sets through the control channel: see channel/ruleset.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ruleset.h"
#include "dynpf.skel.h"
#include "lib/log.h"
#include "decltab.h"
#include "protocheck.h"

__u32 dynpf_ruleset_capacity(const struct dynpf_ruleset *rs)
{
	__u32 max = 0;

	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i].id > max)
			max = rs->rules[i].id;
	return max + 1;
}

/* The rule (or setting) a message was about: its source line. */
struct sent {
	uint64_t seq;
	unsigned long line;
	__u32 id;
	const char *proto; /* a declaration's name */
};

#define APPLY_ERR(...)                                         \
	do {                                                   \
		if (errbuf)                                    \
			snprintf(errbuf, errlen, __VA_ARGS__); \
		else                                           \
			p_err(__VA_ARGS__);                    \
	} while (0)

const char *dynpf_proto_refusal(const struct dynpf_ack *a)
{
	const char *why = dynpf_proto_why(a->field);

	if (why && a->err == -EINVAL)
		return why;
	switch (-a->err) {
	case EEXIST:
		return "taken: the id, the name or the binding is another protocol's";
	case ENOENT:
		return "no such protocol";
	case EBUSY:
		return "a rule tests it: delete the rules first";
	}
	return strerror(-a->err);
}

int dynpf_ruleset_apply(struct dynpf_ctrl *c, const struct dynpf_ruleset *rs, const char *file,
			const struct dynpf_ruleset *old, char *errbuf, size_t errlen, __u32 *gen)
{
	size_t nold = old ? old->n : 0;
	struct sent *sent =
		calloc(nold + rs->n + DYNPF_SET_MAX + 2 * DYNPF_MAX_PROTOS + 2, sizeof(*sent));
	const struct dynpf_ack_commit *a;
	size_t n = 0;
	uint64_t seq;
	int err;

	if (!sent)
		return -ENOMEM;
	dynpf_ctrl_take(c);
	err = dynpf_ctrl_begin(c, &seq);
	sent[n++] = (struct sent){ .seq = seq };
	for (size_t i = 0; !err && i < nold; i++) {
		err = dynpf_ctrl_del(c, old->rules[i].id, &seq);
		sent[n++] = (struct sent){ .seq = seq, .id = old->rules[i].id };
	}
	/* The old set's declarations go once its rules have; then rs's come. */
	for (unsigned int i = 0; !err && old && i < DYNPF_MAX_PROTOS; i++) {
		if (!old->protos.key[i])
			continue;
		err = dynpf_ctrl_proto_del(c, i, &seq);
		sent[n++] = (struct sent){ .seq = seq, .proto = old->protos.d[i].name };
	}
	for (unsigned int i = 0; !err && i < DYNPF_MAX_PROTOS; i++) {
		if (!rs->protos.key[i] || (!old && !rs->proto_line[i]))
			continue;
		err = dynpf_ctrl_proto_add(c, &rs->protos.d[i], &seq);
		sent[n++] = (struct sent){ .seq = seq,
					   .line = rs->proto_line[i],
					   .proto = rs->protos.d[i].name };
	}
	for (unsigned int k = 1; !err && k < DYNPF_SET_MAX; k++) {
		__u64 v = k == DYNPF_SET_DEFAULT_ACTION ? DYNPF_ACT_PASS : 1;

		if (rs->set_seen & (1u << k))
			v = rs->set[k];
		else if (!old)
			continue;
		err = dynpf_ctrl_set(c, k, v, &seq);
		sent[n++] = (struct sent){ .seq = seq, .line = rs->set_line[k] };
	}
	for (size_t i = 0; !err && i < rs->n; i++) {
		err = dynpf_ctrl_add(c, &rs->rules[i], &seq);
		sent[n++] =
			(struct sent){ .seq = seq, .line = rs->lines[i], .id = rs->rules[i].id };
	}
	if (!err)
		err = dynpf_ctrl_commit(c, &seq);
	if (!err) {
		sent[n++] = (struct sent){ .seq = seq };
		err = dynpf_ctrl_flush(c);
	}
	if (err)
		APPLY_ERR("%s: the control channel failed: %s", file, strerror(-err));
	for (size_t i = 0; !err && i < n; i++) {
		a = dynpf_ctrl_ack(c, sent[i].seq);
		if (!a) {
			APPLY_ERR("%s: no ack for message %llu", file,
				  (unsigned long long)sent[i].seq);
			err = -EPROTO;
		} else if (a->a.err && a->a.type != DYNPF_MSG_TXN_COMMIT) {
			if (sent[i].id)
				APPLY_ERR("%s:%lu: rule %u refused by the classifier: field %s: %s",
					  file, sent[i].line, sent[i].id,
					  dynpf_field_name(a->a.field), strerror(-a->a.err));
			else if (sent[i].proto)
				APPLY_ERR("%s:%lu: %s of protocol '%.15s' refused: field %s: %s",
					  file, sent[i].line, dynpf_msg_name(a->a.type),
					  sent[i].proto, dynpf_field_name(a->a.field),
					  dynpf_proto_refusal(&a->a));
			else
				APPLY_ERR("%s:%lu: %s refused: field %s: %s", file, sent[i].line,
					  dynpf_msg_name(a->a.type), dynpf_field_name(a->a.field),
					  strerror(-a->a.err));
			err = -EINVAL;
		} else if (a->a.err) {
			APPLY_ERR("%s: the transaction was refused: %s", file, strerror(-a->a.err));
			err = -EINVAL;
		} else if (a->a.type == DYNPF_MSG_TXN_COMMIT && gen) {
			*gen = a->a.gen;
		}
	}
	free(sent);
	return err;
}

json_object *dynpf_verdict_to_json(const struct dynpf_verdict *v, bool with_gen)
{
	json_object *o = json_object_new_object(), *m = json_object_new_array();
	const char *act = dynpf_action_name(v->action);

	json_object_object_add(o, "action", json_object_new_string(act ? act : "unknown"));
	json_object_object_add(o, "rule", json_object_new_int64(v->rule));
	if (with_gen)
		json_object_object_add(o, "gen", json_object_new_int64(v->gen));
	for (int i = 0; i < v->nmatch && i < 6; i++)
		json_object_array_add(m, json_object_new_int64(v->match[i]));
	json_object_object_add(o, "matched", m);
	if (v->flags & DYNPF_VF_MARK)
		json_object_object_add(o, "mark", json_object_new_int64(v->mark));
	if (v->action == DYNPF_ACT_REDIRECT)
		json_object_object_add(o, "ifindex", json_object_new_int64(v->arg));
	return o;
}

/* A read-only mapping of a whole BPF_F_MMAPABLE array map. */
static const void *map_view(struct bpf_map *map, size_t *len)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;

	*len = (size_t)bpf_map__max_entries(map) * ((bpf_map__value_size(map) + 7) & ~7u);
	*len = (*len + page - 1) & ~(page - 1);
	p = mmap(NULL, *len, PROT_READ, MAP_SHARED, bpf_map__fd(map), 0);
	return p == MAP_FAILED ? NULL : p;
}

void dynpf_rules_view_close(struct dynpf_rules_view *v)
{
	if (v->st)
		munmap((void *)v->st, v->st_len);
	if (v->idx)
		munmap((void *)v->idx, v->idx_len);
	if (v->ent)
		munmap((void *)v->ent, v->ent_len);
	if (v->protos)
		munmap((void *)v->protos, v->protos_len);
	memset(v, 0, sizeof(*v));
}

int dynpf_rules_view_open(struct dynpf_bpf *skel, struct dynpf_rules_view *v)
{
	int err;

	memset(v, 0, sizeof(*v));
	if (bpf_map__value_size(skel->maps.dynpf_rules) != sizeof(struct dynpf_rule_ent) ||
	    bpf_map__value_size(skel->maps.dynpf_state) != sizeof(struct dynpf_state) ||
	    bpf_map__value_size(skel->maps.dynpf_protos) != sizeof(struct dynpf_proto_tab) ||
	    bpf_map__max_entries(skel->maps.dynpf_protos) != 2)
		return -EPROTO;
	v->st = map_view(skel->maps.dynpf_state, &v->st_len);
	v->idx = map_view(skel->maps.dynpf_idx, &v->idx_len);
	v->ent = map_view(skel->maps.dynpf_rules, &v->ent_len);
	v->protos = map_view(skel->maps.dynpf_protos, &v->protos_len);
	if (!v->st || !v->idx || !v->ent || !v->protos) {
		err = -errno;
		dynpf_rules_view_close(v);
		return err ? err : -ENOMEM;
	}
	v->nids = bpf_map__max_entries(skel->maps.dynpf_idx);
	v->nents = bpf_map__max_entries(skel->maps.dynpf_rules);
	return 0;
}

const struct dynpf_rule *dynpf_rules_view_get(const struct dynpf_rules_view *v, __u32 id)
{
	__u64 e;

	if (!id || id >= v->nids)
		return NULL;
	e = __atomic_load_n(&v->idx[id], __ATOMIC_ACQUIRE);
	if (!e || e >= v->nents)
		return NULL;
	return &v->ent[e].r;
}

int dynpf_ruleset_read_view(const struct dynpf_rules_view *v, struct dynpf_ruleset *rs)
{
	if (v->st->default_action == DYNPF_ACT_DROP) {
		rs->set_seen |= 1u << DYNPF_SET_DEFAULT_ACTION;
		rs->set[DYNPF_SET_DEFAULT_ACTION] = DYNPF_ACT_DROP;
	}
	if (v->st->arp_nd_rules) {
		rs->set_seen |= 1u << DYNPF_SET_PASS_ARP_ND;
		rs->set[DYNPF_SET_PASS_ARP_ND] = 0;
	}
	/* The declared protocols in force. */
	rs->protos = v->protos[dynpf_proto_tab_cur(&v->protos[0], &v->protos[1], v->st->gen)];
	rs->protos.born = 0;
	for (__u32 id = 1; id < v->nids; id++) {
		const struct dynpf_rule *r = dynpf_rules_view_get(v, id);

		if (!r)
			continue;
		if (rs->n == rs->cap) {
			size_t ncap = rs->cap ? 2 * rs->cap : 64;
			void *nr = realloc(rs->rules, ncap * sizeof(*rs->rules));
			void *l = nr ? realloc(rs->lines, ncap * sizeof(*rs->lines)) : NULL;

			if (nr)
				rs->rules = nr;
			if (!nr || !l)
				return -ENOMEM;
			rs->lines = l;
			rs->cap = ncap;
		}
		rs->lines[rs->n] = 0;
		rs->rules[rs->n++] = *r;
		dynpf_rule_ids_set(&rs->ids, id);
	}
	return 0;
}

int dynpf_ruleset_read(struct dynpf_bpf *skel, struct dynpf_ruleset *rs)
{
	struct dynpf_rules_view v;
	int err = dynpf_rules_view_open(skel, &v);

	if (err)
		return err;
	err = dynpf_ruleset_read_view(&v, rs);
	dynpf_rules_view_close(&v);
	return err;
}
