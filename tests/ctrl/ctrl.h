/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * build/test_ctrl (tests/ctrl/): what its files share. The programs and the
 * control channel under test (main.c opens them, reopen() loads them
 * afresh), the packets and rules the tests build, and the tests main()
 * runs, in its order: each starts from the state the one before it left.
 */
#ifndef DYNPF_TESTS_CTRL_H
#define DYNPF_TESTS_CTRL_H

#include <stdint.h>

#include "channel/ring.h"
#include "lib/progs.h"

#include "../lib/unit.h"

extern struct dynpf_progs pr;
extern struct dynpf_ctrl c;

/*
 * Start again from an empty rule set: a fresh load of the programs, XDP's
 * alone (most tests run only it); reopen_hooks() loads the hooks asked for
 * (1 << DYNPF_HOOK_*). A load of every hook is 2.1M verified instructions,
 * seconds of the suite for each of the twenty loads.
 */
int reopen(uint32_t max_rules);
int reopen_hooks(uint32_t max_rules, unsigned int hooks);
#define CTRL_HOOKS_XDP (1u << DYNPF_HOOK_XDP)
#define CTRL_HOOKS_XDP_TC (CTRL_HOOKS_XDP | 1u << DYNPF_HOOK_TC_INGRESS)

/* ---- packets (fixtures.c) ------------------------------------------------ */

struct pkt {
	uint8_t b[256];
	uint32_t n;
};

void mk4(struct pkt *p, uint8_t proto, uint8_t s, uint8_t d, uint16_t sport, uint16_t dport,
	 uint8_t flags);
void mk6(struct pkt *p, uint8_t proto, uint8_t s, uint8_t d, uint16_t sport, uint16_t dport);
void mk_ipip(struct pkt *p, uint8_t s, const struct pkt *inner);
int run(const struct pkt *p, struct dynpf_verdict *v, struct dynpf_pkt *parsed);
/* A test run of prog on p (TC: skb in and out, may be NULL): its return code. */
#define TEST_RUN_FAILED (-1000)
struct bpf_program;
struct __sk_buff;
int test_run(struct bpf_program *prog, const struct pkt *p, struct __sk_buff *skb);

/* ---- rules and transactions (fixtures.c) --------------------------------- */

struct dynpf_rule rule(uint32_t id, uint32_t prio, uint8_t action);
void m_dport(struct dynpf_rule *r, uint16_t lo, uint16_t hi);
/* One byte test of len bytes at off, all ones under the mask, value 0. */
void m_data(struct dynpf_rule *r, uint8_t where, uint32_t type, uint16_t off, uint8_t len);
void m_proto(struct dynpf_rule *r, uint8_t proto);
void m_src4(struct dynpf_rule *r, uint8_t last, uint8_t plen);
void m_src6(struct dynpf_rule *r, uint8_t last, uint8_t plen);
struct dynpf_ack_commit ack_of(uint64_t seq);
struct dynpf_ack_commit txn(const struct dynpf_rule *rules, int n);
uint64_t rule_packets(uint32_t id);

/* ---- the tests ------------------------------------------------------------ */

/* channel.c */
void test_empty(void);
void test_basic(void);
void test_persist(void);
void test_settings(void);
void test_catchall_alone(void);
void test_backpressure(void);
void test_recover(void);
/* refusals.c */
void test_refusals(void);
void test_hostile(void);
/* actions.c */
void test_prio_nonterm(void);
void test_actions(void);
void test_bytes(void);
void test_sample(void);
/* differential.c */
void test_differential(void);
void test_differential_mixed(void);
void test_keyed_hint(void);
void test_fs_counts(void);
void test_cand_cache(void);
void test_optw_bits(void);
void test_inner_sel(void);
void test_differential_options(void);
void test_quick_tuples(void);
/* quick.c */
void test_quick(void);
void test_100k(void);
/* concurrency.c */
void test_concurrency(void);
/* bounds.c */
void test_inner_bounds(void);
/* txn.c */
void test_single_in_force(void);
void test_reclaim(int konst);
void test_held(void);

/* protos.c */
void test_protos(void);

#endif
