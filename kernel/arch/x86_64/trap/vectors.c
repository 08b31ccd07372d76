/* SPDX-License-Identifier: BSD-2-Clause */
/* vectors.c — the vector -> handler table that trap_dispatch() (trap.c)
 * reads. A file of its own so that registering a handler, which drivers at
 * every layer do, links nothing but the table: not the assembly entry points and
 * the dispatcher behind them, which call up into the thread layer. */
#include <arch/x86_64/trap/trap.h>

trap_handler_t trap_handlers[256];

/* Boot-time, before the vector can fire. */
void trap_set_handler(uint8_t vector, trap_handler_t handler)
{
	trap_handlers[vector] = handler;
}
