// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf bench: placeholder replaced by the benchmark implementation. */
#include "cmds.h"
#include "log.h"

int cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	p_err("bench: not built yet");
	return DYNPF_EXIT_USAGE;
}
