/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The native reference classifier: a rule set against a parse result in
 * user space, with the same dynpf_rule_match() as the BPF classifier
 * (rules/match.h). `replay --rules --check-native` and the tests compare the
 * BPF programs' verdicts with it.
 */
#ifndef DYNPF_LANG_CLASSIFY_H
#define DYNPF_LANG_CLASSIFY_H

#include "dynpf/ctrl.h"
#include "lang/rules_lang.h"

/*
 * Classify p with every rule of rs in (prio, id) order, the first terminal
 * match deciding (docs/rules.md). Rate state is not kept: limit rules
 * always conform, sample rules always act. bytes: the packet's p->pkt_len
 * bytes, which the byte tests read (NULL: no byte test matches).
 */
void dynpf_classify_native(const struct dynpf_ruleset *rs, const struct dynpf_pkt *p,
			   const __u8 *bytes, struct dynpf_verdict *v);

#endif
