/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Verifier-negative tests: each program here misuses the cursor API and
 * must be rejected by the verifier with the message in its EXPECT line.
 * tests/run.sh loads each one with build/test_verifier.
 */
#include "dynpf/pkt.h"
#include "cursor.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";
