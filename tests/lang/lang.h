/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * build/test_rules (tests/lang/): what its files share. The helpers
 * (main.c) check a rule or an error as a rule file holds it, named
 * FILE_NAME; every rule they parse is also formatted, parsed back and
 * compared (roundtrip).
 */
#ifndef DYNPF_TESTS_LANG_H
#define DYNPF_TESTS_LANG_H

#include <stddef.h>

#include "lang/rules_lang.h"

#include "../lib/unit.h"

#define FILE_NAME "t.rules"

/* Format r, parse it back, compare: the struct and the text must not change. */
void roundtrip(const char *name, const struct dynpf_rule *r);
/* One line of a rule file, which must be a valid rule: 0, or -1 (failed). */
int rule(const char *name, const char *text, struct dynpf_rule *r);
/* The normalized text of a one-rule line is want. */
void normalized(const char *text, const char *want);
/* len bytes of file text, which must fail with exactly want. */
void fails_n(const char *name, const char *text, size_t len, const char *want);
/* The same for a C string, named after itself. */
void fails(const char *text, const char *want);

/* matches.c */
void test_matches(void);
void test_tlvs_and_values(void);
/* actions.c */
void test_actions(void);
void test_timeouts(void);
void test_ids_and_settings(void);
/* format.c */
void test_normalized(void);
void test_roundtrip_file(void);
void test_format_buffer(void);
/* errors.c */
void test_errors(void);
void test_hostile(void);
/* needs.c */
void test_needs(void);
/* protos.c */
void test_proto_check(void);
void test_proto_lang(void);

#endif
