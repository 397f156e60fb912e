// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The reference of tcpfast.c: the parse graph built without the TCP
 * options' fast path (parsers/tcp.h), so every option area is walked.
 */
#define DYNPF_TCP_OPT_FAST 0
#define TCPFAST_PARSE tcpfast_parse_walk
#include "tcpfast_parse.h"

#include "parsers.h"
