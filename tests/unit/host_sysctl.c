/* SPDX-License-Identifier: BSD-2-Clause */
/* host_sysctl.c — setting the linked sysctls by name (see host_sysctl.h). */
#include <tests/unit/host_sysctl.h>
#include <stdio.h>
#include <lib/sysctl.h>

extern const struct sysctl_oid __sysctl_start[], __sysctl_end[];
static const struct sysctl_set host_set = { __sysctl_start, __sysctl_end };

/* See host_sysctl.h. */
int host_sysctl_set(const char *name, int64_t value)
{
	struct sysctl_ref ref;
	char text[24], err[128];
	if (sysctl_find(&host_set, name, &ref)) {
		fprintf(stderr, "host_sysctl: no sysctl %s\n", name);
		return -1;
	}
	snprintf(text, sizeof(text), "%ld", value);
	if (sysctl_write(&ref, text, err, sizeof(err))) {
		fprintf(stderr, "host_sysctl: %s\n", err);
		return -1;
	}
	return 0;
}
