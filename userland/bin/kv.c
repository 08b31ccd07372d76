/* SPDX-License-Identifier: BSD-2-Clause */
/* kv — the client of kvd:  kv put KEY VALUE | kv get KEY | kv del KEY |
 * kv count. It finds the service by name and talks to it only by IPC. */
#include <stdio.h>
#include <string.h>
#include <mosaic.h>
#include <kv.h>

#define KV_TIMEOUT_NS (5ull * 1000000000ull)

int main(int argc, char **argv)
{
	static const char *const ops[] = { "", "put", "get", "del", "count" };
	int op = 0;
	for (int i = 1; argc >= 2 && i <= KV_COUNT; i++)
		if (strcmp(argv[1], ops[i]) == 0)
			op = i;
	if (!op || argc != (op == KV_PUT ? 4 : op == KV_COUNT ? 2 : 3)) {
		printf("usage: kv put KEY VALUE | kv get KEY | kv del KEY | kv count\n");
		return 2;
	}
	char req[KV_KEY_MAX + KV_VALUE_MAX], value[KV_VALUE_MAX];
	size_t n = 0;
	if (op != KV_COUNT) {
		size_t k = strlen(argv[2]), v = op == KV_PUT ? strlen(argv[3]) : 0;
		if (k == 0 || k >= KV_KEY_MAX || v >= KV_VALUE_MAX) {
			printf("kv: key of 1..%d and value of at most %d characters\n", KV_KEY_MAX - 1,
			       KV_VALUE_MAX - 1);
			return 2;
		}
		memcpy(req, argv[2], k + 1);
		n = k + 1;
		if (op == KV_PUT) {
			memcpy(req + n, argv[3], v + 1);
			n += v + 1;
		}
	}
	int h = svc_lookup(KV_SERVICE);
	if (h < 0) {
		printf("kv: no service \"%s\": %s\n", KV_SERVICE, strerror(h));
		return 1;
	}
	struct ipc_msg m = { .label = (uint64_t)op, .buf = req, .len = n, .rbuf = value,
			     .rcap = sizeof(value) };
	int rc = ipc_call(h, &m, KV_TIMEOUT_NS);
	if (rc == 0 && m.label)
		rc = (int)(int64_t)m.label;
	if (rc) {
		printf("kv: %s: %s\n", ops[op], strerror(rc));
		return 1;
	}
	if (op == KV_GET)
		printf("%s = %.*s\n", argv[2], (int)(m.rlen ? m.rlen - 1 : 0), value);
	else if (op == KV_COUNT)
		printf("kv: %lu keys\n", m.w[0]);
	else
		printf("kv: %s %s: ok\n", ops[op], argv[2]);
	return 0;
}
