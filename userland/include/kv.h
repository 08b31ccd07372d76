/* SPDX-License-Identifier: BSD-2-Clause */
/* kv.h — the protocol of kvd, the key-value service (docs/userland.md):
 * clients reach it only by IPC, through the service name KV_SERVICE.
 * A call's label is the operation; the buffer carries the key (and for
 * KV_PUT, a NUL and the value); the reply's label is 0 or an ERR_* code,
 * and a KV_GET reply's buffer is the value. */
#ifndef MOSAIC_LIBC_KV_H
#define MOSAIC_LIBC_KV_H

#define KV_SERVICE   "kv"
#define KV_PUT       1
#define KV_GET       2
#define KV_DEL       3
#define KV_COUNT     4          /* reply word 0: how many keys */
#define KV_KEY_MAX   32         /* with its NUL */
#define KV_VALUE_MAX 256        /* with its NUL */
#define KV_ENTRIES   64

#endif
