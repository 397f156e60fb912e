// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Small helpers (util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"

const char *dynpf_table_name(const char *const *names, size_t n, unsigned int v, const char *dflt)
{
	return v < n && names[v] ? names[v] : dflt;
}

double dynpf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int64_t dynpf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double dynpf_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return 0;
	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double dynpf_median_u32(const uint32_t *v, size_t n)
{
	double *d, m;

	if (!n)
		return 0;
	d = malloc(n * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 0; i < n; i++)
		d[i] = v[i];
	m = dynpf_median(d, n);
	free(d);
	return m;
}

json_object *dynpf_json_num(double v, const char *fmt)
{
	char s[32];

	snprintf(s, sizeof(s), fmt, v);
	return json_object_new_double_s(v, s);
}
