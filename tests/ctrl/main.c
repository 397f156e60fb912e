// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tests of the control channel and the classifier, against the real BPF
 * programs (BPF_PROG_TEST_RUN; needs root): every message type, every
 * refusal with its errno and field, a hostile producer writing raw bytes,
 * atomic transactions, counters, priorities, non-terminal actions, the BPF
 * classifier against a linear reference on random rule sets, its quick
 * test against dynpf_rule_match() on every capture (natively), packets
 * classified while transactions commit, and a 100,000-rule load.
 *
 * One file a topic (ctrl.h lists them); main() runs them in order. Prints
 * one line per failure and ends with "test_ctrl: N passed, N failed"
 * (tests/lib/unit.h).
 */
#include "lib/progs.h"

#include "ctrl.h"

/* What every test runs against. */
struct dynpf_progs pr;
struct dynpf_ctrl c;

int reopen_hooks(uint32_t max_rules, unsigned int hooks)
{
	struct dynpf_parse_cfg cfg = DYNPF_PARSE_CFG_DEFAULT;

	dynpf_ctrl_close(&c);
	dynpf_progs_close(&pr);
	if (dynpf_progs_open_hooks(&pr, DYNPF_TRACE_TEST_RUN, &cfg, max_rules, hooks) ||
	    dynpf_ctrl_open(&c, pr.skel))
		return -1;
	return 0;
}

int reopen(uint32_t max_rules)
{
	return reopen_hooks(max_rules, CTRL_HOOKS_XDP);
}

int main(void)
{
	struct dynpf_parse_cfg cfg = DYNPF_PARSE_CFG_DEFAULT;

	if (dynpf_probe_kernel())
		return 2;
	if (dynpf_progs_open_hooks(&pr, DYNPF_TRACE_TEST_RUN, &cfg, DYNPF_MAX_RULES,
				   CTRL_HOOKS_XDP))
		return 2;
	if (dynpf_ctrl_open(&c, pr.skel))
		return 2;
	test_empty();
	test_basic();
	test_persist();
	test_settings();
	test_backpressure();
	test_recover();
	test_refusals();
	test_hostile();
	test_prio_nonterm();
	test_differential();
	test_differential_mixed();
	test_keyed_hint();
	test_fs_counts();
	test_cand_cache();
	test_optw_bits();
	test_inner_sel();
	test_differential_options();
	test_quick_tuples();
	test_quick();
	test_concurrency();
	test_reclaim(-1); /* what the concurrency test retired */
	test_single_in_force();
	test_reclaim(-1);
	test_held();
	test_actions();
	test_bytes();
	test_inner_bounds();
	test_sample();
	test_protos();
	test_catchall_alone();
	test_100k();
	dynpf_ctrl_close(&c);
	dynpf_progs_close(&pr);
	return unit_report("test_ctrl");
}
