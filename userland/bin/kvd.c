/* SPDX-License-Identifier: BSD-2-Clause */
/* kvd — a key-value service in user space, the microkernel style: it owns
 * its table, publishes an endpoint under the name "kv" and answers calls
 * (kv.h); nothing else can touch its data. Started by init (init.rc). */
#include <stdio.h>
#include <string.h>
#include <mosaic.h>
#include <kv.h>

struct entry {
	char key[KV_KEY_MAX];
	char value[KV_VALUE_MAX];
};

static struct entry table[KV_ENTRIES];
static char req[KV_KEY_MAX + KV_VALUE_MAX];

static struct entry *find(const char *key)
{
	for (int i = 0; i < KV_ENTRIES; i++)
		if (table[i].key[0] && strcmp(table[i].key, key) == 0)
			return &table[i];
	return NULL;
}

/* Handles one request in m (the buffer in req[0..m->rlen)); sets the reply. */
static void serve(struct ipc_msg *m)
{
	uint64_t n = m->rlen;
	size_t klen = strnlen(req, n);
	m->buf = NULL;
	m->len = 0;
	m->w[0] = m->w[1] = m->w[2] = m->w[3] = 0;
	if (m->label == KV_COUNT) {
		for (int i = 0; i < KV_ENTRIES; i++)
			m->w[0] += table[i].key[0] != 0;
		m->label = 0;
		return;
	}
	if (klen == 0 || klen >= KV_KEY_MAX || klen == n) {
		m->label = (uint64_t)ERR_INVAL;   /* no key, too long, or no NUL after it */
		return;
	}
	struct entry *e = find(req);
	if (m->label == KV_GET || m->label == KV_DEL) {
		m->label = e ? 0 : (uint64_t)ERR_NOENT;
		if (e && m->label == 0 && m->w[0] == 0) {
			m->buf = e->value;
			m->len = strlen(e->value) + 1;
		}
		return;
	}
	if (m->label != KV_PUT) {
		m->label = (uint64_t)ERR_NOSYS;
		return;
	}
	const char *value = req + klen + 1;
	size_t vlen = strnlen(value, n - klen - 1);
	if (vlen == n - klen - 1 || vlen >= KV_VALUE_MAX) {
		m->label = (uint64_t)ERR_INVAL;
		return;
	}
	for (int i = 0; !e && i < KV_ENTRIES; i++)
		if (!table[i].key[0])
			e = &table[i];
	if (!e) {
		m->label = (uint64_t)ERR_NOSPC;
		return;
	}
	strlcpy(e->key, req, sizeof(e->key));
	strlcpy(e->value, value, sizeof(e->value));
	m->label = 0;
}

int main(void)
{
	int h = ep_create();
	int rc = h < 0 ? h : svc_publish(h, KV_SERVICE);
	if (rc < 0) {
		printf("kvd: cannot publish \"%s\": %s\n", KV_SERVICE, strerror(rc));
		return 1;
	}
	ready();
	struct ipc_msg m = { .rbuf = req, .rcap = sizeof(req) - 1 };
	rc = ipc_recv(h, &m, IPC_FOREVER);
	for (;;) {
		if (rc == 0) {
			req[m.rlen] = 0;
			int del = m.label == KV_DEL;
			serve(&m);
			if (del && m.label == 0) {
				struct entry *e = find(req);
				memset(e, 0, sizeof(*e));
			}
		} else {
			m.label = (uint64_t)(int64_t)rc;   /* ERR_MSGSIZE: refused */
			m.buf = NULL;
			m.len = 0;
		}
		m.rbuf = req;
		m.rcap = sizeof(req) - 1;
		rc = ipc_reply_recv(h, &m, IPC_FOREVER);
		if (rc == ERR_NOREPLY || rc == ERR_DEAD)
			rc = ipc_recv(h, &m, IPC_FOREVER);
	}
}
