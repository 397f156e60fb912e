// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The reference of tcpfast.c: the parse graph built without the TCP
 * options' fast path (parsers/tcp.h) and their own walk, and without the
 * Geneve options' own walk, so every option area is walked by the loop of
 * the other families (parsers/tlvstep.h).
 */
#define DYNPF_TCP_OPT_FAST 0
#define DYNPF_TCP_OPT_LOOP 0
#define DYNPF_GENEVE_OPT_LOOP 0
#define TCPFAST_PARSE tcpfast_parse_walk
#include "tcpfast_parse.h"

#include "parsers.h"
