/* SPDX-License-Identifier: BSD-2-Clause */
/* ucheck.c — system-call argument checks without kernel state (see ucheck.h). */
#include <user/ucheck.h>
#include <user/ulayout.h>

/* See ucheck.h. */
int ucheck_range(uint64_t addr, uint64_t len)
{
	if (addr < USER_PTR_LOW || addr >= USER_TOP || len > USER_TOP - addr)
		return ERR_FAULT;
	return 0;
}

/* See ucheck.h. */
int ucheck_timeout(uint64_t ns)
{
	return ns <= TIMEOUT_MAX_NS || ns == IPC_FOREVER ? 0 : ERR_INVAL;
}

/* Length of s up to max (max when no NUL comes first). */
static uint64_t ucheck_len(const char *s, uint64_t max)
{
	uint64_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

/* See ucheck.h. */
int ucheck_svc_name(const char *s)
{
	uint64_t n = ucheck_len(s, SVC_NAME_MAX);
	if (n == 0)
		return ERR_INVAL;
	if (n >= SVC_NAME_MAX)
		return ERR_TOOBIG;
	for (uint64_t i = 0; i < n; i++) {
		char c = s[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
			return ERR_INVAL;
	}
	return 0;
}

/* See ucheck.h. */
int ucheck_program_name(const char *s)
{
	uint64_t n = ucheck_len(s, PROC_NAME_MAX);
	if (n == 0 || s[0] == '.')
		return ERR_INVAL;
	if (n >= PROC_NAME_MAX)
		return ERR_TOOBIG;
	for (uint64_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return ERR_INVAL;
	}
	return 0;
}

/* See ucheck.h. */
int ucheck_spawn_req(const struct spawn_req *r)
{
	if (r->argc == 0 || r->argc > SPAWN_ARGC_MAX || r->nhandles > SPAWN_HANDLES_MAX)
		return r->argc > SPAWN_ARGC_MAX || r->nhandles > SPAWN_HANDLES_MAX ? ERR_TOOBIG
										    : ERR_INVAL;
	if ((r->flags & ~(uint32_t)(SPAWN_WAIT_READY | SPAWN_CAP_NICE | SPAWN_NEW_JOB)) || r->reserved)
		return ERR_INVAL;
	return ucheck_timeout(r->ready_timeout_ns);
}

/* See ucheck.h. */
int ucheck_cpumask(const uint64_t *mask, uint64_t bytes, unsigned ncpu)
{
	int any = 0;
	if (bytes == 0 || bytes % 8 || bytes > 32)
		return ERR_INVAL;
	for (uint64_t w = 0; w < bytes / 8; w++) {
		for (unsigned b = 0; b < 64; b++) {
			if (!((mask[w] >> b) & 1))
				continue;
			if (w * 64 + b >= ncpu)
				return ERR_INVAL;
			any = 1;
		}
	}
	return any ? 0 : ERR_INVAL;
}
