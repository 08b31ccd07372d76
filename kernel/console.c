/* console.c — fan-out of kernel output to sinks; the input ring. */
#include <console.h>
#include <cpu.h>

static struct console_sink *sinks;

#define INPUT_RING 256
static volatile char input_ring[INPUT_RING];
static volatile unsigned input_head, input_tail;   /* head: next write */

/* Boot-time, single CPU: appends to the sink list. */
void console_register(struct console_sink *sink)
{
	sink->next = NULL;
	struct console_sink **p = &sinks;
	while (*p)
		p = &(*p)->next;
	*p = sink;
}

/* Interrupts off while writing, so an interrupt handler's output does not
 * land in the middle of a sink's state update. */
void console_write(const char *buf, size_t len)
{
	uint64_t flags = cpu_save_flags_cli();
	for (struct console_sink *s = sinks; s; s = s->next)
		s->write(buf, len);
	cpu_restore_flags(flags);
}

/* Called with interrupts off (from handlers). Drops input when full. */
void console_input_push(char c)
{
	unsigned next = (input_head + 1) % INPUT_RING;
	if (next == input_tail)
		return;
	input_ring[input_head] = c;
	input_head = next;
}

/* Single consumer (the shell). Sleeps with sti;hlt so a byte arriving
 * between the check and the halt still wakes us. */
char console_getc(void)
{
	for (;;) {
		cpu_cli();
		if (input_tail != input_head) {
			char c = input_ring[input_tail];
			input_tail = (input_tail + 1) % INPUT_RING;
			cpu_sti();
			return c;
		}
		cpu_sti_hlt();
	}
}
