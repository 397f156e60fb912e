/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What the fuzz targets share: a failed invariant aborts, saying which. */
#ifndef DYNPF_FUZZ_H
#define DYNPF_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

/* FUZZ_NAME: the target's name, defined before this header. */
#define CHECK(cond, ...)                                               \
	do {                                                           \
		if (!(cond)) {                                         \
			fprintf(stderr, "%s: %s: ", FUZZ_NAME, #cond); \
			fprintf(stderr, __VA_ARGS__);                  \
			fputc('\n', stderr);                           \
			abort();                                       \
		}                                                      \
	} while (0)

#endif
