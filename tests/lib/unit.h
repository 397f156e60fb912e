/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The harness of the C unit tests (build/test_parsers, test_rules,
 * test_ctrl). Every check passes or fails; a failed one prints
 * "FAIL NAME: WHY", a skipped one "skip  NAME (WHY)", both on stdout; and
 * unit_report() prints the last line, "PROG: N passed, N failed" (and
 * ", N skipped" when something was skipped). tests/run.sh's unit() reads
 * those three kinds of lines.
 */
#ifndef DYNPF_TESTS_UNIT_H
#define DYNPF_TESTS_UNIT_H

void unit_pass(void);
void unit_fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void unit_skip(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The summary line of PROG; returns the exit status: 1 if a check failed. */
int unit_report(const char *prog);

/* COND holds, or NAME fails and says why (printf; evaluated only then). */
#define CHECK(name, cond, ...)                        \
	do {                                          \
		if (cond)                             \
			unit_pass();                  \
		else                                  \
			unit_fail(name, __VA_ARGS__); \
	} while (0)

/* GOT equals WANT as integers; a failure shows both, and where it was. */
#define CHECK_EQ(name, got, want)                                                             \
	do {                                                                                  \
		long long g_ = (long long)(got), w_ = (long long)(want);                      \
		CHECK(name, g_ == w_, "%s = %lld, want %lld (%s:%d)", #got, g_, w_, __FILE__, \
		      __LINE__);                                                              \
	} while (0)

#endif
