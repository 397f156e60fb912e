// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The native parsers' unit tests (parsers.h lists them). */
#include "parsers.h"

int main(void)
{
	test_good();
	test_malformed();
	test_every_truncation();
	test_ipv4_options();
	test_ipv6_ext();
	test_tunnels();
	test_lengths();
	test_decl();
	test_tcp_opts_fast();
	return unit_report("test_parsers");
}
