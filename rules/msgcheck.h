/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The control channel's checks that need no state: a message's header (its
 * version, type and size) and the fields of each type. The BPF drain
 * (bpf/drain.bpf.c) runs them first, then the checks that need the rule set
 * (an id in use, the transaction's room); dynpf_msg_check() runs them all
 * natively, for the fuzzer (fuzz/fuzz_ctrlmsg.c). Each returns 0, or
 * -errno with *field naming the first field that is wrong (the ack's).
 */
#ifndef DYNPF_RULES_MSGCHECK_H
#define DYNPF_RULES_MSGCHECK_H

#include "match.h"
#include "protocheck.h"

#ifndef EPROTO
#define EPROTO 71
#endif
#ifndef EMSGSIZE
#define EMSGSIZE 90
#endif

union dynpf_msg {
	struct dynpf_msg_hdr h;
	struct dynpf_msg_rule_add add;
	struct dynpf_msg_rule_del del;
	struct dynpf_msg_txn txn;
	struct dynpf_msg_set set;
	struct dynpf_msg_counter_reset reset;
	struct dynpf_msg_proto_add padd;
	struct dynpf_msg_proto_del pdel;
};

/* The size of a message of this type, 0 for no such type. */
dynpf_inline __u32 dynpf_msg_size(__u32 type)
{
	switch (type) {
	case DYNPF_MSG_RULE_ADD:
		return sizeof(struct dynpf_msg_rule_add);
	case DYNPF_MSG_RULE_DEL:
		return sizeof(struct dynpf_msg_rule_del);
	case DYNPF_MSG_TXN_BEGIN:
	case DYNPF_MSG_TXN_COMMIT:
	case DYNPF_MSG_TXN_ABORT:
		return sizeof(struct dynpf_msg_txn);
	case DYNPF_MSG_SET:
		return sizeof(struct dynpf_msg_set);
	case DYNPF_MSG_COUNTER_RESET:
		return sizeof(struct dynpf_msg_counter_reset);
	case DYNPF_MSG_PROTO_ADD:
		return sizeof(struct dynpf_msg_proto_add);
	case DYNPF_MSG_PROTO_DEL:
		return sizeof(struct dynpf_msg_proto_del);
	}
	return 0;
}

/* The header of a ring record of size bytes. */
dynpf_inline int dynpf_msg_hdr_check(const struct dynpf_msg_hdr *h, __u32 size, __u16 *field)
{
	__u32 want;

	if (h->version != DYNPF_CTRL_VERSION) {
		*field = DYNPF_F_VERSION;
		return -EPROTO;
	}
	want = dynpf_msg_size(h->type);
	if (!want) {
		*field = DYNPF_F_TYPE;
		return -EINVAL;
	}
	if (size != want || h->size != want) {
		*field = DYNPF_F_SIZE;
		return -EMSGSIZE;
	}
	return 0;
}

dynpf_inline int dynpf_msg_del_check(const struct dynpf_msg_rule_del *m, __u16 *field)
{
	if (m->id == 0 || m->id >= DYNPF_MAX_RULES)
		DYNPF_REFUSE(ID);
	if (m->pad)
		DYNPF_REFUSE(PAD);
	return 0;
}

dynpf_inline int dynpf_msg_set_check(const struct dynpf_msg_set *m, __u16 *field)
{
	if (m->pad)
		DYNPF_REFUSE(PAD);
	switch (m->key) {
	case DYNPF_SET_DEFAULT_ACTION:
		if (m->value != DYNPF_ACT_PASS && m->value != DYNPF_ACT_DROP)
			DYNPF_REFUSE(VALUE);
		return 0;
	case DYNPF_SET_PASS_ARP_ND:
		if (m->value > 1)
			DYNPF_REFUSE(VALUE);
		return 0;
	}
	DYNPF_REFUSE(KEY);
}

dynpf_inline int dynpf_msg_reset_check(const struct dynpf_msg_counter_reset *m, __u16 *field)
{
	if (m->pad)
		DYNPF_REFUSE(PAD);
	if (m->id >= DYNPF_MAX_RULES)
		DYNPF_REFUSE(ID);
	return 0;
}

dynpf_inline int dynpf_msg_proto_del_check(const struct dynpf_msg_proto_del *m, __u16 *field)
{
	if (m->id >= DYNPF_MAX_PROTOS)
		DYNPF_REFUSE(PROTO_ID);
	if (m->pad)
		DYNPF_REFUSE(PAD);
	return 0;
}

#if !defined(__bpf__)
/*
 * All of the above for the size bytes at buf, as the drain reads them (a
 * record shorter than the header is refused first), the rule of a
 * RULE_ADD (dynpf_rule_check(): in BPF, through its global subprogram) and
 * the declaration of a PROTO_ADD (dynpf_proto_check()).
 */
dynpf_inline int dynpf_msg_check(const void *buf, __u32 size, __u16 *field)
{
	union dynpf_msg m;
	int err;

	*field = DYNPF_F_NONE;
	if (size < sizeof(struct dynpf_msg_hdr)) {
		*field = DYNPF_F_SIZE;
		return -EMSGSIZE;
	}
	__builtin_memset(&m, 0, sizeof(m));
	__builtin_memcpy(&m.h, buf, sizeof(m.h));
	err = dynpf_msg_hdr_check(&m.h, size, field);
	if (err)
		return err;
	__builtin_memcpy(&m, buf, size);
	switch (m.h.type) {
	case DYNPF_MSG_RULE_ADD:
		return dynpf_rule_check(&m.add.rule, field);
	case DYNPF_MSG_RULE_DEL:
		return dynpf_msg_del_check(&m.del, field);
	case DYNPF_MSG_SET:
		return dynpf_msg_set_check(&m.set, field);
	case DYNPF_MSG_COUNTER_RESET:
		return dynpf_msg_reset_check(&m.reset, field);
	case DYNPF_MSG_PROTO_ADD:
		return dynpf_proto_check(&m.padd.d, field);
	case DYNPF_MSG_PROTO_DEL:
		return dynpf_msg_proto_del_check(&m.pdel, field);
	}
	return 0;
}
#endif

#endif /* DYNPF_RULES_MSGCHECK_H */
